import Foundation
import Testing
@testable import KeyedArchive

// The decoder keeps a value's last coding key unbuilt until something needs the path
// (Decoder/DecodingPath.swift). These tests pin down every path a user can see: what
// `decoder.codingPath` and each container's `codingPath` say inside `init(from:)` at any
// depth (arrays, optionals, dictionaries, sets, nested and super containers, enums with
// associated values, values read in place), what a container kept after its `init(from:)`
// still says, and the `codingPath` of errors thrown deep inside arrays of structs.

/// "label path" lines, in the order the `init(from:)` below run, and the keyed containers
/// they kept.
private final class PathLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var containers: [KeyedDecodingContainer<PathLeaf.CodingKeys>] = []

    func add(_ label: String, _ path: [any CodingKey]) { lock.withLock { lines.append("\(label) \(render(path))") } }
    func keep(_ container: KeyedDecodingContainer<PathLeaf.CodingKeys>) { lock.withLock { containers.append(container) } }
    var all: [String] { lock.withLock { lines } }
    var kept: [KeyedDecodingContainer<PathLeaf.CodingKeys>] { lock.withLock { containers } }
}

private let logKey = CodingUserInfoKey(rawValue: "DecodingPathTests.log")!

private func log(_ decoder: any Decoder, _ label: String, _ path: [any CodingKey]) {
    (decoder.userInfo[logKey] as? PathLog)?.add(label, path)
}

/// `a/Index 1#1/b`: each key's string, and its integer after `#` when it has one.
private func render(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "/" }
    return path.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }.joined(separator: "/")
}

/// An integer that encodes as itself or, to make decoding fail right there, as a string.
private enum PathValue: Codable, Hashable {
    case int(Int), text(String)

