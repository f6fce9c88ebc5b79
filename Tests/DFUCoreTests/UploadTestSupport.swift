@testable import DFUCore

/// Deterministic bytes for test images (no MCUboot structure: the test device does not check it).
func uploadTestImage(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
}

extension UploadTestPair.Outcome {
    var uploadError: ImageUploadError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// The data count of a non-first chunk at `offset` for a packet budget (what the core should pick
/// when the whole budget is a multiple of the write size).
func uploadChunkData(offset: UInt64, packetSize: Int) -> Int {
    ImageUploadRequest(offset: offset, data: []).maximumDataCount(packetSize: packetSize) ?? 0
}
