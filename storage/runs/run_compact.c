/*
 * run_compact.c — compaction: merge N runs into one new run (normally ZSTD),
 * keeping only the versions a live snapshot may still read (see run.h and
 * RUNS.md "Compaction").
 */
#define STRATA_RUNS_INTERNAL
#include "common/error.h"
#include "storage/runs/run_int.h"

uint64_t run_compact(RunReader *const *runs, int nruns, const RunSchema *schema,
                     const char *out_path, const RunWriteOptions *opts,
                     uint64_t oldest_snapshot, bool bottom, RunInfo *info)
{
    MemArena *arena = mem_arena_create("run compaction");
    MemArena *batch_arena = mem_arena_create("run compaction batch");
    RunWriter *volatile w = NULL;
    uint64_t total = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        MergeSource **src = MEM_NEW_ARRAY(arena, MergeSource *, nruns);
        for (int i = 0; i < nruns; i++)
            src[i] = run_merge_source(runs[i], NULL, arena);
        PhysType kt[RUN_KEYS_MAX];
        for (int k = 0; k < schema->nkeys; k++)
            kt[k] = type_phys(schema->types[schema->key_cols[k]]);
        MergeOptions mo = {.snapshot = oldest_snapshot, .compact = true, .drop_tombstones = bottom};
        Merge *m = merge_create(src, nruns, schema->nkeys, kt, &mo, arena);
        Batch *b = batch_create(arena, schema->ncols, schema->types);
        int *cols = MEM_NEW_ARRAY(arena, int, schema->ncols);
        for (int c = 0; c < schema->ncols; c++)
            cols[c] = c;
        w = run_writer_create(out_path, schema, opts);
        MergeBatch mb;
        while (merge_next(m, &mb)) {
            mem_arena_reset(batch_arena);
            merge_gather(m, &mb, schema->ncols, cols, b->cols, batch_arena);
            b->count = mb.count;
            b->sel = NULL;
            run_writer_append(w, b, mb.version, mb.deleted);
            total += mb.count;
            err_check_interrupts();
        }
        run_writer_finish(w, info);
        w = NULL;
        err_pop(&jmp);
    } else {
        run_writer_abort(w);
        mem_arena_destroy(batch_arena);
        mem_arena_destroy(arena);
        err_rethrow();
    }
    mem_arena_destroy(batch_arena);
    mem_arena_destroy(arena);
    return total;
}
