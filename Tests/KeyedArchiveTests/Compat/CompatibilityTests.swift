import Foundation
import Testing
@testable import KeyedArchive

private let joined = Date(timeIntervalSinceReferenceDate: 600_000_000)

@Suite("NSCoding and Codable in one archive")
struct CompatibilityTests {
    // MARK: 1. NSCoding objects inside our archives

    @Test("An NSCoding object in a Codable struct is archived natively and read back", arguments: PropertyListFormat.allCases)
    func nsCodingInsideCodable(format: PropertyListFormat) throws {
        let profile = LegacyProfile(nickname: "ada", level: 7, ratio: 0.25, joined: joined)
        let settings = SettingsHolder(owner: "ada", preferences: Preferences(theme: "dark", fontSize: 12, tags: ["a"], lastSync: nil))
        let card = ProfileCard(title: "Card", profile: profile, settings: settings)
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(card)
        let raw = try RawArchive(data)
        // The NSCoding object is an object of its own class with its fields, not a blob.
        let archived = raw.resolve(raw.root?["profile"])
        #expect(raw.className(of: archived) == "KeyedArchiveTests.LegacyProfile")
        #expect(archived?["level"] == .integer(7))
        #expect(raw.resolve(archived?["nickname"]) == .string("ada"))
        #expect(raw.className(of: raw.resolve(archived?["joined"])) == "NSDate")

        let back = try ArchiveDecoder().decode(ProfileCard.self, from: data)
        #expect(back.profile.nickname == "ada")
        #expect(back.profile.level == 7)
        #expect(back.profile.ratio == 0.25)
        #expect(back.profile.joined == joined)
        #expect(back.settings.preferences == settings.preferences)

        // Foundation reads the same file: the struct through a mirror class, the NSCoding
        // object as its own class.
        let read = try foundationUnarchive(data, classes: ["ProfileCard": FoundationProfileCard.self]) as? FoundationProfileCard
        #expect(read?.title == "Card")
        #expect(read?.profile?.nickname == "ada")
        #expect(read?.profile?.level == 7)
    }

    @Test("Shared and cyclic NSCoding objects keep one identity")
    func sharedAndCyclicNSCoding() throws {
        let a = LegacyProfile(nickname: "a", level: 1, ratio: 0, joined: joined)
        let b = LegacyProfile(nickname: "b", level: 2, ratio: 0, joined: joined, friend: a)
        a.friend = b  // a cycle: NSCoding archives allow it
        defer { a.friend = nil }
        let admin = LegacyAdmin(profile: a, permissions: ["read"])
        struct Holder: Codable { @NSCodingObject var admin: LegacyAdmin; @NSCodingObject var again: LegacyProfile }
        let data = try ArchiveEncoder().encode(Holder(admin: admin, again: a))
        let raw = try RawArchive(data)
        #expect(raw.resolve(raw.root?["admin"])?["profile"] == raw.root?["again"], "one object, one UID")
        #expect(raw.count(ofString: "a") == 1)
        // The untyped view shows the cycle rather than following it.
        let rendered = try KeyedArchiveView(data: data).render()
        #expect(rendered.contains("(cycle)"))
        // Foundation's archiver writes the same cycle; our view reads it.
        let foundationData = try NSKeyedArchiver.archivedData(withRootObject: a, requiringSecureCoding: false)
        #expect(try KeyedArchiveView(data: foundationData).render().contains("(cycle)"))
    }

