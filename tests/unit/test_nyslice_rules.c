/* test_nyslice_rules.c -- the New York Slice rules contract, rule by rule
 * (shared/specs/new-york-slice.md).
 *
 * Every test names the rule id it checks and says, like a worked example in
 * a rulebook, the position, the move and the expected result. Positions are
 * dealt with ts_deal and reached by playing explicit actions; ring positions
 * are 1..11 and "cut K" cuts between position K and the next slice. */
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Specials with no power and no effect on the scenarios that list them
 * after the ones they are about (rounds 2..6 of a 4-player game). */
#define QUIET5 "stuffed-crust", "day-old-pizza", "buffet", "tiebreaker", "supersize-combos"

/* Round 1 of most 4-player scenarios. No slice carries a pepperoni, so every
 * slice is collected without a decision. Divided `cut 2 5 8 11 special 3`
 * the portions are 3-5 {3, 10, 11} + the Special, 6-8 {3a1, 8a1, 11a1},
 * 9-11 {c6/7, c4/11, A} and 1-2 {7, 8}. */
#define R1_4P "7", "8", "3", "10", "11", "3a1", "8a1", "11a1", "c6/7", "c4/11", "A"

/* ------------------------------------------------------------------ play */

/* Apply a NULL-terminated list of actions written in the notation. */
static void play(nys_state *st, ...)
{
    va_list ap;
    va_start(ap, st);
    for (const char *a = va_arg(ap, const char *); a; a = va_arg(ap, const char *))
        ts_do(st, a);
    va_end(ap);
}

/* Is a player placing slices (the new ones, or one collected slice offered)? */
static bool placing(const nys_state *st)
{
    return st->phase == NYS_PH_PLACE || st->phase == NYS_PH_EAT_OR_KEEP;
}

/* Eat nothing of the current placing decision: `collect all` the slices just
 * gained, or `keep` the collected slice offered (NYS-T3, E1). */
static void collect_step(nys_state *st)
{
    ts_do(st, st->phase == NYS_PH_PLACE ? "collect all" : "keep");
}

/* Collect everything waiting to be placed, for whoever is placing, until the
 * game waits on something else. */
static void collect_all(nys_state *st)
{
    while (placing(st))
        collect_step(st);
}

/* Collect for the others until `seat` is the one placing slices. */
static void collect_until_owner(nys_state *st, int seat)
{
    while (placing(st) && st->owner != seat)
        collect_step(st);
    assert_int_equal(st->owner, seat);
}

/* Eat every new slice that may be eaten, written in the notation
 * (`eat 9p1 9p1 7p2`). */
static void eat_every_new(nys_state *st)
{
    char text[256];
    pb_action all = NYS_ACTION(NYS_A_PLACE, st->new_edible);
    assert_int_equal(st->phase, NYS_PH_PLACE);
    assert_int_equal(nys_action_to_text(st, all, text, sizeof text), 0);
    ts_do(st, text);
}

/* `eat <tok>` is refused: that slice is being placed but may not be eaten
 * (NYS-T2), and the reason names the slice and why, in the words of the
 * rules: "an 8 with no pepperoni", "a Combo (c5/9) ... Combo Craving". */
static void refused_inedible(nys_state *st, const char *tok)
{
    char text[64], why[160];
    nys_slice s;
    assert_int_equal(nys_slice_parse(tok, &s, NULL), 0);
    snprintf(text, sizeof text, "eat %s", tok);
    if (s.kind == NYS_ANCHOVY)
        snprintf(why, sizeof why, "the Anchovy slice (A) can never be eaten");
    else if (s.kind == NYS_COMBO)
        snprintf(why, sizeof why, "a Combo (%s) can only be eaten with Combo Craving", tok);
    else if (s.type == NYS_VEGGIE)
        snprintf(why, sizeof why, "a Veggie (%s) with no pepperoni can only be eaten with You Love Veggies", tok);
    else
        snprintf(why, sizeof why, "%s %s with no pepperoni cannot be eaten",
                 tok[0] == '8' || !strncmp(tok, "11", 2) ? "an" : "a", tok);
    ts_refused(st, text, why);
}

/* `eat <tok>` is refused: no such slice is being placed. */
static void refused_not_placing(nys_state *st, const char *tok)
{
    char text[64], why[160];
    snprintf(text, sizeof text, "eat %s", tok);
    snprintf(why, sizeof why, "\"%s\" is not among the slices you are placing", tok);
    ts_refused(st, text, why);
}

/* The text of the first legal action. */
static void first_legal(const nys_state *st, char *buf, size_t n)
{
    static pb_action acts[PB_MAX_ACTIONS];
    assert_true(nys_legal_actions(st, acts) > 0);
    assert_int_equal(nys_action_to_text(st, acts[0], buf, n), 0);
}

/* One plain decision: collect everything, pass on every power and on
 * Seconds, otherwise the first legal action (division, portion, attachment). */
static void plain_step(nys_state *st)
{
    char text[128];
    switch (st->phase) {
    case NYS_PH_PLACE:
    case NYS_PH_EAT_OR_KEEP:
        collect_step(st);
        return;
    case NYS_PH_DIBS:
    case NYS_PH_CUT_IN_LINE:
    case NYS_PH_SNEAK:
    case NYS_PH_SECONDS:
        ts_do(st, "pass");
        return;
    default:
        first_legal(st, text, sizeof text);
        ts_do(st, text);
    }
}

static void finish_round(nys_state *st)
{
    int round = st->round;
    while (st->phase != NYS_PH_OVER && st->round == round)
        plain_step(st);
}

static void finish_game(nys_state *st)
{
    while (st->phase != NYS_PH_OVER)
        plain_step(st);
}

/* Round 1 of a deal opening with R1_4P: seat 0 divides `cut 2 5 8 11
 * special 3`; `owner` ends up with portion 3-5 and round 1's Special, the
 * other choosers take 6, 9 and 1 in turn (seat 0 gets what is left). */
static void round1_special_to(nys_state *st, int owner)
{
    static const char *const others[] = {"take 6", "take 9", "take 1"};
    int k = 0;
    ts_do(st, "cut 2 5 8 11 special 3");
    for (int seat = 1; seat < 4; seat++)
        ts_do(st, seat == owner ? "take 3" : others[k++]);
    assert_int_equal(st->round, 1);
}

/* Round 2 of a 4-player scenario, seat 1 slicing: the division given, then
 * seats 2, 3 and 0 take the portions at 4, 6 and 9, collecting everything,
 * and seat 1 is left the portion at 1 and is placing it. */
static void round2_to_slicer(nys_state *st, const char *division)
{
    static const char *const takes[] = {"take 4", "take 6", "take 9"};
    ts_do(st, division);
    for (int i = 0; i < LEN(takes); i++) {
        ts_do(st, takes[i]);
        if (i < 2)
            collect_all(st);
    }
    collect_until_owner(st, 1);
}

static void deal4(nys_state *st, nys_rules *r, const char *const *stacks, int n,
                  const char *const *specials, int nspecials)
{
    ts_rules(r, 4);
    ts_deal(st, r, stacks, n, NULL, specials, nspecials);
}

/* ------------------------------------------------------------------ views */

static json_t *player_in(const json_t *view, int seat)
{
    return json_array_get(json_object_get(view, "players"), (size_t)seat);
}

/* A field of `seat`'s entry in the view `viewer` gets, as compact JSON. */
static void assert_seen(const nys_state *st, const nys_rules *r, int viewer, int seat,
                        const char *field, const char *expected)
{
    json_t *v = nys_view(st, r, viewer);
    ts_assert_json(json_object_get(player_in(v, seat), field), expected);
    json_decref(v);
}

/* A top-level field of the view `viewer` gets, as compact JSON ("null" if absent). */
static void assert_view(const nys_state *st, const nys_rules *r, int viewer, const char *field,
                        const char *expected)
{
    json_t *v = nys_view(st, r, viewer);
    json_t *f = json_object_get(v, field);
    if (f)
        ts_assert_json(f, expected);
    else
        assert_string_equal("null", expected);
    json_decref(v);
}

/* A seat's Special as the table sees it: -1 not held, 0 unused, 1 used. */
static int held(const nys_state *st, const nys_rules *r, int seat, const char *slug)
{
    json_t *v = nys_view(st, r, seat);
    json_t *sps = json_object_get(player_in(v, seat), "specials"), *sp;
    int res = -1;
    size_t i;
    json_array_foreach(sps, i, sp)
        if (strcmp(json_string_value(json_object_get(sp, "slug")), slug) == 0)
            res = json_is_true(json_object_get(sp, "used"));
    json_decref(v);
    return res;
}

/* How many legal actions there are right now. */
static int legal_count(const nys_state *st)
{
    static pb_action acts[PB_MAX_ACTIONS];
    return nys_legal_actions(st, acts);
}

/* The legal actions are exactly `want`, each once, and each reads back from
 * its text. */
static void assert_legal_texts(const nys_state *st, const char *const *want, int nwant)
{
    static pb_action acts[PB_MAX_ACTIONS];
    bool seen[16] = {false};
    int n = nys_legal_actions(st, acts);
    assert_true(nwant <= LEN(seen));
    assert_int_equal(n, nwant);
    for (int i = 0; i < n; i++) {
        char text[128], err[PB_ERR_LEN];
        pb_action back;
        assert_int_equal(nys_action_to_text(st, acts[i], text, sizeof text), 0);
        if (nys_action_from_text(st, text, &back, err, sizeof err) != 0)
            fail_msg("'%s' does not read back: %s", text, err);
        assert_int_equal(back, acts[i]);
        int k = 0;
        while (k < nwant && strcmp(want[k], text) != 0)
            k++;
        if (k == nwant || seen[k])
            fail_msg("unexpected or repeated legal action '%s'", text);
        seen[k] = true;
    }
}

/* ---------------------------------------------------------------- scoring */

static json_t *score_table(const char *text)
{
    nys_deck deck;
    char err[PB_ERR_LEN] = "";
    nys_deck_default(&deck);
    json_t *rep = nys_score_file(text, &deck, err, sizeof err);
    if (!rep)
        fail_msg("scoring refused: %s", err);
    return rep;
}

typedef struct line {
    const char *types_won;
    int majorities, specials, pepperoni, total, eaten;
} line;

/* Check one player's Guest Check line in a score report. */
static void assert_line(const json_t *rep, int p, line want)
{
    json_t *pl = json_array_get(json_object_get(rep, "players"), (size_t)p);
    assert_non_null(pl);
    ts_assert_json(json_object_get(pl, "types_won"), want.types_won);
    assert_int_equal(json_integer_value(json_object_get(pl, "majorities")), want.majorities);
    assert_int_equal(json_integer_value(json_object_get(pl, "specials")), want.specials);
    assert_int_equal(json_integer_value(json_object_get(pl, "pepperoni")), want.pepperoni);
    assert_int_equal(json_integer_value(json_object_get(pl, "total")), want.total);
    assert_int_equal(json_integer_value(json_object_get(pl, "eaten")), want.eaten);
}

/* Check one seat's line of an engine Guest Check. */
static void assert_check(const nys_guest_check *gc, int p, int majorities, int specials,
                         int pepperoni, int total, int eaten)
{
    const nys_check *c = &gc->line[p];
    assert_int_equal(c->majorities, majorities);
    assert_int_equal(c->specials, specials);
    assert_int_equal(c->pepperoni, pepperoni);
    assert_int_equal(c->total, total);
    assert_int_equal(c->eaten, eaten);
}

/* ------------------------------------------------- the 2-player fixture */

/* The 2-player game of the scoring scenarios (types 3, 8 and 10 are out of
 * a 2-player game). Every round the Slicer puts the Special alone, the other
 * seat takes it and the Slicer gets the whole ring: seat 0 (Slicer in rounds
 * 1 and 3) gets rings 1 and 3 and the Specials of rounds 2 and 4; seat 1
 * gets rings 2 and 4 and the Specials of rounds 1 and 3.
 *
 * With everything collected the Guest Check reads: seat 0 wins 4 (2 slices
 * to 1 + half a Combo), 6 (4 to 2), 7 and 9: majorities 26, anchovies -4
 * (9p1a1, 9p2a1, 7p1a1, 6p1a1), total 22. Seat 1 wins 5 and 11: majorities
 * 16, anchovies -8 (11a1, 11p1a1, 11p2a1, 5p2a1, 4p1a1 and the Anchovy
 * slice's 3), total 8.
 *
 * Each ring is placed with one decision: which of its edible slices to eat
 * (`eat 9p1 9p2`, or `collect all`); 0-pepperoni slices are always
 * collected. Edible: ring 1 all 11 (9p1 9p1 9p1a1 9p2 9p2 9p2a1 9p3 9p3 9p3
 * 4p1 4p1); ring 2 all but 11a1 and 11 (11p1 11p1 11p1a1 11p1 11p2 11p2
 * 11p2a1 11p3 11p3); ring 3 all but 7 (7p1 7p1 7p1a1 7p2 7p2 7p3 6p1 6p1
 * 6p1 6p1a1); ring 4 6p2 6p2 5p1 5p1 5p1 5p2a1 5p2 4p1a1, and the Combos
 * under Combo Craving (never A). */
#define FIX2 ts_fix2_rings
#define FIX2_SPARES ts_fix2_spares

/* Neutral Specials for the fixture: Sneak-a-Slice never finds a move (the
 * ring is one portion), Supersize Combos with seat 0 who has no Combo,
 * Tiebreaker with no tie, Seconds declined at the end. */
static void deal_fix2(nys_state *st, nys_rules *r, const char *s1, const char *s2,
                      const char *s3, const char *s4)
{
    const char *sp[] = {s1 ? s1 : "sneak-a-slice", s2 ? s2 : "supersize-combos",
                        s3 ? s3 : "tiebreaker", s4 ? s4 : "seconds"};
    ts_rules(r, 2);
    ts_deal(st, r, FIX2, TS_FIX2_SLICES, FIX2_SPARES, sp, 4);
}

/* One fixture round: Special alone, the chooser takes it, the Slicer gets
 * the ring and places it with `move` (`eat 9p1 9p2`; NULL: collect all). */
static void round_fix2(nys_state *st, const char *move)
{
    play(st, "special alone", "take special", NULL);
    if (move)
        ts_do(st, move);
    else
        collect_all(st);
}

/* Play the four fixture rounds (see round_fix2()), decline Seconds and score. */
static void play_fix2(nys_state *st, const char *m1, const char *m2, const char *m3,
                      const char *m4, nys_guest_check *gc)
{
    round_fix2(st, m1);
    round_fix2(st, m2);
    round_fix2(st, m3);
    round_fix2(st, m4);
    if (st->phase == NYS_PH_SECONDS)
        ts_do(st, "pass");
    assert_int_equal(nys_current_seat(st), PB_TERMINAL);
    nys_score_state(st, gc);
}

/* ============================================================ components */

typedef struct census {
    int type[NYS_TYPE_SLOTS];
    int combos, anchovy, supreme, total;
    bool combo_8_10;
} census;

static census count_slices(const nys_slice *s, int n)
{
    census c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < n; i++, c.total++) {
        switch (s[i].kind) {
        case NYS_NUMBERED:
            c.type[s[i].type]++;
            break;
        case NYS_COMBO:
            c.combos++;
            c.combo_8_10 |= s[i].type == 8 && s[i].type2 == 10;
            break;
        case NYS_ANCHOVY:
            c.anchovy++;
            break;
        default:
            c.supreme++;
        }
    }
    return c;
}

/* NYS-C1: the default deck has 63 numbered slices (type t has exactly t of
 * them), 4 Combos, 1 Anchovy slice and 1 Supreme: 69 tiles, all in play in
 * a 3-player game. */
static void test_NYS_C1_deck_has_69_slices(void **state)
{
    (void)state;
    nys_deck d;
    nys_deck_default(&d);
    census c = count_slices(d.slice, NYS_DECK_SLICES);
    int numbered = 0;
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
        assert_int_equal(c.type[t], t);
        numbered += c.type[t];
    }
    assert_int_equal(numbered, 63);
    assert_int_equal(c.combos, 4);
    assert_int_equal(c.anchovy, 1);
    assert_int_equal(c.supreme, 1);
    assert_int_equal(c.total, 69);
    nys_rules r;
    nys_state st;
    ts_rules(&r, 3);
    nys_init(&st, &r, 1);
    assert_int_equal(st.nslices, 69);
}

/* NYS-C2: the rulebook's names (3 Veggie, 8 Mushroom, 10 Meat Lovers,
 * 11 Cheese, and Margarita, BBQ Chicken, Hawaiian slices) are in the
 * default deck. An owner corrects the deck file -- Sausage's first slice
 * has 1 pepperoni, type 9 is "Pepperoni Deluxe" -- and a game uses it; a
 * file missing a tile is refused with the reason. */
