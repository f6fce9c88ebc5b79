@testable import DFUCore
import Testing

/// `--expect-version` for an MCUboot image: `M.m.r` leaves the build out, `M.m.r+b` and Zephyr's
/// `M.m.r.b` compare it; anything else is no version.
struct ExpectedImageVersionTests {
    let v110 = ImageVersion(major: 1, minor: 1, revision: 0)
    let v110b5 = ImageVersion(major: 1, minor: 1, revision: 0, build: 5)

    @Test func withoutABuildTheBuildIsNotCompared() throws {
        let expected = try #require(ExpectedImageVersion(parsing: "1.1.0"))
        #expect(expected.matches(v110) && expected.matches(v110b5))
        #expect(!expected.matches(ImageVersion(major: 1, minor: 1, revision: 1)))
    }

    @Test(arguments: ["1.1.0+5", "1.1.0.5"])
    func aBuildGivenIsCompared(text: String) throws {
        let expected = try #require(ExpectedImageVersion(parsing: text))
        #expect(expected.matches(v110b5))
        #expect(!expected.matches(v110))
        #expect(expected.description == text, "messages quote the user's text")
    }

    @Test(arguments: ["", "1.1", "1.1.0.5.6", "v1.1.0", "1.1.0+", "1.1.0+x", "256.0.0", "1.1.0-rc1"])
    func anythingElseIsNoVersion(text: String) {
        #expect(ExpectedImageVersion(parsing: text) == nil)
    }
}
