import Foundation
import Testing
@testable import KeyedArchive

// Broken keyed archives built by hand, each breaking one rule, each a thrown error that
// says what is wrong: never a trap, a hang or unbounded memory.

// uid, dict, classEntry and archive(_:top:) are in Support/HandBuiltArchive.swift.

private struct Named: Codable { var name: String }
private final class Chain: Decodable { var next: Chain? }
private struct Tree: Decodable { var children: [Tree] }

/// Whether decoding `T` throws a DecodingError whose description contains `text`.
private func decodingFails<T: Decodable>(_ type: T.Type, _ data: Data, mentioning text: String, limits: ArchiveDecoder.Limits = .init()) -> Bool {
    let decoder = ArchiveDecoder()
    decoder.limits = limits
    do {
        _ = try decoder.decode(type, from: data)
        return false
    } catch let error as DecodingError {
        return "\(error)".contains(text)
    } catch {
        return false
    }
}

@Suite("Hand-built hostile archives")
struct HandBuiltHostileTests {
    @Test("A UID out of range in a field is an error naming the object")
    func uidOutOfRange() {
        let data = archive([dict(["$class": uid(2), "name": uid(99)]), classEntry("Named")])
        #expect(decodingFails(Named.self, data, mentioning: "out of range"))
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: data) }
    }

    @Test("$class pointing at a string, and a missing $class, are errors for typed and untyped reads")
    func classNotAClassEntry() {
        let pointsAtString = archive([dict(["$class": uid(2), "name": uid(2)]), .string("not a class")])
        #expect(decodingFails(Named.self, pointsAtString, mentioning: "not a class entry"))
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: pointsAtString) }
        let noClass = archive([dict(["name": uid(2)]), .string("x")])
        #expect(decodingFails(Named.self, noClass, mentioning: "no $class"))
    }

    @Test("A class entry without $classname is an error")
    func classEntryWithoutName() {
        let data = archive([dict(["$class": uid(2), "name": uid(3)]), dict(["$classes": .array([.string("X")])]), .string("n")])
        #expect(decodingFails(Named.self, data, mentioning: "$classname"))
        #expect(throws: KeyedArchiveError.self) { try KeyedArchiveView(data: data) }
    }

    @Test("NS.keys and NS.objects of different lengths are an error")
    func mismatchedDictionary() {
        let data = archive([dict(["$class": uid(2), "NS.keys": .array([uid(3), uid(3)]), "NS.objects": .array([uid(4)])]),
                            classEntry("NSDictionary"), .string("k"), .integer(1)])
        #expect(decodingFails([String: Int].self, data, mentioning: "2 keys but 1 objects"))
    }

    @Test("A field of the wrong type is a typeMismatch with its coding path")
    func wrongFieldType() throws {
        let data = archive([dict(["$class": uid(2), "name": .integer(5)]), classEntry("Named")])
        do {
            _ = try ArchiveDecoder().decode(Named.self, from: data)
            Issue.record("should throw")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["name"])
            #expect(context.debugDescription.contains("integer 5"))
        }
    }

    @Test("Cycles (self, mutual, long) throw for typed decoding; the view shows them", arguments: [1, 2, 50])
    func cycles(length: Int) throws {
        // Objects 1…length form a ring through their `next` fields.
        var objects: [PropertyListValue] = []
        for index in 1...length {
            objects.append(dict(["$class": uid(UInt64(length + 1)), "next": uid(UInt64(index % length + 1))]))
        }
        objects.append(classEntry("Chain"))
        let data = archive(objects)
        #expect(decodingFails(Chain.self, data, mentioning: "cycle"))
        #expect(try KeyedArchiveView(data: data).render().contains("(cycle)"))
    }

    @Test("A UID chain 10,000 deep stops at the depth limit, which is configurable")
    func deepChain() throws {
        func chain(_ depth: Int) -> Data {
            var objects: [PropertyListValue] = []
            for index in 1...depth {
                objects.append(dict(["$class": uid(UInt64(depth + 1)), "next": index == depth ? uid(0) : uid(UInt64(index + 1))]))
            }
            objects.append(classEntry("Chain"))
            return archive(objects)
        }
        #expect(decodingFails(Chain.self, chain(10_000), mentioning: "deeper than the decoder's limit of 512"))
        #expect(decodingFails(Chain.self, chain(40), mentioning: "limit of 20", limits: .init(maxDepth: 20)))
        let decoder = ArchiveDecoder()
        decoder.limits.maxDepth = 60
        #expect(throws: Never.self) { try decoder.decode(Chain.self, from: chain(40)) }
    }

    @Test("Shared objects that fan out exponentially hit the work limit instead of expanding")
    func exponentialFanOut() {
        // Tree i's children are an NSArray holding tree i+1 twice: 2^60 paths through 120 objects.
        let levels = 60
        var objects: [PropertyListValue] = []
        let treeClass = UInt64(2 * levels + 1), arrayClass = UInt64(2 * levels + 2)
        for index in 0..<levels {
            let tree = UInt64(1 + 2 * index), array = tree + 1, next = tree + 2
            objects.append(dict(["$class": uid(treeClass), "children": uid(array)]))
            objects.append(dict(["$class": uid(arrayClass),
                                 "NS.objects": .array(index == levels - 1 ? [] : [uid(next), uid(next)])]))
        }
        objects.append(classEntry("Tree"))
        objects.append(classEntry("NSArray"))
        let data = archive(objects)
        #expect(decodingFails(Tree.self, data, mentioning: "more work than the decoder's limit"))
        #expect(decodingFails(Tree.self, data, mentioning: "limit", limits: .init(maxObjectVisits: 1_000)))
    }

    @Test("A large array shared from many places hits the value limit; a large shared string is one copy")
    func sharedAmplification() throws {
        // The root NSArray references one NSArray of 1,000 numbers 100,000 times: decoding
        // [[Int]] naively would build 100 million integers from a ~300 KB file.
        let inner = dict(["$class": uid(4), "NS.objects": .array(Array(repeating: uid(3), count: 1_000))])
        let outer = dict(["$class": uid(4), "NS.objects": .array(Array(repeating: uid(2), count: 100_000))])
        let arrays = archive([outer, inner, .integer(7), classEntry("NSArray")])
        #expect(decodingFails([[Int]].self, arrays, mentioning: "more work than the decoder's limit"))

        // The same shape with a 100 KB string: decodes, and every element shares one copy.
        let text = String(repeating: "x", count: 100_000)
        let strings = archive([dict(["$class": uid(3), "NS.objects": .array(Array(repeating: uid(2), count: 10_000))]),
                               .string(text), classEntry("NSArray")])
        let decoded = try ArchiveDecoder().decode([String].self, from: strings)
        #expect(decoded.count == 10_000)
        #expect(decoded.allSatisfy { $0.utf8.count == 100_000 })
        let storage = decoded.map { $0.utf8.withContiguousStorageIfAvailable { $0.baseAddress } }
        #expect(Set(storage.map { $0.map { UInt(bitPattern: $0) } ?? 0 }).count == 1, "one shared buffer")
    }

    @Test("A broken envelope names what is wrong", arguments: [
        ("$archiver", dict(["$archiver": .string("NSArchiver"), "$version": .integer(100_000), "$top": dict([:]), "$objects": .array([.string("$null")])])),
        ("$version", dict(["$archiver": .string("NSKeyedArchiver"), "$version": .integer(7), "$top": dict([:]), "$objects": .array([.string("$null")])])),
        ("$top", dict(["$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .array([]), "$objects": .array([.string("$null")])])),
        ("$objects", dict(["$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": dict([:]), "$objects": .array([])])),
    ])
    func brokenEnvelope(key: String, plist: PropertyListValue) {
        let data = plist.propertyListData(format: .binary)
        #expect(decodingFails(Named.self, data, mentioning: key))
        do {
            _ = try KeyedArchiveView(data: data)
            Issue.record("the view should throw")
        } catch let error as KeyedArchiveError {
            #expect(error.key == key || error.description.contains(key))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("The decoder never instantiates a class from the archive on its own")
    func unknownClassInUntypedPosition() throws {
        // An NSCoding object asks for a field with NSCoder.decodeObject(forKey:); the archive
        // names a class nobody allowed there.
        final class Holder: NSObject, NSCoding {
            func encode(with coder: NSCoder) {}
            required init?(coder: NSCoder) {
                _ = coder.decodeObject(forKey: "evil")
                if coder.error != nil { return nil }
            }
        }
        struct Box: Decodable { @NSCodingObject var holder: Holder; enum CodingKeys: String, CodingKey { case holder = "root" } }
        let wrapped = archive([dict(["$class": uid(2), "root": uid(3)]), classEntry("Box"),
                               dict(["$class": uid(4), "evil": uid(5)]), classEntry("Holder"),
                               dict(["$class": uid(6)]), classEntry("EvilClass")])
        #expect(decodingFails(Box.self, wrapped, mentioning: "class 'EvilClass' is not allowed"))
    }
}
