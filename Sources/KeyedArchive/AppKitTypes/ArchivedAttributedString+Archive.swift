import Foundation

// ArchivedAttributedString ↔ NSAttributedString: `{NSString: text, NSAttributes: dictionary}`
// for one run over the whole text, `{NSString, NSAttributes: [dictionary], NSAttributeInfo:
// NSMutableData}` for several, the data holding (length, attribute index) pairs as unsigned
// LEB128; `{NSString}` alone for text without attributes.

extension StandardClass {
    static let attributedString = StandardClass(name: "NSAttributedString", classes: ["NSAttributedString", "NSObject"])
    static let mutableAttributedString = StandardClass(
        name: "NSMutableAttributedString", classes: ["NSMutableAttributedString", "NSAttributedString", "NSObject"])
    static let mutableArray = StandardClass(name: "NSMutableArray", classes: ["NSMutableArray", "NSArray", "NSObject"])
    static let mutableString = StandardClass(name: "NSMutableString", classes: ["NSMutableString", "NSString", "NSObject"])
}

extension ArchivedAttributedString: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedAttributedString {
        let fields = try decoder.foundationFields(ArchivedAttributedString.self, classes: ["NSAttributedString"], at: slot, path: path())
        let chain = try decoder.archivedClass(of: slot, at: path())
        let isMutable = chain?.contains(anyOf: ["NSMutableAttributedString"]) ?? false
        let string = try fields.requiredValue(String.self, "NSString")
        let length = string.utf16.count
        guard let attributesSlot = try fields.field("NSAttributes"), !decoder.isNil(attributesSlot) else {
            return ArchivedAttributedString(string: string, isMutable: isMutable)
        }
        guard let info = try fields.data("NSAttributeInfo") else {
            let attributes = try decoder.unbox([String: ArchivedTextAttribute].self, from: attributesSlot, at: fields.path("NSAttributes"))
            let kept = try? attributes.needsArchivedValues
                ? decoder.unbox([String: ArchivedRawValue].self, from: attributesSlot, at: fields.path("NSAttributes")) : nil
            return ArchivedAttributedString(string: string, runs: [Run(range: 0..<length, attributes: attributes,
                                                                       archivedValues: attributes.archivedValues(from: kept))],
                                            isMutable: isMutable)
        }
        let table = try decoder.unbox([[String: ArchivedTextAttribute]].self, from: attributesSlot, at: fields.path("NSAttributes"))
        let keptTable = try? table.contains(where: \.needsArchivedValues)
            ? decoder.unbox([[String: ArchivedRawValue]].self, from: attributesSlot, at: fields.path("NSAttributes")) : nil
        let archivedTable: [[String: ArchivedRawValue]] = table.indices.map { index in
            table[index].archivedValues(from: keptTable.flatMap { index < $0.count ? $0[index] : nil })
        }
        try fields.chargeParsing(info.count)
        guard let numbers = PackedUnsigned.decode(info), numbers.count % 2 == 0 else {
            throw fields.corrupted("NSAttributeInfo is not pairs of packed numbers")
        }
        var runs: [Run] = []
        runs.reserveCapacity(numbers.count / 2)
        var start = 0
        for pair in stride(from: 0, to: numbers.count, by: 2) {
            let (runLength, index) = (numbers[pair], numbers[pair + 1])
            guard runLength <= UInt64(length - start) else {
                throw fields.corrupted("NSAttributeInfo's run \(pair / 2) ends past the text's \(length) UTF-16 units")
            }
            guard index < UInt64(table.count) else {
                throw fields.corrupted("NSAttributeInfo's run \(pair / 2) names attributes \(index) of \(table.count)")
            }
            let end = start + Int(runLength)
            runs.append(Run(range: start..<end, attributes: table[Int(index)], archivedValues: archivedTable[Int(index)]))
            start = end
        }
        guard start == length else {
            throw fields.corrupted("NSAttributeInfo's runs cover \(start) of the text's \(length) UTF-16 units")
        }
        return ArchivedAttributedString(string: string, runs: runs, isMutable: isMutable)
    }
}

