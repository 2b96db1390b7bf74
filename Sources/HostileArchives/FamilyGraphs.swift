import Foundation

/// The object graphs of ``HostileFamily``, one builder per pattern.
extension ArchiveGraph {
    /// `n` objects of `classes` (alternating), each `key` a UID to the next; the last to itself.
    mutating func chain(_ n: Int, classes: [String], key: String, extra: [(key: String, value: Int)] = []) -> UInt64 {
        let uids = (0..<n).map { _ in reserveEntry() }
        for (i, uid) in uids.enumerated() {
            let target = i + 1 < n ? uids[i + 1] : uid
            setObject(uid, className: classes[i % classes.count], fields: [(key, self.uid(target))] + extra)
        }
        return uids[0]
    }

    /// An NSArray whose `NS.objects` holds UIDs of `members`.
    public mutating func array(of members: [UInt64]) -> UInt64 {
        let refs = members.map { uid($0) }
        return addObject(className: "NSArray", fields: [("NS.objects", plist.add(.array(refs)))])
    }

    /// `n` NSArrays, each `NS.objects` an inline array holding itself and the previous one's array.
    mutating func arraysHoldingThemselves(_ n: Int) -> UInt64 {
        var previous: Int?
        var members: [UInt64] = []
        for _ in 0..<n {
            let inner = plist.reserve()
            plist.set(inner, .array([inner] + (previous.map { [$0] } ?? [])))
            previous = inner
            members.append(addObject(className: "NSMutableArray", fields: [("NS.objects", inner)]))
        }
        return array(of: members)
    }

    /// `n` NSArrays: even ones with `NS.objects` the `$objects` array, odd ones an array holding it.
    mutating func arraysHoldingObjectTable(_ n: Int) -> UInt64 {
        let holder = plist.add(.array([objectsArray]))
        let members = (0..<n).map { i in
            addObject(className: "NSArray", fields: [("NS.objects", i % 2 == 0 ? objectsArray : holder)])
        }
        return array(of: members)
    }

    /// `n` objects whose fields hold their own dictionary inline.
    mutating func objectsHoldingOwnDictionary(_ n: Int) -> UInt64 {
        let name = string("node")
        var members: [UInt64] = []
        for _ in 0..<n {
            let uid = reserveEntry()
            let own = ref(of: uid)
            setObject(uid, className: "Node", fields: [("name", name), ("next", own), ("NS.objects", own), ("NS.data", own), ("NS.string", own)])
            members.append(uid)
        }
        return array(of: members)
    }

    /// Towers of inline arrays (`[[[…]]]`) or dictionaries (`{next: {next: …}}`), up to
    /// 20,000 levels each, `levels` in all, each the `NS.objects` (arrays) or `next`
    /// (dictionaries) field of one object.
    mutating func inlineTowers(levels: Int, dictionaries: Bool) -> UInt64 {
        let leaf = string("leaf"), next = string("next")
        var members: [UInt64] = []
        var remaining = max(1, levels)
        while remaining > 0 {
            let height = min(remaining, 20_000)
            remaining -= height
            var top = leaf
            for _ in 0..<height {
                top = plist.add(dictionaries ? .dictionary(keys: [next], values: [top]) : .array([top]))
            }
            members.append(dictionaries
                ? addObject(className: "Node", fields: [("next", top)])
                : addObject(className: "NSArray", fields: [("NS.objects", top)]))
        }
        return members.count == 1 ? members[0] : array(of: members)
    }

    /// `levels` NSArray objects, each holding the next twice by UID; the last holds a string.
    mutating func fanOutThroughUIDs(levels: Int) -> UInt64 {
        var below = addEntry(string("leaf"))
        for _ in 0..<levels {
            let ref = uid(below)
            below = addObject(className: "NSArray", fields: [("NS.objects", plist.add(.array([ref, ref])))])
        }
        return below
    }

    /// One NSArray whose `NS.objects` is an inline DAG `levels` deep, arrays and dictionaries
    /// alternating, each holding the level below twice.
    mutating func fanOutInline(levels: Int) -> UInt64 {
        let a = string("a"), b = string("b")
        var below = string("leaf")
        for level in 0..<levels {
            below = plist.add(level % 2 == 0 ? .array([below, below]) : .dictionary(keys: [a, b], values: [below, below]))
        }
        return addObject(className: "NSArray", fields: [("NS.objects", plist.add(.array([below])))])
    }

    /// An object with `keys` fields, referenced `references` times from one NSArray.
    mutating func wideObjectSharedManyTimes(keys: Int, references: Int) -> UInt64 {
        let value = plist.shared(.integer(1))
        let wide = addObject(className: "Wide", fields: (0..<keys).map { (key: "k\($0)", value: value) })
        let ref = uid(wide)
        return addObject(className: "NSArray", fields: [("NS.objects", plist.add(.array(Array(repeating: ref, count: references))))])
    }

    /// An NSOrderedSet of `n` strings whose `NS.object.N` keys come last to first.
    mutating func orderedSetWithReversedKeys(_ n: Int) -> UInt64 {
        let member = addEntry(string("member"))
        let ref = uid(member)
        return addObject(className: "NSOrderedSet", fields: (0..<n).reversed().map { (key: "NS.object.\($0)", value: ref) })
    }

    /// An NSDictionary with `keys` distinct string keys.
    mutating func dictionary(keys: Int) -> UInt64 {
        let value = plist.shared(.integer(7))
        let keyRefs = (0..<keys).map { plist.add(.string(String($0, radix: 36))) }
        return addObject(className: "NSDictionary", fields: [
            ("NS.keys", plist.add(.array(keyRefs))),
            ("NS.objects", plist.add(.array(Array(repeating: value, count: keys)))),
        ])
    }

    /// `n` objects whose `value` field is one inline DAG `depth` levels deep (2^depth paths).
    mutating func holdersOfOneDAG(_ n: Int, depth: Int) -> UInt64 {
        var dag = plist.shared(.integer(1))
        for _ in 0..<depth { dag = plist.add(.array([dag, dag])) }
        let members = (0..<n).map { _ in addObject(className: "Holder", fields: [("value", dag)]) }
        return array(of: members)
    }
}
