import Foundation
import KeyedArchive

// The contenders (an encoder/decoder pair over one prepared input) and the workloads that
// group them.

/// What a contender is, for the ratio columns.
enum Role: Equatable {
    case ours, json, plist, nskeyed, walk
    /// Extra context rows (no column of their own).
    case other
}

/// One encoder/decoder pair with its input captured.
struct Contender {
    let encoderName: String
    /// Nil for encode-only contenders (the Codable walk).
    let decoderName: String?
    let role: Role
    /// Items in this contender's input (fewer than the workload's for a scaled-down NSKeyedArchiver).
    let items: Int
    let encode: () throws -> Data
    let decode: ((Data) throws -> Any)?
    /// Nil when the decoded value equals the original, else what is wrong. Runs outside the timing.
    let check: (Any) -> String?
}

/// A named set of contenders over the same kind of value.
struct Workload {
    let name: String
    /// What was encoded, and what one item is (times are also reported per item).
    let summary: String
    let items: Int
    let contenders: [Contender]
    var notes: [String] = []
}

/// Nil when `decoded` is a `T` equal to `original` and `extra` finds nothing, else a message.
private func compare<T: Equatable>(_ decoded: Any, _ original: T, _ extra: ((T) -> String?)?) -> String? {
    guard let value = decoded as? T else { return "decoded a \(type(of: decoded)), expected \(T.self)" }
    guard value == original else { return "decoded value differs from the original \(T.self)" }
    return extra?(value)
}

extension Contender {
    /// This contender without its decoder.
    var encodingOnly: Contender {
        Contender(encoderName: encoderName, decoderName: nil, role: role, items: items, encode: encode, decode: nil, check: check)
    }

    static func archive<T: Codable & Equatable>(_ value: T, items: Int, xml: Bool = false, maxDepth: Int? = nil,
                                                extraCheck: ((T) -> String?)? = nil) -> Contender {
        let encoder = ArchiveEncoder()
        if xml { encoder.outputFormat = .xml }
        let decoder = ArchiveDecoder()
        if let maxDepth { decoder.limits.maxDepth = maxDepth }
        return Contender(
            encoderName: xml ? "ArchiveEncoder.xml" : "ArchiveEncoder",
            decoderName: xml ? "ArchiveDecoder.xml" : "ArchiveDecoder", role: .ours, items: items,
            encode: { try encoder.encode(value) },
            decode: { try decoder.decode(T.self, from: $0) },
            check: { compare($0, value, extraCheck) })
    }

    static func json<T: Codable & Equatable>(_ value: T, items: Int) -> Contender {
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        return Contender(
            encoderName: "JSONEncoder", decoderName: "JSONDecoder", role: .json, items: items,
            encode: { try encoder.encode(value) },
            decode: { try decoder.decode(T.self, from: $0) },
            check: { compare($0, value, nil) })
    }

    /// JSONEncoder with `.sortedKeys`, encode only: what deterministic key order costs JSON.
    static func sortedJSON<T: Encodable>(_ value: T, items: Int) -> Contender {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Contender(
            encoderName: "JSONEncoder.sorted", decoderName: nil, role: .other, items: items,
            encode: { try encoder.encode(value) }, decode: nil, check: { _ in nil })
    }

    static func plist<T: Codable & Equatable>(_ value: T, items: Int) -> Contender {
        let encoder = PropertyListEncoder(), decoder = PropertyListDecoder()
        encoder.outputFormat = .binary
        return Contender(
            encoderName: "PropertyListEncoder", decoderName: "PropertyListDecoder", role: .plist, items: items,
            encode: { try encoder.encode(value) },
            decode: { try decoder.decode(T.self, from: $0) },
            check: { compare($0, value, nil) })
    }

