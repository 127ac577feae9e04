/* test_nyslice_words.c -- New York Slice in the player's words: one
 * notation from input to log (portions by letter), a reason for every
 * refusal, every Special explained by name, and the log's news of what the
 * engine does alone. Positions are dealt with ts_deal (support.h). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Round 1 of a 4-player game, Slicer seat 0. Divided `cut 6 7 8 11
 * special 7` the portions are A 1-6 {9p2 9p2 8 3 c5/9 A}, B {S} with the
 * Special, C {11a1} and D 9-11 {6p1 6p1 10p1}. */
static const char *const ring_words[] = {"9p2", "9p2", "8", "3", "c5/9", "A", "S", "11a1", "6p1", "6p1", "10p1"};

static void deal(nys_state *st, nys_rules *r)
{
    ts_rules(r, 4);
    ts_deal(st, r, ring_words, LEN(ring_words), NULL, NULL, 0);
}

/* The news of a move, as the log prints it. */
static void do_with_news(const nys_rules *r, nys_state *st, const char *text, char *news, size_t n)
{
    nys_state before = *st;
    ts_do(st, text);
    nys_news(r, &before, st, news, n);
}

static void assert_contains(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("\"%s\" does not say \"%s\"", text, want);
}

/* Every refusal names its reason in the words of the table: illegal but
 * readable texts in real positions, from the division to the placing. */
static void test_refusals_say_why(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal(&st, &r);
    /* While the Slicer divides the pizza: */
    ts_refused(&st, "take B", "not now: the game expects the Slicer's division of the pizza, e.g. \"cut 3 7 11 special alone\"");
    ts_refused(&st, "cut 2 5 9 special 3", "4 players need 4 cuts when the Special goes with slices (4 portions), not 3");
    ts_refused(&st, "cut 2 5 8 12 special 3", "'12' is not a position of the pizza: they are numbered 1 to 11");
    ts_refused(&st, "cut 2 2 5 8 special 3", "cut 2 is named twice");
    ts_refused(&st, "cut 3 7 11 special", "a division reads");
    ts_refused(&st, "dibs 4", "not now: the game expects the Slicer's division");
    ts_refused(&st, "pass", "there is nothing to pass on now");
    ts_refused(&st, "log", "\"log\" is not a move: the game expects the Slicer's division of the pizza, e.g. \"cut");
    ts_do(&st, "cut 6 7 8 11 special 7");

    /* While a portion is chosen: */
    ts_refused(&st, "take E", "there is no portion E: the portions are A to D");
    ts_refused(&st, "take x1", "\"x1\" is not a portion: portions are named by their letter, A to D");
    ts_refused(&st, "take 12", "'12' is not a position of the pizza");
    ts_refused(&st, "take", "\"take\" is not how the move is written: e.g. \"take ");
    ts_refused(&st, "eat 9p2", "not now: the game expects a portion to take, by its letter, e.g. \"take ");
    ts_refused(&st, "cut 1 2 3 4 special 1", "not now: the game expects a portion to take");
    ts_refused(&st, "hint please", "\"hint please\" is not a move: the game expects a portion to take");
    ts_do(&st, "take a"); /* seat 1, letters in either case */

    /* While the slices just taken are placed: */
    ts_refused(&st, "eat 8", "an 8 with no pepperoni cannot be eaten");
    ts_refused(&st, "eat 3", "a Veggie (3) with no pepperoni can only be eaten with You Love Veggies");
    ts_refused(&st, "eat c5/9", "a Combo (c5/9) can only be eaten with Combo Craving");
    ts_refused(&st, "eat A", "the Anchovy slice (A) can never be eaten");
    ts_refused(&st, "eat 9p2 9p2 9p2", "you are placing two 9p2, not three");
    ts_refused(&st, "eat 6p1", "\"6p1\" is not among the slices you are placing (9p2 9p2 8 3 c5/9 A)");
    ts_refused(&st, "eat 9x", "\"9x\" is not a slice: slices read like 9p2");
    ts_refused(&st, "keep", "not now: the game expects which of the slices just taken to eat (the rest are collected), "
                            "e.g. \"collect all\"");
    ts_refused(&st, "take B", "not now: the game expects which of the slices just taken to eat");
    ts_do(&st, "eat 9p2 9p2");

    ts_refused(&st, "take A", "portion A is already taken");
    ts_refused(&st, "take 3", "portion A is already taken"); /* a record's old form */
    ts_do(&st, "take B");                                    /* seat 2: the Supreme and the Special */
    ts_do(&st, "collect all");
    ts_do(&st, "take C"); /* seat 3; the Slicer gets D and places it */
    assert_int_equal(nys_current_seat(&st), 0);
    ts_refused(&st, "eat 6p1 6p1 6p1", "you are placing two 6p1, not three");
    ts_refused(&st, "eat 10p1 10p1", "you are placing one 10p1, not two");
}

