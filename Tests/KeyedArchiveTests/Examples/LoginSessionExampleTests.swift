import Foundation
import Testing

/// Runs the built `login-session-example` and checks each step of its story.
@Suite("login-session-example")
struct LoginSessionExampleTests {
    @Test("The example tells the whole story and succeeds",
          .enabled(if: BuiltExecutable.find("login-session-example") != nil,
                   "login-session-example is not built: run `swift build --build-tests` first"))
    func runsTheStory() throws {
        let result = try BuiltExecutable.run("login-session-example")
        #expect(result.status == 0, "stderr: \(result.stderr)\nstdout: \(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let expected = [
            // The old app's NSKeyedArchiver file, adopted in place and left unchanged.
            "adopted session: ada, token c2VjcmV0, signed in 2023-03-08T20:26:40Z, devices []",
            "file unchanged by loading: true",
            // Login, next launch, and the old NSCoding class reading the new file.
            "saved session for grace; names [\"session\"]",
            "welcome back, grace (devices [\"laptop\", \"phone\"]); same value: true",
            "NSKeyedUnarchiver reads it as LegacySession: grace, signed in 2025-01-31T07:06:40Z",
            // Logout.
            "session after logout: nil",
            // A damaged file.
            "load threw corruptFile for session; file unchanged: true",
            // Clear all: only the values the store loads go; the damaged file is not one.
            "names before: [\"drafts\", \"preferences\"]",
            "names after removeAll: []; notes.txt kept: true; damaged session kept: true",
        ]
        for line in expected {
            #expect(lines.contains(line), "missing line: \(line)\n--- output ---\n\(result.stdout)")
        }
        #expect(lines.last == "Done.")
    }
}
