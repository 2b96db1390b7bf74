#if canImport(ObjectiveC)
import Foundation

/// A value transformer for Core Data's Transformable attributes that stores a Codable value
/// as a keyed archive, and reads the archives an `NSCoding` class left in the store.
///
/// A Transformable attribute's values are keyed archives written through
/// `NSSecureUnarchiveFromDataTransformer` (or the deprecated default transformer). To replace
/// the stored `NSCoding` class with a Codable struct, register this transformer under a
/// name before the persistent container loads its stores, and give that name as the
/// attribute's transformer in the model:
///
/// ```swift
/// struct Settings: Codable, ArchivedClass {
///     static let archivedClassName = "Settings"    // the NSCoding class of version 1
///     var theme: String
///     var fontSize: Int
/// }
///
/// ArchivedValueTransformer<Settings>.register(name: NSValueTransformerName("SettingsTransformer"))
/// ```
///
/// Reading (`reverseTransformedValue(_:)`) decodes the stored data with the decoder given
/// at registration, under the rules of secure decoding: no class is instantiated that the
/// value's type or the decoder's ``ArchiveDecoder/allowedClasses`` do not allow. Writing
/// (`transformedValue(_:)`) archives the value with the encoder, so the class names its
/// objects carry (``ArchivedClass``, ``ArchiveEncoder/setClassName(_:superclassNames:for:)``)
/// are those the previous version of the app registered, and it still reads the store.
///
/// Data that does not decode is never dropped: the attribute then holds the data itself,
/// which is written back unchanged when the object is saved. Read the attribute as the
/// value's type (`object.settings as? Settings`), and look for `Data` to find such blobs.
///
/// Both transformations run on any thread Core Data uses, and never trap on their input.
public final class ArchivedValueTransformer<Value: Codable>: ValueTransformer {
    private let transform: ArchivedValueTransform<Value>

    /// Creates a transformer that reads with `decoder` and writes with `encoder`; configure
    /// them (allowed classes, class names) before the transformer is used.
    ///
    /// ```swift
    /// let decoder = ArchiveDecoder()
    /// decoder.allowedClasses = [LegacyColor.self]   // an NSCoding class the value holds
    /// let transformer = ArchivedValueTransformer<Settings>(decoder: decoder)
    /// ```
    public init(decoder: ArchiveDecoder = ArchiveDecoder(), encoder: ArchiveEncoder = ArchiveEncoder()) {
        transform = ArchivedValueTransform(decoder: decoder, encoder: encoder)
        super.init()
    }

    /// Creates a transformer and registers it under `name`, as
    /// `ValueTransformer.setValueTransformer(_:forName:)` does: the name to give as the
    /// attribute's transformer in the Core Data model. Call it before the persistent
    /// container loads its stores.
    ///
    /// ```swift
    /// ArchivedValueTransformer<Settings>.register(name: NSValueTransformerName("SettingsTransformer"))
    /// ```
    @discardableResult
    public static func register(name: NSValueTransformerName, decoder: ArchiveDecoder = ArchiveDecoder(),
                                encoder: ArchiveEncoder = ArchiveEncoder()) -> ArchivedValueTransformer<Value> {
        let transformer = ArchivedValueTransformer(decoder: decoder, encoder: encoder)
        ValueTransformer.setValueTransformer(transformer, forName: name)
        return transformer
    }

    /// `NSData`: the class of what `transformedValue(_:)` returns.
    public override class func transformedValueClass() -> AnyClass {
        NSData.self
    }

    /// `true`: the transformer also reads the stored data back.
    public override class func allowsReverseTransformation() -> Bool {
        true
    }

    /// The keyed archive of a `Value`, as `NSData`; data kept because it did not decode,
    /// unchanged; `nil` for anything else.
    public override func transformedValue(_ value: Any?) -> Any? {
        transform.transformedValue(value).map { $0 as NSData }
    }

    /// The `Value` archived in the data; the data itself when it does not decode; `nil`
    /// for anything but data.
    public override func reverseTransformedValue(_ value: Any?) -> Any? {
        transform.reverseTransformedValue(value)
    }
}
#endif
