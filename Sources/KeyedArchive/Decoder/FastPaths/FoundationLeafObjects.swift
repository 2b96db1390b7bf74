import Foundation

/// What the fast paths for NSDate, NSUUID and NSArray objects (the last in
/// `ArchiveUnkeyedDecodingContainer.swift`) know of one archive: the UID of a
/// class entry the general reader accepted for the type, and the plist references of the
/// key strings `$class` and the type's one field, in an object it read. Writers store each
/// class entry and key string once, so every other object of the type has the same three
/// numbers: checking its class is comparing integers, not reading its class chain.
///
/// Learned by the general reader of this decode only (``ArchiveDecodingState`` is made per
/// decode), under the options it was learned with: a date is learned only when dates are
/// read as NSDate and reals are not checked for non-conforming values.
struct FoundationLeafShape {
    /// The class entry's UID; 0 (never a class entry) until learned.
    var classUID = 0
    var classKey = 0
    var fieldKey = 0
}

/// `Date` and `UUID` objects read as one leaf each (JSONDecoder reads them as one number
/// and one string). Like the fast paths of `LeafFastPaths.swift`, each answers nil for
/// anything but the plain layout whose shape it learned — another class entry or key
/// object, a third key, a field one UID away, short bytes, a non-finite time, an object
/// already open (a cycle), the depth limit, too little work left — and `unbox` then reads
/// the object through the general reader, which decides and reports exactly as before.
/// Work is charged as the general reader charges it (the object entered, read, its field
/// read and its value made).
extension _ArchiveDecoder {
    /// Units of work the general reader charges for an NSDate object (entered, read, its
    /// `NS.time` read, its real made) and for an NSUUID object (entered, read, its bytes read).
    static let dateObjectWork = 4
    static let uuidObjectWork = 3

    /// The plist reference of the field of the object at `slot` when the object has the
    /// learned `shape`, and may be read here: not open, within the depth limit, `units` left.
    @inline(__always)
    private func shapedField(_ slot: ArchiveSlot, _ shape: FoundationLeafShape, units: Int) -> Int? {
        guard case .uid(let uid) = slot, shape.classUID != 0, state.remainingObjects >= units,
              state.depth < state.maxDepth, uid > 0, uid < objects.count,
              let ref = try? plist.ref(objects, uid),
              let field = plist.twoEntryValue(ref, classKey: shape.classKey, fieldKey: shape.fieldKey,
                                              classUID: UInt64(shape.classUID)),
              !state.isOpen(ref)
        else { return nil }
        return field
    }

    /// An NSDate object `{$class, NS.time}` whose time is a finite 8-byte real in place.
    @inline(never)
    func fastDate(_ slot: ArchiveSlot) -> Date? {
        guard let field = shapedField(slot, state.dateShape, units: Self.dateObjectWork),
              let seconds = plist.double(field), let date = Date(finiteSecondsSinceReferenceDate: seconds)
        else { return nil }
        state.remainingObjects -= Self.dateObjectWork
        return date
    }

    /// An NSUUID object `{$class, NS.uuidbytes}` whose bytes are 16 bytes of data in place.
    @inline(never)
    func fastUUID(_ slot: ArchiveSlot) -> UUID? {
        guard let field = shapedField(slot, state.uuidShape, units: Self.uuidObjectWork),
              let range = readDataRange(field), range.count == 16
        else { return nil }
        state.remainingObjects -= Self.uuidObjectWork
        return UUID(uuid: plist.bytes[range].loadUnaligned(as: uuid_t.self))
    }

    /// Remembers the shape of a two-entry object that the general reader has just read as
    /// `field`'s Foundation type (its class accepted, its field found), for the fast paths.
    /// Anything unexpected leaves `shape` as it was.
    func learnShape(_ shape: inout FoundationLeafShape, keys: BinaryPropertyList.RefList,
                    values: BinaryPropertyList.RefList) {
        guard keys.count == 2, let classIndex = try? classFieldIndex(keys: keys),
              let classKey = try? plist.ref(keys, classIndex), let fieldKey = try? plist.ref(keys, 1 - classIndex),
              classKey != fieldKey, let classValue = try? plist.ref(values, classIndex),
              let classUID = try? uid(at: classValue), classUID != 0
        else { return }
        shape = FoundationLeafShape(classUID: classUID, classKey: classKey, fieldKey: fieldKey)
    }
}
