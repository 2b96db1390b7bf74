import Foundation
import KeyedArchive

/// What one found input holds, as every folder command first needs it: an archive, a plain
/// property list, bytes the library refuses, or nothing to judge (skipped, or unreadable).
enum OpenedInput {
    case archive(KeyedArchiveView, Data)
    /// A well-formed property list without the keyed-archive envelope.
    case plainPropertyList(Data)
    /// Data that starts like a property list but does not open as an archive: why, and the bytes.
    case refused(String, Data)
    /// Found in a folder and not worth opening (see ``ArchiveCandidate``), or never opened.
    case skipped(String)
    /// Could not be examined or read.
    case failed(String)

    /// Reads `input` (see ``FoundFileReader``) and opens it under `limits`. A file found in
    /// a folder that does not start like a property list is skipped, its first kilobyte
    /// alone read.
    init(_ input: FoundInput, limits: ArchiveDecoder.Limits = ArchiveDecoder.Limits()) {
        switch input.kind {
        case .skipped(let reason): self = .skipped(reason); return
        case .failed(let reason): self = .failed(reason); return
        case .file, .standardInput: break
        }
        let data: Data
        switch FoundFileReader.read(input, maxFileSize: input.maxFileSize) {
        case .failed(let message, _): self = .failed(message); return
        case .skipped(let reason): self = .skipped(reason); return
        case .bytes(let bytes): data = bytes
        }
        do {
            self = .archive(try KeyedArchiveView(data: data, limits: limits), data)
        } catch let error as KeyedArchiveError where error.isPlainPropertyList {
            self = .plainPropertyList(data)
        } catch {
            self = .refused(ArchiveInput.describe(error), data)
        }
    }

    /// Why a plain property list is not an archive, as the library says it.
    static let plainReason = KeyedArchiveError.plainPropertyList.description
}
