// A whole Nordic Secure DFU transfer (NordicTransferCore, as NordicSession drives it: init packet,
// then the firmware's data objects) against a bootloader whose every answer the input chooses.
// Four bytes choose the link (packet size, PRN, retries per object), the firmware (4 to 2,044
// bytes), the init packet (1 to 200 bytes) and the bootloader (object sizes, whether it keeps what
// it received over a lost link, PRN before or after the link takes the packets); then each byte
// is one move, its parameters after it: an honest step (the link takes the next batch, or the
// bootloader answers the next Control Point request), a Select or checksum answer at a chosen
// offset with the right, the device's or a wrong CRC and any max size, any result code and
// extended error, a malformed or unknown answer, garbage, a duplicate, a stray checksum (a late
// PRN), a lost, corrupted, shortened, repeated or reordered packet, a lost or late PRN, a link
// that never takes a batch, an ATT error on a Control Point write, silence (the clock jumps to
// the core's deadline), a wait, a lost link (before or after the bootloader handled a request)
// and a new one of any packet size. When the input ends the bootloader answers honestly, or falls
// silent, as the first byte says.
//
// Checked, beyond not crashing: one Control Point request at a time, each a request the wire
// format knows; every batch of packets lies inside its object, within the init packet or the
// firmware, carries their bytes at its offset, in packets no larger than the link's, and starts
// where an object starts, where the last batch ended, or at an offset the device reported with
// the right CRC; a Create is for the whole init packet or one data object, never larger than the
// max size of the device's last Select; an Execute goes out only in answer to a checksum or
// Select whose offset is the object's end and whose CRC matches the bytes up to it;
// completed(validated) only in the event of the success answer to the last object's Execute,
// completed(unconfirmed) only when the link went down with that Execute unanswered, both only
// after the init packet's Execute was answered with success; reconnect only with the link down;
// progress within the firmware; one end, nothing after it; a failure is a typed error, never the
// driver's bug (`localProtocolViolation`) or a bad job; after the input, the transfer ends
// within 50,000 honest moves or 1,000 deadlines.
//
// Not checked, because the core does not promise it: that a checksum offset is a multiple of 4
// (only Select's is checked; a device lying that way only gets packets it drops, then a retry),
// and that progress is an offset the device reported with the right CRC (an executed object
// counts as held after a mismatch: the device cannot lose it).
// libFuzzer options: -max_len=2048

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNordicTransferExchange(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var exchange = TransferExchange(options: &input)
    exchange.run(&input, honestMoves: 50_000, what: "the transfer")
    return 0
}