    /// Foundation's archiver over an NSCoding twin; `convert` maps the unarchived root back to `T`.
    static func foundation<T: Equatable>(_ root: NSObject, original: T, items: Int,
                                         convert: @escaping (Any?) -> T?, extraCheck: ((T) -> String?)? = nil) -> Contender {
        Contender(
            encoderName: "NSKeyedArchiver", decoderName: "NSKeyedUnarchiver", role: .nskeyed, items: items,
            encode: { try FoundationArchiver.archive(root) },
            decode: { try FoundationArchiver.unarchive($0) as Any },
            check: { decoded in
                guard let value = convert(decoded as Any?) else { return "unarchived \(type(of: decoded)), not the expected root" }
                return compare(value, original, extraCheck)
            })
    }

    static func walk<T: Encodable>(_ value: T, items: Int) -> Contender {
        let walker = WalkEncoder()
        return Contender(
            encoderName: "CodableWalk", decoderName: nil, role: .walk, items: items,
            encode: { blackHole(try walker.walk(value)); return Data() },
            decode: nil, check: { _ in nil })
    }
}

// MARK: - Workloads

enum WorkloadName: String, CaseIterable {
    case flat, order, deep, strings, doubles, ints, graph, dicts
}

struct WorkloadSizes {
    var records = 10_000
    var nskeyedRecords = 10_000
}

/// Whether this build's ArchiveEncoder writes XML (a stub writer returns no bytes).
private func archiveWritesXML() -> Bool {
    let encoder = ArchiveEncoder()
    encoder.outputFormat = .xml
    return ((try? encoder.encode([1])) ?? Data()).isEmpty == false
}

/// The usual contenders for a Codable value: ours (binary, and XML when this build writes
/// it), JSON, property list, and the walk.
private func codableContenders<T: Codable & Equatable>(_ value: T, items: Int, maxDepth: Int? = nil) -> [Contender] {
    let xml: [Contender] = archiveWritesXML() ? [.archive(value, items: items, xml: true, maxDepth: maxDepth)] : []
    return [.archive(value, items: items, maxDepth: maxDepth)] + xml + [.json(value, items: items), .plist(value, items: items), .walk(value, items: items)]
}

