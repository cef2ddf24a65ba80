/// Appends bytes to a buffer known to be large enough: how names are written straight into the storage of a
/// new string (`String(unsafeUninitializedCapacity:initializingUTF8With:)`), with no array in between.
struct ByteWriter {
    /// The buffer written to, from its start.
    let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes have been written.
    private(set) var count = 0

    /// A writer at the start of `buffer`.
    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    /// Appends every byte of `bytes`.
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { append(byte) }
    }

    /// Appends `value`'s digits in `radix` (at most 36), lowercase, most significant first.
    mutating func append(_ value: UInt64, radix: UInt64) {
        var digitCount = 1
        var rest = value / radix
        while rest > 0 {
            digitCount += 1
            rest /= radix
        }
        var remaining = value
        for offset in stride(from: count + digitCount - 1, through: count, by: -1) {
            let digit = UInt8(remaining % radix)
            buffer[offset] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            remaining /= radix
        }
        count += digitCount
    }
}
