import Foundation

/// The built `dfu` executable, run the way a user runs it: from the repository root, stdin empty,
/// stdout and stderr captured separately.
///
/// Where the binary is, first match wins:
/// 1. `DFU_BINARY` (an absolute path, or relative to the repository root);
/// 2. next to the running test bundle (`<scratch>/debug/dfuPackageTests.xctest` sits beside
///    `<scratch>/debug/dfu`), so `swift test --scratch-path X` finds X's own build;
/// 3. `<repository>/.build/debug/dfu`.
/// `swift build` must run before `swift test` (the Makefile does); a missing binary fails the tests
/// with that instruction instead of running something stale from elsewhere.
enum DFUBinary {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // DFUCLITests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root

    static let location: Result<URL, LocateError> = locate()

    struct LocateError: Error, CustomStringConvertible {
        var tried: [String]
        var description: String {
            "no dfu binary found (tried: \(tried.joined(separator: ", "))). Run 'swift build' before 'swift test', or set DFU_BINARY."
        }
    }

    private static func locate() -> Result<URL, LocateError> {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["DFU_BINARY"], !configured.isEmpty {
            candidates.append(configured.hasPrefix("/")
                ? URL(fileURLWithPath: configured)
                : repositoryRoot.appendingPathComponent(configured))
        } else {
            candidates += testBundleDirectories().map { $0.appendingPathComponent("dfu") }
            candidates.append(repositoryRoot.appendingPathComponent(".build/debug/dfu"))
        }
        for candidate in candidates where isExecutableFile(candidate) {
            return .success(candidate)
        }
        return .failure(LocateError(tried: candidates.map(\.path)))
    }

    /// The products directory the test bundle was built into.
    private static func testBundleDirectories() -> [URL] {
        var directories: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        // An .xctest bundle directory (macOS layout): its parent is the products directory.
        directories += directories.filter { $0.pathExtension == "xctest" }.map { $0.deletingLastPathComponent() }
        return directories
    }

    private static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }
}
