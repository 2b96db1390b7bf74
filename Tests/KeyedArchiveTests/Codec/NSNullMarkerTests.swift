import Foundation
import Testing
@testable import KeyedArchive

/// `decodeIfPresent` and `decodeNil` tell NSNull apart by its dictionary's marker before
/// parsing it (`_ArchiveDecoder.isNil`): only a one-entry dictionary can be NSNull, whether
/// its count is in the marker (`0xD1`, as writers put it) or follows it (`0xDF`).
@Suite("NSNull told apart by its marker")
struct NSNullMarkerTests {
    struct Pair: Codable, Equatable {
        var a: Int?
        var b: Int
    }

    /// An archive of a `Pair` whose `a` refers to an NSNull object written with its count
    /// after the marker or in it.
    static func archive(countAfterMarker: Bool) -> Data {
        typealias Raw = HostileGraphTests.RawPlist
        var plist = Raw()
        let key = { (text: String) in plist.add(.string(text)) }
        let nullEntry = [(key: key("$class"), value: plist.add(.uid(4)))]
        let objects = plist.add(.array([]))
        let null = plist.add(.string("$null"))
        let pairClass = plist.add(.uid(3))
        let pair = plist.add(.dictionary([(key("$class"), pairClass), (key("a"), plist.add(.uid(2))), (key("b"), plist.add(.integer(5)))]))
        let nsNull = plist.add(countAfterMarker ? .dictionaryWithCountAfterMarker(nullEntry) : .dictionary(nullEntry))
        let classEntry = { (name: String) in
            plist.add(.dictionary([(key("$classname"), plist.add(.string(name))),
                                   (key("$classes"), plist.add(.array([plist.add(.string(name)), plist.add(.string("NSObject"))])))]))
        }
        let pairEntry = classEntry("Pair")
        let nullClassEntry = classEntry("NSNull")
        plist.set(objects, .array([null, pair, nsNull, pairEntry, nullClassEntry]))
        let top = plist.add(.dictionary([(key("root"), plist.add(.uid(1)))]))
        let root = plist.add(.dictionary([
            (key("$archiver"), plist.add(.string("NSKeyedArchiver"))),
            (key("$version"), plist.add(.integer(100_000))),
            (key("$top"), top),
            (key("$objects"), objects),
        ]))
        return plist.data(top: root)
    }

    @Test("An NSNull whose count follows its marker (0xDF) is nil, as one with the count in it (0xD1)", arguments: [false, true])
    func nullWithEitherMarker(countAfterMarker: Bool) throws {
        let data = Self.archive(countAfterMarker: countAfterMarker)
        // Foundation reads the file as one NSNull of one entry (the independent check of the bytes).
        let parsed = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let objects = try #require(parsed["$objects"] as? [Any])
        #expect((objects[2] as? [String: Any])?.count == 1)
        #expect(data.contains(0xDF) == countAfterMarker)
        #expect(try ArchiveDecoder().decode(Pair.self, from: data) == Pair(a: nil, b: 5))
    }
}