    @Test("An NSCoding subclass and its superclass fill one object, with the whole $classes chain")
    func nsCodingSuperclassChain() throws {
        struct Fleet: Codable { @NSCodingObject var truck: LegacyTruck }
        let data = try ArchiveEncoder().encode(Fleet(truck: LegacyTruck(wheels: 6, load: 2.5)))
        let raw = try RawArchive(data)
        let truck = raw.resolve(raw.root?["truck"])
        #expect(raw.classes(of: truck) == ["KeyedArchiveTests.LegacyTruck", "KeyedArchiveTests.LegacyVehicle", "NSObject"])
        #expect(truck?["wheels"] == .integer(6))
        #expect(truck?["load"] == .real(2.5))
        let back = try ArchiveDecoder().decode(Fleet.self, from: data)
        #expect(back.truck.wheels == 6)
        #expect(back.truck.load == 2.5)
        // Foundation writes the same object for the same class.
        let foundation = foundationArchive(LegacyTruck(wheels: 6, load: 2.5))
        let view = try KeyedArchiveView(data: foundation)
        let object = try #require(view.objects.first { $0.className == "KeyedArchiveTests.LegacyTruck" })
        #expect(object.classes == ["KeyedArchiveTests.LegacyTruck", "KeyedArchiveTests.LegacyVehicle", "NSObject"])
        #expect(Set(object.fields.map(\.key)) == ["wheels", "load"])
    }

    // MARK: 2. Codable values inside NSCoding classes

    @Test("encodeCodable/decodeCodable work with our coder, in Foundation's layout")
    func codableInsideNSCodingWithOurCoder() throws {
        let prefs = Preferences(theme: "light", fontSize: 14, tags: ["x", "y"], lastSync: joined)
        struct Box: Codable { @NSCodingObject var holder: SettingsHolder }
        let data = try ArchiveEncoder().encode(Box(holder: SettingsHolder(owner: "o", preferences: prefs)))
        let raw = try RawArchive(data)
        let holder = raw.resolve(raw.root?["holder"])
        // The Codable value is an NSDictionary of its fields, the layout Foundation writes and reads.
        #expect(raw.className(of: raw.resolve(holder?["preferences"])) == "NSDictionary")
        let back = try ArchiveDecoder().decode(Box.self, from: data)
        #expect(back.holder.preferences == prefs)
    }

    @Test("encodeCodable/decodeCodable work with Foundation's NSKeyedArchiver, and ArchiveDecoder reads the result")
    func codableInsideNSCodingWithFoundation() throws {
        let prefs = Preferences(theme: "dark", fontSize: 11, tags: ["p"], lastSync: joined)
        let holder = SettingsHolder(owner: "grace", preferences: prefs)
        let data = try NSKeyedArchiver.archivedData(withRootObject: holder, requiringSecureCoding: false)
        let back = try foundationUnarchive(data) as? SettingsHolder
        #expect(back?.preferences == prefs)
        #expect(back?.owner == "grace")
        // Stored as a Foundation tree (NSDictionary of fields), which our decoder reads too.
        struct HolderMirror: Decodable { var owner: String; var preferences: Preferences }
        let mirror = try ArchiveDecoder().decode(HolderMirror.self, from: data)
        #expect(mirror.preferences == prefs)
    }

    // MARK: 3. Pure-Swift NSCoding style

    @Test("ArchiveCoding classes archive as objects of their class, subclass and superclass in one object", arguments: PropertyListFormat.allCases)
    func archiveCoding(format: PropertyListFormat) throws {
        let shared = Account(owner: "ada", balance: 10)
        struct Pair: Codable { var a: Account; var b: Account; var savings: SavingsAccount }
        let value = Pair(a: shared, b: shared, savings: SavingsAccount(owner: "bob", balance: 5, rate: 0.5))
        let encoder = ArchiveEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(value)
        let raw = try RawArchive(data)
        #expect(raw.className(of: raw.resolve(raw.root?["a"])) == "Account")
        #expect(raw.root?["a"] == raw.root?["b"])
        let savings = raw.resolve(raw.root?["savings"])
        #expect(raw.classes(of: savings) == ["SavingsAccount", "Account", "NSObject"])
        #expect(savings?["balance"] == .integer(5))
        #expect(savings?["rate"] == .real(0.5))

        let back = try ArchiveDecoder().decode(Pair.self, from: data)
        #expect(back.a === back.b)
        #expect(back.savings.rate == 0.5)
        #expect(back.savings.owner == "bob")

        // Foundation reads them as NSCoding objects with the same keys.
        let read = try foundationUnarchive(encoder.encode(value.savings), classes: ["SavingsAccount": FoundationAccount.self]) as? FoundationAccount
        #expect(read?.owner == "bob")
        #expect(read?.balance == 5)
        #expect(read?.rate == 0.5)
    }

