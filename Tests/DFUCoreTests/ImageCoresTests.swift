import DFUCore
import Testing

/// Which core each image index updates, from the board OS info reports (`ImageCores`).
struct ImageCoresTests {
    @Test(arguments: ["nrf5340dk", "nrf5340dk@2.0.0", "thingy53", "nrf5340dk_nrf5340_cpuapp",
                      "nrf5340dk_nrf5340_cpuapp_ns", "nrf5340_audio_dk"])
    func nrf5340ApplicationCoreBuildsNameBothCores(board: String) {
        #expect(ImageCores.named(byBoard: board) == [0: "application core", 1: "network core"])
    }

    @Test(arguments: ["nrf52840dk", "nrf52840dk_nrf52840", "nrf5340dk_nrf5340_cpunet", "", "esp32"])
    func otherBoardsNameNoCore(board: String) {
        #expect(ImageCores.named(byBoard: board) == nil)
    }
}
