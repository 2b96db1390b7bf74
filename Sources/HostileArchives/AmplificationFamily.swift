import Foundation
import KeyedArchive

/// Valid keyed archives in which one value is referenced from many places (issue 32 §2):
/// a reader that copies, parses or prints the value again at each reference does work and
/// takes memory of references × length, which grows with the square of the file's size.
/// About half the file is the shared value and half the references to it, the split that
/// maximises that product.
public enum AmplificationFamily: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Records (`Record` objects) whose one field name is the same long string; read as
    /// `[[String: String]]`.
    case sharedFieldName
    /// An NSArray whose elements are all one long base64 string; read as `[Data]` with
    /// `dataDecodingStrategy = .base64`.
    case sharedBase64
    /// An NSArray whose elements are all one long URL string; read as `[URL]`.
    case sharedURL
    /// An NSArray whose elements are all one long string of digits; read as `[Decimal]`.
    case sharedDecimal
    /// An NSArray whose elements are all one long string; read as `[String]` and `Set<String>`.
    case sharedString
    /// `$objects` entries that are all the same binary-plist string object, listed by an NSArray.
    case objectsShareOneString
    /// An NSOrderedSet with many `NS.object.N` keys, referenced many times from an NSArray.
    case sharedOrderedSet
    /// Objects of distinct classes whose class entries all name one long class name.
    case sharedClassName
    /// A pattern colour whose image (kept as an `ArchivedRawValue`) leads to a chain of
    /// objects, each referring twice to the next (issue 53 §2): 2^levels paths through
    /// `levels` objects, about log2 of the file's size plus 2 (22 at 1 MB); the image's
    /// inline data fills the rest. Read as `ArchivedColor` and `ArchivedRawValue`, and
    /// written back.
    case sharedRawObjects
    /// An attributed string whose runs, all of length zero but the last, share one
    /// dictionary of up to 1,000 number attributes (issue 53 §6); the runs fill the rest.
    /// Read as `ArchivedAttributedString`, and written back.
    case sharedAttributes
    /// `NSColor` objects whose `NSRGB` text is one data object of up to 60,000 bytes (spaces,
    /// then four numbers: a valid colour); read as `[ArchivedColor]` (issue 53 §1).
    case sharedColorText
    /// Catalog colours (`NSColorSpace` 6) that all name one fallback `NSColor` whose `NSRGB`
    /// text is up to 60,000 bytes; read as `[ArchivedColor]` (issue 53 §1).
    case sharedColorFallback
    /// An NSArray whose elements are all one data object, referenced with one-byte
    /// references (half a million of them in 1 MB); read as `[Data]` (issue 53 §6).
    case sharedData

    public var description: String { rawValue }

    /// The typed decodes that read this family the way the attack needs.
    public var probes: [AmplificationProbe] {
        switch self {
        case .sharedFieldName, .sharedClassName: return [.init("[[String: String]]", [[String: String]].self)]
        case .sharedBase64: return [.init("[Data] base64", [Data].self) { $0.dataDecodingStrategy = .base64 }]
        case .sharedURL: return [.init("[URL]", [URL].self)]
        case .sharedDecimal: return [.init("[Decimal]", [Decimal].self)]
        case .sharedString: return [.init("[String]", [String].self), .init("Set<String>", Set<String>.self)]
        case .objectsShareOneString: return [.init("[String]", [String].self)]
        case .sharedOrderedSet: return [.init("[[Int]]", [[Int]].self)]
        case .sharedRawObjects:
            return [.init("ArchivedColor", ArchivedColor.self), .init(reencoding: "ArchivedColor", ArchivedColor.self),
                    .init("ArchivedRawValue", ArchivedRawValue.self), .init(reencoding: "ArchivedRawValue", ArchivedRawValue.self)]
        case .sharedAttributes:
            return [.init("ArchivedAttributedString", ArchivedAttributedString.self),
                    .init(reencoding: "ArchivedAttributedString", ArchivedAttributedString.self)]
        case .sharedColorText, .sharedColorFallback: return [.init("[ArchivedColor]", [ArchivedColor].self)]
        case .sharedData: return [.init("[Data]", [Data].self)]
        }
    }

    /// The archive at about `targetBytes` (within 10% from 10 KB up): half the bytes the
    /// shared value, half the references to it (a colour's text is at most 60,000 bytes,
    /// under the 64 KiB ``KeyedArchiveView/appKitValue(of:)`` interprets, and the rest is colours).
    public func archive(targetBytes: Int) -> Data {
        switch self {
        case .sharedRawObjects:
            // The chain's length grows with log2 of the size; the image's data fills the rest.
            let levels = Int(log2(Double(max(2, targetBytes)))) + 2
            let base = archive(references: levels, length: 1).count
            return archive(references: levels, length: max(1, targetBytes - base))
        case .sharedAttributes:
            // Each run is two bytes of NSAttributeInfo.
            let entries = min(1_000, max(1, targetBytes / 100))
            let base = archive(references: 0, length: entries).count
            return archive(references: max(0, (targetBytes - base) / 2), length: entries)
        default:
            break
        }
        let width = targetBytes > 32_768 && !usesNarrowReferences ? 4 : 1
        let length = isColor ? min(60_000, max(16, targetBytes / 2)) : max(16, targetBytes / 2)
        let probe = archive(references: 64, length: length, minimumWidth: width)
        let smaller = archive(references: 32, length: length, minimumWidth: width)
        let perReference = max(1, Double(probe.count - smaller.count) / 32)
        let base = Double(probe.count) - perReference * 64
        var references = max(1, Int((Double(targetBytes) - base) / perReference))
        var data = archive(references: references, length: length, minimumWidth: width)
        // Wider references past 255 objects make the first estimate low: one correction.
        for _ in 0..<2 where abs(Double(data.count) / Double(targetBytes) - 1) > 0.05 {
            let actual = max(1, (Double(data.count) - base) / Double(references))
            references = max(1, Int((Double(targetBytes) - base) / actual))
            data = archive(references: references, length: length, minimumWidth: width)
        }
        return data
    }

    /// The archive with `references` references to one value of about `length` bytes.
    /// (``sharedRawObjects``: a chain of `references` objects and `length` bytes of image
    /// data; ``sharedAttributes``: `references` runs of length zero sharing `length`
    /// attributes.)
    public func archive(references: Int, length: Int, minimumWidth: Int = 1) -> Data {
        let n = max(1, references), length = max(1, length)
        var graph = ArchiveGraph()
        graph.plist.minimumWidth = minimumWidth
        let root: UInt64
        switch self {
        case .sharedRawObjects:
            root = graph.patternColor(levels: n, imageBytes: length)
        case .sharedAttributes:
            root = graph.attributedString(zeroLengthRuns: max(0, references), attributes: length)
        case .sharedFieldName:
            let key = graph.plist.add(.string(String(repeating: "k", count: length)))
            let value = graph.string("v"), classKey = graph.string("$class")
            let classRef = graph.uid(graph.classUID("Record"))
            let records = (0..<n).map { _ in
                graph.addEntry(graph.plist.add(.dictionary(keys: [classKey, key], values: [classRef, value])))
            }
            root = graph.array(of: records)
        case .sharedBase64:
            let bytes = (0..<(length * 3 / 4)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            root = graph.arrayRepeating(.string(Data(bytes).base64EncodedString()), count: n)
        case .sharedURL:
            root = graph.arrayRepeating(.string("https://example.com/" + String(repeating: "a", count: length)), count: n)
        case .sharedDecimal:
            root = graph.arrayRepeating(.string("0." + String(repeating: "1", count: length)), count: n)
        case .sharedString:
            root = graph.arrayRepeating(.string(String(repeating: "s", count: length)), count: n)
        case .objectsShareOneString:
            let text = graph.plist.add(.string(String(repeating: "o", count: length)))
            root = graph.array(of: (0..<n).map { _ in graph.addEntry(text) })
        case .sharedOrderedSet:
            // Keys and references in equal numbers; the keys are the shared part.
            let keys = max(1, length / 16)
            let member = graph.uid(graph.addEntry(graph.plist.shared(.integer(7))))
            let set = graph.addObject(className: "NSOrderedSet", fields: (0..<keys).map { (key: "NS.object.\($0)", value: member) })
            let ref = graph.uid(set)
            root = graph.addObject(className: "NSArray", fields: [("NS.objects", graph.plist.add(.array(Array(repeating: ref, count: n))))])
        case .sharedClassName:
            let name = graph.plist.add(.string(String(repeating: "C", count: length)))
            let classNameKey = graph.string("$classname"), classesKey = graph.string("$classes")
            let classes = graph.plist.add(.array([name, graph.string("NSObject")]))
            let entry = graph.plist.add(.dictionary(keys: [classNameKey, classesKey], values: [name, classes]))
            let classKey = graph.string("$class")
            let records = (0..<n).map { _ in
                let classUID = graph.addEntry(entry)
                return graph.addEntry(graph.plist.add(.dictionary(keys: [classKey], values: [graph.uid(classUID)])))
            }
            root = graph.array(of: records)
        case .sharedColorText, .sharedColorFallback, .sharedData:
            root = graph.viewAmplification(self, references: n, length: length)
        }
        return graph.data(root: root)
    }
}

