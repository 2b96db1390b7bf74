import Foundation
import Testing
@testable import KeyedArchive

/// `UserDefaults.archivedValue(_:forKey:decoder:)` and `setArchivedValue(_:forKey:encoder:)`
/// against Foundation's own archiver and unarchiver, in a suite of their own.
@Suite("UserDefaults archived values")
struct UserDefaultsArchivedValueTests {
    @Test("A blob Foundation's NSKeyedArchiver stored under a key reads as a Codable struct")
    func readsFoundationBlob() throws {
        try withDefaultsSuite { defaults in
            defaults.set(foundationProfileBlob, forKey: "profile")
            let profile = try defaults.archivedValue(StoredProfile.self, forKey: "profile")
            #expect(profile == sampleProfile)
        }
    }

    @Test("An absent key reads as nil")
    func absentKeyIsNil() throws {
        try withDefaultsSuite { defaults in
            let profile = try defaults.archivedValue(StoredProfile.self, forKey: "profile")
            #expect(profile == nil)
        }
    }

    /// A defaults value that is not data, and how the error names it.
    static let nonData: [(kind: String, value: @Sendable () -> Any)] = [
        ("a string", { "ada" }), ("a number", { 42 }), ("an array", { ["a"] }), ("a dictionary", { ["k": "v"] }),
    ]

    @Test("A value that is not data throws a type mismatch and stays as it was", arguments: 0..<4)
    func nonDataThrows(index: Int) throws {
        let (kind, value) = Self.nonData[index]
        try withDefaultsSuite { defaults in
            defaults.set(value(), forKey: "profile")
            let error = try #require(throws: DecodingError.self) {
                try defaults.archivedValue(StoredProfile.self, forKey: "profile")
            }
            guard case .typeMismatch(let type, let context) = error else {
                Issue.record("expected a type mismatch, got \(error)")
                return
            }
            #expect(type is Data.Type)
            #expect(context.debugDescription == "The defaults value under \"profile\" is \(kind), not archived data")
            #expect(defaults.object(forKey: "profile") != nil)
            #expect(defaults.data(forKey: "profile") == nil)
        }
    }

    @Test("Data that is not an archive of the type throws the decoder's own error and is kept",
          arguments: [Data("not an archive".utf8), foundationArchive(NSArray(array: ["a", "b"])), Data()])
    func wrongDataThrowsDecoderError(blob: Data) throws {
        try withDefaultsSuite { defaults in
            defaults.set(blob, forKey: "profile")
            let expected = try #require(throws: (any Error).self) { try ArchiveDecoder().decode(StoredProfile.self, from: blob) }
            let error = try #require(throws: DecodingError.self) {
                try defaults.archivedValue(StoredProfile.self, forKey: "profile")
            }
            #expect(KeyedArchiveError.message(of: error) == KeyedArchiveError.message(of: expected))
            #expect(defaults.data(forKey: "profile") == blob)
        }
    }

    @Test("The decoder passed in decides which NSCoding classes may be instantiated")
    func decoderAllowList() throws {
        try withDefaultsSuite { defaults in
            defaults.set(foundationAdminBlob, forKey: "admin")
            #expect(throws: DecodingError.self) {
                try defaults.archivedValue(NSCodingObject<LegacyAdmin>.self, forKey: "admin")
            }
            let decoder = ArchiveDecoder()
            decoder.allowedClasses = [LegacyProfile.self]
            let admin = try #require(try defaults.archivedValue(NSCodingObject<LegacyAdmin>.self, forKey: "admin", decoder: decoder))
            #expect(admin.wrappedValue.profile.nickname == "grace")
            #expect(admin.wrappedValue.permissions == ["read", "write"])
        }
    }

    @Test("A struct written under the old class's exact name is read by NSKeyedUnarchiver as that class")
    func foundationReadsUnderOldName() throws {
        try withDefaultsSuite { defaults in
            let encoder = ArchiveEncoder()
            encoder.setClassName(legacyProfileClassName, for: StoredProfile.self)
            try defaults.setArchivedValue(sampleProfile, forKey: "profile", encoder: encoder)
            let data = try #require(defaults.data(forKey: "profile"))
            #expect(try foundationReadsSampleProfile(data))
            // And the new version reads its own blob back.
            #expect(try defaults.archivedValue(StoredProfile.self, forKey: "profile") == sampleProfile)
        }
    }

    @Test("With the default encoder, the ArchivedClass name is what the old app registers")
    func foundationReadsArchivedClassName() throws {
        try withDefaultsSuite { defaults in
            try defaults.setArchivedValue(sampleProfile, forKey: "profile")
            let data = try #require(defaults.data(forKey: "profile"))
            #expect(try foundationReadsSampleProfile(data, classes: [StoredProfile.archivedClassName: LegacyProfile.self]))
        }
    }

    @Test("A value read, changed and written back reads as the new value")
    func readChangeWrite() throws {
        try withDefaultsSuite { defaults in
            defaults.set(foundationProfileBlob, forKey: "profile")
            var profile = try #require(try defaults.archivedValue(StoredProfile.self, forKey: "profile"))
            profile.level += 1
            try defaults.setArchivedValue(profile, forKey: "profile")
            #expect(try defaults.archivedValue(StoredProfile.self, forKey: "profile") == profile)
        }
    }

    @Test("An encoding error leaves the value under the key as it was")
    func encodingErrorKeepsValue() throws {
        try withDefaultsSuite { defaults in
            defaults.set(foundationProfileBlob, forKey: "profile")
            let encoder = ArchiveEncoder()
            encoder.outputFormat = .xml            // XML 1.0 cannot hold U+0001; the default strategy throws
            var profile = sampleProfile
            profile.nickname = "a\u{1}b"
            #expect(throws: EncodingError.self) { try defaults.setArchivedValue(profile, forKey: "profile", encoder: encoder) }
            #expect(defaults.data(forKey: "profile") == foundationProfileBlob)
        }
    }
}
