import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// A Key type remembers the last objects it opened in full (`KeyedObjectMemo.swift`) and
/// opens an object laid out the same way (byte-identical key references, the same `$class`
/// reference) without checking it again. Objects that differ in any of that must go the
/// full way: their own duplicate-key verdict, their own class, their own errors.
@Suite("Objects of one Key type opened like the last ones")
struct KeyedObjectMemoTests {
    struct Person: Codable, Equatable {
        var name: String
        var age: Int?
        enum CodingKeys: String, CodingKey { case name, age }
    }

    /// The objects' fields and classes (each a class name, or nil for a class entry
    /// `Person`); a field's value is a string, or an integer for `age`.
    struct Shape {
        var keys: [String]
        var values: [String]
        var className = "Person"
        var classes = ["Person", "NSObject"]
    }

    /// An archive whose root is an NSArray of one object per shape. Key strings and class
    /// entries are shared (as every writer does), unless `separateKeys` (each object gets
    /// its own key strings) — so equal key lists are byte-identical key references.
    static func archive(_ shapes: [Shape], separateKeys: Bool = false) -> Data {
        var plist = RawBinaryPlist()
        var strings: [String: Int] = [:]
        func string(_ text: String, shared: Bool = true) -> Int {
            if shared, let known = strings[text] { return known }
            let ref = plist.add(.string(text))
            if shared { strings[text] = ref }
            return ref
        }
        let null = string("$null")
        var objects = [null]
        // Objects first (UIDs 1…n), then class entries, then the NSArray and its class.
        var classUIDs: [String: Int] = [:]
        var pending: [(keys: [Int], values: [Int], className: String, classes: [String])] = []
        for shape in shapes {
            let keys = ([string("$class")] + shape.keys.map { string($0, shared: !separateKeys) })
            let values = zip(shape.keys, shape.values).map { key, value in
                key == "age" ? plist.add(.integer(Int64(value) ?? 0)) : string(value)
            }
            pending.append((keys, values, shape.className, shape.classes))
        }
        let firstClassUID = 1 + shapes.count
        var classEntries: [(String, [String])] = []
        for shape in shapes where classUIDs[shape.className] == nil {
            classUIDs[shape.className] = firstClassUID + classEntries.count
            classEntries.append((shape.className, shape.classes))
        }
        let arrayUID = firstClassUID + classEntries.count
        let arrayClassUID = arrayUID + 1
        // One UID object per class entry, shared by its objects.
        var classValue: [String: Int] = [:]
        for (name, _) in classEntries { classValue[name] = plist.add(.uid(UInt64(classUIDs[name] ?? 0))) }
        for object in pending {
            objects.append(plist.add(.dictionary(keys: object.keys, values: [classValue[object.className] ?? 0] + object.values)))
        }
        for (name, classes) in classEntries {
            objects.append(plist.add(.dictionary(keys: [string("$classname"), string("$classes")],
                                                 values: [string(name), plist.add(.array(classes.map { string($0) }))])))
        }
        let elements = plist.add(.array((1...shapes.count).map { plist.add(.uid(UInt64($0))) }))
        objects.append(plist.add(.dictionary(keys: [string("$class"), string("NS.objects")],
                                             values: [plist.add(.uid(UInt64(arrayClassUID))), elements])))
        objects.append(plist.add(.dictionary(keys: [string("$classname"), string("$classes")],
                                             values: [string("NSArray"), plist.add(.array([string("NSArray"), string("NSObject")]))])))
        let objectList = plist.add(.array(objects))
        let top = plist.add(.dictionary(keys: [string("root")], values: [plist.add(.uid(UInt64(arrayUID)))]))
        let envelope = plist.add(.dictionary(keys: [string("$archiver"), string("$version"), string("$top"), string("$objects")],
                                             values: [string("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objectList]))
        return plist.data(top: envelope)
    }

    static func person(_ name: String, _ age: Int? = nil) -> Shape {
        age.map { Shape(keys: ["name", "age"], values: [name, "\($0)"]) } ?? Shape(keys: ["name"], values: [name])
    }

    @Test("Key lists that differ (optional fields present or not) read their own fields, in any order")
    func differentKeyLists() throws {
        // Five layouts of one Key type, more than the memo keeps, interleaved.
        let layouts: [(Person, Shape)] = [
            (Person(name: "a", age: 1), Shape(keys: ["name", "age"], values: ["a", "1"])),
            (Person(name: "b"), Shape(keys: ["name"], values: ["b"])),
            (Person(name: "c", age: 3), Shape(keys: ["age", "name"], values: ["3", "c"])),
            (Person(name: "d"), Shape(keys: ["name", "extra"], values: ["d", "x"])),
            (Person(name: "e", age: 5), Shape(keys: ["extra", "age", "name"], values: ["x", "5", "e"])),
        ]
        let order = [0, 1, 0, 2, 3, 4, 1, 1, 3, 0, 4, 2, 2, 0]
        let decoded = try ArchiveDecoder().decode([Person].self, from: Self.archive(order.map { layouts[$0].1 }))
        #expect(decoded == order.map { layouts[$0].0 })
        // And what the encoder writes, optional fields coming and going.
        let people = (0..<40).map { Person(name: "p\($0)", age: $0 % 3 == 0 ? nil : $0) }
        #expect(try ArchiveDecoder().decode([Person].self, from: try ArchiveEncoder().encode(people)) == people)
    }

    /// The keys its container lists, and the name it reads: an object whose repeated key
    /// was not resolved would list it twice.
    struct KeyLister: Decodable, Equatable {
        var keys: [String]
        var name: String
        init(keys: [String], name: String) {
            self.keys = keys
            self.name = name
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Person.CodingKeys.self)
            keys = container.allKeys.map(\.stringValue)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    @Test("An object that repeats a key after clean ones of its Key type: resolved as CoreFoundation does",
          arguments: [false, true])
    func repeatedKeyAfterCleanObjects(separateKeys: Bool) throws {
        // Same key count as the clean objects, so only the key references tell them apart.
        let clean = Shape(keys: ["name", "age"], values: ["clean", "1"])
        let repeated = Shape(keys: ["name", "name"], values: ["first", "second"])
        let data = Self.archive([clean, clean, repeated, clean], separateKeys: separateKeys)
        let decoded = try ArchiveDecoder().decode([Person].self, from: data)
        #expect(decoded == [Person(name: "clean", age: 1), Person(name: "clean", age: 1), Person(name: "first"), Person(name: "clean", age: 1)])
        let listed = try ArchiveDecoder().decode([KeyLister].self, from: data)
        let cleanListed = KeyLister(keys: ["name", "age"], name: "clean")
        #expect(listed == [cleanListed, cleanListed, KeyLister(keys: ["name"], name: "first"), cleanListed])
        // The same object alone reads the same.
        #expect(try ArchiveDecoder().decode([KeyLister].self, from: Self.archive([repeated], separateKeys: separateKeys))
                == [KeyLister(keys: ["name"], name: "first")])
    }

    @Test("Separate key strings with one text in one object, then the same references again")
    func repeatedKeyStringsRepeatedObject() throws {
        // Both objects list the same two `name` string objects: byte-identical key lists
        // that repeat a key. The first is resolved; the second must be too.
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let classKey = s("$class"), nameA = s("name"), nameB = s("name")
        let classEntry = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("Person"), plist.add(.array([s("Person"), s("NSObject")]))]))
        let classRef = plist.add(.uid(3))
        let first = plist.add(.dictionary(keys: [classKey, nameA, nameB], values: [classRef, s("first"), s("second")]))
        let second = plist.add(.dictionary(keys: [classKey, nameA, nameB], values: [classRef, s("third"), s("fourth")]))
        let arrayClass = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("NSArray"), plist.add(.array([s("NSArray"), s("NSObject")]))]))
        let array = plist.add(.dictionary(keys: [classKey, s("NS.objects")],
                                          values: [plist.add(.uid(4)), plist.add(.array([plist.add(.uid(1)), plist.add(.uid(2))]))]))
        let objects = plist.add(.array([s("$null"), first, second, classEntry, arrayClass, array]))
        let top = plist.add(.dictionary(keys: [s("root")], values: [plist.add(.uid(5))]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        let data = plist.data(top: envelope)
        #expect(try ArchiveDecoder().decode([Person].self, from: data) == [Person(name: "first"), Person(name: "third")])
        #expect(try ArchiveDecoder().decode([KeyLister].self, from: data)
                == [KeyLister(keys: ["name"], name: "first"), KeyLister(keys: ["name"], name: "third")])
    }

    @Test("Same key references, another class: the object's own class decides")
    func differentClass() throws {
        let person = Self.person("a", 1)
        var other = Self.person("b", 2)
        other.className = "Other"
        other.classes = ["Other", "NSObject"]
        let decoded = try ArchiveDecoder().decode([Person].self, from: Self.archive([person, other, person, other]))
        #expect(decoded == [Person(name: "a", age: 1), Person(name: "b", age: 2), Person(name: "a", age: 1), Person(name: "b", age: 2)])

        // A collection class is not read as fields, however its keys look.
        var array = Self.person("c", 3)
        array.className = "NSMutableArray"
        array.classes = ["NSMutableArray", "NSArray", "NSObject"]
        #expect {
            try ArchiveDecoder().decode([Person].self, from: Self.archive([person, person, array]))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 2"]
        }
    }

    @Test("Strict class names still check every object whose layout was remembered")
    func strictClassNames() throws {
        var other = Self.person("b", 2)
        other.className = "Other"
        other.classes = ["Other", "NSObject"]
        let data = Self.archive([Self.person("a", 1), Self.person("a", 1), other])
        let decoder = ArchiveDecoder()
        decoder.setType(Person.self, forClassName: "Person")
        decoder.classNameChecking = .strict
        #expect(throws: DecodingError.self) { try decoder.decode([Person].self, from: data) }
    }

    @Test("An element that is not an object after remembered ones: the error the full read gives")
    func notAnObject() throws {
        let good = Self.archive([Self.person("a", 1), Self.person("b", 2)])
        let alone = try ArchiveDecoder().decode([Person].self, from: good)
        #expect(alone.count == 2)
        // The second element's UID points at a string (`$null` is object 0; UID 0 is nil).
        let broken = try Self.pointingSecondElementAtString()
        #expect {
            try ArchiveDecoder().decode([Person].self, from: broken)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 1"]
        }
    }

    /// The two-person archive with the array's second element pointing at the first
    /// person's name string.
    static func pointingSecondElementAtString() throws -> Data {
        var plist = RawBinaryPlist()
        let s = { (text: String) in plist.add(.string(text)) }
        let classKey = s("$class"), name = s("name"), age = s("age")
        let classRef = plist.add(.uid(4))
        let first = plist.add(.dictionary(keys: [classKey, name, age], values: [classRef, s("a"), plist.add(.integer(1))]))
        let second = plist.add(.dictionary(keys: [classKey, name, age], values: [classRef, s("b"), plist.add(.integer(2))]))
        let text = s("not an object")
        let classEntry = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("Person"), plist.add(.array([s("Person"), s("NSObject")]))]))
        let arrayClass = plist.add(.dictionary(keys: [s("$classname"), s("$classes")],
                                               values: [s("NSArray"), plist.add(.array([s("NSArray"), s("NSObject")]))]))
        let array = plist.add(.dictionary(keys: [classKey, s("NS.objects")],
                                          values: [plist.add(.uid(5)), plist.add(.array([plist.add(.uid(1)), plist.add(.uid(3))]))]))
        let objects = plist.add(.array([s("$null"), first, second, text, classEntry, arrayClass, array]))
        let top = plist.add(.dictionary(keys: [s("root")], values: [plist.add(.uid(6))]))
        let envelope = plist.add(.dictionary(keys: [s("$archiver"), s("$version"), s("$top"), s("$objects")],
                                             values: [s("NSKeyedArchiver"), plist.add(.integer(100_000)), top, objects]))
        return plist.data(top: envelope)
    }
}
