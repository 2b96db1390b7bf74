import Foundation
import KeyedArchive
import Testing

/// Issue 10's hostile object graphs, built in memory, through `KeyedArchiveView`
/// (opening and rendering) and the command-line tool (`verify`, `json`, `dump`): each
/// gives an error naming the limit, or output — never a trap, never a hang.
@Suite("View and CLI: hostile object graphs")
struct HostileGraphTests {
    // MARK: A binary property list with explicit object references

    /// Objects written as given, so that containers can share children or contain
    /// themselves (object references are free to point anywhere).
    struct RawPlist {
        enum Node {
            case string(String)
            case integer(Int64)
            case uid(UInt64)
            case array([Int])
            case dictionary([(key: Int, value: Int)])
            /// A dictionary whose count follows its marker (`0xDF`, then an integer) however
            /// small it is: valid, though writers use `0xDn` below 15 entries.
            case dictionaryWithCountAfterMarker([(key: Int, value: Int)])
        }

        var nodes: [Node] = []

        mutating func add(_ node: Node) -> Int {
            nodes.append(node)
            return nodes.count - 1
        }

        /// A slot to fill later with ``set(_:_:)`` (for containers that contain themselves).
        mutating func reserve() -> Int { add(.integer(0)) }

        mutating func set(_ ref: Int, _ node: Node) { nodes[ref] = node }

        /// `bplist00` with 4-byte references and 8-byte offsets.
        func data(top: Int) -> Data {
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            func bigEndian(_ value: UInt64, _ size: Int) {
                for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            }
            func marker(_ high: UInt8, _ count: Int, countAfterMarker: Bool = false) {
                if count < 15, !countAfterMarker {
                    bytes.append(high | UInt8(count))
                } else {
                    bytes.append(high | 0x0F)
                    bytes.append(0x12)
                    bigEndian(UInt64(count), 4)
                }
            }
            for node in nodes {
                offsets.append(bytes.count)
                switch node {
                case .string(let text):
                    marker(0x50, text.utf8.count)
                    bytes += Array(text.utf8)
                case .integer(let value):
                    bytes.append(0x13)
                    bigEndian(UInt64(bitPattern: value), 8)
                case .uid(let value):
                    bytes.append(0x83)
                    bigEndian(value, 4)
                case .array(let refs):
                    marker(0xA0, refs.count)
                    for ref in refs { bigEndian(UInt64(ref), 4) }
                case .dictionary(let entries), .dictionaryWithCountAfterMarker(let entries):
                    if case .dictionaryWithCountAfterMarker = node {
                        marker(0xD0, entries.count, countAfterMarker: true)
                    } else {
                        marker(0xD0, entries.count)
                    }
                    for entry in entries { bigEndian(UInt64(entry.key), 4) }
                    for entry in entries { bigEndian(UInt64(entry.value), 4) }
                }
            }
            let tableStart = bytes.count
            for offset in offsets { bigEndian(UInt64(offset), 8) }
            bytes += [0, 0, 0, 0, 0, 0, 8, 4]
            bigEndian(UInt64(nodes.count), 8)
            bigEndian(UInt64(top), 8)
            bigEndian(UInt64(tableStart), 8)
            return Data(bytes)
        }
    }

    /// A keyed archive over a ``RawPlist``: `$objects` entries are plist references.
    struct RawArchive {
        var plist = RawPlist()
        var objects: [Int] = []
        private var strings: [String: Int] = [:]

        init() { objects.append(string("$null")) }

        mutating func string(_ text: String) -> Int {
            if let known = strings[text] { return known }
            let ref = plist.add(.string(text))
            strings[text] = ref
            return ref
        }

        /// Appends an `$objects` entry; returns its UID.
        mutating func append(_ ref: Int) -> Int {
            objects.append(ref)
            return objects.count - 1
        }

        /// A class entry; returns its UID.
        mutating func classEntry(_ name: String) -> Int {
            let classes = plist.add(.array([string(name), string("NSObject")]))
            return append(plist.add(.dictionary([(string("$classname"), string(name)), (string("$classes"), classes)])))
        }

        /// An object dictionary of class `classUID` with `fields` (plist references).
        mutating func object(_ classUID: Int, _ fields: [(String, Int)]) -> Int {
            plist.add(.dictionary([(string("$class"), plist.add(.uid(UInt64(classUID))))] + fields.map { (string($0.0), $0.1) }))
        }

        /// Adds `$top` and the envelope; returns the references of `$objects` and of the envelope.
        mutating func envelope(root: Int) -> (objects: Int, envelope: Int) {
            let keys = ["root", "$archiver", "$version", "$top", "$objects", "NSKeyedArchiver"].map { string($0) }
            let top = plist.add(.dictionary([(keys[0], plist.add(.uid(UInt64(root))))]))
            let version = plist.add(.integer(100_000))
            let objectList = plist.add(.array(objects))
            let envelope = plist.add(.dictionary([(keys[1], keys[5]), (keys[2], version), (keys[3], top), (keys[4], objectList)]))
            return (objectList, envelope)
        }

