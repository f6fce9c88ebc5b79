#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The only place dfu exits: the outcome of the run becomes the exit code (Outcome.exitCode).
SignalHandling.install()
let outcome = await CLI.run(arguments: CommandLine.arguments, console: .standard)
exit(outcome.exitCode)
