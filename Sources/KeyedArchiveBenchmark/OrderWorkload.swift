import Foundation

// (7) Order-like records: what an app's model usually looks like. A nested struct, a UUID,
// a String raw-value enum, optional fields of which about half are nil, dates, and an
// array of three line items per order.

enum OrderStatus: String, Codable, Equatable, CaseIterable {
    case pending, paid, shipped, delivered, cancelled
}

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var postalCode: String
    /// Nil for about half of the addresses.
    var region: String?
}

struct LineItem: Codable, Equatable {
    var sku: String
    var quantity: Int
    var unitPrice: Double
    /// Nil for about half of the items.
    var note: String?
}

struct Order: Codable, Equatable {
    var id: UUID
    var customer: String
    var status: OrderStatus
    var placedAt: Date
    /// Nil for about half of the orders (not shipped yet).
    var shippedAt: Date?
    var shippingAddress: Address
    var items: [LineItem]
    /// Nil for about half of the orders.
    var couponCode: String?
    var total: Double
    var isGift: Bool
}

private let cities = ["Lyon", "Porto", "Oslo", "Graz", "Gent", "Turku", "Cork", "Bern", "Brno", "Pisa"]
private let regions = ["North", "South", "East", "West", "Centre"]

/// `count` orders, deterministic: distinct ids and customers, repeated cities and SKUs,
/// prices exact in binary (so JSON round-trips them).
func makeOrders(_ count: Int) -> [Order] {
    var rng = SplitMix64(seed: 8)
    return (0..<count).map { i in
        let idHigh = rng.next(), idLow = rng.next()
        let id = withUnsafeBytes(of: (idHigh.bigEndian, idLow.bigEndian)) { raw in
            UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        }
        let items = (0..<3).map { _ in
            LineItem(sku: "SKU-\(1_000 + rng.int(500))", quantity: 1 + rng.int(5),
                     unitPrice: Double(100 + rng.int(20_000)) / 4,
                     note: rng.int(2) == 0 ? nil : "note \(rng.int(100))")
        }
        let placed = Double(600_000_000 + rng.int(200_000_000))
        return Order(
            id: id,
            customer: "customer-\(i)",
            status: OrderStatus.allCases[rng.int(OrderStatus.allCases.count)],
            placedAt: Date(timeIntervalSinceReferenceDate: placed),
            shippedAt: rng.int(2) == 0 ? nil : Date(timeIntervalSinceReferenceDate: placed + Double(rng.int(1_000_000))),
            shippingAddress: Address(street: "\(1 + rng.int(300)) Main Street", city: cities[rng.int(cities.count)],
                                     postalCode: String(10_000 + rng.int(90_000)),
                                     region: rng.int(2) == 0 ? nil : regions[rng.int(regions.count)]),
            items: items,
            couponCode: rng.int(2) == 0 ? nil : "SAVE\(rng.int(50))",
            total: items.reduce(0) { $0 + $1.unitPrice * Double($1.quantity) },
            isGift: rng.int(4) == 0)
    }
}
