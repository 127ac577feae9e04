/* test_delivery_render.c -- New York Pizza Delivery at the terminal
 * (app/delivery_tui.c): tables, prompts and banners of real views from
 * seeded 2-, 3- and 4-player games driven through the game interface, for
 * every seat and the spectator, in plain text and in colour; the prompt's
 * example and the friendly inputs read as legal moves; another seat's
 * hand never shows; the result has every seat's score (PD-E1); in 5-player
 * games the Instant cards' question, Property Tax (after a delivery and on
 * its player's own turn), Ham's tokens put back and an Out of Supplies
 * debt read as they should, and a card's target is typed by letter. */
#include "support.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ai/bot.h"
#include "../../app/delivery_tui.h"
#include "../../app/front.h"
#include "../../games/delivery/delivery.h"

static const char *const names[] = {"Ann", "Bo", "Cy", "Di", "Ed", "Flo"};

/* Every line at most 80 columns, printable ASCII, ending with a newline. */
static pb_game *new_game(int players)
{
    return ts_game("delivery", players);
}

/* A co-op game (PD-C1) at an easy row, so some games are won. */
static pb_game *new_coop_game(int players)
{
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i,s:b,s:i}", "players", players, "coop", 1, "difficulty", 8);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    if (!g)
        fail_msg("co-op for %d players: %s", players, err);
    return g;
}

/* The three texts of a view, checked for form; returns the table. */
static char *render(const json_t *v, int seat, bool colour)
{
    pb_tui_opts o = {colour, names, seat};
    return ts_render(pb_front_find("delivery"), v, &o);
}

/* `line` as typed at the terminal reads as the legal move `want`. */
static void assert_reads_as(const pb_game *g, const pb_state *st, const json_t *v, const char *line, const char *want)
{
    char notation[256], err[PB_ERR_LEN];
    if (dlv_ui_translate(v, line, notation, sizeof notation, err, sizeof err) != 0)
        fail_msg("\"%s\" refused: %s", line, err);
    pb_action a, b;
    if (g->ops->action_from_text(g, st, notation, &a, err, sizeof err) != 0)
        fail_msg("\"%s\" -> \"%s\" refused: %s", line, notation, err);
    if (want) {
        if (g->ops->action_from_text(g, st, want, &b, err, sizeof err) != 0)
            fail_msg("the move \"%s\" refused: %s", want, err);
        if (a != b)
            fail_msg("\"%s\" read as \"%s\", not \"%s\"", line, notation, want);
    }
}

/* The prompt's example, translated, is a legal move. */
static void check_example(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    pb_tui_opts o = {false, names, seat};
    char *prompt = dlv_tui_prompt(v, &o);
    for (char *s = prompt; *s; s++)
        if (*s == '\n')
            *s = ' ';
    const char *q = strstr(prompt, "For example: \"");
    if (!q)
        fail_msg("no example in the prompt: %s", prompt);
    char example[128];
    assert_int_equal(sscanf(q + 14, "%127[^\"]", example), 1);
    assert_reads_as(g, st, v, example, NULL);
    free(prompt);
}

static int deliveries_listed; /* with their cost, in the tables checked */

/* Each move as the table lists it ("  3 take HK/Ham"), typed in, is that
 * move, and so is its number. */
static void check_listed_moves(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    pb_tui_opts o = {false, names, seat};
    char *table = dlv_tui_table(v, &o);
    const json_t *legal = json_object_get(v, "legal");
    const char *list = strstr(table, "\nYour moves");
    assert_non_null(list);
    int seen = 0;
    for (const char *line = strchr(list + 1, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        for (const char *s = line; s < end; s++) {
            if (!isdigit((unsigned char)*s) || (s > line && s[-1] != ' '))
                continue;
            int k = atoi(s);
            while (isdigit((unsigned char)*s))
                s++;
            if (*s != ' ' || !isalpha((unsigned char)s[1]))
                continue;
            const char *stop = strstr(s + 1, "  ");
            if (!stop || stop > end)
                stop = end;
            char move[128];
            snprintf(move, sizeof move, "%.*s", (int)(stop - s - 1), s + 1);
            const char *want = json_string_value(json_array_get(legal, (size_t)k - 1));
            assert_non_null(want);
            assert_reads_as(g, st, v, move, want);
            deliveries_listed += strncmp(move, "deliver ", 8) == 0 && memchr(stop, '$', (size_t)(end - stop));
            char number[16];
            snprintf(number, sizeof number, "%d", k);
            assert_reads_as(g, st, v, number, want);
            seen++;
            s = stop;
        }
        if (!end[1] || end[1] == '\n' || !strncmp(end + 1, "     (", 6) || !strncmp(end + 1, "     ...", 8))
            break;
    }
    size_t n = json_array_size(legal);
    assert_int_equal(seen, n < 60 ? (int)n : 60);
    free(table);
}

/* A legal move that starts with `prefix`, or NULL. */
static const char *legal_starting(const json_t *v, const char *prefix)
{
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(v, "legal"), i, m)
        if (strncmp(json_string_value(m), prefix, strlen(prefix)) == 0)
            return json_string_value(m);
    return NULL;
}

