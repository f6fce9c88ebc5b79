import Testing
@testable import DFUCore

/// Every typed body survives body → map → body, and packet → bytes → packet, on both sides.
@Suite struct SMPMessageTests {
    static let hash0: [UInt8] = (0..<32).map { UInt8($0) }
    static let hash1: [UInt8] = (0..<32).map { UInt8(255 - $0) }

    /// Encodes `request` as a client would, decodes it as the device would, checks it is unchanged.
    func roundTripRequest<R: SMPRequest>(_ request: R, sequence: UInt8 = 17, version: SMPVersion = .v2) throws {
        let bytes = try request.packet(sequence: sequence, version: version).encoded()
        let packet = try SMPPacket(decoding: bytes)
        #expect(R.matches(packet.header))
        #expect(packet.header.sequence == sequence)
        #expect(packet.header.version == version)
        #expect(Int(packet.header.length) == bytes.count - SMPHeader.size)
        #expect(try R(body: packet.body) == request)
    }

    /// Encodes `response` as the device would (Zephyr-style indefinite maps too), decodes it as the client.
    func roundTripResponse<B: SMPBody>(_ response: B, to request: SMPHeader) throws {
        for encoder in [CBOREncoder(), CBOREncoder(containerLength: .indefinite)] {
            let bytes = try response.response(to: request).encoded(using: encoder)
            let packet = try SMPPacket(decoding: bytes)
            #expect(packet.header.answers(request))
            #expect(try B.decodeResponse(packet.body) == .success(response))
        }
    }

    @Test func imageStateMessagesRoundTrip() throws {
        try roundTripRequest(ImageStateReadRequest())
        try roundTripRequest(ImageStateWriteRequest(hash: Self.hash1))
        try roundTripRequest(ImageStateWriteRequest(confirm: true))
        try roundTripRequest(ImageStateWriteRequest(hash: Self.hash1, confirm: true), version: .v1)
        let response = ImageStateResponse(images: [
            ImageSlotState(slot: 0, version: "1.0.0", hash: Self.hash0, confirmed: true, active: true),
            ImageSlotState(image: 1, slot: 1, version: "1.1.0.7", hash: Self.hash1, pending: true, permanent: true),
        ], splitStatus: 0)
        try roundTripResponse(response, to: ImageStateReadRequest().packet(sequence: 1).header)
        try roundTripResponse(ImageStateResponse(images: []), to: ImageStateWriteRequest(confirm: true).packet(sequence: 2).header)
    }

    @Test func frugalStateListDecodesAbsentFlagsAsFalse() throws {
        let body: CBORMap = ["images": [["slot": 1, "version": "2.0.0", "hash": .bytes(Self.hash1), "pending": true]]]
        let state = try ImageStateResponse(body: body)
        let slot = try #require(state.slot(1))
        #expect(slot.pending && !slot.active && !slot.confirmed && !slot.bootable && !slot.permanent)
        #expect(state.slot(0) == nil)
    }

