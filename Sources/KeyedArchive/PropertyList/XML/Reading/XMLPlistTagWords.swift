/// The markup the fast XML reader (``XMLPlistFastReader``) matches, as little-endian words
/// of its bytes: a tag of at most eight bytes is one masked comparison with the input's
/// word (``XMLPlistBytes/word(_:)``), a longer one two.
enum XMLPlistTagWords {
    static let keyOpen: UInt64 = 0x0000_003E_7965_6B3C  // "<key>"
    static let keyClose: UInt64 = 0x0000_3E79_656B_2F3C  // "</key>"
    static let dictOpen: UInt64 = 0x0000_3E74_6369_643C  // "<dict>"
    static let dictEmpty: UInt64 = 0x003E_2F74_6369_643C  // "<dict/>"
    static let dictClose: UInt64 = 0x003E_7463_6964_2F3C  // "</dict>"
    static let arrayOpen: UInt64 = 0x003E_7961_7272_613C  // "<array>"
    static let arrayEmpty: UInt64 = 0x3E2F_7961_7272_613C  // "<array/>"
    static let arrayClose: UInt64 = 0x3E79_6172_7261_2F3C  // "</array>"
    static let stringOpen: UInt64 = 0x3E67_6E69_7274_733C  // "<string>"
    static let stringClose: UInt64 = 0x676E_6972_7473_2F3C  // "</string", then ">"
    static let integerOpen: UInt64 = 0x7265_6765_746E_693C  // "<integer", then ">"
    static let integerClose: UInt64 = 0x6567_6574_6E69_2F3C  // "</intege", then "r>"
    static let realOpen: UInt64 = 0x0000_3E6C_6165_723C  // "<real>"
    static let realClose: UInt64 = 0x003E_6C61_6572_2F3C  // "</real>"
    static let dateOpen: UInt64 = 0x0000_3E65_7461_643C  // "<date>"
    static let dateClose: UInt64 = 0x003E_6574_6164_2F3C  // "</date>"
    static let dataOpen: UInt64 = 0x0000_3E61_7461_643C  // "<data>"
    static let dataClose: UInt64 = 0x003E_6174_6164_2F3C  // "</data>"
    static let trueEmpty: UInt64 = 0x003E_2F65_7572_743C  // "<true/>"
    static let falseEmpty: UInt64 = 0x3E2F_6573_6C61_663C  // "<false/>"
    static let uidKeyHead: UInt64 = 0x2446_433E_7965_6B3C  // "<key>CF$", then "UID</key", ">"
    static let uidKeyTail: UInt64 = 0x7965_6B2F_3C44_4955  // "UID</key"
    static let uidKey: UInt64 = 0x0000_4449_5524_4643  // "CF$UID"
}
