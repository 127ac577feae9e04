/* test_formats.c -- the fixed text formats: slice tokens, deck files, the
 * scoring file (spec "Notation and the scoring file"), game records and the
 * action notation. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/record.h"
#include "../../core/text.h"

#define ERR_SIZE PB_ERR_LEN

/* ---- Shared helpers ---- */

/* A message is one line that contains `want` (when not NULL). */
static void assert_message(const char *msg, const char *want)
{
    if (strchr(msg, '\n'))
        fail_msg("message spans several lines: '%s'", msg);
    if (msg[0] == 0)
        fail_msg("empty message");
    if (want && !strstr(msg, want))
        fail_msg("message '%s' does not mention '%s'", msg, want);
}

static json_t *parse_json(const char *text)
{
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!j)
        fail_msg("test JSON does not parse: %s", jerr.text);
    return j;
}

static char *dump_json(const json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
    assert_non_null(s);
    return s;
}

/* ---- Slice tokens ---- */

static void assert_token_round_trip(const nys_slice *s)
{
    char tok[16], again[16];
    nys_slice back;
    nys_slice_token(s, tok, sizeof tok);
    if (nys_slice_parse(tok, &back, NULL) != 0)
        fail_msg("token '%s' of a deck slice does not parse", tok);
    assert_true(nys_slice_equal(s, &back));
    nys_slice_token(&back, again, sizeof again);
    assert_string_equal(tok, again);
}

static void test_tokens_of_default_deck_round_trip(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    for (int i = 0; i < NYS_DECK_SLICES; i++)
        assert_token_round_trip(&deck.slice[i]);
}

static void assert_token_is(const char *tok, nys_slice want, int want_attached)
{
    nys_slice s;
    int attached = -1;
    if (nys_slice_parse(tok, &s, &attached) != 0)
        fail_msg("token '%s' refused", tok);
    assert_true(nys_slice_equal(&s, &want));
    assert_int_equal(attached, want_attached);
}

static void test_tokens_of_the_spec_parse(void **state)
{
    (void)state;
    assert_token_is("9", (nys_slice){NYS_NUMBERED, 9, 0, 0, 0}, 0);
    assert_token_is("9p2", (nys_slice){NYS_NUMBERED, 9, 0, 2, 0}, 0);
    assert_token_is("11a1", (nys_slice){NYS_NUMBERED, 11, 0, 0, 1}, 0);
    assert_token_is("7p1a1", (nys_slice){NYS_NUMBERED, 7, 0, 1, 1}, 0);
    assert_token_is("c8/10", (nys_slice){NYS_COMBO, 8, 10, 0, 0}, 0);
    assert_token_is("A", (nys_slice){NYS_ANCHOVY, 0, 0, 0, 3}, 0);
    assert_token_is("S", (nys_slice){NYS_SUPREME, 0, 0, 2, 0}, 0);
    assert_token_is("S@9", (nys_slice){NYS_SUPREME, 0, 0, 2, 0}, 9);
    assert_token_is("S@3", (nys_slice){NYS_SUPREME, 0, 0, 2, 0}, 3);
}

static void test_malformed_tokens_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "9p0", "12", "c10/8", "S@", "x", "9p4", "3a3", "", "0", "2", "09", "9p", "9a", "9a0",
        "9a1p1", "9p1p1", "9 ", " 9", "9P1", "c8/8", "c8", "c8/", "c/10", "c2/5", "c8/12",
        "c8/10x", "A1", "a", "S@2", "S@12", "S@9x", "S9", "s", "-9", "9p-1", "99999999999",
        "c08/10", "S@09",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nys_slice s;
        int attached;
        if (nys_slice_parse(bad[i], &s, &attached) == 0)
            fail_msg("malformed token '%s' accepted", bad[i]);
    }
}

static void test_attached_supreme_needs_attached_slot(void **state)
{
    (void)state;
    nys_slice s;
    assert_int_equal(nys_slice_parse("S@9", &s, NULL), -1);
    assert_int_equal(nys_slice_parse("S", &s, NULL), 0);
}

/* ---- Deck files ---- */

static void test_default_deck_loads(void **state)
{
    (void)state;
    nys_deck deck;
    char err[ERR_SIZE] = "";
    assert_int_equal(nys_deck_from_text(nys_default_deck_json(), &deck, err, sizeof err), 0);
    int kinds[4] = {0}, per_type[NYS_TYPE_SLOTS] = {0};
    for (int i = 0; i < NYS_DECK_SLICES; i++) {
        kinds[deck.slice[i].kind]++;
        if (deck.slice[i].kind == NYS_NUMBERED)
            per_type[deck.slice[i].type]++;
    }
    assert_int_equal(kinds[NYS_NUMBERED], 63);
    assert_int_equal(kinds[NYS_COMBO], 4);
    assert_int_equal(kinds[NYS_ANCHOVY], 1);
    assert_int_equal(kinds[NYS_SUPREME], 1);
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        assert_int_equal(per_type[t], t);
    assert_string_equal(deck.type_name[3], "Veggie");
    assert_string_equal(deck.type_name[8], "Mushroom");
    assert_string_equal(deck.type_name[10], "Meat Lovers");
    assert_string_equal(deck.type_name[11], "Cheese");
}

/* Copies of a token in a deck (no player-count removals). */
static int copies_in(const nys_deck *deck, const char *tok)
{
    nys_slice s;
    assert_int_equal(nys_slice_parse(tok, &s, NULL), 0);
    int n = 0;
    for (int i = 0; i < NYS_DECK_SLICES; i++)
        n += nys_slice_equal(&deck->slice[i], &s);
    return n;
}

static void test_default_deck_matches_spec_table(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    assert_int_equal(copies_in(&deck, "9p3"), 3);
    assert_int_equal(copies_in(&deck, "9p1a1"), 1);
    assert_int_equal(copies_in(&deck, "10p1"), 3);
    assert_int_equal(copies_in(&deck, "3"), 2);
    assert_int_equal(copies_in(&deck, "3a1"), 1);
    assert_int_equal(copies_in(&deck, "11a1"), 1);
    assert_int_equal(copies_in(&deck, "11p2a1"), 1);
    assert_int_equal(copies_in(&deck, "c8/10"), 1);
    assert_int_equal(copies_in(&deck, "c4/11"), 1);
    assert_int_equal(copies_in(&deck, "c5/9"), 1);
    assert_int_equal(copies_in(&deck, "c6/7"), 1);
}

static void test_deck_to_json_round_trip(void **state)
{
    (void)state;
    nys_deck deck, back;
    nys_deck_default(&deck);
    json_t *j = nys_deck_to_json(&deck);
    char err[ERR_SIZE] = "";
    if (nys_deck_from_json(j, &back, err, sizeof err) != 0)
        fail_msg("deck written by nys_deck_to_json refused: %s", err);
    json_decref(j);
    assert_memory_equal(deck.slice, back.slice, sizeof deck.slice);
    assert_memory_equal(deck.type_name, back.type_name, sizeof deck.type_name);
}

static json_t *default_deck(void)
{
    return parse_json(nys_default_deck_json());
}

