extension MCUmgrSerial {
    /// One image slot of NOR flash: erased bytes read 0xFF, a write can only clear bits, erases
    /// work on whole pages. The trailer is kept as flags rather than bytes; it lives in the last
    /// page (an approximation of `boot_trailer_sz`, which is under one 4 KiB page for 4-byte
    /// writes), so an erase that reaches that page clears it.
    struct FlashSlot: Equatable {
        private(set) var bytes: [UInt8]
        var trailer = SwapTrailer.unset
        let pageSize: Int

        init(size: Int, pageSize: Int) {
            bytes = [UInt8](repeating: 0xFF, count: max(0, size))
            self.pageSize = max(1, pageSize)
        }

        var size: Int { bytes.count }
        var pageCount: Int { (size + pageSize - 1) / pageSize }

        /// Every byte erased and no trailer flag (Zephyr `img_mgmt_flash_check_empty`).
        var isErased: Bool { trailer == .unset && bytes.allSatisfy { $0 == 0xFF } }

        /// Erases the pages `first..<first + count`; returns how many were erased.
        @discardableResult
        mutating func erasePages(_ first: Int, count: Int) -> Int {
            let start = max(0, first)
            let end = min(pageCount, first + count)
            guard start < end else { return 0 }
            let byteEnd = min(size, end * pageSize)
            for index in start * pageSize..<byteEnd { bytes[index] = 0xFF }
            if end == pageCount { trailer = .unset }
            return end - start
        }

        /// Erases the pages holding bytes `start..<end` (rounded out to pages); returns the count.
        @discardableResult
        mutating func eraseCovering(_ start: Int, _ end: Int) -> Int {
            guard end > start else { return 0 }
            let first = start / pageSize
            let last = (end - 1) / pageSize
            return erasePages(first, count: last - first + 1)
        }

        @discardableResult
        mutating func eraseAll() -> Int { erasePages(0, count: pageCount) }

        /// NOR programming: each byte becomes `old & new`. Bytes past the slot are not written.
        mutating func write(_ data: [UInt8], at offset: Int) {
            guard offset >= 0 else { return }
            for (index, byte) in data.enumerated() where offset + index < size {
                bytes[offset + index] &= byte
            }
        }

        /// MCUboot's swap, as an outcome: each slot gets the other's bytes, cut or padded with
        /// erased bytes to its own size.
        mutating func exchangeContents(with other: inout FlashSlot) {
            let mine = bytes, theirs = other.bytes
            bytes = Self.fit(theirs, size)
            other.bytes = Self.fit(mine, other.size)
        }

        private static func fit(_ data: [UInt8], _ size: Int) -> [UInt8] {
            if data.count >= size { return Array(data.prefix(size)) }
            return data + [UInt8](repeating: 0xFF, count: size - data.count)
        }
    }
}
