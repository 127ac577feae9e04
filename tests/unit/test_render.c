/* test_render.c -- the New York Slice terminal renderer (app/nyslice_tui.c):
 * tables, portion letters and prompts drawn from real views of random games
 * for 2..6 players, for every seat and the spectator, and from a hand-made
 * view whose every number is known.
 *
 * The unit tests link only the library, so the renderer (an app/ file) is
 * compiled into this test directly. */
#include "support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../app/cli.h"
#include "../../app/nyslice_tui.h"
#include "../../app/nyslice_ui.h"
#include "../../games/nyslice/nyslice.h"

#define GAMES_PER_COUNT 6
#define MAX_ROWS_6P 40 /* "a 6-player table fits in about 40 rows" */

static const char *const names[] = {"Ann", "Bo", "Cy", "Di", "Ed", "Flo"};

/* ---- Helpers ---- */

/* Line `i` (from 0) of a text into buf, or false past the end. */
static bool line_at(const char *text, int i, char *buf, size_t n)
{
    for (; i > 0; i--) {
        text = strchr(text, '\n');
        if (!text)
            return false;
        text++;
    }
    if (!*text)
        return false;
    size_t len = strcspn(text, "\n");
    if (len >= n)
        len = n - 1;
    memcpy(buf, text, len);
    buf[len] = 0;
    return true;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Every line at most 80 columns (UTF-8 characters), the text ends a line. */
static void assert_width(const char *plain)
{
    int col = 0;
    for (const unsigned char *s = (const unsigned char *)plain; *s; s++) {
        if (*s == '\n') {
            col = 0;
            continue;
        }
        col += (*s & 0xc0) != 0x80;
        if (col > 80)
            fail_msg("line longer than 80 columns in:\n%s", plain);
    }
    assert_int_equal(plain[strlen(plain) - 1], '\n');
}

static void assert_plain_ascii(const char *text)
{
    for (const char *s = text; *s; s++)
        if (*s != '\n' && !isprint((unsigned char)*s))
            fail_msg("byte 0x%02x in plain text:\n%s", (unsigned char)*s, text);
}

/* Column of `needle` in the first line holding it, and that line's number. */
static int find_cell(const char *text, const char *needle, int *line)
{
    char buf[256];
    for (int i = 0; line_at(text, i, buf, sizeof buf); i++) {
        const char *hit = strstr(buf, needle);
        if (hit) {
            *line = i;
            return (int)(hit - buf);
        }
    }
    return -1;
}

/* A standalone "?" (a hidden slice) somewhere in the text. */
static bool has_hidden_token(const char *text)
{
    for (const char *s = strchr(text, '?'); s; s = strchr(s + 1, '?'))
        if ((s == text || s[-1] == ' ' || s[-1] == ':') && (s[1] == ' ' || s[1] == '\n' || !s[1]))
            return true;
    return false;
}

static const char *jstring(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static pb_game *new_game(int players)
{
    char err[PB_ERR_LEN];
    json_t *cfg = json_pack("{s:i}", "players", players);
    pb_game *g = pb_game_new("nyslice", cfg, err, sizeof err);
    json_decref(cfg);
    if (!g)
        fail_msg("pb_game_new: %s", err);
    return g;
}

static void step(const pb_game *g, pb_state *st, pb_rng *rng)
{
    char err[PB_ERR_LEN];
    if (g->ops->apply(g, st, g->ops->random_action(g, st, rng), err, sizeof err) != 0)
        fail_msg("random action refused: %s", err);
}

/* ---- What every table must show ---- */

/* The byte where column `col` (from 0) of a UTF-8 line starts, or NULL past its end. */
static const char *at_col(const char *line, int col)
{
    for (; *line; line++)
        if ((*line & 0xc0) != 0x80 && col-- == 0)
            return line;
    return NULL;
}

/* A player's row (the line over its "kept:" line) keeps the grid's columns
 * whatever the name: counts from column 16, anchovies ending at column 79. */
static void check_grid_rows(const char *plain)
{
    char row[512], next[512];
    int rows = 0;
    for (int i = 0; line_at(plain, i + 1, next, sizeof next); i++) {
        if (strncmp(next, "    ", 4) || !strstr(next, "kept:"))
            continue;
        assert_true(line_at(plain, i, row, sizeof row));
        const char *c15 = at_col(row, 15);
        if (!c15 || *c15 != ' ' || !strchr("-.0123456789", c15[1]) || !at_col(row, 78) || at_col(row, 79))
            fail_msg("grid row out of its columns: '%s'\n%s", row, plain);
        rows++;
    }
    assert_true(rows >= 2);
}

/* Each ring position as "NN token" ("--" when emptied by Dibs!, the
 * Anchovy slice in full so that it is not read as portion A), and after
 * division its portion's letter right under the token. */
static void check_ring(const json_t *v, const char *table)
{
    /* the pizza is drawn under the header, after the players' collections */
    const char *plain = strstr(table, "NEW YORK SLICE");
    assert_non_null(plain);
    const json_t *ring = json_object_get(v, "ring");
    char labels[26];
    int np = nys_tui_portion_labels(v, labels, 26);
    for (size_t i = 0; i < json_array_size(ring); i++) {
        const json_t *r = json_array_get(ring, i), *pn = json_object_get(r, "portion");
        char cell[32], under[256];
        const char *tok = jstring(r, "slice");
        int line;
        snprintf(cell, sizeof cell, "%2d %s", (int)i + 1, !tok ? "--" : strcmp(tok, "A") ? tok : "Anchovy");
        int col = find_cell(plain, cell, &line);
        if (col < 0)
            fail_msg("ring position %d not shown as '%s':\n%s", (int)i + 1, cell, plain);
        if (!np || json_is_null(pn))
            continue;
        char want = '?';
        for (int k = 0; k < np; k++)
            if (json_equal(json_object_get(json_array_get(json_object_get(v, "portions"), (size_t)k), "name"), pn))
                want = labels[k];
        assert_true(line_at(plain, line + 1, under, sizeof under));
        if ((int)strlen(under) <= col + 3 || under[col + 3] != want)
            fail_msg("position %d: portion letter %c not under it:\n%s", (int)i + 1, want, plain);
    }
}

static void check_table(const json_t *v, const char *text, bool colour, int players)
{
    char *plain = ts_strip_ansi(text);
    char buf[64];
    if (!colour)
        assert_string_equal(plain, text);
    assert_width(plain);
    assert_plain_ascii(plain);
    check_ring(v, plain);
    check_grid_rows(plain);
    for (int p = 0; p < players; p++)
        if (!strstr(plain, names[p]))
            fail_msg("seat name %s missing:\n%s", names[p], plain);
    int round = (int)json_integer_value(json_object_get(v, "round"));
    int rounds = (int)json_integer_value(json_object_get(v, "rounds"));
    snprintf(buf, sizeof buf, "Round %d of %d", round > rounds ? rounds : round, rounds);
    assert_non_null(strstr(plain, buf));
    snprintf(buf, sizeof buf, "Stacks left: %d", (int)json_integer_value(json_object_get(v, "stacks_left")));
    assert_non_null(strstr(plain, buf));
    if (players == 6 && count_lines(plain) > MAX_ROWS_6P)
        fail_msg("%d rows for 6 players:\n%s", count_lines(plain), plain);
    free(plain);
}

/* The command word each phase's prompt names (for the seat to move). */
static const char *command_word(const char *phase)
{
    static const char *const words[][2] = {
        {"dibs", "\"dibs "},     {"divide", "\"cut "},          {"cut-in-line", "\"cut-in-line\""},
        {"sneak", "\"sneak "},   {"take", "\"take "},           {"place", "\"collect all\""},
        {"eat-or-keep", "\"keep\""}, {"attach", "\"attach "},  {"seconds", "\"seconds "},
        {"over", "over"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(phase, words[i][0]))
            return words[i][1];
    fail_msg("unknown phase %s", phase);
    return NULL;
}

static void check_prompt(const json_t *v, const char *text, int you)
{
    char *plain = ts_strip_ansi(text);
    const char *phase = jstring(v, "phase");
    int to_move = (int)json_integer_value(json_object_get(v, "to_move"));
    assert_width(plain);
    assert_plain_ascii(plain);
    if (count_lines(plain) > 2)
        fail_msg("prompt over two lines:\n%s", plain);
    if (!strcmp(phase, "over") || (you >= 0 && you == to_move)) {
        if (!strstr(plain, command_word(phase)))
            fail_msg("%s prompt without %s:\n%s", phase, command_word(phase), plain);
    } else {
        char want[64];
        snprintf(want, sizeof want, "Waiting for %s", names[to_move]);
        assert_non_null(strstr(plain, want));
    }
    free(plain);
}

static void render_all_seats(const pb_game *g, const pb_state *st, bool colour)
{
    for (int seat = -1; seat < g->players; seat++) {
        json_t *v = g->ops->view(g, st, seat);
        pb_tui_opts o = {colour, names, seat};
        char *table = nys_tui_table(v, &o), *prompt = nys_tui_prompt(v, &o);
        assert_non_null(table);
        assert_non_null(prompt);
        check_table(v, table, colour, g->players);
        check_prompt(v, prompt, seat);
        if (colour) { /* the same text, only coloured */
            pb_tui_opts plain_o = {false, names, seat};
            char *plain = nys_tui_table(v, &plain_o), *stripped = ts_strip_ansi(table);
            assert_string_equal(stripped, plain);
            assert_non_null(strchr(table, '\x1b'));
            free(plain);
            free(stripped);
        } else {
            assert_null(strchr(table, '\x1b'));
            assert_null(strchr(prompt, '\x1b'));
        }
        free(table);
        free(prompt);
        json_decref(v);
    }
}

/* ---- Tests ---- */

/* Every state of several random games, every seat and the spectator, plain
 * and in colour (every third state). */
static void test_tables_of_random_games(void **state)
{
    (void)state;
    for (int n = 2; n <= 6; n++) {
        pb_game *g = new_game(n);
        for (uint64_t seed = 1; seed <= GAMES_PER_COUNT; seed++) {
            pb_state *st = pb_state_new(g, seed * 7919 + (uint64_t)n);
            pb_rng rng;
            pb_rng_seed(&rng, seed);
            for (int k = 0;; k++) {
                render_all_seats(g, st, k % 3 == 0);
                if (pb_is_terminal(g, st))
                    break;
                step(g, st, &rng);
            }
            free(st);
        }
        pb_game_free(g);
    }
}

/* Letters follow the ring as divided: lowest position first, the Special
 * alone last (`in_order`: no Sneak-a-Slice move since, which moves a slice
 * but no letter). */
static void check_labels(const json_t *v, bool in_order)
{
    const json_t *ps = json_object_get(v, "portions");
    char labels[26];
    int n = nys_tui_portion_labels(v, labels, 26);
    assert_int_equal(n, (int)json_array_size(ps));
    int low_of[26];
    for (int i = 0; i < n; i++) {
        const json_t *pos = json_object_get(json_array_get(ps, (size_t)i), "positions");
        low_of[labels[i] - 'A'] = json_array_size(pos) ? (int)json_integer_value(json_array_get(pos, 0)) : 99;
        for (int j = 0; j < i; j++)
            assert_int_not_equal(labels[i], labels[j]);
        assert_true(labels[i] >= 'A' && labels[i] < 'A' + n);
    }
    for (int l = 1; l < n && in_order; l++)
        assert_true(low_of[l - 1] < low_of[l]);
}

static void test_portion_labels_in_ring_order(void **state)
{
    (void)state;
    int divided = 0, alone = 0;
    for (int n = 2; n <= 6; n++) {
        pb_game *g = new_game(n);
        for (uint64_t seed = 1; seed <= 20; seed++) {
            pb_state *st = pb_state_new(g, seed);
            const nys_state *ns = (const nys_state *)(const void *)st;
            pb_rng rng;
            pb_rng_seed(&rng, seed + 100);
            int sneaked = -1; /* the round of the Sneak-a-Slice move */
            while (!pb_is_terminal(g, st)) {
                json_t *v = g->ops->view(g, st, PB_SPECTATOR);
                size_t np = json_array_size(json_object_get(v, "portions"));
                divided += np > 0;
                alone += np > 0 && json_is_string(json_object_get(json_object_get(v, "today"), "portion"));
                check_labels(v, sneaked != ns->round);
                json_decref(v);
                unsigned used = ns->special_used;
                step(g, st, &rng);
                if ((ns->special_used ^ used) >> NYS_SNEAK_A_SLICE & 1u)
                    sneaked = ns->round;
            }
            free(st);
        }
        pb_game_free(g);
    }
    assert_true(divided > 100);
    assert_true(alone > 10);
}

/* Find a state where the Mystery slice is eaten (as test_nyslice_props
 * does): the owner sees it, everyone else a "?". */
/* Every seat's table: only the owner sees the Mystery slice. */
static void check_mystery_views(const pb_game *g, const pb_state *st, int owner, bool placing)
{
    for (int seat = -1; seat < g->players; seat++) {
        json_t *v = g->ops->view(g, st, seat);
        pb_tui_opts o = {false, names, seat};
        char *table = nys_tui_table(v, &o);
        if (has_hidden_token(table) == (seat == owner))
            fail_msg("seat %d (owner %d) sees the Mystery slice wrongly:\n%s", seat, owner, table);
        if (seat == owner)
            assert_non_null(strstr(table, "your Mystery slice:"));
        else if (placing)
            assert_non_null(strstr(table, ":?"));
        free(table);
        json_decref(v);
    }
}

static void test_hidden_mystery_shown_as_question_mark(void **state)
{
    (void)state;
    int eaten_checked = 0, placing_checked = 0;
    pb_game *g = new_game(4);
    for (uint64_t seed = 0; seed < 3000 && (eaten_checked < 5 || placing_checked < 5); seed++) {
        pb_state *st = pb_state_new(g, seed);
        const nys_state *ns = (const nys_state *)(const void *)st;
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        bool eaten = false;
        while (!eaten && !pb_is_terminal(g, st)) {
            step(g, st, &rng);
            int kind = ns->mystery == NYS_NONE ? -1 : NYS_LOC_KIND(ns->loc[ns->mystery]);
            eaten = kind == NYS_LOC_EATEN;
            if (eaten || kind == NYS_LOC_PENDING)
                check_mystery_views(g, st, ns->mystery_owner, !eaten);
            eaten_checked += eaten;
            placing_checked += kind == NYS_LOC_PENDING;
        }
        free(st);
    }
    pb_game_free(g);
    assert_true(eaten_checked >= 5);
    assert_true(placing_checked >= 5);
}

/* A prompt's example as the terminal reads it when typed (the notation,
 * or "eat 1 3" numbering the slices being placed). */
static void to_notation(const json_t *v, const char *cmd, char *out, size_t n)
{
    char err[PB_ERR_LEN];
    if (nys_ui_translate(v, cmd, out, n, err, sizeof err) != 0)
        fail_msg("example '%s' not read: %s", cmd, err);
}

/* Every quoted command in the prompt of the seat to move is legal now. */
static int check_examples(const pb_game *g, const pb_state *st, const json_t *v, const char *prompt)
{
    int checked = 0;
    for (const char *q = strchr(prompt, '"'); q; q = strchr(q, '"')) {
        const char *end = strchr(q + 1, '"');
        char cmd[96], text[160], err[PB_ERR_LEN];
        pb_action a;
        assert_non_null(end);
        snprintf(cmd, sizeof cmd, "%.*s", (int)(end - q - 1), q + 1);
        to_notation(v, cmd, text, sizeof text);
        if (g->ops->action_from_text(g, st, text, &a, err, sizeof err) != 0)
            fail_msg("example \"%s\" (%s) is refused: %s\nprompt: %s", cmd, text, err, prompt);
        checked++;
        q = end + 1;
    }
    return checked;
}

static const char *const all_phases[] = {"dibs", "divide", "cut-in-line", "sneak", "take",
                                         "place", "eat-or-keep", "attach", "seconds", "over"};

/* The prompt of the seat to move (seat 0 once over); counts the phase. */
static void prompt_now(const pb_game *g, const pb_state *st, int *seen)
{
    int seat = pb_is_terminal(g, st) ? 0 : pb_current_seat(g, st);
    json_t *v = g->ops->view(g, st, seat);
    pb_tui_opts o = {false, names, seat};
    char *prompt = nys_tui_prompt(v, &o);
    const char *phase = jstring(v, "phase");
    check_prompt(v, prompt, seat);
    for (int i = 0; i < 10; i++)
        seen[i] += !strcmp(phase, all_phases[i]);
    if (strcmp(phase, "over"))
        assert_true(check_examples(g, st, v, prompt) >= 1);
    free(prompt);
    json_decref(v);
}

static void test_prompts_name_the_phase_and_examples_are_legal(void **state)
{
    (void)state;
    int seen[10] = {0};
    for (int n = 2; n <= 6; n++) {
        pb_game *g = new_game(n);
        for (uint64_t seed = 1; seed <= 40; seed++) {
            pb_state *st = pb_state_new(g, seed);
            pb_rng rng;
            pb_rng_seed(&rng, seed + 5);
            prompt_now(g, st, seen);
            while (!pb_is_terminal(g, st)) {
                step(g, st, &rng);
                prompt_now(g, st, seen);
            }
            free(st);
        }
        pb_game_free(g);
    }
    for (int i = 0; i < 10; i++)
        if (!seen[i])
            fail_msg("no prompt seen for phase %s", all_phases[i]);
}

/* Slices eaten by number: the Mystery slice is named "mystery", not by the
 * token it shares with a visible twin (which the game would take). */
static void test_eat_by_number_names_the_mystery(void **state)
{
    (void)state;
    json_t *v = json_loads("{\"phase\":\"place\",\"placing\":{\"seat\":1,\"why\":\"take\","
                           "\"slices\":[\"3\",\"9p3\",\"11\",\"9p3\"],\"edible\":[false,true,false,true],"
                           "\"mystery\":3,\"offered\":null}}",
                           0, NULL);
    assert_non_null(v);
    char out[64];
    to_notation(v, "eat 4", out, sizeof out);
    assert_string_equal(out, "eat mystery");
    to_notation(v, "eat 2", out, sizeof out);
    assert_string_equal(out, "eat 9p3");
    to_notation(v, "eat all", out, sizeof out);
    assert_string_equal(out, "eat 9p3 mystery");
    json_decref(v);
}

/* ---- A hand-made view: 3 players, round 2, Bo watching, Cy to take ---- */

static const char hand_view[] =
    "{\"game\": \"nyslice\", \"seat\": 1, \"player_count\": 3, \"round\": 2, \"rounds\": 6,"
    " \"slicer\": 0, \"first_slicer\": 2,"
    " \"type_names\": {\"3\": \"Veggie\", \"4\": \"Hawaiian\", \"5\": \"BBQ Chicken\", \"6\": \"Margarita\","
    "   \"7\": \"Sausage\", \"8\": \"Mushroom\", \"9\": \"Pepperoni\", \"10\": \"Meat Lovers\", \"11\": \"Cheese\"},"
    " \"phase\": \"take\", \"to_move\": 2,"
    " \"today\": {\"slug\": \"dibs\", \"name\": \"Dibs!\", \"text\": \"Once, in a later round before the"
    "   Slicer divides: take any one slice out of the pizza and place it.\", \"scored\": false,"
    "   \"portion\": \"special\", \"taken_by\": null},"
    " \"ring\": ["
    "  {\"pos\": 1, \"slice\": \"9p2\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 2, \"slice\": \"7p1a1\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 3, \"slice\": \"3\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 4, \"slice\": null, \"portion\": null, \"taken_by\": null},"
    "  {\"pos\": 5, \"slice\": \"c5/9\", \"portion\": 5, \"taken_by\": 1},"
    "  {\"pos\": 6, \"slice\": \"11p3\", \"portion\": 5, \"taken_by\": 1},"
    "  {\"pos\": 7, \"slice\": \"6p1\", \"portion\": 5, \"taken_by\": 1},"
    "  {\"pos\": 8, \"slice\": \"10p1a1\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 9, \"slice\": \"4p2\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 10, \"slice\": \"A\", \"portion\": 1, \"taken_by\": null},"
    "  {\"pos\": 11, \"slice\": \"5p1\", \"portion\": 1, \"taken_by\": null}],"
    " \"portions\": ["
    "  {\"name\": 5, \"positions\": [5, 6, 7], \"slices\": [\"c5/9\", \"11p3\", \"6p1\"], \"special\": false,"
    "   \"taken_by\": 1},"
    "  {\"name\": \"special\", \"positions\": [], \"slices\": [], \"special\": true, \"taken_by\": null},"
    "  {\"name\": 1, \"positions\": [1, 2, 3, 8, 9, 10, 11], \"slices\": [\"9p2\", \"7p1a1\", \"3\", \"10p1a1\","
    "   \"4p2\", \"A\", \"5p1\"], \"special\": false, \"taken_by\": null}],"
    " \"order\": [1, 2, 0], \"placing\": null,"
    " \"players\": ["
    "  {\"seat\": 0, \"collected\": [\"8p1\", \"9p2\", \"c8/10\", \"S@9\"], \"eaten\": [\"9p3\"], \"eaten_count\": 1,"
    "   \"specials\": [{\"slug\": \"cut-in-line\", \"used\": true, \"round\": 1}], \"supreme_waiting\": false},"
    "  {\"seat\": 1, \"collected\": [\"8\", \"8a1\", \"9p2\", \"11\", \"A\", \"S\"], \"eaten\": [],"
    "   \"eaten_count\": 0, \"specials\": [{\"slug\": \"tiebreaker\", \"used\": false, \"round\": 1}],"
    "   \"supreme_waiting\": true},"
    "  {\"seat\": 2, \"collected\": [\"9p1\", \"9p3\", \"10p2\", \"11a1\"], \"eaten\": [\"11p2\", \"?\"],"
    "   \"eaten_count\": 2, \"specials\": [], \"supreme_waiting\": false}],"
    " \"stacks_left\": 4, \"spares_left\": 2, \"box_seen\": []}";

static json_t *load_hand_view(void)
{
    json_error_t jerr;
    json_t *v = json_loads(hand_view, 0, &jerr);
    if (!v)
        fail_msg("hand view: %s (line %d)", jerr.text, jerr.line);
    return v;
}

/* The count cell of a type in a player's row: "1.5", "2*", "-". */
static void grid_cell(const char *table, const char *name, int type, char *out, size_t n)
{
    char buf[256];
    for (int i = 0; line_at(table, i, buf, sizeof buf); i++)
        if (!strncmp(buf + 2, name, strlen(name)) && buf[2 + strlen(name)] == ' ') {
            const char *c = buf + 16 + 6 * (type - 3);
            snprintf(out, n, "%.*s", (int)strcspn(c, " "), c);
            return;
        }
    fail_msg("no row for %s:\n%s", name, table);
}

static void assert_cell(const char *table, const char *name, int type, const char *want)
{
    char got[16];
    grid_cell(table, name, type, got, sizeof got);
    if (strcmp(got, want))
        fail_msg("%s type %d: '%s', want '%s'\n%s", name, type, got, want, table);
}

static void test_hand_view_counts_leaders_and_marks(void **state)
{
    (void)state;
    json_t *v = load_hand_view();
    pb_tui_opts o = {false, names, 1};
    char *t = nys_tui_table(v, &o);
    assert_width(t);
    assert_cell(t, "Ann", 8, "1.5");  /* 8p1 + half of c8/10 */
    assert_cell(t, "Bo", 8, "2*");
    assert_cell(t, "Ann", 10, ".5");
    assert_cell(t, "Cy", 10, "1*");
    assert_cell(t, "Ann", 9, "2=");   /* 9p2 + S@9, tied with Cy */
    assert_cell(t, "Cy", 9, "2=");
    assert_cell(t, "Bo", 9, "1");
    assert_cell(t, "Bo", 11, "1*");   /* tied, but Bo holds Tiebreaker */
    assert_cell(t, "Cy", 11, "1");
    assert_cell(t, "Cy", 3, "-");
    const char *want[] = {
        "NEW YORK SLICE  Round 2 of 6  Slicer: Ann  Stacks left: 4  To move: Cy",
        "Special: Dibs! - Once, in a later round",
        "[portion C on its own]",
        "   4 --",
        "     A           A           A                       B:Bo        B:Bo",
        "           A           A           A           A       |   B:Bo",
        "Choosing order: Bo, Cy, Ann",
        "  Bo (you)",
        "> Cy",
        "Slicer.  kept: 8p1 9p2 c8/10 S@9  ate 1: 9p3  specials: cut-in-line(used)",
        "kept: 8 8a1 9p2 11 Anchovy S(waiting)  ate 0: -  specials: tiebreaker",
        "ate 2: 11p2 ?",
        "3 Veggie", "4 Hawaiian", "9 Pepperoni", "11 Cheese",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(t, want[i]))
            fail_msg("'%s' missing from:\n%s", want[i], t);
    char row[256];
    int line;
    int col = find_cell(t, "  Bo (you)", &line);
    assert_int_equal(col, 0);
    assert_true(line_at(t, line, row, sizeof row));
    assert_string_equal(row + 70, "   0    4"); /* eaten, anchovies kept (A = 3) */
    free(t);
    /* A Supreme placed next to the Anchovy slice (NYS-T4) says so. */
    json_t *bo = json_array_get(json_object_get(v, "players"), 1);
    json_object_set_new(bo, "supreme_waiting", json_false());
    json_object_set_new(bo, "supreme_on_anchovy", json_true());
    t = nys_tui_table(v, &o);
    if (!strstr(t, "Anchovy S(on A)  ate 0"))
        fail_msg("no 'S(on A)' in:\n%s", t);
    free(t);
    json_decref(v);
}

static void test_hand_view_labels_and_prompts(void **state)
{
    (void)state;
    json_t *v = load_hand_view();
    char labels[4] = "???";
    assert_int_equal(nys_tui_portion_labels(v, labels, 3), 3);
    assert_memory_equal(labels, "BCA", 3);
    char small[2] = {'x', 'x'};
    assert_int_equal(nys_tui_portion_labels(v, small, 1), 3);
    assert_int_equal(small[0], 'B');
    assert_int_equal(small[1], 'x');

    pb_tui_opts bo = {false, names, 1}, cy = {true, names, 2}, spectator = {false, NULL, -1};
    char *p = nys_tui_prompt(v, &bo);
    assert_string_equal(p, "Waiting for Cy to take a portion.\n");
    free(p);
    p = nys_tui_prompt(v, &spectator);
    assert_string_equal(p, "Waiting for Seat 3 to take a portion.\n");
    free(p);
    p = nys_tui_prompt(v, &cy);
    char *plain = ts_strip_ansi(p);
    assert_string_equal(plain, "Take a portion by its letter: \"take A\" (open: A C).\n");
    assert_non_null(strstr(p, "\x1b[1m\"take A\"\x1b[0m"));
    free(plain);
    free(p);

    char *t = nys_tui_table(v, NULL);
    assert_non_null(strstr(t, "Seat 1"));
    assert_null(strstr(t, "(you)"));
    free(t);
    json_decref(v);
}

/* Colours: pepperonis red, anchovies blue, the viewer green, hidden magenta. */
static void test_hand_view_colours(void **state)
{
    (void)state;
    json_t *v = load_hand_view();
    pb_tui_opts o = {true, names, 1};
    char *t = nys_tui_table(v, &o);
    const char *want[] = {"9\x1b[31mp2\x1b[0m", "7\x1b[31mp1\x1b[0m\x1b[94ma1\x1b[0m", "\x1b[94mAnchovy\x1b[0m",
                          "\x1b[1;32mBo\x1b[0m", "\x1b[35m?\x1b[0m", "\x1b[1mA\x1b[0m"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(t, want[i]))
            fail_msg("escape sequence %zu missing", i);
    char *plain = ts_strip_ansi(t);
    assert_width(plain);
    free(plain);
    free(t);
    json_decref(v);
}

/* Names are the players' own text: long ones are clipped, control bytes
 * (an escape sequence in a name) never reach the terminal. */
static void test_names_are_clipped_and_made_safe(void **state)
{
    (void)state;
    static const char *const odd[] = {"\x1b[2J\x1b]0;pwned\x07", "Bartholomew-Montgomery the Third of Slice",
                                      "Zo\xc3\xab \xe2\x98\x85", "\xc2\x9b" "31m", "", NULL};
    pb_game *g = new_game(6);
    pb_state *st = pb_state_new(g, 11);
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    for (int k = 0; !pb_is_terminal(g, st); k++) {
        if (k % 5 == 0)
            for (int seat = -1; seat < 6; seat++) {
                json_t *v = g->ops->view(g, st, seat);
                pb_tui_opts o = {false, odd, seat};
                char *t = nys_tui_table(v, &o), *p = nys_tui_prompt(v, &o);
                assert_null(strchr(t, '\x1b'));
                assert_null(strchr(p, '\x1b'));
                assert_null(strchr(t, '\x07'));
                assert_null(strstr(t, "\xc2\x9b"));
                assert_width(t);
                assert_width(p);
                check_grid_rows(t);
                assert_non_null(strstr(t, "Barthol"));
                assert_non_null(strstr(t, "Zo\xc3\xab"));
                assert_non_null(strstr(t, "Seat 5"));
                free(t);
                free(p);
                json_decref(v);
            }
        step(g, st, &rng);
    }
    free(st);
    pb_game_free(g);
}

/* Odd views do not crash: an empty object, a view with no ring. */
static void test_sparse_views(void **state)
{
    (void)state;
    json_t *empty = json_object();
    char labels[4];
    char *t = nys_tui_table(empty, NULL), *p = nys_tui_prompt(empty, NULL);
    assert_non_null(t);
    assert_non_null(p);
    assert_width(t);
    assert_int_equal(nys_tui_portion_labels(empty, labels, 4), 0);
    assert_int_equal(nys_tui_portion_labels(NULL, labels, 4), 0);
    free(t);
    free(p);
    json_decref(empty);
}

/* The Guest Check of a finished game, as `pizzabox play` prints it. */
static char *guest_check(const pb_game *g, const pb_state *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    nys_print_guest_check(f, g, st, names);
    fclose(f);
    return text;
}

/* NYS-S1: a 2-player game plays without the 3s, 8s and 10s: its table and
 * Guest Check show no column (row) for them; 5 players play without the 10s;
 * 3, 4 and 6 players show all nine types. */
static void test_removed_types_have_no_column(void **state)
{
    (void)state;
    for (int n = 2; n <= 6; n++) {
        pb_game *g = new_game(n);
        pb_state *st = pb_state_new(g, 7);
        pb_rng rng;
        pb_rng_seed(&rng, 8);
        while (!pb_is_terminal(g, st))
            step(g, st, &rng);
        json_t *v = g->ops->view(g, st, 0);
        pb_tui_opts o = {false, names, 0};
        char *table = nys_tui_table(v, &o), *check = guest_check(g, st);
        bool three = n != 2, eight = n != 2, ten = n != 2 && n != 5;
        assert_int_equal(strstr(table, "3 Veggie") != NULL, three);
        assert_int_equal(strstr(table, "8 Mushroom") != NULL, eight);
        assert_int_equal(strstr(table, "10 Meat") != NULL, ten);
        assert_non_null(strstr(table, "9 Pepperoni"));
        assert_int_equal(strstr(check, "Veggie (3)") != NULL, three);
        assert_int_equal(strstr(check, "Mushroom (8)") != NULL, eight);
        assert_int_equal(strstr(check, "Meat Lovers (10)") != NULL, ten);
        assert_non_null(strstr(check, "Pepperoni (9)"));
        assert_width(table);
        free(table);
        free(check);
        json_decref(v);
        free(st);
        pb_game_free(g);
    }
}

/* NYS-E5: the You Like Anchovies! holder's Guest Check line reads
 * "Pepperoni + Anchovies" (marked "+" and explained); nobody else's is. */
static void test_you_like_anchovies_line_reads_plus(void **state)
{
    (void)state;
    int seen = 0;
    pb_game *g = new_game(3);
    for (uint64_t seed = 1; seed <= 30 && seen < 3; seed++) {
        pb_state *st = pb_state_new(g, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        while (!pb_is_terminal(g, st))
            step(g, st, &rng);
        const nys_state *ns = (const nys_state *)(const void *)st;
        int holder = ns->special_owner[NYS_YOU_LIKE_ANCHOVIES];
        char *check = guest_check(g, st);
        const char *line = strstr(check, "Pepperoni - Anchovies");
        assert_non_null(line);
        bool plus = strstr(check, "that line reads Pepperoni + Anchovies (You Like Anchovies!)") != NULL;
        assert_int_equal(plus, holder != NYS_NONE);
        /* the "+" stands in the holder's column only */
        const char *eol = strchr(line, '\n');
        for (int p = 0; p < 3; p++) {
            const char *cell = line + 24 + 9 * p;
            assert_true(cell + 9 <= eol + 1);
            assert_int_equal(cell[8] == '+', p == holder);
        }
        seen += holder != NYS_NONE;
        json_t *report = g->ops->score_report(g, st, names);
        json_t *pl = json_array_get(json_object_get(report, "players"), holder == NYS_NONE ? 0 : (size_t)holder);
        assert_string_equal(json_string_value(json_object_get(pl, "pepperoni_line")),
                            holder == NYS_NONE ? "Pepperoni - Anchovies" : "Pepperoni + Anchovies");
        json_decref(report);
        free(check);
        free(st);
    }
    assert_true(seen > 0);
    pb_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_of_random_games),
        cmocka_unit_test(test_portion_labels_in_ring_order),
        cmocka_unit_test(test_hidden_mystery_shown_as_question_mark),
        cmocka_unit_test(test_prompts_name_the_phase_and_examples_are_legal),
        cmocka_unit_test(test_eat_by_number_names_the_mystery),
        cmocka_unit_test(test_hand_view_counts_leaders_and_marks),
        cmocka_unit_test(test_hand_view_labels_and_prompts),
        cmocka_unit_test(test_hand_view_colours),
        cmocka_unit_test(test_names_are_clipped_and_made_safe),
        cmocka_unit_test(test_sparse_views),
        cmocka_unit_test(test_removed_types_have_no_column),
        cmocka_unit_test(test_you_like_anchovies_line_reads_plus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
