import Foundation
import KeyedArchive

/// "Version 2" of the same app: Codable structs. `CodingKeys` map the old key names, and
/// `ArchivedClass` keeps the class names version 1 registered, so both versions read the
/// same files.
enum Version2 {
    struct LoginSession: Codable, Equatable, ArchivedClass {
        static let archivedClassName = "LoginSession"
        var sessionId: String
        var token: String
        var username: String
        var alias: String?
        var lastSessionDate: Date

        enum CodingKeys: String, CodingKey {
            case sessionId = "_sessionId", token = "_token", username = "_username"
            case alias = "_alias", lastSessionDate = "_lastSessionDate"
        }
    }

    struct Dog: Codable, Equatable, ArchivedClass {
        static let archivedClassName = "Dog"
        var name: String
        var breed: String
    }

    struct Person: Codable, Equatable, ArchivedClass {
        static let archivedClassName = "Person"
        var name: String
        var age: Int
        var dog: Dog?
    }

    /// A person whose dog is still the version-1 NSCoding class (not migrated yet): the
    /// struct and the NSCoding object share one archive and one object table.
    struct PersonWithLegacyDog: Codable, ArchivedClass {
        static let archivedClassName = "Person"
        var name: String
        var age: Int
        @NSCodingObject var dog: migration_example.Dog  // the version-1 class
    }

    /// Version 1's `Employee: Person` wrote its superclass's fields into the same object, so
    /// one flat struct reads them all.
    struct Employee: Codable, Equatable, ArchivedClass {
        static let archivedClassName = "Employee"
        static let archivedSuperclassNames = ["Person", "NSObject"]
        var name: String
        var age: Int
        var dog: Dog?
        var company: String
        var salary: Double
    }
}
