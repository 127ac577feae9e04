/* test_perfect.c -- the exact last-round solver and the `perfect` bot
 * (ai/perfect.h): a value worked out by hand, no hidden state read, and
 * play at least as good as expert's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/bot.h"
#include "../../ai/perfect.h"
#include "support.h"

#define PS(st) ((pb_state *)(void *)(st))
#define CPS(st) ((const pb_state *)(const void *)(st))

static pb_exact_value values[PB_MAX_ACTIONS];

/* Every move's value, with no time limit. */
static int solve_all(const pb_game *g, const nys_state *st, int *best)
{
    char err[PB_ERR_LEN];
    int n = pb_perfect_values(g, CPS(st), NULL, values, best, err, sizeof err);
    if (n < 0)
        fail_msg("%s", err);
    return n;
}

static int move_named(const nys_state *st, int n, const char *text)
{
    for (int i = 0; i < n; i++) {
        char buf[128];
        if (nys_action_to_text(st, values[i].action, buf, sizeof buf) == 0 && strcmp(buf, text) == 0)
            return i;
    }
    fail_msg("no move '%s'", text);
    return -1;
}

static void collect_all(nys_state *st)
{
    while (st->phase == NYS_PH_PLACE || st->phase == NYS_PH_EAT_OR_KEEP)
        ts_do(st, st->phase == NYS_PH_PLACE ? "collect all" : "keep");
}

/* The 2-player fixture (support.h) with the Mystery Slice in round 4, the
 * last: rounds 1-3 as in the scoring scenarios (Special alone, the chooser
 * takes it, the Slicer collects the ring), then seat 1 slices the last
 * pizza `special alone` and seat 0 chooses.
 *
 * Worked out by hand. Before round 4 seat 0 holds rings 1 and 3 (nine 9s,
 * two 4s, seven 7s, four 6s; 4 anchovies) and Supersize Combos; seat 1 holds
 * ring 2 (eleven 11s, 3 anchovies), Sneak-a-Slice and Tiebreaker. Ring 4 is
 * 6p2 6p2 5p1 5p1 5p1 5p2a1 5p2 4p1a1 A c4/11 c5/9; the spares S, c6/7, 4p2.
 *
 * Take the ring: seat 0 eats every edible slice (12 pepperonis, the 5p2a1's
 * and 4p1a1's anchovies avoided) and keeps the Combos and A: with Supersize,
 * 2 Fives from c5/9 win 5, 2 more Fours keep 4; majorities 9+7+6+4+5 = 31,
 * 12 - 7 anchovies: 36 whatever seat 1 draws. Seat 1 keeps 11 (8 points)
 * and eats the S or the 4p2 (+2), keeps c6/7 (wins nothing): 28/3.
 * Take the Special: seat 0 eats S or 4p2 (24) or keeps c6/7 (22): 70/3.
 * Seat 1 eats all eight edible slices (12 pepperonis, 5 still won by half of
 * c5/9 against none): 11 + 5 + 12 - 6 = 22. On c6/7 the tie at 22 goes to
 * seat 1 (8 slices eaten to 0): seat 0's win share is 2/3.
 * So seat 0 takes the ring. */
static void test_value_worked_out_by_hand(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 2);
    nys_rules r;
    nys_state st;
    const char *sp[] = {"sneak-a-slice", "supersize-combos", "tiebreaker", "mystery-slice"};
    ts_rules(&r, 2);
    ts_deal(&st, &r, ts_fix2_rings, TS_FIX2_SLICES, ts_fix2_spares, sp, 4);
    for (int round = 0; round < 3; round++) {
        assert_false(pb_perfect_applies(g, CPS(&st)));
        ts_do(&st, "special alone");
        ts_do(&st, "take special");
        collect_all(&st);
    }
    assert_true(pb_perfect_applies(g, CPS(&st)));
    ts_do(&st, "special alone");
    assert_int_equal(nys_current_seat(&st), 0);
    int best, n = solve_all(g, &st, &best);
    assert_int_equal(n, 2);
    int ring = move_named(&st, n, "take A"), special = move_named(&st, n, "take B");
    assert_int_equal(best, ring);
    assert_true(values[ring].exact && values[special].exact);
    assert_float_equal(values[ring].score[0], 36, 1e-6);
    assert_float_equal(values[ring].score[1], 28.0 / 3, 1e-6);
    assert_float_equal(values[ring].win[0], 1, 1e-6);
    assert_float_equal(values[special].score[0], 70.0 / 3, 1e-6);
    assert_float_equal(values[special].score[1], 22, 1e-6);
    assert_float_equal(values[special].win[0], 2.0 / 3, 1e-6);
    assert_float_equal(values[special].win[1], 1.0 / 3, 1e-6);
    /* the win share first: the ring still (a sure win against 2/3) */
    pb_perfect_limits for_win = {.win = true};
    char why[PB_ERR_LEN];
    assert_int_equal(pb_perfect_values(g, CPS(&st), &for_win, values, &best, why, sizeof why), 2);
    assert_int_equal(best, ring);
    /* not a last round: no answer, a reason */
    nys_state first;
    ts_deal(&first, &r, ts_fix2_rings, TS_FIX2_SLICES, ts_fix2_spares, sp, 4);
    char err[PB_ERR_LEN] = "";
    assert_int_equal(pb_perfect_values(g, CPS(&first), NULL, values, &best, err, sizeof err), -1);
    assert_non_null(strstr(err, "last round"));
    pb_game_free(g);
}

