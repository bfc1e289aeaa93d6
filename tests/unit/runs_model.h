/*
 * runs_model.h — the entries, run writer and naive merge model shared by the
 * storage/runs unit tests (test_runs.c, test_storage_runs_merge.c): runs of
 * (key bigint, val bigint, txt text) with versions and tombstones, and the
 * answer a merge must give for a snapshot. Include after <criterion>,
 * common/vector.h and storage/runs/run.h.
 */
#ifndef STRATA_TESTS_RUNS_MODEL_H
#define STRATA_TESTS_RUNS_MODEL_H

#include <stdlib.h>
#include <string.h>

/* A run of (key bigint, val bigint, txt text) entries, sorted here. */
typedef struct Ent {
    int64_t key;
    uint64_t ver;
    bool del;
    int64_t val;
} Ent;

static int ent_cmp(const void *a, const void *b)
{
    const Ent *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->ver > y->ver ? -1 : x->ver < y->ver ? 1 : 0;
}

static const SqlType m_types[3] = {{TYPE_INT8, -1}, {TYPE_INT8, -1}, {TYPE_TEXT, -1}};

static RunReader *write_ents(const char *path, Ent *e, uint32_t n, uint32_t group_rows,
                             RunCompression comp)
{
    if (n > 0)
        qsort(e, n, sizeof(Ent), ent_cmp);
    int key = 0;
    RunSchema sc = {3, m_types, 1, &key};
    RunWriteOptions o = {.group_rows = group_rows, .compression = comp, .no_fsync = true};
    RunWriter *w = run_writer_create(path, &sc, &o);
    MemArena *a = mem_arena_create("write");
    Batch *b = batch_create(a, 3, m_types);
    uint64_t vers[VEC_CAPACITY];
    bool del[VEC_CAPACITY];
    for (uint32_t s = 0; s < n; s += VEC_CAPACITY) {
        uint32_t k = n - s < VEC_CAPACITY ? n - s : VEC_CAPACITY;
        vec_set_all_valid(&b->cols[2]);
        for (uint32_t i = 0; i < k; i++) {
            const Ent *x = &e[s + i];
            ((int64_t *)b->cols[0].data)[i] = x->key;
            ((int64_t *)b->cols[1].data)[i] = x->val;
            char *t = mem_printf(a, "v%lld", (long long)x->val);
            ((StrRef *)b->cols[2].data)[i] = (StrRef){t, (uint32_t)strlen(t)};
            if (x->val % 5 == 0)
                vec_set_null(&b->cols[2], i);
            vers[i] = x->ver;
            del[i] = x->del;
        }
        b->count = k;
        run_writer_append(w, b, vers, del);
    }
    run_writer_finish(w, NULL);
    mem_arena_destroy(a);
    return run_open(path);
}

/* The model: per key, the newest entry with ver <= snap; skip tombstones. */
static uint32_t model(Ent *all, uint32_t n, uint64_t snap, Ent *out)
{
    qsort(all, n, sizeof(Ent), ent_cmp);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        const Ent *win = NULL;
        for (; j < n && all[j].key == all[i].key; j++)
            if (!win && all[j].ver <= snap)
                win = &all[j];
        if (win && !win->del)
            out[m++] = *win;
        i = j;
    }
    return m;
}

#endif