/* The entry of type t in a deck object (types are listed 3..11). */
static json_t *deck_type(json_t *deck, int t)
{
    json_t *ty = json_array_get(json_object_get(deck, "types"), (size_t)(t - NYS_MIN_TYPE));
    assert_int_equal(json_integer_value(json_object_get(ty, "type")), t);
    return ty;
}

static void set_count(json_t *deck, int t, const char *field, int index, json_int_t value)
{
    json_t *arr = json_object_get(deck_type(deck, t), field);
    assert_int_equal(json_array_set_new(arr, (size_t)index, json_integer(value)), 0);
}

static void set_combo(json_t *deck, int index, int lo, int hi)
{
    json_t *combos = json_object_get(deck, "combos");
    assert_int_equal(json_array_set_new(combos, (size_t)index, json_pack("[i, i]", lo, hi)), 0);
}

/* The deck (consumed) is refused with a message mentioning `want`. */
static void expect_deck_refused_text(const char *text, const char *want)
{
    nys_deck deck;
    char err[ERR_SIZE] = "";
    if (nys_deck_from_text(text, &deck, err, sizeof err) == 0)
        fail_msg("deck accepted, expected an error about '%s'", want);
    assert_message(err, want);
}

static void expect_deck_refused(json_t *deck, const char *want)
{
    char *text = dump_json(deck);
    json_decref(deck);
    expect_deck_refused_text(text, want);
    free(text);
}

static void test_deck_wrong_slice_count(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_array_remove(json_object_get(deck_type(d, 9), "pepperoni"), 0);
    expect_deck_refused(d, "type 9");
    d = default_deck();
    json_array_append_new(json_object_get(deck_type(d, 4), "anchovies"), json_integer(0));
    expect_deck_refused(d, "type 4");
    d = default_deck();
    json_object_set_new(deck_type(d, 6), "pepperoni", json_integer(1));
    expect_deck_refused(d, "type 6");
}

static void test_deck_missing_type(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_array_remove(json_object_get(d, "types"), 4);
    expect_deck_refused(d, "types");
    d = default_deck();
    json_object_del(d, "types");
    expect_deck_refused(d, "types");
    d = default_deck();
    json_object_del(deck_type(d, 5), "pepperoni");
    expect_deck_refused(d, "pepperoni");
}

static void test_deck_duplicated_type(void **state)
{
    (void)state;
    json_t *d = default_deck();
    /* Type 4 becomes a second type 3 (with Veggie-compatible counts). */
    json_t *ty = deck_type(d, 4);
    json_object_set_new(ty, "type", json_integer(3));
    json_object_set_new(ty, "pepperoni", json_pack("[i, i, i]", 0, 0, 0));
    json_object_set_new(ty, "anchovies", json_pack("[i, i, i]", 0, 0, 0));
    expect_deck_refused(d, "type 3");
    d = default_deck();
    json_object_set_new(deck_type(d, 11), "type", json_integer(12));
    expect_deck_refused(d, "type");
}

static void test_deck_pepperoni_on_veggie(void **state)
{
    (void)state;
    json_t *d = default_deck();
    set_count(d, 3, "pepperoni", 2, 1);
    expect_deck_refused(d, "Veggie");
}

static void test_deck_counts_out_of_range(void **state)
{
    (void)state;
    json_t *d = default_deck();
    set_count(d, 9, "pepperoni", 4, 4);
    expect_deck_refused(d, "pepperoni");
    d = default_deck();
    set_count(d, 7, "pepperoni", 0, -1);
    expect_deck_refused(d, "pepperoni");
    d = default_deck();
    set_count(d, 11, "anchovies", 10, 3);
    expect_deck_refused(d, "anchovies");
    d = default_deck();
    json_array_set_new(json_object_get(deck_type(d, 5), "pepperoni"), 1, json_string("1"));
    expect_deck_refused(d, "pepperoni");
}

static void test_deck_unknown_fields(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_object_set_new(d, "colour", json_string("red"));
    expect_deck_refused(d, "colour");
    d = default_deck();
    json_object_set_new(deck_type(d, 8), "crust", json_string("thin"));
    expect_deck_refused(d, "crust");
}

static void test_deck_bad_names_and_game(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_object_set_new(d, "game", json_string("chess"));
    expect_deck_refused(d, "game");
    d = default_deck();
    json_object_del(deck_type(d, 7), "name");
    expect_deck_refused(d, "name");
    d = default_deck();
    json_object_set_new(deck_type(d, 7), "name", json_string(""));
    expect_deck_refused(d, "name");
    d = default_deck();
    json_object_set_new(deck_type(d, 7), "name", json_string("a name that is much too long, over 31"));
    expect_deck_refused(d, "name");
    for (int k = 0; k < 2; k++) { /* a C1 control, a line separator */
        d = default_deck();
        json_object_set_new(deck_type(d, 7), "name", json_string(k ? "Pep\xe2\x80\xa8peroni" : "Pep\xc2\x9bperoni"));
        expect_deck_refused(d, "control character");
    }
    d = default_deck();
    json_array_set_new(json_object_get(d, "types"), 0, json_integer(3));
    expect_deck_refused(d, "types");
}

static void test_deck_combo_count(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_array_remove(json_object_get(d, "combos"), 3);
    expect_deck_refused(d, "combos");
    d = default_deck();
    json_array_append_new(json_object_get(d, "combos"), json_pack("[i, i]", 3, 4));
    expect_deck_refused(d, "combos");
    d = default_deck();
    json_object_del(d, "combos");
    expect_deck_refused(d, "combos");
}

static void test_deck_combo_duplicated(void **state)
{
    (void)state;
    json_t *d = default_deck();
    set_combo(d, 3, 4, 11);
    expect_deck_refused(d, "twice");
    d = default_deck();
    set_combo(d, 2, 8, 10);
    expect_deck_refused(d, "twice");
}

static void test_deck_combo_order_and_range(void **state)
{
    (void)state;
    json_t *d = default_deck();
    set_combo(d, 1, 11, 4);
    expect_deck_refused(d, "[11, 4]");
    d = default_deck();
    set_combo(d, 1, 6, 6);
    expect_deck_refused(d, "[6, 6]");
    d = default_deck();
    set_combo(d, 1, 2, 5);
    expect_deck_refused(d, "[2, 5]");
    d = default_deck();
    set_combo(d, 1, 5, 12);
    expect_deck_refused(d, "[5, 12]");
    d = default_deck();
    json_array_set_new(json_object_get(d, "combos"), 1, json_pack("[i, i, i]", 3, 4, 5));
    expect_deck_refused(d, "Combo 2");
    d = default_deck();
    json_array_set_new(json_object_get(d, "combos"), 1, json_string("4/11"));
    expect_deck_refused(d, "Combo 2");
}

static void test_deck_combo_8_10_required(void **state)
{
    (void)state;
    json_t *d = default_deck();
    set_combo(d, 0, 3, 5);
    expect_deck_refused(d, "8/10");
}

