import Foundation

// Handing out keyed containers without making one per object, as the decoder does: the
// rule is `SpareContainer` (Archive/SpareContainer.swift). The Key type's `KeyIDCache`
// keeps one spare per level of open objects, so that nested values of one type (each
// holding its container while its children are encoded) find theirs free too: the object
// at a level is done before the next object at that level opens. A spare that is busy
// (a container kept past its `encode(to:)`) or made by another encoder (a superEncoder's)
// is not reused; the object gets a new container, which is not kept. The table lists the
// caches that keep spares and forgets them all when the top-level value is done (their
// containers refer to the encoder, which refers to the table).

extension ArchiveKeyedEncodingContainer {
    /// A `KeyedEncodingContainer` writing into `object`: the Key type's last one at
    /// `object`'s level, pointed at `object`, when nobody holds it any more; otherwise a new one.
    /// Its path is the encoder's frame `frame` (-1: `path`, which is made only when needed):
    /// only the kept container refers to a frame, and only one per frame (see
    /// EncodingPathFrames.swift); any other gets the path as a node.
    @inline(__always)
    static func handOut(encoder: _ArchiveEncoder, object: _ArchiveEncoder.OpenHandle, frame: Int,
                        path: @autoclosure () -> CodingPathNode) -> KeyedEncodingContainer<Key> {
        let table = encoder.table
        let level = object.level
        let keyCache = table.keyCache(for: Key.self, level: level)
        if level >= 0, level < keyCache.spares.count, let core = keyCache.spares[level].idleCore(),
           core.encoderID == ObjectIdentifier(encoder) {
            core.reset(object: object, frame: frame)
            if !encoder.frames.attach(core, to: frame) { core.pin(path()) }
            return keyCache.spares[level].container(as: KeyedEncodingContainer<Key>.self)
        }
        let core = ArchiveKeyedEncodingCore(encoder: encoder, object: object, cache: keyCache, level: level)
        let container = KeyedEncodingContainer(ArchiveKeyedEncodingContainer(encoder: encoder, keyCache: keyCache, core: core))
        if level >= 0, table.keepSpare(container, core: core, in: keyCache, at: level) {
            core.reset(object: object, frame: frame)
            if !encoder.frames.attach(core, to: frame) { core.pin(path()) }
        } else {
            core.pin(path())
        }
        return container
    }
}

extension ArchiveObjectTable {
    /// Keeps `container` as `cache`'s spare at `level` when that place is free; returns whether it did.
    @inline(never)
    func keepSpare<Container>(_ container: Container, core: ArchiveKeyedEncodingCore, in cache: KeyIDCache, at level: Int) -> Bool {
        if cache.spares.isEmpty { keyCachesWithSpares.append(cache) }
        return cache.spares.keepSpare(container, core: core, at: level)
    }

    /// Forgets the containers the key caches keep (see above).
    func dropSpareContainers() {
        for cache in keyCachesWithSpares { cache.spares = [] }
        keyCachesWithSpares.removeAll()
    }
}
