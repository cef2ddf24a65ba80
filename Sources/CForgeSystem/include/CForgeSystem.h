#ifndef C_FORGE_SYSTEM_H
#define C_FORGE_SYSTEM_H

/// Opens `path`, relative to the folder `folder`, in one call in which the kernel follows no symbolic link and
/// never leaves `folder` (Linux's `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`).
///
/// Returns the new descriptor, or -1 with `errno` set: `ELOOP` when a link is on the way, `ENOSYS` where the
/// kernel (before Linux 5.6) or the platform has no such call. Swift cannot call the variadic `syscall`, hence
/// this C function.
int forge_open_beneath(int folder, const char *path, int flags, unsigned int mode);

/// Opens `path` in one call in which the kernel follows no symbolic link anywhere on the path, its first names
/// included (`openat2` with `RESOLVE_NO_SYMLINKS`); -1 with `errno` set as for ``forge_open_beneath``.
int forge_open_without_links(const char *path, int flags, unsigned int mode);

#endif
