import Foundation
import Testing
@testable import KeyedArchive

// Every archive of Apple's software in the corpus that has a cycle (nibs, SceneKit scenes,
// Core Data models, a PaintCode document, a self-containing array), decoded into one
// generic two-phase class: each cycle the untyped view reports comes back as one instance.

/// Any archived object: its fields, or its elements for a collection (a dictionary's keys
/// and values alternately, since its keys may be objects with no text).
/// It reads an NSDictionary's keys and values from an unkeyed container, so it says so
/// (``ArchiveKeyValuePairsDecodable``; issue 52).
private final class AnyGraphObject: ArchiveReferenceDecodable, ArchiveKeyValuePairsDecodable {
    var fields: [String: AnyGraphValue] = [:]
    var elements: [AnyGraphValue] = []

    /// A generic graph of strong references: the test breaks its cycles by hand.
    static var archiveBackEdges: [any CodingKey] { [ArchiveBackEdge.everyKey] }

    init() {}

    func decodeFields(from decoder: any Decoder) throws {
        let classes = decoder.archivedClassNames ?? []
        if classes.contains(where: { ["NSArray", "NSSet", "NSOrderedSet", "NSDictionary"].contains($0) }) {
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd { elements.append(try container.decode(AnyGraphValue.self)) }
            return
        }
        let container = try decoder.container(keyedBy: ArchiveCodingKey.self)
        for key in container.allKeys { fields[key.stringValue] = try container.decode(AnyGraphValue.self, forKey: key) }
    }
}

/// Any archived value: a scalar, or an object (decoded in two phases, so cycles resolve).
private enum AnyGraphValue: Decodable {
    case null, bool(Bool), integer(Int64), real(Double), string(String), data(Data), object(AnyGraphObject)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else {
            self = .object(try container.decode(AnyGraphObject.self))
        }
    }

    var object: AnyGraphObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}

/// The cyclic archives of apple/ and apps/ (found with `keyedarchive verify`, which notes
/// each cycle). apps/scenekit/Fox2-character_max.scn also covers NSDictionary's numbered
/// layout (`NS.key.0`, `NS.object.0`, …) that SceneKit's archiver writes.
private let cyclicArchives = [
    "apple/nskeyedunarchiver-rs/circularReference.plist",
    "apps/core-data-model/TopSongs-elements",
    "apps/core-data-model/CoreDataBooks-layout",
    "apps/scenekit/particles.scn",
    "apps/scenekit/Fox2-character_max.scn",
    "apps/interface-builder/iMediaBrowser-Links-xml.nib",
    "apps/interface-builder/Journler-CalendarControl.nib",
    "apps/interface-builder/nv-MainMenu.nib",
    "apps/interface-builder/DrawKit-MainMenu.nib",
    "apps/interface-builder/OgreKit-AdvancedFindPanel-compiled.nib",
    "apps/documents/PaintCode-SampleStyleKit.pcvd",
]

@Suite("Cyclic archives from Apple's software decode into two-phase classes", .requiresCorpus)
struct CyclicCorpusTests {
    @Test("Every cycle closes on the same instance", arguments: cyclicArchives)
    func decodesWithIdentity(path: String) throws {
        let data = try corpusData(path)
        let root = try ArchiveDecoder().decode(AnyGraphValue.self, from: data)
        // Walk the decoded graph: the set of distinct instances, and whether some object
        // reaches back to one of its ancestors (a cycle, closed by identity).
        var seen = Set<ObjectIdentifier>()
        var onPath = Set<ObjectIdentifier>()
        var closesCycle = false
        var all: [AnyGraphObject] = []
        func walk(_ value: AnyGraphValue) {
            guard let object = value.object else { return }
            let id = ObjectIdentifier(object)
            if onPath.contains(id) { closesCycle = true }
            guard seen.insert(id).inserted else { return }
            all.append(object)
            onPath.insert(id)
            for field in object.fields.values { walk(field) }
            for element in object.elements { walk(element) }
            onPath.remove(id)
        }
        walk(root)
        #expect(closesCycle, "no object of \(path) reaches back to an ancestor")
        // Objects are archived once: no more instances than objects in the file.
        #expect(all.count < (try RawArchive(data)).objects.count)
        // Break the cycles so that the graph is freed.
        for object in all {
            object.fields = [:]
            object.elements = []
        }
    }
}
