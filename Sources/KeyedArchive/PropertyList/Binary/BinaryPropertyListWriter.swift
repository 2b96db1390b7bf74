import Foundation

/// Writes a ``PropertyListValue`` tree as a binary property list.
///
/// Equal strings, numbers, dates and data are stored once (the builder's uniquing). A value
/// the tree holds in many places in the same storage — as a tree read from a property list
/// holds an object that many references share — costs its size once: a long string or
/// data value is looked up by its storage before it is hashed, and an array or dictionary
/// in the same storage as one already written is that object again (written once, as
/// Foundation writes one `NSArray` once however often it is referenced). So rewriting a
/// property list costs its objects, not its references × their size.
enum BinaryPropertyListWriter {
    /// `uniquingNumbers`: see ``BinaryPropertyListBuilder/init(expectedObjects:expectedChildRefs:uniquingNumbers:)``.
    static func write(_ value: PropertyListValue, uniquingNumbers: Bool = true) -> [UInt8] {
        var writer = TreeWriter(builder: BinaryPropertyListBuilder(uniquingNumbers: uniquingNumbers))
        let top = writer.add(value)
        return writer.builder.finish(top: top)
    }

    /// Where a value's bytes or elements are stored, and how many: the same storage holds
    /// the same value. Only for storage on the heap (or in the binary) that the tree keeps
    /// alive, and the table keeps the value too, so an address is never reused meanwhile.
    private struct Storage: Hashable {
        let address: UInt
        let count: Int
    }

    /// Strings and data shorter than this are hashed (they may be stored inline, in a
    /// temporary copy whose address means nothing, and hashing them is cheap anyway).
    private static let sharedMinimumBytes = 32

    private struct TreeWriter {
        var builder: BinaryPropertyListBuilder
        private var strings: [Storage: (ref: Int, owner: String)] = [:]
        private var datas: [Storage: (ref: Int, owner: Data)] = [:]
        private var arrays: [Storage: (ref: Int, owner: [PropertyListValue])] = [:]
        private var dictionaries: [Storage: (ref: Int, owner: [PropertyListEntry])] = [:]

        init(builder: BinaryPropertyListBuilder) {
            self.builder = builder
        }

        mutating func add(_ value: PropertyListValue) -> Int {
            switch value {
            case .string(let s): return string(s)
            case .integer(let i): return builder.integer(i)
            case .unsignedInteger(let u): return builder.unsignedInteger(u)
            case .wideInteger(let w): return builder.wideInteger(w)
            case .real(let d): return builder.real(d)
            case .float(let f): return builder.float(f)
            case .bool(let b): return builder.bool(b)
            case .date(let d): return builder.date(d)
            case .uid(let u): return builder.uid(u)
            case .data(let d):
                guard d.count >= sharedMinimumBytes, let storage = Self.storage(of: d) else { return builder.data(d) }
                if let known = datas[storage] { return known.ref }
                let ref = builder.data(d)
                datas[storage] = (ref, d)
                return ref
            case .array(let items):
                let storage = items.isEmpty ? nil : items.withUnsafeBufferPointer { Self.storage($0) }
                if let storage, let known = arrays[storage] { return known.ref }
                let refs = items.map { add($0) }
                let ref = builder.array(refs)
                if let storage { arrays[storage] = (ref, items) }
                return ref
            case .dictionary(let entries):
                let storage = entries.isEmpty ? nil : entries.withUnsafeBufferPointer { Self.storage($0) }
                if let storage, let known = dictionaries[storage] { return known.ref }
                var keys = [Int]()
                var values = [Int]()
                keys.reserveCapacity(entries.count)
                values.reserveCapacity(entries.count)
                for entry in entries {
                    keys.append(string(entry.key))
                    values.append(add(entry.value))
                }
                let ref = builder.dictionary(keys: keys, values: values)
                if let storage { dictionaries[storage] = (ref, entries) }
                return ref
            }
        }

        private mutating func string(_ s: String) -> Int {
            guard s.utf8.count >= sharedMinimumBytes,
                  let storage = s.utf8.withContiguousStorageIfAvailable({ Self.storage($0) }) ?? nil
            else { return builder.string(s) }
            if let known = strings[storage] { return known.ref }
            let ref = builder.string(s)
            strings[storage] = (ref, s)
            return ref
        }

        private static func storage<T>(_ buffer: UnsafeBufferPointer<T>) -> Storage? {
            buffer.baseAddress.map { Storage(address: UInt(bitPattern: $0), count: buffer.count) }
        }

        private static func storage(of data: Data) -> Storage? {
            data.withUnsafeBytes { raw in raw.baseAddress.map { Storage(address: UInt(bitPattern: $0), count: raw.count) } }
        }
    }
}
