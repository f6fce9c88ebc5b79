internal import CDBus

/// What the owner loop should poll for: one libdbus watch.
struct DBusPollRequest {
    var descriptor: Int32
    var wantsRead: Bool
    var wantsWrite: Bool
    fileprivate var watch: OpaquePointer
}

/// Owns one private `DBusConnection*` and the C callbacks around it. Lives on the connection's
/// owner thread only (not Sendable): every libdbus call on this connection is made from there, so
/// the watch table and callbacks below are never touched concurrently.
///
/// Only watch functions are installed. No timeout functions: the only timeouts libdbus would arm
/// belong to pending calls, and we send those with `DBUS_TIMEOUT_INFINITE` and keep each call's
/// deadline in the owner loop. No wake-up function: no other thread ever queues output.
final class DBusConnectionPointer {
    private let raw: OpaquePointer
    private let watches: WatchTable
    private let filter: FilterBox
    private var closed = false

    /// The bus's name for us (`:1.42`).
    let uniqueName: String

    /// Opens a private connection (ours to close) to `address`, or to libdbus's default system bus
    /// when nil (`DBusBusAddress.resolvedAddress` has already looked at `DBUS_SYSTEM_BUS_ADDRESS`), registers with the bus (Hello), and turns libdbus's
    /// exit-on-disconnect off so losing the bus never ends the process.
    init(address: String?) throws {
        _ = LibDBus.threadsInitialised
        let opened: OpaquePointer? = try LibDBus.withCError { error in
            if let address {
                guard let connection = dbus_connection_open_private(address, error) else { return nil }
                dbus_connection_set_exit_on_disconnect(connection, 0)
                guard dbus_bus_register(connection, error) != 0 else {
                    dbus_connection_close(connection)
                    dbus_connection_unref(connection)
                    return nil
                }
                return connection
            }
            let connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, error)
            if let connection { dbus_connection_set_exit_on_disconnect(connection, 0) }
            return connection
        }
        guard let opened else { throw DBusError.library(name: "connect", message: "no connection") }
        raw = opened
        uniqueName = LibDBus.string(dbus_bus_get_unique_name(opened)) ?? ""
        watches = WatchTable()
        filter = FilterBox()

        let watchContext = Unmanaged.passUnretained(watches).toOpaque()
        let watchesSet = dbus_connection_set_watch_functions(raw, { watch, context in
            guard let watch, let context else { return 0 }
            Unmanaged<WatchTable>.fromOpaque(context).takeUnretainedValue().watches.append(watch)
            return 1
        }, { watch, context in
            guard let watch, let context else { return }
            Unmanaged<WatchTable>.fromOpaque(context).takeUnretainedValue().watches.removeAll { $0 == watch }
        }, nil, watchContext, nil)
        let filterAdded = dbus_connection_add_filter(raw, filterThunk, Unmanaged.passUnretained(filter).toOpaque(), nil)
        guard watchesSet != 0, filterAdded != 0 else {
            close()
            throw DBusError.outOfMemory
        }
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection (idempotent). The callbacks are detached first so that libdbus calls
    /// nothing of ours after this.
    func close() {
        guard !closed else { return }
        closed = true
        dbus_connection_remove_filter(raw, filterThunk, Unmanaged.passUnretained(filter).toOpaque())
        filter.onMessage = nil
        dbus_connection_close(raw)
        _ = dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        watches.watches.removeAll()
    }

    /// Sees every incoming message that is not a reply to a pending call; returns true when it
    /// handled it (libdbus answers unhandled method calls with UnknownMethod).
    var onMessage: ((DBusMessagePointer) -> Bool)? {
        get { filter.onMessage }
        set { filter.onMessage = newValue }
    }

    var isConnected: Bool { !closed && dbus_connection_get_is_connected(raw) != 0 }

    var canPassUnixFDs: Bool { dbus_connection_can_send_type(raw, DBusTypeCode.unixFD) != 0 }

    /// Queues a message; the loop writes it when the socket is writable.
    func send(_ message: DBusMessagePointer) throws {
        guard isConnected else { throw DBusError.disconnected }
        let sent = message.withUnsafeMessage { dbus_connection_send(raw, $0, nil) }
        guard sent != 0 else { throw DBusError.outOfMemory }
    }