/* The answer for the seat to move is the same for every arrangement of what
 * it cannot see (another seat's face-down Mystery slice, the spares), like
 * the views' leak test: random 3-player games to the last round, checked
 * where a Mystery slice lies eaten and unseen by the seat to move. */
static void test_values_same_for_every_determinization(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 3);
    const nys_rules *r = g->rules;
    static pb_exact_value real[PB_MAX_ACTIONS];
    int checked = 0, mystery_moved = 0;
    for (int game = 0; game < 3000 && checked < 12; game++) {
        nys_state st;
        pb_rng rng;
        uint64_t seed = pb_derive_seed(77, (uint64_t)game);
        pb_rng_seed(&rng, seed);
        nys_init(&st, r, seed);
        char err[PB_ERR_LEN];
        while (!nys_last_round(&st) && nys_current_seat(&st) != PB_TERMINAL)
            nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
        while (nys_current_seat(&st) != PB_TERMINAL) {
            int seat = nys_current_seat(&st);
            bool hidden = st.mystery != NYS_NONE && st.mystery_owner != seat &&
                          NYS_LOC_KIND(st.loc[st.mystery]) == NYS_LOC_EATEN;
            pb_action acts[PB_MAX_ACTIONS];
            if (hidden && st.turn >= 1 && nys_legal_actions(&st, acts) <= 64) {
                int best_real, best, n = solve_all(g, &st, &best_real);
                memcpy(real, values, sizeof(pb_exact_value) * (size_t)n);
                for (int d = 0; d < 4; d++) {
                    nys_state det = st;
                    nys_determinize(&det, seat, &rng);
                    mystery_moved += det.mystery != st.mystery;
                    assert_int_equal(solve_all(g, &det, &best), n);
                    assert_int_equal(best, best_real);
                    for (int i = 0; i < n; i++)
                        for (int q = 0; q < 3; q++) {
                            assert_float_equal(values[i].score[q], real[i].score[q], 1e-9);
                            assert_float_equal(values[i].win[q], real[i].win[q], 1e-9);
                        }
                }
                checked++;
            }
            nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err);
        }
    }
    assert_true(checked >= 12);
    /* the check could not fail if the hidden slice never moved */
    assert_true(mystery_moved > 0);
    pb_game_free(g);
}

/* Seat `seat`'s final score when it plays the last round from `start` with
 * `spec` and the others with greedy (the same greedy each time). */
static int last_round_score(const pb_game *g, const nys_state *start, int seat, const char *spec, uint64_t seed)
{
    char err[PB_ERR_LEN];
    pb_bot *me = pb_bot_new(spec, seed, err, sizeof err), *other = pb_bot_new("greedy", seed, err, sizeof err);
    assert_non_null(me);
    assert_non_null(other);
    nys_state st = *start;
    int s, tot[PB_MAX_SEATS];
    while ((s = nys_current_seat(&st)) != PB_TERMINAL) {
        pb_action a = pb_bot_choose(s == seat ? me : other, g, CPS(&st), s);
        assert_int_equal(nys_apply(&st, a, err, sizeof err), 0);
    }
    g->ops->totals(g, CPS(&st), tot);
    pb_bot_free(me);
    pb_bot_free(other);
    return tot[seat];
}

/* `perfect` scores at least as many points as `expert` in the same seeded
 * last rounds (3 players, the first chooser's seat: every decision there is
 * solved whole, so the result does not depend on the machine's speed). */
static void test_perfect_scores_at_least_expert(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 3);
    char err[PB_ERR_LEN];
    pb_bot *easy = pb_bot_new("easy", 5, err, sizeof err);
    int perfect = 0, expert = 0, rounds = 32;
    for (int i = 0; i < rounds; i++) {
        nys_state st;
        nys_init(&st, g->rules, pb_derive_seed(2026, (uint64_t)i));
        while (!nys_last_round(&st))
            nys_apply(&st, pb_bot_choose(easy, g, CPS(&st), nys_current_seat(&st)), err, sizeof err);
        int seat = (st.slicer + 1) % 3;
        perfect += last_round_score(g, &st, seat, "perfect", 9 + (uint64_t)i);
        expert += last_round_score(g, &st, seat, "expert", 9 + (uint64_t)i);
    }
    print_message("perfect %d points, expert %d points in %d last rounds\n", perfect, expert, rounds);
    assert_true(perfect >= expert);
    pb_bot_free(easy);
    pb_game_free(g);
}

