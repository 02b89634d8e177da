// The power-loss test's LD_PRELOAD library. For files under DATASTORE_POWERLOSS_ROOT it records every call that
// changes what a power loss could keep: opens and creations, writes (with their data), truncations and
// allocations, fsync/fdatasync/sync_file_range/syncfs/sync, renames, unlinks, mkdir/rmdir, links, and the
// mmap/msync of those files. Writes to DATASTORE_POWERLOSS_MARKS (the workload's acknowledgements) are recorded
// as marks, in the same order, to the log (DATASTORE_POWERLOSS_LOG; powerloss-log.c writes it).
//
// Every recorded call runs under one lock, so the log's order is the order the calls took effect. The engines
// reach libc through their own PLT (SQLite: open64/pwrite64/write/fsync/ftruncate64; RocksDB: open/write/pwrite/
// writev/fallocate/fdatasync/fsync/sync_file_range/rename/link; LMDB: open/pwrite/write/writev/fdatasync/fsync;
// .NET's System.Native: open64/pwrite64/pwritev64/write/fsync/ftruncate64/fallocate64/rename/unlink/mkdir), which
// LD_PRELOAD interposes. DataStore's own [LibraryImport("libc")] calls are resolved with dlsym on libc's handle,
// which LD_PRELOAD does not see: dlsym is interposed too and hands back this library's function instead.
#include "powerloss.h"

#define OPEN_BODY(call, dirfd)                                        \
    mode_t mode = 0;                                                  \
    if (flags & (O_CREAT | __O_TMPFILE)) {                            \
        va_list ap;                                                   \
        va_start(ap, flags);                                          \
        mode = va_arg(ap, mode_t);                                    \
        va_end(ap);                                                   \
    }                                                                 \
    char rel[4096];                                                   \
    if (!active() || !relevant(dirfd, path, rel)) {                   \
        int fd = call;                                                \
        forget(fd);                                                   \
        return fd;                                                    \
    }                                                                 \
    pthread_mutex_lock(&lock);                                        \
    int fd = call;                                                    \
    int saved = errno;                                                \
    opened(fd, path, rel, flags, mode);                               \
    pthread_mutex_unlock(&lock);                                      \
    errno = saved;                                                    \
    return fd;

int open(const char *path, int flags, ...) { OPEN_BODY(real_open(path, flags, mode), AT_FDCWD) }
int open64(const char *path, int flags, ...) { OPEN_BODY(real_open64(path, flags, mode), AT_FDCWD) }
int openat(int dirfd, const char *path, int flags, ...) { OPEN_BODY(real_openat(dirfd, path, flags, mode), dirfd) }
int openat64(int dirfd, const char *path, int flags, ...) { OPEN_BODY(real_openat64(dirfd, path, flags, mode), dirfd) }

