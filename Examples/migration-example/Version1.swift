import Foundation

// "Version 1" of an app: NSCoding model classes in the style of real apps, saved with
// Foundation's NSKeyedArchiver. They are top-level classes because Foundation on Linux
// archives only those (it writes their names as `migration_example.LoginSession`).
/// A login session with Objective-C-style `_underscore` keys and an NSDate.
final class LoginSession: NSObject, NSCoding {
    var sessionId: String
    var token: String
    var username: String
    var alias: String?
    var lastSessionDate: Date

    init(sessionId: String, token: String, username: String, alias: String?, lastSessionDate: Date) {
        self.sessionId = sessionId
        self.token = token
        self.username = username
        self.alias = alias
        self.lastSessionDate = lastSessionDate
    }

    func encode(with coder: NSCoder) {
        coder.encode(sessionId, forKey: "_sessionId")
        coder.encode(token, forKey: "_token")
        coder.encode(username, forKey: "_username")
        coder.encode(alias, forKey: "_alias")
        coder.encode(lastSessionDate as NSDate, forKey: "_lastSessionDate")
    }

    required init?(coder: NSCoder) {
        guard let sessionId = coder.decodeObject(forKey: "_sessionId") as? String,
              let token = coder.decodeObject(forKey: "_token") as? String,
              let username = coder.decodeObject(forKey: "_username") as? String,
              let date = coder.decodeObject(forKey: "_lastSessionDate") as? Date
        else { return nil }
        self.sessionId = sessionId
        self.token = token
        self.username = username
        // Foundation on Linux traps on decodeObject(forKey:) for a missing key (Apple's
        // returns nil), and Codable optionals are written without a key when nil.
        self.alias = coder.containsValue(forKey: "_alias") ? coder.decodeObject(forKey: "_alias") as? String : nil
        self.lastSessionDate = date
    }
}

final class Dog: NSObject, NSCoding {
    var name: String
    var breed: String

    init(name: String, breed: String) {
        self.name = name
        self.breed = breed
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(breed, forKey: "breed")
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
              let breed = coder.decodeObject(forKey: "breed") as? String else { return nil }
        self.name = name
        self.breed = breed
    }
}

class Person: NSObject, NSCoding {
    var name: String
    var age: Int
    var dog: Dog?

    init(name: String, age: Int, dog: Dog?) {
        self.name = name
        self.age = age
        self.dog = dog
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(dog, forKey: "dog")
    }

    required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        self.age = coder.decodeInteger(forKey: "age")
        self.dog = coder.containsValue(forKey: "dog") ? coder.decodeObject(forKey: "dog") as? Dog : nil
    }
}

/// A subclass whose coding chains to its superclass's, like `[super encodeWithCoder:]`.
final class Employee: Person {
    var company: String
    var salary: Double

    init(name: String, age: Int, dog: Dog?, company: String, salary: Double) {
        self.company = company
        self.salary = salary
        super.init(name: name, age: age, dog: dog)
    }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(company, forKey: "company")
        coder.encode(salary, forKey: "salary")
    }

    required init?(coder: NSCoder) {
        guard let company = coder.decodeObject(forKey: "company") as? String else { return nil }
        self.company = company
        self.salary = coder.decodeDouble(forKey: "salary")
        super.init(coder: coder)
    }
}

enum Version1 {
    /// Saves the version-1 files into `folder`, as the old app did.
    static func save(into folder: URL) throws -> (session: URL, people: URL) {
        let session = LoginSession(sessionId: "S-1029", token: "c2VjcmV0LXRva2Vu", username: "ada",
                                   alias: "Countess", lastSessionDate: Date(timeIntervalSinceReferenceDate: 700_000_000))
        let sessionURL = folder.appendingPathComponent("session.archive")
        try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: false).write(to: sessionURL)

        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(Person(name: "Ada", age: 36, dog: Dog(name: "Rex", breed: "Collie")), forKey: "personOne")
        archiver.encode(Employee(name: "Grace", age: 45, dog: nil, company: "Navy", salary: 1234.5), forKey: "personTwo")
        archiver.finishEncoding()
        let peopleURL = folder.appendingPathComponent("people.archive")
        try archiver.encodedData.write(to: peopleURL)
        return (sessionURL, peopleURL)
    }

    /// Keeps the logged-in session in `defaults`, as the old app did, under
    /// `currentSession`; and, under `previousSession`, a blob cut short (a crash mid-write,
    /// a bug of an old version) that no reader can decode.
    static func save(to defaults: UserDefaults) throws {
        let session = LoginSession(sessionId: "S-2048", token: "ZGVmYXVsdHMtdG9rZW4=", username: "grace",
                                   alias: nil, lastSessionDate: Date(timeIntervalSinceReferenceDate: 710_000_000))
        let blob = try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: false)
        defaults.set(blob, forKey: "currentSession")
        defaults.set(blob.prefix(blob.count / 2), forKey: "previousSession")
    }
}
