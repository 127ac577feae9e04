/* evaluate.c -- how well each seat stands in Pizza Theory, for the bots.
 *
 * The goal is toppings on the board, and the next resolution is what moves
 * them, so a position is worth the toppings each seat expects to hold after
 * this round's cuts. The cuts the viewer knows (its own, the 2-player die)
 * are taken as they are; every other side's line is averaged over its six
 * choices, as a player who cannot read minds would. */
#include "theory.h"

/* The line of side d the viewer knows, or 0. */
static int known_cut(const th_state *st, int d, int viewer)
{
    if (!st->cut[d])
        return 0;
    int c = th_side_colour(st, d);
    return c == viewer || (st->players == 2 && c == TH_NEUTRAL) ? st->cut[d] : 0;
}

void th_evaluate(const th_state *st, int viewer, double *values)
{
    int all = st->rules->board.toppings;
    if (st->phase == TH_PH_OVER) {
        /* A win is worth a board's worth of toppings on top of those held. */
        for (int p = 0; p < st->players; p++)
            values[p] = __builtin_popcountll(st->occ[p]) + ((st->winners >> p & 1u) ? all : 0);
        return;
    }
    int lo[TH_SIDES], hi[TH_SIDES];
    for (int d = 0; d < TH_SIDES; d++) {
        int k = known_cut(st, d, viewer);
        lo[d] = k ? k : 1;
        hi[d] = k ? k : TH_LINES;
    }
    double sum[TH_COLOURS] = {0};
    int n = 0;
    uint8_t cuts[TH_SIDES], short_by[TH_COLOURS], supply[TH_COLOURS];
    uint64_t occ[TH_COLOURS];
    for (int k0 = lo[0]; k0 <= hi[0]; k0++)
        for (int k1 = lo[1]; k1 <= hi[1]; k1++)
            for (int k2 = lo[2]; k2 <= hi[2]; k2++) {
                cuts[0] = (uint8_t)k0, cuts[1] = (uint8_t)k1, cuts[2] = (uint8_t)k2;
                th_resolve(st->rules, st->occ, st->supply, cuts, occ, supply, short_by);
                for (int p = 0; p < st->players; p++)
                    sum[p] += __builtin_popcountll(occ[p]);
                n++;
            }
    for (int p = 0; p < st->players; p++)
        values[p] = sum[p] / n;
}
