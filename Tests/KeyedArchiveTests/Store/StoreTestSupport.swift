import Foundation
import Testing
@testable import KeyedArchive

// Shared pieces of the ArchiveStore suites: scratch folders, sample values, and listings.

/// A fresh, empty scratch folder, removed when `body` returns.
func withScratchFolder<T>(_ body: (URL) throws -> T) throws -> T {
    try Scratch.withFolder("store", body)
}

/// Every entry of `folder`, hidden ones included, sorted.
func listing(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// The store's temporary files in `folder`.
func temporaryFiles(in folder: URL) throws -> [String] {
    try listing(folder).filter { $0.hasPrefix(".archivestore-") && $0.hasSuffix(".tmp") }
}

/// A value laid out like the tests' `LegacyProfile` NSCoding class, so Foundation reads it.
struct StoredProfile: Codable, Equatable, ArchivedClass {
    static let archivedClassName = "Profile"
    var nickname: String
    var level: Int
    var ratio: Double
    var joined: Date
}

/// A nested value with the usual kinds of fields.
struct StoredAccount: Codable, Equatable {
    struct Device: Codable, Equatable { var name: String; var lastSeen: Date }
    var owner: StoredProfile
    var devices: [Device]
    var limits: [String: Int]
    var note: String?
    var avatar: Data
}

let sampleProfile = StoredProfile(nickname: "ada", level: 7, ratio: 0.25, joined: Date(timeIntervalSinceReferenceDate: 700_000_000))

let sampleAccount = StoredAccount(
    owner: sampleProfile,
    devices: [.init(name: "laptop", lastSeen: Date(timeIntervalSinceReferenceDate: 1_000)),
              .init(name: "phone — 手机", lastSeen: Date(timeIntervalSinceReferenceDate: -5.5))],
    limits: ["uploads": 10, "storage": 5_000_000_000],
    note: nil,
    avatar: Data([0, 1, 2, 0xFF]))

/// Collects failures from many threads (Swift Testing's `#expect` needs a test context).
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ failure: String) { lock.withLock { items.append(failure) } }
    var all: [String] { lock.withLock { items } }
}
