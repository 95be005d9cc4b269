import CourierCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(await CourierCommand.exitStatus(running: Array(CommandLine.arguments.dropFirst())))
