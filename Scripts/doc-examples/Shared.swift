// Names the documentation's examples use without declaring them: input bytes, paths, a
// function the app would have. Compiled at file scope beside the examples by
// Scripts/check-doc-examples.sh; a name an article declares itself hides the one here.
// Names that depend on an article's own types are declared in that article, in a
// `<!-- setup … -->` comment before the block (see WorkingOnKeyedArchive.md).
import Foundation

let data = Data()
let oldData = Data()
let untrustedData = Data()
let documents = NSTemporaryDirectory()
let path = NSTemporaryDirectory() + "note.archive"
let sessionURL = URL(fileURLWithPath: NSTemporaryDirectory() + "session.archive")
let peopleURL = URL(fileURLWithPath: NSTemporaryDirectory() + "people.archive")

/// What an app does with a value it loaded.
func resume<Value>(_ value: Value) {}

extension Bundle {
    /// In a target with resources, SwiftPM declares `Bundle.module`.
    static var module: Bundle { .main }
}

/// Version 1 of the app in MigratingFromNSCoding.md (Examples/migration-example/Version1.swift),
/// whose classes the article shows abbreviated.
enum Version1 {
    final class LoginSession: NSObject, NSCoding {
        var sessionId = "", token = "", username = "", alias: String? = nil, lastSessionDate = Date()
        override init() {}
        func encode(with coder: NSCoder) { coder.encode(sessionId, forKey: "_sessionId") }
        required init?(coder: NSCoder) { sessionId = coder.decodeObject(forKey: "_sessionId") as? String ?? "" }
    }

    final class Dog: NSObject, NSCoding {
        var name = ""
        override init() {}
        func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
        required init?(coder: NSCoder) { name = coder.decodeObject(forKey: "name") as? String ?? "" }
    }

    class Person: NSObject, NSCoding {
        var name = "", age = 0, dog: Dog? = nil
        override init() {}
        func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
        required init?(coder: NSCoder) { name = coder.decodeObject(forKey: "name") as? String ?? "" }
    }

    final class Employee: Person {}
}
