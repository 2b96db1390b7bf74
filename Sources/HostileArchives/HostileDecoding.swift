import Foundation
import KeyedArchive

/// The readers every hostile archive goes through, shared by the tests, the fuzz target
/// and the benchmark: the typed decoder with the ``ProbeTypes`` and the plain Foundation
/// types, and ``KeyedArchiveView``.
public enum HostileDecoding {
    /// One way of decoding `root`.
    public struct Probe: CustomStringConvertible {
        public let name: String
        let body: (ArchiveDecoder, Data) throws -> Void
        public var description: String { name }

        init<T: Decodable>(_ name: String, _ type: T.Type) {
            self.name = name
            body = { decoder, data in _ = try decoder.decode(T.self, from: data) }
        }

        /// Decodes `data` with a fresh decoder: `nil` for a value, the error otherwise.
        public func run(_ data: Data) -> (any Error)? {
            do {
                try body(ArchiveDecoder(), data)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The struct, the indirect enum, the class tree, nested arrays and the probing enum.
    public static var modelProbes: [Probe] { [
        Probe("struct", HostileRecord.self),
        Probe("indirect enum", HostileTree.self),
        Probe("class tree", HostileNode.self),
        Probe("[[probing enum]]", [[HostileValue]].self),
        Probe("nested arrays", HostileNestedArray.self),
        Probe("probing enum", HostileValue.self),
    ] }

    /// Foundation types decoded directly from their special layouts.
    public static var foundationProbes: [Probe] { [
        Probe("String", String.self), Probe("Data", Data.self), Probe("URL", URL.self),
        Probe("UUID", UUID.self), Probe("Decimal", Decimal.self), Probe("Date", Date.self),
    ] }

    /// Every typed probe.
    public static var allProbes: [Probe] { modelProbes + foundationProbes }

    /// The probe named `name`.
    public static func probe(named name: String) -> Probe? { allProbes.first { $0.name == name } }

    /// Opens `data` as a ``KeyedArchiveView`` and renders it: the text, or the error.
    public static func view(_ data: Data) -> Result<String, any Error> {
        Result { try KeyedArchiveView(data: data).render() }
    }

    /// What went wrong when a value decoded as ``HostileRecord`` does not survive
    /// encode → decode → encode unchanged (the encoder's output is deterministic, so the two
    /// encodings must be the same bytes); `nil` when it does, or when `data` does not decode.
    public static func roundTripFailure(_ data: Data) -> String? {
        guard let record = try? ArchiveDecoder().decode(HostileRecord.self, from: data) else { return nil }
        let encoder = ArchiveEncoder()
        guard let first = try? encoder.encode(record) else { return "a decoded HostileRecord failed to encode" }
        guard let again = try? ArchiveDecoder().decode(HostileRecord.self, from: first) else {
            return "a re-encoded HostileRecord failed to decode"
        }
        guard let second = try? encoder.encode(again) else { return "a twice-decoded HostileRecord failed to encode" }
        return first == second ? nil : "decode → encode → decode changed the HostileRecord"
    }
}
