import Foundation
import Testing
@testable import KeyedArchive

// Every file in corpus/hostile given to ArchiveDecoder: it throws or returns, never traps
// or hangs. The process surviving is the test; the error must be a DecodingError with a
// message. The files are enumerated at run time, one test case each.

/// A small Codable type that reads what the bpylist2 archives hold (`title`).
private struct Probe: Codable {
    var title: String?
}

/// What a hostile/keyed file breaks, and what the error must say.
struct HostileKeyedCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The `$top` key to decode (the XML ones use `$0`, so that a missing `root` is not
    /// what fails).
    let key: String
    /// Substrings of the error message; each must appear.
    let mentions: [String]
    /// Whether typed decoding may legitimately succeed (the file breaks only something a
    /// typed reader does not need); then `title` must be "yo".
    let mayDecode: Bool
    /// Whether `topLevelKeys(in:)` must throw (the envelope itself is broken).
    let envelopeBroken: Bool
    var testDescription: String { name }
}

let hostileKeyedCases: [HostileKeyedCase] = [
    // $archiver is "NSArchiver".
    HostileKeyedCase(name: "bpylist2-invalid_type_archive.plist", key: "root", mentions: ["$archiver"], mayDecode: false, envelopeBroken: true),
    // $top.root is UID 10 with 3 objects.
    HostileKeyedCase(name: "bpylist2-invalid_uid_archive.plist", key: "root", mentions: ["out of range"], mayDecode: false, envelopeBroken: true),
    // $version is 10000.
    HostileKeyedCase(name: "bpylist2-invalid_version_archive.plist", key: "root", mentions: ["$version"], mayDecode: false, envelopeBroken: true),
    // The root object has "$classy" instead of "$class": an object dictionary without a
    // class. A typed reader that only wants `title` needs no class, and the caller's type
    // decides how to read (FORMAT.md §5), so success with title "yo" is acceptable; if it
    // throws, the message must name $class.
    HostileKeyedCase(name: "bpylist2-missing_uid_archive.plist", key: "root", mentions: ["$class"], mayDecode: true, envelopeBroken: false),
    // $class points at the string "blam", not at a class entry. The same reasoning as
    // above: the class entry is not needed to read `title`, so success is acceptable.
    HostileKeyedCase(name: "bpylist2-no_class_meta_archive.plist", key: "root", mentions: ["$class"], mayDecode: true, envelopeBroken: false),
    // The class entry has "$class_name" instead of "$classname". corpus/README.md lists
    // "a $class without $classname" among the files whose decoding must throw an error
    // naming the problem, so success is not acceptable here.
    HostileKeyedCase(name: "bpylist2-no_class_name_archive.plist", key: "root", mentions: ["$classname"], mayDecode: false, envelopeBroken: false),
    // "$objectives" instead of "$objects".
    HostileKeyedCase(name: "bpylist2-no_objects_archive.plist", key: "root", mentions: ["$objects"], mayDecode: false, envelopeBroken: true),
    // $top holds "rooty", not "root".
    HostileKeyedCase(name: "bpylist2-no_root_archive.plist", key: "root", mentions: ["root", "rooty"], mayDecode: false, envelopeBroken: false),
    // "$toppo" instead of "$top".
    HostileKeyedCase(name: "bpylist2-no_top_archive.plist", key: "root", mentions: ["$top"], mayDecode: false, envelopeBroken: true),
    // Not well-formed XML (no <?xml start, truncated).
    HostileKeyedCase(name: "broken_plist.xml", key: "$0", mentions: ["property list"], mayDecode: false, envelopeBroken: true),
    HostileKeyedCase(name: "missing_archiver.xml", key: "$0", mentions: ["$archiver"], mayDecode: false, envelopeBroken: true),
    HostileKeyedCase(name: "missing_objects.xml", key: "$0", mentions: ["$objects"], mayDecode: false, envelopeBroken: true),
    HostileKeyedCase(name: "missing_top.xml", key: "$0", mentions: ["$top"], mayDecode: false, envelopeBroken: true),
    HostileKeyedCase(name: "missing_version.xml", key: "$0", mentions: ["$version"], mayDecode: false, envelopeBroken: true),
    // $archiver is "DummyArchiver".
    HostileKeyedCase(name: "wrong_archiver.xml", key: "$0", mentions: ["$archiver"], mayDecode: false, envelopeBroken: true),
    // $version is 18.
    HostileKeyedCase(name: "wrong_version.xml", key: "$0", mentions: ["$version"], mayDecode: false, envelopeBroken: true),
]

