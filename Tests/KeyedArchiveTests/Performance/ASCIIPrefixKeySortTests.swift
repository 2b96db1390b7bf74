import Testing
@testable import KeyedArchive

// The ASCII key sort behind every dictionary's and set's key order (ASCIIPrefixKeySort.swift):
// a radix sort over the keys' 16-byte prefixes for many keys, comparisons for few. Whatever
// the path, the order must be the one `String`'s `<` gives.

/// A small deterministic generator (SplitMix64).
private struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// The keys that `asciiSortedOrder` (SpecialEncodable.swift) makes of ASCII `strings`.
private func prefixKeys(_ strings: [String]) -> [ASCIIPrefixKey] {
    strings.enumerated().map { index, string in
        var high: UInt64 = 0, low: UInt64 = 0
        for (position, byte) in string.utf8.prefix(16).enumerated() {
            if position < 8 { high |= UInt64(byte) << (56 - 8 * position) } else { low |= UInt64(byte) << (120 - 8 * position) }
        }
        return (high, low, index)
    }
}

/// `count` distinct strings: each made by `make` until that many differ, in a shuffled order.
private func distinct(_ count: Int, seed: UInt64, _ make: (inout Generator) -> String) -> [String] {
    var generator = Generator(state: seed)
    var seen = Set<String>()
    var strings: [String] = []
    while strings.count < count {
        let string = make(&generator)
        if seen.insert(string).inserted { strings.append(string) }
    }
    for index in strings.indices.reversed() where index > 0 {
        strings.swapAt(index, generator.next(index + 1))
    }
    return strings
}

@Suite("ASCII key sort")
struct ASCIIPrefixKeySortTests {
    private static let families: [(name: String, make: @Sendable (inout Generator) -> String)] = [
        // Dictionary keys like the benchmark's: a shared head, digits deciding.
        ("numbered", { "key-\($0.next(100_000))-\($0.next(1_000))" }),
        // A long shared head: every prefix alike, the strings decide.
        ("shared head", { "com.example.identifier.\($0.next(1_000_000))" }),
        // Two letters, any length up to 24 (the empty string and prefixes of others included).
        ("two letters", { generator in
            String((0..<generator.next(25)).map { _ in generator.next(2) == 0 ? Character("a") : Character("b") })
        }),
        // Few prefix bytes differ, and many keys share all 16
        // (their strings decide).
        ("ties past 16 bytes", { "k\($0.next(90) + 10)-padpadpadpad-\($0.next(1_000_000))" }),
        // The lowest and highest ASCII bytes (the radix sort's bucket span at its ends).
        ("extreme bytes", { generator in
            String((0..<generator.next(18)).map { _ in
                Character(Unicode.Scalar([UInt8(0), 1, 126, 127][generator.next(4)]))
            })
        }),
        // Printable ASCII and NUL, 0 to 20 bytes.
        ("mixed", { generator in
            String((0..<generator.next(21)).map { _ in
                let byte = generator.next(96)
                return Character(Unicode.Scalar(UInt8(byte == 95 ? 0 : byte + 32)))
            })
        }),
    ]

    @Test("Keys sort as String's < orders them, radix and comparison paths alike",
          arguments: [0, 1, 2, 16, 63, 64, 65, 300, 1_000, 5_000, 20_000])
    func sortsAsStringOrder(count: Int) {
        for (family, make) in Self.families {
            // "two letters" has fewer than 2^25 strings, far more than the counts asked.
            let strings = distinct(count, seed: UInt64(count) &+ 17, make)
            var keys = prefixKeys(strings)
            sortASCIIPrefixKeys(&keys, strings: strings)
            let expected = strings.indices.sorted { strings[$0] < strings[$1] }
            #expect(keys.map(\.index) == expected, "\(family), \(count) keys")
        }
    }
}

extension ASCIIPrefixKeySortTests {
    /// Keys whose prefixes are all alike (their strings decide, by comparisons) given
    /// sorted, reversed, organ-pipe and all-but-one-equal orders: the comparison sort's
    /// fixed stack of ranges and its fallback for ranges split too often keep `<`'s order.
    @Test("Comparison sort of tied prefixes keeps < order whatever the input order",
          arguments: [17, 64, 1_000, 20_000])
    func tiedPrefixesInAdversarialOrders(count: Int) {
        let head = "same-sixteen-byt"  // 16 bytes: every prefix equal
        let sorted = (0..<count).map { number in
            let digits = String(number)
            return head + String(repeating: "0", count: 8 - digits.count) + digits
        }
        let half = sorted.count / 2
        let orders: [(String, [String])] = [
            ("sorted", sorted),
            ("reversed", sorted.reversed()),
            ("organ pipe", Array(sorted[..<half]) + sorted[half...].reversed()),
            ("interleaved", sorted.indices.map { sorted[$0 % 2 == 0 ? $0 / 2 : sorted.count - 1 - $0 / 2] }),
            ("one short", sorted.map { $0 == sorted[half] ? head : $0 }),
        ]
        for (name, strings) in orders {
            var keys = prefixKeys(strings)
            sortASCIIPrefixKeys(&keys, strings: strings)
            #expect(keys.map(\.index) == strings.indices.sorted { strings[$0] < strings[$1] }, "\(name), \(count) keys")
        }
    }
}

@Suite("ASCII key sort: prefixes and sort keys of strings")
struct StringSortKeysTests {
    /// `asciiPrefix(of:)` (eight bytes at a time) is the byte-by-byte prefix of every ASCII
    /// string of 0 to 40 bytes, and nil when any byte is not ASCII (before, at and after the
    /// 16 prefix bytes).
    @Test func prefixIsTheBytesPrefix() {
        var generator = Generator(state: 99)
        for length in 0...40 {
            for _ in 0..<20 {
                let string = String(decoding: (0..<length).map { _ in UInt8(generator.next(128)) }, as: UTF8.self)
                let expected = prefixKeys([string])[0]
                let prefix = string.withContiguousUTF8 { asciiPrefix(of: $0) }
                #expect(prefix?.high == expected.high && prefix?.low == expected.low, "\(Array(string.utf8))")
            }
        }
        for position in [0, 1, 7, 8, 15, 16, 17, 30] {
            let bytes = (0..<32).map { $0 == position ? UInt8(0xC3) : UInt8(0x61) }
            let string = String(decoding: bytes, as: UTF8.self)  // one invalid byte: U+FFFD, not ASCII
            #expect(string.withContiguousUTF8 { asciiPrefix(of: $0) } == nil, "non-ASCII at \(position)")
        }
    }

    /// `stringSortKeys` gives `<`'s order for ASCII strings and for strings that are not all
    /// ASCII (sorted by `<` itself).
    @Test("Sort keys follow String's <", arguments: [0, 1, 5, 64, 2_000])
    func sortKeysFollowStringOrder(count: Int) {
        let ascii = distinct(count, seed: 5) { "key-\($0.next(100_000))-\($0.next(1_000))" }
        let mixed = ascii + ["é", "e\u{301}x", "日本", "key-é"]
        for strings in [ascii, mixed] {
            let keys = stringSortKeys(strings)
            #expect(keys.map(\.index) == strings.indices.sorted { strings[$0] < strings[$1] })
        }
    }
}
