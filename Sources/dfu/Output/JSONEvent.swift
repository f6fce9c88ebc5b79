/// The head every JSON line of every command starts with: `"event"` names the line's type and
/// `"schema"` the version of its format (docs/json-events.md, docs/json-events.schema.json). Every
/// top-level object is built here, so a new event type carries the version without being told.
enum JSONEvent {
    /// Bumped only on an incompatible change (a field renamed, retyped or removed, a meaning
    /// changed); fields and event types added within a version keep it.
    static let schemaVersion = 2

    static func head(_ event: String) -> [JSONField] {
        [JSONField("event", .string(event)), JSONField("schema", .int(schemaVersion))]
    }

    static func object(_ event: String, _ fields: [JSONField]) -> JSONValue {
        .object(head(event) + fields)
    }
}
