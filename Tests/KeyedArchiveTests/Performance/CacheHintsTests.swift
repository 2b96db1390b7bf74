import CacheHints
import Foundation
import Testing
@testable import KeyedArchive

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The encoder's uniquing tables ask for the slots of the keys they are about to look up
/// with a prefetch (`cache_hint_read`, C target `CacheHints`) instead of reading them. A
/// hint must never fault, whatever the address (a slot's address is computed, not checked
/// against a mapping), and asking must change nothing a table finds.
@Suite("Prefetch hints")
struct CacheHintsTests {
    @Test("A hint for no address, or for memory that cannot be read or is unmapped, does not fault")
    func hintNeverFaults() throws {
        cache_hint_read(nil)
        let size = 1 << 16
        let mapping = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // MAP_FAILED is (void *)-1, a macro Swift does not import everywhere.
        let base = try #require(mapping == UnsafeMutableRawPointer(bitPattern: -1) ? nil : mapping)
        cache_hint_read(base)
        cache_hint_read(base + size / 2)
        #expect(munmap(base, size) == 0)
        cache_hint_read(base + size - 1)
        // A process that faulted would not get here: the test run would stop with a signal.
    }

    @Test("Asking for slots ahead changes nothing a number or string table finds", arguments: [10, 5_000])
    func hintsChangeNothing(count: Int) {
        var numbers = ScalarRefTable()
        var strings = StringUIDTable()
        let keys = (0..<UInt64(count)).map { $0 &* 0x9E37_79B9_7F4A_7C15 }
        let texts = (0..<count).map { "key-\($0)" }
        for (index, key) in keys.enumerated() where index % 2 == 0 {
            numbers.insert(key, index)
            let place = strings.find(texts[index]).place
            strings.insert(texts[index], uid: Int32(index), at: place)
        }
        for (index, key) in keys.enumerated() {
            numbers.prefetchHome(key)
            let text = texts[index]
            let hash = text.utf8.withContiguousStorageIfAvailable { strings.hash(of: $0) }
            if let hash { strings.prefetchHome(hash: hash) }
            #expect(hash != nil, "a native string's bytes are contiguous")
        }
        for (index, key) in keys.enumerated() {
            #expect(numbers.ref(for: key) == (index % 2 == 0 ? index : nil))
            #expect(strings.find(texts[index]).uid == (index % 2 == 0 ? Int32(index) : nil))
        }
        #expect(numbers.count == (count + 1) / 2 && strings.storedCount == (count + 1) / 2)
    }
}
