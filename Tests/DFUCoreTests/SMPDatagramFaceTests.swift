import DFUCore
import Testing
import Transport

/// SMP over UDP is shown to the engine as Zephyr's SMP GATT service (smp-mcuboot.md §1).
struct SMPDatagramFaceTests {
    @Test func theUDPFaceIsZephyrsSMPServiceAndCharacteristic() {
        let face = DatagramGATTFace.smp
        #expect(face.service.uuid == BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84"))
        #expect(face.characteristic.uuid == BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48"))
        #expect(face.services.first?.characteristics.first?.properties == [.writeWithoutResponse, .notify])
        #expect(face.service == DFUServiceIDs.smp)
    }
}