/* What the log prints for a move is what the player types for it, and
 * reads back as that move: portions by letter, never a position. */
static void test_log_is_the_notation(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal(&st, &r);
    ts_do(&st, "cut 6 7 8 11 special 7");
    static pb_action acts[PB_MAX_ACTIONS];
    int n = nys_legal_actions(&st, acts);
    static const char *const want[] = {"take A", "take B", "take C", "take D"};
    unsigned seen_mask = 0;
    assert_int_equal(n, LEN(want));
    for (int i = 0; i < n; i++) {
        char text[64], seen[64], err[PB_ERR_LEN];
        pb_action back;
        assert_int_equal(nys_action_to_text(&st, acts[i], text, sizeof text), 0);
        assert_int_equal(nys_action_text_for(&st, acts[i], 2, seen, sizeof seen), 0);
        int k = 0;
        while (k < LEN(want) && strcmp(want[k], text) != 0)
            k++;
        if (k == LEN(want) || (seen_mask >> k & 1u))
            fail_msg("unexpected or repeated legal action \"%s\"", text);
        seen_mask |= 1u << k;
        assert_string_equal(seen, text);
        assert_int_equal(nys_action_from_text(&st, text, &back, err, sizeof err), 0);
        assert_int_equal(back, acts[i]);
    }
}

/* The text of a legal action as records wrote it before the letters: a
 * portion by its lowest position, "take special" for the Special alone. */
static void old_text(const nys_state *st, pb_action a, char *buf, size_t n)
{
    int arg = NYS_ACTION_PAYLOAD(a), first;
    switch (NYS_ACTION_KIND(a)) {
    case NYS_A_TAKE:
        first = nys_portion_first_pos(st, arg);
        if (first < 0)
            snprintf(buf, n, "take special");
        else
            snprintf(buf, n, "take %d", first + 1);
        return;
    case NYS_A_SNEAK:
        first = nys_portion_first_pos(st, nys_sneak_target(st, arg & 0xF, arg >> 4));
        snprintf(buf, n, "sneak %d to %d", (arg & 0xF) + 1, first + 1);
        return;
    default:
        assert_int_equal(nys_action_to_text(st, a, buf, n), 0);
    }
}

/* Records keep replaying: games written with the old position forms read
 * back move for move into the same game as with letters, at every player
 * count, Sneak-a-Slice and the Special alone included. */
static void test_old_records_replay(void **state)
{
    (void)state;
    int sneaks = 0, alone = 0;
    for (int players = 2; players <= 6; players++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            nys_rules r;
            nys_state st, old;
            pb_rng rng;
            ts_rules(&r, players);
            nys_init(&st, &r, seed);
            old = st;
            pb_rng_seed(&rng, seed * 31 + (uint64_t)players);
            while (nys_current_seat(&st) != PB_TERMINAL) {
                char text[128], err[PB_ERR_LEN];
                pb_action a = nys_random_action(&st, &rng), back;
                old_text(&st, a, text, sizeof text);
                sneaks += NYS_ACTION_KIND(a) == NYS_A_SNEAK;
                alone += strcmp(text, "take special") == 0;
                if (nys_action_from_text(&old, text, &back, err, sizeof err) != 0)
                    fail_msg("old form \"%s\" refused: %s", text, err);
                assert_int_equal(back, a);
                assert_int_equal(nys_apply(&st, a, err, sizeof err), 0);
                assert_int_equal(nys_apply(&old, back, err, sizeof err), 0);
            }
            assert_memory_equal(&st, &old, sizeof st);
        }
    assert_true(sneaks > 5);
    assert_true(alone > 5);
}

/* rules SPECIAL: each of the 14 Specials by its name as printed, as typed
 * loosely (case, punctuation, spaces or hyphens) and by its slug gives its
 * name and the text the table shows; other names give nothing. */
