import DFUCore

/// The committed Nordic packages (`firmware-samples/nordic`, made by pc-nrfutil 6.1.7's library) and the
/// verdicts `firmware-samples/nordic-expected.tsv` records for them.
enum NordicSamples {
    struct Row: Sendable, CustomStringConvertible {
        var file: String
        var key: String?
        var allowUnsigned: Bool
        var passes: Bool
        /// hash-mismatch, signature-invalid, unsigned, missing-file, unsafe-name, damaged, ...
        var problem: String?
        var description: String { "\(file) key=\(key ?? "-")\(allowUnsigned ? " --allow-unsigned" : "")" }
    }

    static var rows: [Row] {
        ((try? Samples.table("nordic-expected.tsv")) ?? []).filter { $0.count >= 5 }.map { c in
            Row(file: c[0], key: c[1] == "-" ? nil : c[1], allowUnsigned: c[2] == "--allow-unsigned",
                passes: c[3] == "OK", problem: c[4] == "-" ? nil : c[4])
        }
    }

    static func package(_ file: String) throws -> NordicPackage {
        try NordicPackage(zipBytes: Samples.bytes(file))
    }

    /// The one .dat of the signed or unsigned application package.
    static func initPacket(signed: Bool) throws -> [UInt8] {
        try ZipArchive(bytes: Samples.bytes(signed ? "nordic/app-signed-3.zip" : "nordic/app-unsigned-3.zip"))
            .entry(named: "blinky.dat")?.bytes ?? []
    }

    static func key(_ suffix: String = "pub.pem", name: String = "TEST-ONLY-nordic-p256") throws -> PublicKey {
        try PublicKey.load(path: Samples.url("nordic/keys/\(name).\(suffix)").path)
    }
}
