import ArgumentParser
import Foundation

/// The `--sqlite` option of `demo`, `inspect` and `vault rotate`: use the stores of a SQLite database file instead of a
/// data folder.
struct SQLiteOptions: ParsableArguments {
    @Option(
        name: .customLong("sqlite"),
        help: ArgumentHelp(
            """
            Use the stores of this SQLite database file instead of a data folder; the vault's key file is \
            master.key beside it.
            """,
            valueName: "file"
        )
    )
    var file: String?

    /// The database file, as an absolute URL.
    var fileURL: URL? {
        file.map { URL(fileURLWithPath: $0).standardizedFileURL }
    }

    /// The folder whose `master.key` is the default key file of the database `fileURL`: the one that holds it.
    static func keyFolder(of fileURL: URL) -> DataRoot {
        DataRoot(url: fileURL.deletingLastPathComponent())
    }

    /// Refuses `--sqlite` with an option it does not go with.
    ///
    /// - Throws: A `ValidationError` when `--sqlite` comes with `--postgres`, or with `--root`, whose folder the
    ///   database file replaces.
    func validate(postgres: PostgresOptions, root: RootOptions) throws {
        guard file != nil else { return }
        if postgres.url != nil {
            throw ValidationError("Pass either --sqlite or --postgres: the demo's stores are in one place.")
        }
        if root.root != nil {
            throw ValidationError(
                "--root goes with a data folder: with --sqlite the stores are in the file, the key file beside it."
            )
        }
    }
}
