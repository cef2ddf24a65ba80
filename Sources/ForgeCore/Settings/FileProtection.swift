/// How the operating system protects a store's files while the device is locked.
///
/// The level applies to the store's folder and to every file it writes. It maps to Data Protection on
/// iOS, iPadOS, tvOS, watchOS and visionOS. It has no effect on macOS, and none on Linux, where the files
/// rely on ordinary POSIX permissions.
public enum FileProtection: Sendable, Hashable, CaseIterable {
    /// No Data Protection: the files are readable whenever the device is on.
    case none
    /// The files are readable only while the device is unlocked.
    case complete
    /// Files open at lock time stay readable; new files cannot be opened until the device is unlocked.
    case completeUnlessOpen
    /// The files are readable once the user has unlocked the device after a restart. The default,
    /// which lets background tasks read the store.
    case completeUntilFirstUserAuthentication
}
