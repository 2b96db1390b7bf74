import Foundation
import Testing
import KeyedArchive

// The two-phase class of README.md's "Parent pointers, delegates and other cycles", as
// written there (named ReadmeNode here, beside the tests' own Node): it must compile, round-trip a tree with parent pointers, and keep identity.

private final class ReadmeNode: ArchiveReferenceCodable {
    var name = ""
    var children: [ReadmeNode] = []
    weak var parent: ReadmeNode?
    init() {}
    enum CodingKeys: String, CodingKey { case name, children, parent }
    static var archiveBackEdges: [any CodingKey] { [CodingKeys.parent] }
    func decodeFields(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        children = try container.decode([ReadmeNode].self, forKey: .children)
        parent = try container.decodeIfPresent(ReadmeNode.self, forKey: .parent)
    }
}

@Suite("README's cycle example")
struct ReadmeCycleExampleTests {
    @Test("A tree with weak parent pointers round-trips with identity")
    func roundTrip() throws {
        let root = ReadmeNode()
        root.name = "root"
        for name in ["a", "b"] {
            let child = ReadmeNode()
            child.name = name
            child.parent = root
            root.children.append(child)
        }
        let data = try ArchiveEncoder().encode(root)
        let back = try ArchiveDecoder().decode(ReadmeNode.self, from: data)
        #expect(back.name == "root")
        #expect(back.children.map(\.name) == ["a", "b"])
        #expect(back.children.allSatisfy { $0.parent === back })
    }
}
