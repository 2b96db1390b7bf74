import Foundation

// Handing out keyed containers without making one per object: the rule is
// `SpareContainer` (Archive/SpareContainer.swift), shared with the encoder.

extension ArchiveKeyedDecodingContainer {
    /// A `KeyedDecodingContainer` over the keyed value at `slot`: the Key type's last one at
    /// this nesting depth, pointed at this value, when nobody holds it any more; otherwise a
    /// new one, kept for that depth when its place is free.
    ///
    /// One spare per depth, as the encoder keeps one per level: a type nested in itself (a
    /// chain, a tree) holds its container while its children are decoded, so one spare per
    /// Key type was always busy below the top. The value at a depth is done before the next
    /// value at that depth opens, so the next one finds its spare free. (Depth is at most
    /// the decoder's `maxDepth`, so at most that many spares per Key type.)
    @inline(__always)
    static func handOut(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: consuming DecodingPath) throws -> KeyedDecodingContainer<Key> {
        // The Key type's cache is used unretained: the decode keeps it (see `keyRefCacheUnretained`).
        try decoder.keyRefCacheUnretained(for: Key.self)._withUnsafeGuaranteedRef { keyRefs in
            let (layout, uid, keyTexts) = try open(slot, decoder: decoder, path: path.node, memo: keyRefs)
            let depth = decoder.state.depth
            if depth < keyRefs.spares.count, let core = keyRefs.spares[depth].idleCoreUnretained() {
                core._withUnsafeGuaranteedRef { core in
                    // Almost always the same decoder: assigning it would retain it and release it.
                    if core.decoder !== decoder { core.decoder = decoder }
                    core.layout = layout
                    core.uid = uid
                    // Exchanged, not copied: `path` takes the old one away.
                    swap(&core.path, &path)
                    if keyTexts != nil || core.keyTexts != nil { core.keyTexts = keyTexts }
                }
                return keyRefs.spares[depth].container(as: KeyedDecodingContainer<Key>.self)
            }
            let core = ArchiveKeyedContainerCore(decoder: decoder, layout: layout, uid: uid, path: copy path, keyRefs: keyRefs, keyTexts: keyTexts)
            let container = KeyedDecodingContainer(ArchiveKeyedDecodingContainer(core: core))
            keyRefs.spares.keepSpare(container, core: core, at: depth)
            return container
        }
    }
}
