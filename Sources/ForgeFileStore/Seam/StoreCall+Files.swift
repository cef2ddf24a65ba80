package import ForgeCore
internal import Foundation

extension StoreCall where Result == Data? {
    /// A read of the file at `path`, its bytes counted; a fault that damages it returns the first half of the file,
    /// as a torn copy on disk would read.
    package static func read(_ path: StoredFilePath) -> Self {
        StoreCall(.read, path.string, reading: { $0?.count }, whenDamaged: { $0.map { $0.prefix($0.count / 2) } })
    }
}

extension StoreCall where Result == StoredFileInfo? {
    /// A look at the file at `path`, as a check that it exists; nil when a fault hides it.
    package static func info(_ path: StoredFilePath) -> Self {
        StoreCall(.exists, path.string, whenHidden: .some(nil))
    }
}
