/* perfect.h -- exact play of New York Slice's last round.
 *
 * In the last round every slice is face up but the spares, so the round can
 * be searched to the end: every move of every seat, and the Mystery draw as
 * a chance node (each spare equally likely). What the seat to move cannot
 * see (which slice another seat's face-down Mystery slice is) is averaged
 * over every arrangement it could be, never read from the state.
 *
 * What "perfect" optimizes (docs/perfect.md): every seat maximizes its own
 * expected final score; between moves of equal expected score it takes the
 * one leaving the strongest rival (the other seat with the highest expected
 * score) the least, then the first in the game's order of moves. Each seat
 * expects the others to play the same way. */
#ifndef PB_PERFECT_H
#define PB_PERFECT_H

#include <stdbool.h>

#include "../core/game.h"

/* The exact worth of one move to every seat. */
typedef struct pb_exact_value {
    pb_action action;
    bool exact;                 /* solved; false: left out for time */
    double score[PB_MAX_SEATS]; /* expected final total */
    double win[PB_MAX_SEATS];   /* expected share of the win (returns()) */
} pb_exact_value;

/* Limits of a solve. A round too large for the time (the Slicer's
 * division at 4 players and more, every decision at 6) is solved move by
 * move, the moves the game's evaluation likes best for the seat first,
 * until the time is up; the moves in `must` (e.g. the move a bot or a
 * player chose) come before all others. */
typedef struct pb_perfect_limits {
    double seconds;        /* 0: no limit, every move is solved */
    long positions;        /* a limit in positions searched instead (the same
                            * answer on any machine); 0: none */
    const pb_action *must;
    int nmust;
    bool win;              /* every seat maximizes its expected share of the win
                            * first, then its score (perfect.h's order) */
    bool rivals_lead;      /* with win: the other seats, between moves of the same
                            * win share, widen their lead over their strongest
                            * rival (as the search levels do) rather than their
                            * score; the seat to move still takes its points */
    int bound;             /* +1 (-1): every seat plays for (against) the win of
                            * the seat to move, which gives the most (least) win
                            * share it can have after each move, whoever plays
                            * how; 0: as above */
} pb_perfect_limits;

/* Can the position be solved exactly (New York Slice, last round)? */
bool pb_perfect_applies(const pb_game *g, const pb_state *st);

/* The exact value of every legal move of the seat to move, from that
 * seat's information only, in the order of legal_actions(); out has room
 * for PB_MAX_ACTIONS. *best receives the index of the move "perfect"
 * plays: the best of the moves solved, -1 if time ran out before any was.
 * limits may be NULL (no limit). Returns the number of moves, or -1 with
 * the reason in err (not a last round, out of memory). */
int pb_perfect_values(const pb_game *g, const pb_state *st, const pb_perfect_limits *limits, pb_exact_value *out,
                      int *best, char *err, size_t errlen);

/* Positions searched by the last call on this thread (for benchmarks). */
long pb_perfect_nodes(void);

#endif
