#if !KEYEDARCHIVE_SDK_BEFORE_IOS18  // the iOS 18 SDK's API (see ApplePlatforms.md)
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension PropertyListWideInteger {
    /// The value of an `Int128`.
    ///
    /// ```swift
    /// let wide = PropertyListWideInteger(Int128.min)
    /// assert(wide.int128Value == .min)
    /// ```
    public init(_ value: Int128) {
        self.init(fixedWidth: value)
    }

    /// The value of a `UInt128`.
    ///
    /// ```swift
    /// let wide = PropertyListWideInteger(UInt128.max)
    /// assert(wide.uint128Value == .max)
    /// ```
    public init(_ value: UInt128) {
        self.init(fixedWidth: value)
    }

    /// The value as `Int128`, or `nil` when it is above `Int128.max`.
    public var int128Value: Int128? { exactly(as: Int128.self) }

    /// The value as `UInt128`, or `nil` when it is negative.
    public var uint128Value: UInt128? { exactly(as: UInt128.self) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension PropertyListValue {
    /// The narrowest integer value holding `value`: ``integer(_:)`` or
    /// ``unsignedInteger(_:)`` within 64 bits — what the readers produce — else
    /// ``wideInteger(_:)``.
    ///
    /// ```swift
    /// assert(PropertyListValue(Int128(5)) == .integer(5))
    /// assert(PropertyListValue(Int128.max) == .wideInteger(PropertyListWideInteger(Int128.max)))
    /// ```
    public init(_ value: Int128) {
        self = PropertyListWideInteger(value).narrowest(Self.integer, Self.unsignedInteger, Self.wideInteger)
    }

    /// The narrowest integer value holding `value` (see ``init(_:)-(Int128)``).
    public init(_ value: UInt128) {
        self = PropertyListWideInteger(value).narrowest(Self.integer, Self.unsignedInteger, Self.wideInteger)
    }
}
#endif