static void test_NYS_C2_type_names_and_deck_file(void **state)
{
    (void)state;
    nys_deck d, fixed;
    char err[PB_ERR_LEN] = "";
    nys_deck_default(&d);
    assert_string_equal(d.type_name[3], "Veggie");
    assert_string_equal(d.type_name[8], "Mushroom");
    assert_string_equal(d.type_name[10], "Meat Lovers");
    assert_string_equal(d.type_name[11], "Cheese");
    assert_string_equal(d.type_name[6], "Margarita");
    assert_string_equal(d.type_name[5], "BBQ Chicken");
    assert_string_equal(d.type_name[4], "Hawaiian");

    json_t *j = nys_deck_to_json(&d);
    json_t *types = json_object_get(j, "types");
    json_array_set_new(json_object_get(json_array_get(types, 7 - 3), "pepperoni"), 0, json_integer(1));
    json_object_set_new(json_array_get(types, 9 - 3), "name", json_string("Pepperoni Deluxe"));
    assert_int_equal(nys_deck_from_json(j, &fixed, err, sizeof err), 0);
    assert_string_equal(fixed.type_name[9], "Pepperoni Deluxe");

    nys_rules r;
    nys_state st;
    nys_rules_setup(&r, &fixed, 4, 0);
    r.custom_deck = true;
    nys_init(&st, &r, 5);
    assert_int_equal(nys_find_slice(&st, "7", 0), -1);
    assert_true(nys_find_slice(&st, "7p1", 2) >= 0);
    assert_int_equal(nys_find_slice(&st, "7p1", 3), -1);

    json_array_remove(json_object_get(json_array_get(types, 9 - 3), "pepperoni"), 0);
    assert_int_equal(nys_deck_from_json(j, &fixed, err, sizeof err), -1);
    assert_non_null(strstr(err, "type 9 has 8 'pepperoni' entries, expected 9"));
    json_decref(j);
}

/* NYS-C3: numbered slices carry 0..3 pepperonis and 0..2 anchovies, Veggies
 * no pepperoni; a Combo shows two different types and no pepperoni; one
 * Combo is 8/10. A deck file giving a Veggie a pepperoni is refused. */
static void test_NYS_C3_slice_contents(void **state)
{
    (void)state;
    nys_deck d;
    char err[PB_ERR_LEN] = "";
    nys_deck_default(&d);
    bool has_8_10 = false;
    for (int i = 0; i < NYS_DECK_SLICES; i++) {
        const nys_slice *s = &d.slice[i];
        if (s->kind == NYS_NUMBERED) {
            assert_true(s->pep <= 3 && s->anch <= 2);
            if (s->type == NYS_VEGGIE)
                assert_int_equal(s->pep, 0);
        } else if (s->kind == NYS_COMBO) {
            assert_true(s->type != s->type2);
            assert_int_equal(s->pep, 0);
            has_8_10 |= s->type == 8 && s->type2 == 10;
        }
    }
    assert_true(has_8_10);
    json_t *j = nys_deck_to_json(&d);
    json_array_set_new(json_object_get(json_array_get(json_object_get(j, "types"), 0), "pepperoni"), 1,
                       json_integer(1));
    assert_int_equal(nys_deck_from_json(j, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "Veggie (type 3) slices carry no pepperoni"));
    json_decref(j);
}

/* NYS-C4: the Anchovy slice (3 anchovies) is never edible and is no pizza
 * type; the Supreme is always edible and worth 2 pepperonis eaten.
 * Table: Ann collected only the Anchovy slice, Bo ate only the Supreme.
 * Guest Check: Ann wins no type, pepperoni line -3; Bo +2. */
static void test_NYS_C4_anchovy_and_supreme(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    ts_rules(&r, 4);
    nys_init(&st, &r, 3);
    assert_int_equal(st.slice[st.anchovy].anch, 3);
    for (int seat = 0; seat < 4; seat++) {
        assert_false(nys_edible(&st, st.anchovy, seat));
        assert_true(nys_edible(&st, st.supreme, seat));
    }
    json_t *rep = score_table("{\"players\": [{\"name\": \"Ann\", \"collected\": [\"A\"]},"
                              " {\"name\": \"Bo\", \"eaten\": [\"S\"]}]}");
    assert_line(rep, 0, (line){"[]", 0, 0, -3, -3, 0});
    assert_line(rep, 1, (line){"[]", 0, 0, 2, 2, 1});
    json_decref(rep);
}

/* NYS-C5: 14 Specials with their slugs; the six blue (*) ones scored at the
 * end are Buffet, Combo Craving, Day-Old Pizza, Everyone-Else Diet, Stuffed
 * Crust and You Love Veggies. */
static void test_NYS_C5_fourteen_specials(void **state)
{
    (void)state;
    static const char *const slugs[] = {
        "buffet", "combo-craving", "cut-in-line", "day-old-pizza", "dibs", "everyone-else-diet",
        "mystery-slice", "seconds", "sneak-a-slice", "stuffed-crust", "supersize-combos",
        "tiebreaker", "you-like-anchovies", "you-love-veggies"};
    static const bool scored[] = {true, true, false, true, false, true, false,
                                  false, false, true, false, false, false, true};
    assert_int_equal(NYS_SPECIAL_COUNT, 14);
    for (int i = 0; i < LEN(slugs); i++) {
        int sp = nys_special_from_slug(slugs[i]);
        assert_true(sp >= 0);
        assert_string_equal(nys_special_slug(sp), slugs[i]);
        assert_int_equal(nys_special_scored(sp), scored[i]);
    }
    assert_int_equal(nys_special_from_slug("free-soda"), -1);
}

/* NYS-C5: a Special a player holds is shown with its name and printed text
 * (the browser's tooltips read them), and whether it is scored at the end. */
/* A held Special is named in views by slug; its name and printed text are
 * the game's glossary, which a client is given once (docs/protocol.md). */
static void test_NYS_C5_held_special_named_in_view_text_in_glossary(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    ts_rules(&r, 3);
    nys_init(&st, &r, 7);
    int sp = nys_special_from_slug("buffet");
    st.special_owner[sp] = 1;
    json_t *v = nys_view(&st, &r, 0);
    json_t *held = json_array_get(json_object_get(player_in(v, 1), "specials"), 0);
    assert_non_null(held);
    assert_string_equal(json_string_value(json_object_get(held, "slug")), "buffet");
    assert_true(json_is_true(json_object_get(held, "scored")));
    assert_null(json_object_get(held, "text"));
    json_decref(v);

    char err[PB_ERR_LEN];
    pb_game *g = pb_game_new("nyslice", NULL, err, sizeof err);
    assert_non_null(g);
    json_t *glossary = g->ops->glossary(g);
    assert_int_equal(json_object_size(glossary), NYS_SPECIAL_COUNT);
    json_t *buffet = json_object_get(glossary, "buffet");
    assert_string_equal(json_string_value(json_object_get(buffet, "name")), "Buffet");
    assert_string_equal(json_string_value(json_object_get(buffet, "text")), nys_special_text(sp));
    assert_non_null(strstr(json_string_value(json_object_get(buffet, "text")), "+1 point for each pizza type"));
    assert_true(json_is_true(json_object_get(buffet, "scored")));
    json_decref(glossary);
    pb_game_free(g);
}

/* ================================================================= setup */

static census census_of_game(int players)
{
    nys_rules r;
    nys_state st;
    ts_rules(&r, players);
    nys_init(&st, &r, 11);
    return count_slices(st.slice, st.nslices);
}

/* NYS-S1: two players remove every 10, 8 and 3 and the 8/10 Combo: 47
 * slices, the other types complete, 3 Combos, the Anchovy and the Supreme. */
static void test_NYS_S1_two_players_remove_3_8_10_and_combo(void **state)
{
    (void)state;
    census c = census_of_game(2);
    assert_int_equal(c.total, 47);
    assert_int_equal(c.type[3] + c.type[8] + c.type[10], 0);
    for (int t = 4; t <= 11; t++)
        if (t != 8 && t != 10)
            assert_int_equal(c.type[t], t);
    assert_int_equal(c.combos, 3);
    assert_false(c.combo_8_10);
    assert_int_equal(c.anchovy + c.supreme, 2);
}

/* NYS-S1: five players remove every 10 and the 8/10 Combo: 58 slices; the
 * 3s and 8s stay. */
static void test_NYS_S1_five_players_remove_10_and_combo(void **state)
{
    (void)state;
    census c = census_of_game(5);
    assert_int_equal(c.total, 58);
    assert_int_equal(c.type[10], 0);
    assert_int_equal(c.type[3], 3);
    assert_int_equal(c.type[8], 8);
    assert_int_equal(c.combos, 3);
    assert_false(c.combo_8_10);
}

/* NYS-S1: three, four and six players use all 69 slices. */
static void test_NYS_S1_three_four_six_players_use_all(void **state)
{
    (void)state;
    static const int counts[] = {3, 4, 6};
    for (int i = 0; i < LEN(counts); i++) {
        census c = census_of_game(counts[i]);
        assert_int_equal(c.total, 69);
        assert_true(c.combo_8_10);
        assert_int_equal(c.type[10], 10);
    }
}

/* NYS-S2: the slices are dealt in stacks of 11 with exactly 3 left over;
 * the spares stay face down: a seat's view only says 3 are left, and only
 * the current round's ring is shown. */
static void test_NYS_S2_stacks_of_11_and_3_unseen_spares(void **state)
{
    (void)state;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        nys_rules r;
        nys_state st;
        ts_rules(&r, n);
        nys_init(&st, &r, (uint64_t)n);
        assert_int_equal(st.nslices, NYS_RING * st.rounds + NYS_SPARES);
        assert_int_equal(st.nspares, NYS_SPARES);
        for (int i = 0; i < NYS_SPARES; i++)
            assert_int_equal(st.loc[st.spare[i]], NYS_LOC_SPARE);
        for (int seat = 0; seat < n; seat++) {
            json_t *v = nys_view(&st, &r, seat);
            assert_int_equal(json_integer_value(json_object_get(v, "spares_left")), 3);
            assert_null(json_object_get(v, "mystery"));
            assert_int_equal(json_array_size(json_object_get(v, "ring")), NYS_RING);
            assert_int_equal(json_integer_value(json_object_get(v, "stacks_left")), st.rounds - 1);
            json_decref(v);
        }
    }
}

/* NYS-S2: two 4-player deals with the same round-1 ring, one keeping three
 * 9p3 as spares, the other the Anchovy slice, the Supreme and the 8/10
 * Combo (so the later stacks differ too): every seat sees exactly the same
 * table in both. */
static void test_NYS_S2_spares_and_later_stacks_unseen(void **state)
{
    (void)state;
    nys_rules r;
    nys_state x, y;
    const char *ring[] = {"9p1", "9p2", "4p1", "5p1", "6p1", "7p1", "11p1", "3", "8", "10", "c6/7"};
    const char *spares_x[] = {"9p3", "9p3", "9p3"};
    const char *spares_y[] = {"A", "S", "c8/10"};
    ts_rules(&r, 4);
    ts_deal(&x, &r, ring, LEN(ring), spares_x, NULL, 0);
    ts_deal(&y, &r, ring, LEN(ring), spares_y, NULL, 0);
    assert_memory_not_equal(x.stack, y.stack, sizeof x.stack);
    for (int seat = 0; seat < 4; seat++) {
        json_t *vx = nys_view(&x, &r, seat), *vy = nys_view(&y, &r, seat);
        assert_true(json_equal(vx, vy));
        json_decref(vx);
        json_decref(vy);
    }
}

/* NYS-S3: rounds = stacks: 2p 4, 3p 6, 4p 6, 5p 5, 6p 6; one Special on each
 * stack, the rest in the box (8 of 14 with 6 stacks). */
static void test_NYS_S3_rounds_and_specials_per_stack(void **state)
{
    (void)state;
    static const int rounds[NYS_MAX_PLAYERS + 1] = {0, 0, 4, 6, 6, 5, 6};
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        nys_rules r;
        nys_state st;
        char err[PB_ERR_LEN];
        ts_rules(&r, n);
        nys_init(&st, &r, 21);
        assert_int_equal(st.rounds, rounds[n]);
        assert_int_equal(nys_rounds_for(n), rounds[n]);
        assert_int_equal(st.nbox, NYS_SPECIAL_COUNT - rounds[n]);
        assert_int_equal(nys_check_invariants(&st, err, sizeof err), 0);
    }
}

static bool valid_2p(int sp)
{
    return sp != NYS_CUT_IN_LINE && sp != NYS_DIBS && sp != NYS_YOU_LOVE_VEGGIES;
}

static bool valid_last(int sp)
{
    return sp != NYS_CUT_IN_LINE && sp != NYS_SNEAK_A_SLICE;
}

/* NYS-S4: a 2-player game dealt Dibs!, You Love Veggies, Cut in Line and
 * (last round) Sneak-a-Slice: each goes back to the box when revealed and a
 * valid Special from the box is revealed instead; the table saw all four go
 * back: each round's view names the Special sent back and why, and the
 * move that starts a round brings that news for the log. Sneak-a-Slice in
 * a 2-player game's first round stays; so does Cut in Line in round 1 of a
 * 3-player game. */
static void test_NYS_S4_two_player_replacements(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *sp[] = {"dibs", "you-love-veggies", "cut-in-line", "sneak-a-slice"};
    static const char *const why[] = {"Dibs!\",\"why\":\"not played in a 2-player game",
                                      "You Love Veggies\",\"why\":\"not played in a 2-player game",
                                      "Cut in Line\",\"why\":\"not played in a 2-player game",
                                      "Sneak-a-Slice\",\"why\":\"not played in the last round"};
    static const char *const back[] = {"Dibs!", "You Love Veggies", "Cut in Line", "Sneak-a-Slice"};
    ts_rules(&r, 2);
    ts_deal(&st, &r, NULL, 0, NULL, sp, LEN(sp));
    for (int round = 0; round < 4; round++) {
        assert_int_equal(st.round, round);
        assert_true(valid_2p(st.today));
        assert_int_equal(st.stack_special[round], st.today);
        if (round == 3)
            assert_true(valid_last(st.today));
        json_t *v = nys_view(&st, &r, 1);
        char *replaced = json_dumps(json_object_get(json_object_get(v, "today"), "replaced"), JSON_COMPACT);
        assert_non_null(strstr(replaced, why[round]));
        free(replaced);
        json_decref(v);
        nys_state before = st;
        finish_round(&st);
        if (round < 3) {
            /* the last move of the round told the next round's news */
            char news[256], want[160];
            nys_state last = before;
            while (last.round == round) {
                before = last;
                plain_step(&last);
            }
            assert_true(nys_round_news(&before, &last, news, sizeof news) > 0);
            snprintf(want, sizeof want, "Round %d%s: today's Special is %s", round + 2,
                     round + 2 == last.rounds ? " (the last)" : "", nys_special_name(last.today));
            assert_ptr_equal(strstr(news, want), news);
            snprintf(want, sizeof want, " %s was revealed first and went back to the box", back[round + 1]);
            assert_non_null(strstr(news, want));
            assert_int_equal(nys_round_news(&last, &last, news, sizeof news), 0);
        }
    }
    finish_game(&st);
    assert_view(&st, &r, 0, "box_seen", "[\"cut-in-line\",\"dibs\",\"sneak-a-slice\",\"you-love-veggies\"]");

    const char *kept[] = {"sneak-a-slice"};
    ts_deal(&st, &r, NULL, 0, NULL, kept, 1);
    assert_int_equal(st.today, NYS_SNEAK_A_SLICE);
    ts_rules(&r, 3);
    const char *cil[] = {"cut-in-line"};
    ts_deal(&st, &r, NULL, 0, NULL, cil, 1);
    assert_int_equal(st.today, NYS_CUT_IN_LINE);
    assert_view(&st, &r, 0, "box_seen", "[]");
}

/* NYS-S4: a 5-player game dealt Cut in Line on its last (5th) stack: when
 * round 5 starts it goes back and the revealed Special is neither Cut in
 * Line nor Sneak-a-Slice. */
static void test_NYS_S4_cut_in_line_in_last_round_replaced(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *sp[] = {"buffet", "day-old-pizza", "stuffed-crust", "tiebreaker", "cut-in-line"};
    ts_rules(&r, 5);
    ts_deal(&st, &r, NULL, 0, NULL, sp, LEN(sp));
    for (int round = 0; round < 4; round++) {
        assert_int_equal(st.today, nys_special_from_slug(sp[round]));
        finish_round(&st);
    }
    assert_int_equal(st.round, 4);
    assert_true(valid_last(st.today));
    assert_view(&st, &r, 0, "box_seen", "[\"cut-in-line\"]");
}

/* NYS-S4 over many shuffled games: no 2-player game ever reveals Cut in
 * Line, Dibs! or You Love Veggies, and no game reveals Cut in Line or
 * Sneak-a-Slice in its last round. */
