import Foundation
import KeyedArchive

// `keyedarchive swift` on any bytes: no trap, and whatever the archive holds, the emitted
// file has exactly the declarations the generator planned, every other identifier is the
// generator's own, and archive text stays inside string literals and one-line comments
// (GeneratedFileShape, shared with the tests). The last byte chooses a namespace and the
// access level.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let view = try? KeyedArchiveView(data: data) else { return 0 }
    var inference = SchemaInference(view: view)
    guard let schema = try? inference.infer() else { return 0 }
    let choice = data.last ?? 0
    let namespace = choice & 1 == 0 ? nil : SwiftIdentifier(fixed: "Legacy")
    let declarations = SwiftDeclarations(schema: schema, rootName: SwiftIdentifier(fixed: "Root"), namespace: namespace)
    var emitter = SwiftEmitter(declarations: declarations, access: choice & 2 == 0 ? .internal : .public,
                               source: String(decoding: data.prefix(40), as: UTF8.self),
                               outputLimit: SwiftEmitter.outputLimit(forInputSize: count))
    guard let code = try? emitter.emit() else { return 0 }
    let problems = GeneratedFileShape.problems(in: code.text, planned: declarations)
    if !problems.isEmpty {
        fatalError("generated code is not what was planned: \(problems.prefix(5))\n\(code.text.prefix(4_000))")
    }
    return 0
}
