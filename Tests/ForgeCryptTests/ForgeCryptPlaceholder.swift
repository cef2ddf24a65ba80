import Testing

@testable import ForgeCrypt