static void test_NYS_S4_never_revealed_where_invalid(void **state)
{
    (void)state;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            nys_rules r;
            nys_state st;
            ts_rules(&r, n);
            nys_init(&st, &r, seed);
            ts_play_out(&st, seed + 100);
            for (int round = 0; round < st.rounds; round++)
                assert_true(n != 2 || valid_2p(st.stack_special[round]));
            assert_true(valid_last(st.stack_special[st.rounds - 1]));
        }
}

/* NYS-S5: the first Slicer is seat 0 by default, or the table's choice
 * (seat 2 here: seat 3 chooses first, then 0 and 1; seat 2 gets the last
 * portion). Each round the next seat slices: 2, 3, then 0 again. */
static void test_NYS_S5_first_slicer_table_choice_and_rotation(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    ts_rules(&r, 4);
    ts_deal(&st, &r, ring, LEN(ring), NULL, NULL, 0);
    assert_int_equal(st.slicer, 0);
    assert_int_equal(nys_current_seat(&st), 0);

    r.first_slicer = 2;
    ts_deal(&st, &r, ring, LEN(ring), NULL, NULL, 0);
    assert_int_equal(nys_current_seat(&st), 2);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(nys_current_seat(&st), 3);
    ts_do(&st, "take 3");
    assert_int_equal(nys_current_seat(&st), 0);
    ts_do(&st, "take 6");
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "take 9");
    assert_int_equal(ts_collected(&st, 2, "7"), 1);
    assert_int_equal(st.slicer, 3);
    finish_round(&st);
    assert_int_equal(st.slicer, 0);
}

/* NYS-S5: with no table choice the first Slicer is drawn from the seed: a
 * seat of the table, the same for the same seed, not always the same. */
static void test_NYS_S5_first_slicer_drawn_from_seed(void **state)
{
    (void)state;
    nys_rules r;
    ts_rules(&r, 4);
    r.first_slicer = -1;
    unsigned seen = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        nys_state a, b;
        nys_init(&a, &r, seed);
        nys_init(&b, &r, seed);
        assert_true(a.slicer < 4);
        assert_int_equal(a.slicer, b.slicer);
        seen |= 1u << a.slicer;
    }
    assert_true(__builtin_popcount(seen) >= 2);
}

/* NYS-S6: the same seed and the same decisions give the same game, bit for
 * bit (shuffles, replacements and Mystery draws included); another seed
 * deals differently. */
static void test_NYS_S6_same_seed_same_game(void **state)
{
    (void)state;
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        nys_rules r;
        nys_state a, b, c;
        ts_rules(&r, n);
        nys_init(&a, &r, 77);
        nys_init(&b, &r, 77);
        nys_init(&c, &r, 78);
        assert_memory_equal(&a, &b, sizeof a);
        assert_memory_not_equal(a.stack, c.stack, sizeof a.stack);
        ts_play_out(&a, 5);
        ts_play_out(&b, 5);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

/* ================================================================ rounds */

/* NYS-R1: round 1 reveals its Special (Buffet) and the 11 slices in stack
 * order at positions 1..11; dividing does not reorder them. */
static void test_NYS_R1_reveal_special_and_ring_in_order(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {"9p1", "c5/9", "7", "A", "11p3", "S", "4p2", "3a1", "8p1", "10p2", "6p1"};
    const char *sp[] = {"buffet"};
    deal4(&st, &r, ring, LEN(ring), sp, 1);
    for (int step = 0; step < 2; step++) {
        json_t *v = nys_view(&st, &r, 1);
        assert_string_equal(json_string_value(json_object_get(json_object_get(v, "today"), "slug")), "buffet");
        json_t *pos = json_object_get(v, "ring");
        assert_int_equal(json_array_size(pos), 11);
        for (int p = 0; p < 11; p++) {
            json_t *e = json_array_get(pos, (size_t)p);
            assert_int_equal(json_integer_value(json_object_get(e, "pos")), p + 1);
            assert_string_equal(json_string_value(json_object_get(e, "slice")), ring[p]);
        }
        json_decref(v);
        if (step == 0)
            ts_do(&st, "cut 2 5 8 11 special 3");
    }
}

/* NYS-R2: seat 2 owns Dibs! from round 1. Round 2 (Slicer seat 1) opens
 * with seat 2's Dibs! before any division; `dibs 3` takes the 9p3 out and
 * seat 2 places it at once: `eat 9p3`. Position 3 is now empty: a cut after
 * it is refused, and a cut after 4 separates 4 from 5. `cut 1 4 8 11
 * special 1` makes {2, 4} one portion -- 2 and 4 became neighbours -- and
 * seat 2 takes it and collects both, 9p2 and 4p1 (`collect all`). The ring
 * of 10 has 120 + 4 * 210 = 960 legal divisions. Dibs! stays with seat 2,
 * used. */
static void test_NYS_R2_dibs_takes_one_slice_before_division(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "9p1", "9p2", "9p3", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2"};
    const char *sp[] = {"dibs", QUIET5};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    round1_special_to(&st, 2);
    assert_int_equal(st.phase, NYS_PH_DIBS);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_int_equal(legal_count(&st), 12);
    ts_refused(&st, "cut 2 5 8 11 special 3", "not now");
    ts_do(&st, "dibs 3");
    assert_int_equal(st.phase, NYS_PH_PLACE);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_view(&st, &r, 0, "placing",
                "{\"seat\":2,\"why\":\"dibs\",\"slices\":[\"9p3\"],\"edible\":[true],\"mystery\":null,\"offered\":null}");
    ts_do(&st, "eat 9p3");
    assert_int_equal(ts_eaten(&st, 2, "9p3"), 1);
    assert_int_equal(st.phase, NYS_PH_DIVIDE);
    assert_int_equal(nys_current_seat(&st), 1);
    ts_refused(&st, "cut 3 5 8 11 special 1", "position 3 is empty");
    assert_int_equal(legal_count(&st), 960);
    ts_do(&st, "cut 1 4 8 11 special 1");
    play(&st, "take 2", "collect all", NULL);
    assert_int_equal(ts_collected(&st, 2, "9p2"), 1);
    assert_int_equal(ts_collected(&st, 2, "4p1"), 1);
    assert_int_equal(held(&st, &r, 2, "dibs"), 1);
}

/* NYS-R2 with NYS-T4: seat 2 (collection 3, 10, 11 from round 1) calls
 * Dibs! on the Supreme at position 6 of round 2 and collects it (`collect
 * all`): it must be attached at once, to 3, 10 or 11; seat 2 picks 10.
 * Only then does the Slicer (seat 1) divide the remaining 10 slices. */
static void test_NYS_R2_dibs_on_the_supreme_attaches_before_division(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "9p1", "9p2", "9p3", "4p1", "5p1", "S", "7p1", "9p1a1", "11p1", "4p2", "5p2"};
    const char *sp[] = {"dibs", QUIET5};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    round1_special_to(&st, 2);
    play(&st, "dibs 6", "collect all", NULL);
    assert_int_equal(st.phase, NYS_PH_ATTACH);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_int_equal(legal_count(&st), 3);
    ts_refused(&st, "cut 2 5 8 11 special 3", "not now");
    ts_do(&st, "attach 10");
    assert_seen(&st, &r, 0, 2, "collected", "[\"3\",\"10\",\"11\",\"S@10\"]");
    assert_int_equal(st.phase, NYS_PH_DIVIDE);
    assert_int_equal(nys_current_seat(&st), 1);
}

static uint64_t binom(int n, int k)
{
    uint64_t b = 1;
    for (int i = 1; i <= k; i++)
        b = b * (uint64_t)(n - k + i) / (uint64_t)i;
    return b;
}

/* Count a full ring's legal divisions, checking each reads back from its text. */
static void count_divisions(const nys_state *st, int *alone, int *attached)
{
    static pb_action acts[PB_MAX_ACTIONS];
    int n = nys_legal_actions(st, acts);
    *alone = *attached = 0;
    for (int i = 0; i < n; i++) {
        char text[128], err[PB_ERR_LEN];
        pb_action back;
        assert_int_equal(NYS_ACTION_KIND(acts[i]), NYS_A_DIVIDE);
        assert_int_equal(nys_action_to_text(st, acts[i], text, sizeof text), 0);
        if (nys_action_from_text(st, text, &back, err, sizeof err) != 0)
            fail_msg("'%s' does not read back: %s", text, err);
        assert_int_equal(back, acts[i]);
        if (NYS_ACTION_PAYLOAD(acts[i]) >> 11 == NYS_SPECIAL_ALONE)
            (*alone)++;
        else
            (*attached)++;
    }
}

/* NYS-R3: on a full ring of 11 the Slicer of N players has C(11, N-1)
 * divisions with the Special alone (1 for two players: no cut at all) and
 * N * C(11, N) with the Special on one of N portions:
 * 2p 1+110=111, 3p 55+495=550, 4p 165+1320=1485, 5p 330+2310=2640,
 * 6p 462+2772=3234. */
static void test_NYS_R3_division_counts_full_ring(void **state)
{
    (void)state;
    static const int totals[NYS_MAX_PLAYERS + 1] = {0, 0, 111, 550, 1485, 2640, 3234};
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        nys_rules r;
        nys_state st;
        int alone, attached;
        ts_rules(&r, n);
        nys_init(&st, &r, 9);
        assert_int_equal(st.phase, NYS_PH_DIVIDE);
        count_divisions(&st, &alone, &attached);
        assert_int_equal(alone, n - 1 == 1 ? 1 : (int)binom(11, n - 1));
        assert_int_equal(attached, n * (int)binom(11, n));
        assert_int_equal(alone + attached, totals[n]);
    }
}

/* NYS-R3: divisions that are not exactly N portions are refused with the
 * reason and leave the table as it was: with 4 players 3 cuts and the
 * Special on slices (3 portions), 2 or 4 cuts with the Special alone; a cut
 * named twice; a position off the ring; no Special; two players cutting
 * once with the Special alone (the ring is still one portion). */
static void test_NYS_R3_illegal_divisions_refused(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    deal4(&st, &r, ring, LEN(ring), NULL, 0);
    ts_refused(&st, "cut 2 5 9 special 3", "4 players need 4 cuts when the Special goes with slices (4 portions), not 3");
    ts_refused(&st, "cut 2 5 special alone", "4 players with the Special alone need 3 cuts (3 portions of slices), not 2");
    ts_refused(&st, "cut 2 5 8 11 special alone", "4 players with the Special alone need 3 cuts (3 portions of slices), not 4");
    ts_refused(&st, "cut 2 2 5 8 special 3", "cut 2 is named twice");
    ts_refused(&st, "cut 2 5 8 12 special 3", "'12' is not a position of the pizza: they are numbered 1 to 11");
    ts_refused(&st, "cut 2 5 8 11", "a division reads");
    ts_refused(&st, "take 3", "not now: the game expects the Slicer's division of the pizza");
    ts_refused(&st, "pass", "there is nothing to pass on now: the game expects the Slicer's division of the pizza, "
                            "e.g. \"cut 3 7 11 special alone\"");

    ts_rules(&r, 2);
    ts_deal(&st, &r, NULL, 0, NULL, NULL, 0);
    ts_refused(&st, "cut 3 special alone",
               "2 players with the Special alone: the whole pizza is the other portion, so no cuts ('special alone'), not 1");
    ts_refused(&st, "cut 3 special 3", "2 players need 2 cuts when the Special goes with slices (2 portions), not 1");
    assert_true(ts_is_legal(&st, "special alone"));
    assert_true(ts_is_legal(&st, "cut 3 7 special 4"));
}

/* NYS-R3: what a division makes. Four players, `cut 2 5 8 11 special 3`:
 * portions 3-5 (with the Special), 6-8, 9-11 and 1-2. Three players,
 * `cut 4 8 special alone`: 5-8, 9-4 across the ring's end (named 1, its
 * lowest position, but any of its positions names it) and the Special
 * alone. */
static void test_NYS_R3_portions_of_a_division(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    deal4(&st, &r, ring, LEN(ring), NULL, 0);
    ts_do(&st, "cut 2 5 8 11 special 3");
    json_t *v = nys_view(&st, &r, 0);
    json_t *portions = json_object_get(v, "portions");
    static const char *const want[] = {"[3,4,5]", "[6,7,8]", "[9,10,11]", "[1,2]"};
    static const char *const letter[] = {"\"B\"", "\"C\"", "\"D\"", "\"A\""};
    assert_int_equal(json_array_size(portions), 4);
    for (int i = 0; i < 4; i++) {
        json_t *po = json_array_get(portions, (size_t)i);
        ts_assert_json(json_object_get(po, "positions"), want[i]);
        ts_assert_json(json_object_get(po, "letter"), letter[i]);
        assert_int_equal(json_is_true(json_object_get(po, "special")), i == 0);
    }
    json_decref(v);

    ts_rules(&r, 3);
    ts_deal(&st, &r, ring, LEN(ring), NULL, NULL, 0);
    ts_do(&st, "cut 4 8 special alone");
    v = nys_view(&st, &r, 0);
    ts_assert_json(json_object_get(v, "portions"),
                "[{\"name\":5,\"positions\":[5,6,7,8],\"slices\":[\"11\",\"3a1\",\"8a1\",\"11a1\"],"
                "\"special\":false,\"letter\":\"B\",\"taken_by\":null},"
                "{\"name\":1,\"positions\":[1,2,3,4,9,10,11],\"slices\":[\"7\",\"8\",\"3\",\"10\","
                "\"c6/7\",\"c4/11\",\"A\"],\"special\":false,\"letter\":\"A\",\"taken_by\":null},"
                "{\"name\":\"special\",\"positions\":[],\"slices\":[],\"special\":true,\"letter\":\"C\","
                "\"taken_by\":null}]");
    json_decref(v);
    ts_do(&st, "take 10");
    assert_int_equal(ts_collected(&st, 1, "c4/11"), 1);
    assert_int_equal(ts_collected(&st, 1, "7"), 1);
}

/* NYS-R4: Slicer seat 0, `cut 2 5 8 11 special 3`: seats 1, 2, 3 choose in
 * that order and the Slicer gets the last portion without choosing: seat 1
 * takes 9-11, seat 2 takes 1-2, seat 3 takes 6-8, seat 0 gets 3-5 and the
 * Special. Then seat 1 slices round 2. */
static void test_NYS_R4_choosing_order_clockwise_slicer_last(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"stuffed-crust"};
    deal4(&st, &r, ring, LEN(ring), sp, 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_view(&st, &r, 0, "order", "[1,2,3,0]");
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "take 9");
    assert_int_equal(nys_current_seat(&st), 2);
    ts_do(&st, "take 1");
    assert_int_equal(nys_current_seat(&st), 3);
    ts_do(&st, "take 6");
    assert_int_equal(ts_collected(&st, 1, "A"), 1);
    assert_int_equal(ts_collected(&st, 2, "7"), 1);
    assert_int_equal(ts_collected(&st, 3, "8a1"), 1);
    assert_int_equal(ts_collected(&st, 0, "10"), 1);
    assert_int_equal(held(&st, &r, 0, "stuffed-crust"), 0);
    assert_int_equal(st.round, 1);
    assert_int_equal(st.slicer, 1);
    assert_int_equal(nys_current_seat(&st), 1);
}

/* NYS-R4: seat 3 gained Cut in Line in round 1. Round 2 (Slicer seat 1,
 * normal order 2, 3, 0): right after division seat 3 may cut in; nobody
 * may take before that. Seat 3 plays it and chooses first, then the order
 * goes on as normal without them: 2, 0, and the Slicer last. */
static void test_NYS_R4_cut_in_line_chooses_first(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"cut-in-line", "stuffed-crust", "day-old-pizza", "buffet", "tiebreaker",
                        "supersize-combos"};
    deal4(&st, &r, ring, LEN(ring), sp, LEN(sp));
    round1_special_to(&st, 3);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_CUT_IN_LINE);
    assert_int_equal(nys_current_seat(&st), 3);
    assert_true(ts_is_legal(&st, "pass"));
    ts_refused(&st, "take B", "not now: the game expects \"cut-in-line\" or \"pass\"");
    ts_do(&st, "cut-in-line");
    assert_view(&st, &r, 0, "order", "[3,2,0,1]");
    assert_int_equal(nys_current_seat(&st), 3);
    ts_do(&st, "take 3");
    collect_all(&st);
    assert_int_equal(nys_current_seat(&st), 2);
    ts_do(&st, "take 6");
    collect_all(&st);
    assert_int_equal(nys_current_seat(&st), 0);
    assert_int_equal(held(&st, &r, 3, "cut-in-line"), 1);
    assert_int_equal(held(&st, &r, 3, "stuffed-crust"), 0);
}

