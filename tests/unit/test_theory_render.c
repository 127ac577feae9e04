/* test_theory_render.c -- Pizza Theory at the terminal (app/theory_tui.c)
 * and the front-end registry (app/front.c): tables, prompts and banners of
 * real views from random 2- and 3-player games, for every seat and the
 * spectator, in plain text and in colour. */
#include "support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../app/front.h"
#include "../../app/theory_tui.h"
#include "../../games/theory/theory.h"

static const char *const names[] = {"Ann", "Bo", "Cy"};

/* Every line at most 80 columns, printable ASCII, ending with a newline. */
static pb_game *new_game(int players)
{
    return ts_game("theory", players);
}

/* Render the three texts of a view and check their form; returns the table. */
static char *render(const json_t *v, int seat, bool colour)
{
    pb_tui_opts o = {colour, names, seat};
    return ts_render(pb_front_find("theory"), v, &o);
}

/* A wrapped paragraph as one line (it wraps at spaces). */
static char *unwrap(const char *text)
{
    char *flat = strdup(text);
    for (char *c = flat; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return flat;
}

/* The move the prompt offers as an example ("put d4", "cut 4") is legal,
 * and so is its short form ("d4", "4"). */
static void check_example(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    pb_tui_opts o = {false, names, seat};
    char *prompt = th_tui_prompt(v, &o);
    char *flat = unwrap(prompt);
    const char *q = strstr(flat, "e.g. \"");
    if (q) {
        char move[16] = "", brief[16] = "", notation[64], err[PB_ERR_LEN];
        assert_int_equal(sscanf(q + 6, "%15[a-z0-9 ]\" or just \"%15[a-z0-9]", move, brief), 2);
        assert_string_equal(strchr(move, ' ') + 1, brief);
        for (const char *m = move; m; m = m == move ? brief : NULL) {
            assert_int_equal(th_ui_translate(v, m, notation, sizeof notation, err, sizeof err), 0);
            pb_action a;
            if (g->ops->action_from_text(g, st, notation, &a, err, sizeof err) != 0)
                fail_msg("example %s -> %s refused: %s", m, notation, err);
        }
    }
    free(flat);
    free(prompt);
}

/* A seat's table is the same text whatever the others' hidden cuts are. */
static void check_secrecy(const pb_game *g, const pb_state *st, int seat, uint64_t seed)
{
    pb_state *det = pb_state_clone(g, st);
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    g->ops->determinize(g, det, seat, &rng);
    json_t *a = g->ops->view(g, st, seat), *b = g->ops->view(g, det, seat);
    pb_tui_opts o = {false, names, seat};
    char *ta = th_tui_table(a, &o), *tb = th_tui_table(b, &o);
    assert_string_equal(ta, tb);
    free(ta);
    free(tb);
    json_decref(a);
    json_decref(b);
    free(det);
}

static void test_tables_of_random_games(void **state)
{
    (void)state;
    for (int players = 2; players <= 3; players++) {
        pb_game *g = new_game(players);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            pb_state *st = pb_state_new(g, seed);
            pb_rng rng;
            pb_rng_seed(&rng, seed * 7);
            int moves = 0;
            for (;;) {
                for (int seat = -1; seat < players; seat++) {
                    json_t *v = g->ops->view(g, st, seat);
                    char *table = render(v, seat, moves % 2 == 0);
                    free(table);
                    if (seat >= 0) {
                        check_example(g, st, v, seat);
                        check_secrecy(g, st, seat, seed + (uint64_t)moves);
                    }
                    json_decref(v);
                }
                if (pb_is_terminal(g, st))
                    break;
                assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0), 0);
                moves++;
            }
            free(st);
        }
        pb_game_free(g);
    }
}

/* The hexagon: 37 spaces drawn in 7 rows; the mover's legal spaces show
 * their labels, and each label reads back as that space. */