/* The short forms: m, r, d 2 MT, take N, take deck, pay; and bad input. */
static void check_friendly(const pb_game *g, const pb_state *st, const json_t *v)
{
    const char *phase = json_string_value(json_object_get(v, "phase"));
    char line[64], want[96], out[256], err[PB_ERR_LEN];
    if (legal_starting(v, "market"))
        assert_reads_as(g, st, v, "m", "market");
    if (legal_starting(v, "reputation"))
        assert_reads_as(g, st, v, "r", "reputation");
    size_t i;
    const json_t *d;
    int seat = (int)json_integer_value(json_object_get(v, "seat"));
    json_array_foreach(json_object_get(v, "deliveries"), i, d) {
        /* another player's pizzeria (Copy Cat) by its lot */
        bool theirs = json_integer_value(json_object_get(d, "owner")) != seat;
        const char *from = json_string_value(json_object_get(d, theirs ? "lot" : "from"));
        const char *via = json_string_value(json_object_get(d, "via"));
        via = via && *via ? via : NULL; /* "" or none: by the streets */
        const char *to = json_string_value(json_object_get(d, "to"));
        to = to && *to ? to : NULL; /* a specialty order's zone */
        const char *move = json_string_value(json_object_get(d, "move"));
        int slot = (int)json_integer_value(json_object_get(d, "slot"));
        snprintf(line, sizeof line, "d %d %s%s%s%s%s", slot, from, to ? " " : "", to ? to : "", via ? " " : "",
                 via ? via : "");
        if (move)
            snprintf(want, sizeof want, "%s", move);
        else
            snprintf(want, sizeof want, "deliver %d from %s", slot, from);
        assert_reads_as(g, st, v, line, want);
        snprintf(line, sizeof line, "deliver %d %s%s%s%s%s", slot, from, to ? " to " : "", to ? to : "",
                 via ? " via " : "", via ? via : "");
        assert_reads_as(g, st, v, line, want);
    }
    if (!strcmp(phase, "market") || !strcmp(phase, "bonus")) {
        const json_t *open = json_object_get(v, "open");
        json_array_foreach(open, i, d) {
            snprintf(line, sizeof line, "take %d", (int)i + 1);
            snprintf(want, sizeof want, "take %s", json_string_value(json_object_get(d, "card")));
            for (char *s = want; *s; s++)
                *s = *s == ' ' && s > want + 4 ? '-' : *s;
            assert_reads_as(g, st, v, line, want);
        }
        if (legal_starting(v, "take deck")) {
            assert_reads_as(g, st, v, "take deck", "take deck");
            assert_reads_as(g, st, v, "deck", "take deck");
        }
        snprintf(line, sizeof line, "take %d", (int)json_array_size(open) + 1);
        assert_int_equal(dlv_ui_translate(v, line, out, sizeof out, err, sizeof err), -1);
        assert_non_null(strstr(err, "the open market lists"));
    }
    const char *pay = legal_starting(v, "pay ");
    if (pay)
        assert_reads_as(g, st, v, "pay", pay);
    const char *fine = legal_starting(v, "fine ");
    if (fine)
        assert_reads_as(g, st, v, "fine", fine);
    assert_int_equal(dlv_ui_translate(v, "0", out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, strcmp(phase, "keep") ? "there is no move 0" : "there is no power card 0"));
    assert_int_equal(dlv_ui_translate(v, "launch rocket", out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"launch rocket\" is not a move: a move starts with a word such as\n"));
    assert_non_null(strstr(err, "You are asked\n"));
    for (const char *row = err; *row;) { /* the refusal fits the terminal */
        size_t len = strcspn(row, "\n");
        if (len > 80)
            fail_msg("a refusal line of %zu columns: %.*s", len, (int)len, row);
        row += len + (row[len] == '\n');
    }
    /* a move the list does not have goes to the engine, which says why */
    assert_int_equal(dlv_ui_translate(v, "d 7 HA", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "deliver 7 from HA");
    pb_action a;
    assert_int_equal(g->ops->action_from_text(g, st, out, &a, err, sizeof err), -1);
    if (!strstr(err, "there is no order 7"))
        fail_msg("the engine's refusal of \"d 7 HA\" in phase %s: %s", phase, err);
    /* the notation passes through: every legal move as the engine writes it,
     * in any case */
    size_t k;
    const json_t *m;
    json_array_foreach(json_object_get(v, "legal"), k, m) {
        char upper[256];
        snprintf(upper, sizeof upper, "%s", json_string_value(m));
        for (char *s = upper; *s; s++)
            *s = (char)toupper((unsigned char)*s);
        assert_reads_as(g, st, v, json_string_value(m), json_string_value(m));
        assert_reads_as(g, st, v, upper, json_string_value(m));
    }
}

/* ---- a payment in progress ---- */

/* The short name the table writes for a card ("FD/Meatballs"). */
static void short_name(const json_t *v, const char *card, char *out, size_t n)
{
    const char *slash = strrchr(card, '/');
    snprintf(out, n, "%s", card);
    size_t i;
    const json_t *village;
    json_array_foreach(json_object_get(json_object_get(v, "map"), "villages"), i, village) {
        const char *name = json_string_value(json_object_get(village, "name"));
        if (slash && strlen(name) == (size_t)(slash - card) && strncmp(card, name, strlen(name)) == 0)
            snprintf(out, n, "%s%s", json_string_value(json_object_get(village, "code")), slash);
    }
    for (char *s = out; *s; s++)
        *s = *s == ' ' ? '-' : *s;
}

static int cards_in(const json_t *cards)
{
    int n = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(cards, i, c)
        n += (int)json_integer_value(json_object_get(c, "count"));
    return n;
}

static int payments_seen; /* tables drawn while a payment had something set aside */

/* While the seat pays for a build or a delivery, its table shows what is
 * left: its hand without the cards set aside, the build's card too (their
 * count as well; a card all set aside not listed) and its money less what
 * is paid so far, in its own row and, drawn as a step, beside "You have". */
static int powers_paid_seen; /* payments with a power card the checks met */

static void check_payment_left(const json_t *v, int seat, const char *table)
{
    const json_t *pe = json_object_get(v, "pending");
    const char *kind = json_string_value(json_object_get(pe, "kind"));
    int paid = (int)json_integer_value(json_object_get(pe, "money"));
    if (!kind || (strcmp(kind, "build") && strcmp(kind, "deliver")) ||
        json_integer_value(json_object_get(v, "whose_turn")) != seat)
        return;
    /* a power card paid with is no longer listed as held */
    size_t pi;
    const json_t *pw;
    json_array_foreach(json_object_get(pe, "powers"), pi, pw) {
        const char *line = strstr(table, "power cards:"), *eol = line ? strchr(line, '\n') : NULL;
        const char *at = line ? strstr(line, json_string_value(pw)) : NULL;
        if (at && (!eol || at < eol))
            fail_msg("%s, paid with, is still listed among the power cards held:\n%s", json_string_value(pw), table);
        powers_paid_seen++;
    }
    /* the cards paid so far, and a build's card */
    json_t *aside = json_deep_copy(json_object_get(pe, "cards"));
    if (!strcmp(kind, "build"))
        json_array_append_new(aside, json_pack("{s:O,s:i}", "card", json_object_get(pe, "card"), "count", 1));
    if (!cards_in(aside) && !paid) {
        json_decref(aside);
        return;
    }
    const json_t *me = json_array_get(json_object_get(v, "players"), (size_t)seat);
    int money = (int)json_integer_value(json_object_get(me, "money")) - paid;
    int left = cards_in(json_object_get(v, "hand")) - cards_in(aside);
    char want[96];
    const char *hand = strstr(table, "Your hand ("), *purse = strstr(table, "You have $");
    if (hand) {
        snprintf(want, sizeof want, "Your hand (%d):", left);
        if (strncmp(hand, want, strlen(want)) != 0)
            fail_msg("\"%s\" wanted, %d set aside and $%d paid:\n%s", want, cards_in(aside), paid, table);
        char row[32];
        snprintf(row, sizeof row, "\n %c %s ", 'A' + seat, names[seat]);
        const char *mine = strstr(table, row);
        snprintf(want, sizeof want, "$%d ", money);
        if (json_object_get(v, "coop")) { /* the team's money, in its panel */
            money = (int)json_integer_value(json_object_get(json_object_get(v, "coop"), "money")) - paid;
            mine = strstr(table, "TEAM (co-op)");
            snprintf(want, sizeof want, "money $%d of", money);
        }
        if (!mine || !strstr(mine, want) || strstr(mine, want) > strchr(mine + 1, '\n'))
            fail_msg("%s's row without %s, $%d paid so far:\n%s", names[seat], want, paid, table);
    } else {
        assert_non_null(purse);
        if (json_object_get(v, "coop"))
            money = (int)json_integer_value(json_object_get(json_object_get(v, "coop"), "money")) - paid;
        snprintf(want, sizeof want, "You have $%d; your hand (%d):", money, left);
        if (strncmp(purse, want, strlen(want)) != 0)
            fail_msg("\"%s\" wanted:\n%s", want, table);
        hand = purse;
    }
    const char *end = hand + strlen(hand), *now = strstr(hand, "Now:"), *moves = strstr(hand, "Your moves");
    end = now && now < end ? now : end;
    end = moves && moves < end ? moves : end;
    size_t i, k;
    const json_t *c, *h;
    json_array_foreach(aside, i, c)
        json_array_foreach(json_object_get(v, "hand"), k, h) {
            if (strcmp(json_string_value(json_object_get(c, "card")), json_string_value(json_object_get(h, "card"))) ||
                json_integer_value(json_object_get(c, "count")) != json_integer_value(json_object_get(h, "count")))
                continue;
            char name[96];
            short_name(v, json_string_value(json_object_get(c, "card")), name, sizeof name);
            const char *at = strstr(hand, name);
            if (at && at < end)
                fail_msg("%s, set aside, still listed in the hand:\n%s", name, table);
        }
    json_decref(aside);
    payments_seen++;
}

/* ---- secrecy ---- */

typedef char *(*seat_render)(const pb_game *g, const pb_state *st, int seat);

static char *table_of(const pb_game *g, const pb_state *st, int seat)
{
    json_t *v = g->ops->view(g, st, seat);
    pb_tui_opts o = {false, names, seat};
    char *t = dlv_tui_table(v, &o);
    json_decref(v);
    return t;
}

/* A renderer with a planted leak: it also prints the next seat's hand. */
static char *leaky_table_of(const pb_game *g, const pb_state *st, int seat)
{
    char *mine = table_of(g, st, seat), *theirs = table_of(g, st, (seat + 1) % g->players);
    const char *hand = strstr(theirs, "Your hand");
    size_t n = hand ? strcspn(hand, "\n") : 0;
    char *out = malloc(strlen(mine) + n + 2);
    assert_non_null(out);
    sprintf(out, "%s%.*s\n", mine, (int)n, hand ? hand : "");
    free(mine);
    free(theirs);
    return out;
}

/* Whether the seat's table is the same text whatever the hidden cards are:
 * the others' hands and power cards, the decks, the tip values. */
static bool same_when_hidden_changes(const pb_game *g, const pb_state *st, int seat, uint64_t seed, seat_render r)
{
    pb_state *det = pb_state_clone(g, st);
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    g->ops->determinize(g, det, seat, &rng);
    char *a = r(g, st, seat), *b = r(g, det, seat);
    bool same = strcmp(a, b) == 0;
    free(a);
    free(b);
    free(det);
    return same;
}

/* ---- the games ---- */

static pb_action next_move(const pb_game *g, const pb_state *st, pb_rng *rng, pb_bot *bot, int seat)
{
    if (bot && seat % 2 == 0)
        return pb_bot_choose(bot, g, st, seat);
    static pb_action all[PB_MAX_ACTIONS];
    int n = g->ops->legal_actions(g, st, all);
    /* deliveries whenever one may be made, to reach the delivery steps */
    for (int i = 0; i < n; i++)
        if (PD_KIND(all[i]) == PD_A_DELIVER && pb_rng_below(rng, 3) > 0)
            return all[i];
    return all[pb_rng_below(rng, (uint32_t)n)];
}

static void test_tables_of_seeded_games(void **state)
{
    (void)state;
    int leaks_caught = 0, phases_seen = 0;
    char phases[32][16] = {{0}};
    /* 2 to 6 players, then co-op for 1 and 3 */
    for (int table = 2; table <= 8; table++) {
        int players = table <= 6 ? table : table == 7 ? 1 : 3;
        pb_game *g = table <= 6 ? new_game(players) : new_coop_game(players);
        uint64_t seed = (uint64_t)table;
        char err[PB_ERR_LEN];
        pb_bot *bot = pb_bot_new("greedy", seed, err, sizeof err);
        assert_non_null(bot);
        pb_state *st = pb_state_new(g, seed * 17 + (uint64_t)players);
        pb_rng rng;
        pb_rng_seed(&rng, seed * 7);
        for (int moves = 0;; moves++) {
            int mover = pb_current_seat(g, st);
            for (int seat = -1; seat < players; seat++) {
                json_t *v = g->ops->view(g, st, seat);
                char *drawn = render(v, seat, moves % 3 == 0), *plain = ts_strip_ansi(drawn);
                check_payment_left(v, seat, plain);
                free(drawn);
                free(plain);
                if (seat >= 0 && seat == mover) {
                    const char *phase = json_string_value(json_object_get(v, "phase"));
                    int k = 0;
                    while (k < phases_seen && strcmp(phases[k], phase))
                        k++;
                    if (k == phases_seen && k < 32)
                        snprintf(phases[phases_seen++], sizeof phases[0], "%s", phase);
                    check_example(g, st, v, seat);
                    check_listed_moves(g, st, v, seat);
                    check_friendly(g, st, v);
                }
                /* at the end every tip is face up: nothing is hidden */
                if (seat >= 0 && moves % 4 == 0 && !pb_is_terminal(g, st)) {
                    uint64_t s2 = seed * 1000 + (uint64_t)moves;
                    if (!same_when_hidden_changes(g, st, seat, s2, table_of))
                        fail_msg("seat %d's table shows something hidden (move %d)", seat, moves);
                    leaks_caught += !same_when_hidden_changes(g, st, seat, s2, leaky_table_of);
                }
                json_decref(v);
            }
            if (pb_is_terminal(g, st))
                break;
            assert_int_equal(g->ops->apply(g, st, next_move(g, st, &rng, bot, mover), err, sizeof err), 0);
        }
        free(st);
        pb_bot_free(bot);
        pb_game_free(g);
    }
    /* the planted leak of another seat's hand is caught */
    assert_true(leaks_caught > 0);
    assert_true(deliveries_listed > 0);
    assert_true(payments_seen > 0);
    assert_true(powers_paid_seen > 0); /* a power card among a payment's */
    /* the games went through the decisions worth drawing */
    static const char *const wanted[] = {"keep", "start", "market", "reputation", "pay",
                                         "supply", "distance", "fine", "transfer"};
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        int k = 0;
        while (k < phases_seen && strcmp(phases[k], wanted[i]))
            k++;
        if (k == phases_seen)
            fail_msg("no %s decision in the games", wanted[i]);
    }
}

