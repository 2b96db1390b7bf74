import Foundation
import Testing
@testable import KeyedArchive

/// The logic of the Core Data transformer (`ArchivedValueTransformer`, Apple platforms only),
/// which the transformer forwards to, with blobs Foundation's NSKeyedArchiver wrote here.
@Suite("Core Data transform logic")
struct ArchivedValueTransformTests {
    let transform = ArchivedValueTransform<StoredProfile>(decoder: ArchiveDecoder(), encoder: ArchiveEncoder())

    @Test("A Foundation-written blob reads as the Codable value")
    func readsFoundationBlob() throws {
        #expect(try transform.value(from: foundationProfileBlob) == sampleProfile)
        #expect(transform.reverseTransformedValue(foundationProfileBlob) as? StoredProfile == sampleProfile)
        #expect(transform.reverseTransformedValue(NSData(data: foundationProfileBlob)) as? StoredProfile == sampleProfile)
    }

    @Test("The stored data is what the encoder writes, and NSKeyedUnarchiver reads it as the old class")
    func writesForTheOldApp() throws {
        let encoder = ArchiveEncoder()
        encoder.setClassName(legacyProfileClassName, for: StoredProfile.self)
        let transform = ArchivedValueTransform<StoredProfile>(decoder: ArchiveDecoder(), encoder: encoder)
        let data = try #require(transform.transformedValue(sampleProfile))
        #expect(data == (try encoder.encode(sampleProfile)))
        #expect(try transform.data(from: sampleProfile) == data)
        #expect(try foundationReadsSampleProfile(data))
        #expect(transform.reverseTransformedValue(data) as? StoredProfile == sampleProfile)
    }

    @Test("A blob that does not decode is kept: read as its data, written back byte for byte",
          arguments: [Data("not an archive".utf8), foundationArchive(NSArray(array: ["a", "b"])), Data(), foundationAdminBlob])
    func failedBlobIsKept(blob: Data) throws {
        #expect(throws: DecodingError.self) { try transform.value(from: blob) }
        let read = transform.reverseTransformedValue(blob)
        #expect(read as? Data == blob)
        #expect(read as? StoredProfile == nil)
        #expect(transform.transformedValue(read) == blob)
    }

    @Test("The allow-list is the decoder's: a class it does not allow is not instantiated, and the blob is kept")
    func allowList() throws {
        let strict = ArchivedValueTransform<NSCodingObject<LegacyAdmin>>(decoder: ArchiveDecoder(), encoder: ArchiveEncoder())
        #expect(throws: DecodingError.self) { try strict.value(from: foundationAdminBlob) }
        #expect(strict.reverseTransformedValue(foundationAdminBlob) as? Data == foundationAdminBlob)

        let decoder = ArchiveDecoder()
        decoder.allowedClasses = [LegacyProfile.self]
        let allowing = ArchivedValueTransform<NSCodingObject<LegacyAdmin>>(decoder: decoder, encoder: ArchiveEncoder())
        let admin = try #require(allowing.reverseTransformedValue(foundationAdminBlob) as? NSCodingObject<LegacyAdmin>)
        #expect(admin.wrappedValue.profile.nickname == "grace")
    }

    @Test("Anything but the value or data transforms to nil, and nothing traps")
    func otherInputs() {
        #expect(transform.transformedValue(nil) == nil)
        #expect(transform.transformedValue("a string") == nil)
        #expect(transform.transformedValue(42) == nil)
        #expect(transform.reverseTransformedValue(nil) == nil)
        #expect(transform.reverseTransformedValue("a string") == nil)
        #expect(transform.reverseTransformedValue(sampleProfile) == nil)
    }

    @Test("A value the encoder cannot write transforms to nil; the throwing form says why")
    func encodingFailure() {
        let encoder = ArchiveEncoder()
        encoder.outputFormat = .xml            // XML 1.0 cannot hold U+0001; the default strategy throws
        let transform = ArchivedValueTransform<StoredProfile>(decoder: ArchiveDecoder(), encoder: encoder)
        var profile = sampleProfile
        profile.nickname = "a\u{1}b"
        #expect(transform.transformedValue(profile) == nil)
        #expect(throws: EncodingError.self) { try transform.data(from: profile) }
    }
}