func makeWorkload(_ name: WorkloadName, sizes: WorkloadSizes) -> Workload {
    switch name {
    case .flat:
        return makeFlatWorkload(records: sizes.records, nskeyedRecords: sizes.nskeyedRecords, withXML: true)
    case .order:
        let orders = makeOrders(sizes.records)
        let items = orders.count
        var contenders = codableContenders(orders, items: items)
        if sizes.nskeyedRecords > 0 {
            // Linux Foundation's archiver takes time quadratic in the orders it is given
            // (300: 0.5 s, 1,000: 5.7 s), so it gets at most 500 and the ratio compares time per order.
            let subset = Array(orders.prefix(min(sizes.nskeyedRecords, items, 500)))
            contenders.insert(.foundation(NSArray(array: subset.map(NSOrder.init)), original: subset, items: subset.count,
                                          convert: { ($0 as? [NSOrder])?.map(\.order) }),
                              at: contenders.firstIndex { $0.role == .plist }.map { $0 + 1 } ?? contenders.count)
        }
        let notes = sizes.nskeyedRecords > 0
            ? ["NSKeyedArchiver/NSKeyedUnarchiver get at most 500 orders: Linux Foundation's archiver is quadratic in them."] : []
        return Workload(name: "order", summary: "\(items.grouped) orders (UUID, String enum, dates, nested address, 3 line items, optionals half nil); item = order",
                        items: items, contenders: contenders, notes: notes)
    case .deep:
        let chains = makeChains(count: 100, depth: 300)
        // Each level is two nested values (the struct and its Indirect box): 600 > the default 512.
        return Workload(name: "deep", summary: "100 chains of nested structs, 300 levels deep; item = level",
                        items: 30_000, contenders: codableContenders(chains, items: 30_000, maxDepth: 1_024),
                        notes: ["ArchiveDecoder runs with limits.maxDepth = 1,024 here: each level is two nested values (600 in all), above the default 512."])
    case .strings:
        let paragraphs = makeParagraphs(count: 2_000, wordsEach: 100)
        return Workload(name: "strings", summary: "2,000 paragraphs x 100 words (3/4 from a 400-word vocabulary, 1/4 unique, some non-ASCII); item = word",
                        items: 200_000, contenders: codableContenders(paragraphs, items: 200_000))
    case .doubles:
        let doubles = makeDoubles(1_000_000)
        return Workload(name: "doubles", summary: "[Double], 1,000,000 distinct values; item = element",
                        items: doubles.count, contenders: codableContenders(doubles, items: doubles.count))
    case .ints:
        let ints = makeInts(1_000_000)
        return Workload(name: "ints", summary: "[Int], 1,000,000 values of mixed magnitude; item = element",
                        items: ints.count, contenders: codableContenders(ints, items: ints.count))
    case .graph:
        let graph = makeGraph(nodes: 1_000, edges: 20_000)
        let items = graph.edges.count
        var contenders = codableContenders(graph, items: items)
        contenders[0] = .archive(graph, items: items, extraCheck: { $0.identityProblem() })
        if contenders[1].encoderName == "ArchiveEncoder.xml" {
            contenders[1] = .archive(graph, items: items, xml: true, extraCheck: { $0.identityProblem() })
        }
        contenders.insert(.foundation(NSGraph(graph), original: graph, items: items,
                                      convert: { ($0 as? NSGraph)?.value }, extraCheck: { $0.identityProblem() }),
                          at: contenders.firstIndex { $0.role == .plist }.map { $0 + 1 } ?? contenders.count)
        return Workload(name: "graph", summary: "1,000 shared final-class nodes, 20,000 edges referencing them; item = edge",
                        items: items, contenders: contenders,
                        notes: ["JSON and property lists copy a shared node at every reference (no identity); the walk visits it every time."])
    case .dicts:
        let dicts = makeDictionaries(entries: 50_000, outer: 500, inner: 20)
        var contenders = codableContenders(dicts, items: 60_000)
        contenders.insert(.sortedJSON(dicts, items: 60_000), at: 3)
        return Workload(name: "dicts", summary: "[String: Int] of 50,000 entries + [String: [String: Int]] of 500 x 20; item = entry",
                        items: 60_000, contenders: contenders,
                        notes: ["ArchiveEncoder sorts dictionary keys (deterministic output); JSONEncoder and PropertyListEncoder do not",
                                "(JSONEncoder.sorted = JSONEncoder with .sortedKeys, encode only, for comparison)."])
    }
}

/// Flat person records. `withXML` adds ArchiveEncoder(.xml) when this build writes XML;
/// `nskeyedRecords` 0 leaves Foundation's archiver out.
func makeFlatWorkload(records: Int, nskeyedRecords: Int, withXML: Bool, walk: Bool = true) -> Workload {
    let people = makePeople(records)
    var contenders: [Contender] = [.archive(people, items: records)]
    var notes: [String] = []
    if withXML {
        if archiveWritesXML() {
            contenders.append(.archive(people, items: records, xml: true))
        } else {
            notes.append("ArchiveEncoder(.xml) left out: this build's XML writer produced no bytes (stub).")
        }
    }
    contenders += [.json(people, items: records), .plist(people, items: records)]
    if nskeyedRecords > 0 {
        let count = min(nskeyedRecords, records)
        let subset = Array(people.prefix(count))
        contenders.append(.foundation(NSArray(array: subset.map(NSPerson.init)), original: subset, items: count,
                                      convert: { ($0 as? [NSPerson])?.map(\.value) }))
    }
    if walk { contenders.append(.walk(people, items: records)) }
    return Workload(name: "flat", summary: "\(records.grouped) person records (name, age, weight, birth date, 2 tags, optional dog, flag); item = record",
                    items: records, contenders: contenders, notes: notes)
}