        mutating func data(root: Int) -> Data {
            let refs = envelope(root: root)
            return plist.data(top: refs.envelope)
        }
    }

    // MARK: The families

    /// An NSArray whose `NS.objects` is built by `contents` from the archive.
    static func array(_ contents: (inout RawArchive) -> Int) -> Data {
        var archive = RawArchive()
        let objectRef = archive.plist.reserve()
        let root = archive.append(objectRef)
        let arrayClass = archive.classEntry("NSArray")
        let objects = contents(&archive)
        archive.plist.set(objectRef, archive.plist.nodes[archive.object(arrayClass, [("NS.objects", objects)])])
        return archive.data(root: root)
    }

    /// `NS.objects` holds itself.
    static let selfContaining = array { archive in
        let list = archive.plist.reserve()
        archive.plist.set(list, .array([list]))
        return list
    }

    /// `NS.objects` holds the `$objects` array (which holds the object holding it).
    static let holdsObjectTable: Data = {
        var archive = RawArchive()
        let objectRef = archive.plist.reserve()
        let root = archive.append(objectRef)
        let arrayClass = archive.classEntry("NSArray")
        let placeholder = archive.plist.reserve()
        archive.plist.set(objectRef, archive.plist.nodes[archive.object(arrayClass, [("NS.objects", placeholder)])])
        let (objectList, envelope) = archive.envelope(root: root)
        archive.plist.set(placeholder, .array([objectList]))
        return archive.plist.data(top: envelope)
    }()

    /// An object whose field holds the object's own dictionary inline.
    static let holdsOwnDictionary: Data = {
        var archive = RawArchive()
        let objectRef = archive.plist.reserve()
        let root = archive.append(objectRef)
        let nodeClass = archive.classEntry("Node")
        let made = archive.object(nodeClass, [("me", objectRef)])
        archive.plist.set(objectRef, archive.plist.nodes[made])
        return archive.data(root: root)
    }()

    /// `NS.objects = [[[[…]]]]`, `levels` deep, no UIDs.
    static func deepInline(levels: Int, dictionaries: Bool = false) -> Data {
        array { archive in
            let key = archive.string("k")
            var inner = archive.plist.add(.array([]))
            for _ in 0..<levels {
                inner = archive.plist.add(dictionaries ? .dictionary([(key, inner)]) : .array([inner]))
            }
            return archive.plist.add(.array([inner]))
        }
    }

    /// `NS.objects` a plist DAG: each level holds the next twice, `levels` deep.
    static func fanOut(levels: Int) -> Data {
        array { archive in
            var inner = archive.plist.add(.array([]))
            for _ in 0..<levels { inner = archive.plist.add(.array([inner, inner])) }
            return inner
        }
    }

    /// `count` objects, each with a field holding the same plist DAG `levels` deep: each
    /// object alone expands within the budget, all of them together do not.
    static func sharedDAG(objects count: Int, levels: Int) -> Data {
        array { archive in
            let nodeClass = archive.classEntry("Node")
            var dag = archive.plist.add(.array([]))
            for _ in 0..<levels { dag = archive.plist.add(.array([dag, dag])) }
            var uids: [Int] = []
            for _ in 0..<count {
                let uid = archive.append(archive.object(nodeClass, [("d", dag)]))
                uids.append(archive.plist.add(.uid(UInt64(uid))))
            }
            return archive.plist.add(.array(uids))
        }
    }

    /// An object with `keys` keys (UID 4), referenced `references` times from the root array.
    static func manyKeys(_ keys: Int, references: Int) -> Data {
        array { archive in
            let bigClass = archive.classEntry("Big")
            let value = archive.plist.add(.integer(7))
            let big = archive.append(archive.object(bigClass, (0..<keys).map { ("k\($0)", value) }))
            let uid = archive.plist.add(.uid(UInt64(big)))
            return archive.plist.add(.array(Array(repeating: uid, count: references)))
        }
    }

    /// A chain of `length` objects through UIDs: NSArrays each holding the next twice
    /// (2^length places, `length` objects: legitimate heavy sharing), or, with
    /// `fanOut` false, `Node`s whose `next` field holds the next.
    static func uidGraph(_ length: Int, fanOut: Bool) -> Data {
        var archive = RawArchive()
        let classUID = archive.classEntry(fanOut ? "NSArray" : "Node")
        let first = archive.objects.count
        for level in 0..<length {
            let last = level == length - 1
            let next = archive.plist.add(.uid(last ? 0 : UInt64(first + level + 1)))
            let field = fanOut ? ("NS.objects", archive.plist.add(.array(last ? [] : [next, next]))) : ("next", next)
            _ = archive.append(archive.object(classUID, [field]))
        }
        return archive.data(root: first)
    }

    static func uidFanOut(_ length: Int) -> Data { uidGraph(length, fanOut: true) }
    static func uidChain(_ length: Int) -> Data { uidGraph(length, fanOut: false) }

    enum Outcome { case refused(String), shown }

