import Foundation
import Testing
@testable import KeyedArchive

@Suite("NSRange, CGPoint, CGSize and CGRect as NSValue")
struct NSValueTests {
    static let ranges = [NSRange(location: 3, length: 4), NSRange(location: 0, length: 0), NSRange(location: NSNotFound, length: 0)]

    @Test("NSKeyedUnarchiver reads our NSRange as an NSValue holding it", arguments: ranges)
    func foundationReadsRange(_ range: NSRange) throws {
        for read in try foundationReads(range, as: NSValue.self) {
            #expect(read.rangeValue == range)
        }
    }

    // NSValue(point:), .pointValue and the like are Foundation's on macOS and Linux only (UIKit
    // has its own, named for CGPoint): the geometry tests need them.
    #if os(macOS) || os(Linux)
    @Test("NSKeyedUnarchiver reads our points, sizes and rectangles")
    func foundationReadsGeometry() throws {
        let points = [CGPoint(x: 1, y: 2.5), CGPoint(x: -0.1, y: 1e300)]
        for point in points {
            for read in try foundationReads(point, as: NSValue.self) { #expect(read.pointValue == point) }
        }
        let size = CGSize(width: 3, height: 0.3)
        for read in try foundationReads(size, as: NSValue.self) { #expect(read.sizeValue == size) }
        let rect = CGRect(x: 400, y: 300, width: 200, height: 300.125)
        for read in try foundationReads(rect, as: NSValue.self) { #expect(read.rectValue == rect) }
    }

    @Test("NSKeyedArchiver's NSValues decode as CGPoint, CGSize, CGRect")
    func weReadFoundation() throws {
        let point = CGPoint(x: 1, y: 2.5), size = CGSize(width: 3, height: 4), rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(try weRead(CGPoint.self, fromFoundationArchiveOf: NSValue(point: point)) == [point, point])
        #expect(try weRead(CGSize.self, fromFoundationArchiveOf: NSValue(size: size)) == [size, size])
        #expect(try weRead(CGRect.self, fromFoundationArchiveOf: NSValue(rect: rect)) == [rect, rect])
    }
    #endif

    @Test("NSKeyedArchiver's NSValues decode as NSRange")
    func weReadFoundationRange() throws {
        for range in Self.ranges {
            #expect(try weRead(NSRange.self, fromFoundationArchiveOf: NSValue(range: range)) == [range, range])
        }
    }

    @Test("Apple's RangeTest and RectTest decode with Foundation's values", .requiresCorpus)
    func appleCorpus() throws {
        let rangeData = try corpusData("apple/corelibs/NSKeyedUnarchiver-RangeTest.plist")
        let range = try ArchiveDecoder().decode(NSRange.self, from: rangeData)
        #expect(range == NSRange(location: 97_345, length: 98_345))
        #expect((try foundationUnarchive(rangeData) as? NSValue)?.rangeValue == range)
        let rectData = try corpusData("apple/corelibs/NSKeyedUnarchiver-RectTest.plist")
        let rect = try ArchiveDecoder().decode(CGRect.self, from: rectData)
        #expect(rect == CGRect(x: 400, y: 300, width: 200, height: 300))
        #if os(macOS) || os(Linux)
        #expect((try foundationUnarchive(rectData) as? NSValue)?.rectValue == rect)
        #endif
        // Edge insets are an NSValue of another kind: not a rectangle.
        expectTypeMismatch(CGRect.self, from: try corpusData("apple/corelibs/NSKeyedUnarchiver-EdgeInsetsTest.plist"))
    }

    @Test("Our NSValues have the object graph of Apple's", .requiresCorpus, .requiresPython3)
    func sameGraphAsApple() throws {
        #expect(try archivedGraph(archive(NSRange(location: 97_345, length: 98_345), format: .binary))
                == archivedGraph(corpusData("apple/corelibs/NSKeyedUnarchiver-RangeTest.plist")))
        #expect(try archivedGraph(archive(CGRect(x: 400, y: 300, width: 200, height: 300), format: .binary))
                == archivedGraph(corpusData("apple/corelibs/NSKeyedUnarchiver-RectTest.plist")))
    }

    @Test("Round trip inside a struct, and deterministic")
    func roundTrip() throws {
        struct Layout: Codable, Equatable {
            var selection: NSRange
            var origin: CGPoint
            var size: CGSize
            var frames: [CGRect]
        }
        let layout = Layout(selection: NSRange(location: 2, length: 9), origin: CGPoint(x: 0.1, y: -7),
                            size: CGSize(width: 1e-9, height: 12), frames: [.zero, CGRect(x: 1, y: 2, width: 3, height: 4)])
        try expectRoundTrip(layout)
    }

    @Test("An NSValue of another kind, or another object, throws typeMismatch")
    func wrongKind() throws {
        expectTypeMismatch(CGRect.self, from: try archive(NSRange(location: 1, length: 2), format: .binary))
        expectTypeMismatch(NSRange.self, from: try archive(CGPoint(x: 1, y: 2), format: .binary))
        expectTypeMismatch(CGSize.self, from: try archive(CGPoint(x: 1, y: 2), format: .binary))
        expectTypeMismatch(CGPoint.self, from: try archive(IndexSet([1]), format: .binary))
        expectTypeMismatch(NSRange.self, from: try archive("{1, 2}", format: .binary))
    }
}
