import Foundation
import Testing
@testable import KeyedArchive

/// Issue 52: generic values that ask for an unkeyed container (or an array) before a
/// dictionary read every archive of `apple/` and `apps/` with the strings Python's plistlib
/// reaches from the root (`reachable_strings.py`), each NSDictionary's string keys as
/// dictionary keys — not as elements of a list of keys and values — or throw on a cycle.
///
/// Both shapes ask for a `String` before a container (quicktype inside containers, the
/// enum everywhere), and a `String` reads an attributed string's text (documented in
/// AppKitAndUIKitValues.md): the oracle's `rootAsText` walk reaches attributed strings as
/// their text likewise. (`ReachableStringsTests` checks the full `root` with a generic
/// value that asks for a keyed container first.)
@Suite("Corpus: quicktype's JSONAny and an AnyCodable enum read dictionaries as dictionaries")
struct GenericShapesCorpusTests {
    static let files = ReachableStringsTests.files

    @Test("The files read here are every file under apple/ and apps/", .requiresCorpus)
    func everyFile() throws {
        var found: Set<String> = []
        for folder in ["apple", "apps"] {
            let base = corpusRoot.appendingPathComponent(folder)
            let walker = try #require(FileManager.default.enumerator(atPath: base.path))
            while let name = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                guard !(name as NSString).lastPathComponent.hasPrefix("."), !name.hasSuffix("README.md"),
                      FileManager.default.fileExists(atPath: base.appendingPathComponent(name).path, isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                found.insert("\(folder)/\(name)")
            }
        }
        #expect(found.count >= 50)
        #expect(found == Set(Self.files.map(\.relativePath)))
    }

    @Test("quicktype's JSONAny (unkeyed, keyed, single value) holds every reachable string, dictionary keys as keys",
          .requiresCorpus, .requiresPython3, arguments: files)
    func quicktypeJSONAny(file: CorpusFile) throws {
        try check(file) { try ArchiveDecoder().decode(QuicktypeJSONAny.self, from: $0).strings() }
    }

    @Test("An AnyCodable enum (single value, [T], [String: T]) holds every reachable string, dictionary keys as keys",
          .requiresCorpus, .requiresPython3, arguments: files)
    func anyCodableEnum(file: CorpusFile) throws {
        try check(file) { try ArchiveDecoder().decode(AnyCodableValue.self, from: $0).strings() }
    }

    /// Decodes `file` with `decode`: it throws a `DecodingError` when a cycle is reachable
    /// from the root; otherwise it holds the oracle's strings, and its dictionary keys hold
    /// the oracle's NSDictionary keys.
    private func check(_ file: CorpusFile, _ decode: (Data) throws -> (all: Set<String>, keys: Set<String>)) throws {
        let oracle = try ReachableStringsTests.oracle(file)
        let data = try file.data()
        if oracle.rootCyclic {
            #expect(throws: DecodingError.self) { _ = try decode(data) }
            return
        }
        let held = try decode(data)
        let missing = Set(oracle.rootAsText).subtracting(held.all)
        #expect(missing.isEmpty, "the generic value lacks: \(missing.sorted().prefix(20))")
        let missingKeys = Set(oracle.rootDictionaryKeys).subtracting(held.keys)
        #expect(missingKeys.isEmpty, "not dictionary keys in the generic value: \(missingKeys.sorted().prefix(20))")
    }
}
