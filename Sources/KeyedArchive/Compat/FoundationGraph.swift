import Foundation

/// Converts between Codable values and trees of Foundation property-list objects
/// (`NSDictionary`, `NSArray`, `NSString`, `NSNumber`, `NSDate`, `NSData`, …), the form in
/// which a Codable value is stored through Foundation's own `NSKeyedArchiver` (as Apple's
/// `encodeEncodable(_:forKey:)` stores it): structs become dictionaries of their fields.
enum FoundationGraph {
    /// Classes Foundation's unarchiver must allow to read such a tree back.
    static let classes: [AnyClass] = [
        NSDictionary.self, NSArray.self, NSSet.self, NSOrderedSet.self, NSString.self, NSNumber.self,
        NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self,
    ]

    /// The Foundation tree for a Codable value: encoded into an object table, then each
    /// object turned into its Foundation counterpart.
    static func object<T: Encodable>(from value: T) throws -> Any {
        let table = ArchiveObjectTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: [:])
        let root = try encoder.box(value, at: .root)
        if let wide = table.wides.first {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [],
                debugDescription: "the integer \(wide) does not fit in an NSNumber (64 bits), so Foundation cannot store it"))
        }
        var converter = Converter(table: table)
        return converter.object(root) ?? NSNull()
    }

    /// Decodes a Codable value from a Foundation tree: the tree is written into an object
    /// table (NSNull as nil), then read by the archive decoder.
    static func decode<T: Decodable>(_ type: T.Type, from object: Any, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        let table = ArchiveObjectTable()
        let encoder = _ArchiveEncoder(table: table, userInfo: [:])
        encoder.nullIsNil = true
        table.top = [("root", try encoder.encodeFoundationObject(object, at: .root))]
        let decoder = ArchiveDecoder()
        decoder.userInfo = userInfo
        // An NSNumber tree cannot tell 1 from true (swift-corelibs-foundation makes them one
        // object), so booleans and 0/1 read each other here.
        decoder.booleanDecodingStrategy = .numbersAreBooleans
        return try decoder.decode(type, from: Data(table.binary()))
    }

    /// Walks the table once; a shared object becomes one shared Foundation object.
    private struct Converter {
        let table: ArchiveObjectTable
        var made: [Int32: Any] = [:]

        mutating func object(_ uid: Int32) -> Any? {
            guard uid > 0, Int(uid) < table.count else { return nil }
            if let existing = made[uid] { return existing }
            let result: Any?
            switch table.entry(uid) {
            case .string(let s): result = NSString(string: s)
            case .integer(let i): result = NSNumber(value: i)
            case .unsignedInteger(let u): result = NSNumber(value: u)
            case .wideInteger: result = nil  // refused before conversion (see object(from:))
            case .real(let d): result = NSNumber(value: d)
            case .float(let f): result = NSNumber(value: f)
            case .bool(let b): result = NSNumber(value: b)
            case .data(let d): result = NSData(data: d)
            case .classEntry: result = nil
            case .object(let box): result = object(box)
            }
            made[uid] = result
            return result
        }

        private func className(_ box: ObjectBox) -> String {
            guard Int(box.classUID) < table.count, case .classEntry(let name, _) = table.entry(box.classUID) else { return "" }
            return name
        }

        private func field(_ box: ObjectBox, _ name: String) -> ObjectBox.Value? {
            box.fields.first(where: { table.keys[Int($0.key)] == name })?.value
        }

        private mutating func value(_ value: ObjectBox.Value) -> Any? {
            switch value {
            case .uid(let u): return object(u)
            case .integer(let i): return NSNumber(value: i)
            case .real(let d): return NSNumber(value: d)
            case .float(let f): return NSNumber(value: f)
            case .bool(let b): return NSNumber(value: b)
            case .data(let d): return NSData(data: d)
            }
        }

        private mutating func object(_ box: ObjectBox) -> Any? {
            switch box.kind {
            case .array:
                let elements = box.elements.map { object($0) ?? NSNull() }
                return className(box) == "NSSet" ? NSSet(array: elements) : NSArray(array: elements)
            case .dictionary:
                let result = NSMutableDictionary()
                for (key, element) in zip(box.keys, box.elements) {
                    guard let key = object(key) as? NSObject else { continue }
                    result[key] = object(element) ?? NSNull()
                }
                return result
            case .fields:
                switch className(box) {
                case "NSDate":
                    guard case .real(let t)? = field(box, "NS.time"), let date = Date(finiteSecondsSinceReferenceDate: t) else { return nil }
                    return date as NSDate
                case "NSURL":
                    guard case .uid(let relative)? = field(box, "NS.relative"), let string = object(relative) as? NSString else { return nil }
                    var base: URL?
                    if case .uid(let baseUID)? = field(box, "NS.base") { base = (object(baseUID) as? NSURL).map { $0 as URL } }
                    return NSURL(string: string as String, relativeTo: base)
                case "NSUUID":
                    guard case .data(let bytes)? = field(box, "NS.uuidbytes"), bytes.count == 16 else { return nil }
                    let b = [UInt8](bytes)
                    let uuid = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
                    return NSUUID(uuidString: uuid.uuidString)
                case "NSDecimalNumber":
                    // Foundation on Linux cannot archive NSDecimalNumber; its exact digits travel as a string.
                    return NSString(string: decimalText(box))
                case "NSNull":
                    return NSNull()
                default:
                    let result = NSMutableDictionary()
                    for entry in box.fields {
                        guard let converted = value(entry.value) else { continue }  // nil: no key
                        result[NSString(string: ArchiveKeyEscaping.unescape(table.keys[Int(entry.key)]) ?? table.keys[Int(entry.key)])] = converted
                    }
                    return result
                }
            }
        }

        private func decimalText(_ box: ObjectBox) -> String {
            func integer(_ name: String) -> Int64 {
                if case .integer(let i)? = field(box, name) { return i }
                return 0
            }
            var words: [UInt16] = []
            if case .data(let mantissa)? = field(box, "NS.mantissa") {
                let bytes = [UInt8](mantissa)
                for i in stride(from: 0, to: bytes.count - 1, by: 2) { words.append(UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8) }
            }
            var negative = false
            if case .bool(let b)? = field(box, "NS.negative") { negative = b }
            let layout = DecimalLayout(exponent: Int(integer("NS.exponent")), isNegative: negative, words: Array(words.prefix(Int(integer("NS.length")))))
            return layout.decimal.description
        }
    }
}
