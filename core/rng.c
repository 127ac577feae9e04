/* rng.c -- PCG32 seeding, shuffling and seed derivation. */
#include "rng.h"

void pb_rng_seed(pb_rng *r, uint64_t seed)
{
    r->state = 0;
    r->inc = (pb_mix64(seed ^ UINT64_C(0x9e3779b97f4a7c15)) << 1) | 1u;
    (void)pb_rng_next(r);
    r->state += pb_mix64(seed);
    (void)pb_rng_next(r);
}

void pb_rng_shuffle_u8(pb_rng *r, uint8_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pb_rng_below(r, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void pb_sort_u8(uint8_t *a, int n)
{
    if (n <= 32) { /* insertion: no table to clear */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
                uint8_t t = a[j];
                a[j] = a[j - 1];
                a[j - 1] = t;
            }
        return;
    }
    /* counting, over the values present only (a pool holds a few of 256) */
    uint64_t present[4] = {0};
    int count[256];
    for (int i = 0; i < n; i++) {
        uint64_t bit = 1ull << (a[i] & 63);
        if (!(present[a[i] >> 6] & bit)) {
            present[a[i] >> 6] |= bit;
            count[a[i]] = 0;
        }
        count[a[i]]++;
    }
    int k = 0;
    for (int w = 0; w < 4; w++)
        for (uint64_t m = present[w]; m; m &= m - 1) {
            int v = w * 64 + __builtin_ctzll(m);
            a[k++] = (uint8_t)v; /* mostly one: no call to memset for it */
            for (int c = count[v]; c > 1; c--)
                a[k++] = (uint8_t)v;
        }
}

void pb_rng_deal_u8(pb_rng *r, uint8_t *a, int n)
{
    pb_sort_u8(a, n);
    pb_rng_shuffle_u8(r, a, n);
}

uint64_t pb_mix64(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

uint64_t pb_derive_seed(uint64_t base, uint64_t index)
{
    return pb_mix64(pb_mix64(base) ^ (index * UINT64_C(0xd1b54a32d192ed03))) & PB_SEED_MAX;
}