    init(from decoder: any Decoder) throws {
        log(decoder, "PathValue", decoder.codingPath)
        self = .int(try decoder.singleValueContainer().decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}

/// A struct of one field; `omitted` leaves the field out when encoding (`keyNotFound`).
private struct PathLeaf: Codable, Hashable {
    var v: PathValue
    var omitted = false
    enum CodingKeys: String, CodingKey { case v }

    init(_ number: Int) { v = .int(number) }
    init(value: PathValue) { v = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        log(decoder, "PathLeaf", decoder.codingPath)
        log(decoder, "PathLeaf.keyed", container.codingPath)
        (decoder.userInfo[logKey] as? PathLog)?.keep(container)
        v = try container.decode(PathValue.self, forKey: .v)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !omitted { try container.encode(v, forKey: .v) }
    }
}

/// Synthesized: `nestedContainer(keyedBy:forKey:)` per case.
private enum PathShape: Codable {
    case box(PathLeaf)
    case pair(first: PathLeaf, second: Int)
}

private struct PathMid: Codable {
    var leaf: PathLeaf
    var leaves: [PathLeaf]
    var maybe: PathLeaf?
    var shape: PathShape

    enum CodingKeys: String, CodingKey { case leaf, leaves, maybe, shape }

    init(leaf: PathLeaf, leaves: [PathLeaf], maybe: PathLeaf?, shape: PathShape) {
        (self.leaf, self.leaves, self.maybe, self.shape) = (leaf, leaves, maybe, shape)
    }

    init(from decoder: any Decoder) throws {
        log(decoder, "PathMid", decoder.codingPath)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        leaf = try container.decode(PathLeaf.self, forKey: .leaf)
        leaves = try container.decode([PathLeaf].self, forKey: .leaves)
        maybe = try container.decodeIfPresent(PathLeaf.self, forKey: .maybe)
        shape = try container.decode(PathShape.self, forKey: .shape)
        log(decoder, "PathMid.keyed", container.codingPath)
    }
}

/// A `PathMid` read in place through a single-value container.
private struct PathWrapper: Codable {
    var mid: PathMid

    init(mid: PathMid) { self.mid = mid }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        log(decoder, "PathWrapper.single", container.codingPath)
        mid = try container.decode(PathMid.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(mid)
    }
}

private struct PathRoot: Codable {
    var mids: [PathMid]
    var wrapped: PathWrapper
    var optionalMids: [PathMid?]
    var byName: [String: PathLeaf]
    var byNumber: [Int: PathLeaf]
    var set: Set<PathLeaf>
    var grid: [[PathLeaf]]
    /// Through `nestedContainer(keyedBy:forKey: .box)`, under key `inner`.
    var boxed: PathLeaf
    /// Through `nestedUnkeyedContainer(forKey: .list)`: by `decode`, by `nestedContainer`,
    /// by `superDecoder()`, and inside a `nestedUnkeyedContainer()`.
    var listed: [PathLeaf]
    /// Through `superDecoder(forKey: .parent)`.
    var parent: PathLeaf
    /// Through `superDecoder()`: its field is in this object.
    var base: PathLeaf

    enum CodingKeys: String, CodingKey { case mids, wrapped, optionalMids, byName, byNumber, set, grid, box, list, parent }
    enum BoxKeys: String, CodingKey { case inner }

    static func sample() -> PathRoot {
        func mid(_ n: Int, maybe: Bool, box: Bool) -> PathMid {
            PathMid(leaf: PathLeaf(n), leaves: [PathLeaf(n + 1), PathLeaf(n + 2)], maybe: maybe ? PathLeaf(n + 3) : nil,
                shape: box ? .box(PathLeaf(n + 4)) : .pair(first: PathLeaf(n + 5), second: n))
        }
        return PathRoot(mids: [mid(10, maybe: false, box: true), mid(20, maybe: true, box: false)],
                    wrapped: PathWrapper(mid: mid(30, maybe: false, box: true)),
                    optionalMids: [nil, mid(40, maybe: true, box: true)],
                    byName: ["k": PathLeaf(50)], byNumber: [7: PathLeaf(51)], set: [PathLeaf(52)],
                    grid: [[PathLeaf(60)], [PathLeaf(61), PathLeaf(62)]], boxed: PathLeaf(70),
                    listed: [PathLeaf(80), PathLeaf(81), PathLeaf(82), PathLeaf(83)], parent: PathLeaf(90), base: PathLeaf(91))
    }

    init(mids: [PathMid], wrapped: PathWrapper, optionalMids: [PathMid?], byName: [String: PathLeaf], byNumber: [Int: PathLeaf], set: Set<PathLeaf>,
         grid: [[PathLeaf]], boxed: PathLeaf, listed: [PathLeaf], parent: PathLeaf, base: PathLeaf) {
        (self.mids, self.wrapped, self.optionalMids, self.byName, self.byNumber, self.set) = (mids, wrapped, optionalMids, byName, byNumber, set)
        (self.grid, self.boxed, self.listed, self.parent, self.base) = (grid, boxed, listed, parent, base)
    }

    init(from decoder: any Decoder) throws {
        log(decoder, "PathRoot", decoder.codingPath)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mids = try container.decode([PathMid].self, forKey: .mids)
        wrapped = try container.decode(PathWrapper.self, forKey: .wrapped)
        optionalMids = try container.decode([PathMid?].self, forKey: .optionalMids)
        byName = try container.decode([String: PathLeaf].self, forKey: .byName)
        byNumber = try container.decode([Int: PathLeaf].self, forKey: .byNumber)
        set = try container.decode(Set<PathLeaf>.self, forKey: .set)
        grid = try container.decode([[PathLeaf]].self, forKey: .grid)

        let box = try container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        log(decoder, "box", box.codingPath)
        boxed = try box.decode(PathLeaf.self, forKey: .inner)

        var list = try container.nestedUnkeyedContainer(forKey: .list)
        log(decoder, "list", list.codingPath)
        let first = try list.decode(PathLeaf.self)
        let keyed = try list.nestedContainer(keyedBy: PathLeaf.CodingKeys.self)
        log(decoder, "list.keyed", keyed.codingPath)
        let second = PathLeaf(value: try keyed.decode(PathValue.self, forKey: .v))
        let superDecoder = try list.superDecoder()
        log(decoder, "list.super", superDecoder.codingPath)
        let third = try PathLeaf(from: superDecoder)
        var inner = try list.nestedUnkeyedContainer()
        log(decoder, "list.unkeyed", inner.codingPath)
        listed = [first, second, third, try inner.decode(PathLeaf.self)]
        log(decoder, "list.after", list.codingPath)

        let parentDecoder = try container.superDecoder(forKey: .parent)
        log(decoder, "parent", parentDecoder.codingPath)
        parent = try PathLeaf(from: parentDecoder)
        let baseDecoder = try container.superDecoder()
        log(decoder, "super", baseDecoder.codingPath)
        base = try PathLeaf(from: baseDecoder)
        log(decoder, "PathRoot.end", decoder.codingPath)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mids, forKey: .mids)
        try container.encode(wrapped, forKey: .wrapped)
        try container.encode(optionalMids, forKey: .optionalMids)
        try container.encode(byName, forKey: .byName)
        try container.encode(byNumber, forKey: .byNumber)
        try container.encode(set, forKey: .set)
        try container.encode(grid, forKey: .grid)
        var box = container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        try box.encode(boxed, forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(listed[0])
        var keyed = list.nestedContainer(keyedBy: PathLeaf.CodingKeys.self)
        try keyed.encode(listed[1].v, forKey: .v)
        try listed[2].encode(to: list.superEncoder())
        var inner = list.nestedUnkeyedContainer()
        try inner.encode(listed[3])
        try parent.encode(to: container.superEncoder(forKey: .parent))
        try base.encode(to: container.superEncoder())
    }
}

/// The lines a `PathLeaf` at `path` logs.
private func leafLines(_ path: String) -> [String] {
    ["PathLeaf \(path)", "PathLeaf.keyed \(path)", "PathValue \(path)/v"]
}

/// The lines a `PathMid` at `path` logs.
private func midLines(_ path: String, maybe: Bool, box: Bool) -> [String] {
    ["PathMid \(path)"] + leafLines("\(path)/leaf") + leafLines("\(path)/leaves/Index 0#0") + leafLines("\(path)/leaves/Index 1#1")
        + (maybe ? leafLines("\(path)/maybe") : [])
        + (box ? leafLines("\(path)/shape/box/_0") : leafLines("\(path)/shape/pair/first"))
        + ["PathMid.keyed \(path)"]
}

/// What `decode` throws: its kind and the rendered `codingPath`.
private func failure(_ decode: () throws -> Void) -> String {
    do {
        try decode()
        return "no error"
    } catch let error as DecodingError {
        switch error {
        case .typeMismatch(_, let context): return "typeMismatch \(render(context.codingPath))"
        case .valueNotFound(_, let context): return "valueNotFound \(render(context.codingPath))"
        case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) at \(render(context.codingPath))"
        case .dataCorrupted(let context): return "dataCorrupted \(render(context.codingPath))"
        @unknown default: return "unknown"
        }
    } catch {
        return "not a DecodingError: \(error)"
    }
}

/// Keys of every storage: an 8-byte struct, one holding a `String`, and a one-case enum
/// (no bytes at all). The path must hold each key as it was given, type and value.
private struct NumberKey: CodingKey, Equatable {
    let number: Int
    init(_ number: Int) { self.number = number }
    init?(stringValue: String) { guard let number = Int(stringValue.dropFirst()) else { return nil }; self.number = number }
    init?(intValue: Int) { nil }
    var stringValue: String { "n\(number)" }
    var intValue: Int? { nil }
}

private struct TextKey: CodingKey, Equatable {
    let stringValue: String
    init(_ text: String) { stringValue = text }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

private enum OnlyKey: String, CodingKey { case only }

/// Records its own `decoder.codingPath` as the keys themselves.
private final class KeyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [[any CodingKey]] = []
    func add(_ path: [any CodingKey]) { lock.withLock { paths.append(path) } }
    var all: [[any CodingKey]] { lock.withLock { paths } }
}

private let probeKey = CodingUserInfoKey(rawValue: "DecodingPathTests.probe")!

private struct Probed: Codable {
    var n: Int
    init(_ n: Int) { self.n = n }
    init(from decoder: any Decoder) throws {
        (decoder.userInfo[probeKey] as? KeyProbe)?.add(decoder.codingPath)
        n = try decoder.container(keyedBy: OnlyKey.self).decodeIfPresent(Int.self, forKey: .only) ?? 0
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OnlyKey.self)
        try container.encode(n, forKey: .only)
    }
}