static void test_deck_malformed_json_and_non_object(void **state)
{
    (void)state;
    expect_deck_refused_text("{\"types\": [", "malformed JSON");
    expect_deck_refused_text("", "malformed JSON");
    expect_deck_refused_text("{\"name\": \"x\",}", "malformed JSON");
    expect_deck_refused_text("[1, 2, 3]", "object");
    expect_deck_refused_text("\"deck\"", NULL);
    expect_deck_refused_text("42", NULL);
}


static void test_deck_duplicate_key_refused(void **state)
{
    (void)state;
    const char *text = nys_default_deck_json();
    const char *brace = strchr(text, '{');
    assert_non_null(brace);
    size_t len = strlen(brace) + 32;
    char *dup = malloc(len);
    assert_non_null(dup);
    snprintf(dup, len, "{\"name\": \"twice\",%s", brace + 1);
    expect_deck_refused_text(dup, "name");
    free(dup);
}

/* ---- The scoring file ---- */

static const char spec_table[] =
    "{\"game\": \"nyslice\",\n"
    " \"players\": [\n"
    "   {\"name\": \"Ann\", \"collected\": [\"9p2\", \"9p3\", \"c8/10\", \"S@9\"], \"eaten\": [\"11p3\", \"7p1\"],\n"
    "    \"specials\": [\"tiebreaker\"]},\n"
    "   {\"name\": \"Bo\", \"collected\": [\"A\", \"8a1\"], \"eaten\": [], \"specials\": []},\n"
    "   {\"name\": \"Cy\", \"collected\": [\"10p1\", \"10p1\"], \"eaten\": [\"5p1\"], \"specials\": [\"stuffed-crust\"]}\n"
    " ]}\n";

static const char spec_report[] =
    "{\"players\": [\n"
    "  {\"name\": \"Ann\", \"majorities\": 9,  \"types_won\": [9],  \"specials\": 0, \"pepperoni\": 4,  \"total\": 13, \"eaten\": 2},\n"
    "  {\"name\": \"Bo\",  \"majorities\": 8,  \"types_won\": [8],  \"specials\": 0, \"pepperoni\": -4, \"total\": 4,  \"eaten\": 0},\n"
    "  {\"name\": \"Cy\",  \"majorities\": 10, \"types_won\": [10], \"specials\": 5, \"pepperoni\": 1,  \"total\": 16, \"eaten\": 1}],\n"
    " \"winners\": [2]}";

static json_t *score_default(const char *text, char *err, size_t errlen)
{
    nys_deck deck;
    nys_deck_default(&deck);
    return nys_score_file(text, &deck, err, errlen);
}

static void assert_json_equal(json_t *got, const char *want_text)
{
    json_t *want = parse_json(want_text);
    if (!json_equal(got, want)) {
        char *a = dump_json(got), *b = dump_json(want);
        fail_msg("got %s\nwant %s", a, b);
    }
    json_decref(want);
}

static void test_score_spec_example(void **state)
{
    (void)state;
    char err[ERR_SIZE] = "";
    json_t *report = score_default(spec_table, err, sizeof err);
    if (!report)
        fail_msg("spec example refused: %s", err);
    assert_json_equal(report, spec_report);
    json_decref(report);
}

/* Score a table (consumed) expecting success; returns the report. */
static json_t *score_table(json_t *table, const nys_deck *deck)
{
    char *text = dump_json(table);
    json_decref(table);
    char err[ERR_SIZE] = "";
    json_t *report = nys_score_file(text, deck, err, sizeof err);
    if (!report)
        fail_msg("table %s refused: %s", text, err);
    free(text);
    return report;
}

static void expect_score_refused_text(const char *text, const nys_deck *deck, const char *want)
{
    char err[ERR_SIZE] = "";
    json_t *report = nys_score_file(text, deck, err, sizeof err);
    if (report) {
        json_decref(report);
        fail_msg("table %s accepted, expected an error about '%s'", text, want);
    }
    assert_message(err, want);
}

static void expect_score_refused(json_t *table, const nys_deck *deck, const char *want)
{
    char *text = dump_json(table);
    json_decref(table);
    expect_score_refused_text(text, deck, want);
    free(text);
}

/* A table of `players` players where player 1 has `list` = [tokens...]. */
static json_t *table_with(int players, const char *list, json_t *tokens)
{
    json_t *pl = json_array();
    for (int p = 0; p < players; p++)
        json_array_append_new(pl, json_object());
    json_object_set_new(json_array_get(pl, 0), list, tokens);
    return json_pack("{s:s, s:o}", "game", "nyslice", "players", pl);
}

/* A JSON array of `n` copies of a string. */
static json_t *copies(const char *tok, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(tok));
    return a;
}

static void test_score_unknown_token(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    static const char *const bad[] = {"9p0", "12", "c10/8", "S@", "x", "9p4", "3a3", "", "pepperoni"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[32];
        snprintf(want, sizeof want, "\"%s\"", bad[i]);
        expect_score_refused(table_with(3, "collected", copies(bad[i], 1)), &deck, want);
        expect_score_refused(table_with(3, "eaten", copies(bad[i], 1)), &deck, want);
    }
    expect_score_refused(table_with(3, "eaten", copies("S@9", 1)), &deck, "S@9");
    expect_score_refused(table_with(3, "collected", json_pack("[i]", 9)), &deck, "9");
}

static void test_score_unknown_slug(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    expect_score_refused(table_with(3, "specials", copies("tie-breaker", 1)), &deck, "tie-breaker");
    expect_score_refused(table_with(4, "specials", copies("Buffet", 1)), &deck, "Buffet");
    expect_score_refused(table_with(2, "specials", json_pack("[s, s]", "seconds", "dib")), &deck, "dib");
}

static void test_score_copies_limited_by_deck(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    json_decref(score_table(table_with(3, "collected", copies("9p3", 3)), &deck));
    expect_score_refused(table_with(3, "collected", copies("9p3", 4)), &deck, "9p3");
    json_decref(score_table(table_with(3, "eaten", copies("10p1", 3)), &deck));
    expect_score_refused(table_with(3, "eaten", copies("10p1", 4)), &deck, "10p1");
    expect_score_refused(table_with(2, "collected", copies("10p1", 1)), &deck, "10p1");
    expect_score_refused(table_with(2, "collected", copies("8a1", 1)), &deck, "8a1");
    expect_score_refused(table_with(2, "eaten", copies("c8/10", 1)), &deck, "c8/10");
    expect_score_refused(table_with(5, "collected", copies("10p2", 1)), &deck, "10p2");
    expect_score_refused(table_with(3, "collected", copies("A", 2)), &deck, "A");
    expect_score_refused(table_with(3, "collected", copies("3p1", 1)), &deck, "3p1");
}

/* Copies are counted over the whole table: collected and eaten, all players. */
static void test_score_copies_counted_across_players(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    const char *text = "{\"players\": [{\"collected\": [\"9p3\", \"9p3\"]},"
                       " {\"eaten\": [\"9p3\"]}, {\"eaten\": [\"9p3\"]}]}";
    expect_score_refused_text(text, &deck, "9p3");
    text = "{\"players\": [{\"collected\": [\"S@9\", \"9p2\"]}, {\"eaten\": [\"S\"]}, {}]}";
    expect_score_refused_text(text, &deck, "\"S\"");
}

