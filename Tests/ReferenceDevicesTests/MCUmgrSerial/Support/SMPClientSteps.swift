@testable import ReferenceDevices

/// Client steps the tests repeat: uploads that follow the device's offset, state reads and writes.
extension SerialRig {
    static let image: UInt16 = 1
    static let os: UInt16 = 0

    /// One upload request; the device's answer.
    mutating func uploadChunk(_ image: [UInt8], off: Int, count: Int, sha: [UInt8]? = nil, withLength: Bool? = nil) -> TestCBOR? {
        let end = min(image.count, off + count)
        var pairs: [(String, TestCBOR)] = []
        if off == 0 || withLength == true {
            pairs.append(("image", .uint(0)))
            pairs.append(("len", .uint(UInt64(image.count))))
            if let sha { pairs.append(("sha", .bytes(sha))) }
        }
        pairs.append(("off", .uint(UInt64(off))))
        pairs.append(("data", .bytes(Array(image[off..<end]))))
        return request(.request(write: true, group: Self.image, command: 1, .map(pairs))).last?.body
    }

    /// A whole upload, following the offsets the device answers; the answers in order.
    @discardableResult
    mutating func upload(_ image: [UInt8], chunk: Int = 240, sha: [UInt8]? = nil) -> [TestCBOR] {
        var answers: [TestCBOR] = []
        var off = 0
        var guardCount = 0
        while off < image.count, guardCount < 10_000 {
            guardCount += 1
            guard let answer = uploadChunk(image, off: off, count: chunk, sha: sha) else { break }
            answers.append(answer)
            guard let next = answer["off"]?.uint, answer["rc"].map({ $0.uint == 0 }) ?? true,
                  answer["err"] == nil else { break }
            off = Int(next)
        }
        return answers
    }

    mutating func imageList() -> TestCBOR? {
        request(.request(write: false, group: Self.image, command: 0)).last?.body
    }

    mutating func setImageState(hash: [UInt8]?, confirm: Bool) -> TestCBOR? {
        var pairs: [(String, TestCBOR)] = [("confirm", .bool(confirm))]
        if let hash { pairs.insert(("hash", .bytes(hash)), at: 0) }
        return request(.request(write: true, group: Self.image, command: 0, .map(pairs))).last?.body
    }

    /// Sends the reset command and runs the device through its reboot.
    @discardableResult
    mutating func reset(_ body: TestCBOR = .map([])) -> TestCBOR? {
        let answer = request(.request(write: true, group: Self.os, command: 5, body)).last?.body
        settle()
        return answer
    }
}

extension MCUmgrSerialConfiguration {
    /// The defaults, with `image` in the primary slot.
    static func test(_ image: [UInt8] = Samples.image(major: 1, minor: 0)) -> MCUmgrSerialConfiguration {
        MCUmgrSerialConfiguration(initialImage: image)
    }
}

import Testing

/// `#require` for expressions that mutate the rig (the macro cannot take those).
func unwrap<T>(_ value: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    try #require(value, sourceLocation: sourceLocation)
}