/* The table at the start of a turn: the map with every village's zone and
 * lots, four orders, the open market numbered, every player, your hand. */
static void test_table_contents(void **state)
{
    (void)state;
    pb_game *g = new_game(4);
    pb_state *st = pb_state_new(g, 3);
    char err[PB_ERR_LEN];
    /* the first moves listed, up to seat A's first turn */
    while (((pd_state *)(void *)st)->phase != PD_PH_START || pb_current_seat(g, st) != 0) {
        static pb_action all[PB_MAX_ACTIONS];
        assert_true(g->ops->legal_actions(g, st, all) > 0);
        assert_int_equal(g->ops->apply(g, st, all[0], err, sizeof err), 0);
    }
    json_t *v = g->ops->view(g, st, 0);
    pb_tui_opts o = {false, names, 0};
    char *table = dlv_tui_table(v, &o);
    static const char *const shown[] = {"Villages, lots", "HA Harlem", "FD Financial District", "CP Central Park",
                                        "HA-1 $2", "MT-2 $8", "Orders", "Open market (take N): 1:", "A Ann",
                                        "D Di", "Your hand (5):", "Your moves", "1 market"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (!strstr(table, shown[i]))
            fail_msg("\"%s\" not in the table:\n%s", shown[i], table);
    /* the map: the zones of all nine villages, drawn once each */
    static const char *const zones[] = {" HA ", " UW ", " UE ", " CP ", " HK ", " MT ", " GV ", " EV ", " FD "};
    const char *map_end = strstr(table, "\nOrders");
    for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++) {
        const char *z = strstr(table, zones[i]);
        if (!z || z > map_end)
            fail_msg("zone%snot on the map:\n%s", zones[i], table);
    }
    /* order slots 1-4 */
    const char *orders = strstr(table, "Orders");
    for (int s = 1; s <= 4; s++) {
        char slot[8];
        snprintf(slot, sizeof slot, "\n %d ", s);
        assert_non_null(strstr(orders, slot));
    }
    free(table);
    /* a spectator has no hand and no moves; the others are waited for */
    json_t *spec = g->ops->view(g, st, PB_SPECTATOR);
    pb_tui_opts so = {false, names, PB_SPECTATOR};
    table = dlv_tui_table(spec, &so);
    assert_null(strstr(table, "Your hand"));
    assert_null(strstr(table, "Your moves"));
    char *prompt = dlv_tui_prompt(spec, &so);
    assert_string_equal(prompt, "Waiting for A Ann to choose an action.\n");
    free(prompt);
    free(table);
    json_decref(spec);
    json_decref(v);
    free(st);
    pb_game_free(g);
}

/* A built pizzeria shows on the map as its owner's letter and level disks,
 * and in the village's line instead of the lot's price. */
static void test_pizzeria_on_the_map(void **state)
{
    (void)state;
    pb_game *g = new_game(2);
    pb_state *st = pb_state_new(g, 9);
    char err[PB_ERR_LEN];
    pb_rng rng;
    pb_rng_seed(&rng, 9);
    for (int i = 0; i < 4000 && !pb_is_terminal(g, st); i++) {
        json_t *v = g->ops->view(g, st, 0);
        const json_t *pz = json_array_get(json_object_get(json_array_get(json_object_get(v, "players"), 1),
                                                          "pizzerias"), 0);
        if (pz) {
            char mark[32];
            pb_tui_opts o = {false, names, 0};
            char *table = dlv_tui_table(v, &o);
            snprintf(mark, sizeof mark, "%s B%d", json_string_value(json_object_get(pz, "lot")),
                     (int)json_integer_value(json_object_get(pz, "disks")));
            if (!strstr(table, mark))
                fail_msg("\"%s\" not in:\n%s", mark, table);
            snprintf(mark, sizeof mark, " B%d", (int)json_integer_value(json_object_get(pz, "disks")));
            const char *on_map = strstr(table, mark);
            assert_true(on_map && on_map < strstr(table, "\nOrders"));
            free(table);
            json_decref(v);
            free(st);
            pb_game_free(g);
            return;
        }
        json_decref(v);
        assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), err, sizeof err), 0);
    }
    fail_msg("seat B never built");
}

/* An upgrade that leaves a pizzeria over its reputation limit: the prompt
 * says what is over and how to remove it, and every listed way reads back
 * typed short ("remove ha disk"); upgrades that put another card on top
 * read back too. */
