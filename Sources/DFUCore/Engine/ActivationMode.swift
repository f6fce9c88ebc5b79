/// What happens after the upload, as MCUmgr clients name it (Nordic's TEST_AND_CONFIRM, CONFIRM_ONLY,
/// TEST_ONLY, NONE).
public enum ActivationMode: String, Sendable, CaseIterable, Codable {
    /// Mark for test, reset, reconnect, check the new image runs, confirm it. A broken image rolls back.
    case testConfirm = "test-confirm"
    /// Confirm the uploaded image permanently, reset, check it runs. No rollback possible.
    case confirmOnly = "confirm-only"
    /// Mark for test and reset; the device reverts on its next reset unless something confirms it.
    case testOnly = "test-only"
    /// Upload only; the device keeps running its current image.
    case uploadOnly = "upload-only"
}

extension ActivationMode {
    /// The mode image index `index` is updated in. Zephyr's img_mgmt refuses to confirm the running
    /// image of an index other than the application's (error 32, IMAGE_CONFIRMATION_DENIED, unless
    /// `CONFIG_MCUMGR_GRP_IMG_ALLOW_CONFIRM_NON_ACTIVE_IMAGE_ANY`), but lets its secondary slot be
    /// made permanent: so test-confirm becomes confirm-only there (no revert).
    public func forImage(_ index: UInt64) -> ActivationMode {
        index > 0 && self == .testConfirm ? .confirmOnly : self
    }
}
