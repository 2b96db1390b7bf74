import Foundation
import KeyedArchive

/// An opened archive as the commands see it: the library's untyped view.
///
/// (The view keeps the `$0`, `$1`, … keys Apple's archiver writes for unkeyed
/// `encodeValue(ofObjCType:at:)` values, so every field the archive holds is here.)
struct ArchiveContents {
    let view: KeyedArchiveView

    init(view: KeyedArchiveView, data: Data) {
        self.view = view
    }

    /// The fields of an object in file order, `$class` left out, `$$key` unescaped.
    func fields(of object: ArchivedObject) -> [ArchivedField] {
        object.fields
    }
}
