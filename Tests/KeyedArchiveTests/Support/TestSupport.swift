import Foundation
import Testing
@testable import KeyedArchive

// Shared helpers for the interoperability and corpus suites: where the corpus is, a
// python3 plistlib oracle, and Foundation's NSKeyedUnarchiver.

// MARK: - Locations

/// The package root: the nearest directory above this file that holds `Package.swift`.
let packageRoot: URL = {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            return directory
        }
        directory.deleteLastPathComponent()
    }
    // Tests/KeyedArchiveTests/Support/TestSupport.swift: three levels up.
    return URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}()

/// `../shared/corpus`, relative to the package root. The environment variable
/// `KEYEDARCHIVE_CORPUS` overrides it (e.g. to check that corpus tests report as skipped).
let corpusRoot: URL = {
    if let override = ProcessInfo.processInfo.environment["KEYEDARCHIVE_CORPUS"], !override.isEmpty {
        return URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
    }
    return packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpus", isDirectory: true)
        .standardizedFileURL
}()

/// Whether the corpus is present; corpus suites are skipped (with a message) when not.
let corpusAvailable: Bool = {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: corpusRoot.path, isDirectory: &isDirectory) && isDirectory.boolValue
}()

/// Whether the tests run under CI (`CI=true`), where a missing corpus or python3 is a
/// failure, not a skip.
let runningUnderCI: Bool = ProcessInfo.processInfo.environment["CI"] == "true"

extension Trait where Self == ConditionTrait {
    /// Skips a test, with a message, when `../shared/corpus` is absent — except under CI,
    /// where the test runs and fails on the missing files.
    static var requiresCorpus: Self {
        .enabled(if: corpusAvailable || runningUnderCI, "../shared/corpus is absent (looked for \(corpusRoot.path))")
    }

    /// Skips a test, with a message, when no working `python3` with plistlib is on PATH —
    /// except under CI, where the test runs and fails.
    static var requiresPython3: Self {
        .enabled(if: python3Available || runningUnderCI, "python3 with plistlib is not on PATH")
    }
}

/// One corpus file, as a test argument: named `folder/file` in test output.
struct CorpusFile: Sendable, Hashable, CustomTestStringConvertible, CustomStringConvertible {
    /// Path relative to the corpus root, e.g. `hostile/keyed/missing_top.xml`.
    let relativePath: String

    init(_ relativePath: String) { self.relativePath = relativePath }

    var url: URL { corpusRoot.appendingPathComponent(relativePath) }
    var name: String { (relativePath as NSString).lastPathComponent }
    var testDescription: String { relativePath }
    var description: String { relativePath }

    func data() throws -> Data { try Data(contentsOf: url) }

    /// Every regular file in `folder` (relative to the corpus root), sorted, enumerated at
    /// run time. Empty when the corpus is absent (those tests are skipped by `requiresCorpus`).
    static func all(in folder: String) -> [CorpusFile] {
        let directory = corpusRoot.appendingPathComponent(folder, isDirectory: true)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }
            .filter { name in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
            .sorted()
            .map { CorpusFile("\(folder)/\($0)") }
    }
}

/// Reads a corpus file by its path relative to the corpus root.
func corpusData(_ relativePath: String) throws -> Data {
    try CorpusFile(relativePath).data()
}

// MARK: - python3 / plistlib

/// The `python3` executable found on PATH, if any.
let python3URL: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
}()

/// Whether `python3` runs and has plistlib.
let python3Available: Bool = {
    guard python3URL != nil else { return false }
    return (try? runPython3(["-c", "import plistlib, json; print('ok')"]).trimmingCharacters(in: .whitespacesAndNewlines)) == "ok"
}()

struct Python3Error: Error, CustomStringConvertible {
    var status: Int32
    var stderr: String
    var description: String { "python3 exited with status \(status): \(stderr)" }
}