static void test_score_attached_type_not_in_play(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    expect_score_refused(table_with(2, "collected", copies("S@8", 1)), &deck, "S@8");
    expect_score_refused(table_with(5, "collected", copies("S@10", 1)), &deck, "S@10");
    json_decref(score_table(table_with(5, "collected", copies("S@8", 1)), &deck));
}

static void test_score_malformed_json(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    expect_score_refused_text("{\"players\": [", &deck, "malformed JSON");
    expect_score_refused_text("", &deck, "malformed JSON");
    /* the parser quotes the text near the error: a raw newline there must
     * not split the message (found by fuzz_score) */
    expect_score_refused_text("{\"players\": [\"S@9\\\\\\\n", &deck, "malformed JSON");
    expect_deck_refused_text("{\"types\": [\"a\\\n", "malformed JSON");
    expect_score_refused_text("{\"players\": [{}, {}], \"players\": [{}, {}]}", &deck, "players");
}

static void test_score_special_held_twice(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    const char *text = "{\"players\": [{\"specials\": [\"tiebreaker\"]}, {\"specials\": [\"tiebreaker\"]}]}";
    expect_score_refused_text(text, &deck, "tiebreaker");
    expect_score_refused(table_with(3, "specials", copies("seconds", 2)), &deck, "seconds");
}

static void test_score_bad_shape(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    expect_score_refused_text("[]", &deck, "object");
    expect_score_refused_text("{\"players\": [{}]}", &deck, "players");
    expect_score_refused_text("{\"players\": [{}, {}, {}, {}, {}, {}, {}]}", &deck, "players");
    expect_score_refused_text("{\"game\": \"chess\", \"players\": [{}, {}]}", &deck, "game");
    expect_score_refused_text("{\"players\": [{}, {}], \"round\": 3}", &deck, "round");
    expect_score_refused_text("{\"players\": [{}, {\"hand\": []}]}", &deck, "hand");
    expect_score_refused_text("{\"players\": [{}, 7]}", &deck, "player 2");
    expect_score_refused_text("{\"players\": [{\"eaten\": \"9p2\"}, {}]}", &deck, "eaten");
    expect_score_refused_text("{\"players\": [{\"specials\": \"seconds\"}, {}]}", &deck, "specials");
    expect_score_refused_text("{\"players\": [{\"name\": 5}, {}]}", &deck, "name");
}

/* Bad input gets one line of error even when the offending value holds a
 * line break (spec: "one clear line on stderr"). */
static void test_score_messages_are_one_line(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    expect_score_refused_text("{\"players\": [{}, {}], \"bad\\nkey\": 1}", &deck, "bad");
    expect_score_refused_text("{\"players\": [{\"bad\\nkey\": 1}, {}]}", &deck, "bad");
    expect_score_refused_text("{\"players\": [{\"collected\": [\"9p2\\n\"]}, {}]}", &deck, "9p2");
    expect_score_refused_text("{\"players\": [{\"specials\": [\"dibs\\n\"]}, {}]}", &deck, "dibs");
}

static void test_deck_messages_are_one_line(void **state)
{
    (void)state;
    json_t *d = default_deck();
    json_object_set_new(d, "bad\nkey", json_true());
    expect_deck_refused(d, "bad");
    d = default_deck();
    json_object_set_new(deck_type(d, 4), "bad\nkey", json_true());
    expect_deck_refused(d, "bad");
}

/* Type 9 of the default deck with three pepperonis on every slice. */
static void all_9p3_deck(nys_deck *deck)
{
    json_t *d = default_deck();
    json_t *pep = json_object_get(deck_type(d, 9), "pepperoni");
    json_t *anch = json_object_get(deck_type(d, 9), "anchovies");
    for (size_t i = 0; i < 9; i++) {
        json_array_set_new(pep, i, json_integer(3));
        json_array_set_new(anch, i, json_integer(0));
    }
    char *text = dump_json(d);
    json_decref(d);
    char err[ERR_SIZE] = "";
    if (nys_deck_from_text(text, deck, err, sizeof err) != 0)
        fail_msg("custom deck refused: %s", err);
    free(text);
}

static void test_score_with_custom_deck(void **state)
{
    (void)state;
    nys_deck custom, standard;
    all_9p3_deck(&custom);
    nys_deck_default(&standard);
    json_t *report = score_table(table_with(3, "eaten", copies("9p3", 9)), &custom);
    json_t *first = json_array_get(json_object_get(report, "players"), 0);
    assert_int_equal(json_integer_value(json_object_get(first, "pepperoni")), 27);
    assert_int_equal(json_integer_value(json_object_get(first, "eaten")), 9);
    json_decref(report);
    expect_score_refused(table_with(3, "eaten", copies("9p3", 9)), &standard, "9p3");
    expect_score_refused(table_with(3, "eaten", copies("9p3", 10)), &custom, "9p3");
    expect_score_refused(table_with(3, "collected", copies("9p1", 1)), &custom, "9p1");
    json_decref(score_table(table_with(3, "collected", copies("9p1", 1)), &standard));
}

/* A deck whose 69 slices are all different: type t's slices carry the
 * (pepperoni, anchovies) pairs (0,0), (1,0), (2,0), (3,0), (0,1), ... */
static void distinct_deck(nys_deck *deck)
{
    json_t *d = default_deck();
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        for (int k = 0; k < t; k++) {
            bool veggie = t == NYS_VEGGIE;
            set_count(d, t, "pepperoni", k, veggie ? 0 : k % 4);
            set_count(d, t, "anchovies", k, veggie ? k : k / 4);
        }
    char *text = dump_json(d);
    json_decref(d);
    char err[ERR_SIZE] = "";
    if (nys_deck_from_text(text, deck, err, sizeof err) != 0)
        fail_msg("distinct deck refused: %s", err);
    free(text);
}

/* Every slice of an all-different deck, then one slice it does not have:
 * the extra token must be refused (and nothing written out of bounds). */
static void test_score_every_slice_then_one_more(void **state)
{
    (void)state;
    nys_deck deck;
    distinct_deck(&deck);
    json_t *all = json_array();
    for (int i = 0; i < NYS_DECK_SLICES; i++) {
        char tok[16];
        nys_slice_token(&deck.slice[i], tok, sizeof tok);
        json_array_append_new(all, json_string(tok));
    }
    json_decref(score_table(table_with(3, "collected", json_deep_copy(all)), &deck));
    json_array_append_new(all, json_string("3p1"));
    expect_score_refused(table_with(3, "collected", all), &deck, "3p1");
}

static void test_score_names_default_to_seats(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    json_t *report = score_table(table_with(2, "collected", copies("9p2", 1)), &deck);
    json_t *players = json_object_get(report, "players");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "name")), "Seat 1");
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 1), "name")), "Seat 2");
    assert_json_equal(json_object_get(report, "winners"), "[0]");
    json_decref(report);
}

