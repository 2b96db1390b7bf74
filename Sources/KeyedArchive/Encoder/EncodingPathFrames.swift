/// The coding paths of the values being encoded, kept as a stack of frames (one per nested
/// value that is neither a leaf nor a special type) whose ``CodingPathNode``s are made only
/// when someone asks for a path: `codingPath`, an error, a key strategy, an unkeyed or nested
/// container, a `superEncoder`. Encoding a struct inside a struct used to allocate a node
/// (and free it later) for every such value whether or not its path was ever read.
///
/// A frame is valid until the value that pushed it is done (``pop(to:)``); what may outlive
/// that holds a node instead, made before the frame goes. Only one holder keeps a frame
/// rather than a node: the keyed container core a frame's value was handed (see
/// `KeyedEncodingContainerReuse.swift`). When the frame goes and that container is still held
/// by someone (kept past its `encode(to:)`), its node is made then and the core keeps it; when
/// nobody holds it, it is pointed at another object before it can be used again.
///
/// A frame's key is kept as a ``PlainCodingKey`` when it is one (synthesized `CodingKeys`
/// are), so pushing one copies no existential; the path of a key of any other type is made
/// as a node at once, as before.
final class EncodingPathFrames {
    private struct Frame {
        /// The parent frame, or -1: the parent is `base`.
        var parent: Int = -1
        /// 0: the frame is its parent's path itself; 1: a key (`key`); 2: `index`.
        var kind: UInt8 = 0
        /// Whether `base`, `node` or `core` is set (they are cleared when the frame is popped).
        var hasExtra = false
        var index = 0
        var key: PlainCodingKey?
        var base: CodingPathNode = .root
        /// The path, once made.
        var node: CodingPathNode?
        /// The keyed container core that refers to this frame (see above).
        var core: ArchiveKeyedEncodingCore?
    }

    /// `capacity` frames, all initialized; `0..<top` are in use. Frames above `top` hold no
    /// references. Not an array: each change of an array element checks its uniqueness.
    @exclusivity(unchecked) private var frames: UnsafeMutablePointer<Frame>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var top = 0
    /// Scratch for ``node(of:base:)``.
    @exclusivity(unchecked) private var chain: [Int] = []

    init() {
        capacity = 16
        frames = .allocate(capacity: capacity)
        frames.initialize(repeating: Frame(), count: capacity)
    }

    deinit {
        frames.deinitialize(count: capacity)
        frames.deallocate()
    }

    /// The next free frame, made room for.
    @inline(__always)
    private func next() -> Int {
        if top == capacity { grow() }
        top += 1
        return top - 1
    }

    @inline(never)
    private func grow() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: frames, count: capacity)
        (larger + capacity).initialize(repeating: Frame(), count: capacity)
        frames.deallocate()
        frames = larger
        capacity *= 2
    }

    /// Pushes a frame for `key` under frame `parent`, or under `base` when `parent` is -1.
    @inline(__always)
    func push(key: PlainCodingKey, parent: Int, base: @autoclosure () -> CodingPathNode) -> Int {
        // A parent is always a frame in use, below the new one (so `node(of:)` ends).
        let parent = parent < top ? parent : -1
        let index = next()
        let frame = frames + index
        frame.pointee.parent = parent
        frame.pointee.kind = 1
        frame.pointee.key = key
        if parent < 0 {
            frame.pointee.base = base()
            frame.pointee.hasExtra = true
        }
        return index
    }

    /// Pushes a frame whose path is `path` itself (`index` nil) or element `index` under it.
    @inline(__always)
    func push(under path: CodingPathNode, index: Int?) -> Int {
        let position = next()
        let frame = frames + position
        frame.pointee.parent = -1
        frame.pointee.kind = index == nil ? 0 : 2
        frame.pointee.index = index ?? 0
        frame.pointee.base = path
        frame.pointee.hasExtra = true
        return position
    }

    /// Records that `core` refers to frame `index`; false when another core already does
    /// (the caller then gives `core` a node of its own).
    @inline(__always)
    func attach(_ core: ArchiveKeyedEncodingCore, to index: Int) -> Bool {
        guard index >= 0, index < top, frames[index].core == nil else { return false }
        frames[index].core = core
        frames[index].hasExtra = true
        return true
    }

    /// Drops the frames from `mark` up (their values are done). A core still held by someone
    /// is given its node first.
    @inline(__always)
    func pop(to mark: Int) {
        while top > mark {
            top -= 1
            if frames[top].hasExtra { release(top) }
        }
    }

    /// Clears the references of frame `index` (`top`, just popped).
    private func release(_ index: Int) {
        let frame = frames + index
        if let core = frame.pointee.core {
            if core.frame == index, !core.isIdle {
                top += 1  // the frame is still in use while its node is made
                core.pin(node(of: index, base: .root))
                top -= 1
            }
            frame.pointee.core = nil
        }
        if frame.pointee.node != nil { frame.pointee.node = nil }
        frame.pointee.base = .root
        frame.pointee.hasExtra = false
    }

    /// The path of frame `index`, made (and kept in its frame and those under it) on first
    /// use; `base` when `index` is -1.
    func node(of index: Int, base: CodingPathNode) -> CodingPathNode {
        guard index >= 0, index < top else { return base }
        if let node = frames[index].node { return node }
        // Down to a frame whose path is made or whose parent is a node, then back up.
        chain.removeAll(keepingCapacity: true)
        var current = index
        var start: CodingPathNode
        while true {
            chain.append(current)
            let parent = frames[current].parent
            if parent < 0 {
                start = frames[current].base
                break
            }
            if let made = frames[parent].node {
                start = made
                break
            }
            current = parent
        }
        for frameIndex in chain.reversed() {
            let frame = frames + frameIndex
            switch frame.pointee.kind {
            case 1:
                if let key = frame.pointee.key { start = key.appended(to: start) }
            case 2:
                start = start.appending(index: frame.pointee.index)
            default:
                break
            }
            frame.pointee.node = start
            frame.pointee.hasExtra = true
        }
        return start
    }
}
