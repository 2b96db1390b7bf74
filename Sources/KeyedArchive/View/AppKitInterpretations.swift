import Foundation

/// The AppKit and UIKit interpretations (``KeyedArchiveView/appKitValue(of:)``) of one
/// operation over a view — the tool's `json` or `swift`, say: each object is interpreted at
/// most once, and every interpretation is charged to one work budget, the view's, for the
/// whole operation. So colours that share one long component text, or one fallback colour,
/// cost the operation time linear in the archive (or a budget error), not colours × text.
///
/// The operation owns it and drops it when done: the view itself keeps no cache, so it
/// stays a plain `Sendable` value and nothing grows across calls. A nested archive's
/// objects are told apart from the input's by the number the caller gives it (`archive`).
package struct AppKitInterpretations: Sendable {
    private struct Key: Hashable {
        var archive: Int
        var index: Int
    }
    private var values: [Key: ArchivedAppKitValue?] = [:]
    private var budget: ArchiveWorkBudget
    /// The objects interpreted so far: each at most once (for tests of the accounting).
    package private(set) var interpretedCount = 0
    /// The units of the budget spent so far.
    package var unitsSpent: Int { budget.limit - budget.remaining }

    /// Interpretations within `view`'s work budget (its limits, for its input size).
    package init(view: KeyedArchiveView) {
        budget = ArchiveWorkBudget(limits: view.limits, inputSize: view.inputSize)
    }

    /// The interpretation of `object` of `view` (archive number `archive`: 0 for the input),
    /// made on first use.
    ///
    /// - Throws: ``KeyedArchiveError`` when the budget is spent.
    package mutating func value(of object: ArchivedObject, in view: KeyedArchiveView, archive: Int = 0) throws(KeyedArchiveError) -> ArchivedAppKitValue? {
        let key = Key(archive: archive, index: object.index)
        if let known = values[key] { return known }
        let value = try view.appKitValue(of: object, budget: &budget)
        interpretedCount += 1
        values[key] = value
        return value
    }

    /// What json and dump show for `object`: its interpretation's fields and those it does
    /// not model; `nil` when it is not interpreted (its own fields are shown).
    package mutating func shownFields(of object: ArchivedObject, in view: KeyedArchiveView, archive: Int = 0) throws(KeyedArchiveError) -> [ArchivedField]? {
        guard let value = try value(of: object, in: view, archive: archive) else { return nil }
        return view.shownFields(of: object, value: value)
    }
}
