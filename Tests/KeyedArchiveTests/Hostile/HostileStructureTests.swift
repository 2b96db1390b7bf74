import Foundation
import HostileArchives
import KeyedArchive
import Testing

/// Valid keyed archives with malicious object graphs (issue 10), every family at 1 KB, 10 KB,
/// 100 KB and 1 MB, built in memory by `HostileArchives`. Each goes through the typed decoder
/// (a struct, an indirect enum, a class tree, nested arrays, an AnyCodable-style probing enum,
/// and String/Data/URL/UUID/Decimal/Date directly), `KeyedArchiveView` and `render()`, and the
/// CLI's `verify`, `json` and `dump` (at 1 KB and 100 KB only, to keep the suite short): each
/// returns a value or throws the documented error, never traps or hangs.
@Suite("Hostile object graphs")
struct HostileStructureTests {
    /// 1 KB to 100 KB here (a debug build); 1 MB is exercised in release by
    /// `swift run -c release keyedarchive-benchmark --hostile`, which times every family at
    /// every size, or here with KEYEDARCHIVE_HOSTILE_1MB=1.
    static let sizes: [HostileSize] = ProcessInfo.processInfo.environment["KEYEDARCHIVE_HOSTILE_1MB"] == "1"
        ? HostileSize.allCases : [.kb1, .kb10, .kb100]

    // Special-layout recursion.
    @Test("NSData chain ending in NS.data → itself", arguments: sizes)
    func dataChain(size: HostileSize) throws { try check(.dataChain, size) }
    @Test("NSString chain ending in NS.string → itself", arguments: sizes)
    func stringChain(size: HostileSize) throws { try check(.stringChain, size) }
    @Test("NSURL NS.base chain ending in itself", arguments: sizes)
    func urlChain(size: HostileSize) throws { try check(.urlChain, size) }
    @Test("NSDate NS.time chain ending in itself", arguments: sizes)
    func dateChain(size: HostileSize) throws { try check(.dateChain, size) }
    @Test("NSDecimalNumber NS.mantissa chain ending in itself", arguments: sizes)
    func decimalChain(size: HostileSize) throws { try check(.decimalChain, size) }
    @Test("NSUUID NS.uuidbytes chain ending in itself", arguments: sizes)
    func uuidChain(size: HostileSize) throws { try check(.uuidChain, size) }

    // Plist-level self-containment.
    @Test("NS.objects holding itself", arguments: sizes)
    func arrayHoldsItself(size: HostileSize) throws { try check(.arrayHoldsItself, size) }
    @Test("NS.objects holding the $objects array", arguments: sizes)
    func arrayHoldsObjectTable(size: HostileSize) throws { try check(.arrayHoldsObjectTable, size) }
    @Test("A field holding its object's own dictionary inline", arguments: sizes)
    func fieldHoldsOwnDictionary(size: HostileSize) throws { try check(.fieldHoldsOwnDictionary, size) }

    // Deep inline nesting.
    @Test("NS.objects = [[[[…]]]] up to 20,000 levels", arguments: sizes)
    func nestedInlineArrays(size: HostileSize) throws { try check(.nestedInlineArrays, size) }
    @Test("Inline dictionaries nested up to 20,000 levels", arguments: sizes)
    func nestedInlineDictionaries(size: HostileSize) throws { try check(.nestedInlineDictionaries, size) }

    // Fan-out DAGs.
    @Test("2^k fan-out through UIDs", arguments: sizes)
    func fanOutUIDs(size: HostileSize) throws { try check(.fanOutUIDs, size) }
    @Test("2^k fan-out through inline plist references", arguments: sizes)
    func fanOutInline(size: HostileSize) throws { try check(.fanOutInline, size) }

    // Quadratic key scans.
    @Test("An object with many keys referenced many times", arguments: sizes)
    func manyKeysShared(size: HostileSize) throws { try check(.manyKeysShared, size) }
    @Test("NSOrderedSet with NS.object.N keys in reverse order", arguments: sizes)
    func orderedSetReversedKeys(size: HostileSize) throws { try check(.orderedSetReversedKeys, size) }
    @Test("NSDictionary with tens of thousands of keys", arguments: sizes)
    func hugeDictionary(size: HostileSize) throws { try check(.hugeDictionary, size) }

    // View fan-out.
    @Test("Many $objects entries sharing one plist DAG", arguments: sizes)
    func viewFanOut(size: HostileSize) throws { try check(.viewFanOut, size) }

