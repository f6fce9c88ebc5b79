/// `dfu scan --serial`'s Nordic question: a Ping (`09 <id>`), which an nRF5 SDK bootloader on
/// UART or USB answers `60 09 01 <id>` (`nrf_dfu_serial.c`), as pc-nrfutil pings before an update.
enum NordicSerialProbe {
    /// Echoed in the answer, so an answer to someone else's ping does not count.
    static let id: UInt8 = 0xD2

    /// An END goes first, unlike every other request (`SLIPEncoder`): the probes before this one
    /// left their bytes in the bootloader's SLIP decoder, and the END closes them as a frame of
    /// their own (answered as a bad request, or dropped), so the ping arrives as a frame alone.
    static let ping = SerialProbe(protocolName: .nordic, label: "Nordic Secure DFU", jsonName: "nordic-secure-dfu",
                                  request: [SLIPByte.end] + NordicSerialRequest.ping(id: id).framed,
                                  listen: { Listener() })

    struct Listener: SerialProbeListener {
        var decoder = SLIPDecoder(maximumFrameSize: NordicSerialLimits.maximumResponseFrameSize)

        mutating func receive(_ bytes: [UInt8]) -> Bool {
            decoder.receive(bytes).contains { event in
                guard case .frame(let frame) = event else { return false }
                return (try? NordicSerialResponse(decoding: frame)) == .ping(id: NordicSerialProbe.id)
            }
        }
    }
}
