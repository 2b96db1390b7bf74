import Foundation
import KeyedArchive

// The untyped archive view: open, render, never trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let view = try? KeyedArchiveView(data: data) {
        _ = view.render()
        _ = view.topLevelKeys
    }
    return 0
}
