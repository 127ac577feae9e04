/* greedy.c -- the one-ply greedy bot.
 *
 * It fills in what its seat cannot see with one random guess (determinize),
 * tries every legal action on a copy, and keeps the one the game's
 * evaluation rates best for it; ties are broken at random. Guessing first
 * matters: a copy of the real state would show the next pizza or a Mystery
 * draw to the bot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot_impl.h"

double pb_lead(const pb_game *g, const pb_state *st, int seat)
{
    double v[PB_MAX_SEATS], rival = pb_is_cooperative(g) ? 0 : -1e300;
    g->ops->evaluate(g, st, seat, v);
    for (int q = 0; !pb_is_cooperative(g) && q < g->players; q++)
        if (q != seat && v[q] > rival)
            rival = v[q];
    return v[seat] - rival;
}

typedef struct greedy {
    pb_action *actions; /* PB_MAX_ACTIONS */
    size_t state_size;
    pb_state *guess, *trial;
} greedy;

static void greedy_free(void *impl)
{
    greedy *gr = impl;
    if (!gr)
        return;
    free(gr->actions);
    free(gr->guess);
    free(gr->trial);
    free(gr);
}

/* Make sure the buffers fit this game's states. */
static int greedy_fit(greedy *gr, size_t state_size)
{
    if (gr->state_size >= state_size)
        return 0;
    free(gr->guess);
    free(gr->trial);
    gr->guess = malloc(state_size);
    gr->trial = malloc(state_size);
    gr->state_size = gr->guess && gr->trial ? state_size : 0;
    return gr->state_size ? 0 : -1;
}

static pb_action greedy_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    greedy *gr = b->impl;
    int n = g->ops->legal_actions(g, st, gr->actions);
    if (n <= 1 || !g->ops->evaluate || greedy_fit(gr, g->ops->state_size) != 0) {
        snprintf(b->why, sizeof b->why, n <= 1 ? "the only move" : "no evaluation: a random move");
        return n >= 1 ? gr->actions[n > 1 ? pb_rng_below(&b->rng, (uint32_t)n) : 0]
                      : g->ops->random_action(g, st, &b->rng);
    }
    pb_state_copy(g, gr->guess, st);
    g->ops->determinize(g, gr->guess, seat, &b->rng);
    double best = -1e300, second = -1e300;
    int best_i = 0, ties = 0;
    for (int i = 0; i < n; i++) {
        pb_state_copy(g, gr->trial, gr->guess);
        if (g->ops->apply(g, gr->trial, gr->actions[i], NULL, 0) != 0)
            continue;
        double v = pb_lead(g, gr->trial, seat);
        if (v > best + 1e-9) {
            second = best;
            best = v;
            best_i = i;
            ties = 1;
        } else if (v > best - 1e-9) {
            if (pb_rng_below(&b->rng, (uint32_t)++ties) == 0) /* reservoir: fair among equals */
                best_i = i;
        } else if (v > second) {
            second = v;
        }
    }
    if (second > -1e299)
        snprintf(b->why, sizeof b->why, "best of %d: expected lead %+.1f over the top rival, next best %+.1f",
                 n, best, second);
    else
        snprintf(b->why, sizeof b->why, "%d equal options: expected lead %+.1f", n, best);
    return gr->actions[best_i];
}

int pb_greedy_setup(pb_bot *b)
{
    greedy *gr = calloc(1, sizeof *gr);
    if (!gr || !(gr->actions = malloc(sizeof(pb_action) * PB_MAX_ACTIONS))) {
        free(gr);
        return -1;
    }
    b->impl = gr;
    b->free_impl = greedy_free;
    b->choose = greedy_choose;
    return 0;
}
