/* bot.h -- players that decide through the game interface only.
 *
 * A bot is made from a spec string ("random", "greedy", "mcts:iters=N", a level)
 * and a seed, and asked for one action at a time. Bots never read engine
 * internals, so every bot plays every game. */
#ifndef PB_BOT_H
#define PB_BOT_H

#include "../core/game.h"
#include "../core/record.h"

typedef struct pb_bot pb_bot;

/* Create a bot from its spec; NULL with a message in err for an unknown or
 * malformed spec. The caller owns the bot (pb_bot_free). */
pb_bot *pb_bot_new(const char *spec, uint64_t seed, char *err, size_t errlen);
void pb_bot_free(pb_bot *b);
const char *pb_bot_name(const pb_bot *b);

/* The bot's action for `seat`, which must be the seat to move. */
pb_action pb_bot_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat);
/* Restart the bot's random generator (for play that must not depend on
 * what the bot chose before, e.g. after a resume). */
void pb_bot_reseed(pb_bot *b, uint64_t seed);
/* Search iterations spent on the last choice (0 for bots that do not search). */
long pb_bot_searches(const pb_bot *b);
/* One line on why the bot made its last choice (for hints). */
const char *pb_bot_why(const pb_bot *b);

/* A move the last search weighed at its root, and what it found. */
typedef struct pb_move_value {
    pb_action action;
    long visits;  /* iterations that tried it */
    double value; /* the mover's mean reward there, 0..1: about its chance of winning */
} pb_move_value;

/* The root moves of the bot's last choice, most visited first, at most max
 * written to out; returns how many. 0 for bots that do not search and for a
 * choice made without one (the only move). For a decision made in parts
 * (pb_bot_choose joining them), the last part's. */
int pb_bot_values(const pb_bot *b, pb_move_value *out, int max);

/* The bot names `pb_bot_new` accepts, for help texts. */
extern const char *const pb_bot_names;

/* Play a whole game from `seed` with one bot per seat. On success returns the
 * finished state (caller frees) and, when rec is not NULL, appends every
 * action to it. NULL with a message in err if a bot produced an illegal
 * action (a bug) or memory ran out. */
pb_state *pb_match_play(const pb_game *g, uint64_t seed, pb_bot *const *bots, pb_record *rec,
                        char *err, size_t errlen);

#endif
