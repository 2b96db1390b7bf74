import Foundation

extension ArchiveDecoder.Limits {
    /// The work budget of one document of `inputSize` bytes: ``maxObjectVisits``, or by
    /// default 16 units per byte of input plus 65,536. The one definition every reader of
    /// the package uses (typed decoding, ``KeyedArchiveView``, its renderer, the tool).
    ///
    /// ```swift
    /// ArchiveDecoder.Limits().visitBudget(forInputSize: 1_000)   // 81_536
    /// ```
    public func visitBudget(forInputSize inputSize: Int) -> Int {
        maxObjectVisits ?? inputSize.multipliedReportingOverflow(by: 16).partialValue &+ 65_536
    }

    /// The most bytes of text one rendering of a document of `inputSize` bytes may write
    /// (``KeyedArchiveView/render(options:)`` and the tool's `dump` and `json`):
    /// ``maxOutputBytes``, or by default 64 bytes per byte of input plus 1 MB.
    ///
    /// ```swift
    /// ArchiveDecoder.Limits().outputBudget(forInputSize: 1_000)   // 1_112_576
    /// ```
    public func outputBudget(forInputSize inputSize: Int) -> Int {
        maxOutputBytes ?? inputSize.multipliedReportingOverflow(by: 64).partialValue &+ 1_048_576
    }
}

/// The work accounting of one document, once per document (not per object): every node
/// visited, every reference followed, every container entered, and the bytes of every
/// string and data value made or handed out, in one budget of units; and, for renderers,
/// every byte written, against an output limit.
///
/// Bytes cost units so that a value referenced from many places cannot make work or memory
/// grow with references × length (issue 32): a long string or data value is made once per
/// property-list object and then shared (``SharedLeafValues``), and making one costs one
/// unit per ``bytesPerUnitMade`` bytes (as does parsing text into a URL, a decimal or base64
/// bytes, also once per object), and each hand-out of a long string as a key, which its
/// taker hashes, one unit per ``bytesPerUnitShared`` bytes. Handing out a shared value
/// costs its visit only, so a long value referenced from many places costs its size once.
struct ArchiveWorkBudget: Sendable {
    /// The units allowed in all.
    let limit: Int
    /// How deep containers and references may nest.
    let maxDepth: Int
    /// Units left; below zero once the budget is spent. (The decoder's hot paths subtract
    /// from it directly and test it where they would throw.)
    var remaining: Int
    /// The bytes a renderer may write.
    let outputLimit: Int
    /// The bytes written so far.
    private(set) var output = 0
    /// The bytes of strings and data made, and of text parsed, so far (see ``chargeMade(bytes:)``).
    private(set) var bytesMade = 0
    /// Units of ``limit`` not yet moved into ``remaining``, and how many move at a time
    /// (see ``handOutInTranches(of:between:)``); zero unless a reader asked for tranches.
    private var reserve = 0
    private var tranche = 0
    /// What runs each time a tranche is spent.
    private var betweenTranches: (@Sendable () -> Void)?

    /// Bytes of a new string or data value per unit: the default budget of 16 units per
    /// input byte then bounds what is made to 64 bytes per input byte.
    static let bytesPerUnitMade = 4
    /// Bytes of a key hashed by its taker per unit.
    static let bytesPerUnitShared = 64

    init(limits: ArchiveDecoder.Limits, inputSize: Int) {
        limit = max(0, limits.visitBudget(forInputSize: inputSize))
        maxDepth = limits.maxDepth
        remaining = limit
        outputLimit = max(0, limits.outputBudget(forInputSize: inputSize))
    }

    /// Charges `cost` units; `false` once the budget is spent.
    @inline(__always)
    mutating func charge(_ cost: Int = 1) -> Bool {
        remaining = remaining &- cost
        return remaining >= 0 || nextTranche()
    }

    /// Hands the budget out `units` at a time and runs `between` each time a tranche is
    /// spent: a periodic hook that costs the hot paths nothing, since they test
    /// ``remaining`` anyway and only call ``nextTranche()`` when it is below zero. The
    /// limit stays what it was: the tranches add up to it.
    ///
    /// `ArchiveDecoder.decode(_:contentsOf:)` uses it to release the mapped file's pages
    /// read so far (see `MappedFile.releaseResidentPages(_:)`).
    mutating func handOutInTranches(of units: Int, between: @escaping @Sendable () -> Void) {
        guard units > 0, remaining > units else { return }
        tranche = units
        reserve = remaining - units
        remaining = units
        betweenTranches = between
    }

    /// Moves the next tranche into ``remaining`` once it is below zero, after running the
    /// hook; `false` when the budget is spent (no tranches, or none left).
    @inline(never)
    mutating func nextTranche() -> Bool {
        guard remaining < 0, reserve > 0, let between = betweenTranches else { return remaining >= 0 }
        between()
        repeat {
            let units = min(tranche, reserve)
            reserve -= units
            remaining += units
        } while remaining < 0 && reserve > 0
        return remaining >= 0
    }

    /// Charges the making of a value of `bytes` bytes (or the parsing of that much text):
    /// one unit per ``bytesPerUnitMade`` bytes; `false` once the budget is spent.
    @inline(__always)
    mutating func chargeMade(bytes: Int) -> Bool {
        bytesMade &+= bytes
        return charge(bytes / Self.bytesPerUnitMade)
    }

    /// The units for handing out a key of `bytes` bytes (its taker hashes it).
    @inline(__always)
    static func sharedCost(bytes: Int) -> Int { bytes / bytesPerUnitShared }

    /// Charges `bytes` of output; `false` (and nothing counted) when they would pass the limit.
    @inline(__always)
    mutating func chargeOutput(_ bytes: Int) -> Bool {
        guard bytes <= outputLimit &- output else { return false }
        output += bytes
        return true
    }

    /// The error for a spent budget.
    func exhausted(objectIndex: Int? = nil, key: String? = nil) -> KeyedArchiveError {
        KeyedArchiveError(
            "the archive needs more than \(limit) visits (ArchiveDecoder.Limits.maxObjectVisits): its containers or values are shared, repeated or nested so heavily that reading it in full would not end in time",
            objectIndex: objectIndex, key: key)
    }

    /// The error for output past ``outputLimit``.
    func outputExceeded() -> KeyedArchiveError {
        KeyedArchiveError("the output would pass \(outputLimit) bytes (ArchiveDecoder.Limits.maxOutputBytes; by default 64 bytes per input byte plus 1 MB): the archive repeats its values too often to print them all")
    }

    /// The error for nesting beyond ``maxDepth``.
    func tooDeep(objectIndex: Int? = nil, key: String? = nil) -> KeyedArchiveError {
        KeyedArchiveError("nesting deeper than \(maxDepth) levels (ArchiveDecoder.Limits.maxDepth)", objectIndex: objectIndex, key: key)
    }
}
