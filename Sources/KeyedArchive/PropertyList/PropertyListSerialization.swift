import Foundation

extension PropertyListValue {
    /// Reads a property list in either format (binary `bplist00` or XML).
    ///
    /// A key repeated in one dictionary counts once, as CoreFoundation reads it: its first
    /// occurrence in a binary property list, its last in an XML one.
    ///
    /// ```swift
    /// let value = try PropertyListValue(propertyList: data)
    /// if case .dictionary(let entries) = value { print(entries.map(\.key)) }
    /// ```
    ///
    /// - Parameters:
    ///   - data: the bytes of a binary or XML property list.
    ///   - maxDepth: containers nested deeper than this throw (protection against
    ///     malicious input).
    /// - Throws: ``PropertyListError`` saying what is wrong and where.
    public init(propertyList data: Data, maxDepth: Int = 512) throws {
        self = try PropertyListInput.read(data, maxDepth: maxDepth) { try $0.topValue(maxDepth: maxDepth) }
    }

    /// Serializes the value. Binary output stores equal strings and numbers once and uses
    /// the narrowest offset and reference widths; both formats are deterministic. XML
    /// output writes every string as it is, as `PropertyListSerialization` does, including
    /// characters XML 1.0 cannot represent (most C0 controls, U+FFFE, U+FFFF), which XML
    /// readers other than Foundation's and this package's reject; ``ArchiveEncoder``
    /// refuses them unless told otherwise (``ArchiveEncoder/InvalidXMLCharacterStrategy``).
    ///
    /// ```swift
    /// let xml = PropertyListValue.array([.integer(1), .string("two")]).propertyListData(format: .xml)
    /// ```
    public func propertyListData(format: PropertyListFormat) -> Data {
        switch format {
        case .binary: return Data(BinaryPropertyListWriter.write(self))
        case .xml: return Data(XMLPropertyListWriter.write(self))
        }
    }
}
