import Foundation

// Handing out keyed containers without making one per object: the rule is
// `SpareContainer` (Archive/SpareContainer.swift), shared with the encoder.

extension ArchiveKeyedDecodingContainer {
    /// A `KeyedDecodingContainer` over the keyed value at `slot`: the Key type's last one,
    /// pointed at this value, when nobody holds it any more; otherwise a new one.
    @inline(__always)
    static func handOut(decoder: _ArchiveDecoder, slot: ArchiveSlot, path: consuming DecodingPath) throws -> KeyedDecodingContainer<Key> {
        let keyRefs = decoder.keyRefCache(for: Key.self)
        let (layout, uid, keyTexts) = try open(slot, decoder: decoder, path: path.node, memo: keyRefs)
        if let core = keyRefs.spare.idleCore() {
            // Almost always the same decoder: assigning it would retain it and release it.
            if core.decoder !== decoder { core.decoder = decoder }
            core.layout = layout
            core.uid = uid
            core.path = path
            core.keyTexts = keyTexts
            return keyRefs.spare.container(as: KeyedDecodingContainer<Key>.self)
        }
        let core = ArchiveKeyedContainerCore(decoder: decoder, layout: layout, uid: uid, path: path, keyRefs: keyRefs, keyTexts: keyTexts)
        let container = KeyedDecodingContainer(ArchiveKeyedDecodingContainer(core: core))
        _ = keyRefs.spare.keep(container, core: core)
        return container
    }
}
