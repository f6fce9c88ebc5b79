import DFUCore
import Foundation
import Testing

/// "Logs leak nothing by default" (issue 22, Logs), through the binary: whole runs of every
/// command that talks to a device or reads a key, each with `--verbose` and with `--json
/// --verbose`, and the journals and batch report they wrote, hold no 16-byte run of the image or
/// of a key file (raw, hex or base64; `LeakScanner`), no PEM line of a key file, and no device's
/// full address outside the record fields that name the device in full by design (`device` in
/// JSON lines and journals: docs/json-events.md). The BlueZ half (pairing with `--passkey`, a
/// Bluetooth address typed by the user) is `BlueZLogHygieneTests`.
@Suite(.serialized, .endToEnd) struct LogHygieneCLITests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key
    static let encryptedImage = "firmware-samples/images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin"
    /// The virtual device's private decryption key: what must show least of all.
    static let decryptionKey = "firmware-samples/keys/TEST-ONLY-enc-ec256.pem"
    static let sim = "sim:timescale=0"
    static let modes: [[String]] = [["--verbose"], ["--json", "--verbose"]]

    /// Every image and key file the runs read, as secrets; each image's digests (its SHA256 and
    /// KEYHASH TLVs) may be shown, since dfu prints them as what they are.
    static func scanner() throws -> LeakScanner {
        var secrets: [LeakScanner.Secret] = []
        for path in [image, encryptedImage] {
            let bytes = try Self.bytes(path)
            let parsed = try MCUbootImage(bytes: bytes)
            let digests = parsed.unprotectedTLVs.filter { $0.type == .sha256 || $0.type == .keyHash }
                .map { $0.valueOffset ..< $0.valueOffset + $0.value.count }
            secrets.append(.init(name: path, bytes: bytes, shown: digests))
        }
        for path in [key, decryptionKey] {
            secrets.append(.init(name: path, bytes: try der(path)))
        }
        return LeakScanner(secrets)
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: DFUBinary.repositoryRoot.appendingPathComponent(path)))
    }

    /// The base64 lines between a PEM file's BEGIN and END lines.
    static func pemBody(_ path: String) throws -> [String] {
        String(decoding: try bytes(path), as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("-----") && !$0.isEmpty }
    }

    static func der(_ path: String) throws -> [UInt8] {
        Array(try #require(Data(base64Encoded: try pemBody(path).joined()), "\(path) is no PEM"))
    }

    /// One thing dfu wrote: a run's stdout or stderr, a journal, a report; `json` when it is JSON
    /// (lines or one document), whose `device` fields may name a device in full.
    struct Written {
        var label: String
        var text: String
        var json: Bool
    }

    static func written(_ run: DFURun, json: Bool) -> [Written] {
        let label = run.arguments.joined(separator: " ")
        return [Written(label: label + " (stdout)", text: run.stdout, json: json),
                Written(label: label + " (stderr)", text: run.stderr, json: false)]
    }

    /// Every file under `directory` (journals, set-aside files, reports), as JSON.
    static func files(under directory: String) -> [Written] {
        guard let names = FileManager.default.subpaths(atPath: directory) else { return [] }
        return names.sorted().compactMap { name in
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return Written(label: path, text: String(decoding: data, as: UTF8.self), json: true)
        }
    }

    /// The text of `written` in which a full address would be a leak: all of it, or for JSON every
    /// string but the values of `device` keys (which name the device in full by design).
    static func sentences(_ written: Written) -> [String] {
        guard written.json else { return [written.text] }
        var strings: [String] = []
        func collect(_ value: Any, key: String?) {
            switch value {
            case let object as [String: Any]: for (name, inner) in object { collect(inner, key: name) }
            case let array as [Any]: for inner in array { collect(inner, key: key) }
            case let string as String where key != "device": strings.append(string)
            default: break
            }
        }
        let documents = written.text.split(separator: "\n").map(String.init) + [written.text]
        var parsedAny = false
        for document in documents {
            guard let value = try? JSONSerialization.jsonObject(with: Data(document.utf8)) else { continue }
            parsedAny = true
            collect(value, key: nil)
        }
        // Not JSON after all (a warning line, say): all of it counts.
        return parsedAny ? strings : [written.text]
    }

    /// Fails on any leak in `written`: secret bytes, PEM lines, a full address of `addresses`,
    /// a passkey of `passkeys` standing as a word.
    /// `more` and `moreKeys` (PEM files) join the MCUboot images and keys as secrets.
    static func expectNoLeaks(_ written: [Written], addresses: [String], passkeys: [String] = [],
                              more: [LeakScanner.Secret] = [], moreKeys: [String] = [],
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        var secrets = try scanner().secrets
        for path in moreKeys { secrets.append(.init(name: path, bytes: try der(path))) }
        let scanner = LeakScanner(secrets + more)
        let pemLines = try ([key, decryptionKey] + moreKeys).flatMap(pemBody).filter { $0.count >= 16 }
        for item in written {
            let leaks = scanner.leaks(in: Array(item.text.utf8))
            #expect(leaks.isEmpty, "\(item.label): \(leaks)", sourceLocation: sourceLocation)
            for line in pemLines where item.text.contains(line) {
                Issue.record("\(item.label) holds the key file line \(line)", sourceLocation: sourceLocation)
            }
            let sentences = sentences(item).joined(separator: "\n").uppercased()
            for address in addresses where sentences.contains(address.uppercased()) {
                Issue.record("\(item.label) names \(address) in full without --full-addresses: \(item.text)",
                             sourceLocation: sourceLocation)
            }
            for passkey in passkeys where containsWord(passkey, in: item.text) {
                Issue.record("\(item.label) holds the passkey: \(item.text)", sourceLocation: sourceLocation)
            }
        }
    }

    static func containsWord(_ word: String, in text: String) -> Bool {
        var rest = text[...]
        while let found = rest.range(of: word) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            if !before.isLetter && !before.isNumber && !after.isLetter && !after.isNumber { return true }
            rest = text[found.upperBound...]
        }
        return false
    }

    /// The virtual device's full address, as the JSON records name it.
    static func simIdentity(_ device: String) throws -> String {
        let run = try DFURun.run(["info", "--device", device, "--json"], timeout: 30)
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last, "\(run.output)"))
        let identity = try #require(result["device"] as? String, "\(run.stdout)")
        #expect(identity.split(separator: ":").count == 6, "\(identity)")
        return identity
    }

    /// flash (plain and of an encrypted image the device decrypts with its private key), verify,
    /// info, image list, echo, reset, a resumed update and a batch of two, each in both modes, on
    /// the in-process virtual device, then the journals and the report they left.
    @Test func runsOnTheVirtualDeviceShowNoKeyNoImageAndNoFullAddress() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        let root = DFUBinary.repositoryRoot.path
        let plan = state + "/plan.csv"
        try """
            device,image
            \(Self.sim),\(root)/\(Self.image)
            "\(Self.sim),battery=90",\(root)/\(Self.image)
            """.write(toFile: plan, atomically: true, encoding: .utf8)
        let encrypted = Self.sim + ",enc_key=" + Self.decryptionKey
        let commands: [[String]] = [
            ["flash", Self.image, "--device", Self.sim, "--key", Self.key],
            ["flash", Self.encryptedImage, "--device", encrypted, "--key", Self.key],
            ["verify", Self.image, "--key", Self.key],
            ["verify", Self.encryptedImage, "--key", Self.key],
            ["info", "--device", Self.sim],
            ["image", "list", "--device", Self.sim],
            ["echo", "hello", "--device", Self.sim],
            ["reset", "--device", Self.sim, "--wait"],
            ["batch", plan, "--key", Self.key, "--report", state + "/report.jsonl"],
        ]
        var written: [Written] = []
        for command in commands {
            for mode in Self.modes {
                let run = try DFURun.run(command + mode, timeout: 60, environment: environment)
                #expect(run.exitCode == 0, "\(run.output)")
                written += Self.written(run, json: mode.contains("--json"))
            }
        }
        // An update cut off mid-transfer, in a journal as dfu flash leaves it, finished by resume.
        for mode in Self.modes {
            let store = JournalStore(directory: state + "/dfu")
            try store.save(try Self.unfinishedJournal(device: Self.sim))
            let run = try DFURun.run(["resume"] + mode, timeout: 60, environment: environment)
            #expect(run.exitCode == 0 && run.output.contains("1.1.0+0"), "\(run.output)")
            written += Self.written(run, json: mode.contains("--json"))
        }
        let files = Self.files(under: state)
        #expect(files.contains { $0.label.hasSuffix(".json") } && files.contains { $0.label.hasSuffix("report.jsonl") },
                "\(files.map(\.label))")
        written += files.filter { !$0.label.hasSuffix("plan.csv") }

        // Devices without an `id=`, whose full address dfu derives: the user never typed it.
        let identities = try [Self.sim, encrypted, Self.sim + ",battery=90"].map(Self.simIdentity)
        try Self.expectNoLeaks(written, addresses: identities)
    }

    /// The steps of an update by hand against `dfu sim --serve udp:` (its device keeps its slots
    /// between runs): upload, list, test, echo, reset into the test image, confirm it, reset, each
    /// step in both modes where the device's state allows it twice.
    @Test func stepsOfAnUpdateByHandShowNoKeyAndNoImage() throws {
        let state = try DFUTestEnvironment.freshStateHome()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let server = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0"])
        defer { _ = server.stop() }
        let ready = try #require(server.ready(), "no ready line: \(server.lines)")
        let device = "udp:127.0.0.1:\(ready.port)"
        let verbose = ["--verbose"], json = ["--json", "--verbose"]
        let steps: [[String]] = [
            ["flash", Self.image, "--device", device, "--key", Self.key, "--mode", "upload-only"] + verbose,
            ["flash", Self.image, "--device", device, "--key", Self.key, "--mode", "upload-only"] + json,
            ["image", "list", "--device", device] + verbose,
            ["image", "list", "--device", device] + json,
            ["image", "test", ImageCommandsCLITests.newHash, "--device", device] + verbose,
            ["image", "test", ImageCommandsCLITests.newHash, "--device", device] + json,
            ["echo", "hello", "--device", device] + verbose,
            ["echo", "hello", "--device", device] + json,
            ["reset", "--device", device, "--wait"] + verbose,
            ["image", "confirm", "--device", device] + verbose,
            ["image", "confirm", "--device", device] + json,
            ["reset", "--device", device, "--wait"] + json,
        ]
        var written: [Written] = []
        for step in steps {
            let run = try DFURun.run(step, timeout: 60, environment: ["XDG_STATE_HOME": state])
            #expect(run.exitCode == 0, "\(run.output)")
            written += Self.written(run, json: step.contains("--json"))
        }
        let list = try DFURun.run(["image", "list", "--device", device], timeout: 30)
        #expect(list.stdoutLines.first == "image 0 slot 0: 1.1.0+0  active confirmed bootable", "\(list.output)")
        written += Self.files(under: state)
        // The server's device is named in full only on the server's own ready line.
        let identity = try #require(ready.line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",()")) }
            .first { $0.split(separator: ":").count == 6 }, "\(ready.line)")
        try Self.expectNoLeaks(written, addresses: [identity])
    }

    /// A journal of an update of `device` cut off at a third of the sample, as a killed
    /// `dfu flash` leaves it.
    static func unfinishedJournal(device: String) throws -> UpdateJournal {
        let path = DFUBinary.repositoryRoot.path + "/" + image
        let file = try #require(UpdateFileFacts(of: try bytes(image)))
        var journal = UpdateJournal(request: FlashRequest(imagePath: path, device: device), file: file,
                                    imageVersion: "1.1.0+0", now: Int(Date().timeIntervalSince1970))
        journal.request.keyPath = DFUBinary.repositoryRoot.path + "/" + key
        journal.stage = "transfer"
        journal.offset = file.size / 3
        journal.status = .unfinished
        return journal
    }
}
