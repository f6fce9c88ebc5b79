import Foundation
import Testing
import SerialTransport
import Transport

/// The pseudo-terminal that plays a board's port: its link, its life across clients, its end.
@Suite(.timeLimit(.minutes(1))) struct PseudoTerminalTests {
    typealias Support = SerialTestSupport

    @Test func linksThePathToTheDeviceSideAndRemovesTheLinkOnClose() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/board"
        let pty = try PseudoTerminal.open(linkedAt: path)
        #expect(pty.devicePath.hasPrefix("/dev/pts/"))
        #expect(pty.linkPath == path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == pty.devicePath)
        await pty.close()
        await pty.close()  // a second call does nothing
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: pty.devicePath))
    }

    @Test func replacesAStaleLinkButNothingElse() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let stale = try scratch.link("board", to: "/dev/pts/999999")
        let pty = try PseudoTerminal.open(linkedAt: stale)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: stale) == pty.devicePath)

        let file = try scratch.file("not-a-link", "keep me")
        #expect(throws: PseudoTerminalError.pathTaken(file)) { _ = try PseudoTerminal.open(linkedAt: file) }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")
        let folder = try scratch.folder("a-folder")
        #expect(throws: PseudoTerminalError.pathTaken(folder)) { _ = try PseudoTerminal.open(linkedAt: folder) }
        #expect(PseudoTerminalError.pathTaken(file).description.contains("is not a symbolic link"))
        await pty.close()
    }

    @Test func aClosedTerminalLeavesANewerLinkAtTheSamePathAlone() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/board"
        let old = try PseudoTerminal.open(linkedAt: path)
        let new = try PseudoTerminal.open(linkedAt: path)
        await old.close()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == new.devicePath)
        await new.close()
    }

    /// A port that vanishes and comes back often gets its old pts number again (devpts hands out
    /// the lowest free one); the old terminal closed again, or released, must not take the new link.
    @Test func aClosedTerminalKeepsOffTheLinkOfTheOneThatCameBackAfterIt() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/board"
        var old: PseudoTerminal? = try PseudoTerminal.open(linkedAt: path)
        await old?.close()
        let new = try PseudoTerminal.open(linkedAt: path)
        await old?.close()
        old = nil
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == new.devicePath)
        await new.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func servesOneClientAfterAnother() async throws {
        let pty = try PseudoTerminal.open()
        for round in 0..<3 {
            let link = try SerialLink.open(pty.devicePath, presenting: .test)
            let heard = Task { try await Support.bytes(of: pty, count: 1) }
            try await link.writeWithoutResponse([UInt8(round)], to: DatagramGATTFace.test.characteristic)
            #expect(try await heard.value == [UInt8(round)])
            let answer = Task { try await Support.bytes(of: link, count: 2) }
            try await pty.write([0xA0, UInt8(round)])
            #expect(try await answer.value == [0xA0, UInt8(round)])
            await link.disconnect()
        }
        await pty.close()
        await #expect(throws: PseudoTerminalError.closed) { try await pty.write([1]) }
    }

    @Test func bytesWrittenBeforeAClientOpensAreDroppedAtItsOpen() async throws {
        let pty = try PseudoTerminal.open()
        try await pty.write(Array("stale boot banner".utf8))
        let link = try SerialLink.open(pty.devicePath, presenting: .test)
        let answer = Task { try await Support.bytes(of: link, count: 2) }
        try await pty.write([0x01, 0x02])
        #expect(try await answer.value == [0x01, 0x02])
        await link.disconnect()
        await pty.close()
    }
}
