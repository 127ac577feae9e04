/* test_theory_rules.c -- the Pizza Theory rules contract, rule by rule
 * (shared/specs/pizza-theory.md).
 *
 * Every test names the rule id it checks. Positions are written as lists of
 * spaces "x,y,z x,y,z ..." per colour and put straight into a th_state; the
 * round is then resolved with th_resolve, or played on with th_apply so the
 * game's own bookkeeping (round end, winners) runs too.
 *
 * Most resolution scenarios cut 4 4 4: on the default board the three lines
 * through the centre, x <= 0 | x > 0, y <= 0 | y > 0, z <= 0 | z > 0. They
 * give 7 regions, named by the coordinates that are > 0:
 *   O  (0,0,0)
 *   X  x > 0 (9): 1,0,-1 1,-1,0 2,0,-2 2,-1,-1 2,-2,0 3,0,-3 3,-1,-2 3,-2,-1 3,-3,0
 *   Y  y > 0 (9): 0,1,-1 -1,1,0 0,2,-2 -1,2,-1 -2,2,0 0,3,-3 -1,3,-2 -2,3,-1 -3,3,0
 *   Z  z > 0 (9): 0,-1,1 -1,0,1 0,-2,2 -1,-1,2 -2,0,2 0,-3,3 -1,-2,3 -2,-1,3 -3,0,3
 *   XY (3): 1,1,-2 1,2,-3 2,1,-3
 *   XZ (3): 1,-2,1 1,-3,2 2,-3,1
 *   YZ (3): -2,1,1 -3,1,2 -3,2,1
 * (test_PT_R3_regions_of_the_centre_cuts checks this table.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "support.h"
#include "../../games/theory/theory.h"

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define REG_O "0,0,0"
#define REG_X "1,0,-1 1,-1,0 2,0,-2 2,-1,-1 2,-2,0 3,0,-3 3,-1,-2 3,-2,-1 3,-3,0"
#define REG_Y "0,1,-1 -1,1,0 0,2,-2 -1,2,-1 -2,2,0 0,3,-3 -1,3,-2 -2,3,-1 -3,3,0"
#define REG_Z "0,-1,1 -1,0,1 0,-2,2 -1,-1,2 -2,0,2 0,-3,3 -1,-2,3 -2,-1,3 -3,0,3"
#define REG_XY "1,1,-2 1,2,-3 2,1,-3"
#define REG_XZ "1,-2,1 1,-3,2 2,-3,1"
#define REG_YZ "-2,1,1 -3,1,2 -3,2,1"

/* Default board; 3 players with seat 0 first, 2 players with seat 0 first;
 * R3_E1: 3 players by edition 1 of the rules (removed toppings went home
 * only after the replacements). */
static th_rules R3, R2, R3_E1;

static void rules_for(th_rules *r, int players, int first, int edition)
{
    memset(r, 0, sizeof *r);
    th_board_default(&r->board);
    r->players = players;
    r->first = first;
    r->max_rounds = TH_MAX_ROUNDS;
    r->edition = edition;
    th_rules_setup(r);
}

static int setup(void **state)
{
    (void)state;
    rules_for(&R3, 3, 0, TH_EDITION);
    rules_for(&R2, 2, 0, TH_EDITION);
    rules_for(&R3_E1, 3, 0, 1);
    return 0;
}

/* ------------------------------------------------------------- positions */

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* The default board's space at x,y,z (the test fails if there is none). */
static int cell(int x, int y, int z)
{
    int c = th_cell_at(&R3.board, x, y, z);
    if (c < 0)
        fail_msg("%d,%d,%d is not a space of the default board", x, y, z);
    return c;
}

/* Spaces written "x,y,z x,y,z ..." as a mask. */
static uint64_t spaces(const char *list)
{
    uint64_t m = 0;
    int x, y, z, n;
    while (sscanf(list, " %d,%d,%d%n", &x, &y, &z, &n) == 3) {
        uint64_t bit = 1ull << cell(x, y, z);
        if (m & bit)
            fail_msg("space %d,%d,%d listed twice in a scenario", x, y, z);
        m |= bit;
        list += n;
    }
    while (*list == ' ')
        list++;
    if (*list)
        fail_msg("bad space list at '%s'", list);
    return m;
}

/* A fresh game (seed 1) whose toppings are exactly these; each colour's
 * supply is what is not on the board. */
static void position(th_state *st, const th_rules *r, const char *c0, const char *c1, const char *c2)
{
    const char *list[TH_COLOURS] = {c0, c1, c2};
    th_init(st, r, 1);
    for (int c = 0; c < TH_COLOURS; c++) {
        st->occ[c] = spaces(list[c]);
        st->supply[c] = (uint8_t)(16 - popcount(st->occ[c]));
    }
}

/* Jump to the cut phase of round `round` (from 0) with no cut chosen. */
static void cut_phase(th_state *st, int round)
{
    st->round = (uint16_t)round;
    st->phase = TH_PH_CUT;
    st->step = 0;
    st->die = 0;
    memset(st->cut, 0, sizeof st->cut);
}

/* Apply an action in notation; the test fails with the engine's reason if
 * it is refused. */
