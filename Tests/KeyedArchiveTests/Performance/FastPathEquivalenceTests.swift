import Foundation
import Testing
@testable import KeyedArchive

// The speed work of issue 14 replaced general paths with fast ones: XML written straight
// from the object table, XML read straight into a binary property list, reals read without
// a string, scalars uniqued in ScalarRefTable. Each fast path is checked here against the
// general path it replaced (still in the package), on the same input: same bytes, same
// values, same errors. The golden checksums pin the encoder's output, so a speed change
// that moves a single byte fails.

private struct GoldenAddress: Codable, Equatable {
    var street: String
    var region: String?
}

private enum GoldenStatus: String, Codable { case open, shipped }

private struct GoldenOrder: Codable, Equatable {
    var id: UUID
    var status: GoldenStatus
    var placed: Date
    var shipped: Date?
    var address: GoldenAddress
    var quantities: [Int]
    var prices: [Double]
    var note: String?
    var flags: [Bool]
    var weights: [Float]
    var counts: [String: Int]
    var blob: Data
    var big: UInt64
    var negative: Int64
}

private func goldenOrder(_ i: Int) -> GoldenOrder {
    let n = UInt8(truncatingIfNeeded: i)
    let id = UUID(uuid: (n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255 &- n))
    let d = Double(i)
    let quantities: [Int] = [i, i * 1_000, -i, Int(Int32.max) + i]
    let prices: [Double] = [d / 8, 1e-7 * d, 123_456_789.125, -0.0, 1e300, d * 0.1]
    let counts: [String: Int] = ["a\(i % 3)": i, "$b": -i, "c": 7]
    let blobBytes: [UInt8] = (0..<((i % 9) * 11)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ i) }
    let address = GoldenAddress(street: "\(i) Rue de la Paix & <Fils>", region: i % 4 == 0 ? nil : "Région \(i % 5)")
    let shipped: Date? = i % 2 == 0 ? nil : Date(timeIntervalSinceReferenceDate: -d * 1_000.25)
    let note: String? = i % 2 == 0 ? "note \(i % 7) 日本語" : nil
    let weights: [Float] = [Float(i) / 3, 1.5]
    return GoldenOrder(
        id: id, status: i % 3 == 0 ? .shipped : .open, placed: Date(timeIntervalSinceReferenceDate: d * 86_400.5),
        shipped: shipped, address: address, quantities: quantities, prices: prices, note: note,
        flags: [i % 2 == 0, true], weights: weights, counts: counts, blob: Data(blobBytes),
        big: UInt64.max - UInt64(i), negative: Int64.min + Int64(i))
}

private func goldenOrders() -> [GoldenOrder] {
    (0..<40).map(goldenOrder)
}

/// FNV-1a, 64-bit: a stable checksum of an output (independent of the package's code).
private func fnv1a(_ data: Data) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}

@Suite("Fast paths (issue 14) equal the general paths")
struct FastPathEquivalenceTests {
    /// The encoder's bytes, pinned: these checksums were taken before the speed work and
    /// must not change (deterministic output, and no layout change hidden in a speedup).
    @Test func encoderOutputIsPinned() throws {
        let orders = goldenOrders()
        let binary = try ArchiveEncoder().encode(orders)
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = try encoder.encode(orders)
        #expect(binary.count == 23_939)
        #expect(fnv1a(binary) == 0x9D9B_602C_5C59_FAD8)
        #expect(xml.count == 194_348)
        #expect(fnv1a(xml) == 0x219B_4370_1EB2_6293)
        #expect(try ArchiveDecoder().decode([GoldenOrder].self, from: binary) == orders)
        #expect(try ArchiveDecoder().decode([GoldenOrder].self, from: xml) == orders)
    }

    /// XML streamed from the object table is what the tree writer makes of the same archive
    /// read back from its binary form.
    @Test func streamedXMLEqualsTreeWriter() throws {
        let orders = goldenOrders()
        let binary = try ArchiveEncoder().encode(orders)
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = try encoder.encode(orders)
        let tree = try BinaryPropertyList(binary).topValue()
        #expect(Data(XMLPropertyListWriter.write(tree)) == xml)
    }

