import Testing
@testable import DFUCore

/// manifest.json of nRF Connect SDK zips: the shapes sdk-nrf's generate_zip.py writes (string indexes,
/// integer addresses), unknown keys, and every way a field can be missing, mistyped or out of range.
@Suite("NCS manifest.json")
struct NCSManifestTests {
    /// As generate_zip.py writes it for an nRF5340 sysbuild build (json.dumps, indent 4): the network
    /// core's board and soc override the shared ones, its version is under `version`.
    static let nrf5340 = """
        {
            "format-version": 1,
            "time": 1733097600,
            "files": [
                {
                    "type": "application",
                    "board": "nrf5340dk/nrf5340/cpuapp",
                    "soc": "nrf5340",
                    "load_address": 66048,
                    "image_index": "0",
                    "slot_index_primary": "1",
                    "slot_index_secondary": "2",
                    "version_MCUBOOT": "1.1.0+0",
                    "size": 49814,
                    "file": "blinky.signed.bin",
                    "modtime": 1733097600
                },
                {
                    "type": "application",
                    "board": "nrf5340dk/nrf5340/cpunet",
                    "soc": "nrf5340",
                    "image_index": "1",
                    "slot_index_primary": "3",
                    "slot_index_secondary": "4",
                    "load_address": 16812032,
                    "version": "1.1.0+0",
                    "size": 33432,
                    "file": "ipc_radio.bin",
                    "modtime": 1733097600
                }
            ],
            "name": "blinky",
            "firmware": {
                "zephyr": {
                    "revision": "v3.7.99-ncs2"
                },
                "nrf": {
                    "revision": null
                }
            }
        }
        """