static void act(th_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (th_action_from_text(st, text, &a, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    if (th_apply(st, a, err, sizeof err) != 0)
        fail_msg("'%s' not applied: %s", text, err);
}

/* Expect an action to be refused with a reason containing `why`, leaving
 * the state unchanged. */
static void refused(th_state *st, const char *text, const char *why)
{
    th_state before = *st;
    pb_action a;
    char err[PB_ERR_LEN] = "";
    int rc = th_action_from_text(st, text, &a, err, sizeof err);
    if (rc == 0)
        rc = th_apply(st, a, err, sizeof err);
    if (rc == 0)
        fail_msg("'%s' was accepted", text);
    if (!strstr(err, why))
        fail_msg("'%s' refused with '%s', expected '%s'", text, err, why);
    assert_memory_equal(&before, st, sizeof before);
}

/* Every seat still to cut this round cuts the line lines[d] of the side d
 * it faces (a 2-player neutral's line is the die, already set). */
static void cut_lines(th_state *st, int k0, int k1, int k2)
{
    const int lines[TH_SIDES] = {k0, k1, k2};
    for (int left = st->players - st->step; left > 0; left--) {
        assert_int_equal(st->phase, TH_PH_CUT);
        int d = th_colour_side(st, th_current_seat(st));
        char text[8];
        snprintf(text, sizeof text, "%d", lines[d]);
        act(st, text);
    }
}

/* Put a topping on the first legal space (place or neutral phase). */
static void put_first(th_state *st)
{
    pb_action acts[TH_MAX_CELLS];
    char err[PB_ERR_LEN];
    assert_true(st->phase == TH_PH_PLACE || st->phase == TH_PH_NEUTRAL);
    assert_true(th_legal_actions(st, acts) > 0);
    assert_int_equal(th_apply(st, acts[0], err, sizeof err), 0);
}

/* ---------------------------------------------------------- resolutions */

typedef struct outcome {
    uint64_t occ[TH_COLOURS];
    uint8_t supply[TH_COLOURS], short_by[TH_COLOURS];
    unsigned safe;
} outcome;

/* Resolve cuts k0 k1 k2 (by side) on the default board for this position,
 * by these rules (resolve: the current ones, 3 players). */
static outcome resolve_by(const th_rules *r, const char *c0, const char *c1, const char *c2, int k0, int k1, int k2)
{
    th_state st;
    outcome o;
    const uint8_t cuts[TH_SIDES] = {(uint8_t)k0, (uint8_t)k1, (uint8_t)k2};
    position(&st, r, c0, c1, c2);
    o.safe = th_resolve(r, st.occ, st.supply, cuts, o.occ, o.supply, o.short_by);
    return o;
}

static outcome resolve(const char *c0, const char *c1, const char *c2, int k0, int k1, int k2)
{
    return resolve_by(&R3, c0, c1, c2, k0, k1, k2);
}

static void assert_colour(const outcome *o, int c, const char *want, int supply, int short_by)
{
    assert_int_equal(o->occ[c], spaces(want));
    assert_int_equal(o->supply[c], supply);
    assert_int_equal(o->short_by[c], short_by);
}

/* ------------------------------------------------------------------ views */

static json_t *side_in(const json_t *view, int d)
{
    return json_array_get(json_object_get(view, "sides"), (size_t)d);
}

static char *view_text(const th_state *st, int seat)
{
    json_t *v = th_view(st, seat);
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(v);
    return s;
}

/* ================================================================= board */

/* PT-B1: 37 spaces, every cube coordinate with x + y + z = 0 and each
 * |coordinate| <= 3 exactly once; "next to" is one lattice step: the centre
 * has 6 neighbours, the 6 corners 3, the other 12 rim spaces 4. */
static void test_PT_B1_37_spaces_and_neighbours(void **state)
{
    (void)state;
    const th_board *b = &R3.board;
    assert_int_equal(b->ncells, 37);
    assert_int_equal(b->all, (1ull << 37) - 1);
    int found = 0;
    for (int x = -3; x <= 3; x++)
        for (int y = -3; y <= 3; y++) {
            int z = -x - y;
            if (z >= -3 && z <= 3) {
                assert_true(th_cell_at(b, x, y, z) >= 0);
                found++;
            }
        }
    assert_int_equal(found, 37);
    assert_int_equal(th_cell_at(b, 1, 1, 1), -1);
    assert_int_equal(th_cell_at(b, 4, -4, 0), -1);

    int degree[7] = {0};
    for (int i = 0; i < 37; i++) {
        assert_int_equal(b->cube[i][0] + b->cube[i][1] + b->cube[i][2], 0);
        for (int j = 0; j < 37; j++) {
            int far = 0;
            for (int a = 0; a < 3; a++)
                far = abs(b->cube[i][a] - b->cube[j][a]) > far ? abs(b->cube[i][a] - b->cube[j][a]) : far;
            assert_int_equal((int)(b->next[i] >> j & 1u), far == 1);
        }
        degree[popcount(b->next[i])]++;
    }
    assert_int_equal(degree[6], 19);
    assert_int_equal(degree[4], 12);
    assert_int_equal(degree[3], 6);
    assert_int_equal(b->next[cell(0, 0, 0)], spaces("1,-1,0 1,0,-1 0,1,-1 -1,1,0 -1,0,1 0,-1,1"));
    assert_int_equal(b->next[cell(-3, 3, 0)], spaces("-3,2,1 -2,2,0 -2,3,-1"));
    assert_int_equal(b->toppings, 16);
}

/* PT-B2: side d cuts along axis d; its line k runs between the rows with
 * coordinate k-4 and k-3, so line 1 cuts off the 4 spaces of the edge
 * where that coordinate is -3 and line 6 all but the 4 of the far edge. */
static void test_PT_B2_sides_and_line_masks(void **state)
{
    (void)state;
    const th_board *b = &R3.board;
    static const int low_count[TH_LINES] = {4, 9, 15, 22, 28, 33};
    for (int d = 0; d < TH_SIDES; d++) {
        assert_int_equal(b->axis[d], d);
        for (int k = 1; k <= TH_LINES; k++) {
            uint64_t low = 0, near = 0;
            for (int i = 0; i < b->ncells; i++) {
                int c = b->cube[i][d];
                low |= (uint64_t)(c <= k - 4) << i;
                near |= (uint64_t)(c == k - 4 || c == k - 3) << i;
            }
            assert_int_equal(b->line[d][k - 1], k - 4);
            assert_int_equal(b->low[d][k - 1], low);
            assert_int_equal(b->near[d][k - 1], near);
            assert_int_equal(popcount(b->low[d][k - 1]), low_count[k - 1]);
        }
    }
    assert_int_equal(b->low[0][0], spaces("-3,0,3 -3,1,2 -3,2,1 -3,3,0"));
    assert_int_equal(b->low[1][0], spaces("0,-3,3 1,-3,2 2,-3,1 3,-3,0"));
    assert_int_equal(b->low[2][0], spaces("0,3,-3 1,2,-3 2,1,-3 3,0,-3"));
    /* Line 4 of side 0 runs between x = 0 and x = 1. */
    assert_int_equal(b->near[0][3], spaces("0,-3,3 0,-2,2 0,-1,1 0,0,0 0,1,-1 0,2,-2 0,3,-3 "
                                           "1,-3,2 1,-2,1 1,-1,0 1,0,-1 1,1,-2 1,2,-3"));
}

/* PT-B3: the start spaces are the two middle spaces of each side's edge. */
static void test_PT_B3_start_spaces(void **state)
{
    (void)state;
    const th_board *b = &R3.board;
    static const char *const want[TH_SIDES] = {"-3,1,2 -3,2,1", "2,-3,1 1,-3,2", "1,2,-3 2,1,-3"};
    for (int d = 0; d < TH_SIDES; d++) {
        assert_int_equal(b->nstart[d], 2);
        assert_int_equal(1ull << b->start[d][0] | 1ull << b->start[d][1], spaces(want[d]));
    }
}

/* ================================================================= setup */

/* PT-S1: the start player faces side 0, the next seats sides 1 and 2; each
 * colour starts on its side's two start spaces with 14 toppings left. */
static void test_PT_S1_setup_on_start_spaces(void **state)
{
    (void)state;
    static const char *const start[TH_SIDES] = {"-3,1,2 -3,2,1", "2,-3,1 1,-3,2", "1,2,-3 2,1,-3"};
    for (int first = 0; first < 3; first++) {
        th_rules r;
        th_state st;
        rules_for(&r, 3, first, TH_EDITION);
        th_init(&st, &r, 9);
        assert_int_equal(st.s0, first);
        for (int c = 0; c < 3; c++) {
            int d = (c - first + 3) % 3;
            assert_int_equal(th_side_colour(&st, d), c);
            assert_int_equal(st.occ[c], spaces(start[d]));
            assert_int_equal(st.supply[c], 14);
        }
        assert_int_equal(st.phase, TH_PH_PLACE);
        assert_int_equal(th_current_seat(&st), first);
        json_t *v = th_view(&st, PB_SPECTATOR);
        assert_int_equal(json_integer_value(json_object_get(v, "round")), 1);
        assert_int_equal(json_integer_value(json_object_get(v, "first")), first);
        assert_int_equal(json_integer_value(json_object_get(side_in(v, 0), "colour")), first);
        json_decref(v);
    }
}

/* PT-S1: a "random" start player is drawn from the seed: the same seed
 * always gives the same one, and every seat starts for some seed. */
static void test_PT_S1_start_player_from_seed(void **state)
{
    (void)state;
    th_rules r;
    rules_for(&r, 3, -1, TH_EDITION);
    int seen[3] = {0};
    for (uint64_t seed = 0; seed < 300; seed++) {
        th_state a, b;
        th_init(&a, &r, seed);
        th_init(&b, &r, seed);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(a.s0 < 3);
        assert_int_equal(th_side_colour(&a, 0), a.s0);
        assert_int_equal(th_current_seat(&a), a.s0);
        seen[a.s0]++;
    }
    for (int s = 0; s < 3; s++)
        assert_true(seen[s] > 50);
}

/* PT-S2: in round r seat (s0 + d + r) mod 3 faces side d. Played out over
 * five rounds: the seats add in side order, each seat's cut lands on the
 * side it faces (seat c always cuts line c + 1 here), and the view and the
 * reveal say who faced which side. */
static void test_PT_S2_board_turns_each_round(void **state)
{
    (void)state;
    th_rules r;
    rules_for(&r, 3, 1, TH_EDITION);
    th_state st;
    th_init(&st, &r, 4);
    for (int round = 0; round < 5; round++) {
        assert_int_equal(st.round, round);
        for (int d = 0; d < TH_SIDES; d++) {
            int c = (1 + d + round) % 3;
            assert_int_equal(th_side_colour(&st, d), c);
            assert_int_equal(th_colour_side(&st, c), d);
        }
        assert_int_equal(th_first_player(&st), (1 + round) % 3);
        json_t *v = th_view(&st, 0);
        for (int d = 0; d < TH_SIDES; d++)
            assert_int_equal(json_integer_value(json_object_get(side_in(v, d), "colour")), (1 + d + round) % 3);
        json_decref(v);
        for (int d = 0; d < TH_SIDES; d++) {
            assert_int_equal(st.phase, TH_PH_PLACE);
            assert_int_equal(th_current_seat(&st), (1 + d + round) % 3);
            put_first(&st);
        }
        for (int d = 0; d < TH_SIDES; d++) {
            int seat = th_current_seat(&st);
            assert_int_equal(seat, (1 + d + round) % 3);
            char text[8];
            snprintf(text, sizeof text, "%d", seat + 1);
            act(&st, text);
        }
        for (int d = 0; d < TH_SIDES; d++) {
            assert_int_equal(st.last_side_colour[d], (1 + d + round) % 3);
            assert_int_equal(st.last_cut[d], st.last_side_colour[d] + 1);
        }
        assert_int_equal(st.last_round, round + 1);
    }
}

/* PT-S2 with PT-2P1: two players and the neutral take the three sides and
 * every colour moves on one side each round, as with three players. */
static void test_PT_S2_two_player_sides_turn(void **state)
{
    (void)state;
    for (int players = 2; players <= 3; players++) {
        th_state st;
        th_init(&st, players == 2 ? &R2 : &R3, 3);
        for (int round = 0; round < 6; round++) {
            st.round = (uint16_t)round;
            unsigned faced = 0;
            for (int c = 0; c < TH_COLOURS; c++) {
                int d = th_colour_side(&st, c);
                faced |= 1u << d;
                assert_int_equal(th_side_colour(&st, d), c);
                st.round = (uint16_t)(round + 1);
                assert_int_equal(th_colour_side(&st, c), (d + 2) % 3);
                st.round = (uint16_t)round;
            }
            assert_int_equal(faced, 7u);
        }
    }
}

/* ============================================================= placement */

/* PT-R1: the seat to add may use exactly the empty spaces that are not next
 * to one of its own toppings -- next to someone else's is fine. */
static void test_PT_R1_legal_spaces(void **state)
{
    (void)state;
    th_state st;
    th_init(&st, &R3, 1);
    const th_board *b = &R3.board;
    for (int turn = 0; turn < 3; turn++) {
        int seat = th_current_seat(&st);
        assert_int_equal(seat, turn);
        uint64_t want = 0;
        for (int i = 0; i < b->ncells; i++) {
            bool empty = !((st.occ[0] | st.occ[1] | st.occ[2]) >> i & 1u), near_own = false;
            for (int j = 0; j < b->ncells; j++)
                if (st.occ[seat] >> j & 1u) {
                    int d = abs(b->cube[i][0] - b->cube[j][0]) + abs(b->cube[i][1] - b->cube[j][1]) +
                            abs(b->cube[i][2] - b->cube[j][2]);
                    near_own |= d == 2;
                }
            want |= (uint64_t)(empty && !near_own) << i;
        }
        pb_action acts[TH_MAX_CELLS];
        int n = th_legal_actions(&st, acts);
        uint64_t got = 0;
        for (int i = 0; i < n; i++)
            got |= 1ull << acts[i];
        assert_int_equal(n, popcount(want));
        assert_int_equal(got, want);
        assert_int_equal(th_placeable(&st, seat), want);
        put_first(&st);
    }
    assert_int_equal(st.phase, TH_PH_CUT);
    assert_int_equal(st.supply[0] + st.supply[1] + st.supply[2], 3 * 13);

    /* Seat 0, next to its start spaces and on them. */
    th_init(&st, &R3, 1);
    refused(&st, "put -2,1,1", "e2 is next to your topping on ");
    refused(&st, "put -3,1,2", "f1 already has a topping (Red)");
    refused(&st, "put 2,-3,1", "e6 already has a topping (Green)");
    /* Next to seat 1's start space is fine for seat 0. */
    act(&st, "put 1,-2,1");
    assert_true(st.occ[0] >> cell(1, -2, 1) & 1u);
    assert_int_equal(st.supply[0], 13);
}

/* PT-R1: a player with no space to add on skips. Seat 1's toppings are next
 * to every empty space; seats 0 and 2 hold the only spaces not next to
 * them. Seat 0 adds on 1,-3,2, seat 1 skips, seat 2 adds next. */
static void test_PT_R1_skip_without_space(void **state)
{
    (void)state;
    th_state st;
    position(&st, &R3, "-3,0,3 3,-3,0 3,-1,-2", "-3,2,1 -1,-1,2 -1,2,-1 1,-2,1 1,0,-1 1,2,-3",
             "0,-3,3 3,-2,-1 3,0,-3");
    assert_int_equal(th_placeable(&st, 1), 0);
    assert_true(th_placeable(&st, 0) >> cell(1, -3, 2) & 1u);
    assert_int_equal(th_current_seat(&st), 0);
    th_state before = st;
    act(&st, "put 1,-3,2");
    assert_int_equal(st.phase, TH_PH_PLACE);
    assert_int_equal(th_current_seat(&st), 2);
    assert_int_equal(st.supply[1], 10);
    /* The table is told, in the log's news and in every view. */
    char news[256];
    assert_true(th_news(&before, &st, news, sizeof news) > 0);
    assert_string_equal(news, "Green has no space to add a topping on (each empty one is next to one of Green's "
                              "own) and skips.");
    json_t *v = th_view(&st, PB_SPECTATOR);
    ts_assert_json(json_object_get(v, "skipped"), "[1]");
    json_decref(v);
    act(&st, "put 0,1,-1");
    assert_int_equal(st.phase, TH_PH_CUT);
    assert_int_equal(th_current_seat(&st), 0);
    assert_int_equal(st.supply[1], 10);
}

/* PT-R1: a player with no topping left skips, though there is room. Seat
 * 1 has all 16 on the rows x = 1..3 and 0,-3,3; -2,0,2 is empty and not
 * next to any of them. */
static void test_PT_R1_skip_without_toppings(void **state)
{
    (void)state;
    th_state st;
    position(&st, &R3, "-3,1,2 -3,2,1",
             "1,-3,2 1,-2,1 1,-1,0 1,0,-1 1,1,-2 1,2,-3 2,-3,1 2,-2,0 2,-1,-1 2,0,-2 2,1,-3 "
             "3,-3,0 3,-2,-1 3,-1,-2 3,0,-3 0,-3,3",
             "0,3,-3 -1,3,-2");
    assert_int_equal(st.supply[1], 0);
    uint64_t near1 = 0;
    for (uint64_t m = st.occ[1]; m; m &= m - 1)
        near1 |= R3.board.next[__builtin_ctzll(m)];
    assert_false((st.occ[0] | st.occ[1] | st.occ[2] | near1) >> cell(-2, 0, 2) & 1u);
    assert_int_equal(th_placeable(&st, 1), 0);
    act(&st, "put 0,0,0");
    assert_int_equal(th_current_seat(&st), 2);
    act(&st, "put -2,1,1");
    assert_int_equal(st.phase, TH_PH_CUT);
    assert_int_equal(popcount(st.occ[1]), 16);
}

/* ================================================================== cuts */

/* PT-R2: cuts are secret until all are in. Seat 0 cuts 4: the others' views
 * say side 1st has chosen but show no line, and do not change whichever
 * line it was; its own view shows 4; describe() gives the others "cut ?".
 * When the last cut is in, everyone sees all three. */
static void test_PT_R2_cuts_secret_until_revealed(void **state)
{
    (void)state;
    th_state st;
    th_init(&st, &R3, 1);
    for (int i = 0; i < 3; i++)
        put_first(&st);
    assert_int_equal(st.phase, TH_PH_CUT);
    assert_int_equal(th_current_seat(&st), 0);

    const pb_action cut4 = TH_ACT_CUT + 4;
    char text[32];
    assert_int_equal(th_action_text_for(&st, cut4, 0, text, sizeof text), 0);
    assert_string_equal(text, "cut 4");
    for (int viewer = -1; viewer < 3; viewer++) {
        if (viewer == 0)
            continue;
        assert_int_equal(th_action_text_for(&st, cut4, viewer, text, sizeof text), 0);
        assert_string_equal(text, "cut ?");
    }

    /* The others' views for each line seat 0 might have cut. */
    char *seen[TH_LINES][4];
    for (int k = 1; k <= TH_LINES; k++) {
        th_state s = st;
        char line[4];
        snprintf(line, sizeof line, "%d", k);
        act(&s, line);
        for (int viewer = -1; viewer < 3; viewer++)
            seen[k - 1][viewer + 1] = view_text(&s, viewer);
        assert_int_equal(th_unseen_cuts(&s, 0), 0);
        assert_int_equal(th_unseen_cuts(&s, 1), 1);
        assert_int_equal(th_unseen_cuts(&s, PB_SPECTATOR), 1);
    }
    for (int k = 2; k <= TH_LINES; k++) {
        for (int viewer = -1; viewer < 3; viewer++)
            if (viewer != 0 && strcmp(seen[0][viewer + 1], seen[k - 1][viewer + 1]) != 0)
                fail_msg("seat %d's view depends on seat 0's secret cut:\n%s\n%s", viewer, seen[0][viewer + 1],
                         seen[k - 1][viewer + 1]);
        /* The check above can tell: the maker's own view does change. */
        assert_string_not_equal(seen[0][1], seen[k - 1][1]);
    }
    for (int k = 0; k < TH_LINES; k++)
        for (int v = 0; v < 4; v++)
            free(seen[k][v]);

    act(&st, "4");
    for (int viewer = -1; viewer < 3; viewer++) {
        json_t *v = th_view(&st, viewer), *s0 = side_in(v, 0);
        assert_true(json_is_true(json_object_get(s0, "chosen")));
        if (viewer == 0)
            assert_int_equal(json_integer_value(json_object_get(s0, "cut")), 4);
        else
            assert_true(json_is_null(json_object_get(s0, "cut")));
        assert_true(json_is_null(json_object_get(v, "last")));
        json_decref(v);
    }
    act(&st, "cut 6");
    json_t *v = th_view(&st, 2);
    assert_true(json_is_null(json_object_get(side_in(v, 0), "cut")));
    assert_true(json_is_null(json_object_get(side_in(v, 1), "cut")));
    assert_true(json_is_true(json_object_get(side_in(v, 1), "chosen")));
    assert_false(json_is_true(json_object_get(side_in(v, 2), "chosen")));
    json_decref(v);
    v = th_view(&st, 0);
    assert_int_equal(json_integer_value(json_object_get(side_in(v, 0), "cut")), 4);
    assert_true(json_is_null(json_object_get(side_in(v, 1), "cut")));
    json_decref(v);

    act(&st, "1");
    assert_int_equal(st.round, 1);
    for (int viewer = -1; viewer < 3; viewer++) {
        v = th_view(&st, viewer);
        json_t *last = json_object_get(v, "last");
        ts_assert_json(json_object_get(last, "cuts"), "[4,6,1]");
        ts_assert_json(json_object_get(last, "side_colours"), "[0,1,2]");
        assert_int_equal(json_integer_value(json_object_get(last, "round")), 1);
        for (int d = 0; d < TH_SIDES; d++) {
            assert_true(json_is_null(json_object_get(side_in(v, d), "cut")));
            assert_false(json_is_true(json_object_get(side_in(v, d), "chosen")));
        }
        json_decref(v);
    }
}

/* PT-R3: the centre cuts 4 4 4 give the 7 regions of the table at the top
 * of this file; the edge cuts 1 1 1 give 4 (three edges and the rest). The
 * view's reveal numbers each space's region. */
static void test_PT_R3_regions_of_the_centre_cuts(void **state)
{
    (void)state;
    const uint8_t centre[TH_SIDES] = {4, 4, 4}, edges[TH_SIDES] = {1, 1, 1};
    const uint64_t *reg = th_regions(&R3, centre);
    const uint64_t want[] = {spaces(REG_O), spaces(REG_X), spaces(REG_Y), spaces(REG_Z),
                             spaces(REG_XY), spaces(REG_XZ), spaces(REG_YZ)};
    int found = 0;
    for (int i = 0; i < LEN(want); i++)
        for (int r = 0; r < TH_REGIONS; r++)
            found += reg[r] == want[i];
    assert_int_equal(found, LEN(want));
    int sizes[64] = {0};
    reg = th_regions(&R3, edges);
    for (int r = 0; r < TH_REGIONS; r++)
        sizes[popcount(reg[r])]++;
    assert_int_equal(sizes[4], 3);
    assert_int_equal(sizes[25], 1);
    assert_int_equal(sizes[0], 4);

    /* Played: the reveal's region numbers group the spaces the same way. */
    th_state st;
    th_init(&st, &R3, 1);
    cut_phase(&st, 0);
    cut_lines(&st, 4, 4, 4);
    json_t *v = th_view(&st, 1), *regions = json_object_get(json_object_get(v, "last"), "regions");
    assert_int_equal(json_array_size(regions), 37);
    for (int i = 0; i < LEN(want); i++) {
        int c = __builtin_ctzll(want[i]);
        json_int_t r = json_integer_value(json_array_get(regions, (size_t)c));
        for (int j = 0; j < 37; j++)
            assert_int_equal(json_integer_value(json_array_get(regions, (size_t)j)) == r, (int)(want[i] >> j & 1u));
    }
    json_decref(v);
}

/* ================================================================ safety */

/* PT-R4, cut 4 4 4: seat 1 has one topping in X, YZ and Z -- at most one in
 * every region, so it is safe: seat 0's majority in X (2 to 1) cannot take
 * its topping. Seat 0 has two in X, so it is not safe, and seat 2's
 * majority in Y (2 to 1) takes seat 0's topping there. With a second
 * topping in Z, seat 1 is no longer safe and loses the one in X. */
static void test_PT_R4_safety_rule(void **state)
{
    (void)state;
    outcome o = resolve("2,-1,-1 3,-2,-1 -1,2,-1", "1,0,-1 -2,1,1 -1,-1,2", "-2,2,0 -1,3,-2", 4, 4, 4);
    assert_int_equal(o.safe, 1u << 1);
    assert_colour(&o, 0, "2,-1,-1 3,-2,-1", 14, 0);
    assert_colour(&o, 1, "1,0,-1 -2,1,1 -1,-1,2", 13, 0);
    assert_colour(&o, 2, "-2,2,0 -1,3,-2 -1,2,-1", 13, 0);

    o = resolve("2,-1,-1 3,-2,-1 -1,2,-1", "1,0,-1 -2,1,1 -1,-1,2 0,-2,2", "-2,2,0 -1,3,-2", 4, 4, 4);
    assert_int_equal(o.safe, 0u);
    assert_colour(&o, 0, "2,-1,-1 3,-2,-1 1,0,-1", 13, 0);
    assert_colour(&o, 1, "-2,1,1 -1,-1,2 0,-2,2", 13, 0);
    assert_colour(&o, 2, "-2,2,0 -1,3,-2 -1,2,-1", 13, 0);
}

/* PT-R4: safety is decided before anything changes. Seat 0 has two in X,
 * where seat 1 has three and takes both; afterwards seat 0 would have just
 * one topping (in Y), but it was not safe, so seat 2 takes that one too. */
static void test_PT_R4_safety_decided_before_changes(void **state)
{
    (void)state;
    outcome o = resolve("2,-1,-1 3,-2,-1 -1,2,-1", "1,0,-1 2,0,-2 3,0,-3", "-2,2,0 -1,3,-2", 4, 4, 4);
    assert_int_equal(o.safe, 0u);
    assert_colour(&o, 0, "", 16, 0);
    assert_colour(&o, 1, "1,0,-1 2,0,-2 3,0,-3 2,-1,-1 3,-2,-1", 11, 0);
    assert_colour(&o, 2, "-2,2,0 -1,3,-2 -1,2,-1", 13, 0);
}

/* ============================================================ majorities */

/* PT-R5: the one colour with most toppings in a region replaces every
 * unsafe opponent topping there. X: seat 0 has 3, seat 1 2, seat 2 1 (seat
 * 2 is unsafe by its two in Y) -- all six spaces of X end up seat 0's;
 * the removed toppings go back to their owners' supplies. */
static void test_PT_R5_majority_replaces(void **state)
{
    (void)state;
    outcome o = resolve("2,0,-2 2,-1,-1 3,-1,-2", "1,-1,0 1,0,-1", "3,-3,0 0,2,-2 -1,2,-1", 4, 4, 4);
    assert_colour(&o, 0, "2,0,-2 2,-1,-1 3,-1,-2 1,-1,0 1,0,-1 3,-3,0", 10, 0);
    assert_colour(&o, 1, "", 16, 0);
    assert_colour(&o, 2, "0,2,-2 -1,2,-1", 14, 0);
}

/* PT-R5: a two-way tie for most removes the third colour's unsafe toppings
 * without replacing them. X: seats 0 and 1 have 2 each, seat 2 has one
 * (3,-3,0) and is unsafe by its two in Y: that space is emptied. With seat
 * 2 safe (one topping in Y) nothing changes. */
static void test_PT_R5_two_way_tie_removes_third(void **state)
{
    (void)state;
    outcome o = resolve("1,0,-1 2,0,-2", "1,-1,0 2,-2,0", "3,-3,0 0,2,-2 -1,2,-1", 4, 4, 4);
    assert_colour(&o, 0, "1,0,-1 2,0,-2", 14, 0);
    assert_colour(&o, 1, "1,-1,0 2,-2,0", 14, 0);
    assert_colour(&o, 2, "0,2,-2 -1,2,-1", 14, 0);

    o = resolve("1,0,-1 2,0,-2", "1,-1,0 2,-2,0", "3,-3,0 0,2,-2", 4, 4, 4);
    assert_int_equal(o.safe, 1u << 2);
    assert_colour(&o, 2, "3,-3,0 0,2,-2", 14, 0);
}

/* PT-R5: a three-way tie changes nothing (X: 2 each), and neither does a
 * region with one colour (Z: seat 0's three, unsafe as they are). */
static void test_PT_R5_three_way_tie_and_one_colour_unchanged(void **state)
{
    (void)state;
    const char *c0 = "1,0,-1 2,0,-2 0,-1,1 -1,0,1 0,-2,2", *c1 = "1,-1,0 2,-2,0", *c2 = "3,-3,0 3,-2,-1";
    outcome o = resolve(c0, c1, c2, 4, 4, 4);
    assert_int_equal(o.safe, 0u);
    assert_colour(&o, 0, c0, 11, 0);
    assert_colour(&o, 1, c1, 14, 0);
    assert_colour(&o, 2, c2, 14, 0);
}

/* PT-R5: all regions resolve at once. Seat 0 leads X 2 to 1 and seat 1
 * leads Y 2 to 1: each takes the other's topping in the region it leads. */
static void test_PT_R5_all_regions_at_once(void **state)
{
    (void)state;
    outcome o = resolve("1,0,-1 2,0,-2 0,1,-1", "3,-3,0 -1,2,-1 -2,2,0", "", 4, 4, 4);
    assert_colour(&o, 0, "1,0,-1 2,0,-2 3,-3,0", 13, 0);
    assert_colour(&o, 1, "-1,2,-1 -2,2,0 0,1,-1", 13, 0);
    assert_colour(&o, 2, "", 16, 0);
}

/* ================================================================ supply */

/* PT-R5, PT-R6: seat 0 (15 on the board, 1 in supply) leads X 3 to 2 and
 * replaces seat 1's 1,-1,0 and 2,-2,0. Meanwhile seat 1 leads Y and takes
 * seat 0's -1,2,-1, which is returned to seat 0: with its one topping in
 * supply it makes both replacements, and has all 16 on the pizza. Played
 * through th_apply, seat 0 wins at the end of the round. */
static void test_PT_R6_removed_toppings_refill(void **state)
{
    (void)state;
    const char *c0 = REG_Z " 2,-1,-1 3,-2,-1 3,-1,-2 -1,2,-1 1,-2,1 1,-3,2", *c1 = "1,-1,0 2,-2,0 -2,2,0 0,2,-2";
    outcome o = resolve(c0, c1, "", 4, 4, 4);
    assert_colour(&o, 0, REG_Z " 2,-1,-1 3,-2,-1 3,-1,-2 1,-2,1 1,-3,2 1,-1,0 2,-2,0", 0, 0);
    assert_colour(&o, 1, "-2,2,0 0,2,-2 -1,2,-1", 13, 0);

    th_state st;
    position(&st, &R3, c0, c1, "");
    cut_phase(&st, 0);
    cut_lines(&st, 4, 4, 4);
    assert_int_equal(st.phase, TH_PH_OVER);
    assert_int_equal(st.end, TH_END_FULL);
    assert_int_equal(st.winners, 1u);
}

/* PT-R6 by edition 1 (records before version 4): the same cuts, but the
 * topping seat 0 lost in Y went home only after the replacements, so with
 * one topping it fills the first space in board order (1,-1,0) and 2,-2,0
 * is emptied; 1 replacement is remembered as not made, and the game goes
 * on with seat 0 at 15. */
static void test_PT_R6_supply_runs_out_edition_1(void **state)
{
    (void)state;
    outcome o = resolve_by(&R3_E1, REG_Z " 2,-1,-1 3,-2,-1 3,-1,-2 -1,2,-1 1,-2,1 1,-3,2", "1,-1,0 2,-2,0 -2,2,0 0,2,-2",
                        "", 4, 4, 4);
    assert_colour(&o, 0, REG_Z " 2,-1,-1 3,-2,-1 3,-1,-2 1,-2,1 1,-3,2 1,-1,0", 1, 1);
    assert_colour(&o, 1, "-2,2,0 0,2,-2 -1,2,-1", 13, 0);
    assert_false((o.occ[0] | o.occ[1] | o.occ[2]) >> cell(2, -2, 0) & 1u);

    /* Played through th_apply the shortfall shows in the reveal. */
    th_state st;
    position(&st, &R3_E1, REG_Z " 2,-1,-1 3,-2,-1 3,-1,-2 -1,2,-1 1,-2,1 1,-3,2", "1,-1,0 2,-2,0 -2,2,0 0,2,-2", "");
    cut_phase(&st, 0);
    cut_lines(&st, 4, 4, 4);
    assert_int_equal(st.phase, TH_PH_PLACE);
    json_t *v = th_view(&st, 2), *last = json_object_get(v, "last");
    ts_assert_json(json_object_get(last, "short"), "[1,0,0]");
    ts_assert_json(json_object_get(last, "safe"), "[2]");
    char want[160];
    snprintf(want, sizeof want, "[{\"cell\":%d,\"from\":0,\"to\":1},{\"cell\":%d,\"from\":1,\"to\":0},"
             "{\"cell\":%d,\"from\":1,\"to\":null}]", cell(-1, 2, -1), cell(1, -1, 0), cell(2, -2, 0));
    ts_assert_json(json_object_get(last, "changed"), want);
    json_decref(v);
}

/* =================================================================== end */

/* The tie-break position, cut 4 4 1 (x <= 0 | x > 0, y <= 0 | y > 0,
 * z = -3 | z > -3). Regions: P (x > 0, y <= 0, z > -3, 11 spaces),
 * Q (x <= 0, y <= 0, 10), R (x <= 0, y > 0, z > -3, 11) and four small
 * ones (1,1,-2), (0,3,-3), (1,2,-3 2,1,-3), (3,0,-3).
 *  - colour a: 6 in P and 5 in Q, 11 on the board, 5 in supply; colour c
 *    has 3 in P and 3 in Q (2 in Q if `exact`), all of which a replaces:
 *    6 replacements, a makes 5 and fills up, 1 short (0 if `exact`);
 *  - colour b: 8 in R and alone in the four small regions, 13 on the board;
 *    it replaces c's 3 in R and fills up exactly.
 * (3,-2,-1 3,-1,-2 -2,-1,3 -3,0,3 start empty.) The colours are parameters
 * so the same position is played with the roles on other seats. */
static void tiebreak_position(th_state *st, const th_rules *r, int a, int b, int c, bool exact)
{
    const char *list[TH_COLOURS];
    list[a] = "1,-3,2 1,-2,1 1,-1,0 1,0,-1 2,-3,1 2,-2,0 0,0,0 0,-1,1 0,-2,2 0,-3,3 -1,0,1";
    list[b] = "0,1,-1 0,2,-2 -1,1,0 -1,2,-1 -1,3,-2 -2,1,1 -2,2,0 -2,3,-1 1,1,-2 0,3,-3 1,2,-3 2,1,-3 3,0,-3";
    list[c] = exact ? "2,-1,-1 2,0,-2 3,-3,0 -1,-1,2 -1,-2,3 -3,1,2 -3,2,1 -3,3,0"
                    : "2,-1,-1 2,0,-2 3,-3,0 -1,-1,2 -1,-2,3 -2,0,2 -3,1,2 -3,2,1 -3,3,0";
    position(st, r, list[0], list[1], list[2]);
    assert_int_equal(popcount(st->occ[a]), 11);
    assert_int_equal(popcount(st->occ[b]), 13);
    cut_phase(st, 7);
}

/* PT-E1: two players fill up in the same round. Seat 0 could not make one
 * replacement (3,-3,0, last in board order, is left empty), so it would
 * have 17 to seat 1's 16: it wins alone. With the roles on other seats the
 * winner follows the shortfall, not the seat; with no shortfall the win is
 * shared. */
static void test_PT_E1_tie_break_by_shortfall(void **state)
{
    (void)state;
    double ret[3];
    th_state st;
    tiebreak_position(&st, &R3, 0, 1, 2, false);
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.phase, TH_PH_OVER);
    assert_int_equal(st.end, TH_END_FULL);
    assert_int_equal(popcount(st.occ[0]), 16);
    assert_int_equal(popcount(st.occ[1]), 16);
    assert_int_equal(st.short_by[0], 1);
    assert_int_equal(st.short_by[1], 0);
    assert_false((st.occ[0] | st.occ[1] | st.occ[2]) >> cell(3, -3, 0) & 1u); /* last in board order */
    assert_int_equal(st.winners, 1u);
    th_returns(&st, ret);
    assert_true(ret[0] == 1.0 && ret[1] == 0.0 && ret[2] == 0.0);
    assert_int_equal(th_current_seat(&st), PB_TERMINAL);
    json_t *v = th_view(&st, 2);
    ts_assert_json(json_object_get(v, "result"), "{\"winners\":[0],\"end\":\"full\"}");
    assert_int_equal(json_integer_value(json_object_get(v, "round")), 8);
    json_decref(v);

    tiebreak_position(&st, &R3, 1, 0, 2, false);
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.winners, 2u);

    tiebreak_position(&st, &R3, 2, 0, 1, false);
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.winners, 4u);

    tiebreak_position(&st, &R3, 0, 1, 2, true);
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.phase, TH_PH_OVER);
    assert_int_equal(st.short_by[0], 0);
    assert_int_equal(st.winners, 3u);
    th_returns(&st, ret);
    assert_true(ret[0] == 0.5 && ret[1] == 0.5 && ret[2] == 0.0);
    json_t *res = th_result_json(&st, NULL);
    ts_assert_json(json_object_get(res, "winners"), "[0,1]");
    json_decref(res);
}

