@testable import NANSystem
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// Finds a Linux 7.2 `nl80211.h`: `WAWARE_NL80211_HEADER`, else the extracted kernel package under
/// `/root/.cache/waware/kernel/*/root/usr/include/linux/nl80211.h`.
private func findHeader() -> String? {
    if let value = getenv("WAWARE_NL80211_HEADER") {
        let path = String(cString: value)
        if !path.isEmpty { return path }
    }
    let base = "/root/.cache/waware/kernel"
    guard let directory = opendir(base) else { return nil }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard !name.hasPrefix(".") else { continue }
        let candidate = "\(base)/\(name)/root/usr/include/linux/nl80211.h"
        if access(candidate, R_OK) == 0 { return candidate }
    }
    return nil
}

private let headerPath = findHeader()

private func readFile(_ path: String) -> String? {
    fileContents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private func checkEnum<E: CaseIterable & RawRepresentable>(
    _ type: E.Type, prefix: String, in values: [String: Int64], sourceLocation: SourceLocation = #_sourceLocation
) where E.RawValue: BinaryInteger {
    for value in E.allCases {
        let name = prefix + cNameSuffix(String(describing: value))
        let expected = values[name]
        #expect(expected != nil, "\(name) is not in the header", sourceLocation: sourceLocation)
        if let expected {
            #expect(
                Int64(value.rawValue) == expected, "\(name): ours \(value.rawValue), header \(expected)",
                sourceLocation: sourceLocation)
        }
    }
}

@Suite struct NL80211ConstantsTests {
    @Test func headerIsAvailableForTheComparison() {
        // Shown as a failure rather than a silent pass, so a run without the header is visible.
        #expect(
            headerPath != nil,
            """
            no nl80211.h found: set WAWARE_NL80211_HEADER to a Linux 7.2 uapi nl80211.h \
            (the constants were not checked)
            """)
    }

    @Test(.enabled(if: headerPath != nil, "no nl80211.h: set WAWARE_NL80211_HEADER"))
    func everyConstantMatchesTheKernelHeader() throws {
        let text = try #require(readFile(headerPath ?? ""))
        let values = CEnumParser.values(in: text)
        #expect(values["NL80211_ATTR_MAX"] == Int64(NL80211Attribute.max.rawValue))
        checkEnum(NL80211Command.self, prefix: "NL80211_CMD_", in: values)
        checkEnum(NL80211Attribute.self, prefix: "NL80211_ATTR_", in: values)
        checkEnum(NL80211InterfaceTypeCode.self, prefix: "NL80211_IFTYPE_", in: values)
        checkEnum(NL80211BandCode.self, prefix: "NL80211_BAND_", in: values)
        checkEnum(NL80211NANFunctionAttribute.self, prefix: "NL80211_NAN_FUNC_", in: values)
        checkEnum(NL80211NANFunctionTypeCode.self, prefix: "NL80211_NAN_FUNC_", in: values)
        checkEnum(NL80211NANTermReasonCode.self, prefix: "NL80211_NAN_FUNC_TERM_REASON_", in: values)
        checkEnum(NL80211NANSRFAttribute.self, prefix: "NL80211_NAN_SRF_", in: values)
        checkEnum(NL80211NANMatchAttribute.self, prefix: "NL80211_NAN_MATCH_", in: values)
        checkEnum(NL80211NANBandConfigAttribute.self, prefix: "NL80211_NAN_BAND_CONF_", in: values)
        checkEnum(NL80211NANConfigAttribute.self, prefix: "NL80211_NAN_CONF_", in: values)
        checkEnum(NL80211NANCapabilityAttribute.self, prefix: "NL80211_NAN_CAPA_", in: values)
        checkEnum(NL80211NANPhyCapabilityAttribute.self, prefix: "NL80211_NAN_PHY_CAP_ATTR_", in: values)
        checkEnum(NL80211NANPeerMapAttribute.self, prefix: "NL80211_NAN_PEER_MAP_ATTR_", in: values)
        checkEnum(NL80211StationInfoAttribute.self, prefix: "NL80211_STA_INFO_", in: values)
        checkEnum(NL80211RateInfoAttribute.self, prefix: "NL80211_RATE_INFO_", in: values)
        checkEnum(NL80211TIDStatsAttribute.self, prefix: "NL80211_TID_STATS_", in: values)
        checkEnum(NL80211KeyAttribute.self, prefix: "NL80211_KEY_", in: values)
        checkEnum(NL80211KeyTypeCode.self, prefix: "NL80211_KEYTYPE_", in: values)
        checkEnum(NL80211StationFlag.self, prefix: "NL80211_STA_FLAG_", in: values)
        checkEnum(NL80211InterfaceLimitAttribute.self, prefix: "NL80211_IFACE_LIMIT_", in: values)
        checkEnum(NL80211InterfaceCombinationAttribute.self, prefix: "NL80211_IFACE_COMB_", in: values)
        checkEnum(NL80211ExtendedFeature.self, prefix: "NL80211_EXT_FEATURE_", in: values)
        checkEnum(NL80211ProtocolFeature.self, prefix: "NL80211_PROTOCOL_FEATURE_", in: values)
        checkEnum(NL80211RegulatoryRuleAttribute.self, prefix: "NL80211_ATTR_", in: values)
        checkEnum(NL80211RegulatoryRuleFlag.self, prefix: "NL80211_RRF_", in: values)
        checkEnum(NL80211BandAttribute.self, prefix: "NL80211_BAND_ATTR_", in: values)
        checkEnum(NL80211FrequencyAttribute.self, prefix: "NL80211_FREQUENCY_ATTR_", in: values)
        #expect(values["NL80211_NAN_SOLICITED_PUBLISH"] == Int64(NANPublishType.solicited.rawValue))
        #expect(values["NL80211_NAN_UNSOLICITED_PUBLISH"] == Int64(NANPublishType.unsolicited.rawValue))
        #expect(values["NL80211_NAN_FUNC_SERVICE_ID_LEN"] == 6)
        #expect(values["NL80211_NAN_SCHED_NOT_AVAIL_SLOT"] == Int64(NANLocalSchedule.unavailableSlot))
        #expect(text.contains("#define NL80211_MULTICAST_GROUP_NAN\t\t\"nan\""))
        #expect(text.contains("#define NL80211_MULTICAST_GROUP_CONFIG\t\t\"config\""))
    }

    @Test func cEnumParserCountsImplicitAndExplicitValues() {
        let values = CEnumParser.values(
            in: """
                enum x { A, B = 5, C, /* comment, D */ E = 1 << 3, F = C - 1, };
                #define G 0xff
                """)
        #expect(values["A"] == 0)
        #expect(values["B"] == 5)
        #expect(values["C"] == 6)
        #expect(values["E"] == 8)
        #expect(values["F"] == 5)
        #expect(values["G"] == 255)
        #expect(values["D"] == nil)
    }

    @Test func caseNamesTurnBackIntoCNames() {
        #expect(NL80211Command.nanNextDwNotification.cName == "NL80211_CMD_NAN_NEXT_DW_NOTIFICATION")
        #expect(cNameSuffix("_2ghz") == "2GHZ")
        #expect(cNameSuffix("centerFreq1") == "CENTER_FREQ1")
    }
}