    @Test("ArchiveCoding classes also work with JSONEncoder")
    func archiveCodingWithJSON() throws {
        let data = try JSONEncoder().encode(SavingsAccount(owner: "c", balance: 3, rate: 1.5))
        let back = try JSONDecoder().decode(SavingsAccount.self, from: data)
        #expect(back.owner == "c")
        #expect(back.rate == 1.5)
    }

    // MARK: 4. Names and renames

    @Test("Encoder-side names, module renames and strict checking with aliases")
    func namesAndRenames() throws {
        struct Person: Codable, Equatable { var name: String }
        let encoder = ArchiveEncoder()
        encoder.setClassName("OldApp.Person", for: Person.self)
        let data = try encoder.encode(Person(name: "n"))
        let raw = try RawArchive(data)
        #expect(raw.className(of: raw.root) == "OldApp.Person")

        let strict = ArchiveDecoder()
        strict.classNameChecking = .strict
        // Another module's Person is still Person.
        #expect(try strict.decode(Person.self, from: data) == Person(name: "n"))
        // A different class is refused, until registered as an alias.
        encoder.setClassName("Human", for: Person.self)
        let renamed = try encoder.encode(Person(name: "h"))
        #expect(throws: DecodingError.self) { try strict.decode(Person.self, from: renamed) }
        strict.setType(Person.self, forClassName: "Human")
        #expect(try strict.decode(Person.self, from: renamed) == Person(name: "h"))
        // Without strict checking, the caller's type decides.
        #expect(try ArchiveDecoder().decode(Person.self, from: renamed) == Person(name: "h"))
    }

    @Test("An NSCoding class archived under an old module's name decodes through setClass or by its own name")
    func nsCodingRename() throws {
        let encoder = ArchiveEncoder()
        encoder.setClassName("OldApp.LegacyProfile", for: LegacyProfile.self)
        let admin = LegacyAdmin(profile: LegacyProfile(nickname: "r", level: 3, ratio: 1, joined: joined), permissions: [])
        struct Box: Codable { @NSCodingObject var admin: LegacyAdmin }
        let data = try encoder.encode(Box(admin: admin))
        // LegacyAdmin's init(coder:) asks for its profile with plain decodeObject(forKey:):
        // the class must be allowed.
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Box.self, from: data) }
        let decoder = ArchiveDecoder()
        decoder.setClass(LegacyProfile.self, forClassName: "OldApp.LegacyProfile")
        #expect(try decoder.decode(Box.self, from: data).admin.profile.nickname == "r")
        let byList = ArchiveDecoder()
        byList.allowedClasses = [LegacyProfile.self]  // matches "LegacyProfile" in any module
        #expect(try byList.decode(Box.self, from: data).admin.profile.level == 3)
    }

    // MARK: 5. Secure decoding

    @Test("A class that was not allowed is a thrown error naming the class and the key path")
    func disallowedClass() throws {
        struct Box: Codable { @NSCodingObject var admin: LegacyAdmin }
        let data = try ArchiveEncoder().encode(Box(admin: LegacyAdmin(
            profile: LegacyProfile(nickname: "x", level: 0, ratio: 0, joined: joined), permissions: ["p"])))
        do {
            _ = try ArchiveDecoder().decode(Box.self, from: data)
            Issue.record("decoding should have thrown")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("KeyedArchiveTests.LegacyProfile"))
            #expect(context.debugDescription.contains("not allowed"))
            #expect(context.codingPath.map(\.stringValue).contains("admin"))
            #expect(context.codingPath.map(\.stringValue).last == "profile")
        }
    }
}
