/// What `NordicPackageVerifier` found out about a package: one report per image, in update order, with
/// every field `dfu verify` shows. A check that was not made says why instead of passing silently.
public struct NordicVerificationReport: Sendable, Equatable {
    public enum Check: Sendable, Equatable {
        case passed
        case failed(NordicPackageError)
        case notChecked(reason: String)
    }

    public struct ImageReport: Sendable, Equatable {
        public var kind: NordicImageKind
        public var binFile: String
        public var datFile: String
        public var firmwareType: NordicFirmwareType
        public var fwVersion: UInt32?
        public var hwVersion: UInt32?
        public var sdReq: [UInt32]
        public var appSize: UInt32?
        public var softdeviceSize: UInt32?
        public var bootloaderSize: UInt32?
        public var binSize: Int
        public var datSize: Int
        public var isDebug: Bool
        /// SHA-256 of the .bin, usual order (sha256sum).
        public var sha256: [UInt8]
        /// The init packet's hash turned back into the usual order; nil if it is not SHA-256.
        public var initPacketSHA256: [UInt8]?
        /// "ECDSA P-256", "unknown (1)", or nil when the image is not signed.
        public var signatureType: String?
        public var hash: Check
        public var size: Check
        public var signature: Check

        /// The first failed check, in the order to fix them: hash, size, signature.
        public var firstFailure: NordicPackageError? {
            for check in [hash, size, signature] { if case .failed(let error) = check { return error } }
            return nil
        }
    }

    public var images: [ImageReport]

    public var firstFailure: NordicPackageError? { images.lazy.compactMap(\.firstFailure).first }

    /// Exit 0 only when everything that was checked passed, for every image.
    public var passed: Bool { firstFailure == nil }
}
