#if canImport(Darwin)
/// The synchronizer of this platform: on Apple platforms `cfprefsd` persists and shares changes by itself.
typealias DefaultsSynchronizer = DarwinDefaultsSynchronizer
#else
/// The synchronizer of this platform: on Linux the store writes its property list behind, and reloads it when
/// another process changed it.
typealias DefaultsSynchronizer = LinuxDefaultsSynchronizer
#endif
