internal import ForgeFileStore
internal import Foundation

extension AsyncFileStoring {
    /// Saves `data` at `path`, replacing any file there: `FileStoring`'s `save(_:to:)`, for the checks.
    ///
    /// Internal, so that a store conforming to both protocols keeps one public `save(_:to:)`.
    func save(_ data: Data, to path: String) async throws {
        try await save(data, to: path, overwrite: true)
    }
}
