/// The namespace of the MCUmgr-over-serial reference model: a Zephyr application with the SMP UART
/// transport and MCUboot's serial recovery, written from the Zephyr and MCUboot sources alone
/// (docs/reference-device-mcumgr-serial.md lists what was read). Everything the model needs that
/// dfu also has (CBOR, base64, CRC-16, SHA-256, the MCUboot image format) is written again here so
/// that the two cannot share a mistake; the nesting keeps these names apart from DFUCore's.
///
/// The public face is `MCUmgrSerialDevice` with `MCUmgrSerialConfiguration`.
public enum MCUmgrSerial {}
