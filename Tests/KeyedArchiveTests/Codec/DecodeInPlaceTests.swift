import Foundation
import Testing
@testable import KeyedArchive

/// Decoding from the caller's bytes in place: mapped files, `decode(_:contentsOf:)`, slices,
/// and what outlives a decode.
@Suite("Decoding in place and from files")
struct DecodeInPlaceTests {
    struct Person: Codable, Equatable {
        var name: String
        var age: Int
        var tags: [String]
    }

    static let people = (0..<50).map { Person(name: "person \($0)", age: $0, tags: ["t\($0 % 3)", "x"]) }

    /// A fresh folder for one test, removed afterwards.
    private func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
        try Scratch.withFolder("inplace", body)
    }

    /// The description of `error` as a user would print it.
    private func message(_ error: any Error) -> String {
        decodingErrorMessage(error) ?? error.localizedDescription
    }

    @Test("decode(_:contentsOf:) and a memory-mapped Data read binary and XML files, in place")
    func fromURL() throws {
        try withFolder { folder in
            for format in [PropertyListFormat.binary, .xml] {
                let url = folder.appendingPathComponent("people-\(format).archive")
                try archive(Self.people, format: format).write(to: url)
                #expect(try ArchiveDecoder().decode([Person].self, contentsOf: url) == Self.people)
                let mapped = try Data(contentsOf: url, options: .alwaysMapped)
                #expect(try ArchiveDecoder().decode([Person].self, from: mapped) == Self.people)
            }
            // The mapped contents are what the reader reads: the same bytes, not a copy.
            let url = folder.appendingPathComponent("people-binary.archive")
            let contents = try MappedFile.mapping(of: InputFile(path: url.path)).data
            try contents.withUnsafeBytes { mapped in
                try PropertyListInput.read(mapped, maxDepth: 512) { plist in
                    #expect(plist.bytes.base == mapped.baseAddress && plist.bytes.count == mapped.count)
                }
            }
        }
    }

    @Test("A missing file, a folder, an empty file and a non-archive throw errors naming the file")
    func fileErrors() throws {
        try withFolder { folder in
            let decoder = ArchiveDecoder()
            let missing = folder.appendingPathComponent("missing.archive")
            let error = #expect(throws: CocoaError.self) { try decoder.decode([Person].self, contentsOf: missing) }
            #expect(error?.code == .fileReadNoSuchFile)
            #expect(error.map(message)?.contains(missing.path) == true)
            #expect(error.map(message)?.contains("No such file or directory") == true, "\(String(describing: error))")

            let directoryError = #expect(throws: CocoaError.self) { try decoder.decode([Person].self, contentsOf: folder) }
            #expect(directoryError.map(message)?.contains(folder.path) == true)
            #expect(directoryError.map(message)?.contains("Is a directory") == true, "\(String(describing: directoryError))")

            let empty = folder.appendingPathComponent("empty.archive")
            try Data().write(to: empty)
            let emptyError = #expect(throws: DecodingError.self) { try decoder.decode([Person].self, contentsOf: empty) }
            #expect(emptyError.map(message)?.contains("The file '\(empty.path)' is not a property list (the data is empty)") == true,
                    "\(String(describing: emptyError))")

            let jpeg = folder.appendingPathComponent("photo.archive")
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46]).write(to: jpeg)
            let jpegError = #expect(throws: DecodingError.self) { try decoder.decode([Person].self, contentsOf: jpeg) }
            #expect(jpegError.map(message)?.contains("The file '\(jpeg.path)' is not a property list (it looks like a JPEG image)") == true,
                    "\(String(describing: jpegError))")

            // A plain property list is not an archive either.
            let plain = folder.appendingPathComponent("settings.plist")
            try PropertyListValue.dictionary([PropertyListEntry(key: "a", value: .integer(1))]).propertyListData(format: .binary).write(to: plain)
            let plainError = #expect(throws: DecodingError.self) { try decoder.decode([Person].self, contentsOf: plain) }
            #expect(plainError.map(message)?.contains(plain.path) == true, "\(String(describing: plainError))")
        }
    }

    @Test("Only file URLs are decoded")
    func notAFileURL() throws {
        let url = try #require(URL(string: "https://example.com/a.archive"))
        let error = #expect(throws: CocoaError.self) { try ArchiveDecoder().decode([Person].self, contentsOf: url) }
        #expect(error?.code == .fileReadUnsupportedScheme)
    }

    @Test("A Data slice whose startIndex is not zero decodes")
    func slice() throws {
        for format in [PropertyListFormat.binary, .xml] {
            let padded = Data([1, 2, 3, 4, 5]) + (try archive(Self.people, format: format)) + Data([9, 9])
            let slice = padded[5..<(padded.count - 2)]
            #expect(slice.startIndex == 5)
            #expect(try ArchiveDecoder().decode([Person].self, from: slice) == Self.people)
            #expect(try KeyedArchiveView(data: slice).objects.count > 50)
        }
    }

    @Test("A view stays valid after the Data it was made from is gone")
    func viewOutlivesData() throws {
        func makeView() throws -> (KeyedArchiveView, String) {
            var data = try archive(Self.people, format: .binary)
            let view = try KeyedArchiveView(data: data)
            let rendered = view.render()
            // Overwrite and drop the bytes the view was read from.
            data.resetBytes(in: 0..<data.count)
            data = Data()
            return (view, rendered)
        }
        let (view, rendered) = try makeView()
        _ = [UInt8](repeating: 0xAB, count: 1 << 20)  // reuse freed memory
        #expect(view.render() == rendered)
        #expect(view.render().contains("person 49"))
    }

    /// A value whose `init(from:)` keeps a decoder (one positioned at its `name`), which it
    /// must not do.
    final class KeepsDecoder: Decodable, @unchecked Sendable {
        let name: String
        let nameDecoder: any Decoder

        enum CodingKeys: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            nameDecoder = try container.superDecoder(forKey: .name)
            name = try nameDecoder.singleValueContainer().decode(String.self)
        }
    }

    @Test("A decoder kept past its decode throws instead of reading bytes that are gone")
    func keptDecoderThrows() throws {
        struct Named: Codable { var name: String }
        let kept = try ArchiveDecoder().decode(KeepsDecoder.self, from: try archive(Named(name: "kept"), format: .binary))
        #expect(kept.name == "kept")
        _ = [UInt8](repeating: 0xAB, count: 1 << 16)  // reuse freed memory
        #expect(throws: (any Error).self) { try kept.nameDecoder.singleValueContainer().decode(String.self) }
    }
}
