import Foundation
import Testing
@testable import KeyedArchive

/// The encoder keeps the coding paths of the values it is encoding as frames and makes
/// their nodes only when asked (`EncodingPathFrames.swift`). Every way of reading a path must
/// still see the path the value is at: `codingPath` of the encoder and of its containers, during
/// and after the value (a container kept past its `encode(to:)`), errors, keys of every kind.
@Suite("Coding paths while encoding")
struct EncodingPathFramesTests {
    /// What the probes saw, in order.
    final class Log: @unchecked Sendable {
        var paths: [String] = []
        var kept: [KeyedEncodingContainer<Probe.CodingKeys>] = []
        func record(_ label: String, _ path: [any CodingKey]) {
            paths.append(label + ":" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: "/"))
        }
    }

    /// Records the encoder's and its container's paths, and keeps its container.
    struct Probe: Encodable {
        let name: String
        let log: Log
        enum CodingKeys: String, CodingKey { case name, late }
        func encode(to encoder: any Encoder) throws {
            log.record(name + ".encoder", encoder.codingPath)
            var container = encoder.container(keyedBy: CodingKeys.self)
            log.record(name + ".container", container.codingPath)
            try container.encode(name, forKey: .name)
            log.record(name + ".nested", container.nestedContainer(keyedBy: CodingKeys.self, forKey: .late).codingPath)
            log.record(name + ".nestedUnkeyed", container.nestedUnkeyedContainer(forKey: .late).codingPath)
            log.record(name + ".super", container.superEncoder().codingPath)
            log.record(name + ".superForKey", container.superEncoder(forKey: .late).codingPath)
            log.record(name + ".after", encoder.codingPath)
            log.kept.append(container)
        }
    }

    struct Middle: Encodable {
        let probe: Probe
        let list: [Probe]
        let optional: Probe?
        enum CodingKeys: String, CodingKey { case probe, list, optional }
    }

    /// A key of a type that is not a plain value (a `String` inside): kept as a node at once.
    struct TextKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    struct TextKeyed: Encodable {
        let probe: Probe
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TextKey.self)
            try container.encode(probe, forKey: TextKey(stringValue: "text key"))
        }
    }

    /// A single value holding another value (as a wrapper or an enum with a raw value does).
    struct Wrapper<T: Encodable>: Encodable {
        let value: T
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    struct Outer: Encodable {
        let middle: Middle
        let wrapped: Wrapper<Probe>
        let text: TextKeyed
    }

    @Test("Every path read during encoding is the value's own, at every depth and kind of key")
    func pathsDuringEncoding() throws {
        let log = Log()
        let value = [Outer(
            middle: Middle(probe: Probe(name: "a", log: log), list: [Probe(name: "b", log: log), Probe(name: "c", log: log)],
                           optional: Probe(name: "d", log: log)),
            wrapped: Wrapper(value: Probe(name: "e", log: log)),
            text: TextKeyed(probe: Probe(name: "f", log: log)))]
        _ = try ArchiveEncoder().encode(value)
        func expected(_ name: String, _ path: String) -> [String] {
            [name + ".encoder:" + path, name + ".container:" + path, name + ".nested:" + path + "/late",
             name + ".nestedUnkeyed:" + path + "/late", name + ".super:" + path + "/super",
             name + ".superForKey:" + path + "/late", name + ".after:" + path]
        }
        #expect(log.paths == expected("a", "[0]/middle/probe") + expected("b", "[0]/middle/list/[0]")
            + expected("c", "[0]/middle/list/[1]") + expected("d", "[0]/middle/optional")
            + expected("e", "[0]/wrapped") + expected("f", "[0]/text/text key"))
    }

    @Test("A container kept past its value keeps that value's path, and so do values encoded through it")
    func keptContainers() throws {
        let log = Log()
        let value = Middle(probe: Probe(name: "a", log: log), list: [Probe(name: "b", log: log)], optional: nil)
        _ = try ArchiveEncoder().encode([value, value])
        let kept = log.kept
        #expect(kept.map { $0.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } } == [
            ["[0]", "probe"], ["[0]", "list", "[0]"], ["[1]", "probe"], ["[1]", "list", "[0]"],
        ])
        // The archive was written; a kept container can still be asked for its path after.
        #expect(kept.first?.codingPath.count == 2)
    }

    /// Encodes a value through the first kept container, while the others are being encoded.
    struct LateWriter: Encodable {
        let log: Log
        func encode(to encoder: any Encoder) throws {
            var list = encoder.unkeyedContainer()
            try list.encode(Probe(name: "x", log: log))
            try list.encode(Probe(name: "y", log: log))
            var kept = log.kept[0]
            try kept.encode(Probe(name: "z", log: log), forKey: .late)
        }
    }

    @Test("A value encoded through a kept container is at that container's path")
    func valueThroughKeptContainer() throws {
        let log = Log()
        _ = try ArchiveEncoder().encode(["top": LateWriter(log: log)])
        #expect(log.paths.contains("z.encoder:top/[0]/late"))
        #expect(log.paths.contains("y.container:top/[1]"))
    }

    struct Reals: Encodable {
        let value: Double
    }

    @Test("Errors deep inside nested values name the whole path")
    func errorPaths() throws {
        let encoder = ArchiveEncoder()
        encoder.nonConformingFloatEncodingStrategy = .throw
        let value = ["k": [Wrapper(value: [Reals(value: 1), Reals(value: .nan)])]]
        do {
            _ = try encoder.encode(value)
            Issue.record("NaN was encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } == ["k", "[0]", "[1]", "value"])
        }
    }

    @Test("The same value encodes to the same bytes through any path")
    func sameBytes() throws {
        let log = Log()
        let probe = Probe(name: "p", log: log)
        let middle = Middle(probe: probe, list: [probe, probe], optional: probe)
        let first = try ArchiveEncoder().encode([middle, middle])
        let second = try ArchiveEncoder().encode([middle, middle])
        #expect(first == second)
    }
}
