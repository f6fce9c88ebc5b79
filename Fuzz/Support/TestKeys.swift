/// The published TEST-ONLY keys of firmware-samples/keys and firmware-samples/nordic/keys (worthless
/// by design: see their README), as PEM text, so a target needs no file to run.
enum TestKeys {
    /// TEST-ONLY-ecdsa-p256.pub.pem
    static let ecdsaP256 = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEDOI6Qy0vRX4thjXkE38f3K8pLzMN
        J/E0q1ECqBTuzGx+hto0KPAVHXq1wD2uy/sAljK2bWBcKihwXlWcL2wfDQ==
        -----END PUBLIC KEY-----

        """
    /// TEST-ONLY-ed25519.pub.pem
    static let ed25519 = """
        -----BEGIN PUBLIC KEY-----
        MCowBQYDK2VwAyEAKNqlEOeWn8ImipCAb5e/qdLb3X7uyegkrRQq3hY17Rw=
        -----END PUBLIC KEY-----

        """
    /// TEST-ONLY-rsa2048.pub.pem
    static let rsa2048 = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3KwLmEN/qH6EYRmbFBWv
        tuQKwcJ5y7sCKjoZtLq7ISpgNn4uQa20WKf+dQIicYEpssSbyuqpH6/wTIRb5rzb
        Y+tascBbYDvutVOAgxMJulv6IXrcb1LJ5QturyfVcFsuHRbMpyrUbUI4bcC9T/fG
        4RLKoURh6PGK00tf713hoFIdf1uDkqsMGjOGHri5iqNQ/kacox6m/tIr4QpabAYv
        jWMOeFljk6aDgyP8MyECzy0k3QYFMu/aXPXwF0t00X7wGix7cQnqtstL5S01PPzD
        /MMMO+uGQOCbQurAvP4GsnITeEg9ZVJog5TX2a+Kr85Tw6o/h97CYbrkoOH/k8TL
        lwIDAQAB
        -----END PUBLIC KEY-----

        """
    /// TEST-ONLY-rsa3072.pub.pem
    static let rsa3072 = """
        -----BEGIN PUBLIC KEY-----
        MIIBojANBgkqhkiG9w0BAQEFAAOCAY8AMIIBigKCAYEAo/LZpQfgvHIRUgwWPn+p
        wv40hxdZat1gX6+ucfkNGLkgeiKOSrhUR22XpCVATsjP0rLj3kLH7Sw+7kwNoy5C
        rljNmimqFaG6ET03sLXKUmLCXsl3eYVRVtysWFbxlVMhEAh6cWPpbXenp3CVHSkj
        os6jL301mDyeV4Q6AEO6+GL6diouLOmeR8ZCpPkb++tdMp3BRiaySQUGAZFfeH5F
        eRKwDMbg+r41vDvE1GBA/FbmFMr3jqdCN+s6YHwEHyt/XPP+FWGFc8t9yyR2dEd3
        ySluM4C0XfDQ6h9Z+yfAOVZ2cCHPXwh+UkLZ5quOrfM9Oev/8R2LdIHI7OmxvT/h
        n2MPK5agz5PlV0uTKYUzEJk+j1lMD+sYwy2T2io8gP/QwVGfGvn2/MTLTh4rIcWj
        M1BPcBURkrFerSj4kbkEyEis3XsH8AO0Ye8G6sN7Yhj2kvH5MWk1R3wuDrAS7a65
        jQRWY5ftevyqoB6TZ3QcNm7G3lJuCRqFOLcCSpWahO5LAgMBAAE=
        -----END PUBLIC KEY-----

        """
    /// TEST-ONLY-enc-ec256.pem
    static let encryptionP256 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5lU9paocc5+2C9OC
        KmF3WEPDmXTGedd+52PXtjq+BWGhRANCAATAvzZL//c3FTQqU2W1m+T4osqhGXDy
        cmHFfpA3tmkulfy1b6DglZyGFfN8azQ5D/4nsPt4LEx+x4ywb/NdcimU
        -----END PRIVATE KEY-----

        """
    /// TEST-ONLY-enc-x25519.pem
    static let encryptionX25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VuBCIEIDBPsUDkWmqSrRxtgKILjlFZ9xpYXjCT9YIfT9VX8/1v
        -----END PRIVATE KEY-----

        """
    /// TEST-ONLY-nordic-p256.pub.pem
    static let nordicP256 = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEtJQL13ap+32mT/T2gaxQvIjgzSm6RwtH+l5iKC4m
        MrTsd21pOrMhtMaSWRh4KWCX2CbHBfeR8ScGxsk771gsUg==
        -----END PUBLIC KEY-----

        """
}
