import Foundation
import KeyedArchive
@testable import KeyedArchiveCodegen
import Testing

/// The fuzz target `FuzzSwiftCodegen` (Fuzz/) replayed on the past crashers of every reader
/// (`Hostile/Crashers`): `keyedarchive swift` on each archive, with and without a namespace,
/// internal and public, must emit exactly the declarations it planned (`GeneratedFileShape`).
/// Several of them hold themselves (an NSMutableArray that contains itself), so their classes
/// decode in two phases (`ArchiveReferenceCodable`): the shape the fuzz target once
/// reported as unplanned, because the checker did not know it.
@Suite("Codegen: past crashers give exactly the planned declarations")
struct CodegenCrasherTests {
    @Test("Each past crasher that infers a schema emits the planned declarations")
    func crashersEmitThePlan() throws {
        var generated = 0, twoPhase = 0
        for file in CrasherReplayTests.files {
            let data = try Data(contentsOf: CrasherReplayTests.folder.appendingPathComponent(file))
            guard let view = try? KeyedArchiveView(data: data) else { continue }
            var inference = SchemaInference(view: view)
            guard let schema = try? inference.infer() else { continue }
            for (namespace, access) in [(nil, SwiftEmitter.Access.internal), (SwiftIdentifier(fixed: "Legacy"), .public)] {
                let declarations = SwiftDeclarations(schema: schema, rootName: SwiftIdentifier(fixed: "Root"), namespace: namespace)
                var emitter = SwiftEmitter(declarations: declarations, access: access, source: file,
                                           outputLimit: SwiftEmitter.outputLimit(forInputSize: data.count))
                guard let code = try? emitter.emit() else { continue }
                generated += 1
                twoPhase += declarations.composites.contains(where: \.isTwoPhase) ? 1 : 0
                let problems = GeneratedFileShape.problems(in: code.text, planned: declarations)
                #expect(problems.isEmpty, "\(file), namespace \(namespace?.name ?? "none"): \(problems.prefix(5))")
            }
        }
        #expect(generated >= 10 && twoPhase >= 2, "generated \(generated), two-phase \(twoPhase)")
    }
}