    /// One file entry with `extra` spliced in, or with `dropping` left out.
    static func single(_ extra: String = "", dropping: String? = nil, top: String = "") -> String {
        var fields = [#""type": "application""#, #""board": "nrf52840dk/nrf52840""#, #""soc": "nrf52840""#,
                      #""size": 100"#, #""file": "app.signed.bin""#, #""modtime": 1"#]
        if let dropping { fields.removeAll { $0.hasPrefix("\"\(dropping)\"") } }
        if !extra.isEmpty { fields.append(extra) }
        return #"{"format-version": 1, "time": 1, "#+top+#""files": [{"# + fields.joined(separator: ", ") + "}]}"
    }

    private func manifest(_ json: String) throws(NCSPackageError) -> NCSManifest {
        try NCSManifest(json: Array(json.utf8))
    }

    private func reason(_ json: String) -> String? {
        do {
            _ = try manifest(json)
            return nil
        } catch {
            if case .manifestInvalid(let reason) = error { return reason }
            return "\(error)"
        }
    }

    @Test func readsTheManifestSdkNrfWritesForAnNRF5340() throws {
        let parsed = try manifest(Self.nrf5340)
        #expect(parsed.formatVersion == 1)
        #expect(parsed.time == 1_733_097_600)
        #expect(parsed.name == "blinky")
        #expect(parsed.zephyrRevision == "v3.7.99-ncs2")
        #expect(parsed.nrfRevision == nil)
        #expect(parsed.files.map(\.file) == ["blinky.signed.bin", "ipc_radio.bin"])
        let app = parsed.files[0], net = parsed.files[1]
        #expect(app.imageIndex == 0 && app.imageIndexGiven)
        #expect(app.slotIndexPrimary == 1 && app.slotIndexSecondary == 2)
        #expect(app.loadAddress == 0x10200)
        #expect(app.statedVersion?.key == "version_MCUBOOT" && app.statedVersion?.value == "1.1.0+0")
        #expect(net.imageIndex == 1)
        #expect(net.board == "nrf5340dk/nrf5340/cpunet")
        #expect(net.loadAddress == 0x0100_8800)
        #expect(net.statedVersion?.key == "version")
        #expect(NCSImageRole(app).description == "application core")
        #expect(NCSImageRole(net).description == "network core")
    }

    @Test func formatVersionZeroWithoutImageIndexIsImageZero() throws {
        let parsed = try manifest("""
            {"format-version": 0, "time": 5, "files": [{"load_address": 49664, "version_MCUBOOT": "1.0.0+0",
             "type": "application", "board": "nrf52840dk_nrf52840", "soc": "nRF52840_QIAA", "size": 10,
             "file": "app_update.bin", "modtime": 5}]}
            """)
        #expect(parsed.formatVersion == 0 && parsed.name == nil && parsed.zephyrRevision == nil)
        #expect(parsed.files[0].imageIndex == 0 && !parsed.files[0].imageIndexGiven)
        #expect(NCSImageRole(parsed.files[0]).description == "application")
    }

    @Test func directXIPVariantsNameTheirSlot() throws {
        let primary = try manifest(Self.single(#""slot": "0", "version_MCUBOOT+XIP": "1.1.0+0""#)).files[0]
        let secondary = try manifest(Self.single(#""slot": "3", "image_index": "1""#)).files[0]
        #expect(primary.slot == 0 && primary.statedVersion?.key == "version_MCUBOOT+XIP")
        #expect(NCSImageRole(primary).description == "application, direct-XIP variant for the primary slot (slot 0)")
        #expect(NCSImageRole(secondary).directXIP == .secondary(slot: 3))
    }

    @Test func unknownKeysAreIgnoredEverywhere() throws {
        let parsed = try manifest(Self.single(#""future": {"a": [1, 2.5, null, true]}, "image": 7"#,
                                              top: #""comment": "x", "extra": [], "#))
        #expect(parsed.files.count == 1)
        #expect(parsed.files[0].imageIndex == 0)
    }

    @Test func integerIndexesAndStringAddressesAreAccepted() throws {
        let file = try manifest(Self.single(#""image_index": 2, "slot_index_primary": 5, "load_address": "0x1F000""#)).files[0]
        #expect(file.imageIndex == 2 && file.slotIndexPrimary == 5 && file.loadAddress == 0x1F000)
        #expect(try manifest(Self.single(#""load_address": "4096""#)).files[0].loadAddress == 4096)
    }

    @Test(arguments: ["file", "size", "modtime", "type", "board", "soc"])
    func aMissingRequiredFileKeyIsNamed(key: String) {
        #expect(reason(Self.single(dropping: key)) == "files[0] has no \"\(key)\"")
    }

    @Test(arguments: ["format-version", "time", "files"])
    func aMissingRequiredTopLevelKeyIsNamed(key: String) {
        var object: [String] = [#""format-version": 1"#, #""time": 1"#, #""files": []"#]
        object.removeAll { $0.hasPrefix("\"\(key)\"") }
        #expect(reason("{" + object.joined(separator: ", ") + "}") == "it has no \"\(key)\"")
    }

    @Test(arguments: [
        (#""size": "100""#, "files[0].size is a string, not an integer"),
        (#""image_index": "one""#, #"files[0].image_index is "one", not a whole number"#),
        (#""image_index": "-1""#, #"files[0].image_index is "-1", not a whole number"#),
        (#""image_index": 1.5"#, "files[0].image_index is a number, not a whole number"),
        (#""image_index": true"#, "files[0].image_index is a boolean, not a whole number"),
        (#""slot": [0]"#, "files[0].slot is an array, not a whole number"),
        (#""load_address": "0xZZ""#, #"files[0].load_address is "0xZZ", not a 32-bit address"#),
        (#""version_MCUBOOT": 1"#, "files[0].version_MCUBOOT is an integer, not a string"),
    ])
    func badTypesAreRefusedNamingTheField(extra: String, expected: String) {
        let json = extra.hasPrefix(#""size""#) ? Self.single(extra, dropping: "size") : Self.single(extra)
        #expect(reason(json) == expected)
    }

    @Test func badTopLevelShapesAreRefused() {
        #expect(reason("[]") == "it is an array, not an object")
        #expect(reason("{") == "it is not valid JSON")
        #expect(reason(#"{"format-version": 1, "time": 1, "files": {}}"#) == "files is an object, not an array")
        #expect(reason(#"{"format-version": 1, "time": 1, "files": []}"#) == "its files array is empty")
        #expect(reason(#"{"format-version": 1, "time": 1, "files": [3]}"#) == "files[0] is an integer, not an object")
        #expect(reason(Self.single(top: #""firmware": "v1", "#)) == "firmware is a string, not an object")
        #expect(reason(Self.single().replacingOccurrences(of: #""time": 1,"#, with: #""time": -1,"#))
            == "time is -1, outside 0…9223372036854775807")
    }

    @Test(arguments: [
        (#""size": 99999999999999999999999"#, "files[0].size is a number, not an integer"),
        (#""size": -1"#, "files[0].size is -1, outside 0…2147483647"),
        (#""size": 4294967296"#, "files[0].size is 4294967296, outside 0…2147483647"),
        (#""image_index": "99999999999""#, #"files[0].image_index is "99999999999", not a whole number"#),
        (#""image_index": 256"#, "files[0].image_index is 256, outside 0…255"),
        (#""slot": "513""#, "files[0].slot is 513, outside 0…512"),
        (#""load_address": 4294967296"#, "files[0].load_address is 4294967296, not a 32-bit address"),
    ])
    func hostileNumbersAreRefusedNotTrapped(extra: String, expected: String) {
        let json = extra.hasPrefix(#""size""#) ? Self.single(extra, dropping: "size") : Self.single(extra)
        #expect(reason(json) == expected)
    }

    @Test func aManifestLargerThanTheLimitIsRefusedBeforeParsing() {
        let huge = Self.single(#""pad": ""# + String(repeating: "x", count: NCSManifest.maximumSize) + "\"")
        #expect(reason(huge)?.contains("more than the 65536 a manifest can be") == true)
    }

    @Test func deepNestingIsRefusedNotTrapped() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(reason(Self.single(#""deep": "# + deep)) == "it is not valid JSON")
    }

    @Test func aNewerFormatVersionIsRefused() {
        #expect(throws: NCSPackageError.formatVersionUnsupported(2)) {
            try manifest(Self.single().replacingOccurrences(of: #""format-version": 1"#, with: #""format-version": 2"#))
        }
    }

    @Test func toldApartFromANordicPackageManifest() {
        #expect(NCSManifest.describesNCSPackage(json: Array(Self.nrf5340.utf8)))
        #expect(!NCSManifest.describesNCSPackage(json: Array(#"{"manifest": {"application": {}}}"#.utf8)))
        #expect(!NCSManifest.describesNCSPackage(json: Array(#"{"manifest": {}, "files": []}"#.utf8)))
        #expect(!NCSManifest.describesNCSPackage(json: Array("not json".utf8)))
        // A damaged NCS manifest is still an NCS one, so its error speaks of NCS zips.
        #expect(NCSManifest.describesNCSPackage(json: Array(#"{"format-version": 1, "time": 1, "files": [{"#.utf8)))
        #expect(!NCSManifest.describesNCSPackage(json: Array(#"{"manifest": {"format-version": 1"#.utf8)))
    }
}