static void test_over_the_limit_prompt(void **state)
{
    (void)state;
    pb_game *g = new_game(2);
    pb_state *st = pb_state_new(g, 31);
    char err[PB_ERR_LEN], out[256];
    pb_rng rng;
    pb_rng_seed(&rng, 31);
    bool top_seen = false;
    for (int i = 0; i < 20000 && !pb_is_terminal(g, st); i++) {
        int mover = pb_current_seat(g, st);
        json_t *v = g->ops->view(g, st, mover);
        const char *phase = json_string_value(json_object_get(v, "phase"));
        size_t k;
        const json_t *m;
        json_array_foreach(json_object_get(v, "legal"), k, m) {
            const char *move = json_string_value(m);
            if (strncmp(move, "upgrade ", 8) != 0 || !strstr(move, " top ") || top_seen)
                continue;
            assert_int_equal(dlv_ui_translate(v, move, out, sizeof out, err, sizeof err), 0);
            assert_string_equal(out, move);
            top_seen = true;
        }
        if (!strcmp(phase, "trim")) {
            pb_tui_opts o = {false, names, mover};
            char *prompt = dlv_tui_prompt(v, &o);
            const json_t *pe = json_object_get(v, "pending");
            char want[160];
            snprintf(want, sizeof want, "The upgrade left your pizzeria in %s over its reputation limit by %d",
                     json_string_value(json_object_get(pe, "village")), (int)json_integer_value(json_object_get(pe, "due")));
            if (!strstr(prompt, want))
                fail_msg("\"%s\" not in:\n%s", want, prompt);
            json_array_foreach(json_object_get(v, "legal"), k, m) {
                char typed[128];
                snprintf(typed, sizeof typed, "%s", json_string_value(m));
                for (char *c = typed; *c; c++)
                    *c = (char)tolower((unsigned char)*c);
                assert_int_equal(dlv_ui_translate(v, typed, out, sizeof out, err, sizeof err), 0);
                assert_string_equal(out, json_string_value(m));
            }
            free(prompt);
            if (top_seen) {
                json_decref(v);
                free(st);
                pb_game_free(g);
                return;
            }
        }
        json_decref(v);
        assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), err, sizeof err), 0);
        if (pb_is_terminal(g, st)) { /* the next game */
            free(st);
            st = pb_state_new(g, 32 + (uint64_t)i);
        }
    }
    fail_msg("no upgrade over the limit, or none choosing the top card");
}

/* What a test of 5-player games does at each position: looks at the
 * mover's view and chooses the move (text that lasts as long as the view). */
typedef const char *(*position_fn)(const pb_game *g, const pb_state *st, const json_t *v, int mover, pb_rng *rng);

/* Random 5-player games (the expansion box) from seed 1, driven by the
 * moves' text, until `enough` says all was seen or after `max` games. */
static void play_five_player_games(int max, bool (*enough)(void), position_fn look)
{
    for (uint64_t seed = 1; seed <= (uint64_t)max && !enough(); seed++) {
        pb_game *g = new_game(5);
        pb_state *st = pb_state_new(g, seed);
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        char err[PB_ERR_LEN];
        while (!pb_is_terminal(g, st)) {
            int mover = pb_current_seat(g, st);
            json_t *v = g->ops->view(g, st, mover);
            const char *move = look(g, st, v, mover, &rng);
            if (pb_apply_text(g, st, move, err, sizeof err) != 0)
                fail_msg("\"%s\": %s", move, err);
            json_decref(v);
        }
        free(st);
        pb_game_free(g);
    }
}

static bool copy_cat_seen, sale_seen, pending_seen;

static bool copy_cat_and_sale_seen(void)
{
    return copy_cat_seen && sale_seen && pending_seen;
}

/* Checks what Copy Cat and Special Sale show; plays both whenever it can. */
static const char *look_at_copy_cat_and_sale(const pb_game *g, const pb_state *st, const json_t *v, int mover,
                                             pb_rng *rng)
{
    const pd_state *ps = (const pd_state *)(const void *)st;
    int cards[] = {ps->rules->pc[PD_PC_COPY_CAT], ps->rules->pc[PD_PC_SPECIAL_SALE]};
    bool theirs = false;
    size_t i;
    const json_t *d;
    json_array_foreach(json_object_get(v, "deliveries"), i, d)
        theirs |= json_integer_value(json_object_get(d, "owner")) != mover;
    bool sale = json_is_true(json_object_get(v, "special_sale")) && ps->phase == PD_PH_START;
    const json_t *pe = json_object_get(v, "pending");
    if (ps->phase == PD_PH_SUPPLY && ps->pending.owner != ps->seat) { /* being made from their pizzeria */
        pb_tui_opts o = {false, names, mover};
        char *table = dlv_tui_table(v, &o), text[64];
        snprintf(text, sizeof text, "from %s (Copy Cat),", json_string_value(json_object_get(pe, "lot")));
        if (!strstr(table, text) || !strstr(table, "'s pizzeria;"))
            fail_msg("\"%s\" not in:\n%s", text, table);
        free(table);
        pending_seen = true;
    }
    if (theirs || sale) {
        pb_tui_opts o = {false, names, mover};
        char *table = dlv_tui_table(v, &o), *prompt = dlv_tui_prompt(v, &o);
        if (theirs) {
            assert_non_null(strstr(table, "(from a lot: another player's pizzeria, Copy Cat"));
            assert_non_null(strstr(prompt, "\"d ORDER LOT\" from another player's, Copy Cat"));
            copy_cat_seen = true;
        }
        if (sale) {
            assert_non_null(strstr(table, "     Special Sale"));
            assert_non_null(strstr(prompt, "Special Sale: this turn's delivery needs every ingredient twice"));
            sale_seen = true;
        }
        check_listed_moves(g, st, v, mover);
        check_friendly(g, st, v);
        check_example(g, st, v, mover);
        free(table);
        free(prompt);
    }
    static pb_action all[PB_MAX_ACTIONS];
    int n = g->ops->legal_actions(g, st, all);
    pb_action a = next_move(g, st, rng, NULL, mover);
    for (int k = 0; k < n; k++)
        if (PD_KIND(all[k]) == PD_A_POWER && ((int)PD_ARG(all[k]) == cards[0] || (int)PD_ARG(all[k]) == cards[1]))
            a = all[k];
    static char move[256];
    assert_int_equal(g->ops->action_to_text(g, st, a, move, sizeof move), 0);
    return move;
}

/* Copy Cat's deliveries from another player's pizzeria are listed by its
 * lot, explained under the list and typed the short way ("d 2 HK-2"); a
 * Special Sale played shows next to the deliveries and in the prompt.
 * Random 5-player games that play both cards whenever they can. */
static void test_copy_cat_and_special_sale(void **state)
{
    (void)state;
    play_five_player_games(60, copy_cat_and_sale_seen, look_at_copy_cat_and_sale);
    assert_true(copy_cat_seen);
    assert_true(sale_seen);
    assert_true(pending_seen);
}

/* PD-E1: the result has every seat's name, the parts of the score and the
 * winner(s). */
static void test_result(void **state)
{
    (void)state;
    for (int players = 2; players <= 4; players++) {
        pb_game *g = new_game(players);
        pb_state *st = pb_state_new(g, 40 + (uint64_t)players);
        pb_rng rng;
        pb_rng_seed(&rng, 5);
        char err[PB_ERR_LEN];
        while (!pb_is_terminal(g, st))
            assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), err, sizeof err), 0);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        dlv_print_result(f, g, st, names);
        fclose(f);
        assert_non_null(strstr(text, "money  tableau  disks   tips   score"));
        int totals[PB_MAX_SEATS];
        g->ops->totals(g, st, totals);
        for (int s = 0; s < players; s++) {
            char row[64];
            snprintf(row, sizeof row, "%c %s", 'A' + s, names[s]);
            const char *line = strstr(text, row);
            if (!line)
                fail_msg("no line for %s in:\n%s", names[s], text);
            char score[16];
            snprintf(score, sizeof score, " %d ", totals[s]);
            const char *eol = strchr(line, '\n');
            const char *at = strstr(line, score);
            assert_true(at && at < eol);
        }
        assert_true(strstr(text, "\nWinner: ") || strstr(text, "\nShared win: "));
        free(text);
        /* the final table shows every score; no prompt, no banner */
        json_t *v = g->ops->view(g, st, 0);
        pb_tui_opts o = {false, names, 0};
        char *table = dlv_tui_table(v, &o), *prompt = dlv_tui_prompt(v, &o);
        assert_non_null(strstr(table, "(game over)"));
        assert_string_equal(prompt, "");
        assert_null(dlv_tui_banner(v, &o));
        free(table);
        free(prompt);
        json_decref(v);
        free(st);
        pb_game_free(g);
    }
}

