/*
 * grouptab.c — a hash set of key tuples: the group table of hash
 * aggregation, DISTINCT and the per-group sets of count(DISTINCT x).
 *
 * Layout: groups are numbered densely in creation order; their keys live in
 * growable column stores (one per key column) and their hashes in ghash.
 * The index is open addressing with linear probing over `slots`, kept at
 * most half full and doubled before a batch could push it past that, so a
 * batch never rehashes midway. A slot holds the group + 1 (0 = empty) in its
 * low half and the upper 32 bits of the key's hash in its high half, so a
 * probe rejects other keys without touching the group's hash or keys.
 *
 * Lookup is vectorised per batch (DuckDB's approach): hash every row column
 * by column; then rounds of (probe the slot of every pending row → empty:
 * create the group; hash equal: candidate) followed by a column-at-a-time
 * key comparison of all candidates; mismatches move to the next slot and
 * go round again. The type dispatch happens once per column per round,
 * never per row.
 *
 * Memory latency: with millions of groups every probe misses the caches
 * (slot, then the group's key). Each step therefore runs over the whole
 * batch and prefetches what the next step reads: all slots after hashing,
 * the candidate groups' first key while probing; the misses of a batch
 * overlap instead of following one another (Q15-like GROUP BY of 2M int8
 * keys: see executor/README.md "Optimisations (issue 7)").
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"

uint32_t exec__presize(double est, int width)
{
    uint32_t cap = 1024;
    uint64_t w = width > 0 ? (uint64_t)width : 1;
    while (!isnan(est) && cap < EXEC_PRESIZE_MAX && (double)cap < est && 2 * cap * w <= EXEC_PRESIZE_CELLS)
        cap *= 2;
    return cap;
}

void exec__gt_init(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types)
{
    exec__gt_init_sized(gt, arena, nkeys, types, 0);
}

void exec__gt_init_sized(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types,
                         double est_groups)
{
    ERR_ASSERT(nkeys > 0);
    uint32_t cap = exec__presize(est_groups, nkeys + 1);   /* + the hash; slots: 4x, at most half full */
    memset(gt, 0, sizeof *gt);
    gt->arena = arena;
    gt->nkeys = nkeys;
    gt->keys = MEM_NEW_ARRAY(arena, ExecColumn, nkeys);
    for (int k = 0; k < nkeys; k++)
        exec__col_init(&gt->keys[k], types[k], arena, cap);
    gt->ghash = mem_alloc(arena, cap * sizeof(uint64_t));
    gt->nslots = 4 * cap;
    gt->slots = mem_calloc(arena, gt->nslots, sizeof(uint64_t));
    gt->hash = mem_alloc(arena, VEC_CAPACITY * sizeof(uint64_t));
    gt->slot = mem_alloc(arena, VEC_CAPACITY * sizeof(uint32_t));
    gt->todo = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->todo2 = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_rows = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_i = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->cmp_g = mem_alloc(arena, VEC_CAPACITY * sizeof(uint32_t));
    gt->eq = mem_alloc(arena, VEC_CAPACITY);
    gt->newpos = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->newrows = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
    gt->same = mem_alloc(arena, VEC_CAPACITY);
    gt->hash_tmp = mem_alloc(arena, VEC_CAPACITY * sizeof(uint64_t));
    gt->pos = mem_alloc(arena, VEC_CAPACITY * sizeof(uint16_t));
}

#define GT_PREFETCH_AHEAD 16

/* A slot's content for group g of hash h. */
static inline uint64_t slot_entry(uint64_t h, uint32_t g)
{
    return (h & ~(uint64_t)UINT32_MAX) | ((uint64_t)g + 1);
}

