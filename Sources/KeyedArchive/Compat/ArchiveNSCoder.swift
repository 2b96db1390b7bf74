import Foundation

/// The `NSCoder` that runs `encode(with:)` and `init?(coder:)` of `NSCoding` classes inside
/// an ``ArchiveEncoder`` or ``ArchiveDecoder``: their keyed calls land as fields of their
/// own object in the shared object table, laid out as `NSKeyedArchiver` lays them out.
///
/// `NSCoder` methods cannot throw, so errors are kept and rethrown by the caller once
/// `encode(with:)` or `init?(coder:)` returns. Decoding never uses Foundation's
/// trap-on-error policy.
final class ArchiveNSCoder: NSCoder {
    private enum Mode {
        case encoding(_ArchiveEncoder, ObjectBox)
        case decoding(_ArchiveDecoder, ArchiveKeyedDecodingContainer<ArchiveCodingKey>)
    }

    private let mode: Mode
    private let path: CodingPathNode
    /// The first error met while encoding.
    private(set) var encodingError: (any Error)?
    /// The first error met while decoding.
    private(set) var decodingError: (any Error)?
    /// Bytes handed out by pointer (`decodeBytes(forKey:returnedLength:)` on Darwin), kept
    /// alive as long as the coder.
    var keptBytes: [NSData] = []

    init(encoder: _ArchiveEncoder, box: ObjectBox, path: CodingPathNode) {
        mode = .encoding(encoder, box)
        self.path = path
        super.init()
    }

    init(decoder: _ArchiveDecoder, container: ArchiveKeyedDecodingContainer<ArchiveCodingKey>, path: CodingPathNode) {
        mode = .decoding(decoder, container)
        self.path = path
        super.init()
        #if canImport(ObjectiveC)
        _ = Self.objectOfClassEntryPoint
        #endif
    }

    override var allowsKeyedCoding: Bool { true }
    override var decodingFailurePolicy: NSCoder.DecodingFailurePolicy { .setErrorAndReturn }
    override var error: (any Error)? { decodingError }
    override func failWithError(_ error: any Error) {
        if decodingError == nil { decodingError = error }
    }

    // MARK: - Encoding

    private func put(_ value: ObjectBox.Value, forKey key: String) {
        guard case .encoding(let encoder, let box) = mode else { return }
        box.append(key: encoder.table.keyID(key), value)
    }

    override func encode(_ object: Any?, forKey key: String) {
        guard case .encoding(let encoder, _) = mode, encodingError == nil else { return }
        do {
            put(.uid(try encoder.encodeFoundationObject(object, at: path.appending(ArchiveCodingKey(stringValue: key)))), forKey: key)
        } catch {
            encodingError = error
        }
    }

    /// A conditional object is written only if something else writes it too; here, if it
    /// has been written already (otherwise nil, as NSKeyedArchiver does for one never written).
    override func encodeConditionalObject(_ object: Any?, forKey key: String) {
        guard case .encoding(let encoder, _) = mode else { return }
        if let object = object as? AnyObject, let uid = encoder.table.instanceUIDs[ObjectIdentifier(object)] {
            put(.uid(uid), forKey: key)
        } else {
            put(.uid(0), forKey: key)
        }
    }

    override func encode(_ value: Bool, forKey key: String) { put(.bool(value), forKey: key) }
    override func encode(_ value: Int, forKey key: String) { put(.integer(Int64(value)), forKey: key) }
    override func encode(_ value: Int32, forKey key: String) { put(.integer(Int64(value)), forKey: key) }
    override func encode(_ value: Int64, forKey key: String) { put(.integer(value), forKey: key) }
    override func encode(_ value: Float, forKey key: String) { put(.float(value), forKey: key) }
    override func encode(_ value: Double, forKey key: String) { put(.real(value), forKey: key) }
    override func encodeBytes(_ bytes: UnsafePointer<UInt8>?, length: Int, forKey key: String) {
        let data = bytes.map { Data(bytes: $0, count: max(0, length)) } ?? Data()
        put(.data(data), forKey: key)
    }

    var isEncoding: Bool {
        if case .encoding = mode { return true }
        return false
    }

    // MARK: - Decoding

    private var container: ArchiveKeyedDecodingContainer<ArchiveCodingKey>? {
        guard case .decoding(_, let container) = mode else { return nil }
        return container
    }

    /// Runs a throwing read; on error records it and returns `fallback`.
    private func reading<T>(_ fallback: T, _ body: (ArchiveKeyedDecodingContainer<ArchiveCodingKey>) throws -> T) -> T {
        guard let container, decodingError == nil else { return fallback }
        do {
            return try body(container)
        } catch {
            decodingError = error
            return fallback
        }
    }

    override func containsValue(forKey key: String) -> Bool {
        container?.contains(ArchiveCodingKey(stringValue: key)) ?? false
    }

    override func decodeObject(forKey key: String) -> Any? {
        decodeObject(allowing: nil, forKey: key)
    }

