import Foundation

// The containers of the file (see ArchiveBinaryWriter.swift): numbered by the first pass,
// written straight into their place by the second.
extension ArchiveBinaryWriter {
    /// A container whose references are written as they are found: in the second pass its
    /// marker is written and its references' places are set aside (it is the next
    /// container in the file; only scalars are numbered before it is closed).
    struct OpenContainer {
        var start: Int
        var isDictionary: Bool
        var count: Int
        var keys = FileSink()
        var values = FileSink()
    }

    @inline(__always)
    mutating func openContainer(isDictionary: Bool, count: Int) -> OpenContainer {
        var open = OpenContainer(start: containers.position, isDictionary: isDictionary, count: count)
        if writing {
            BinaryPlistEncoding.putContainerMarker(isDictionary: isDictionary, count: count, into: &containers)
            if isDictionary {
                open.keys = containers
                containers.position += count * refSize
            }
            open.values = containers
            containers.position += count * refSize
        }
        return open
    }

    /// Numbers a container opened with ``openContainer(isDictionary:count:)``.
    @inline(__always)
    mutating func closeContainer(_ open: OpenContainer) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(open.start), size: offsetSize, into: &offsets)
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: open.count)
            childRefs += open.isDictionary ? 2 * open.count : open.count
        }
        return ref
    }

    /// A dictionary of 2 or 3 entries.
    mutating func smallDictionary(keys: (Int, Int, Int), values: (Int, Int, Int), count: Int) -> Int {
        var open = openContainer(isDictionary: true, count: count)
        if writing {
            Self.putRef(keys.0, size: refSize, into: &open.keys)
            Self.putRef(keys.1, size: refSize, into: &open.keys)
            Self.putRef(values.0, size: refSize, into: &open.values)
            Self.putRef(values.1, size: refSize, into: &open.values)
            if count > 2 {
                Self.putRef(keys.2, size: refSize, into: &open.keys)
                Self.putRef(values.2, size: refSize, into: &open.values)
            }
        }
        return closeContainer(open)
    }

    /// A reference, `refSize` bytes big-endian (each reference is below 2^(8 × refSize)).
    @inline(__always)
    static func putRef(_ ref: Int, size refSize: Int, into sink: inout FileSink) {
        BinaryPlistEncoding.putBigEndian(UInt64(ref), size: refSize, into: &sink)
    }

    // MARK: - Objects

    /// Numbers a new object of `size` bytes; in the second pass records its offset.
    @inline(__always)
    mutating func begin(size: Int, at position: Int) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(position), size: offsetSize, into: &offsets)
        } else {
            scalarBytes += size
        }
        return ref
    }

    @inline(__always)
    mutating func beginScalar(size: Int) -> Int { begin(size: size, at: scalars.position) }

    /// A container of `values` (an array) or of `keys` and `values` (a dictionary).
    mutating func container(isDictionary: Bool, keys: [Int], values: [Int]) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(containers.position), size: offsetSize, into: &offsets)
            BinaryPlistEncoding.putContainerMarker(isDictionary: isDictionary, count: values.count, into: &containers)
            for child in keys { Self.putRef(child, size: refSize, into: &containers) }
            for child in values { Self.putRef(child, size: refSize, into: &containers) }
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: values.count)
            childRefs += keys.count + values.count
        }
        return ref
    }

    /// `$objects`: its references were written as each entry was numbered.
    mutating func objectsArray(count: Int) -> Int {
        let ref = next
        next += 1
        if writing {
            BinaryPlistEncoding.putBigEndian(UInt64(containers.position), size: offsetSize, into: &offsets)
            BinaryPlistEncoding.putContainerMarker(isDictionary: false, count: count, into: &containers)
            containers.position += count * refSize
        } else {
            markerBytes += BinaryPlistEncoding.markerSize(count: count)
            childRefs += count
        }
        return ref
    }
}
