import Foundation
import Testing

@testable import ForgeKVStore

/// The first line of a `DiskKVStore` file whose value has a lifetime: written only for such a value, read back exactly,
/// and a damaged one read as damaged, never trapping.
struct ExpiryHeaderTests {
    private let body = Data(#"{"a":1}"#.utf8)

    @Test func aValueWithoutALifetimeIsWrittenAsItIs() {
        #expect(ExpiryHeader.file(holding: body, expiresAtMilliseconds: nil) == body)
    }

    @Test func aHeaderPrecedesTheContentsAndReadsBack() throws {
        let file = ExpiryHeader.file(holding: body, expiresAtMilliseconds: 1_767_225_660_000)
        #expect(file == Data("#expires 1767225660000\n{\"a\":1}".utf8))
        let contents = try #require(ExpiryHeader.read(file))
        #expect(contents == ExpiryHeader.Contents(expiresAtMilliseconds: 1_767_225_660_000, body: body))
    }

    @Test(arguments: [Int64.min, -1, 0, Int64.max])
    func extremeDatesReadBack(_ milliseconds: Int64) throws {
        let file = ExpiryHeader.file(holding: body, expiresAtMilliseconds: milliseconds)
        #expect(ExpiryHeader.read(file)?.expiresAtMilliseconds == milliseconds)
    }

    @Test func aFileWithoutAHeaderIsItsContents() throws {
        let contents = try #require(ExpiryHeader.read(body))
        #expect(contents == ExpiryHeader.Contents(expiresAtMilliseconds: nil, body: body))
        #expect(ExpiryHeader.read(Data()) == ExpiryHeader.Contents(expiresAtMilliseconds: nil, body: Data()))
    }

    @Test func aHeaderWithNothingAfterItReadsAnEmptyBody() throws {
        #expect(ExpiryHeader.read(Data("#expires 5\n".utf8))?.body == Data())
    }

    @Test(arguments: [
        "#", "#expires", "#expires ", "#expires \n{}", "#expires 12", "#expires 12 \n{}", "#expires +12\n{}",
        "#expires -\n{}", "#expires 1e3\n{}", "#expires 99999999999999999999\n{}", "#expires 9223372036854775808\n{}",
        "#expires  12\n{}", "#expired 12\n{}", "#EXPIRES 12\n{}", "#expires 12\r\n{}", "#expires ١٢\n{}",
        "#expires 12345678901234567890123456789\n{}",
    ])
    func aDamagedHeaderReadsAsDamaged(_ file: String) {
        #expect(ExpiryHeader.read(Data(file.utf8)) == nil)
    }

    @Test func aSliceOfALargerBufferReadsAsAWholeFile() throws {
        // `Data` slices keep their parent's indices: the reader must not assume they start at zero.
        let buffer = Data("xxxx#expires 7\n42".utf8)
        let slice = buffer[buffer.index(buffer.startIndex, offsetBy: 4)...]
        #expect(ExpiryHeader.read(slice) == ExpiryHeader.Contents(expiresAtMilliseconds: 7, body: Data("42".utf8)))
    }
}
