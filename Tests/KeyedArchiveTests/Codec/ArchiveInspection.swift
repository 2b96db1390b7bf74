import Foundation
@testable import KeyedArchive

/// Reads an archive's raw plist with our reader (cross-checked against Foundation and
/// plistlib in other suites), for assertions on layout.
struct RawArchive {
    let objects: [PropertyListValue]
    let top: [PropertyListEntry]

    init(_ data: Data) throws {
        let plist: PropertyListValue
        if data.starts(with: Array("bplist".utf8)) {
            plist = try BinaryPropertyList(data).topValue()
        } else {
            plist = try XMLPropertyListReader.read([UInt8](data))
        }
        guard case .array(let objects)? = plist["$objects"], case .dictionary(let top)? = plist["$top"] else {
            throw KeyedArchiveError("not an archive")
        }
        self.objects = objects
        self.top = top
    }

    /// The object a UID value points at.
    func resolve(_ value: PropertyListValue?) -> PropertyListValue? {
        guard case .uid(let uid)? = value, uid < objects.count else { return nil }
        return objects[Int(uid)]
    }

    /// The root object.
    var root: PropertyListValue? { resolve(top.first(where: { $0.key == "root" })?.value) }

    /// `$classname` of an object.
    func className(of object: PropertyListValue?) -> String? {
        guard case .string(let name)? = resolve(object?["$class"])?["$classname"] else { return nil }
        return name
    }

    /// `$classes` of an object.
    func classes(of object: PropertyListValue?) -> [String] {
        guard case .array(let list)? = resolve(object?["$class"])?["$classes"] else { return [] }
        return list.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    /// How many times a string is stored in `$objects`.
    func count(ofString string: String) -> Int {
        objects.filter { $0 == .string(string) }.count
    }
}

/// Encodes in `format`, checks determinism (two encodes give the same bytes), decodes back.
func roundTrip<T: Codable>(_ value: T, format: PropertyListFormat,
                           invalidXMLCharacters: ArchiveEncoder.InvalidXMLCharacterStrategy = .throw)
    throws -> (decoded: T, data: Data, raw: RawArchive) {
    let encoder = ArchiveEncoder()
    encoder.outputFormat = format
    encoder.invalidXMLCharacterStrategy = invalidXMLCharacters
    let data = try encoder.encode(value)
    let again = try encoder.encode(value)
    guard data == again else { throw KeyedArchiveError("encoding is not deterministic") }
    let decoded = try ArchiveDecoder().decode(T.self, from: data)
    return (decoded, data, try RawArchive(data))
}