/// Runs python3 with `arguments`; returns its standard output, throws on a non-zero exit.
func runPython3(_ arguments: [String]) throws -> String {
    guard let python3URL else { throw Python3Error(status: -1, stderr: "python3 not found on PATH") }
    // Output goes to temporary files rather than pipes: no pipe can fill up and block
    // python, and no FileHandle read can be interrupted.
    let outURL = Scratch.file("py", suffix: ".out")
    let errURL = Scratch.file("py", suffix: ".err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = python3URL
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    let output = (try? Data(contentsOf: outURL)) ?? Data()
    guard process.terminationStatus == 0 else {
        let errorOutput = (try? Data(contentsOf: errURL)) ?? Data()
        throw Python3Error(status: process.terminationStatus, stderr: String(decoding: errorOutput, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
}

/// The plistlib → canonical JSON script: keys sorted, no spaces; a UID is `{"UID":n}`,
/// data is `{"data":"hex"}`, a date is `{"date":seconds since 2001}`, a real is
/// `{"real":repr}` so reals and integers never compare equal by accident. An XML
/// `{CF$UID: n}` dictionary (plistlib does not convert it) is rendered as a UID too.
private let plistlibToJSON = #"""
import plistlib, json, sys, datetime
def conv(o):
    if isinstance(o, plistlib.UID): return {"UID": o.data}
    if isinstance(o, bool): return o
    if isinstance(o, int): return o
    if isinstance(o, float): return {"real": repr(o)}
    if isinstance(o, bytes): return {"data": o.hex()}
    if isinstance(o, datetime.datetime):
        ref = datetime.datetime(2001, 1, 1)
        if o.tzinfo is not None: ref = ref.replace(tzinfo=datetime.timezone.utc)
        return {"date": (o - ref).total_seconds()}
    if isinstance(o, dict):
        # XML keeps a UID as <dict><key>CF$UID</key><integer>n</integer></dict>.
        if list(o.keys()) == ["CF$UID"] and type(o["CF$UID"]) is int: return {"UID": o["CF$UID"]}
        return {k: conv(v) for k, v in o.items()}
    if isinstance(o, list): return [conv(v) for v in o]
    return o
with open(sys.argv[1], 'rb') as f:
    value = plistlib.load(f)
print(json.dumps(conv(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True))
"""#

/// Loads the file at `url` with Python's plistlib and returns it as canonical JSON text
/// (see ``PropertyListValue/canonicalJSON``). Throws when plistlib rejects the file.
func plistlibJSON(contentsOf url: URL) throws -> String {
    try runPython3(["-c", plistlibToJSON, url.path]).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Writes `data` to a temporary file and loads it with plistlib, as canonical JSON text.
func plistlibJSON(of data: Data) throws -> String {
    let url = Scratch.file("plistlib", suffix: ".plist")
    try data.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try plistlibJSON(contentsOf: url)
}

extension PropertyListValue {
    /// The same canonical JSON text as the plistlib script writes, for comparison.
    var canonicalJSON: String {
        switch self {
        case .string(let s): return jsonString(s)
        case .integer(let i): return String(i)
        case .unsignedInteger(let u): return String(u)
        case .wideInteger(let w): return w.description
        case .real(let d): return "{\"real\":\(jsonString(pythonRepr(d)))}"
        case .float(let f): return "{\"real\":\(jsonString(pythonRepr(Double(f))))}"
        case .bool(let b): return b ? "true" : "false"
        case .date(let seconds): return "{\"date\":\(pythonRepr(seconds))}"
        case .data(let d): return "{\"data\":\"\(d.map { String(format: "%02x", $0) }.joined())\"}"
        case .uid(let u): return "{\"UID\":\(u)}"
        case .array(let items): return "[" + items.map(\.canonicalJSON).joined(separator: ",") + "]"
        case .dictionary(let entries):
            // json.dumps(sort_keys=True) sorts by code point; a later duplicate key wins.
            var merged: [String: PropertyListValue] = [:]
            for entry in entries { merged[entry.key] = entry.value }
            let keys = merged.keys.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
            return "{" + keys.map { "\(jsonString($0)):\(merged[$0]!.canonicalJSON)" }.joined(separator: ",") + "}"
        }
    }
}

/// Python's `repr(float)`: shortest round-trip digits, with `.0` on whole numbers.
private func pythonRepr(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d > 0 ? "inf" : "-inf" }
    var text = "\(d)"  // Swift also prints the shortest round-trip form
    if let e = text.firstIndex(of: "e") {
        // Swift: 1e+20 / 1e-05; Python: 1e+20 / 1e-05 as well, but Python switches at 1e16.
        let mantissa = text[..<e], exponent = text[text.index(after: e)...]
        let sign = exponent.first == "-" ? "-" : "+"
        var digits = exponent.drop { $0 == "+" || $0 == "-" }
        if digits.count < 2 { digits = "0" + digits }
        text = "\(mantissa.hasSuffix(".0") ? mantissa.dropLast(2) : mantissa)e\(sign)\(digits)"
    }
    return text
}

/// A JSON string literal with `ensure_ascii` escaping, as Python's json module writes it.
private func jsonString(_ s: String) -> String {
    var out = "\""
    for unit in s.utf16 {
        switch unit {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x08: out += "\\b"
        case 0x0C: out += "\\f"
        case 0x20..<0x7F: out += String(UnicodeScalar(UInt8(unit)))
        default: out += String(format: "\\u%04x", unit)
        }
    }
    return out + "\""
}

// MARK: - Foundation's NSKeyedUnarchiver

/// An error from Foundation's unarchiver (it reports through `error`, not by throwing).
struct FoundationUnarchiveError: Error, CustomStringConvertible {
    var description: String
}

/// Decodes `data` with Foundation's `NSKeyedUnarchiver`, with `classes` registered by
/// class name, and returns the object under `key` (the root object by default).
///
/// Failures are set on the unarchiver instead of trapping (`.setErrorAndReturn`), and
/// reported as a thrown ``FoundationUnarchiveError``.
func foundationUnarchive(_ data: Data, classes: [String: AnyClass] = [:],
                         key: String = NSKeyedArchiveRootObjectKey) throws -> Any? {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    for (name, cls): (String, AnyClass) in classes {
        unarchiver.setClass(cls, forClassName: name)
    }
    let object = unarchiver.decodeObject(forKey: key)
    if let error = unarchiver.error {
        throw FoundationUnarchiveError(description: "NSKeyedUnarchiver: \(error)")
    }
    unarchiver.finishDecoding()
    return object
}

/// Archives `object` with Foundation's `NSKeyedArchiver` in `format`.
func foundationArchive(_ object: Any, format: PropertyListSerialization.PropertyListFormat = .binary) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.outputFormat = format
    archiver.encode(object, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
}

extension PropertyListFormat {
    /// Foundation's name for the same serialization.
    var foundationFormat: PropertyListSerialization.PropertyListFormat {
        switch self {
        case .binary: return .binary
        case .xml: return .xml
        }
    }
}

/// Encodes with ``ArchiveEncoder`` in `format` (characters XML 1.0 cannot hold: as
/// `invalidXMLCharacters` says).
func archive<T: Encodable>(_ value: T, format: PropertyListFormat,
                           invalidXMLCharacters: ArchiveEncoder.InvalidXMLCharacterStrategy = .throw) throws -> Data {
    let encoder = ArchiveEncoder()
    encoder.outputFormat = format
    encoder.invalidXMLCharacterStrategy = invalidXMLCharacters
    return try encoder.encode(value)
}

/// The message of a `DecodingError` (its context's debugDescription), or `nil` for other errors.
func decodingErrorMessage(_ error: any Error) -> String? {
    guard let error = error as? DecodingError else { return nil }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
         .keyNotFound(_, let context), .dataCorrupted(let context):
        return context.debugDescription
    @unknown default:
        return nil
    }
}

// MARK: - Python scripts in the repository

/// Runs the python3 script at `relativePath` (from the package root) with `arguments`;
/// returns its standard output. Tests that call it carry `.requiresPython3`, so under CI
/// a missing python3 is a failure, not a skip.
func runPythonScript(_ relativePath: String, _ arguments: [String]) throws -> String {
    try runPython3([packageRoot.appendingPathComponent(relativePath).path] + arguments)
}
