/* bot.c -- the bot registry, the random bot and the match loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "bot_impl.h"

const char *const pb_bot_names =
    "random, greedy, easy, medium, hard, expert, mcts:iters=N, mcts:ms=N (add :threads=N, :cap=N), "
    "perfect[:LEVEL], perfect-win[:LEVEL]";

/* Uniformly random among the legal actions, using the game's sampler so no
 * list of every division is ever built. */
static pb_action random_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    (void)seat;
    snprintf(b->why, sizeof b->why, "a random move");
    return g->ops->random_action(g, st, &b->rng);
}

static pb_bot *new_bot(const char *spec, uint64_t seed, bool exact_expert, char *err, size_t errlen)
{
    bool random = strcmp(spec, "random") == 0, greedy = strcmp(spec, "greedy") == 0;
    bool expert = exact_expert && strcmp(spec, "expert") == 0;
    bool mcts = !expert && pb_mcts_spec(spec), perfect = pb_perfect_spec(spec);
    if (!random && !greedy && !mcts && !perfect && !expert) {
        snprintf(err, errlen, "unknown bot '%s' (known: %s)", spec, pb_bot_names);
        return NULL;
    }
    pb_bot *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if ((greedy && pb_greedy_setup(b) != 0) || (mcts && pb_mcts_setup(b, spec, err, errlen) != 0) ||
        (perfect && pb_perfect_setup(b, spec, seed, err, errlen) != 0) ||
        (expert && pb_expert_setup(b, seed, err, errlen) != 0)) {
        if (greedy)
            snprintf(err, errlen, "out of memory");
        free(b);
        return NULL;
    }
    snprintf(b->name, sizeof b->name, "%s", spec);
    pb_rng_seed(&b->rng, seed);
    if (random)
        b->choose = random_choose;
    return b;
}

pb_bot *pb_bot_new(const char *spec, uint64_t seed, char *err, size_t errlen)
{
    return new_bot(spec, seed, true, err, errlen);
}

pb_bot *pb_bot_new_search(const char *spec, uint64_t seed, char *err, size_t errlen)
{
    return new_bot(spec, seed, false, err, errlen);
}

void pb_bot_free(pb_bot *b)
{
    if (!b)
        return;
    if (b->free_impl)
        b->free_impl(b->impl);
    free(b);
}

long pb_bot_searches(const pb_bot *b)
{
    return b->searches;
}

int pb_bot_values(const pb_bot *b, pb_move_value *out, int max)
{
    return b->values && b->searches ? b->values(b, out, max) : 0;
}

void pb_bot_reseed(pb_bot *b, uint64_t seed)
{
    pb_rng_seed(&b->rng, seed);
    if (b->reseed)
        b->reseed(b, seed);
}

const char *pb_bot_why(const pb_bot *b)
{
    return b->why;
}

const char *pb_bot_name(const pb_bot *b)
{
    return b->name;
}

/* A decision in parts (a payment): the bot decides each part as the game
 * lists them, and they go as one move. Joining stops where the game cannot
 * name more parts in one action; the rest come as the next move. */
#define MAX_PARTS 64
pb_action pb_bot_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    b->decision_cpu = pb_thread_cpu();
    pb_action a = b->choose(b, g, st, seat);
    if (!g->ops->continues || !g->ops->join)
        return a;
    pb_action parts[MAX_PARTS] = {a};
    pb_state *after = pb_state_clone(g, st);
    char err[PB_ERR_LEN];
    if (!after || g->ops->apply(g, after, a, err, sizeof err) != 0) {
        free(after);
        return a;
    }
    for (int n = 1; n < MAX_PARTS && pb_current_seat(g, after) == seat && g->ops->continues(g, after, parts[n - 1]);
         n++) {
        pb_action joined;
        parts[n] = b->choose(b, g, after, seat);
        if (g->ops->join(g, st, parts, n + 1, &joined) != 0 || g->ops->apply(g, after, parts[n], err, sizeof err) != 0)
            break;
        a = joined;
    }
    free(after);
    return a;
}

pb_state *pb_match_play(const pb_game *g, uint64_t seed, pb_bot *const *bots, pb_record *rec,
                        char *err, size_t errlen)
{
    pb_state *st = pb_state_new(g, seed);
    if (!st) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int seat;
    while ((seat = pb_current_seat(g, st)) != PB_TERMINAL) {
        pb_action a = pb_bot_choose(bots[seat], g, st, seat);
        if (rec && pb_record_add(rec, g, st, a) != 0) {
            snprintf(err, errlen, "bot %s chose an action with no notation", pb_bot_name(bots[seat]));
            free(st);
            return NULL;
        }
        char why[PB_ERR_LEN];
        if (g->ops->apply(g, st, a, why, sizeof why) != 0) {
            snprintf(err, errlen, "bot %s chose an illegal action: %s", pb_bot_name(bots[seat]), why);
            free(st);
            return NULL;
        }
    }
    return st;
}
