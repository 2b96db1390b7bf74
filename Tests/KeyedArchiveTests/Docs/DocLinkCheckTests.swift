import Foundation
import Testing

/// `Scripts/check-doc-links.py`, which `Scripts/build-docs.sh` runs on the built site: it
/// passes a site whose links all resolve, and fails on a tiny scratch catalog with a broken
/// link of each kind DocC lets through.
@Suite("Docs: the link check of the built site")
struct DocLinkCheckTests {
    /// The toolchain's `docc`, found on PATH.
    static let docc: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("docc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static var available: Bool { docc != nil && python3URL != nil }

    /// An article with an abstract and `body` in its overview.
    static func article(_ body: String) -> String {
        "# Second\n\nThe second page.\n\n## Overview\n\n\(body)\n"
    }

    /// Builds a two-page catalog (a root and an article whose text is `article`) into a
    /// static site, and runs the link check on it.
    /// The site's root redirects to the scratch module's page, as `build-docs.sh` makes the
    /// real site's, unless `redirectingRoot` is false (DocC's own page shell stays).
    func checkScratchSite(article: String, deleting pageToDelete: String? = nil,
                          redirectingRoot: Bool = true) throws -> BuiltExecutable.Result {
        let docc = try #require(Self.docc)
        let python = try #require(python3URL)
        let folder = Scratch.file("doclinks")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("Scratch.docc")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try """
        # Scratch

        @Metadata {
            @TechnologyRoot
        }

        A scratch catalog.

        ## Topics

        - <doc:Second>
        """.write(to: catalog.appendingPathComponent("Scratch.md"), atomically: true, encoding: .utf8)
        try article.write(to: catalog.appendingPathComponent("Second.md"), atomically: true, encoding: .utf8)
        let site = folder.appendingPathComponent("site")
        let convert = try BuiltExecutable.run(path: docc, [
            "convert", catalog.path, "--output-path", site.path, "--transform-for-static-hosting",
            "--fallback-display-name", "Scratch", "--fallback-bundle-identifier", "org.scratch", "--warnings-as-errors",
        ])
        try #require(convert.status == 0, "docc: \(convert.stderr)")
        if redirectingRoot {
            try #"<meta http-equiv="refresh" content="0; url=documentation/scratch/">"#
                .write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        }
        if let pageToDelete {
            try FileManager.default.removeItem(at: site.appendingPathComponent(pageToDelete))
        }
        let script = KeyedArchiveTests.packageRoot.appendingPathComponent("Scripts/check-doc-links.py")
        return try BuiltExecutable.run(path: python, [script.path, site.path])
    }

    @Test("a site whose links resolve passes", .enabled(if: available || runningUnderCI, "docc or python3 is not on PATH"))
    func passes() throws {
        let result = try checkScratchSite(article: Self.article("Back to <doc:Scratch>, and [the Swift site](https://swift.org)."))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("every link of 2 pages resolves"))
    }

    @Test("a site whose root page does not redirect to the documentation fails", .enabled(if: available || runningUnderCI, "docc or python3 is not on PATH"))
    func rootWithoutRedirect() throws {
        let result = try checkScratchSite(article: Self.article("Back to <doc:Scratch>."), redirectingRoot: false)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the root page does not redirect to the documentation"))
    }

    @Test("a relative Markdown link fails the check", .enabled(if: available || runningUnderCI, "docc or python3 is not on PATH"))
    func relativeLink() throws {
        let result = try checkScratchSite(article: Self.article("See [the format](Sources/Nowhere.md)."))
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources/Nowhere.md"))
        #expect(result.stderr.contains("leads nowhere on the site"))
    }

    @Test("a link to a page the site lacks fails the check", .enabled(if: available || runningUnderCI, "docc or python3 is not on PATH"))
    func missingPage() throws {
        // The root's topic link to the article, whose page is gone: what the "Foundation"
        // breadcrumb of the NSCoder extension pages was.
        let result = try checkScratchSite(article: Self.article("Back to <doc:Scratch>."),
                                          deleting: "data/documentation/scratch/second.json")
        #expect(result.status == 1)
        #expect(result.stderr.contains("documentation/scratch.json: /documentation/scratch/second"))
        #expect(result.stderr.contains("leads to a page that does not exist"))
    }
}