/// A typed decode of an ``AmplificationFamily`` archive, with the decoder options it needs.
public struct AmplificationProbe: CustomStringConvertible {
    public let name: String
    /// Whether the probe writes the value back (`ArchiveEncoder`) after decoding it.
    public let reencodes: Bool
    /// Decodes (and writes back): the bytes written.
    let body: (Data) throws -> Int
    public var description: String { name }

    init<T: Decodable>(_ name: String, _ type: T.Type, configure: @escaping (ArchiveDecoder) -> Void = { _ in }) {
        self.name = name
        reencodes = false
        body = { data in
            let decoder = ArchiveDecoder()
            configure(decoder)
            _ = try decoder.decode(T.self, from: data)
            return 0
        }
    }

    /// A probe that decodes `T`, then encodes it again (named "`name` re-encoded").
    init<T: Codable>(reencoding name: String, _ type: T.Type) {
        self.name = name + " re-encoded"
        reencodes = true
        body = { data in try ArchiveEncoder().encode(try ArchiveDecoder().decode(T.self, from: data)).count }
    }

    /// Decodes `data`: `nil` for a value, the error otherwise.
    public func run(_ data: Data) -> (any Error)? {
        if case .failure(let error) = runReportingOutput(data) { return error }
        return nil
    }

    /// Decodes `data` (and writes it back): the bytes written (0 for a decode alone), or the error.
    public func runReportingOutput(_ data: Data) -> Result<Int, any Error> {
        Result { try body(data) }
    }
}