    @Test("python3's plistlib reads every family as a keyed archive", .requiresPython3)
    func plistlibReadsEveryFamily() throws {
        let folder = try Scratch.folder("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for family in HostileFamily.allCases {
            let url = folder.appendingPathComponent("\(family).bplist")
            try family.archive(targetBytes: HostileSize.kb1.bytes).write(to: url)
            paths.append(url.path)
        }
        // plistlib resolves shared and cyclic references by object number, so it reads them all.
        let script = """
        import plistlib, sys
        sys.setrecursionlimit(100000)
        for path in sys.argv[1:]:
            with open(path, 'rb') as f:
                p = plistlib.load(f)
            objects = p['$objects']
            assert p['$archiver'] == 'NSKeyedArchiver' and p['$version'] == 100000, path
            root = p['$top']['root']
            assert isinstance(root, plistlib.UID) and 0 < root.data < len(objects), path
            print(path.rsplit('/', 1)[-1], len(objects))
        """
        let output = try runPython3(["-c", script] + paths)
        #expect(output.split(separator: "\n").count == HostileFamily.allCases.count, "\(output)")
    }

    @Test("The fuzz builder makes archives plistlib reads, from any bytes", .requiresPython3)
    func fuzzBuilderMakesValidArchives() throws {
        let folder = try Scratch.folder("hostile-fuzz")
        defer { try? FileManager.default.removeItem(at: folder) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var paths: [String] = []
        for i in 0..<40 {
            // Fixed pseudo-random bytes; no 11 (deep nesting) opcodes, which python's recursion could not read.
            let bytes = (0..<(i * 8)).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = UInt8(truncatingIfNeeded: state >> 56)
                return byte % 16 == 11 ? 0 : byte
            }
            let data = FuzzedArchive.build(bytes)
            #expect(data.starts(with: Array("bplist00".utf8)))
            let url = folder.appendingPathComponent("\(i).bplist")
            try data.write(to: url)
            paths.append(url.path)
        }
        let output = try runPython3(["-c", """
        import plistlib, sys
        sys.setrecursionlimit(100000)
        for path in sys.argv[1:]:
            with open(path, 'rb') as f:
                p = plistlib.load(f)
            assert p['$archiver'] == 'NSKeyedArchiver', path
            print(len(p['$objects']))
        """] + paths)
        #expect(output.split(separator: "\n").count == paths.count)
    }

    /// Every reader on `family` at `size`: a value or a documented error, never a trap.
    private func check(_ family: HostileFamily, _ size: HostileSize) throws {
        let data = family.archive(targetBytes: size.bytes)
        #expect(Double(data.count) > Double(size.bytes) * 0.75 && Double(data.count) < Double(size.bytes) * 1.33,
                "\(family) at \(size) is \(data.count) bytes")
        // At 1 MB (a debug build reads each family for seconds), the model types and the
        // view; every probe runs at the smaller sizes, and `keyedarchive-benchmark --hostile`
        // times them all at 1 MB in release.
        let probes = size == .mb1 ? HostileDecoding.modelProbes.filter { ["struct", "probing enum"].contains($0.name) }
                                  : HostileDecoding.allProbes
        for probe in probes {
            let error = probe.run(data)
            expectDocumentedError(error, "\(family) at \(size) through \(probe)")
            // A cycle cannot be followed to a finite value: the special layouts that follow it throw.
            if family.isCyclic && ["String", "Data", "URL", "Date", "Decimal", "UUID"].contains(probe.name)
                && family.rawValue.lowercased().hasPrefix(probe.name.lowercased()) {
                #expect(error != nil, "\(family) at \(size) decoded as \(probe)")
            }
        }
        if size != .mb1 { #expect(HostileDecoding.roundTripFailure(data) == nil) }
        switch HostileDecoding.view(data) {
        case .success(let text): #expect(!text.isEmpty)
        case .failure(let error):
            #expect(error is KeyedArchiveError || error is PropertyListError, "\(family) at \(size): view threw \(type(of: error)): \(error)")
        }
        guard size == .kb1 || size == .kb100 else { return }
        let path = try CLI.temporaryFile(data, name: "\(family).plist")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        for command in ["verify", "json", "dump"] {
            let result = try CLI.run([command, path], timeout: 60)
            #expect(!result.timedOut, "keyedarchive \(command) hung on \(family) at \(size)")
            #expect(result.status == 0 || result.status == 1, "keyedarchive \(command) on \(family) at \(size): exit \(result.status): \(result.stderr.prefix(300))")
            if result.status == 1 { #expect(result.stderr.hasPrefix("error: ") || command == "verify", "\(command): \(result.stderr.prefix(300))") }
        }
    }
}

/// A typed decode returns a value or throws a `DecodingError` that says something.
private func expectDocumentedError(_ error: (any Error)?, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else { return }
    #expect(error is DecodingError, "\(context): threw \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    #expect(!"\(error)".isEmpty, sourceLocation: sourceLocation)
}
