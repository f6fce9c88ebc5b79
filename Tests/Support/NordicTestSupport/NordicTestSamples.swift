import Foundation

/// `firmware-samples/` of this repository, for the test-only key and the nrfutil packages.
public enum NordicTestSamples {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // NordicTestSupport
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appendingPathComponent("firmware-samples")

    public static func path(_ relativePath: String) -> String { root.appendingPathComponent(relativePath).path }

    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }
}