    /// XML read straight into a binary property list gives the same bytes as reading a tree
    /// and writing it, or the same error.
    static func sameConversion(_ xml: [UInt8]) -> String? {
        let viaTree: Result<[UInt8], PropertyListError> = Result {
            BinaryPropertyListWriter.write(try XMLPropertyListReader.read(xml, maxDepth: 64),
                                           uniquingNumbers: XMLPropertyListReader.uniquesNumbers)
        }.mapError { $0 as! PropertyListError }
        let streamed: Result<[UInt8], PropertyListError> = Result {
            try XMLPropertyListReader.readBinary(xml, maxDepth: 64)
        }.mapError { $0 as! PropertyListError }
        switch (viaTree, streamed) {
        case (.success(let a), .success(let b)): return a == b ? nil : "different bytes (\(a.count) vs \(b.count))"
        case (.failure(let a), .failure(let b)): return a == b ? nil : "different errors: \(a) / \(b)"
        case (.success, .failure(let e)): return "only the streamed reader failed: \(e)"
        case (.failure(let e), .success): return "only the tree reader failed: \(e)"
        }
    }

    static let uidCases: [String] = [
        "<dict><key>CF$UID</key><integer>3</integer></dict>",
        "<dict><key>CF$UID</key><integer>4294967295</integer></dict>",
        "<dict><key>CF$UID</key><integer>4294967296</integer></dict>",
        "<dict><key>CF$UID</key><integer>-1</integer></dict>",
        "<dict><key>CF$UID</key><integer>18446744073709551615</integer></dict>",
        "<dict><key>CF$UID</key><string>3</string></dict>",
        "<dict><key>CF$UID</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>",
        "<dict><key>CF$UID</key><integer>3</integer><key>x</key><integer>3</integer></dict>",
        "<dict><key>CF$UID</key><integer>3</integer><key>CF$UID</key><integer>4</integer></dict>",
        "<dict><key>x</key><integer>1</integer><key>CF$UID</key><integer>3</integer></dict>",
        "<dict><key>CF$UID</key><integer>3</integer><key>x</key></dict>",
        "<dict><key>CF$UID</key></dict>",
        "<dict><key>CF$UID</key><integer/></dict>",
        "<dict><key>CF$UID</key><integer> 7 </integer></dict>",
        "<dict><key>CF$UID</key><integer>0x10</integer></dict>",
        "<array><dict><key>CF$UID</key><integer>1</integer></dict><dict/><array/><true/><dict><key>CF$UID</key><integer>2</integer></dict></array>",
        "<dict><key>CF$UID</key><integer>3</integer><key>CF$UID</key></dict>",
        "<dict><key>CF$UID</key><integer>3</integer><integer>4</integer></dict>",
        "<dict><key>CF$UID</key><integer>3</integer>",
        "<dict><key>a</key><real>1.5</real><key>b</key><date>2001-01-01T00:00:00Z</date><key>c</key><data>AAEC</data><key>d</key><string>x &amp; y</string><key>e</key><false/></dict>",
        "<integer>5</integer>",
        "<dict><key>CF$UID</key><integer>1</integer></dict>",
    ]

    @Test(arguments: uidCases)
    func streamedReaderMatchesTree(_ body: String) {
        let document = Array("<plist version=\"1.0\">\(body)</plist>".utf8)
        #expect(Self.sameConversion(document) == nil, "\(body)")
        #expect(Self.sameConversion(Array(body.utf8)) == nil, "\(body) without <plist>")
    }

    @Test func streamedReaderMatchesTreeOnArchives() throws {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml
        let xml = try encoder.encode(goldenOrders())
        #expect(Self.sameConversion([UInt8](xml)) == nil)
    }

    @Test(.requiresCorpus, arguments: CorpusFile.all(in: "hostile/xml-libplist-fuzz") + CorpusFile.all(in: "apple/corelibs")
        + CorpusFile.all(in: "hostile/keyed"))
    func streamedReaderMatchesTreeOnCorpus(_ file: CorpusFile) throws {
        let bytes = [UInt8](try file.data())
        guard !bytes.starts(with: Array("bplist".utf8)) else { return }
        #expect(Self.sameConversion(bytes) == nil, "\(file)")
    }

