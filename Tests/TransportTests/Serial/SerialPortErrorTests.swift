#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SerialTransport
import Transport

/// The errno → error mapping and its texts (pure: root, who runs the tests, is never denied), and
/// the speeds termios can set.
@Suite struct SerialPortErrorTests {
    static let path = "/dev/ttyACM0"

    static func classify(_ code: Int32, call: String = "open", group: String? = nil) -> SerialPortError {
        SerialPortError.classify(SystemCallError(call: call, code: code), path: path, group: group)
    }

    @Test func mapsEachErrnoToWhatTheUserCanDo() {
        #expect(Self.classify(ENOENT) == .missing(path: Self.path))
        #expect(Self.classify(ENODEV) == .missing(path: Self.path))
        #expect(Self.classify(ENXIO) == .missing(path: Self.path))
        #expect(Self.classify(EBUSY) == .busy(path: Self.path))
        #expect(Self.classify(EWOULDBLOCK, call: "flock") == .busy(path: Self.path))
        #expect(Self.classify(EACCES, group: "dialout") == .permissionDenied(path: Self.path, group: "dialout"))
        #expect(Self.classify(EPERM) == .permissionDenied(path: Self.path, group: nil))
        #expect(Self.classify(ENOTTY, call: "tcgetattr") == .notATerminal(path: Self.path))
        #expect(Self.classify(EIO) == .system(path: Self.path, SystemCallError(call: "open", code: EIO)))
    }

    @Test func permissionDeniedNamesTheGroupAndTheFix() {
        let text = Self.classify(EACCES, group: "uucp").description
        #expect(text.contains("permission denied opening /dev/ttyACM0"))
        #expect(text.contains("'uucp'"))
        #expect(text.contains("sudo usermod -aG uucp $USER"))
        #expect(text.contains("log out and in again"))
        // Without a group to name (or root's), the usual one.
        for group in [nil, "root"] {
            let fallback = Self.classify(EACCES, group: group).description
            #expect(fallback.contains("sudo usermod -aG dialout $USER"))
            #expect(fallback.contains("ls -l /dev/ttyACM0"))
        }
    }

    @Test func busyNamesTheToolsThatFindTheHolder() {
        let text = SerialPortError.busy(path: Self.path).description
        #expect(text.contains("fuser /dev/ttyACM0"))
        #expect(text.contains("lsof /dev/ttyACM0"))
    }

    @Test func otherSystemErrorsNameTheErrno() {
        #expect(Self.classify(EIO).description.contains("open: EIO"))
        #expect(!Self.classify(EIO).isTransient)
    }

    @Test func acceptsEveryTermiosSpeedAndNothingElse() throws {
        for baud in SerialPortSettings.supportedBauds {
            #expect(try SerialPortSettings(baud: baud).baud == baud)
        }
        #expect(SerialPortSettings.supportedBauds.contains(1_000_000))
        #expect(SerialPortSettings.standard == (try SerialPortSettings()))
        #expect(SerialPortSettings.standard.baud == 115_200 && !SerialPortSettings.standard.hardwareFlowControl)
        #expect(try SerialPortSettings(baud: 921_600, hardwareFlowControl: true).hardwareFlowControl)
    }

    @Test func refusesAnUnsupportedSpeedNamingTheNearest() {
        #expect(throws: SerialPortError.unsupportedBaud(115_201, nearest: [115_200, 230_400])) {
            _ = try SerialPortSettings(baud: 115_201)
        }
        #expect(throws: SerialPortError.unsupportedBaud(300, nearest: [1_200])) { _ = try SerialPortSettings(baud: 300) }
        #expect(throws: SerialPortError.unsupportedBaud(5_000_000, nearest: [4_000_000])) {
            _ = try SerialPortSettings(baud: 5_000_000)
        }
        let text = SerialPortError.unsupportedBaud(250_000, nearest: [230_400, 460_800]).description
        #expect(text == "250000 baud is not a speed a serial port can be set to; the nearest supported are 230400 or 460800.")
    }
}

/// The group a permission error names comes from the device node itself (stat(2), getgrgid_r(3)).
@Suite struct DeviceNodeGroupTests {
    @Test func readsTheGroupThatOwnsTheNode() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let node = try scratch.file("ttyACM0")
        // A group this machine has, by name: dialout where it exists, else root's.
        let (gid, name): (gid_t, String) = getgrnam("dialout").map { ($0.pointee.gr_gid, "dialout") } ?? (0, "root")
        try #require(chown(node, getuid(), gid) == 0)
        #expect(FileSystem.groupName(of: node) == name)
        #expect(FileSystem.groupName(of: "\(scratch.path)/missing") == nil)
    }
}
