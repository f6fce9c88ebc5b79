import DFUCore
import ExitCodes
import Transport

/// How `dfu verify` shows an nRF Connect SDK zip: the same kind of table and verdict line as for one
/// MCUboot image, one block of rows per image in manifest order, or one JSON object. No key or image bytes.
enum NCSVerifyOutput {
    static let format = "nRF Connect SDK zip"

    static func exitStatus(_ result: Result<NCSVerificationReport, DFUError>) -> ExitStatus {
        switch result {
        case .failure(let error): return error.exitStatus
        case .success(let report):
            guard let failure = report.firstFailure else { return .success }
            return DFUError.ncsPackage(failure).exitStatus
        }
    }

    static func table(file: String, report: NCSVerificationReport) -> String {
        let manifest = report.manifest
        var table = AlignedTable()
        table.add("file", file)
        table.add("format", format)
        if let name = manifest.name { table.add("name", name) }
        table.add("format-version", String(manifest.formatVersion))
        table.add("built", UTCTimestamp.text(manifest.time))
        if let revision = manifest.zephyrRevision { table.add("zephyr revision", revision) }
        if let revision = manifest.nrfRevision { table.add("nrf revision", revision) }
        for (position, image) in report.images.enumerated() {
            let entry = image.entry
            table.add("image", "\(position + 1) of \(report.images.count): \(entry.file)")
            table.add("  image index", entry.imageIndexGiven ? String(entry.imageIndex) : "0 (not in the manifest)")
            table.add("  role", image.role.description)
            table.add("  board", "\(entry.board) (soc \(entry.soc))")
            if let slot = entry.slot { table.add("  slot", String(slot)) }
            if let primary = entry.slotIndexPrimary, let secondary = entry.slotIndexSecondary {
                table.add("  slot indexes", "primary \(primary), secondary \(secondary)")
            }
            if let address = entry.loadAddress { table.add("  load address", "0x" + hexDigits(address, width: 8, uppercase: false)) }
            if let stated = entry.statedVersion {
                let differs = image.manifestVersionAgrees == false ? "; differs from the image header" : ""
                table.add("  manifest version", "\(stated.value) (\(stated.key)\(differs))")
            }
            switch image.result {
            case .failure:
                table.add("  size", "\(image.entry.size) bytes")
                table.add("  image", "FAILED (not a well-formed MCUboot image)")
            case .success(let checks):
                table.add("  version", checks.version.description)
                table.add("  size", "\(checks.fileSize) bytes (header \(checks.headerSize), body \(checks.bodySize))")
                table.add("  SHA-256 (TLV)", hexString(checks.sha256))
                table.add("  signature algorithm", checks.signatureAlgorithm ?? "none (image is not signed)")
                table.add("  hash", checks.hash.tableText)
                table.add("  signature", checks.signature.tableText)
                table.add("  key hash", checks.keyHash.tableText)
            }
        }
        return table.rendered
    }

    /// `OK: …` or `FAILED: <which image, what is wrong and what to do>`.
    static func verdict(_ report: NCSVerificationReport, keyGiven: Bool) -> String {
        if let failure = report.firstFailure { return "FAILED: \(failure.description)" }
        let count = report.images.count == 1 ? "1 image" : "\(report.images.count) images"
        guard keyGiven else { return "OK: structure and hashes of \(count) verified; signatures not checked (no --key)" }
        var unchecked: [String] = []
        for image in report.images {
            guard case .success(let checks) = image.result else { continue }
            for (name, check) in [("hash", checks.hash), ("signature", checks.signature), ("key hash", checks.keyHash)] {
                if case .notChecked(let reason) = check { unchecked.append("\(image.entry.file): \(name) not checked (\(reason))") }
            }
        }
        if unchecked.isEmpty { return "OK: \(count) verified" }
        return "OK: \(count) checked; " + unchecked.joined(separator: "; ")
    }

    static func json(file: String, result: Result<NCSVerificationReport, DFUError>) -> JSONValue {
        var fields = VerifyOutput.resultFields(file: file, status: exitStatus(result))
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let report):
            let manifest = report.manifest
            fields += [
                JSONField("format", .string(format)),
                JSONField("name", optional(manifest.name)),
                JSONField("format_version", .int(manifest.formatVersion)),
                JSONField("time", .int(manifest.time)),
                JSONField("zephyr_revision", optional(manifest.zephyrRevision)),
                JSONField("nrf_revision", optional(manifest.nrfRevision)),
                JSONField("images", .array(report.images.map(imageJSON))),
                JSONField("error", report.firstFailure.map { .string($0.description) } ?? .null),
            ]
        }
        return .object(fields)
    }

    private static func imageJSON(_ image: NCSVerificationReport.ImageReport) -> JSONValue {
        let entry = image.entry
        var fields = [
            JSONField("file", .string(entry.file)),
            JSONField("image_index", .int(entry.imageIndex)),
            JSONField("role", .string(image.role.description)),
            JSONField("core", image.role.core == .unnamed ? .null : .string(image.role.core.rawValue)),
            JSONField("type", .string(entry.type)),
            JSONField("board", .string(entry.board)),
            JSONField("soc", .string(entry.soc)),
            JSONField("slot", entry.slot.map { .int($0) } ?? .null),
            JSONField("slot_index_primary", entry.slotIndexPrimary.map { .int($0) } ?? .null),
            JSONField("slot_index_secondary", entry.slotIndexSecondary.map { .int($0) } ?? .null),
            JSONField("load_address", entry.loadAddress.map { .int(Int($0)) } ?? .null),
            JSONField("manifest_version", optional(entry.statedVersion?.value)),
            JSONField("manifest_version_agrees", image.manifestVersionAgrees.map { .bool($0) } ?? .null),
            JSONField("size", .int(entry.size)),
        ]
        switch image.result {
        case .failure:
            fields += [JSONField("version", .null), JSONField("sha256", .null), JSONField("signature_algorithm", .null),
                       JSONField("hash", .null), JSONField("signature", .null), JSONField("key_hash", .null)]
        case .success(let checks):
            fields += [
                JSONField("version", .string(checks.version.description)),
                JSONField("sha256", .string(hexString(checks.sha256))),
                JSONField("signature_algorithm", optional(checks.signatureAlgorithm)),
                JSONField("hash", .string(checks.hash.jsonName)),
                JSONField("signature", .string(checks.signature.jsonName)),
                JSONField("key_hash", .string(checks.keyHash.jsonName)),
            ]
        }
        fields.append(JSONField("error", image.firstFailure.map { .string($0.description) } ?? .null))
        return .object(fields)
    }

    private static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
}