    /// Reals read without a string give exactly what `Double(String)` gives.
    @Test func exactDecimalMatchesStandardParser() {
        var texts = ["0", "-0", "1", "1.5", "0.1", "-12.25", "123456789012345", "1234567890123456", ".5", "5.", "1e22",
                     "1e23", "1e-22", "1e-23", "9007199254740993", "4.35", "2.2250738585072014e-308", "1.7976931348623157e308",
                     "0.000001", "12345.678901234", "100000000000000000000000", "1E5", "1e+5", "-1e-5", "000000000000000000001.5"]
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double(bitPattern: state >> 2) .truncatingRemainder(dividingBy: 1e12)
            texts.append(value.description)
            texts.append(String(Int64(bitPattern: state) % 1_000_000_000_000) + "." + String(state % 10_000))
            texts.append(String(state % 100_000) + "e" + String(Int(state % 50) - 25))
        }
        var checked = 0
        for text in texts where text.utf8.allSatisfy({ $0 != UInt8(ascii: "n") && $0 != UInt8(ascii: "i") }) {
            guard let fast = Array(text.utf8).withUnsafeBytes({ XMLPlistDecimal.exactDecimal(XMLPlistBytes($0)) }) else { continue }
            checked += 1
            #expect(fast.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        #expect(checked > 10_000)
    }

    /// Strings are uniqued by their exact bytes (as NSString.isEqual: compares), so two
    /// canonically equivalent spellings stay two objects and each decodes as written.
    @Test func canonicallyEquivalentStringsStayDistinct() throws {
        let words = ["\u{E9}t\u{E9}", "e\u{301}te\u{301}", "\u{212A}", "K", "\u{E9}t\u{E9}", "K"]
        let data = try ArchiveEncoder().encode(words)
        let back = try ArchiveDecoder().decode([String].self, from: data)
        #expect(back.map { Array($0.unicodeScalars) } == words.map { Array($0.unicodeScalars) })
        // Byte-equal strings are still stored once: 4 distinct strings, plus $null and the array.
        let objects = try BinaryPropertyList(data).topValue()["$objects"]
        guard case .array(let entries)? = objects else { Issue.record("no $objects"); return }
        #expect(entries.filter { if case .string = $0 { return true } else { return false } }.count == 1 + 4)
    }

