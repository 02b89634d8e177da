/* What the YCSB driver (ycsb-native.c) asks of an engine (ycsb-native-sqlite.c, -lmdb.c, -rocksdb.c). */
#pragma once
#include <stdint.h>

enum { KEY = 12, VALUE = 100 };                       /* YcsbKeys.cs: "user" + 8-byte FNV-1a hash, 100-byte values */
enum { LMDB_RELAXED = 1, LMDB_ENV_NOSYNC = 2 };       /* lmdb variants */

/* One store shared by the threads, a context per thread; every call dies with a message on an engine error. */
typedef struct {
  void (*open)(const char *dir, int variant);
  void *(*thread_open)(void);
  void (*load)(void *t, const uint8_t *keys, const uint8_t *values, int n); /* one transaction or batch */
  int (*read)(void *t, const uint8_t *key, uint8_t *buffer);                 /* value length, -1 if missing */
  void (*write)(void *t, const uint8_t *key, const uint8_t *value, int length);
  int (*scan)(void *t, const uint8_t *start, int count, uint8_t *buffer);  /* pairs copied out */
  void (*tick)(void); /* every second: the background sync DataStore's Relaxed stores run */
  void (*thread_close)(void *t);
  void (*close)(void);
} engine;

extern const engine sqlite_engine, lmdb_engine, rocksdb_engine;
void die(const char *what, const char *detail);
