extension MCUmgrSerial {
    /// What a Zephyr command handler leaves behind: its return code (`MGMT_ERR_*`, non-zero means
    /// an error response built by `smp_on_err`), the entries it wrote into the response map, and
    /// the group error it added with `smp_add_cmd_err`, if any.
    struct HandlerOutcome: Equatable {
        var rc = MgmtError.ok
        var pairs: [CBORPair] = []
        var groupError: GroupError?

        struct GroupError: Equatable {
            var group: UInt16
            var code: UInt16
        }

        static func ok(_ pairs: [CBORPair] = []) -> HandlerOutcome { HandlerOutcome(pairs: pairs) }
        static func failure(_ rc: MgmtError) -> HandlerOutcome { HandlerOutcome(rc: rc) }

        /// smp.c `smp_add_cmd_err`: `"err": {"group": g, "rc": r}` in the response map (nothing when
        /// `r` is 0), remembered for the version-0 translation.
        static func groupError(_ group: UInt16, _ code: UInt16, after pairs: [CBORPair] = []) -> HandlerOutcome {
            guard code != 0 else { return .ok(pairs) }
            let err = CBORItem.map([CBORPair("group", .unsigned(UInt64(group))), CBORPair("rc", .unsigned(UInt64(code)))])
            return HandlerOutcome(pairs: pairs + [CBORPair("err", err)], groupError: GroupError(group: group, code: code))
        }

        static func imageError(_ error: ImageError, after pairs: [CBORPair] = []) -> HandlerOutcome {
            groupError(Group.image, error.rawValue, after: pairs)
        }
    }
}