/* Room for n more groups: slots at most half full, group arrays sized. */
static void gt_reserve(ExecGroupTable *gt, uint32_t n)
{
    uint64_t need = (uint64_t)gt->ngroups + n;
    if (need * 2 > gt->nslots) {
        uint64_t ns = gt->nslots;
        while (need * 2 > ns)
            ns *= 2;
        if (ns > (UINT64_C(1) << 31))
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many groups in one hash table");
        uint64_t *slots = mem_calloc(gt->arena, (size_t)ns, sizeof(uint64_t));
        uint32_t mask = (uint32_t)ns - 1;
        for (uint32_t g = 0; g < gt->ngroups; g++) {
            if ((g & 0xFFFF) == 0)
                err_check_interrupts();
            uint32_t s = (uint32_t)gt->ghash[g] & mask;
            while (slots[s])
                s = (s + 1) & mask;
            slots[s] = slot_entry(gt->ghash[g], g);
        }
        gt->slots = slots;
        gt->nslots = (uint32_t)ns;
    }
    uint32_t old_cap = gt->keys[0].cap;
    for (int k = 0; k < gt->nkeys; k++)
        exec__col_reserve(&gt->keys[k], gt->arena, n);
    if (gt->keys[0].cap != old_cap)
        gt->ghash = mem_realloc(gt->arena, gt->ghash, (size_t)old_cap * sizeof(uint64_t),
                                (size_t)gt->keys[0].cap * sizeof(uint64_t));
}

void exec__gt_reserve(ExecGroupTable *gt, uint32_t n)
{
    gt_reserve(gt, n);
}

/* same[i] &= "row i's value of v equals row i-1's", for i >= 1. Equal bits
 * imply equal values for every type (floats: dbl_eq; strings: byte-equal
 * strings are equal under any collation Strata has); a NULL on either side
 * clears the mark, so NULL keys take the general path. */
static void mark_repeats(const Vector *v, const uint16_t *rows, uint32_t n, uint8_t *same)
{
    if (v->is_const) {
        if (!vec_is_valid(v, 0))
            memset(same, 0, n);
        return;
    }
    switch (v->phys) {
#define SAME_LOOP(CT)                                                              \
    { const CT *a = v->data;                                                       \
      for (uint32_t i = 1; i < n; i++) same[i] &= (uint8_t)(a[rows[i]] == a[rows[i - 1]]); \
      break; }
    case PHYS_BOOL: SAME_LOOP(uint8_t)
    case PHYS_I16: SAME_LOOP(int16_t)
    case PHYS_I32: case PHYS_F32: SAME_LOOP(uint32_t)   /* float bits */
    case PHYS_I64: case PHYS_F64: SAME_LOOP(uint64_t)   /* double bits */
#undef SAME_LOOP
    case PHYS_STR: {
        const StrRef *a = v->data;
        for (uint32_t i = 1; i < n; i++) {
            StrRef x = a[rows[i]], y = a[rows[i - 1]];
            same[i] &= (uint8_t)(x.len == y.len &&
                                 (x.ptr == y.ptr || x.len == 0 || memcmp(x.ptr, y.ptr, x.len) == 0));
        }
        break;
    }
    }
    if (v->validity)
        for (uint32_t i = 1; i < n; i++)
            same[i] &= (uint8_t)(exec__bit(v->validity, rows[i]) && exec__bit(v->validity, rows[i - 1]));
}

#define GT_REPEAT_SKIP 16   /* batches without the check after one with few repeats */

/* Marks in gt->same the rows whose whole key repeats the previous row's;
 * returns how many (0: gt->same unset, every row takes the general path). */
static uint32_t gt_repeats(ExecGroupTable *gt, Vector *const *keys, const uint16_t *rows, uint32_t n)
{
    if (n < 2)
        return 0;
    if (gt->repeat_skip > 0) {
        gt->repeat_skip--;
        return 0;
    }
    memset(gt->same, 1, n);
    gt->same[0] = 0;
    for (int k = 0; k < gt->nkeys; k++)
        mark_repeats(keys[k], rows, n, gt->same);
    uint32_t nrep = 0;
    for (uint32_t i = 0; i < n; i++)
        nrep += gt->same[i];
    if (nrep < n / 16) {
        gt->repeat_skip = GT_REPEAT_SKIP;
        return 0;
    }
    return nrep;
}

/* gt->hash[i] for every row (nrep = 0) or for the rows not marked in
 * gt->same (hashed as one compacted selection, then scattered). */
