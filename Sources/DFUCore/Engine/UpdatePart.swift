/// One part of an update that the device takes on its own: its own transfer, after which the
/// device activates it and resets before the next part (a Nordic package's SoftDevice and/or
/// bootloader, then its application), or one of several MCUboot images that are all sent before the
/// one reset that installs them (an nRF5340's application and network core). An update of one
/// image is one part.
public struct UpdatePart: Sendable, Equatable {
    /// What the part is, as its file names it (`softdevice_bootloader`, `application`, …).
    public var name: String
    /// 1-based position in the order the parts are sent.
    public var number: Int
    public var count: Int
    /// Bytes this part uploads.
    public var size: Int
    /// The MCUboot image the part is, in an update of several images.
    public var image: UpdateImageName?

    public init(name: String, number: Int, count: Int, size: Int, image: UpdateImageName? = nil) {
        self.image = image
        self.name = name
        self.number = number
        self.count = count
        self.size = size
    }

    /// "softdevice_bootloader 1/2", as progress and JSON lines name it.
    public var label: String { "\(name) \(number)/\(count)" }

    public var isLast: Bool { number >= count }
}
