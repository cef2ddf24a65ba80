import ForgeCore
import ForgeTestSupport
import Foundation

extension SmallVolume {
    /// The names of the temporary files and folders anywhere on the volume.
    func temporaryNames() -> [String] {
        let names = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
        return names.filter { $0.contains(TemporaryName.marker) }
    }
}