int creat(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

// A duplicated descriptor: the new one means what the old one meant (and no longer what it meant before).
static int duplicated(int from, int to)
{
    if (to < 0 || to >= MAX_FDS) return to;
    if (is_tracked(to)) emit(K_CLOSE, to, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0);
    tracked[to] = from >= 0 && from < MAX_FDS ? tracked[from] : 0;
    if (tracked[to] == 1) emit(K_DUP, to, NULL, NULL, from, 0, 0, NULL, 0, NULL, 0);
    return to;
}

// Runs the call under the lock, then records it, when it concerns a tracked descriptor or path; other calls (pipes,
// sockets, files elsewhere) go straight through, never waiting for the lock.
#define LOCKED_IF(relevant, call, after)                              \
    if (!active() || !(relevant)) return call;                        \
    pthread_mutex_lock(&lock);                                        \
    __typeof__(call) result = call;                                   \
    int saved = errno;                                                \
    after;                                                            \
    pthread_mutex_unlock(&lock);                                      \
    errno = saved;                                                    \
    return result;

// A tracked descriptor being closed: recorded, and forgotten before its number can be reused.
static void closing(int fd)
{
    if (is_tracked(fd)) emit(K_CLOSE, fd, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0);
    tracked[fd] = 0;
}

int close(int fd) { LOCKED_IF(TRACKED(fd), (closing(fd), real_close(fd)), (void)0) }

int fclose(FILE *stream)
{
    int fd = fileno(stream);
    LOCKED_IF(TRACKED(fd), (closing(fd), real_fclose(stream)), (void)0)
}

int dup(int fd) { if (active() && !TRACKED(fd)) { int r = real_dup(fd); forget(r); return r; } LOCKED_IF(1, real_dup(fd), if (result >= 0) duplicated(fd, result)) }
int dup2(int fd, int to) { LOCKED_IF(TRACKED(fd) || TRACKED(to), real_dup2(fd, to), if (result >= 0) duplicated(fd, result)) }
int dup3(int fd, int to, int flags) { LOCKED_IF(TRACKED(fd) || TRACKED(to), real_dup3(fd, to, flags), if (result >= 0) duplicated(fd, result)) }

// A write at an explicit offset, or (offset < 0) at the descriptor's position, found after the call.
static void wrote(int fd, ssize_t n, off_t offset, const void *data, const struct iovec *iov, int iovcnt)
{
    if (n <= 0) return;
    if (is_marks(fd)) {
        emit(K_MARK, fd, NULL, NULL, 0, n, 0, data, (size_t)n, iov, iovcnt);
        return;
    }
    if (!is_tracked(fd)) return;
    if (offset < 0) offset = real_lseek(fd, 0, SEEK_CUR) - n;
    emit(K_WRITE, fd, NULL, NULL, offset, n, 0, data, (size_t)n, iov, iovcnt);
}

ssize_t write(int fd, const void *data, size_t n) { LOCKED_IF(TRACKED(fd), real_write(fd, data, n), wrote(fd, result, -1, data, NULL, 0)) }
ssize_t pwrite(int fd, const void *data, size_t n, off_t at) { LOCKED_IF(TRACKED(fd), real_pwrite(fd, data, n, at), wrote(fd, result, at, data, NULL, 0)) }
ssize_t pwrite64(int fd, const void *data, size_t n, off64_t at) { LOCKED_IF(TRACKED(fd), real_pwrite64(fd, data, n, at), wrote(fd, result, at, data, NULL, 0)) }
ssize_t writev(int fd, const struct iovec *iov, int count) { LOCKED_IF(TRACKED(fd), real_writev(fd, iov, count), wrote(fd, result, -1, NULL, iov, count)) }
ssize_t pwritev(int fd, const struct iovec *iov, int count, off_t at) { LOCKED_IF(TRACKED(fd), real_pwritev(fd, iov, count, at), wrote(fd, result, at, NULL, iov, count)) }
ssize_t pwritev64(int fd, const struct iovec *iov, int count, off64_t at) { LOCKED_IF(TRACKED(fd), real_pwritev64(fd, iov, count, at), wrote(fd, result, at, NULL, iov, count)) }
ssize_t pwritev2(int fd, const struct iovec *iov, int count, off_t at, int flags)
{
    // RWF_DSYNC/RWF_SYNC make this one write durable: recorded as the write followed by an fdatasync would not be
    // exact, so the test refuses them (DataStore's engines do not use them).
    LOCKED_IF(TRACKED(fd), real_pwritev2(fd, iov, count, at, flags), { wrote(fd, result, at, NULL, iov, count); if (is_tracked(fd) && flags != 0) emit(K_UNSUPPORTED, fd, "pwritev2 flags", NULL, flags, 0, 0, NULL, 0, NULL, 0); })
}

static void truncated(int fd, int result, off_t length)
{
    if (result == 0 && is_tracked(fd)) emit(K_TRUNCATE, fd, NULL, NULL, length, 0, 0, NULL, 0, NULL, 0);
}

int ftruncate(int fd, off_t length) { LOCKED_IF(TRACKED(fd), real_ftruncate(fd, length), truncated(fd, result, length)) }
int ftruncate64(int fd, off64_t length) { LOCKED_IF(TRACKED(fd), real_ftruncate64(fd, length), truncated(fd, result, length)) }

int truncate(const char *path, off_t length)
{
    char rel[4096];
    LOCKED_IF(PATH1(AT_FDCWD, path), real_truncate(path, length), if (result == 0 && relative(AT_FDCWD, path, rel, sizeof rel)) emit(K_UNSUPPORTED, -1, rel, "truncate(path)", length, 0, 0, NULL, 0, NULL, 0))
}

static void allocated(int fd, int result, int mode, off_t offset, off_t length)
{
    if (result == 0 && is_tracked(fd)) emit(K_FALLOCATE, fd, NULL, NULL, mode, offset, length, NULL, 0, NULL, 0);
}

int fallocate(int fd, int mode, off_t offset, off_t length) { LOCKED_IF(TRACKED(fd), real_fallocate(fd, mode, offset, length), allocated(fd, result, mode, offset, length)) }
int fallocate64(int fd, int mode, off64_t offset, off64_t length) { LOCKED_IF(TRACKED(fd), real_fallocate64(fd, mode, offset, length), allocated(fd, result, mode, offset, length)) }
int posix_fallocate(int fd, off_t offset, off_t length) { LOCKED_IF(TRACKED(fd), real_posix_fallocate(fd, offset, length), allocated(fd, result, 0, offset, length)) }
int posix_fallocate64(int fd, off64_t offset, off64_t length) { LOCKED_IF(TRACKED(fd), real_posix_fallocate64(fd, offset, length), allocated(fd, result, 0, offset, length)) }

int fsync(int fd) { LOCKED_IF(TRACKED(fd), real_fsync(fd), if (result == 0 && is_tracked(fd)) emit(K_FSYNC, fd, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0)) }
int fdatasync(int fd) { LOCKED_IF(TRACKED(fd), real_fdatasync(fd), if (result == 0 && is_tracked(fd)) emit(K_FDATASYNC, fd, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0)) }
int sync_file_range(int fd, off64_t offset, off64_t length, unsigned int flags) { LOCKED_IF(TRACKED(fd), real_sync_file_range(fd, offset, length, flags), if (result == 0 && is_tracked(fd)) emit(K_SYNC_RANGE, fd, NULL, NULL, offset, length, flags, NULL, 0, NULL, 0)) }
int syncfs(int fd) { LOCKED_IF(TRACKED(fd), real_syncfs(fd), if (result == 0 && is_tracked(fd)) emit(K_SYNCFS, fd, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0)) }

void sync(void)
{
    if (!active()) { real_sync(); return; }
    pthread_mutex_lock(&lock);
    real_sync();
    emit(K_SYNC, -1, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0);
    pthread_mutex_unlock(&lock);
}

// A rename, link or unlink under the root; one side outside the root cannot be replayed and is flagged.
static void named(int kind, int result, int fd1, const char *path1, int fd2, const char *path2)
{
    char a[4096], b[4096];
    if (result != 0) return;
    const char *ra = relative(fd1, path1, a, sizeof a);
    const char *rb = path2 == NULL ? NULL : relative(fd2, path2, b, sizeof b);
    if (ra == NULL && rb == NULL) return;
    if (path2 != NULL && (ra == NULL || rb == NULL)) {
        emit(K_UNSUPPORTED, -1, ra != NULL ? ra : rb, "rename or link across the root", kind, 0, 0, NULL, 0, NULL, 0);
        return;
    }
    emit(kind, -1, ra, rb, 0, 0, 0, NULL, 0, NULL, 0);
}

int rename(const char *from, const char *to) { LOCKED_IF(PATH2(AT_FDCWD, from, AT_FDCWD, to), real_rename(from, to), named(K_RENAME, result, AT_FDCWD, from, AT_FDCWD, to)) }
int renameat(int fd1, const char *from, int fd2, const char *to) { LOCKED_IF(PATH2(fd1, from, fd2, to), real_renameat(fd1, from, fd2, to), named(K_RENAME, result, fd1, from, fd2, to)) }
int renameat2(int fd1, const char *from, int fd2, const char *to, unsigned int flags)
{
    // RENAME_NOREPLACE behaves as rename when it succeeds; RENAME_EXCHANGE swaps two names and is refused.
    LOCKED_IF(PATH2(fd1, from, fd2, to), real_renameat2(fd1, from, fd2, to, flags), { if (flags & RENAME_EXCHANGE) named(K_UNSUPPORTED, result, fd1, from, fd2, to); else named(K_RENAME, result, fd1, from, fd2, to); })
}
int unlink(const char *path) { LOCKED_IF(PATH1(AT_FDCWD, path), real_unlink(path), named(K_UNLINK, result, AT_FDCWD, path, 0, NULL)) }
int unlinkat(int fd, const char *path, int flags) { LOCKED_IF(PATH1(fd, path), real_unlinkat(fd, path, flags), named((flags & AT_REMOVEDIR) ? K_RMDIR : K_UNLINK, result, fd, path, 0, NULL)) }
int mkdir(const char *path, mode_t mode) { LOCKED_IF(PATH1(AT_FDCWD, path), real_mkdir(path, mode), named(K_MKDIR, result, AT_FDCWD, path, 0, NULL)) }
int mkdirat(int fd, const char *path, mode_t mode) { LOCKED_IF(PATH1(fd, path), real_mkdirat(fd, path, mode), named(K_MKDIR, result, fd, path, 0, NULL)) }
int rmdir(const char *path) { LOCKED_IF(PATH1(AT_FDCWD, path), real_rmdir(path), named(K_RMDIR, result, AT_FDCWD, path, 0, NULL)) }
int link(const char *from, const char *to) { LOCKED_IF(PATH2(AT_FDCWD, from, AT_FDCWD, to), real_link(from, to), named(K_LINK, result, AT_FDCWD, from, AT_FDCWD, to)) }
int linkat(int fd1, const char *from, int fd2, const char *to, int flags) { LOCKED_IF(PATH2(fd1, from, fd2, to), real_linkat(fd1, from, fd2, to, flags), named(K_LINK, result, fd1, from, fd2, to)) }
int symlink(const char *target, const char *path) { LOCKED_IF(PATH1(AT_FDCWD, path), real_symlink(target, path), named(K_UNSUPPORTED, result, AT_FDCWD, path, 0, NULL)) }

// A mapping of a tracked file: recorded, and remembered so that msync can name the file.
static void mapped(void *address, size_t length, int prot, int flags, int fd, off_t offset)
{
    if (address == MAP_FAILED || !is_tracked(fd)) return;
    emit(K_MMAP, fd, NULL, NULL, prot, flags, offset, NULL, 0, NULL, 0);
    for (int i = 0; i < MAX_MAPS; i++) {
        if (maps[i].address == NULL) {
            maps[i].address = address;
            maps[i].length = length;
            maps[i].fd = fd;
            return;
        }
    }
}

void *mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset) { LOCKED_IF(TRACKED(fd), real_mmap(address, length, prot, flags, fd, offset), mapped(result, length, prot, flags, fd, offset)) }
void *mmap64(void *address, size_t length, int prot, int flags, int fd, off64_t offset) { LOCKED_IF(TRACKED(fd), real_mmap64(address, length, prot, flags, fd, offset), mapped(result, length, prot, flags, fd, offset)) }

