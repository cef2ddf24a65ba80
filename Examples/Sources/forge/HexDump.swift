import Foundation

/// A hex dump of bytes, in the layout of `hexdump -C`.
///
/// ```
/// 00000000  ff d8 ff e0 54 61 73 6b  46 6c 6f 77 20 64 65 6d  |....TaskFlow dem|
/// 00000010  6f                                                |o|
/// 00000011
/// ```
enum HexDump {
    private static let bytesPerLine = 16

    /// The lines of the dump of `data`: offset, sixteen bytes in hex, the printable ASCII ones, and a last
    /// line with the byte count in hex.
    static func lines(of data: Data) -> [String] {
        let bytes = [UInt8](data)
        var lines: [String] = []
        for start in stride(from: 0, to: bytes.count, by: bytesPerLine) {
            let chunk = bytes[start..<min(start + bytesPerLine, bytes.count)]
            var hex = ""
            for (index, byte) in chunk.enumerated() {
                hex += (index == bytesPerLine / 2 ? "  " : " ") + hexText(Int(byte), digits: 2)
            }
            hex += String(repeating: " ", count: 3 * (bytesPerLine - chunk.count) + (chunk.count <= 8 ? 1 : 0))
            let ascii = chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." }
            lines.append("\(hexText(start, digits: 8)) \(hex)  |\(String(ascii))|")
        }
        lines.append(hexText(bytes.count, digits: 8))
        return lines
    }

    private static func hexText(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}
