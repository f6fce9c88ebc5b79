import BlueZTransport
import DBusBinding
import Transport

/// The D-Bus error a GATT application answers a Write Request with, so that bluetoothd sends the
/// central the ATT error the device means. BlueZ 5.66 (gatt-database.c `dbus_error_to_att_ecode`)
/// takes `org.bluez.Error.Failed` with a message "0x80"…"0x9f" as that application error, and
/// NotPermitted as Write Not Permitted; nothing else can be asked for. So the SDK's 0xFD (CCCD
/// improperly configured) and any other code become the application error 0x80
/// (nordic-secure-dfu.md §10.6).
enum PeripheralWriteRefusal {
    static func dbusError(for error: ATTError) -> DBusError {
        switch error.code {
        case 0x80 ... 0x9F:
            return DBusError.remote(name: BlueZNames.Error.failed, message: "0x" + String(error.code, radix: 16))
        case ATTError.writeNotPermitted.code:
            return DBusError.remote(name: BlueZNames.Error.notPermitted, message: "Write not permitted")
        default:
            return DBusError.remote(name: BlueZNames.Error.failed, message: "0x80")
        }
    }
}
