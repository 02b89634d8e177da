// The power-loss shim's log: which descriptors and mappings it tracks, the records it appends (the layout
// PowerLossLog.cs reads: struct record, then the path, the second path and the data), and the dlsym it interposes.
#include "powerloss.h"

char tracked[MAX_FDS];
struct mapping maps[MAX_MAPS];
static char root[4096], marks[4096];
static size_t root_length;
static int log_fd = -1;
pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static char *buffer;
static size_t buffered;
#define BUFFER_SIZE (1 << 20)

static void *(*real_dlsym)(void *, const char *);
#define DEFINE_REAL(name) __typeof__(name) *real_##name;
REAL_FUNCTIONS(DEFINE_REAL)
__typeof__(lseek) *real_lseek;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void flush_buffer(void)
{
    size_t done = 0;
    while (done < buffered) {
        ssize_t n = real_write(log_fd, buffer + done, buffered - done);
        if (n <= 0) {
            break;
        }
        done += (size_t)n;
    }
    buffered = 0;
}

static void initialize(void)
{
    real_dlsym = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (real_dlsym == NULL) {
        real_dlsym = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    }
#define RESOLVE(name) real_##name = (__typeof__(real_##name))real_dlsym(RTLD_NEXT, #name);
    REAL_FUNCTIONS(RESOLVE)
    RESOLVE(lseek);
    const char *r = getenv("DATASTORE_POWERLOSS_ROOT");
    const char *m = getenv("DATASTORE_POWERLOSS_MARKS");
    const char *l = getenv("DATASTORE_POWERLOSS_LOG");
    if (r == NULL || l == NULL) {
        return;
    }
    snprintf(root, sizeof root, "%s", r);
    root_length = strlen(root);
    while (root_length > 1 && root[root_length - 1] == '/') {
        root[--root_length] = '\0';
    }
    snprintf(marks, sizeof marks, "%s", m == NULL ? "" : m);
    log_fd = real_open(l, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    buffer = malloc(BUFFER_SIZE);
}

int active(void)
{
    pthread_once(&once, initialize);
    return log_fd >= 0 && buffer != NULL;
}

__attribute__((destructor)) static void finish(void)
{
    if (active()) {
        pthread_mutex_lock(&lock);
        flush_buffer();
        pthread_mutex_unlock(&lock);
    }
}

static int64_t now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// Copies bytes into the buffer, writing it out whenever it fills (a record may span two writes of the log).
static void append(const void *bytes, size_t n)
{
    while (n > 0) {
        if (buffered == BUFFER_SIZE) {
            flush_buffer();
        }
        size_t room = BUFFER_SIZE - buffered, k = n < room ? n : room;
        memcpy(buffer + buffered, bytes, k);
        buffered += k;
        bytes = (const char *)bytes + k;
        n -= k;
    }
}

// Appends one record; the caller holds the lock. data may be an iovec list (count >= 0) or plain bytes.
void emit(int kind, int fd, const char *path, const char *path2, int64_t a, int64_t b, int64_t c,
                 const void *data, size_t data_length, const struct iovec *iov, int iovcnt)
{
    struct record h = {0};
    size_t p1 = path == NULL ? 0 : strlen(path), p2 = path2 == NULL ? 0 : strlen(path2);
    h.kind = (uint16_t)kind;
    h.path_length = (uint16_t)p1;
    h.path2_length = (uint32_t)p2;
    h.fd = fd;
    h.time_ns = now();
    h.a = a;
    h.b = b;
    h.c = c;
    h.data_length = (uint32_t)data_length;
    h.size = (uint32_t)(sizeof h + p1 + p2 + data_length);
    append(&h, sizeof h);
    append(path, p1);
    append(path2, p2);
    if (iov != NULL) {
        size_t left = data_length;
        for (int i = 0; i < iovcnt && left > 0; i++) {
            size_t n = iov[i].iov_len < left ? iov[i].iov_len : left;
            append(iov[i].iov_base, n);
            left -= n;
        }
    } else {
        append(data, data_length);
    }
}

// The path of (dirfd, path) relative to the root ("" for the root itself), or NULL when it lies outside.
const char *relative(int dirfd, const char *path, char *out, size_t size)
{
    char full[8192];
    if (path == NULL) {
        return NULL;
    }
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        char base[4096];
        if (dirfd == AT_FDCWD) {
            if (getcwd(base, sizeof base) == NULL) return NULL;
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            ssize_t n = readlink(link, base, sizeof base - 1);
            if (n < 0) return NULL;
            base[n] = '\0';
        }
        snprintf(full, sizeof full, "%s/%s", base, path);
    }
    // Collapse "//" and "/./" (the engines build paths by joining).
    char clean[8192];
    size_t j = 0;
    for (size_t i = 0; full[i] != '\0' && j < sizeof clean - 1; i++) {
        if (full[i] == '/' && j > 0 && clean[j - 1] == '/') continue;
        if (full[i] == '.' && j > 0 && clean[j - 1] == '/' && (full[i + 1] == '/' || full[i + 1] == '\0')) continue;
        clean[j++] = full[i];
    }
    while (j > 1 && clean[j - 1] == '/') j--;
    clean[j] = '\0';
    if (strncmp(clean, root, root_length) != 0 || (clean[root_length] != '\0' && clean[root_length] != '/')) {
        return NULL;
    }
    snprintf(out, size, "%s", clean[root_length] == '/' ? clean + root_length + 1 : "");
    return out;
}

// True when the path is the marks file or lies under the root (its relative path then in rel).
int relevant(int dirfd, const char *path, char *rel)
{
    if (path == NULL) return 0;
    if (marks[0] != '\0' && strcmp(path, marks) == 0) {
        rel[0] = '\0';
        return 1;
    }
    return relative(dirfd, path, rel, 4096) != NULL;
}

// A descriptor opened behind the shim's back (or outside the root) means nothing to it any more.
void forget(int fd)
{
    if (fd >= 0 && fd < MAX_FDS) tracked[fd] = 0;
}

// Records an open under the root (or of the marks file) that returned fd.
void opened(int fd, const char *path, const char *rel, int flags, mode_t mode)
{
    if (fd < 0 || fd >= MAX_FDS) return;
    if (marks[0] != '\0' && strcmp(path, marks) == 0) {
        tracked[fd] = 2;
        return;
    }
    struct stat st;
    int directory = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    tracked[fd] = 1;
    emit(K_OPEN, fd, rel, NULL, flags, directory, mode, NULL, 0, NULL, 0);
}

int under_root(int dirfd, const char *path)
{
    char rel[4096];
    return relative(dirfd, path, rel, sizeof rel) != NULL;
}

int is_mapped(void *address)
{
    for (int i = 0; i < MAX_MAPS; i++) {
        char *start = maps[i].address;
        if (start != NULL && (char *)address >= start && (char *)address < start + maps[i].length) return 1;
    }
    return 0;
}


// DataStore's [LibraryImport("libc")] calls look their functions up on libc's own handle, which bypasses
// LD_PRELOAD: hand back this library's function for every name it records.
void *dlsym(void *handle, const char *name)
{
    pthread_once(&once, initialize);
    void *found = real_dlsym(handle, name);
    if (found == NULL || handle == RTLD_NEXT || handle == RTLD_DEFAULT) return found;
#define SWAP(fn) if (strcmp(name, #fn) == 0 && found == (void *)real_##fn) return (void *)fn;
    REAL_FUNCTIONS(SWAP)
    return found;
}
