import Foundation
import Testing
@testable import KeyedArchive

// Cyclic graphs between Foundation's archiver and ArchiveReferenceDecodable classes, both ways.
//
// swift-corelibs-foundation's NSKeyedUnarchiver records an object only after its
// init(coder:) returns, so an init(coder:) that follows a back edge on Linux recurses
// until the stack overflows (tried in a scratch program: signal 11). The NSCoding mirrors
// that read our files therefore restore the back edge from the parent's side and check
// that the key is there; that it names the parent's UID is checked on the raw archive,
// and the whole graph is compared with the one Foundation's archiver writes.

// MARK: - The shape `keyedarchive swift` is to generate for a class on a cycle

/// What the generator should emit for CodegenPerson, whose `friend`s form a cycle.
final class GeneratedCyclicPerson: ArchiveReferenceCodable {
    var name: String = ""
    var age: Int = 0
    var nickname: String?
    var friend: GeneratedCyclicPerson?

    init() {}

    enum CodingKeys: String, CodingKey {
        case name, age, nickname, friend
    }

    /// Strong: the cycle is broken by hand.
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.friend] }

    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        age = try container.decode(Int.self, forKey: .age)
        nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
        friend = try container.decodeIfPresent(GeneratedCyclicPerson.self, forKey: .friend)
    }
}

// MARK: - NSCoding side

final class CycleFoundationNode: NSObject, NSCoding {
    var name = ""
    var children: [CycleFoundationNode] = []
    weak var parent: CycleFoundationNode?

    init(_ name: String, children: [CycleFoundationNode] = []) {
        self.name = name
        self.children = children
        super.init()
        for child in children { child.parent = self }
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(children, forKey: "children")
        coder.encode(parent, forKey: "parent")
    }

    required init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? ""
        children = coder.decodeObject(forKey: "children") as? [CycleFoundationNode] ?? []
        super.init()
        for child in children { child.parent = self }
    }
}

final class CycleFoundationPeer: NSObject, NSCoding {
    var name: String
    var delegate: CycleFoundationPeer?
    init(_ name: String) { self.name = name }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(delegate, forKey: "delegate")
    }
    required init?(coder: NSCoder) { nil }  // never read: see the note at the top
}

private func foundationArchive(_ object: Any, format: PropertyListFormat, names: [String: AnyClass]) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = format.foundationFormat
    for (name, cls): (String, AnyClass) in names { archiver.setClassName(name, for: cls) }
    archiver.encode(object, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
}

/// The graph an archive holds, from its root, as lines `#n.key = value`: objects are
/// numbered in the order a depth-first walk (keys sorted) meets them, so two writers'
/// object orders do not matter; arrays are values (Foundation shares equal empty arrays,
/// we do not), and class names are left out (the two writers name the classes differently).
private func graphShape(_ data: Data) throws -> [String] {
    let raw = try RawArchive(data)
    var numbers: [UInt64: Int] = [:]
    var lines: [String] = []
    func value(_ item: PropertyListValue) -> String {
        guard case .uid(let uid) = item, Int(uid) < raw.objects.count else { return "\(item)" }
        let object = raw.objects[Int(uid)]
        if case .string(let text) = object { return text }
        if case .array(let items)? = object["NS.objects"] { return "[" + items.map(value).joined(separator: ", ") + "]" }
        guard uid != 0, case .dictionary(let fields) = object else { return "\(object)" }
        if let known = numbers[uid] { return "#\(known)" }
        let number = numbers.count
        numbers[uid] = number
        for field in fields.sorted(by: { $0.key < $1.key }) where field.key != "$class" {
            lines.append("#\(number).\(field.key) = \(value(field.value))")
        }
        return "#\(number)"
    }
    guard let root = raw.top.first(where: { $0.key == "root" })?.value else { return [] }
    _ = value(root)
    return lines
}