    /// The object under `key`: the one implementation behind every object read, whatever
    /// entry point the platform's `NSCoder` dispatches to (ArchiveNSCoder+Darwin.swift, and
    /// swift-corelibs-foundation's below). With `classes`, it must be of one of them, and so
    /// must the elements of a collection (the decoder's `allowedClasses` and registrations
    /// do not widen the list); with `nil`, the decoder's allow-list and registrations apply.
    func decodeObject(allowing classes: [AnyClass]?, forKey key: String) -> Any? {
        reading(nil) { container in
            let codingKey = ArchiveCodingKey(stringValue: key)
            guard let slot = try container.find(codingKey) else { return nil }
            return try container.decoder.decodeFoundationObject(slot, allowed: classes, at: container.path.appending(codingKey))
        }
    }

    /// The bytes under `key` (`encodeBytes(_:length:forKey:)`), or nil.
    func decodedBytes(forKey key: String) -> Data? {
        reading(nil) { try $0.decodeIfPresent(Data.self, forKey: ArchiveCodingKey(stringValue: key)) }
    }

    /// A decoding coder reads under the decoder's allow-list rules, which are those of secure
    /// coding: no class is instantiated unless the caller allowed it.
    override var requiresSecureCoding: Bool { !isEncoding }

    /// The classes a read that names none may instantiate: the decoder's `allowedClasses`
    /// and registered classes (empty while encoding).
    var allowedClassList: [AnyClass] {
        guard let container else { return [] }
        let registry = container.decoder.state.registry
        return registry.allowed + registry.byName.keys.sorted().compactMap { registry.byName[$0] }
    }

    override func decodeBool(forKey key: String) -> Bool {
        reading(false) { try $0.decodeIfPresent(Bool.self, forKey: ArchiveCodingKey(stringValue: key)) ?? false }
    }
    override func decodeInteger(forKey key: String) -> Int {
        reading(0) { try $0.decodeIfPresent(Int.self, forKey: ArchiveCodingKey(stringValue: key)) ?? 0 }
    }
    override func decodeInt32(forKey key: String) -> Int32 {
        reading(0) { try $0.decodeIfPresent(Int32.self, forKey: ArchiveCodingKey(stringValue: key)) ?? 0 }
    }
    /// `decodeIntForKey:`, a C `int`.
    override func decodeCInt(forKey key: String) -> Int32 { decodeInt32(forKey: key) }
    override func decodeInt64(forKey key: String) -> Int64 {
        reading(0) { try $0.decodeIfPresent(Int64.self, forKey: ArchiveCodingKey(stringValue: key)) ?? 0 }
    }
    override func decodeFloat(forKey key: String) -> Float {
        reading(0) { try $0.decodeIfPresent(Float.self, forKey: ArchiveCodingKey(stringValue: key)) ?? 0 }
    }
    override func decodeDouble(forKey key: String) -> Double {
        reading(0) { try $0.decodeIfPresent(Double.self, forKey: ArchiveCodingKey(stringValue: key)) ?? 0 }
    }

    /// `decodePropertyListForKey:`: an object of the property-list classes only.
    override func decodePropertyList(forKey key: String) -> Any? {
        decodeObject(allowing: Self.propertyListClasses, forKey: key)
    }

    static let propertyListClasses: [AnyClass] = [
        NSString.self, NSNumber.self, NSData.self, NSDate.self, NSArray.self, NSDictionary.self,
    ]

    // MARK: - swift-corelibs-foundation's entry points

    #if !canImport(ObjectiveC)
    // The methods swift-corelibs-foundation's `NSCoder` dispatches to (Linux, Windows,
    // Android): Swift methods, overridden here (Swift allows no override of them in an
    // extension). Darwin's Objective-C entry points are in ArchiveNSCoder+Darwin.swift.
    override func decodeObject(of classes: [AnyClass]?, forKey key: String) -> Any? {
        decodeObject(allowing: classes, forKey: key)
    }

    override var allowedClasses: [AnyClass]? { isEncoding ? nil : allowedClassList }

    override func withDecodedUnsafeBytes<ResultType>(forKey key: String, body: (UnsafeRawBufferPointer?) throws -> ResultType) rethrows -> ResultType {
        guard let data = decodedBytes(forKey: key) else { return try body(nil) }
        return try data.withUnsafeBytes { try body($0) }
    }

    override func withDecodedUnsafeBufferPointer<ResultType>(forKey key: String, body: (UnsafeBufferPointer<UInt8>?) throws -> ResultType) rethrows -> ResultType {
        guard let data = decodedBytes(forKey: key) else { return try body(nil) }
        return try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
    }
    #endif

    /// Decodes a Codable value natively (used by `NSCoder.decodeCodable`). As with the other
    /// reads, its first error is kept and fails the whole decode once `init?(coder:)`
    /// returns, even if the initializer catches it; after an error every read fails.
    func decodeNatively<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let container else { return nil }
        if let decodingError { throw decodingError }
        do {
            return try container.decodeIfPresent(type, forKey: ArchiveCodingKey(stringValue: key))
        } catch {
            decodingError = error
            throw error
        }
    }
}