/* ---- Game records ---- */

typedef struct played {
    pb_game *game;
    pb_state *state;
    pb_record *record;
} played;

/* A game from a config (consumed). */
static pb_game *game_from(json_t *config)
{
    char err[ERR_SIZE] = "";
    pb_game *g = pb_game_new("nyslice", config, err, sizeof err);
    json_decref(config);
    if (!g)
        fail_msg("pb_game_new: %s", err);
    return g;
}

static pb_game *new_game(int players)
{
    return game_from(json_pack("{s:i}", "players", players));
}

/* Play a whole game of random actions through the game interface,
 * recording each action before it is applied. */
static void play_game(played *p, pb_game *g, uint64_t seed)
{
    char err[ERR_SIZE] = "";
    pb_rng rng;
    pb_rng_seed(&rng, seed ^ UINT64_C(0x9e3779b97f4a7c15));
    p->game = g;
    p->state = pb_state_new(p->game, seed);
    p->record = pb_record_new(p->game, seed);
    assert_non_null(p->state);
    assert_non_null(p->record);
    while (!pb_is_terminal(p->game, p->state)) {
        pb_action a = p->game->ops->random_action(p->game, p->state, &rng);
        assert_int_equal(pb_record_add(p->record, p->game, p->state, a), 0);
        if (p->game->ops->apply(p->game, p->state, a, err, sizeof err) != 0)
            fail_msg("random action refused: %s", err);
    }
}

static void play_recorded(played *p, int players, uint64_t seed)
{
    play_game(p, new_game(players), seed);
}

static void played_free(played *p)
{
    pb_record_free(p->record);
    free(p->state);
    pb_game_free(p->game);
}

static char *record_text(const pb_record *r)
{
    json_t *j = pb_record_to_json(r);
    char *s = dump_json(j);
    json_decref(j);
    return s;
}

static json_t *report_of(const pb_game *g, const pb_state *st)
{
    return g->ops->score_report(g, st, NULL);
}

static void assert_replays_to(const played *p, const char *text)
{
    pb_replay r;
    char err[ERR_SIZE] = "";
    if (pb_replay_text(text, &r, err, sizeof err) != 0)
        fail_msg("record does not replay: %s", err);
    assert_int_equal(r.actions, pb_record_length(p->record));
    assert_true(pb_is_terminal(r.game, r.state));
    assert_int_equal(r.game->ops->state_size, p->game->ops->state_size);
    assert_memory_equal(r.state, p->state, p->game->ops->state_size);
    json_t *a = report_of(p->game, p->state), *b = report_of(r.game, r.state);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    char *again = record_text(r.record);
    assert_string_equal(again, text);
    free(again);
    pb_replay_free(&r);
}

static void test_record_replays_identically(void **state)
{
    (void)state;
    for (int players = NYS_MIN_PLAYERS; players <= NYS_MAX_PLAYERS; players++)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            played p;
            play_recorded(&p, players, seed * 7919u + (uint64_t)players);
            char *text = record_text(p.record);
            assert_replays_to(&p, text);
            free(text);
            played_free(&p);
        }
}

static void test_record_with_names_and_big_seed(void **state)
{
    (void)state;
    played p;
    play_recorded(&p, 3, PB_SEED_MAX);
    const char *names[] = {"Ann", "Bo", "Cy \"the slicer\""};
    pb_record_set_names(p.record, names, 3);
    char *text = record_text(p.record);
    assert_non_null(strstr(text, "9007199254740991"));
    assert_replays_to(&p, text);
    free(text);
    played_free(&p);
}

/* A custom deck and a random first Slicer travel inside the record. */
static void test_record_custom_deck_replays(void **state)
{
    (void)state;
    json_t *deck = default_deck();
    json_object_set_new(deck, "name", json_string("house deck"));
    set_count(deck, 9, "pepperoni", 0, 3);
    played p;
    play_game(&p, game_from(json_pack("{s:i, s:s, s:o}", "players", 5, "first_slicer", "random",
                                      "deck", deck)), 31337);
    char *text = record_text(p.record);
    assert_non_null(strstr(text, "house deck"));
    assert_non_null(strstr(text, "\"random\""));
    assert_replays_to(&p, text);
    free(text);
    played_free(&p);
}

static void test_record_add_refuses_illegal_action(void **state)
{
    (void)state;
    pb_game *g = new_game(4);
    pb_state *st = pb_state_new(g, 11);
    pb_record *r = pb_record_new(g, 11);
    assert_int_equal(pb_record_add(r, g, st, NYS_ACTION(NYS_A_ATTACH, 9)), -1);
    assert_int_equal(pb_record_add(r, g, st, NYS_ACTION(NYS_A_EAT, 0)), -1);
    assert_int_equal(pb_record_length(r), 0);
    pb_record_free(r);
    free(st);
    pb_game_free(g);
}

/* The state after the first `k` actions of a record, applied as text. */
static pb_state *state_after(const pb_game *g, const pb_record *r, uint64_t seed, int k)
{
    pb_state *st = pb_state_new(g, seed);
    json_t *j = pb_record_to_json(r);
    json_t *actions = json_object_get(j, "actions");
    char err[ERR_SIZE] = "";
    for (int i = 0; i < k; i++) {
        const char *t = json_string_value(json_array_get(actions, (size_t)i));
        if (pb_apply_text(g, st, t, err, sizeof err) != 0)
            fail_msg("action %d '%s': %s", i + 1, t, err);
    }
    json_decref(j);
    return st;
}

/* A truncated record replays to the position after its last action. */
static void test_record_truncated_replays_partway(void **state)
{
    (void)state;
    played p;
    play_recorded(&p, 4, 99);
    pb_state *want = state_after(p.game, p.record, 99, 10);
    pb_record_truncate(p.record, 10);
    assert_int_equal(pb_record_length(p.record), 10);
    char *text = record_text(p.record);
    pb_replay r;
    char err[ERR_SIZE] = "";
    if (pb_replay_text(text, &r, err, sizeof err) != 0)
        fail_msg("truncated record does not replay: %s", err);
    assert_int_equal(r.actions, 10);
    assert_false(pb_is_terminal(r.game, r.state));
    assert_memory_equal(r.state, want, p.game->ops->state_size);
    pb_replay_free(&r);
    free(want);
    free(text);
    played_free(&p);
}

static void test_record_save_and_read(void **state)
{
    (void)state;
    played p;
    play_recorded(&p, 5, 2024);
    char path[] = "/tmp/pb-test-formats-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[ERR_SIZE] = "";
    if (pb_record_save(p.record, path, err, sizeof err) != 0)
        fail_msg("save: %s", err);
    char *text = pb_read_file(path, 1 << 20, err, sizeof err);
    unlink(path);
    if (!text)
        fail_msg("read: %s", err);
    pb_replay r;
    if (pb_replay_text(text, &r, err, sizeof err) != 0)
        fail_msg("saved record does not replay: %s", err);
    assert_memory_equal(r.state, p.state, p.game->ops->state_size);
    pb_replay_free(&r);
    free(text);
    played_free(&p);
}