/// A small evaluator for the C enums and integer `#define`s of a uapi header: implicit values count
/// up from the previous one; explicit values may use numbers, earlier names, `<<`, `+`, `-` and `|`.
enum CEnumParser {
    static func values(in text: String) -> [String: Int64] {
        let code = stripComments(text)
        var values: [String: Int64] = [:]
        // #define NAME number
        for line in code.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count >= 3, parts[0] == "#define",
                let number = evaluate(String(parts[2...].joined(separator: " ")), values)
            {
                values[String(parts[1])] = number
            }
        }
        // enum ... { ... };
        var rest = Substring(code)
        while let start = rest.firstRange(of: "enum ") {
            rest = rest[start.upperBound...]
            guard let open = rest.firstIndex(of: "{"), let close = rest.firstIndex(of: "}"), open < close else {
                continue
            }
            let header = rest[..<open]
            if header.contains(";") || header.contains("(") { continue }
            let body = rest[rest.index(after: open)..<close]
            var next: Int64 = 0
            for item in body.split(separator: ",") {
                let trimmed = item.trimmingWhitespace
                guard !trimmed.isEmpty else { continue }
                if let equals = trimmed.firstIndex(of: "=") {
                    let name = String(trimmed[..<equals]).trimmingWhitespace
                    let expression = String(trimmed[trimmed.index(after: equals)...])
                    if let value = evaluate(expression, values) {
                        values[name] = value
                        next = value + 1
                    }
                } else {
                    values[trimmed] = next
                    next += 1
                }
            }
            rest = rest[close...]
        }
        return values
    }

    private static func stripComments(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("/*"), let end = text[index...].firstRange(of: "*/") {
                index = end.upperBound
            } else if text[index...].hasPrefix("//") {
                index = text[index...].firstIndex(of: "\n") ?? text.endIndex
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }

    /// Evaluates `a op b op c …` left to right (enough for uapi headers).
    static func evaluate(_ expression: String, _ values: [String: Int64]) -> Int64? {
        let cleaned = expression.replacingAll("(", with: " ").replacingAll(")", with: " ")
            .replacingAll("<<", with: " << ").replacingAll("|", with: " | ")
        let tokens = cleaned.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = tokens.first, var result = term(first, values) else { return nil }
        var index = 1
        while index + 1 < tokens.count {
            guard let operand = term(tokens[index + 1], values) else { return nil }
            switch tokens[index] {
            case "<<": result <<= operand
            case "+": result += operand
            case "-": result -= operand
            case "|": result |= operand
            default: return nil
            }
            index += 2
        }
        return index == tokens.count ? result : nil
    }

    private static func term(_ token: String, _ values: [String: Int64]) -> Int64? {
        var token = token
        while let last = token.last, "uUlL".contains(last), token.count > 1, token.first?.isNumber == true {
            token.removeLast()
        }
        if token.hasPrefix("0x") { return Int64(token.dropFirst(2), radix: 16) }
        if let number = Int64(token) { return number }
        return values[token]
    }
}

extension StringProtocol {
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
