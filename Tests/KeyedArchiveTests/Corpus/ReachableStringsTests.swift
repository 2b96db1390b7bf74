import Foundation
import Testing
@testable import KeyedArchive

/// Issue 27: every string Python's plistlib reaches in an archive Apple's software wrote
/// is shown by `keyedarchive json` and held by an AnyCodable-style generic value — nothing
/// dropped, however the archive's dictionaries are keyed and whatever its classes derive
/// from. The oracle is `reachable_strings.py` (plistlib only), not our own view.
@Suite("Corpus: plistlib's reachable strings are in json and in a generic value")
struct ReachableStringsTests {
    static let files: [CorpusFile] = ["apple/corelibs", "apple/macos", "apple/nskeyedunarchiver-rs", "apple/go-sample",
                                      "apps/color-lists", "apps/core-data-model", "apps/documents", "apps/instruments",
                                      "apps/interface-builder", "apps/ios-app", "apps/pyobjc", "apps/scenekit", "apps/spritekit"]
        .flatMap { CorpusFile.all(in: $0) }

    /// What the script found.
    struct Oracle: Decodable {
        var top: [String]
        var root: [String]
        var rootCyclic: Bool
        /// `root` with attributed strings reached as their text (as a `String` reads them).
        var rootAsText: [String]
        /// The string keys of the NSDictionaries reachable from the root (attributed
        /// strings reached as their text).
        var rootDictionaryKeys: [String]
    }

    static func oracle(_ file: CorpusFile) throws -> Oracle {
        let output = try runPythonScript("Tests/KeyedArchiveTests/Corpus/reachable_strings.py", [file.url.path])
        return try JSONDecoder().decode(Oracle.self, from: Data(output.utf8))
    }

    @Test("The corpus folders hold archives", .requiresCorpus)
    func corpusIsThere() {
        #expect(Self.files.filter { $0.relativePath.hasPrefix("apps/") }.count >= 22)
    }

    @Test("The oracle finds what these files are known to hold", .requiresCorpus, .requiresPython3)
    func oracleSelfCheck() throws {
        let pyobjc = try Self.oracle(CorpusFile("apps/pyobjc/plaso-NSKeyedArchiver.plist"))
        #expect(Set(pyobjc.root).isSuperset(of: ["MyString", "Some string", "MyDate"]))
        #expect(!pyobjc.rootCyclic)
        let nib = try Self.oracle(CorpusFile("apps/interface-builder/Journler-CalendarControl.nib"))
        #expect(nib.top.contains("%A, %B %e"))  // NSCalendarDate's NS.format
        #expect(nib.rootCyclic)  // views and their superviews
        #expect(try Self.oracle(CorpusFile("apple/nskeyedunarchiver-rs/circularReference.plist")).rootCyclic)
        #expect(!(try Self.oracle(CorpusFile("apple/nskeyedunarchiver-rs/simpleDict.plist")).rootCyclic))
    }

    @Test("keyedarchive json shows every string reachable from $top", .requiresCorpus, .requiresPython3, arguments: files)
    func jsonShowsEveryString(file: CorpusFile) throws {
        let oracle = try Self.oracle(file)
        let run = try BuiltExecutable.run("keyedarchive", ["json", file.url.path])
        try #require(run.status == 0, "json failed: \(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: run.stdoutData, options: [.fragmentsAllowed])
        var shown = Set<String>()
        Self.collect(json, into: &shown)
        // An NSURL is shown resolved: its NS.relative and NS.base strings are parts of it.
        let urls = shown.filter { $0.contains(":") && URL(string: $0) != nil }
        let missing = Set(oracle.top).subtracting(shown).filter { part in !urls.contains { $0.contains(part) } }
        #expect(missing.isEmpty, "json lacks: \(missing.sorted().prefix(20))")
    }

    @Test("A generic value holds every string reachable from root, or throws on a cycle", .requiresCorpus, .requiresPython3, arguments: files)
    func genericValueHoldsEveryString(file: CorpusFile) throws {
        let oracle = try Self.oracle(file)
        let data = try file.data()
        if oracle.rootCyclic {
            #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(AllKeysValue.self, from: data) }
            return
        }
        let value = try ArchiveDecoder().decode(AllKeysValue.self, from: data)
        var held = Set<String>()
        value.collect(into: &held)
        let missing = Set(oracle.root).subtracting(held)
        #expect(missing.isEmpty, "the generic value lacks: \(missing.sorted().prefix(20))")
    }

    @Test("Every archive in apps/ verifies sound", .requiresCorpus, arguments: files.filter { $0.relativePath.hasPrefix("apps/") })
    func appsVerify(file: CorpusFile) throws {
        let run = try BuiltExecutable.run("keyedarchive", ["verify", file.url.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr.split(separator: "\n").filter { $0.contains("error") }.prefix(5).joined(separator: "\n"))")
        #expect(run.stdout.contains(": OK ("))
    }

    /// Every string in parsed JSON: object keys and string values.
    static func collect(_ json: Any, into strings: inout Set<String>) {
        var keys = Set<String>()
        collect(json, into: &strings, keys: &keys)
    }

    /// Every string in parsed JSON (or a JSON-like tree of `[Any]` and `[String: Any]`)
    /// into `strings`, and the object keys also into `keys`.
    static func collect(_ json: Any, into strings: inout Set<String>, keys: inout Set<String>) {
        var pending: [Any] = [json]
        while let item = pending.popLast() {
            if let text = item as? String {
                strings.insert(text)
            } else if let list = item as? [Any] {
                pending.append(contentsOf: list)
            } else if let object = item as? [String: Any] {
                for (key, value) in object {
                    strings.insert(key)
                    keys.insert(key)
                    pending.append(value)
                    // A key that is an object is written as its compact JSON: read it too.
                    if key.hasPrefix("{") || key.hasPrefix("["),
                       let parsed = try? JSONSerialization.jsonObject(with: Data(key.utf8)) { pending.append(parsed) }
                }
            }
        }
    }
}

/// A generic value as AnyCodable-style libraries read one from any decoder: a keyed
/// container probed with `try?` and read through `allKeys`, then an unkeyed one, then the
/// scalar probes of ``ProbingValue`` (which probes typed dictionaries and arrays first).
struct AllKeysValue: Decodable {
    let value: ProbingValue

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) { stringValue = String(intValue); self.intValue = intValue }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var entries: [String: ProbingValue] = [:]
            for key in keyed.allKeys {
                entries[key.stringValue] = try keyed.decode(AllKeysValue.self, forKey: key).value
            }
            value = .dictionary(entries)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [ProbingValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(AllKeysValue.self).value) }
            value = .array(items)
        } else {
            value = try ProbingValue(from: decoder)
        }
    }

    /// Every string held: values and dictionary keys.
    func collect(into strings: inout Set<String>) {
        var keys = Set<String>()
        value.collect(leaves: &strings, keys: &keys)
        strings.formUnion(keys)
    }
}
