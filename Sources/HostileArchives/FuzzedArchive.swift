import Foundation

/// A valid keyed archive whose object graph the fuzzer's bytes choose: chains, self and
/// mutual references through UIDs and through plist object references, shared children,
/// deep inline nesting, many keys, and every Foundation layout the decoder reads.
///
/// Every input gives a well-formed file; bytes past the end read as zero, so short inputs
/// give small graphs. The graph stays under about 300,000 plist objects.
public struct FuzzedArchive {
    /// The archive `bytes` describe.
    public static func build(_ bytes: [UInt8]) -> Data {
        var builder = FuzzedArchive(bytes: bytes)
        return builder.make()
    }

    private var input: [UInt8]
    private var position = 0
    private var graph = ArchiveGraph()
    /// Inline containers being filled, for references back to them.
    private var open: [Int] = []
    /// Plist values made so far, for shared children.
    private var made: [Int] = []
    private var current: UInt64 = 0
    /// How deep ``value()`` has recursed (the builder's own stack stays small).
    private var nesting = 0
    private static let objectLimit = 300_000

    private init(bytes: [UInt8]) { input = bytes }

    private mutating func byte() -> Int {
        guard position < input.count else { return 0 }
        defer { position += 1 }
        return Int(input[position])
    }

    private mutating func word() -> Int { byte() << 8 | byte() }

    private var exhausted: Bool { position >= input.count || graph.plist.count > Self.objectLimit }

    /// The layouts an object can take (class names the decoder knows, and a custom class).
    private static let classes = [
        "NSString", "NSMutableString", "NSData", "NSMutableData", "NSDate", "NSURL", "NSUUID", "NSDecimalNumber",
        "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSCountedSet", "NSOrderedSet", "NSMutableOrderedSet",
        "NSDictionary", "NSMutableDictionary", "NSNull", "NSIndexSet", "NSValue", "NSNumber", "Node",
    ]
    private static let fieldNames = [
        "name", "next", "value", "NS.objects", "NS.keys", "NS.data", "NS.bytes", "NS.string", "NS.base", "NS.relative",
        "NS.time", "NS.uuidbytes", "NS.mantissa", "NS.object.0", "$class",
    ]

    private mutating func make() -> Data {
        let count = 1 + byte() % 24
        let uids = (0..<count).map { _ in graph.reserveEntry() }
        for uid in uids {
            current = uid
            fill(uid)
        }
        return graph.data(root: uids[byte() % count])
    }

    /// Fills the reserved entry `uid` with an object of a chosen class, or a plain value.
    private mutating func fill(_ uid: UInt64) {
        let className = Self.classes[byte() % Self.classes.count]
        var fields: [(key: String, value: Int)] = []
        switch className {
        case "NSString", "NSMutableString": fields = [("NS.string", value())]
        case "NSData", "NSMutableData": fields = [(byte() % 4 == 0 ? "NS.bytes" : "NS.data", value())]
        case "NSDate": fields = [("NS.time", value())]
        case "NSURL": fields = [("NS.relative", value()), ("NS.base", value())]
        case "NSUUID": fields = [("NS.uuidbytes", value())]
        case "NSDecimalNumber":
            fields = ["NS.exponent", "NS.length", "NS.negative", "NS.mantissa.bo", "NS.mantissa", "NS.compact"].map { ($0, value()) }
        case "NSOrderedSet", "NSMutableOrderedSet":
            let n = byte() % 8
            let order = byte() % 2 == 0 ? Array(0..<n) : Array((0..<n).reversed())
            fields = order.map { ("NS.object.\($0)", value()) }
        case "NSDictionary", "NSMutableDictionary":
            let n = byte() % 6
            let keys = (0..<n).map { _ in value() }, values = (0..<(n + byte() % 2)).map { _ in value() }
            fields = [("NS.keys", graph.plist.add(.array(keys))), ("NS.objects", graph.plist.add(.array(values)))]
        case "NSNull": break
        case "NSIndexSet": fields = [("NSRangeCount", value()), ("NSLocation", value()), ("NSLength", value())]
        case "NSValue": fields = [("NS.special", value()), ("NS.rangeval.location", value()), ("NS.rangeval.length", value())]
        case "NSNumber":
            // A plain scalar entry rather than an object dictionary.
            graph.plist.set(graph.ref(of: uid), scalar())
            return
        case "Node":
            let n = byte() % 6
            fields = (0..<n).map { _ in (Self.fieldNames[byte() % Self.fieldNames.count], value()) }
            let wide = byte() % 8 == 0 ? byte() * 40 : 0
            if wide > 0 {
                let shared = value()
                fields += (0..<wide).map { ("k\($0)", shared) }
            }
        default:
            // Collections: NS.objects an inline array of values, or any value.
            fields = [("NS.objects", byte() % 4 == 0 ? value() : inlineArray(count: byte() % 6))]
        }
        graph.setObject(uid, className: className, fields: fields)
    }

