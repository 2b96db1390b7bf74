import Foundation
import KeyedArchive

// The classic keyed-archive story, with ArchiveStore:
//   0. an older version of the app saved the session with NSKeyedArchiver;
//   1. this version adopts that file in place, by its name;
//   2. login saves the session; launch loads it; the old NSCoding class still reads it;
//   3. logout removes it; a damaged file throws and is left alone; clear all.
// Real apps use `try ArchiveStore.default` (Application Support, or ~/.local/share on
// Linux); this example works in a temporary folder so it leaves nothing behind.

/// This version's session: a Codable struct with the old class's keys.
struct Session: Codable, Equatable, ArchivedClass {
    static let archivedClassName = "Session"
    var username: String
    var token: String
    var signedInAt: Date
    var devices: [String]?   // new in this version: optional, so old files still load
}

func step(_ title: String) { print("\n== \(title)") }

func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

func main() throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("keyedarchive-login-session-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    print("KeyedArchive login-session example")

    step("Before: the old app saved its session with NSKeyedArchiver")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let oldFile = folder.appendingPathComponent("session")
    try LegacySession(username: "ada", token: "c2VjcmV0", signedInAt: Date(timeIntervalSinceReferenceDate: 700_000_000))
        .saveTheOldWay(to: oldFile)
    let oldBytes = try Data(contentsOf: oldFile)
    print("old app wrote \(oldFile.lastPathComponent) (\(oldBytes.count) bytes)")

    step("Launch: adopt the old file in place, by its name")
    let store = try ArchiveStore(directory: folder)
    if let adopted = try store.load(Session.self, named: "session") {
        print("adopted session: \(adopted.username), token \(adopted.token), signed in \(iso(adopted.signedInAt)), devices \(adopted.devices ?? [])")
    }
    print("file unchanged by loading: \(try Data(contentsOf: oldFile) == oldBytes)")

    step("Login: save the session")
    let session = Session(username: "grace", token: "bmV3LXRva2Vu", signedInAt: Date(timeIntervalSinceReferenceDate: 760_000_000),
                          devices: ["laptop", "phone"])
    try store.save(session, as: "session")
    print("saved session for \(session.username); names \(try store.names())")

    step("Next launch: load the session")
    guard let loaded = try store.load(Session.self, named: "session") else { throw CocoaError(.fileNoSuchFile) }
    print("welcome back, \(loaded.username) (devices \(loaded.devices ?? [])); same value: \(loaded == session)")
    // The file is an ordinary keyed archive: the old NSCoding class still opens it.
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: try store.url(forName: "session")))
    unarchiver.requiresSecureCoding = false
    unarchiver.setClass(LegacySession.self, forClassName: "Session")
    let legacy = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? LegacySession
    print("NSKeyedUnarchiver reads it as LegacySession: \(legacy.map { "\($0.username), signed in \(iso($0.signedInAt))" } ?? "FAILED")")

    step("Logout: remove the session")
    try store.remove(named: "session")
    print("session after logout: \(try store.load(Session.self, named: "session").map(\.username) ?? "nil")")

    step("A damaged file throws, and stays as it was")
    let damaged = Data(try ArchiveEncoder().encode(session).prefix(40))
    try damaged.write(to: try store.url(forName: "session"))
    do {
        _ = try store.load(Session.self, named: "session")
        print("damaged file loaded?!")
    } catch let error as ArchiveStoreError {
        print("load threw \(error.code) for \(error.file?.lastPathComponent ?? "?"); file unchanged: \(try Data(contentsOf: try store.url(forName: "session")) == damaged)")
    }

    step("Clear all")
    try store.save(["theme": "dark"], as: "preferences")
    try store.save(["draft one", "draft two"], as: "drafts")
    try Data("not an archive\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    print("names before: \(try store.names())")
    try store.removeAll()
    // Only files the store loads as values are listed and removed: the damaged session
    // stays for you to inspect (remove(named:) deletes it when you decide to).
    let kept = { (name: String) in FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) }
    print("names after removeAll: \(try store.names()); notes.txt kept: \(kept("notes.txt")); damaged session kept: \(kept("session"))")

    print("\nDone.")
}

do {
    try main()
} catch {
    print("error: \(error)")
    exit(1)
}
