import Foundation
import Testing
@testable import KeyedArchive

// Helpers for the Foundation value-type layout suites: both oracles (Foundation's
// NSKeyedArchiver/NSKeyedUnarchiver on this machine, and python3's plistlib for the
// archived object graph), and the checks every layout gets.

/// Encodes `value` with ArchiveEncoder in both formats and returns what Foundation's
/// NSKeyedUnarchiver reads from each, as `F`.
func foundationReads<T: Encodable, F>(_ value: T, as type: F.Type) throws -> [F] {
    try PropertyListFormat.allCases.map { format in
        let data = try archive(value, format: format)
        let object = try foundationUnarchive(data)
        return try #require(object as? F, "NSKeyedUnarchiver read \(String(describing: object)) from the \(format) archive of \(value)")
    }
}

/// Archives `object` with Foundation's NSKeyedArchiver in both formats and decodes each
/// with ArchiveDecoder as `T`.
func weRead<T: Decodable>(_ type: T.Type, fromFoundationArchiveOf object: Any) throws -> [T] {
    try [PropertyListSerialization.PropertyListFormat.binary, .xml].map { format in
        try ArchiveDecoder().decode(T.self, from: foundationArchive(object, format: format))
    }
}

/// Encoding the same value twice gives the same bytes, in both formats.
func expectDeterministic<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for format in PropertyListFormat.allCases {
        #expect(try archive(value, format: format) == archive(value, format: format),
                "\(format) output of \(value) differs between runs", sourceLocation: sourceLocation)
    }
}

/// `value` decodes back equal from ArchiveEncoder's output in both formats, and encodes
/// to the same bytes every time.
func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for format in PropertyListFormat.allCases {
        #expect(try ArchiveDecoder().decode(T.self, from: archive(value, format: format)) == value,
                "\(format) round trip", sourceLocation: sourceLocation)
    }
    try expectDeterministic(value, sourceLocation: sourceLocation)
}

/// Decoding `T` from `data` throws `DecodingError.typeMismatch`.
func expectTypeMismatch<T: Decodable>(_ type: T.Type, from data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let value = try ArchiveDecoder().decode(T.self, from: data)
        Issue.record("decoded \(value) as \(T.self) instead of throwing typeMismatch", sourceLocation: sourceLocation)
    } catch DecodingError.typeMismatch {
        // expected
    } catch {
        Issue.record("expected typeMismatch for \(T.self), got \(error)", sourceLocation: sourceLocation)
    }
}

/// The archive's root object graph as python3's plistlib sees it: UIDs followed and
/// inlined, `$class` replaced by `{"$classes": [...]}`, as canonical JSON. Two archives of
/// the same object graph give the same text whatever their UID numbering or key order.
func archivedGraph(_ data: Data, dropping droppedKeys: [String] = []) throws -> String {
    let url = Scratch.file("graph", suffix: ".plist")
    try data.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try runPython3(["-c", archivedGraphScript, url.path] + droppedKeys).trimmingCharacters(in: .whitespacesAndNewlines)
}

private let archivedGraphScript = #"""
import plistlib, json, sys
with open(sys.argv[1], 'rb') as f:
    archive = plistlib.load(f)
objects = archive['$objects']
dropped = set(sys.argv[2:])
def uid(v):
    if isinstance(v, plistlib.UID): return v.data
    if isinstance(v, dict) and list(v.keys()) == ['CF$UID']: return v['CF$UID']
    return None
def tree(v, depth=0):
    if depth > 50: raise SystemExit('too deep')
    u = uid(v)
    if u is not None:
        return None if u == 0 else tree(objects[u], depth + 1)
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in dropped: continue
            if k == '$class':
                out[k] = objects[uid(x)]['$classes']
            else:
                out[k] = tree(x, depth + 1)
        return out
    if isinstance(v, list): return [tree(x, depth + 1) for x in v]
    if isinstance(v, bytes): return {'data': v.hex()}
    if isinstance(v, float): return {'real': repr(v)}
    return v
top = archive['$top']
print(json.dumps(tree(top['root']), sort_keys=True, ensure_ascii=True))
"""#
