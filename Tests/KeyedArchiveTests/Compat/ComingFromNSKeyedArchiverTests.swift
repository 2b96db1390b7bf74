import Foundation
import KeyedArchive
import Testing

/// The code of "Coming from NSKeyedArchiver" and of the NSCoding section of "Migrating from
/// NSCoding", run: an `NSSecureCoding` class archived at the top level, under several keys
/// and in an ``ArchiveStore``, each read back by us and by Foundation, and Foundation's files
/// read by us.
@Suite("Compat: coming from NSKeyedArchiver")
struct ComingFromNSKeyedArchiverTests {
    static var note: ArticleNote { ArticleNote(title: "Groceries", pages: 2) }

    @Test("a root object: archivedData(withRootObject:) and unarchivedObject(ofClass:from:)")
    func rootObject() throws {
        // Ours, in place of NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding:)
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: Self.note))
        // … in place of NSKeyedUnarchiver.unarchivedObject(ofClass:from:)
        let note = try ArchiveDecoder().decode(NSCodingObject<ArticleNote>.self, from: data).wrappedValue
        #expect(note.title == "Groceries" && note.pages == 2)

        // Foundation reads ours, securely…
        let theirs = try NSKeyedUnarchiver.unarchivedObject(ofClass: ArticleNote.self, from: data)
        #expect(theirs?.title == "Groceries")
        // … and we read Foundation's.
        let classic = try NSKeyedArchiver.archivedData(withRootObject: Self.note, requiringSecureCoding: true)
        #expect(try ArchiveDecoder().decode(NSCodingObject<ArticleNote>.self, from: classic).wrappedValue.pages == 2)
    }

    @Test("several keys: encode(_:forKey:) and decodeObject(of:forKey:)")
    func severalKeys() throws {
        let data = try ArchiveEncoder().encode(topLevel: [
            "first": NSCodingObject(wrappedValue: Self.note),
            "second": NSCodingObject(wrappedValue: ArticleNote(title: "Errands", pages: 1)),
        ])
        let second = try ArchiveDecoder().decode(NSCodingObject<ArticleNote>.self, forKey: "second", from: data).wrappedValue
        #expect(second.title == "Errands")

        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        #expect((unarchiver.decodeObject(of: ArticleNote.self, forKey: "first"))?.title == "Groceries")

        // A file Foundation wrote under two keys.
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(Self.note, forKey: "first")
        archiver.encode(ArticleNote(title: "Errands", pages: 1), forKey: "second")
        archiver.finishEncoding()
        let classic = archiver.encodedData
        #expect(try ArchiveDecoder().topLevelKeys(in: classic).sorted() == ["first", "second"])
        #expect(try ArchiveDecoder().decode(NSCodingObject<ArticleNote>.self, forKey: "first", from: classic).wrappedValue.pages == 2)
    }

    @Test("a store: archiveRootObject(_:toFile:) and unarchiveObject(withFile:)")
    func store() throws {
        try withScratchFolder { folder in
            let store = try ArchiveStore(directory: folder)
            try store.save(NSCodingObject(wrappedValue: Self.note), as: "note")
            let note = try store.load(NSCodingObject<ArticleNote>.self, named: "note")?.wrappedValue
            #expect(note?.title == "Groceries")
            // The file is an ordinary keyed archive with the note under root.
            let data = try Data(contentsOf: store.url(forName: "note"))
            #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: ArticleNote.self, from: data)?.pages == 2)
        }
    }

    @Test("NSCodingObject runs only its own class")
    func onlyItsClass() throws {
        let data = try ArchiveEncoder().encode(NSCodingObject(wrappedValue: ArticleOther()))
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(NSCodingObject<ArticleNote>.self, from: data) }
    }
}

/// The article's class, as the classic tutorials write it (top level: Foundation on Linux
/// archives only top-level classes).
final class ArticleNote: NSObject, NSSecureCoding, @unchecked Sendable {
    static var supportsSecureCoding: Bool { true }
    let title: String
    let pages: Int
    init(title: String, pages: Int) {
        self.title = title
        self.pages = pages
    }
    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(pages, forKey: "pages")
    }
    required init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "title") as String? else { return nil }
        self.title = title
        pages = coder.decodeInteger(forKey: "pages")
    }
}

/// Another secure-coding class, which an `NSCodingObject<ArticleNote>` never runs.
final class ArticleOther: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    override init() {}
    func encode(with coder: NSCoder) { coder.encode("x", forKey: "title") }
    required init?(coder: NSCoder) {}
}
