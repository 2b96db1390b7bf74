import Foundation

/// The entry points for the commonest leaves: a plain string, integer, real or boolean.
///
/// Each first tries a fast path: one out-of-line, non-generic function that reads the
/// plain object and nothing else, without a coding path. The general readers
/// (`readString`, `readInteger`…, in `ArchiveDecoderScalars.swift`) are specialized for
/// every call site and type, dozens of kilobytes of code in all; reading the usual leaf
/// through one small shared function keeps the decoder's hot code within the instruction
/// cache. A fast path answers nil for anything else — UID 0 (nil), an object of another
/// kind, a long string, damaged input, an exhausted work budget — and the general reader
/// then reads the slot again and decides, so behaviour and errors are exactly the
/// general reader's. Work is charged as there: one unit per value read.
extension _ArchiveDecoder {
    @inline(__always)
    func unboxString(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> String {
        if let string = fastString(slot) { return string }
        return try readString(from: slot, at: path())
    }

    @inline(__always)
    func unboxInteger<T: FixedWidthInteger>(_ type: T.Type, from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> T {
        if let value = fastInteger(slot), let result = T(exactly: value) {
            state.remainingObjects -= 1
            return result
        }
        return try readInteger(type, from: slot, at: path())
    }

    @inline(__always)
    func unboxDouble(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Double {
        if let value = fastDouble(slot) { return value }
        return try readDouble(from: slot, at: path())
    }

    @inline(__always)
    func unboxBool(from slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> Bool {
        if let value = fastBool(slot) { return value }
        return try readBool(from: slot, at: path())
    }

    // MARK: - Fast paths

    /// The plist reference of the leaf at `slot`: its own, or its UID's object. Nil for
    /// UID 0, a damaged UID, or no work left (the general reader throws for each).
    @inline(__always)
    private func leafRef(_ slot: ArchiveSlot) -> Int? {
        guard state.remainingObjects > 0 else { return nil }
        switch slot {
        case .inline(let ref, _):
            return ref
        case .uid(let uid):
            guard uid > 0, uid < objects.count else { return nil }
            return try? plist.ref(objects, uid)
        }
    }

    /// A plain string shorter than ``SharedLeafValues/sharedLength``, made here (charged as
    /// ``SharedLeafValues`` charges it); longer ones are made once per object and shared by
    /// the general reader.
    @inline(never)
    func fastString(_ slot: ArchiveSlot) -> String? {
        guard state.remainingObjects > 0 else { return nil }
        let string: String
        switch slot {
        case .uid(let uid):
            guard let known = shortString(uid: uid) else { return nil }
            string = known
        case .inline(let ref, _):
            guard let made = plist.shortString(ref, limit: SharedLeafValues.sharedLength) else { return nil }
            string = made
        }
        chargeShortString(string)
        return string
    }

    /// The plain string of fewer than ``SharedLeafValues/sharedLength`` characters that is
    /// object `uid`: made, or when it is read again, remembered (see ``ShortStringMemo``) or
    /// made and remembered. Nil for anything else, and once the decode has ended (a decoder
    /// kept past it reads nothing).
    @inline(__always)
    func shortString(uid: Int) -> String? {
        let again = state.shortStrings.isBehindFrontier(uid)
        if again, let known = state.shortStrings.string(uid: uid), plist.objectCount != 0 { return known }
        guard uid > 0, uid < objects.count, let ref = try? plist.ref(objects, uid),
              let made = plist.shortString(ref, limit: SharedLeafValues.sharedLength) else { return nil }
        if again { state.shortStrings.remember(made, uid: uid, objectCount: objects.count) }
        return made
    }

    /// Charges a short string read by a fast path, whether it was made or remembered: its
    /// bytes from ``SharedLeafValues/inlineStringBytes`` on, as ``SharedLeafValues``
    /// charges a string it makes, and one unit for the value.
    @inline(__always)
    func chargeShortString(_ string: String) {
        let bytes = string.utf8.count
        if bytes >= SharedLeafValues.inlineStringBytes { _ = state.budget.chargeMade(bytes: bytes) }
        state.remainingObjects -= 1
    }

    /// Reads the elements of `list` (an array's element references, in an object `owner`)
    /// from `start` on, while each is a plain short string (see ``fastString(_:)``), into
    /// `strings`; returns the index of the first element it did not read (`list.count` at
    /// the end). Each element is charged as the unkeyed container charges it (one unit for
    /// the element, then the string as ``fastString(_:)`` charges it), so the caller reads
    /// the element at the returned index through the container, exactly as before.
    @inline(never)
    func fastStrings(_ list: BinaryPropertyList.RefList, from start: Int, owner: Int, into strings: inout [String]) -> Int {
        var index = start
        // Two units at least: the element's, and one left for its value.
        while index < list.count, state.remainingObjects >= 2 {
            guard let ref = try? plist.ref(list, index) else { break }
            let string: String
            switch quickSlot(forValueAt: ref, owner: owner) {
            case .uid(let uid)?:
                guard let known = shortString(uid: uid) else { return index }
                string = known
            case .inline(let ref, _)?:
                guard let made = plist.shortString(ref, limit: SharedLeafValues.sharedLength) else { return index }
                string = made
            case nil:
                return index
            }
            state.remainingObjects -= 1
            chargeShortString(string)
            strings.append(string)
            index += 1
        }
        return index
    }

    /// An integer object of up to 8 bytes; the caller charges once it fits its type.
    @inline(never)
    private func fastInteger(_ slot: ArchiveSlot) -> Int64? {
        guard let ref = leafRef(slot) else { return nil }
        return plist.smallInteger(ref)
    }

    /// An 8-byte real, unless reals are checked for non-conforming values.
    @inline(never)
    private func fastDouble(_ slot: ArchiveSlot) -> Double? {
        guard !state.options.checksFloats, let ref = leafRef(slot), let value = plist.double(ref) else { return nil }
        state.remainingObjects -= 1
        return value
    }

    /// A boolean object.
    @inline(never)
    private func fastBool(_ slot: ArchiveSlot) -> Bool? {
        guard let ref = leafRef(slot), let value = plist.bool(ref) else { return nil }
        state.remainingObjects -= 1
        return value
    }
}