    static let families: [(name: String, data: Data, outcome: Outcome)] = [
        ("NS.objects holds itself", selfContaining, .refused("contains itself")),
        ("NS.objects holds $objects", holdsObjectTable, .refused("contains itself")),
        ("a field holds its own object's dictionary", holdsOwnDictionary, .refused("contains itself")),
        ("20,000 inline arrays", deepInline(levels: 20_000), .refused("Limits.maxDepth")),
        ("20,000 inline dictionaries", deepInline(levels: 20_000, dictionaries: true), .refused("Limits.maxDepth")),
        ("a 2^40 plist DAG", fanOut(levels: 40), .refused("Limits.maxObjectVisits")),
        ("649 objects sharing one plist DAG", sharedDAG(objects: 649, levels: 12), .refused("Limits.maxObjectVisits")),
        ("100,000 keys referenced 1,000 times", manyKeys(100_000, references: 1_000), .shown),
        ("a 2^40 UID DAG", uidFanOut(40), .shown),
        ("a chain of 20,000 objects", uidChain(20_000), .shown),
    ]

    static var familyNames: [String] { families.map(\.name) }

    static func family(_ name: String) throws -> (data: Data, outcome: Outcome) {
        let found = try #require(families.first { $0.name == name })
        return (found.data, found.outcome)
    }

    // MARK: Tests

    @Test("the view opens and renders, or throws naming the limit", arguments: familyNames)
    func view(name: String) throws {
        let (data, outcome) = try Self.family(name)
        switch outcome {
        case .refused(let limit):
            let error = try #require(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: data) }
            #expect(error.message.contains(limit), "\(error)")
        case .shown:
            let view = try KeyedArchiveView(data: data)
            let text = view.render()
            #expect(text.hasPrefix("root: "))
            #expect(!text.contains("stopped"), "the walk ran out of budget")
        }
    }

    @Test("verify, json and dump give an error or output", arguments: familyNames)
    func commands(name: String) throws {
        let (data, outcome) = try Self.family(name)
        let path = try CLI.temporaryFile(data)
        for command in ["verify", "json", "dump"] {
            let result = try CLI.run([command, path], timeout: 120)
            #expect(!result.timedOut, "\(command) hung")
            switch outcome {
            case .refused(let limit):
                #expect(result.status == 1, "\(command): \(result.stderr)")
                #expect(result.stderr.contains(limit), "\(command): \(result.stderr)")
            case .shown:
                #expect(result.status == 0 || (command == "json" && result.status == 1), "\(command): \(result.stderr)")
                if result.status == 1 { #expect(result.stderr.contains("ArchiveDecoder.Limits"), "\(command): \(result.stderr)") }
            }
        }
    }

    @Test("a 2^40 UID DAG is shown with each object once, by render, dump and json")
    func legitimateSharing() throws {
        let data = Self.uidFanOut(40)
        let view = try KeyedArchiveView(data: data)
        let text = view.render()
        #expect(text.components(separatedBy: "(shown above)").count - 1 == 39)
        let path = try CLI.temporaryFile(data)
        let dump = try CLI.run(["dump", path])
        #expect(dump.status == 0 && dump.stdout == text)
        let json = try CLI.run(["json", "--compact", path])
        #expect(json.status == 0)
        #expect(json.stdout.components(separatedBy: "$ref").count - 1 == 39)
    }

    @Test("100,000 keys: each key shown once, the other 999 references by index")
    func manyKeysOnce() throws {
        let path = try CLI.temporaryFile(Self.manyKeys(100_000, references: 1_000))
        let json = try CLI.run(["json", "--compact", path], timeout: 120)
        #expect(json.status == 0)
        #expect(json.stdout.components(separatedBy: #""k99999":7"#).count == 2)
        #expect(json.stdout.components(separatedBy: #"{"$ref":4}"#).count == 1_000)
    }

    @Test("a 20,000-object chain: dump stops opening at its depth, json names maxDepth")
    func deepChain() throws {
        let path = try CLI.temporaryFile(Self.uidChain(20_000))
        let dump = try CLI.run(["dump", path])
        #expect(dump.status == 0)
        #expect(dump.stdout.split(separator: "\n").count == 257)
        #expect(dump.stdout.hasSuffix("next: Node #258 …\n"))
        let json = try CLI.run(["json", path])
        #expect(json.status == 1)
        #expect(json.stderr.contains("nested more than 512 levels deep (ArchiveDecoder.Limits.maxDepth)"))
    }

    @Test("a smaller maxDepth and visit budget apply to opening the view")
    func limits() throws {
        let deep = Self.deepInline(levels: 100)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: deep, limits: .init(maxDepth: 50)) }
        #expect(try KeyedArchiveView(data: deep, limits: .init(maxDepth: 200)).objects.count == 3)
        let dag = Self.fanOut(levels: 10)
        #expect(try KeyedArchiveView(data: dag).objects.count == 3)
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: dag, limits: .init(maxObjectVisits: 1_000)) }
    }
}
