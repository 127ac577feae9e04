/* test_hidden.c -- a guess at what a seat cannot see (determinize) depends
 * only on what the seat knows: a guess made from the real position and one
 * made from another guess are the same guess. So bots, which search from
 * guesses, choose alike whatever the hidden things really are. */
#include <stdlib.h>

#include "../../ai/bot.h"
#include "support.h"

typedef struct table_case {
    const char *game;
    int players;
} table_case;

static const table_case cases[] = {
    {"nyslice", 3}, {"nyslice", 4}, {"nyslice", 6}, {"theory", 2}, {"theory", 3},
    {"delivery", 2}, {"delivery", 4}, {"delivery", 6},
};

/* Every few moves of random games, for every seat and spectators: guesses
 * from the real position and from another guess agree byte for byte. */
static void test_guesses_depend_only_on_what_the_seat_knows(void **state)
{
    (void)state;
    int checked = 0, hidden_differs = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pb_game *g = ts_game(cases[c].game, cases[c].players);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            pb_state *st = pb_state_new(g, seed);
            pb_state *other = pb_state_clone(g, st), *a = pb_state_clone(g, st), *b = pb_state_clone(g, st);
            pb_rng play, guess;
            pb_rng_seed(&play, seed * 77);
            for (int step = 0; !pb_is_terminal(g, st); step++) {
                if (step % 7 == 0)
                    for (int seat = -1; seat < g->players; seat++) {
                        pb_state_copy(g, other, st);
                        pb_rng_seed(&guess, seed * 1000 + (uint64_t)step);
                        g->ops->determinize(g, other, seat, &guess);
                        hidden_differs += !pb_state_equal(g, other, st);
                        pb_state_copy(g, a, st);
                        pb_state_copy(g, b, other);
                        pb_rng_seed(&guess, 99);
                        g->ops->determinize(g, a, seat, &guess);
                        pb_rng_seed(&guess, 99);
                        g->ops->determinize(g, b, seat, &guess);
                        if (!pb_state_equal(g, a, b))
                            fail_msg("%s, %d players, seed %llu, move %d: seat %d's guess depends on where the "
                                     "hidden things really are", cases[c].game, cases[c].players,
                                     (unsigned long long)seed, step, seat);
                        checked++;
                    }
                char err[PB_ERR_LEN];
                assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &play), err, sizeof err), 0);
            }
            free(st);
            free(other);
            free(a);
            free(b);
        }
        pb_game_free(g);
    }
    /* the check could not fail if the guesses changed nothing */
    assert_true(checked > 500 && hidden_differs > 200);
}

/* A bot at the real position and at a guess of it, seeded alike, makes the
 * same choice and (searching, with playouts too) weighs every move the
 * same. */
static void test_bots_choose_alike_from_any_guess(void **state)
{
    (void)state;
    static pb_move_value real[PB_MAX_ACTIONS], guessed[PB_MAX_ACTIONS];
    int compared = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pb_game *g = ts_game(cases[c].game, cases[c].players);
        pb_state *st = pb_state_new(g, 5), *other = pb_state_clone(g, st);
        pb_rng play, guess;
        pb_rng_seed(&play, 5);
        char err[PB_ERR_LEN];
        for (int step = 0; step < 60 && !pb_is_terminal(g, st); step++) {
            if (step % 20 == 10) {
                int seat = pb_current_seat(g, st);
                pb_state_copy(g, other, st);
                pb_rng_seed(&guess, (uint64_t)step);
                g->ops->determinize(g, other, seat, &guess);
                static const char *const specs[] = {"greedy", "mcts:iters=300", "mcts:iters=30:playout=4"};
                for (int k = 0; k < 3; k++) {
                    const char *spec = specs[k];
                    pb_bot *x = pb_bot_new(spec, 11, err, sizeof err), *y = pb_bot_new(spec, 11, err, sizeof err);
                    pb_action ax = pb_bot_choose(x, g, st, seat), ay = pb_bot_choose(y, g, other, seat);
                    int nx = pb_bot_values(x, real, PB_MAX_ACTIONS), ny = pb_bot_values(y, guessed, PB_MAX_ACTIONS);
                    if (ax != ay || nx != ny)
                        fail_msg("%s, %d players, move %d: %s chose otherwise at a guess of the position",
                                 cases[c].game, cases[c].players, step, spec);
                    for (int i = 0; i < nx; i++)
                        if (real[i].action != guessed[i].action || real[i].visits != guessed[i].visits ||
                            real[i].value != guessed[i].value)
                            fail_msg("%s, %d players, move %d: %s weighed move %d otherwise at a guess",
                                     cases[c].game, cases[c].players, step, spec, i);
                    compared++;
                    pb_bot_free(x);
                    pb_bot_free(y);
                }
            }
            assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &play), err, sizeof err), 0);
        }
        free(st);
        free(other);
        pb_game_free(g);
    }
    assert_true(compared >= 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guesses_depend_only_on_what_the_seat_knows),
        cmocka_unit_test(test_bots_choose_alike_from_any_guess),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