/* PD-C1: the team's panel is on every table; the result is the team's. */
static void test_coop_table_and_result(void **state)
{
    (void)state;
    pb_game *g = new_coop_game(2);
    pb_state *st = pb_state_new(g, 77);
    pb_rng rng;
    pb_rng_seed(&rng, 3);
    char err[PB_ERR_LEN];
    json_t *v = g->ops->view(g, st, 0);
    pb_tui_opts o = {false, names, 0};
    char *table = dlv_tui_table(v, &o);
    assert_non_null(strstr(table, "TEAM (co-op) money $0 of $40, pizzas 0 of 18; today is Saturday"));
    assert_non_null(strstr(table, "Friday evening (every week)"));
    assert_non_null(strstr(table, "First round: everyone builds"));
    free(table);
    json_decref(v);
    while (!pb_is_terminal(g, st))
        assert_int_equal(g->ops->apply(g, st, g->ops->random_action(g, st, &rng), err, sizeof err), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    dlv_print_result(f, g, st, names);
    fclose(f);
    double r[PB_MAX_SEATS];
    g->ops->returns(g, st, r);
    assert_non_null(strstr(text, r[0] > 0 ? "The team WINS: " : "The team loses: "));
    assert_non_null(strstr(text, r[0] > 0 ? "\nRecord: Win 2PL - B19 - R21 - P18 - M40\n" : "\nRecord: Loss 2PL - B19 - R21 - P18 - M40\n"));
    assert_null(strstr(text, "Winner: "));
    free(text);
    free(st);
    pb_game_free(g);
}

/* A power card, wherever it is, into a seat's hand. */
static void power_to_hand(pd_state *st, int seat, const char *id)
{
    int p = pd_power_find(&st->rules->data.cards, id);
    assert_true(p >= 0);
    for (int i = 0; i < st->npower_deck; i++)
        if (st->power_deck[i] == p)
            st->power_deck[i--] = st->power_deck[--st->npower_deck];
    for (int s = 0; s < st->players; s++)
        st->player[s].powers &= ~(1ull << p);
    st->power_discard &= ~(1ull << p);
    st->player[seat].powers |= 1ull << p;
}

static void play_text(const pb_game *g, pb_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (g->ops->action_from_text(g, st, text, &a, err, sizeof err) != 0 ||
        g->ops->apply(g, st, a, err, sizeof err) != 0)
        fail_msg("\"%s\": %s", text, err);
}

/* Pandemic's Orders 5 and 6 are listed while they are there; Power
 * Outage's dark orders say until whose turn, and so does the global. */
static void test_pandemic_and_power_outage_shown(void **state)
{
    (void)state;
    pb_game *g = new_game(5);
    pb_state *st = pb_state_new(g, 8);
    pd_state *pd = (pd_state *)(void *)st;
    char err[PB_ERR_LEN];
    while (pd->phase != PD_PH_START || pb_current_seat(g, st) != 0) {
        static pb_action all[PB_MAX_ACTIONS];
        assert_true(g->ops->legal_actions(g, st, all) > 0);
        assert_int_equal(g->ops->apply(g, st, all[0], err, sizeof err), 0);
    }
    power_to_hand(pd, 0, "pandemic");
    power_to_hand(pd, 1, "power-outage");
    play_text(g, st, "play power:pandemic");
    play_text(g, st, "market");
    play_text(g, st, "take deck");
    play_text(g, st, "take deck");
    assert_int_equal(pb_current_seat(g, st), 1);
    json_t *v = g->ops->view(g, st, 0);
    pb_tui_opts o = {false, names, 0};
    char *table = dlv_tui_table(v, &o);
    assert_null(strstr(table, "On top of the market deck"));
    free(table);
    json_decref(v);
    play_text(g, st, "play power:power-outage");
    v = g->ops->view(g, st, 0);
    table = dlv_tui_table(v, &o);
    /* the orders' cards went on top of the deck: everyone saw which */
    const char *top = strstr(table, "On top of the market deck, in some order:");
    assert_non_null(top);
    assert_true(pd->known_top > 0);
    char first[96];
    pd_card_name(&pd->rules->data, pd->deck[pd->ndeck - 1], first, sizeof first);
    const char *slash = strchr(first, '/'); /* the table writes a card by its ingredient after the village */
    assert_non_null(strstr(top, slash + 1));
    const char *orders = strstr(table, "\nOrders");
    assert_non_null(orders);
    static const char *const shown[] = {"\n 5 ", "\n 6 ", "no ingredients: Power Outage until Bo's turn",
                                        "Global card in play: power-outage until Bo's turn"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++)
        if (!strstr(i < 3 ? orders : table, shown[i]))
            fail_msg("\"%s\" not in the table:\n%s", shown[i], table);
    free(table);
    json_decref(v);
    free(st);
    pb_game_free(g);
}

/* Friendly input: ambiguous beginnings are refused with the choices. */
static void assert_shows(const char *text, const char *want);

static void test_translate(void **state)
{
    (void)state;
    pb_game *g = new_game(3);
    pb_state *st = pb_state_new(g, 21);
    char err[PB_ERR_LEN], out[256];
    json_t *v = g->ops->view(g, st, pb_current_seat(g, st));
    /* the keep decision: two power cards */
    assert_int_equal(dlv_ui_translate(v, "keep", out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"keep\" could be more than one move:\n   keep power:"));
    assert_int_equal(dlv_ui_translate(v, "3", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "there is no power card 3: keep 1 or keep 2, as numbered");
    assert_int_equal(dlv_ui_translate(v, "2", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, json_string_value(json_array_get(json_object_get(v, "legal"), 1)));
    /* both cards to keep are explained: name and text */
    pb_tui_opts o = {false, names, pb_current_seat(g, st)};
    char *table = dlv_tui_table(v, &o);
    size_t i;
    const json_t *id;
    json_array_foreach(json_object_get(v, "keep_from"), i, id) {
        const json_t *card = json_object_get(json_object_get(v, "power_cards"), json_string_value(id));
        char want[1100];
        snprintf(want, sizeof want, "%d %s (%s, %s): %s", (int)i + 1, json_string_value(json_object_get(card, "name")),
                 json_string_value(id), json_string_value(json_object_get(card, "type")),
                 json_string_value(json_object_get(card, "text")));
        assert_shows(table, want);
    }
    assert_int_equal(i, 2);
    free(table);
    /* keep 1 / keep 2 (and 1 / 2) keep the card numbered so; the prompt says so */
    char *prompt = dlv_tui_prompt(v, &o);
    assert_shows(prompt, "Keep one of the two power cards dealt to you (1 or 2); the other goes back");
    free(prompt);
    static const char *const kept[][2] = {{"keep 1", "0"}, {"KEEP 2", "1"}, {"1", "0"}, {"2", "1"}, {"keep  2", "1"}};
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        char want[96];
        snprintf(want, sizeof want, "keep power:%s",
                 json_string_value(json_array_get(json_object_get(v, "keep_from"), (size_t)atoi(kept[k][1]))));
        assert_reads_as(g, st, v, kept[k][0], want);
    }
    assert_int_equal(dlv_ui_translate(v, "keep 3", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "there is no power card 3: keep 1 or keep 2, as numbered");
    /* a move passed to the engine keeps the player's cards and villages as typed */
    assert_int_equal(dlv_ui_translate(v, "build HA-1 UE/Tomatoes", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "build HA-1 UE/Tomatoes");
    assert_int_equal(dlv_ui_translate(v, "D 1 FROM HA", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "deliver 1 from HA");
    assert_int_equal(dlv_ui_translate(v, "d 2 MT Boat", out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "deliver 2 from MT via boat");
    json_decref(v);
    /* at the action step a build is refused with the way to it: r first */
    while (((pd_state *)(void *)st)->phase != PD_PH_START) {
        static pb_action all[PB_MAX_ACTIONS];
        assert_true(g->ops->legal_actions(g, st, all) > 0);
        assert_int_equal(g->ops->apply(g, st, all[0], err, sizeof err), 0);
    }
    v = g->ops->view(g, st, pb_current_seat(g, st));
    assert_non_null(legal_starting(v, "reputation"));
    assert_int_equal(dlv_ui_translate(v, "b FD-1 FD/Pineapple", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "\"build FD-1 FD/Pineapple\": build is a step of the reputation action:\n"
                             "type r (reputation) first, then build.");
    json_decref(v);
    free(st);
    pb_game_free(g);
}

/* ---- Instant cards and Out of Supplies (the 5-6 player box) ---- */

/* A legal move of the view beginning with `prefix`, chosen at random among
 * them, or NULL. */
static const char *some_legal(const json_t *v, const char *prefix, pb_rng *rng)
{
    const char *found[PB_MAX_ACTIONS];
    int n = 0;
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(v, "legal"), i, m)
        if (strncmp(json_string_value(m), prefix, strlen(prefix)) == 0 && n < PB_MAX_ACTIONS)
            found[n++] = json_string_value(m);
    return n ? found[pb_rng_below(rng, (uint32_t)n)] : NULL;
}

/* The text of the seat's table or prompt contains `want`. */
static void assert_shows(const char *text, const char *want)
{
    char *plain = strdup(text);
    assert_non_null(plain);
    for (char *s = plain; *s; s++) /* the words wrap: read them as one line */
        *s = *s == '\n' ? ' ' : *s;
    for (char *s = plain; *s; s++) /* and the indent of a wrapped line as one blank */
        if (*s == ' ')
            memmove(s + 1, s + 1 + strspn(s + 1, " "), strlen(s + 1 + strspn(s + 1, " ")) + 1);
    if (!strstr(plain, want))
        fail_msg("\"%s\" not in:\n%s", want, text);
    free(plain);
}

static int refused_targets; /* Property Tax typed on a player it cannot go on */

/* The Instant question as the asked seat reads it: the delivery, each card
 * it can play by name with the exact move (Property Tax with what each
 * opponent would pay, as the engine counts it), and "done". */
static void check_instant_prompt(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    pb_tui_opts o = {false, names, seat};
    char *prompt = dlv_tui_prompt(v, &o), *table = dlv_tui_table(v, &o), want[200];
    int d = pd->instant_deliverer;
    snprintf(want, sizeof want, "Instant cards: %c %s's delivery (%d tip token%s) is complete, and you may answer it:",
             'A' + d, names[d], pd->delivery_tips, pd->delivery_tips == 1 ? "" : "s");
    assert_shows(prompt, want);
    snprintf(want, sizeof want, "Now: %c %s's delivery (%d tip token", 'A' + d, names[d], pd->delivery_tips);
    assert_shows(table, want);
    assert_shows(prompt, "or \"done\" to play none.");
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(v, "legal"), i, m) {
        const char *move = json_string_value(m);
        int target = 0;
        char id[64];
        if (sscanf(move, "instant power:%63s on %d", id, &target) < 1)
            continue;
        const char *name = json_string_value(
            json_object_get(json_object_get(json_object_get(v, "power_cards"), id), "name"));
        assert_non_null(name);
        if (target) {
            snprintf(want, sizeof want, "%s on a player, \"instant power:%s on N\"", name, id);
            assert_shows(prompt, want);
            snprintf(want, sizeof want, "on %d, %c %s pays $%d", target, 'A' + target - 1, names[target - 1],
                     pd_property_tax(pd, target - 1));
            char line[96];
            snprintf(line, sizeof line, "instant %s on %c", id, 'a' + target - 1);
            assert_reads_as(g, st, v, line, move);
        } else {
            snprintf(want, sizeof want, "\"%s\" (%s: its tip token", move, name);
        }
        assert_shows(prompt, want);
    }
    /* Property Tax on a player who would pay nothing is refused, naming who it can go on */
    for (int s = 0; s < g->players && legal_starting(v, "instant power:property-tax on "); s++) {
        char move[64], out[256], err[PB_ERR_LEN];
        snprintf(move, sizeof move, "instant power:property-tax on %d", s + 1);
        if (s == seat || legal_starting(v, move))
            continue;
        snprintf(move, sizeof move, "instant property-tax on %c", 'a' + s);
        assert_int_equal(dlv_ui_translate(v, move, out, sizeof out, err, sizeof err), -1);
        assert_non_null(strstr(err, "cannot go on that player:\nit can go on "));
        refused_targets++;
    }
    check_example(g, st, v, seat);
    check_listed_moves(g, st, v, seat);
    check_friendly(g, st, v);
    free(prompt);
    free(table);
}

/* Everyone else waits for the asked seat "to answer with an Instant card"
 * or "to pay Property Tax". */
static void check_waiting(const pb_game *g, const pb_state *st, int mover, const char *what)
{
    int other = (mover + 1) % g->players;
    json_t *v = g->ops->view(g, st, other);
    pb_tui_opts o = {false, names, other};
    char *prompt = dlv_tui_prompt(v, &o), want[96];
    snprintf(want, sizeof want, "Waiting for %c %s %s.\n", 'A' + mover, names[mover], what);
    assert_string_equal(prompt, want);
    free(prompt);
    json_decref(v);
}

/* Out of Supplies: the debt is on the table under its player, and the
 * player reads how to pay it; "play out-of-supplies on C" (no power:, a
 * letter) reads as the move, and a missing or wrong player is named. */
static void check_out_of_supplies_play(const pb_game *g, const pb_state *st, const json_t *v, const char *move)
{
    int target = atoi(strstr(move, " on ") + 4), you = (int)json_integer_value(json_object_get(v, "seat"));
    char line[96], out[256], err[PB_ERR_LEN];
    snprintf(line, sizeof line, "play out-of-supplies on %c", 'a' + target - 1);
    assert_reads_as(g, st, v, line, move);
    snprintf(line, sizeof line, "PLAY Out-Of-Supplies ON %c", 'A' + target - 1);
    assert_reads_as(g, st, v, line, move);
    snprintf(line, sizeof line, "play out-of-supplies on %d", target);
    assert_reads_as(g, st, v, line, move);
    assert_int_equal(dlv_ui_translate(v, "play out-of-supplies on z", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "there is no player Z: the players are A to E (seats 1 to 5)");
    assert_int_equal(dlv_ui_translate(v, "play out-of-supplies on 7", out, sizeof out, err, sizeof err), -1);
    assert_string_equal(err, "there is no player 7: the players are A to E (seats 1 to 5)");
    snprintf(line, sizeof line, "play out-of-supplies on %c", 'a' + you);
    assert_int_equal(dlv_ui_translate(v, line, out, sizeof out, err, sizeof err), -1);
    snprintf(line, sizeof line, "%c is you: the card is played on an opponent", 'A' + you);
    assert_string_equal(err, line);
    assert_int_equal(dlv_ui_translate(v, "play out-of-supplies", out, sizeof out, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"play out-of-supplies\" is played on a player:\nadd \"on\" and their letter or "
                                "seat number: "));
    pb_tui_opts o = {false, names, you};
    char *prompt = dlv_tui_prompt(v, &o);
    assert_shows(prompt, "one played on an opponent names them by number or letter (\"play power:ID on B\")");
    free(prompt);
}

static void check_supplies_due(const pb_game *g, const pb_state *st, int mover)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    json_t *seen = g->ops->view(g, st, PB_SPECTATOR);
    pb_tui_opts watching = {false, names, PB_SPECTATOR};
    char *table = dlv_tui_table(seen, &watching);
    for (int s = 0; s < g->players; s++) {
        if (!pd->supplies_due[s])
            continue;
        char row[32], want[96];
        snprintf(row, sizeof row, "\n %c %s ", 'A' + s, names[s]);
        const char *player = strstr(table, row);
        assert_non_null(player);
        snprintf(want, sizeof want, "\n     owes $%d for Out of Supplies: no delivery until it is paid\n",
                 2 * pd->supplies_due[s]);
        if (strncmp(strchr(player + 1, '\n'), want, strlen(want)) != 0) /* the line under theirs */
            fail_msg("%s's debt not shown under them:\n%s", names[s], table);
    }
    free(table);
    json_decref(seen);
    if (!pd->supplies_due[mover] || pd->phase != PD_PH_START)
        return;
    json_t *v = g->ops->view(g, st, mover);
    pb_tui_opts o = {false, names, mover};
    char *prompt = dlv_tui_prompt(v, &o), want[96];
    snprintf(want, sizeof want, "Out of Supplies: you owe $%d and may not deliver until it is paid",
             2 * pd->supplies_due[mover]);
    assert_shows(prompt, want);
    if (legal_starting(v, "supplies $2"))
        assert_shows(prompt, "\"supplies $2\"");
    else if (legal_starting(v, "supplies "))
        assert_shows(prompt, "two cards, \"supplies CARD CARD\"");
    else
        assert_shows(prompt, "you cannot pay it now");
    assert_null(legal_starting(v, "deliver"));
    check_example(g, st, v, mover);
    check_friendly(g, st, v);
    free(prompt);
    json_decref(v);
}

static int instants, taxes, targeted, debts, played_on, timed_plays, timed_taxes, hams;

static bool instants_and_supplies_seen(void)
{
    return instants && taxes && targeted && debts && played_on && refused_targets;
}

/* Property Tax on the player's own turn: the prompt names what it would
 * take from each opponent it can go on, as the engine counts it. */
static void check_timed_tax_play(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    pb_tui_opts o = {false, names, seat};
    char *prompt = dlv_tui_prompt(v, &o), want[96];
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(v, "legal"), i, m) {
        int target;
        if (sscanf(json_string_value(m), "play power:property-tax on %d", &target) != 1)
            continue;
        snprintf(want, sizeof want, "Property Tax on %d: %c %s pays $%d", target, 'A' + target - 1, names[target - 1],
                 pd_property_tax(pd, target - 1));
        assert_shows(prompt, want);
        char line[64];
        snprintf(line, sizeof line, "play property-tax on %c", 'a' + target - 1);
        assert_reads_as(g, st, v, line, json_string_value(m));
    }
    check_example(g, st, v, seat);
    free(prompt);
}

/* Ham: the deliverer reads the token kept and where the others go; the
 * others only wait for them to put the tokens back. */
static int ham_looks; /* Ham's choice of a token, with the values looked at */

/* The prompt shows the value of every tip token on the orders but order
 * `except`'s (0-based; -1: all). */
static void check_tip_values(const pb_state *st, const char *prompt, int except)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        if (slot == except || pd->order[slot].kind < 0 || pd->order[slot].tip == PD_NO_TIP)
            continue;
        char want[48];
        snprintf(want, sizeof want, "order %d $%d", slot + 1, pd->tip_value[pd->order[slot].tip]);
        assert_shows(prompt, want);
    }
}

static void check_arrange(const pb_game *g, const pb_state *st, const json_t *v, int seat)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    pb_tui_opts o = {false, names, seat};
    char *prompt = dlv_tui_prompt(v, &o), want[96];
    int kept = pd->pending.tip_slot;
    snprintf(want, sizeof want, "Ham: you keep order %d's token ($%d).", kept + 1,
             pd->tip_value[pd->order[kept].tip]);
    assert_shows(prompt, want);
    check_tip_values(st, prompt, kept);
    check_waiting(g, st, seat, "to put the other tip tokens back (Ham)");
    check_example(g, st, v, seat);
    check_listed_moves(g, st, v, seat);
    free(prompt);
}

/* Checks the Instant question, Property Tax and Out of Supplies wherever
 * they come; plays the cards whenever it can, deliveries often. */
/* Property Tax being paid, after a delivery or played on its player's own
 * turn: the payer reads what is due and why, the others wait for them. */
static void check_tax(const pb_game *g, const pb_state *st, const json_t *v, int mover)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    pb_tui_opts o = {false, names, mover};
    char *prompt = dlv_tui_prompt(v, &o), *table = dlv_tui_table(v, &o), want[160];
    bool timed_tax = !json_object_get(v, "instant"); /* played on its player's own turn */
    int by = (int)json_integer_value(json_object_get(v, "whose_turn"));
    if (timed_tax) {
        snprintf(want, sizeof want, "Property Tax was played on you by %c %s on their turn", 'A' + by, names[by]);
        assert_shows(prompt, want);
        snprintf(want, sizeof want, "Property Tax, played by %c %s on their turn: %c %s pays, $%d still due.", 'A' + by,
                 names[by], 'A' + mover, names[mover], pd->pending.due);
        assert_shows(table, want);
    } else {
        snprintf(want, sizeof want, "Property Tax was played on you after %c %s's delivery",
                 'A' + pd->instant_deliverer, names[pd->instant_deliverer]);
        assert_shows(prompt, want);
        snprintf(want, sizeof want, "%c %s pays, $%d still due.", 'A' + mover, names[mover], pd->pending.due);
        assert_shows(table, want);
    }
    snprintf(want, sizeof want, "$%d still to pay, a dollar or a card at a time:", pd->pending.due);
    assert_shows(prompt, want);
    check_waiting(g, st, mover, "to pay Property Tax");
    check_example(g, st, v, mover);
    check_friendly(g, st, v);
    free(prompt);
    free(table);
    if (timed_tax)
        timed_taxes++;
    else
        taxes++;
}

