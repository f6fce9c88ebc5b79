/// A `.dat` init packet (dfu-cc.proto `Packet`), decoded for display and verification. A DFU client
/// sends `bytes` verbatim; `initCommandRange` is where the `InitCommand` sits in them, because the
/// signature covers those exact bytes and a re-encoding would differ (reference §9).
public struct NordicInitPacket: Sendable, Equatable {
    public struct Signature: Sendable, Equatable {
        /// `SignatureType`: 0 ECDSA P-256 with SHA-256, 1 Ed25519.
        public var type: UInt64
        /// As stored: r then s, each 32 bytes byte-reversed.
        public var bytes: [UInt8]
    }

    /// Larger than any Secure DFU bootloader's command object (INIT_COMMAND_MAX_SIZE, 512 since SDK 15.3).
    public static let maximumSize = 512

    public let bytes: [UInt8]
    public let initCommand: NordicInitCommand
    public let initCommandRange: Range<Int>
    /// nil for an unsigned packet (`Packet.command`).
    public let signature: Signature?

    /// The bytes the signature covers.
    public var signedBytes: ArraySlice<UInt8> { bytes[initCommandRange] }

    /// Decodes `bytes`; `file` names the `.dat` in errors.
    public init(bytes: [UInt8], file: String) throws(NordicPackageError) {
        guard bytes.count <= Self.maximumSize else {
            throw .initPacketInvalid(file: file, reason: "it is \(bytes.count) bytes; Secure DFU bootloaders take at most \(Self.maximumSize)")
        }
        do throws(InitPacketReason) {
            let packet = try ProtobufMessage(bytes, name: "Packet")
            let commandRange: Range<Int>
            switch (try packet.range(1, "command"), try packet.range(2, "signed_command")) {
            case (let plain?, nil):
                commandRange = plain
                signature = nil
            case (nil, let signedRange?):
                let signed = try ProtobufMessage(bytes, range: signedRange, name: "SignedCommand")
                guard let inner = try signed.range(1, "command") else { throw InitPacketReason("SignedCommand has no command") }
                guard let type = try signed.varint(2, "signature_type") else { throw InitPacketReason("SignedCommand has no signature_type") }
                guard let value = try signed.range(3, "signature") else { throw InitPacketReason("SignedCommand has no signature") }
                commandRange = inner
                signature = Signature(type: type, bytes: Array(bytes[value]))
            case (nil, nil):
                throw InitPacketReason("Packet has neither command nor signed_command")
            case (.some, .some):
                throw InitPacketReason("Packet has both command and signed_command")
            }
            let command = try ProtobufMessage(bytes, range: commandRange, name: "Command")
            guard try command.varint(1, "op_code") == 1 else { throw InitPacketReason("Command.op_code is not INIT") }
            guard let initRange = try command.range(2, "init") else { throw InitPacketReason("Command has no init") }
            initCommandRange = initRange
            initCommand = try Self.decodeInitCommand(bytes, range: initRange)
        } catch {
            throw .initPacketInvalid(file: file, reason: error.text)
        }
        self.bytes = bytes
    }

    private static func decodeInitCommand(_ bytes: [UInt8], range: Range<Int>) throws(InitPacketReason) -> NordicInitCommand {
        let message = try ProtobufMessage(bytes, range: range, name: "InitCommand")
        var command = NordicInitCommand()
        command.fwVersion = try message.uint32(1, "fw_version")
        command.hwVersion = try message.uint32(2, "hw_version")
        command.sdReq = try message.repeatedUInt32(3, "sd_req")
        command.type = try message.varint(4, "type").map(NordicFirmwareType.init(wire:))
        command.sdSize = try message.uint32(5, "sd_size")
        command.blSize = try message.uint32(6, "bl_size")
        command.appSize = try message.uint32(7, "app_size")
        if let hashRange = try message.range(8, "hash") {
            let hash = try ProtobufMessage(bytes, range: hashRange, name: "Hash")
            guard let type = try hash.varint(1, "hash_type") else { throw InitPacketReason("Hash has no hash_type") }
            guard let value = try hash.range(2, "hash") else { throw InitPacketReason("Hash has no hash") }
            command.hashType = NordicHashType(wire: type)
            command.storedHash = Array(bytes[value])
        }
        command.isDebug = try message.varint(9, "is_debug").map { $0 != 0 } ?? false
        for validationRange in try message.repeatedRanges(10, "boot_validation") {
            let validation = try ProtobufMessage(bytes, range: validationRange, name: "BootValidation")
            guard let type = try validation.varint(1, "type") else { throw InitPacketReason("BootValidation has no type") }
            let value = try validation.range(2, "bytes") ?? 0 ..< 0
            command.bootValidation.append(.init(type: type, byteCount: value.count))
        }
        return command
    }
}
