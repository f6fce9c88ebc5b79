/// Image upload (image group, command 1, op write): one chunk of the image.
///
/// `image`, `len`, `sha` and `upgrade` belong in the `off == 0` request only; `len` is required
/// there. `sha` is the SHA-256 of the whole file: it names the upload session, and an `off == 0`
/// request carrying the sha of the session in progress resumes it instead of starting over.
public struct ImageUploadRequest: SMPRequest {
    public typealias Response = ImageUploadResponse
    public static var group: SMPGroup { .image }
    public static var command: UInt8 { ImageMgmtCommand.upload.rawValue }
    public static var op: SMPOp { .write }

    public var image: UInt64?
    /// `len`: total image size.
    public var length: UInt64?
    /// `off`: where `data` goes in the image.
    public var offset: UInt64
    public var sha: [UInt8]?
    public var data: [UInt8]
    /// Refuse an image that is not newer than the running one (`ImageMgmtError.currentVersionIsNewer`).
    public var upgrade: Bool?

    public init(image: UInt64? = nil, length: UInt64? = nil, offset: UInt64, sha: [UInt8]? = nil,
                data: [UInt8], upgrade: Bool? = nil) {
        self.image = image
        self.length = length
        self.offset = offset
        self.sha = sha
        self.data = data
        self.upgrade = upgrade
    }

    /// A missing `off` throws `.missingField("off")`, which a server answers with
    /// `ImageMgmtError.invalidOffset`. A missing `data` decodes as empty, as in Zephyr, where the
    /// first-chunk size check then refuses it.
    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        image = try fields.optionalUInt("image")
        length = try fields.optionalUInt("len")
        offset = try fields.uint("off")
        sha = try fields.optionalBytes("sha")
        data = try fields.optionalBytes("data") ?? []
        upgrade = try fields.optionalBool("upgrade")
    }

    /// Keys in canonical order (len, off, sha, data, image, upgrade), as smpclient sends them, so
    /// our requests match its bytes exactly.
    public var body: CBORMap {
        var map: CBORMap = [:]
        map.append("len", ifPresent: length.map(CBORValue.unsigned))
        map.append("off", .unsigned(offset))
        map.append("sha", ifPresent: sha.map(CBORValue.bytes))
        map.append("data", .bytes(data))
        map.append("image", ifPresent: image.map(CBORValue.unsigned))
        map.append("upgrade", ifPresent: upgrade.map(CBORValue.bool))
        return map
    }

    /// The largest `data` count for which this request, with its other fields as they are, encodes
    /// to at most `packetSize` bytes including the 8-byte header; nil if not even empty data fits.
    ///
    /// Exact, not estimated: the CBOR overhead depends on `off` (1 to 9 bytes), on whether `len`,
    /// `sha`, `image` and `upgrade` are present, and on the byte string head, which grows from 1 to
    /// 2, 3 or 5 bytes as the data passes 23, 255 and 65 535 bytes. `packetSize` is the device's
    /// `buf_size` when it reassembles, else one write (ATT MTU − 3). Any alignment the caller wants
    /// is applied after this.
    public func maximumDataCount(packetSize: Int) -> Int? {
        var template = self
        template.data = []
        // The empty byte string encodes as its 1-byte head alone.
        let fixed = SMPHeader.size + CBOREncoder().encode(template.body).count - 1
        // Compare before subtracting: a caller's negative budget must not overflow.
        guard packetSize > fixed else { return nil }
        let available = packetSize - fixed
        // headSize(n) + n grows strictly with n, so walk down from the bound that a 1-byte head
        // gives; the head is at most 9 bytes, so this takes a few steps at most.
        var n = available - 1
        while n > 0 && CBOREncoder.headSize(forArgument: UInt64(n)) + n > available { n -= 1 }
        return n
    }
}

/// Image upload response: `{off, match?}`, plus `rc: 0` from servers built with
/// `CONFIG_MCUMGR_SMP_LEGACY_RC_BEHAVIOUR`. `off` is the next byte the device expects and is
/// authoritative: it can be lower than what was sent (chunk discarded), or 0 (session lost).
public struct ImageUploadResponse: SMPBody {
    public var offset: UInt64
    /// Present in the last response when the device checks the image against `sha`.
    public var match: Bool?
    /// Whether the body carries (on decode) or should carry (on encode) the legacy `rc: 0`.
    public var legacyReturnCode: Bool

    public init(offset: UInt64, match: Bool? = nil, legacyReturnCode: Bool = false) {
        self.offset = offset
        self.match = match
        self.legacyReturnCode = legacyReturnCode
    }

    public init(body: CBORMap) throws(SMPBodyError) {
        let fields = SMPFields(body)
        offset = try fields.uint("off")
        match = try fields.optionalBool("match")
        legacyReturnCode = try fields.optionalInt("rc") == 0
    }

    /// In Zephyr's order (`img_mgmt_upload_good_rsp`): rc, off, match.
    public var body: CBORMap {
        var map: CBORMap = [:]
        if legacyReturnCode { map.append("rc", 0) }
        map.append("off", .unsigned(offset))
        map.append("match", ifPresent: match.map(CBORValue.bool))
        return map
    }
}
