import Foundation
import Testing
@testable import KeyedArchive

/// The fast XML reader's `<data>` (base64 into one reused buffer, then uniqued by its bytes
/// where the builder stores them) and its key and value stacks (storage of their own, grown
/// by doubling): the same bytes as the general parser through the tree, or a fallback to it
/// with its error.
@Suite("XML fast reader: data and container stacks")
struct XMLFastReaderDataTests {
    /// Base64 in every shape the strict decoder takes: whole groups, whitespace inside and
    /// between groups, both paddings, the empty data, repeated and different data of one
    /// length (the reused buffer holds a shorter data after a longer one).
    static let readableData: [String] = [
        "<array><data>AAECAwQFBgcICQoLDA0ODw==</data><data>AAECAwQFBgcICQoLDA0ODw==</data></array>",
        "<array><data>AAEC</data><data>AAED</data><data>AAEC</data><data>AAED</data></array>",
        "<array><data>\n\t\tAA\n\t\tEC\n\t\t</data><data>A A E C</data><data>AAE\tC</data><data>AAEC</data></array>",
        "<array><data>AA==</data><data>AAE=</data><data>AAECAw==</data><data>AAECAwQ=</data><data>/+/+</data></array>",
        "<array><data></data><data>\n</data><data></data><data>AAEC</data></array>",
        "<array><data>AAEC AAEC</data><data>AAECAAEC</data><data>AA EC\nAAEC</data></array>",
        "<array><data>AA==\n</data><data>AAE=\t</data><data>AAE= </data></array>",
    ]

    @Test(arguments: readableData)
    func dataMatchesTree(_ body: String) throws {
        try XMLFastReaderTests().fastPathMatchesTree(body)
    }

    /// Malformed base64 anywhere in a group, padding in the wrong place, an entity or a
    /// byte outside the alphabet: the fast reader gives up, and the general parser reads the
    /// document and throws its error.
    static let malformedData: [String] = [
        "<array><data>AAE!</data></array>",
        "<array><data>!AEC</data></array>",
        "<array><data>AAECA</data></array>",
        "<array><data>AAECAA</data></array>",
        "<array><data>A===</data></array>",
        "<array><data>AA==AAEC</data></array>",
        "<array><data>AAE=AAEC</data></array>",
        "<array><data>=AAE</data></array>",
        "<array><data>AA=A</data></array>",
        "<array><data>AAEC\u{0B}</data></array>",
        "<array><data>AAEC&#65;AA</data></array>",
        "<array><data>AAé=</data></array>",
    ]

    @Test(arguments: malformedData)
    func malformedDataFallsBack(_ body: String) {
        XMLFastReaderTests().fallbackMatchesTree(body)
        #expect(throws: PropertyListError.self, "\(body)") {
            try XMLPropertyListReader.readBinary(XMLFastReaderTests.document(body), maxDepth: 64)
        }
    }

    /// Equal data is one object and different data of the same length two, as the builder
    /// uniques it for every writer (through the tree and from `Data`).
    @Test func equalDataIsOneObject() throws {
        let body = "<array><data>AAEC</data><data>AAED</data><data>AAEC</data><data>AAED</data><data>AAEC</data></array>"
        let fast = try #require(XMLFastReaderTests.fast(Array(body.utf8), maxDepth: 8))
        let plist = try fast.withUnsafeBytes { try BinaryPropertyList(borrowing: $0).objectCount }
        #expect(plist == 3)  // the array and two data
        let written = BinaryPropertyListWriter.write(.array([.data(Data([0, 1, 2])), .data(Data([0, 1, 3])), .data(Data([0, 1, 2]))]))
        #expect(try written.withUnsafeBytes { try BinaryPropertyList(borrowing: $0).objectCount } == 3)
    }

    /// Containers with more keys and values than the stacks' first storage, nested inside
    /// one another while the outer ones are open (so a stack grows with references below the
    /// innermost container's), read as the tree reads them.
    @Test func stacksGrowUnderOpenContainers() throws {
        var body = "<dict>"
        for outer in 0..<40 {
            body += "<key>o\(outer)</key><array>"
            for item in 0..<(outer * 7) {
                if item % 9 == 0 {
                    body += "<dict>"
                    for key in 0..<(item % 80) { body += "<key>k\(key)</key><integer>\(key)</integer>" }
                    body += "</dict>"
                } else {
                    body += "<string>s\(item % 13)</string>"
                }
            }
            body += "</array>"
        }
        body += "</dict>"
        let xml = Array(body.utf8)
        let fast = try #require(XMLFastReaderTests.fast(xml, maxDepth: 8))
        #expect(fast == (try XMLFastReaderTests.viaTree(xml, maxDepth: 8)))
    }
}