/* The message names action `number` (and not a longer number) and `text`. */
static void assert_names_action(const char *msg, int number, const char *text)
{
    char want[32];
    snprintf(want, sizeof want, "action %d", number);
    const char *at = strstr(msg, want);
    if (!at || (at[strlen(want)] >= '0' && at[strlen(want)] <= '9'))
        fail_msg("message '%s' does not name action %d", msg, number);
    assert_message(msg, text);
}

/* Replace action `index` (0-based) of a record and expect the replay to
 * be refused naming it. */
static void expect_altered_refused(const char *record, size_t index, const char *altered)
{
    json_t *rec = parse_json(record);
    json_array_set_new(json_object_get(rec, "actions"), index, json_string(altered));
    char *text = dump_json(rec);
    json_decref(rec);
    pb_replay r;
    char err[ERR_SIZE] = "";
    if (pb_replay_text(text, &r, err, sizeof err) == 0)
        fail_msg("record with action %zu altered to '%s' replayed", index + 1, altered);
    assert_names_action(err, (int)index + 1, altered);
    free(text);
}

/* The first action (0-based) whose text starts with `prefix`, or -1. */
static int find_action(const pb_record *r, const char *prefix, int from)
{
    json_t *j = pb_record_to_json(r);
    json_t *actions = json_object_get(j, "actions");
    int found = -1;
    for (size_t i = (size_t)from; i < json_array_size(actions) && found < 0; i++)
        if (strncmp(json_string_value(json_array_get(actions, i)), prefix, strlen(prefix)) == 0)
            found = (int)i;
    json_decref(j);
    return found;
}

static const char *action_at(const pb_record *r, int index, char *buf, size_t n)
{
    json_t *j = pb_record_to_json(r);
    snprintf(buf, n, "%s", json_string_value(json_array_get(json_object_get(j, "actions"), (size_t)index)));
    json_decref(j);
    return buf;
}

/* "eat 9p2 7p1" -> "eat A": the Anchovy slice is never edible. */
static void swap_token(const char *action, char *out, size_t n)
{
    const char *space = strchr(action, ' ');
    assert_non_null(space);
    snprintf(out, n, "%.*s A", (int)(space - action), action);
}

/* "cut 3 9 11 special 1" -> "cut 9 11 special 1": one cut too few. */
static void drop_first_cut(const char *action, char *out, size_t n)
{
    const char *second = strchr(action + 4, ' ');
    assert_non_null(second);
    snprintf(out, n, "cut%s", second);
}

static void test_record_altered_action_rejected(void **state)
{
    (void)state;
    for (int players = NYS_MIN_PLAYERS; players <= NYS_MAX_PLAYERS; players++) {
        played p;
        play_recorded(&p, players, 500u + (uint64_t)players);
        char *text = record_text(p.record);
        char orig[128], altered[160];
        int k = find_action(p.record, "eat ", 0);
        assert_true(k >= 0);
        swap_token(action_at(p.record, k, orig, sizeof orig), altered, sizeof altered);
        expect_altered_refused(text, (size_t)k, altered);
        k = find_action(p.record, "cut ", 5);
        assert_true(k >= 0);
        drop_first_cut(action_at(p.record, k, orig, sizeof orig), altered, sizeof altered);
        expect_altered_refused(text, (size_t)k, altered);
        k = find_action(p.record, "take ", 0);
        assert_true(k >= 0);
        expect_altered_refused(text, (size_t)k, "take 12");
        expect_altered_refused(text, (size_t)k, "attach 3");
        free(text);
        played_free(&p);
    }
}

/* A valid record as a JSON object, for the tests to spoil. */
static json_t *valid_record(void)
{
    played p;
    play_recorded(&p, 3, 77);
    json_t *j = pb_record_to_json(p.record);
    played_free(&p);
    return j;
}

/* Replay a record (consumed) and expect an error mentioning both words. */
static void expect_record_refused(json_t *rec, const char *want, const char *want2)
{
    char *text = dump_json(rec);
    json_decref(rec);
    pb_replay r;
    char err[ERR_SIZE] = "";
    if (pb_replay_text(text, &r, err, sizeof err) == 0)
        fail_msg("record accepted, expected an error about '%s'", want);
    assert_message(err, want);
    assert_message(err, want2);
    free(text);
}

static void test_record_unknown_fields(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_object_set_new(rec, "comment", json_string("hi"));
    expect_record_refused(rec, "comment", NULL);
    rec = valid_record();
    json_object_set_new(rec, "format", json_string("chess-pgn"));
    expect_record_refused(rec, "format", NULL);
    rec = valid_record();
    json_object_set_new(rec, "version", json_integer(PB_RECORD_VERSION + 1));
    expect_record_refused(rec, "version", NULL);
    /* a version 1 record replays; one that no longer does says it is from
     * before the rules were corrected, a version 2 record does not */
    rec = valid_record();
    json_object_set_new(rec, "version", json_integer(1));
    char *text = dump_json(rec);
    pb_replay r;
    char err[ERR_SIZE] = "";
    assert_int_equal(pb_replay_text(text, &r, err, sizeof err), 0);
    pb_replay_free(&r);
    free(text);
    json_array_set_new(json_object_get(rec, "actions"), 2, json_string("take 12"));
    expect_record_refused(rec, "action 3", "a version 1 record: written before some rules were corrected");
    rec = valid_record();
    json_array_set_new(json_object_get(rec, "actions"), 2, json_string("take 12"));
    text = dump_json(rec);
    assert_int_not_equal(pb_replay_text(text, &r, err, sizeof err), 0);
    assert_null(strstr(err, "version 1"));
    free(text);
    json_decref(rec);
    rec = valid_record();
    json_object_set_new(rec, "game", json_string("chess"));
    expect_record_refused(rec, "chess", NULL);
    rec = valid_record();
    json_object_del(rec, "game");
    expect_record_refused(rec, "game", NULL);
}

static void test_record_bad_seed(void **state)
{
    (void)state;
    json_t *bad[] = {json_integer(-1), json_string("77"), json_real(77.0),
                     json_integer((json_int_t)PB_SEED_MAX + 1), json_null()};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *rec = valid_record();
        json_object_set_new(rec, "seed", bad[i]);
        expect_record_refused(rec, "seed", NULL);
    }
    json_t *rec = valid_record();
    json_object_del(rec, "seed");
    expect_record_refused(rec, "seed", NULL);
}

/* A different seed deals different stacks: the record no longer replays. */
static void test_record_other_seed_does_not_replay(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_object_set_new(rec, "seed", json_integer(78));
    expect_record_refused(rec, "action", "does not replay");
}

