import Foundation

/// The `Int128`/`UInt128` values the 128-bit tests run over: the edges of every width
/// (64-bit ones included, which must be written as before) and, from a fixed seed, random
/// values of every magnitude.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
enum Int128Values {
    static let signedEdges: [Int128] = [
        0, 1, -1, 255, 256, -256,
        Int128(Int64.max), Int128(Int64.min), Int128(Int64.min) - 1,
        Int128(1) << 63, Int128(UInt64.max), Int128(UInt64.max) + 1, -(Int128(1) << 64), -(Int128(1) << 64) + 1,
        Int128(10).power(30), -Int128(10).power(30),
        .max, .max - 1, .min, .min + 1,
    ]

    static let unsignedEdges: [UInt128] = [
        0, 1, 255, UInt128(Int64.max), UInt128(1) << 63, UInt128(UInt64.max), UInt128(UInt64.max) + 1,
        UInt128(Int128.max), UInt128(Int128.max) + 1, .max, .max - 1,
    ]

    /// `count` values from a fixed seed, each random bits shifted to a random magnitude.
    static func randomSigned(_ count: Int, seed: UInt64 = 0x1128_1128) -> [Int128] {
        var generator = XMLPropertyListTests.SplitMix64(state: seed)
        return (0..<count).map { _ in
            let bits = Int128(bitPattern: UInt128(generator.next()) << 64 | UInt128(generator.next()))
            return bits >> generator.next(below: 128)
        }
    }

    static func randomUnsigned(_ count: Int, seed: UInt64 = 0x0128_0128) -> [UInt128] {
        var generator = XMLPropertyListTests.SplitMix64(state: seed)
        return (0..<count).map { _ in
            (UInt128(generator.next()) << 64 | UInt128(generator.next())) >> generator.next(below: 128)
        }
    }

    static var allSigned: [Int128] { signedEdges + randomSigned(200) }
    static var allUnsigned: [UInt128] { unsignedEdges + randomUnsigned(200) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128 {
    fileprivate func power(_ exponent: Int) -> Int128 {
        (0..<exponent).reduce(1) { result, _ in result * self }
    }
}
