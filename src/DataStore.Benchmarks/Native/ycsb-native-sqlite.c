/* SQLite as DataStore's Sqlite backend sets it up, without the layer: a WITHOUT ROWID table, WAL with
 * synchronous=NORMAL (each commit reaches the OS, the WAL is synced at checkpoints), an 8 MiB page cache, a connection
 * per thread with its statements prepared once, writers taking turns on a mutex (DataStore queues its writers in
 * the process; without it the connections meet SQLite's sleeping busy handler), and an fdatasync of the WAL every
 * second, as the backend's Relaxed level does. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ycsb-native.h"

typedef struct { sqlite3 *db; sqlite3_stmt *get, *put, *scan, *begin, *commit; } connection;

static char path[4096];
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

static void check(sqlite3 *db, int rc, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) die(what, sqlite3_errmsg(db));
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *statement;
  check(db, sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
  return statement;
}

static void run(sqlite3_stmt *statement) {
  int rc = sqlite3_step(statement);
  check(sqlite3_db_handle(statement), rc, sqlite3_sql(statement));
  sqlite3_reset(statement);
}

static void *thread_open(void) {
  connection *c = calloc(1, sizeof *c);
  int rc = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  check(c->db, rc, path);
  sqlite3_busy_timeout(c->db, 10000);
  check(c->db, sqlite3_exec(c->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-8192;"
                                   "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID",
                            NULL, NULL, NULL), "configuring");
  c->get = prepare(c->db, "SELECT v FROM kv WHERE k = ?");
  c->put = prepare(c->db, "INSERT OR REPLACE INTO kv(k, v) VALUES(?, ?)");
  c->scan = prepare(c->db, "SELECT k, v FROM kv WHERE k >= ? ORDER BY k LIMIT ?");
  c->begin = prepare(c->db, "BEGIN IMMEDIATE");
  c->commit = prepare(c->db, "COMMIT");
  return c;
}

static void thread_close(void *t) {
  connection *c = t;
  sqlite3_stmt *statements[] = {c->get, c->put, c->scan, c->begin, c->commit};
  for (int i = 0; i < 5; i++) sqlite3_finalize(statements[i]);
  check(c->db, sqlite3_close(c->db), "closing");
  free(c);
}

static void open_store(const char *dir, int variant) {
  (void)variant;
  snprintf(path, sizeof path, "%s/store.db", dir);
}

static void put(connection *c, const uint8_t *key, const uint8_t *value, int length) {
  sqlite3_bind_blob(c->put, 1, key, KEY, SQLITE_STATIC);
  sqlite3_bind_blob(c->put, 2, value, length, SQLITE_STATIC);
  run(c->put);
}

static void load(void *t, const uint8_t *keys, const uint8_t *values, int n) {
  connection *c = t;
  pthread_mutex_lock(&writer);
  run(c->begin);
  for (int i = 0; i < n; i++) put(c, keys + i * KEY, values + i * VALUE, VALUE);
  run(c->commit);
  pthread_mutex_unlock(&writer);
}

static void write_one(void *t, const uint8_t *key, const uint8_t *value, int length) {
  pthread_mutex_lock(&writer);
  put(t, key, value, length);
  pthread_mutex_unlock(&writer);
}

static int read_one(void *t, const uint8_t *key, uint8_t *buffer) {
  connection *c = t;
  sqlite3_bind_blob(c->get, 1, key, KEY, SQLITE_STATIC);
  int rc = sqlite3_step(c->get), length = -1;
  check(c->db, rc, "reading");
  if (rc == SQLITE_ROW) {
    length = sqlite3_column_bytes(c->get, 0);
    memcpy(buffer, sqlite3_column_blob(c->get, 0), (size_t)length);
  }
  sqlite3_reset(c->get);
  return length;
}

static int scan(void *t, const uint8_t *start, int count, uint8_t *buffer) {
  connection *c = t;
  sqlite3_bind_blob(c->scan, 1, start, KEY, SQLITE_STATIC);
  sqlite3_bind_int(c->scan, 2, count);
  int pairs = 0, rc;
  for (; (rc = sqlite3_step(c->scan)) == SQLITE_ROW; pairs++) {
    int key_length = sqlite3_column_bytes(c->scan, 0), value_length = sqlite3_column_bytes(c->scan, 1);
    memcpy(buffer, sqlite3_column_blob(c->scan, 0), (size_t)key_length);
    memcpy(buffer + key_length, sqlite3_column_blob(c->scan, 1), (size_t)value_length);
  }
  check(c->db, rc, "scanning");
  sqlite3_reset(c->scan);
  return pairs;
}

static void tick(void) {
  char wal[4200];
  snprintf(wal, sizeof wal, "%s-wal", path);
  int fd = open(wal, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) { fdatasync(fd); close(fd); }
}

static void close_store(void) {}

const engine sqlite_engine = {open_store, thread_open, load, read_one, write_one, scan, tick, thread_close, close_store};
