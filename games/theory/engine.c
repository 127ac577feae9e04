/* engine.c -- Pizza Theory: setup, turn order, moves and the resolution of
 * the cuts. Every decision is one action: a put (the cell index) or a cut
 * (TH_ACT_CUT + line). Chance (the start player, the 2-player die) comes from
 * the state's own generator. */
#include <stdio.h>
#include <string.h>

#include "../../core/error.h"
#include "theory.h"

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* The colour facing each side in round 0; the board turns one side a round. */
static int base_colour(const th_state *st, int i)
{
    if (st->players == 3)
        return (st->s0 + i) % 3;
    return i == 0 ? st->s0 : i == 1 ? 1 - st->s0 : TH_NEUTRAL;
}

int th_side_colour(const th_state *st, int d)
{
    return base_colour(st, (d + st->round) % TH_SIDES);
}

int th_colour_side(const th_state *st, int colour)
{
    for (int d = 0; d < TH_SIDES; d++)
        if (th_side_colour(st, d) == colour)
            return d;
    return 0;
}

/* PT-S2: 3 players go in side order; PT-2P1: 2 players alternate who is first. */
int th_first_player(const th_state *st)
{
    if (st->players == 3)
        return th_side_colour(st, 0);
    return st->round % 2 ? 1 - st->s0 : st->s0;
}

/* The i-th seat to add a topping, or to cut, this round. */
static int in_order(const th_state *st, int i)
{
    if (st->players == 3)
        return th_side_colour(st, i);
    return i == 0 ? th_first_player(st) : 1 - th_first_player(st);
}

static uint64_t occupied(const th_state *st)
{
    return st->occ[0] | st->occ[1] | st->occ[2];
}

uint64_t th_placeable(const th_state *st, int c)
{
    const th_board *b = &st->rules->board;
    if (st->supply[c] == 0)
        return 0;
    uint64_t near_own = 0;
    for (uint64_t m = st->occ[c]; m; m &= m - 1)
        near_own |= b->next[__builtin_ctzll(m)];
    return b->all & ~occupied(st) & ~near_own;
}

/* PT-2P2: empty spaces in the two rows the neutral's line runs between. */
static uint64_t neutral_spaces(const th_state *st)
{
    if (st->supply[TH_NEUTRAL] == 0 || st->die == 0)
        return 0;
    const th_board *b = &st->rules->board;
    return b->near[th_colour_side(st, TH_NEUTRAL)][st->die - 1] & b->all & ~occupied(st);
}

static void start_round(th_state *st);

void th_init(th_state *st, const th_rules *r, uint64_t seed)
{
    memset(st, 0, sizeof *st);
    st->rules = r;
    st->players = (uint8_t)r->players;
    pb_rng_seed(&st->rng, seed);
    st->s0 = (uint8_t)(r->first >= 0 ? r->first : (int)pb_rng_below(&st->rng, (uint32_t)r->players));
    for (int c = 0; c < TH_COLOURS; c++)
        st->supply[c] = (uint8_t)r->board.toppings;
    /* PT-S1: each colour starts on the start spaces of the side it faces. */
    for (int d = 0; d < TH_SIDES; d++) {
        int c = th_side_colour(st, d);
        for (int i = 0; i < r->board.nstart[d]; i++) {
            st->occ[c] |= 1ull << r->board.start[d][i];
            st->supply[c]--;
        }
    }
    start_round(st);
}

int th_current_seat(const th_state *st)
{
    switch (st->phase) {
    case TH_PH_PLACE:
    case TH_PH_CUT: return in_order(st, st->step);
    case TH_PH_NEUTRAL: return th_first_player(st);
    default: return PB_TERMINAL;
    }
}

/* ---- The resolution (PT-R3..R6) ---- */

