import Testing
@testable import DFUCore

/// Hostile or damaged packets end in an error, never a trap, on both the client and device side.
@Suite struct SMPRobustnessTests {
    @Test func mutatedPacketsThroughAssemblerAndEveryTypedDecoderNeverTrap() throws {
        let packets = try #require(try CBORVectorFile.load("smp-vectors.json")["packets"]?.array)
        let seeds = packets.compactMap { $0["hex"]?.string }.map(fromHex)
        var rng = SplitMix64(seed: 0xD0F0_5EED)
        var typedDecodes = 0
        for round in 0..<4000 {
            let input = mutate(seeds[round % seeds.count], rng: &rng)
            var assembler = SMPFrameAssembler(maximumFrameSize: 2475)
            // Feed in random-sized notifications, as a BLE link would deliver them.
            var rest = input[...]
            while !rest.isEmpty {
                let size = 1 + Int(rng.next() % 40)
                let chunk = rest.prefix(size)
                rest = rest.dropFirst(size)
                guard let frame = try? assembler.append(chunk) else { continue }
                guard let packet = try? SMPPacket(frame: frame) else { continue }
                typedDecodes += decodeAsEveryType(packet.body)
            }
        }
        #expect(typedDecodes > 0)
    }

    @Test func mutatedBodiesDecodeOrThrowForEveryMessageType() throws {
        let vectors = try #require(try CBORVectorFile.load("cbor-vectors.json")["valid"]?.array)
        let seeds = vectors.filter { ($0["name"]?.string ?? "").contains("smp") || ($0["name"]?.string ?? "").contains("zephyr") }
            .compactMap { $0["hex"]?.string }.map(fromHex)
        #expect(seeds.count >= 8)
        var rng = SplitMix64(seed: 7)
        for round in 0..<3000 {
            let input = mutate(seeds[round % seeds.count], rng: &rng)
            if let map = (try? CBORDecoder().decode(input))?.map { _ = decodeAsEveryType(map) }
        }
    }

    @Test func lyingHeaderLengthsAreCaughtByTheAssembler() {
        var assembler = SMPFrameAssembler(maximumFrameSize: 2475)
        // Header says 65 535 bytes follow.
        #expect(throws: SMPFrameError.frameTooLarge(declared: 65_543, maximum: 2475)) {
            try assembler.append([0x0B, 0, 0xFF, 0xFF, 0, 1, 1, 1])
        }
        // Header says 1 byte follows, 3 arrive.
        #expect(throws: SMPFrameError.bytesBeyondFrameEnd(expected: 9, received: 11)) {
            try assembler.append([0x0B, 0, 0, 1, 0, 1, 1, 1, 0xA0, 0xA0, 0xA0])
        }
    }

    /// Runs the status decoder and every typed decoder over `body`; counts the ones that succeed.
    private func decodeAsEveryType(_ body: CBORMap) -> Int {
        var successes = 0
        func attempt<B: SMPBody>(_ type: B.Type) {
            if (try? B.decodeResponse(body)) != nil { successes += 1 }
        }
        _ = try? SMPStatus(body: body)
        attempt(ImageStateReadRequest.self)
        attempt(ImageStateWriteRequest.self)
        attempt(ImageStateResponse.self)
        attempt(ImageUploadRequest.self)
        attempt(ImageUploadResponse.self)
        attempt(ImageEraseRequest.self)
        attempt(ImageSlotInfoRequest.self)
        attempt(ImageSlotInfoResponse.self)
        attempt(OSEchoRequest.self)
        attempt(OSEchoResponse.self)
        attempt(OSResetRequest.self)
        attempt(MCUmgrParametersRequest.self)
        attempt(MCUmgrParametersResponse.self)
        attempt(BootloaderInfoRequest.self)
        attempt(BootloaderInfoResponse.self)
        attempt(OSInfoRequest.self)
        attempt(OSInfoResponse.self)
        attempt(SMPEmptyBody.self)
        return successes
    }
}
