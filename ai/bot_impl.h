/* bot_impl.h -- what a bot is made of, for the files that implement bots. */
#ifndef PB_BOT_IMPL_H
#define PB_BOT_IMPL_H

#include "bot.h"

struct pb_bot {
    char name[64];
    pb_rng rng;
    pb_action (*choose)(pb_bot *b, const pb_game *g, const pb_state *st, int seat);
    void (*free_impl)(void *impl);
    void *impl;          /* the bot's own working memory */
    char why[160];       /* one line on the last choice, for hints */
    long searches;       /* iterations of the last choice (search bots) */
    double decision_cpu; /* the thread's CPU when pb_bot_choose began: a
                          * decision in parts has one time cap for them all */
    /* the root moves of the last search (pb_bot_values); NULL: none */
    int (*values)(const pb_bot *b, pb_move_value *out, int max);
    /* restart the generators of the bots inside this one; NULL: none */
    void (*reseed)(pb_bot *b, uint64_t seed);
};

/* The seat's evaluated lead over its strongest rival. */
double pb_lead(const pb_game *g, const pb_state *st, int seat);

/* Greedy: one ply, the action whose result the game's evaluation likes
 * best (ai/greedy.c). Returns 0, or -1 if out of memory. */
int pb_greedy_setup(pb_bot *b);

/* ISMCTS (ai/mcts.c): is the spec an MCTS bot ("mcts", "mcts:iters=N",
 * "mcts:ms=N", ":threads=N", or a level easy/medium/hard/expert)? */
bool pb_mcts_spec(const char *spec);
int pb_mcts_setup(pb_bot *b, const char *spec, char *err, size_t errlen);

/* perfect (ai/perfect.c): "perfect" or "perfect:LEVEL", exact in New York
 * Slice's last round, LEVEL (expert) before it and in other games;
 * "perfect-win[:LEVEL]" puts the win share before the points. */
bool pb_perfect_spec(const char *spec);
int pb_perfect_setup(pb_bot *b, const char *spec, uint64_t seed, char *err, size_t errlen);
/* The expert level: its search, and in New York Slice's last round the
 * solver's move wherever no move changes the seat's share of the win
 * (docs/perfect.md). */
int pb_expert_setup(pb_bot *b, uint64_t seed, char *err, size_t errlen);

/* A bot as pb_bot_new makes it, but `expert` as its search alone (the level
 * inside the solver's bots). */
pb_bot *pb_bot_new_search(const char *spec, uint64_t seed, char *err, size_t errlen);

#endif