static const char *look_at_instants_and_supplies(const pb_game *g, const pb_state *st, const json_t *v, int mover,
                                                 pb_rng *rng)
{
    const pd_state *pd = (const pd_state *)(const void *)st;
    const char *phase = json_string_value(json_object_get(v, "phase"));
    const char *instant = some_legal(v, "instant power:", rng);
    const char *supplies = some_legal(v, "play power:out-of-supplies on ", rng);
    if (!strcmp(phase, "instant") && instant) {
        check_instant_prompt(g, st, v, mover);
        check_waiting(g, st, mover, "to answer with an Instant card");
        instants++;
        targeted += legal_starting(v, "instant power:property-tax on ") != NULL;
    }
    if (!strcmp(phase, "tax"))
        check_tax(g, st, v, mover);
    if (supplies) {
        check_out_of_supplies_play(g, st, v, supplies);
        played_on++;
    }
    check_supplies_due(g, st, mover);
    for (int s = 0; s < g->players; s++)
        debts += pd->supplies_due[s] > 0;
    const char *move = instant ? instant : supplies ? supplies : some_legal(v, "deliver ", rng);
    if (!move || (!instant && !supplies && pb_rng_below(rng, 3) == 0))
        move = some_legal(v, "", rng);
    /* Property Tax is kept for a delivery to answer (its own turn's play is the next test's); the
     * last seat never builds, so that there is a player it cannot go on */
    for (int k = 0; k < 8 && (!strncmp(move, "play power:property-tax", 23) ||
                              (mover == g->players - 1 && !strcmp(move, "reputation")));
         k++)
        move = some_legal(v, "", rng);
    return move;
}