static void test_board_labels(void **state)
{
    (void)state;
    pb_game *g = new_game(3);
    pb_state *st = pb_state_new(g, 5);
    int seat = pb_current_seat(g, st);
    json_t *v = g->ops->view(g, st, seat);
    pb_tui_opts o = {false, names, seat};
    char *table = th_tui_table(v, &o);
    const char *board = strstr(table, "The pizza now");
    assert_non_null(board);
    board = strchr(board, '\n') + 1;
    int tokens = 0, rows = 0, labels = 0;
    for (const char *line = board; *line && rows < 7; rows++) {
        const char *end = strchr(line, '\n');
        char buf[128];
        snprintf(buf, sizeof buf, "%.*s", (int)(end - line), line);
        for (char *save, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            tokens++;
            if (islower((unsigned char)w[0])) {
                char notation[64], err[PB_ERR_LEN];
                pb_action a;
                labels++;
                assert_int_equal(th_ui_translate(v, w, notation, sizeof notation, err, sizeof err), 0);
                assert_int_equal(g->ops->action_from_text(g, st, notation, &a, err, sizeof err), 0);
            }
        }
        line = end + 1;
    }
    assert_int_equal(rows, 7);
    assert_int_equal(tokens, 37);
    assert_int_equal(labels, (int)json_array_size(json_object_get(v, "legal")));
    /* The engine reads the labels: the terminal passes the words on. */
    char out[64], err[PB_ERR_LEN];
    pb_action a;
    assert_int_equal(th_ui_translate(v, "z9", out, sizeof out, err, sizeof err), 0);
    assert_int_equal(g->ops->action_from_text(g, st, out, &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "no space is labelled 'z9'"));
    free(table);
    json_decref(v);
    free(st);
    pb_game_free(g);
}

/* A skip is said on the table: a player with no space, and a neutral
 * topping with nowhere beside the die's line. */
static void test_skips_are_said(void **state)
{
    (void)state;
    pb_game *g = new_game(2);
    pb_state *st = pb_state_new(g, 5);
    json_t *v = g->ops->view(g, st, 0);
    pb_tui_opts o = {false, names, 0};
    char *plain = th_tui_table(v, &o);
    assert_null(strstr(plain, "skipped"));
    json_object_set_new(v, "skipped", json_pack("[i, i]", 1, 2));
    json_object_set_new(v, "die", json_integer(3));
    char *table = th_tui_table(v, &o);
    assert_non_null(strstr(table, "Bo (Green) had no space to add a topping on and skipped"));
    assert_non_null(strstr(table, "No empty space is beside line 3: no neutral topping this round."));
    free(plain);
    free(table);
    json_decref(v);
    free(st);
    pb_game_free(g);
}

/* The cells of text row `row` of a view's board (z - the smallest z), left
 * to right; their count. */
static int row_cells(const json_t *v, int row, int *out)
{
    const json_t *cells = json_object_get(v, "cells");
    int n = 0, minz = 99;
    for (size_t i = 0; i < json_array_size(cells); i++) {
        int z = (int)json_integer_value(json_array_get(json_array_get(cells, i), 2));
        minz = z < minz ? z : minz;
    }
    for (size_t i = 0; i < json_array_size(cells); i++) {
        const json_t *c = json_array_get(cells, i);
        if ((int)json_integer_value(json_array_get(c, 2)) - minz != row)
            continue;
        int k = n++, xy = (int)(json_integer_value(json_array_get(c, 0)) - json_integer_value(json_array_get(c, 1)));
        for (; k > 0; k--) { /* by x - y: left to right */
            const json_t *o = json_array_get(cells, (size_t)out[k - 1]);
            if (json_integer_value(json_array_get(o, 0)) - json_integer_value(json_array_get(o, 1)) <= xy)
                break;
            out[k] = out[k - 1];
        }
        out[k] = (int)i;
    }
    return n;
}

static int cell_coord(const json_t *v, int cell, int axis)
{
    const json_t *c = json_array_get(json_object_get(v, "cells"), (size_t)cell);
    return (int)json_integer_value(json_array_get(c, (size_t)axis));
}

/* 2 players: the neutral's line, once the die gave it, is drawn on the
 * board where it falls (the board numbers only the mover's own rows), a
 * slanted mark between the two spaces of each row it runs between, or a
 * rule of dashes between two rows; and the table says which it is. */
