internal import Logging

/// The logger of the stores' statements: none, since the client logs its connections.
let statementLogger = Logger(label: "ForgePostgres", factory: { _ in SwiftLogNoOpLogHandler() })