/* NYS-R4: Cut in Line would change nothing for the seat that chooses first
 * anyway, so it is not offered then. Seat 1 gains it in round 1; rounds 3
 * and 4 (Slicers 2 and 3) offer it and seat 1 passes; in round 5 the Slicer
 * is seat 0, seat 1 chooses first: no offer, seat 1 just takes, and the
 * tile stays unused. */
static void test_NYS_R4_cut_in_line_not_offered_to_first_chooser(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"cut-in-line", QUIET5};
    deal4(&st, &r, ring, LEN(ring), sp, LEN(sp));
    round1_special_to(&st, 1);
    for (int round = 1; round < 4; round++) {
        ts_do(&st, "cut 2 5 8 11 special 3");
        assert_int_equal(st.phase, st.slicer == 1 ? NYS_PH_TAKE : NYS_PH_CUT_IN_LINE);
        finish_round(&st);
    }
    assert_int_equal(st.slicer, 0);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    assert_int_equal(nys_current_seat(&st), 1);
    assert_false(ts_is_legal(&st, "cut-in-line"));
    assert_int_equal(held(&st, &r, 1, "cut-in-line"), 0);
}

/* The NYS-R5 scenarios: seat 3 gains Sneak-a-Slice in round 1; round 2
 * (Slicer seat 1, order 2, 3, 0) has all slices distinct:
 * 1 4p1, 2 4p2, 3 5p1, 4 5p2, 5 6p1, 6 6p2, 7 7p1, 8 7p2, 9 7p3, 10 9p3,
 * 11 11p3; its Special is Stuffed Crust. */
static void deal_sneak_round2(nys_state *st, nys_rules *r)
{
    const char *deal[] = {R1_4P, "4p1", "4p2", "5p1", "5p2", "6p1", "6p2", "7p1", "7p2", "7p3", "9p3", "11p3"};
    const char *sp[] = {"sneak-a-slice", QUIET5};
    deal4(st, r, deal, LEN(deal), sp, LEN(sp));
    round1_special_to(st, 3);
}

/* NYS-R5: seat 3 owns Sneak-a-Slice from round 1. Round 2, Slicer seat 1,
 * `cut 2 5 8 11 special 3`: 3-5 {5p1 5p2 6p1} + Special, 6-8, 9-11
 * {7p3 9p3 11p3}, 1-2. Seat 2 chooses without a sneak and takes 6-8. Just
 * before seat 3 chooses, the remaining portions in ring order are 9-11,
 * 1-2, 3-5 -- and 3-5 touches 9-11 across the gap left by 6-8. Six end
 * moves are legal; a middle slice or a move into the taken portion is
 * refused, each saying why. The portions are lettered A 1-2, B 3-5, C 6-8,
 * D 9-11. `sneak 5 to D` moves the 6p1 across the gap; seat 3 takes it
 * with 9-11, seat 0 takes 3-5 without it. Never again: in round 3 seat 3
 * just chooses. */
static void test_NYS_R5_sneak_moves_end_slice_across_gap(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal_sneak_round2(&st, &r);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    ts_do(&st, "take C");
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_SNEAK);
    assert_int_equal(nys_current_seat(&st), 3);
    assert_int_equal(legal_count(&st), 7);
    static const char *const moves[] = {"sneak 9 to B", "sneak 11 to A", "sneak 1 to D",
                                        "sneak 2 to B", "sneak 3 to A", "sneak 5 to D"};
    for (int i = 0; i < LEN(moves); i++)
        assert_true(ts_is_legal(&st, moves[i]));
    ts_refused(&st, "sneak 4 to D", "position 4 is not at an end of portion B");
    ts_refused(&st, "sneak 5 to C", "portion C is already taken");
    ts_refused(&st, "sneak 12 to C", "'12' is not a position of the pizza");
    ts_refused(&st, "sneak 5 to E", "there is no portion E: the portions are A to D");
    ts_refused(&st, "take B", "not now: the game expects a Sneak-a-Slice move, or \"pass\"");
    ts_do(&st, "sneak 5 to D");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    ts_refused(&st, "take C", "portion C is already taken");
    ts_do(&st, "take D");
    collect_all(&st);
    ts_do(&st, "take B");
    collect_all(&st);
    assert_int_equal(ts_collected(&st, 3, "6p1"), 1);
    assert_int_equal(ts_collected(&st, 3, "11p3"), 1);
    assert_int_equal(ts_collected(&st, 0, "6p1"), 0);
    assert_int_equal(ts_collected(&st, 0, "5p2"), 1);
    assert_int_equal(st.round, 2);
    assert_int_equal(held(&st, &r, 3, "sneak-a-slice"), 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(nys_current_seat(&st), 3);
    assert_int_equal(st.phase, NYS_PH_TAKE);
}

/* NYS-R5 interpretation: a move may not leave a portion empty, except that
 * a portion holding the Special may give its last slice away and become the
 * Special alone. Round 2, `cut 1 2 5 11 special 1`: {1} + Special, {2},
 * 3-5, 6-11. Seat 2 takes 3-5. Seat 3 may move 1 either way and 6-11's ends
 * (6 touches {2} across the gap), never the lone 2: five legal actions.
 * Lettered A {1} + Special, B {2}, C 3-5, D 6-11. `sneak 1 to B` leaves the
 * Special alone, still portion A; seat 3 takes just the Special, seat 0
 * takes 4p1 and 4p2 together. */
static void test_NYS_R5_sneak_never_empties_a_portion(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal_sneak_round2(&st, &r);
    ts_do(&st, "cut 1 2 5 11 special 1");
    ts_do(&st, "take C");
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_SNEAK);
    assert_int_equal(legal_count(&st), 5);
    assert_true(ts_is_legal(&st, "sneak 1 to D"));
    assert_true(ts_is_legal(&st, "sneak 1 to B"));
    assert_true(ts_is_legal(&st, "sneak 6 to B"));
    assert_true(ts_is_legal(&st, "sneak 11 to A"));
    ts_refused(&st, "sneak 2 to A", "moving position 2 would leave portion B empty");
    ts_refused(&st, "sneak 2 to D", "moving position 2 would leave portion B empty");
    ts_refused(&st, "sneak 8 to B", "position 8 is not at an end of portion D");
    ts_refused(&st, "sneak 6 to D", "position 6 is already in portion D");
    ts_do(&st, "sneak 1 to B");
    json_t *v = nys_view(&st, &r, 3);
    ts_assert_json(json_object_get(json_object_get(v, "today"), "portion"), "\"special\"");
    ts_assert_json(json_object_get(json_object_get(v, "today"), "letter"), "\"A\"");
    json_decref(v);
    ts_do(&st, "take A");
    assert_int_equal(held(&st, &r, 3, "stuffed-crust"), 0);
    assert_int_equal(ts_collected(&st, 3, "4p1"), 0);
    ts_do(&st, "take B");
    collect_all(&st);
    assert_int_equal(ts_collected(&st, 0, "4p1"), 1);
    assert_int_equal(ts_collected(&st, 0, "4p2"), 1);
}

/* NYS-R5, a lone slice between just two portions: 3 players; seat 0 gains
 * Sneak-a-Slice in round 1 (as the Slicer, with the last portion). Round 2,
 * Slicer seat 1, `cut 1 2 5 special 2`: {2} + Stuffed Crust, 3-5 and 6-1
 * (6..11 and 1). Seat 2 takes 3-5; seat 0 sees two portions, {2} and 6-1,
 * touching on both sides of 2. Moving 2 "back" or "onward" ends in the same
 * portion, so only the move onward is listed: `sneak 2 to A` (6-1 is A, it
 * holds position 1; {2} is B), `sneak 6 to B`, `sneak 1 to B` and pass. The
 * back twin is refused. After `sneak 2 to 6` (as records before the letters
 * wrote it: any position names the portion) position 2 belongs to 6-1 and
 * the Special is alone. */
static void test_NYS_R5_lone_slice_between_two_portions_moves_onward_only(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"sneak-a-slice", "stuffed-crust"};
    ts_rules(&r, 3);
    ts_deal(&st, &r, ring, LEN(ring), NULL, sp, LEN(sp));
    play(&st, "cut 2 5 8 special 3", "take 6", "take 9", NULL);
    collect_all(&st);
    assert_int_equal(held(&st, &r, 0, "sneak-a-slice"), 0);
    play(&st, "cut 1 2 5 special 2", "take 3", NULL);
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_SNEAK);
    assert_int_equal(nys_current_seat(&st), 0);
    static const char *const want[] = {"pass", "sneak 2 to A", "sneak 6 to B", "sneak 1 to B"};
    assert_legal_texts(&st, want, LEN(want));
    int six_to_one = nys_portion_at(&st, 5);
    assert_int_equal(nys_sneak_target(&st, 1, 1), six_to_one);
    assert_int_equal(nys_sneak_target(&st, 1, 0), -1);
    assert_false(nys_is_legal(&st, NYS_ACTION(NYS_A_SNEAK, 1 | 0 << 4), NULL, 0));
    ts_do(&st, "sneak 2 to 6");
    assert_int_equal(nys_portion_at(&st, 1), six_to_one);
    assert_int_equal(st.portion_mask[st.special_portion], 0);
}

/* One decision of the NYS-R6 game: every offered power is used at once. */
static void power_step(nys_state *st, int offers[NYS_SPECIAL_COUNT])
{
    static const int power[] = {[NYS_PH_DIBS] = NYS_DIBS, [NYS_PH_CUT_IN_LINE] = NYS_CUT_IN_LINE,
                                [NYS_PH_SNEAK] = NYS_SNEAK_A_SLICE};
    if (st->phase != NYS_PH_DIBS && st->phase != NYS_PH_CUT_IN_LINE && st->phase != NYS_PH_SNEAK) {
        plain_step(st);
        return;
    }
    int sp = power[st->phase];
    assert_int_equal(nys_current_seat(st), st->special_owner[sp]);
    assert_true(st->special_round[sp] < st->round);
    offers[sp]++;
    static pb_action acts[PB_MAX_ACTIONS];
    char text[128];
    assert_true(nys_legal_actions(st, acts) > 1);
    assert_int_equal(nys_action_to_text(st, acts[1], text, sizeof text), 0);
    ts_do(st, text);
}

/* NYS-R6: a 4-player game dealt Dibs!, Cut in Line and Sneak-a-Slice in
 * rounds 1-3, played to the end using each power whenever it is offered:
 * each is offered to its owner only in a round after the one it was gained
 * in, and at most once (Dibs! and Cut in Line exactly once: their owners
 * get a chance in the later rounds); the table shows them used. */
static void test_NYS_R6_one_time_powers_once_never_same_round(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *sp[] = {"dibs", "cut-in-line", "sneak-a-slice", "stuffed-crust", "buffet", "tiebreaker"};
    int offers[NYS_SPECIAL_COUNT] = {0};
    deal4(&st, &r, NULL, 0, sp, LEN(sp));
    while (st.phase != NYS_PH_OVER)
        power_step(&st, offers);
    assert_int_equal(offers[NYS_DIBS], 1);
    assert_int_equal(offers[NYS_CUT_IN_LINE], 1);
    assert_true(offers[NYS_SNEAK_A_SLICE] <= 1);
    assert_int_equal(held(&st, &r, st.special_owner[NYS_DIBS], "dibs"), 1);
    assert_int_equal(held(&st, &r, st.special_owner[NYS_CUT_IN_LINE], "cut-in-line"), 1);
}

/* ============================================================== taking */

/* NYS-T1: seat 1 takes 3-5 {3, 10, 11} with the Mystery Slice: the three
 * slices, the Special, and one spare drawn at once (the spares are three
 * 9p3, so it is a 9p3), placed with the others in one decision, listed
 * last. While it waits, only seat 1 sees what it is; seat 2 sees "?" and
 * not whether it may be eaten. Seat 1 collects all four (`collect all`). */
static void test_NYS_T1_take_portion_special_and_mystery_draw(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *spares[] = {"9p3", "9p3", "9p3"};
    const char *sp[] = {"mystery-slice"};
    ts_rules(&r, 4);
    ts_deal(&st, &r, ring, LEN(ring), spares, sp, 1);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    assert_int_equal(held(&st, &r, 1, "mystery-slice"), 0);
    assert_int_equal(st.phase, NYS_PH_PLACE);
    assert_int_equal(nys_current_seat(&st), 1);
    assert_view(&st, &r, 1, "spares_left", "2");
    assert_view(&st, &r, 1, "mystery", "\"9p3\"");
    assert_view(&st, &r, 2, "mystery", "null");
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"10\",\"11\",\"9p3\"],"
                "\"edible\":[false,false,false,true],\"mystery\":3,\"offered\":null}");
    assert_view(&st, &r, 2, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"10\",\"11\",\"?\"],"
                "\"edible\":[false,false,false,null],\"mystery\":3,\"offered\":null}");
    assert_int_equal(ts_collected(&st, 1, "3") + ts_collected(&st, 1, "10") + ts_collected(&st, 1, "11"), 0);
    ts_do(&st, "collect all");
    assert_int_equal(ts_collected(&st, 1, "3") + ts_collected(&st, 1, "10") + ts_collected(&st, 1, "11"), 3);
    assert_int_equal(ts_collected(&st, 1, "9p3"), 1);
    assert_int_equal(nys_current_seat(&st), 2);
}

/* NYS-T2: only slices with a pepperoni (and the Supreme) may be eaten.
 * Seat 1 takes 3-5 {7, 9p1, A}: `eat 7` and `eat A` are refused; `eat 9p1`
 * eats the 9p1 and collects the 7 and the Anchovy slice. Seat 2 takes 6-8
 * {c5/9, 3, S}: `eat c5/9` and `eat 3` are refused, `eat 9p1` too (no 9p1
 * is being placed); `eat S` eats the Supreme and collects the Combo and the
 * Veggie. If the game ended now: seat 1's pepperoni line 1 - 3 = -2, seat
 * 2's +2. */
static void test_NYS_T2_only_edible_slices_can_be_eaten(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {"8", "10", "7", "9p1", "A", "c5/9", "3", "S", "11", "8a1", "c6/7"};
    deal4(&st, &r, ring, LEN(ring), NULL, 0);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"7\",\"9p1\",\"A\"],"
                "\"edible\":[false,true,false],\"mystery\":null,\"offered\":null}");
    refused_inedible(&st, "7");
    refused_inedible(&st, "A");
    ts_do(&st, "eat 9p1");
    assert_int_equal(ts_eaten(&st, 1, "9p1"), 1);
    assert_int_equal(ts_collected(&st, 1, "7"), 1);
    assert_int_equal(ts_collected(&st, 1, "A"), 1);
    assert_int_equal(nys_current_seat(&st), 2);
    ts_do(&st, "take 6");
    refused_inedible(&st, "c5/9");
    refused_inedible(&st, "3");
    refused_not_placing(&st, "9p1");
    ts_do(&st, "eat S");
    assert_int_equal(ts_collected(&st, 2, "c5/9"), 1);
    assert_int_equal(ts_collected(&st, 2, "3"), 1);
    assert_int_equal(ts_eaten(&st, 2, "S"), 1);
    nys_guest_check gc;
    nys_score_state(&st, &gc);
    assert_int_equal(gc.line[1].pepperoni, -2);
    assert_int_equal(gc.line[2].pepperoni, 2);
}

