/* test_analysis.c -- reviews of decisions (ai/analysis.h): a move the
 * search rates far below its best is a blunder, its best move is not
 * marked, a forced move is not reviewed, and a review reads nothing the
 * seat could not see. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/analysis.h"
#include "support.h"

static pb_move_value values[PB_MAX_ACTIONS];

/* Play a greedy game of New York Slice from st to the first decision of
 * seat 0 (after the opening) where a search seeded as `pizzabox analyze`
 * seeds it (from 1 and the move's index) weighed a move at least `gap`
 * below its best. Leaves st there; the move, and its index in *move. */
static pb_action find_bad_move(const pb_game *g, pb_state *st, double gap, int *move)
{
    char err[PB_ERR_LEN];
    pb_bot *greedy = pb_bot_new("greedy", 3, err, sizeof err);
    for (*move = 0; !pb_is_terminal(g, st); (*move)++) {
        int seat = pb_current_seat(g, st);
        if (seat == 0 && *move > 4) {
            pb_bot *hard = pb_bot_new("hard", pb_derive_seed(1, (uint64_t)*move), err, sizeof err);
            pb_bot_choose(hard, g, st, seat);
            int n = pb_bot_values(hard, values, PB_MAX_ACTIONS);
            pb_bot_free(hard);
            for (int i = n - 1; i > 0; i--)
                if (values[i].visits > 0 && values[0].value - values[i].value >= gap) {
                    pb_bot_free(greedy);
                    return values[i].action;
                }
        }
        g->ops->apply(g, st, pb_bot_choose(greedy, g, st, seat), err, sizeof err);
    }
    fail_msg("no decision with a move %.2f below the best", gap);
    return 0;
}

static void test_planted_blunder_is_marked_and_the_best_is_not(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 4);
    pb_state *st = pb_state_new(g, 21);
    int move;
    pb_action bad = find_bad_move(g, st, 0.3, &move);
    char err[PB_ERR_LEN];
    pb_review rv;
    assert_int_equal(pb_review_decision(g, st, bad, "hard", pb_derive_seed(1, (uint64_t)move), &rv, err, sizeof err), 0);
    assert_int_equal(rv.seat, 0);
    assert_int_equal(rv.mark, PB_MARK_BLUNDER);
    assert_string_equal(pb_mark_name(rv.mark), "blunder");
    assert_true(rv.played_weighed && rv.best != bad);
    assert_true(rv.loss >= 0.3 && rv.loss == rv.best_value - rv.played_value);
    pb_action best = rv.best;
    assert_int_equal(pb_review_decision(g, st, best, "hard", pb_derive_seed(1, (uint64_t)move), &rv, err, sizeof err), 0);
    assert_int_equal(rv.mark, PB_MARK_GOOD);
    assert_true(rv.best == best && rv.loss == 0);
    /* a bot that does not search cannot review */
    assert_int_equal(pb_review_decision(g, st, best, "greedy", 1, &rv, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not search"));
    free(st);
    pb_game_free(g);
}

/* A review of the real position and of any guess at what the seat could not
 * see is the same review, in every game. */
static void test_review_reads_only_what_the_seat_knew(void **state)
{
    (void)state;
    static const struct { const char *game; int players; } cases[] = {{"nyslice", 4}, {"theory", 3}, {"delivery", 3}};
    int reviewed = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pb_game *g = ts_game(cases[c].game, cases[c].players);
        pb_state *st = pb_state_new(g, 9), *guess = pb_state_clone(g, st);
        pb_rng play, deal;
        pb_rng_seed(&play, 9);
        char err[PB_ERR_LEN];
        for (int move = 0; move < 80 && !pb_is_terminal(g, st); move++) {
            pb_action a = g->ops->random_action(g, st, &play);
            if (move % 8 == 3) {
                pb_state_copy(g, guess, st);
                pb_rng_seed(&deal, (uint64_t)move);
                g->ops->determinize(g, guess, pb_current_seat(g, st), &deal);
                pb_review x, y;
                assert_int_equal(pb_review_decision(g, st, a, "mcts:iters=300", 4, &x, err, sizeof err), 0);
                assert_int_equal(pb_review_decision(g, guess, a, "mcts:iters=300", 4, &y, err, sizeof err), 0);
                if (x.mark != y.mark || x.best != y.best || x.best_value != y.best_value ||
                    x.played_value != y.played_value)
                    fail_msg("%s, move %d: the review changes with what the seat could not see", cases[c].game, move);
                reviewed += x.mark != PB_MARK_FORCED && x.mark != PB_MARK_PARTS;
            }
            assert_int_equal(g->ops->apply(g, st, a, err, sizeof err), 0);
        }
        free(st);
        free(guess);
        pb_game_free(g);
    }
    assert_true(reviewed >= 15);
}