/* PT-E1: a player with all 16 on the board at the end of a round wins.
 * Seat 1 has 15 (Y and Z but for 0,3,-3 -2,-1,3 -3,0,3) and adds its 16th
 * on 2,1,-3 (region XY); seat 0 adds in X, seat 2 in XZ. Cut 4 4 4 changes
 * nothing: seat 1 wins alone. With seat 2 holding 1,1,-2 1,2,-3 in XY it
 * leads XY 2 to 1 and takes the 16th away: 16 after adding is not enough,
 * the game goes on. */
static void test_PT_E1_full_board_wins(void **state)
{
    (void)state;
    const char *b15 = "0,1,-1 -1,1,0 0,2,-2 -1,2,-1 -2,2,0 -1,3,-2 -2,3,-1 -3,3,0 "
                      "0,-1,1 -1,0,1 0,-2,2 -1,-1,2 -2,0,2 0,-3,3 -1,-2,3";
    for (int taken = 0; taken < 2; taken++) {
        th_state st;
        position(&st, &R3, "2,-1,-1", b15, taken ? "1,1,-2 1,2,-3" : "");
        assert_int_equal(popcount(st.occ[1]), 15);
        act(&st, "put 3,-3,0");
        act(&st, "put 2,1,-3");
        act(&st, "put 1,-2,1");
        assert_int_equal(popcount(st.occ[1]), 16);
        cut_lines(&st, 4, 4, 4);
        if (!taken) {
            assert_int_equal(st.phase, TH_PH_OVER);
            assert_int_equal(st.end, TH_END_FULL);
            assert_int_equal(st.winners, 2u);
            double ret[3];
            th_returns(&st, ret);
            assert_true(ret[0] == 0.0 && ret[1] == 1.0 && ret[2] == 0.0);
        } else {
            assert_int_equal(popcount(st.occ[1]), 15);
            assert_true(st.occ[2] >> cell(2, 1, -3) & 1u);
            assert_int_equal(st.phase, TH_PH_PLACE);
            assert_int_equal(st.round, 1);
            assert_int_equal(st.winners, 0u);
        }
    }
}

