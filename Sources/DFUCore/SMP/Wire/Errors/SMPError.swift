/// An error a device reported in an SMP response: what it means that the device said no.
///
/// Both forms are accepted in either protocol version, because a v2 server still reports SMP-level
/// failures as a plain `rc` (smp_protocol.rst): `{"rc": N, "rsn"?: text}` and
/// `{"err": {"group": G, "rc": N}}`. Raw numbers are kept, so codes we do not know (user groups,
/// codes added after this was written) are reported as they came; the typed accessors name the
/// known ones.
public enum SMPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `rc`: an `mcumgr_err_t` (v1, or SMP-level in v2); `reason` is the optional verbose `rsn`.
    case returnCode(Int64, reason: String?)
    /// `err {group, rc}`: a group-specific error (v2).
    case groupError(group: SMPGroup, rc: Int64, reason: String?)

    public static func mcumgr(_ error: MCUmgrError, reason: String? = nil) -> SMPError {
        .returnCode(error.rawValue, reason: reason)
    }

    public static func image(_ error: ImageMgmtError, reason: String? = nil) -> SMPError {
        .groupError(group: .image, rc: error.rawValue, reason: reason)
    }

    public static func os(_ error: OSMgmtError, reason: String? = nil) -> SMPError {
        .groupError(group: .os, rc: error.rawValue, reason: reason)
    }

    /// The named SMP-level code, for `.returnCode`.
    public var mcumgrError: MCUmgrError? {
        if case .returnCode(let rc, _) = self { return MCUmgrError(rawValue: rc) }
        return nil
    }

    /// The named image group code, for an image group `.groupError`.
    public var imageError: ImageMgmtError? {
        if case .groupError(.image, let rc, _) = self { return ImageMgmtError(rawValue: rc) }
        return nil
    }

    /// The named OS group code, for an OS group `.groupError`.
    public var osError: OSMgmtError? {
        if case .groupError(.os, let rc, _) = self { return OSMgmtError(rawValue: rc) }
        return nil
    }

    public var reason: String? {
        switch self {
        case .returnCode(_, let reason), .groupError(_, _, let reason): return reason
        }
    }

    /// The response body a server sends for this error (`rsn` at the top level, as Zephyr puts it).
    public var body: CBORMap {
        var map: CBORMap = [:]
        switch self {
        case .returnCode(let rc, _):
            map.append("rc", .int(rc))
        case .groupError(let group, let rc, _):
            map.append("err", .map(["group": .unsigned(UInt64(group.rawValue)), "rc": .int(rc)]))
        }
        map.append("rsn", ifPresent: reason.map(CBORValue.text))
        return map
    }

    public var description: String {
        var text: String
        switch self {
        case .returnCode(let rc, _):
            if let known = MCUmgrError(rawValue: rc) {
                text = "device returned rc \(rc) (\(known.name)): \(known.description)"
            } else {
                text = "device returned rc \(rc) (\(rc >= 256 ? "application-defined" : "unknown") code)"
            }
        case .groupError(let group, let rc, _):
            if let known = imageError {
                text = "device returned image error \(rc) (\(known.name)): \(known.description)"
            } else if let known = osError {
                text = "device returned OS error \(rc) (\(known.name)): \(known.description)"
            } else {
                text = "device returned error \(rc) of group \(group)"
            }
        }
        if let reason { text += " Device says: \"\(reason)\"." }
        return text
    }
}

/// What a response body says about the request: done, or refused with an `SMPError`.
public enum SMPStatus: Sendable, Hashable {
    case success
    case failure(SMPError)

    /// Reads `err` and `rc` from a response body. A body without both is success, and so is
    /// `rc: 0` (Zephyr's `CONFIG_MCUMGR_SMP_LEGACY_RC_BEHAVIOUR` adds it to good responses). `err`
    /// wins over `rc` if a server sends both. Throws only when those fields have the wrong shape.
    public init(body: CBORMap) throws(SMPBodyError) {
        // `rsn` is informational: one of the wrong type must not hide the error it explains.
        let reason = body["rsn"]?.text
        if let err = body["err"] {
            guard let errMap = err.map else {
                throw .wrongType(field: "err", expected: "map", found: err.kindName)
            }
            let fields = SMPFields(errMap, path: "err")
            let group = try fields.uint("group", max: UInt64(UInt16.max))
            let rc = try fields.int("rc")
            if rc != 0 {
                self = .failure(.groupError(group: SMPGroup(rawValue: UInt16(group)), rc: rc,
                                            reason: reason ?? errMap["rsn"]?.text))
                return
            }
        }
        if let rc = try SMPFields(body).optionalInt("rc"), rc != 0 {
            self = .failure(.returnCode(rc, reason: reason))
            return
        }
        self = .success
    }
}