/// `Probed` values under a number key, under a text key inside it, and under the one key
/// of a one-case enum inside that.
private struct KeyKinds: Codable {
    init() {}
    init(from decoder: any Decoder) throws {
        let byNumber = try decoder.container(keyedBy: NumberKey.self)
        _ = try byNumber.decode(Probed.self, forKey: NumberKey(7))
        let byText = try byNumber.nestedContainer(keyedBy: TextKey.self, forKey: NumberKey(8))
        _ = try byText.decode(Probed.self, forKey: TextKey("text"))
        let byOnly = try byText.nestedContainer(keyedBy: OnlyKey.self, forKey: TextKey("inner"))
        _ = try byOnly.decode(Probed.self, forKey: .only)
    }
    func encode(to encoder: any Encoder) throws {
        var byNumber = encoder.container(keyedBy: NumberKey.self)
        try byNumber.encode(Probed(1), forKey: NumberKey(7))
        var byText = byNumber.nestedContainer(keyedBy: TextKey.self, forKey: NumberKey(8))
        try byText.encode(Probed(2), forKey: TextKey("text"))
        var byOnly = byText.nestedContainer(keyedBy: OnlyKey.self, forKey: TextKey("inner"))
        try byOnly.encode(Probed(3), forKey: .only)
    }
}

