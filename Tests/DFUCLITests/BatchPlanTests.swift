import ArgumentParsing
@testable import dfu
import Testing

/// Plans as people write them (CSV by hand or from a spreadsheet, JSON lines from a script), and
/// the scheduler that spreads their rows over adapters.
@Suite struct BatchPlanTests {
    @Test func csvQuotingAsRFC4180() throws {
        let records = try CSVTable.parse("a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\", plain \n\n# note\n\"two\nlines\",,\n")
        #expect(records == [
            .init(line: 1, fields: ["a", "b", "c"]),
            .init(line: 2, fields: ["x,1", "say \"hi\"", "plain"]),
            .init(line: 5, fields: ["two\nlines", "", ""]),
        ])
        #expect(try CSVTable.parse("a,b") == [.init(line: 1, fields: ["a", "b"])], "no newline at the end")
    }

    /// Columns dfu does not read are the row's extras, in the plan's order; the ones it reads
    /// match in any case and with `-` or a space for `_`; paths inside a `sim:` device are the plan's.
    @Test func extraColumnsAndSimPathsAreKept() throws {
        let plan = try BatchPlan.parse("""
            Serial,Device,image,Expect-Version,notes
            SN-1,"sim:id=a1,key=keys/k.pem,enc-key=/abs/e.pem",app.bin,1.1.0,"rework, 2nd"
            SN-2,"sim:id=a2,KEY=k.pem",app.bin,,
            """, path: "/plans/line7.csv")
        #expect(plan.rows[0].extras == [.init(name: "Serial", value: "SN-1"), .init(name: "notes", value: "rework, 2nd")])
        #expect(plan.rows[1].extras == [.init(name: "Serial", value: "SN-2"), .init(name: "notes", value: "")])
        #expect(plan.rows[0].expectVersion == "1.1.0" && plan.warnings.isEmpty)
        #expect(plan.rows[0].device == "sim:id=a1,key=/plans/keys/k.pem,enc-key=/abs/e.pem")
        #expect(plan.rows[0].writtenDevice == "sim:id=a1,key=keys/k.pem,enc-key=/abs/e.pem", "output names it as written")
        #expect(plan.rows[1].device == "sim:id=a2,KEY=/plans/k.pem")
    }

    @Test(arguments: ["a,\"b\n", "a,b\"c\n", "a,\"b\"c\n"])
    func malformedCSVIsRefusedWithItsLine(_ text: String) {
        #expect(throws: CSVTable.ParseError.self) { try CSVTable.parse(text) }
    }

    @Test func rowsKeepTheirLinesAndPathsResolveAgainstThePlan() throws {
        let plan = try BatchPlan.parse("""
            device,image,key,min_battery
            "sim:version=1.0.0,id=a7",app.bin,,
            AA:BB:CC:DD:EE:01,/abs/app.bin,keys/pub.pem,40
            """, path: "/plans/line7.csv")
        #expect(plan.rows.map(\.line) == [2, 3])
        #expect(plan.rows[0].device == "sim:version=1.0.0,id=a7" && plan.rows[0].image == "/plans/app.bin")
        #expect(plan.rows[0].key == nil && plan.rows[0].minBattery == nil, "an empty cell leaves the command line's value")
        #expect(plan.rows[1].image == "/abs/app.bin" && plan.rows[1].key == "/plans/keys/pub.pem" && plan.rows[1].minBattery == "40")
    }

    @Test(arguments: [
        ("device,image,,notes\nsim,a.bin,,x\n", "a column has no name"),
        ("device,image,notes,Notes,notes\nsim,a.bin,,,\n", "column 'notes' appears twice"),
        ("device,Image,image\nsim,a.bin,b.bin\n", "column 'image' appears twice"),
        ("device,image\nsim,a.bin\nsim,b.bin\n", "line 3: device sim is already on line 2"),
        ("device,image\nsim\n", "line 2: no image"),
        ("device,image\nsim,a.bin,extra\n", "line 2: 3 fields"),
        ("device,image\n", "lists no devices"),
        ("{\"device\": \"sim\", \"image\": \"a.bin\", \"pair\": true}\n", "line 1: 'pair' must be a string or a number"),
        ("device,image\nsim,a.bin\nSIM,b.bin\n", "line 3: device SIM is already on line 2"),
        ("{\"device\": \"sim\", \"image\": \"a.bin\", \"min_battery\": true}\n", "line 1: 'min_battery' must be a string or a number"),
        ("{\"device\": \"sim\", \"image\": \"a.bin\"}\n[1, 2]\n", "line 2: not a JSON object"),
        ("{\"device\": \"sim\"\n", "line 1: not a JSON object"),
    ])
    func planMistakesAreNamed(_ text: String, _ message: String) {
        #expect {
            _ = try BatchPlan.parse(text, path: "/p/plan")
        } throws: { error in
            (error as? UsageError)?.message.contains(message) == true
        }
    }

    @Test func theSchedulerCapsEachAdapterAndSpreadsOverThem() {
        // Six Bluetooth jobs and one sim job, 5 at a time, 2 per adapter on two adapters.
        var scheduler = BatchScheduler(jobs: [true, true, true, true, true, false, true], parallel: 5, perAdapter: 2,
                                       adapters: ["hci0", "hci1"])
        var started: [(Int, String?)] = []
        while let next = scheduler.next() { started.append(next) }
        #expect(started.map(\.0) == [0, 1, 2, 3, 5], "the sim job passes the Bluetooth ones that wait")
        #expect(started.compactMap(\.1).sorted() == ["hci0", "hci0", "hci1", "hci1"])
        scheduler.finished(adapter: "hci1")
        #expect(scheduler.next()?.adapter == "hci1", "the freed adapter takes the next one")
        #expect(scheduler.next() == nil)
    }
}