/* What a review says adds up as a reader reads it: chances to a tenth of a
 * point, the loss their difference, the mark from that loss by the
 * thresholds, and a move played that the search rates as high as its own
 * choice named the best found (never a "best" rated below it). A bot that
 * cannot review is refused by name before any review. */
static void test_review_reads_as_it_adds_up(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 4);
    pb_state *st = pb_state_new(g, 8);
    pb_rng play;
    pb_rng_seed(&play, 8);
    char err[PB_ERR_LEN];
    int reviewed = 0, played_not_chosen = 0;
    for (int move = 0; !pb_is_terminal(g, st); move++) {
        pb_action a = g->ops->random_action(g, st, &play);
        pb_review rv;
        assert_int_equal(pb_review_decision(g, st, a, "easy", (uint64_t)move, &rv, err, sizeof err), 0);
        if (rv.mark != PB_MARK_FORCED && rv.mark != PB_MARK_PARTS) {
            reviewed++;
            for (int k = 0; k < 2; k++) {
                double v = 1000 * (k ? rv.best_value : rv.played_value);
                assert_true(v == round(v));
            }
            assert_true(rv.loss >= 0 && (rv.best == a ? rv.loss == 0 : rv.loss == rv.best_value - rv.played_value));
            assert_false(rv.best != a && rv.played_weighed && rv.played_value >= rv.best_value);
            long tenths = lround(1000 * rv.loss);
            pb_mark want = tenths >= 200 ? PB_MARK_BLUNDER : tenths >= 100 ? PB_MARK_MISTAKE
                           : tenths >= 50 ? PB_MARK_INACCURACY : PB_MARK_GOOD;
            assert_int_equal(rv.mark, want);
            /* the search's own choice rated no higher than the move played */
            if (rv.best == a) {
                pb_bot *b = pb_bot_new("easy", (uint64_t)move, err, sizeof err);
                played_not_chosen += pb_bot_choose(b, g, st, rv.seat) != a;
                pb_bot_free(b);
            }
        }
        assert_int_equal(g->ops->apply(g, st, a, err, sizeof err), 0);
    }
    assert_true(reviewed >= 20);
    assert_true(played_not_chosen > 0); /* the case above happened */
    assert_int_equal(pb_review_bot_check("hard", err, sizeof err), 0);
    assert_int_equal(pb_review_bot_check("mcts:iters=200:playout=4", err, sizeof err), 0);
    assert_int_equal(pb_review_bot_check("perfect", err, sizeof err), -1);
    assert_non_null(strstr(err, "a review needs a searching bot"));
    assert_int_equal(pb_review_bot_check("greedy", err, sizeof err), -1);
    assert_int_equal(pb_review_bot_check("mcts:iters=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "'iters=0': iters takes a whole number"));
    free(st);
    pb_game_free(g);
}

/* A Pizza Theory cut that wins however the others cut is the best move, at
 * a chance of exactly 1, even by a search far too short to find it: a cut
 * played beside it loses what the search gives that cut; a sure win played
 * is the best found. */
static void test_review_knows_a_sure_win(void **state)
{
    (void)state;
    pb_game *g = ts_game("theory", 2);
    pb_state *st = pb_state_new(g, 1);
    pb_action sure[8], legal[8];
    int ns = ts_sure_win_position(g, st, 40, sure, 8), n = g->ops->legal_actions(g, st, legal);
    pb_action other = 0;
    for (int i = 0; i < n; i++)
        if (!ts_action_among(legal[i], sure, ns))
            other = legal[i];
    char err[PB_ERR_LEN];
    pb_review rv;
    assert_int_equal(pb_review_decision(g, st, other, "mcts:iters=2", 5, &rv, err, sizeof err), 0);
    assert_true(ts_action_among(rv.best, sure, ns) && rv.best_value == 1 && rv.played_value < 1);
    assert_true(rv.loss == rv.best_value - rv.played_value);
    assert_int_equal(pb_review_decision(g, st, sure[ns - 1], "mcts:iters=2", 5, &rv, err, sizeof err), 0);
    assert_true(rv.best == sure[ns - 1] && rv.played_value == 1 && rv.loss == 0 && rv.mark == PB_MARK_GOOD);
    free(st);
    pb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planted_blunder_is_marked_and_the_best_is_not),
        cmocka_unit_test(test_review_reads_only_what_the_seat_knew),
        cmocka_unit_test(test_review_reads_as_it_adds_up),
        cmocka_unit_test(test_review_knows_a_sure_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
