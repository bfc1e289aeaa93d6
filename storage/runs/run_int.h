/*
 * run_int.h — internals shared by the run module's files (format constants,
 * the parsed footer, checksums, key comparison and hashing). Not for use
 * outside storage/runs/.
 */
#ifndef STRATA_STORAGE_RUNS_RUN_INT_H
#define STRATA_STORAGE_RUNS_RUN_INT_H

#ifndef STRATA_RUNS_INTERNAL
#error "run_int.h is internal to storage/runs/"
#endif

#include <stddef.h>
#include <string.h>
#include "storage/runs/run.h"

/* ---- file format (see RUNS.md) ---- */
#define RUN_MAGIC "STRTARUN"          /* 8 bytes, at offset 0 and at the end */
#define RUN_FORMAT_VERSION 1u
#define RUN_HEADER_SIZE 16u           /* magic, u32 version, u32 crc32c of the first 12 bytes */
#define RUN_TRAILER_SIZE 24u          /* u64 footer offset, u32 footer block length, u32 version, magic */
#define RUN_BLOCK_HEAD 16u            /* u8 codec, u8 encoding, u8 flags, u8 0, u32 rows, u32 raw, u32 stored */
#define RUN_BLOCK_CRC 4u              /* crc32c of head + stored bytes, after them */
#define RUN_BLOCK_HAS_VALIDITY 1u

/* Encodings of a column chunk's values (after the optional validity bitmap). */
typedef enum RunEncoding {
    RUN_ENC_PLAIN = 0,  /* fixed: n values; str: u32 offsets[n+1] then bytes */
    RUN_ENC_FOR = 1,    /* ints: i64 base, u8 bits, n packed (v - base) */
    RUN_ENC_DELTA = 2,  /* ints: i64 first, i64 min delta, u8 bits, n-1 packed (d - min) */
    RUN_ENC_RLE = 3,    /* fixed: u32 runs, runs values, runs u32 lengths */
    RUN_ENC_DICT = 4,   /* str: u32 entries, u32 offsets[entries+1], bytes, u8 bits, n packed ids */
    RUN_ENC_RAW = 5,    /* metadata blocks (bloom filter, footer): opaque bytes */
} RunEncoding;

/* Group flags (footer). */
#define RUN_GROUP_DISTINCT 1u /* no key appears twice in the group */

/* Hidden columns after the table's columns. */
#define RUN_META_COLS 2 /* version (I64), deleted (BOOL) */

/* Location and zone map of one chunk, from the footer. */
typedef struct RunChunkMeta {
    uint64_t offset;
    uint32_t block_len;  /* head + stored + crc */
    uint32_t raw_len;    /* decompressed payload size */
    RunZone zone;
} RunChunkMeta;

typedef struct RunGroupMeta {
    uint64_t first_row;
    uint32_t rows;
    Value *first_key, *last_key;     /* nkeys values each */
    uint64_t bloom_offset;
    uint32_t bloom_len;               /* whole block */
    uint8_t flags;                    /* RUN_GROUP_* */
    RunChunkMeta *chunks;             /* ncols + RUN_META_COLS */
} RunGroupMeta;

struct RunReader {
    char *path;
    MemArena *arena;          /* the reader's lifetime */
    int fd;
    const uint8_t *map;
    size_t size;
    RunSchema schema;
    PhysType *phys;           /* per column */
    PhysType *key_phys;       /* per key column */
    RunInfo info;
    RunGroupMeta *groups;
    uint32_t max_raw_len;     /* largest chunk payload */
    uint32_t max_group_rows;
    _Atomic unsigned char *verified; /* per group: bloom block checksum verified */
};

/* ---- merge switches (merge.c), for benchmarks that measure what each
 * optimisation buys (bench/bench_overlap.c); 0 = everything on. Set it only
 * while no merge runs. ---- */
#define RUN_MERGE_OFF_RECENCY 1u /* order equal keys by version, decode versions */
#define RUN_MERGE_OFF_DIRECT 2u  /* stage + resolve instead of emitting stretches */
#define RUN_MERGE_OFF_SPLIT 4u   /* no pre-merge of the small sources */
#define RUN_MERGE_OFF_SPANS 8u   /* gather per entry instead of per span */
#define RUN_MERGE_OFF_PREWIN 16u /* pre-merge the small sources by head scans only */
#define RUN_MERGE_OFF_SHADOW 32u /* unordered scans merge by key instead of using shadow lists */
extern unsigned run__merge_off;
/* Which paths a merge took at create (tests assert the fast paths ran). */
#define RUN_MERGE_PLAN_RECENCY 1u
#define RUN_MERGE_PLAN_DIRECT 2u
#define RUN_MERGE_PLAN_SPLIT 4u
#define RUN_MERGE_PLAN_CONCAT 8u  /* sources read one after another */
#define RUN_MERGE_PLAN_SHADOW 16u /* unordered: sources in turn, shadowed rows dropped by lists */
unsigned run__merge_plan(const Merge *m);

/* ---- checksums: CRC32C from common/crc32c.c ---- */
#include "common/crc32c.h"   /* crc32c() */

/* ---- little-endian helpers ---- */
static inline void run__put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void run__put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static inline uint32_t run__get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t run__get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- keys (run_read.c) ---- */
/* Compare element i of array a with element j of array b (same phys):
 * PostgreSQL's order (floats: NaN above everything, -0 = 0; strings: bytes). */
int run__cmp_elem(PhysType p, const void *a, size_t i, const void *b, size_t j);
/* Compare element i of array a with a Value of the same phys. */
int run__cmp_elem_value(PhysType p, const void *a, size_t i, const Value *v);
int run__cmp_values(PhysType p, const Value *a, const Value *b);
/* Hash of one key element; the key hash combines its columns in order. */
uint64_t run__hash_elem(PhysType p, const void *a, size_t i);
uint64_t run__hash_value(PhysType p, const Value *v);
static inline uint64_t run__hash_combine(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}
/* Read element i of an array of phys into a Value (strings not copied). */
void run__elem_to_value(PhysType p, const void *a, size_t i, Value *out);

/* Block framing errors (XX001 naming the file). */
_Noreturn void run__corrupt(const char *path, const char *what);
/* Verify a block at map+off of block_len bytes; returns its payload bytes
 * (decompressed into buf of raw capacity when compressed). */
const uint8_t *run__block_payload(const RunReader *r, uint64_t off, uint32_t block_len,
                                  uint8_t *buf, uint32_t buf_cap, uint32_t *raw_len,
                                  uint8_t *encoding, uint8_t *flags, uint32_t *rows);

/* Decode column col of group g into caller buffers: values (max_group_rows
 * elements of the phys), validity (max_group_rows/64+1 words), raw (max_raw_len
 * bytes; strings point into it). */
void run__chunk_decode(RunReader *r, uint32_t g, int col, void *values, uint64_t *validity,
                       uint8_t *raw, RunChunk *out);
PhysType run__col_phys(const RunReader *r, int col);

#endif