static void test_record_bad_config(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_object_set_new(json_object_get(rec, "config"), "players", json_integer(9));
    expect_record_refused(rec, "2 to 6", NULL);
    rec = valid_record();
    json_object_set_new(json_object_get(rec, "config"), "crust", json_string("thin"));
    expect_record_refused(rec, "crust", NULL);
    rec = valid_record();
    json_object_set_new(rec, "config", json_string("players=3"));
    expect_record_refused(rec, "config", NULL);
    rec = valid_record();
    json_object_set_new(json_object_get(rec, "config"), "first_slicer", json_integer(3));
    expect_record_refused(rec, "first_slicer", NULL);
    rec = valid_record();
    json_object_set_new(json_object_get(rec, "config"), "deck", json_pack("{s:[]}", "types"));
    expect_record_refused(rec, "types", NULL);
}

static void test_record_actions_after_the_end(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_t *actions = json_object_get(rec, "actions");
    int n = (int)json_array_size(actions);
    json_array_append_new(actions, json_string("pass"));
    char *text = dump_json(rec);
    json_decref(rec);
    pb_replay r;
    char err[ERR_SIZE] = "";
    assert_int_equal(pb_replay_text(text, &r, err, sizeof err), -1);
    assert_names_action(err, n + 1, "pass");
    assert_message(err, "over");
    free(text);
}

static void test_record_non_string_actions(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_array_set_new(json_object_get(rec, "actions"), 2, json_integer(7));
    char *text = dump_json(rec);
    json_decref(rec);
    pb_replay r;
    char err[ERR_SIZE] = "";
    assert_int_equal(pb_replay_text(text, &r, err, sizeof err), -1);
    assert_names_action(err, 3, "string");
    free(text);
    rec = valid_record();
    json_object_set_new(rec, "actions", json_string("take 1"));
    expect_record_refused(rec, "actions", NULL);
    rec = valid_record();
    json_object_del(rec, "actions");
    expect_record_refused(rec, "actions", NULL);
}

static void test_record_bad_names_and_json(void **state)
{
    (void)state;
    json_t *rec = valid_record();
    json_object_set_new(rec, "names", json_pack("[s, s]", "Ann", "Bo"));
    expect_record_refused(rec, "names", NULL);
    rec = valid_record();
    json_object_set_new(rec, "names", json_pack("[s, i, s]", "Ann", 2, "Cy"));
    expect_record_refused(rec, "names", NULL);
    pb_replay r;
    char err[ERR_SIZE] = "";
    assert_int_equal(pb_replay_text("{\"format\": ", &r, err, sizeof err), -1);
    assert_message(err, "malformed JSON");
    assert_int_equal(pb_replay_text("[\"cut 1 2 special 1\"]", &r, err, sizeof err), -1);
    assert_message(err, "object");
}

/* ---- Notation round trip ---- */

#define DIVISION_SAMPLES 50

/* Which game the round trip is in, for failure messages. */
static char game_context[64] = "a dealt game";

static void assert_action_round_trip(const nys_state *st, pb_action a)
{
    char text[128], err[ERR_SIZE] = "";
    pb_action back = 0;
    if (nys_action_to_text(st, a, text, sizeof text) != 0)
        fail_msg("legal action %#x has no notation (phase %s)", (unsigned)a, nys_phase_name(st->phase));
    if (nys_action_from_text(st, text, &back, err, sizeof err) != 0)
        fail_msg("'%s' does not read back: %s", text, err);
    if (back != a)
        fail_msg("'%s' (%s, phase %s) reads back as %#x, not %#x", text, game_context,
                 nys_phase_name(st->phase), (unsigned)back, (unsigned)a);
}

static void check_state_notation(const nys_state *st, pb_rng *rng)
{
    static pb_action acts[PB_MAX_ACTIONS];
    int n = nys_legal_actions(st, acts);
    assert_true(n > 0 && n <= PB_MAX_ACTIONS);
    if (st->phase != NYS_PH_DIVIDE) {
        for (int i = 0; i < n; i++)
            assert_action_round_trip(st, acts[i]);
        return;
    }
    for (int i = 0; i < DIVISION_SAMPLES; i++) {
        assert_action_round_trip(st, acts[pb_rng_below(rng, (uint32_t)n)]);
        assert_action_round_trip(st, nys_random_action(st, rng));
    }
}

static void round_trip_game(int players, uint64_t seed)
{
    nys_rules rules;
    ts_rules(&rules, players);
    nys_state st;
    nys_init(&st, &rules, seed);
    snprintf(game_context, sizeof game_context, "%d players, seed %llu", players,
             (unsigned long long)seed);
    pb_rng rng;
    pb_rng_seed(&rng, seed + 1);
    char err[ERR_SIZE] = "";
    while (nys_current_seat(&st) != PB_TERMINAL) {
        check_state_notation(&st, &rng);
        pb_action a = nys_random_action(&st, &rng);
        if (nys_apply(&st, a, err, sizeof err) != 0)
            fail_msg("random action refused: %s", err);
    }
}

static void test_notation_round_trip(void **state)
{
    (void)state;
    for (int players = NYS_MIN_PLAYERS; players <= NYS_MAX_PLAYERS; players++)
        for (uint64_t seed = 1; seed <= 300; seed++)
            round_trip_game(players, seed * 1000003u + (uint64_t)players);
}

/* Collect every slice waiting to be placed. */
static void collect_all(nys_state *st)
{
    while (st->phase == NYS_PH_PLACE || st->phase == NYS_PH_EAT_OR_KEEP)
        ts_do(st, st->phase == NYS_PH_PLACE ? "collect all" : "keep");
}

/* Two players: seat 0 wins Sneak-a-Slice in round 1; in round 2 the
 * Special's portion is the single slice at position 1 and one other
 * portion remains, so moving that slice "back" or "on" is one move. */
static void deal_sneak_two_runs(nys_state *st)
{
    nys_rules r;
    ts_rules(&r, 2);
    snprintf(game_context, sizeof game_context, "the dealt Sneak-a-Slice game");
    const char *specials[] = {"sneak-a-slice", "stuffed-crust"};
    ts_deal(st, &r, NULL, 0, NULL, specials, 2);
    ts_do(st, "cut 1 11 special 2");
    ts_do(st, "take 1");
    collect_all(st);
    assert_int_equal(st->round, 1);
    ts_do(st, "cut 1 11 special 1");
    assert_int_equal(st->phase, NYS_PH_SNEAK);
}

static void test_notation_sneak_texts_distinct(void **state)
{
    (void)state;
    nys_state st;
    deal_sneak_two_runs(&st);
    pb_action acts[PB_MAX_ACTIONS];
    int n = nys_legal_actions(&st, acts);
    char text[64][64];
    assert_true(n <= 64);
    for (int i = 0; i < n; i++) {
        assert_int_equal(nys_action_to_text(&st, acts[i], text[i], sizeof text[i]), 0);
        for (int j = 0; j < i; j++)
            if (strcmp(text[i], text[j]) == 0)
                fail_msg("legal actions %#x and %#x are both written '%s'", (unsigned)acts[j],
                         (unsigned)acts[i], text[i]);
    }
    for (int i = 0; i < n; i++)
        assert_action_round_trip(&st, acts[i]);
}

