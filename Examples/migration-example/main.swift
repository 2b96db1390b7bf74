import Foundation
import KeyedArchive

// The migration story, on data this program creates itself:
//   1. version 1 (NSCoding classes) saves files with Foundation's NSKeyedArchiver;
//   2. version 2 (Codable structs) reads them with ArchiveDecoder, unchanged on disk;
//   3. version 2 writes a new file, and version 1 still opens it with NSKeyedUnarchiver;
//   4. an archive written by Foundation ships as a resource and decodes too;
//   5. a session version 1 kept in UserDefaults is read, renewed and written back for it.

func step(_ number: Int, _ title: String) {
    print("\n== Step \(number): \(title)")
}

func main() throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("keyedarchive-migration-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    print("KeyedArchive migration example")

    step(1, "version 1 saves with NSKeyedArchiver")
    let files = try Version1.save(into: folder)
    for url in [files.session, files.people] {
        let view = try KeyedArchiveView(data: try Data(contentsOf: url))
        let classes = view.objects.compactMap(\.className)
        print("saved \(url.lastPathComponent): top-level keys \(view.topLevelKeys.sorted()), classes \(Array(Set(classes)).sorted())")
    }

    step(2, "version 2 reads the same files with ArchiveDecoder")
    let decoder = ArchiveDecoder()
    let session = try decoder.decode(Version2.LoginSession.self, from: try Data(contentsOf: files.session))
    print("session: \(session.username) (\(session.alias ?? "no alias")), id \(session.sessionId), last seen \(ISO8601DateFormatter().string(from: session.lastSessionDate))")
    let people = try Data(contentsOf: files.people)
    print("top-level keys: \(try decoder.topLevelKeys(in: people).sorted())")
    let one = try decoder.decode(Version2.Person.self, forKey: "personOne", from: people)
    let two = try decoder.decode(Version2.Employee.self, forKey: "personTwo", from: people)
    print("personOne: \(one.name), \(one.age), dog \(one.dog.map { "\($0.name) the \($0.breed)" } ?? "none")")
    print("personTwo: \(two.name), \(two.age), works at \(two.company) for \(two.salary)")

    step(3, "version 2 writes a mixed file, version 1 still reads it")
    let renewed = Version2.LoginSession(sessionId: session.sessionId, token: "bmV3LXRva2Vu", username: session.username,
                                        alias: nil, lastSessionDate: session.lastSessionDate.addingTimeInterval(86_400))
    let mixedOwner = Version2.PersonWithLegacyDog(name: "Ada", age: 37, dog: Dog(name: "Rex", breed: "Collie"))
    let written = try ArchiveEncoder().encode(topLevel: ["session": renewed, "personOne": mixedOwner])
    let mixedView = try KeyedArchiveView(data: written)
    print("wrote \(written.count) bytes; classes \(Array(Set(mixedView.objects.compactMap(\.className))).sorted())")
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: written)
    unarchiver.requiresSecureCoding = false
    unarchiver.setClass(LoginSession.self, forClassName: "LoginSession")
    unarchiver.setClass(Person.self, forClassName: "Person")
    let oldSession = unarchiver.decodeObject(forKey: "session") as? LoginSession
    let oldPerson = unarchiver.decodeObject(forKey: "personOne") as? Person
    print("version 1 opened the session: \(oldSession.map { "\($0.username), token \($0.token), alias \($0.alias ?? "none")" } ?? "FAILED")")
    print("version 1 opened personOne: \(oldPerson.map { "\($0.name), \($0.age), dog \($0.dog?.name ?? "none")" } ?? "FAILED")")

    step(4, "an archive written by Foundation, shipped as a resource")
    struct Settings: Decodable {
        var theme: String
        var fontSize: Int
        var showsToolbar: Bool
        var lastOpened: Date
        var recentFiles: [String]
        var window: [String: Int]
    }
    guard let resource = Bundle.module.url(forResource: "legacy-settings", withExtension: "plist") else {
        throw CocoaError(.fileNoSuchFile)
    }
    let settings = try decoder.decode(Settings.self, from: try Data(contentsOf: resource))
    print("settings: theme \(settings.theme), font \(settings.fontSize), toolbar \(settings.showsToolbar), recent \(settings.recentFiles), window \(settings.window["width"] ?? 0)x\(settings.window["height"] ?? 0)")

    step(5, "a session version 1 kept in UserDefaults")
    let suiteName = "keyedarchive-migration-example-\(ProcessInfo.processInfo.processIdentifier)"
    guard let defaults = UserDefaults(suiteName: suiteName) else { throw CocoaError(.featureUnsupported) }
    defer { defaults.removePersistentDomain(forName: suiteName) }
    try Version1.save(to: defaults)
    let damaged = defaults.data(forKey: "previousSession")
    for key in ["currentSession", "previousSession"] {
        do {
            guard var stored = try defaults.archivedValue(Version2.LoginSession.self, forKey: key) else { continue }
            print("defaults \(key): \(stored.username), id \(stored.sessionId)")
            stored.lastSessionDate = stored.lastSessionDate.addingTimeInterval(3_600)
            try defaults.setArchivedValue(stored, forKey: key)   // as LoginSession, the name version 1 registered
        } catch {
            // Never overwrite what does not decode: an older version, or a later fix, may still read it.
            print("defaults \(key): kept as it was, it did not decode: \(KeyedArchiveError.message(of: error))")
        }
    }
    print("defaults previousSession unchanged: \(defaults.data(forKey: "previousSession") == damaged)")
    let defaultsUnarchiver = try NSKeyedUnarchiver(forReadingFrom: defaults.data(forKey: "currentSession") ?? Data())
    defaultsUnarchiver.requiresSecureCoding = false
    defaultsUnarchiver.setClass(LoginSession.self, forClassName: "LoginSession")
    let reread = defaultsUnarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? LoginSession
    print("version 1 read currentSession back: \(reread.map { "\($0.username), last seen \(ISO8601DateFormatter().string(from: $0.lastSessionDate))" } ?? "FAILED")")
    print("\nDone: every file was read without changing a byte on disk.")
}

do {
    try main()
} catch {
    print("error: \(error)")
    exit(1)
}
