import Foundation
import Testing
@testable import KeyedArchive

// Hostile AppKit values: shared long component text and run tables go through the work
// budget; malformed values, NaN and self-reference throw DecodingErrors, never trap.

@Suite("AppKit values: limits and hostile input")
struct AppKitHostileTests {
    /// An archive whose root is an NSArray holding `count` references to object 2, with
    /// `objects` from index 2 on.
    static func sharedArray(_ count: Int, _ objects: [PropertyListValue]) -> Data {
        let arrayClass = UInt64(2 + objects.count)
        return archive([dict(["NS.objects": .array(Array(repeating: uid(2), count: count)), "$class": uid(arrayClass)])]
            + objects + [classEntry("NSArray")])
    }

    /// Decoding `data` as `T` throws the work-budget error.
    static func expectBudgetError<T: Decodable>(_ type: T.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try ArchiveDecoder().decode(T.self, from: data)
        } throws: { error in
            error is DecodingError && decodingErrorMessage(error)?.contains("maxObjectVisits") == true
        }
    }

    @Test("One long NSRGB text shared by 10,000 references is charged on each parse: the budget stops it")
    func sharedComponentText() throws {
        // Valid text: three numbers then 8,000 spaces.
        let text = Data(("0.5 0.5 0.5" + String(repeating: " ", count: 8_000)).utf8)
        let color: [PropertyListValue] = [
            dict(["NSColorSpace": .integer(1), "NSRGB": uid(3), "$class": uid(4)]), .data(text), classEntry("NSColor"),
        ]
        let one = archive([color[0].replacingUID(3, with: 2).replacingUID(4, with: 3), color[1], color[2]])
        #expect(try ArchiveDecoder().decode(ArchivedColor.self, from: one).components == [0.5, 0.5, 0.5])
        Self.expectBudgetError([ArchivedColor].self, Self.sharedArray(10_000, color))
    }

    @Test("One long run table shared by 2,000 references is charged on each parse: the budget stops it")
    func sharedRunTable() throws {
        let length = 5_000
        let info = Data((0..<length).flatMap { _ in [UInt8(1), 0] })
        let text: [PropertyListValue] = [
            dict(["NSString": uid(3), "NSAttributes": uid(4), "NSAttributeInfo": uid(6), "$class": uid(9)]),
            .string(String(repeating: "x", count: length)),
            dict(["NS.objects": .array([uid(5)]), "$class": uid(8)]),
            dict(["NS.keys": .array([]), "NS.objects": .array([]), "$class": uid(7)]),
            .data(info),
            classEntry("NSDictionary"), classEntry("NSArray"), classEntry("NSAttributedString"),
        ]
        let single = try ArchiveDecoder().decode([ArchivedAttributedString].self, from: Self.sharedArray(1, text))
        #expect(single.first?.runs.count == length)
        Self.expectBudgetError([ArchivedAttributedString].self, Self.sharedArray(2_000, text))
    }

    @Test("NaN, infinity or stray text in NSComponents throws a DecodingError naming the field",
          arguments: ["nan 0 0 1", "1 inf 0 1", "1 0 0 x", "1 0 0"])
    func malformedComponents(_ text: String) {
        let data = archive([
            dict(["NSColorSpace": .integer(1), "NSRGB": .data(Data("1 0 0\u{0}".utf8)), "NSComponents": .data(Data(text.utf8)),
                  "NSCustomColorSpace": uid(3), "$class": uid(2)]),
            classEntry("NSColor"),
            dict(["NSID": .integer(7), "$class": uid(4)]), classEntry("NSColorSpace"),
        ])
        expectDecodingError(ArchivedColor.self, from: data, mentioning: "NSComponents")
    }

    @Test("An attribute of an unknown class that refers to itself reads by class name without its archived form; encoding it throws")
    func selfReferringAttribute() throws {
        let data = archive([
            dict(["NSString": uid(2), "NSAttributes": uid(3), "$class": uid(6)]),
            .string("ab"),
            dict(["NS.keys": .array([uid(5)]), "NS.objects": .array([uid(4)]), "$class": uid(7)]),
            dict(["NSSelf": uid(4), "$class": uid(8)]),
            .string("NSTextAttachment"),
            classEntry("NSAttributedString"), classEntry("NSDictionary"), classEntry("NSTextAttachment"),
        ])
        let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data)
        #expect(text.runs.first?.attributes["NSTextAttachment"] == .other(className: "NSTextAttachment"))
        #expect(text.runs.first?.archivedValues.isEmpty == true)
        #expect(throws: EncodingError.self) { try ArchiveEncoder().encode(text) }
    }

    @Test("An attribute of an unknown class whose fields share children 2^40 ways is kept as 40 shared objects and written back as 40")
    func fanOutAttribute() throws {
        // Object k has fields a and b, both referring to object k + 1: 40 levels.
        let levels = 40
        let first = 5
        var objects: [PropertyListValue] = [
            dict(["NSString": uid(2), "NSAttributes": uid(3), "$class": uid(UInt64(first + levels))]),
            .string("ab"),
            dict(["NS.keys": .array([uid(4)]), "NS.objects": .array([uid(UInt64(first))]), "$class": uid(UInt64(first + levels + 1))]),
            .string("NSFanOut"),
        ]
        let fanClass = UInt64(first + levels + 2)
        for level in 0..<levels {
            let next = UInt64(first + level + 1)
            objects.append(level == levels - 1
                ? dict(["leaf": .integer(1), "$class": uid(fanClass)])
                : dict(["a": uid(next), "b": uid(next), "$class": uid(fanClass)]))
        }
        objects += [classEntry("NSAttributedString"), classEntry("NSDictionary"), classEntry("NSFanOut")]
        let data = archive(objects)
        // 2^40 paths, 40 objects: each is read once and shared by the fields that refer to it.
        let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data)
        #expect(text.runs.first?.attributes["NSFanOut"] == .other(className: "NSFanOut"))
        let kept = try #require(text.runs.first?.archivedValues["NSFanOut"])
        #expect(SharedRawValueTests.distinctObjects(kept) == levels)
        #expect(try ArchiveDecoder().decode(ArchivedRawValue.self, from: rooted(data, at: 5)) == kept)
        // Written back: the string, its dictionary and the 40 objects, each once.
        let rewritten = try ArchiveEncoder().encode(text)
        #expect(try SharedRawValueTests.objectCount(rewritten) == SharedRawValueTests.objectCount(data))
        #expect(try ArchiveDecoder().decode(ArchivedAttributedString.self, from: rewritten) == text)
    }
}

extension PropertyListValue {
    /// The dictionary with every UID `old` in its values replaced by `new`.
    func replacingUID(_ old: UInt64, with new: UInt64) -> PropertyListValue {
        guard case .dictionary(let entries) = self else { return self }
        return .dictionary(entries.map { entry in
            if case .uid(old) = entry.value { return PropertyListEntry(key: entry.key, value: .uid(new)) }
            return entry
        })
    }
}
