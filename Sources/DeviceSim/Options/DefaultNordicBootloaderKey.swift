import DFUCore

/// The key a Nordic virtual bootloader has unless `key=` names another: the public half of
/// `firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pem`, which signed the Nordic samples.
/// Embedded for the same reason as `DefaultBootloaderKey`; a published test key, never for hardware.
public enum DefaultNordicBootloaderKey {
    public static let pem = """
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEtJQL13ap+32mT/T2gaxQvIjgzSm6RwtH+l5iKC4m
MrTsd21pOrMhtMaSWRh4KWCX2CbHBfeR8ScGxsk771gsUg==
-----END PUBLIC KEY-----
"""

    public static let source = "the built-in Nordic test key (TEST-ONLY-nordic-p256)"

    public static func key() throws(ImageError) -> PublicKey {
        try PublicKey(pem: Array(pem.utf8), source: source)
    }
}