extension ArchiveGraph {
    /// An NSArray whose `NS.objects` holds `count` references to one `$objects` entry, `value`.
    mutating func arrayRepeating(_ value: RawBinaryPlist.Object, count: Int) -> UInt64 {
        let ref = uid(addEntry(plist.add(value)))
        return addObject(className: "NSArray", fields: [("NS.objects", plist.add(.array(Array(repeating: ref, count: count))))])
    }
}

extension ArchiveGraph {
    /// A pattern colour (`NSColorSpace` 10) whose `NSImage` object holds `imageBytes` bytes
    /// of inline data and refers to the first of `levels` objects, each of whose fields
    /// `a` and `b` refer to the next; the last holds a number.
    mutating func patternColor(levels: Int, imageBytes: Int) -> UInt64 {
        var next = addObject(className: "NSChainLink", fields: [("value", plist.add(.integer(1)))])
        for _ in 1..<max(1, levels) {
            let link = uid(next)
            next = addObject(className: "NSChainLink", fields: [("a", link), ("b", link)])
        }
        let bytes = (0..<imageBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let image = addObject(className: "NSImage", fields: [("NSData", plist.add(.data(bytes))), ("NSReps", uid(next))])
        return addObject(className: "NSColor", fields: [("NSColorSpace", plist.add(.integer(10))), ("NSImage", uid(image))])
    }

    /// An NSAttributedString of one character: `zeroLengthRuns` runs of length zero, then
    /// one of length one, all with one NSDictionary of `attributes` numbers (whole numbers,
    /// every other one written as a real, which the runs keep as archived values).
    mutating func attributedString(zeroLengthRuns: Int, attributes: Int) -> UInt64 {
        let count = max(1, attributes)
        let keys = (0..<count).map { uid(addEntry(plist.add(.string("NSAttribute\($0)")))) }
        let values = (0..<count).map { index in
            uid(addEntry(plist.add(index % 2 == 0 ? .integer(Int64(index)) : .real(Double(index)))))
        }
        let dictionary = addObject(className: "NSDictionary", fields: [("NS.keys", plist.add(.array(keys))),
                                                                       ("NS.objects", plist.add(.array(values)))])
        let table = addObject(className: "NSMutableArray", fields: [("NS.objects", plist.add(.array([uid(dictionary)])))])
        // (length, attribute index) pairs as packed unsigned numbers: (0, 0) per empty run, then (1, 0).
        let info = addEntry(plist.add(.data([UInt8](repeating: 0, count: 2 * max(0, zeroLengthRuns)) + [1, 0])))
        let text = addEntry(plist.add(.string("x")))
        return addObject(className: "NSAttributedString", fields: [("NSString", uid(text)), ("NSAttributes", uid(table)),
                                                                   ("NSAttributeInfo", uid(info))])
    }
}
