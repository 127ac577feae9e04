/* analysis.h -- a finished game's decisions reviewed by a searching bot.
 *
 * Each decision is searched again from the deciding seat's own information
 * (the search deals its guesses from what the seat knew: never the seed,
 * never another seat's secrets), and the move played is compared with the
 * best move found: the seat's chance of winning after each, as the search
 * estimates it (to a tenth of a point), and the difference, marked by the
 * thresholds below. A move played that the search rates as high as its own
 * choice is the best found. */
#ifndef PB_ANALYSIS_H
#define PB_ANALYSIS_H

#include "bot.h"

/* Losses in chance of winning (0..1) that mark a move. */
#define PB_INACCURACY 0.05
#define PB_MISTAKE 0.10
#define PB_BLUNDER 0.20

typedef enum pb_mark {
    PB_MARK_GOOD,       /* within PB_INACCURACY of the best found */
    PB_MARK_INACCURACY,
    PB_MARK_MISTAKE,
    PB_MARK_BLUNDER,
    PB_MARK_FORCED,     /* the only legal move: nothing to review */
    PB_MARK_PARTS,      /* a move made of parts (a payment): not reviewed */
} pb_mark;

typedef struct pb_review {
    int seat;
    pb_action played, best;
    double played_value, best_value; /* the seat's chance of winning after each, to 0.001 */
    double loss;                     /* best_value - played_value, never below 0 */
    bool played_weighed;             /* false: the search did not weigh the move played (it
                                      * looked worse than every move it did); its value is
                                      * then the lowest of theirs */
    long searches;
    pb_mark mark;
} pb_review;

/* Can bot `spec` review (a level or mcts:..., options valid)? 0, or -1
 * with a message naming the problem. */
int pb_review_bot_check(const char *spec, char *err, size_t errlen);

/* Review the decision at st (the seat to move played `played`) with bot
 * `spec` (a level or mcts:..., seeded with `seed`). 0, or -1 with a message
 * (a bot that does not search, an unknown spec). */
int pb_review_decision(const pb_game *g, const pb_state *st, pb_action played, const char *spec, uint64_t seed,
                       pb_review *out, char *err, size_t errlen);

/* "good", "inaccuracy", "mistake", "blunder", "forced" or "parts". */
const char *pb_mark_name(pb_mark m);

#endif
