public import ForgeStorage

/// The secrets TaskFlow keeps in its ``CryptStoring`` store.
public enum AuthKeys {
    /// The signed-in user's access token.
    public static let accessToken = CryptKey<String>(key: "auth.access")
}
