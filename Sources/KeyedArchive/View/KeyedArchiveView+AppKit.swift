import Foundation

/// What an object of one of AppKit's or UIKit's value classes stands for: the
/// interpretation ``KeyedArchiveView/appKitValue(of:)`` gives the command-line tool and
/// your own untyped code, read by the same code as ``ArchiveDecoder`` reads the value types.
///
/// ```swift
/// let view = try KeyedArchiveView(data: nib)
/// for object in view.objects {
///     if case .color(let color)? = view.appKitValue(of: object) { print(color.hexRGBA ?? "") }
/// }
/// ```
public enum ArchivedAppKitValue: Sendable, Hashable {
    /// NSColor, UIColor.
    case color(ArchivedColor)
    /// NSFont, UIFont.
    case font(ArchivedFont)
    /// NSParagraphStyle.
    case paragraphStyle(ArchivedParagraphStyle)
    /// NSAttributedString and its subclasses.
    case attributedString(ArchivedAttributedString)

    /// The most objects an interpreted value may span (itself and what it refers to), and
    /// the most string and data bytes they may hold (an ICC profile is 3 to 5 KB); larger
    /// values are not interpreted, so interpreting one object costs bounded time and
    /// interpreting every object of a view costs time linear in the view's size.
    static let maxObjects = 1024
    static let maxBytes = 64 * 1024
}

extension KeyedArchiveView {
    /// The AppKit or UIKit value an object stands for, when its class chain holds
    /// `NSColor`/`UIColor`, `NSFont`/`UIFont`, `NSParagraphStyle` or `NSAttributedString`
    /// and its fields have that class's layout (see <doc:AppKitAndUIKitValues>); `nil`
    /// otherwise, or when the value spans more than 1,024 objects or 64 KiB of strings and data.
    ///
    /// Each call has a work budget of its own, the view's (``visitBudget``). The view's
    /// renderings, and the tool's `json`, `dump` and `swift`, interpret each object once and
    /// charge every interpretation to one budget for the whole operation instead.
    ///
    /// ```swift
    /// if case .font(let font)? = view.appKitValue(of: view.objects[10]) { print(font.name, font.size) }
    /// ```
    public func appKitValue(of object: ArchivedObject) -> ArchivedAppKitValue? {
        var budget = ArchiveWorkBudget(limits: limits, inputSize: inputSize)
        return try? appKitValue(of: object, budget: &budget)
    }

    /// ``appKitValue(of:)`` with its work — the objects and bytes of the value copied out,
    /// then decoded and parsed — charged to `budget`, the budget of the operation asking.
    ///
    /// - Throws: ``KeyedArchiveError`` when `budget` is spent.
    func appKitValue(of object: ArchivedObject, budget: inout ArchiveWorkBudget) throws(KeyedArchiveError) -> ArchivedAppKitValue? {
        guard object.className != nil else { return nil }
        let classes = object.classes
        func decode<T: Decodable>(_ type: T.Type, budget: inout ArchiveWorkBudget) throws(KeyedArchiveError) -> T? {
            guard let data = try subgraphArchive(rootedAt: object.index, budget: &budget) else { return nil }
            let decoder = ArchiveDecoder()
            var within = limits
            within.maxObjectVisits = max(0, budget.remaining)
            decoder.limits = within
            let (result, spent) = decoder.decodeSpendingWork(T.self, from: data)
            guard budget.charge(spent) else { throw budget.exhausted(objectIndex: object.index) }
            return try? result.get()
        }
        if classes.contains("NSColor") || classes.contains("UIColor") { return try decode(ArchivedColor.self, budget: &budget).map { .color($0) } }
        if classes.contains("NSFont") || classes.contains("UIFont") { return try decode(ArchivedFont.self, budget: &budget).map { .font($0) } }
        if classes.contains("NSParagraphStyle") { return try decode(ArchivedParagraphStyle.self, budget: &budget).map { .paragraphStyle($0) } }
        if classes.contains("NSAttributedString") {
            return try decode(ArchivedAttributedString.self, budget: &budget).map { .attributedString($0) }
        }
        return nil
    }

