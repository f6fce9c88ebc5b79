// swift-tools-version: 6.0
// dfu: BLE firmware updates on Linux through BlueZ. No package dependencies: the toolchain and
// Debian's C libraries (libdbus-1, libcrypto, libzip, liblzma) through module maps only.
import PackageDescription

let package = Package(
    name: "dfu",
    products: [
        .executable(name: "dfu", targets: ["dfu"]),
        .library(name: "DFUCore", targets: ["DFUCore"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip",
                       providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CLZMA", pkgConfig: "liblzma",
                       providers: [.apt(["liblzma-dev"])]),
        // The link core (Link, Connector, identifiers, the memory link, the fd pump): no C library.
        // Its backends sit beside it, one target per folder of Sources/Transport (as NIOPosix
        // beside NIOCore); each knows one kind of link and no DFU protocol.
        .target(name: "Transport", path: "Sources/Transport/Core"),
        .target(name: "DBusBinding", dependencies: ["Transport", "CDBus"], path: "Sources/Transport/DBus"),
        .target(name: "BlueZTransport", dependencies: ["Transport", "DBusBinding"], path: "Sources/Transport/BlueZ"),
        .target(name: "UDPTransport", dependencies: ["Transport"], path: "Sources/Transport/UDP"),
        .target(name: "SerialTransport", dependencies: ["Transport"], path: "Sources/Transport/Serial"),
        .target(name: "DFUCore", dependencies: ["Transport", "COpenSSL", "CZip", "CLZMA"]),
        .target(name: "DeviceSim", dependencies: ["DFUCore", "Transport", "DBusBinding", "BlueZTransport", "UDPTransport",
                                                 "SerialTransport"]),
        // Exit codes: what the command-line tool and the fault campaign map a DFUError to.
        .target(name: "ExitCodes", dependencies: ["DFUCore"]),
        // The argument parser of the three executables: declarations, parsing, help, man page, completions.
        .target(name: "ArgumentParsing"),
        .executableTarget(name: "dfu", dependencies: ["DFUCore", "Transport", "BlueZTransport", "UDPTransport", "SerialTransport", "DeviceSim",
                                                      "ExitCodes", "ArgumentParsing"]),
        // `make bench`: the transfer benchmark against the virtual device (release build, not a test).
        // What the two measuring tools below share: host facts, stderr lines, text columns.
        .target(name: "ReportSupport", dependencies: ["Transport"]),
        .executableTarget(name: "dfu-bench", dependencies: ["DFUCore", "Transport", "SerialTransport", "DeviceSim", "ReportSupport",
                                                           "ArgumentParsing", "Harness"]),
        // `make faults`: full updates against the virtual device under injected faults (release build, not a test).
        .executableTarget(name: "dfu-faults", dependencies: ["DFUCore", "Transport", "DeviceSim", "ReportSupport", "ExitCodes",
                                                             "ArgumentParsing", "Harness", "UDPTransport", "SerialTransport",
                                                             "BlueZTransport", "BlueZStandIn"]),
        // What the harnesses share and `dfu` does not carry: the hang guard of the fault campaign
        // and of the tests, the one way the measuring tools start a child process.
        .target(name: "Harness"),
        // A stand-in for bluetoothd 5.66 on a private dbus-daemon: the BlueZ central's tests and the
        // fault campaign's `bluez-*` runs. A test double, not shipped: no product links it.
        .target(name: "BlueZStandIn", dependencies: ["Transport", "DBusBinding", "BlueZTransport"]),
        // Nordic packages and init packets the tests build and sign (test support, not shipped).
        .target(name: "NordicTestSupport", dependencies: ["DFUCore", "BlueZStandIn"], path: "Tests/Support/NordicTestSupport"),
        // An nRF5 SDK device (secure BLE bootloader + buttonless application) modelled from the SDK
        // sources alone, independent of DeviceSim's Nordic model, served over the memory link; and
        // a Zephyr SMP-over-serial application on MCUboot with serial recovery (MCUmgrSerial),
        // modelled from the Zephyr and MCUboot sources, served on a serial line.
        .target(name: "ReferenceDevices", dependencies: ["Transport", "DFUCore"]),
        .testTarget(name: "ReferenceDevicesTests", dependencies: ["ReferenceDevices", "DFUCore", "Transport"]),
        .testTarget(name: "DFUCoreTests", dependencies: ["DFUCore", "DeviceSim", "ExitCodes", "NordicTestSupport", "ReferenceDevices"]),
        // The CLI's in-process tests (renderers, --device parsing) import the executable module; the
        // define switches them on (they compile to nothing where the dependency is absent).
        .testTarget(name: "DFUCLITests", dependencies: ["DFUCore", "dfu", "DeviceSim", "Transport", "BlueZTransport", "SerialTransport", "BlueZStandIn",
                                                         "ExitCodes", "NordicTestSupport", "ArgumentParsing", "Harness"],
                    swiftSettings: [.define("DFU_CLI_UNIT_TESTS")]),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "DBusBinding", "BlueZTransport", "UDPTransport",
                                                           "SerialTransport", "BlueZStandIn", "Harness"]),
        .testTarget(name: "DeviceSimTests", dependencies: ["DeviceSim", "DFUCore", "Transport", "DBusBinding", "BlueZTransport",
                                                           "UDPTransport", "BlueZStandIn", "NordicTestSupport", "Harness"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        // The option declarations of `dfu-bench` and `dfu-faults`, in process.
        .testTarget(name: "MeasuringToolsTests", dependencies: ["dfu-bench", "dfu-faults", "ArgumentParsing", "Harness", "UDPTransport", "SerialTransport"]),
    ],
    swiftLanguageModes: [.v6]
)
