import Foundation
import Testing
@testable import KeyedArchive

// encodeCodable/decodeCodable in all four writer × reader pairings (issue 11, item 8):
// ArchiveEncoder or NSKeyedArchiver writes; ArchiveDecoder or NSKeyedUnarchiver reads.

struct OrderLine: Codable, Equatable {
    var sku: String
    var quantity: Int
    var price: Double
}

struct OrderAddress: Codable, Equatable {
    var street: String
    var unit: String?
}

struct Order: Codable, Equatable {
    var id: Int
    var placed: Date
    var address: OrderAddress
    var lines: [OrderLine]
    var notes: [String: String]
    var gift: Bool
    var coupon: String?
}

/// An NSCoding class holding a nested Codable value and an array of structs.
final class OrderHolder: NSObject, NSCoding {
    var order: Order
    var extra: [OrderLine]

    init(order: Order, extra: [OrderLine]) {
        self.order = order
        self.extra = extra
    }

    func encode(with coder: NSCoder) {
        try? coder.encodeCodable(order, forKey: "order")
        try? coder.encodeCodable(extra, forKey: "extra")
    }

    required init?(coder: NSCoder) {
        guard let order = try? coder.decodeCodable(Order.self, forKey: "order"),
              let extra = try? coder.decodeCodable([OrderLine].self, forKey: "extra") else { return nil }
        self.order = order
        self.extra = extra
    }
}

@Suite("encodeCodable/decodeCodable across coders")
struct CodableInNSCodingTests {
    static let order = Order(id: 7, placed: Date(timeIntervalSinceReferenceDate: 700_000_000.5),
                     address: OrderAddress(street: "1 Loop", unit: nil),
                     lines: [OrderLine(sku: "a-1", quantity: 2, price: 9.5), OrderLine(sku: "b-2", quantity: 1, price: 0.25)],
                     notes: ["wrap": "blue"], gift: true, coupon: nil)
    static let extra = [OrderLine(sku: "c-3", quantity: 4, price: 1)]
    static var holder: OrderHolder { OrderHolder(order: order, extra: extra) }

    enum Writer: String, CaseIterable { case archiveEncoder, nsKeyedArchiver }
    enum Reader: String, CaseIterable { case archiveDecoder, nsKeyedUnarchiver }

    static func write(_ writer: Writer) throws -> Data {
        switch writer {
        case .archiveEncoder: return try ArchiveEncoder().encode(NSCodingObject(wrappedValue: holder))
        case .nsKeyedArchiver: return try NSKeyedArchiver.archivedData(withRootObject: holder, requiringSecureCoding: false)
        }
    }

    static func read(_ reader: Reader, _ data: Data, writtenBy writer: Writer = .archiveEncoder) throws -> OrderHolder? {
        switch reader {
        case .archiveDecoder:
            let decoder = ArchiveDecoder()
            // Foundation on Linux stores NSNumber 1 and true as one object (the order holds
            // both), so its archives are read with the documented opt-in.
            if writer == .nsKeyedArchiver { decoder.booleanDecodingStrategy = .numbersAreBooleans }
            return try decoder.decode(NSCodingObject<OrderHolder>.self, from: data).wrappedValue
        case .nsKeyedUnarchiver:
            // Foundation on Linux archives the class under its module-qualified name.
            return try foundationUnarchive(data, classes: ["OrderHolder": OrderHolder.self]) as? OrderHolder
        }
    }

    @Test("encodeCodable's value reads back with decodeCodable", arguments: Writer.allCases, Reader.allCases)
    func pairing(writer: Writer, reader: Reader) throws {
        let data = try Self.write(writer)
        let back = try #require(try Self.read(reader, data, writtenBy: writer), "\(reader) read nothing from \(writer)'s archive")
        #expect(back.order == Self.order)
        #expect(back.extra == Self.extra)
    }

    @Test("Both writers store the value as Foundation's tree: an NSDictionary of fields, arrays as NSArray")
    func layout() throws {
        for writer in Writer.allCases {
            let raw = try RawArchive(try Self.write(writer))
            let order = raw.resolve(raw.root?["order"])
            #expect(raw.className(of: order)?.hasSuffix("Dictionary") == true, "\(writer)")
            #expect(raw.className(of: raw.resolve(raw.root?["extra"]))?.hasSuffix("Array") == true, "\(writer)")
        }
        // Same value, same bytes.
        let first = try Self.write(.archiveEncoder)
        for _ in 0..<5 { #expect(try Self.write(.archiveEncoder) == first) }
    }

    @Test("decodeCodable under strict class-name checking reads encodeCodable's dictionaries")
    func strictReadsFoundationLayout() throws {
        for writer in Writer.allCases {
            let decoder = ArchiveDecoder()
            decoder.classNameChecking = .strict
            if writer == .nsKeyedArchiver { decoder.booleanDecodingStrategy = .numbersAreBooleans }  // Linux Foundation: 1 is true
            let back = try decoder.decode(NSCodingObject<OrderHolder>.self, from: try Self.write(writer)).wrappedValue
            #expect(back.order == Self.order, "\(writer)")
        }
    }
}
