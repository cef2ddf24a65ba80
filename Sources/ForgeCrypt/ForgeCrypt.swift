// ForgeCrypt: secrets in the Keychain, an encrypted vault, and in memory. Filled in by the ForgeCrypt issue.
