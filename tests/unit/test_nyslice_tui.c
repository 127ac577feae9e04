/* test_nyslice_tui.c -- New York Slice at the terminal, from a player's
 * audit: the takers under the pizza told apart however alike their names,
 * a slice number typed twice refused rather than turned into another slice,
 * and the examples a refused division gives fit the player count. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../app/nyslice_tui.h"
#include "../../app/nyslice_ui.h"

/* Seat 0 (the first Slicer) divides with `cut`, then random moves until it
 * is seat 0's turn again: the others have taken their portions. */
static pb_state *divided_and_taken(const pb_game *g, uint64_t seed, const char *cut)
{
    pb_state *st = pb_state_new(g, seed);
    pb_action a;
    char err[PB_ERR_LEN];
    assert_non_null(st);
    if (g->ops->action_from_text(g, st, cut, &a, err, sizeof err) != 0 || g->ops->apply(g, st, a, err, sizeof err) != 0)
        fail_msg("%s: %s", cut, err);
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    while (pb_current_seat(g, st) != 0 && !pb_is_terminal(g, st))
        g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
    return st;
}

/* Every taken portion's letter under the pizza is followed by `want(seat)`. */
static void assert_takers(const pb_game *g, const pb_state *st, const char *const *names, const char *const *want)
{
    json_t *v = g->ops->view(g, st, 0);
    pb_tui_opts o = {false, names, 0};
    char *t = nys_tui_table(v, &o);
    char labels[32];
    int n = nys_tui_portion_labels(v, labels, (int)sizeof labels), taken = 0;
    for (int i = 0; i < n; i++) {
        json_t *by = json_object_get(json_array_get(json_object_get(v, "portions"), (size_t)i), "taken_by");
        const json_t *pos = json_object_get(json_array_get(json_object_get(v, "portions"), (size_t)i), "positions");
        if (!json_is_integer(by) || !json_array_size(pos)) /* the Special alone is not under the pizza */
            continue;
        char tag[32];
        snprintf(tag, sizeof tag, "%c:%s", labels[i], want[json_integer_value(by)]);
        size_t len = strlen(tag);
        const char *at = strstr(t, tag);
        /* the whole tag: a cut, a blank or the line's end after it */
        if (!at || (at[len] && at[len] != ' ' && at[len] != '|' && at[len] != '\n'))
            fail_msg("portion %c taken by seat %d is not labelled \"%s\":\n%s", labels[i],
                     (int)json_integer_value(by) + 1, tag, t);
        taken++;
    }
    assert_true(taken >= g->players - 2);
    for (const char *line = t; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
        assert_true(strcspn(line, "\n") <= 80);
    free(t);
    json_decref(v);
}

/* The audit's game: six players, the bots all Greedy. Before, every taker
 * was "Greedy" clipped to six columns. */
static void test_takers_are_told_apart(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 6);
    static const char *const greedy[] = {"You", "Greedy 2", "Greedy 3", "Greedy 4", "Greedy 5", "Greedy 6"};
    static const char *const greedy_tags[] = {"You", "Gree 2", "Gree 3", "Gree 4", "Gree 5", "Gree 6"};
    static const char *const mixed[] = {"You", "Greedy 2", "Expert 3", "Greedy 4", "Hard 5", "Random 6"};
    static const char *const mixed_tags[] = {"You", "Gree 2", "Expert", "Gree 4", "Hard 5", "Random"};
    static const char *const alike[] = {"Alexander", "Alexandra", "Bo", "Bo", "Cy", "Di"};
    static const char *const alike_tags[] = {"Alex 1", "Alex 2", "Bo 3", "Bo 4", "Cy", "Di"};
    for (uint64_t seed = 11; seed < 16; seed++) {
        pb_state *st = divided_and_taken(g, seed, "cut 1 3 5 7 9 11 special 1");
        assert_takers(g, st, greedy, greedy_tags);
        assert_takers(g, st, mixed, mixed_tags);
        assert_takers(g, st, alike, alike_tags);
        free(st);
    }
    pb_game_free(g);
}

/* "eat 1 1" while placing 11p2 11p2 6p1 ate both 11p2s. */
static void test_a_slice_number_twice_is_refused(void **state)
{
    (void)state;
    json_t *v = json_loads("{\"phase\":\"place\",\"placing\":{\"seat\":0,\"why\":\"take\","
                           "\"slices\":[\"11p2\",\"11p2\",\"6p1\"],\"edible\":[true,true,true],"
                           "\"mystery\":null,\"offered\":null}}",
                           0, NULL);
    assert_non_null(v);
    char out[64] = "", err[PB_ERR_LEN] = "";
    assert_int_equal(nys_ui_translate(v, "eat 1 1", out, sizeof out, err, sizeof err), -1);
    if (!strstr(err, "slice 1 is named twice"))
        fail_msg("\"eat 1 1\" refused with \"%s\"", err);
    assert_int_equal(nys_ui_translate(v, "eat 3 1 3", out, sizeof out, err, sizeof err), -1);
    assert_int_equal(nys_ui_translate(v, "eat 1 2", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "eat 11p2 11p2");
    assert_int_equal(nys_ui_translate(v, "eat 3 1", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "eat 6p1 11p2");
    json_decref(v);
}

/* A division refused for its form gives examples: each one typed must be a
 * division this table accepts ("cut 2 5 9 special 3" was given at every
 * player count; 3 cuts are no division for 4 players). */
static void test_division_examples_fit_the_table(void **state)
{
    (void)state;
    static const char *const typed[] = {"cut 2 5 8 11", "cut 2 5 8", "cut 2 5", "cut 2 5 8 11 7", "cut",
                                        "cut 2 5 8 11 special", "cut 1 2 3 4 5 6 7 special"};
    for (int n = 2; n <= 6; n++) {
        pb_game *g = ts_game("nyslice", n);
        pb_state *st = pb_state_new(g, 5);
        for (size_t k = 0; k < sizeof typed / sizeof typed[0]; k++) {
            pb_action a;
            char err[PB_ERR_LEN], e2[PB_ERR_LEN];
            if (g->ops->action_from_text(g, st, typed[k], &a, err, sizeof err) == 0)
                fail_msg("%d players: \"%s\" accepted", n, typed[k]);
            int examples = 0;
            for (const char *q = strchr(err, '"'); q; q = strchr(q, '"')) {
                const char *end = strchr(q + 1, '"');
                assert_non_null(end);
                char ex[96];
                snprintf(ex, sizeof ex, "%.*s", (int)(end - q - 1), q + 1);
                q = end + 1;
                if (strncmp(ex, "cut ", 4) != 0 && !(n == 2 && strcmp(ex, "special alone") == 0))
                    continue; /* a part of one ("special alone" after "three cuts then") */
                if (g->ops->action_from_text(g, st, ex, &a, e2, sizeof e2) != 0)
                    fail_msg("%d players, \"%s\": the example \"%s\" is refused: %s\n(%s)", n, typed[k], ex, e2, err);
                examples++;
            }
            if (!examples)
                fail_msg("%d players, \"%s\": no example in \"%s\"", n, typed[k], err);
        }
        free(st);
        pb_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_takers_are_told_apart),
        cmocka_unit_test(test_a_slice_number_twice_is_refused),
        cmocka_unit_test(test_division_examples_fit_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
