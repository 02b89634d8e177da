/* YCSB A-F driven from C on SQLite, LMDB and RocksDB: what the engines themselves do on the workloads of
 * src/DataStore.Benchmarks/Ycsb, with the durability of DataStore's Relaxed level (docs/benchmarks/ycsb-native.md).
 * Build and run: scripts/ycsb-native.sh.   Usage: ycsb-native ENGINE DIR [-n RECORDS] [-s SECONDS] [-w SECONDS]
 * [-t THREADS,...] [-l WORKLOADS]. One line per case: engine, workload, threads, ops/s, the process's CPU time per
 * operation (us, every thread of the process: a measure that holds on a loaded machine), p50/p99 (us) per kind. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ycsb-native.h"

enum { MAX_SCAN = 100, KINDS = 5, BUCKETS = 16 + 60 * 16, MAX_THREADS = 64 };
enum { READ, UPDATE, INSERT, SCAN, RMW };
static const char *kind_names[KINDS] = {"read", "update", "insert", "scan", "rmw"};

/* The shares of YcsbWorkload.cs: read, update, insert, scan, read-modify-write; D reads the latest records. */
typedef struct { const char *name; double share[KINDS]; int latest; } workload;
static const workload workloads[] = {
    {"A", {0.50, 0.50, 0, 0, 0}, 0}, {"B", {0.95, 0.05, 0, 0, 0}, 0}, {"C", {1, 0, 0, 0, 0}, 0},
    {"D", {0.95, 0, 0.05, 0, 0}, 1}, {"E", {0, 0, 0.05, 0.95, 0}, 0}, {"F", {0.50, 0, 0, 0, 0.50}, 0}};

static const struct { const char *name; const engine *engine; int variant; } engines[] = {
    {"sqlite", &sqlite_engine, 0}, {"lmdb", &lmdb_engine, LMDB_RELAXED}, {"lmdb_nosync", &lmdb_engine, LMDB_ENV_NOSYNC},
    {"rocksdb", &rocksdb_engine, 1}, {"rocksdb_defaults", &rocksdb_engine, 0}};

void die(const char *what, const char *detail) { fprintf(stderr, "ycsb-native: %s: %s\n", what, detail); exit(1); }

static uint64_t clock_ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* ---- Keys, values, random numbers and the Zipfian generator (YcsbKeys.cs, ZipfianGenerator.cs) ---- */

static uint64_t fnv64(uint64_t value) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (int i = 0; i < 8; i++, value >>= 8) hash = (hash ^ (value & 0xFF)) * 0x100000001B3ull;
  return hash;
}

static void key_of(uint64_t record, uint8_t *key) {
  memcpy(key, "user", 4);
  uint64_t hash = fnv64(record);
  for (int i = 0; i < 8; i++) key[4 + i] = (uint8_t)(hash >> (56 - 8 * i));
}

