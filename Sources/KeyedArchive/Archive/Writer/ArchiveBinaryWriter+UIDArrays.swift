import Foundation

// The UID arrays of the file (see ArchiveBinaryWriter.swift): an array or dictionary body
// is a run of UIDs, each a UID object of the file shared by value (see `uid(_:)`). A large
// array (a million numbers) spends most of the writer's time here, so its UIDs are read
// straight from the record and numbered or written in one loop per pass, with the writer's
// counters and sinks in locals; `uid(_:)` takes any UID the loop leaves (one not numbered
// by the first pass, or kept in `largeUIDRefs`). The bytes are those of `uid(_:)` for each.
extension ArchiveBinaryWriter {
    /// An array of `count` UID objects read from `cursor` (written in place, as the
    /// fields of an object are).
    mutating func uidArray(_ cursor: inout ObjectRecord.Cursor, count: Int) -> Int {
        var open = openContainer(isDictionary: false, count: count)
        // A short array: its UIDs one at a time (the loop below costs more to set up).
        var done = count < Self.uidRunMinimum ? uidsOneByOne(&cursor, count: count, into: &open) : 0
        while done < count {
            done = uidRun(&cursor, from: done, to: count, into: &open)
            if done < count {
                // One the loop leaves.
                let ref = uid(cursor.uid())
                if writing { Self.putRef(ref, size: refSize, into: &open.values) }
                done += 1
            }
        }
        return closeContainer(open)
    }

    /// Arrays shorter than this have their UIDs numbered or written one at a time.
    static var uidRunMinimum: Int { 8 }

    /// Numbers (first pass) or writes (second) `count` UIDs from `cursor` with `uid(_:)`; returns `count`.
    @inline(__always)
    private mutating func uidsOneByOne(_ cursor: inout ObjectRecord.Cursor, count: Int, into open: inout OpenContainer) -> Int {
        if writing {
            for _ in 0..<count { Self.putRef(uid(cursor.uid()), size: refSize, into: &open.values) }
        } else {
            for _ in 0..<count { _ = uid(cursor.uid()) }
        }
        return count
    }

    /// Numbers (first pass) or writes (second) the UIDs `first..<end` of an array from
    /// `cursor` for as long as `uid(_:)` would find or make each without a lookup aside;
    /// returns where it stopped, `cursor` there.
    private mutating func uidRun(_ cursor: inout ObjectRecord.Cursor, from first: Int, to end: Int,
                                 into open: inout OpenContainer) -> Int {
        let start = cursor.position
        // Every reference made here fits a slot of `uidRefs` (below `UInt32.max`).
        guard largeUIDRefs.isEmpty, start >= 0, start <= cursor.bytes.count, next + (end - first) < Int(UInt32.max) else { return first }
        // UIDs inside the record only (4 bytes each).
        let last = first + min(end - first, (cursor.bytes.count - start) / 4)
        var refs: [UInt32] = []
        swap(&refs, &uidRefs)
        defer { swap(&refs, &uidRefs) }
        var next = self.next
        var index = first
        if writing {
            // One loop per reference width (see ArchiveBinaryWriter+Fields.swift).
            let records = cursor.bytes
            switch refSize {
            case 1: index = writeUIDs(records, at: start, first..<last, refs: refs, next: &next, into: &open, OneByteRefs.self)
            case 2: index = writeUIDs(records, at: start, first..<last, refs: refs, next: &next, into: &open, TwoByteRefs.self)
            case 4: index = writeUIDs(records, at: start, first..<last, refs: refs, next: &next, into: &open, FourByteRefs.self)
            default: index = writeUIDs(records, at: start, first..<last, refs: refs, next: &next, into: &open, SizedRefs.self)
            }
        } else {
            var scalarBytes = self.scalarBytes
            cursor.bytes.withUnsafeBytes { record in
                refs.withUnsafeMutableBufferPointer { refs in
                    while index < last {
                        let value = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: start &+ 4 &* (index &- first), as: UInt32.self)))
                        guard value < refs.count else { break }
                        if refs[value] == .max {
                            // Numbered here (see `newUID(_:)`).
                            refs[value] = UInt32(truncatingIfNeeded: next)
                            scalarBytes &+= BinaryPlistEncoding.uidSize(UInt64(value))
                            next &+= 1
                        }
                        index &+= 1
                    }
                }
            }
            self.scalarBytes = scalarBytes
        }
        self.next = next
        cursor.position = start + 4 * (index - first)
        return index
    }

    /// The second pass of `uidRun`: writes the UIDs `range` of the record (UID `first` at
    /// `start`) and the UID objects first met among them, `Width` bytes a reference, up to
    /// one not numbered by the first pass; returns where it stopped.
    @inline(never)
    private mutating func writeUIDs<Width: ArchiveRefWidth>(_ records: [UInt8], at start: Int, _ range: Range<Int>, refs: [UInt32],
                                                            next: inout Int, into open: inout OpenContainer, _ width: Width.Type) -> Int {
        var scalars = self.scalars, offsets = self.offsets, values = open.values
        let refSize = refSize, offsetSize = offsetSize
        let first = range.lowerBound, last = range.upperBound
        var index = first
        var count = next
        records.withUnsafeBytes { record in
            refs.withUnsafeBufferPointer { refs in
                while index < last {
                    let value = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: start &+ 4 &* (index &- first), as: UInt32.self)))
                    guard value < refs.count else { break }
                    let known = refs[value]
                    // Not numbered by the first pass: `uid(_:)` makes it.
                    if known == .max { break }
                    if Int(known) == count {
                        // First met here: the UID object is written here (see `newUID(_:)`).
                        offsets.putBigEndian(UInt64(scalars.position), size: offsetSize)
                        BinaryPlistEncoding.putUID(UInt64(value), into: &scalars)
                        count &+= 1
                    }
                    Width.put(Int(known), size: refSize, into: &values)
                    index &+= 1
                }
            }
        }
        next = count
        self.scalars = scalars
        self.offsets = offsets
        open.values = values
        return index
    }
}
