/* LMDB 1.0.1 (DataStore's own build, ADR 0016) in two settings:
 * - lmdb: what DataStore's Lmdb Relaxed does on Linux (ADR 0006, "Relaxed commits without a sync" and "The growth
 *   checkpoint in the background"), without the layer: MDB_NOMETASYNC environment, each commit MDB_NOSYNC, writers
 *   taking turns on a mutex, and a checkpoint that pins the newest transaction with a read transaction under the
 *   mutex, then outside it fsyncs the data file and writes and fsyncs a 512-byte record in a side file, then lets the
 *   previous pin go. It runs every second and, in the background, once the commits since the last record wrote a
 *   quarter of the tree's pages (at least 128; a commit counts the tree's depth + 2 and a leaf per further pair, as
 *   DataStore estimates it); a writer waits at three quarters.
 * - lmdb_nosync: MDB_NOSYNC on the environment and nothing synced ever: raw LMDB's ceiling (LmdbPeer's setting).
 * Both: a 4 GiB map, MDB_NOTLS, a read transaction per thread reset and renewed per read or scan. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ycsb-native.h"

typedef struct { MDB_txn *read; MDB_cursor *cursor; } context;

static MDB_env *env;
static MDB_dbi dbi;
static int relaxed, side_fd, closing, in_flight;
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wanted = PTHREAD_COND_INITIALIZER, landed = PTHREAD_COND_INITIALIZER;
static pthread_t checkpointer;
static MDB_txn *pin, *next_pin;        /* the recorded pin; the one a checkpoint in flight will record */
static long written, written_at_pin, share, depth, leaves, records_made;

static void check(int rc, const char *what) { if (rc) die(what, mdb_strerror(rc)); }

/* Holding the writer mutex: pin the newest transaction and size the next share from the tree; the sync follows. */
static void start_checkpoint(void) {
  MDB_stat stat;
  check(mdb_txn_begin(env, NULL, MDB_RDONLY, &next_pin), "pinning");
  check(mdb_stat(next_pin, dbi, &stat), "reading the tree's shape");
  long live = (long)(stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages);
  share = live / 4 > 128 ? live / 4 : 128;
  depth = stat.ms_depth;
  leaves = (long)stat.ms_leaf_pages;
  written_at_pin = written;
  in_flight = 1;
  pthread_cond_signal(&wanted);
}

static void *run_checkpointer(void *arg) {
  (void)arg;
  char record[512] = {0};
  pthread_mutex_lock(&writer);
  for (;;) {
    while (!in_flight && !closing) pthread_cond_wait(&wanted, &writer);
    if (!in_flight) break;
    pthread_mutex_unlock(&writer);
    int fd;
    check(mdb_env_get_fd(env, &fd), "getting the data file");
    if (fsync(fd) || pwrite(side_fd, record, sizeof record, (records_made++ % 2) * 512) != 512 || fsync(side_fd))
      die("checkpoint", "sync failed");
    pthread_mutex_lock(&writer);
    if (pin) mdb_txn_abort(pin);
    pin = next_pin;
    written -= written_at_pin;
    in_flight = 0;
    pthread_cond_broadcast(&landed);
  }
  pthread_mutex_unlock(&writer);
  return NULL;
}

