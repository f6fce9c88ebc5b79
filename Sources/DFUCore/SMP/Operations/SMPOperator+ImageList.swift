extension SMPOperator {
    /// Every slot the device lists (image state read): version, hash and flags, per image number.
    /// Changes nothing on the device.
    public func listImages() async throws(DFUError) -> ImageStateResponse {
        try await run("'dfu image list'") { link async throws(DFUError) in try await link.imageList() }
    }
}
