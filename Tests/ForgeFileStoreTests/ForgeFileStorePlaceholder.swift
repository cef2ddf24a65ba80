import Testing

@testable import ForgeFileStore
