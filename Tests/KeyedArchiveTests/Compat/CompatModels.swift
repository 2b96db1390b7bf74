import Foundation
@testable import KeyedArchive

// Models for the compatibility tests. NSCoding classes are top-level: Foundation on Linux
// archives only top-level classes (as `KeyedArchiveTests.ClassName`).

/// A hand-written NSCoding class of a "version 1" app.
final class LegacyProfile: NSObject, NSCoding {
    var nickname: String
    var level: Int
    var ratio: Double
    var joined: Date
    var friend: LegacyProfile?

    init(nickname: String, level: Int, ratio: Double, joined: Date, friend: LegacyProfile? = nil) {
        self.nickname = nickname
        self.level = level
        self.ratio = ratio
        self.joined = joined
        self.friend = friend
    }

    func encode(with coder: NSCoder) {
        coder.encode(nickname, forKey: "nickname")
        coder.encode(level, forKey: "level")
        coder.encode(ratio, forKey: "ratio")
        coder.encode(joined as NSDate, forKey: "joined")
        coder.encode(friend, forKey: "friend")
    }

    required init?(coder: NSCoder) {
        guard let nickname = coder.decodeObject(forKey: "nickname") as? String,
              let joined = coder.decodeObject(forKey: "joined") as? Date else { return nil }
        self.nickname = nickname
        self.level = coder.decodeInteger(forKey: "level")
        self.ratio = coder.decodeDouble(forKey: "ratio")
        self.joined = joined
        self.friend = coder.containsValue(forKey: "friend") ? coder.decodeObject(forKey: "friend") as? LegacyProfile : nil
    }
}

/// A subclass that chains to its superclass's coding.
final class LegacyAdmin: NSObject, NSCoding {
    var profile: LegacyProfile
    var permissions: [String]

    init(profile: LegacyProfile, permissions: [String]) {
        self.profile = profile
        self.permissions = permissions
    }

    func encode(with coder: NSCoder) {
        coder.encode(profile, forKey: "profile")
        coder.encode(permissions as NSArray, forKey: "permissions")
    }

    required init?(coder: NSCoder) {
        guard let profile = coder.decodeObject(forKey: "profile") as? LegacyProfile,
              let permissions = coder.decodeObject(forKey: "permissions") as? [String] else { return nil }
        self.profile = profile
        self.permissions = permissions
    }
}

/// A Codable value stored inside an NSCoding class with `encodeCodable`.
struct Preferences: Codable, Equatable {
    var theme: String
    var fontSize: Int
    var tags: [String]
    var lastSync: Date?
}

/// An NSCoding class that holds a Codable value.
final class SettingsHolder: NSObject, NSCoding {
    var owner: String
    var preferences: Preferences

    init(owner: String, preferences: Preferences) {
        self.owner = owner
        self.preferences = preferences
    }

    func encode(with coder: NSCoder) {
        coder.encode(owner, forKey: "owner")
        try? coder.encodeCodable(preferences, forKey: "preferences")
    }

    required init?(coder: NSCoder) {
        guard let owner = coder.decodeObject(forKey: "owner") as? String,
              let preferences = try? coder.decodeCodable(Preferences.self, forKey: "preferences") else { return nil }
        self.owner = owner
        self.preferences = preferences
    }
}

/// A Codable struct holding NSCoding objects natively.
struct ProfileCard: Codable {
    var title: String
    @NSCodingObject var profile: LegacyProfile
    @NSCodingObject var settings: SettingsHolder
}

/// The pure-Swift NSCoding style.
class Account: ArchiveCoding {
    var owner: String
    var balance: Int

    init(owner: String, balance: Int) {
        self.owner = owner
        self.balance = balance
    }

    func encode(with coder: ArchiveKeyedEncoder) throws {
        try coder.encode(owner, forKey: "owner")
        try coder.encode(balance, forKey: "balance")
    }

    required init(coder: ArchiveKeyedDecoder) throws {
        owner = try coder.decode(String.self, forKey: "owner") ?? ""
        balance = try coder.decodeInteger(forKey: "balance")
    }

    required convenience init(from decoder: any Decoder) throws {
        try self.init(readingFrom: decoder)
    }
}

final class SavingsAccount: Account {
    var rate: Double

    init(owner: String, balance: Int, rate: Double) {
        self.rate = rate
        super.init(owner: owner, balance: balance)
    }

    override func encode(with coder: ArchiveKeyedEncoder) throws {
        try super.encode(with: coder)
        try coder.encode(rate, forKey: "rate")
    }

    required init(coder: ArchiveKeyedDecoder) throws {
        rate = try coder.decodeDouble(forKey: "rate")
        try super.init(coder: coder)
    }

    required convenience init(from decoder: any Decoder) throws {
        try self.init(readingFrom: decoder)
    }
}

struct Wallet: Codable {
    var label: String
    var main: Account
    var savings: SavingsAccount
}

/// Foundation-side mirror of `Account`/`SavingsAccount`, to check Foundation reads them.
final class FoundationAccount: NSObject, NSCoding {
    var owner: String
    var balance: Int
    var rate: Double

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        owner = coder.decodeObject(forKey: "owner") as? String ?? ""
        balance = coder.decodeInteger(forKey: "balance")
        rate = coder.containsValue(forKey: "rate") ? coder.decodeDouble(forKey: "rate") : 0
    }
}

/// Foundation-side reader of a `ProfileCard` (a Codable struct archived by us).
final class FoundationProfileCard: NSObject, NSCoding {
    var title: String
    var profile: LegacyProfile?

    func encode(with coder: NSCoder) {}

    required init?(coder: NSCoder) {
        title = coder.decodeObject(forKey: "title") as? String ?? ""
        profile = coder.decodeObject(forKey: "profile") as? LegacyProfile
    }
}

/// An NSCoding class hierarchy: the subclass chains to its superclass's coding.
class LegacyVehicle: NSObject, NSCoding {
    var wheels: Int
    init(wheels: Int) { self.wheels = wheels }
    func encode(with coder: NSCoder) { coder.encode(wheels, forKey: "wheels") }
    required init?(coder: NSCoder) { wheels = coder.decodeInteger(forKey: "wheels") }
}

final class LegacyTruck: LegacyVehicle {
    var load: Double
    init(wheels: Int, load: Double) {
        self.load = load
        super.init(wheels: wheels)
    }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(load, forKey: "load")
    }
    required init?(coder: NSCoder) {
        load = coder.decodeDouble(forKey: "load")
        super.init(coder: coder)
    }
}
