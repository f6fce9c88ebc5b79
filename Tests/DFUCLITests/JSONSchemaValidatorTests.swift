import Testing

/// The validator `JSONSchemaTests` relies on: it accepts a good line and refuses each kind of
/// mistake the schema is there to catch, and it refuses a schema keyword it does not implement.
@Suite struct JSONSchemaValidatorTests {
    static let good = #"{"event":"progress","schema":2,"bytes":1024,"total":49152,"rate":51200,"elapsed":1.2,"part":null,"resumed_from":0}"#

    @Test func aDocumentedLineIsValid() throws {
        #expect(try JSONSchemaTests.validator().problems(JSONNode.parse(Self.good)) == [])
    }

    @Test(arguments: [
        // A required field missing.
        (#"{"event":"progress","schema":2,"bytes":1024,"rate":51200,"elapsed":1.2,"part":null}"#, "lacks the required member \"total\""),
        // A wrong type: a string for a number, a number for a boolean, a float for an integer.
        (#"{"event":"progress","schema":2,"bytes":"1024","total":49152,"rate":51200,"elapsed":1.2,"part":null}"#, "/bytes: is string, not integer"),
        (#"{"event":"version","schema":2,"version":"1.1.0+0","confirmed":1}"#, "/confirmed: is integer, not boolean"),
        (#"{"event":"progress","schema":2,"bytes":10.5,"total":49152,"rate":51200,"elapsed":1.2,"part":null}"#, "/bytes: is number, not integer"),
        // A renamed field.
        (#"{"event":"progress","schema":2,"acknowledged":1024,"total":49152,"rate":51200,"elapsed":1.2,"part":null}"#, "/acknowledged: is not a member"),
        // null where the docs do not allow it; a value outside the documented set.
        (#"{"event":"result","schema":2,"command":"flash","ok":null,"exit_code":0,"version":null,"error":null}"#, "/ok: is null, not boolean"),
        (#"{"event":"activated","schema":2,"mode":"test"}"#, "/mode: is \"test\", not one of"),
        // An unknown event, another schema version, a result of an unknown command.
        (#"{"event":"teleported","schema":2}"#, "matches none of the"),
        (#"{"event":"rebooting","schema":1}"#, "matches none of the"),
        (#"{"event":"result","schema":2,"command":"dance","ok":true,"exit_code":0,"error":null}"#, "matches none of the"),
    ] as [(String, String)])
    func aBrokenLineIsRefusedAndSaysWhy(line: String, expected: String) throws {
        let problems = try JSONSchemaTests.validator().problems(JSONNode.parse(line))
        #expect(problems.contains { $0.description.contains(expected) }, "\(problems)")
    }

    @Test func booleansAndNumbersStayApart() throws {
        #expect(try JSONNode.parse("[true,1,1.5,null]") == .array([.bool(true), .integer(1), .number(1.5), .null]))
    }

    @Test func aSchemaKeywordTheValidatorLacksIsRefused() throws {
        let schema = try JSONNode.parse(#"{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}"#)
        #expect(throws: JSONSchemaValidator.UnsupportedSchema.self) { try JSONSchemaValidator(schema: schema) }
    }
}
