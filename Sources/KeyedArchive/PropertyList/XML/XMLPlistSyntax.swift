/// The bytes and element names of XML property-list markup, shared by the readers.

// MARK: - Byte constants

enum XMLByte {
    static let lt = UInt8(ascii: "<")
    static let gt = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let amp = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let hash = UInt8(ascii: "#")
    static let question = UInt8(ascii: "?")
    static let bang = UInt8(ascii: "!")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let dash = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let underscore = UInt8(ascii: "_")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let lowerA = UInt8(ascii: "a")
    static let lowerF = UInt8(ascii: "f")
    static let lowerZ = UInt8(ascii: "z")
    static let upperA = UInt8(ascii: "A")
    static let upperF = UInt8(ascii: "F")
    static let upperZ = UInt8(ascii: "Z")
    static let lowerX = UInt8(ascii: "x")
    static let upperX = UInt8(ascii: "X")
    static let lowerE = UInt8(ascii: "e")
    static let upperE = UInt8(ascii: "E")
    static let upperT = UInt8(ascii: "T")

    @inline(__always) static func isWhitespace(_ c: UInt8) -> Bool {
        c == space || c == lf || c == cr || c == tab
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool {
        c >= zero && c <= nine
    }

    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        (c >= lowerA && c <= lowerZ) || (c >= upperA && c <= upperZ) || isDigit(c)
            || c == underscore || c == dash || c == colon || c == dot
    }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? {
        if isDigit(c) { return c &- zero }
        if c >= lowerA && c <= lowerF { return c &- lowerA &+ 10 }
        if c >= upperA && c <= upperF { return c &- upperA &+ 10 }
        return nil
    }

    /// Lowercases an ASCII letter (other bytes unchanged).
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 {
        (c >= upperA && c <= upperZ) ? c &+ 32 : c
    }
}

// MARK: - Tags

/// The elements a property list may contain.
enum XMLPlistTag: CaseIterable {
    case plist, dict, array, key, string, integer, real, date, data, `true`, `false`

    var name: String {
        switch self {
        case .plist: return "plist"
        case .dict: return "dict"
        case .array: return "array"
        case .key: return "key"
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .true: return "true"
        case .false: return "false"
        }
    }

    /// Tag names as bytes, by `rawIndex`, for matching without building strings.
    static let nameBytes: [[UInt8]] = allCases.map { Array($0.name.utf8) }

    /// The position of the case in `allCases`.
    var rawIndex: Int {
        switch self {
        case .plist: return 0
        case .dict: return 1
        case .array: return 2
        case .key: return 3
        case .string: return 4
        case .integer: return 5
        case .real: return 6
        case .date: return 7
        case .data: return 8
        case .true: return 9
        case .false: return 10
        }
    }
}

/// A parsed start tag.
struct StartTag {
    /// The recognised element, or `nil` for an unknown name.
    var tag: XMLPlistTag?
    /// The name as written (for error messages).
    var nameRange: Range<Int>
    /// `true` for `<name/>`.
    var selfClosing: Bool
    /// Offset of the `<`.
    var offset: Int
}