/* The slice mask of a placing decision written in the notation. */
static int place_mask(const nys_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (nys_action_from_text(st, text, &a, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    assert_int_equal(NYS_ACTION_KIND(a), NYS_A_PLACE);
    return NYS_ACTION_PAYLOAD(a);
}

/* Round 1 of the placing scenarios: `cut 1 5 8 11 special 2` makes 2-5
 * {9p2, 8, 9p2, 7p1} + Stuffed Crust, 6-8, 9-11 and {1}; seat 1 takes 2-5. */
static void take_9p2_8_9p2_7p1(nys_state *st, nys_rules *r)
{
    const char *ring[] = {"7", "9p2", "8", "9p2", "7p1", "3a1", "8a1", "11a1", "c6/7", "c4/11", "A"};
    const char *sp[] = {"stuffed-crust"};
    deal4(st, r, ring, LEN(ring), sp, 1);
    play(st, "cut 1 5 8 11 special 2", "take 2", NULL);
    assert_int_equal(st->phase, NYS_PH_PLACE);
    assert_int_equal(nys_current_seat(st), 1);
}

/* NYS-T2, one decision per portion: seat 1 takes {9p2, 8, 9p2, 7p1}. The
 * 8 cannot be eaten; the two 9p2 are interchangeable, so the choices are
 * how many 9p2 to eat (0, 1 or 2) times whether to eat the 7p1: exactly
 * 3 x 2 = 6 placing actions -- `collect all`, `eat 9p2`, `eat 9p2 9p2`,
 * `eat 7p1`, `eat 9p2 7p1`, `eat 9p2 9p2 7p1` -- each listed once. `eat 9p2`
 * names the first 9p2; eating only the second is no action of its own. */
static void test_NYS_T2_placing_lists_each_choice_once(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    take_9p2_8_9p2_7p1(&st, &r);
    assert_view(&st, &r, 2, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"9p2\",\"8\",\"9p2\",\"7p1\"],"
                "\"edible\":[true,false,true,true],\"mystery\":null,\"offered\":null}");
    static const char *const want[] = {"collect all", "eat 9p2", "eat 9p2 9p2",
                                       "eat 7p1", "eat 9p2 7p1", "eat 9p2 9p2 7p1"};
    assert_legal_texts(&st, want, LEN(want));
    assert_int_equal(place_mask(&st, "eat 9p2"), 1 << 0);
    assert_int_equal(place_mask(&st, "eat 7p1 9p2"), 1 << 0 | 1 << 3);
    assert_false(nys_is_legal(&st, NYS_ACTION(NYS_A_PLACE, 1 << 2), NULL, 0));
    refused_inedible(&st, "8");
    refused_not_placing(&st, "9p1");
    ts_refused(&st, "eat 9p2 9p2 9p2", "you are placing two 9p2, not three");
    ts_do(&st, "eat 9p2 7p1");
    assert_int_equal(ts_eaten(&st, 1, "9p2"), 1);
    assert_int_equal(ts_eaten(&st, 1, "7p1"), 1);
    assert_int_equal(ts_collected(&st, 1, "9p2"), 1);
    assert_int_equal(ts_collected(&st, 1, "8"), 1);
    assert_int_equal(nys_current_seat(&st), 2);
}

/* NYS-T2 with identical slices: seat 1 takes 2-4 {10p1, 10, 10p1}. `eat
 * 10p1` eats exactly one of them (the first) and collects the other and the
 * 10; `eat 10p1 10p1` would eat both. Three actions: none, one, both. */
static void test_NYS_T2_eat_one_of_two_identical_slices(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {"7", "10p1", "10", "10p1", "8", "3a1", "8a1", "11a1", "c6/7", "c4/11", "A"};
    const char *sp[] = {"stuffed-crust"};
    deal4(&st, &r, ring, LEN(ring), sp, 1);
    play(&st, "cut 1 4 8 11 special 2", "take 2", NULL);
    static const char *const want[] = {"collect all", "eat 10p1", "eat 10p1 10p1"};
    assert_legal_texts(&st, want, LEN(want));
    assert_int_equal(place_mask(&st, "eat 10p1 10p1"), 1 << 0 | 1 << 2);
    assert_int_equal(place_mask(&st, "eat 10p1"), 1 << 0);
    assert_false(nys_is_legal(&st, NYS_ACTION(NYS_A_PLACE, 1 << 2), NULL, 0));
    refused_inedible(&st, "10");
    ts_do(&st, "eat 10p1");
    assert_int_equal(ts_eaten(&st, 1, "10p1"), 1);
    assert_int_equal(ts_collected(&st, 1, "10p1"), 1);
    assert_int_equal(ts_collected(&st, 1, "10"), 1);
    assert_int_equal(ts_eaten_total(&st, 1), 1);
}

/* NYS-T2: `collect all` (or `eat none`, the same action) eats nothing: seat
 * 1 collects 9p2, 8, 9p2 and 7p1, and seat 2 chooses next. */
static void test_NYS_T2_collect_all_eats_nothing(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    take_9p2_8_9p2_7p1(&st, &r);
    assert_int_equal(place_mask(&st, "eat none"), 0);
    assert_int_equal(place_mask(&st, "collect all"), 0);
    ts_do(&st, "collect all");
    assert_int_equal(ts_collected(&st, 1, "9p2"), 2);
    assert_int_equal(ts_collected(&st, 1, "8"), 1);
    assert_int_equal(ts_collected(&st, 1, "7p1"), 1);
    assert_int_equal(ts_eaten_total(&st, 1), 0);
    assert_int_equal(st.phase, NYS_PH_TAKE);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_view(&st, &r, 0, "placing", "null");
}

/* NYS-T2: nothing edible, nothing to decide. Round 1 of R1_4P: seat 1
 * takes 9-11 {c6/7, c4/11, A} (no Combo Craving): the three go to its
 * collection at once and seat 2 chooses next; `eat none`, `collect all`
 * and `eat c6/7` are refused. */
static void test_NYS_T2_no_decision_when_nothing_is_edible(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    deal4(&st, &r, ring, LEN(ring), NULL, 0);
    play(&st, "cut 2 5 8 11 special 3", "take 9", NULL);
    assert_int_equal(st.phase, NYS_PH_TAKE);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_seen(&st, &r, 2, 1, "collected", "[\"c4/11\",\"c6/7\",\"A\"]");
    assert_view(&st, &r, 1, "placing", "null");
    ts_refused(&st, "eat none", "not now");
    ts_refused(&st, "collect all", NULL);
    ts_refused(&st, "eat c6/7", "not now");
}

/* NYS-T3 (Combo Craving): seat 1 collected c4/11 and c6/7 in round 1
 * (inedible then). In round 2 seat 1, the Slicer, gets 1-3 {9p1, c5/9,
 * 9p2} with Combo Craving: first the Combos already collected are offered
 * one at a time (`eat c4/11`, `keep c6/7`), then the new slices are placed
 * in one decision (`eat c5/9`: 9p1 and 9p2 are collected). In round 3 seat
 * 1 takes {c8/10}: that new Combo is edible (`eat c8/10`), the collected
 * c6/7 is not offered again. */
static void test_NYS_T3_combo_craving_eats_at_once_then_only_when_gained(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "9p1", "c5/9", "9p2", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2",
                          "c8/10"};
    const char *sp[] = {"stuffed-crust", "combo-craving", "day-old-pizza", "buffet", "tiebreaker",
                        "supersize-combos"};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    play(&st, "cut 2 5 8 11 special 3", "take 9", "take 3", "take 6", NULL);
    assert_int_equal(ts_collected(&st, 1, "c4/11") + ts_collected(&st, 1, "c6/7"), 2);
    round2_to_slicer(&st, "cut 3 5 8 11 special 1");
    assert_int_equal(st.phase, NYS_PH_EAT_OR_KEEP);
    assert_view(&st, &r, 1, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"9p1\",\"c5/9\",\"9p2\"],"
                                       "\"edible\":[true,true,true],\"mystery\":null,\"offered\":\"c4/11\"}");
    assert_int_equal(legal_count(&st), 2);
    ts_refused(&st, "eat c6/7", "the slice offered is c4/11, not c6/7");
    ts_refused(&st, "collect c4/11", "not now: the game expects \"eat\" or \"keep\" for the slice offered, e.g. \"eat c4/11\"");
    ts_do(&st, "eat c4/11");
    assert_view(&st, &r, 2, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"9p1\",\"c5/9\",\"9p2\"],"
                                       "\"edible\":[true,true,true],\"mystery\":null,\"offered\":\"c6/7\"}");
    play(&st, "keep c6/7", "eat c5/9", NULL);
    assert_int_equal(ts_eaten(&st, 1, "c4/11"), 1);
    assert_int_equal(ts_eaten(&st, 1, "c5/9"), 1);
    assert_int_equal(ts_collected(&st, 1, "9p1") + ts_collected(&st, 1, "9p2"), 2);
    assert_int_equal(st.round, 2);
    play(&st, "cut 1 4 8 11 special 2", "take 2", NULL);
    collect_all(&st);
    ts_do(&st, "take 5");
    collect_all(&st);
    ts_do(&st, "take 1");
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"c8/10\"],\"edible\":[true],\"mystery\":null,\"offered\":null}");
    ts_do(&st, "eat c8/10");
    assert_int_equal(ts_eaten(&st, 1, "c8/10"), 1);
    assert_int_equal(ts_collected(&st, 1, "c6/7"), 1);
}

/* NYS-T4: seat 1 takes 3-5 {S, 9p1, c4/11} and collects all three
 * (`collect all`): the types in the collection, this turn's included, are 9
 * and the Combo's 4 and 11, so the Supreme waits for seat 1 to attach it to
 * one of those (not 5, not 8). Attached to 11 it shows as S@11 and stays
 * there: collecting other types in round 2 asks nothing more. */
static void test_NYS_T4_supreme_attaches_to_a_type_in_collection(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {"7", "8", "S", "9p1", "c4/11", "3a1", "8a1", "11a1", "c6/7", "10", "A"};
    deal4(&st, &r, ring, LEN(ring), NULL, 0);
    play(&st, "cut 2 5 8 11 special 3", "take 3", "collect all", NULL);
    assert_int_equal(st.phase, NYS_PH_ATTACH);
    assert_int_equal(nys_current_seat(&st), 1);
    assert_int_equal(legal_count(&st), 3);
    assert_true(ts_is_legal(&st, "attach 4"));
    assert_true(ts_is_legal(&st, "attach 9"));
    assert_true(ts_is_legal(&st, "attach 11"));
    ts_refused(&st, "attach 5", "you have collected no 5: the Supreme attaches to a type you collected");
    ts_refused(&st, "attach 8", "you have collected no 8");
    ts_do(&st, "attach 11");
    assert_seen(&st, &r, 2, 1, "collected", "[\"9p1\",\"c4/11\",\"S@11\"]");
    assert_int_equal(nys_current_seat(&st), 2);
    while (st.round < 2) {
        assert_int_not_equal(st.phase, NYS_PH_ATTACH);
        plain_step(&st);
    }
    assert_int_equal(ts_collected(&st, 1, "S@11"), 1);
}

/* NYS-T4: seat 1 takes 3-5 {S, 9p1, A} and eats the 9p1 (`eat 9p1`: the
 * Supreme and the Anchovy slice are collected). The Supreme "must be placed
 * next to any existing slice"; it may wait only as "the only slice
 * collected", which it is not: it is placed next to the Anchovy slice, at
 * once, and counts for no type. In round 2 seat 1 (the Slicer) gets {9p2, 7,
 * 11}, eats the 9p2 and collects 7 and 11 (`eat 9p2`): the Supreme stays
 * where it is, and the 7 and the 11 count one each. */
static const char *const supreme_and_anchovy_deal[] = {
    "3", "8", "S", "9p1", "A", "3a1", "8a1", "11a1", "c6/7", "10", "c4/11",
    "9p2", "7", "11", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2"};

static void test_NYS_T4_supreme_joins_the_anchovy_slice(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st, before;
    deal4(&st, &r, supreme_and_anchovy_deal, LEN(supreme_and_anchovy_deal), NULL, 0);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    before = st;
    ts_do(&st, "eat 9p1");
    assert_int_equal(nys_current_seat(&st), 2);
    assert_seen(&st, &r, 2, 1, "collected", "[\"A\",\"S\"]");
    assert_seen(&st, &r, 2, 1, "supreme_waiting", "false");
    assert_seen(&st, &r, 2, 1, "supreme_on_anchovy", "true");
    char news[512];
    assert_true(nys_news(&r, &before, &st, news, sizeof news) > 0);
    assert_non_null(strstr(news, "The Supreme is placed next to the Anchovy slice"));
    play(&st, "take 6", "take 9", NULL);
    round2_to_slicer(&st, "cut 3 5 8 11 special 4");
    ts_do(&st, "eat 9p2");
    assert_int_not_equal(st.phase, NYS_PH_ATTACH);
    assert_seen(&st, &r, 0, 1, "collected", "[\"7\",\"11\",\"A\",\"S\"]");
    assert_seen(&st, &r, 0, 1, "supreme_on_anchovy", "true");
    assert_int_equal(st.tally[1].whole[7], 1);
    assert_int_equal(st.tally[1].whole[11], 1);
    char err[PB_ERR_LEN];
    assert_int_equal(nys_check_invariants(&st, err, sizeof err), 0);
}

/* NYS-T4 by edition 1 (records before version 4): the same deal, and the
 * Supreme waited, the Anchovy slice being no type; in round 2 it is
 * attached, to 7 or 11 (not 9), and seat 1 picks 7. */
static void test_NYS_T4_supreme_waits_for_a_type_edition_1(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal4(&st, &r, supreme_and_anchovy_deal, LEN(supreme_and_anchovy_deal), NULL, 0);
    st.edition = 1;
    play(&st, "cut 2 5 8 11 special 3", "take 3", "eat 9p1", NULL);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_seen(&st, &r, 1, 1, "collected", "[\"A\",\"S\"]");
    assert_seen(&st, &r, 1, 1, "supreme_waiting", "true");
    play(&st, "take 6", "take 9", NULL);
    round2_to_slicer(&st, "cut 3 5 8 11 special 4");
    ts_do(&st, "eat 9p2");
    assert_int_equal(st.phase, NYS_PH_ATTACH);
    assert_int_equal(legal_count(&st), 2);
    assert_true(ts_is_legal(&st, "attach 7"));
    assert_true(ts_is_legal(&st, "attach 11"));
    ts_refused(&st, "attach 9", "you have collected no 9: the Supreme attaches to a type you collected");
    ts_do(&st, "attach 7");
    assert_seen(&st, &r, 0, 1, "collected", "[\"7\",\"11\",\"A\",\"S@7\"]");
    assert_seen(&st, &r, 0, 1, "supreme_waiting", "false");
}

/* NYS-T5: eaten slices are public, except an eaten Mystery slice. Seat 1
 * eats its Mystery 9p3 in round 1 (`eat 9p3`) and a 9p1 in round 2 (`eat
 * 9p1`); seat 2 eats a 9p2 (`eat 9p2`).
 * Seat 2 sees seat 1's eaten pile as 9p1 and "?" (2 slices); seat 1 sees
 * both; everybody sees seat 2's 9p2. */
static void test_NYS_T5_eaten_slices_public_except_mystery(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "9p1", "9p2", "4p1", "4p2", "5p1", "6p1", "7p1", "9p1a1", "11p1", "5p2", "6p2"};
    const char *spares[] = {"9p3", "9p3", "9p3"};
    const char *sp[] = {"mystery-slice"};
    ts_rules(&r, 4);
    ts_deal(&st, &r, deal, LEN(deal), spares, sp, 1);
    play(&st, "cut 2 5 8 11 special 3", "take 3", "eat 9p3", "take 6", "take 9", NULL);
    assert_seen(&st, &r, 2, 1, "eaten", "[\"?\"]");
    assert_seen(&st, &r, 2, 1, "eaten_count", "1");
    assert_seen(&st, &r, 1, 1, "eaten", "[\"9p3\"]");
    play(&st, "cut 1 2 8 11 special 3", "take 2", "eat 9p2", NULL);
    ts_do(&st, "take 3");
    collect_all(&st);
    ts_do(&st, "take 9");
    collect_until_owner(&st, 1);
    ts_do(&st, "eat 9p1");
    assert_seen(&st, &r, 2, 1, "eaten", "[\"9p1\",\"?\"]");
    assert_seen(&st, &r, 3, 1, "eaten_count", "2");
    assert_seen(&st, &r, 1, 1, "eaten", "[\"9p1\",\"9p3\"]");
    assert_seen(&st, &r, 0, 2, "eaten", "[\"9p2\"]");
}

/* NYS-T5 with a visible twin: seat 1 takes 3-5 {3, 9p3, 11} with the
 * Mystery Slice and draws a 9p3 (of the spares 9p3, 9p3, 7p1). It may eat the
 * Mystery slice and collect the visible 9p3, keeping the Mystery secret, as
 * the book lets it ("if you eat the slice, do not show it"): the choices are
 * `collect all`, `eat 9p3` (the visible one), `eat mystery` and both. The
 * others read `eat ?` and see the visible 9p3 collected. Seat 2 then places
 * a portion without a Mystery slice: `eat mystery` is refused. */
static void test_NYS_T5_mystery_eaten_apart_from_its_twin(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {"7", "8", "3", "9p3", "11", "9p1", "8a1", "11a1", "c6/7", "c4/11", "A"};
    const char *spares[] = {"9p3", "9p3", "7p1"}; /* the draw (seed 1) is a 9p3 */
    const char *sp[] = {"mystery-slice"};
    ts_rules(&r, 4);
    ts_deal(&st, &r, ring, LEN(ring), spares, sp, 1);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"9p3\",\"11\",\"9p3\"],"
                "\"edible\":[false,true,false,true],\"mystery\":3,\"offered\":null}");
    assert_view(&st, &r, 2, "placing",
                "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"9p3\",\"11\",\"?\"],"
                "\"edible\":[false,true,false,null],\"mystery\":3,\"offered\":null}");
    static const char *const want[] = {"collect all", "eat 9p3", "eat mystery", "eat 9p3 mystery"};
    assert_legal_texts(&st, want, LEN(want));
    assert_int_equal(place_mask(&st, "eat 9p3"), 1 << 1);
    assert_int_equal(place_mask(&st, "eat MYSTERY"), 1 << 3);
    assert_int_equal(place_mask(&st, "eat 9p3 9p3"), 1 << 1 | 1 << 3);
    ts_refused(&st, "eat mystery mystery", "the Mystery slice is named twice");
    char seen[64];
    assert_int_equal(nys_action_text_for(&st, NYS_ACTION(NYS_A_PLACE, 1 << 3), 2, seen, sizeof seen), 0);
    assert_string_equal(seen, "eat ?");
    ts_do(&st, "eat mystery");
    assert_seen(&st, &r, 2, 1, "eaten", "[\"?\"]");
    assert_seen(&st, &r, 1, 1, "eaten", "[\"9p3\"]");
    assert_int_equal(ts_collected(&st, 1, "9p3"), 1);
    ts_do(&st, "take 6");
    ts_refused(&st, "eat mystery", "there is no Mystery slice among the slices you are placing");
}

