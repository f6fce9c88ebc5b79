import Transport

/// Nordic Secure DFU over a serial byte stream (an nRF5 SDK bootloader built with the UART or USB
/// CDC ACM transport), shown as the bootloader's GATT face (`NordicDFUService`: Control Point and
/// Packet) so `NordicSession`, its transfer core and the engine drive a serial port as they drive
/// Bluetooth (docs/nordic-serial.md, "The link"). It wraps a byte link (a tty, `SerialTransport`'s
/// `SerialLink`) whose one characteristic carries raw bytes each way.
///
/// - `write(_, to: controlPoint)`: the request's bytes, SLIP-framed; returns once they are written
///   (a serial line has no ATT acknowledgement: the answer is the device's notification).
/// - `writeWithoutResponse(_, to: packet)`: Write Object requests (`08` and the data), each at
///   most `payload` bytes (the MTU rule, `NordicSerialWriteSize`); a longer value is sliced.
///   `maxWriteWithoutResponse` is `payload` and `attMTU` is `payload + 3`, so the transfer core's
///   packets (ATT MTU − 3 rounded down to a multiple of 4) fit one Write Object each, and a packet
///   receipt counts the same writes the core counts.
/// - Answers `60 <op> …` to the shared requests, packet receipts included (a Calculate Checksum
///   answer, as over BLE), arrive as Control Point notifications, byte for byte. Answers to the
///   serial-only requests (ping, MTU) are the link's own, never shown; anything else on the line
///   goes to the observer, and so do Control Point answers that come before the link's first
///   Control Point request: an earlier run's leftovers (`NordicSerialLeftovers`).
///
/// A serial line has no connection: a bootloader that resets is noticed by its silence
/// (`isConnectionless`; `ping` is the probe), unless its USB port vanishes, which ends the byte
/// link and so this one. Writes come from one writer (the session's); concurrent writers could
/// interleave the pieces of a frame longer than the byte link's writes.
public final class NordicSerialLink: Link {
    /// What the link saw besides answers, for the log.
    public enum Note: Sendable, Hashable {
        /// Bytes or a frame thrown away, and why.
        case dropped(String)
        /// An answer to a serial-only request nobody waited for (a late answer to an earlier ping).
        case unexpected(String)
    }

    /// What became of a ping.
    public enum PingOutcome: Sendable, Hashable {
        case answered
        /// No answer in time.
        case silent
        /// The line ended (the port went away or was closed).
        case gone
    }

    /// The face of the byte links this one wraps: the port's bytes as one characteristic.
    public static let byteFace = DatagramGATTFace(service: NordicDFUService.service, characteristic: NordicDFUService.controlPoint)

    /// The bootloader's service as it is over BLE.
    public static let services = [GATTService(NordicDFUService.service, characteristics: [
        GATTCharacteristic(NordicDFUService.controlPoint, properties: NordicDFUService.controlPointProperties),
        GATTCharacteristic(NordicDFUService.packet, properties: NordicDFUService.packetProperties),
    ])]

    public let parameters: LinkParameters
    public var services: [GATTService] { Self.services }
    public var events: AsyncStream<LinkEvent> { channel.events }
    /// The MTU the bootloader reported: the largest SLIP frame it takes.
    public let mtu: UInt16
    /// Object bytes per Write Object (`NordicSerialWriteSize.largestPayload(mtu:)`).
    public let payload: Int
    private let channel: NordicSerialChannel

    /// The link over `channel` once its bootloader has answered and reported `mtu`; nil when the MTU
    /// cannot carry a byte.
    init?(channel: NordicSerialChannel, mtu: UInt16) {
        guard let payload = NordicSerialWriteSize.largestPayload(mtu: mtu) else { return nil }
        self.channel = channel
        self.mtu = mtu
        self.payload = payload
        let base = channel.base.parameters
        parameters = LinkParameters(generation: base.generation, peer: base.peer, attMTU: payload + 3,
                                    maxWriteWithoutResponse: payload,
                                    writeCommandCeiling: base.writeCommandCeiling.map { $0 * Self.efficiency(payload: payload) },
                                    writesAreWholeMessages: true, isConnectionless: true)
    }

    /// Object bytes per byte on the line for Write Objects of `payload` bytes: each frame adds its
    /// opcode and END, and random data has an END or ESC to escape in 2 of 256 bytes.
    static func efficiency(payload: Int) -> Double {
        let data = Double(max(payload, 1))
        return data / (data * (1 + 2.0 / 256) + 2)
    }

    /// A Control Point request, framed and written.
    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == NordicDFUService.controlPoint else { throw refusal(characteristic, missing: .write) }
        try await channel.writeControlPoint(NordicSerialFramer.controlPointFrame(bytes))
    }

    /// Object data as Write Object requests of at most `payload` bytes.
    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == NordicDFUService.packet else { throw refusal(characteristic, missing: .writeWithoutResponse) }
        try await channel.write(NordicSerialFramer.writeObjectFrames(bytes, payload: payload).flatMap { $0 })
    }

    /// Nothing is readable on demand: answers arrive as notifications.
    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        throw refusal(characteristic, missing: .read)
    }

    /// Answers arrive whether or not anyone asked, as the serial transport has no CCCD.
    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        guard characteristic == NordicDFUService.controlPoint else { throw refusal(characteristic, missing: .notify) }
        try await channel.base.subscribe(channel.byteCharacteristic)
    }

    public func disconnect() async {
        await channel.base.disconnect()
    }

    /// Whether the bootloader answers a ping within `timeout` (real time): the probe for a device
    /// that resets, over a line that cannot report it.
    public func ping(timeout: Duration) async -> PingOutcome {
        switch await channel.ping(timeout: timeout) {
        case .answered: return .answered
        case .silent: return .silent
        case .gone: return .gone
        }
    }

    /// What the bootloader tells about itself over the line, read only for `dfu info`
    /// (`NordicSerialDetails.read`).
    func query(_ request: NordicSerialRequest, timeout: Duration) async -> NordicSerialAnswers.Outcome {
        await channel.query(request, timeout: timeout)
    }

    private func refusal(_ characteristic: CharacteristicID, missing: CharacteristicProperties) -> LinkError {
        let known = Self.services.flatMap(\.characteristics).contains { $0.id == characteristic }
        return known ? .notSupported(characteristic, missing: missing) : .characteristicNotFound(characteristic)
    }
}
