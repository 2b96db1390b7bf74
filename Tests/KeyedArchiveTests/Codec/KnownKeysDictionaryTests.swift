import Foundation
import Testing
@testable import KeyedArchive

// Issue 52, item 2: Core Data's NSKnownKeysDictionary1 (compiled models, `.mom`) reads as a
// dictionary, its keys taken from its searchMapping object; and any object whose class
// chain says dictionary, array or set in a layout the decoder does not know throws naming
// its class and object index, never reads as empty. uid, dict, classEntry and archive(_:)
// are in Support/HandBuiltArchive.swift.

private let knownKeysChain = ["NSMutableDictionary", "NSDictionary", "NSObject"]

/// A `.mom`-like model: its entities in an NSKnownKeysDictionary1 (object 3) with three
/// slots, the second empty (the emptyToken object). `valueCount` makes the values array
/// shorter than the keys when it is less than 3.
private func momLike(valueCount: Int = 3) -> Data {
    let values: [PropertyListValue] = Array([uid(11), uid(10), uid(13)].prefix(valueCount))
    return archive([
        dict(["$class": uid(2), "entitiesByName": uid(3)]),                                   // 1
        classEntry("NSManagedObjectModel"),                                                   // 2
        dict(["$class": uid(4), "values": uid(5), "searchMapping": uid(7),
              "emptyToken": uid(10), "version": .integer(1)]),                                // 3
        classEntry("NSKnownKeysDictionary1", superclasses: knownKeysChain),                   // 4
        dict(["$class": uid(6), "NS.objects": .array(values)]),                               // 5
        classEntry("NSArray"),                                                                // 6
        dict(["$class": uid(8), "keys": uid(9)]),                                             // 7
        classEntry("NSKnownKeysMappingStrategy1"),                                            // 8
        dict(["$class": uid(6), "NS.objects": .array([uid(14), uid(15), uid(16)])]),          // 9
        dict(["$class": uid(17)]),                                                            // 10
        dict(["$class": uid(12), "name": uid(14)]),                                           // 11
        classEntry("NSEntityDescription"),                                                    // 12
        dict(["$class": uid(12), "name": uid(16)]),                                           // 13
        .string("Song"), .string("Unused"), .string("Category"),                              // 14-16
        classEntry("NSKnownKeysDictionaryEmptyToken"),                                        // 17
    ])
}

private struct Entity: Decodable, Equatable { var name: String }
private struct Model: Decodable { var entitiesByName: [String: Entity] }

/// The keys a keyed container lists for the model's dictionary.
private struct ListedEntityKeys: Decodable {
    enum CodingKeys: String, CodingKey { case entitiesByName }
    var keys: [String]
    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: CodingKeys.self)
            .nestedContainer(keyedBy: ArchiveCodingKey.self, forKey: .entitiesByName).allKeys.map(\.stringValue)
    }
}

/// An object of class `name` (a subclass of `superclasses`) with one field of a layout the
/// decoder does not know.
private func unknownLayout(_ name: String, superclasses: [String]) -> Data {
    archive([dict(["$class": uid(2), "storage": .array([uid(3)])]), classEntry(name, superclasses: superclasses), .string("x")])
}

/// The message of the DecodingError `body` throws, or nil.
private func message(_ body: () throws -> Any) -> String? {
    do { _ = try body() } catch { return decodingErrorMessage(error) }
    return nil
}

@Suite("NSKnownKeysDictionary1 reads as a dictionary; no collection reads as silently empty")
struct KnownKeysDictionaryTests {
    @Test("Typed dictionaries, keyed containers and generic values read its entries, empty slots left out")
    func readsEntries() throws {
        let data = momLike()
        let model = try ArchiveDecoder().decode(Model.self, from: data)
        #expect(model.entitiesByName == ["Song": Entity(name: "Song"), "Category": Entity(name: "Category")])
        #expect(try ArchiveDecoder().decode(ListedEntityKeys.self, from: data).keys == ["Song", "Category"])
        let generic = try ArchiveDecoder().decode(QuicktypeJSONAny.self, from: data).strings()
        #expect(generic.keys.isSuperset(of: ["Song", "Category"]))
        #expect(!generic.all.contains("Unused"))
        let enumValue = try ArchiveDecoder().decode(AnyCodableValue.self, from: data).strings()
        #expect(enumValue.keys.isSuperset(of: ["Song", "Category"]))
    }

    @Test("Values and mapped keys that disagree in number are an error naming the object and field")
    func countMismatch() {
        let text = message { try ArchiveDecoder().decode(Model.self, from: momLike(valueCount: 2)) }
        #expect(text?.contains("NSKnownKeysDictionary1 has 2 values but its searchMapping (object 7) has 3 keys") == true)
        #expect(text?.contains("object 3") == true)
    }

    @Test("KeyedArchiveView reads it as a dictionary, its layout fields not shown as added fields")
    func view() throws {
        let view = try KeyedArchiveView(data: momLike())
        #expect(view.foundationValue(of: view.objects[3]) == .dictionary(keys: [.reference(14), .reference(16)],
                                                                          values: [.reference(11), .reference(13)]))
        #expect(view.addedFields(of: view.objects[3]).isEmpty)
    }

    @Test("A dictionary, array, set, ordered set or counted set of an unknown layout throws naming its class and object",
          arguments: [("NSSpecialDictionary", ["NSDictionary", "NSObject"]), ("NSSpecialArray", ["NSArray", "NSObject"]),
                      ("NSSpecialSet", ["NSMutableSet", "NSSet", "NSObject"]), ("NSSpecialOrderedSet", ["NSOrderedSet", "NSObject"]),
                      ("NSCountedSet", ["NSMutableSet", "NSSet", "NSObject"])])
    func unknownLayoutThrows(name: String, superclasses: [String]) throws {
        let data = unknownLayout(name, superclasses: superclasses)
        let texts = [message { try ArchiveDecoder().decode([String: String].self, from: data) },
                     message { try ArchiveDecoder().decode([String].self, from: data) },
                     message { try ArchiveDecoder().decode(Set<String>.self, from: data) },
                     message { try ArchiveDecoder().decode(AnyCodableValue.self, from: data) }]
        // Each read throws; those that take the object for what its class says name the
        // class, the object and the unknown field.
        #expect(texts.allSatisfy { $0 != nil })
        #expect(texts.contains { $0?.contains("\(name) is a") == true && $0?.contains("layout the decoder does not know (fields storage)") == true
                                 && $0?.contains("object 1") == true })
        let view = try KeyedArchiveView(data: data)
        #expect(view.foundationValue(of: view.objects[1]) == nil)
    }

    @Test("A collection with no field but its class is empty, as before")
    func emptyStillEmpty() throws {
        for (name, superclasses) in [("NSDictionary", ["NSObject"]), ("NSArray", ["NSObject"]), ("NSOrderedSet", ["NSObject"]),
                                     ("NSCountedSet", ["NSMutableSet", "NSSet", "NSObject"])] {
            let data = archive([dict(["$class": uid(2)]), classEntry(name, superclasses: superclasses)])
            if name == "NSDictionary" {
                #expect(try ArchiveDecoder().decode([String: Int].self, from: data).isEmpty)
            } else {
                #expect(try ArchiveDecoder().decode([Int].self, from: data).isEmpty)
            }
            let view = try KeyedArchiveView(data: data)
            #expect(view.foundationValue(of: view.objects[1]).map { $0.elements?.isEmpty ?? ($0 == .dictionary(keys: [], values: [])) } == true)
        }
    }
}
