/* game.h -- the one interface every pizzabox game implements.
 *
 * A game is a table of functions (pb_game_ops) plus the immutable rules data
 * built from a config (deck, board, player count). A state is a flat block of
 * ops->state_size bytes with no pointers inside but one to those immutable
 * rules: copying it with memcpy is a complete clone, which is what the search
 * and the simulator rely on.
 *
 * The AI, the terminal, the server, the simulator and the records speak only
 * this interface, so they work for every game without knowing its rules.
 * Chance events (shuffles, draws) happen inside apply(), driven by the
 * generator stored in the state; there are no chance seats. */
#ifndef PB_GAME_H
#define PB_GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* A decision, as a small game-specific integer. Text notation is for people. */
typedef uint32_t pb_action;

/* Opaque game state: a flat, game-specific struct. */
typedef struct pb_state pb_state;

typedef struct pb_game pb_game;

#define PB_TERMINAL (-1)   /* current_seat() of a finished game */
#define PB_SPECTATOR (-1)  /* view() for someone who holds no seat */
#define PB_MAX_ACTIONS 4096
#define PB_MAX_SEATS 6
#define PB_ERR_LEN 256     /* a comfortable size for error buffers */

/* What the simulator counts in a finished game beyond scores and winners. */
#define PB_MAX_ITEMS 32
#define PB_MAX_CATEGORIES 16
#define PB_MAX_MEASURES 8
enum { PB_OUTCOME_EMPTY, PB_OUTCOME_WON, PB_OUTCOME_TIED };
typedef struct pb_facts {
    int first;                                 /* the seat that moved first */
    int nitems;                                /* things held at the end (cards) */
    const char *item[PB_MAX_ITEMS];            /* names, owned by the game */
    int holder[PB_MAX_ITEMS];                  /* seat, or -1 */
    int ncategories;                           /* contested categories */
    const char *category[PB_MAX_CATEGORIES];   /* names, owned by the game */
    int outcome[PB_MAX_CATEGORIES];            /* PB_OUTCOME_* */
    int nmeasures;                             /* figures of the whole game (a team's pizzas) */
    const char *measure[PB_MAX_MEASURES];      /* names, owned by the game */
    int measure_value[PB_MAX_MEASURES];
} pb_facts;