/* ============================================================ game end */

/* NYS-E1: the fixture with the Supreme in ring 1 instead of a 4p1: seat 0
 * collects it with the 9s and attaches it to 9. Seat 0 holds Seconds (round
 * 4): after the last round it may pick a type with an edible collected
 * slice -- 4, 6, 7 or 9, not 5 or 11 -- and picks 9: the nine 9s and the
 * S@9 are offered one by one; seat 0 keeps the 9p1s and 9p2s (`keep 9p1`
 * ...) and eats the three 9p3 and the Supreme (`eat 9p3` ... `eat S`).
 * Guest Check: seat 0 still wins 9 (6 to half a Combo), loses 4 (1 to 1.5):
 * majorities 9+7+6 = 22, pepperoni 9+2 - 4 = 7, total 29, 4 eaten; seat 1
 * wins 4, 5, 11: 20, -8, total 12. */
static void test_NYS_E1_seconds_eats_one_type_with_supreme(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[LEN(FIX2)];
    memcpy(deal, FIX2, sizeof deal);
    deal[10] = "S";
    const char *spares[] = {"4p1", "c6/7", "4p2"};
    const char *sp[] = {"sneak-a-slice", "supersize-combos", "tiebreaker", "seconds"};
    ts_rules(&r, 2);
    ts_deal(&st, &r, deal, LEN(deal), spares, sp, 4);
    round_fix2(&st, NULL);
    assert_int_equal(st.phase, NYS_PH_ATTACH);
    ts_do(&st, "attach 9");
    round_fix2(&st, NULL);
    round_fix2(&st, NULL);
    round_fix2(&st, NULL);
    assert_int_equal(st.phase, NYS_PH_SECONDS);
    assert_int_equal(nys_current_seat(&st), 0);
    assert_int_equal(legal_count(&st), 5);
    assert_true(ts_is_legal(&st, "seconds 4") && ts_is_legal(&st, "seconds 6") && ts_is_legal(&st, "seconds 7"));
    ts_refused(&st, "seconds 5", "with pepperoni: Seconds eats slices of one type that carry pepperoni");
    ts_refused(&st, "seconds 11", "with pepperoni: Seconds eats slices of one type that carry pepperoni");
    ts_do(&st, "seconds 9");
    assert_int_equal(st.phase, NYS_PH_EAT_OR_KEEP);
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":0,\"why\":\"seconds\",\"slices\":[],\"edible\":[],\"mystery\":null,\"offered\":\"9p1\"}");
    play(&st, "keep 9p1", "keep", "keep 9p1a1", "keep 9p2", "keep 9p2", "keep 9p2a1", NULL);
    ts_refused(&st, "eat 9p2", "the slice offered is 9p3, not 9p2");
    play(&st, "eat 9p3", "eat 9p3", "eat", NULL);
    assert_view(&st, &r, 0, "placing",
                "{\"seat\":0,\"why\":\"seconds\",\"slices\":[],\"edible\":[],\"mystery\":null,\"offered\":\"S@9\"}");
    ts_do(&st, "eat S");
    assert_int_equal(nys_current_seat(&st), PB_TERMINAL);
    assert_int_equal(ts_eaten(&st, 0, "S"), 1);
    nys_guest_check gc;
    nys_score_state(&st, &gc);
    assert_check(&gc, 0, 22, 0, 7, 29, 4);
    assert_check(&gc, 1, 20, 0, -8, 12, 0);
    assert_int_equal(gc.line[0].types_won, (1u << 6) | (1u << 7) | (1u << 9));
}

/* NYS-E2: type counts. Ann: 9p1, c5/9 and S@5 -- 9s 1.5, 5s 1.5; Bo: 9p2
 * and two 5p1 -- 9s 1, 5s 2. Ann wins 9, Bo wins 5. With Supersize Combos
 * Ann's c5/9 is two 9s and two 5s: 9s 3, 5s 3, she wins both (14). A
 * Supreme never attached (S) counts for no type. */
static void test_NYS_E2_type_counts_halves_supreme_supersize(void **state)
{
    (void)state;
    json_t *rep = score_table("{\"players\": [{\"name\": \"Ann\", \"collected\": [\"9p1\", \"c5/9\", \"S@5\"]},"
                              " {\"name\": \"Bo\", \"collected\": [\"9p2\", \"5p1\", \"5p1\"]}]}");
    assert_line(rep, 0, (line){"[9]", 9, 0, 0, 9, 0});
    assert_line(rep, 1, (line){"[5]", 5, 0, 0, 5, 0});
    json_decref(rep);
    rep = score_table("{\"players\": [{\"name\": \"Ann\", \"collected\": [\"9p1\", \"c5/9\", \"S@5\"],"
                      " \"specials\": [\"supersize-combos\"]},"
                      " {\"name\": \"Bo\", \"collected\": [\"9p2\", \"5p1\", \"5p1\"]}]}");
    assert_line(rep, 0, (line){"[5,9]", 14, 0, 0, 14, 0});
    assert_line(rep, 1, (line){"[]", 0, 0, 0, 0, 0});
    json_decref(rep);
    rep = score_table("{\"players\": [{\"name\": \"Ann\", \"collected\": [\"S\"]}, {\"name\": \"Bo\"}]}");
    assert_line(rep, 0, (line){"[]", 0, 0, 0, 0, 0});
    json_decref(rep);
}

/* NYS-E3: Ann has 11 and 11p1, Bo 11p1 and 11p2, Cy 11p3 and a 7. The 11s
 * are tied at the top: nobody scores them, even with Cy (not tied) holding
 * Tiebreaker; Cy wins the 7s alone; nobody has 4s, nobody scores them.
 * When Bo holds Tiebreaker he wins the 11s. */
static void test_NYS_E3_majority_ties_and_tiebreaker(void **state)
{
    (void)state;
    json_t *rep = score_table("{\"players\": [{\"collected\": [\"11\", \"11p1\"]},"
                              " {\"collected\": [\"11p1\", \"11p2\"]},"
                              " {\"collected\": [\"11p3\", \"7\"], \"specials\": [\"tiebreaker\"]}]}");
    assert_line(rep, 0, (line){"[]", 0, 0, 0, 0, 0});
    assert_line(rep, 1, (line){"[]", 0, 0, 0, 0, 0});
    assert_line(rep, 2, (line){"[7]", 7, 0, 0, 7, 0});
    json_decref(rep);
    rep = score_table("{\"players\": [{\"collected\": [\"11\", \"11p1\"]},"
                      " {\"collected\": [\"11p1\", \"11p2\"], \"specials\": [\"tiebreaker\"]},"
                      " {\"collected\": [\"11p3\", \"7\"]}]}");
    assert_line(rep, 1, (line){"[11]", 11, 0, 0, 11, 0});
    assert_line(rep, 0, (line){"[]", 0, 0, 0, 0, 0});
    json_decref(rep);
}

/* NYS-E4: the Special* line, four players.
 * Ann: collected 9p1, c4/11, the Anchovy slice, S@9; ate 3; Buffet and
 *   Day-Old Pizza: Buffet 9, 4, 11 (halves count) + Anchovy = 4, -2, and
 *   -1 for Dee's diet: 1.
 * Bo: ate c5/9 and c6/7; Combo Craving 2 x 3, Stuffed Crust 5, diet -1: 10.
 * Cy: ate 3, 3a1 and five more (7); You Love Veggies 2 x 3, diet -3: 3.
 * Dee: ate 5 but holds Everyone-Else Diet: 0. */
static void test_NYS_E4_special_line(void **state)
{
    (void)state;
    json_t *rep = score_table(
        "{\"players\": ["
        "{\"name\": \"Ann\", \"collected\": [\"9p1\", \"c4/11\", \"A\", \"S@9\"], \"eaten\": [\"9p2\", \"9p3\", \"9p3\"],"
        " \"specials\": [\"buffet\", \"day-old-pizza\"]},"
        "{\"name\": \"Bo\", \"eaten\": [\"c5/9\", \"c6/7\"], \"specials\": [\"combo-craving\", \"stuffed-crust\"]},"
        "{\"name\": \"Cy\", \"collected\": [\"7\"], \"eaten\": [\"3\", \"3a1\", \"4p1\", \"4p1\", \"5p1\", \"5p1\", \"6p1\"],"
        " \"specials\": [\"you-love-veggies\"]},"
        "{\"name\": \"Dee\", \"eaten\": [\"11p1\", \"11p1\", \"11p2\", \"11p2\", \"11p3\"],"
        " \"specials\": [\"everyone-else-diet\"]}]}");
    assert_line(rep, 0, (line){"[4,9,11]", 24, 1, 5, 30, 3});
    assert_line(rep, 1, (line){"[]", 0, 10, 0, 10, 2});
    assert_line(rep, 2, (line){"[7]", 7, 3, 5, 15, 7});
    assert_line(rep, 3, (line){"[]", 0, 0, 9, 9, 5});
    ts_assert_json(json_object_get(rep, "winners"), "[0]");
    json_decref(rep);
}

/* NYS-E5: pepperonis on eaten slices minus anchovies on collected ones.
 * Ann ate S (2), 9p3 (3), 4p1a1 (1; its anchovy is ignored) and collected
 * 11a1, 8a1, the Anchovy slice (3) and 9p2 (its pepperonis are ignored):
 * 6 - 5 = 1. Bo, with You Like Anchovies!, ate 7p2 and collected 10p1a1
 * and 11p2a1: 2 + 2 = 4. (The 11s tie; Ann wins 8 and 9, Bo 10.) */
static void test_NYS_E5_pepperoni_minus_anchovies(void **state)
{
    (void)state;
    json_t *rep = score_table(
        "{\"players\": ["
        "{\"collected\": [\"11a1\", \"8a1\", \"A\", \"9p2\"], \"eaten\": [\"S\", \"9p3\", \"4p1a1\"]},"
        "{\"collected\": [\"10p1a1\", \"11p2a1\"], \"eaten\": [\"7p2\"], \"specials\": [\"you-like-anchovies\"]},"
        "{}]}");
    assert_line(rep, 0, (line){"[8,9]", 17, 0, 1, 18, 3});
    assert_line(rep, 1, (line){"[10]", 10, 0, 4, 14, 1});
    assert_line(rep, 2, (line){"[]", 0, 0, 0, 0, 0});
    json_decref(rep);
}

/* NYS-E6: total = majorities + Special* + pepperoni. Ann (9p1 collected,
 * Anchovy slice, Stuffed Crust): 9 + 5 - 3 = 11 beats Bo's 0. Ann with a 9
 * (9 points, nothing eaten) and Bo with three 9p3 eaten (9 points) tie: Bo
 * ate more and wins. Ann and Bo with 6 points and 2 eaten each share. */
static void test_NYS_E6_total_and_tie_breaks(void **state)
{
    (void)state;
    json_t *rep = score_table("{\"players\": [{\"collected\": [\"9p1\", \"A\"], \"specials\": [\"stuffed-crust\"]}, {}]}");
    assert_line(rep, 0, (line){"[9]", 9, 5, -3, 11, 0});
    ts_assert_json(json_object_get(rep, "winners"), "[0]");
    json_decref(rep);
    rep = score_table("{\"players\": [{\"collected\": [\"9p1\"]}, {\"eaten\": [\"9p3\", \"9p3\", \"9p3\"]}]}");
    assert_line(rep, 1, (line){"[]", 0, 0, 9, 9, 3});
    ts_assert_json(json_object_get(rep, "winners"), "[1]");
    json_decref(rep);
    rep = score_table("{\"players\": [{\"eaten\": [\"9p3\", \"9p3\"]}, {\"eaten\": [\"7p3\", \"9p3\"]}]}");
    ts_assert_json(json_object_get(rep, "winners"), "[0,1]");
    json_decref(rep);
}

/* NYS-E7: the score report of a finished game shows, per player, name,
 * majorities, types_won, specials, pepperoni, total and eaten, and the
 * winners; total is the sum of the three lines and eaten matches the
 * table. */
static void test_NYS_E7_guest_check_report_lines(void **state)
{
    (void)state;
    static const char *const keys[] = {"name", "majorities", "types_won", "specials", "pepperoni", "total", "eaten"};
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    ts_rules(&r, 3);
    nys_init(&st, &r, 31);
    ts_play_out(&st, 32);
    nys_score_state(&st, &gc);
    json_t *rep = nys_check_to_json(&gc, NULL);
    json_t *players = json_object_get(rep, "players");
    assert_int_equal(json_array_size(players), 3);
    for (int p = 0; p < 3; p++) {
        json_t *pl = json_array_get(players, (size_t)p);
        assert_int_equal(json_object_size(pl), LEN(keys));
        for (int k = 0; k < LEN(keys); k++)
            assert_non_null(json_object_get(pl, keys[k]));
        assert_int_equal(json_integer_value(json_object_get(pl, "total")),
                         gc.line[p].majorities + gc.line[p].specials + gc.line[p].pepperoni);
        assert_int_equal(json_integer_value(json_object_get(pl, "eaten")), ts_eaten_total(&st, p));
    }
    assert_string_equal(json_string_value(json_object_get(json_array_get(players, 0), "name")), "Seat 1");
    assert_true(json_array_size(json_object_get(rep, "winners")) >= 1);
    json_decref(rep);
}

/* The spec's worked check (NYS-E4): with Everyone-Else Diet held by Ann,
 * Bo, who ate 7 slices, loses 3; Cy, who ate 1, loses nothing. */
static void test_NYS_E4_worked_check_diet_7_eaten_loses_3(void **state)
{
    (void)state;
    json_t *rep = score_table(
        "{\"players\": [{\"eaten\": [\"7p1\", \"7p1\"], \"specials\": [\"everyone-else-diet\"]},"
        " {\"eaten\": [\"9p1\", \"9p1\", \"9p2\", \"9p2\", \"9p3\", \"9p3\", \"9p3\"]},"
        " {\"eaten\": [\"5p1\"]}]}");
    assert_line(rep, 0, (line){"[]", 0, 0, 2, 2, 2});
    assert_line(rep, 1, (line){"[]", 0, -3, 15, 12, 7});
    assert_line(rep, 2, (line){"[]", 0, 0, 1, 1, 1});
    json_decref(rep);
}

/* The spec's worked check (NYS-E3): Ann holds only the c6/7 Combo, nobody
 * else has a 6 or a 7: her two half slices win 6 and 7 (13 points). */
static void test_NYS_E3_worked_check_lone_half_slice_wins(void **state)
{
    (void)state;
    json_t *rep = score_table("{\"players\": [{\"collected\": [\"c6/7\"]}, {\"collected\": [\"9p1\"]}]}");
    assert_line(rep, 0, (line){"[6,7]", 13, 0, 0, 13, 0});
    assert_line(rep, 1, (line){"[9]", 9, 0, 0, 9, 0});
    json_decref(rep);
}

/* The spec's worked check (NYS-E3): Ann and Bo hold two 11s each, Cy one:
 * nobody scores the 11s. */
static void test_NYS_E3_worked_check_two_way_tie_scores_nothing(void **state)
{
    (void)state;
    json_t *rep = score_table("{\"players\": [{\"collected\": [\"11p1\", \"11p2\"]},"
                              " {\"collected\": [\"11p1\", \"11p3\"]}, {\"collected\": [\"11\"]}]}");
    for (int p = 0; p < 3; p++)
        assert_line(rep, p, (line){"[]", 0, 0, 0, 0, 0});
    ts_assert_json(json_object_get(rep, "winners"), "[0,1,2]");
    json_decref(rep);
}

/* The spec's scoring example (NYS-E2..E7), every number of the expected
 * output: Ann 9 / [9] / 0 / 4 / 13 / 2; Bo 8 / [8] / 0 / -4 / 4 / 0;
 * Cy 10 / [10] / 5 / 1 / 16 / 1; Cy wins. */
