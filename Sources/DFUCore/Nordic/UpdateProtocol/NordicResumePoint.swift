/// Which part of a multi-part package a bootloader found in DFU mode is receiving, from its
/// answer to Select(command): the offset and CRC of the init packet it holds (nordic-secure-dfu.md
/// §3.1, §3.4). The device is the truth: the part whose init packet the held bytes begin (or all
/// of them) is the one to continue. Init packets made by nrfutil share their first bytes, so an
/// answer that fits more than one part, or none, starts from the first part (the transfer of a
/// part then re-creates the command object where its own init packet does not match).
enum NordicResumePoint {
    /// The index in `images` to start at.
    static func part(of images: [NordicPackage.Image], holding held: NordicObjectInfo) -> Int {
        let offset = Int(held.offset)
        guard offset > 0 else { return 0 }
        let matching = images.indices.filter { index in
            let initPacket = images[index].initPacket.bytes
            return offset <= initPacket.count && CRC32.checksum(initPacket.prefix(offset)) == held.crc
        }
        return matching.count == 1 ? matching[0] : 0
    }
}
