/* RocksDB as shipped in the RocksDB NuGet package, writes with the WAL on and sync=false, the WAL synced every second
 * (rocksdb_flush_wal), as DataStore's RocksDb Relaxed does. Two settings:
 * - rocksdb: DataStore's desktop tuning (src/DataStore/RocksDb/RocksDbTuning.cs, ADR 0005): an LRU block cache of
 *   1/256 of memory between 32 and 128 MiB, 16 MiB memtables, 10-bit bloom filters, index and filter blocks in the
 *   cache (level 0's pinned), a hash index per data block, a memtable filter, level 0 uncompressed and LZ4 below,
 *   pipelined writes, WAL recovery tolerating a corrupted tail only.
 * - rocksdb_defaults: RocksDB's defaults plus create-if-missing (RocksDbPeer's setting).
 * Reads with rocksdb_get_pinned, an iterator per scan. */
#define _GNU_SOURCE
#include <rocksdb/c.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ycsb-native.h"

static rocksdb_t *db;
static rocksdb_options_t *options;
static rocksdb_block_based_table_options_t *table;
static rocksdb_cache_t *cache;
static rocksdb_writeoptions_t *write_options;
static rocksdb_readoptions_t *read_options;

static void check(char *error, const char *what) { if (error) die(what, error); }

static void tune(void) {
  long memory = sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / 256;
  long cache_bytes = memory < (32L << 20) ? 32L << 20 : memory > (128L << 20) ? 128L << 20 : memory;
  int levels[7] = {rocksdb_no_compression, rocksdb_lz4_compression, rocksdb_lz4_compression, rocksdb_lz4_compression,
                   rocksdb_lz4_compression, rocksdb_lz4_compression, rocksdb_lz4_compression};
  cache = rocksdb_cache_create_lru((size_t)cache_bytes);
  table = rocksdb_block_based_options_create();
  rocksdb_block_based_options_set_block_cache(table, cache);
  rocksdb_block_based_options_set_filter_policy(table, rocksdb_filterpolicy_create_bloom(10));
  rocksdb_block_based_options_set_cache_index_and_filter_blocks(table, 1);
  rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(table, 1);
  rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(table, 1);
  rocksdb_block_based_options_set_data_block_index_type(table, rocksdb_block_based_table_data_block_index_type_binary_search_and_hash);
  rocksdb_block_based_options_set_data_block_hash_ratio(table, 0.75);
  rocksdb_options_set_block_based_table_factory(options, table);
  rocksdb_options_set_write_buffer_size(options, 16 << 20);
  rocksdb_options_set_compression(options, rocksdb_lz4_compression);
  rocksdb_options_set_compression_per_level(options, levels, 7);
  rocksdb_options_set_enable_pipelined_write(options, 1);
  rocksdb_options_set_memtable_whole_key_filtering(options, 1);
  rocksdb_options_set_memtable_prefix_bloom_size_ratio(options, 0.02);
  rocksdb_options_set_wal_recovery_mode(options, rocksdb_tolerate_corrupted_tail_records_recovery);
}

static void open_store(const char *dir, int tuned) {
  char *error = NULL;
  options = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(options, 1);
  if (tuned) tune();
  db = rocksdb_open(options, dir, &error);
  check(error, dir);
  write_options = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(write_options, 0);
  read_options = rocksdb_readoptions_create();
}

static void close_store(void) {
  rocksdb_close(db);
  rocksdb_writeoptions_destroy(write_options);
  rocksdb_readoptions_destroy(read_options);
  rocksdb_options_destroy(options);
  if (table) rocksdb_block_based_options_destroy(table);
  if (cache) rocksdb_cache_destroy(cache);
  table = NULL;
  cache = NULL;
}

static void *thread_open(void) { return NULL; }
static void thread_close(void *t) { (void)t; }

static void load(void *t, const uint8_t *keys, const uint8_t *values, int n) {
  (void)t;
  char *error = NULL;
  rocksdb_writebatch_t *batch = rocksdb_writebatch_create();
  for (int i = 0; i < n; i++) rocksdb_writebatch_put(batch, (const char *)keys + i * KEY, KEY, (const char *)values + i * VALUE, VALUE);
  rocksdb_write(db, write_options, batch, &error);
  check(error, "writing a batch");
  rocksdb_writebatch_destroy(batch);
}

static void write_one(void *t, const uint8_t *key, const uint8_t *value, int length) {
  (void)t;
  char *error = NULL;
  rocksdb_put(db, write_options, (const char *)key, KEY, (const char *)value, (size_t)length, &error);
  check(error, "putting");
}

static int read_one(void *t, const uint8_t *key, uint8_t *buffer) {
  (void)t;
  char *error = NULL;
  rocksdb_pinnableslice_t *slice = rocksdb_get_pinned(db, read_options, (const char *)key, KEY, &error);
  check(error, "reading");
  if (!slice) return -1;
  size_t length;
  const char *value = rocksdb_pinnableslice_value(slice, &length);
  memcpy(buffer, value, length);
  rocksdb_pinnableslice_destroy(slice);
  return (int)length;
}

static int scan(void *t, const uint8_t *start, int count, uint8_t *buffer) {
  (void)t;
  char *error = NULL;
  rocksdb_iterator_t *iterator = rocksdb_create_iterator(db, read_options);
  int pairs = 0;
  for (rocksdb_iter_seek(iterator, (const char *)start, KEY); pairs < count && rocksdb_iter_valid(iterator); pairs++, rocksdb_iter_next(iterator)) {
    size_t key_length, value_length;
    const char *key = rocksdb_iter_key(iterator, &key_length), *value = rocksdb_iter_value(iterator, &value_length);
    memcpy(buffer, key, key_length);
    memcpy(buffer + key_length, value, value_length);
  }
  rocksdb_iter_get_error(iterator, &error);
  check(error, "scanning");
  rocksdb_iter_destroy(iterator);
  return pairs;
}

static void tick(void) {
  char *error = NULL;
  rocksdb_flush_wal(db, 1, &error);
  check(error, "syncing the WAL");
}

const engine rocksdb_engine = {open_store, thread_open, load, read_one, write_one, scan, tick, thread_close, close_store};