extension ArchivedAttributedString: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        var end = 0
        for run in runs {
            guard run.range.lowerBound == end else {
                throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: path().path, debugDescription:
                    "The attributed string's runs must follow each other from 0 without gaps or overlaps; one starts at \(run.range.lowerBound), not \(end)"))
            }
            end = run.range.upperBound
        }
        guard runs.isEmpty || end == string.utf16.count else {
            throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: path().path, debugDescription:
                "The attributed string's runs end at \(end), not at its length \(string.utf16.count)"))
        }
        let stringUID = isMutable
            ? encoder.foundationObject(.mutableString) { $0.string("NS.string", string) }
            : encoder.table.string(string)
        var attributesUID: Int32 = 0
        var pairs: [UInt64] = []
        if runs.count == 1 {
            attributesUID = try encoder.box(runs[0].encodedAttributes, at: path())
        } else if runs.count > 1 {
            let found = Self.distinctAttributes(of: runs)
            pairs.reserveCapacity(runs.count * 2)
            for (run, index) in zip(runs, found.indexes) {
                pairs.append(UInt64(run.range.count))
                pairs.append(UInt64(index))
            }
            // As AppKit writes it: an NSMutableArray of the distinct dictionaries.
            let uids = try found.distinct.map { try encoder.box($0.encodedAttributes, at: path()) }
            let made = encoder.makeObject(kind: .array, className: .mutableArray)
            for uid in uids { made.box.appendElement(uid) }
            attributesUID = made.uid
        }
        return encoder.foundationObject(isMutable ? .mutableAttributedString : .attributedString) { fields in
            fields.object("NSString", uid: stringUID)
            if attributesUID != 0 { fields.object("NSAttributes", uid: attributesUID) }
            if !pairs.isEmpty { fields.packedNumbers("NSAttributeInfo", pairs, expectedCount: pairs.count) }
        }
    }
}

extension ArchivedTextAttribute: _ArchiveSpecialDecodable {
    /// Looks at the object's class before opening it, then decodes it as that class's type.
    static var _archiveEntersItself: Bool { true }

    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> ArchivedTextAttribute {
        guard let chain = try decoder.archivedClass(of: slot, at: path()) else {
            // A plain value: a number, a string, a boolean (as 0 or 1); data and the like are
            // kept by the run as archived values (see `Run.archivedValues`).
            if let number = try? decoder.unbox(Double.self, from: slot, at: path()) { return .number(number) }
            if let text = try? decoder.unbox(String.self, from: slot, at: path()) { return .string(text) }
            if let flag = try? decoder.unbox(Bool.self, from: slot, at: path()) { return .number(flag ? 1 : 0) }
            return .other(className: "plain value")
        }
        if chain.contains(anyOf: ["NSColor", "UIColor"]) { return .color(try decoder.unbox(ArchivedColor.self, from: slot, at: path())) }
        if chain.contains(anyOf: ["NSFont", "UIFont"]) { return .font(try decoder.unbox(ArchivedFont.self, from: slot, at: path())) }
        if chain.contains(anyOf: ["NSParagraphStyle"]) {
            return .paragraphStyle(try decoder.unbox(ArchivedParagraphStyle.self, from: slot, at: path()))
        }
        if chain.contains(anyOf: ["NSURL"]) { return .link(try decoder.unbox(URL.self, from: slot, at: path())) }
        if chain.contains(anyOf: FoundationClassNames.string) { return .string(try decoder.unbox(String.self, from: slot, at: path())) }
        return .other(className: chain.name)
    }
}

extension ArchivedTextAttribute: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        switch self {
        case .color(let color): return try color._archiveEncode(with: encoder, at: path())
        case .font(let font): return try font._archiveEncode(with: encoder, at: path())
        case .paragraphStyle(let style): return try style._archiveEncode(with: encoder, at: path())
        case .link(let url): return try encoder.box(url, at: path())
        case .string(let text): return encoder.table.string(text)
        case .number(let number):
            if let whole = Int64(exactly: number) { return encoder.table.integer(whole) }
            return encoder.table.real(number)
        case .other(let className):
            throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: path().path, debugDescription:
                "An attribute of class \(className) without its archived value (Run.archivedValues) cannot be archived"))
        }
    }
}

extension ArchivedTextAttribute {
    /// Whether the run keeps this attribute's archived form (see `Run.archivedValues`).
    var keepsArchivedValue: Bool {
        switch self {
        case .number, .other: return true
        default: return false
        }
    }

