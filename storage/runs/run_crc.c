/*
 * run_crc.c — CRC32C (Castagnoli), the checksum of every run block. Uses the
 * SSE4.2 crc32 instruction when the CPU has it (≈ 8 bytes per cycle), a
 * byte-wise table otherwise; both give the same value.
 */
#define STRATA_RUNS_INTERNAL
#include <pthread.h>
#include "storage/runs/run_int.h"

static uint32_t crc_table[256];
static int crc_mode; /* 1 = table, 2 = hardware; set once under crc_once */
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_table[i] = c;
    }
#if defined(__x86_64__)
    __builtin_cpu_init();
    crc_mode = __builtin_cpu_supports("sse4.2") ? 2 : 1;
#else
    crc_mode = 1;
#endif
}

static uint32_t crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
    while (len--)
        crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
    uint64_t c = crc;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = __builtin_ia32_crc32di(c, w);
        p += 8;
        len -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (len--)
        c32 = __builtin_ia32_crc32qi(c32, *p++);
    return c32;
}
#endif

/* CRC32C of data, continuing from crc (start with 0). Thread-safe. */
uint32_t run__crc32c(uint32_t crc, const void *data, size_t len)
{
    pthread_once(&crc_once, crc_init);
    crc = ~crc;
#if defined(__x86_64__)
    if (crc_mode == 2)
        return ~crc_hw(crc, data, len);
#endif
    return ~crc_sw(crc, data, len);
}