/* PT-E2: with no winner after 200 rounds the game is a draw; round 199
 * ending is not yet the end. */
static void test_PT_E2_draw_after_200_rounds(void **state)
{
    (void)state;
    th_state st;
    th_init(&st, &R3, 1);
    cut_phase(&st, 198);
    cut_lines(&st, 2, 3, 5);
    assert_int_equal(st.phase, TH_PH_PLACE);
    assert_int_equal(st.round, 199);
    json_t *v = th_view(&st, 0);
    assert_int_equal(json_integer_value(json_object_get(v, "round")), 200);
    json_decref(v);
    cut_phase(&st, 199);
    cut_lines(&st, 2, 3, 5);
    assert_int_equal(st.phase, TH_PH_OVER);
    assert_int_equal(st.end, TH_END_DRAW);
    assert_int_equal(st.winners, 0u);
    assert_int_equal(th_current_seat(&st), PB_TERMINAL);
    double ret[3];
    th_returns(&st, ret);
    assert_true(ret[0] == 0.0 && ret[1] == 0.0 && ret[2] == 0.0);
    v = th_view(&st, PB_SPECTATOR);
    ts_assert_json(json_object_get(v, "result"), "{\"winners\":[],\"end\":\"draw\"}");
    assert_int_equal(json_integer_value(json_object_get(v, "round")), 200);
    assert_int_equal(json_integer_value(json_object_get(v, "max_rounds")), 200);
    json_decref(v);
    refused(&st, "1", "the game is over");
}

