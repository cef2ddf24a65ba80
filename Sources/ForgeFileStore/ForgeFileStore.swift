// ForgeFileStore: documents and blobs by relative path. Filled in by the ForgeFileStore issue.
