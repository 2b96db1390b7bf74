import Foundation
import Testing
@testable import KeyedArchive

// A `[String]` is read in one loop over its NSArray's element list while the elements are
// plain short strings (`fastStrings`), and an NSArray object of the shape the general
// reader learned in the decode is opened with integer compares (`fastList`). These tests pin
// down that both agree with the general reader: values, work, errors and their coding
// paths, and every layout left to it (another class entry, a third key, NS.objects one UID
// away, NSString objects, non-strings, nil, plain property-list arrays).

/// An NSArray object whose class entry is object `classUID`, of the objects `elements` (UIDs).
private func nsArray(_ classUID: UInt64, _ elements: [UInt64]) -> PropertyListValue {
    dict(["$class": uid(classUID), "NS.objects": .array(elements.map { uid($0) })])
}

/// The coding path of the `DecodingError` decoding `data` as `T` throws (nil if none).
private func failurePath<T: Decodable>(_ type: T.Type, _ data: Data) -> [String]? {
    decodingFailure(data) { _ = try ArchiveDecoder().decode(T.self, from: $0) }?.path
}

/// Objects 3… of the archives below: strings, an integer, an NSMutableString object.
private let leaves: [PropertyListValue] = [
    .string("alpha"),                                      // 3
    .string("a string of twenty-two"),                     // 4 (charged: 16 bytes or more)
    .string("naïve café"),                                 // 5 (UTF-16)
    .integer(7),                                           // 6
    dict(["$class": uid(8), "NS.string": uid(9)]),         // 7
    classEntry("NSMutableString", superclasses: ["NSString", "NSObject"]),  // 8
    .string("mutable"),                                    // 9
]

/// An outer NSArray (object 1, class entry `outerClass`) of NSArrays `lists` (objects 10…),
/// each of the UIDs given; `classes[i]` is list i's class entry (2, or 10 + lists.count for
/// another entry of the same class).
private func nested(_ lists: [[UInt64]], outerClass: UInt64 = 2, classes: [UInt64]? = nil) -> Data {
    let other = UInt64(10 + lists.count)
    let inner = lists.enumerated().map { nsArray(classes?[$0.offset] ?? 2, $0.element) }
    return archive([nsArray(outerClass, (0..<lists.count).map { UInt64(10 + $0) }), classEntry("NSArray")]
                   + leaves + inner + [classEntry("NSArray")] + [.string("unused \(other)")])
}

@Suite("String lists and NSArray objects read in place")
struct StringListFastPathTests {
    @Test("Lists of plain, charged, UTF-16 and NSString elements decode as the general reader decodes them")
    func values() throws {
        let data = nested([[3, 4, 5], [7, 3, 7, 5], [], [4, 4, 4]])
        #expect(try ArchiveDecoder().decode([[String]].self, from: data) == [
            ["alpha", "a string of twenty-two", "naïve café"], ["mutable", "alpha", "mutable", "naïve café"], [],
            ["a string of twenty-two", "a string of twenty-two", "a string of twenty-two"],
        ])
    }

    @Test("An NSArray of the learned shape costs what one read by the general reader costs")
    func sameWorkBothPaths() throws {
        // The outer list's class entry is learned: 2 (two inner lists read in place) or the
        // other NSArray entry, 13 (one inner list read in place). Both read both entries.
        let lists: [[UInt64]] = [[3, 4], [5, 3, 7], [4]]
        let learned = nested(lists, classes: [2, 2, 13])
        let general = nested(lists, outerClass: 13, classes: [2, 2, 13])
        #expect(try ArchiveDecoder().decode([[String]].self, from: learned)
                == (try ArchiveDecoder().decode([[String]].self, from: general)))
        #expect(try decodeWork([[String]].self, learned).units == (try decodeWork([[String]].self, general).units))
        let smallest = try smallestDecodingBudget([[String]].self, learned)
        #expect(smallest == (try smallestDecodingBudget([[String]].self, general)))
        let decoder = ArchiveDecoder()
        decoder.limits = .init(maxObjectVisits: smallest - 1)
        #expect(throws: (any Error).self) { try decoder.decode([[String]].self, from: learned) }
    }

    @Test("A [String] costs what the same elements cost read one by one through the container")
    func sameWorkAsContainer() throws {
        let data = nested([[3, 4, 5, 7, 3, 4, 4]])
        #expect(try ArchiveDecoder().decode([ContiguousArray<String>].self, from: data).map(Array.init)
                == (try ArchiveDecoder().decode([[String]].self, from: data)))
        #expect(try decodeWork([[String]].self, data).units == (try decodeWork([ContiguousArray<String>].self, data).units))
        #expect(try smallestDecodingBudget([[String]].self, data) == (try smallestDecodingBudget([ContiguousArray<String>].self, data)))
    }

    @Test("A bad element throws the container's error at its index", arguments: [
        ([3, 4, 6] as [UInt64], 2),      // an integer
        ([3, 0, 4], 1),                  // nil
        ([3, 4, 5, 99], 3),              // a UID past $objects
        ([2], 0),                        // a class entry
    ])
    func badElements(elements: [UInt64], index: Int) throws {
        let data = nested([[3], elements])
        #expect(failurePath([[String]].self, data) == ["Index 1", "Index \(index)"])
    }

    @Test("NSArray objects the learned shape does not cover are read by the general reader")
    func otherLayouts() throws {
        // A third key: read as before (the extra key is not a list's).
        let third = archive([nsArray(2, [5, 6]), classEntry("NSArray"), .string("a"), .string("b"),
                             nsArray(2, [3, 4]),
                             dict(["$class": uid(2), "NS.objects": .array([uid(3)]), "extra": uid(4)])])
        #expect(try ArchiveDecoder().decode([[String]].self, from: third) == [["a", "b"], ["a"]])
        // NS.objects one UID away from the array: the general reader's error, at the list.
        let away = archive([nsArray(2, [3, 4]), classEntry("NSArray"),
                            nsArray(2, [6]), dict(["$class": uid(2), "NS.objects": uid(5)]),
                            .array([uid(6)]), .string("x")])
        #expect(failurePath([[String]].self, away) == ["Index 1"])
        // An NSSet and an NSDictionary where a list is wanted.
        let set = archive([nsArray(2, [3, 4]), classEntry("NSArray"),
                           nsArray(2, [6]), nsArray(5, [6]), classEntry("NSSet"), .string("x")])
        #expect(try ArchiveDecoder().decode([[String]].self, from: set) == [["x"], ["x"]])
        let dictionary = archive([nsArray(2, [3, 4]), classEntry("NSArray"),
                                  nsArray(2, [6]), dict(["$class": uid(5), "NS.keys": .array([]), "NS.objects": .array([])]),
                                  classEntry("NSDictionary"), .string("x")])
        #expect(failurePath([[String]].self, dictionary) == ["Index 1"])
    }

    @Test("A plain property-list array of strings (no UIDs) reads its strings in place")
    func plainArray() throws {
        let data = archive([.array([.string("one"), .string("a string of twenty-two"), .string("日本語"), .integer(3)])])
        #expect(failurePath([String].self, data) == ["Index 3"])
        let strings = archive([.array([.string("one"), .string("a string of twenty-two"), .string("日本語")])])
        #expect(try ArchiveDecoder().decode([String].self, from: strings) == ["one", "a string of twenty-two", "日本語"])
    }
}
