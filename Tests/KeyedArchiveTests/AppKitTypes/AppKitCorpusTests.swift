import Foundation
import Testing
@testable import KeyedArchive

// Every NSColor, NSFont, NSParagraphStyle and NSAttributedString object in the shared
// corpus (apps/ and apple/, archives nested in data fields included), as listed by
// appkit_objects.py (plistlib): each reads into the value type with the values the script
// reads from its raw fields, and re-encoding it writes the same fields.

/// One object listed by appkit_objects.py.
struct AppKitCorpusObject: Sendable {
    let file: String
    /// For an archive nested in a data field: the outer object's index and the field's key.
    let nested: (index: Int, key: String)?
    let index: Int
    let kind: String
    let layout: String
    /// The values plistlib reads from the raw fields (JSON).
    let expected: Data
    /// The object's fields as canonical JSON, by key.
    let fields: [String: String]

    var name: String { "\(file)\(nested.map { "#\($0.index).\($0.key)" } ?? "") object \(index)" }

    /// The archive the object is in, its root pointed at the object.
    func archiveData() throws -> Data {
        var data = try corpusData(file)
        if let nested {
            guard case .dictionary(let root) = try PropertyListValue(propertyList: data),
                  case .array(let objects)? = root.first(where: { $0.key == "$objects" })?.value,
                  nested.index < objects.count, case .dictionary(let fields) = objects[nested.index],
                  case .data(let inner)? = fields.first(where: { $0.key == nested.key })?.value else {
                throw CancellationError()
            }
            data = inner
        }
        return try rooted(data, at: index)
    }
}

/// The listing of the corpus, made once (empty when the corpus or python3 is absent: the
/// tests using it are then skipped, or fail under CI).
let appKitCorpusObjects: [AppKitCorpusObject] = {
    guard corpusAvailable, python3Available,
          let output = try? runPythonScript("Tests/KeyedArchiveTests/AppKitTypes/appkit_objects.py",
                                            ["list", corpusRoot.path, "apps", "apple"]),
          let records = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else { return [] }
    return records.compactMap { record in
        guard let file = record["file"] as? String, let index = record["index"] as? Int,
              let kind = record["kind"] as? String, let layout = record["layout"] as? String,
              let expected = record["expected"], let fields = record["fields"] as? [String: String],
              let expectedData = try? JSONSerialization.data(withJSONObject: expected, options: [.fragmentsAllowed]) else { return nil }
        var nested: (Int, String)?
        if let pair = record["nested"] as? [Any], pair.count == 2, let outer = pair[0] as? Int, let key = pair[1] as? String {
            nested = (outer, key)
        }
        return AppKitCorpusObject(file: file, nested: nested, index: index, kind: kind, layout: layout,
                                  expected: expectedData, fields: fields)
    }
}()

/// Whether two JSON values are equal, numbers and booleans compared as Doubles.
func jsonValuesEqual(_ a: Any?, _ b: Any?) -> Bool {
    func number(_ value: Any?) -> Double? {
        if value is String { return nil }
        if let double = value as? Double { return double }
        if let int = value as? Int { return Double(int) }
        if let flag = value as? Bool { return flag ? 1 : 0 }
        return (value as? NSNumber)?.doubleValue
    }
    let aNil = a == nil || a is NSNull
    let bNil = b == nil || b is NSNull
    if aNil || bNil { return aNil && bNil }
    if let x = number(a), let y = number(b) { return x == y }
    if let x = a as? String, let y = b as? String { return x == y }
    if let x = a as? [Any], let y = b as? [Any] {
        return x.count == y.count && zip(x, y).allSatisfy { jsonValuesEqual($0, $1) }
    }
    if let x = a as? [String: Any], let y = b as? [String: Any] {
        return Set(x.keys) == Set(y.keys) && x.allSatisfy { jsonValuesEqual($0.value, y[$0.key]) }
    }
    return false
}

extension ArchivedColor {
    /// The shape appkit_objects.py gives a colour.
    var corpusShape: [String: Any] {
        if case .catalog(let catalog, let name, let fallback) = space {
            return ["space": "catalog", "catalog": catalog, "name": name, "fallback": fallback?.corpusShape ?? NSNull()]
        }
        var shape: [String: Any] = ["space": space.name, "components": components, "alpha": alpha]
        if let approximation {
            shape["approximation"] = approximation
            shape["identifier"] = colorSpace?.identifier ?? NSNull()
            shape["iccBytes"] = colorSpace?.iccProfile?.count ?? 0
        }
        return shape
    }
}

@Suite("AppKit values: every object in the shared corpus")
struct AppKitCorpusTests {
    /// The layouts the corpus holds (appkit_objects.py's names); a new one fails `layoutsCovered`.
    static let layouts = [
        "NSColor{NSColorSpace,NSRGB} NSColorSpace=1",
        "NSColor{NSColorSpace,NSRGB} NSColorSpace=2",
        "NSColor{NSColorSpace,NSWhite} NSColorSpace=3",
        "NSColor{NSColorSpace,NSComponents,NSCustomColorSpace,NSRGB} NSColorSpace=1",
        "NSColor{NSColorSpace,NSComponents,NSCustomColorSpace,NSWhite} NSColorSpace=3",
        "NSColor{NSCatalogName,NSColor,NSColorName,NSColorSpace} NSColorSpace=6",
        "NSFont{NSName,NSSize,NSfFlags}",
        "NSParagraphStyle{NSAlignment,NSTabStops}",
        "NSMutableParagraphStyle{NSAlignment,NSTabStops}",
        "NSAttributedString{NSString}",
        "NSAttributedString{NSAttributes,NSString}",
        "NSMutableAttributedString{NSAttributeInfo,NSAttributes,NSString}",
        "NSTextStorage{NSDelegate,NSString}",
        "NSTextStorage{NSAttributes,NSDelegate,NSString}",
    ]