    /// The binary builder stores equal data once and unequal data apart (hash table with a
    /// Dictionary behind it for collisions).
    @Test func builderUniquesDataByBytes() {
        var builder = BinaryPropertyListBuilder()
        var refs: [Data: Int] = [:]
        var state: UInt64 = 3
        for i in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 60)
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: (state >> UInt64($0 % 8 * 8)) % UInt64(i % 7 + 1)) })
            let ref = builder.data(data)
            if let earlier = refs[data] {
                #expect(earlier == ref)
            } else {
                #expect(!refs.values.contains(ref))
                refs[data] = ref
            }
        }
        #expect(refs.count > 100)
    }

    /// The binary builder gives each UID value one object, whatever order they come in
    /// (its dense table grown for small values upwards, downwards and in jumps; large ones
    /// apart), and the finished property list reads each back as that UID.
    @Test func builderUniquesUIDs() throws {
        var builder = BinaryPropertyListBuilder()
        var refs: [UInt64: Int] = [:]
        var state: UInt64 = 11
        var values: [UInt64] = Array(0..<300) + (0..<300).reversed() + [5_000, 1 << 20 - 1, 1 << 20, UInt64(UInt32.max), 7, 1 << 20]
        for i in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(i % 2 == 0 ? state >> 45 : state >> 32)
        }
        var children: [Int] = []
        for value in values {
            let ref = builder.uid(value)
            if let earlier = refs[value] {
                #expect(earlier == ref)
            } else {
                #expect(!refs.values.contains(ref))
                refs[value] = ref
            }
            children.append(ref)
        }
        let top = builder.array(children)
        let plist = try BinaryPropertyList(bytes: builder.finish(top: top))
        for (value, ref) in refs.prefix(500) {
            #expect(try plist.value(at: ref) == .uid(value))
        }
        #expect(refs.count > 3_000)
    }

    /// ScalarRefTable finds what it stored and nothing else, across growth.
    @Test func scalarRefTable() {
        var table = ScalarRefTable()
        var reference: [UInt64: Int] = [:]
        var state: UInt64 = 7
        for i in 0..<50_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = i % 3 == 0 ? UInt64(i) : state >> UInt64(i % 60)
            if table.ref(for: key) == nil {
                guard reference[key] == nil else { Issue.record("lost key \(key)"); return }
                table.insert(key, i)
                reference[key] = i
            }
        }
        #expect(table.count == reference.count)
        #expect(reference.filter { table.ref(for: $0.key) != $0.value }.isEmpty)
        #expect(table.ref(for: 0xDEAD_BEEF_0000_0001) == reference[0xDEAD_BEEF_0000_0001])

        // Keys that differ only in one 32-bit half, and references that do not fit the
        // slot's 32-bit word (kept aside), including the two values reserved as markers.
        var wide = ScalarRefTable()
        let entries: [(UInt64, Int)] = [
            (0xFFFF_FFFF_0000_0000, Int(UInt32.max) + 5), (0x0000_0000_FFFF_FFFF, Int(UInt32.max - 1)),
            (0xFFFF_FFFF_FFFF_FFFF, Int(UInt32.max)), (0, 0), (1 << 32, 1), (1, Int(UInt32.max - 2)),
        ]
        for (key, ref) in entries {
            #expect(wide.ref(for: key) == nil)
            wide.insert(key, ref)
        }
        for filler in 2..<100 { wide.insert(UInt64(filler) << 40, filler) }  // forces growth
        for (key, ref) in entries { #expect(wide.ref(for: key) == ref, "key \(key)") }
        #expect(wide.ref(for: 1 << 33) == nil)
    }

    /// Dictionary keys and set elements that are all ASCII are ordered by their first 16
    /// bytes as integers before `<`: the order must be exactly `<`'s.
    @Test func asciiKeyOrderEqualsStringOrder() throws {
        var keys = ["", "a", "ab", "ab\u{0}", "ab\u{0}x", "abc", "abcdefgh", "abcdefgh\u{0}", "abcdefghi",
                    "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmnoq",
                    "Z", "\u{7F}", "key-1", "key-10", "key-9", " ", "~~~~~~~~~~~~~~~~~~"]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<24, using: &rng)
            keys.append(String(decoding: (0..<length).map { _ in UInt8.random(in: 0..<4, using: &rng) + 0x61 }, as: UTF8.self))
        }
        let unique = Array(Set(keys))
        let order = try archiveSortedOrder(unique, userInfo: [:])
        #expect(order.map { unique[$0] } == unique.sorted())
        // Not all ASCII: `<` itself.
        let mixed = unique + ["é", "e\u{301}x", "日本"]
        let mixedOrder = try archiveSortedOrder(mixed, userInfo: [:])
        #expect(mixedOrder.map { mixed[$0] } == mixed.sorted())
    }

    /// The ASCII keys' sort (an introsort) gives `<`'s order on inputs already sorted,
    /// reversed, alternating, with long shared prefixes (ties broken by the strings), and
    /// on every small count.
    @Test func asciiKeySortOnAdverseOrders() throws {
        let shared = (0..<3_000).map { "key-with-a-long-shared-prefix-\($0 % 997)-\($0)" }
        let sorted = shared.sorted()
        let zigzag = sorted.indices.map { $0 % 2 == 0 ? sorted[$0 / 2] : sorted[sorted.count - 1 - $0 / 2] }
        for input in [sorted, Array(sorted.reversed()), zigzag, shared] {
            let order = try archiveSortedOrder(input, userInfo: [:])
            #expect(order.map { input[$0] } == sorted)
        }
        for count in 0..<40 {
            let input = (0..<count).map { "k\(($0 * 7919) % 41)-\($0)" }
            let order = try archiveSortedOrder(input, userInfo: [:])
            #expect(order.map { input[$0] } == input.sorted(), "count \(count)")
        }
    }

    /// `[Double]` and `[Int]` are stored a batch at a time with their uniquing slots
    /// preloaded, `[String]` without the generic steps: the same bytes as the element-by-element unkeyed container (forced here by
    /// a wrapper that encodes its elements itself), the same strategies, the same errors.
    @Test func numberArraysEqualElementByElement() throws {
        struct ByElement<N: Encodable>: Encodable {
            let values: [N]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                for value in values { try container.encode(value) }
            }
        }
        /// Two arrays in one value, stored directly or element by element (one type either
        /// way, so one class name).
        struct Holder<N: Encodable>: Encodable {
            let first: [N], again: [N], byElement: Bool
            enum CodingKeys: CodingKey { case first, again }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                if byElement {
                    try container.encode(ByElement(values: first), forKey: .first)
                    try container.encode(ByElement(values: again), forKey: .again)
                } else {
                    try container.encode(first, forKey: .first)
                    try container.encode(again, forKey: .again)
                }
            }
        }
        func same<N: Encodable>(_ first: [N], _ again: [N], _ encoder: ArchiveEncoder) throws -> Bool {
            try encoder.encode(Holder(first: first, again: again, byElement: false))
                == encoder.encode(Holder(first: first, again: again, byElement: true))
        }
        let doubles: [Double] = (0..<100).map { Double($0 % 37) / 8 } + [-0.0, 0.0, .infinity, -.infinity, .nan, 1e300, .leastNonzeroMagnitude]
        let ints: [Int] = (0..<100).map { ($0 % 41) * 1_000_003 } + [Int.min, Int.max, 0, -1]
        let strings: [String] = (0..<100).map { "s\($0 % 23)" } + ["", "é", "e\u{301}", "日本語", "$class", "$null"]
        let encoder = ArchiveEncoder()
        for outputFormat in [ArchiveEncoder.OutputFormat.binary, .xml] {
            encoder.outputFormat = outputFormat
            for count in [0, 1, 15, 16, 17, doubles.count] {
                let d = Array(doubles.prefix(count)), i = Array(ints.prefix(count))
                #expect(try encoder.encode(d) == encoder.encode(ByElement(values: d)), "\(count) doubles")
                #expect(try encoder.encode(i) == encoder.encode(ByElement(values: i)), "\(count) ints")
                // Inside a value, twice (the second array's elements are all found, not added).
                #expect(try same(d, d, encoder))
                #expect(try same(i, i, encoder))
                let t = Array(strings.prefix(count))
                #expect(try encoder.encode(t) == encoder.encode(ByElement(values: t)), "\(count) strings")
                #expect(try same(t, t, encoder))
            }
        }
        // Mostly new numbers after 64 elements: the uniquing table makes room for the rest
        // at once (and already holds some of them, from the first array).
        encoder.outputFormat = .binary
        let distinctDoubles = (0..<5_000).map { Double($0) * 1.5 - 7 } + doubles
        let distinctInts = (0..<5_000).map { $0 * 7_919 - 3 } + ints
        #expect(try same(doubles, distinctDoubles, encoder))
        #expect(try same(ints, distinctInts, encoder))
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try encoder.encode(doubles) == encoder.encode(ByElement(values: doubles)))
        encoder.nonConformingFloatEncodingStrategy = .throw
        let fast = #expect(throws: EncodingError.self) { try encoder.encode(Holder(first: [1.0], again: doubles, byElement: false)) }
        let slow = #expect(throws: EncodingError.self) { try encoder.encode(Holder(first: [1.0], again: doubles, byElement: true)) }
        guard case .invalidValue(_, let fastContext)? = fast, case .invalidValue(_, let slowContext)? = slow else {
            Issue.record("expected invalidValue errors"); return
        }
        #expect(fastContext.codingPath.map(\.stringValue) == ["again", "Index 102"])
        #expect(fastContext.codingPath.map(\.stringValue) == slowContext.codingPath.map(\.stringValue))
        #expect(fastContext.debugDescription == slowContext.debugDescription)
    }
}
