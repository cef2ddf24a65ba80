#include "CForgeSystem.h"

#include <errno.h>

#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int forge_open_beneath(int folder, const char *path, int flags, unsigned int mode) {
    struct open_how how = {
        .flags = (unsigned long long)(unsigned int)flags,
        .mode = mode,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
    };
    return (int)syscall(SYS_openat2, folder, path, &how, sizeof how);
}

int forge_open_without_links(const char *path, int flags, unsigned int mode) {
    struct open_how how = {
        .flags = (unsigned long long)(unsigned int)flags,
        .mode = mode,
        .resolve = RESOLVE_NO_SYMLINKS,
    };
    return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
}
#else
int forge_open_beneath(int folder, const char *path, int flags, unsigned int mode) {
    (void)folder;
    (void)path;
    (void)flags;
    (void)mode;
    errno = ENOSYS;
    return -1;
}

int forge_open_without_links(const char *path, int flags, unsigned int mode) {
    (void)path;
    (void)flags;
    (void)mode;
    errno = ENOSYS;
    return -1;
}
#endif
