import DFUCore
import DeviceSim
import Testing

/// Every Create, Execute, Select and Control Point rule of nordic-secure-dfu.md §3.1 and §10.
@Suite struct NordicBootloaderObjectRuleTests {
    @Test func controlPointWriteWithoutNotificationsIsRefusedWithFD() throws {
        var bench = NordicBench(try NordicBench.configuration())
        _ = bench.handle(.disconnected)
        _ = bench.handle(.connected)
        #expect(bench.handle(.controlPointWrite([0x06, 0x01])) == [.refuseWrite(.init(code: 0xFD))])
    }

    @Test func createCommandSizeZeroIs03AndTooLargeIs04() throws {
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.create(0x01, size: 0) == [0x60, 0x01, 0x03])
        #expect(try bench.create(0x01, size: 513) == [0x60, 0x01, 0x04])
    }

    @Test func createCommandClearsDataProgressAndTheValidInitCommand() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration(sdk: .sdk15))
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[0 ..< 1024])
        #expect(try bench.create(0x01, size: image.initPacket.bytes.count) == [0x60, 0x01, 0x01])
        #expect(try bench.select(0x02) == (4096, 0, 0))
        #expect(try bench.select(0x01) == (256, 0, 0))
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08])
    }

    @Test func executeCommandBeforeAllBytesArrivedIs08() throws {
        let dat = try NordicSamples.image("app-signed-3.zip").initPacket.bytes
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.create(0x01, size: dat.count) == [0x60, 0x01, 0x01])
        _ = bench.send(dat[0 ..< 100])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x08])
    }

    @Test func createDataRules() throws {
        let image = try NordicSamples.image("app-signed-3.zip")   // 49152 bytes: 12 pages
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x08], "no valid init command")
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 0) == [0x60, 0x01, 0x03])
        #expect(try bench.create(0x02, size: 1000) == [0x60, 0x01, 0x03], "not a page and not the last object")
        #expect(try bench.create(0x02, size: 8192) == [0x60, 0x01, 0x04])
        // Eleven pages in, only exactly the remaining 4096 or a multiple fits; none runs past the image.
        for page in 0 ..< 11 {
            #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
            _ = bench.send(image.firmware[page * 4096 ..< (page + 1) * 4096])
            #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        }
        #expect(try bench.create(0x02, size: 4092) == [0x60, 0x01, 0x03])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
    }

    @Test func recreatedDataObjectRollsBackToTheLastExecutedOne() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[0 ..< 4096])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x01])
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        _ = bench.send(image.firmware[4096 ..< 5000])
        #expect(try bench.select(0x02) == (4096, 5000, CRC32.checksum(image.firmware[0 ..< 5000])))
        #expect(try bench.create(0x02, size: 4096) == [0x60, 0x01, 0x01])
        #expect(try bench.checksum() == (4096, CRC32.checksum(image.firmware[0 ..< 4096])))
    }

    @Test func invalidObjectTypeIs05AndStaysCurrent() throws {
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.result([0x06, 0x03]) == [0x60, 0x06, 0x05])
        #expect(try bench.result([0x03]) == [0x60, 0x03, 0x05])
        #expect(try bench.result([0x04]) == [0x60, 0x04, 0x05])
        #expect(try bench.create(0x00, size: 16) == [0x60, 0x01, 0x05])
    }

    @Test func unknownOpcodeIs02AndShortParametersAre03() throws {
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.cp([0x42]) == [0x60, 0x42, 0x02])
        #expect(try bench.cp([0x08, 0x00]) == [0x60, 0x08, 0x02])
        #expect(try bench.cp([0x01, 0x01, 0x10]) == [0x60, 0x01, 0x03])
        #expect(try bench.cp([0x02, 0x01]) == [0x60, 0x02, 0x03])
        #expect(try bench.cp([0x06]) == [0x60, 0x06, 0x03])
        #expect(try bench.cp([0x09, 0x07]) == [0x60, 0x09, 0x01])
        #expect(bench.handle(.controlPointWrite([])).isEmpty)
    }

    @Test func dataWriteWithoutAnOpenObjectIsRefused() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var bench = NordicBench(try NordicBench.configuration())
        #expect(try bench.result([0x02, 0x01, 0x00]) == [0x60, 0x02, 0x01])
        _ = try bench.select(0x02)
        #expect(bench.send(image.firmware[0 ..< 4]) == [[0x60, 0x03, 0x08]], "no init command")
        #expect(try bench.sendInitPacket(image.initPacket.bytes) == [0x60, 0x04, 0x01])
        #expect(try bench.result([0x02, 0x01, 0x00]) == [0x60, 0x02, 0x01])
        _ = try bench.select(0x02)
        #expect(bench.send(image.firmware[0 ..< 4]) == [[0x60, 0x03, 0x03]], "no object created")
    }
}
