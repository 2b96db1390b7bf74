import Foundation
import HostileArchives
import KeyedArchive

// Structure-aware: the fuzzer's bytes choose a valid keyed archive's object graph (chains,
// self and mutual references through UIDs and plist references, shared children, deep
// inline nesting, many keys, every Foundation layout), which then goes through every typed
// probe and KeyedArchiveView. Rules: never trap or hang; typed decoding throws only
// DecodingError; the view throws only KeyedArchiveError or PropertyListError; a value that
// decodes as HostileRecord survives decode → encode → decode (same bytes when re-encoded).
/// With `FUZZ_HOSTILE_GRAPH_SAVE=path`, each built archive is written there before it is
/// decoded: run the target on one finding to get the archive for the crashers folder.
let savePath = ProcessInfo.processInfo.environment["FUZZ_HOSTILE_GRAPH_SAVE"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let data = FuzzedArchive.build(bytes)
    if let savePath { try? data.write(to: URL(fileURLWithPath: savePath)) }
    for probe in HostileDecoding.allProbes {
        if let error = probe.run(data), !(error is DecodingError) {
            fatalError("\(probe) threw \(type(of: error)), not a DecodingError: \(error)")
        }
    }
    if case .failure(let error) = HostileDecoding.view(data), !(error is KeyedArchiveError || error is PropertyListError) {
        fatalError("KeyedArchiveView threw \(type(of: error)): \(error)")
    }
    if let failure = HostileDecoding.roundTripFailure(data) { fatalError(failure) }
    return 0
}
