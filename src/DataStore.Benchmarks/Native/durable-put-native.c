/* The native ruler for DurablePutBenchmarks (docs/benchmarks/durable-put-native.md): T threads (1, 8, 32) of durable
 * single puts, the benchmark's shape (9-byte keys: 0x01 + an 8-byte big-endian id; 128-byte values), on the natives
 * the packages ship, each put returning only once it is synced. Modes:
 * - sqlite_each: WAL, synchronous=FULL, a connection per thread; each put its own transaction (one WAL sync), writers
 *   taking turns on a mutex (without it they meet SQLite's sleeping busy handler).
 * - sqlite_group, lmdb_group: a leader/follower group commit: a writer that finds no leader leads, takes every queued
 *   put, runs them in one transaction and one commit (one sync), then wakes each follower it ran, once, and the
 *   next queued writer to lead.
 * - lmdb_each: each put its own write transaction, LMDB's default synced commit (MDB_NOTLS, a 4 GiB map).
 * - rocksdb: each put rocksdb_put with sync = true, RocksDB's own write group (pipelined writes, 16 MiB memtables).
 * Per thread count: puts/s, and CPU time (getrusage, the whole process) and context switches per put; medians over
 * rounds, the thread counts alternating within a round. */
#define _GNU_SOURCE
#include <lmdb.h>
#include <pthread.h>
#include <rocksdb/c.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

enum { KEY = 9, VALUE = 128, MAX_THREADS = 64, MAX_ROUNDS = 15 };

typedef struct put { uint8_t key[KEY]; const uint8_t *value; struct put *next; int done; pthread_cond_t woken; } put;
typedef struct { sqlite3 *db; sqlite3_stmt *put, *begin, *commit; } connection;

static const char *mode;
static char path[4096];
static uint8_t values[1 << 16];
static int per_thread;
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static put *head, *tail;                  /* queued puts, guarded by gate */
static int leading;
static connection *leader_connection;     /* sqlite_group: the leading writer's connection */
static MDB_env *env;
static MDB_dbi dbi;
static rocksdb_t *rocks;
static rocksdb_writeoptions_t *synced;

static void die(const char *what, const char *detail) { fprintf(stderr, "%s: %s\n", what, detail); exit(1); }
static void sqlite_check(sqlite3 *db, int rc, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE) die(what, sqlite3_errmsg(db));
}
static void lmdb_check(int rc, const char *what) { if (rc) die(what, mdb_strerror(rc)); }

static void run(sqlite3_stmt *statement) {
  sqlite_check(sqlite3_db_handle(statement), sqlite3_step(statement), sqlite3_sql(statement));
  sqlite3_reset(statement);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *statement;
  sqlite_check(db, sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
  return statement;
}

static connection *sqlite_connect(void) {
  connection *c = calloc(1, sizeof *c);
  sqlite_check(c->db, sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), path);
  sqlite3_busy_timeout(c->db, 10000);
  sqlite_check(c->db, sqlite3_exec(c->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-8192;"
               "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID", NULL, NULL, NULL), "configuring");
  c->put = prepare(c->db, "INSERT OR REPLACE INTO kv(k, v) VALUES(?, ?)");
  c->begin = prepare(c->db, "BEGIN IMMEDIATE");
  c->commit = prepare(c->db, "COMMIT");
  return c;
}

static void sqlite_put(connection *c, const uint8_t *key, const uint8_t *value) {
  sqlite3_bind_blob(c->put, 1, key, KEY, SQLITE_STATIC);
  sqlite3_bind_blob(c->put, 2, value, VALUE, SQLITE_STATIC);
  run(c->put);
}

static void lmdb_put(MDB_txn *txn, const uint8_t *key, const uint8_t *value) {
  MDB_val k = {KEY, (void *)key}, v = {VALUE, (void *)value};
  lmdb_check(mdb_put(txn, dbi, &k, &v, 0), "putting");
}

/* One transaction, one commit (one sync) for every put from first on. */
static void commit_group(put *first) {
  if (mode[0] == 's') {
    run(leader_connection->begin);
    for (put *p = first; p; p = p->next) sqlite_put(leader_connection, p->key, p->value);
    run(leader_connection->commit);
  } else {
    MDB_txn *txn;
    lmdb_check(mdb_txn_begin(env, NULL, 0, &txn), "beginning");
    for (put *p = first; p; p = p->next) lmdb_put(txn, p->key, p->value);
    lmdb_check(mdb_txn_commit(txn), "committing");
  }
}

/* Leader/follower: queue the put; lead if no one does, else sleep until a leader ran it (or hands over the lead). */
static void group_put(put *mine) {
  pthread_mutex_lock(&gate);
  mine->done = 0;
  mine->next = NULL;
  if (tail) tail->next = mine; else head = mine;
  tail = mine;
  while (!mine->done) {
    if (leading) { pthread_cond_wait(&mine->woken, &gate); continue; }
    leading = 1;
    put *group = head;
    head = tail = NULL;
    pthread_mutex_unlock(&gate);
    commit_group(group);
    pthread_mutex_lock(&gate);
    for (put *p = group, *next; p; p = next) {
      next = p->next;
      p->done = 1;
      if (p != mine) pthread_cond_signal(&p->woken);
    }
    leading = 0;
    if (head) pthread_cond_signal(&head->woken);  /* the next leader */
  }
  pthread_mutex_unlock(&gate);
}

