import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

// Issue 53 §2 and §6: archived values keep the archive's sharing. An object several fields
// refer to is read once and written once, equality and hashing visit it once, and runs that
// share one attribute dictionary have it hashed once when written. (Counted, not timed:
// `keyedarchive-benchmark --hostile --family sharedRawObjects` prints time and memory.)

@Suite("AppKit values: shared objects stay shared")
struct SharedRawValueTests {
    /// The number of entries of `data`'s `$objects`.
    static func objectCount(_ data: Data) throws -> Int {
        guard case .dictionary(let root) = try PropertyListValue(propertyList: data),
              case .array(let objects)? = root.first(where: { $0.key == "$objects" })?.value else { throw CancellationError() }
        return objects.count
    }

    /// The distinct objects (by storage) reachable from `value`, each walked once.
    static func distinctObjects(_ value: ArchivedRawValue) -> Int {
        var seen: Set<SharedStorageIdentity> = []
        var pending = [value]
        while let next = pending.popLast() {
            guard case .object(_, let fields) = next, let identity = next.sharingIdentity, seen.insert(identity).inserted else { continue }
            pending += fields.map(\.value)
        }
        return seen.count
    }

    /// A hand-built chain of `levels` objects whose fields `a` and `b` are both the next one.
    static func chain(levels: Int, leaf: Int64 = 1) -> ArchivedRawValue {
        var value = ArchivedRawValue.object(classes: ["Link", "NSObject"], fields: [ArchivedRawField(key: "value", value: .integer(leaf))])
        for _ in 1..<levels {
            value = .object(classes: ["Link", "NSObject"], fields: [ArchivedRawField(key: "a", value: value), ArchivedRawField(key: "b", value: value)])
        }
        return value
    }

    @Test("A pattern colour whose image leads to 2^40 paths through 40 objects decodes to one value per object")
    func chainDecodesShared() throws {
        let data = AmplificationFamily.sharedRawObjects.archive(references: 40, length: 1_000)
        let (color, work) = try ArchiveDecoder().decodeReportingWork(ArchivedColor.self, from: data)
        let image = try #require(color.patternImage)
        #expect(Self.distinctObjects(image) == 41)  // the image and its 40 links
        // Each object is read once and each reference costs one unit: linear in the file.
        #expect(work.limit - work.remaining < 2 * data.count, "\(work.limit - work.remaining) units for \(data.count) bytes")
    }

    @Test("Written back, each shared object is written once: as many objects as the archive had, about its size",
          arguments: [false, true])
    func chainWrittenOnce(asRawValue: Bool) throws {
        let data = AmplificationFamily.sharedRawObjects.archive(references: 40, length: 1_000)
        let rewritten = asRawValue
            ? try ArchiveEncoder().encode(try ArchiveDecoder().decode(ArchivedRawValue.self, from: data))
            : try ArchiveEncoder().encode(try ArchiveDecoder().decode(ArchivedColor.self, from: data))
        #expect(try Self.objectCount(rewritten) == Self.objectCount(data))
        #expect(rewritten.count < 2 * data.count, "\(rewritten.count) bytes written from \(data.count)")
        let again = try ArchiveDecoder().decode(ArchivedColor.self, from: rewritten)
        #expect(again == (try ArchiveDecoder().decode(ArchivedColor.self, from: data)))
    }

    @Test("The rewritten chain is the archive's object graph (plistlib, UIDs followed)", .requiresPython3)
    func chainGraphUnchanged() throws {
        let data = AmplificationFamily.sharedRawObjects.archive(references: 8, length: 16)
        let rewritten = try ArchiveEncoder().encode(try ArchiveDecoder().decode(ArchivedColor.self, from: data))
        #expect(try archivedGraph(rewritten) == archivedGraph(data))
    }

    @Test("The view's fields of such a colour share the chain's objects too (2^40 paths, 40 values made)")
    func viewFieldsShared() throws {
        let data = AmplificationFamily.sharedRawObjects.archive(references: 40, length: 100)
        let view = try KeyedArchiveView(data: data)
        let color = try #require(view.objects.first { $0.className == "NSColor" })
        let fields = try #require(view.appKitValue(of: color)?.fields)
        guard case .dictionary(let image)? = fields.first(where: { $0.key == "image" })?.value else {
            Issue.record("no image: \(fields.map(\.key))")
            return
        }
        #expect(image.map(\.key) == ["$class", "NSData", "NSReps"])
        #expect(image.first?.value == .string("NSImage"))
    }

