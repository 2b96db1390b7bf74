import Foundation

/// State shared by every decoder of one `decode` call: the limits, the cycle check, the
/// work budget and the instances already decoded (identity).
///
/// One accounting serves every path: following a UID and descending into an inline
/// container both go through ``_ArchiveDecoder/withContainer(ref:slot:at:_:)`` (depth and
/// cycles, by plist reference, so UID cycles and plist-level self-containment are one
/// check), and every value resolved, probes that fail included, is charged to one budget.
final class ArchiveDecodingState {
    let maxDepth: Int
    /// The depth from which each level is checked against ``maxDepth`` and the stack (see
    /// `_ArchiveDecoder.checkDeepLevel(_:at:)`): one comparison a level below it.
    let checkedDepth: Int
    /// The lowest stack address a level may reach (see ``ThreadStack``): `UInt.max` until the
    /// first level that is checked asks for it, 0 where the bounds are unknown.
    @exclusivity(unchecked) var stackFloor = UInt.max
    /// Classes the caller allowed, and names for strict class-name checking.
    let registry: ArchiveClassRegistry
    /// Whether an object's `$classname` must match the type it is decoded as.
    let strictClassNames: Bool
    /// Whether booleans read as 0/1 and 0/1 as booleans (archives from swift-corelibs-foundation).
    let booleansAreNumbers: Bool
    /// The work budget left: every value resolved, container entered, element, entry and
    /// indexed key costs one.
    /// The strategies of the `decode` call (see ArchiveDecoder+Strategies.swift).
    @exclusivity(unchecked) var options = ArchiveDecodingOptions()
    /// The document's one budget of work units (see ``ArchiveWorkBudget``).
    @exclusivity(unchecked) var budget: ArchiveWorkBudget
    /// Units left in ``budget`` (the hot paths subtract from it directly).
    var remainingObjects: Int {
        @inline(__always) get { budget.remaining }
        @inline(__always) set { budget.remaining = newValue }
    }
    @exclusivity(unchecked) var depth = 0
    /// Plist references of the containers being decoded right now, one bit each (a byte each
    /// was 27 MB of fresh pages and cache lines for a million orders); meeting one again is
    /// a cycle. A buffer of its own, made at the first container entered (an array in a
    /// class property checked its uniqueness on every write: two writes per container).
    @exclusivity(unchecked) private var open: UnsafeMutablePointer<UInt64>?
    /// The object count ``open`` was made for: references at or above it are never open
    /// (and ``open`` holds a bit for each reference below it).
    @exclusivity(unchecked) private var openLimit = 0
    /// Class instances already decoded, by UID, so a shared object decodes to one instance;
    /// an ``ArchiveReferenceDecodable`` instance is recorded before its fields are read.
    @exclusivity(unchecked) var instances: [Int: AnyObject] = [:]
    /// ``ArchiveReferenceDecodable`` instances whose fields are being read, by UID.
    @exclusivity(unchecked) var filling: [Int: FillState] = [:]
    /// The innermost of them (see `_ArchiveDecoder.acceptBackReference(to:at:)`).
    @exclusivity(unchecked) var fillFrame: FillFrame?
    /// How many instances of classes decoded in one phase (plain `Decodable` and `NSCoding`
    /// classes, shared by UID once made) are being decoded right now.
    @exclusivity(unchecked) var sharedClassesOpen = 0
    /// The back edges each two-phase class declares in `archiveBackEdges`, by type: asked
    /// once per type and decode.
    @exclusivity(unchecked) var backEdges: [ObjectIdentifier: DeclaredBackEdges] = [:]
    /// The first error that stopped a back-referenced instance being filled: it fails the
    /// decode even if caught (see `_ArchiveDecoder.fill(_:uid:at:)`).
    @exclusivity(unchecked) var abandonedFill: (any Error)?
    /// Strings and data already made, by plist reference: an object referenced from many
    /// places is one shared copy, not one copy per place.
    @exclusivity(unchecked) var leaves = SharedLeafValues()
    /// `ArchivedRawValue`s already read, by UID: an object referred to from many fields is
    /// one shared value (its copies), not one tree per path to it.
    @exclusivity(unchecked) var rawValues: [Int: ArchivedRawValue] = [:]
    /// Values parsed from text (URLs, decimals, base64), by the plist reference of what they
    /// were parsed from: parsed once however many places refer to it.
    @exclusivity(unchecked) var parsedURLs: [Int: URL] = [:]
    @exclusivity(unchecked) var parsedDecimals: [Int: Decimal] = [:]
    @exclusivity(unchecked) var parsedBase64: [Int: Data] = [:]
    /// The entry references of NSDictionaries in the numbered layout (`NS.key.N`,
    /// `NS.object.N`) or the known-keys one (NSKnownKeysDictionary1), each list stored
    /// once; see `gatheredDictionary(keyRefs:valueRefs:owner:)`.
    @exclusivity(unchecked) var gatheredRefs: [[Int]] = []
    /// The numbered and known-keys NSDictionaries already gathered, by UID: their (keys, values) lists.
    @exclusivity(unchecked) var numberedDictionaries: [Int: (BinaryPropertyList.RefList, BinaryPropertyList.RefList)] = [:]
    /// The element slots of NSOrderedSet objects (`NS.object.N`), by UID: found once per object.
    @exclusivity(unchecked) var orderedSetSlots: [Int: [ArchiveSlot]] = [:]
    /// Class chains already read, by class-entry UID.
    /// (A seeded table of positions in `classChainList`: cheaper per object than `Hasher`.)
    @exclusivity(unchecked) var classChains = ScalarRefTable()
    @exclusivity(unchecked) var classChainList: [ArchivedClassChain] = []
    /// The shapes of NSDate and NSUUID objects, once the general reader has read one
    /// (see `FoundationLeafObjects.swift`).
    @exclusivity(unchecked) var dateShape = FoundationLeafShape()
    @exclusivity(unchecked) var uuidShape = FoundationLeafShape()
    /// The shape of NSArray objects likewise (see `fastList(_:)`).
    @exclusivity(unchecked) var listShape = FoundationLeafShape()
    /// Short strings the fast path made lately, by UID (see `ShortStringMemo`).
    @exclusivity(unchecked) var shortStrings = ShortStringMemo()
    /// Key indexes of large objects, by the byte offset of their key list: built once,
    /// so each lookup is O(1) however many keys an object has and however often it is shared.
    @exclusivity(unchecked) var fieldIndexes: [Int: [String: Int]] = [:]
    /// The key texts of NSDictionaries whose keys are not all plain strings, by the byte
    /// offset of their `NS.keys` list (see `dictionaryKeys(_:owner:at:)`).
    @exclusivity(unchecked) var dictionaryKeys: [Int: ArchiveDictionaryKeys] = [:]
    /// Key-reference caches by CodingKey type (the metatype's address → index in `keyRefCaches`).
    @exclusivity(unchecked) var keyRefCacheIndex = ScalarRefTable()
    @exclusivity(unchecked) var keyRefCaches: [KeyRefCache] = []
    /// The same for the types opened lately, found with a compare or two (see `RecentKeyRefCaches`).
    let recentKeyRefCaches = RecentKeyRefCaches()
    /// The same for the field names of Foundation layouts (see `fieldIndex(of:keys:)`), and
    /// for `$class` (see `classFieldIndex(keys:)`).
    let namedKeyRefs = KeyRefCache()
    let classKeyRefs = KeyRefCache()
    /// Every decoder of this decode (the first one and those made for `superDecoder`,
    /// strategies and `NSCoding` objects), to be closed when it returns (see ``close()``).
    @exclusivity(unchecked) var decoders: [_ArchiveDecoder] = []
    /// What decoding needs to know about each type met (see `traits(of:)`).
    /// (Metatype address → position in `traitList`.)
    @exclusivity(unchecked) var traits = ScalarRefTable()
    @exclusivity(unchecked) var traitList: [DecodableTraits] = []
    /// Type names already printed in an error message (see `typeName(_:)`).
    @exclusivity(unchecked) var typeNames: [ObjectIdentifier: String] = [:]

