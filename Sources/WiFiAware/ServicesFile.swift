internal import FoundationEssentials
internal import NANWire

// The services file format, mirroring Apple's Info.plist `WiFiAwareServices` dictionary:
//
// {
//   "WiFiAwareServices": {
//     "_file-share._tcp": {
//       "Publishable": { "serviceInfo": "v=1", "matchFilter": ["photos", ""], "dataPath": true },
//       "Subscribable": {}
//     }
//   }
// }
//
// Unknown keys are errors, so that a typo ("Publishible") is reported rather than ignored.

/// The defaults declared for one role of one service.
struct DeclaredServiceDefaults: Sendable, Hashable {
    var serviceInfo: [UInt8] = []
    var matchFilter: [[UInt8]] = []
    var wantsDataPath = false
}

/// One service's entry: which roles it is declared for.
struct ServiceDeclaration: Sendable {
    var name: WAServiceName
    var publishable: DeclaredServiceDefaults?
    var subscribable: DeclaredServiceDefaults?
}

/// Parses the services file; every failure is a `servicesFileInvalid` error naming the file and the place.
enum ServicesFile {
    static let rootKey = "WiFiAwareServices"

    static func parse(_ data: Data, source: String) throws(WAError) -> [ServiceDeclaration] {
        do {
            let declarations = try JSONDecoder().decode(Document.self, from: data).declarations
            if let key = JSONDuplicateKeys.first(in: Array(data)) {
                throw WAError(
                    .servicesFileInvalid,
                    message: "services file \(source): the key '\(key)' appears twice in one object; give each key once"
                )
            }
            return declarations
        } catch let error as WAError where error.code == .servicesFileInvalid {
            throw error
        } catch let problem as Problem {
            throw WAError(.servicesFileInvalid, message: "services file \(source): \(problem.text)")
        } catch let error as WAError {
            throw WAError(.servicesFileInvalid, message: "services file \(source): \(error.message)", underlying: error)
        } catch let error as DecodingError {
            throw WAError(
                .servicesFileInvalid, message: "services file \(source): \(describe(error))", underlying: error)
        } catch {
            throw WAError(.servicesFileInvalid, message: "services file \(source): \(error)", underlying: error)
        }
    }

    /// A problem found while decoding, with where it is.
    struct Problem: Error {
        let text: String
        init(at path: [any CodingKey], _ reason: String) {
            text = path.isEmpty ? reason : "at \(render(path)): \(reason)"
        }
    }

    static func render(_ path: [any CodingKey]) -> String {
        path.map(\.stringValue).joined(separator: " > ")
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            if context.codingPath.isEmpty {
                return "the file must hold one JSON object with the key '\(rootKey)', not \(topLevelKind(of: error))"
            }
            return "at \(render(context.codingPath)): expected \(typeName(type))"
        case .keyNotFound(let key, let context):
            return "at \(render(context.codingPath)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = context.underlyingError.map { String(describing: $0) }
                return "not valid JSON" + (detail.map { " (\($0))" } ?? "")
            }
            return "at \(render(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// What the top level holds instead of an object, from the decoding error's text.
    static func topLevelKind(of error: DecodingError) -> String {
        if case .valueNotFound = error { return "null" }
        return "another kind of value"
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        case is [String].Type: "a list of strings"
        default: "an object"
        }
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func rejectUnknownKeys(
        in container: KeyedDecodingContainer<Key>, allowed: [String], what: String
    ) throws {
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
            throw Problem(at: container.codingPath, "unknown key '\(key.stringValue)' in \(what); allowed: \(list)")
        }
    }

    struct Document: Decodable {
        var declarations: [ServiceDeclaration] = []

        init(from decoder: any Decoder) throws {
            let root = try decoder.container(keyedBy: Key.self)
            try ServicesFile.rejectUnknownKeys(in: root, allowed: [ServicesFile.rootKey], what: "the top level")
            guard root.contains(Key(ServicesFile.rootKey)) else {
                throw Problem(at: [], "the top level must have a '\(ServicesFile.rootKey)' object")
            }
            let services = try root.nestedContainer(keyedBy: Key.self, forKey: Key(ServicesFile.rootKey))
            var seen: [String: String] = [:]
            for key in services.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                let name = try WAServiceName(key.stringValue)
                let folded = name.rawValue.lowercased()
                if let other = seen[folded] {
                    throw Problem(
                        at: services.codingPath,
                        "'\(other)' and '\(name)' differ only in case, which is the same service on the air")
                }
                seen[folded] = name.rawValue
                let entry = try services.nestedContainer(keyedBy: Key.self, forKey: key)
                try ServicesFile.rejectUnknownKeys(
                    in: entry, allowed: ["Publishable", "Subscribable"], what: "service '\(name)'")
                let publishable = try entry.decodeIfPresent(Defaults.self, forKey: Key("Publishable"))
                let subscribable = try entry.decodeIfPresent(Defaults.self, forKey: Key("Subscribable"))
                guard publishable != nil || subscribable != nil else {
                    throw Problem(at: entry.codingPath, "declare at least one of 'Publishable' or 'Subscribable'")
                }
                declarations.append(
                    ServiceDeclaration(name: name, publishable: publishable?.value, subscribable: subscribable?.value))
            }
        }
    }

    struct Defaults: Decodable {
        var value = DeclaredServiceDefaults()

        init(from decoder: any Decoder) throws {
            let keys = ["serviceInfo", "serviceInfoHex", "matchFilter", "dataPath"]
            let container = try decoder.container(keyedBy: Key.self)
            try ServicesFile.rejectUnknownKeys(in: container, allowed: keys, what: "a role")
            let text = try container.decodeIfPresent(String.self, forKey: Key("serviceInfo"))
            let hex = try container.decodeIfPresent(String.self, forKey: Key("serviceInfoHex"))
            switch (text, hex) {
            case (.some, .some):
                throw Problem(at: container.codingPath, "give either 'serviceInfo' or 'serviceInfoHex', not both")
            case (.some(let text), nil):
                value.serviceInfo = Array(text.utf8)
            case (nil, .some(let hex)):
                guard let bytes = bytes(fromHex: hex) else {
                    throw Problem(
                        at: container.codingPath + [Key("serviceInfoHex")],
                        "'\(hex)' is not an even number of hex digits")
                }
                value.serviceInfo = bytes
            case (nil, nil):
                break
            }
            if value.serviceInfo.count > maximumServiceInfoLength {
                throw Problem(
                    at: container.codingPath,
                    "service info is \(value.serviceInfo.count) bytes; at most \(maximumServiceInfoLength) fit in a NAN frame"
                )
            }
            let filter = try container.decodeIfPresent([String].self, forKey: Key("matchFilter")) ?? []
            value.matchFilter = filter.map { Array($0.utf8) }
            let encodedLength = value.matchFilter.reduce(0) { $0 + 1 + $1.count }
            if encodedLength > maximumMatchFilterLength {
                throw Problem(
                    at: container.codingPath + [Key("matchFilter")],
                    "the match filter encodes to \(encodedLength) bytes; at most \(maximumMatchFilterLength) fit in a NAN frame"
                )
            }
            value.wantsDataPath = try container.decodeIfPresent(Bool.self, forKey: Key("dataPath")) ?? false
        }
    }
}

/// Decodes hex text (`0a1B`, no separators; empty is no bytes); `nil` if it is not an even number of hex digits.
func bytes(fromHex text: String) -> [UInt8]? {
    text.isEmpty ? [] : Hex.bytes(text)
}

/// Lower-case hex text of bytes.
func hexText(_ bytes: [UInt8]) -> String {
    Hex.string(bytes)
}