static uint64_t next_random(uint64_t *state) { /* splitmix64 */
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double next_double(uint64_t *state) { return (double)(next_random(state) >> 11) * 0x1.0p-53; }

static uint8_t value_pool[1 << 16];
static const uint8_t *random_value(uint64_t *state) { return value_pool + next_random(state) % (sizeof value_pool - VALUE); }

static struct { long items; double zeta_n, alpha, eta, half; } zipf;
static double zeta(long n) { double sum = 0; for (long i = 1; i <= n; i++) sum += 1 / pow((double)i, 0.99); return sum; }
static void zipf_init(long items) {
  zipf.items = items;
  zipf.zeta_n = zeta(items);
  zipf.alpha = 1 / (1 - 0.99);
  zipf.eta = (1 - pow(2.0 / (double)items, 1 - 0.99)) / (1 - zeta(2) / zipf.zeta_n);
  zipf.half = 1 + pow(0.5, 0.99);
}
static long zipf_next(uint64_t *state) {
  double u = next_double(state), uz = u * zipf.zeta_n;
  if (uz < 1) return 0;
  if (uz < zipf.half) return 1;
  long item = (long)((double)zipf.items * pow(zipf.eta * u - zipf.eta + 1, zipf.alpha));
  return item < zipf.items - 1 ? item : zipf.items - 1;
}
static long zipf_scrambled(uint64_t *state) { return (long)(fnv64((uint64_t)zipf_next(state)) % (uint64_t)zipf.items); }

/* ---- Latency histograms as LatencyHistogram.cs: exact below 16 ns, then 16 buckets per power of two ---- */

typedef struct { uint64_t count[BUCKETS]; uint64_t total; } histogram;
static int bucket_of(uint64_t ns) {
  if (ns < 16) return (int)ns;
  int exponent = 63 - __builtin_clzll(ns);
  return 16 + (exponent - 4) * 16 + (int)((ns >> (exponent - 4)) & 15);
}
static double lower_ns(int b) { return b < 16 ? b : (double)(16 + (b & 15)) * (double)(1ull << ((b - 16) / 16)); }
static double percentile_us(const histogram *h, double p) { /* the bucket's middle, as the suite reports it */
  uint64_t rank = (uint64_t)ceil(p * (double)h->total), seen = 0;
  for (int b = 0; b < BUCKETS; b++)
    if (h->count[b] && (seen += h->count[b]) >= rank) return (lower_ns(b) + lower_ns(b + 1) - 1) / 2000;
  return 0;
}

/* ---- A case: a fresh store loaded, workers running the mix, the ticker syncing every second ---- */

static const engine *target;
static const workload *current;
static atomic_long inserted;
static atomic_int measuring, stopping;

typedef struct { pthread_t thread; uint64_t random; long operations; histogram latency[KINDS]; } worker;

static void *run_worker(void *arg) {
  worker *w = arg;
  void *t = target->thread_open();
  uint8_t key[KEY], buffer[MAX_SCAN * (KEY + VALUE)];
  while (!atomic_load_explicit(&stopping, memory_order_relaxed)) {
    double dice = next_double(&w->random);
    int kind = 0;
    while (kind < KINDS - 1 && (dice -= current->share[kind]) >= 0) kind++;
    long record = kind == INSERT ? atomic_fetch_add(&inserted, 1)
                : current->latest ? (long)fmax(0, (double)(atomic_load(&inserted) - 1 - zipf_next(&w->random)))
                : zipf_scrambled(&w->random);
    key_of((uint64_t)record, key);
    const uint8_t *value = kind == UPDATE || kind == INSERT ? random_value(&w->random) : NULL;
    int scan_length = kind == SCAN ? 1 + (int)(next_random(&w->random) % MAX_SCAN) : 0;
    uint64_t start = now_ns(); /* the calls into the engine only, as YcsbWorker times them */
    if (kind == READ) target->read(t, key, buffer);
    else if (kind == SCAN) target->scan(t, key, scan_length, buffer);
    else if (kind == RMW) {
      int length = target->read(t, key, buffer);
      if (length > 0) { buffer[0]++; target->write(t, key, buffer, length); }
    } else target->write(t, key, value, VALUE);
    uint64_t elapsed = now_ns() - start;
    if (atomic_load_explicit(&measuring, memory_order_relaxed)) {
      w->latency[kind].count[bucket_of(elapsed)]++;
      w->latency[kind].total++;
      w->operations++;
    }
  }
  target->thread_close(t);
  return NULL;
}

static void *run_ticker(void *arg) {
  (void)arg;
  for (int slept = 1; !atomic_load(&stopping); slept++) {
    usleep(100000);
    if (slept % 10 == 0) target->tick();
  }
  return NULL;
}

static void load(long records) { /* YcsbBenchmarks.Setup: records in order, 1,000 per transaction */
  static uint8_t keys[1000 * KEY], values[1000 * VALUE];
  uint64_t random = 5;
  void *t = target->thread_open();
  for (long first = 0; first < records; first += 1000) {
    int n = records - first < 1000 ? (int)(records - first) : 1000;
    for (int i = 0; i < n; i++) {
      key_of((uint64_t)(first + i), keys + i * KEY);
      memcpy(values + i * VALUE, random_value(&random), VALUE);
    }
    target->load(t, keys, values, n);
  }
  target->thread_close(t);
}

static void merge(histogram *into, const histogram *from) {
  into->total += from->total;
  for (int b = 0; b < BUCKETS; b++) into->count[b] += from->count[b];
}

static void run_case(int e, const char *dir, long records, const workload *wl, int threads, double warmup, double seconds) {
  char command[4200];
  snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
  if (system(command) != 0) die("cannot make", dir);
  target->open(dir, engines[e].variant);
  load(records);
  current = wl;
  atomic_store(&inserted, records);
  atomic_store(&stopping, 0);
  worker *workers = calloc((size_t)threads, sizeof(worker));
  pthread_t ticker;
  pthread_create(&ticker, NULL, run_ticker, NULL);
  for (int i = 0; i < threads; i++) {
    workers[i].random = 100 + (uint64_t)i;
    pthread_create(&workers[i].thread, NULL, run_worker, &workers[i]);
  }
  usleep((useconds_t)(warmup * 1e6));
  uint64_t start = now_ns(), cpu_start = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  atomic_store(&measuring, 1);
  usleep((useconds_t)(seconds * 1e6));
  atomic_store(&measuring, 0);
  double elapsed = (double)(now_ns() - start) / 1e9, cpu = (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_start) / 1e9;
  atomic_store(&stopping, 1);
  long operations = 0;
  histogram merged[KINDS] = {0};
  for (int i = 0; i < threads; i++) {
    pthread_join(workers[i].thread, NULL);
    operations += workers[i].operations;
    for (int k = 0; k < KINDS; k++) merge(&merged[k], &workers[i].latency[k]);
  }
  pthread_join(ticker, NULL);
  target->close();
  printf("%s\t%s\t%d\t%.0f\tcpu=%.2f", engines[e].name, wl->name, threads, (double)operations / elapsed, cpu * 1e6 / (double)operations);
  for (int k = 0; k < KINDS; k++)
    if (merged[k].total) printf("\t%s=%.2f/%.2f", kind_names[k], percentile_us(&merged[k], 0.50), percentile_us(&merged[k], 0.99));
  printf("\n");
  fflush(stdout);
  free(workers);
}

int main(int argc, char **argv) {
  if (argc < 3) die("usage", "ycsb-native ENGINE DIR [-n RECORDS] [-s SECONDS] [-w SECONDS] [-t 1,4] [-l ABCDEF]");
  long records = 100000;
  double seconds = 3, warmup = 1;
  const char *thread_list = "1,4", *workload_list = "ABCDEF";
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n")) records = atol(argv[i + 1]);
    else if (!strcmp(argv[i], "-s")) seconds = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "-w")) warmup = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "-t")) thread_list = argv[i + 1];
    else if (!strcmp(argv[i], "-l")) workload_list = argv[i + 1];
    else die("unknown option", argv[i]);
  }
  int e = 0, count = (int)(sizeof engines / sizeof engines[0]);
  while (e < count && strcmp(engines[e].name, argv[1])) e++;
  if (e == count) die("unknown engine (sqlite, lmdb, lmdb_nosync, rocksdb, rocksdb_defaults)", argv[1]);
  if (records < 2) die("records must be at least 2", argv[1]);
  target = engines[e].engine;
  uint64_t random = 17;
  for (size_t i = 0; i < sizeof value_pool; i++) value_pool[i] = (uint8_t)next_random(&random);
  zipf_init(records);
  printf("# %s, %ld records, %.1f s warm-up and %.1f s measured per case, p50/p99 in us\n", argv[1], records, warmup, seconds);
  for (const char *w = workload_list; *w; w++) {
    if (*w < 'A' || *w > 'F') die("unknown workload", w);
    for (const char *t = thread_list; *t; t += strspn(t, ",")) {
      int threads = atoi(t);
      if (threads < 1 || threads > MAX_THREADS) die("threads must be 1-64", t);
      run_case(e, argv[2], records, &workloads[*w - 'A'], threads, warmup, seconds);
      t += strcspn(t, ",");
    }
  }
  return 0;
}