@Suite("Cyclic graphs with Foundation's archiver, both ways")
struct CyclesWithFoundationTests {
    @Test("ArchiveDecoder reads Foundation's parent/child tree and mutual delegates with identity, and refuses a node that lists itself (its children are no back edge)",
          arguments: PropertyListFormat.allCases)
    func weReadFoundation(format: PropertyListFormat) throws {
        let root = CycleFoundationNode("root", children: [CycleFoundationNode("a", children: [CycleFoundationNode("a1")]), CycleFoundationNode("b")])
        let tree = try ArchiveDecoder().decode(CycleNode.self, from: foundationArchive(root, format: format, names: [:]))
        #expect(tree.children.map(\.name) == ["a", "b"])
        #expect(tree.children.allSatisfy { $0.parent === tree })
        #expect(tree.children[0].children[0].parent === tree.children[0])

        let a = CycleFoundationPeer("a"), b = CycleFoundationPeer("b")
        a.delegate = b
        b.delegate = a
        defer { a.delegate = nil }
        let peer = try ArchiveDecoder().decode(CyclePeer.self, from: foundationArchive(a, format: format, names: [:]))
        defer { peer.delegate = nil }
        #expect(peer.delegate?.name == "b")
        #expect(peer.delegate?.delegate === peer)

        let me = CycleFoundationNode("me")
        me.children = [me]
        defer { me.children = [] }
        let refused = #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(CycleNode.self, from: foundationArchive(me, format: format, names: [:]))
        }
        #expect(refused?.archiveError?.key == "children")
    }

    @Test("Foundation's NSKeyedUnarchiver reads our parent/child tree; both writers give the same graph",
          arguments: PropertyListFormat.allCases)
    func foundationReadsUs(format: PropertyListFormat) throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let ours = try encoder.encode(CycleNode("root", children: [CycleNode("a", children: [CycleNode("a1")]), CycleNode("b")]))
        let read = try #require(try foundationUnarchive(ours, classes: ["Node": CycleFoundationNode.self]) as? CycleFoundationNode)
        #expect(read.name == "root")
        #expect(read.children.map(\.name) == ["a", "b"])
        #expect(read.children.allSatisfy { $0.parent === read })
        #expect(read.children[0].children.map(\.name) == ["a1"])

        let theirs = foundationArchive(
            CycleFoundationNode("root", children: [CycleFoundationNode("a", children: [CycleFoundationNode("a1")]), CycleFoundationNode("b")]),
            format: format, names: ["Node": CycleFoundationNode.self])
        let shape = try graphShape(ours)
        #expect(shape.contains("#1.parent = #0") && shape.contains("#0.parent = $null"))
        #expect(shape == (try graphShape(theirs)))
    }

    @Test("Mutual delegates and a self-containing node: our archive has Foundation's graph")
    func sameGraphAsFoundation() throws {
        let a = CyclePeer.mutualPair()
        defer { a.delegate = nil }
        let fa = CycleFoundationPeer("a"), fb = CycleFoundationPeer("b")
        fa.delegate = fb
        fb.delegate = fa
        defer { fa.delegate = nil }
        let ours = try graphShape(try ArchiveEncoder().encode(a))
        #expect(ours == (try graphShape(foundationArchive(fa, format: .binary, names: ["Peer": CycleFoundationPeer.self]))))
        #expect(ours.contains("#1.delegate = #0"))

        let me = CycleNode("me")
        me.children = [me]
        defer { me.children = [] }
        let fme = CycleFoundationNode("me")
        fme.children = [fme]
        defer { fme.children = [] }
        let selfShape = try graphShape(try ArchiveEncoder().encode(me))
        #expect(selfShape == (try graphShape(foundationArchive(fme, format: .binary, names: ["Node": CycleFoundationNode.self]))))
        #expect(selfShape.contains("#0.children = [#0]"))
    }

    @Test("Apple's self-containing NSMutableArray (corpus circularReference.plist) decodes into a two-phase class",
          .requiresCorpus)
    func appleSelfContainingArray() throws {
        let list = try ArchiveDecoder().decode(CycleList.self, from: try corpusData("apple/nskeyedunarchiver-rs/circularReference.plist"))
        defer { list.items = [] }
        #expect(list.items.count == 1)
        #expect(list.items.first === list)
        // A value-type array cannot hold itself: the error names the protocol.
        #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode([[String]].self, from: try corpusData("apple/nskeyedunarchiver-rs/circularReference.plist"))
        }
    }

    @Test("The class shape the code generator is to emit decodes Foundation's two-person cycle with identity")
    func generatedShape() throws {
        let ada = try ArchiveDecoder().decode(GeneratedCyclicPerson.self, from: try CodegenFixtures.cycle())
        defer { ada.friend = nil }
        #expect(ada.name == "Ada" && ada.age == 36 && ada.nickname == nil)
        #expect(ada.friend?.name == "Grace")
        #expect(ada.friend?.friend === ada)
        // And writes it back as the same graph.
        let again = try ArchiveDecoder().decode(GeneratedCyclicPerson.self, from: try ArchiveEncoder().encode(ada))
        defer { again.friend = nil }
        #expect(again.friend?.friend === again && again.friend?.age == 85)
    }
}