    /// A fresh inline array of `count` chosen values.
    private mutating func inlineArray(count: Int) -> Int {
        let ref = graph.plist.reserve()
        open.append(ref)
        let elements = (0..<count).map { _ in value() }
        open.removeLast()
        graph.plist.set(ref, .array(elements))
        made.append(ref)
        return ref
    }

    /// A plain scalar object.
    private mutating func scalar() -> RawBinaryPlist.Object {
        switch byte() % 7 {
        case 0: return .integer(Int64(word()) - 1_000)
        case 1: return .real(Double(word()) / 7)
        case 2: return .bool(byte() % 2 == 1)
        case 3: return .date(Double(word()))
        case 4: return .data((0..<[16, 0, 3, 32][byte() % 4]).map { _ in UInt8(truncatingIfNeeded: byte()) })
        case 5: return .string(["", "a/b", "http://x/", "x", "1.5", "é", "00000000-0000-0000-0000-000000000000"][byte() % 7])
        default: return .integer(Int64(byte()))
        }
    }

    /// A plist reference to a chosen value: a UID, a scalar, an inline container, or a
    /// reference to a container already made, still being filled, or an object's dictionary.
    private mutating func value() -> Int {
        if exhausted { return graph.uid(0) }
        if nesting > 32 { return graph.plist.add(scalar()) }
        nesting += 1
        defer { nesting -= 1 }
        switch byte() % 16 {
        case 0, 1: return graph.uid(UInt64(byte() % graph.entries.count))
        case 2: return graph.uid(current)
        case 3, 4: return graph.plist.add(scalar())
        case 5: return inlineArray(count: byte() % 5)
        case 6:
            let ref = graph.plist.reserve()
            open.append(ref)
            let n = byte() % 4
            let keys = (0..<n).map { _ in graph.string(Self.fieldNames[byte() % Self.fieldNames.count]) }
            let values = (0..<n).map { _ in value() }
            open.removeLast()
            graph.plist.set(ref, .dictionary(keys: keys, values: values))
            made.append(ref)
            return ref
        case 7: return open.isEmpty ? graph.objectsArray : open[byte() % open.count]
        case 8: return graph.objectsArray
        case 9: return graph.ref(of: UInt64(1 + byte() % (graph.entries.count - 1)))
        case 10: return made.isEmpty ? graph.uid(current) : made[byte() % made.count]
        case 11:
            // Deep inline nesting, up to 20,000 levels.
            var ref = graph.plist.add(scalar())
            let dictionaries = byte() % 2 == 0, next = graph.string("next")
            for _ in 0..<(word() % 20_001) {
                ref = graph.plist.add(dictionaries ? .dictionary(keys: [next], values: [ref]) : .array([ref]))
            }
            return ref
        case 12:
            // Fan-out: each level holds the one below twice.
            var ref = value()
            for _ in 0..<(byte() % 64) { ref = graph.plist.add(.array([ref, ref])) }
            made.append(ref)
            return ref
        case 13:
            // Many copies of one reference.
            let ref = value()
            return graph.plist.add(.array(Array(repeating: ref, count: word() % 4_096)))
        default: return graph.plist.add(scalar())
        }
    }
}
