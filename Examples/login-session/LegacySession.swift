import Foundation

// The previous version of the app: an NSCoding class, saved with NSKeyedArchiver to a file
// in the app's folder, as the classic tutorials do. (Top-level class: Foundation on Linux
// archives only those, as `login_session_example.LegacySession`.)

/// The old app's session object.
final class LegacySession: NSObject, NSCoding {
    let username: String
    let token: String
    let signedInAt: Date

    init(username: String, token: String, signedInAt: Date) {
        self.username = username
        self.token = token
        self.signedInAt = signedInAt
    }

    func encode(with coder: NSCoder) {
        coder.encode(username, forKey: "username")
        coder.encode(token, forKey: "token")
        coder.encode(signedInAt as NSDate, forKey: "signedInAt")
    }

    required init?(coder: NSCoder) {
        guard let username = coder.decodeObject(forKey: "username") as? String,
              let token = coder.decodeObject(forKey: "token") as? String,
              let signedInAt = coder.decodeObject(forKey: "signedInAt") as? Date else { return nil }
        self.username = username
        self.token = token
        self.signedInAt = signedInAt
    }

    /// What the old app did at login: `NSKeyedArchiver.archiveRootObject(session, toFile: path)`.
    /// (That call is deprecated; `archivedData(withRootObject:…)` writes the same bytes.)
    func saveTheOldWay(to url: URL) throws {
        try NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: false).write(to: url)
    }
}
