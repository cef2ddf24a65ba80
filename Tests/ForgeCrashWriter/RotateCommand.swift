import ForgeCrypt
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The `rotate` mode of the child process: changes the master key of a vault, telling each step on its standard
/// output, for the tests that kill a rotation part-way.
///
/// Usage: `ForgeCrashWriter rotate <folder> <namespace> <old-key> <new-key> [<steps>]`, each key
/// `symmetric:<64 hex digits>`, `keyfile:<path>` or `passphrase:<text>`. It runs
/// `EncryptedFileCrypt.rotateMasterKey(directory:namespace:from:to:)` and prints one line per step, flushed before
/// the next begins; with `<steps>`, the process ends right after printing that many (`_exit(7)`: no clean-up, as a
/// crash), before the rotation goes on. It prints `done` and exits 0 when the rotation ends.
enum RotateCommand {
    /// Runs the command in `arguments` (everything after `rotate`); returns false when they are malformed.
    static func run(_ arguments: [String]) throws -> Bool {
        guard arguments.count == 4 || arguments.count == 5,
            let oldKey = masterKey(arguments[2]),
            let newKey = masterKey(arguments[3])
        else { return false }
        let stopAfter = arguments.count == 5 ? Int(arguments[4]) : nil
        if arguments.count == 5, stopAfter == nil { return false }
        var printed = 0
        try EncryptedFileCrypt.rotateMasterKey(
            directory: .custom(URL(fileURLWithPath: arguments[0], isDirectory: true)),
            namespace: arguments[1],
            from: oldKey,
            to: newKey
        ) { step in
            FileHandle.standardOutput.write(Data("\(step)\n".utf8))
            printed += 1
            if printed == stopAfter { _exit(7) }
        }
        FileHandle.standardOutput.write(Data("done\n".utf8))
        return true
    }

    /// The master key `text` names: `symmetric:<hex>`, `keyfile:<path>` or `passphrase:<text>`.
    static func masterKey(_ text: String) -> MasterKey? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let value = String(text[text.index(after: colon)...])
        switch text[..<colon] {
        case "symmetric":
            var bytes: [UInt8] = []
            var index = value.startIndex
            while index < value.endIndex {
                let next = value.index(index, offsetBy: 2, limitedBy: value.endIndex) ?? value.endIndex
                guard let byte = UInt8(value[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return .symmetric(SymmetricKey(data: bytes))
        case "keyfile":
            return .keyFile(URL(fileURLWithPath: value))
        case "passphrase":
            return .passphrase(value)
        default:
            return nil
        }
    }
}
