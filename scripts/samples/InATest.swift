// A fragment of a test body, run as a test of its own.
import ForgeStorage
import ForgeStorageTesting
import Foundation
import Testing

@Test func sample() async throws {
    // sample
}