/* The bounds of the seat to move's win share after move i: every seat
 * playing for it, and every seat against it. */
static void win_bounds(const pb_game *g, const nys_state *st, int n, double *most, double *least)
{
    static pb_exact_value v[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    int best, seat = nys_current_seat(st);
    for (int i = 0; i < n; i++)
        most[i] = -1, least[i] = 2;
    for (int sign = 1; sign >= -1; sign -= 2) {
        pb_perfect_limits lim = {.bound = sign};
        assert_int_equal(pb_perfect_values(g, CPS(st), &lim, v, &best, err, sizeof err), n);
        for (int i = 0; i < n; i++)
            *(sign > 0 ? &most[i] : &least[i]) = v[i].win[seat];
    }
}

/* expert plays the solver's move in the last round exactly where no move
 * can change its share of the win, whoever plays how (then its most
 * points, the others expected to play as searches do), and its search
 * everywhere else; its values there are the solver's. */
static void test_expert_exact_where_settled(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 3);
    char err[PB_ERR_LEN];
    pb_bot *easy = pb_bot_new("easy", 5, err, sizeof err), *expert = pb_bot_new("expert", 3, err, sizeof err);
    assert_non_null(expert);
    int exact = 0, searched = 0;
    double most[PB_MAX_ACTIONS], least[PB_MAX_ACTIONS];
    for (int i = 0; i < 6; i++) {
        nys_state st;
        nys_init(&st, g->rules, pb_derive_seed(77, (uint64_t)i));
        while (!nys_last_round(&st))
            nys_apply(&st, pb_bot_choose(easy, g, CPS(&st), nys_current_seat(&st)), err, sizeof err);
        int seat;
        while ((seat = nys_current_seat(&st)) != PB_TERMINAL) {
            pb_action legal[PB_MAX_ACTIONS];
            int n = nys_legal_actions(&st, legal);
            pb_action a = pb_bot_choose(expert, g, CPS(&st), seat);
            if (n > 1 && n <= 64) {
                win_bounds(g, &st, n, most, least);
                bool settled = true;
                for (int k = 0; k < n; k++)
                    settled = settled && fabs(most[k] - least[0]) < 1e-6 && fabs(least[k] - least[0]) < 1e-6;
                bool by_solver = strncmp(pb_bot_why(expert), "exact last round", 16) == 0;
                assert_int_equal(by_solver, settled);
                if (by_solver) {
                    pb_perfect_limits lim = {.win = true, .rivals_lead = true};
                    int best;
                    assert_int_equal(pb_perfect_values(g, CPS(&st), &lim, values, &best, err, sizeof err), n);
                    assert_true(a == values[best].action);
                    pb_move_value mv[PB_MAX_ACTIONS];
                    assert_int_equal(pb_bot_values(expert, mv, PB_MAX_ACTIONS), n);
                    assert_true(mv[0].action == a);
                }
                exact += by_solver;
                searched += !by_solver;
            }
            assert_int_equal(nys_apply(&st, a, err, sizeof err), 0);
        }
    }
    print_message("expert: %d last-round decisions by the solver, %d by its search\n", exact, searched);
    assert_true(exact > 0 && searched > 0);
    pb_bot_free(easy);
    pb_bot_free(expert);
    pb_game_free(g);
}

/* perfect:LEVEL names the level before the last round; a bad one is refused;
 * perfect-win is the same bot aiming at the win first. */
static void test_perfect_spec(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    pb_bot *b = pb_bot_new("perfect:hard", 1, err, sizeof err);
    assert_non_null(b);
    assert_string_equal(pb_bot_name(b), "perfect:hard");
    pb_bot_free(b);
    b = pb_bot_new("perfect-win", 1, err, sizeof err);
    assert_non_null(b);
    pb_bot_free(b);
    assert_null(pb_bot_new("perfect-winner", 1, err, sizeof err));
    assert_null(pb_bot_new("perfect:wizard", 1, err, sizeof err));
    assert_non_null(strstr(err, "wizard"));
    assert_null(pb_bot_new("perfect:perfect", 1, err, sizeof err));
    assert_non_null(strstr(err, "perfect:LEVEL"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_worked_out_by_hand),
        cmocka_unit_test(test_values_same_for_every_determinization),
        cmocka_unit_test(test_perfect_scores_at_least_expert),
        cmocka_unit_test(test_perfect_spec),
        cmocka_unit_test(test_expert_exact_where_settled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
