import Foundation

// Runs of number entries (see ArchiveBinaryWriter.swift): each integer or real entry of the
// table is a new object of the file, numbered in the first pass and written in the second
// with its reference in `$objects`. An array of a million numbers makes a run of a million
// such entries, so a run is read a chunk of the table at a time and numbered or written in
// one loop, with the writer's counters and sinks in locals. The bytes are those of
// `newInteger(_:)` and `newReal(_:)` for each, in order.
extension ArchiveBinaryWriter {
    /// Numbers (first pass) or writes (second) the entries from `first` that are of `kind`
    /// (`.integer` or `.real`), up to the end of `first`'s chunk of the table or `entries`;
    /// returns the index after the last. `first` is of `kind`.
    mutating func numberRun(from first: Int, to entries: Int, kind: ArchiveObjectTable.EntryKind) -> Int {
        let kinds = table.kinds.run(from: first, to: entries)
        let payloads = table.payloads.run(from: first, to: entries)
        let isReal = kind == .real
        var end = first
        for entry in kinds {
            if entry != kind { break }
            end &+= 1
        }
        let base = payloads.startIndex &- first
        var next = self.next
        if writing {
            // One loop per reference width (see ArchiveBinaryWriter+Fields.swift).
            let numbers = payloads[(base &+ first)..<(base &+ end)]
            switch refSize {
            case 1: writeNumbers(numbers, isReal: isReal, next: &next, OneByteRefs.self)
            case 2: writeNumbers(numbers, isReal: isReal, next: &next, TwoByteRefs.self)
            case 4: writeNumbers(numbers, isReal: isReal, next: &next, FourByteRefs.self)
            default: writeNumbers(numbers, isReal: isReal, next: &next, SizedRefs.self)
            }
        } else {
            var bytes = 0
            if isReal {
                bytes = 9 &* (end &- first)
            } else {
                for index in first..<end { bytes &+= BinaryPlistEncoding.integerSize(Int64(bitPattern: payloads[base &+ index])) }
            }
            scalarBytes &+= bytes
            next &+= end &- first
        }
        self.next = next
        return end
    }

    /// The second pass of `numberRun`: writes `numbers` (reals or integers) as new objects
    /// from `next` and their references in `$objects`, `Width` bytes a reference.
    @inline(never)
    private mutating func writeNumbers<Width: ArchiveRefWidth>(_ numbers: ArraySlice<UInt64>, isReal: Bool, next: inout Int, _ width: Width.Type) {
        var scalars = self.scalars, offsets = self.offsets, children = objectsChildren
        let refSize = refSize, offsetSize = offsetSize
        var count = next
        for payload in numbers {
            offsets.putBigEndian(UInt64(scalars.position), size: offsetSize)
            if isReal {
                BinaryPlistEncoding.putReal(bits: payload, into: &scalars)
            } else {
                BinaryPlistEncoding.putInteger(Int64(bitPattern: payload), into: &scalars)
            }
            Width.put(count, size: refSize, into: &children)
            count &+= 1
        }
        next = count
        self.scalars = scalars
        self.offsets = offsets
        objectsChildren = children
    }
}
