/// Finds a key that appears twice in one JSON object, which JSONDecoder accepts silently (keeping one
/// of the values), so a hand-edited file could lose a setting without a word.
enum JSONDuplicateKeys {
    /// The first key that appears twice in the same object, or `nil`. Meant for text that already
    /// decoded as JSON; keys are compared as written (escapes are not resolved).
    static func first(in bytes: [UInt8]) -> String? {
        // One entry per open object or array: the keys seen so far, and whether a key comes next.
        var stack: [(isObject: Bool, keys: Set<[UInt8]>, keyNext: Bool)] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                stack.append((true, [], true))
            case UInt8(ascii: "["):
                stack.append((false, [], false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if let last = stack.indices.last, stack[last].isObject { stack[last].keyNext = true }
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                let text = Array(bytes[(index + 1)..<min(end, bytes.count)])
                if let last = stack.indices.last, stack[last].isObject, stack[last].keyNext {
                    stack[last].keyNext = false
                    if !stack[last].keys.insert(text).inserted { return String(decoding: text, as: UTF8.self) }
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