    @Test func stateResponseReportsMissingOrMistypedFieldsWithTheirPath() {
        #expect(throws: SMPBodyError.missingField("images")) { try ImageStateResponse(body: [:]) }
        #expect(throws: SMPBodyError.missingField("images[1].version")) {
            try ImageStateResponse(body: ["images": [["slot": 0, "version": "1.0.0", "hash": .bytes([])],
                                                      ["slot": 1, "hash": .bytes([])]]])
        }
        #expect(throws: SMPBodyError.wrongType(field: "images[0].hash", expected: "byte string", found: "text string")) {
            try ImageStateResponse(body: ["images": [["slot": 0, "version": "1.0.0", "hash": "00"]]])
        }
        #expect(throws: SMPBodyError.wrongType(field: "images[0]", expected: "map", found: "unsigned integer")) {
            try ImageStateResponse(body: ["images": [1]])
        }
    }

    @Test func slotVersionStringParsesAsMCUbootVersion() {
        func version(_ s: String) -> ImageVersion? { ImageSlotState(slot: 0, version: s, hash: []).imageVersion }
        #expect(version("1.2.3") == ImageVersion(major: 1, minor: 2, revision: 3))
        #expect(version("1.2.3.4") == ImageVersion(major: 1, minor: 2, revision: 3, build: 4))
        #expect(version("256.0.0") == nil)
        #expect(version("1.2") == nil)
        #expect(version("1..3") == nil)
        #expect(version("1.2.3-rc1") == nil)
    }

    @Test func imageUploadMessagesRoundTrip() throws {
        try roundTripRequest(ImageUploadRequest(image: 0, length: 524_288, offset: 0, sha: Self.hash0,
                                                data: Array(repeating: 0x3D, count: 400), upgrade: true))
        try roundTripRequest(ImageUploadRequest(offset: 70_000, data: [1, 2, 3]))
        try roundTripRequest(ImageUploadRequest(offset: UInt64.max, data: []), version: .v1)
        let request = ImageUploadRequest(offset: 0, data: []).packet(sequence: 5).header
        try roundTripResponse(ImageUploadResponse(offset: 2475), to: request)
        try roundTripResponse(ImageUploadResponse(offset: 524_288, match: true), to: request)
        try roundTripResponse(ImageUploadResponse(offset: 0, legacyReturnCode: true), to: request)
    }

    @Test func uploadRequestWithoutOffsetNamesTheMissingField() {
        // The device answers this with IMG_MGMT_ERR_INVALID_OFFSET; the codec only says what is missing.
        #expect(throws: SMPBodyError.missingField("off")) { try ImageUploadRequest(body: ["data": .bytes([1])]) }
        #expect(throws: SMPBodyError.wrongType(field: "off", expected: "unsigned integer", found: "negative integer")) {
            try ImageUploadRequest(body: ["off": -1, "data": .bytes([1])])
        }
        #expect((try? ImageUploadRequest(body: ["off": 0]))?.data == [])
    }

    @Test func uploadResponseKeepsZephyrKeyOrder() {
        let body = ImageUploadResponse(offset: 10, match: false, legacyReturnCode: true).body
        #expect(body.entries.map(\.key) == ["rc", "off", "match"])
    }

    @Test func eraseAndSlotInfoRoundTrip() throws {
        try roundTripRequest(ImageEraseRequest())
        try roundTripRequest(ImageEraseRequest(slot: 1))
        try roundTripResponse(SMPEmptyBody(), to: ImageEraseRequest().packet(sequence: 1).header)
        try roundTripRequest(ImageSlotInfoRequest())
        let info = ImageSlotInfoResponse(images: [
            .init(image: 0, slots: [.init(slot: 0, size: 0x67000), .init(slot: 1, size: 0x67000, uploadImageID: 0)],
                  maxImageSize: 0x66000),
            .init(image: 1, slots: [.init(slot: 0, size: 4096)]),
        ])
        try roundTripResponse(info, to: ImageSlotInfoRequest().packet(sequence: 2).header)
    }

    @Test func osMessagesRoundTrip() throws {
        try roundTripRequest(OSEchoRequest(text: "ping ✓"))
        try roundTripResponse(OSEchoResponse(text: "ping ✓"), to: OSEchoRequest(text: "").packet(sequence: 1).header)
        try roundTripRequest(OSResetRequest())
        try roundTripRequest(OSResetRequest(force: true))
        try roundTripResponse(SMPEmptyBody(), to: OSResetRequest().packet(sequence: 2).header)
        try roundTripRequest(MCUmgrParametersRequest())
        try roundTripResponse(MCUmgrParametersResponse(bufferSize: 2475, bufferCount: 4),
                              to: MCUmgrParametersRequest().packet(sequence: 3).header)
        try roundTripRequest(BootloaderInfoRequest())
        try roundTripRequest(BootloaderInfoRequest.mode)
        let header = BootloaderInfoRequest.mode.packet(sequence: 4).header
        try roundTripResponse(BootloaderInfoResponse(bootloader: "MCUboot"), to: header)
        try roundTripResponse(BootloaderInfoResponse(mode: 1, noDowngrade: true), to: header)
        try roundTripResponse(BootloaderInfoResponse(mode: -1), to: header)
        try roundTripRequest(OSInfoRequest(format: "a"))
        try roundTripRequest(OSInfoRequest())
        try roundTripResponse(OSInfoResponse(output: "Zephyr unknown 3.7.0 nrf52840"),
                              to: OSInfoRequest().packet(sequence: 5).header)
    }

    @Test func resetForceDecodesFromBooleanOrInteger() throws {
        #expect(try OSResetRequest(body: ["force": 1]).force == true)
        #expect(try OSResetRequest(body: ["force": 0]).force == false)
        #expect(try OSResetRequest(body: ["force": true]).force == true)
        #expect(throws: SMPBodyError.self) { try OSResetRequest(body: ["force": "yes"]) }
    }

    /// `boot_mode` (Zephyr's os reset with RESET_BOOT_MODE): an unsigned byte; above 255 refused.
    @Test func resetBootModeIsAByte() throws {
        try roundTripRequest(OSResetRequest(bootMode: 1))
        #expect(OSResetRequest(bootMode: 1).body == ["boot_mode": 1])
        #expect(try OSResetRequest(body: ["boot_mode": 1]).bootMode == 1)
        #expect(throws: SMPBodyError.self) { try OSResetRequest(body: ["boot_mode": 256]) }
    }

    /// MCUboot's serial recovery built without BOOT_SERIAL_IMG_GRP_HASH lists slots without a hash.
    @Test func aSlotWithoutAHashDecodesWithAnEmptyOne() throws {
        let state = try ImageStateResponse(body: ["images": .array([.map(["slot": 0, "version": "1.0.0.0"])])])
        #expect(state.images.first?.hash == [])
        #expect(state.images.first?.imageVersion == ImageVersion(major: 1, minor: 0, revision: 0))
    }

    @Test func bootloaderModeNamesKnownModes() {
        #expect(BootloaderInfoResponse(mode: 1).mcubootMode == .swapUsingScratch)
        #expect(BootloaderInfoResponse(mode: 4).mcubootMode?.supportsRevert == false)
        #expect(BootloaderInfoResponse(mode: 99).mcubootMode == nil)
    }

    @Test func requestsAreRecognisedByGroupCommandAndOp() throws {
        let header = try SMPPacket(decoding: ImageStateWriteRequest(confirm: true).packet(sequence: 1).encoded()).header
        #expect(ImageStateWriteRequest.matches(header))
        #expect(!ImageStateReadRequest.matches(header))
        #expect(!ImageUploadRequest.matches(header))
    }

    @Test func unknownFieldsAreIgnoredForForwardCompatibility() throws {
        let response = try MCUmgrParametersResponse(body: ["buf_size": 384, "buf_count": 4, "future": [1, 2]])
        #expect(response == MCUmgrParametersResponse(bufferSize: 384, bufferCount: 4))
    }

    @Test func bodyTooLargeForTheLengthFieldIsRefusedOnEncode() {
        let request = ImageUploadRequest(offset: 0, data: Array(repeating: 0, count: 65_536))
        // map head 1, "off" 4, 0 1, "data" 5, byte string head 5, data.
        #expect(throws: SMPFrameError.bodyTooLarge(length: 1 + 4 + 1 + 5 + 5 + 65_536)) {
            try request.packet(sequence: 0).encoded()
        }
    }
}
