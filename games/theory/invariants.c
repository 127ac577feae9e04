/* invariants.c -- what must hold in every Pizza Theory state, for the tests
 * and the fuzzer: every topping is on the board or in its supply, no space
 * holds two, and the turn bookkeeping is in range. */
#include "../../core/error.h"
#include "theory.h"

int th_check_invariants(const th_state *st, char *err, size_t errlen)
{
    const th_board *b = &st->rules->board;
    for (int c = 0; c < TH_COLOURS; c++) {
        if (st->occ[c] & ~b->all)
            return pb_errorf(err, errlen, "colour %d has a topping off the board", c);
        if (__builtin_popcountll(st->occ[c]) + st->supply[c] != b->toppings)
            return pb_errorf(err, errlen, "colour %d: %d on the board + %d in supply != %d", c,
                             __builtin_popcountll(st->occ[c]), st->supply[c], b->toppings);
        for (int d = c + 1; d < TH_COLOURS; d++)
            if (st->occ[c] & st->occ[d])
                return pb_errorf(err, errlen, "colours %d and %d share a space", c, d);
    }
    bool turn = st->phase == TH_PH_PLACE || st->phase == TH_PH_CUT;
    if (st->phase > TH_PH_OVER || (turn && st->step >= st->players))
        return pb_errorf(err, errlen, "phase %d step %d out of range", st->phase, st->step);
    if ((st->phase == TH_PH_OVER) != (st->end != TH_END_NONE))
        return pb_errorf(err, errlen, "over without an end, or an end while playing");
    if (st->winners >> st->players || (st->winners && st->end != TH_END_FULL))
        return pb_errorf(err, errlen, "winners %#x do not fit the end %d", st->winners, st->end);
    for (int d = 0; d < TH_SIDES; d++)
        if (st->cut[d] > TH_LINES || st->last_cut[d] > TH_LINES)
            return pb_errorf(err, errlen, "side %d has a cut outside 1..%d", d + 1, TH_LINES);
    if (st->round >= st->rules->max_rounds)
        return pb_errorf(err, errlen, "round %d beyond the limit", st->round + 1);
    return 0;
}
