import Foundation
import Testing
@testable import KeyedArchive

/// Issue 11 item 10: every archive Apple's Foundation wrote decodes through an
/// AnyCodable-style generic value, and the strings it finds are the strings the untyped
/// view finds — no value silently dropped, none invented.
@Suite("Fidelity: every Apple archive through a generic value")
struct GenericCorpusTests {
    static let files: [CorpusFile] = ["apple/corelibs", "apple/macos", "apple/nskeyedunarchiver-rs", "apple/go-sample"]
        .flatMap { CorpusFile.all(in: $0) }

    @Test("Decodes through ProbingValue with the same strings as KeyedArchiveView", .requiresCorpus, arguments: files)
    func sameStrings(file: CorpusFile) throws {
        let data = try file.data()
        let view = try KeyedArchiveView(data: data)
        if file.relativePath.hasSuffix("circularReference.plist") {
            // An array that contains itself: an error (the probes swallow the cycle error
            // itself, so the last probe's mismatch is reported), never a recursion.
            #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ProbingValue.self, from: data) }
            let direct = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([ProbingValue].self, from: data) }
            #expect(direct.flatMap(decodingErrorMessage)?.contains("cycle") == true)
            return
        }
        let value = try ArchiveDecoder().decode(ProbingValue.self, from: data)
        var leaves = Set<String>(), keys = Set<String>()
        value.collect(leaves: &leaves, keys: &keys)
        let viewStrings = Self.strings(in: view)
        // Every string the view reaches is a value or a dictionary key of the generic value …
        #expect(viewStrings.subtracting(leaves.union(keys)).isEmpty, "missing: \(viewStrings.subtracting(leaves.union(keys)).sorted())")
        // … and every string value the generic value holds is in the archive.
        #expect(leaves.subtracting(viewStrings).isEmpty, "invented: \(leaves.subtracting(viewStrings).sorted())")
    }

    /// The string values reachable from `$top` (objects and inline values alike).
    static func strings(in view: KeyedArchiveView) -> Set<String> {
        var result = Set<String>()
        var seen = Set<Int>()
        var pending: [ArchivedValue] = view.topLevel.map(\.value)
        while let value = pending.popLast() {
            switch value {
            case .string(let s): result.insert(s)
            case .array(let items): pending.append(contentsOf: items)
            case .dictionary(let fields): pending.append(contentsOf: fields.map(\.value))
            case .reference(let index):
                guard seen.insert(index).inserted, index < view.objects.count else { continue }
                let object = view.objects[index]
                if let plain = object.plainValue { pending.append(plain) }
                pending.append(contentsOf: object.fields.map(\.value))
            default: break
            }
        }
        return result
    }
}

/// A generic value as AnyCodable-style libraries write it: probes with `try?`, a dictionary
/// first, then an array, then scalars (Bool before Int, the common order).
indirect enum ProbingValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case array([ProbingValue])
    case dictionary([String: ProbingValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode([String: ProbingValue].self) { self = .dictionary(value) }
        else if let value = try? container.decode([ProbingValue].self) { self = .array(value) }
        else if let scalar = Self.scalar(container) { self = scalar }
        else { self = .date(try container.decode(Date.self)) }
    }

    /// The scalar probes, in order: Bool, Int64, UInt64, Double, String, Data; nil when
    /// none reads the value.
    static func scalar(_ container: any SingleValueDecodingContainer) -> ProbingValue? {
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(Int64.self) { return .int(value) }
        if let value = try? container.decode(UInt64.self) { return .uint(value) }
        if let value = try? container.decode(Double.self) { return .double(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        if let value = try? container.decode(Data.self) { return .data(value) }
        return nil
    }

    func collect(leaves: inout Set<String>, keys: inout Set<String>) {
        switch self {
        case .string(let s): leaves.insert(s)
        case .array(let items): for item in items { item.collect(leaves: &leaves, keys: &keys) }
        case .dictionary(let entries):
            for (key, item) in entries {
                keys.insert(key)
                item.collect(leaves: &leaves, keys: &keys)
            }
        default: break
        }
    }
}
