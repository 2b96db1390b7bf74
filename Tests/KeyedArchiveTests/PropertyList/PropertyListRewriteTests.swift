import Foundation
import HostileArchives
import Testing
@testable import KeyedArchive

/// Issue 53 §6: rewriting a property list whose objects are shared (`keyedarchive convert`)
/// costs its objects, not its references × their size. Binary keeps a shared object shared;
/// XML, which cannot, stops at the output budget.
@Suite("Property-list rewrite of shared objects")
struct PropertyListRewriteTests {
    /// One 1 MB string in 100,000 places (100 GB of hashing if each place were hashed).
    @Test("a string in many places of a tree is written, and hashed, once")
    func sharedStringWrittenOnce() throws {
        let text = String(repeating: "s", count: 1 << 20)
        let tree = PropertyListValue.array(Array(repeating: .string(text), count: 100_000))
        let bytes = BinaryPropertyListWriter.write(tree)
        #expect(bytes.count < (1 << 20) + 100_000 * 8)
        let back = try PropertyListValue(propertyList: Data(bytes), limits: ArchiveDecoder.Limits())
        guard case .array(let items) = back else { Issue.record("not an array"); return }
        #expect(items.count == 100_000 && items.first == .string(text) && items.last == .string(text))
    }

    /// The plain reader made the string again at each reference: 25 GB for this 1 MB file.
    @Test("the plain property-list reader makes a string many objects share once")
    func plainReaderSharesLongStrings() throws {
        let data = AmplificationFamily.objectsShareOneString.archive(targetBytes: HostileSize.mb1.bytes)
        let tree = try PropertyListValue(propertyList: data)
        guard case .array(let objects)? = tree["$objects"] else { Issue.record("no $objects"); return }
        #expect(objects.count > 10_000)
    }

    @Test("a container in many places of a tree (the same storage) is written once, as Foundation writes one NSArray once")
    func sharedContainerWrittenOnce() throws {
        let inner = PropertyListValue.array((0..<1_000).map { .integer(Int64($0)) })
        let entries = PropertyListValue.dictionary([PropertyListEntry(key: "k", value: .data(Data(count: 64)))])
        let tree = PropertyListValue.array(Array(repeating: inner, count: 50) + Array(repeating: entries, count: 50))
        let bytes = BinaryPropertyListWriter.write(tree)
        // 1,000 integers, one array of 1,000 references, one dictionary, 100 references to them:
        // about 6 KB (written in full, 100 KB).
        #expect(bytes.count < 10_000, "\(bytes.count) bytes")
        #expect(try PropertyListValue(propertyList: Data(bytes)) == tree)
        // Equal containers in storages of their own stay objects of their own.
        let separate = PropertyListValue.array((0..<3).map { _ in .array([.integer(1), .string(String(repeating: "x", count: 40))]) })
        let written = try BinaryPropertyList(bytes: BinaryPropertyListWriter.write(separate))
        #expect(written.objectCount == 6, "the outer array, three inner ones, one integer, one string")
    }

    @Test("XML stops counting past its limit, writing nothing")
    func xmlStopsAtTheLimit() {
        let text = String(repeating: "x", count: 1 << 20)
        let document = XMLPropertyListWriter.TreeDocument(value: .array(Array(repeating: .string(text), count: 100_000)))
        // Counting stops at the first string past the limit: a few MB counted, not 100 GB.
        let counted = XMLPlistDocument.size(of: document, stoppingPast: 2 << 20).count
        #expect(counted > 2 << 20 && counted < 4 << 20, "\(counted)")
        guard case .tooLarge = XMLPlistDocument.boundedBytes(document, refusingForbiddenText: true, maxBytes: 2 << 20) else {
            Issue.record("written past its limit")
            return
        }
        let small = XMLPropertyListWriter.TreeDocument(value: .array([.string(text), .integer(1)]))
        guard case .bytes(let bytes) = XMLPlistDocument.boundedBytes(small, refusingForbiddenText: true, maxBytes: 2 << 20) else {
            Issue.record("refused within its limit")
            return
        }
        #expect(bytes == XMLPropertyListWriter.write(.array([.string(text), .integer(1)])))
    }

    /// The shape `convert` took 50 s (binary) and 4.9 GB (XML) on at 100 KB.
    @Test("an archive whose objects share one string rewrites to binary at its size, and to XML up to the output budget")
    func objectsShareOneString() throws {
        let data = AmplificationFamily.objectsShareOneString.archive(targetBytes: HostileSize.kb100.bytes)
        guard case .bytes(let binary) = try PropertyListRewrite.rewrite(data, as: .binary, refusingForbiddenXMLText: true) else {
            Issue.record("binary refused")
            return
        }
        #expect(binary.count <= data.count + data.count / 4, "\(binary.count) bytes from \(data.count)")
        #expect(try PropertyListValue(propertyList: Data(binary)) == PropertyListValue(propertyList: data))
        let outcome = try PropertyListRewrite.rewrite(data, as: .xml, refusingForbiddenXMLText: true)
        guard case .outputLimit(let limit) = outcome else {
            Issue.record("XML not stopped: \(outcome)")
            return
        }
        #expect(limit == 64 * data.count + 1_048_576)
        // Within a raised budget, XML writes the string in every place.
        let small = AmplificationFamily.objectsShareOneString.archive(references: 2_000, length: 1_000)
        var limits = ArchiveDecoder.Limits()
        limits.maxOutputBytes = 4 << 20
        guard case .bytes(let xml) = try PropertyListRewrite.rewrite(small, as: .xml, limits: limits, refusingForbiddenXMLText: true) else {
            Issue.record("XML refused within a raised budget")
            return
        }
        #expect(xml.count > 2_000 * 1_000 && xml.count <= 4 << 20)
        #expect(try PropertyListValue(propertyList: Data(xml)) == PropertyListValue(propertyList: small))
    }
}