static void *writer(void *arg) {
  long t = (long)arg;
  put mine;
  pthread_cond_init(&mine.woken, NULL);
  connection *c = strcmp(mode, "sqlite_each") == 0 ? sqlite_connect() : NULL;
  for (int i = 0; i < per_thread; i++) {
    long id = t * per_thread + i;
    for (int b = 0; b < 8; b++) mine.key[1 + b] = (uint8_t)(id >> (56 - 8 * b));
    mine.key[0] = 1;
    mine.value = values + (id * 131) % (sizeof values - VALUE);
    if (c) {
      pthread_mutex_lock(&gate);
      sqlite_put(c, mine.key, mine.value);
      pthread_mutex_unlock(&gate);
    } else if (strcmp(mode, "lmdb_each") == 0) {
      MDB_txn *txn;
      lmdb_check(mdb_txn_begin(env, NULL, 0, &txn), "beginning");
      lmdb_put(txn, mine.key, mine.value);
      lmdb_check(mdb_txn_commit(txn), "committing");
    } else if (strcmp(mode, "rocksdb") == 0) {
      char *error = NULL;
      rocksdb_put(rocks, synced, (const char *)mine.key, KEY, (const char *)mine.value, VALUE, &error);
      if (error) die("putting", error);
    } else {
      group_put(&mine);
    }
  }
  if (c) {
    sqlite3_finalize(c->put); sqlite3_finalize(c->begin); sqlite3_finalize(c->commit);
    sqlite3_close(c->db);
    free(c);
  }
  pthread_cond_destroy(&mine.woken);
  return NULL;
}

static void open_store(const char *dir) {
  mkdir(dir, 0755);
  if (mode[0] == 's') {
    snprintf(path, sizeof path, "%s/store.db", dir);
    leader_connection = sqlite_connect();
  } else if (mode[0] == 'l') {
    MDB_txn *txn;
    lmdb_check(mdb_env_create(&env), "creating the environment");
    lmdb_check(mdb_env_set_mapsize(env, (size_t)4 << 30), "sizing the map");
    lmdb_check(mdb_env_open(env, dir, MDB_NOTLS, 0644), dir);
    lmdb_check(mdb_txn_begin(env, NULL, 0, &txn), "beginning");
    lmdb_check(mdb_dbi_open(txn, NULL, 0, &dbi), "opening the table");
    lmdb_check(mdb_txn_commit(txn), "committing");
  } else {
    char *error = NULL;
    rocksdb_options_t *options = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(options, 1);
    rocksdb_options_set_enable_pipelined_write(options, 1);
    rocksdb_options_set_write_buffer_size(options, 16 << 20);
    rocks = rocksdb_open(options, dir, &error);
    if (error) die(dir, error);
    synced = rocksdb_writeoptions_create();
    rocksdb_writeoptions_set_sync(synced, 1);
  }
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + now.tv_nsec / 1e9;
}
static double cpu(const struct rusage *u) {
  return u->ru_utime.tv_sec + u->ru_utime.tv_usec / 1e6 + u->ru_stime.tv_sec + u->ru_stime.tv_usec / 1e6;
}
static int by_value(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double median(double *v, int n) { qsort(v, (size_t)n, sizeof *v, by_value); return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; }

int main(int argc, char **argv) {
  if (argc < 3) die("usage", "durable-put-native MODE DIR [puts per run = 4096] [rounds = 3] [threads = 1,8,32]");
  mode = argv[1];
  int puts = argc > 3 ? atoi(argv[3]) : 4096, rounds = argc > 4 ? atoi(argv[4]) : 3, counts[8], n_counts = 0;
  char list[64];
  snprintf(list, sizeof list, "%s", argc > 5 ? argv[5] : "1,8,32");
  for (char *s = strtok(list, ","); s && n_counts < 8; s = strtok(NULL, ",")) counts[n_counts++] = atoi(s);
  if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
  for (size_t i = 0; i < sizeof values; i++) values[i] = (uint8_t)(rand() >> 7);
  open_store(argv[2]);
  double rate[8][MAX_ROUNDS], cpu_us[8][MAX_ROUNDS], switches[8][MAX_ROUNDS];
  printf("mode\tthreads\tround\tputs\tputs/s\tcpu_us/put\tcsw/put\n");
  for (int r = 0; r < rounds; r++) {
    for (int c = 0; c < n_counts; c++) {
      int threads = counts[c] < MAX_THREADS ? counts[c] : MAX_THREADS;
      pthread_t ids[MAX_THREADS];
      struct rusage u0, u1;
      per_thread = puts / threads;
      getrusage(RUSAGE_SELF, &u0);
      double t0 = seconds();
      for (long t = 0; t < threads; t++) pthread_create(&ids[t], NULL, writer, (void *)t);
      for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
      double elapsed = seconds() - t0;
      getrusage(RUSAGE_SELF, &u1);
      double total = (double)per_thread * threads;
      rate[c][r] = total / elapsed;
      cpu_us[c][r] = (cpu(&u1) - cpu(&u0)) * 1e6 / total;
      switches[c][r] = (double)(u1.ru_nvcsw - u0.ru_nvcsw + u1.ru_nivcsw - u0.ru_nivcsw) / total;
      printf("%s\t%d\t%d\t%.0f\t%.0f\t%.1f\t%.2f\n", mode, threads, r + 1, total, rate[c][r], cpu_us[c][r], switches[c][r]);
      fflush(stdout);
    }
  }
  double one = 0;
  for (int c = 0; c < n_counts; c++) {
    double m = median(rate[c], rounds);
    if (counts[c] == 1) one = m;
    printf("# median %s %d threads: %.0f puts/s, %.1f us CPU/put, %.2f switches/put%s", mode, counts[c], m,
           median(cpu_us[c], rounds), median(switches[c], rounds), one > 0 && counts[c] > 1 ? "" : "\n");
    if (one > 0 && counts[c] > 1) printf(", %.1fx one thread\n", m / one);
  }
  if (rocks) rocksdb_close(rocks);
  if (env) mdb_env_close(env);
  if (leader_connection) sqlite3_close_v2(leader_connection->db);
  return 0;
}