typedef struct pb_game_ops {
    const char *id;    /* short name used on the command line and in records */
    const char *title; /* name for people */
    int min_players, max_players;
    size_t state_size;
    /* The leading bytes of a state that hold the position: all but a
     * trailing pointer to the rules (0: the whole state). Two states of the
     * same game are equal when these bytes are (pb_state_equal). */
    size_t position_size;
    /* The bots' search reads evaluate()'s lead over the best rival as a
     * chance of winning: this many points of lead are worth about 73%
     * (a logistic curve). 0: 2 points. */
    double lead_scale;
    /* How far a search's mean reward overstates a chance of winning, by
     * player count (the index): what a hint or the analysis reports is
     * logistic(logit(reward) / T). Measured, not a rule (bench/
     * chance-calibration.py): Delivery's projected leads are rough early,
     * so its rewards say 95% where a game is open. 0 or 1: the reward as it
     * is. Only the reports change; the search plays the same. */
    double chance_temper[PB_MAX_SEATS + 1];
    /* The expert level plays each leaf of its search on to the end: every
     * mover draws this many moves at random and takes the one evaluate()
     * rates best one move ahead (0: the leaf is scored by evaluate() alone). */
    int playout_draws;

    /* Build the rules data for a config object. On success stores the rules
     * (owned by the caller, freed with rules_free) and a normalized copy of
     * the config with every default filled in (for records) and returns 0;
     * on bad config returns -1 with a message in err. */
    int (*rules_new)(const json_t *config, void **rules, json_t **normalized,
                     int *players, char *err, size_t errlen);
    void (*rules_free)(void *rules);

    /* Set up a new game in st (state_size bytes) from the seed. Cannot fail. */
    void (*init)(const pb_game *g, pb_state *st, uint64_t seed);
    /* The seat that must decide now, or PB_TERMINAL. */
    int (*current_seat)(const pb_game *g, const pb_state *st);
    /* Write every legal action (at most PB_MAX_ACTIONS) to out; returns the
     * count (0 only when terminal). */
    int (*legal_actions)(const pb_game *g, const pb_state *st, pb_action *out);
    /* A uniformly random legal action, without listing them all. */
    pb_action (*random_action)(const pb_game *g, const pb_state *st, pb_rng *rng);
    /* Apply an action. An illegal action returns -1 with the reason in err
     * and leaves st unchanged; 0 on success. */
    int (*apply)(const pb_game *g, pb_state *st, pb_action a, char *err, size_t errlen);
    /* Everything `seat` may know and nothing more, as a new JSON object.
     * seat = PB_SPECTATOR gives the public table. */
    json_t *(*view)(const pb_game *g, const pb_state *st, int seat);
    /* Replace everything `seat` cannot know with a random arrangement
     * consistent with what it does know, and reseed the state's generator. */
    void (*determinize)(const pb_game *g, pb_state *st, int seat, pb_rng *rng);
    /* Notation of a legal action in this state; returns 0, or -1 if illegal. */
    int (*action_to_text)(const pb_game *g, const pb_state *st, pb_action a,
                          char *buf, size_t n);
    /* The action as `viewer` may see it (PB_SPECTATOR: as everyone may):
     * the notation with anything secret from the viewer shown as "?". */
    int (*describe)(const pb_game *g, const pb_state *st, pb_action a, int viewer,
                    char *buf, size_t n);
    /* Parse notation into a legal action; -1 with the reason in err. */
    int (*action_from_text)(const pb_game *g, const pb_state *st, const char *text,
                            pb_action *a, char *err, size_t errlen);
    /* Per-seat result of a finished game: the seat's share of the win
     * (1 for a sole winner, 1/k for a win shared by k, 0 otherwise). */
    void (*returns)(const pb_game *g, const pb_state *st, double *out);
    /* Final total score of each seat of a finished game. */
    void (*totals)(const pb_game *g, const pb_state *st, int *out);
    /* Final score breakdown of a finished game as JSON, names[] optional. */
    json_t *(*score_report)(const pb_game *g, const pb_state *st, const char *const *names);
    /* Heuristic worth of the position to every seat, as points on the
     * game's own scale (higher is better), estimated with only what `viewer`
     * may know; for bots. values has one entry per seat. */
    void (*evaluate)(const pb_game *g, const pb_state *st, int viewer, double *values);
    /* Facts about a finished game for the simulator's statistics (see
     * pb_facts); every item and category in a fixed order. */
    void (*result_facts)(const pb_game *g, const pb_state *st, pb_facts *out);
    /* Is the action legal here? Cheaper than listing every legal action. */
    bool (*is_legal)(const pb_game *g, const pb_state *st, pb_action a);
    /* Moves other seats made that `seat` has not seen yet: secret choices
     * of a simultaneous step, revealed together later. NULL for games
     * without them. A search must not let `seat` react to those. */
    int (*unseen_moves)(const pb_game *g, const pb_state *st, int seat);
    /* For tests and fuzzing: 0, or -1 naming what is broken in the state
     * (every card, slice or topping accounted for, counts consistent). */
    int (*check_invariants)(const pb_game *g, const pb_state *st, char *err, size_t errlen);
    /* Do all seats play as one team (the same result for every seat)? Then
     * evaluate() gives the team's worth on a scale where 0 is an even chance
     * of winning, not a lead over rivals. NULL: never. */
    bool (*cooperative)(const pb_game *g);
    /* Is the decision a question asked of every seat alike (whoever could
     * answer it), so that being asked tells nothing of a hand? Then how it
     * is answered must not tell either: a bot takes as long with one move
     * as with many. NULL: never. */
    bool (*asked_alike)(const pb_game *g, const pb_state *st);
    /* What everyone learned from a move beyond the move itself (a new
     * round's Special, one sent back to the box), for the table's log:
     * written into buf, 0 when nothing. Players are called by names[seat]
     * (names NULL, or a name empty: "Player N"). NULL: never anything. */
    int (*news)(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names, char *buf,
                size_t n);
    /* The rules text of a named card, Special or other piece, found by the
     * name a player types for it ("motor-boat", "Dibs!", "dibs"), for the
     * terminal's `rules NAME` and the browser's tooltips: its name and text
     * written into buf, 0; -1 when the game has nothing of that name. The
     * same text the game's view gives, so every front end says the same.
     * NULL: the game names nothing. */
    int (*explain)(const pb_game *g, const char *name, char *buf, size_t n);
    /* A decision made in parts, one listed action each (a price paid a
     * dollar and a card at a time): is the mover's next decision in `after`
     * a further part of the one `last` belongs to; and `parts`, made in turn
     * from st, as one action (0; -1 when they cannot be one). A player names
     * the parts together; a bot makes each and sends them as one move
     * (pb_bot_choose). NULL: the game has no such decisions. */
    bool (*continues)(const pb_game *g, const pb_state *after, pb_action last);
    int (*join)(const pb_game *g, const pb_state *st, const pb_action *parts, int n, pb_action *out);
    /* The printed texts of the pieces a view names by slug alone (New York
     * Slice's Specials), as a new JSON object: slug -> {name, text, scored}.
     * A client is given them once, with its seat or its spectator's place,
     * not in every view. NULL: the game's views carry their own texts. */
    json_t *(*glossary)(const pb_game *g);
    /* Is `seat`'s view the spectators' view but for its `seat` member? Then
     * a server writes that one view for all such seats of a move instead
     * of one each. NULL: never (every seat has something of its own). */
    bool (*view_is_public)(const pb_game *g, const pb_state *st, int seat);
    /* is_legal for each of n actions (a search's moves at a node, asked at
     * once): legal[i] for a[i]. NULL: is_legal is asked for each. */
    void (*legal_each)(const pb_game *g, const pb_state *st, const pb_action *a, int n, bool *legal);
    /* The moves that win the game outright for the seat to move whatever
     * every other seat does, where the game can tell at once (Pizza
     * Theory's cuts: every way the others may cut is scored): at most max
     * written to out, their count returned (0: none, or none known). NULL:
     * the game never tells. */
    int (*sure_wins)(const pb_game *g, const pb_state *st, pb_action *out, int max);
    /* The config a game was played with when an older pizzabox recorded it
     * (a record of `record_version`, core/record.h; a table stored before
     * the store's edition step counts as version 2), as a new object: a
     * game whose rules were corrected since names the rules it was played
     * by, so its moves replay to the same end. NULL: the config as it is
     * (also when the game has no such op). */
    json_t *(*config_as_played)(const json_t *config, int record_version);
} pb_game_ops;

