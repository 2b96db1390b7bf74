// Handing keyed containers out again, for the encoder and the decoder alike.
//
// `container(keyedBy:)` runs once per struct or class, and the type it returns,
// `KeyedEncodingContainer<Key>` or `KeyedDecodingContainer<Key>`, boxes our container in a
// class of the standard library. Called from a type's `encode(to:)` or `init(from:)` in
// another module, the function is not specialized: making the box costs runtime look-ups
// of generic metadata (our container's type and the box's), allocations and releases, a
// large share of the time spent on a small object.
//
// Once that method has returned, nobody holds its container any more (almost always): the
// box is then referenced only by the Key type's cache, which keeps the last one it handed
// out. The next object with that Key type gets the same box, its core (the one class our
// container stores) pointed at the new object. A box still held (a method that kept its
// container) is never reused: a new one is made for that object alone. The encoder and the
// decoder keep one spare per nesting level, so that a recursive type coding a child of its
// own type (which holds its container meanwhile) finds the spare of the child's level free.
// The spares are forgotten when the coding ends (their cores refer to the coder).
//
// Both standard containers are structs with one stored property, a reference to their box;
// the box is kept here as that reference (checked: if the layout were ever different, every
// container is made afresh).

/// The last keyed container handed out for one Key type, as its box, with the core that
/// holds its state (see the comment above).
struct SpareContainer<Core: AnyObject> {
    private var box: AnyObject?
    private var core: Core?

    /// The kept container's core, when nobody but this holds the container any more; after
    /// pointing it at the new object, hand out ``container(as:)``.
    @inline(__always)
    mutating func idleCore() -> Core? {
        guard box != nil, isKnownUniquelyReferenced(&box) else { return nil }
        return core
    }

    /// ``idleCore()`` without a retain: the core stays alive as long as this spare keeps
    /// it, so the caller uses it (`_withUnsafeGuaranteedRef`) before this spare changes.
    @inline(__always)
    mutating func idleCoreUnretained() -> Unmanaged<Core>? {
        guard box != nil, isKnownUniquelyReferenced(&box), let core else { return nil }
        return Unmanaged.passUnretained(core)
    }

    /// The kept container (only after ``idleCore()`` returned its core). Mutating only to be
    /// read in place: a copy of this struct would retain both references.
    @inline(__always)
    mutating func container<Container>(as type: Container.Type) -> Container {
        unsafeBitCast(box, to: Container.self)
    }

    /// Keeps `container` and its `core` when none is kept yet (a busy one is kept, not
    /// replaced) and `Container` is one reference; returns whether it did.
    @inline(__always)
    mutating func keep<Container>(_ container: Container, core: Core) -> Bool {
        guard box == nil, Self.isOneReference(Container.self) else { return false }
        box = unsafeBitCast(container, to: AnyObject.self)
        self.core = core
        return true
    }

    /// Whether `Container` is laid out as one reference (its box), as reuse assumes.
    static func isOneReference<Container>(_ type: Container.Type) -> Bool {
        MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size
            && MemoryLayout<Container>.alignment == MemoryLayout<AnyObject>.alignment
    }
}

extension Array {
    /// Keeps `container` and its `core` as the spare at `level` of these spares, one per
    /// nesting level, when that place is free; returns whether it did.
    @discardableResult @inline(never)
    mutating func keepSpare<Core, Container>(_ container: Container, core: Core, at level: Int) -> Bool where Element == SpareContainer<Core> {
        guard level >= 0 else { return false }
        while count <= level { append(SpareContainer()) }
        return self[level].keep(container, core: core)
    }
}