    @Test("The corpus's layouts are the ones tested, and every one of its 319 objects is listed",
          .requiresCorpus, .requiresPython3)
    func layoutsCovered() {
        #expect(Set(appKitCorpusObjects.map(\.layout)) == Set(Self.layouts))
        #expect(appKitCorpusObjects.count == 319)
    }

    @Test("Each object reads with the values plistlib reads from its raw fields, and re-encodes field for field",
          .requiresCorpus, .requiresPython3, arguments: layouts)
    func layout(_ layout: String) throws {
        let objects = appKitCorpusObjects.filter { $0.layout == layout }
        #expect(!objects.isEmpty, "no corpus object has the layout \(layout)")
        let directory = try Scratch.folder("appkit")
        defer { try? FileManager.default.removeItem(at: directory) }
        var rewritten: [String] = []
        for (position, object) in objects.enumerated() {
            let data = try object.archiveData()
            let (shape, encoded) = try Self.readAndRewrite(object.kind, data)
            let expected = try JSONSerialization.jsonObject(with: object.expected, options: [.fragmentsAllowed])
            #expect(jsonValuesEqual(shape, expected), "\(object.name): read \(shape), plistlib read \(expected)")
            let url = directory.appendingPathComponent("\(position).plist")
            try encoded.write(to: url)
            rewritten.append(url.path)
        }
        let output = try runPythonScript("Tests/KeyedArchiveTests/AppKitTypes/appkit_objects.py", ["graph"] + rewritten)
        let graphs = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]])
        try #require(graphs.count == objects.count)
        for (object, graph) in zip(objects, graphs) {
            var original = object.fields
            if object.layout.hasPrefix("NSTextStorage") {
                // Written as an NSMutableAttributedString: the text storage's delegate (its
                // layout manager, which refers back to it) is not kept.
                original["NSDelegate"] = nil
                original["$class"] = #"["NSMutableAttributedString", "NSAttributedString", "NSObject"]"#
            }
            let differing = Set(graph.keys).union(original.keys).filter { graph[$0] != original[$0] }.sorted()
            let report = differing.map { "\($0): wrote \(graph[$0]?.prefix(300) ?? "nothing"), file has \(original[$0]?.prefix(300) ?? "nothing")" }
            #expect(differing.isEmpty, "\(object.name) re-encodes other fields: \(report.joined(separator: "; "))")
        }
    }

    /// Decodes the root of `data` as the value type of `kind`; its shape for comparison
    /// with the script's, and the value encoded again.
    static func readAndRewrite(_ kind: String, _ data: Data) throws -> (Any, Data) {
        let decoder = ArchiveDecoder()
        let encoder = ArchiveEncoder()
        switch kind {
        case "color":
            let color = try decoder.decode(ArchivedColor.self, from: data)
            return (color.corpusShape, try encoder.encode(color))
        case "font":
            let font = try decoder.decode(ArchivedFont.self, from: data)
            return (["name": font.name, "size": font.size, "flags": font.flags], try encoder.encode(font))
        case "paragraphStyle":
            let style = try decoder.decode(ArchivedParagraphStyle.self, from: data)
            let tabs: Any = style.tabStops.map { $0.map(\.location) } ?? NSNull()
            return (["alignment": style.alignment ?? NSNull(), "tabStops": tabs, "isMutable": style.isMutable], try encoder.encode(style))
        default:
            let text = try decoder.decode(ArchivedAttributedString.self, from: data)
            let runs = text.runs.map { [$0.range.lowerBound, $0.range.count, $0.attributes.keys.sorted()] as [Any] }
            return (["string": text.string, "runs": runs], try encoder.encode(text))
        }
    }

    @Test("keyedarchive json --expand-nested shows every corpus file's AppKit values interpreted, no raw layout fields",
          .requiresCorpus, .requiresPython3)
    func jsonInterprets() throws {
        let files = Dictionary(grouping: appKitCorpusObjects, by: \.file)
        #expect(files.count >= 15)
        for (file, objects) in files.sorted(by: { $0.key < $1.key }) {
            let result = try CLI.run(["json", "--expand-nested", CLI.corpusFile(file)])
            #expect(result.status == 0, "\(file)")
            for raw in ["NSRGB", "NSWhite", "NSCMYK", "NSComponents", "NSColorSpace", "NSfFlags", "NSTabStops", "NSAttributeInfo"] {
                #expect(!result.stdout.contains("\"\(raw)\""), "\(file) shows the raw field \(raw)")
            }
            let kinds = Set(objects.map(\.kind))
            if kinds.contains("color") { #expect(result.stdout.contains("\"space\""), "\(file)") }
            if kinds.contains("font") { #expect(result.stdout.contains("\"size\""), "\(file)") }
            if kinds.contains("attributedString") { #expect(result.stdout.contains("\"runs\""), "\(file)") }
        }
    }
}
