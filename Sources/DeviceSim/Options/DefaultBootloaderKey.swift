import DFUCore

/// The bootloader key a virtual device has unless `key=` names another: the public half of
/// `firmware-samples/keys/TEST-ONLY-ecdsa-p256.pem`, which signed the sample images. Embedded so a
/// `dfu` binary copied out of the repository still has a device that accepts the samples. It is a
/// published test key: never trust it on real hardware.
public enum DefaultBootloaderKey {
    public static let pem = """
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDOI6Qy0vRX4thjXkE38f3K8pLzMN
J/E0q1ECqBTuzGx+hto0KPAVHXq1wD2uy/sAljK2bWBcKihwXlWcL2wfDQ==
-----END PUBLIC KEY-----
"""

    /// What error messages call this key instead of a path.
    public static let source = "the built-in test key (TEST-ONLY-ecdsa-p256)"
}

extension PublicKey {
    /// `DefaultBootloaderKey` decoded.
    public static func defaultBootloaderKey() throws(ImageError) -> PublicKey {
        try PublicKey(pem: Array(DefaultBootloaderKey.pem.utf8), source: DefaultBootloaderKey.source)
    }
}
