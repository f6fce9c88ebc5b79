// A whole image upload (ImageUploadCore over its SMPClientCore, as SMPSession drives them) against a
// device whose every answer the input chooses. Three bytes choose the link (packet budget, window),
// the image (32 to 2,072 bytes) and the job and upload options (slot hash, image number, resync,
// failures per offset); then each byte is one move of the device or the link, its parameters
// after it: an honest answer to the oldest request or to any, an answer at a chosen or a nearby
// offset, an error (busy, version, any rc, v1 or v2), a wrong sequence number, group, command, op
// or version, a duplicate, a body of any bytes, garbage, an answer cut in two, a lost request, a
// device that loses its session, silence (the clock jumps to the core's deadline), a wait, a lost
// link and a new one (of any write size). When the input ends the device answers honestly, or
// falls silent, as the first byte says.
//
// Checked, beyond not crashing: every write fits the link, and the writes of one event make whole
// packets that decode; every upload chunk lies inside the image and carries its bytes at its
// offset, and only a first packet (off 0) carries len and sha, the job's, with at least a header's
// worth of data; never more upload requests in flight than the window; every progress is an offset
// the device reported (or the whole image after the image list showed it in slot 1); completed
// only in the event whose answer acknowledged the whole image (off == len, match not false) or
// listed it in slot 1; one end, and nothing after it; a failure is a typed error, never the
// driver's bug (`localProtocolViolation`) or a bad job; no event sends more than two windows'
// worth of requests (and two); after the input, the upload ends within 20,000 honest answers or
// 1,000 deadlines (no livelock: every move before that is an input byte).
//
// Not checked, because the core does not promise it: that a device lying about its offset ends up
// with the image (the device's `off` is the truth the core follows, docs/engine.md).
// libFuzzer options: -max_len=2048

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPUploadExchange(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var exchange = UploadExchange(options: &input)
    exchange.run(&input, honestMoves: 20_000, what: "the upload")
    return 0
}
