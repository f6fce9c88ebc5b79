/// The version `dfu --version` prints. Bump it with every release; scripts may parse `dfu <version>`.
enum DFUVersion {
    static let current = "0.1.0"
}
