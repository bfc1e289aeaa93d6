/*
 * bench_utf8.c — speed of common/utf8.c's utf8_valid_prefix in GB/s on
 * four inputs of 64 MB (a benchmark, `meson test --benchmark utf8`, not a
 * test): pure ASCII text; ASCII with one 2-byte character per ~100 bytes
 * (European text); all multibyte (Cyrillic, CJK and emoji mixed); and,
 * when a path is given (`bench_utf8 FILE`), the first 256 MB of that file
 * (ClickBench's hits TSV). memchr over the same bytes is printed beside
 * each as the machine's read speed. Figures: common/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/utf8.h"

#define BENCH_SIZE (64u << 20)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);   /* CPU time: a busy machine does not skew it */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ULL;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

/* Fill buf with len bytes: pieces drawn from words (each a valid string),
 * so the whole is valid UTF-8 (the last piece cut at a boundary). */
static size_t fill(char *buf, size_t len, const char *const *words, size_t nwords)
{
    size_t i = 0;
    for (;;) {
        const char *w = words[next_rand() % nwords];
        size_t n = strlen(w);
        if (i + n > len)
            return i;
        memcpy(buf + i, w, n);
        i += n;
    }
}

/* Best of 5 runs of the validator (SSE2 and AVX2) and of memchr, in GB/s. */
static void run(const char *name, const char *buf, size_t len)
{
    double isa[2] = {0, 0};
    for (int avx2 = 0; avx2 < 2; avx2++) {
        if (utf8_use_avx2(avx2 == 1) != (avx2 == 1))
            continue;   /* no AVX2 on this CPU */
        double best = 1e9;
        for (int r = 0; r < 5; r++) {
            double t0 = now_s();
            size_t ok = utf8_valid_prefix(buf, len);
            double t1 = now_s();
            if (ok != len)
                printf("%s: invalid at %zu?\n", name, ok);
            best = t1 - t0 < best ? t1 - t0 : best;
        }
        isa[avx2] = (double)len / best / 1e9;
    }
    double best_mc = 1e9;
    for (int r = 0; r < 5; r++) {
        double t0 = now_s();
        const void *volatile hit = memchr(buf, '\xff', len);
        (void)hit;
        double t1 = now_s();
        best_mc = t1 - t0 < best_mc ? t1 - t0 : best_mc;
    }
    printf("%-26s %7.1f MB  sse2 %6.2f GB/s  avx2 %6.2f GB/s  (memchr %6.2f GB/s)\n", name, (double)len / 1e6,
           isa[0], isa[1], (double)len / best_mc / 1e9);
}

int main(int argc, char **argv)
{
    char *buf = malloc(BENCH_SIZE);
    if (!buf)
        return 1;
    static const char *const ascii[] = {"1\t", "hello ", "http://example.com/path?q=1\t", "2013-07-15 12:34:56\t",
                                        "-1\t", "0\t", "Windows\t", "\n", "some words here "};
    static const char *const euro[] = {"1\t", "hello ", "http://example.com/path?q=1\t", "caf\xc3\xa9 ",
                                       "2013-07-15 12:34:56\t", "0\t", "Windows\t", "\n", "some words here "};
    static const char *const mb[] = {"\xd0\x9f\xd1\x80\xd0\xb8", "\xd0\xb2\xd0\xb5\xd1\x82 ",
                                     "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "\xf0\x9f\x98\x80", "\xe2\x82\xac",
                                     "\xc3\xa9t\xc3\xa9 "};
    run("ascii", buf, fill(buf, BENCH_SIZE, ascii, sizeof ascii / sizeof ascii[0]));
    run("ascii + 1% 2-byte", buf, fill(buf, BENCH_SIZE, euro, sizeof euro / sizeof euro[0]));
    run("all multibyte", buf, fill(buf, BENCH_SIZE, mb, sizeof mb / sizeof mb[0]));
    free(buf);
    if (argc > 1) {
        size_t cap = 256u << 20;
        char *f = malloc(cap);
        FILE *fp = fopen(argv[1], "rb");
        if (!f || !fp) {
            fprintf(stderr, "cannot read %s\n", argv[1]);
            return 1;
        }
        size_t n = fread(f, 1, cap, fp);
        fclose(fp);
        size_t end = n;   /* cut at the last newline: whole characters */
        while (end > 0 && f[end - 1] != '\n')
            end--;
        run(argv[1], f, end);
        free(f);
    }
    return 0;
}
