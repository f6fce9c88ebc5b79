import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu verify IMAGE [--key PUB.pem] [--json]`: everything about an image that can be checked without
/// a device: format, version, sizes, the SHA-256 in its TLV, and with a key its signature and key hash.
/// A Nordic DFU package (a zip, told by its content) goes to `verifyPackage` (VerifyCommand+Package.swift),
/// an nRF Connect SDK dfu_application.zip to `verifyNCSPackage` (VerifyCommand+NCS.swift).
struct VerifyCommand: DFUCommand {
    static let name = "verify"
    static let abstract = "Check an MCUboot image, NCS zip or Nordic DFU package offline."
    static let discussion = """
        Checks that the image is well-formed (header, TLV areas, every size inside the file), that \
        its SHA-256 matches its SHA256 TLV, and with --key that its signature (ECDSA P-256, Ed25519, \
        RSA-2048 or RSA-3072 PSS) verifies with that key and its KEYHASH TLV names it. Without \
        --key the signature is not checked, and dfu says so.

        A Nordic Secure DFU package (the .zip 'nrfutil pkg generate' writes, recognised by \
        its content) is checked image by image: manifest and init packet well-formed, the \
        firmware's SHA-256 and size as the init packet states them, and with --key the \
        ECDSA P-256 signature of the init packet. The key is PEM or the C array 'nrfutil \
        keys display --format code' prints. With --key an unsigned package is refused \
        unless --allow-unsigned is given; without --key no signature is checked.

        An nRF Connect SDK dfu_application.zip (a zip whose manifest.json lists MCUboot images, \
        as 'west build' writes it) is checked image by image like a single image: each one the \
        manifest names must be in the zip with the size it states, and each is listed with its \
        image index, its core or direct-XIP slot as the manifest says, version, size, hash and \
        with --key its signature. The zip passes only if every image does.

        Examples:
          dfu verify app.signed.bin --key signing-pub.pem
          dfu verify app.signed.bin --key signing-pub.pem --json
          dfu verify app_dfu_package.zip --key public_key.pem
          dfu verify build/dfu_application.zip --key signing-pub.pem

        Exit status:
          0    everything that was checked passed
          1    internal error (a bug in dfu)
          2    usage error
          3    the image is invalid, the key cannot be used, or a file cannot be read
          130  interrupted by SIGINT or SIGTERM
        """

    @Argument(valueName: "IMAGE", help: "The image ('imgtool sign'), nRF Connect SDK zip or Nordic DFU package (.zip) to check.")
    var image: String

    @Option(valueName: "PUB.pem", help: "Public key (PEM; for a package also nrfutil's C array) it must be signed with.")
    var key: String?

    @Flag(help: "With --key, accept a Nordic DFU package that is not signed.")
    var allowUnsigned = false

    var common = CommonOptions(json: .result)

    func validate() throws(UsageError) {
        if image.isEmpty { throw UsageError("IMAGE must not be empty") }
        if key?.isEmpty == true { throw UsageError("--key needs a path to a PEM public key") }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(common.verbose)
        let input = read(console)
        if case .success(let bytes) = input, let kind = UpdateFileKind(of: bytes), let check = Self.checks[kind] {
            return try check(self, bytes, console)
        }
        let result = input.flatMap { verify($0, console) }
        if common.json {
            console.out(VerifyOutput.json(file: image, result: result).encoded)
            return VerifyOutput.exitStatus(result)
        }
        switch result {
        case .failure(let error):
            throw error
        case .success(let report):
            console.out(VerifyOutput.table(file: image, report: report))
            console.out(VerifyOutput.verdict(report, keyGiven: key != nil))
            return VerifyOutput.exitStatus(result)
        }
    }

    /// How each kind of update file other than an MCUboot image (checked by `run` itself) is
    /// checked and printed: the one place a protocol's file kind meets its `dfu verify` output.
    private static let checks: [UpdateFileKind: @Sendable (VerifyCommand, [UInt8], Console) throws(DFUError) -> ExitStatus] = [
        .nordicPackage: { command, bytes, console throws(DFUError) in try command.verifyPackage(bytes, console) },
        .ncsPackage: { command, bytes, console throws(DFUError) in try command.verifyNCSPackage(bytes, console) },
    ]

    private func read(_ console: Console) -> Result<[UInt8], DFUError> {
        do throws(DFUError) {
            console.log("reading image \(image)")
            let bytes = try FileReader.readAll(path: image)
            console.log("image is \(bytes.count) bytes")
            return .success(bytes)
        } catch {
            return .failure(error)
        }
    }

    /// Loads the key, verifies. A key that cannot be used is the error; a check that fails is in the report.
    private func verify(_ bytes: [UInt8], _ console: Console) -> Result<VerificationReport, DFUError> {
        do throws(DFUError) {
            let publicKey: PublicKey?
            if let key {
                console.log("loading public key \(key)")
                do throws(ImageError) { publicKey = try PublicKey.load(path: key) } catch { throw .image(error) }
                console.log("key is \(publicKey.map { $0.algorithm.rawValue } ?? "none")")
            } else {
                publicKey = nil
            }
            do throws(ImageError) {
                return .success(try ImageVerifier.verify(bytes: bytes, key: publicKey))
            } catch {
                throw .image(error)
            }
        } catch {
            return .failure(error)
        }
    }
}
