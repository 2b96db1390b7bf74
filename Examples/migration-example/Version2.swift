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
