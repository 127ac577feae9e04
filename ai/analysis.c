/* analysis.c -- see analysis.h. */
#include "analysis.h"

#include "bot_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *pb_mark_name(pb_mark m)
{
    static const char *const names[] = {
        [PB_MARK_GOOD] = "good", [PB_MARK_INACCURACY] = "inaccuracy", [PB_MARK_MISTAKE] = "mistake",
        [PB_MARK_BLUNDER] = "blunder", [PB_MARK_FORCED] = "forced", [PB_MARK_PARTS] = "parts",
    };
    return m >= PB_MARK_GOOD && m <= PB_MARK_PARTS ? names[m] : "";
}

/* In tenths of a point of chance, as the chances are given: a loss on a
 * threshold is marked whatever the float's last bits say. */
static pb_mark mark_of(double loss)
{
    long tenths = lround(1000 * loss);
    return tenths >= lround(1000 * PB_BLUNDER) ? PB_MARK_BLUNDER
           : tenths >= lround(1000 * PB_MISTAKE) ? PB_MARK_MISTAKE
           : tenths >= lround(1000 * PB_INACCURACY) ? PB_MARK_INACCURACY
                                                     : PB_MARK_GOOD;
}

/* A chance to a tenth of a point: all a search's estimate is worth, and
 * what a reader sees, so the loss shown is the difference of the chances
 * shown and its mark follows from it. */
static double to_tenth(double chance)
{
    return round(1000 * chance) / 1000;
}

int pb_review_bot_check(const char *spec, char *err, size_t errlen)
{
    if (!pb_mcts_spec(spec)) {
        snprintf(err, errlen, "a review needs a searching bot: easy, medium, hard, expert or mcts:... (not '%s')",
                 spec);
        return -1;
    }
    pb_bot *b = pb_bot_new(spec, 1, err, errlen);
    pb_bot_free(b);
    return b ? 0 : -1;
}

int pb_review_decision(const pb_game *g, const pb_state *st, pb_action played, const char *spec, uint64_t seed,
                       pb_review *out, char *err, size_t errlen)
{
    *out = (pb_review){.seat = pb_current_seat(g, st), .played = played, .best = played};
    pb_action *legal = malloc(sizeof *legal * PB_MAX_ACTIONS);
    pb_move_value *values = malloc(sizeof *values * PB_MAX_ACTIONS);
    pb_bot *b = legal && values ? pb_bot_new(spec, seed, err, errlen) : NULL;
    int rc = -1;
    if (!legal || !values) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    if (!b)
        goto done;
    int n = g->ops->legal_actions(g, st, legal), listed = 0;
    for (int i = 0; i < n; i++)
        listed |= legal[i] == played;
    if (n == 1 || !listed) { /* forced, or a payment in parts (the search weighs one part) */
        out->mark = n == 1 && listed ? PB_MARK_FORCED : PB_MARK_PARTS;
        rc = 0;
        goto done;
    }
    pb_bot_choose(b, g, st, out->seat);
    int k = pb_bot_values(b, values, PB_MAX_ACTIONS);
    if (k == 0) {
        snprintf(err, errlen, "%s does not search: give a level (easy, medium, hard, expert) or mcts:...", spec);
        goto done;
    }
    out->searches = pb_bot_searches(b);
    out->best = values[0].action; /* the most searched: the bot's choice */
    out->best_value = values[0].value;
    /* the played move's value; one the search did not weigh gets the lowest it found */
    out->played_value = values[0].value;
    for (int i = 0; i < k && !out->played_weighed; i++)
        if (values[i].action == played) {
            out->played_value = values[i].value;
            out->played_weighed = true;
        } else if (values[i].value < out->played_value) {
            out->played_value = values[i].value;
        }
    out->best_value = to_tenth(out->best_value);
    out->played_value = to_tenth(out->played_value);
    if (out->played_weighed && out->played_value >= out->best_value) { /* as good as the bot's own choice */
        out->best = played;
        out->best_value = out->played_value;
    }
    out->loss = played == out->best ? 0 : out->best_value - out->played_value;
    out->mark = mark_of(out->loss);
    rc = 0;
done:
    pb_bot_free(b);
    free(values);
    free(legal);
    return rc;
}
