import DFUCore

extension ResumeOutput {
    /// `--forget`: `forgotten` are the unfinished updates whose journals this run removed, of
    /// those `selection` picks.
    func forgot(_ forgotten: [UpdateJournal], selection: ResumeSelection) {
        if json {
            line(UpdateEventJSON.object("result", [
                ("command", .string(ResumeCommand.name)), ("ok", .bool(true)), ("exit_code", .int(0)),
                ("forgot", .bool(!forgotten.isEmpty)), ("error", .null),
                ("forgotten", .array(forgotten.map { .string($0.device) })),
            ]))
            return
        }
        if forgotten.isEmpty {
            console.out("no unfinished update" + (selection.device == nil && selection.olderThanDays == nil ? "s" : "")
                        + selection.qualifier(name: name))
        } else if selection.device != nil, forgotten.count == 1, let only = forgotten.first {
            console.out("forgot the unfinished update of \(name(only.device)); the device keeps what it holds")
        } else {
            let devices = forgotten.map { name($0.device) }.joined(separator: ", ")
            let one = forgotten.count == 1
            console.out("forgot \(forgotten.count) unfinished update\(one ? "" : "s") (\(devices)); "
                        + (one ? "the device keeps what it holds" : "the devices keep what they hold"))
        }
    }
}
