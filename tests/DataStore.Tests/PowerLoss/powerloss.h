// Shared by the power-loss shim's two parts: powerloss-log.c (the log, the descriptors it tracks, dlsym) and
// powerloss-shim.c (the libc functions it interposes). Everything declared here is internal to the library.
#ifndef POWERLOSS_H
#define POWERLOSS_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum kind {
    K_OPEN = 1, K_CLOSE, K_WRITE, K_TRUNCATE, K_FALLOCATE, K_FSYNC, K_FDATASYNC, K_SYNC_RANGE, K_SYNCFS, K_SYNC,
    K_RENAME, K_UNLINK, K_MKDIR, K_RMDIR, K_LINK, K_MMAP, K_MSYNC, K_MARK, K_UNSUPPORTED, K_DUP
};

struct record {
    uint32_t size;     // of the whole record, header included
    uint16_t kind;
    uint16_t path_length;
    uint32_t path2_length;
    int32_t fd;
    int64_t time_ns;   // CLOCK_MONOTONIC
    int64_t a, b, c;   // per kind: open (flags, is directory, mode), write (offset, length, 0), truncate (length)...
    uint32_t data_length;
    uint32_t pad;
};

#define MAX_FDS 65536
#define MAX_MAPS 256

// Every libc function the shim interposes; real_<name> is libc's own.
#define REAL_FUNCTIONS(X) \
    X(open) X(open64) X(openat) X(openat64) X(creat) X(creat64) X(close) X(dup) X(dup2) X(dup3) X(write) \
    X(pwrite) X(pwrite64) X(writev) X(pwritev) X(pwritev64) X(pwritev2) X(ftruncate) X(ftruncate64) X(truncate) \
    X(fallocate) X(fallocate64) X(posix_fallocate) X(posix_fallocate64) X(fsync) X(fdatasync) X(sync_file_range) \
    X(syncfs) X(sync) X(rename) X(renameat) X(renameat2) X(unlink) X(unlinkat) X(mkdir) X(mkdirat) X(rmdir) \
    X(link) X(linkat) X(symlink) X(mmap) X(mmap64) X(msync) X(munmap) X(copy_file_range) X(sendfile) \
    X(sendfile64) X(fclose)

#pragma GCC visibility push(hidden)
#define DECLARE_REAL(name) extern __typeof__(name) *real_##name;
REAL_FUNCTIONS(DECLARE_REAL)
extern __typeof__(lseek) *real_lseek;
extern char tracked[MAX_FDS];   // 1 = a file or directory under the root, 2 = the marks file
extern struct mapping { void *address; size_t length; int fd; } maps[MAX_MAPS];
extern pthread_mutex_t lock;

int active(void);
void emit(int kind, int fd, const char *path, const char *path2, int64_t a, int64_t b, int64_t c,
          const void *data, size_t data_length, const struct iovec *iov, int iovcnt);
const char *relative(int dirfd, const char *path, char *out, size_t size);
int relevant(int dirfd, const char *path, char *rel);
void forget(int fd);
void opened(int fd, const char *path, const char *rel, int flags, mode_t mode);
int under_root(int dirfd, const char *path);
int is_mapped(void *address);
#pragma GCC visibility pop

#define TRACKED(fd) ((fd) >= 0 && (fd) < MAX_FDS && tracked[(fd)] != 0)
#define PATH1(dirfd, path) under_root(dirfd, path)
#define PATH2(fd1, a, fd2, b) (under_root(fd1, a) || under_root(fd2, b))
#define MAPPED(address) is_mapped(address)

static inline int is_tracked(int fd) { return fd >= 0 && fd < MAX_FDS && tracked[fd] == 1; }
static inline int is_marks(int fd) { return fd >= 0 && fd < MAX_FDS && tracked[fd] == 2; }

#endif