static void test_explain_every_special(void **state)
{
    (void)state;
    pb_game *g = ts_game("nyslice", 4);
    char buf[1024];
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++) {
        char loose[64];
        size_t k = 0;
        for (const char *c = nys_special_name(sp); *c && k + 1 < sizeof loose; c++)
            if (*c != '!' && *c != '-')
                loose[k++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        loose[k] = 0;
        const char *names[] = {nys_special_name(sp), nys_special_slug(sp), loose};
        for (int i = 0; i < LEN(names); i++) {
            if (pb_explain(g, names[i], buf, sizeof buf) != 0)
                fail_msg("rules %s: nothing", names[i]);
            assert_contains(buf, nys_special_name(sp));
            assert_contains(buf, nys_special_text(sp));
        }
    }
    static const char *const typed[][2] = {
        {"Dibs!", "Dibs! (a Special): Once, in a later round"},
        {"dibs", "Dibs!"},
        {"day-old pizza", "Day-Old Pizza (a Special, scored at the end): At the end: -2 points."},
        {"DAY-OLD-PIZZA", "Day-Old Pizza"},
        {"Everyone Else Diet", "The Everyone-Else Diet"},
        {"you like anchovies", "You Like Anchovies!"},
    };
    for (int i = 0; i < LEN(typed); i++) {
        assert_int_equal(pb_explain(g, typed[i][0], buf, sizeof buf), 0);
        assert_contains(buf, typed[i][1]);
    }
    static const char *const unknown[] = {"", "!!", "dib", "pizza", "supreme"};
    for (int i = 0; i < LEN(unknown); i++)
        assert_int_equal(pb_explain(g, unknown[i], buf, sizeof buf), -1);
    pb_game_free(g);
}

/* The log says what happens without a decision: a portion collected
 * because nothing in it may be eaten, the Slicer's last portion, the next
 * round's Special, and at the end, the end. */
static void test_news_of_what_happens_alone(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    char news[256];
    deal(&st, &r);
    do_with_news(&r, &st, "cut 6 7 8 11 special 7", news, sizeof news);
    assert_string_equal(news, "");
    do_with_news(&r, &st, "take A", news, sizeof news);
    assert_string_equal(news, "");
    ts_do(&st, "collect all");
    ts_do(&st, "take B");
    ts_do(&st, "collect all");
    do_with_news(&r, &st, "take C", news, sizeof news);
    assert_string_equal(news, "Nothing in portion C may be eaten: 11a1 collected. The Slicer gets the last portion, D.");
    do_with_news(&r, &st, "collect all", news, sizeof news);
    assert_contains(news, "Round 2: today's Special is ");

    /* The same, with the last portion collected at once. */
    deal(&st, &r);
    ts_do(&st, "cut 6 7 8 11 special 7");
    ts_do(&st, "take D");
    ts_do(&st, "collect all");
    ts_do(&st, "take B");
    ts_do(&st, "collect all");
    do_with_news(&r, &st, "take A", news, sizeof news);
    assert_string_equal(news, "");
    do_with_news(&r, &st, "collect all", news, sizeof news);
    assert_contains(news, "The Slicer gets the last portion, C: nothing in it may be eaten, 11a1 collected. "
                          "Round 2: today's Special is ");

    /* The last round says so; the end of the game too. */
    int last_round = 0, ends = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        nys_init(&st, &r, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        while (nys_current_seat(&st) != PB_TERMINAL) {
            nys_state before = st;
            char err[PB_ERR_LEN];
            assert_int_equal(nys_apply(&st, nys_random_action(&st, &rng), err, sizeof err), 0);
            nys_news(&r, &before, &st, news, sizeof news);
            last_round += strstr(news, "Round 6 (the last): today's Special is ") != NULL;
            ends += strstr(news, "The game is over") != NULL;
            if (nys_current_seat(&st) != PB_TERMINAL)
                assert_null(strstr(news, "The game is over"));
        }
    }
    assert_int_equal(last_round, 10);
    assert_int_equal(ends, 10);
}

/* The game-over table names the last round's Slicer, not the seat after. */
static void test_game_over_names_the_last_slicer(void **state)
{
    (void)state;
    for (int players = 2; players <= 6; players++) {
        nys_rules r;
        nys_state st;
        ts_rules(&r, players);
        nys_init(&st, &r, 7);
        ts_play_out(&st, 7);
        json_t *v = nys_view(&st, &r, 0);
        int last = (st.first_slicer + st.rounds - 1) % players;
        assert_int_equal(json_integer_value(json_object_get(v, "slicer")), last);
        json_decref(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals_say_why),
        cmocka_unit_test(test_log_is_the_notation),
        cmocka_unit_test(test_old_records_replay),
        cmocka_unit_test(test_explain_every_special),
        cmocka_unit_test(test_news_of_what_happens_alone),
        cmocka_unit_test(test_game_over_names_the_last_slicer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
