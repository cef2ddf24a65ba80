// The client every store is made with, so that code using the stores needs no import of PostgresNIO of its own.
@_exported public import class PostgresNIO.PostgresClient