void th_settle(const uint64_t *region, const uint64_t *occ, th_outcome *o)
{
    o->safe = 7;
    for (int reg = 0; reg < TH_REGIONS; reg++)
        for (int c = 0; c < TH_COLOURS; c++)
            if ((o->n[reg][c] = popcount(occ[c] & region[reg])) > 1)
                o->safe &= ~(1u << c); /* PT-R4: two toppings in one region */
    for (int reg = 0; reg < TH_REGIONS; reg++) {
        const int *k = o->n[reg];
        int m = k[0] > k[1] ? k[0] : k[1];
        m = k[2] > m ? k[2] : m;
        unsigned most = (unsigned)(k[0] == m) | (unsigned)(k[1] == m) << 1 | (unsigned)(k[2] == m) << 2;
        o->losers[reg] = 0;
        o->taker[reg] = -1;
        if (m == 0 || most == 7) /* an empty region, or a three-way tie */
            continue;
        /* PT-R5: the unsafe others lose their toppings; a sole majority
         * takes them, a two-way tie only removes the third's. */
        o->losers[reg] = (uint8_t)(~most & 7u & ~o->safe);
        if (popcount(most) == 1)
            o->taker[reg] = (int8_t)__builtin_ctz(most);
    }
}

unsigned th_resolve(const th_rules *r, const uint64_t *occ, const uint8_t *supply, const uint8_t *cuts,
                    uint64_t *occ_out, uint8_t *supply_out, uint8_t *short_out)
{
    const uint64_t *region = th_regions(r, cuts);
    th_outcome o;
    th_settle(region, occ, &o);
    uint64_t take[TH_COLOURS] = {0}, removed[TH_COLOURS] = {0};
    for (int reg = 0; reg < TH_REGIONS; reg++)
        for (int c = 0; c < TH_COLOURS; c++)
            if (o.losers[reg] >> c & 1u) {
                removed[c] |= occ[c] & region[reg];
                if (o.taker[reg] >= 0)
                    take[o.taker[reg]] |= occ[c] & region[reg];
            }
    for (int c = 0; c < TH_COLOURS; c++) {
        occ_out[c] = occ[c] & ~removed[c];
        supply_out[c] = supply[c];
    }
    /* PT-R5, PT-R6: removed toppings are returned to their owners, so they
     * refill the owner's replacements with the rest of its supply (edition 1:
     * only after them). Spaces the supply cannot fill stay empty, in board
     * order: a colour that runs out then has all its toppings on the pizza. */
    for (int w = 0; w < TH_COLOURS; w++) {
        int back = popcount(removed[w]), have = supply[w] + (r->edition >= 2 ? back : 0);
        int want = popcount(take[w]), made = 0;
        for (uint64_t m = take[w]; m && made < have; m &= m - 1, made++)
            occ_out[w] |= m & -m;
        supply_out[w] = (uint8_t)(supply[w] + back - made);
        short_out[w] = (uint8_t)(want - made);
    }
    return o.safe;
}

/* PT-E1, PT-2P3, PT-E2: is the game over after this round? */
static bool game_over(th_state *st)
{
    const int all = st->rules->board.toppings;
    if (st->players == 2 && popcount(st->occ[TH_NEUTRAL]) == all) {
        st->end = TH_END_NEUTRAL;
        return true;
    }
    int best = -1;
    unsigned winners = 0;
    for (int p = 0; p < st->players; p++) {
        if (popcount(st->occ[p]) != all)
            continue;
        int score = all + st->short_by[p]; /* what they would have counting the missing replacements */
        if (score > best)
            best = score, winners = 0;
        if (score == best)
            winners |= 1u << p;
    }
    if (winners) {
        st->winners = (uint8_t)winners;
        st->end = TH_END_FULL;
        return true;
    }
    if (st->round + 1 >= st->rules->max_rounds) {
        st->end = TH_END_DRAW;
        return true;
    }
    return false;
}

static void end_round(th_state *st)
{
    memcpy(st->before, st->occ, sizeof st->occ);
    memcpy(st->last_cut, st->cut, sizeof st->cut);
    for (int d = 0; d < TH_SIDES; d++)
        st->last_side_colour[d] = (uint8_t)th_side_colour(st, d);
    uint64_t occ[TH_COLOURS];
    uint8_t supply[TH_COLOURS];
    st->safe = (uint8_t)th_resolve(st->rules, st->before, st->supply, st->cut, occ, supply, st->short_by);
    memcpy(st->occ, occ, sizeof occ);
    memcpy(st->supply, supply, sizeof supply);
    st->last_round = (uint16_t)(st->round + 1);
    if (game_over(st)) {
        st->phase = TH_PH_OVER;
        return;
    }
    st->round++;
    start_round(st);
}

