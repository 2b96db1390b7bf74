import Foundation
#if canImport(CoreGraphics)
// Darwin: CGPoint, CGSize and CGRect's initializers live in the CoreGraphics overlay.
import CoreGraphics
#endif

// CGPoint, CGSize and CGRect ↔ NSValue, as `NSValue(point:)`, `NSValue(size:)` and
// `NSValue(rect:)` archive them: `NS.special` 1, 2 or 3 and a string in the format of
// `NSStringFromPoint`/`NSStringFromSize`/`NSStringFromRect` under `NS.pointval`,
// `NS.sizeval` or `NS.rectval`: "{x, y}", "{w, h}", "{{x, y}, {w, h}}".

/// The numbers of a geometry string, written and read.
enum GeometryText {
    /// "%.17g": the shortest form for whole numbers ("{{0, 0}, {1, 1}}", as Apple writes
    /// them) and every bit of any other value.
    static func number(_ value: CGFloat) -> String {
        String(format: "%.17g", Double(value))
    }

    static func pair(_ a: CGFloat, _ b: CGFloat) -> String {
        "{\(number(a)), \(number(b))}"
    }

    /// The `count` numbers of a string such as "{{1, 2}, {3, 4}}", or nil when it does not
    /// hold exactly that many.
    static func numbers(_ text: String, count: Int) -> [CGFloat]? {
        let parts = text.split(whereSeparator: { $0 == "{" || $0 == "}" || $0 == "," || $0 == " " })
        guard parts.count == count else { return nil }
        var result: [CGFloat] = []
        for part in parts {
            guard let value = Double(part) else { return nil }
            result.append(CGFloat(value))
        }
        return result
    }
}

extension _ArchiveDecoder {
    /// The numbers of the geometry string in the NSValue at `slot`.
    func geometryNumbers<T>(_ type: T.Type, _ kind: ArchivedValueKind, key: String, count: Int,
                            at slot: ArchiveSlot, path: CodingPathNode) throws -> [CGFloat] {
        let fields = try specialValue(T.self, kind, at: slot, path: path)
        let text = try fields.requiredValue(String.self, key)
        guard let numbers = GeometryText.numbers(text, count: count) else {
            throw fields.corrupted("\(key) '\(text.prefix(100))' is not a \(T.self) string")
        }
        return numbers
    }
}

extension CGPoint: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.specialValue(.point) { $0.string("NS.pointval", GeometryText.pair(x, y)) }
    }
}

extension CGPoint: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> CGPoint {
        let n = try decoder.geometryNumbers(CGPoint.self, .point, key: "NS.pointval", count: 2, at: slot, path: path())
        return CGPoint(x: n[0], y: n[1])
    }
}

extension CGSize: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        encoder.specialValue(.size) { $0.string("NS.sizeval", GeometryText.pair(width, height)) }
    }
}

extension CGSize: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> CGSize {
        let n = try decoder.geometryNumbers(CGSize.self, .size, key: "NS.sizeval", count: 2, at: slot, path: path())
        return CGSize(width: n[0], height: n[1])
    }
}

extension CGRect: _ArchiveSpecialEncodable {
    func _archiveEncode(with encoder: _ArchiveEncoder, at path: @autoclosure () -> CodingPathNode) throws -> Int32 {
        let text = "{\(GeometryText.pair(origin.x, origin.y)), \(GeometryText.pair(size.width, size.height))}"
        return encoder.specialValue(.rect) { $0.string("NS.rectval", text) }
    }
}

extension CGRect: _ArchiveSpecialDecodable {
    static func _archiveDecode(from decoder: _ArchiveDecoder, slot: ArchiveSlot, at path: @autoclosure () -> CodingPathNode) throws -> CGRect {
        let n = try decoder.geometryNumbers(CGRect.self, .rect, key: "NS.rectval", count: 4, at: slot, path: path())
        return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}