/* 5-player games (the expansion box) that play Instant cards and Out of
 * Supplies whenever they can, driven by the moves' text from fixed seeds. */
static void test_instant_cards_and_out_of_supplies(void **state)
{
    (void)state;
    /* a player Property Tax would take nothing from (refused on them) is rare: ~60 games from seed 1 */
    play_five_player_games(80, instants_and_supplies_seen, look_at_instants_and_supplies);
    assert_true(instants > 0);
    assert_true(targeted > 0);
    assert_true(taxes > 0);
    assert_true(played_on > 0);
    assert_true(debts > 0);
    assert_true(refused_targets > 0);
}

static bool timed_tax_and_ham_seen(void)
{
    return timed_plays && timed_taxes && hams && ham_looks;
}

/* Property Tax played whenever it can be on its player's own turn, Ham's
 * tokens put back: what the players read. */
static const char *look_at_timed_tax_and_ham(const pb_game *g, const pb_state *st, const json_t *v, int mover,
                                             pb_rng *rng)
{
    const char *phase = json_string_value(json_object_get(v, "phase"));
    const char *timed = some_legal(v, "play power:property-tax on ", rng);
    if (timed) {
        check_timed_tax_play(g, st, v, mover);
        timed_plays++;
    }
    if (!strcmp(phase, "tax"))
        check_tax(g, st, v, mover);
    if (!strcmp(phase, "arrange")) {
        check_arrange(g, st, v, mover);
        hams++;
    }
    if (!strcmp(phase, "tip")) {
        pb_tui_opts o = {false, names, mover};
        char *prompt = dlv_tui_prompt(v, &o);
        assert_shows(prompt, "Ham: you look at the tip tokens on the orders: order ");
        check_tip_values(st, prompt, -1);
        free(prompt);
        ham_looks++;
    }
    const char *move = timed ? timed : some_legal(v, "deliver ", rng);
    if (!move || (!timed && pb_rng_below(rng, 3) == 0))
        move = some_legal(v, "", rng);
    return move;
}

static void test_property_tax_on_own_turn_and_ham(void **state)
{
    (void)state;
    play_five_player_games(40, timed_tax_and_ham_seen, look_at_timed_tax_and_ham);
    assert_true(timed_plays > 0);
    assert_true(timed_taxes > 0);
    assert_true(hams > 0);
    assert_true(ham_looks > 0);
}

/* ---- On a terminal: 100x40 and 80x24 ---- */

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Every line of a text at most `cols` columns; a price never runs into a
 * word ("$4to"). */
static void assert_fits(const char *text, int cols)
{
    int col = 0;
    for (const char *s = text; *s; s++) {
        col = *s == '\n' ? 0 : col + 1;
        if (col > cols)
            fail_msg("a line wider than %d columns in:\n%s", cols, text);
        if (*s == '$' && isdigit((unsigned char)s[1])) {
            const char *e = s + 1;
            while (isdigit((unsigned char)*e))
                e++;
            if (isalpha((unsigned char)*e))
                fail_msg("\"%.8s\" runs into a word in:\n%s", s, text);
        }
    }
}

