import Foundation
import Testing
@testable import KeyedArchive

// Apple's secondary threads (Dispatch, Swift concurrency, `Thread`) have 512 KB of stack.
// A deeply nested archive must give every typed path an error there, at the decoder's
// default limits, never a stack overflow (issue 51, item 5): the decoder checks the room
// left on the thread's stack past a few dozen levels (ThreadStack.swift).

/// A chain link as a plain Codable class.
final class StackPlainLink: Codable {
    let next: StackPlainLink?
}

/// A chain link as a class that may take part in cycles.
final class StackReferenceLink: ArchiveReferenceCodable {
    var next: StackReferenceLink?
    init() {}
    enum CodingKeys: String, CodingKey { case next }
    func decodeFields(from decoder: any Decoder) throws {
        next = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(StackReferenceLink.self, forKey: .next)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(next, forKey: .next)
    }
}

/// A chain link as an indirect enum.
indirect enum StackEnumLink: Codable {
    case end
    case link(StackEnumLink)
    enum CodingKeys: String, CodingKey { case next }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try container.decodeIfPresent(StackEnumLink.self, forKey: .next).map(StackEnumLink.link) ?? .end
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if case .link(let next) = self { try container.encode(next, forKey: .next) }
    }
}

/// A chain link as a struct nesting an array of itself.
struct StackArrayLink: Codable {
    let next: [StackArrayLink]
}

/// The kinds of chain an archive can hold, each read by its own typed path.
enum ChainPath: String, CaseIterable, CustomTestStringConvertible {
    case plainClass, referenceClass, indirectEnum, arrayOfStructs, rawValue

    var testDescription: String { rawValue }

    /// Decodes `data` by this path.
    func decode(_ data: Data) throws {
        let decoder = ArchiveDecoder()
        switch self {
        case .plainClass: _ = try decoder.decode(StackPlainLink.self, from: data)
        case .referenceClass: _ = try decoder.decode(StackReferenceLink.self, from: data)
        case .indirectEnum: _ = try decoder.decode(StackEnumLink.self, from: data)
        case .arrayOfStructs: _ = try decoder.decode(StackArrayLink.self, from: data)
        case .rawValue: _ = try decoder.decode(ArchivedRawValue.self, from: data)
        }
    }

    /// An archive whose root starts a chain `depth` objects long.
    func chain(depth: Int) -> Data {
        if self == .arrayOfStructs { return Self.arrayChain(depth: depth) }
        let classUID = UInt64(depth + 1)
        var objects: [PropertyListValue] = (1..<depth).map { level in
            dict(["$class": uid(classUID), "next": uid(UInt64(level + 1))])
        }
        objects.append(dict(["$class": uid(classUID)]))
        objects.append(classEntry("Link"))
        return archive(objects)
    }

    /// `{next: [ {next: [ … ]} ]}`: each level an object (odd UIDs) and its NSArray (even UIDs).
    private static func arrayChain(depth: Int) -> Data {
        let objectClass = UInt64(2 * depth + 1), arrayClass = objectClass + 1
        var objects: [PropertyListValue] = []
        for level in 0..<depth {
            let object = UInt64(2 * level + 1)
            objects.append(dict(["$class": uid(objectClass), "next": uid(object + 1)]))
            let elements: [PropertyListValue] = level == depth - 1 ? [] : [uid(object + 2)]
            objects.append(dict(["$class": uid(arrayClass), "NS.objects": .array(elements)]))
        }
        objects.append(classEntry("ArrayLink"))
        objects.append(classEntry("NSArray"))
        return archive(objects)
    }
}

/// A result handed from a thread: written before `signal`, read after `wait`.
private final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and returns its result.
private func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ThreadResult<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
}

/// What decoding `data` by `path` on a thread of `stackSize` bytes of stack gives: nil when
/// it decodes, else the error's description.
private func failure(of path: ChainPath, _ data: Data, stackSize: Int = SmallStackTests.appleThreadStack) -> String? {
    onThread(stackSize: stackSize) { () -> String? in
        do {
            try path.decode(data)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

@Suite("Deep archives on a 512 KB thread stack")
struct SmallStackTests {
    static let appleThreadStack = 512 * 1024

    @Test("a chain deeper than the default limit throws on a 512 KB stack, by every typed path", arguments: ChainPath.allCases)
    func deepChainThrows(_ path: ChainPath) {
        let data = path.chain(depth: 20_000)
        let outcome = failure(of: path, data)
        #expect(outcome != nil, "a 20,000-level chain decoded")
        #expect(outcome?.contains("nested") == true, "\(outcome ?? "")")
    }

    @Test("a chain at the default depth limit throws or decodes on a 512 KB stack, never overflows", arguments: ChainPath.allCases)
    func chainAtTheLimit(_ path: ChainPath) {
        let depth = ArchiveDecoder.Limits().maxDepth
        let data = path.chain(depth: path == .arrayOfStructs ? depth / 2 : depth)
        let message = failure(of: path, data)
        // Reaching this line is the test (an overflow ends the process); an error must say why.
        if let message { #expect(message.contains("nested"), "\(message)") }
    }

    @Test("a shallow chain decodes on a 512 KB stack", arguments: ChainPath.allCases)
    func shallowChainDecodes(_ path: ChainPath) {
        let data = path.chain(depth: 20)
        let message = failure(of: path, data)
        #expect(message == nil)
    }

    @Test("the stack check names the thread's stack, and a larger stack reaches the depth limit instead")
    func stackMessage() {
        let data = ChainPath.plainClass.chain(depth: 20_000)
        let small = failure(of: .plainClass, data, stackSize: 256 * 1024) ?? "decoded"
        #expect(small.contains("more than this thread's stack holds"), "\(small)")
        let large = failure(of: .plainClass, data, stackSize: 256 << 20) ?? "decoded"
        #expect(large.contains("deeper than the decoder's limit of 512"), "\(large)")
    }

    @Test("the stack floor lies inside the calling thread's stack")
    func floorInsideStack() {
        let (floor, here) = onThread(stackSize: Self.appleThreadStack) { (ThreadStack.floor(), ThreadStack.position()) }
        #expect(floor > 0)
        #expect(floor < here)
        // The reserve is 64 KB on a 512 KB stack: the floor is well below where the thread started.
        #expect(here - floor > 256 * 1024)
    }
}
