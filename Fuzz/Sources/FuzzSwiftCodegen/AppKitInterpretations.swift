import KeyedArchive

/// The fuzz target's stand-in for the library's `package` type `AppKitInterpretations`,
/// which the generator uses and which this package cannot see (it sees the library's public
/// API only). It keeps the one rule the generator relies on — each object interpreted once
/// per walk — through the public ``KeyedArchiveView/appKitValue(of:)``, whose budget is per
/// call; the fuzzer's inputs (64 KB at most) stay small enough for that.
package struct AppKitInterpretations: Sendable {
    private struct Key: Hashable {
        var archive: Int
        var index: Int
    }
    private var values: [Key: ArchivedAppKitValue?] = [:]

    package init(view: KeyedArchiveView) {}

    package mutating func value(of object: ArchivedObject, in view: KeyedArchiveView, archive: Int = 0) throws(KeyedArchiveError) -> ArchivedAppKitValue? {
        let key = Key(archive: archive, index: object.index)
        if let known = values[key] { return known }
        let value = view.appKitValue(of: object)
        values[key] = value
        return value
    }
}
