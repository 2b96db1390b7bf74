import Foundation
@testable import KeyedArchive

// Shared pieces of the migration suites: a throwaway defaults suite, and blobs written by
// Foundation's own NSKeyedArchiver on this machine, as a version-1 app would have.

/// Runs `body` with an empty `UserDefaults` suite of its own, whose persistent domain is
/// removed afterwards.
func withDefaultsSuite<T>(_ body: (UserDefaults) throws -> T) throws -> T {
    let name = "KeyedArchiveTests.migration.\(UUID().uuidString)"
    guard let defaults = UserDefaults(suiteName: name) else { throw CocoaError(.featureUnsupported) }
    defer { defaults.removePersistentDomain(forName: name) }
    return try body(defaults)
}

/// `sampleProfile` as version 1 saved it: a `LegacyProfile` archived by Foundation.
let foundationProfileBlob: Data = foundationArchive(
    LegacyProfile(nickname: sampleProfile.nickname, level: sampleProfile.level,
                  ratio: sampleProfile.ratio, joined: sampleProfile.joined))

/// A `LegacyAdmin` archived by Foundation: its `init?(coder:)` reads a `LegacyProfile` with
/// `decodeObject(forKey:)`, which no declared type allows, so ``ArchiveDecoder`` instantiates
/// it only when it is in `allowedClasses`.
let foundationAdminBlob: Data = foundationArchive(
    LegacyAdmin(profile: LegacyProfile(nickname: "grace", level: 9, ratio: 0.5, joined: sampleProfile.joined),
                permissions: ["read", "write"]))

/// The name swift-corelibs-foundation archives `LegacyProfile` under.
let legacyProfileClassName = "KeyedArchiveTests.LegacyProfile"

/// Checks that Foundation's `NSKeyedUnarchiver` reads `data` as the version-1
/// `LegacyProfile` with `sampleProfile`'s fields; `classes` are registered by name first.
func foundationReadsSampleProfile(_ data: Data, classes: [String: AnyClass] = [:]) throws -> Bool {
    guard let legacy = try foundationUnarchive(data, classes: classes) as? LegacyProfile else { return false }
    return legacy.nickname == sampleProfile.nickname && legacy.level == sampleProfile.level
        && legacy.ratio == sampleProfile.ratio && legacy.joined == sampleProfile.joined && legacy.friend == nil
}