/* ============================================================ two players */

/* PT-2P1: seats 0 and 1 and the neutral (colour 2) set up as three colours;
 * the first player alternates each round and adds first. */
static void test_PT_2P1_neutral_setup_and_alternating_first(void **state)
{
    (void)state;
    for (int first = 0; first < 2; first++) {
        th_rules r;
        th_state st;
        rules_for(&r, 2, first, TH_EDITION);
        th_init(&st, &r, 5);
        assert_int_equal(st.players, 2);
        assert_int_equal(st.occ[first], spaces("-3,1,2 -3,2,1"));
        assert_int_equal(st.occ[1 - first], spaces("2,-3,1 1,-3,2"));
        assert_int_equal(st.occ[TH_NEUTRAL], spaces("1,2,-3 2,1,-3"));
        for (int c = 0; c < 3; c++)
            assert_int_equal(st.supply[c], 14);
        json_t *v = th_view(&st, 0);
        assert_int_equal(json_integer_value(json_object_get(v, "neutral")), 2);
        assert_int_equal(json_integer_value(json_object_get(v, "player_count")), 2);
        json_decref(v);
        for (int round = 0; round < 4; round++) {
            int fp = round % 2 ? 1 - first : first;
            assert_int_equal(st.round, round);
            assert_int_equal(th_first_player(&st), fp);
            assert_int_equal(th_current_seat(&st), fp);
            put_first(&st);
            assert_int_equal(th_current_seat(&st), 1 - fp);
            put_first(&st);
            if (st.phase == TH_PH_NEUTRAL)
                put_first(&st);
            assert_int_equal(st.phase, TH_PH_CUT);
            assert_int_equal(th_current_seat(&st), fp);
            act(&st, "1");
            assert_int_equal(th_current_seat(&st), 1 - fp);
            act(&st, "1");
        }
    }
}

/* PT-2P2: after both adds the first player's die (from the game's own
 * generator) gives the neutral's line; the first player then puts a
 * neutral topping on an empty space of the two rows that line runs
 * between, and only there. The die is public. */
static void test_PT_2P2_die_and_neutral_topping(void **state)
{
    (void)state;
    int dice_seen = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        th_state st;
        th_init(&st, &R2, seed);
        put_first(&st);
        pb_rng copy = st.rng;
        int die = 1 + (int)pb_rng_below(&copy, TH_LINES);
        dice_seen |= 1 << die;
        put_first(&st);
        int ns = th_colour_side(&st, TH_NEUTRAL);
        assert_int_equal(ns, 2);
        assert_int_equal(st.die, die);
        assert_int_equal(st.cut[ns], die);
        assert_int_equal(st.phase, TH_PH_NEUTRAL);
        assert_int_equal(th_current_seat(&st), 0);

        uint64_t occupied = st.occ[0] | st.occ[1] | st.occ[2], want = 0;
        for (int i = 0; i < 37; i++) {
            int z = R2.board.cube[i][2];
            want |= (uint64_t)((z == die - 4 || z == die - 3) && !(occupied >> i & 1u)) << i;
        }
        pb_action acts[TH_MAX_CELLS];
        int n = th_legal_actions(&st, acts);
        uint64_t got = 0;
        for (int i = 0; i < n; i++)
            got |= 1ull << acts[i];
        assert_int_equal(got, want);
        /* An empty space away from the line is refused. */
        int away = __builtin_ctzll(R2.board.all & ~occupied & ~want);
        char text[32];
        snprintf(text, sizeof text, "put %s", th_cell_name(&R2.board, away));
        refused(&st, text, "the neutral goes next to the die's line");
        assert_int_equal(th_action_text_for(&st, acts[0], 1, text, sizeof text), 0);
        assert_non_null(strstr(text, "(neutral)"));

        for (int seat = -1; seat < 2; seat++) {
            json_t *v = th_view(&st, seat);
            assert_int_equal(json_integer_value(json_object_get(v, "die")), die);
            assert_int_equal(json_integer_value(json_object_get(side_in(v, ns), "cut")), die);
            assert_false(json_is_true(json_object_get(side_in(v, ns), "chosen")));
            json_decref(v);
        }
        put_first(&st);
        assert_int_equal(st.occ[TH_NEUTRAL], spaces("1,2,-3 2,1,-3") | 1ull << acts[0]);
        assert_int_equal(st.supply[TH_NEUTRAL], 13);
        assert_int_equal(st.phase, TH_PH_CUT);
        assert_int_equal(th_unseen_cuts(&st, 1), 0);
        act(&st, "2");
        act(&st, "5");
        assert_int_equal(st.last_cut[ns], die);
        /* Round 0: seat 0 faced side 1st, seat 1 side 2nd. */
        assert_int_equal(st.last_side_colour[0], 0);
        assert_int_equal(st.last_cut[0], 2);
        assert_int_equal(st.last_side_colour[1], 1);
        assert_int_equal(st.last_cut[1], 5);
        assert_int_equal(st.die, 0);
    }
    assert_int_equal(dice_seen, 0x7e); /* every face 1..6 came up for some seed */
}

