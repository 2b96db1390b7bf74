@testable import KeyedArchive
import Testing

/// `ScalarRefTable.refOrInsert(_:_:)`, which the binary writer's first pass uses for its
/// shared numbers, against `ref(for:)` then `insert(_:_:)` (the two calls it replaces).
@Suite("ScalarRefTable: refOrInsert")
struct ScalarRefTableRefOrInsertTests {
    /// Same answers as a look-up then an insert, key by key, across growth.
    @Test func agreesWithLookUpThenInsert() {
        var combined = ScalarRefTable()
        var separate = ScalarRefTable()
        var state: UInt64 = 11
        for i in 0..<40_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Repeats (small keys) among mostly new ones.
            let key = i % 4 == 0 ? UInt64(i % 97) : state
            let found = combined.refOrInsert(key, i)
            let expected = separate.ref(for: key)
            if expected == nil { separate.insert(key, i) }
            guard found == expected else {
                Issue.record("key \(key) at \(i): \(String(describing: found)), expected \(String(describing: expected))")
                return
            }
        }
        #expect(combined.count == separate.count)
        #expect(combined.count > 30_000)
    }

    /// References that do not fit the slot's word are kept aside and found again.
    @Test func keepsLargeReferencesAside() {
        var table = ScalarRefTable()
        let large = Int(UInt32.max) + 7
        #expect(table.refOrInsert(42, large) == nil)
        #expect(table.refOrInsert(42, 0) == large)
        #expect(table.ref(for: 42) == large)
        for filler in 1..<100 { #expect(table.refOrInsert(UInt64(filler) << 40, filler) == nil) }  // grows
        #expect(table.refOrInsert(42, 1) == large)
        #expect(table.refOrInsert(UInt64(99) << 40, 0) == 99)
    }
}
