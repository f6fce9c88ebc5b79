#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The only place dfu-faults exits: 0 when every run ended as its scenario expects, else
// FaultsError.exitCode (1 for an unexpected outcome, 2 for a bad command line).
exit(await FaultsMain.run(Array(CommandLine.arguments.dropFirst())))
