/* rng.h -- the one random generator of pizzabox (PCG32).
 *
 * Every random event in a game comes from a pb_rng stored inside the game
 * state, so the same seed and the same decisions replay bit for bit on every
 * machine. Batches of games derive per-game seeds from (base seed, index) so
 * results never depend on how many threads or machines ran them. */
#ifndef PB_RNG_H
#define PB_RNG_H

#include <stdint.h>

typedef struct pb_rng {
    uint64_t state;
    uint64_t inc; /* always odd */
} pb_rng;

/* Largest seed pizzabox accepts: seeds are written into JSON records and read
 * by browsers, whose numbers are exact only below 2^53. */
#define PB_SEED_MAX ((UINT64_C(1) << 53) - 1)

/* Seed the generator; any 64-bit value is a valid seed. */
void pb_rng_seed(pb_rng *r, uint64_t seed);

/* Next 32 uniformly distributed bits. */
static inline uint32_t pb_rng_next(pb_rng *r)
{
    uint64_t old = r->state;
    r->state = old * UINT64_C(6364136223846793005) + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Uniform integer in [0, n) without modulo bias (Lemire's method); n > 0. */
static inline uint32_t pb_rng_below(pb_rng *r, uint32_t n)
{
    uint64_t m = (uint64_t)pb_rng_next(r) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)pb_rng_next(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Shuffle n bytes in place (Fisher-Yates). */
void pb_rng_shuffle_u8(pb_rng *r, uint8_t *a, int n);
/* Sort n bytes, then shuffle them: the result depends on which bytes they
 * are and on the generator, never on the order they were in. Guesses at
 * hidden things (determinize) deal with it, so that a guess made from the
 * real position and one made from another guess are the same guess. */
void pb_rng_deal_u8(pb_rng *r, uint8_t *a, int n);
/* Sort n bytes in place, smallest first. */
void pb_sort_u8(uint8_t *a, int n);

/* Mix a 64-bit value (splitmix64 finaliser); used to derive seeds. */
uint64_t pb_mix64(uint64_t x);

/* The seed of game number `index` in a batch started from `base`, in
 * [0, PB_SEED_MAX]. Independent of thread and machine counts. */
uint64_t pb_derive_seed(uint64_t base, uint64_t index);

#endif
