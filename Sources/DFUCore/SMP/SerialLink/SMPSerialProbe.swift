/// `dfu scan --serial`'s SMP questions: an OS echo request in Zephyr's console framing, then as a
/// raw packet (`SMPStreamFraming`), as `dfu echo` would send it over the port. Any answer to it
/// counts, a refusal included (MCUboot's serial recovery built without echo answers "not
/// supported"): whatever answers in SMP speaks SMP.
enum SMPSerialProbe {
    /// Console first: it is Zephyr's default, and a raw request means nothing to a console device,
    /// whose shell ignores the line. The other way round, a raw device would read the console
    /// frame's first bytes as a header and hold what follows as its body until its input timer
    /// clears them.
    static let all: [SerialProbe] = [probe(.console, sequence: 0xD0), probe(.raw, sequence: 0xD1)].compactMap { $0 }

    /// The echo text: short, so one console line carries it.
    static let text = "dfu scan"

    /// Nil only if the request could not be framed, which a packet this small always can.
    static func probe(_ framing: SMPStreamFraming, sequence: UInt8) -> SerialProbe? {
        guard let packet = try? OSEchoRequest(text: text).packet(sequence: sequence).encoded(),
              let request = try? SMPStreamFramer(framing: framing).frame(packet) else { return nil }
        return SerialProbe(protocolName: .smp, label: "SMP (\(framing))", jsonName: "smp-\(framing)",
                           deviceOptions: framing == .raw ? ["raw"] : [], request: request,
                           listen: { Listener(framer: SMPStreamFramer(framing: framing), sequence: sequence) })
    }

    /// Decodes the port's bytes in the probe's framing and waits for the echo's response.
    struct Listener: SerialProbeListener {
        var framer: SMPStreamFramer
        let sequence: UInt8

        mutating func receive(_ bytes: [UInt8]) -> Bool {
            framer.receive(bytes).contains { output in
                guard case .packet(let packet) = output,
                      let header = try? SMPHeader(decoding: packet.prefix(SMPHeader.size)) else { return false }
                return answers(header)
            }
        }

        /// The response to our request: the op, not only group, command and sequence, because a
        /// console that echoes what it is sent would hand our own raw request back.
        func answers(_ header: SMPHeader) -> Bool {
            header.op == OSEchoRequest.op.response && header.group == OSEchoRequest.group
                && header.command == OSEchoRequest.command && header.sequence == sequence
        }
    }
}
