import DFUCore
import ExitCodes

/// `dfu verify PKG.zip [--key K] [--allow-unsigned]`: a Nordic DFU package, printed and judged the way
/// MCUboot images are (the same exit statuses: 0 everything checked passed, 3 refused).
extension VerifyCommand {
    func verifyPackage(_ bytes: [UInt8], _ console: Console) throws(DFUError) -> ExitStatus {
        let result = checkPackage(bytes, console)
        if common.json {
            console.out(PackageVerifyOutput.json(file: image, result: result).encoded)
            return PackageVerifyOutput.exitStatus(result)
        }
        switch result {
        case .failure(let error):
            throw error
        case .success(let report):
            console.out(PackageVerifyOutput.table(file: image, report: report))
            console.out(PackageVerifyOutput.verdict(report))
            return PackageVerifyOutput.exitStatus(result)
        }
    }

    private func checkPackage(_ bytes: [UInt8], _ console: Console) -> Result<NordicVerificationReport, DFUError> {
        do throws(DFUError) {
            console.log("the file is a zip archive: reading it as a Nordic DFU package")
            let package: NordicPackage
            do throws(NordicPackageError) { package = try NordicPackage(zipBytes: bytes) } catch { throw .package(error) }
            console.log("package holds \(package.images.map(\.kind.rawValue).joined(separator: ", "))")
            var publicKey: PublicKey?
            if let key {
                console.log("loading public key \(key)")
                do throws(ImageError) { publicKey = try PublicKey.load(path: key) } catch { throw .image(error) }
            }
            do throws(NordicPackageError) {
                return .success(try NordicPackageVerifier.verify(package, key: publicKey, keySource: key ?? "the key",
                                                                 allowUnsigned: allowUnsigned))
            } catch {
                throw .package(error)
            }
        } catch {
            return .failure(error)
        }
    }
}
