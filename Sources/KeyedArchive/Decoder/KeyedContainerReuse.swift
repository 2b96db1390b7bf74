import Foundation

// Handing out keyed containers without making one per object.
//
// `container(keyedBy:)` runs once per decoded struct or class, and the type it returns,
// `KeyedDecodingContainer<Key>`, boxes our container in a class of the standard library.
// Called from a type's `init(from:)` in another module, the function is not specialized:
// making the box costs two runtime look-ups of generic metadata (our container's type and
// the box's), two allocations (the box and our container's core) and their release, a
// large share of the time spent on a small object.
//
// Once a type's `init(from:)` has returned, nobody holds its container any more (almost
// always): the box is then referenced only by the Key type's `KeyRefCache`, which keeps the
// last one it handed out. The next object with that Key type gets the same box, its core
// pointed at the new object. A box still held (a recursive type reading a child of its own
// type, or an `init(from:)` that kept its container) is never reused: a new one is made
// for that object alone, and the cache keeps the one it has (replacing it cost nested
// structs of one type, which never find theirs free, about 4% of their decode time).
//
// `KeyedDecodingContainer` is a struct with one stored property, a reference to its box; it
// is kept here as that reference (checked once: if the layout were ever different, every
// container is made afresh, as before).

extension ArchiveKeyedDecodingContainer {
    /// A `KeyedDecodingContainer` over the keyed value at `slot`: the Key type's last one,
    /// pointed at this value, when nobody holds it any more; otherwise a new one.
    @inline(__always)
    static func handOut(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: CodingPathNode) throws -> KeyedDecodingContainer<Key> {
        let (layout, uid, keyTexts) = try open(slot, decoder: decoder, path: path)
        let keyRefs = decoder.keyRefCache(for: Key.self)
        if let core = keyRefs.idleContainerCore() {
            core.decoder = decoder
            core.layout = layout
            core.uid = uid
            core.path = path
            core.keyTexts = keyTexts
            return unsafeBitCast(keyRefs.spareBox, to: KeyedDecodingContainer<Key>.self)
        }
        let core = ArchiveKeyedContainerCore(decoder: decoder, layout: layout, uid: uid, path: path, keyRefs: keyRefs, keyTexts: keyTexts)
        let container = KeyedDecodingContainer(ArchiveKeyedDecodingContainer(core: core))
        if KeyRefCache.containerIsOneReference, keyRefs.spareBox == nil {
            keyRefs.spareBox = unsafeBitCast(container, to: AnyObject.self)
            keyRefs.spareCore = core
        }
        return container
    }
}

extension KeyRefCache {
    /// Whether `KeyedDecodingContainer` is one reference (its box), as reuse assumes.
    static let containerIsOneReference =
        MemoryLayout<KeyedDecodingContainer<ArchiveCodingKey>>.size == MemoryLayout<AnyObject>.size
        && MemoryLayout<KeyedDecodingContainer<ArchiveCodingKey>>.alignment == MemoryLayout<AnyObject>.alignment

    /// The core of the last container handed out for this Key type when nobody but this
    /// cache holds that container any more.
    @inline(__always)
    func idleContainerCore() -> ArchiveKeyedContainerCore? {
        guard spareBox != nil, isKnownUniquelyReferenced(&spareBox) else { return nil }
        return spareCore
    }

    /// Forgets the kept container (when the decode ends: it refers to the decoder).
    func dropSpareContainer() {
        spareBox = nil
        spareCore = nil
    }
}