/* PT-2P3: the neutral with all 16 on the board makes both players lose,
 * even when a player also has 16 that round (and the player would win the
 * same position with the colours the other way round). */
static void test_PT_2P3_neutral_full_both_lose(void **state)
{
    (void)state;
    th_state st;
    const int lines[TH_SIDES] = {4, 4, 1};
    tiebreak_position(&st, &R2, TH_NEUTRAL, 0, 1, false);
    int ns = th_colour_side(&st, TH_NEUTRAL); /* the die gives the neutral's line of cut 4 4 1 */
    st.die = (uint8_t)lines[ns];
    st.cut[ns] = st.die;
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.phase, TH_PH_OVER);
    assert_int_equal(popcount(st.occ[TH_NEUTRAL]), 16);
    assert_int_equal(popcount(st.occ[0]), 16);
    assert_int_equal(st.end, TH_END_NEUTRAL);
    assert_int_equal(st.winners, 0u);
    double ret[2];
    th_returns(&st, ret);
    assert_true(ret[0] == 0.0 && ret[1] == 0.0);
    json_t *v = th_view(&st, 0);
    ts_assert_json(json_object_get(v, "result"), "{\"winners\":[],\"end\":\"neutral\"}");
    json_decref(v);

    tiebreak_position(&st, &R2, 1, 0, TH_NEUTRAL, false);
    st.die = (uint8_t)lines[ns];
    st.cut[ns] = st.die;
    cut_lines(&st, 4, 4, 1);
    assert_int_equal(st.end, TH_END_FULL);
    assert_int_equal(st.winners, 2u);
}

/* ============================================================== notation */

/* Every legal move's text reads back as the same move, in each phase; a
 * put is "put" and its space's label, a cut "cut" and its line number. */
static void test_notation_round_trips(void **state)
{
    (void)state;
    th_state st;
    th_init(&st, &R2, 11);
    int phases = 0;
    for (int step = 0; step < 12; step++) {
        pb_action acts[TH_MAX_CELLS];
        int n = th_legal_actions(&st, acts);
        assert_true(n > 0);
        phases |= 1 << st.phase;
        for (int i = 0; i < n; i++) {
            char text[32], err[PB_ERR_LEN], want[32];
            pb_action back;
            assert_int_equal(th_action_to_text(&st, acts[i], text, sizeof text), 0);
            if (acts[i] > TH_ACT_CUT)
                snprintf(want, sizeof want, "cut %u", acts[i] - TH_ACT_CUT);
            else
                snprintf(want, sizeof want, "put %s", R2.board.label[acts[i]]);
            assert_string_equal(text, want);
            if (th_action_from_text(&st, text, &back, err, sizeof err) != 0)
                fail_msg("'%s' does not read back: %s", text, err);
            assert_int_equal(back, acts[i]);
            /* The short form the prompt offers, and a record's old form, read too. */
            char old_form[32];
            if (acts[i] > TH_ACT_CUT)
                snprintf(old_form, sizeof old_form, "%u", acts[i] - TH_ACT_CUT);
            else
                snprintf(old_form, sizeof old_form, "put %d,%d,%d", R2.board.cube[acts[i]][0],
                         R2.board.cube[acts[i]][1], R2.board.cube[acts[i]][2]);
            assert_int_equal(th_action_from_text(&st, old_form, &back, err, sizeof err), 0);
            assert_int_equal(back, acts[i]);
            assert_int_equal(th_action_from_text(&st, text + 4, &back, err, sizeof err), 0);
            assert_int_equal(back, acts[i]);
            /* What the log prints reads back too: "put d4 (neutral)". */
            char logged[48];
            assert_int_equal(th_action_text_for(&st, acts[i], th_current_seat(&st), logged, sizeof logged), 0);
            assert_int_equal(th_action_from_text(&st, logged, &back, err, sizeof err), 0);
            assert_int_equal(back, acts[i]);
        }
        if (st.phase == TH_PH_CUT)
            act(&st, "cut 3");
        else
            put_first(&st);
    }
    assert_int_equal(phases, 1 << TH_PH_PLACE | 1 << TH_PH_NEUTRAL | 1 << TH_PH_CUT);

    /* Spaces around the numbers and "cut k" read too. */
    th_init(&st, &R3, 1);
    pb_action a;
    char err[PB_ERR_LEN];
    assert_int_equal(th_action_from_text(&st, "  put  0,0,0 ", &a, err, sizeof err), 0);
    assert_int_equal(a, (pb_action)cell(0, 0, 0));
    assert_int_equal(th_action_from_text(&st, "put 1, -2, 1", &a, err, sizeof err), 0);
    assert_int_equal(a, (pb_action)cell(1, -2, 1));
    cut_phase(&st, 0);
    for (int k = 1; k <= 6; k++) {
        char text[16];
        snprintf(text, sizeof text, "cut %d", k);
        assert_int_equal(th_action_from_text(&st, text, &a, err, sizeof err), 0);
        assert_int_equal(a, TH_ACT_CUT + (pb_action)k);
    }
}

/* The labels: a1..a4 along the top row (z = -3) to g1..g4 along the
 * bottom, counted from the left (smallest x - y); any case reads. */
static void test_notation_labels(void **state)
{
    (void)state;
    const th_board *b = &R3.board;
    assert_string_equal(th_cell_name(b, cell(0, 3, -3)), "a1");
    assert_string_equal(th_cell_name(b, cell(3, 0, -3)), "a4");
    assert_string_equal(th_cell_name(b, cell(-3, 3, 0)), "d1");
    assert_string_equal(th_cell_name(b, cell(0, 0, 0)), "d4");
    assert_string_equal(th_cell_name(b, cell(3, -3, 0)), "d7");
    assert_string_equal(th_cell_name(b, cell(0, -3, 3)), "g4");
    assert_string_equal(th_cell_name(b, -1), "?");
    assert_int_equal(th_cell_by_label(b, "D4"), cell(0, 0, 0));
    assert_int_equal(th_cell_by_label(b, "d8"), -1);
    for (int i = 0; i < b->ncells; i++)
        assert_int_equal(th_cell_by_label(b, b->label[i]), i);
}

/* Every refusal says why, in the player's words, at real positions: the
 * space by its label, what the rules forbid, and what is asked now with an
 * example that is legal. Each input leaves the state unchanged. */
typedef struct refusal {
    const char *text, *why;
} refusal;

static void refuse_all(th_state *st, const refusal *list, int n)
{
    for (int i = 0; i < n; i++)
        refused(st, list[i].text, list[i].why);
}

static void test_refusals_say_why(void **state)
{
    (void)state;
    th_state st;
    /* Round 1 of a 3-player game, Red (seat 0) to add: Red starts on e1 and
     * f1, Green on e6 and f5, White on a2 and a3. */
    th_init(&st, &R3, 1);
    char eg[32], why[128];
    snprintf(eg, sizeof eg, "e.g. put %s", R3.board.label[__builtin_ctzll(th_placeable(&st, 0))]);
    const refusal place[] = {
        {"f2", "f2 is next to your topping on f1: none may go next to your own (e.g. put "},
        {"put f2", "f2 is next to your topping on f1"},
        {"put -2,0,2", "f2 is next to your topping on f1"},
        {"put f1", "f1 already has a topping (Red)"},
        {"E6", "e6 already has a topping (Green)"},
        {"put a3", "a3 already has a topping (White); try an empty space, e.g. put "},
        {"z9", "no space is labelled 'z9': labels go a1, a2, ... row by row from the top"},
        {"put h1", "no space is labelled 'h1'"},
        {"put 9,9,9", "9,9,9 is not a space on the board"},
        {"take Z", "'take Z' is not a move; now add a topping: type a label, e.g. put "},
        {"", "nothing typed; now add a topping"},
        {"put", "'put' names no space; now add a topping"},
        {"put 4", "'put 4' names no space"},
        {"cut 3", "no cutting yet; now add a topping: type a label, e.g. put "},
        {"3", "no cutting yet"},
        {"cut 7", "there is no line '7': a cut is a line number from 1 to 6"},
        {"cut", "a cut is a line number from 1 to 6, e.g. cut 4"},
        /* a bare number while placing is answered about spaces, not lines */
        {"0", "'0' names no space: a space is a row letter and a number, e.g. put "},
        {"7", "'7' names no space"},
        {"12", "'12' names no space"},
    };
    refuse_all(&st, place, LEN(place));
    refused(&st, "take Z", eg); /* the example is a space Red may use */
    refused(&st, "f2", eg);
    refused(&st, "0", eg);

    /* The cuts. */
    cut_phase(&st, 0);
    const refusal cut[] = {
        {"d4", "now is the time to cut: choose a line 1 to 6, e.g. cut 4"},
        {"put 0,0,0", "now is the time to cut"},
        {"0", "there is no line '0': a cut is a line number from 1 to 6"},
        {"12", "there is no line '12'"},
        {"take 2", "'take 2' is not a move; now choose a line 1 to 6, e.g. cut 4"},
    };
    refuse_all(&st, cut, LEN(cut));

    /* 2 players: the neutral topping goes beside the die's line. */
    th_init(&st, &R2, 5);
    put_first(&st);
    put_first(&st);
    assert_int_equal(st.phase, TH_PH_NEUTRAL);
    uint64_t beside = 0, empty = R2.board.all & ~(st.occ[0] | st.occ[1] | st.occ[2]);
    pb_action acts[TH_MAX_CELLS];
    for (int i = 0, n = th_legal_actions(&st, acts); i < n; i++)
        beside |= 1ull << acts[i];
    int away = __builtin_ctzll(empty & ~beside);
    char text[16];
    snprintf(text, sizeof text, "put %s", R2.board.label[away]);
    snprintf(why, sizeof why, "%s is not next to line %d: the neutral goes next to the die's line (e.g. put %s)",
             R2.board.label[away], st.die, R2.board.label[acts[0]]);
    refused(&st, text, why);
    snprintf(why, sizeof why, "no cutting yet; now put the neutral beside line %d, e.g. put %s", st.die,
             R2.board.label[acts[0]]);
    refused(&st, "cut 2", why);
    refused(&st, "put e6", "e6 already has a topping (Green)");
    snprintf(why, sizeof why, "'0' names no space: a space is a row letter and a number, e.g. put %s",
             R2.board.label[acts[0]]);
    refused(&st, "0", why);

    /* Over. */
    th_init(&st, &R3, 1);
    cut_phase(&st, 199);
    cut_lines(&st, 2, 3, 5);
    refused(&st, "d4", "the game is over");
}

