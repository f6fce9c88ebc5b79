@testable import DFUCore
import ExitCodes
import NordicTestSupport
import Testing

/// How an init packet the bootloader had no room for is worded: the nRF5 SDK answers plain
/// INSUFFICIENT RESOURCES (0x04) at Execute(command); the extended INSUFFICIENT SPACE (0x0D) means
/// the same. Other refusals keep the advice on keys, versions, hardware and SoftDevice.
@Suite struct NordicNoRoomWordingTests {
    static let noRoom = [NordicRemoteError(result: .insufficientResources),
                         NordicRemoteError(result: .extendedError, extended: .insufficientSpace)]

    @Test(arguments: noRoom)
    func aRefusalForLackOfRoomSaysTheImageDoesNotFitTheFlash(_ remote: NordicRemoteError) {
        let error = NordicTransferError.initPacketRejected(remote)
        #expect(error.isOutOfSpace)
        #expect(error.description.hasPrefix("the bootloader has no room for this update: \(remote). The image does not fit "
                                            + "the device's free flash"), "\(error)")
        #expect(error.description.contains("824 KiB on an nRF52840"))
        #expect(!error.description.contains("signing key"))
        #expect(NordicFailure.transfer(error).exitStatus == .deviceRejected)
    }

    @Test(arguments: [NordicRemoteError(result: .invalidObject),
                      NordicRemoteError(result: .extendedError, extended: .softDeviceRequirementNotMet),
                      NordicRemoteError(result: .extendedError, extended: .firmwareVersionTooLow),
                      NordicRemoteError(result: .operationFailed)])
    func otherInitPacketRefusalsKeepTheAdviceOnKeysAndVersions(_ remote: NordicRemoteError) {
        let error = NordicTransferError.initPacketRejected(remote)
        #expect(!error.isOutOfSpace)
        #expect(error.description == "the bootloader rejected the init packet: \(remote). Check the package's signing "
                + "key, versions, hardware version and SoftDevice requirement.")
        let image = try? NordicPackage(zipBytes: NordicTestSamples.bytes("nordic/app-signed-3.zip")).images.first
        #expect(NordicFailure.transfer(error, image: image).description == error.description)
    }

    @Test func insufficientResourcesForAnotherRequestIsNoLackOfRoom() {
        // Create(data) larger than the object's maximum also answers 0x04: that is a client's fault.
        let error = NordicTransferError.refused(.create(.data, size: 8192), NordicRemoteError(result: .insufficientResources))
        #expect(!error.isOutOfSpace)
    }

    @Test func withThePartKnownTheMessageNamesItsKindAndSize() throws {
        let image = try #require(try NordicPackage(zipBytes: NordicTestSamples.bytes("nordic/app-signed-3.zip")).images.first)
        let error = NordicTransferError.initPacketRejected(NordicRemoteError(result: .insufficientResources))
        let failure = NordicFailure.transfer(error, image: image)
        #expect(failure.description.contains("The application (\(image.firmware.count) bytes) does not fit the device's free flash"),
                "\(failure)")
        #expect(!failure.description.contains("a bootloader must also fit"), "only for a part with a bootloader")
        #expect(failure.cause == .nordicTransfer(error))
        #expect(failure.exitStatus == .deviceRejected)
    }
}