struct pb_game {
    const pb_game_ops *ops;
    void *rules;     /* game-specific immutable data; owned */
    int players;
    json_t *config;  /* normalized config; owned */
};

/* The registered games, NULL-terminated. */
extern const pb_game_ops *const pb_games[];

/* Find a game by id; NULL if unknown. */
const pb_game_ops *pb_game_find(const char *id);

/* Create a game from its id and a config object (NULL for all defaults).
 * Returns NULL with a message in err on an unknown game or bad config.
 * The caller owns the result (pb_game_free). */
pb_game *pb_game_new(const char *id, const json_t *config, char *err, size_t errlen);
void pb_game_free(pb_game *g);

/* New state from a seed; NULL only when out of memory. Free with free(). */
pb_state *pb_state_new(const pb_game *g, uint64_t seed);
pb_state *pb_state_clone(const pb_game *g, const pb_state *st);
void pb_state_copy(const pb_game *g, pb_state *dst, const pb_state *src);
/* Same position? (States of two games made from the same config compare
 * equal too: the pointer to the rules is left out.) */
bool pb_state_equal(const pb_game *g, const pb_state *a, const pb_state *b);

static inline int pb_current_seat(const pb_game *g, const pb_state *st)
{
    return g->ops->current_seat(g, st);
}
static inline bool pb_is_terminal(const pb_game *g, const pb_state *st)
{
    return g->ops->current_seat(g, st) == PB_TERMINAL;
}
static inline bool pb_is_cooperative(const pb_game *g)
{
    return g->ops->cooperative && g->ops->cooperative(g);
}
static inline bool pb_is_asked_alike(const pb_game *g, const pb_state *st)
{
    return g->ops->asked_alike && g->ops->asked_alike(g, st);
}
/* Is it a formality: a question asked alike with one legal move for this
 * seat? A front end may make that move for a human at once, but only where
 * no other person watches the table: to them, a skipped question would
 * tell that the seat had nothing to answer with. */
bool pb_is_formality(const pb_game *g, const pb_state *st);
/* Is each of n actions legal in st (pb_game_ops.legal_each, or is_legal)? */
void pb_legal_each(const pb_game *g, const pb_state *st, const pb_action *a, int n, bool *legal);

/* The news a move brought (see pb_game_ops.news); "" when none. */
static inline void pb_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                           char *buf, size_t n)
{
    if (n && !(g->ops->news && g->ops->news(g, before, after, names, buf, n) > 0))
        buf[0] = 0;
}

/* The rules text of a named card or piece (see pb_game_ops.explain); -1
 * when the game has nothing of that name. */
static inline int pb_explain(const pb_game *g, const char *name, char *buf, size_t n)
{
    return g->ops->explain ? g->ops->explain(g, name, buf, n) : -1;
}

/* Parse text notation and apply it; -1 with the reason in err. */
int pb_apply_text(const pb_game *g, pb_state *st, const char *text, char *err, size_t errlen);

#endif