static void check_neutral_line(const json_t *v, const char *table)
{
    int die = (int)json_integer_value(json_object_get(v, "die"));
    const json_t *side = NULL, *sides = json_object_get(v, "sides");
    for (size_t d = 0; d < 3; d++)
        if (json_integer_value(json_object_get(json_array_get(sides, d), "colour")) == 2)
            side = json_array_get(sides, d);
    assert_non_null(side);
    int axis = json_string_value(json_object_get(side, "axis"))[0] - 'x';
    int at = (int)json_integer_value(json_array_get(json_object_get(side, "lines"), (size_t)die - 1));
    char legend[96];
    snprintf(legend, sizeof legend, "The die gave the neutral line %d: the %s on the board.", die,
             axis == 0 ? "\\" : axis == 1 ? "/" : "---");
    if (!strstr(table, legend))
        fail_msg("no '%s' in:\n%s", legend, table);
    const char *line = strchr(strstr(table, "The pizza now"), '\n') + 1;
    int marks = 0, rules = 0;
    for (int row = 0; row < 7; line = strchr(line, '\n') + 1) {
        int len = (int)strcspn(line, "\n");
        if (len > 40)
            len = 40; /* the last reveal's board starts at column 42 */
        if (strspn(line, " -") >= (size_t)len) { /* the rule along z, after the rows at or above it */
            assert_int_equal(axis, 2);
            for (int r = 0; r < 7; r++) {
                int c[8], n = row_cells(v, r, c);
                assert_true(n > 0 && (cell_coord(v, c[0], 2) <= at) == (r < row));
            }
            rules++;
            continue;
        }
        int c[8], n = row_cells(v, row, c), words = 0;
        for (int i = 0; i < len; i++) {
            if (line[i] == (axis == 0 ? '\\' : '/')) { /* every space left of it on one side, right on the other */
                for (int k = 0; k < n; k++)
                    assert_true((cell_coord(v, c[k], axis) <= at) == (axis == 0 ? k < words : k >= words));
                marks++;
            } else if (line[i] != ' ' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '/' || line[i - 1] == '\\')) {
                words++;
            }
        }
        assert_int_equal(words, n);
        row++;
    }
    if (axis == 2)
        assert_int_equal(rules, 1);
    else
        assert_true(marks >= 4); /* a line of the board crosses at least four rows */
}

static void test_neutral_line_on_the_board(void **state)
{
    (void)state;
    pb_game *g = new_game(2);
    bool axis_seen[3] = {false, false, false};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        pb_state *st = pb_state_new(g, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        while (!pb_is_terminal(g, st)) {
            for (int seat = -1; seat < 2; seat++) {
                json_t *v = g->ops->view(g, st, seat);
                if (json_is_integer(json_object_get(v, "die"))) {
                    pb_tui_opts o = {false, names, seat};
                    char *table = th_tui_table(v, &o);
                    check_neutral_line(v, table);
                    const json_t *sides = json_object_get(v, "sides");
                    for (size_t d = 0; d < 3; d++) {
                        const json_t *side = json_array_get(sides, d);
                        if (json_integer_value(json_object_get(side, "colour")) == 2)
                            axis_seen[json_string_value(json_object_get(side, "axis"))[0] - 'x'] = true;
                    }
                    free(table);
                }
                json_decref(v);
            }
            assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0), 0);
        }
        free(st);
    }
    assert_true(axis_seen[0] && axis_seen[1] && axis_seen[2]);
    pb_game_free(g);
}

/* A round's reveal is told once, by the game's news as the last cut is
 * made: the next round's banner does not tell it again. */
static void test_reveal_told_once(void **state)
{
    (void)state;
    pb_game *g = new_game(3);
    pb_state *st = pb_state_new(g, 2), *before = pb_state_new(g, 2);
    pb_rng rng;
    pb_rng_seed(&rng, 2);
    int reveals = 0;
    while (!pb_is_terminal(g, st)) {
        pb_state_copy(g, before, st);
        assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0), 0);
        char news[768];
        pb_news(g, before, st, names, news, sizeof news);
        reveals += strstr(news, "cuts revealed: ") != NULL;
        json_t *v = g->ops->view(g, st, PB_SPECTATOR);
        pb_tui_opts o = {false, names, PB_SPECTATOR};
        char *banner = th_tui_banner(v, &o);
        if (banner && strstr(banner, "reveal"))
            fail_msg("the banner tells the reveal again:\n%s", banner);
        free(banner);
        json_decref(v);
    }
    json_t *report = g->ops->score_report(g, st, NULL);
    assert_int_equal(reveals, (int)json_integer_value(json_object_get(report, "rounds")));
    json_decref(report);
    free(before);
    free(st);
    pb_game_free(g);
}

static void test_every_game_has_a_front_end(void **state)
{
    (void)state;
    for (int i = 0; pb_games[i]; i++) {
        char err[PB_ERR_LEN];
        pb_game *g = pb_game_new(pb_games[i]->id, NULL, err, sizeof err);
        assert_non_null(g);
        const pb_front *f = pb_front_for(g);
        assert_non_null(f);
        assert_string_equal(f->game, pb_games[i]->id);
        assert_non_null(strstr(f->rules, "\n## overview\n"));
        pb_game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_of_random_games),
        cmocka_unit_test(test_board_labels),
        cmocka_unit_test(test_skips_are_said),
        cmocka_unit_test(test_neutral_line_on_the_board),
        cmocka_unit_test(test_reveal_told_once),
        cmocka_unit_test(test_every_game_has_a_front_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