@Suite("Coding paths seen by init(from:) and carried by errors")
struct DecodingPathTests {
    @Test("decoder.codingPath and every container's codingPath, at every depth and through every kind of nesting")
    func pathsSeenByInitFromDecoder() throws {
        let data = try ArchiveEncoder().encode(PathRoot.sample())
        let log = PathLog()
        let decoder = ArchiveDecoder()
        decoder.userInfo[logKey] = log
        _ = try decoder.decode(PathRoot.self, from: data)

        let expected: [String] = ["PathRoot /"]
            + midLines("mids/Index 0#0", maybe: false, box: true)
            + midLines("mids/Index 1#1", maybe: true, box: false)
            + ["PathWrapper.single wrapped"] + midLines("wrapped", maybe: false, box: true)
            + midLines("optionalMids/Index 1#1", maybe: true, box: true)
            + leafLines("byName/k") + leafLines("byNumber/7#7") + leafLines("set/Index 0#0")
            + leafLines("grid/Index 0#0/Index 0#0") + leafLines("grid/Index 1#1/Index 0#0") + leafLines("grid/Index 1#1/Index 1#1")
            + ["box box"] + leafLines("box/inner")
            + ["list list"] + leafLines("list/Index 0#0")
            + ["list.keyed list/Index 1#1", "PathValue list/Index 1#1/v"]
            + ["list.super list/Index 2#2"] + leafLines("list/Index 2#2")
            + ["list.unkeyed list/Index 3#3"] + leafLines("list/Index 3#3/Index 0#0")
            + ["list.after list"]
            + ["parent parent"] + leafLines("parent")
            + ["super super"] + leafLines("super")
            + ["PathRoot.end /"]
        let lines = log.all
        #expect(lines.count == expected.count)
        for (index, (line, wanted)) in zip(lines, expected).enumerated() {
            #expect(line == wanted, "line \(index)")
        }
        // A container kept after its init(from:) returned still names where it was.
        let keptPaths = log.kept.map { "PathLeaf.keyed \(render($0.codingPath))" }
        #expect(keptPaths == lines.filter { $0.hasPrefix("PathLeaf.keyed ") })
    }