    /// An archive holding object `root` and every object it reaches, renumbered from 1;
    /// nil when they are more than ``ArchivedAppKitValue/maxObjects`` or hold more than
    /// ``ArchivedAppKitValue/maxBytes`` of strings and data. Each value visited costs a unit of
    /// `budget`, and the bytes copied into the archive cost as made.
    private func subgraphArchive(rootedAt root: Int, budget: inout ArchiveWorkBudget) throws(KeyedArchiveError) -> Data? {
        var newIndex: [Int: UInt64] = [root: 1]
        var order = [root]
        var cursor = 0
        var bytes = 0, visits = 0
        func visit(_ value: ArchivedValue) -> Bool {
            visits += 1
            switch value {
            case .string(let text):
                bytes += text.utf8.count
                return bytes <= ArchivedAppKitValue.maxBytes
            case .data(let data):
                bytes += data.count
                return bytes <= ArchivedAppKitValue.maxBytes
            case .reference(let index):
                guard index < objects.count else { return false }
                if newIndex[index] == nil {
                    newIndex[index] = UInt64(order.count + 1)
                    order.append(index)
                }
                return order.count <= ArchivedAppKitValue.maxObjects
            case .array(let items): return items.allSatisfy(visit)
            case .dictionary(let fields): return fields.allSatisfy { visit($0.value) }
            default: return true
            }
        }
        while cursor < order.count {
            let object = objects[order[cursor]]
            cursor += 1
            let complete = object.fields.allSatisfy({ visit($0.value) }) && (object.plainValue.map(visit) ?? true)
            guard budget.charge(visits) else { throw budget.exhausted(objectIndex: root) }
            visits = 0
            guard complete else { return nil }
        }
        guard budget.chargeMade(bytes: bytes) else { throw budget.exhausted(objectIndex: root) }
        var classEntries: [PropertyListValue] = []
        var classIndex: [[String]: UInt64] = [:]
        var entries: [PropertyListValue] = [.string("$null")]
        func plist(_ value: ArchivedValue) -> PropertyListValue {
            switch value {
            case .null: return .uid(0)
            case .reference(let index): return .uid(newIndex[index] ?? 0)
            case .string(let text): return .string(text)
            case .integer(let number): return .integer(number)
            case .unsignedInteger(let number): return .unsignedInteger(number)
            case .wideInteger(let number): return .wideInteger(number)
            case .real(let number): return .real(number)
            case .bool(let flag): return .bool(flag)
            case .data(let bytes): return .data(bytes)
            case .date(let date): return .date(date.timeIntervalSinceReferenceDate)
            case .array(let items): return .array(items.map(plist))
            case .dictionary(let fields): return .dictionary(fields.map { PropertyListEntry(key: $0.key, value: plist($0.value)) })
            }
        }
        for index in order {
            let object = objects[index]
            if let plain = object.plainValue {
                entries.append(plist(plain))
                continue
            }
            guard let name = object.className else { return nil }
            let chain = object.classes
            let classUID: UInt64
            if let known = classIndex[chain] {
                classUID = known
            } else {
                classUID = UInt64(order.count + 1 + classEntries.count)
                classIndex[chain] = classUID
                classEntries.append(.dictionary([
                    PropertyListEntry(key: "$classname", value: .string(name)),
                    PropertyListEntry(key: "$classes", value: .array(chain.map { .string($0) })),
                ]))
            }
            entries.append(.dictionary(object.fields.map { PropertyListEntry(key: ArchiveKeyEscaping.escape($0.key), value: plist($0.value)) }
                + [PropertyListEntry(key: "$class", value: .uid(classUID))]))
        }
        return PropertyListValue.dictionary([
            PropertyListEntry(key: "$version", value: .integer(100000)),
            PropertyListEntry(key: "$archiver", value: .string("NSKeyedArchiver")),
            PropertyListEntry(key: "$top", value: .dictionary([PropertyListEntry(key: "root", value: .uid(1))])),
            PropertyListEntry(key: "$objects", value: .array(entries + classEntries)),
        ]).propertyListData(format: .binary)
    }
}
