import Testing

@testable import ForgeKVStore

/// The name of the Darwin notification every store posts after a change (posted and observed on Apple platforms only):
/// pinned here, since processes built with different versions of the library must agree on it.
struct DefaultsProcessNoticeTests {
    @Test func theNameIsTheDomainThenTheLibrarysSuffix() {
        #expect(
            DefaultsProcessNotice.name(of: "group.com.example.taskflow")
                == "group.com.example.taskflow.forge-storage.defaults-changed"
        )
        #expect(DefaultsProcessNotice.name(of: "com.example.app").hasPrefix("com.example.app."))
    }
}
