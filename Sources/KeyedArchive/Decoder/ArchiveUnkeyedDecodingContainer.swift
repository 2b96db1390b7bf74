import Foundation

/// Reads the elements of an NSArray, NSSet (`NS.objects`) or NSOrderedSet
/// (`NS.object.0`, `NS.object.1`, …), in order.
struct ArchiveUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    /// Where the elements are.
    enum Elements {
        /// An array of references (each normally a UID).
        case list(BinaryPropertyList.RefList)
        /// NSOrderedSet's numbered keys, resolved to value references.
        case refs([Int])
    }

    let decoder: _ArchiveDecoder
    let elements: Elements
    let uid: Int
    let path: CodingPathNode
    private(set) var currentIndex = 0
    let count: Int?

    var codingPath: [any CodingKey] { path.path }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: CodingPathNode) throws {
        self.decoder = decoder
        self.path = path
        uid = slot.objectIndex
        elements = try decoder.reading(slot, path) { try Self.elements(of: slot, decoder: decoder, path: path) }
        switch elements {
        case .list(let list): count = list.count
        case .refs(let refs): count = refs.count
        }
    }

    private static func elements(of slot: ArchiveSlot, decoder: _ArchiveDecoder, path: CodingPathNode) throws -> Elements {
        let object = try decoder.object(in: slot, expecting: [Any].self, at: path)
        let plist = decoder.plist
        switch object {
        case .array(let list):
            return .list(list)  // a plain plist array, as some writers store
        case .dictionary(let keys, let values):
            try decoder.validateObject(keys: keys, values: values, slot: slot, at: path)
            if let index = try decoder.document.index(of: "NS.objects", in: keys) {
                guard case .array(let list) = try plist.object(try plist.ref(values, index)) else {
                    throw decoder.corrupted(at: path, slot: slot, "NS.objects is not an array")
                }
                return .list(list)
            }
            // NSOrderedSet: NS.object.0 … NS.object.(n-1); an empty one has no such key.
            var refs: [Int] = []
            while let index = try decoder.document.index(of: "NS.object.\(refs.count)", in: keys) {
                refs.append(try plist.ref(values, index))
            }
            if !refs.isEmpty { return .refs(refs) }
            if let info = try decoder.document.classInfo(ofObject: slot.objectIndex),
               info.classes.contains(where: { $0.hasSuffix("OrderedSet") || $0.hasSuffix("Array") || $0.hasSuffix("Set") }) {
                return .refs([])
            }
        default:
            break
        }
        throw decoder.typeMismatch([Any].self, found: object, slot: slot, at: path)
    }

    /// The slot of the next element; throws at the end, or when the decode has used up
    /// its budget of values.
    private func nextSlot<T>(_ type: T.Type) throws -> ArchiveSlot {
        try decoder.countValue(at: path.appending(index: currentIndex), slot: .uid(uid))
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: path.appending(index: currentIndex).path,
                debugDescription: "Unkeyed container of object \(uid) is at its end (\(count ?? 0) elements)."))
        }
        do {
            let ref: Int
            switch elements {
            case .list(let list): ref = try decoder.plist.ref(list, currentIndex)
            case .refs(let refs): ref = refs[currentIndex]
            }
            return try decoder.slot(forValueAt: ref, owner: uid)
        } catch {
            throw decoder.corrupted(at: path.appending(index: currentIndex), slot: .uid(uid), "\(error)", underlying: error)
        }
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNil(try nextSlot(Never.self)) else { return false }
        currentIndex += 1
        return true
    }

    /// The path of the next element.
    private var nextPath: CodingPathNode { path.appending(index: currentIndex) }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try decoder.unboxBool(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try decoder.unboxString(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try decoder.unboxDouble(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try decoder.unboxFloat(from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = try decoder.unboxInteger(type, from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.unbox(type, from: try nextSlot(type), at: nextPath)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try ArchiveKeyedDecodingContainer<NestedKey>(decoder: decoder, slot: try nextSlot(type), path: nextPath)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try ArchiveUnkeyedDecodingContainer(decoder: decoder, slot: try nextSlot([Any].self), path: nextPath)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let sub = decoder.subDecoder(slot: try nextSlot(Never.self), path: nextPath)
        currentIndex += 1
        return sub
    }
}
