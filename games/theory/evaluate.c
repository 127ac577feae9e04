/* evaluate.c -- how well each seat stands in Pizza Theory, for the bots.
 *
 * The goal is toppings on the board, and the next resolution is what moves
 * them, so a position is worth the toppings each seat expects to hold after
 * this round's cuts. The cuts the viewer knows (its own, the 2-player die)
 * are taken as they are; every other side's line is weighed by how much it
 * would do for the player cutting it, as that player can judge it from the
 * board (each line it cannot see equally likely): players cut where they
 * gain, and taking every line as equally likely (as before) played worse. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "theory.h"

/* The line of side d the viewer knows, or 0. */
static int known_cut(const th_state *st, int d, int viewer)
{
    if (!st->cut[d])
        return 0;
    int c = th_side_colour(st, d);
    return c == viewer || (st->players == 2 && c == TH_NEUTRAL) ? st->cut[d] : 0;
}

/* Toppings each colour holds after resolving with these cuts: th_settle's
 * outcome (PT-R4..R6) counted, without building the new board, over the
 * non-empty regions only (an empty one changes nothing). */
static void held_after(const th_rules *r, const th_state *st, const uint8_t *cuts, int *held)
{
    int combo = (cuts[0] - 1) * 36 + (cuts[1] - 1) * 6 + (cuts[2] - 1), ns = r->nslices[combo];
    const uint64_t *slice = r->slice[combo];
    int n[TH_REGIONS][TH_COLOURS];
    unsigned unsafe = 0;
    for (int i = 0; i < ns; i++)
        for (int c = 0; c < TH_COLOURS; c++) {
            n[i][c] = __builtin_popcountll(st->occ[c] & slice[i]);
            unsafe |= (unsigned)(n[i][c] > 1) << c; /* PT-R4: two toppings in one region */
        }
    int take[TH_COLOURS] = {0}, lost[TH_COLOURS] = {0};
    for (int i = 0; unsafe && i < ns; i++) {
        const int *k = n[i];
        int m = k[0] > k[1] ? k[0] : k[1];
        m = k[2] > m ? k[2] : m;
        unsigned most = (unsigned)(k[0] == m) | (unsigned)(k[1] == m) << 1 | (unsigned)(k[2] == m) << 2;
        unsigned losers = ~most & unsafe & 7u;
        if (most == 7 || !losers) /* a three-way tie, or nobody to lose */
            continue;
        int gone = 0;
        for (int c = 0; c < TH_COLOURS; c++)
            if (losers >> c & 1u)
                lost[c] += k[c], gone += k[c];
        if (__builtin_popcount(most) == 1) /* PT-R5: a sole majority takes them */
            take[__builtin_ctz(most)] += gone;
    }
    for (int c = 0; c < TH_COLOURS; c++) { /* PT-R6: what is lost refills too (edition 2) */
        int have = st->supply[c] + (r->edition >= 2 ? lost[c] : 0);
        held[c] = __builtin_popcountll(st->occ[c]) - lost[c] + (take[c] < have ? take[c] : have);
    }
}

/* One way the round's cuts may fall: the line of each side and the toppings
 * each colour holds after it. */
typedef struct th_case {
    uint8_t k[TH_SIDES];
    int8_t held[TH_COLOURS];
} th_case;

/* The cases with the lines in fix[] (0: any of the six). With all three
 * lines open, a Latin square (the third line fixed by the other two) stands
 * for the 216: 36 cases in which every pair of lines of two sides occurs
 * exactly once. */
