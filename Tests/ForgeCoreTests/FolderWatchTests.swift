import Foundation
import Testing

@testable import ForgeCore

/// The decisions of a folder watch, written once and used by the dispatch sources of Apple platforms (whose code the
/// Linux build does not compile): which folders above the watched one to try, when a change above it calls for
/// watching anew, and which sub-folders to stop watching.
struct FolderWatchTests {
    private func version(device: UInt64, inode: UInt64) -> FileVersion {
        FileVersion(device: device, inode: inode, size: 0, modificationSeconds: 0, modificationNanoseconds: 0)
    }

    @Test func theFoldersAboveAreTriedNearestFirstUpToTheRoot() {
        #expect(FolderWatch.ancestors(of: "/a/b/c") == ["/a/b", "/a", "/"])
        #expect(FolderWatch.ancestors(of: "/a") == ["/"])
        #expect(FolderWatch.ancestors(of: "/") == [])
        #expect(FolderWatch.ancestors(of: "") == [])
    }

    @Test func aChangeInTheParentBesideTheSameFolderIsANeighbours() {
        let watched = version(device: 1, inode: 42)
        #expect(!FolderWatch.ancestorChangeCallsForRewatch(ancestorIsParent: true, watched: watched, current: watched))
        #expect(!FolderWatch.ancestorChangeCallsForRewatch(ancestorIsParent: true, watched: nil, current: nil))
    }

    @Test func aFolderThatAppearedWentOrWasReplacedIsWatchedAnew() {
        let watched = version(device: 1, inode: 42)
        let replacement = version(device: 1, inode: 43)
        let elsewhere = version(device: 2, inode: 42)
        for (before, now) in [(watched, replacement), (watched, elsewhere), (nil, watched), (watched, nil)] {
            #expect(FolderWatch.ancestorChangeCallsForRewatch(ancestorIsParent: true, watched: before, current: now))
        }
    }

    @Test func aChangeFurtherUpAlwaysCallsForWatchingAnew() {
        let watched = version(device: 1, inode: 42)
        #expect(FolderWatch.ancestorChangeCallsForRewatch(ancestorIsParent: false, watched: watched, current: watched))
        #expect(FolderWatch.ancestorChangeCallsForRewatch(ancestorIsParent: false, watched: nil, current: nil))
    }

    @Test func onlyTheWatchedSubfoldersThatWentBeneathTheChangedFolderAreDropped() {
        let watched = ["", "a", "a/b", "a/b/c", "ab", "d", "d/e"]
        let present: Set = ["a/b"]  // "a/b/c" went, and "a/b" stayed
        #expect(FolderWatch.vanishedFolders(watched, beneath: "a", present: present) == ["a/b/c"])
        #expect(FolderWatch.vanishedFolders(watched, beneath: "a", present: ["a/b", "a/b/c"]).isEmpty)
        #expect(
            FolderWatch.vanishedFolders(watched, beneath: "", present: ["a", "a/b", "d"]).sorted() == [
                "a/b/c", "ab", "d/e",
            ]
        )
    }
}
