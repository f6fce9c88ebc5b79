import Transport

extension MCUmgrSerial {
    /// The two work items the application's mcumgr submits (smp_uart.c `smp_uart_work`, smp.c
    /// `smpt->work`). Each handler drains its FIFO one element at a time.
    enum WorkItem: Equatable {
        case decodeLines
        case processPackets
    }

    /// A Zephyr work queue thread as far as the model needs it: items run in submission order;
    /// submitting an item already waiting does nothing, submitting the running one queues it again
    /// (`k_work_submit`); one element of the running item's FIFO is in progress at a time.
    struct WorkQueue: Equatable {
        private(set) var waiting: [WorkItem] = []
        /// The item whose handler is running.
        var running: WorkItem?
        /// The element in progress ends at this time.
        var busyUntil: MonotonicInstant?

        mutating func submit(_ item: WorkItem) {
            if !waiting.contains(item) { waiting.append(item) }
        }

        /// The item to take the next element from, advancing past handlers whose FIFO is empty.
        mutating func nextItem(hasWork: (WorkItem) -> Bool) -> WorkItem? {
            while true {
                if let item = running {
                    if hasWork(item) { return item }
                    running = nil
                }
                guard !waiting.isEmpty else { return nil }
                running = waiting.removeFirst()
            }
        }
    }
}
