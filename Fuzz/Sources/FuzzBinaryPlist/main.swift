import Foundation
import KeyedArchive

// The binary plist reader: any bytes either read to a value or throw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    // Give most inputs the magic so the fuzzer spends its time past the header check.
    if !bytes.starts(with: Array("bplist00".utf8)) { bytes = Array("bplist00".utf8) + bytes }
    if let value = try? PropertyListValue(propertyList: Data(bytes)) {
        // A value that reads must write and read back to itself.
        let again = value.propertyListData(format: .binary)
        if let back = try? PropertyListValue(propertyList: again), !sameValue(back, value) {
            fatalError("binary round trip changed the value")
        }
    }
    return 0
}

/// Equality that treats NaN as equal to NaN (the round trip keeps NaN, `==` does not).
func sameValue(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.float(let x), .float(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.date(let x), .date(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameValue)
    case (.dictionary(let x), .dictionary(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
    default: return a == b
    }
}