static int cases(const th_state *st, const int *fix, th_case *out)
{
    int lo[TH_SIDES], hi[TH_SIDES], n = 0;
    for (int d = 0; d < TH_SIDES; d++) {
        lo[d] = fix[d] ? fix[d] : 1;
        hi[d] = fix[d] ? fix[d] : TH_LINES;
    }
    bool latin = !fix[0] && !fix[1] && !fix[2];
    for (int k0 = lo[0]; k0 <= hi[0]; k0++)
        for (int k1 = lo[1]; k1 <= hi[1]; k1++)
            for (int k2 = lo[2]; k2 <= hi[2]; k2++) {
                if (latin && k2 != (k0 + k1) % TH_LINES + 1)
                    continue;
                th_case *c = &out[n++];
                c->k[0] = (uint8_t)k0, c->k[1] = (uint8_t)k1, c->k[2] = (uint8_t)k2;
                int held[TH_COLOURS];
                held_after(st->rules, st, c->k, held);
                for (int q = 0; q < TH_COLOURS; q++)
                    c->held[q] = (int8_t)held[q];
            }
    return n;
}

/* How much a player's expected lead must grow for a line to be taken e
 * times as often (toppings). Measured (docs/theory-bots.md): 1 and 4 play
 * best, 0.3 and 0.5 worse. */
#define LINE_TEMP 1.0

/* How likely each line of each side is: a player picks the lines that do it
 * most good, judged as it can judge them (every line it has not seen equally
 * likely), with weight exp(lead / temperature); the neutral's die is even. */
static void line_weights(const th_state *st, const th_case *pub, int n, double w[TH_SIDES][TH_LINES + 1])
{
    for (int d = 0; d < TH_SIDES; d++) {
        int c = th_side_colour(st, d);
        double sum[TH_LINES + 1] = {0}, cnt[TH_LINES + 1] = {0};
        for (int i = 0; c < st->players && i < n; i++) {
            int rival = -99;
            for (int q = 0; q < st->players; q++)
                if (q != c && pub[i].held[q] > rival)
                    rival = pub[i].held[q];
            sum[pub[i].k[d]] += pub[i].held[c] - rival;
            cnt[pub[i].k[d]]++;
        }
        double best = -1e300;
        for (int k = 1; k <= TH_LINES; k++)
            if (cnt[k] > 0 && sum[k] / cnt[k] > best)
                best = sum[k] / cnt[k];
        for (int k = 1; k <= TH_LINES; k++)
            w[d][k] = cnt[k] > 0 ? exp((sum[k] / cnt[k] - best) / LINE_TEMP) : 1;
    }
}

static void public_fix(const th_state *st, int *pubfix)
{
    for (int d = 0; d < TH_SIDES; d++)
        pubfix[d] = st->players == 2 && th_side_colour(st, d) == TH_NEUTRAL ? st->cut[d] : 0;
}

void th_line_weights(const th_state *st, double w[TH_SIDES][TH_LINES + 1])
{
    int pubfix[TH_SIDES];
    public_fix(st, pubfix);
    th_case pub[TH_LINES * TH_LINES];
    line_weights(st, pub, cases(st, pubfix, pub), w);
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
    /* The lines' weights come from what everyone knows; the expectation is
     * over the cases the viewer cannot tell apart. */
    int fix[TH_SIDES], pubfix[TH_SIDES];
    public_fix(st, pubfix);
    bool same = true;
    for (int d = 0; d < TH_SIDES; d++) {
        fix[d] = known_cut(st, d, viewer);
        same &= fix[d] == pubfix[d];
    }
    th_case pub[TH_LINES * TH_LINES], mine[TH_LINES * TH_LINES];
    double w[TH_SIDES][TH_LINES + 1];
    int n = cases(st, pubfix, pub);
    line_weights(st, pub, n, w);
    const th_case *use = pub;
    if (!same)
        n = cases(st, fix, mine), use = mine;
    double sum[TH_COLOURS] = {0}, total = 0;
    for (int i = 0; i < n; i++) {
        double x = w[0][use[i].k[0]] * w[1][use[i].k[1]] * w[2][use[i].k[2]];
        total += x;
        for (int p = 0; p < st->players; p++)
            sum[p] += x * use[i].held[p];
    }
    for (int p = 0; p < st->players; p++)
        values[p] = sum[p] / total;
}
