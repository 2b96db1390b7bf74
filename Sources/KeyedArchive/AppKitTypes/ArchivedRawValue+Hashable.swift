import Foundation

// Equality and hashing of archived values as graphs: a value decoded from an archive
// shares each archived object among the fields that refer to it (see `ArchivedRawValue`),
// so a chain of n objects each referring twice to the next has 2^n paths but n objects.
// Both walk each shared object once, not once per path.

extension ArchivedRawValue {
    /// The identity of the value's storage, shared by its copies (see ``SharedStorageIdentity``);
    /// `nil` for ``null``, which has none.
    var sharingIdentity: SharedStorageIdentity? {
        if case .null = self { return nil }
        return SharedStorageIdentity(self)
    }

    /// Whether two values have the same cases, class chains, keys and values, in order.
    /// A value is equal to its copies without being compared, and a pair of shared objects
    /// found equal once is not compared again.
    public static func == (lhs: ArchivedRawValue, rhs: ArchivedRawValue) -> Bool {
        var knownEqual: Set<SharedStorageIdentityPair> = []
        return lhs.isEqual(to: rhs, knownEqual: &knownEqual)
    }

    /// Hashes the value's structure; each shared object is hashed once and its digest used
    /// wherever it is referred to.
    public func hash(into hasher: inout Hasher) {
        var digests: [SharedStorageIdentity: Int] = [:]
        hasher.combine(digest(&digests))
    }

    /// `==` with the pairs of shared values already found equal (both operands are held by
    /// the caller meanwhile, so their identities stay theirs).
    private func isEqual(to other: ArchivedRawValue, knownEqual: inout Set<SharedStorageIdentityPair>) -> Bool {
        var pair: SharedStorageIdentityPair?
        if let mine = sharingIdentity, let theirs = other.sharingIdentity {
            if mine == theirs { return true }
            pair = SharedStorageIdentityPair(first: mine, second: theirs)
            if let pair, knownEqual.contains(pair) { return true }
        }
        let equal: Bool
        switch (self, other) {
        case (.null, .null): equal = true
        case (.integer(let a), .integer(let b)): equal = a == b
        case (.real(let a), .real(let b)): equal = a == b
        case (.bool(let a), .bool(let b)): equal = a == b
        case (.data(let a), .data(let b)): equal = a == b
        case (.string(let a), .string(let b)): equal = a == b
        case (.plain(let a), .plain(let b)): equal = a.isEqual(to: b, knownEqual: &knownEqual)
        case (.array(let a), .array(let b)):
            equal = a.count == b.count && zip(a, b).allSatisfy { $0.isEqual(to: $1, knownEqual: &knownEqual) }
        case (.object(let classesA, let fieldsA), .object(let classesB, let fieldsB)):
            equal = classesA == classesB && fieldsA.count == fieldsB.count && zip(fieldsA, fieldsB).allSatisfy {
                $0.key == $1.key && $0.value.isEqual(to: $1.value, knownEqual: &knownEqual)
            }
        default: equal = false
        }
        if equal, let pair { knownEqual.insert(pair) }
        return equal
    }

    /// The hash of the value's structure, with the digests of shared values already made
    /// (by identity: the value is held by the caller meanwhile).
    private func digest(_ digests: inout [SharedStorageIdentity: Int]) -> Int {
        let identity = sharingIdentity
        if let identity, let known = digests[identity] { return known }
        var hasher = Hasher()
        switch self {
        case .null: hasher.combine(0)
        case .integer(let number): hasher.combine(1); hasher.combine(number)
        case .real(let number): hasher.combine(2); hasher.combine(number)
        case .bool(let flag): hasher.combine(3); hasher.combine(flag)
        case .data(let bytes): hasher.combine(4); hasher.combine(bytes)
        case .string(let text): hasher.combine(5); hasher.combine(text)
        case .plain(let value): hasher.combine(6); hasher.combine(value.digest(&digests))
        case .array(let items):
            hasher.combine(7)
            hasher.combine(items.count)
            for item in items { hasher.combine(item.digest(&digests)) }
        case .object(let classes, let fields):
            hasher.combine(8)
            hasher.combine(classes)
            hasher.combine(fields.count)
            for field in fields {
                hasher.combine(field.key)
                hasher.combine(field.value.digest(&digests))
            }
        }
        let made = hasher.finalize()
        if let identity { digests[identity] = made }
        return made
    }
}
