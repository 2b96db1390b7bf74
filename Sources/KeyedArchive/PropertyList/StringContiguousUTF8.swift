extension String {
    /// `body` on the string's UTF-8: read in place when the string is contiguous UTF-8
    /// (native and small strings), else from a contiguous copy (a bridged string). Unlike
    /// the mutating `withUTF8`, it needs no copy of the string (a retain and a release) to
    /// be called on a `let`; the writers call it for every string they store or write.
    @inline(__always)
    func withContiguousUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
