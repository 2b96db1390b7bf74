import Foundation

// NSObject + NSCoding twins of the order workload's types, for Foundation's NSKeyedArchiver /
// NSKeyedUnarchiver, coded as a hand-written Cocoa model would be: numbers and booleans
// inline, the UUID, dates, strings, the address and the line items as objects, the status
// as its raw string, nil optionals left out.

extension NSCoder {
    /// The object under `key`, or nil when the key is absent (swift-corelibs-foundation's
    /// unarchiver raises on `decodeObject(forKey:)` of a missing key; Apple's returns nil).
    func decodeIfPresent(forKey key: String) -> Any? {
        containsValue(forKey: key) ? decodeObject(forKey: key) : nil
    }
}

final class NSAddress: NSObject, NSCoding {
    let address: Address
    init(_ address: Address) { self.address = address }
    init?(coder: NSCoder) {
        guard let street = coder.decodeObject(forKey: "street") as? String,
              let city = coder.decodeObject(forKey: "city") as? String,
              let postalCode = coder.decodeObject(forKey: "postalCode") as? String else { return nil }
        address = Address(street: street, city: city, postalCode: postalCode,
                          region: coder.decodeIfPresent(forKey: "region") as? String)
    }
    func encode(with coder: NSCoder) {
        coder.encode(address.street, forKey: "street")
        coder.encode(address.city, forKey: "city")
        coder.encode(address.postalCode, forKey: "postalCode")
        if let region = address.region { coder.encode(region, forKey: "region") }
    }
}

final class NSLineItem: NSObject, NSCoding {
    let item: LineItem
    init(_ item: LineItem) { self.item = item }
    init?(coder: NSCoder) {
        guard let sku = coder.decodeObject(forKey: "sku") as? String else { return nil }
        item = LineItem(sku: sku, quantity: coder.decodeInteger(forKey: "quantity"),
                        unitPrice: coder.decodeDouble(forKey: "unitPrice"),
                        note: coder.decodeIfPresent(forKey: "note") as? String)
    }
    func encode(with coder: NSCoder) {
        coder.encode(item.sku, forKey: "sku")
        coder.encode(item.quantity, forKey: "quantity")
        coder.encode(item.unitPrice, forKey: "unitPrice")
        if let note = item.note { coder.encode(note, forKey: "note") }
    }
}

final class NSOrder: NSObject, NSCoding {
    let order: Order
    init(_ order: Order) { self.order = order }
    init?(coder: NSCoder) {
        guard let id = coder.decodeObject(forKey: "id") as? UUID,
              let customer = coder.decodeObject(forKey: "customer") as? String,
              let statusText = coder.decodeObject(forKey: "status") as? String,
              let status = OrderStatus(rawValue: statusText),
              let placedAt = coder.decodeObject(forKey: "placedAt") as? Date,
              let address = coder.decodeObject(forKey: "shippingAddress") as? NSAddress,
              let items = coder.decodeObject(forKey: "items") as? [NSLineItem] else { return nil }
        order = Order(id: id, customer: customer, status: status, placedAt: placedAt,
                      shippedAt: coder.decodeIfPresent(forKey: "shippedAt") as? Date,
                      shippingAddress: address.address, items: items.map(\.item),
                      couponCode: coder.decodeIfPresent(forKey: "couponCode") as? String,
                      total: coder.decodeDouble(forKey: "total"), isGift: coder.decodeBool(forKey: "isGift"))
    }
    func encode(with coder: NSCoder) {
        coder.encode(order.id as NSUUID, forKey: "id")
        coder.encode(order.customer, forKey: "customer")
        coder.encode(order.status.rawValue, forKey: "status")
        coder.encode(order.placedAt, forKey: "placedAt")
        if let shippedAt = order.shippedAt { coder.encode(shippedAt, forKey: "shippedAt") }
        coder.encode(NSAddress(order.shippingAddress), forKey: "shippingAddress")
        coder.encode(order.items.map(NSLineItem.init), forKey: "items")
        if let couponCode = order.couponCode { coder.encode(couponCode, forKey: "couponCode") }
        coder.encode(order.total, forKey: "total")
        coder.encode(order.isGift, forKey: "isGift")
    }
}
