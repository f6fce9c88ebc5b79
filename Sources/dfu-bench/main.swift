#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The only place dfu-bench exits: 0 when every run completed, else BenchError.exitCode.
exit(await BenchMain.run(Array(CommandLine.arguments.dropFirst())))
