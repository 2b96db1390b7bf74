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
            var scalars = self.scalars, offsets = self.offsets, children = objectsChildren
            let refSize = refSize, offsetSize = offsetSize
            for index in first..<end {
                let payload = payloads[base &+ index]
                offsets.putBigEndian(UInt64(scalars.position), size: offsetSize)
                if isReal {
                    BinaryPlistEncoding.putReal(bits: payload, into: &scalars)
                } else {
                    BinaryPlistEncoding.putInteger(Int64(bitPattern: payload), into: &scalars)
                }
                children.putBigEndian(UInt64(next), size: refSize)
                next &+= 1
            }
            self.scalars = scalars
            self.offsets = offsets
            objectsChildren = children
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
}