static void gt_hash(ExecGroupTable *gt, Vector *const *keys, const uint16_t *rows, uint32_t n,
                    const uint16_t *sel, uint32_t nrep)
{
    if (gt->prehash) {
        memcpy(gt->hash, gt->prehash, n * sizeof(uint64_t));
        gt->prehash = NULL;
        return;
    }
    if (nrep == 0) {
        for (int k = 0; k < gt->nkeys; k++)
            exec__hash_vector(keys[k], sel, n, gt->hash, k == 0);
        return;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        gt->cmp_rows[m] = rows[i];
        gt->pos[m] = (uint16_t)i;
        m += !gt->same[i];
    }
    for (int k = 0; k < gt->nkeys; k++)
        exec__hash_vector(keys[k], gt->cmp_rows, m, gt->hash_tmp, k == 0);
    for (uint32_t j = 0; j < m; j++)
        gt->hash[gt->pos[j]] = gt->hash_tmp[j];
}

uint32_t exec__gt_lookup(ExecGroupTable *gt, Vector *const *keys, const uint16_t *sel, uint32_t n,
                         uint32_t *group_of)
{
    gt_reserve(gt, n);
    const uint16_t *rows = sel ? sel : exec__identity_sel;
    uint32_t nrep = gt_repeats(gt, keys, rows, n);
    gt_hash(gt, keys, rows, n, sel, nrep);
    uint32_t mask = gt->nslots - 1, ntodo = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (nrep && gt->same[i])
            continue;   /* takes row i-1's group below */
        gt->slot[i] = (uint32_t)gt->hash[i] & mask;
        gt->todo[ntodo++] = (uint16_t)i;
    }
    /* Tables past the caches: each probe prefetches the slot of the row
     * GT_PREFETCH_AHEAD rows later, so that many misses are in flight (a
     * 1 MB table stays cached: no prefetch). */
    bool big = (size_t)gt->nslots * sizeof(uint64_t) > ((size_t)1 << 20);
    uint32_t ahead = big ? GT_PREFETCH_AHEAD : 0;
    for (uint32_t t = 0; t < ahead && t < ntodo; t++)
        __builtin_prefetch(&gt->slots[gt->slot[gt->todo[t]]]);
    const ExecColumn *key0 = &gt->keys[0];
    uint32_t nnew = 0;
    uint16_t *todo = gt->todo, *todo2 = gt->todo2;
    while (ntodo > 0) {
        uint32_t ncmp = 0, nnext = 0, round_new = 0;
        for (uint32_t t = 0; t < ntodo; t++) {
            uint32_t i = todo[t], s = gt->slot[i];
            if (t + ahead < ntodo)
                __builtin_prefetch(&gt->slots[gt->slot[todo[t + ahead]]]);
            uint64_t e = gt->slots[s];
            uint32_t g1 = (uint32_t)e;
            if (e == 0) {
                uint32_t g = gt->ngroups++;
                gt->slots[s] = slot_entry(gt->hash[i], g);
                gt->ghash[g] = gt->hash[i];
                group_of[i] = g;
                gt->newpos[nnew + round_new] = (uint16_t)i;
                gt->newrows[round_new++] = rows[i];
            } else if (((e ^ gt->hash[i]) >> 32) == 0) {
                if (big)
                    __builtin_prefetch(key0->data + (size_t)(g1 - 1) * key0->elem);
                gt->cmp_i[ncmp] = (uint16_t)i;
                gt->cmp_rows[ncmp] = rows[i];
                gt->cmp_g[ncmp++] = g1 - 1;
            } else {
                gt->slot[i] = (s + 1) & mask;
                todo2[nnext++] = (uint16_t)i;
            }
        }
        for (int k = 0; k < gt->nkeys; k++)
            exec__col_append(&gt->keys[k], gt->arena, keys[k], gt->newrows, round_new);
        nnew += round_new;
        memset(gt->eq, 1, ncmp);
        for (int k = 0; k < gt->nkeys; k++)
            exec__eq_column(keys[k], gt->cmp_rows, &gt->keys[k], gt->cmp_g, ncmp, true, gt->eq);
        for (uint32_t j = 0; j < ncmp; j++) {
            uint32_t i = gt->cmp_i[j];
            if (gt->eq[j]) {
                group_of[i] = gt->cmp_g[j];
            } else {
                gt->slot[i] = (gt->slot[i] + 1) & mask;
                todo2[nnext++] = (uint16_t)i;
            }
        }
        uint16_t *tmp = todo;
        todo = todo2;
        todo2 = tmp;
        ntodo = nnext;
    }
    if (nrep)
        for (uint32_t i = 1; i < n; i++)
            if (gt->same[i])
                group_of[i] = group_of[i - 1];
    return nnew;
}
