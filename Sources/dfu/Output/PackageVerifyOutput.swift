import DFUCore
import ExitCodes
import Transport

/// How `dfu verify` shows a Nordic DFU package: the same kind of table and verdict line as for an MCUboot
/// image, one block of rows per image in update order, or one JSON object. No key or firmware bytes.
enum PackageVerifyOutput {
    static func exitStatus(_ result: Result<NordicVerificationReport, DFUError>) -> ExitStatus {
        switch result {
        case .failure(let error): return error.exitStatus
        case .success(let report):
            guard let failure = report.firstFailure else { return .success }
            return DFUError.package(failure).exitStatus
        }
    }

    static func table(file: String, report: NordicVerificationReport) -> String {
        var table = AlignedTable()
        table.add("file", file)
        table.add("format", "Nordic DFU package")
        for (index, image) in report.images.enumerated() {
            table.add("image", "\(index + 1) of \(report.images.count): \(image.kind)")
            table.add("  type", image.firmwareType.description)
            table.add("  fw_version", image.fwVersion.map(String.init) ?? "none")
            table.add("  hw_version", image.hwVersion.map(String.init) ?? "none")
            table.add("  sd_req", image.sdReq.isEmpty ? "none" : image.sdReq.map(fwid).joined(separator: ", "))
            table.add("  firmware", "\(image.binFile), \(image.binSize) bytes")
            table.add("  init packet", "\(image.datFile), \(image.datSize) bytes")
            for (name, value) in [("app_size", image.appSize), ("sd_size", image.softdeviceSize), ("bl_size", image.bootloaderSize)] {
                if let value { table.add("  \(name)", "\(value) bytes") }
            }
            if image.isDebug { table.add("  debug", "yes (is_debug: version checks skipped on debug bootloaders)") }
            table.add("  SHA-256", hexString(image.sha256))
            table.add("  signature type", image.signatureType ?? "none (not signed)")
            table.add("  hash", text(image.hash))
            table.add("  size", text(image.size))
            table.add("  signature", text(image.signature))
        }
        return table.rendered
    }

    /// `OK: …` or `FAILED: <what is wrong and what to do>`.
    static func verdict(_ report: NordicVerificationReport) -> String {
        if let failure = report.firstFailure { return "FAILED: \(failure.description)" }
        var unchecked: [String] = []
        for image in report.images {
            guard case .notChecked(let reason) = image.signature else { continue }
            let line = "signature not checked (\(reason))"
            if !unchecked.contains(line) { unchecked.append(line) }
        }
        if unchecked.isEmpty { return "OK: package verified" }
        return "OK: structure, sizes and hashes verified; " + unchecked.joined(separator: "; ")
    }

    static func json(file: String, result: Result<NordicVerificationReport, DFUError>) -> JSONValue {
        var fields = VerifyOutput.resultFields(file: file, status: exitStatus(result))
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let report):
            fields += [
                JSONField("format", .string("Nordic DFU package")),
                JSONField("images", .array(report.images.map(imageJSON))),
                JSONField("error", report.firstFailure.map { .string($0.description) } ?? .null),
            ]
        }
        return .object(fields)
    }

    private static func imageJSON(_ image: NordicVerificationReport.ImageReport) -> JSONValue {
        func optional(_ value: UInt32?) -> JSONValue { value.map { .int(Int($0)) } ?? .null }
        return .object([
            JSONField("part", .string(image.kind.rawValue)),
            JSONField("type", .string(image.firmwareType.description)),
            JSONField("fw_version", optional(image.fwVersion)),
            JSONField("hw_version", optional(image.hwVersion)),
            JSONField("sd_req", .array(image.sdReq.map { .int(Int($0)) })),
            JSONField("bin_file", .string(image.binFile)),
            JSONField("bin_size", .int(image.binSize)),
            JSONField("dat_file", .string(image.datFile)),
            JSONField("dat_size", .int(image.datSize)),
            JSONField("app_size", optional(image.appSize)),
            JSONField("sd_size", optional(image.softdeviceSize)),
            JSONField("bl_size", optional(image.bootloaderSize)),
            JSONField("is_debug", .bool(image.isDebug)),
            JSONField("sha256", .string(hexString(image.sha256))),
            JSONField("init_packet_sha256", image.initPacketSHA256.map { .string(hexString($0)) } ?? .null),
            JSONField("signature_type", image.signatureType.map { .string($0) } ?? .null),
            JSONField("hash", .string(jsonName(image.hash))),
            JSONField("size", .string(jsonName(image.size))),
            JSONField("signature", .string(jsonName(image.signature))),
            JSONField("error", image.firstFailure.map { .string($0.description) } ?? .null),
        ])
    }

    private static func text(_ check: NordicVerificationReport.Check) -> String {
        switch check {
        case .passed: return "ok"
        case .failed: return "FAILED"
        case .notChecked(let reason): return "not checked (\(reason))"
        }
    }

    private static func jsonName(_ check: NordicVerificationReport.Check) -> String {
        switch check {
        case .passed: return "passed"
        case .failed: return "failed"
        case .notChecked: return "not-checked"
        }
    }

    private static func fwid(_ value: UInt32) -> String { "0x" + hexDigits(value, width: 4) }
}