/* NYS-T2: a finished table cannot show a slice eaten that no one may eat. */
static void test_score_refuses_impossible_eaten_slices(void **state)
{
    (void)state;
    nys_deck deck;
    nys_deck_default(&deck);
    char err[PB_ERR_LEN];
    static const char *const refused[] = {
        "{\"players\":[{\"eaten\":[\"A\"]},{}]}",
        "{\"players\":[{\"eaten\":[\"7\"]},{}]}",
        "{\"players\":[{\"eaten\":[\"c6/7\"]},{}]}",
        "{\"players\":[{},{},{\"eaten\":[\"3\"]}]}",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        json_t *r = nys_score_file(refused[i], &deck, err, sizeof err);
        assert_null(r);
        assert_non_null(strstr(err, "cannot be eaten"));
    }
    json_t *ok = nys_score_file("{\"players\":[{\"eaten\":[\"c6/7\",\"S\"],\"specials\":[\"combo-craving\"]},"
                                "{},{\"eaten\":[\"3\"],\"specials\":[\"you-love-veggies\"]}]}",
                                &deck, err, sizeof err);
    assert_non_null(ok);
    json_decref(ok);
}

/* ---- Text built in a buffer (pb_appendf, behind the logs' lines) ---- */

static void test_appendf_cuts_to_fit(void **state)
{
    (void)state;
    char buf[12];
    size_t len = 0;
    pb_appendf(buf, sizeof buf, &len, "take %c", 'B');
    assert_string_equal(buf, "take B");
    assert_int_equal(len, 6);
    /* too long: cut, still a string, and nothing more fits after it */
    pb_appendf(buf, sizeof buf, &len, " and %d more", 12345);
    assert_string_equal(buf, "take B and ");
    assert_int_equal(len, sizeof buf - 1);
    pb_appendf(buf, sizeof buf, &len, "x");
    assert_string_equal(buf, "take B and ");
    assert_int_equal(len, sizeof buf - 1);
}

/* Characters of UTF-8 text (pb_utf8_len, pb_utf8_is_control): what the
 * engine's error lines and the terminal echo, or show as '?'. */
static void test_utf8_characters(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int len;
        bool control;
    } cases[] = {
        {"a", 1, false},           {"\t", 1, true},          {"\x7f", 1, true},
        {"\xc3\xab", 2, false},    {"\xc2\x9b", 2, true},     /* C1: CSI */
        {"\xe2\x98\x85", 3, false}, {"\xe2\x80\xa8", 3, true}, /* U+2028 */
        {"\xe2\x80\xa9", 3, true},  {"\xf0\x9f\x8d\x95", 4, false},
        /* not characters: overlong forms, a surrogate, past U+10FFFF, stray
         * and cut bytes, the end */
        {"\xc0\xaf", 0, false},    {"\xe0\x80\xaf", 0, false}, {"\xf0\x80\x80\xaf", 0, false},
        {"\xed\xa0\x80", 0, false}, {"\xf4\x90\x80\x80", 0, false}, {"\x80", 0, false},
        {"\xe2\x98", 0, false},    {"\xf5\x80\x80\x80", 0, false}, {"", 0, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const unsigned char *s = (const unsigned char *)cases[i].s;
        int len = pb_utf8_len(s);
        if (len != cases[i].len)
            fail_msg("case %zu: %d bytes, expected %d", i, len, cases[i].len);
        if (len && pb_utf8_is_control(s, len) != cases[i].control)
            fail_msg("case %zu: control is %d", i, !cases[i].control);
    }
    /* One '?' for each control character and each stray byte, whatever its
     * length: a line separator, a C1 control, a cut character, a bell. */
    char line[] = "a\xe2\x80\xa8" "b\xc2\x9b\xc3\xab\xe2\x98\x07\xf0\x9f\x8d\x95";
    pb_text_make_printable(line);
    assert_string_equal(line, "a?b?\xc3\xab???\xf0\x9f\x8d\x95");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens_of_default_deck_round_trip),
        cmocka_unit_test(test_appendf_cuts_to_fit),
        cmocka_unit_test(test_utf8_characters),
        cmocka_unit_test(test_tokens_of_the_spec_parse),
        cmocka_unit_test(test_malformed_tokens_refused),
        cmocka_unit_test(test_attached_supreme_needs_attached_slot),
        cmocka_unit_test(test_default_deck_loads),
        cmocka_unit_test(test_default_deck_matches_spec_table),
        cmocka_unit_test(test_deck_to_json_round_trip),
        cmocka_unit_test(test_deck_wrong_slice_count),
        cmocka_unit_test(test_deck_missing_type),
        cmocka_unit_test(test_deck_duplicated_type),
        cmocka_unit_test(test_deck_pepperoni_on_veggie),
        cmocka_unit_test(test_deck_counts_out_of_range),
        cmocka_unit_test(test_deck_unknown_fields),
        cmocka_unit_test(test_deck_bad_names_and_game),
        cmocka_unit_test(test_deck_combo_count),
        cmocka_unit_test(test_deck_combo_duplicated),
        cmocka_unit_test(test_deck_combo_order_and_range),
        cmocka_unit_test(test_deck_combo_8_10_required),
        cmocka_unit_test(test_deck_malformed_json_and_non_object),
        cmocka_unit_test(test_deck_duplicate_key_refused),
        cmocka_unit_test(test_score_spec_example),
        cmocka_unit_test(test_score_unknown_token),
        cmocka_unit_test(test_score_unknown_slug),
        cmocka_unit_test(test_score_copies_limited_by_deck),
        cmocka_unit_test(test_score_copies_counted_across_players),
        cmocka_unit_test(test_score_attached_type_not_in_play),
        cmocka_unit_test(test_score_malformed_json),
        cmocka_unit_test(test_score_special_held_twice),
        cmocka_unit_test(test_score_bad_shape),
        cmocka_unit_test(test_score_messages_are_one_line),
        cmocka_unit_test(test_deck_messages_are_one_line),
        cmocka_unit_test(test_score_with_custom_deck),
        cmocka_unit_test(test_score_names_default_to_seats),
        cmocka_unit_test(test_record_replays_identically),
        cmocka_unit_test(test_record_with_names_and_big_seed),
        cmocka_unit_test(test_record_custom_deck_replays),
        cmocka_unit_test(test_record_add_refuses_illegal_action),
        cmocka_unit_test(test_record_truncated_replays_partway),
        cmocka_unit_test(test_record_save_and_read),
        cmocka_unit_test(test_record_altered_action_rejected),
        cmocka_unit_test(test_record_unknown_fields),
        cmocka_unit_test(test_record_bad_seed),
        cmocka_unit_test(test_record_other_seed_does_not_replay),
        cmocka_unit_test(test_record_bad_config),
        cmocka_unit_test(test_record_actions_after_the_end),
        cmocka_unit_test(test_record_non_string_actions),
        cmocka_unit_test(test_record_bad_names_and_json),
        cmocka_unit_test(test_notation_round_trip),
        cmocka_unit_test(test_notation_sneak_texts_distinct),
        cmocka_unit_test(test_score_refuses_impossible_eaten_slices),
        /* Last: under ASan/UBSan the out-of-bounds write it finds ends the run. */
        cmocka_unit_test(test_score_every_slice_then_one_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
