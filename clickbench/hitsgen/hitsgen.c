/*
 * hitsgen.c: command line and parallel driver of hitsgen.
 *
 *   hitsgen --rows N --seed S [--threads T] [--out FILE]
 *
 * writes N rows of ClickBench-shaped `hits` data as TSV (PostgreSQL COPY text
 * format, the column order of clickbench/create.sql) to FILE or stdout.
 *
 * The file is cut into chunks of HG_CHUNK_ROWS rows, each generated from its
 * own seeded stream (hg_chunk_generate). Worker threads claim chunks in
 * increasing order, generate them into private buffers, and write them in
 * chunk order (a turn counter under a mutex), so the output is identical for
 * any thread count.
 */
#include "clickbench/hitsgen/hg.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct driver
{
    hg_config cfg;
    uint64_t chunks;
    FILE *out;
    pthread_mutex_t mu;
    pthread_cond_t turn_cv;
    uint64_t next_claim; /* next chunk to generate (under mu) */
    uint64_t next_write; /* next chunk to write (under mu) */
    int failed;
} driver;

static void *worker(void *arg)
{
    driver *d = arg;
    hg_buf buf = {0};
    for (;;)
    {
        pthread_mutex_lock(&d->mu);
        uint64_t chunk = d->next_claim++;
        int stop = d->failed;
        pthread_mutex_unlock(&d->mu);
        if (chunk >= d->chunks || stop)
            break;
        buf.len = 0;
        hg_chunk_generate(&d->cfg, chunk, &buf);
        pthread_mutex_lock(&d->mu);
        while (d->next_write != chunk && !d->failed)
            pthread_cond_wait(&d->turn_cv, &d->mu);
        pthread_mutex_unlock(&d->mu);
        /* only the thread whose turn it is writes, so no lock is needed */
        int bad = !d->failed && fwrite(buf.data, 1, buf.len, d->out) != buf.len;
        pthread_mutex_lock(&d->mu);
        if (bad)
            d->failed = 1;
        d->next_write++;
        pthread_cond_broadcast(&d->turn_cv);
        pthread_mutex_unlock(&d->mu);
    }
    free(buf.data);
    return NULL;
}

static void usage(void)
{
    fprintf(stderr, "usage: hitsgen --rows N --seed S [--threads T] [--out FILE]\n");
    exit(2);
}

static uint64_t parse_u64(const char *s, const char *what)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0' || *s == '-')
    {
        fprintf(stderr, "hitsgen: invalid %s: %s\n", what, s);
        exit(2);
    }
    return (uint64_t)v;
}

static int run(driver *d, int threads)
{
    pthread_t tid[256];
    int started = 0;
    for (int i = 0; i < threads; i++)
    {
        if (pthread_create(&tid[i], NULL, worker, d) != 0)
            break;
        started++;
    }
    if (started == 0)
        worker(d);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return d->failed;
}

int main(int argc, char **argv)
{
    uint64_t rows = 0, seed = 0;
    int have_rows = 0, have_seed = 0;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    const char *path = NULL;
    for (int i = 1; i < argc; i++)
    {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "--rows") == 0)
            rows = parse_u64(argv[++i], "row count"), have_rows = 1;
        else if (strcmp(argv[i], "--seed") == 0)
            seed = parse_u64(argv[++i], "seed"), have_seed = 1;
        else if (strcmp(argv[i], "--threads") == 0)
            threads = (long)parse_u64(argv[++i], "thread count");
        else if (strcmp(argv[i], "--out") == 0)
            path = argv[++i];
        else
            usage();
    }
    if (!have_rows || !have_seed)
        usage();
    if (rows >= ((uint64_t)1 << 40))
    {
        fprintf(stderr, "hitsgen: at most 2^40 rows\n");
        return 2;
    }
    if (threads < 1)
        threads = 1;
    if (threads > 256)
        threads = 256;
    static driver d;
    d.cfg.rows = rows;
    d.cfg.seed = seed;
    d.chunks = (rows + HG_CHUNK_ROWS - 1) / HG_CHUNK_ROWS;
    d.out = path ? fopen(path, "wb") : stdout;
    if (!d.out)
    {
        fprintf(stderr, "hitsgen: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    pthread_mutex_init(&d.mu, NULL);
    pthread_cond_init(&d.turn_cv, NULL);
    if (rows)
        hg_model_init(&d.cfg);
    int failed = run(&d, (int)threads);
    if (fclose(d.out) != 0 || failed)
    {
        fprintf(stderr, "hitsgen: write failed: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
