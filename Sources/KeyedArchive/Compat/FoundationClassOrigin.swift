import Foundation
#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// Whether a class is one of Foundation's own (`NSValue`, `NSAttributedString`,
/// `NSIndexSet`, a class cluster's private class such as `__NSCFString`…): such a class's
/// `init(coder:)` relies on `NSKeyedUnarchiver`'s internals, so the decoder never runs it
/// with its own coder (it reads the classes it knows through their layouts instead).
///
/// One rule on every platform, "defined by Foundation or CoreFoundation", asked where each
/// platform keeps the answer: on Darwin, the image the Objective-C runtime loaded the class
/// from (`class_getImageName`: Foundation's and CoreFoundation's classes have no module
/// prefix to tell them by); in swift-corelibs-foundation, the class's Swift module.
enum FoundationClassOrigin {
    static func isFoundations(_ cls: AnyClass) -> Bool {
        if String(reflecting: cls).hasPrefix("Foundation.") { return true }
        #if canImport(ObjectiveC)
        guard let image = class_getImageName(cls) else { return false }
        let path = String(cString: image)
        return path.hasSuffix("/Foundation.framework/Foundation")
            || path.hasSuffix("/CoreFoundation.framework/CoreFoundation")
            || path.contains("/Foundation.framework/Versions/")
            || path.contains("/CoreFoundation.framework/Versions/")
            || path.hasSuffix("/libswiftFoundation.dylib")
        #else
        return false
        #endif
    }
}
