import Foundation

extension ArchiveDecoder.Limits {
    /// The object-visit budget of one document of `inputSize` bytes: ``maxObjectVisits``,
    /// or by default 16 per byte of input plus 65,536. The one definition every reader of
    /// the package uses (typed decoding, ``KeyedArchiveView``, its renderer).
    ///
    /// ```swift
    /// ArchiveDecoder.Limits().visitBudget(forInputSize: 1_000)   // 81_536
    /// ```
    public func visitBudget(forInputSize inputSize: Int) -> Int {
        maxObjectVisits ?? inputSize.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
    }
}

/// The work accounting of one document: every node visited, every reference followed,
/// every container entered is charged here, once per document (not per object).
struct ArchiveWorkBudget: Sendable {
    /// The visits allowed in all.
    let limit: Int
    /// How deep containers and references may nest.
    let maxDepth: Int
    private(set) var remaining: Int

    init(limits: ArchiveDecoder.Limits, inputSize: Int) {
        limit = max(0, limits.visitBudget(forInputSize: inputSize))
        maxDepth = limits.maxDepth
        remaining = limit
    }

    /// Charges `cost` visits; `false` once the budget is spent.
    @inline(__always)
    mutating func charge(_ cost: Int = 1) -> Bool {
        remaining = remaining &- cost
        return remaining >= 0
    }

    /// The error for a spent budget.
    func exhausted(objectIndex: Int? = nil, key: String? = nil) -> KeyedArchiveError {
        KeyedArchiveError(
            "the archive needs more than \(limit) visits (ArchiveDecoder.Limits.maxObjectVisits): its containers are shared or nested so heavily that reading it in full would not end in time",
            objectIndex: objectIndex, key: key)
    }

    /// The error for nesting beyond ``maxDepth``.
    func tooDeep(objectIndex: Int? = nil, key: String? = nil) -> KeyedArchiveError {
        KeyedArchiveError("nesting deeper than \(maxDepth) levels (ArchiveDecoder.Limits.maxDepth)", objectIndex: objectIndex, key: key)
    }
}