    /// Whether `raw` is this attribute as archived: the same number, or an object of the same class.
    func isArchivedForm(_ raw: ArchivedRawValue) -> Bool {
        switch (self, raw) {
        case (.number(let number), .plain(.integer(let whole))), (.number(let number), .integer(let whole)):
            return Int64(exactly: number) == whole
        case (.number(let number), .plain(.real(let real))), (.number(let number), .real(let real)):
            return number.bitPattern == real.bitPattern
        case (.number(let number), .plain(.bool(let flag))), (.number(let number), .bool(let flag)):
            return number == (flag ? 1 : 0)
        case (.other(let className), .object(let classes, _)):
            return classes.first == className
        case (.other(let className), _):
            return className == "plain value"
        default:
            return false
        }
    }
}

extension Dictionary where Key == String, Value == ArchivedTextAttribute {
    /// Whether some attribute keeps its archived form.
    var needsArchivedValues: Bool { values.contains { $0.keepsArchivedValue } }

    /// The archived forms in `raw` that encoding the attributes would not write by itself:
    /// objects of other classes, whole numbers archived as reals, booleans.
    func archivedValues(from raw: [String: ArchivedRawValue]?) -> [String: ArchivedRawValue] {
        guard let raw else { return [:] }
        return raw.filter { key, value in
            switch self[key] {
            case .other?: return true
            case .number(let number)?:
                switch value {
                case .integer, .plain(.integer): return Int64(exactly: number) == nil
                case .real, .plain(.real): return Int64(exactly: number) != nil
                default: return true
                }
            default: return false
            }
        }
    }
}

extension ArchivedAttributedString {
    /// The runs with distinct attributes (and archived forms), the first of each, and for each
    /// run the index of its own among them; `hashed`: how many runs' dictionaries were hashed
    /// to find them. Runs read from one archive share their dictionaries (copies of one table
    /// entry): found by the dictionaries' identity first (see ``SharedStorageIdentity``;
    /// `runs` holds them meanwhile), each distinct one is hashed once, not once per run.
    static func distinctAttributes(of runs: [Run]) -> (distinct: [Run], indexes: [Int], hashed: Int) {
        var distinct: [Run] = []
        var indexes: [Int] = []
        indexes.reserveCapacity(runs.count)
        var bySet: [AttributeSet: Int] = [:]
        var byStorage: [SharedStorageIdentityPair: Int] = [:]
        var hashed = 0
        for run in runs {
            let storage = SharedStorageIdentity(run.attributes).flatMap { attributes in
                SharedStorageIdentity(run.archivedValues).map { SharedStorageIdentityPair(first: attributes, second: $0) }
            }
            if let storage, let known = byStorage[storage] {
                indexes.append(known)
                continue
            }
            hashed += 1
            let set = AttributeSet(attributes: run.attributes, archivedValues: run.archivedValues)
            let index = bySet[set] ?? distinct.count
            if index == distinct.count {
                distinct.append(run)
                bySet[set] = index
            }
            if let storage { byStorage[storage] = index }
            indexes.append(index)
        }
        return (distinct, indexes, hashed)
    }
}

/// A run's attributes and their archived forms: what makes two runs' dictionaries one.
private struct AttributeSet: Hashable {
    let attributes: [String: ArchivedTextAttribute]
    let archivedValues: [String: ArchivedRawValue]
}

/// One attribute as written: its archived form while it is unchanged, else the attribute.
private enum EncodedAttribute: Encodable, _ArchiveSpecialEncodable {
    case attribute(ArchivedTextAttribute)
    case archived(ArchivedRawValue)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .attribute(let attribute): try attribute.encode(to: encoder)
        case .archived(let raw): try raw.encode(to: encoder)
        }
    }

    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        switch self {
        case .attribute(let attribute): return try attribute._archiveEncode(with: encoder, at: path())
        case .archived(let raw): return try raw.objectUID(encoder, path())
        }
    }
}

extension ArchivedAttributedString.Run {
    /// The attributes as written, each in its archived form where the run keeps it.
    fileprivate var encodedAttributes: [String: EncodedAttribute] {
        var encoded: [String: EncodedAttribute] = [:]
        encoded.reserveCapacity(attributes.count)
        for (key, attribute) in attributes {
            if let raw = archivedValues[key], attribute.isArchivedForm(raw) {
                encoded[key] = .archived(raw)
            } else {
                encoded[key] = .attribute(attribute)
            }
        }
        return encoded
    }
}