/* ============================================================ board files */

/* The default board as JSON, to be broken one way or another. */
static json_t *default_json(void)
{
    return th_board_to_json(&R3.board);
}

static json_t *side_json(json_t *board, int d)
{
    return json_array_get(json_object_get(board, "sides"), (size_t)d);
}

/* The board is refused with a message containing `why`, read directly and
 * as a game config. Takes the reference. */
static void board_refused(json_t *board, const char *why)
{
    th_board b;
    char err[PB_ERR_LEN] = "";
    assert_int_equal(th_board_from_json(board, &b, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("board refused with '%s', expected '%s'", err, why);
    json_t *config = json_pack("{s:o}", "board", board);
    err[0] = 0;
    pb_game *g = pb_game_new("theory", config, err, sizeof err);
    assert_null(g);
    if (!strstr(err, why))
        fail_msg("config refused with '%s', expected '%s'", err, why);
    json_decref(config);
}

static void test_board_file_refused_with_reason(void **state)
{
    (void)state;
    json_t *j;

    board_refused(json_integer(3), "board: must be a JSON object");
    board_refused(json_pack("[i]", 1), "board: must be a JSON object");

    j = default_json();
    json_object_set_new(j, "colour", json_string("red"));
    board_refused(j, "board: unknown field \"colour\" in the board");

    j = default_json();
    json_object_set_new(side_json(j, 1), "dir", json_integer(1));
    board_refused(j, "unknown field \"dir\" in side 2");

    j = default_json();
    json_array_set_new(json_object_get(j, "cells"), 4, json_pack("[i,i,i]", 1, 1, 1));
    board_refused(j, "cell 5 [1, 1, 1] is not a space: x + y + z must be 0");

    j = default_json();
    json_array_set_new(json_object_get(j, "cells"), 2, json_pack("[i,i]", 1, -1));
    board_refused(j, "cell 3 must be [x, y, z]");

    j = default_json();
    json_array_append_new(json_object_get(j, "cells"), json_pack("[i,i,i]", 0, 0, 0));
    board_refused(j, "space [0, 0, 0] is listed twice");

    /* 65 spaces: a hexagon of radius 4 has 61, plus four more. */
    j = default_json();
    json_t *cells = json_array();
    for (int x = -5; x <= 5; x++)
        for (int y = -5; y <= 5; y++)
            if (abs(x + y) <= 5 && json_array_size(cells) < 65)
                json_array_append_new(cells, json_pack("[i,i,i]", x, y, -x - y));
    assert_int_equal(json_array_size(cells), 65);
    json_object_set_new(j, "cells", cells);
    board_refused(j, "'cells' must list 7 to 64 spaces");

    j = default_json();
    json_object_set_new(side_json(j, 2), "axis", json_string("x"));
    board_refused(j, "sides 1 and 3 both cut along x: each side needs its own axis");

    j = default_json();
    json_object_set_new(side_json(j, 1), "axis", json_string("w"));
    board_refused(j, "side 2: 'axis' must be \"x\", \"y\" or \"z\"");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 0), "lines"), 5, json_integer(3));
    board_refused(j, "side 1: line 6 does not cut the board");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 1), "lines"), 0, json_integer(-4));
    board_refused(j, "side 2: line 1 does not cut the board");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 1), "lines"), 3, json_integer(-2));
    board_refused(j, "side 2: lines 2 and 4 are the same line");

    j = default_json();
    json_array_remove(json_object_get(side_json(j, 2), "lines"), 0);
    board_refused(j, "side 3: 'lines' must list 6 lines");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 2), "start"), 1, json_pack("[i,i,i]", 4, -1, -3));
    board_refused(j, "side 3 start space 2 [4, -1, -3] is not one of the board's cells");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 1), "start"), 0, json_pack("[i,i,i]", -3, 1, 2));
    board_refused(j, "start space [-3, 1, 2] is used twice");

    j = default_json();
    json_array_set_new(json_object_get(side_json(j, 0), "start"), 1, json_pack("[i,i,i]", -3, 1, 2));
    board_refused(j, "start space [-3, 1, 2] is used twice");

    j = default_json();
    json_object_set_new(side_json(j, 0), "start", json_array());
    board_refused(j, "side 1: 'start' must list 1 to 4 spaces");

    j = default_json();
    json_object_set_new(j, "toppings", json_integer(1));
    board_refused(j, "'toppings' must be a whole number from 2 to 18 (half the spaces)");

    j = default_json();
    json_object_set_new(j, "toppings", json_integer(19));
    board_refused(j, "'toppings' must be a whole number from 2 to 18");

    j = default_json();
    json_object_set_new(j, "toppings", json_string("16"));
    board_refused(j, "'toppings' must be a whole number from 2 to 18");

    j = default_json();
    json_object_set_new(j, "sides", json_pack("[o,o]", json_incref(side_json(j, 0)), json_incref(side_json(j, 1))));
    board_refused(j, "'sides' must list the 3 sides");

    j = default_json();
    json_object_set_new(j, "name", json_string("bad\nname"));
    board_refused(j, "'name' may not hold control characters");
    j = default_json(); /* a line separator and a C1 control are controls too */
    json_object_set_new(j, "name", json_string("bad\xe2\x80\xa8name"));
    board_refused(j, "'name' may not hold control characters");
    j = default_json();
    json_object_set_new(j, "name", json_string("bad\xc2\x9bname"));
    board_refused(j, "'name' may not hold control characters");
}

/* The embedded board is the default board file, and a custom board -- the
 * default without its six corners, 12 toppings a colour, one start space a
 * side -- reads, writes back identically and plays a game to the end. */
static void test_custom_board_round_trips(void **state)
{
    (void)state;
    th_board b, again;
    char err[PB_ERR_LEN] = "";
    json_t *j = default_json();
    assert_int_equal(th_board_from_json(j, &b, err, sizeof err), 0);
    assert_memory_equal(&b, &R3.board, sizeof b);
    assert_string_equal(b.name, "Pizza Theory (reconstructed board)");
    json_decref(j);

    json_t *cells = json_array();
    for (int x = -3; x <= 3; x++)
        for (int y = -3; y <= 3; y++) {
            int z = -x - y;
            bool corner = abs(x) + abs(y) + abs(z) == 6 && (x == 0 || y == 0 || z == 0);
            if (z >= -3 && z <= 3 && !corner)
                json_array_append_new(cells, json_pack("[i,i,i]", x, y, z));
        }
    assert_int_equal(json_array_size(cells), 31);
    j = json_pack("{s:s, s:i, s:o, s:[{s:s, s:[i,i,i,i,i,i], s:[[i,i,i]]}, {s:s, s:[i,i,i,i,i,i], s:[[i,i,i]]},"
                  " {s:s, s:[i,i,i,i,i,i], s:[[i,i,i]]}]}",
                  "name", "no corners", "toppings", 12, "cells", cells, "sides",
                  "axis", "z", "lines", 2, 1, 0, -1, -2, -3, "start", -1, -2, 3,
                  "axis", "x", "lines", -3, -2, -1, 0, 1, 2, "start", -3, 1, 2,
                  "axis", "y", "lines", -3, -2, -1, 0, 1, 2, "start", 2, -3, 1);
    assert_non_null(j);
    if (th_board_from_json(j, &b, err, sizeof err) != 0)
        fail_msg("custom board refused: %s", err);
    assert_int_equal(b.ncells, 31);
    assert_int_equal(b.toppings, 12);
    assert_int_equal(b.axis[0], 2);
    assert_int_equal(th_cell_at(&b, -3, 0, 3), -1);
    /* Side 1st's line 1 runs between z = 2 and z = 3 (the lines are data). */
    for (int i = 0; i < b.ncells; i++)
        assert_int_equal((int)(b.near[0][0] >> i & 1u), b.cube[i][2] >= 2);
    json_t *back = th_board_to_json(&b);
    assert_true(json_equal(back, j));
    assert_int_equal(th_board_from_json(back, &again, err, sizeof err), 0);
    assert_memory_equal(&b, &again, sizeof b);
    json_decref(back);

    /* As a game: the config keeps the board, each colour has 12. */
    json_t *config = json_pack("{s:i, s:O}", "players", 3, "board", j);
    pb_game *g = pb_game_new("theory", config, err, sizeof err);
    if (!g)
        fail_msg("game with the custom board refused: %s", err);
    assert_true(json_equal(json_object_get(g->config, "board"), j));
    pb_state *ps = pb_state_new(g, 3);
    const th_state *st = (const th_state *)(const void *)ps;
    assert_int_equal(st->supply[0] + popcount(st->occ[0]), 12);
    assert_int_equal(st->occ[st->s0], 1ull << th_cell_at(&b, -1, -2, 3));
    pb_rng rng;
    pb_rng_seed(&rng, 3);
    for (int n = 0; !pb_is_terminal(g, ps); n++) {
        assert_true(n < 2000);
        assert_int_equal(g->ops->apply(g, ps, g->ops->random_action(g, ps, &rng), err, sizeof err), 0);
        for (int c = 0; c < 3; c++)
            assert_int_equal(st->supply[c] + popcount(st->occ[c]), 12);
    }
    free(ps);
    pb_game_free(g);
    json_decref(config);
    json_decref(j);
}

/* PT-R3, PT-R5, the rulebook's example: the 1st player (Red, seat 0) cuts
 * 5, the 2nd (Green) 6, the 3rd (White) 4. On the default board that is
 * x <= 1 | x > 1, y <= 2 | y > 2, z <= 0 | z > 0: five slices, as in the
 * example, A-E:
 *   A (z > 0 but 2,-3,1): Red 2, Green 2, White 1 -- Red and Green tie, the
 *     White topping is removed, not replaced;
 *   B (2,-3,1 alone): one Green topping -- no change;
 *   C (x > 1, z <= 0): White 2, Green 1 -- White replaces the Green one;
 *   D (the rest: x <= 1, y <= 2, z <= 0): Red 3, Green 1, White 1 -- Red
 *     replaces both;
 *   E (y = 3): one each -- a 3-way tie, no change.
 * Nobody is safe (Red has 3 in D, Green 2 in A, White 2 in C). */
