import Foundation
import Testing
@testable import KeyedArchive

// The encode speed work of issue 30 (round 4): a plain value type's class entry is kept
// with the type once its first object has made it, instead of being looked up per object.
// Every object must still name its own type's class, whatever order the types come in.

private struct Leaf: Codable, Equatable {
    var name: String
    var size: Int
}

private struct Branch: Codable, Equatable {
    var label: String
    var leaf: Leaf?
    var children: [Branch]
}

/// Encodes a leaf as itself: its object is of this type's class, not `Leaf`'s.
private struct Delegating: Encodable {
    var leaf: Leaf
    func encode(to encoder: any Encoder) throws { try leaf.encode(to: encoder) }
}

/// Leaves next to values that encode a leaf as themselves.
private struct Mixed: Encodable {
    var first: Leaf
    var delegating: [Delegating]
    var branches: [Branch]
}

@Suite("Kept class entries (issue 30)")
struct EncoderClassEntryTests {
    private static func tree(depth: Int, seed: Int) -> Branch {
        Branch(label: "b\(depth)-\(seed)", leaf: seed % 2 == 0 ? Leaf(name: "leaf \(seed)", size: seed) : nil,
               children: depth == 0 ? [] : (0..<2).map { tree(depth: depth - 1, seed: seed * 2 + $0) })
    }

    private static func count(_ branch: Branch) -> (branches: Int, leaves: Int) {
        branch.children.map(count).reduce((1, branch.leaf == nil ? 0 : 1)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }

    /// Recursive types, a renamed type, and values that encode another type's fields as
    /// their own: every object names its type's class (read back through the archive
    /// view), in binary and XML, the same bytes every time, and the values decode back.
    @Test func everyObjectNamesItsOwnClass() throws {
        let values = [Self.tree(depth: 3, seed: 1), Self.tree(depth: 0, seed: 2), Self.tree(depth: 2, seed: 4)]
        let expected = values.map(Self.count).reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        for format in [ArchiveEncoder.OutputFormat.binary, .xml] {
            for renamed in [false, true] {
                let encoder = ArchiveEncoder()
                encoder.outputFormat = format
                if renamed { encoder.setClassName("RenamedLeaf", for: Leaf.self) }
                let leafName = renamed ? "RenamedLeaf" : ArchiveClassNaming.classNames(for: Leaf.self).name
                let branchName = ArchiveClassNaming.classNames(for: Branch.self).name
                let archive = try encoder.encode(values)
                let objects = try KeyedArchiveView(data: archive).objects
                let leaves = objects.filter { $0["size"] != nil }
                let branches = objects.filter { $0["children"] != nil }
                #expect(leaves.count == expected.1 && leaves.allSatisfy { $0.className == leafName }, "\(format), renamed: \(renamed)")
                #expect(branches.count == expected.0 && branches.allSatisfy { $0.className == branchName }, "\(format), renamed: \(renamed)")

                let mixed = Mixed(first: Leaf(name: "a", size: 1), delegating: (0..<3).map { Delegating(leaf: Leaf(name: "d\($0)", size: $0)) },
                                  branches: values)
                let mixedObjects = try KeyedArchiveView(data: try encoder.encode(mixed)).objects.filter { $0["size"] != nil }
                let delegatingName = ArchiveClassNaming.classNames(for: Delegating.self).name
                #expect(mixedObjects.filter { $0.className == delegatingName }.count == 3)
                #expect(mixedObjects.filter { $0.className == leafName }.count == expected.1 + 1)
                #expect(try encoder.encode(values) == archive)
                #expect(try ArchiveDecoder().decode([Branch].self, from: archive) == values)
            }
        }
    }

    /// `update` replaces a stored reference (one kept aside included) and adds nothing.
    @Test func scalarRefTableUpdate() {
        var table = ScalarRefTable()
        for key in 0..<100 { table.insert(UInt64(key) << 20, key) }
        table.update(5 << 20, 7)
        table.update(6 << 20, Int(UInt32.max) + 3)  // kept aside
        table.update(6 << 20, 9)                     // and back
        table.update(7 << 20, Int(UInt32.max) + 4)
        table.update(1 << 50, 1)                     // not stored: nothing changes
        #expect(table.ref(for: 5 << 20) == 7)
        #expect(table.ref(for: 6 << 20) == 9)
        #expect(table.ref(for: 7 << 20) == Int(UInt32.max) + 4)
        #expect(table.ref(for: 1 << 50) == nil)
        #expect(table.count == 100)
        #expect((8..<100).allSatisfy { table.ref(for: UInt64($0) << 20) == $0 })
    }
}