static void test_NYS_E7_spec_scoring_example_ann_bo_cy(void **state)
{
    (void)state;
    json_t *rep = score_table(
        "{\"game\": \"nyslice\",\n"
        " \"players\": [\n"
        "   {\"name\": \"Ann\", \"collected\": [\"9p2\", \"9p3\", \"c8/10\", \"S@9\"], \"eaten\": [\"11p3\", \"7p1\"],\n"
        "    \"specials\": [\"tiebreaker\"]},\n"
        "   {\"name\": \"Bo\", \"collected\": [\"A\", \"8a1\"], \"eaten\": [], \"specials\": []},\n"
        "   {\"name\": \"Cy\", \"collected\": [\"10p1\", \"10p1\"], \"eaten\": [\"5p1\"], \"specials\": [\"stuffed-crust\"]}\n"
        " ]}");
    ts_assert_json(rep, "{\"players\":["
                     "{\"name\":\"Ann\",\"majorities\":9,\"types_won\":[9],\"specials\":0,\"pepperoni\":4,\"total\":13,\"eaten\":2},"
                     "{\"name\":\"Bo\",\"majorities\":8,\"types_won\":[8],\"specials\":0,\"pepperoni\":-4,\"total\":4,\"eaten\":0},"
                     "{\"name\":\"Cy\",\"majorities\":10,\"types_won\":[10],\"specials\":5,\"pepperoni\":1,\"total\":16,\"eaten\":1}],"
                     "\"winners\":[2]}");
    json_decref(rep);
}

/* ============================================ the 14 Specials, in play */

/* Buffet (fixture, seat 1 from round 1): seat 1 ends with 11s, 6s, 5s, a 4,
 * half a 9 (c5/9) and the Anchovy slice: 5 types + 1 = 6 on the Special*
 * line, total 16 + 6 - 8 = 14. */
static void test_special_buffet(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "buffet", NULL, NULL, NULL);
    play_fix2(&st, NULL, NULL, NULL, NULL, &gc);
    assert_int_equal(held(&st, &r, 1, "buffet"), 0);
    assert_check(&gc, 1, 16, 6, -8, 14, 0);
    assert_check(&gc, 0, 26, 0, -4, 22, 0);
}

/* Combo Craving (fixture, seat 1 from round 3): in round 4 seat 1 gets
 * c4/11 and c5/9 and may eat them (`eat A` is still refused: the Anchovy
 * slice just goes to the collection); `eat c4/11 c5/9`: 2 x 3 = 6 points;
 * seat 1 keeps 5 and 11, total 16 + 6 - 8 = 14. */
static void test_special_combo_craving(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, NULL, NULL, "combo-craving", NULL);
    for (int round = 0; round < 3; round++)
        round_fix2(&st, NULL);
    play(&st, "special alone", "take special", NULL);
    refused_inedible(&st, "A");
    play(&st, "eat c4/11 c5/9", "pass", NULL);
    assert_int_equal(nys_current_seat(&st), PB_TERMINAL);
    nys_score_state(&st, &gc);
    assert_int_equal(ts_eaten(&st, 1, "c4/11") + ts_eaten(&st, 1, "c5/9"), 2);
    assert_int_equal(ts_collected(&st, 1, "A"), 1);
    assert_check(&gc, 1, 16, 6, -8, 14, 2);
    assert_check(&gc, 0, 26, 0, -4, 22, 0);
}

/* Cut in Line: seat 1 gains it in round 1. Round 2 seat 1 slices: no offer.
 * Round 3 (Slicer 2) it is offered right after division; seat 1 passes and
 * the normal order 3, 0, 1 follows. Round 4 (Slicer 3) it is offered again;
 * seat 1 cuts in: order 1, 0, 2, 3. Round 5: never again. */
static void test_special_cut_in_line(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"cut-in-line", QUIET5};
    deal4(&st, &r, ring, LEN(ring), sp, LEN(sp));
    round1_special_to(&st, 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    assert_int_equal(nys_current_seat(&st), 2);
    finish_round(&st);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_CUT_IN_LINE);
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "pass");
    assert_view(&st, &r, 0, "order", "[3,0,1,2]");
    assert_int_equal(nys_current_seat(&st), 3);
    finish_round(&st);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_CUT_IN_LINE);
    ts_do(&st, "cut-in-line");
    assert_view(&st, &r, 0, "order", "[1,0,2,3]");
    assert_int_equal(nys_current_seat(&st), 1);
    finish_round(&st);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    assert_int_equal(held(&st, &r, 1, "cut-in-line"), 1);
}

/* Day-Old Pizza (fixture, seat 0 from round 2): -2 on the Special* line,
 * total 26 - 2 - 4 = 20. */
static void test_special_day_old_pizza(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, NULL, "day-old-pizza", NULL, NULL);
    play_fix2(&st, NULL, NULL, NULL, NULL, &gc);
    assert_check(&gc, 0, 26, -2, -4, 20, 0);
    assert_check(&gc, 1, 16, 0, -8, 8, 0);
}

/* Dibs!: seat 1 gains it in round 1 and is not offered it again that
 * round. Round 2, where seat 1 is the Slicer, opens with the offer to seat 1
 * (the Slicer may use it); seat 1 passes and keeps it. Round 3 opens with
 * the offer again; `dibs 1` takes position 1's slice before seat 2 divides.
 * Round 4 opens with the division. */
static void test_special_dibs(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"dibs", QUIET5};
    deal4(&st, &r, ring, LEN(ring), sp, LEN(sp));
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    assert_int_equal(held(&st, &r, 1, "dibs"), 0);
    assert_int_equal(st.phase, NYS_PH_TAKE);
    play(&st, "take 6", "take 9", NULL);
    assert_int_equal(st.slicer, 1);
    assert_int_equal(st.phase, NYS_PH_DIBS);
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "pass");
    assert_int_equal(st.phase, NYS_PH_DIVIDE);
    assert_int_equal(held(&st, &r, 1, "dibs"), 0);
    finish_round(&st);
    assert_int_equal(st.phase, NYS_PH_DIBS);
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "dibs 1");
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_DIVIDE);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_int_equal(held(&st, &r, 1, "dibs"), 1);
    json_t *v = nys_view(&st, &r, 0);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(v, "ring"), 0), "slice")));
    json_decref(v);
    finish_round(&st);
    assert_int_equal(st.phase, NYS_PH_DIVIDE);
    assert_int_equal(nys_current_seat(&st), 3);
}

/* Everyone-Else Diet (fixture, seat 1 from round 1): seat 0 eats seven of
 * ring 1 (`eat 9p1 9p1 9p1a1 9p2 9p2 9p2a1 9p3`: 12 pepperonis) and loses
 * 3; seat 1, the owner, eats two 11p1 (`eat 11p1 11p1`) and loses nothing. Seat 0: majorities 26 (two
 * 9s still beat half a Combo), Special* -3, pepperoni 12 - 2 = 10, total 33.
 * Seat 1: 16, 0, 2 - 8 = -6, total 10. */
static void test_special_everyone_else_diet(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "everyone-else-diet", NULL, NULL, NULL);
    play_fix2(&st, "eat 9p1 9p1 9p1a1 9p2 9p2 9p2a1 9p3", "eat 11p1 11p1", NULL, NULL, &gc);
    assert_check(&gc, 0, 26, -3, 10, 33, 7);
    assert_check(&gc, 1, 16, 0, -6, 10, 2);
}

/* Mystery Slice: seat 2 takes 3-5 with it and draws one of the three spares
 * (9p1, 7p3, 11p2) at once; only seat 2's view names it. Seat 2 collects
 * it with the rest (`collect all`): face up, everybody sees it; two spares
 * are left. */
static void test_special_mystery_slice(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *spares[] = {"9p1", "7p3", "11p2"};
    const char *sp[] = {"mystery-slice"};
    ts_rules(&r, 4);
    ts_deal(&st, &r, ring, LEN(ring), spares, sp, 1);
    play(&st, "cut 2 5 8 11 special 3", "take 6", "take 3", NULL);
    assert_int_equal(nys_current_seat(&st), 2);
    json_t *v = nys_view(&st, &r, 2);
    char drawn[16];
    snprintf(drawn, sizeof drawn, "%s", json_string_value(json_object_get(v, "mystery")));
    json_decref(v);
    assert_true(!strcmp(drawn, "9p1") || !strcmp(drawn, "7p3") || !strcmp(drawn, "11p2"));
    for (int seat = 0; seat < 4; seat++)
        if (seat != 2)
            assert_view(&st, &r, seat, "mystery", "null");
    ts_do(&st, "collect all");
    assert_int_equal(ts_collected(&st, 2, drawn), 1);
    v = nys_view(&st, &r, 1);
    json_t *collected = json_object_get(player_in(v, 2), "collected"), *tok;
    size_t i;
    int seen = 0;
    json_array_foreach(collected, i, tok)
        seen += strcmp(json_string_value(tok), drawn) == 0;
    assert_int_equal(seen, 1);
    assert_int_equal(json_integer_value(json_object_get(v, "spares_left")), 2);
    json_decref(v);
}

/* Seconds (fixture, seat 0 from round 4): after the last round seat 0
 * picks 7: the six 7s with pepperoni are offered one by one (the plain 7
 * cannot be eaten and stays); seat 0 eats all six (`eat 7p1` ... `eat
 * 7p3`): 10 pepperonis, the 7p1a1's anchovy no longer counts. Seat 0: 26 (the lone 7 still wins the 7s), pepperoni
 * 10 - 3 = 7, total 33. */
static void test_special_seconds(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    deal_fix2(&st, &r, NULL, NULL, NULL, "seconds");
    for (int round = 0; round < 4; round++) {
        assert_int_not_equal(st.phase, NYS_PH_SECONDS);
        round_fix2(&st, NULL);
    }
    assert_int_equal(st.phase, NYS_PH_SECONDS);
    ts_do(&st, "seconds 7");
    assert_view(&st, &r, 1, "placing",
                "{\"seat\":0,\"why\":\"seconds\",\"slices\":[],\"edible\":[],\"mystery\":null,\"offered\":\"7p1\"}");
    ts_refused(&st, "eat 7", "the slice offered is 7p1, not 7");
    play(&st, "eat 7p1", "eat 7p1", "eat 7p1a1", "eat 7p2", "eat 7p2", "eat 7p3", NULL);
    assert_int_equal(nys_current_seat(&st), PB_TERMINAL);
    assert_int_equal(ts_collected(&st, 0, "7"), 1);
    nys_guest_check gc;
    nys_score_state(&st, &gc);
    assert_check(&gc, 0, 26, 0, 7, 33, 6);
}

/* Sneak-a-Slice: seat 1 gains it in round 1 (after choosing: no move that
 * round). In round 2 seat 1 is the Slicer: no offer, and it stays unused.
 * Round 3 (Slicer 2; seats 3 and 0 take 3-5 and 6-8): the offer comes just
 * before seat 1 chooses; seat 1 passes. Round 4 (Slicer 3; seat 0 takes
 * 3-5): offered again; `sneak 8 to 9` and seat 1 takes 8-11. Round 5: seat
 * 1 just chooses. */
static void test_special_sneak_a_slice(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *ring[] = {R1_4P};
    const char *sp[] = {"sneak-a-slice", QUIET5};
    deal4(&st, &r, ring, LEN(ring), sp, LEN(sp));
    round1_special_to(&st, 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    finish_round(&st);
    assert_int_equal(held(&st, &r, 1, "sneak-a-slice"), 0);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_TAKE);
    ts_do(&st, "take 6");
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_SNEAK);
    assert_int_equal(nys_current_seat(&st), 1);
    ts_do(&st, "pass");
    assert_int_equal(st.phase, NYS_PH_TAKE);
    finish_round(&st);
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    collect_all(&st);
    assert_int_equal(st.phase, NYS_PH_SNEAK);
    play(&st, "sneak 8 to 9", "take 9", NULL);
    json_t *v = nys_view(&st, &r, 0);
    json_t *ring_view = json_object_get(v, "ring");
    for (int p = 8; p <= 11; p++)
        assert_int_equal(json_integer_value(json_object_get(json_array_get(ring_view, (size_t)p - 1), "taken_by")), 1);
    json_decref(v);
    finish_round(&st);
    assert_int_equal(held(&st, &r, 1, "sneak-a-slice"), 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    assert_int_equal(nys_current_seat(&st), 1);
    assert_int_equal(st.phase, NYS_PH_TAKE);
}

/* Stuffed Crust (fixture, seat 1 from round 1): +5, total 16 + 5 - 8 = 13. */
static void test_special_stuffed_crust(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "stuffed-crust", NULL, NULL, NULL);
    play_fix2(&st, NULL, NULL, NULL, NULL, &gc);
    assert_check(&gc, 1, 16, 5, -8, 13, 0);
    assert_int_equal(gc.winners, 1u << 0);
}

/* Supersize Combos (fixture, seat 1 from round 1): c4/11 and c5/9 count two
 * slices of each type: 4s 1 + 2 = 3 beat seat 0's 2, 9s 2 lose to 9.
 * Seat 1: 4 + 5 + 11 = 20, total 12; seat 0: 6 + 7 + 9 = 22, total 18. */
static void test_special_supersize_combos(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "supersize-combos", "sneak-a-slice", NULL, NULL);
    play_fix2(&st, NULL, NULL, NULL, NULL, &gc);
    assert_check(&gc, 1, 20, 0, -8, 12, 0);
    assert_check(&gc, 0, 22, 0, -4, 18, 0);
}

/* Tiebreaker (fixture, seat 1 from round 1): seat 0 eats two 6p1 in ring 3
 * (`eat 6p1 6p1`), leaving 6p1 and 6p1a1 against seat 1's two 6p2 -- a tie that seat 1
 * wins. Seat 1: 16 + 6 = 22, total 14; seat 0: 26 - 6 = 20, pepperoni
 * 2 - 4 = -2, total 18. */
static void test_special_tiebreaker(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "tiebreaker", NULL, "sneak-a-slice", NULL);
    play_fix2(&st, NULL, NULL, "eat 6p1 6p1", NULL, &gc);
    assert_check(&gc, 1, 22, 0, -8, 14, 0);
    assert_check(&gc, 0, 20, 0, -2, 18, 2);
    assert_true(gc.line[1].types_won & (1u << 6));
}

/* You Like Anchovies! (fixture, seat 1 from round 1): seat 1's 8 collected
 * anchovies count +8 instead of -8: total 24 beats seat 0's 22. */
static void test_special_you_like_anchovies(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    nys_guest_check gc;
    deal_fix2(&st, &r, "you-like-anchovies", NULL, NULL, NULL);
    play_fix2(&st, NULL, NULL, NULL, NULL, &gc);
    assert_check(&gc, 1, 16, 0, 8, 24, 0);
    assert_int_equal(gc.winners, 1u << 1);
}

/* You Love Veggies: in round 1 seat 1 collects a 3 (inedible then) and seat
 * 2 a 3a1. In round 2 seat 1, the Slicer, gets 1-3 {3, 9p1, 9p2} with You
 * Love Veggies: the collected 3 is offered first and eaten (`eat 3`), then
 * the new slices, the new 3 edible too, are all collected (`collect all`).
 * From then on seat 1 eats everything it may, yet its collected 3 stays: it
 * is never offered again. At the end: +3 for the one eaten Veggie on the
 * Special* line. */
static void test_special_you_love_veggies(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "3", "9p1", "9p2", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2"};
    const char *sp[] = {"tiebreaker", "you-love-veggies", "supersize-combos", "you-like-anchovies", "seconds",
                        "mystery-slice"};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    round1_special_to(&st, 1);
    assert_int_equal(ts_collected(&st, 2, "3a1"), 1);
    round2_to_slicer(&st, "cut 3 5 8 11 special 1");
    assert_view(&st, &r, 1, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"9p1\",\"9p2\"],"
                                       "\"edible\":[true,true,true],\"mystery\":null,\"offered\":\"3\"}");
    play(&st, "eat 3", "collect all", NULL);
    while (st.phase != NYS_PH_OVER) {
        if (st.phase == NYS_PH_EAT_OR_KEEP && st.owner == 1)
            ts_do(&st, "eat");
        else if (st.phase == NYS_PH_PLACE && st.owner == 1)
            eat_every_new(&st);
        else
            plain_step(&st);
    }
    assert_int_equal(ts_eaten(&st, 1, "3"), 1);
    assert_int_equal(ts_collected(&st, 1, "3"), 1);
    nys_guest_check gc;
    nys_score_state(&st, &gc);
    assert_int_equal(gc.line[1].specials, 3);
}

/* NYS-T3, You Love Veggies (004_*: "If you collected any Veggie slices,
 * you may eat them when you receive this Special"): seat 1 takes 3-5
 * {3, 10, 11} with it in round 1 and may eat the Veggie taken with it
 * (`eat 3`). In round 2 seat 1, the Slicer, gets 1-3 {3, 9p1, 9p2}: that
 * later Veggie carries no pepperoni and may not be eaten. At the end: +3
 * for the one eaten Veggie. */