    @Test("A value used in several places is written once; equal values built apart are written apart")
    func copiesAreWrittenOnce() throws {
        let shared = ArchivedRawValue.object(classes: ["Part", "NSObject"], fields: [ArchivedRawField(key: "n", value: .integer(1))])
        let twice = ArchivedRawValue.object(classes: ["Whole", "NSObject"], fields: [
            ArchivedRawField(key: "first", value: shared), ArchivedRawField(key: "second", value: shared),
        ])
        let apart = ArchivedRawValue.object(classes: ["Whole", "NSObject"], fields: [
            ArchivedRawField(key: "first", value: shared),
            ArchivedRawField(key: "second", value: .object(classes: ["Part", "NSObject"], fields: [ArchivedRawField(key: "n", value: .integer(1))])),
        ])
        #expect(twice == apart && twice.hashValue == apart.hashValue)
        // $null, Whole, Part (once or twice), and the two class entries.
        #expect(try Self.objectCount(ArchiveEncoder().encode(twice)) == 5)
        #expect(try Self.objectCount(ArchiveEncoder().encode(apart)) == 6)
    }

    @Test("== and hashing of a chain with 2^64 paths visit each of its 64 objects once")
    func equalityAndHashAreLinear() {
        // Walking each path would not finish; built apart, the two chains share nothing.
        let one = Self.chain(levels: 64), other = Self.chain(levels: 64), different = Self.chain(levels: 64, leaf: 2)
        #expect(one == other)
        #expect(one != different)
        #expect(one.hashValue == other.hashValue)
        #expect(Set([one, other, different]).count == 2)
        #expect(ArchivedColor(space: .pattern, components: [], alpha: 1, patternImage: one)
                == ArchivedColor(space: .pattern, components: [], alpha: 1, patternImage: other))
    }

    @Test("The decoder's limits still apply: a chain deeper than maxDepth and an object that refers to itself throw")
    func limitsStillApply() throws {
        let deep = AmplificationFamily.sharedRawObjects.archive(references: 600, length: 16)
        let decoder = ArchiveDecoder()
        decoder.limits.maxDepth = 500
        #expect(throws: DecodingError.self) { try decoder.decode(ArchivedRawValue.self, from: deep) }
        let selfReferring = archive([dict(["me": uid(1), "$class": uid(2)]), classEntry("Loop")])
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ArchivedRawValue.self, from: selfReferring) }
        // A budget smaller than the chain's objects stops it.
        let small = ArchiveDecoder()
        small.limits.maxObjectVisits = 50
        #expect(throws: DecodingError.self) { try small.decode(ArchivedRawValue.self, from: AmplificationFamily.sharedRawObjects.archive(references: 40, length: 16)) }
    }

    @Test("Runs that share one attribute dictionary have it hashed once when written, and read back the same")
    func sharedAttributesHashedOnce() throws {
        let data = AmplificationFamily.sharedAttributes.archive(references: 20_000, length: 200)
        let text = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: data)
        #expect(text.runs.count == 20_001 && text.runs[0].attributes.count == 200 && text.runs[0].archivedValues.count == 100)
        let found = ArchivedAttributedString.distinctAttributes(of: text.runs)
        #expect(found.distinct.count == 1 && found.hashed == 1 && found.indexes.allSatisfy { $0 == 0 })
        let rewritten = try ArchiveEncoder().encode(text)
        #expect(rewritten.count < 2 * data.count, "\(rewritten.count) bytes written from \(data.count)")
        let again = try ArchiveDecoder().decode(ArchivedAttributedString.self, from: rewritten)
        #expect(again.runs.count == text.runs.count && again.runs[0] == text.runs[0] && again.runs[20_000] == text.runs[20_000])
    }

    @Test("Runs built apart with equal attributes still share one dictionary when written")
    func equalAttributesBuiltApart() throws {
        let runs = (0..<4).map { index in
            ArchivedAttributedString.Run(range: index..<(index + 1), attributes: ["NSKern": .number(index % 2 == 0 ? 1 : 2)])
        }
        let found = ArchivedAttributedString.distinctAttributes(of: runs)
        #expect(found.distinct.count == 2 && found.indexes == [0, 1, 0, 1])
    }
}