/// Runs `body`; when it throws, the error must be a DecodingError with a non-empty message.
/// Returns the message, or nil when `body` returned.
@discardableResult
private func throwsOrReturns(_ what: String, _ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        let message = decodingErrorMessage(error)
        #expect(message != nil, "\(what) threw \(type(of: error)), not a DecodingError: \(error)")
        #expect(message?.isEmpty == false, "\(what) threw a DecodingError without a message")
        return message ?? "\(error)"
    }
}

@Suite("Hostile inputs (corpus/hostile) throw or return, never trap", .requiresCorpus, .timeLimit(.minutes(2)))
struct HostileCorpusTests {
    @Test("Every hostile file: decode and topLevelKeys throw a DecodingError or return",
          arguments: CorpusFile.all(in: "hostile/bplist-libplist-fuzz")
            + CorpusFile.all(in: "hostile/xml-libplist-fuzz")
            + CorpusFile.all(in: "hostile/keyed"))
    func survives(file: CorpusFile) throws {
        let data = try file.data()
        let decoder = ArchiveDecoder()
        throwsOrReturns("decode(Probe.self)") { _ = try decoder.decode(Probe.self, from: data) }
        throwsOrReturns("decode([Probe].self)") { _ = try decoder.decode([Probe].self, from: data) }
        throwsOrReturns("decode(String.self)") { _ = try decoder.decode(String.self, from: data) }
        throwsOrReturns("topLevelKeys") {
            for key in try decoder.topLevelKeys(in: data) {
                throwsOrReturns("decode(Probe.self, forKey: \(key))") { _ = try decoder.decode(Probe.self, forKey: key, from: data) }
            }
        }
    }

    @Test("The corpus has the three hostile folders, none empty")
    func foldersPresent() {
        #expect(CorpusFile.all(in: "hostile/bplist-libplist-fuzz").count >= 20)
        #expect(CorpusFile.all(in: "hostile/xml-libplist-fuzz").count >= 20)
        #expect(CorpusFile.all(in: "hostile/keyed").count == hostileKeyedCases.count)
    }

    @Test("Every hostile/keyed file has an expectation below")
    func keyedTableIsComplete() {
        #expect(Set(CorpusFile.all(in: "hostile/keyed").map(\.name)) == Set(hostileKeyedCases.map(\.name)))
    }

    @Test("hostile/keyed: decoding throws and the message names what is wrong", arguments: hostileKeyedCases)
    func keyed(_ testCase: HostileKeyedCase) throws {
        let data = try corpusData("hostile/keyed/\(testCase.name)")
        let decoder = ArchiveDecoder()
        do {
            let value = try decoder.decode(Probe.self, forKey: testCase.key, from: data)
            #expect(testCase.mayDecode, "\(testCase.name) decoded (\(value)) but must throw")
            if testCase.mayDecode { #expect(value.title == "yo") }
        } catch {
            let message = try #require(decodingErrorMessage(error), "not a DecodingError: \(error)")
            #expect(!message.isEmpty)
            for word in testCase.mentions {
                #expect(message.contains(word), "the message should mention \(word): \(message)")
            }
        }

        if testCase.envelopeBroken {
            let error = #expect(throws: DecodingError.self) { try decoder.topLevelKeys(in: data) }
            let message = error.flatMap(decodingErrorMessage) ?? ""
            for word in testCase.mentions {
                #expect(message.contains(word), "topLevelKeys should mention \(word): \(message)")
            }
        } else {
            #expect(try decoder.topLevelKeys(in: data) == [testCase.name.contains("no_root") ? "rooty" : "root"])
        }
    }
}
