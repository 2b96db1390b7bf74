import Foundation

/// Valid keyed archives with malicious object graphs (issue 10), each built in memory at a
/// chosen size. Every file is a well-formed binary property list and a well-formed keyed
/// archive (`$archiver`, `$version`, `$top.root`, `$objects`, class entries); only the
/// object graph is hostile.
public enum HostileFamily: String, CaseIterable, Sendable, CustomStringConvertible {
    // Special-layout recursion: a chain of objects, each field a UID to the next, the last to itself.
    /// NSData / NSMutableData whose `NS.data` is a UID to the next object; the last to itself.
    case dataChain
    /// NSString / NSMutableString whose `NS.string` is a UID to the next; the last to itself.
    case stringChain
    /// NSURL whose `NS.base` is the next NSURL; the last its own base.
    case urlChain
    /// NSDate whose `NS.time` is a UID to the next NSDate; the last to itself.
    case dateChain
    /// NSDecimalNumber whose `NS.mantissa` is a UID to the next; the last to itself.
    case decimalChain
    /// NSUUID whose `NS.uuidbytes` is a UID to the next; the last to itself.
    case uuidChain

    // Plist-level self-containment: binary-plist object references pointing back.
    /// NSArrays whose `NS.objects` array holds itself (and the previous object's array).
    case arrayHoldsItself
    /// NSArrays whose `NS.objects` is the `$objects` array, or an array holding it.
    case arrayHoldsObjectTable
    /// Objects whose fields (`next`, `NS.objects`, `NS.data`, `NS.string`) hold the object's own dictionary inline.
    case fieldHoldsOwnDictionary

    // Deep inline nesting, no UIDs.
    /// `NS.objects = [[[[…]]]]`, towers of up to 20,000 inline arrays.
    case nestedInlineArrays
    /// A field `next` holding `{next: {next: …}}` inline, towers of up to 20,000 dictionaries.
    case nestedInlineDictionaries

    // Fan-out DAGs: 2^k expansion of shared children.
    /// NSArray objects, each `NS.objects = [UID next, UID next]`: level k is reached 2^k ways.
    case fanOutUIDs
    /// One NSArray whose `NS.objects` is an inline DAG: each level an array or dictionary holding the next level twice.
    case fanOutInline

    // Quadratic key scans.
    /// One object with many keys, referenced many times from one NSArray.
    case manyKeysShared
    /// An NSOrderedSet whose `NS.object.N` keys come in reverse order.
    case orderedSetReversedKeys
    /// An NSDictionary with tens of thousands of keys (about 60,000 at 1 MB).
    case hugeDictionary

    // View fan-out.
    /// Many `$objects` entries whose `value` field is one shared plist DAG 24 levels deep.
    case viewFanOut

    public var description: String { rawValue }

    /// Whether the graph holds a cycle (a UID or plist reference back to a container it is in):
    /// no finite value can be read by following it all the way.
    public var isCyclic: Bool {
        switch self {
        case .dataChain, .stringChain, .urlChain, .dateChain, .decimalChain, .uuidChain,
             .arrayHoldsItself, .arrayHoldsObjectTable, .fieldHoldsOwnDictionary: return true
        default: return false
        }
    }

    /// The archive at about `targetBytes`: within 15% where the file's reference widths
    /// allow, never below the family's smallest graph. Builds a small graph to measure the
    /// bytes per unit, then the full one, then at most one correction.
    public func archive(targetBytes: Int) -> Data {
        func error(_ data: Data) -> Double { abs(Double(data.count) / Double(targetBytes) - 1) }
        // Wide references from 32 KB up, so size is smooth around 100 KB and 1 MB.
        let width = targetBytes > 32_768 ? 4 : 1
        var units = 64
        var data = archive(units: units, minimumWidth: width)
        var best = data
        for _ in 0..<3 {
            if error(data) < error(best) { best = data }
            if error(best) < 0.15 { break }
            let next = max(1, Int(Double(units) * Double(targetBytes) / Double(max(data.count, 1))))
            if next == units { break }
            units = next
            data = archive(units: units, minimumWidth: width)
        }
        return error(data) < error(best) ? data : best
    }

    /// The archive with `units` repetitions of the family's pattern (chain links, nesting
    /// levels, DAG levels, keys or holders), references and offsets at least `minimumWidth` bytes.
    public func archive(units: Int, minimumWidth: Int = 1) -> Data {
        let n = max(1, units)
        var graph = ArchiveGraph()
        graph.plist.minimumWidth = minimumWidth
        let root: UInt64
        switch self {
        case .dataChain: root = graph.chain(n, classes: ["NSData", "NSMutableData"], key: "NS.data")
        case .stringChain: root = graph.chain(n, classes: ["NSString", "NSMutableString"], key: "NS.string")
        case .urlChain:
            let relative = graph.string("a/b")
            root = graph.chain(n, classes: ["NSURL"], key: "NS.base", extra: [("NS.relative", relative)])
        case .dateChain: root = graph.chain(n, classes: ["NSDate"], key: "NS.time")
        case .decimalChain:
            let zero = graph.plist.shared(.integer(0)), one = graph.plist.shared(.integer(1)), no = graph.plist.shared(.bool(false))
            root = graph.chain(n, classes: ["NSDecimalNumber"], key: "NS.mantissa",
                               extra: [("NS.exponent", zero), ("NS.length", one), ("NS.negative", no), ("NS.mantissa.bo", one)])
        case .uuidChain: root = graph.chain(n, classes: ["NSUUID"], key: "NS.uuidbytes")
        case .arrayHoldsItself: root = graph.arraysHoldingThemselves(n)
        case .arrayHoldsObjectTable: root = graph.arraysHoldingObjectTable(n)
        case .fieldHoldsOwnDictionary: root = graph.objectsHoldingOwnDictionary(n)
        case .nestedInlineArrays: root = graph.inlineTowers(levels: n * 4, dictionaries: false)
        case .nestedInlineDictionaries: root = graph.inlineTowers(levels: n * 2, dictionaries: true)
        case .fanOutUIDs: root = graph.fanOutThroughUIDs(levels: n)
        case .fanOutInline: root = graph.fanOutInline(levels: n)
        case .manyKeysShared: root = graph.wideObjectSharedManyTimes(keys: n, references: n * 2)
        case .orderedSetReversedKeys: root = graph.orderedSetWithReversedKeys(n)
        case .hugeDictionary: root = graph.dictionary(keys: n * 2)
        case .viewFanOut: root = graph.holdersOfOneDAG(n, depth: 24)
        }
        return graph.data(root: root)
    }
}

/// The sizes the tests and the benchmark use.
public enum HostileSize: Int, CaseIterable, Sendable, CustomStringConvertible {
    case kb1 = 1_024
    case kb10 = 10_240
    case kb100 = 102_400
    case mb1 = 1_048_576

    public var bytes: Int { rawValue }
    public var description: String {
        switch self {
        case .kb1: return "1 KB"
        case .kb10: return "10 KB"
        case .kb100: return "100 KB"
        case .mb1: return "1 MB"
        }
    }
}
