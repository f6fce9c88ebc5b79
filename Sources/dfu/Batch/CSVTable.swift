/// Comma-separated values as RFC 4180 writes them: fields separated by commas, records by CRLF or
/// LF; a field in double quotes may hold commas, line breaks and doubled quotes (`""` is one `"`).
/// Blank lines and lines starting with `#` (outside quotes) are skipped, as factory plans are
/// hand-edited. Every record keeps the line it started on, for error messages.
enum CSVTable {
    struct Record: Equatable {
        var line: Int
        var fields: [String]
    }

    struct ParseError: Error, Equatable {
        var line: Int
        var reason: String
    }

    static func parse(_ text: String) throws(ParseError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var fieldWasQuoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var atRecordStart = true
        var skippingComment = false

        func endField() {
            fields.append(fieldWasQuoted ? field : field.trimmingSpaces)
            field = ""
            fieldWasQuoted = false
            afterQuote = false
        }
        func endRecord() {
            let blank = fields.isEmpty && field.trimmingSpaces.isEmpty && !fieldWasQuoted
            endField()
            if !blank { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            atRecordStart = true
        }

        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if skippingComment {
                if scalar == "\n" {
                    skippingComment = false
                    line += 1
                    recordLine = line
                }
                continue
            }
            if atRecordStart {
                recordLine = line
                atRecordStart = false
                if scalar == "#" {
                    skippingComment = true
                    atRecordStart = true
                    continue
                }
            }
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                endField()
            case "\r" where pending == "\n":
                continue
            case "\n":
                line += 1
                endRecord()
            case "\"":
                guard field.trimmingSpaces.isEmpty, !afterQuote else {
                    throw ParseError(line: line, reason: "a quote inside an unquoted field; quote the whole field and double the quote")
                }
                field = ""
                quoted = true
                fieldWasQuoted = true
            default:
                if afterQuote && scalar != " " && scalar != "\t" {
                    throw ParseError(line: line, reason: "text after a closing quote; a quote inside a quoted field is written twice")
                }
                if !afterQuote { field.unicodeScalars.append(scalar) }
            }
        }
        if quoted { throw ParseError(line: recordLine, reason: "a quoted field is not closed") }
        if !atRecordStart || !fields.isEmpty || !field.isEmpty { endRecord() }
        return records
    }
}

private extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