static void test_NYS_T3_you_love_veggies_only_when_received(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "3", "9p1", "9p2", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2"};
    const char *sp[] = {"you-love-veggies", "tiebreaker", "supersize-combos", "you-like-anchovies", "seconds",
                        "mystery-slice"};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    play(&st, "cut 2 5 8 11 special 3", "take 3", NULL);
    assert_view(&st, &r, 0, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"10\",\"11\"],"
                                       "\"edible\":[true,false,false],\"mystery\":null,\"offered\":null}");
    play(&st, "eat 3", "take 6", "take 9", NULL);
    round2_to_slicer(&st, "cut 3 5 8 11 special 1");
    assert_view(&st, &r, 2, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"3\",\"9p1\",\"9p2\"],"
                                       "\"edible\":[false,true,true],\"mystery\":null,\"offered\":null}");
    refused_inedible(&st, "3");
    ts_do(&st, "collect all");
    finish_game(&st);
    assert_int_equal(ts_eaten(&st, 1, "3"), 1);
    assert_int_equal(ts_collected(&st, 1, "3"), 1);
    nys_guest_check gc;
    nys_score_state(&st, &gc);
    assert_int_equal(gc.line[1].specials, 3);
}

/* NYS-E1: Seconds eats only slices of one type that carry pepperoni, never
 * a Combo nor a Veggie without pepperoni, whatever Specials say. Seat 1
 * gets Seconds with 3-5 {3, 10, 11} in round 1, Combo Craving with
 * 1-3 {c5/9, 9p1, 9p2} in round 2 (all collected) and You Love Veggies in
 * round 3 (the collected 3 kept). At the end `seconds 3` is refused (no 3
 * carries pepperoni) and `seconds 9` offers the 9s with pepperoni, not the
 * c5/9. */
static void test_NYS_E1_seconds_never_combos_nor_plain_veggies(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {R1_4P, "c5/9", "9p1", "9p2", "4p1", "5p1", "6p1", "7p1", "9p1a1", "11p1", "4p2", "5p2"};
    const char *sp[] = {"seconds", "combo-craving", "you-love-veggies", "stuffed-crust", "day-old-pizza",
                        "buffet"};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    round1_special_to(&st, 1);
    round2_to_slicer(&st, "cut 3 5 8 11 special 1");
    assert_view(&st, &r, 1, "placing", "{\"seat\":1,\"why\":\"take\",\"slices\":[\"c5/9\",\"9p1\",\"9p2\"],"
                                       "\"edible\":[true,true,true],\"mystery\":null,\"offered\":null}");
    ts_do(&st, "collect all");
    ts_do(&st, "cut 3 5 8 11 special 1");
    play(&st, "take 4", NULL);
    collect_all(&st);
    play(&st, "take 6", NULL);
    collect_all(&st);
    ts_do(&st, "take 1");
    assert_int_equal(st.owner, 1);
    assert_int_equal(st.phase, NYS_PH_EAT_OR_KEEP); /* the collected 3, offered */
    while (st.phase != NYS_PH_SECONDS)
        plain_step(&st);
    assert_int_equal(nys_current_seat(&st), 1);
    assert_true(ts_collected(&st, 1, "3") >= 1);
    assert_int_equal(ts_collected(&st, 1, "c5/9"), 1);
    ts_refused(&st, "seconds 3", "with pepperoni: Seconds eats slices of one type that carry pepperoni");
    ts_do(&st, "seconds 9");
    int offered = 0;
    while (st.phase == NYS_PH_EAT_OR_KEEP) {
        const nys_slice *s = &st.slice[st.queue[st.qpos]];
        assert_true(s->pep > 0 && s->kind == NYS_NUMBERED && s->type == 9);
        ts_do(&st, "eat");
        offered++;
    }
    assert_true(offered >= 2);
    assert_int_equal(ts_collected(&st, 1, "c5/9"), 1);
    assert_int_equal(nys_current_seat(&st), PB_TERMINAL);
}

/* NYS-S3: the Specials on the later stacks and those left in the box stay
 * face down. Two 4-player deals with the same slices and the same round-1
 * Special (Stuffed Crust), one with Dibs!, Cut in Line, Sneak-a-Slice,
 * Seconds and Mystery Slice under it, the other with Buffet, Tiebreaker,
 * Day-Old Pizza, Supersize Combos and You Like Anchovies! (so the boxes
 * differ too): through round 1 -- `cut 2 5 8 11 special 3`, `take 3`,
 * `take 6`, `take 9` -- every seat and a spectator see exactly the same
 * table. Round 2 then reveals Dibs! in one and Buffet in the other. */
static void test_NYS_S3_later_specials_stay_face_down(void **state)
{
    (void)state;
    nys_rules r;
    nys_state x, y;
    const char *ring[] = {R1_4P};
    const char *sx[] = {"stuffed-crust", "dibs", "cut-in-line", "sneak-a-slice", "seconds", "mystery-slice"};
    const char *sy[] = {"stuffed-crust", "buffet", "tiebreaker", "day-old-pizza", "supersize-combos",
                        "you-like-anchovies"};
    static const char *const moves[] = {"cut 2 5 8 11 special 3", "take 3", "take 6", "take 9"};
    deal4(&x, &r, ring, LEN(ring), sx, LEN(sx));
    deal4(&y, &r, ring, LEN(ring), sy, LEN(sy));
    assert_memory_not_equal(x.stack_special, y.stack_special, sizeof x.stack_special);
    for (int m = 0; m < LEN(moves); m++) {
        for (int seat = -1; seat < 4; seat++) {
            json_t *vx = nys_view(&x, &r, seat), *vy = nys_view(&y, &r, seat);
            assert_true(json_equal(vx, vy));
            json_decref(vx);
            json_decref(vy);
        }
        ts_do(&x, moves[m]);
        ts_do(&y, moves[m]);
    }
    assert_int_equal(x.round, 1);
    assert_int_equal(x.today, NYS_DIBS);
    assert_int_equal(y.today, NYS_BUFFET);
}

/* NYS-S3: rounds continue until every stack has been divided, then the game
 * ends. For 2 to 6 players a game played with plain decisions has 4, 6, 6,
 * 5 and 6 rounds; at the end every slice of every stack is in someone's
 * collection or eaten pile, and only the spares (less a Mystery draw) are
 * left. */
static void test_NYS_S3_game_ends_when_every_stack_is_divided(void **state)
{
    (void)state;
    static const int rounds[NYS_MAX_PLAYERS + 1] = {0, 0, 4, 6, 6, 5, 6};
    for (int n = NYS_MIN_PLAYERS; n <= NYS_MAX_PLAYERS; n++) {
        nys_rules r;
        nys_state st;
        ts_rules(&r, n);
        nys_init(&st, &r, 40 + (uint64_t)n);
        int played = 0, last = -1;
        while (st.phase != NYS_PH_OVER) {
            if (st.round != last && st.round < st.rounds) {
                played++;
                last = st.round;
            }
            plain_step(&st);
        }
        assert_int_equal(played, rounds[n]);
        assert_int_equal(st.round, st.rounds);
        assert_int_equal(nys_current_seat(&st), PB_TERMINAL);
        int placed = 0, spares = 0;
        for (int i = 0; i < st.nslices; i++) {
            int kind = NYS_LOC_KIND(st.loc[i]);
            placed += kind == NYS_LOC_COLLECTED || kind == NYS_LOC_EATEN;
            spares += kind == NYS_LOC_SPARE;
        }
        assert_int_equal(placed, NYS_RING * rounds[n] + (st.mystery != NYS_NONE));
        assert_int_equal(placed + spares, st.nslices);
    }
}

/* NYS-T2: collected slices lie with the others of the same value. Round 1,
 * `cut 5 7 9 11 special 1`: seat 1 takes 1-5 {11, 7, 3, 11a1, 8} (nothing
 * edible: collected at once) and its collection reads 3, 7, 8, 11, 11a1 --
 * the two 11s together. Round 2, seat 1 slices `cut 2 5 8 11 special 3` and
 * gets the last portion, 1-2 {c5/9, 3}: the new 3 joins the other 3 and
 * the Combo goes after the numbered slices: 3, 3, 7, 8, 11, 11a1, c5/9. */
static void test_NYS_T2_collection_grouped_by_type(void **state)
{
    (void)state;
    nys_rules r;
    nys_state st;
    const char *deal[] = {"11", "7", "3", "11a1", "8", "10", "3a1", "8a1", "c6/7", "c4/11", "A",
                          "c5/9", "3", "4p1", "5p1", "6p1", "9p1", "9p2", "5p2", "4p2", "6p2", "11p1"};
    const char *sp[] = {"stuffed-crust", "day-old-pizza"};
    deal4(&st, &r, deal, LEN(deal), sp, LEN(sp));
    play(&st, "cut 5 7 9 11 special 1", "take 1", NULL);
    assert_int_equal(nys_current_seat(&st), 2);
    assert_seen(&st, &r, 2, 1, "collected", "[\"3\",\"7\",\"8\",\"11\",\"11a1\"]");
    play(&st, "take 6", "take 8", NULL);
    assert_int_equal(st.round, 1);
    ts_do(&st, "cut 2 5 8 11 special 3");
    static const char *const takes[] = {"take 3", "take 6", "take 9"};
    for (int i = 0; i < LEN(takes); i++) {
        ts_do(&st, takes[i]);
        collect_all(&st);
    }
    assert_int_equal(st.round, 2);
    assert_seen(&st, &r, 0, 1, "collected", "[\"3\",\"3\",\"7\",\"8\",\"11\",\"11a1\",\"c5/9\"]");
}

/* NYS-E5, You Like Anchovies!: anchovies on eaten slices are worth nothing,
 * with the Special as without it. Ann holds it, ate 9p1a1 and 7p1a1 and
 * collected 8a1: pepperonis 2, collected anchovies +1, the eaten ones 0:
 * line 3. Bo, without it, ate 9p2a1 and 11p1a1 and collected 11a1:
 * 3 - 1 = 2. (Ann wins 8, Bo 11; a third player at the table has
 * nothing.) */
static void test_NYS_E5_you_like_anchovies_eaten_anchovies_count_nothing(void **state)
{
    (void)state;
    json_t *rep = score_table(
        "{\"players\": ["
        "{\"collected\": [\"8a1\"], \"eaten\": [\"9p1a1\", \"7p1a1\"], \"specials\": [\"you-like-anchovies\"]},"
        "{\"collected\": [\"11a1\"], \"eaten\": [\"9p2a1\", \"11p1a1\"]},"
        "{}]}");
    assert_line(rep, 0, (line){"[8]", 8, 0, 3, 11, 2});
    assert_line(rep, 1, (line){"[11]", 11, 0, 2, 13, 2});
    assert_line(rep, 2, (line){"[]", 0, 0, 0, 0, 0});
    json_decref(rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_NYS_C1_deck_has_69_slices),
        cmocka_unit_test(test_NYS_C2_type_names_and_deck_file),
        cmocka_unit_test(test_NYS_C3_slice_contents),
        cmocka_unit_test(test_NYS_C4_anchovy_and_supreme),
        cmocka_unit_test(test_NYS_C5_fourteen_specials),
        cmocka_unit_test(test_NYS_S1_two_players_remove_3_8_10_and_combo),
        cmocka_unit_test(test_NYS_S1_five_players_remove_10_and_combo),
        cmocka_unit_test(test_NYS_S1_three_four_six_players_use_all),
        cmocka_unit_test(test_NYS_S2_stacks_of_11_and_3_unseen_spares),
        cmocka_unit_test(test_NYS_S2_spares_and_later_stacks_unseen),
        cmocka_unit_test(test_NYS_S3_rounds_and_specials_per_stack),
        cmocka_unit_test(test_NYS_S4_two_player_replacements),
        cmocka_unit_test(test_NYS_S4_cut_in_line_in_last_round_replaced),
        cmocka_unit_test(test_NYS_C5_held_special_named_in_view_text_in_glossary),
        cmocka_unit_test(test_NYS_S4_never_revealed_where_invalid),
        cmocka_unit_test(test_NYS_S5_first_slicer_table_choice_and_rotation),
        cmocka_unit_test(test_NYS_S5_first_slicer_drawn_from_seed),
        cmocka_unit_test(test_NYS_S6_same_seed_same_game),
        cmocka_unit_test(test_NYS_R1_reveal_special_and_ring_in_order),
        cmocka_unit_test(test_NYS_R2_dibs_takes_one_slice_before_division),
        cmocka_unit_test(test_NYS_R2_dibs_on_the_supreme_attaches_before_division),
        cmocka_unit_test(test_NYS_R3_division_counts_full_ring),
        cmocka_unit_test(test_NYS_R3_illegal_divisions_refused),
        cmocka_unit_test(test_NYS_R3_portions_of_a_division),
        cmocka_unit_test(test_NYS_R4_choosing_order_clockwise_slicer_last),
        cmocka_unit_test(test_NYS_R4_cut_in_line_chooses_first),
        cmocka_unit_test(test_NYS_R4_cut_in_line_not_offered_to_first_chooser),
        cmocka_unit_test(test_NYS_R5_sneak_moves_end_slice_across_gap),
        cmocka_unit_test(test_NYS_R5_sneak_never_empties_a_portion),
        cmocka_unit_test(test_NYS_R5_lone_slice_between_two_portions_moves_onward_only),
        cmocka_unit_test(test_NYS_R6_one_time_powers_once_never_same_round),
        cmocka_unit_test(test_NYS_T1_take_portion_special_and_mystery_draw),
        cmocka_unit_test(test_NYS_T2_only_edible_slices_can_be_eaten),
        cmocka_unit_test(test_NYS_T2_placing_lists_each_choice_once),
        cmocka_unit_test(test_NYS_T2_eat_one_of_two_identical_slices),
        cmocka_unit_test(test_NYS_T2_collect_all_eats_nothing),
        cmocka_unit_test(test_NYS_T2_no_decision_when_nothing_is_edible),
        cmocka_unit_test(test_NYS_T3_combo_craving_eats_at_once_then_only_when_gained),
        cmocka_unit_test(test_NYS_T4_supreme_attaches_to_a_type_in_collection),
        cmocka_unit_test(test_NYS_T4_supreme_joins_the_anchovy_slice),
        cmocka_unit_test(test_NYS_T4_supreme_waits_for_a_type_edition_1),
        cmocka_unit_test(test_NYS_T5_eaten_slices_public_except_mystery),
        cmocka_unit_test(test_NYS_T5_mystery_eaten_apart_from_its_twin),
        cmocka_unit_test(test_NYS_E1_seconds_eats_one_type_with_supreme),
        cmocka_unit_test(test_NYS_E1_seconds_never_combos_nor_plain_veggies),
        cmocka_unit_test(test_NYS_T3_you_love_veggies_only_when_received),
        cmocka_unit_test(test_NYS_E2_type_counts_halves_supreme_supersize),
        cmocka_unit_test(test_NYS_E3_majority_ties_and_tiebreaker),
        cmocka_unit_test(test_NYS_E3_worked_check_lone_half_slice_wins),
        cmocka_unit_test(test_NYS_E3_worked_check_two_way_tie_scores_nothing),
        cmocka_unit_test(test_NYS_E4_special_line),
        cmocka_unit_test(test_NYS_E4_worked_check_diet_7_eaten_loses_3),
        cmocka_unit_test(test_NYS_E5_pepperoni_minus_anchovies),
        cmocka_unit_test(test_NYS_E6_total_and_tie_breaks),
        cmocka_unit_test(test_NYS_E7_guest_check_report_lines),
        cmocka_unit_test(test_NYS_E7_spec_scoring_example_ann_bo_cy),
        cmocka_unit_test(test_special_buffet),
        cmocka_unit_test(test_special_combo_craving),
        cmocka_unit_test(test_special_cut_in_line),
        cmocka_unit_test(test_special_day_old_pizza),
        cmocka_unit_test(test_special_dibs),
        cmocka_unit_test(test_special_everyone_else_diet),
        cmocka_unit_test(test_special_mystery_slice),
        cmocka_unit_test(test_special_seconds),
        cmocka_unit_test(test_special_sneak_a_slice),
        cmocka_unit_test(test_special_stuffed_crust),
        cmocka_unit_test(test_special_supersize_combos),
        cmocka_unit_test(test_special_tiebreaker),
        cmocka_unit_test(test_special_you_like_anchovies),
        cmocka_unit_test(test_special_you_love_veggies),
        cmocka_unit_test(test_NYS_S3_later_specials_stay_face_down),
        cmocka_unit_test(test_NYS_S3_game_ends_when_every_stack_is_divided),
        cmocka_unit_test(test_NYS_T2_collection_grouped_by_type),
        cmocka_unit_test(test_NYS_E5_you_like_anchovies_eaten_anchovies_count_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
