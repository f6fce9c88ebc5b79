extension FlashRequest {
    /// The engine's options for this request. `earlierBootloaderName`: the name an earlier,
    /// unfinished run gave this device's bootloader (its journal), to look for it by;
    /// `earlierVersionBefore`: what the device ran before an earlier, unfinished run of the same file.
    public func updateOptions(earlierBootloaderName: String? = nil, earlierVersionBefore: String? = nil) -> UpdateOptions {
        var options = UpdateOptions()
        options.mode = effectiveMode
        options.imageIndex = imageIndex.map { UInt64(clamping: $0) }
        options.minimumBattery = minimumBattery
        options.allowDowngrade = allowDowngrade
        options.requireNewer = requireNewer
        options.allowHostOnBattery = allowHostOnBattery
        options.allowUnsigned = allowUnsigned
        options.expectedVersion = expectVersion
        options.packetReceiptNotification = packetReceiptInterval
        options.bootloaderName = bootloaderName
        options.earlierBootloaderName = earlierBootloaderName
        options.earlierVersionBefore = earlierVersionBefore
        options.deadlines = timeouts.deadlines
        options.dryRun = dryRun
        return options
    }
}
