// The names and paths the ``FileStoringConformance`` checks store beside plain ones.

/// Valid names a careless store gets wrong: a dot-name, a space, a colon, emoji, a backslash, a name of dots only,
/// and names as long as a name may be (255 bytes of ASCII; 63 emoji of 4 bytes each).
let unusualFileNames: [String] = [
    ".hidden", "with space.txt", "colon:name.txt", "emoji-📄.txt", "back\\slash", "...",
    String(repeating: "n", count: 255), String(repeating: "📄", count: 63),
]

/// The paths the checks of `deleteAll` store: every unusual name at the top and inside a folder, folders with such
/// names, a dot-name in a folder and a file in a dot-folder, and a path given in NFD (one file with its NFC
/// spelling).
///
/// A store that deletes only the paths it finds tame (no space, no colon, ASCII only, no leading dot) leaves some
/// behind, and fails.
let hostileFilePaths: [String] =
    unusualFileNames + unusualFileNames.map { "names/\($0)" } + [
        "folder with space/file.txt", "colon:folder/file.txt", "📄/file.txt", "docs/.config", ".dotfolder/x",
        "cafe\u{301}/re\u{301}sume\u{301}.txt",
    ]
