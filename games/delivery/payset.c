/* payset.c -- New York Pizza Delivery: a payment or a discard of several
 * parts as one move (PD_A_SET).
 *
 * A price is paid, and a hand brought down to its limit, one dollar or one
 * card at a time in the listing (a search meets each way to pay once that
 * way); a player chooses the parts together and sends them as one decision,
 * and a bot's parts are joined into one move too. The parts are the phase's:
 * dollars, market cards and power cards for a build's price, the spaces
 * beyond the free range and Property Tax; market and power cards for a
 * discard.
 *
 * The argument counts each part against what the mover holds now, as one
 * mixed-radix number: dollars first, then each card type held, then each
 * power card held; a digit's radix is one more than the most of it the mover
 * could give (what is held, and never more than what is due). Applying a set
 * applies its parts one by one in the payment order, so a set is legal
 * exactly when that sequence of single steps is, with the same reasons when
 * it is not. */
#include <stdlib.h>
#include <string.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

#define SET_LIMIT (1u << 24)        /* an action's argument */
#define DIGITS (1 + PD_TYPES + 64)  /* money, card types, power cards */

bool pd_set_phase(const pd_state *st)
{
    return st->phase == PD_PH_PAY || st->phase == PD_PH_DISTANCE || st->phase == PD_PH_TAX ||
           st->phase == PD_PH_DISCARD;
}

/* What may still be given in this phase: dollars or cards due, or cards
 * over the hand limit. */
static int set_due(const pd_state *st)
{
    if (st->phase == PD_PH_DISCARD)
        return pd_hand_total(st, st->seat) - pd_hand_limit(st, st->seat);
    return st->pending.due;
}

static int at_most(int have, int due)
{
    return have < 0 ? 0 : have < due ? have : due;
}

/* Each digit's radix (1: the mover holds none of it). */
static void radices(const pd_state *st, int *radix)
{
    const pd_player *p = &st->player[st->seat];
    int due = set_due(st);
    bool discard = st->phase == PD_PH_DISCARD;
    radix[0] = 1 + (discard || st->phase == PD_PH_DISTANCE
                        ? 0
                        : at_most(pd_money(st, st->seat) - st->pending.paid_money, due));
    int keep = st->phase == PD_PH_PAY ? st->pending.card : -1; /* the build's own card */
    for (int c = 0; c < PD_TYPES; c++) {
        int have = discard ? p->hand[c] : pd_free_cards(st, st->seat, (pd_card)c) - (c == keep);
        radix[1 + c] = 1 + at_most(have, due);
    }
    uint64_t powers = discard ? p->powers : p->powers & ~st->pending.paid_powers;
    for (int i = 0; i < 64; i++)
        radix[1 + PD_TYPES + i] = 1 + (int)(powers >> i & 1);
}

/* A part as the single step the listing knows. */
static pb_action step_of(const pd_state *st, int digit)
{
    bool discard = st->phase == PD_PH_DISCARD;
    if (digit == 0)
        return PD_ACTION(PD_A_PAY_MONEY, 0);
    if (digit <= PD_TYPES)
        return PD_ACTION(discard ? PD_A_DISCARD : PD_A_PAY_CARD, digit - 1);
    return PD_ACTION(discard ? PD_A_DISCARD_POWER : PD_A_PAY_POWER, digit - 1 - PD_TYPES);
}

/* The digit a single step counts in, -1 when it is no part of this phase's set. */
static int digit_of(const pd_state *st, pb_action a)
{
    bool discard = st->phase == PD_PH_DISCARD;
    uint32_t arg = PD_ARG(a);
    switch (PD_KIND(a)) {
    case PD_A_PAY_MONEY:
        return discard ? -1 : 0;
    case PD_A_PAY_CARD:
    case PD_A_DISCARD:
        return (PD_KIND(a) == PD_A_DISCARD) == discard && arg < PD_TYPES ? 1 + (int)arg : -1;
    case PD_A_PAY_POWER:
    case PD_A_DISCARD_POWER:
        return (PD_KIND(a) == PD_A_DISCARD_POWER) == discard && arg < 64 ? 1 + PD_TYPES + (int)arg : -1;
    default:
        return -1;
    }
}

int pd_set_steps(const pd_state *st, pb_action a, pb_action *steps, int max)
{
    if (PD_KIND(a) != PD_A_SET || !pd_set_phase(st))
        return -1;
    int radix[DIGITS], n = 0;
    radices(st, radix);
    uint32_t rest = PD_ARG(a);
    for (int d = 0; d < DIGITS; d++) {
        for (uint32_t k = rest % (uint32_t)radix[d]; k > 0; k--) {
            if (n == max)
                return -1;
            steps[n++] = step_of(st, d);
        }
        rest /= (uint32_t)radix[d];
    }
    return rest == 0 && n > 0 && n <= set_due(st) ? n : -1;
}

int pd_set_join(const pd_state *st, const pb_action *steps, int n, pb_action *out)
{
    if (!pd_set_phase(st) || n < 1 || n > set_due(st))
        return -1;
    int radix[DIGITS], count[DIGITS] = {0};
    radices(st, radix);
    for (int i = 0; i < n; i++) {
        int d = digit_of(st, steps[i]);
        if (d < 0 || ++count[d] >= radix[d])
            return -1; /* not a part of this phase, or more of it than is held */
    }
    uint64_t value = 0, place = 1;
    for (int d = 0; d < DIGITS; d++) {
        if (count[d]) {
            if (place >= SET_LIMIT || (value += place * (uint64_t)count[d]) >= SET_LIMIT)
                return -1; /* too many kinds held to name in one move: the parts go in two */
        }
        if (place < SET_LIMIT)
            place *= (uint64_t)radix[d];
    }
    *out = PD_ACTION(PD_A_SET, value);
    return 0;
}

bool pd_set_continues(const pd_state *after, pb_action last)
{
    return pd_set_phase(after) && set_due(after) > 0 && digit_of(after, last) >= 0;
}

/* Each part on a copy, in order; the first refused says why. */
static int run_steps(pd_state *st, pb_action a, char *err, size_t errlen)
{
    pb_action steps[PD_MAX_SET];
    int n = pd_set_steps(st, a, steps, PD_MAX_SET);
    if (n < 0)
        return pb_errorf(err, errlen,
                         st->phase == PD_PH_DISCARD ? "those cards are not in your hand, or more than you must discard"
                                                    : "you do not hold that payment, or it is more than is due");
    for (int i = 0; i < n; i++)
        if (pd_apply(st, steps[i], err, errlen) != 0)
            return -1;
    return 0;
}

bool pd_set_legal(const pd_state *st, pb_action a)
{
    pd_state *copy = malloc(sizeof *copy);
    if (!copy)
        return false;
    *copy = *st;
    bool ok = run_steps(copy, a, NULL, 0) == 0;
    free(copy);
    return ok;
}

int pd_set_apply(pd_state *st, pb_action a, char *err, size_t errlen)
{
    pd_state *copy = malloc(sizeof *copy);
    if (!copy)
        return pb_errorf(err, errlen, "out of memory");
    *copy = *st;
    int rc = run_steps(copy, a, err, errlen);
    if (rc == 0)
        *st = *copy; /* all or nothing: a refused part leaves the game as it was */
    free(copy);
    return rc;
}
