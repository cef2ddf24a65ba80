/// When the Keychain lets an app read a ``KeychainCrypt`` item: the item's `kSecAttrAccessible` class.
///
/// Items readable only while the device is unlocked throw ``CryptStoreError/notAccessibleNow(key:)``
/// while it is locked (for example in a background task); they never read as missing.
public enum KeychainAccessibility: Sendable, Hashable, CaseIterable {
    /// Readable while the device is unlocked; migrates to a new device with a backup.
    case whenUnlocked
    /// Readable once the user has unlocked the device after a restart; migrates with a backup. The
    /// default, which lets background tasks read tokens.
    case afterFirstUnlock
    /// Readable while the device is unlocked, only if it has a passcode; never leaves this device.
    case whenPasscodeSetThisDeviceOnly
    /// Readable while the device is unlocked; never leaves this device.
    case whenUnlockedThisDeviceOnly
    /// Readable once the user has unlocked the device after a restart; never leaves this device.
    case afterFirstUnlockThisDeviceOnly

    /// Whether items of this class stay on this device: such items cannot be synchronizable.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock: false
        case .whenPasscodeSetThisDeviceOnly, .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly: true
        }
    }

    /// Whether items of this class are unreadable while the device is locked.
    public var requiresUnlockedDevice: Bool {
        switch self {
        case .whenUnlocked, .whenPasscodeSetThisDeviceOnly, .whenUnlockedThisDeviceOnly: true
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: false
        }
    }
}
