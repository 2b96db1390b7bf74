import Foundation

/// A property list rewritten in the other format (`keyedarchive convert`), under one
/// accounting of ``ArchiveDecoder/Limits`` for the reading and the writing.
///
/// The reading charges the document's one work budget for every node and for the bytes of
/// every string and data value made (once per property-list object: a value many objects
/// share is made once); the writers then walk no more than the reading charged. Binary
/// output keeps the sharing (``BinaryPropertyListWriter`` writes a shared object once, at
/// the cost of its size once). XML has no references between values, so a shared value is
/// written once per place: its output counts against the limits' output budget (by default
/// 64 bytes per input byte plus 1 MB), and a document past it is refused after counting up
/// to the budget, before anything is written.
package enum PropertyListRewrite {
    package enum Outcome: Sendable {
        case bytes([UInt8])
        /// XML refused: a string or key holds a character XML 1.0 cannot represent (why and where).
        case forbiddenXMLText(String)
        /// The output would pass the output budget, of this many bytes; nothing written.
        case outputLimit(Int)
    }

    /// `data` (a binary or XML property list) in `format`. With `refusingForbiddenXMLText`,
    /// XML output holding a character XML 1.0 cannot represent is refused.
    ///
    /// - Throws: ``PropertyListError`` when `data` is not a property list,
    ///   ``KeyedArchiveError`` when the reading passes a limit.
    package static func rewrite(_ data: Data, as format: PropertyListFormat, limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits(),
                                refusingForbiddenXMLText: Bool) throws -> Outcome {
        var budget = ArchiveWorkBudget(limits: limits, inputSize: data.count)
        let tree = try PropertyListValue.read(data, budget: &budget)
        let bytes: [UInt8]
        switch format {
        case .binary:
            bytes = BinaryPropertyListWriter.write(tree)
        case .xml:
            let document = XMLPropertyListWriter.TreeDocument(value: tree)
            switch XMLPlistDocument.boundedBytes(document, refusingForbiddenText: refusingForbiddenXMLText, maxBytes: budget.outputLimit) {
            case .bytes(let written): bytes = written
            case .forbiddenText:
                return .forbiddenXMLText(tree.xmlForbiddenTextReason() ?? "a string holds a character XML 1.0 cannot represent")
            case .tooLarge: return .outputLimit(budget.outputLimit)
            }
        }
        guard budget.chargeOutput(bytes.count) else { return .outputLimit(budget.outputLimit) }
        return .bytes(bytes)
    }
}
