/// One decoded field of an attribute as `waware decode` prints it: a JSON key with a typed value, and a text
/// label with what follows it; objects and lists hold further fields, printed indented under their label.
///
/// One tree feeds both outputs, so the text and the JSON cannot disagree about which fields there are.
struct ReportField: Sendable, Equatable {
    /// The value as JSON carries it.
    indirect enum Value: Sendable, Equatable {
        /// A JSON number.
        case number(Int)
        /// A JSON string.
        case string(String)
        /// A JSON boolean.
        case flag(Bool)
        /// JSON null: the field is there but holds no value (`map ID: none`).
        case none
        /// A JSON array of numbers.
        case numbers([Int])
        /// A JSON array of strings.
        case strings([String])
        /// A JSON object: `raw` (the field's bits, when it has them) and the sub-fields.
        case object(raw: Int?, [ReportField])
        /// A JSON array of objects, each made of fields.
        case objects([[ReportField]])
    }

    /// The JSON key (camelCase).
    var key: String
    /// The text label.
    var label: String
    /// The typed value.
    var value: Value
    /// What the text shows after the label (nil: nothing, the sub-fields follow).
    var text: String?
    /// For objects: whether the text shows the sub-fields (a summary in `text` may say it all).
    var showsChildren = true
    /// For arrays of objects: the heading of each item in the text, numbered from 1 (`entry 1`).
    var itemLabel = "item"
    /// Whether the field is for JSON only (a name the text already shows beside a number).
    var jsonOnly = false
}

// MARK: - Building

extension ReportField {
    /// A number, shown as `text` or in decimal.
    static func number<T: BinaryInteger>(_ key: String, _ label: String, _ value: T, text: String? = nil) -> ReportField
    {
        ReportField(key: key, label: label, value: .number(Int(value)), text: text ?? String(value))
    }

    /// A number of bits, shown in hex of `hexDigits` digits (`0x00f0`).
    static func number<T: BinaryInteger>(_ key: String, _ label: String, _ value: T, hexDigits: Int) -> ReportField {
        number(key, label, value, text: hexNumber(Int(value), digits: hexDigits))
    }

    /// A string, shown as itself.
    static func string(_ key: String, _ label: String, _ value: String) -> ReportField {
        ReportField(key: key, label: label, value: .string(value), text: value)
    }

    /// A yes/no bit.
    static func flag(_ key: String, _ label: String, _ value: Bool) -> ReportField {
        ReportField(key: key, label: label, value: .flag(value), text: value ? "yes" : "no")
    }

    /// Bytes as lower-case hex (`(empty)` in the text when there are none).
    static func hex<C: Collection>(_ key: String, _ label: String, _ bytes: C) -> ReportField where C.Element == UInt8 {
        let digits = FrameReport.hex(bytes)
        return ReportField(key: key, label: label, value: .string(digits), text: digits.isEmpty ? "(empty)" : digits)
    }

    /// Numbers, shown as `text` or as a list with runs collapsed (`1-3, 5`).
    static func numbers(_ key: String, _ label: String, _ values: [Int], text: String? = nil) -> ReportField {
        ReportField(key: key, label: label, value: .numbers(values), text: text ?? ranges(values))
    }

    /// Strings, shown comma-separated (`none` when empty).
    static func strings(_ key: String, _ label: String, _ values: [String]) -> ReportField {
        ReportField(
            key: key, label: label, value: .strings(values),
            text: values.isEmpty ? "none" : values.joined(separator: ", "))
    }

    /// An object of sub-fields; with `raw`, the field's bits, shown in hex of `digits` digits unless `text` says more.
    static func group(
        _ key: String, _ label: String, raw: Int? = nil, digits: Int = 2, text: String? = nil,
        showsChildren: Bool = true, _ children: [ReportField]
    ) -> ReportField {
        ReportField(
            key: key, label: label, value: .object(raw: raw, children),
            text: text ?? raw.map { hexNumber($0, digits: digits) }, showsChildren: showsChildren)
    }

    /// A list of objects, each headed `item n` in the text (`none` when empty).
    static func list(_ key: String, _ label: String, item: String, _ items: [[ReportField]]) -> ReportField {
        ReportField(key: key, label: label, value: .objects(items), text: items.isEmpty ? "none" : nil, itemLabel: item)
    }

    /// The same field for JSON only.
    var jsonOnlyField: ReportField {
        var field = self
        field.jsonOnly = true
        return field
    }

    /// `0x` and `value` in lower-case hex, zero-padded to `digits`.
    static func hexNumber(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `values` with runs of consecutive numbers collapsed: `1-3, 5`; `none` when empty.
    static func ranges(_ values: [Int]) -> String {
        guard var start = values.first else { return "none" }
        var parts: [String] = []
        var last = start
        for value in values.dropFirst() {
            if value == last + 1 {
                last = value
                continue
            }
            parts.append(start == last ? String(start) : "\(start)-\(last)")
            start = value
            last = value
        }
        parts.append(start == last ? String(start) : "\(start)-\(last)")
        return parts.joined(separator: ", ")
    }
}

// MARK: - Text

extension ReportField {
    /// The fields as text lines under `indent`, labels aligned among siblings: `label: text`, then the
    /// sub-fields two spaces further in, list items headed `item n:` with their fields two more in.
    static func lines(_ allFields: [ReportField], indent: String) -> [String] {
        let fields = allFields.filter { !$0.jsonOnly }
        let width = fields.filter { $0.text != nil }.map(\.label.count).max() ?? 0
        var lines: [String] = []
        for field in fields {
            if let text = field.text {
                lines.append(
                    "\(indent)\(field.label):" + String(repeating: " ", count: width - field.label.count + 1)
                        + TerminalText.escaped(text))
            } else {
                lines.append("\(indent)\(field.label):")
            }
            switch field.value {
            case .object(_, let children) where field.showsChildren:
                lines += Self.lines(children, indent: indent + "  ")
            case .objects(let items):
                for (number, item) in items.enumerated() {
                    lines.append("\(indent)  \(field.itemLabel) \(number + 1):")
                    lines += Self.lines(item, indent: indent + "    ")
                }
            default:
                break
            }
        }
        return lines
    }
}

// MARK: - JSON

/// A JSON object key chosen at run time.
struct ReportKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

extension ReportField {
    /// Encodes the field under its key in `container`.
    func encode(into container: inout KeyedEncodingContainer<ReportKey>) throws {
        let key = ReportKey(stringValue: self.key)
        switch value {
        case .number(let number): try container.encode(number, forKey: key)
        case .string(let string): try container.encode(string, forKey: key)
        case .flag(let flag): try container.encode(flag, forKey: key)
        case .none: try container.encodeNil(forKey: key)
        case .numbers(let numbers): try container.encode(numbers, forKey: key)
        case .strings(let strings): try container.encode(strings, forKey: key)
        case .object(let raw, let children):
            var nested = container.nestedContainer(keyedBy: ReportKey.self, forKey: key)
            try nested.encodeIfPresent(raw, forKey: "raw")
            for child in children { try child.encode(into: &nested) }
        case .objects(let items):
            var array = container.nestedUnkeyedContainer(forKey: key)
            for item in items {
                var nested = array.nestedContainer(keyedBy: ReportKey.self)
                for child in item { try child.encode(into: &nested) }
            }
        }
    }
}
