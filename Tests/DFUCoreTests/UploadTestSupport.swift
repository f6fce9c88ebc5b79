@testable import DFUCore

/// Deterministic bytes for test images (no MCUboot structure: the test device does not check it).
func uploadTestImage(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var rng = UploadTestRNG(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
}

/// SplitMix64: a seeded generator so randomized runs repeat exactly.
struct UploadTestRNG: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
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