static void unmapped(void *address)
{
    for (int i = 0; i < MAX_MAPS; i++) {
        if (maps[i].address == address) maps[i].address = NULL;
    }
}

int munmap(void *address, size_t length) { LOCKED_IF(MAPPED(address), real_munmap(address, length), if (result == 0) unmapped(address)) }

static void msynced(void *address, size_t length, int flags)
{
    for (int i = 0; i < MAX_MAPS; i++) {
        char *start = maps[i].address;
        if (start != NULL && (char *)address >= start && (char *)address < start + maps[i].length) {
            emit(K_MSYNC, maps[i].fd, NULL, NULL, (char *)address - start, (int64_t)length, flags, NULL, 0, NULL, 0);
        }
    }
}

int msync(void *address, size_t length, int flags) { LOCKED_IF(MAPPED(address), real_msync(address, length, flags), if (result == 0) msynced(address, length, flags)) }

// Copies the kernel does between descriptors carry data the log cannot see: flagged when they reach the root.
ssize_t copy_file_range(int in, off64_t *in_at, int out, off64_t *out_at, size_t n, unsigned int flags) { LOCKED_IF(TRACKED(out), real_copy_file_range(in, in_at, out, out_at, n, flags), if (result > 0 && is_tracked(out)) emit(K_UNSUPPORTED, out, "copy_file_range", NULL, 0, 0, 0, NULL, 0, NULL, 0)) }
ssize_t sendfile(int out, int in, off_t *at, size_t n) { LOCKED_IF(TRACKED(out), real_sendfile(out, in, at, n), if (result > 0 && is_tracked(out)) emit(K_UNSUPPORTED, out, "sendfile", NULL, 0, 0, 0, NULL, 0, NULL, 0)) }
ssize_t sendfile64(int out, int in, off64_t *at, size_t n) { LOCKED_IF(TRACKED(out), real_sendfile64(out, in, at, n), if (result > 0 && is_tracked(out)) emit(K_UNSUPPORTED, out, "sendfile", NULL, 0, 0, 0, NULL, 0, NULL, 0)) }