/* After the adds: the 2-player neutral turn (PT-2P2), then the cuts. */
static void after_adds(th_state *st)
{
    if (st->players == 2) {
        st->die = (uint8_t)(1 + pb_rng_below(&st->rng, TH_LINES));
        st->cut[th_colour_side(st, TH_NEUTRAL)] = st->die;
        if (neutral_spaces(st)) {
            st->phase = TH_PH_NEUTRAL;
            return;
        }
        st->skipped |= 1u << TH_NEUTRAL; /* nowhere beside the line: no neutral topping */
    }
    st->phase = TH_PH_CUT;
    st->step = 0;
}

/* Move to the next seat that can add a topping (PT-R1: others skip). */
static void next_adder(th_state *st)
{
    while (st->step < st->players && th_placeable(st, in_order(st, st->step)) == 0)
        st->skipped |= (uint8_t)(1u << in_order(st, st->step++));
    if (st->step == st->players)
        after_adds(st);
}

static void start_round(th_state *st)
{
    memset(st->cut, 0, sizeof st->cut);
    st->die = 0;
    st->skipped = 0;
    st->phase = TH_PH_PLACE;
    st->step = 0;
    next_adder(st);
}

/* ---- Moves ---- */

static uint64_t put_spaces(const th_state *st)
{
    if (st->phase == TH_PH_PLACE)
        return th_placeable(st, th_current_seat(st));
    return st->phase == TH_PH_NEUTRAL ? neutral_spaces(st) : 0;
}

int th_legal_actions(const th_state *st, pb_action *out)
{
    int n = 0;
    if (st->phase == TH_PH_CUT) {
        for (int k = 1; k <= TH_LINES; k++)
            out[n++] = TH_ACT_CUT + (pb_action)k;
        return n;
    }
    for (uint64_t m = put_spaces(st); m; m &= m - 1)
        out[n++] = (pb_action)__builtin_ctzll(m);
    return n;
}

pb_action th_random_action(const th_state *st, pb_rng *rng)
{
    if (st->phase == TH_PH_CUT)
        return TH_ACT_CUT + 1 + pb_rng_below(rng, TH_LINES);
    uint64_t m = put_spaces(st);
    if (!m)
        return 0;
    for (uint32_t skip = pb_rng_below(rng, (uint32_t)popcount(m)); skip; skip--)
        m &= m - 1;
    return (pb_action)__builtin_ctzll(m);
}

bool th_is_legal(const th_state *st, pb_action a)
{
    if (st->phase == TH_PH_CUT)
        return a > TH_ACT_CUT && a <= TH_ACT_CUT + TH_LINES;
    return a < TH_MAX_CELLS && (put_spaces(st) >> a & 1u);
}

/* A space of colour c next to `cell`, or -1. */
static int own_neighbour(const th_state *st, int c, int cell)
{
    uint64_t m = st->occ[c] & st->rules->board.next[cell];
    return m ? __builtin_ctzll(m) : -1;
}

