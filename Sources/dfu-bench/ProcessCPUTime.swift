#if canImport(Glibc)
import Glibc
#endif

/// User plus system CPU time of the whole process (`getrusage(RUSAGE_SELF)`). The client, the memory
/// link's radio model and the virtual device all run in this process, so a difference of two
/// readings is what the transfer cost the host with the simulation included: an upper bound on the
/// client's own share.
enum ProcessCPUTime {
    static func now() -> Duration {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .zero }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    private static func duration(_ time: timeval) -> Duration {
        .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }
}
