import ReferenceDevices
import Testing
import Transport

/// Packet Receipt Notifications over serial (nrf_dfu_serial.c `dfu_req_handler_rsp_clbk`): a Write
/// is answered only when the count runs out, as a CRC answer.
@Suite struct SerialReceiptTests {
    /// A bootloader with the package's init packet executed and a data object of 4096 created.
    static func benchWithObject(prn: UInt16) throws -> (SerialBench, [UInt8]) {
        let package = try NordicPackage("app-signed-3.zip")
        var bench = SerialBench(try SerialUpdateTests.config())
        #expect(bench.sendInitPacket(package.initPacket, chunk: 64) == [0x60, 0x04, 0x01])
        #expect(bench.request(SerialRequestBytes.setPRN(prn)) == [0x60, 0x02, 0x01])
        #expect(bench.request(SerialRequestBytes.create(0x02, size: 4096)) == [0x60, 0x01, 0x01])
        return (bench, package.firmware)
    }

    @Test func everyNthWriteIsAnsweredWithOffsetAndCRC() throws {
        var (bench, image) = try Self.benchWithObject(prn: 3)
        var receipts: [[UInt8]] = []
        for start in stride(from: 0, to: 64 * 9, by: 64) {
            if let answer = bench.request(SerialRequestBytes.write(image[start ..< start + 64])) { receipts.append(answer) }
        }
        #expect(receipts.count == 3)
        for (index, receipt) in receipts.enumerated() {
            let end = 64 * 3 * (index + 1)
            #expect(receipt == [0x60, 0x03, 0x01] + le32(UInt32(end)) + le32(crc32(image.prefix(end))))
        }
        #expect(bench.counters.receiptsSent == 3)
    }

    @Test func createRestartsTheCount() throws {
        var (bench, image) = try Self.benchWithObject(prn: 2)
        #expect(bench.request(SerialRequestBytes.write(image[0 ..< 64])) == nil)
        #expect(bench.request(SerialRequestBytes.create(0x02, size: 4096)) == [0x60, 0x01, 0x01])
        #expect(bench.request(SerialRequestBytes.write(image[0 ..< 64])) == nil)
        #expect(bench.request(SerialRequestBytes.write(image[64 ..< 128]))
            == [0x60, 0x03, 0x01] + le32(128) + le32(crc32(image.prefix(128))))
    }

    @Test func refusedWriteDueForAReceiptAnswersItsResultAlone() throws {
        var (bench, image) = try Self.benchWithObject(prn: 1)
        for start in stride(from: 0, to: 4096, by: 64) {
            #expect(bench.request(SerialRequestBytes.write(image[start ..< start + 64]))?.prefix(3) == [0x60, 0x03, 0x01])
        }
        // Past the object's end: refused (03), answered as a receipt without offset and CRC.
        #expect(bench.request(SerialRequestBytes.write(image[4096 ..< 4160])) == [0x60, 0x03, 0x03])
        // on_data_obj_write_request returns without freeing the buffer.
        #expect(bench.counters.writeBuffersLeaked == 1)
    }

    @Test func noTargetMeansNoReceipts() throws {
        var (bench, image) = try Self.benchWithObject(prn: 0)
        for start in stride(from: 0, to: 4096, by: 64) {
            #expect(bench.request(SerialRequestBytes.write(image[start ..< start + 64])) == nil)
        }
        #expect(bench.counters.receiptsSent == 0)
    }
}