int th_why_illegal(const th_state *st, pb_action a, char *err, size_t errlen)
{
    static const char *const colour_names[TH_COLOURS] = {"Red", "Green", "White"};
    const th_board *b = &st->rules->board;
    char asked[160];
    th_asked_now(st, asked, sizeof asked);
    if (st->phase == TH_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    if (st->phase == TH_PH_CUT)
        return pb_errorf(err, errlen, "now is the time to cut: choose a line 1 to %d, e.g. cut 4 (or just 4)",
                         TH_LINES);
    if (a >= TH_ACT_CUT)
        return pb_errorf(err, errlen, "no cutting yet; now %s", asked);
    if (a >= (pb_action)b->ncells)
        return pb_errorf(err, errlen, "there is no such space on the board");
    const char *label = th_cell_name(b, (int)a);
    pb_action legal[TH_MAX_CELLS];
    const char *eg = th_legal_actions(st, legal) > 0 ? th_cell_name(b, (int)legal[0]) : "?";
    for (int c = 0; c < TH_COLOURS; c++)
        if (st->occ[c] >> a & 1u)
            return pb_errorf(err, errlen, "%s already has a topping (%s); try an empty space, e.g. put %s", label,
                             st->players == 2 && c == TH_NEUTRAL ? "the neutral White" : colour_names[c], eg);
    if (st->phase == TH_PH_NEUTRAL)
        return pb_errorf(err, errlen, "%s is not next to line %d: the neutral goes next to the die's line (e.g. put "
                         "%s)", label, st->die, eg);
    return pb_errorf(err, errlen, "%s is next to your topping on %s: none may go next to your own (e.g. put %s)",
                     label, th_cell_name(b, own_neighbour(st, th_current_seat(st), (int)a)), eg);
}

int th_apply(th_state *st, pb_action a, char *err, size_t errlen)
{
    if (!th_is_legal(st, a))
        return th_why_illegal(st, a, err, errlen);
    int seat = th_current_seat(st);
    switch (st->phase) {
    case TH_PH_PLACE:
        st->occ[seat] |= 1ull << a;
        st->supply[seat]--;
        st->step++;
        next_adder(st);
        break;
    case TH_PH_NEUTRAL:
        st->occ[TH_NEUTRAL] |= 1ull << a;
        st->supply[TH_NEUTRAL]--;
        st->phase = TH_PH_CUT;
        st->step = 0;
        break;
    case TH_PH_CUT:
        st->cut[th_colour_side(st, seat)] = (uint8_t)(a - TH_ACT_CUT);
        if (++st->step == st->players)
            end_round(st);
        break;
    }
    return 0;
}

/* Lines that win the game outright for the seat to cut (bit k for line k),
 * whatever lines the other players cut: the round's last step is scored at
 * once, so each of the 6 or 36 ways the others may cut is tried. */
unsigned th_sure_cuts(const th_state *st)
{
    if (st->phase != TH_PH_CUT)
        return 0;
    int seat = th_current_seat(st), mine = th_colour_side(st, seat), others[TH_SIDES], m = 0, ways = 1;
    for (int d = 0; d < TH_SIDES; d++)
        if (d != mine && !(st->players == 2 && th_side_colour(st, d) == TH_NEUTRAL))
            others[m++] = d, ways *= TH_LINES;
    unsigned sure = 0;
    th_state t;
    for (int k = 1; k <= TH_LINES; k++) {
        bool wins = true;
        for (int w = 0; w < ways && wins; w++) {
            t = *st;
            t.cut[mine] = (uint8_t)k;
            for (int i = 0, rest = w; i < m; i++, rest /= TH_LINES)
                t.cut[others[i]] = (uint8_t)(1 + rest % TH_LINES);
            end_round(&t);
            wins = t.phase == TH_PH_OVER && t.end == TH_END_FULL && t.winners == 1u << seat;
        }
        if (wins)
            sure |= 1u << k;
    }
    return sure;
}

/* A cut is hidden from everyone but its maker until all are revealed; the
 * 2-player die is public. */
static bool cut_hidden_from(const th_state *st, int d, int seat)
{
    int c = th_side_colour(st, d);
    return st->phase == TH_PH_CUT && st->cut[d] && c != seat && !(st->players == 2 && c == TH_NEUTRAL);
}

int th_unseen_cuts(const th_state *st, int seat)
{
    int n = 0;
    for (int d = 0; d < TH_SIDES; d++)
        n += cut_hidden_from(st, d, seat);
    return n;
}

void th_determinize(th_state *st, int seat, pb_rng *rng)
{
    /* A hidden cut is guessed as the player who made it would likely have
     * chosen (the evaluation's model), not uniformly: the search then meets
     * the lines it fears most as often as they are chosen. */
    double w[TH_SIDES][TH_LINES + 1];
    if (th_unseen_cuts(st, seat))
        th_line_weights(st, w);
    for (int d = 0; d < TH_SIDES; d++)
        if (cut_hidden_from(st, d, seat)) {
            double x = pb_rng_next(rng) / 4294967296.0, total = 0;
            for (int k = 1; k <= TH_LINES; k++)
                total += w[d][k];
            int k = 1;
            for (x *= total; k < TH_LINES && (x -= w[d][k]) >= 0; k++)
                ;
            st->cut[d] = (uint8_t)k;
        }
    pb_rng_seed(&st->rng, (uint64_t)pb_rng_next(rng) << 32 | pb_rng_next(rng));
}

void th_returns(const th_state *st, double *out)
{
    int k = popcount(st->winners);
    for (int p = 0; p < st->players; p++)
        out[p] = (st->winners >> p & 1u) ? 1.0 / k : 0.0;
}
