// The key names the ``CryptStoringConformance`` checks store beside the shared hostile keys.

/// Secret key names that a store which rewrites names would merge: each group differs only in what such a store
/// changes.
///
/// Every name is its own key (only canonically equivalent spellings are one key), so a store that replaces `/`,
/// drops non-ASCII or control characters, folds case, trims spaces, applies compatibility mapping (NFKC) or
/// truncates long names makes two of these one key, and fails the checks that store them all.
let collidingCryptKeyNames: [String] = [
    // Separators replaced or dropped.
    "a/b", "a_b", "a-b", "a:b", "a b", "ab", "a%2Fb",
    // Non-ASCII dropped ("ключ" and "🔑" would both be empty) or folded to ASCII.
    "na\u{EF}ve", "naive", "nave", "\u{43A}\u{43B}\u{44E}\u{447}", "🔑", "",
    // Control characters dropped.
    "bell\u{7}", "bell", "tab\tkey", "tabkey", "line\nkey", "linekey", "del\u{7F}", "del", "nul\u{0}", "nul",
    // Case folded.
    "Token", "token", "TOKEN",
    // Spaces trimmed.
    " padded ", "padded",
    // Compatibility mapping: the "ﬁ" ligature and "fi" are distinct keys; only canonical equivalents are one.
    "\u{FB01}le", "file",
    // Long names that differ only at the end.
    String(repeating: "k", count: 1_000) + "1", String(repeating: "k", count: 1_000) + "2",
]

/// Every hostile key name the ``CryptStoringConformance`` checks store: the shared hostile keys, the colliding names,
/// a name in both its NFC and NFD spellings ("café", one key) and one in NFD only ("clé", listed in NFC), names a
/// store built on files might take for its own, and a name of 10,000 characters.
///
/// The checks of `keys()` and of `deleteAll` store them all, so that a store which lists, or deletes, only names it
/// finds tame (letters, digits, `.`, `_` and `-`) fails them.
let cryptHostileKeyNames: [String] =
    hostileKeys + collidingCryptKeyNames + [
        "caf\u{E9}", "cafe\u{301}", "cle\u{301}", "a/b/../c", "dots...", ".secret", "vault.json",
        String(repeating: "long-", count: 2_000),
    ]