    @Test("Errors deep inside arrays, optionals, dictionaries, sets, enums and nested or super containers carry the full path",
          arguments: [
              ("mids[1].leaves[1]", "typeMismatch mids/Index 1#1/leaves/Index 1#1/v"),
              ("mids[0].shape", "typeMismatch mids/Index 0#0/shape/box/_0/v"),
              ("mids[1].shape", "typeMismatch mids/Index 1#1/shape/pair/first/v"),
              ("wrapped.leaf", "typeMismatch wrapped/leaf/v"),
              ("optionalMids[1].maybe", "typeMismatch optionalMids/Index 1#1/maybe/v"),
              ("byName", "typeMismatch byName/k/v"),
              ("byNumber", "typeMismatch byNumber/7#7/v"),
              ("set", "typeMismatch set/Index 0#0/v"),
              ("grid[1][1]", "typeMismatch grid/Index 1#1/Index 1#1/v"),
              ("boxed", "typeMismatch box/inner/v"),
              ("listed[0]", "typeMismatch list/Index 0#0/v"),
              ("listed[1]", "typeMismatch list/Index 1#1/v"),
              ("listed[2]", "typeMismatch list/Index 2#2/v"),
              ("listed[3]", "typeMismatch list/Index 3#3/Index 0#0/v"),
              ("parent", "typeMismatch parent/v"),
              ("base", "typeMismatch super/v"),
              ("omitted mids[1].leaves[0]", "keyNotFound v at mids/Index 1#1/leaves/Index 0#0"),
              ("omitted optionalMids[1].leaf", "keyNotFound v at optionalMids/Index 1#1/leaf"),
          ])
    func errorPaths(place: String, wanted: String) throws {
        var root = PathRoot.sample()
        let bad = PathValue.text("x")
        switch place {
        case "mids[1].leaves[1]": root.mids[1].leaves[1].v = bad
        case "mids[0].shape": root.mids[0].shape = .box(PathLeaf(value: bad))
        case "mids[1].shape": root.mids[1].shape = .pair(first: PathLeaf(value: bad), second: 1)
        case "wrapped.leaf": root.wrapped.mid.leaf.v = bad
        case "optionalMids[1].maybe": root.optionalMids[1]?.maybe = PathLeaf(value: bad)
        case "byName": root.byName["k"] = PathLeaf(value: bad)
        case "byNumber": root.byNumber[7] = PathLeaf(value: bad)
        case "set": root.set = [PathLeaf(value: bad)]
        case "grid[1][1]": root.grid[1][1].v = bad
        case "boxed": root.boxed.v = bad
        case "listed[0]": root.listed[0].v = bad
        case "listed[1]": root.listed[1].v = bad
        case "listed[2]": root.listed[2].v = bad
        case "listed[3]": root.listed[3].v = bad
        case "parent": root.parent.v = bad
        case "base": root.base.v = bad
        case "omitted mids[1].leaves[0]": root.mids[1].leaves[0].omitted = true
        case "omitted optionalMids[1].leaf": root.optionalMids[1]?.leaf.omitted = true
        default: Issue.record("unknown place \(place)")
        }
        let data = try ArchiveEncoder().encode(root)
        #expect(failure { _ = try ArchiveDecoder().decode(PathRoot.self, from: data) } == wanted)
    }

    @Test("The message names the same path, dotted, as the error's codingPath")
    func messageMatchesCodingPath() throws {
        var root = PathRoot.sample()
        root.mids[1].leaves[1].v = .text("x")
        let data = try ArchiveEncoder().encode(root)
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(PathRoot.self, from: data) }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("not a typeMismatch: \(String(describing: error))"); return }
        #expect(context.debugDescription.contains("path 'mids[1].leaves[1].v'"), "\(context.debugDescription)")
    }

    @Test("A nil where an array of structs wants a value: valueNotFound at the element")
    func nilElement() throws {
        struct Loose: Encodable { var rows: [[PathLeaf?]] }
        struct Strict: Decodable { var rows: [[PathLeaf]] }
        let data = try ArchiveEncoder().encode(Loose(rows: [[PathLeaf(1)], [PathLeaf(2), nil]]))
        #expect(failure { _ = try ArchiveDecoder().decode(Strict.self, from: data) } == "valueNotFound rows/Index 1#1/Index 1#1")
    }

    @Test("The path holds each key as given, whatever its storage: the key's own type and value")
    func keyKinds() throws {
        let data = try ArchiveEncoder().encode(KeyKinds())
        let probe = KeyProbe()
        let decoder = ArchiveDecoder()
        decoder.userInfo[probeKey] = probe
        _ = try decoder.decode(KeyKinds.self, from: data)
        let paths = probe.all
        try #require(paths.count == 3)
        #expect(paths[0].count == 1 && paths[0][0] as? NumberKey == NumberKey(7))
        #expect(paths[1].count == 2 && paths[1][0] as? NumberKey == NumberKey(8) && paths[1][1] as? TextKey == TextKey("text"))
        #expect(paths[2].count == 3 && paths[2][0] as? NumberKey == NumberKey(8) && paths[2][1] as? TextKey == TextKey("inner")
                && paths[2][2] as? OnlyKey == .only)
    }
}
