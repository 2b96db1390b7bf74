import Foundation
import KeyedArchive

// The XML plist reader: any text either reads to a value or throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard !data.starts(with: Array("bplist".utf8)) else { return 0 }
    if let value = try? PropertyListValue(propertyList: data) {
        // What reads must write as XML and binary without trapping, and the XML must read again.
        _ = value.propertyListData(format: .binary)
        _ = try? PropertyListValue(propertyList: value.propertyListData(format: .xml))
    }
    return 0
}
