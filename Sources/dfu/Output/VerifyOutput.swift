import DFUCore
import ExitCodes
import Transport

/// How `dfu verify` shows a result: the aligned table and verdict line for people, one JSON object
/// for scripts. Both show the same facts; neither shows key material or image bytes.
enum VerifyOutput {
    /// 0 when everything checked passed; otherwise the exit status of the error that stopped it.
    static func exitStatus(_ result: Result<VerificationReport, DFUError>) -> ExitStatus {
        switch result {
        case .failure(let error): return error.exitStatus
        case .success(let report):
            guard let failure = report.firstFailure else { return .success }
            return DFUError.image(failure).exitStatus
        }
    }

    static func table(file: String, report: VerificationReport) -> String {
        var table = AlignedTable()
        table.add("file", file)
        table.add("format", report.format)
        table.add("version", report.version.description)
        table.add("header size", "\(report.headerSize) bytes")
        table.add("body size", "\(report.bodySize) bytes")
        table.add("file size", "\(report.fileSize) bytes")
        table.add("flags", "0x" + hexDigits(report.flags, width: 8, uppercase: false))
        table.add("SHA-256 (TLV)", hexString(report.sha256))
        table.add("signature algorithm", report.signatureAlgorithm ?? "none (image is not signed)")
        table.add("hash", report.hash.tableText)
        // An encrypted image's signature covers the plaintext's hash, which cannot be checked here.
        table.add("signature", report.isEncrypted && report.signature == .passed ? "ok (over the plaintext's hash)"
                                                                                 : report.signature.tableText)
        table.add("key hash", report.keyHash.tableText)
        if let compression = report.compression {
            // What MCUboot installs in slot 0, and the hash slot 0 then reports.
            table.add("compression", compression.method.rawValue)
            table.add("decompressed size", "\(compression.decompressedSize) bytes")
            table.add("DECOMP_SHA", hexString(compression.decompressedSHA256))
            table.add("decompressed hash", compression.decompressedHash.tableText)
            table.add("decompressed signature", compression.decompressedSignature.tableText)
        }
        return table.rendered
    }

    /// The last line: `OK: …` or `FAILED: <what is wrong and what to do>`.
    static func verdict(_ report: VerificationReport, keyGiven: Bool) -> String {
        if let failure = report.firstFailure { return "FAILED: \(failure.description)" }
        switch (report.hash, report.signature, report.keyHash) {
        case (.passed, .passed, .passed) where report.checks.allSatisfy({ $0 == .passed }):
            return "OK: image verified"
        case (.passed, .notChecked, _) where !keyGiven:
            return "OK: structure and hash verified; signature not checked (no --key)"
        case (.passed, .notSigned, _):
            return "OK: structure and hash verified; not signed"
        case (.notChecked, .passed, .passed) where report.isEncrypted && report.compression == nil:
            return "OK: signature verified over the plaintext's hash; the device checks that hash after decrypting"
        case (.notChecked, .notChecked, _) where report.isEncrypted && report.compression == nil && !keyGiven:
            return "OK: structure verified; the device checks the hash after decrypting; signature not checked (no --key)"
        default:
            let compressed = report.compression.map {
                [("decompressed hash", $0.decompressedHash), ("decompressed signature", $0.decompressedSignature)]
            } ?? []
            let unchecked = ([("hash", report.hash), ("signature", report.signature), ("key hash", report.keyHash)] + compressed)
                .compactMap { name, check -> String? in
                    guard case .notChecked(let reason) = check else { return nil }
                    return "\(name) not checked (\(reason))"
                }
            let verified = report.signature == .passed ? "image verified" : "structure verified"
            return "OK: \(verified); " + unchecked.joined(separator: "; ")
        }
    }

    /// The one-line JSON result (`"event":"result"`). When the image could not be checked at all, the
    /// image fields are left out and `error` says why.
    static func json(file: String, result: Result<VerificationReport, DFUError>) -> JSONValue {
        var fields = resultFields(file: file, status: exitStatus(result))
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let report):
            fields += [
                JSONField("format", .string(report.format)),
                JSONField("version", .string(report.version.description)),
                JSONField("header_size", .int(report.headerSize)),
                JSONField("body_size", .int(report.bodySize)),
                JSONField("file_size", .int(report.fileSize)),
                JSONField("flags", .int(Int(report.flags))),
                JSONField("sha256", .string(hexString(report.sha256))),
                JSONField("signature_algorithm", report.signatureAlgorithm.map { .string($0) } ?? .null),
                JSONField("hash", .string(report.hash.jsonName)),
                JSONField("signature", .string(report.signature.jsonName)),
                JSONField("key_hash", .string(report.keyHash.jsonName)),
            ]
            // Only for compressed images, so the objects of other images stay as they were.
            if let compression = report.compression { fields.append(JSONField("compression", json(compression))) }
            fields.append(JSONField("error", report.firstFailure.map { .string($0.description) } ?? .null))
        }
        return .object(fields)
    }
    private static func json(_ compression: CompressionReport) -> JSONValue {
        .object([
            JSONField("method", .string(compression.method.rawValue)),
            JSONField("decompressed_size", .int(compression.decompressedSize)),
            JSONField("decompressed_sha256", .string(hexString(compression.decompressedSHA256))),
            JSONField("decompressed_hash", .string(compression.decompressedHash.jsonName)),
            JSONField("decompressed_signature", .string(compression.decompressedSignature.jsonName)),
        ])
    }


    /// The fields every `verify` result line starts with, image or package.
    static func resultFields(file: String, status: ExitStatus) -> [JSONField] {
        JSONEvent.head("result") + [
            JSONField("command", .string(VerifyCommand.name)),
            JSONField("file", .string(file)),
            JSONField("ok", .bool(status == .success)),
            JSONField("exit_code", .int(Int(status.rawValue))),
        ]
    }
}
