import Foundation
import KeyedArchive

// Secure decoding: random archives decoded through types with @NSCodingObject fields and
// an allow-list. Rule: an initializer runs only for a class the read that reached it
// allows, and every read returns only what it allows; a class nothing allows (FzDog) never
// runs. Checked for ArchiveDecoder (plain and strict) and for PropertyListDecoder, whose
// @NSCodingObject reads embedded archive bytes.
//
// The decoder allows FzMouse (allowedClasses, and the name "Mouse" by registration): only
// reads that name no classes may instantiate it. @NSCodingObject var cat: FzCat, and
// decodeObject(of: [FzCat…]) calls, may instantiate only FzCat.

/// Which classes the read now running allows; the initializers check it. Single-threaded
/// (libFuzzer calls one input at a time), but guarded for strict concurrency.
final class ReadContext: @unchecked Sendable {
    static let shared = ReadContext()
    private let lock = NSLock()
    /// Top: the classes the innermost read allows. Empty: a root @NSCodingObject<FzCat> read.
    private var stack: [[AnyClass]] = []

    func with<R>(_ allowed: [AnyClass], _ body: () -> R) -> R {
        lock.withLock { stack.append(allowed) }
        defer { lock.withLock { _ = stack.popLast() } }
        return body()
    }

    func check(_ cls: AnyClass) {
        let allowed = lock.withLock { stack.last ?? [FzCat.self] }
        if !allowed.contains(where: { $0 == cls }) { fatalError("\(cls).init(coder:) ran for a read that allows only \(allowed)") }
    }

    func reset() { lock.withLock { stack = [] } }
}

/// The result of a read must be nil or of a class it allows.
func checkResult(_ value: Any?, allowed: [AnyClass], key: String) {
    guard let value, let object = value as AnyObject? else { return }
    if object is FzDog { fatalError("decodeObject(forKey: \(key)) returned an FzDog") }
    if object is FzCat, !allowed.contains(where: { $0 == FzCat.self }) { fatalError("read '\(key)' returned an FzCat it does not allow") }
    if object is FzMouse, !allowed.contains(where: { $0 == FzMouse.self }) { fatalError("read '\(key)' returned an FzMouse it does not allow") }
}

final class FzCat: NSObject, NSCoding {
    var name: String?
    var friend: Any?
    var other: Any?
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        ReadContext.shared.check(FzCat.self)
        super.init()
        name = coder.decodeObject(of: [NSString.self], forKey: "name") as? String
        let named: [AnyClass] = [FzCat.self, NSArray.self, NSString.self, NSDictionary.self, NSNumber.self]
        friend = ReadContext.shared.with(named) { coder.decodeObject(of: named, forKey: "friend") }
        checkResult(friend, allowed: named, key: "friend")
        other = ReadContext.shared.with([FzMouse.self]) { coder.decodeObject(forKey: "other") }
        checkResult(other, allowed: [FzMouse.self], key: "other")
        let nothing = ReadContext.shared.with([]) { coder.decodeObject(of: [], forKey: "none") }
        if nothing != nil { fatalError("decodeObject(of: []) returned \(type(of: nothing!))") }
        _ = try? coder.decodeCodable([String: Int].self, forKey: "codable")
    }
}

final class FzMouse: NSObject, NSCoding {
    var next: Any?
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        ReadContext.shared.check(FzMouse.self)
        super.init()
        let named: [AnyClass] = [FzMouse.self, NSString.self]
        next = ReadContext.shared.with(named) { coder.decodeObject(of: named, forKey: "next") }
        checkResult(next, allowed: named, key: "next")
    }
}

/// Allowed by nothing: its initializer must never run.
final class FzDog: NSObject, NSCoding {
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) { fatalError("FzDog.init(coder:) ran: nothing allows it") }
}

struct Root: Decodable {
    var name: String?
    @NSCodingObject var cat: FzCat
    var tags: [String]?
}

/// The same shape with the cat as archive bytes, for PropertyListDecoder.
struct Embedded: Codable { var cat: Data }
struct EmbeddedRoot: Decodable { @NSCodingObject var cat: FzCat }

let decoders: [ArchiveDecoder] = [ArchiveDecoder.ClassNameChecking.none, .strict].map { checking in
    let decoder = ArchiveDecoder()
    decoder.classNameChecking = checking
    decoder.allowedClasses = [FzMouse.self]
    decoder.setClass(FzMouse.self, forClassName: "Mouse")
    return decoder
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for decoder in decoders {
        ReadContext.shared.reset()
        _ = try? decoder.decode(Root.self, from: data)
        ReadContext.shared.reset()
        _ = try? decoder.decode(NSCodingObject<FzCat>.self, from: data)
    }
    ReadContext.shared.reset()
    if let wrapped = try? PropertyListEncoder().encode(Embedded(cat: data)) {
        _ = try? PropertyListDecoder().decode(EmbeddedRoot.self, from: wrapped)
    }
    return 0
}
