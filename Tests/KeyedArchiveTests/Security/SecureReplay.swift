import Foundation
@testable import KeyedArchive

// The types of the FuzzSecureDecode fuzz target, for replaying its past crashers (and every
// other one) through the compatibility layer in `CrasherReplayTests`.

/// Reads its fields the way the fuzz target's FzCat does: with a class list, without one,
/// with an empty one, and a Codable value. Archived names `FzCat` map to it.
final class ReplayCat: NSObject, NSCoding {
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        super.init()
        _ = coder.decodeObject(of: [NSString.self], forKey: "name")
        _ = coder.decodeObject(of: [ReplayCat.self, NSArray.self, NSString.self, NSDictionary.self, NSNumber.self], forKey: "friend")
        _ = coder.decodeObject(forKey: "other")
        _ = coder.decodeObject(of: [], forKey: "none")
        _ = try? coder.decodeCodable([String: Int].self, forKey: "codable")
    }
}

private struct ReplayRoot: Decodable {
    @NSCodingObject var cat: ReplayCat
}

/// Decodes `data` as the fuzz target does (plain and strict); returns normally or throws.
func replayThroughCompatLayer(_ data: Data) {
    for checking in [ArchiveDecoder.ClassNameChecking.none, .strict] {
        let decoder = ArchiveDecoder()
        decoder.classNameChecking = checking
        decoder.setClass(ReplayCat.self, forClassName: "FzCat")
        decoder.allowedClasses = [ReplayCat.self]
        _ = try? decoder.decode(ReplayRoot.self, from: data)
        _ = try? decoder.decode(NSCodingObject<ReplayCat>.self, from: data)
    }
}