static void test_PT_R5_rulebook_example_slices_A_to_E(void **state)
{
    (void)state;
    const uint8_t cuts[TH_SIDES] = {5, 6, 4};
    const uint64_t *reg = th_regions(&R3, cuts);
    int slices = 0;
    for (int r = 0; r < TH_REGIONS; r++)
        slices += reg[r] != 0;
    assert_int_equal(slices, 5);
    outcome o = resolve("0,-1,1 -1,0,1  0,0,0 1,0,-1 0,1,-1  0,3,-3",
                        "0,-2,2 -2,0,2  2,-3,1  2,-1,-1  1,-1,0  -1,3,-2",
                        "-1,-1,2  2,0,-2 3,-1,-2  -1,1,0  -2,3,-1", 5, 6, 4);
    assert_int_equal(o.safe, 0u);
    assert_colour(&o, 0, "0,-1,1 -1,0,1  0,0,0 1,0,-1 0,1,-1 1,-1,0 -1,1,0  0,3,-3", 8, 0);
    assert_colour(&o, 1, "0,-2,2 -2,0,2  2,-3,1  -1,3,-2", 12, 0);
    assert_colour(&o, 2, "2,0,-2 3,-1,-2 2,-1,-1  -2,3,-1", 12, 0);
}

/* PT-2P1: with two players too a "random" start player is drawn from the
 * seed: the same seed gives the same one, and each seat starts for some
 * seed, adding first in round 1. */
static void test_PT_2P1_start_player_from_seed(void **state)
{
    (void)state;
    th_rules r;
    rules_for(&r, 2, -1, TH_EDITION);
    int seen[2] = {0};
    for (uint64_t seed = 0; seed < 100; seed++) {
        th_state a, b;
        th_init(&a, &r, seed);
        th_init(&b, &r, seed);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(a.s0 < 2);
        assert_int_equal(th_first_player(&a), a.s0);
        assert_int_equal(th_current_seat(&a), a.s0);
        seen[a.s0]++;
    }
    assert_true(seen[0] > 20 && seen[1] > 20);
}

/* PT-2P2: the neutral topping is put by the first player of each round:
 * seat 0 in rounds 1 and 3, seat 1 in rounds 2 and 4 (every player cuts
 * line 1 here). */
static void test_PT_2P2_first_player_of_each_round_places_the_neutral(void **state)
{
    (void)state;
    th_state st;
    unsigned placed_by = 0;
    th_init(&st, &R2, 7);
    for (int round = 0; round < 4; round++) {
        assert_int_equal(st.round, round);
        int fp = round % 2;
        assert_int_equal(th_first_player(&st), fp);
        while (st.phase == TH_PH_PLACE)
            put_first(&st);
        if (st.phase == TH_PH_NEUTRAL) {
            assert_int_equal(th_current_seat(&st), fp);
            placed_by |= 1u << fp;
            put_first(&st);
        }
        cut_lines(&st, 1, 1, 1);
    }
    assert_int_equal(placed_by, 3u);
}

/* PT-2P2 interpretation: the neutral topping is skipped when it has none
 * left, or when no empty space touches its line. (a) The neutral has all 16
 * on the board (the rows x = -3..-1 and 0,0,0): after both players add, the
 * die is rolled and its line set, but the cuts come next, though empty
 * spaces touch the line. (b) With the die known from the game's generator,
 * the neutral fills the two rows its line runs between: the same. */
static void test_PT_2P2_neutral_topping_skipped(void **state)
{
    (void)state;
    const th_board *b = &R2.board;
    for (int full_rows = 0; full_rows < 2; full_rows++) {
        th_state st;
        position(&st, &R2, "3,0,-3", "3,-3,0", "");
        pb_rng copy = st.rng;
        int die = 1 + (int)pb_rng_below(&copy, TH_LINES), ns = th_colour_side(&st, TH_NEUTRAL);
        uint64_t neutral = 0;
        if (full_rows)
            neutral = b->near[ns][die - 1] & b->all & ~(st.occ[0] | st.occ[1]);
        else
            for (int i = 0; i < b->ncells && i < 64; i++) /* 64: the cells a mask holds */
                neutral |= (uint64_t)(b->cube[i][0] <= -1) << i;
        if (!full_rows)
            neutral |= 1ull << cell(0, 0, 0);
        st.occ[TH_NEUTRAL] = neutral;
        st.supply[TH_NEUTRAL] = (uint8_t)(16 - popcount(neutral));
        assert_int_equal(st.supply[TH_NEUTRAL], full_rows ? 16 - popcount(neutral) : 0);
        uint64_t occupied = st.occ[0] | st.occ[1] | st.occ[2];
        assert_int_equal((b->near[ns][die - 1] & b->all & ~occupied) != 0, !full_rows);
        put_first(&st);
        th_state before = st;
        put_first(&st);
        assert_int_equal(st.phase, TH_PH_CUT);
        assert_int_equal(st.die, die);
        assert_int_equal(st.cut[ns], die);
        assert_int_equal(st.occ[TH_NEUTRAL], neutral);
        char news[256], want[160];
        th_news(&before, &st, news, sizeof news);
        if (full_rows)
            snprintf(want, sizeof want, "The die gives the neutral line %d. No empty space is beside line %d: no "
                     "neutral topping this round.", die, die);
        else
            snprintf(want, sizeof want, "The die gives the neutral line %d. The neutral has no topping left to "
                     "place.", die);
        assert_string_equal(news, want);
        assert_int_equal(st.supply[TH_NEUTRAL], 16 - popcount(neutral));
        json_t *v = th_view(&st, 0);
        ts_assert_json(json_object_get(v, "skipped"), "[2]");
        json_decref(v);
    }
}

/* PT-2P2 with PT-R4 and PT-R5: the neutral is a colour like the others.
 * Two players, cut 4 4 4 (the neutral's die 4).
 * (a) Seat 0 has two in X, seat 1 two in Z, the neutral one in X and one in
 *     Y: the neutral is safe, so seat 0's lead in X takes nothing.
 * (b) Seat 1 also has one in Y and the neutral two in Y: nobody is safe;
 *     seat 0 (2 to 1 in X) replaces the neutral's topping there, the
 *     neutral (2 to 1 in Y) replaces seat 1's, which goes back to seat 1. */
static void test_PT_2P2_neutral_is_a_colour_for_replacements(void **state)
{
    (void)state;
    for (int lead = 0; lead < 2; lead++) {
        th_state st;
        if (!lead)
            position(&st, &R2, "1,0,-1 2,0,-2", "0,-1,1 -1,0,1", "3,-3,0 0,2,-2");
        else
            position(&st, &R2, "1,0,-1 2,0,-2", "0,-1,1 -1,0,1 0,1,-1", "0,2,-2 -1,2,-1 3,-3,0");
        cut_phase(&st, 0);
        int ns = th_colour_side(&st, TH_NEUTRAL);
        st.die = 4;
        st.cut[ns] = 4;
        cut_lines(&st, 4, 4, 4);
        assert_int_equal(st.last_round, 1);
        if (!lead) {
            assert_int_equal(st.safe, 1u << TH_NEUTRAL);
            assert_int_equal(st.occ[0], spaces("1,0,-1 2,0,-2"));
            assert_int_equal(st.occ[1], spaces("0,-1,1 -1,0,1"));
            assert_int_equal(st.occ[TH_NEUTRAL], spaces("3,-3,0 0,2,-2"));
        } else {
            assert_int_equal(st.safe, 0u);
            assert_int_equal(st.occ[0], spaces("1,0,-1 2,0,-2 3,-3,0"));
            assert_int_equal(st.occ[1], spaces("0,-1,1 -1,0,1"));
            assert_int_equal(st.occ[TH_NEUTRAL], spaces("0,2,-2 -1,2,-1 0,1,-1"));
            assert_int_equal(st.supply[0], 13);
            assert_int_equal(st.supply[1], 14);
            assert_int_equal(st.supply[TH_NEUTRAL], 13);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_PT_B1_37_spaces_and_neighbours),
        cmocka_unit_test(test_PT_B2_sides_and_line_masks),
        cmocka_unit_test(test_PT_B3_start_spaces),
        cmocka_unit_test(test_PT_S1_setup_on_start_spaces),
        cmocka_unit_test(test_PT_S1_start_player_from_seed),
        cmocka_unit_test(test_PT_S2_board_turns_each_round),
        cmocka_unit_test(test_PT_S2_two_player_sides_turn),
        cmocka_unit_test(test_PT_R1_legal_spaces),
        cmocka_unit_test(test_PT_R1_skip_without_space),
        cmocka_unit_test(test_PT_R1_skip_without_toppings),
        cmocka_unit_test(test_PT_R2_cuts_secret_until_revealed),
        cmocka_unit_test(test_PT_R3_regions_of_the_centre_cuts),
        cmocka_unit_test(test_PT_R4_safety_rule),
        cmocka_unit_test(test_PT_R4_safety_decided_before_changes),
        cmocka_unit_test(test_PT_R5_majority_replaces),
        cmocka_unit_test(test_PT_R5_two_way_tie_removes_third),
        cmocka_unit_test(test_PT_R5_three_way_tie_and_one_colour_unchanged),
        cmocka_unit_test(test_PT_R5_all_regions_at_once),
        cmocka_unit_test(test_PT_R6_removed_toppings_refill),
        cmocka_unit_test(test_PT_R6_supply_runs_out_edition_1),
        cmocka_unit_test(test_PT_E1_tie_break_by_shortfall),
        cmocka_unit_test(test_PT_E1_full_board_wins),
        cmocka_unit_test(test_PT_E2_draw_after_200_rounds),
        cmocka_unit_test(test_PT_2P1_neutral_setup_and_alternating_first),
        cmocka_unit_test(test_PT_2P2_die_and_neutral_topping),
        cmocka_unit_test(test_PT_2P3_neutral_full_both_lose),
        cmocka_unit_test(test_notation_round_trips),
        cmocka_unit_test(test_notation_labels),
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_board_file_refused_with_reason),
        cmocka_unit_test(test_custom_board_round_trips),
        cmocka_unit_test(test_PT_R5_rulebook_example_slices_A_to_E),
        cmocka_unit_test(test_PT_2P1_start_player_from_seed),
        cmocka_unit_test(test_PT_2P2_first_player_of_each_round_places_the_neutral),
        cmocka_unit_test(test_PT_2P2_neutral_topping_skipped),
        cmocka_unit_test(test_PT_2P2_neutral_is_a_colour_for_replacements),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
