/// Small integer ids for the names (class names, keys) that `keyedarchive swift` meets on
/// every object, so that a long name is hashed once, not once per object that names it.
///
/// ``KeyedArchiveView`` reads each string of the archive once, so a name used by many
/// objects (one `$classname` string behind a million class entries, one key string shared
/// by a million dictionaries) arrives as the same `String` storage each time. A `String`
/// hashes and compares all its bytes on every `Dictionary` or `Set` operation; this table
/// looks a long name up by its storage instead (address and length, kept alive here so
/// that the address is never reused), and hashes its text once per distinct storage. Short
/// names are hashed as text: their cost is bounded. Ids are given in the order names are
/// first met, whatever the addresses, so everything built from them is deterministic.
struct NameIDs {
    /// Names at most this long are looked up by their text.
    static let shortLength = 32

    private struct Storage: Hashable {
        let address: UInt
        let count: Int
    }

    /// The names, by id.
    private(set) var names: [String] = []
    private var idsByText: [String: Int] = [:]
    private var idsByStorage: [Storage: Int] = [:]
    /// Every string whose storage is a key of `idsByStorage`, held so its address stays its own.
    private var heldStorages: [String] = []
    /// The bytes of text hashed so far (names looked up by text), for tests: a constant
    /// times the archive's size however often its names are repeated.
    private(set) var hashedBytes = 0

    /// The id of `name`, the same for every `String` with the same text.
    mutating func id(_ name: String) -> Int {
        let count = name.utf8.count
        if count > Self.shortLength, let address = name.utf8.withContiguousStorageIfAvailable({ UInt(bitPattern: $0.baseAddress) }) {
            // Longer than any small string: the bytes are the string's own storage.
            let storage = Storage(address: address, count: count)
            if let known = idsByStorage[storage] { return known }
            let id = textID(name)
            idsByStorage[storage] = id
            heldStorages.append(name)
            return id
        }
        return textID(name)
    }

    /// The name with id `id`.
    subscript(id: Int) -> String { names[id] }

    private mutating func textID(_ name: String) -> Int {
        hashedBytes += name.utf8.count
        if let known = idsByText[name] { return known }
        let id = names.count
        names.append(name)
        idsByText[name] = id
        return id
    }
}