static void open_store(const char *dir, int variant) {
  MDB_txn *txn;
  relaxed = variant == LMDB_RELAXED;
  check(mdb_env_create(&env), "creating the environment");
  check(mdb_env_set_mapsize(env, (size_t)4 << 30), "sizing the map");
  check(mdb_env_open(env, dir, MDB_NOTLS | (relaxed ? MDB_NOMETASYNC : MDB_NOSYNC), 0644), dir);
  check(mdb_txn_begin(env, NULL, 0, &txn), "beginning");
  check(mdb_dbi_open(txn, NULL, 0, &dbi), "opening the database");
  check(mdb_txn_commit(txn), "committing");
  if (!relaxed) return;
  char path[4200];
  snprintf(path, sizeof path, "%s/lmdb-synced.state", dir);
  if ((side_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) die("opening", path);
  closing = written = records_made = 0;
  pin = NULL;
  pthread_create(&checkpointer, NULL, run_checkpointer, NULL);
  pthread_mutex_lock(&writer); /* a process records before its first write */
  start_checkpoint();
  while (in_flight) pthread_cond_wait(&landed, &writer);
  pthread_mutex_unlock(&writer);
}

static void *thread_open(void) {
  context *c = calloc(1, sizeof *c);
  check(mdb_txn_begin(env, NULL, MDB_RDONLY, &c->read), "beginning a read");
  check(mdb_cursor_open(c->read, dbi, &c->cursor), "opening a cursor");
  mdb_txn_reset(c->read);
  return c;
}

static void thread_close(void *t) {
  context *c = t;
  mdb_cursor_close(c->cursor);
  mdb_txn_abort(c->read);
  free(c);
}

static void write_pairs(const uint8_t *keys, const uint8_t *values, int length, int n) {
  MDB_txn *txn;
  pthread_mutex_lock(&writer);
  check(mdb_txn_begin(env, NULL, relaxed ? MDB_NOSYNC : 0, &txn), "beginning a write");
  for (int i = 0; i < n; i++) {
    MDB_val key = {KEY, (void *)(keys + i * KEY)}, value = {(size_t)length, (void *)(values + i * length)};
    check(mdb_put(txn, dbi, &key, &value, 0), "putting");
  }
  check(mdb_txn_commit(txn), "committing");
  if (relaxed) {
    written += depth + 2 + (n - 1 < leaves ? n - 1 : leaves); /* the path, free-page tree and meta, a leaf per more pair */
    if (written >= share && !in_flight) start_checkpoint();
    while (written >= 3 * share && in_flight) pthread_cond_wait(&landed, &writer);
  }
  pthread_mutex_unlock(&writer);
}

static void load(void *t, const uint8_t *keys, const uint8_t *values, int n) { (void)t; write_pairs(keys, values, VALUE, n); }
static void write_one(void *t, const uint8_t *key, const uint8_t *value, int length) { (void)t; write_pairs(key, value, length, 1); }

static int read_one(void *t, const uint8_t *key, uint8_t *buffer) {
  context *c = t;
  MDB_val k = {KEY, (void *)key}, value;
  check(mdb_txn_renew(c->read), "renewing a read");
  int rc = mdb_get(c->read, dbi, &k, &value), length = -1;
  if (rc == 0) memcpy(buffer, value.mv_data, length = (int)value.mv_size);
  else if (rc != MDB_NOTFOUND) check(rc, "reading");
  mdb_txn_reset(c->read);
  return length;
}

static int scan(void *t, const uint8_t *start, int count, uint8_t *buffer) {
  context *c = t;
  MDB_val key = {KEY, (void *)start}, value;
  check(mdb_txn_renew(c->read), "renewing a read");
  check(mdb_cursor_renew(c->read, c->cursor), "renewing a cursor");
  int pairs = 0, rc = mdb_cursor_get(c->cursor, &key, &value, MDB_SET_RANGE);
  for (; rc == 0 && pairs < count; pairs++, rc = mdb_cursor_get(c->cursor, &key, &value, MDB_NEXT)) {
    memcpy(buffer, key.mv_data, key.mv_size);
    memcpy(buffer + key.mv_size, value.mv_data, value.mv_size);
  }
  if (rc != 0 && rc != MDB_NOTFOUND) check(rc, "scanning");
  mdb_txn_reset(c->read);
  return pairs;
}

static void tick(void) {
  pthread_mutex_lock(&writer);
  if (relaxed && !in_flight) start_checkpoint();
  pthread_mutex_unlock(&writer);
}

static void close_store(void) {
  if (relaxed) {
    pthread_mutex_lock(&writer);
    while (in_flight) pthread_cond_wait(&landed, &writer);
    closing = 1;
    pthread_cond_signal(&wanted);
    pthread_mutex_unlock(&writer);
    pthread_join(checkpointer, NULL);
    if (pin) mdb_txn_abort(pin);
    close(side_fd);
  }
  mdb_env_close(env);
}

const engine lmdb_engine = {open_store, thread_open, load, read_one, write_one, scan, tick, thread_close, close_store};