/* The map's lines of a full table: from the top to the orders. */
static void assert_unique_marks(const json_t *v, const char *table)
{
    const char *end = strstr(table, "\nOrders");
    assert_non_null(end);
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(v, "players"), i, p) {
        size_t k;
        const json_t *z;
        json_array_foreach(json_object_get(p, "pizzerias"), k, z) {
            char mark[8];
            snprintf(mark, sizeof mark, " %c%.2s", (int)('A' + i), json_string_value(json_object_get(z, "lot")));
            const char *at = strstr(table, mark);
            const char *again = at ? strstr(at + 1, mark) : NULL;
            if (!at || at > end || (again && again < end)) {
                fprintf(stderr, "%s", table);
                fail_msg("pizzeria %s's mark \"%s\" not once on the map (above)",
                         json_string_value(json_object_get(z, "lot")), mark + 1);
            }
        }
    }
}

/* Each player's row keeps its columns: on a short screen every number after
 * its word ("disks 12  delivered  3  tips  2"), else under the header's
 * words, right-aligned, so that no number runs into the next word. */
static void assert_player_rows(const json_t *v, const char *table)
{
    const char *header = strstr(table, "\nPlayers");
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(v, "players"), i, p) {
        char row[32], want[64];
        snprintf(row, sizeof row, "\n %c %s ", (int)('A' + i), names[i]);
        const char *at = strstr(table, row);
        if (!at)
            continue; /* a tight setup leaves the players out */
        at++;
        int disks = (int)json_integer_value(json_object_get(p, "disks")),
            delivered = (int)json_integer_value(json_object_get(p, "deliveries")),
            tips = (int)json_integer_value(json_object_get(p, "tips"));
        if (header && header < at) {
            assert_non_null(strstr(header, "money disks left  deliveries  tips"));
            snprintf(want, sizeof want, "%10d  %10d  %4d", disks, delivered, tips);
            if (strncmp(at + 22, want, strlen(want)) != 0)
                fail_msg("%s's row out of its columns (\"%s\" at column 22):\n%s", names[i], want, table);
        } else {
            snprintf(want, sizeof want, "disks %2d  delivered %2d  tips %2d", disks, delivered, tips);
            const char *found = strstr(at, want);
            if (!found || found != at + 20) {
                fprintf(stderr, "%s", table);
                fail_msg("%s's row without \"%s\" at column 20 (above)", names[i], want);
            }
        }
    }
}

static int rivals_shown; /* wide tables listing another player's pizzeria with its cards */

/* On a wide screen the others' pizzerias, with their cards and top card,
 * are listed when the table fits with them, never at the cost of moves. */
static void look_for_rivals(const json_t *v, const char *table)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(v, "players"), i, p) {
        const json_t *z = json_array_get(json_object_get(p, "pizzerias"), 0);
        if (i == 0 || !z)
            continue;
        char want[48];
        snprintf(want, sizeof want, "\n     %s %d disk", json_string_value(json_object_get(z, "lot")),
                 (int)json_integer_value(json_object_get(z, "disks")));
        if (!strstr(table, want))
            continue;
        if (strstr(table, "... and more: type table"))
            fail_msg("the others' pizzerias cut the moves short:\n%s", table);
        rivals_shown++;
        return;
    }
}

/* 2- and 4-player games seen by seat A on a terminal of cols x rows: each
 * table fits; at a new position the orders and the moves are on screen
 * with the prompt and lines left for the moves logged before; a step that
 * only pays or supplies does not draw the table again; the same view asked
 * for twice (`table`) is drawn whole, each pizzeria with a mark of its own. */
static void play_on_screen(int cols, int rows, int players, uint64_t seed, int *steps, int *tables)
{
    dlv_tui_set_screen(cols, rows);
    pb_game *g = new_game(players);
    pb_state *st = pb_state_new(g, seed);
    char err[PB_ERR_LEN];
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    int room = rows >= 40 ? 5 : 3; /* the blank line, a banner, the last moves logged */
    for (int moves = 0; !pb_is_terminal(g, st) && moves < 3000; moves++) {
        int mover = pb_current_seat(g, st);
        if (mover == 0) {
            json_t *v = g->ops->view(g, st, 0);
            const char *phase = json_string_value(json_object_get(v, "phase"));
            pb_tui_opts o = {moves % 2 == 0, names, 0};
            char *table = dlv_tui_table(v, &o), *prompt = dlv_tui_prompt(v, &o);
            char *plain = ts_strip_ansi(table), *plain_prompt = ts_strip_ansi(prompt);
            check_payment_left(v, 0, plain);
            assert_fits(plain, cols);
            assert_fits(plain_prompt, cols);
            bool whole = strstr(plain, "NEW YORK PIZZA DELIVERY") != NULL;
            if (whole) {
                (*tables)++;
                assert_player_rows(v, plain);
                if (cols >= 100 && rows >= 40)
                    look_for_rivals(v, plain);
                const char *orders = strstr(plain, "Orders  (");
                assert_non_null(orders);
                for (int slot = 1; slot <= 4; slot++) {
                    char want[8];
                    snprintf(want, sizeof want, " %d $", slot);
                    if (json_is_object(json_array_get(json_object_get(v, "orders"), (size_t)slot - 1)) &&
                        !strstr(orders, want))
                        fail_msg("order %d not on the %dx%d screen:\n%s", slot, cols, rows, plain);
                }
                int used = count_lines(plain) + count_lines(plain_prompt) + 1;
                /* at 80x24 four players' lines may leave the log less room */
                if (used > rows - room && (rows >= 40 || players <= 2)) {
                    fprintf(stderr, "%s%s", plain, plain_prompt);
                    fail_msg("%d lines with the prompt's at %dx%d (above), leaving no room for the log", used, cols,
                             rows);
                }
            } else {
                /* a step of paying or supplying: what is due and the moves */
                (*steps)++;
                if (!strstr(plain, "You have $") || !strstr(plain, "Your moves"))
                    fail_msg("a %s step at %dx%d:\n%s", phase, cols, rows, plain);
                assert_true(strcmp(phase, "pay") == 0 || strcmp(phase, "supply") == 0 ||
                            strcmp(phase, "distance") == 0 || strcmp(phase, "trim") == 0 ||
                            strcmp(phase, "tip") == 0 || strcmp(phase, "arrange") == 0 ||
                            strcmp(phase, "tax") == 0 || strcmp(phase, "discard") == 0);
                assert_true(count_lines(plain) + count_lines(plain_prompt) + 1 <= rows - room || players > 2);
            }
            if (strcmp(phase, "keep") != 0 && !strstr(plain, "Your moves"))
                fail_msg("no moves on the %dx%d screen:\n%s", cols, rows, plain);
            if (moves % 5 == 0) { /* `table`: the same view again, whole */
                char *again = dlv_tui_table(v, &o), *plain_again = ts_strip_ansi(again);
                assert_non_null(strstr(plain_again, "Villages, lots"));
                assert_unique_marks(v, plain_again);
                assert_fits(plain_again, 80);
                free(again);
                free(plain_again);
            }
            free(table);
            free(prompt);
            free(plain);
            free(plain_prompt);
            json_decref(v);
        }
        assert_int_equal(g->ops->apply(g, st, next_move(g, st, &rng, NULL, mover), err, sizeof err), 0);
    }
    free(st);
    pb_game_free(g);
    dlv_tui_set_screen(-1, -1);
}

static void test_terminal_layouts(void **state)
{
    (void)state;
    int steps = 0, tables = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        play_on_screen(100, 40, 2, seed, &steps, &tables);
        play_on_screen(80, 24, 2, seed, &steps, &tables);
        play_on_screen(100, 40, 4, seed + 10, &steps, &tables);
        play_on_screen(80, 24, 4, seed + 10, &steps, &tables);
    }
    assert_true(steps > 20);
    assert_true(tables > 100);
    assert_true(rivals_shown > 0);
}

int main(void)
{
    dlv_tui_set_screen(-1, -1); /* drawn as for no terminal, wherever the tests run */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_of_seeded_games),
        cmocka_unit_test(test_table_contents),
        cmocka_unit_test(test_pizzeria_on_the_map),
        cmocka_unit_test(test_over_the_limit_prompt),
        cmocka_unit_test(test_copy_cat_and_special_sale),
        cmocka_unit_test(test_result),
        cmocka_unit_test(test_coop_table_and_result),
        cmocka_unit_test(test_translate),
        cmocka_unit_test(test_pandemic_and_power_outage_shown),
        cmocka_unit_test(test_instant_cards_and_out_of_supplies),
        cmocka_unit_test(test_property_tax_on_own_turn_and_ham),
        cmocka_unit_test(test_terminal_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
