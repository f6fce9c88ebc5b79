import Testing
@testable import DFUCore

/// Serial request bytes as `nrf_dfu_serial_on_packet_received` (SDK `nrf_dfu_serial.c`) parses them.
@Suite struct NordicSerialRequestTests {
    @Test func serialOnlyRequestsEncode() {
        #expect(NordicSerialRequest.protocolVersion.encoded == [0x00])
        #expect(NordicSerialRequest.getMTU.encoded == [0x07])
        #expect(NordicSerialRequest.writeObject([0xAA, 0xC0, 0x55]).encoded == [0x08, 0xAA, 0xC0, 0x55])
        #expect(NordicSerialRequest.ping(id: 0x2A).encoded == [0x09, 0x2A])
        #expect(NordicSerialRequest.hardwareVersion.encoded == [0x0A])
        #expect(NordicSerialRequest.firmwareVersion(image: 2).encoded == [0x0B, 0x02])
    }

    @Test func sharedRequestsKeepTheirBLEBytes() {
        for request in [NordicRequest.create(.data, size: 4096), .setPRN(10), .calculateChecksum, .execute,
                        .select(.command), .abort] {
            #expect(NordicSerialRequest.controlPoint(request).encoded == request.encoded)
            #expect(NordicSerialRequest.controlPoint(request).opcode == request.opcode.rawValue)
        }
    }

    @Test func framedIsTheSLIPEncodingOfTheBytes() {
        #expect(NordicSerialRequest.ping(id: 0xC0).framed == [0x09, 0xDB, 0xDC, 0xC0])
        #expect(NordicSerialRequest.controlPoint(.setPRN(0xDB)).framed == [0x02, 0xDB, 0xDD, 0x00, 0xC0])
    }

    static let all: [NordicSerialRequest] = [
        .protocolVersion, .getMTU, .writeObject([0x01]), .writeObject(Array(0...255).map { UInt8($0) }),
        .ping(id: 0), .ping(id: 255), .hardwareVersion, .firmwareVersion(image: 0), .firmwareVersion(image: 3),
        .controlPoint(.create(.command, size: 141)), .controlPoint(.setPRN(0)), .controlPoint(.calculateChecksum),
        .controlPoint(.execute), .controlPoint(.select(.data)), .controlPoint(.abort),
    ]

    @Test(arguments: all)
    func requestsRoundTripThroughBytesAndFrames(request: NordicSerialRequest) {
        #expect(NordicSerialRequest(decoding: request.encoded) == request)
        var decoder = SLIPDecoder(maximumFrameSize: Int(NordicSerialLimits.usbMTU))
        #expect(decoder.receive(request.framed) == [.frame(request.encoded)])
    }

    @Test func malformedRequestsDoNotDecode() {
        #expect(NordicSerialRequest(decoding: []) == nil)
        #expect(NordicSerialRequest(decoding: [0x07, 0x00]) == nil)
        #expect(NordicSerialRequest(decoding: [0x00, 0x01]) == nil)
        #expect(NordicSerialRequest(decoding: [0x0A, 0x01]) == nil)
        #expect(NordicSerialRequest(decoding: [0x09]) == nil)
        #expect(NordicSerialRequest(decoding: [0x09, 0x01, 0x02]) == nil)
        #expect(NordicSerialRequest(decoding: [0x0B]) == nil)
        #expect(NordicSerialRequest(decoding: [0x08]) == nil, "the SDK asserts on an empty write")
        #expect(NordicSerialRequest(decoding: [0x05]) == nil, "pc-nrfutil's ReadError is no SDK opcode")
        #expect(NordicSerialRequest(decoding: [0x0D]) == nil)
        #expect(NordicSerialRequest(decoding: [0x60, 0x01, 0x01]) == nil)
        #expect(NordicSerialRequest(decoding: [0x06, 0x03]) == nil)
    }

    @Test func opcodesAreTheSDKValues() {
        #expect(NordicSerialOpcode.allCases.map(\.rawValue) == [0x00, 0x07, 0x08, 0x09, 0x0A, 0x0B])
        // None collides with a shared Control Point opcode.
        #expect(NordicSerialOpcode.allCases.allSatisfy { NordicOpcode(rawValue: $0.rawValue) == nil })
    }

    @Test func descriptions() {
        #expect("\(NordicSerialRequest.writeObject([1, 2, 3]))" == "Write Object of 3 bytes")
        #expect("\(NordicSerialRequest.ping(id: 7))" == "Ping 7")
        #expect("\(NordicSerialRequest.controlPoint(.execute))" == "Execute")
        #expect("\(NordicSerialRequest.firmwareVersion(image: 1))" == "Firmware Version of image 1")
    }
}
