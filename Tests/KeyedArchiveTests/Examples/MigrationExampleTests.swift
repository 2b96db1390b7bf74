import Foundation
import Testing

/// Runs the built `migration-example` and checks each step of its story, so the example
/// (the README's main command) can never rot.
@Suite("migration-example")
struct MigrationExampleTests {
    @Test("The example tells the whole story and succeeds",
          .enabled(if: BuiltExecutable.find("migration-example") != nil, "migration-example is not built: run `swift build --build-tests` first"))
    func runsTheStory() throws {
        let result = try BuiltExecutable.run("migration-example")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let expected = [
            // Step 1: version 1 wrote module-qualified NSCoding classes with Foundation.
            "saved people.archive: top-level keys [\"personOne\", \"personTwo\"], classes [\"migration_example.Dog\", \"migration_example.Employee\", \"migration_example.Person\"]",
            // Step 2: version 2 reads them, old key names mapped, subclass fields flattened.
            "session: ada (Countess), id S-1029, last seen 2023-03-08T20:26:40Z",
            "personOne: Ada, 36, dog Rex the Collie",
            "personTwo: Grace, 45, works at Navy for 1234.5",
            // Step 3: a mixed file (Codable structs + a not-yet-migrated NSCoding class) read by version 1.
            "version 1 opened the session: ada, token bmV3LXRva2Vu, alias none",
            "version 1 opened personOne: Ada, 37, dog Rex",
            // Step 4: the bundled archive written by Foundation.
            "settings: theme dark, font 14, toolbar true, recent [\"notes.txt\", \"todo.md\"], window 1280x800",
            // Step 5: a session in UserDefaults read, renewed and written back for version 1; a damaged blob kept.
            "defaults currentSession: grace, id S-2048",
            "defaults previousSession unchanged: true",
            "version 1 read currentSession back: grace, last seen 2023-07-02T15:13:20Z",
        ]
        for line in expected {
            #expect(lines.contains(line), "missing line: \(line)\n--- output ---\n\(result.stdout)")
        }
        #expect(result.stdout.contains("classes [\"LoginSession\", \"NSDate\", \"Person\", \"migration_example.Dog\"]"))
        #expect(lines.contains { $0.hasPrefix("defaults previousSession: kept as it was, it did not decode: ") })
        #expect(!lines.contains { $0.hasPrefix("defaults previousSession: grace") })
        #expect(lines.last == "Done: every file was read without changing a byte on disk.")
    }
}
