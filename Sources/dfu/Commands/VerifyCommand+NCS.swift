import DFUCore
import ExitCodes

/// `dfu verify dfu_application.zip [--key K]`: an nRF Connect SDK zip, printed and judged the way MCUboot
/// images are (the same exit statuses: 0 everything checked passed, 3 refused).
extension VerifyCommand {
    func verifyNCSPackage(_ bytes: [UInt8], _ console: Console) throws(DFUError) -> ExitStatus {
        let result = checkNCSPackage(bytes, console)
        if common.json {
            console.out(NCSVerifyOutput.json(file: image, result: result).encoded)
            return NCSVerifyOutput.exitStatus(result)
        }
        switch result {
        case .failure(let error):
            throw error
        case .success(let report):
            console.out(NCSVerifyOutput.table(file: image, report: report))
            console.out(NCSVerifyOutput.verdict(report, keyGiven: key != nil))
            return NCSVerifyOutput.exitStatus(result)
        }
    }

    private func checkNCSPackage(_ bytes: [UInt8], _ console: Console) -> Result<NCSVerificationReport, DFUError> {
        do throws(DFUError) {
            console.log("the file is a zip archive with an nRF Connect SDK manifest: reading its images")
            let package: NCSPackage
            do throws(NCSPackageError) { package = try NCSPackage(zipBytes: bytes) } catch { throw .ncsPackage(error) }
            console.log("zip holds \(package.images.map { "\($0.file) (image \($0.imageIndex))" }.joined(separator: ", "))")
            var publicKey: PublicKey?
            if let key {
                console.log("loading public key \(key)")
                do throws(ImageError) { publicKey = try PublicKey.load(path: key) } catch { throw .image(error) }
            }
            return .success(NCSPackageVerifier.verify(package, key: publicKey))
        } catch {
            return .failure(error)
        }
    }
}