    init(limits: ArchiveDecoder.Limits, inputSize: Int, registry: ArchiveClassRegistry = ArchiveClassRegistry(),
         strictClassNames: Bool = false, booleansAreNumbers: Bool = false) {
        self.maxDepth = limits.maxDepth
        self.checkedDepth = min(limits.maxDepth, ThreadStack.checkedFromDepth)
        self.budget = ArchiveWorkBudget(limits: limits, inputSize: inputSize)
        self.registry = registry
        self.strictClassNames = strictClassNames
        self.booleansAreNumbers = booleansAreNumbers
    }

    /// Ends the decode: its decoders read no more of the archive, whose bytes it borrowed
    /// (one that `init(from:)` kept throws when used), and the cycle between them and this
    /// state is broken.
    func close() {
        for decoder in decoders { decoder.close() }
        decoders = []
        for cache in keyRefCaches { cache.spares = [] }
    }

    deinit { open?.deallocate() }

    /// Marks plist reference `ref` open; false when it already is (a cycle).
    @inline(__always)
    func enter(_ ref: Int, objectCount: Int) -> Bool {
        if open == nil { makeOpen(objectCount: objectCount) }
        guard ref >= 0, ref < openLimit, let open else { return false }
        let word = ref >> 6, bit: UInt64 = 1 << UInt64(ref & 63)
        guard open[word] & bit == 0 else { return false }
        open[word] |= bit
        return true
    }

    /// Makes ``open``: one bit per reference below `objectCount`, none set.
    @inline(never)
    private func makeOpen(objectCount: Int) {
        let words = max(1, (max(0, objectCount) &+ 63) >> 6)
        let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        buffer.initialize(repeating: 0, count: words)
        open = buffer
        openLimit = max(0, objectCount)
    }

    /// Whether plist reference `ref` is open (see ``enter(_:objectCount:)``), for a reader
    /// that does not enter it (a leaf object read in place) but must not read it in a cycle.
    @inline(__always)
    func isOpen(_ ref: Int) -> Bool {
        guard ref >= 0, ref < openLimit, let open else { return false }
        return open[ref >> 6] & (1 << UInt64(ref & 63)) != 0
    }

    @inline(__always)
    func leave(_ ref: Int) {
        if ref >= 0, ref < openLimit, let open { open[ref >> 6] &= ~(1 << UInt64(ref & 63)) }
    }

    /// Whether object `uid` is an instance whose fields are being read (one that a
    /// reference to it now would make a cycle).
    @inline(__always)
    func isFilling(_ uid: Int) -> Bool {
        !filling.isEmpty && filling[uid] != nil
    }
}