    /// Sends a method call; `onReply` runs on this thread with the reply (nil if libdbus gave none).
    /// No libdbus timeout: the owner loop keeps the deadline, so timing stays in one place.
    func sendWithReply(_ message: DBusMessagePointer,
                       onReply: @escaping (DBusMessagePointer?) -> Void) throws -> DBusPendingCallPointer {
        guard isConnected else { throw DBusError.disconnected }
        var pending: OpaquePointer?
        let sent = message.withUnsafeMessage {
            dbus_connection_send_with_reply(raw, $0, &pending, DBUS_TIMEOUT_INFINITE)
        }
        guard sent != 0 else { throw DBusError.outOfMemory }
        // NULL pending: disconnected, or the message holds fds this connection cannot pass.
        guard let pending else {
            throw isConnected ? DBusError.invalidArgument("this connection cannot pass unix fds") : DBusError.disconnected
        }
        return try DBusPendingCallPointer(owning: pending, onReply: onReply)
    }

    /// The watches libdbus wants polled now.
    func pollRequests() -> [DBusPollRequest] {
        watches.watches.compactMap { watch in
            guard dbus_watch_get_enabled(watch) != 0 else { return nil }
            let flags = dbus_watch_get_flags(watch)
            return DBusPollRequest(descriptor: dbus_watch_get_unix_fd(watch),
                                   wantsRead: flags & DBUS_WATCH_READABLE.rawValue != 0,
                                   wantsWrite: flags & DBUS_WATCH_WRITABLE.rawValue != 0,
                                   watch: watch)
        }
    }

    /// Tells libdbus what poll saw on a watch's descriptor. A watch removed meanwhile is skipped.
    func handle(_ request: DBusPollRequest, readable: Bool, writable: Bool, error: Bool, hangUp: Bool) {
        guard watches.watches.contains(request.watch) else { return }
        var flags: UInt32 = 0
        if readable { flags |= DBUS_WATCH_READABLE.rawValue }
        if writable { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if error { flags |= DBUS_WATCH_ERROR.rawValue }
        if hangUp { flags |= DBUS_WATCH_HANGUP.rawValue }
        _ = dbus_watch_handle(request.watch, flags)
    }

    /// Dispatches every queued incoming message (replies to pending calls, then our filter).
    func dispatchAll() {
        guard !closed else { return }
        while dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(raw)
        }
    }
}

/// Owns one `DBusPendingCall*`. The notify callback holds a retained box with the Swift closure;
/// libdbus releases it through the free function when the pending call goes.
final class DBusPendingCallPointer {
    private let raw: OpaquePointer

    fileprivate init(owning raw: OpaquePointer, onReply: @escaping (DBusMessagePointer?) -> Void) throws {
        self.raw = raw
        let box = Unmanaged.passRetained(ReplyBox(onReply)).toOpaque()
        let set = dbus_pending_call_set_notify(raw, { pending, context in
            guard let pending, let context else { return }
            let reply = dbus_pending_call_steal_reply(pending).map { DBusMessagePointer(owning: $0) }
            Unmanaged<ReplyBox>.fromOpaque(context).takeUnretainedValue().deliver(reply)
        }, box, { context in
            guard let context else { return }
            Unmanaged<ReplyBox>.fromOpaque(context).release()
        })
        guard set != 0 else {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            dbus_pending_call_cancel(raw)
            dbus_pending_call_unref(raw)
            throw DBusError.outOfMemory
        }
        // Completed before the notify was attached (cannot happen on one thread, but cheap to cover).
        if dbus_pending_call_get_completed(raw) != 0 {
            let reply = dbus_pending_call_steal_reply(raw).map { DBusMessagePointer(owning: $0) }
            Unmanaged<ReplyBox>.fromOpaque(box).takeUnretainedValue().deliver(reply)
        }
    }

    deinit {
        dbus_pending_call_unref(raw)
    }

    /// Stops waiting: libdbus drops the reply if it still comes.
    func cancel() {
        dbus_pending_call_cancel(raw)
    }
}

/// The Swift side of the pending-call notify; delivers at most once.
private final class ReplyBox {
    private var onReply: ((DBusMessagePointer?) -> Void)?
    init(_ onReply: @escaping (DBusMessagePointer?) -> Void) { self.onReply = onReply }

    func deliver(_ reply: DBusMessagePointer?) {
        let handler = onReply
        onReply = nil
        handler?(reply)
    }
}

/// The watches libdbus asked for; the watch callbacks mutate it (on the owner thread, under
/// libdbus's connection lock) and the loop reads it.
private final class WatchTable {
    var watches: [OpaquePointer] = []
}

private final class FilterBox {
    var onMessage: ((DBusMessagePointer) -> Bool)?
}

/// One function for add and remove: libdbus finds the filter to remove by function and context.
private let filterThunk: DBusHandleMessageFunction = { _, message, context in
    guard let message, let context,
          let onMessage = Unmanaged<FilterBox>.fromOpaque(context).takeUnretainedValue().onMessage
    else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    // The filter borrows the message: take our own reference for the Swift owner.
    let owned = DBusMessagePointer(owning: dbus_message_ref(message))
    return onMessage(owned) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
