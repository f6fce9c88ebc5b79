import Testing
@testable import DFUCore

/// The Write Object payload rule: ⌊(MTU − 1) / 2⌋ − 1 data bytes, so the worst-case SLIP frame of
/// opcode and data fits the MTU (`__stream_data` in pc-nrfutil; the MTUs of the SDK transports).
@Suite struct NordicSerialWriteSizeTests {
    @Test func theSDKTransportsGetBackTheBuffersTheirMTUsWereBuiltFrom() {
        #expect(NordicSerialWriteSize.largestPayload(mtu: NordicSerialLimits.uartMTU) == 64)
        #expect(NordicSerialWriteSize.largestPayload(mtu: NordicSerialLimits.usbMTU) == 1024)
    }

    @Test func worstCaseFrameFitsTheMTUAndOneMoreByteWouldNot() {
        for mtu in UInt16(5)...UInt16(3000) {
            guard let payload = NordicSerialWriteSize.largestPayload(mtu: mtu) else {
                Issue.record("MTU \(mtu) has no payload")
                continue
            }
            let worst = SLIPEncoder.encode(NordicSerialRequest.writeObject([UInt8](repeating: 0xC0, count: payload)).encoded)
            #expect(worst.count <= Int(mtu), "MTU \(mtu)")
            #expect(SLIPEncoder.worstCaseEncodedCount(payloadCount: payload + 2) > Int(mtu), "MTU \(mtu)")
        }
        #expect(NordicSerialWriteSize.largestPayload(mtu: .max) == 32_766)
    }

    @Test(arguments: [UInt16(0), 1, 2, 3, 4])
    func tooSmallAnMTUCarriesNothing(mtu: UInt16) {
        #expect(NordicSerialWriteSize.largestPayload(mtu: mtu) == nil)
        #expect(NordicSerialWriteSize.writeRequests(for: [1, 2, 3], mtu: mtu) == nil)
    }

    @Test func objectsAreSlicedIntoFullWritesAndAShorterLast() throws {
        let data = (0..<150).map { UInt8($0) }
        let requests = try #require(NordicSerialWriteSize.writeRequests(for: data, mtu: NordicSerialLimits.uartMTU))
        #expect(requests == [.writeObject(Array(data[0..<64])), .writeObject(Array(data[64..<128])), .writeObject(Array(data[128...]))])
        #expect(NordicSerialWriteSize.writeRequests(for: Array(data[0..<128]), mtu: 131)?.count == 2)
        #expect(NordicSerialWriteSize.writeRequests(for: [], mtu: 131) == [])
        #expect(NordicSerialWriteSize.writeRequests(for: [9], mtu: 5) == [.writeObject([9])])
    }

    @Test func slicesJoinBackToTheObject() throws {
        var rng = SplitMix64(seed: 131)
        for _ in 0..<100 {
            let data = (0..<rng.next(below: 5000)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let mtu = UInt16(5 + rng.next(below: 2100))
            let requests = try #require(NordicSerialWriteSize.writeRequests(for: data, mtu: mtu))
            var joined: [UInt8] = []
            for request in requests {
                guard case .writeObject(let slice) = request else { Issue.record("not a write: \(request)"); continue }
                #expect(!slice.isEmpty)
                #expect(request.framed.count <= Int(mtu))
                joined += slice
            }
            #expect(joined == data)
        }
    }
}
