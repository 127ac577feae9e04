/* test_delivery_rules.c -- New York Pizza Delivery, rule by rule (PD-...),
 * on the default data: each test sets a table up by moving real cards
 * (so every card stays accounted for), then plays moves in notation the way
 * a player types them and checks what the rulebook says happens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../games/delivery/delivery.h"
#include "../../games/delivery/internal.h"

static pd_rules *rules;

static int setup(void **state)
{
    (void)state;
    rules = calloc(1, sizeof *rules);
    if (!rules)
        return -1;
    pd_data_default(&rules->data);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(rules);
    return 0;
}

static pd_card card(const char *text)
{
    pd_card c;
    char err[PB_ERR_LEN];
    if (pd_card_from_text(&rules->data, text, &c, err, sizeof err) != 0)
        fail_msg("%s", err);
    return c;
}

static void check(const pd_state *st)
{
    char err[PB_ERR_LEN];
    if (pd_check_invariants(st, err, sizeof err) != 0)
        fail_msg("invariants: %s", err);
}

static void play(pd_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (pd_action_parse(st, text, &a, err, sizeof err) != 0)
        fail_msg("\"%s\" refused: %s", text, err);
    if (pd_apply(st, a, err, sizeof err) != 0)
        fail_msg("\"%s\" not applied: %s", text, err);
    check(st);
}

static bool is_legal(const pd_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    return pd_action_parse(st, text, &a, err, sizeof err) == 0;
}

static void refused(const pd_state *st, const char *text)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (pd_action_parse(st, text, &a, err, sizeof err) == 0)
        fail_msg("\"%s\" was accepted", text);
}

/* Refused, for the reason given. */
static void assert_refused_with(const pd_state *st, const char *text, const char *why)
{
    pb_action a;
    char err[PB_ERR_LEN];
    assert_int_not_equal(pd_action_parse(st, text, &a, err, sizeof err), 0);
    if (!strstr(err, why))
        fail_msg("\"%s\" refused with \"%s\", not \"%s\"", text, err, why);
}

/* Take a card of this type out of wherever it lies (deck, open market,
 * sewer, a hand: the last seats' first), so the count of every type stays right. */
static void take_out(pd_state *st, pd_card c)
{
    for (int i = 0; i < st->ndeck; i++)
        if (st->deck[i] == c) {
            memmove(st->deck + i, st->deck + i + 1, (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            if (st->timer > i)
                st->timer--;
            return;
        }
    if (st->open[c]) {
        st->open[c]--;
        st->open_size--;
        return;
    }
    if (st->sewer[c]) {
        st->sewer[c]--;
        return;
    }
    for (int s = st->players - 1; s >= 0; s--)
        if (st->player[s].hand[c]) {
            st->player[s].hand[c]--;
            st->player[s].hand_size--;
            return;
        }
    fail_msg("no card of type %d left to take", c);
}

static void give(pd_state *st, int seat, const char *text)
{
    pd_card c = card(text);
    take_out(st, c);
    st->player[seat].hand[c]++;
    st->player[seat].hand_size++;
}

static void empty_hand(pd_state *st, int seat)
{
    for (int c = 0; c < PD_TYPES; c++) {
        st->sewer[c] += st->player[seat].hand[c];
        st->player[seat].hand[c] = 0;
    }
    st->player[seat].hand_size = 0;
    st->power_discard |= st->player[seat].powers;
    st->player[seat].powers = 0;
}

/* Nobody but seat 0 holds a power card: no other global comes meanwhile. */
static void others_without_powers(pd_state *st)
{
    for (int s = 1; s < st->players; s++) {
        st->power_discard |= st->player[s].powers;
        st->player[s].powers = 0;
    }
}

/* A pizzeria on a lot with disks and cards (the top card last). */
static void pizzeria(pd_state *st, int seat, const char *lot, int disks, const char *const *cards)
{
    int l = pd_lot_find(&rules->data.map, lot);
    assert_true(l >= 0);
    int v = rules->data.map.lot[l].village;
    pd_pizzeria *z = &st->player[seat].pizzeria[v];
    z->lot = (int8_t)l;
    z->disks = (uint8_t)disks;
    st->player[seat].disks = (uint8_t)(st->player[seat].disks - disks);
    st->lot_owner[l] = (int8_t)seat;
    for (; *cards; cards++) {
        pd_card c = card(*cards);
        take_out(st, c);
        z->card[z->ncards++] = c;
    }
}

/* Replace an order by a regular one of these cards (the last names the village). */
static void order(pd_state *st, int slot, const char *const *cards)
{
    pd_order *o = &st->order[slot];
    for (int i = 0; i < o->ncards; i++)
        st->sewer[o->card[i]]++;
    int n = 0;
    while (cards[n])
        n++;
    int kind = -1;
    for (int k = 0; k < rules->data.cards.norder_kinds; k++)
        if (!rules->data.cards.order[k].specialty && rules->data.cards.order[k].market_cards == n)
            kind = k;
    assert_true(kind >= 0);
    o->kind = (int8_t)kind;
    o->ncards = 0;
    for (int i = 0; i < n; i++) {
        pd_card c = card(cards[i]);
        take_out(st, c);
        o->card[o->ncards++] = c;
    }
}

/* An order as PD-O1 makes one, of these cards: its own order card from the
 * order deck and a tip token from the face-down ones. */
static void drawn_order(pd_state *st, int slot, const char *const *cards)
{
    st->order[slot].kind = st->order_deck[--st->norder_deck];
    st->order[slot].ncards = 0;
    st->order[slot].tip = (uint8_t)st->tip_pool[--st->ntip_pool];
    order(st, slot, cards);
}

/* Replace an order by the specialty Meat Lovers (its cards to the sewer). */
static void meat_lovers(pd_state *st, int slot)
{
    int kind = -1;
    for (int k = 0; k < rules->data.cards.norder_kinds; k++)
        if (strcmp(rules->data.cards.order[k].id, "meat-lovers") == 0)
            kind = k;
    assert_true(kind >= 0);
    for (int i = 0; i < st->order[slot].ncards; i++)
        st->sewer[st->order[slot].card[i]]++;
    st->order[slot].ncards = 0;
    st->order[slot].kind = (int8_t)kind;
}

/* Move a power card, wherever it is, into a seat's hand. */
static int give_power(pd_state *st, int seat, const char *id)
{
    int p = pd_power_find(&rules->data.cards, id);
    assert_true(p >= 0);
    uint64_t bit = 1ull << p;
    for (int i = 0; i < st->npower_deck; i++)
        if (st->power_deck[i] == p) {
            memmove(st->power_deck + i, st->power_deck + i + 1, (size_t)(st->npower_deck - i - 1));
            st->npower_deck--;
        }
    st->power_discard &= ~bit;
    for (int s = 0; s < st->players; s++) {
        st->player[s].powers &= ~bit;
        st->tableau[s] &= ~bit;
    }
    st->player[seat].powers |= bit;
    return p;
}

/* n cards from the top of the market deck into a seat's hand. */
static void give_from_deck(pd_state *st, int seat, int n)
{
    for (int i = st->ndeck - 1; i >= 0 && n > 0; i--)
        if (st->deck[i] != PD_CARD_INSPECTOR) {
            pd_card c = st->deck[i];
            memmove(st->deck + i, st->deck + i + 1, (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            st->player[seat].hand[c]++;
            st->player[seat].hand_size++;
            n--;
        }
}

/* A power card straight into a seat's tableau (as if played earlier). */
static void in_play(pd_state *st, int seat, const char *id)
{
    int p = give_power(st, seat, id);
    st->player[seat].powers &= ~(1ull << p);
    st->tableau[seat] |= 1ull << p;
    if (strcmp(id, "subway-fast-pass") == 0)
        st->pass_tokens[seat] = 3;
}

/* Play the first legal move until the seat to move changes. */
static void finish_turn(pd_state *st)
{
    int seat = st->seat;
    while (st->phase != PD_PH_OVER && (st->seat == seat || st->phase == PD_PH_INSTANT)) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        int n = pd_legal_actions(st, a);
        assert_true(n > 0);
        /* the others play no Instant card on the delivery ("done" is last) */
        assert_int_equal(pd_apply(st, a[st->phase == PD_PH_INSTANT ? n - 1 : 0], err, sizeof err), 0);
        check(st);
    }
}

/* The turn's action: to market, two cards from the deck. */
static void market_from_deck(pd_state *st)
{
    play(st, "market");
    play(st, "take deck");
    play(st, "take deck");
}

/* Ham: keep a token, and put the others back the first way listed. */
static void ham_tip(pd_state *st, const char *text)
{
    play(st, text);
    json_t *v = pd_view(st, -1);
    bool arrange = strcmp(json_string_value(json_object_get(v, "phase")), "arrange") == 0;
    json_decref(v);
    if (arrange) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
        check(st);
    }
}

/* A table past the setup's power cards: seat 0 to act, with an empty hand;
 * the Extra Cheese cards in the market deck if asked for. */
static void table_with(pd_state *st, int players, uint64_t seed, bool extra_cheese)
{
    pd_rules_init(rules, players, 0);
    rules->extra_cheese = extra_cheese;
    pd_init(st, rules, seed);
    while (st->phase == PD_PH_KEEP) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
    }
    assert_int_equal(st->seat, 0);
    empty_hand(st, 0);
    check(st);
}

static void table(pd_state *st, int players, uint64_t seed)
{
    table_with(st, players, seed, false);
}

/* PD-S3: each player keeps one of two; the other goes back into the deck. */
static void test_keep_power_card(void **state)
{
    (void)state;
    pd_rules_init(rules, 3, 1);
    pd_state st;
    pd_init(&st, rules, 5);
    int deck = st.npower_deck;
    for (int k = 0; k < 3; k++) {
        assert_int_equal(st.phase, PD_PH_KEEP);
        int s = st.seat;
        uint64_t pair = st.kept_choice[s];
        int first = __builtin_ctzll(pair);
        char text[64], err[PB_ERR_LEN];
        snprintf(text, sizeof text, "keep power:%s", rules->data.cards.power[first].id);
        pb_action a;
        assert_int_equal(pd_action_parse(&st, text, &a, err, sizeof err), 0);
        /* another seat sees only that a card was kept */
        char seen[64];
        assert_int_equal(pd_action_text(&st, a, (s + 1) % 3, seen, sizeof seen), 0);
        assert_string_equal(seen, "keep ?");
        assert_int_equal(pd_apply(&st, a, err, sizeof err), 0);
        assert_true(st.player[s].powers == 1ull << first);
    }
    assert_int_equal(st.phase, PD_PH_START);
    assert_int_equal(st.seat, 1); /* PD-S6: the configured first seat */
    assert_int_equal(st.npower_deck, deck + 3);
    check(&st);
}

/* PD-T2: two cards, from the open market or the deck; the market refills to 5. */
static void test_market(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 7);
    pd_card open = 0;
    while (!st.open[open])
        open++;
    char word[80], text[100];
    pd_card_word(&rules->data, open, word, sizeof word);
    int deck = st.ndeck;
    play(&st, "market");
    snprintf(text, sizeof text, "take %s", word);
    play(&st, text);
    assert_int_equal(st.open_size, 5);
    play(&st, "take deck");
    assert_int_equal(st.player[0].hand_size, 2);
    assert_true(st.player[0].hand[open] >= 1);
    assert_true(st.ndeck <= deck - 2);
    assert_int_equal(st.seat, 1); /* the turn passed */
}

/* PD-T3 and the rulebook's first-turn example: two Midtown cards and $5 plus
 * the other three cards pay for the $8 lot, and the second card upgrades. */
static void test_build_midtown_first_turn(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 15);
    give(&st, 0, "Midtown/Pepperoni");
    give(&st, 0, "Midtown/Tomatoes");
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Financial District/Ham");
    play(&st, "reputation");
    refused(&st, "build HA-1 Midtown/Pepperoni"); /* a village card is needed */
    /* a lot the map does not have is named as such, not as a move of another time */
    assert_refused_with(&st, "build MT-9 Midtown/Pepperoni", "there is no lot MT-9 (Midtown has MT-1 to MT-");
    assert_refused_with(&st, "build CP-1 Midtown/Pepperoni", "Central Park has no lots to build on");
    play(&st, "build MT-2 Midtown/Pepperoni");
    assert_int_equal(rules->data.map.lot[pd_lot_find(&rules->data.map, "MT-2")].cost, 8);
    for (int i = 0; i < 5; i++)
        play(&st, "pay $1");
    /* any order: the card meant for the upgrade may pay too (the rest still covers it) */
    pd_state other = st;
    play(&other, "pay Midtown/Tomatoes");
    assert_int_equal(other.pending.due, 2);
    play(&st, "pay Harlem/Ham");
    play(&st, "pay Harlem/Onions");
    play(&st, "pay Financial-District/Ham");
    int mt = pd_village_find(&rules->data.map, "MT");
    assert_int_equal(pd_reputation(&st, 0, mt), 2); /* one disk, one card */
    assert_int_equal(st.player[0].money, 0);
    assert_int_equal(st.lot_owner[pd_lot_find(&rules->data.map, "MT-2")], 0);
    play(&st, "upgrade MT Midtown/Tomatoes disk");
    assert_int_equal(pd_reputation(&st, 0, mt), 3);
    assert_int_equal(st.player[0].pizzeria[mt].disks, 2);
    assert_int_equal(st.player[0].disks, 10);
    assert_int_equal(st.seat, 1);
}

/* PD-T3: one pizzeria per village per player, one per lot; reputation at most 5. */
static void test_build_and_upgrade_limits(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 12);
    static const char *const mine[] = {"Harlem/Ham", NULL};
    static const char *const theirs[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "HA-1", 3, mine);
    pizzeria(&st, 1, "MT-1", 1, theirs);
    st.player[0].money = 20;
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Midtown/Onions");
    give(&st, 0, "Central Park/Ham");
    play(&st, "reputation");
    refused(&st, "build HA-2 Harlem/Onions");    /* already a pizzeria in Harlem */
    refused(&st, "build MT-1 Midtown/Onions");   /* the lot is taken */
    refused(&st, "upgrade HA Central-Park/Ham top"); /* Central Park is never on top */
    play(&st, "upgrade HA Central-Park/Ham add");
    int ha = pd_village_find(&rules->data.map, "HA");
    assert_int_equal(pd_reputation(&st, 0, ha), 5);
    assert_int_equal(st.player[0].pizzeria[ha].card[1], card("Harlem/Ham")); /* still on top */
    /* 5 is the limit: an upgrade at 5 gives back what is over (test_upgrade_at_the_limit_replaces_a_card) */
    play(&st, "build MT-2 Midtown/Onions");
    for (int i = 0; i < 8; i++)
        play(&st, "pay $1");
    assert_int_equal(st.player[0].money, 12);
    assert_int_equal(st.seat, 1);
}

/* The rulebook's delivery example 2, on our map: the Greenwich Village
 * pizzeria on GV-1 (1 disk, Tomatoes on top, Ham and Meatballs permanent)
 * delivers Ham-Tomatoes-Meatballs to Hell's Kitchen, 5 spaces away: 1 free
 * space for the disk, 1 for the Tomatoes, so 3 cards pay the distance. */
static void test_delivery_example_distance(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 13);
    static const char *const gv[] = {"Greenwich Village/Ham", "Greenwich Village/Meatballs",
                                     "Greenwich Village/Tomatoes", NULL};
    static const char *const b[] = {"Midtown/Ham", "Harlem/Tomatoes", "Hell's Kitchen/Meatballs", NULL};
    pizzeria(&st, 0, "GV-1", 1, gv);
    order(&st, 1, b);
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Peppers");
    give(&st, 0, "Upper West Side/Ham");
    give(&st, 0, "Midtown/Pineapple");
    check(&st);
    int v = pd_village_find(&rules->data.map, "GV");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 1, v, -1, 0, &q), 0);
    assert_int_equal(q.length, 5);
    assert_int_equal(q.free_range, 2);
    assert_int_equal(q.distance_cards, 3);
    assert_int_equal(q.hand_ingredients, 0);
    assert_int_equal(q.pay, 3);
    int tip = st.order[1].tip, powers = __builtin_popcountll(st.player[0].powers);
    play(&st, "deliver 2 from GV");
    assert_int_equal(st.phase, PD_PH_DISTANCE);
    play(&st, "pay Harlem/Peppers");
    play(&st, "pay Harlem/Onions");
    play(&st, "pay Midtown/Pineapple");
    assert_int_equal(st.player[0].money, 5 + 3);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].ntips, 1);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(__builtin_popcountll(st.player[0].powers), powers + 1); /* a power card drawn */
    assert_int_equal(st.player[0].hand_size, 1);
    assert_int_equal(st.sewer[card("Harlem/Onions")] >= 1, 1);
    assert_int_equal(st.open[card("Hell's Kitchen/Meatballs")] >= 1, 1); /* the order's cards go to the market */
    assert_true(st.order[1].kind >= 0);                                   /* a new order */
    assert_true(st.order[1].tip != PD_NO_TIP);
}

/* The rulebook's delivery example 1, on our map: Onions on top supply one
 * ingredient (the Onions are permanent), Peppers come from hand; or the
 * Peppers are left out and a NO TIP token is taken instead (PD-P1). */
static void test_delivery_example_onions(void **state)
{
    (void)state;
    for (int shorted = 0; shorted < 2; shorted++) {
        pd_state st;
        table(&st, 2, 14);
        static const char *const hk[] = {"Hell's Kitchen/Onions", NULL};
        static const char *const a[] = {"Harlem/Onions", "Greenwich Village/Peppers", NULL};
        pizzeria(&st, 0, "HK-2", 4, hk);
        order(&st, 0, a);
        give(&st, 0, "Midtown/Peppers");
        check(&st);
        pd_quote q;
        assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "HK"), -1, 0, &q), 0);
        assert_int_equal(q.length, 4);
        assert_int_equal(q.distance_cards, 0);
        int tip = st.order[0].tip, no_tips = st.no_tips;
        play(&st, "deliver 1 from HK");
        assert_int_equal(st.phase, PD_PH_SUPPLY);
        play(&st, shorted ? "short" : "use Midtown/Peppers");
        assert_int_equal(st.player[0].money, 5 + 2);
        assert_int_equal(st.player[0].ntips, 1);
        if (shorted) {
            assert_int_equal(st.player[0].tip[0], PD_NO_TIP);
            assert_int_equal(st.no_tips, no_tips - 1);
            assert_int_equal(st.player[0].hand[card("Midtown/Peppers")], 1);
        } else {
            assert_int_equal(st.player[0].tip[0], tip);
            assert_int_equal(st.player[0].hand_size, 0);
        }
    }
}

/* PD-P1: Pepperoni +$2 for a pizza without meat, Peppers +$2 for meats only,
 * Pineapple +$1; a pizza that is neither earns no bonus. */
static void test_delivery_bonuses(void **state)
{
    (void)state;
    static const struct {
        const char *top;
        const char *const order[3];
        int pay;
    } cases[] = {
        {"Midtown/Pepperoni", {"Harlem/Onions", "Midtown/Tomatoes", NULL}, 2 + 2},
        {"Midtown/Pepperoni", {"Harlem/Ham", "Midtown/Tomatoes", NULL}, 2},
        {"Midtown/Peppers", {"Harlem/Ham", "Midtown/Sausage", NULL}, 2 + 2},
        {"Midtown/Peppers", {"Harlem/Ham", "Midtown/Onions", NULL}, 2},
        {"Midtown/Pineapple", {"Harlem/Ham", "Midtown/Onions", NULL}, 2 + 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pd_state st;
        table(&st, 2, 20 + i);
        const char *mt[] = {cases[i].top, NULL};
        pizzeria(&st, 0, "MT-1", 5 - 1, mt);
        order(&st, 2, cases[i].order);
        for (int k = 0; k < 2; k++) {
            char text[80];
            const char *slash = strchr(cases[i].order[k], '/');
            snprintf(text, sizeof text, "Upper West Side%s", slash);
            give(&st, 0, text);
        }
        play(&st, "deliver 3 from MT");
        while (st.phase == PD_PH_SUPPLY) {
            pb_action a[PB_MAX_ACTIONS];
            char err[PB_ERR_LEN];
            assert_true(pd_legal_actions(&st, a) > 0);
            assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
        }
        if (st.player[0].money != 5 + cases[i].pay)
            fail_msg("case %zu: paid $%d, not $%d", i, st.player[0].money - 5, cases[i].pay);
    }
}

/* PD-P1: Ham takes any order's tip token; the others go back on the other
 * orders as its deliverer arranges them (here the delivered order's token
 * where the kept one was). */
static void test_ham_chooses_tip(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 30);
    static const char *const mt[] = {"Midtown/Ham", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    int own = st.order[0].tip, other = st.order[3].tip;
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.phase, PD_PH_TIP);
    /* the rulebook's Ham looks at the tokens, then chooses: the chooser's
     * view shows their values, the other seat's does not, and a guess at the
     * hidden things keeps what the chooser saw */
    json_t *mine = pd_view(&st, 0), *theirs = pd_view(&st, 1);
    for (size_t i = 0; i < PD_ORDER_SLOTS; i++) {
        const pd_order *o = &st.order[i];
        json_t *seen = json_object_get(json_array_get(json_object_get(mine, "orders"), i), "tip_value");
        assert_int_equal(json_integer_value(seen), o->tip != PD_NO_TIP ? st.tip_value[o->tip] : 0);
        assert_null(json_object_get(json_array_get(json_object_get(theirs, "orders"), i), "tip_value"));
    }
    json_decref(mine);
    json_decref(theirs);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        pd_state guess = st;
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        pd_determinize(&guess, 0, &rng);
        for (int i = 0; i < PD_ORDER_SLOTS; i++)
            if (st.order[i].tip != PD_NO_TIP)
                assert_int_equal(guess.tip_value[st.order[i].tip], st.tip_value[st.order[i].tip]);
    }
    int two = st.order[1].tip, three = st.order[2].tip;
    play(&st, "tip 4");
    char text[64];
    snprintf(text, sizeof text, "arrange 2:$%d 3:$%d 4:$%d", st.tip_value[two], st.tip_value[three], st.tip_value[own]);
    play(&st, text);
    assert_int_equal(st.player[0].tip[0], other);
    assert_int_equal(st.tip_value[st.order[3].tip], st.tip_value[own]);
}

/* PD-P1: Meatballs take one market card after delivering. */
static void test_meatballs_market_pick(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 31);
    static const char *const mt[] = {"Midtown/Meatballs", NULL};
    static const char *const a[] = {"Midtown/Meatballs", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.phase, PD_PH_BONUS);
    play(&st, "take deck");
    assert_int_equal(st.player[0].hand_size, 1);
    /* the power card drawn for the delivery may be played after the action */
    assert_int_equal(st.phase, PD_PH_AFTER);
    play(&st, "end");
    assert_int_equal(st.seat, 1);
}

/* PD-P1: Sausage: one more card of an ingredient the order needs, +$1. */
static void test_sausage_double(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 32);
    static const char *const mt[] = {"Midtown/Sausage", NULL};
    static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    give(&st, 0, "Upper West Side/Ham");
    give(&st, 0, "Upper West Side/Onions");
    give(&st, 0, "Upper West Side/Peppers");
    give(&st, 0, "Harlem/Ham");
    play(&st, "deliver 1 from MT");
    play(&st, "use Upper-West-Side/Ham");
    play(&st, "use Upper-West-Side/Onions");
    refused(&st, "extra Upper-West-Side/Peppers"); /* not on the order */
    play(&st, "extra Harlem/Ham");
    assert_int_equal(st.player[0].money, 5 + 2 + 1);
    assert_int_equal(st.player[0].hand_size, 1);
}

/* A specialty order (PD-D4): its needs plus 2 further cards, to the nearest zone. */
static void test_specialty_order(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 33);
    meat_lovers(&st, 0);
    static const char *const fd[] = {"Financial District/Pepperoni", NULL};
    pizzeria(&st, 0, "FD-1", 1, fd);
    const char *const hand[] = {"Harlem/Pepperoni", "Harlem/Meatballs", "Midtown/Meatballs", "Harlem/Sausage",
                                "Midtown/Sausage", "Midtown/Onions", "Midtown/Tomatoes", NULL};
    for (int i = 0; hand[i]; i++)
        give(&st, 0, hand[i]);
    /* 5 ingredients (one Pepperoni is the pizzeria's) + 2 further cards + 1
     * space = 8 cards needed, 7 in hand */
    pd_quote q;
    int fd_village = pd_village_find(&rules->data.map, "FD");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, fd_village, -1, 0, &q), -1);
    refused(&st, "deliver 1 from FD");
    give(&st, 0, "Midtown/Ham");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, fd_village, -1, 0, &q), 0);
    assert_int_equal(q.length, 2); /* FD-1 to its own zone, the nearest */
    assert_int_equal(q.distance_cards, 1);
    assert_int_equal(q.hand_ingredients, 5); /* one Pepperoni is the pizzeria's */
    assert_int_equal(q.extras, 2);
    /* the player chooses the zone: farther ones cost more spaces */
    pd_quote far;
    const pd_map *map = &rules->data.map;
    int ev = pd_village_find(map, "EV");
    int r = pd_delivery_quote(&st, 0, 0, fd_village, ev, 0, &far);
    assert_int_equal(far.length, pd_route_length(map, map->lot[pd_lot_find(map, "FD-1")].door, map->village[ev].zone, 0));
    assert_true(far.length > q.length);
    assert_int_equal(r, 5 + 2 + far.distance_cards <= 8 ? 0 : -1); /* 8 cards in hand */
    refused(&st, "deliver 1 from FD"); /* a specialty order names its zone */
    play(&st, "deliver 1 from FD to FD");
    char err[PB_ERR_LEN];
    while (st.phase != PD_PH_START && st.phase != PD_PH_OVER && st.seat == 0) {
        pb_action all[PB_MAX_ACTIONS];
        assert_true(pd_legal_actions(&st, all) > 0);
        assert_int_equal(pd_apply(&st, all[0], err, sizeof err), 0);
        check(&st);
    }
    assert_int_equal(st.player[0].money, 5 + 8);
    assert_int_equal(st.player[0].hand_size, 0);
}

/* The three Health Inspectors on top of the market deck. */
static void inspectors_on_top(pd_state *st)
{
    int n = 0;
    for (int i = 0; i < st->ndeck; i++)
        if (st->deck[i] != PD_CARD_INSPECTOR)
            st->deck[n++] = st->deck[i];
    for (; n < st->ndeck; n++)
        st->deck[n] = PD_CARD_INSPECTOR;
    st->timer = (uint8_t)st->ndeck;
}

/* PD-O1: a Health Inspector fines everyone $2, money or two cards; the
 * third ends the game after its fine (PD-E1). */
static void test_health_inspectors_end_the_game(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 3, 40);
    inspectors_on_top(&st);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    check(&st);
    st.player[1].money = 1; /* cards only */
    play(&st, "market");
    pd_state drawn = st;
    play(&st, "take deck");            /* three inspectors, then a card */
    assert_int_equal(st.inspectors, 3); /* the draw goes on past them */
    static const char *const names[] = {"Ann", "Ben", "Cy"};
    char news[512];
    pd_news(&drawn, &st, names, news, sizeof news); /* three at once: told as three */
    if (!strstr(news, "3 Health Inspectors are drawn (1 to 3 of 3): everyone owes 3 $2 fines."))
        fail_msg("news: \"%s\"", news);
    assert_int_equal(st.player[0].hand_size, 3);
    assert_int_equal(st.phase, PD_PH_FINE);
    /* each inspector fines everyone: three fines each, clockwise from seat 0 */
    assert_int_equal(pd_current_seat(&st), 0);
    play(&st, "fine $2");
    pd_state before = st;
    play(&st, "fine Harlem/Onions Harlem/Ham"); /* the two cards in either order */
    /* $3 and one card left: the money pays, with no choice to make, and the
     * log says what it cost (not the move's change of money and cards) */
    assert_int_equal(st.player[0].money, 1);
    pd_news(&before, &st, names, news, sizeof news);
    if (!strstr(news, "Ann pays the fine at once: $2."))
        fail_msg("news: \"%s\"", news);
    assert_int_equal(pd_current_seat(&st), 1);
    refused(&st, "fine $2"); /* $1 only: two cards */
    int cards = st.player[1].hand_size + __builtin_popcountll(st.player[1].powers);
    for (int i = 0; i < 3 && pd_current_seat(&st) == 1; i++) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    /* 6 cards: three pairs */
    assert_int_equal(st.player[1].hand_size + __builtin_popcountll(st.player[1].powers), cards - 6);
    assert_int_equal(st.player[1].money, 1);
    assert_int_equal(pd_current_seat(&st), 2);
    play(&st, "fine $2");
    play(&st, "fine $2");
    /* $1 left and 6 cards: cards only */
    assert_int_equal(st.player[2].money, 1);
    refused(&st, "fine $2");
    pb_action a[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN];
    assert_true(pd_legal_actions(&st, a) > 0);
    before = st;
    assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    assert_int_equal(st.phase, PD_PH_OVER);
    assert_int_equal(pd_current_seat(&st), PB_TERMINAL);
    /* the last fine, paid by choice, ends the game: not told as paid at once */
    pd_news(&before, &st, names, news, sizeof news);
    if (strstr(news, "at once"))
        fail_msg("news: \"%s\"", news);
}

/* PD-E1: money + tableau cards + disks on the board + tips; ties by
 * deliveries, then tip money, then shared. */
static void test_score_and_ties(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 3, 50);
    empty_hand(&st, 1);
    empty_hand(&st, 2);
    static const char *const mt[] = {"Central Park/Onions", "Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 2, mt);
    st.player[0].money = 6;
    assert_int_equal(pd_score(&st, 0), 6 + 2 + 2);
    st.player[1].money = 10;
    st.player[2].money = 10;
    st.player[1].deliveries = 2;
    st.player[2].deliveries = 2;
    /* seat 2 has a $1 tip more (give it the token with the highest value) */
    int best = 0;
    for (int t = 0; t < st.ntips; t++)
        if (st.tip_value[t] > st.tip_value[best])
            best = t;
    for (int i = 0; i < st.ntip_pool; i++)
        if (st.tip_pool[i] == best) {
            st.tip_pool[i] = st.tip_pool[--st.ntip_pool];
            break;
        }
    st.player[2].tip[st.player[2].ntips++] = (uint8_t)best;
    st.player[1].money = (int16_t)(10 + st.tip_value[best]);
    check(&st);
    double r[PD_PLAYERS];
    pd_returns(&st, r);
    assert_true(r[2] == 1.0 && r[1] == 0.0); /* same score and deliveries: the tips decide */
    st.player[2].deliveries = 1;
    pd_returns(&st, r);
    assert_true(r[1] == 1.0);
    st.player[2].deliveries = 2;
    st.player[1].money = (int16_t)(st.player[1].money + 1);
    st.player[2].money = (int16_t)(st.player[2].money + 1);
    pd_returns(&st, r);
    assert_true(r[2] == 1.0);
}

/* PD-T5: at the end of the turn the hand goes down to 10, power cards included. */
static void test_hand_limit(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 60);
    const char *const cards[] = {"Harlem/Ham",      "Harlem/Onions",   "Harlem/Peppers", "Harlem/Sausage",
                                 "Harlem/Tomatoes", "Midtown/Ham",     "Midtown/Onions", "Midtown/Peppers",
                                 "Midtown/Sausage", "Midtown/Tomatoes", NULL};
    for (int i = 0; cards[i]; i++)
        give(&st, 0, cards[i]);
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_DISCARD);
    play(&st, "discard Harlem/Ham");
    assert_int_equal(st.phase, PD_PH_DISCARD);
    refused(&st, "discard Harlem/Ham");
    play(&st, "discard Midtown/Ham");
    assert_int_equal(st.seat, 1);
    assert_int_equal(st.player[0].hand_size, 10);
}

/* Bad text gets a reason and an example of a legal move. */
static void test_notation_errors(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 70);
    pb_action a;
    char err[PB_ERR_LEN];
    assert_int_not_equal(pd_action_parse(&st, "take deck", &a, err, sizeof err), 0);
    assert_non_null(strstr(err, "you are asked to choose your action"));
    assert_non_null(strstr(err, "for example: market"));
    assert_int_not_equal(pd_action_parse(&st, "", &a, err, sizeof err), 0);
    assert_int_equal(pd_action_parse(&st, "  MARKET ", &a, err, sizeof err), 0);
    play(&st, "market");
    pd_card c = 0;
    while (!st.open[c])
        c++;
    char text[120], word[80];
    pd_card_word(&rules->data, c, word, sizeof word);
    /* a village's code works as well as its name */
    snprintf(text, sizeof text, "take %s/%s", rules->data.map.village[PD_CARD_VILLAGE(c)].code,
             rules->data.cards.ingredient[PD_CARD_INGREDIENT(c)].name);
    assert_int_equal(pd_action_parse(&st, text, &a, err, sizeof err), 0);
    assert_true(a == PD_ACTION(PD_A_TAKE_OPEN, c));
}

/* PD-T1, PD-P3: one power card a turn, before or after the action; a new
 * card of a type replaces the old, which is discarded. */
static void test_power_card_timing(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 80);
    give_power(&st, 0, "drone-delivery");
    give_power(&st, 0, "roller-blades");
    give_power(&st, 0, "mob-boss");
    play(&st, "play power:drone-delivery");
    refused(&st, "play power:mob-boss"); /* one a turn */
    market_from_deck(&st);
    assert_int_equal(st.seat, 1); /* nothing left to decide: the turn ended */
    finish_turn(&st);
    assert_int_equal(st.seat, 0);
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_AFTER);
    play(&st, "play power:roller-blades"); /* after the action; replaces the drone */
    int drone = pd_power_find(&rules->data.cards, "drone-delivery");
    assert_false(st.tableau[0] >> drone & 1);
    assert_true(st.power_discard >> drone & 1);
    assert_true(pd_has(&st, 0, PD_PC_ROLLER_BLADES));
    assert_int_equal(st.seat, 1);
}

/* A delivery 5 spaces away from a 1-disk pizzeria, with each speed card. */
static int distance_cards_with(const char *speed, unsigned modes, int *length)
{
    pd_state st;
    table(&st, 2, 81);
    static const char *const gv[] = {"Greenwich Village/Ham", NULL};
    static const char *const b[] = {"Hell's Kitchen/Ham", NULL};
    pizzeria(&st, 0, "GV-1", 1, gv);
    order(&st, 1, b);
    give_from_deck(&st, 0, 9);
    if (speed)
        in_play(&st, 0, speed);
    pd_quote q;
    if (pd_delivery_quote(&st, 0, 1, pd_village_find(&rules->data.map, "GV"), -1, modes, &q) != 0)
        return -1;
    *length = q.length;
    return q.distance_cards;
}

static void test_speed_cards(void **state)
{
    (void)state;
    int len;
    assert_int_equal(distance_cards_with(NULL, 0, &len), 4);
    assert_int_equal(len, 5);
    assert_int_equal(distance_cards_with("drone-delivery", 0, &len), 2);   /* 2 spaces a card */
    assert_int_equal(distance_cards_with("roller-blades", 0, &len), 2);    /* 3 more free, then 2 cards a space */
    assert_int_equal(distance_cards_with(NULL, PD_ROUTE_RED, &len), -1);   /* no ticket */
    /* Greenwich Village and Hell's Kitchen both have red stations */
    int red = distance_cards_with("subway-ticket-red", PD_ROUTE_RED, &len);
    assert_true(len < 5);
    assert_int_equal(red, (len > 1 ? len - 1 : 0) + 2); /* the fare is 2 cards */
    assert_int_equal(distance_cards_with("subway-ticket-red", PD_ROUTE_BLUE, &len), -1); /* the other line */
    int pass = distance_cards_with("subway-fast-pass", PD_ROUTE_RED | PD_ROUTE_BLUE, &len);
    assert_int_equal(pass, len > 1 ? len - 1 : 0); /* a token, no cards */
}

/* Money cards tied to a zone (Mob Boss: Hell's Kitchen): an opponent's
 * delivery there pays the holder $1; the holder's own gets $2 from the bank. */
static void test_zone_money_card(void **state)
{
    (void)state;
    for (int holder = 0; holder < 2; holder++) {
        pd_state st;
        table(&st, 2, 82);
        static const char *const hk[] = {"Hell's Kitchen/Ham", NULL};
        static const char *const b[] = {"Midtown/Ham", "Hell's Kitchen/Ham", NULL};
        pizzeria(&st, 0, "HK-1", 4, hk);
        order(&st, 0, b);
        give(&st, 0, "Upper West Side/Ham");
        in_play(&st, holder, "mob-boss");
        st.player[1].money = 5;
        play(&st, "deliver 1 from HK");
        finish_turn(&st);
        if (holder == 0) {
            assert_int_equal(st.player[0].money, 5 + 2 + 2);
            assert_int_equal(st.player[1].money, 5);
        } else {
            assert_int_equal(st.player[0].money, 5 + 2 - 1);
            assert_int_equal(st.player[1].money, 5 + 1);
        }
    }
}

/* Midtown Hi-Jinks: an opponent's delivery to Midtown gets no tip. */
static void test_midtown_hi_jinks(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 83);
    static const char *const mt[] = {"Midtown/Ham", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    in_play(&st, 1, "midtown-hi-jinks");
    int pool = st.ntip_pool;
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.player[0].ntips, 0);
    assert_int_equal(st.ntip_pool, pool); /* the token went back; the new order drew one */
}

/* East Village Mogul: two market cards after a delivery to the East Village. */
static void test_east_village_mogul(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 84);
    static const char *const ev[] = {"East Village/Pineapple", NULL};
    static const char *const a[] = {"East Village/Pineapple", NULL};
    pizzeria(&st, 0, "EV-1", 4, ev);
    order(&st, 0, a);
    in_play(&st, 0, "east-village-mogul");
    play(&st, "deliver 1 from EV");
    assert_int_equal(st.phase, PD_PH_BONUS);
    play(&st, "take deck");
    play(&st, "take deck");
    assert_int_equal(st.player[0].hand_size, 2);
}

/* Frugal Shopper: a turn without a delivery may end with one market card,
 * and then no other power card. Liberty Storage: a hand limit of 12. */
static void test_frugal_shopper_and_liberty_storage(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 85);
    in_play(&st, 0, "frugal-shopper");
    give_power(&st, 0, "liberty-storage");
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_AFTER);
    play(&st, "take deck");
    assert_int_equal(st.seat, 1); /* no power card after it */
    assert_int_equal(st.player[0].hand_size, 3);
    assert_int_equal(__builtin_popcountll(st.player[0].powers), 1);
    /* a delivery sends it to the discards */
    finish_turn(&st);
    static const char *const mt[] = {"Midtown/Ham", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    check(&st);
    play(&st, "deliver 1 from MT");
    ham_tip(&st, "tip 1"); /* Ham on top */
    assert_false(pd_has(&st, 0, PD_PC_FRUGAL));
    pd_state lib;
    table(&lib, 2, 86);
    in_play(&lib, 0, "liberty-storage");
    const char *const cards[] = {"Harlem/Ham",  "Harlem/Onions",   "Harlem/Peppers",  "Harlem/Sausage",
                                 "Midtown/Ham", "Midtown/Onions",  "Midtown/Peppers", "Midtown/Sausage",
                                 "Harlem/Tomatoes", "Midtown/Tomatoes", NULL};
    for (int i = 0; cards[i]; i++)
        give(&lib, 0, cards[i]);
    play(&lib, "market");
    play(&lib, "take deck");
    play(&lib, "take deck");
    assert_int_equal(lib.seat, 1); /* 12 cards: within the limit */
    assert_int_equal(lib.player[0].hand_size, 12);
}

/* Frugal Shopper alone in its turn: played before the action its take is
 * used the same turn (a card played before the action works that turn);
 * played after the action, not. No other power card is used the turn it
 * is: not after a Bait and Switch swap or a Cold Storage refill, and no swap
 * or refill after its take. */
static void test_frugal_shopper_no_other_power_that_turn(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 9);
    give_power(&st, 0, "frugal-shopper");
    play(&st, "play power:frugal-shopper");
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_AFTER);
    int hand = st.player[0].hand_size;
    play(&st, "take deck");
    assert_int_equal(st.player[0].hand_size, hand + 1);
    assert_int_equal(st.seat, 1);

    table(&st, 2, 9);
    give_power(&st, 0, "frugal-shopper");
    give(&st, 0, "Harlem/Ham");
    market_from_deck(&st);
    play(&st, "play power:frugal-shopper"); /* after the action: from the next turn */
    assert_int_equal(st.seat, 1);            /* no take: the turn is over */

    /* a swap, then no take */
    table(&st, 2, 7);
    static const char *const o[] = {"Upper West Side/Ham", "Harlem/Peppers", NULL};
    order(&st, 0, o);
    give(&st, 0, "Midtown/Peppers");
    in_play(&st, 0, "frugal-shopper");
    in_play(&st, 0, "bait-and-switch");
    give_power(&st, 0, "liberty-storage"); /* so the turn waits after the action */
    play(&st, "swap 1 Midtown/Peppers");
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_AFTER);
    assert_refused_with(&st, "take deck", "a Bait and Switch swap");

    /* a take, then no swap */
    table(&st, 2, 7);
    order(&st, 0, o);
    give(&st, 0, "Midtown/Peppers");
    in_play(&st, 0, "frugal-shopper");
    in_play(&st, 0, "bait-and-switch");
    market_from_deck(&st);
    assert_true(is_legal(&st, "swap 1 MT/Peppers"));
    play(&st, "take deck");
    assert_int_equal(st.seat, 1);

    /* a refill, then no take; a take, then no refill */
    for (int take_first = 0; take_first < 2; take_first++) {
        table(&st, 2, 7);
        give(&st, 0, "Midtown/Peppers");
        give(&st, 0, "Harlem/Ham");
        in_play(&st, 0, "frugal-shopper");
        in_play(&st, 0, "cold-storage");
        st.ncold = 0;
        pd_card onions = card("Harlem/Onions");
        take_out(&st, onions);
        st.sewer[onions]++;
        give_power(&st, 0, "liberty-storage"); /* so the turn waits after the action */
        if (!take_first)
            play(&st, "refill MT/Peppers");
        market_from_deck(&st);
        if (!take_first) {
            assert_int_equal(st.phase, PD_PH_AFTER);
            assert_refused_with(&st, "take deck", "a Cold Storage refill");
            continue;
        }
        assert_true(is_legal(&st, "refill MT/Peppers"));
        play(&st, "take deck");
        assert_int_equal(st.seat, 1);
    }
}

/* The Health Inspector power card: a GLOBAL that fines everyone at once; it
 * is not one of the three that end the game. */
static void test_health_inspector_power_card(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 3, 87);
    int p = give_power(&st, 0, "health-inspector");
    int worth[3];
    for (int s = 0; s < 3; s++) /* what each could pay with: money and cards */
        worth[s] = st.player[s].money + st.player[s].hand_size + __builtin_popcountll(st.player[s].powers);
    play(&st, "play power:health-inspector");
    assert_int_equal(st.global, p);
    assert_int_equal(st.inspectors, 0); /* not one of the three that end the game */
    assert_int_equal(st.phase, PD_PH_FINE);
    while (st.phase == PD_PH_FINE) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    for (int s = 0; s < 3; s++) { /* everyone paid $2, in money or cards (seat 0 also played the card) */
        int now = st.player[s].money + st.player[s].hand_size + __builtin_popcountll(st.player[s].powers);
        assert_int_equal(now, worth[s] - 2 - (s == 0));
        assert_int_equal(st.fines_due[s], 0);
    }
    assert_int_equal(st.global, p); /* it stays as the global in play */
    check(&st);
}

/* Long Distance Delivery: Harlem to the Financial District pays $5 more. */
static void test_long_distance(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 88);
    static const char *const ha[] = {"Harlem/Ham", NULL};
    static const char *const a[] = {"Financial District/Ham", NULL};
    pizzeria(&st, 0, "HA-1", 1, ha);
    order(&st, 0, a);
    in_play(&st, 0, "long-distance-delivery");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "HA"), -1, 0, &q), -1); /* too far */
    give_from_deck(&st, 0, 20);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "HA"), -1, 0, &q), 0);
    assert_int_equal(q.pay, 1 + 5);
}

/* Park Path: open to everyone while someone owns it; a delivery across it
 * pays the owner $1, the owner's own gets $2 from the bank. Motor Boat: a
 * dock to another dock is one space. */
static void test_park_path_and_boat(void **state)
{
    (void)state;
    for (int owner = 0; owner < 2; owner++) {
        pd_state st;
        table(&st, 2, 89);
        static const char *const uw[] = {"Upper West Side/Ham", NULL};
        static const char *const a[] = {"Upper East Side/Ham", NULL};
        pizzeria(&st, 0, "UW-2", 1, uw);
        order(&st, 0, a);
        give_from_deck(&st, 0, 10);
        int v = pd_village_find(&rules->data.map, "UW");
        pd_quote walk, path;
        assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, 0, &walk), 0);
        assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_PARK, &path), -1); /* nobody owns it */
        in_play(&st, owner, "park-path");
        assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_PARK, &path), 0);
        assert_true(path.length < walk.length);
        st.player[1].money = 5;
        play(&st, "deliver 1 from UW via park");
        finish_turn(&st);
        if (owner == 0)
            assert_int_equal(st.player[0].money, 5 + 1 + 2);
        else
            assert_int_equal(st.player[1].money, 5 + 1);
    }
    pd_state st;
    table(&st, 2, 90);
    static const char *const ha[] = {"Harlem/Ham", NULL};
    static const char *const a[] = {"Financial District/Ham", NULL};
    pizzeria(&st, 0, "HA-1", 1, ha);
    order(&st, 0, a);
    give_from_deck(&st, 0, 20);
    in_play(&st, 0, "motor-boat");
    pd_quote walk, boat;
    int v = pd_village_find(&rules->data.map, "HA");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, 0, &walk), 0);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_BOAT, &boat), 0);
    assert_true(boat.length < walk.length);
    assert_int_equal(boat.distance_cards, boat.length - 1);
}

/* ---- Rules exactly as printed: the Park Path, specialty orders' extra
 * cards, the end-of-game tableau ---- */

static json_t *view_delivery(json_t *view, const char *move);

/* The first legal decision, while a delivery still asks for its cards. */
static void supply_and_pay(pd_state *st)
{
    while (st->phase == PD_PH_SUPPLY || st->phase == PD_PH_DISTANCE) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
        check(st);
    }
}

/* The view's route of a delivery, as "a4 b4 c4 c6 c8". */
static void view_route(json_t *d, char *out, size_t n)
{
    size_t i, at = 0;
    json_t *s;
    out[0] = 0;
    json_array_foreach(json_object_get(d, "route"), i, s)
        at += (size_t)snprintf(out + at, at < n ? n - at : 0, "%s%s", i ? " " : "", json_string_value(s));
}

/* Park Path: "a North, South, East, West, single space road through Central
 * Park": crossing the park counts one space, north-south as east-west. From
 * HA-3 (door a4) to Central Park's zone c8: 7 spaces round the park, 5
 * across it (a4 b4 c4 c6 c8), so another player's path is worth its $1. */
static void test_park_path_is_a_single_space_road(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 91);
    others_without_powers(&st);
    static const char *const ha[] = {"Harlem/Onions", NULL};
    static const char *const a[] = {"Central Park/Onions", NULL};
    pizzeria(&st, 0, "HA-3", 1, ha);
    order(&st, 0, a);
    give_from_deck(&st, 0, 10);
    in_play(&st, 1, "park-path");
    int v = pd_village_find(&rules->data.map, "HA");
    pd_quote walk, path;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, 0, &walk), 0);
    assert_int_equal(walk.length, 7);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_PARK, &path), 0);
    assert_int_equal(path.length, 5);
    assert_int_equal(path.distance_cards, 4);
    assert_int_equal(path.pay, 1);
    /* what the front ends preview: its length, cost, pay and route */
    json_t *view = pd_view(&st, 0), *d = view_delivery(view, "deliver 1 from HA via park");
    char route[128];
    assert_non_null(d);
    assert_int_equal(json_integer_value(json_object_get(d, "length")), 5);
    assert_int_equal(json_integer_value(json_object_get(d, "distance_cards")), 4);
    assert_int_equal(json_integer_value(json_object_get(d, "pay")), 1);
    view_route(d, route, sizeof route);
    assert_string_equal(route, "a4 b4 c4 c6 c8");
    json_decref(view);
    st.player[0].money = st.player[1].money = 5;
    int hand = st.player[0].hand_size;
    play(&st, "deliver 1 from HA via park");
    supply_and_pay(&st);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].hand_size, hand - 4);
    assert_int_equal(st.player[0].money, 5 + 1 - 1); /* the order, less $1 to the path's owner */
    assert_int_equal(st.player[1].money, 5 + 1);
}

/* Park Path: its owner may always go across it, a detour too, and then gets
 * $2 from the bank ("If you use the park path, you get $2"); the others use
 * it only where it is shorter (they would pay $1 for nothing). From UW-1
 * (door a5) to the Upper West Side's zone b6: 3 by the streets; across the
 * park a5 a4 b4 c4 c6 b6, 6 (in at one end, out at another: never b6 c6 b6). */
static void test_park_path_owner_may_always_use_it(void **state)
{
    (void)state;
    for (int owner = 0; owner < 2; owner++) {
        pd_state st;
        table(&st, 2, 92);
        others_without_powers(&st);
        static const char *const uw[] = {"Upper West Side/Onions", NULL};
        static const char *const a[] = {"Upper West Side/Onions", NULL};
        pizzeria(&st, 0, "UW-1", 1, uw);
        order(&st, 0, a);
        give_from_deck(&st, 0, 10);
        in_play(&st, owner, "park-path");
        int v = pd_village_find(&rules->data.map, "UW");
        pd_quote walk, path;
        assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, 0, &walk), 0);
        assert_int_equal(walk.length, 3);
        assert_int_equal(walk.pay, 1);
        if (owner == 1) {
            assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_PARK, &path), -1);
            refused(&st, "deliver 1 from UW via park");
            continue;
        }
        assert_int_equal(pd_delivery_quote(&st, 0, 0, v, -1, PD_ROUTE_PARK, &path), 0);
        assert_int_equal(path.length, 6);
        assert_int_equal(path.distance_cards, 5);
        assert_int_equal(path.pay, 1 + 2);
        /* both ways are moves, and the notation reads back what it writes */
        pb_action a1;
        char err[PB_ERR_LEN], text[128];
        assert_int_equal(pd_action_parse(&st, "deliver 1 from UW via park", &a1, err, sizeof err), 0);
        assert_int_equal(pd_action_text(&st, a1, 0, text, sizeof text), 0);
        assert_string_equal(text, "deliver 1 from UW via park");
        assert_int_equal(pd_action_parse(&st, "deliver 1 from UW", &a1, err, sizeof err), 0);
        json_t *view = pd_view(&st, 0), *d = view_delivery(view, "deliver 1 from UW via park");
        char route[128];
        assert_non_null(d);
        assert_int_equal(json_integer_value(json_object_get(d, "length")), 6);
        assert_int_equal(json_integer_value(json_object_get(d, "pay")), 3);
        view_route(d, route, sizeof route);
        assert_string_equal(route, "a5 a4 b4 c4 c6 b6");
        json_decref(view);
        st.player[0].money = 5;
        int hand = st.player[0].hand_size;
        play(&st, "deliver 1 from UW via park");
        supply_and_pay(&st);
        assert_int_equal(st.player[0].hand_size, hand - 5);
        assert_int_equal(st.player[0].money, 5 + 1 + 2);
    }
}

/* Specialty orders: "2 additional cards from hand" are any hand cards,
 * power cards too, as for property and distance payments. Meat Lovers from
 * FD-1 to its own zone: 5 ingredients from hand, 2 extra cards and 1 space;
 * the hand holds the 5 ingredients and 3 power cards, and that is enough. */
static void test_specialty_extra_cards_may_be_power_cards(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 33);
    others_without_powers(&st);
    meat_lovers(&st, 0);
    static const char *const fd[] = {"Financial District/Pepperoni", NULL};
    pizzeria(&st, 0, "FD-1", 1, fd);
    const char *const hand[] = {"Harlem/Pepperoni", "Harlem/Meatballs", "Midtown/Meatballs", "Harlem/Sausage",
                                "Midtown/Sausage", NULL};
    for (int i = 0; hand[i]; i++)
        give(&st, 0, hand[i]);
    int drone = give_power(&st, 0, "drone-delivery"), mob = give_power(&st, 0, "mob-boss"),
        wizard = give_power(&st, 0, "financial-wizard");
    pd_quote q;
    int fd_village = pd_village_find(&rules->data.map, "FD");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, fd_village, fd_village, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 5);
    assert_int_equal(q.extras, 2);
    assert_int_equal(q.distance_cards, 1);
    play(&st, "deliver 1 from FD to FD");
    for (int i = 0; i < 5; i++) { /* the ingredients: market cards only */
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        int n = pd_legal_actions(&st, a);
        assert_true(n > 0);
        for (int k = 0; k < n; k++)
            assert_int_equal(PD_ARG(a[k]) & PD_POWER_FLAG, 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    assert_int_equal(st.pending.extras, 2);
    play(&st, "use power:financial-wizard");
    pd_state other = st; /* any order: the Drone card too, the Mob Boss then pays the distance */
    play(&other, "use power:drone-delivery");
    play(&other, "pay power:mob-boss");
    assert_int_equal(other.player[0].deliveries, 1);
    play(&st, "use power:mob-boss");
    assert_int_equal(st.phase, PD_PH_DISTANCE);
    play(&st, "pay power:drone-delivery");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 8);
    assert_int_equal(st.player[0].hand_size, 0);
    uint64_t spent = 1ull << drone | 1ull << mob | 1ull << wizard;
    assert_int_equal(st.player[0].powers & spent, 0);
    assert_int_equal(st.power_discard & spent, spent);
}

/* End of game: "count the number of cards in their tableau ... Also count
 * cards in storage or under any Power Card. Does not include any Global
 * Event cards": the cards under Farmer Brown and Cold Storage count, the
 * global in play and the card under it (Ingredient Shortage) count for
 * nobody (the hand is not counted either). */
static void test_end_score_counts_cards_under_power_cards(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 5, 94); /* with the expansion's Ingredient Shortage */
    others_without_powers(&st);
    in_play(&st, 0, "farmer-brown");
    in_play(&st, 0, "cold-storage");
    pd_card farmed = card("Harlem/Ham"), cold[] = {card("Midtown/Onions"), card("Harlem/Onions")};
    take_out(&st, farmed);
    st.farmed[0] = farmed;
    for (int i = 0; i < 2; i++) {
        take_out(&st, cold[i]);
        st.cold[st.ncold++] = cold[i];
    }
    int shortage = give_power(&st, 1, "ingredient-shortage");
    st.player[1].powers &= ~(1ull << shortage);
    st.global = (int8_t)shortage;
    pd_card under = card("Midtown/Ham");
    take_out(&st, under);
    st.shortage = under;
    check(&st);
    st.player[0].money = st.player[1].money = 5;
    int disks;
    assert_int_equal(pd_tableau_cards(&st, 0, &disks), 2 + 1 + 2); /* 2 power cards, 3 cards under them */
    assert_int_equal(pd_tableau_cards(&st, 1, &disks), 0);
    assert_int_equal(pd_score(&st, 0), 5 + 5);
    assert_int_equal(pd_score(&st, 1), 5);
    json_t *score = pd_score_json(&st, NULL);
    json_t *p0 = json_array_get(json_object_get(score, "players"), 0);
    assert_int_equal(json_integer_value(json_object_get(p0, "tableau")), 5);
    assert_int_equal(json_integer_value(json_object_get(p0, "score")), 10);
    json_decref(score);
}

/* Bait and Switch: a hand card of the same ingredient replaces an order's
 * top card, moving the delivery; the old top card comes to hand. */
static void test_bait_and_switch(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 91);
    static const char *const a[] = {"Greenwich Village/Onions", "Harlem/Ham", NULL};
    order(&st, 2, a);
    give(&st, 0, "Midtown/Ham");
    give(&st, 0, "Midtown/Pepperoni");
    give_power(&st, 0, "bait-and-switch");
    play(&st, "play power:bait-and-switch");
    refused(&st, "swap 3 Midtown/Onions"); /* not in hand */
    refused(&st, "swap 3 Midtown/Pepperoni"); /* not the top card's ingredient (Ham) */
    play(&st, "swap 3 Midtown/Ham");
    assert_int_equal(pd_order_village(&st, 2), pd_village_find(&rules->data.map, "MT"));
    assert_int_equal(st.player[0].hand[card("Harlem/Ham")], 1);
    assert_int_equal(st.phase, PD_PH_START); /* back to the turn's action */
}

/* Building Commissioner: three lots reserved at once; nobody else may build
 * there; the holder's build takes its token off. */
static void test_building_commissioner(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 92);
    give_power(&st, 0, "building-commissioner");
    play(&st, "play power:building-commissioner");
    assert_int_equal(st.phase, PD_PH_BLOCK);
    play(&st, "block MT-1");
    refused(&st, "block HA-1"); /* in lot order */
    play(&st, "block MT-2");
    play(&st, "block MT-3");
    assert_int_equal(st.phase, PD_PH_START);
    give(&st, 0, "Midtown/Ham");
    st.player[0].money = 10;
    play(&st, "reputation");
    play(&st, "build MT-2 Midtown/Ham");
    for (int i = 0; i < 8; i++)
        play(&st, "pay $1");
    int mt2 = pd_lot_find(&rules->data.map, "MT-2"), mt1 = pd_lot_find(&rules->data.map, "MT-1");
    assert_int_equal(st.blocker[mt2], -1);
    assert_int_equal(st.blocker[mt1], 0);
    if (st.seat == 0)
        finish_turn(&st); /* a second build or upgrade was possible */
    assert_int_equal(st.seat, 1);
    give(&st, 1, "Midtown/Onions");
    st.player[1].money = 10;
    play(&st, "reputation");
    refused(&st, "build MT-1 Midtown/Onions");
    refused(&st, "build MT-3 Midtown/Onions");
}

/* Seat 0 plays Farmer Brown and stores `text`, put in the sewer for it; its
 * next turn begins (the card supplies from then on, not on the turn he
 * comes: a delivery from MT is refused then). */
static void farm_for_seat_0(pd_state *st, const char *text)
{
    take_out(st, card(text));
    st->sewer[card(text)]++;
    give_power(st, 0, "farmer-brown");
    play(st, "play power:farmer-brown");
    assert_int_equal(st->phase, PD_PH_FARM);
    char move[64];
    snprintf(move, sizeof move, "farm %s", text);
    play(st, move);
    refused(st, "deliver 1 from MT");
    market_from_deck(st);
    if (st->seat == 0)
        finish_turn(st);
    finish_turn(st); /* the other player's turn */
    assert_int_equal(st->seat, 0);
}

/* Farmer Brown: a sewer card under it is an ingredient at every one of the
 * holder's pizzerias, from the next turn on. */
static void test_farmer_brown(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 93);
    static const char *const mt[] = {"Midtown/Pineapple", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    farm_for_seat_0(&st, "Harlem/Ham");
    empty_hand(&st, 0);
    check(&st);
    play(&st, "deliver 1 from MT"); /* the Ham under Farmer Brown supplies it */
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.farmed[0], card("Harlem/Ham")); /* it stays */
}

/* The turn stops after the action whenever the mover holds a power card,
 * whether or not it can be played: stopping only for a playable one would
 * tell the others what the hand holds. */
static void test_after_the_action_reveals_nothing(void **state)
{
    (void)state;
    const char *const cards[] = {"cold-storage", "drone-delivery"};
    for (int i = 0; i < 2; i++) {
        pd_state st;
        table(&st, 2, 94);
        give_power(&st, 0, cards[i]);
        market_from_deck(&st);
        assert_int_equal(st.phase, PD_PH_AFTER);
        assert_int_equal(st.seat, 0);
        play(&st, "end");
        assert_int_equal(st.seat, 1);
    }
}

/* An empty sewer: its cards go to seat 1's hand (so every card stays counted). */
static void empty_sewer(pd_state *st)
{
    for (int c = 0; c < PD_TYPES; c++)
        for (; st->sewer[c]; st->sewer[c]--) {
            st->player[1].hand[c]++;
            st->player[1].hand_size++;
        }
}

/* Put a card, wherever it lies, into the sewer. */
static void to_sewer(pd_state *st, const char *text)
{
    pd_card c = card(text);
    take_out(st, c);
    st->sewer[c]++;
}

static void pass_round(pd_state *st)
{
    do
        finish_turn(st);
    while ((st->seat != 0 || st->phase != PD_PH_START) && st->phase != PD_PH_OVER);
}

/* Cold Storage: 4 random sewer cards under it, used like hand cards for a
 * delivery's ingredients from the next turn; refilled for a hand card once
 * empty, never on a turn it was used or filled; counted in the score;
 * returned to the sewer when the card leaves. */
static void test_cold_storage(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 95);
    static const char *const mt[] = {"Midtown/Pineapple", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    empty_sewer(&st);
    static const char *const sewer[] = {"Harlem/Ham", "Midtown/Ham", "Harlem/Pepperoni", "Midtown/Onions"};
    for (int i = 0; i < 4; i++)
        to_sewer(&st, sewer[i]);
    give_power(&st, 0, "cold-storage");
    int before = pd_score(&st, 0);
    play(&st, "play power:cold-storage");
    assert_int_equal(st.ncold, 4);
    for (int c = 0; c < PD_TYPES; c++)
        assert_int_equal(st.sewer[c], 0); /* all four came out */
    assert_int_equal(pd_score(&st, 0), before + 1 + 4); /* the card and the cards under it */
    refused(&st, "deliver 1 from MT"); /* not on the turn it is filled */
    market_from_deck(&st);
    pass_round(&st);
    empty_hand(&st, 0);
    check(&st);
    play(&st, "deliver 1 from MT"); /* the hand is empty: only the storage can supply the Ham */
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    refused(&st, "use stored Harlem/Pepperoni");
    play(&st, "use stored Midtown/Ham");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.ncold, 3);
    assert_int_equal(st.sewer[card("Midtown/Ham")], 1);
    /* emptied now (by hand, for the test): no refill on the turn it was used */
    for (int i = 0; i < st.ncold; i++)
        st.sewer[st.cold[i]]++;
    st.ncold = 0;
    give(&st, 0, "Harlem/Sausage");
    refused(&st, "refill Harlem/Sausage");
    pass_round(&st);
    empty_hand(&st, 0);
    give(&st, 0, "Harlem/Sausage");
    int sewer_before = 0;
    for (int c = 0; c < PD_TYPES; c++)
        sewer_before += st.sewer[c];
    play(&st, "refill Harlem/Sausage");
    assert_int_equal(st.ncold, sewer_before < 4 ? sewer_before : 4);
    assert_int_equal(st.player[0].hand_size, 0);
    assert_int_equal(st.cold_filled_turn, st.turn);
    /* another EVENT card replaces it: its cards go back to the sewer */
    give_power(&st, 0, "liberty-storage");
    market_from_deck(&st);
    play(&st, "play power:liberty-storage");
    assert_false(pd_has(&st, 0, PD_PC_COLD_STORAGE));
    assert_int_equal(st.ncold, 0);
}

/* Cold Storage is refilled "by discarding one card from their hand": a
 * power card is a hand card too, and goes to the power discards. */
static void test_cold_storage_refilled_with_a_power_card(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 95);
    empty_hand(&st, 0);
    in_play(&st, 0, "cold-storage");
    empty_sewer(&st);
    to_sewer(&st, "Harlem/Ham");
    int p = give_power(&st, 0, "liberty-storage");
    assert_true(is_legal(&st, "refill power:liberty-storage"));
    play(&st, "refill power:liberty-storage");
    assert_int_equal(st.ncold, 1);
    assert_int_equal(st.cold[0], card("Harlem/Ham"));
    assert_false(st.player[0].powers >> p & 1);
    assert_true(st.power_discard >> p & 1);
    assert_int_equal(st.cold_filled_turn, st.turn);
}

/* Harlem Rotary Pizzeria: when another seat delivers to Harlem, the holder
 * may copy the order from a pizzeria of theirs: its ingredients and the way
 * to Harlem's zone paid as for any delivery; the same money, a random tip
 * token and a power card; declining changes nothing. */
static void test_harlem_rotary(void **state)
{
    (void)state;
    for (int copy = 0; copy < 2; copy++) {
        pd_state st;
        table(&st, 2, 96);
        static const char *const ha2[] = {"Harlem/Tomatoes", NULL};
        static const char *const ha1[] = {"Harlem/Onions", NULL}; /* Onions' choice is not the copy's */
        static const char *const a[] = {"Midtown/Sausage", "Harlem/Ham", NULL};
        pizzeria(&st, 0, "HA-2", 4, ha2);
        pizzeria(&st, 1, "HA-1", 4, ha1);
        order(&st, 0, a);
        empty_hand(&st, 1);
        in_play(&st, 1, "harlem-rotary-pizzeria");
        give(&st, 0, "Harlem/Sausage");
        give(&st, 0, "Midtown/Ham");
        give(&st, 1, "Midtown/Sausage");
        give(&st, 1, "Harlem/Ham");
        int money = st.player[1].money, tips = st.ntip_pool, powers = st.npower_deck;
        play(&st, "deliver 1 from HA");
        while (st.phase == PD_PH_SUPPLY && st.seat == 0)
            finish_turn(&st), (void)0;
        assert_int_equal(st.phase, PD_PH_COPY);
        assert_int_equal(pd_current_seat(&st), 1);
        json_t *v = pd_view(&st, 1);
        assert_int_equal(json_integer_value(json_object_get(v, "whose_turn")), 0);
        assert_string_equal(json_string_value(json_object_get(json_object_get(v, "copy"), "village")), "HA");
        json_decref(v);
        int pay = st.rules->data.cards.order[st.copied.kind].pay;
        if (!copy) {
            play(&st, "done");
            assert_int_equal(st.player[1].money, money);
            assert_int_equal(st.player[1].hand_size, 2);
        } else {
            play(&st, "copy from HA");
            assert_int_equal(st.phase, PD_PH_SUPPLY); /* the two ingredients from the hand */
            refused(&st, "short");
            play(&st, "use Midtown/Sausage");
            play(&st, "use Harlem/Ham");
            assert_int_equal(st.player[1].money, money + pay);
            assert_int_equal(st.player[1].deliveries, 1);
            assert_int_equal(st.player[1].hand_size, 0);
            assert_int_equal(st.player[1].ntips, 1);
            assert_int_equal(st.ntip_pool, tips - 2); /* the new order's and the copy's */
            assert_int_equal(st.npower_deck, powers - 2);
            assert_true(__builtin_popcountll(st.player[1].powers) == 1);
        }
        assert_int_equal(st.copied.kind, -1);
        assert_int_equal(pd_current_seat(&st), 0); /* the deliverer's turn goes on */
        check(&st);
    }
}

/* A table of the 5-6 player box (ANY cards in the deck), seat 0 to act. */
static void expansion_table(pd_state *st, int players, uint64_t seed)
{
    assert_true(players >= 5); /* 5 and 6 players always have it */
    table(st, players, seed);
    assert_true(rules->expansion);
}

/* PD-P2 with several ways: an Any Meat in the pizzeria supplies whichever
 * meat the hand cannot, so a delivery the hand can complete is offered. */
static void test_any_card_covers_what_the_hand_cannot(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 97);
    static const char *const mt[] = {"Midtown/Pineapple", "Midtown/Any-Meat", NULL};
    static const char *const a[] = {"Harlem/Ham", "Midtown/Sausage", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Ham"); /* no Sausage in hand: the Any Meat must be the Sausage */
    give(&st, 0, "Harlem/Onions"); /* for the space beyond the free range */
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Ham");
    play(&st, "pay Harlem/Onions");
    assert_int_equal(st.player[0].deliveries, 1);
}

/* An Any Meat added under a top meat takes the top away with the other
 * meats; a Central Park card left below never becomes the top. */
static void test_any_card_never_leaves_central_park_on_top(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 98);
    static const char *const mt[] = {"Central-Park/Onions", "Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 1, mt);
    give(&st, 0, "Midtown/Any-Meat");
    play(&st, "reputation");
    play(&st, "upgrade MT Midtown/Any-Meat add");
    const pd_pizzeria *z = &st.player[0].pizzeria[pd_village_find(&rules->data.map, "MT")];
    assert_int_equal(z->ncards, 2); /* the Ham went to the sewer */
    assert_int_equal(z->card[z->ncards - 1], card("Midtown/Any-Meat"));
    assert_int_equal(z->card[0], card("Central-Park/Onions"));
}

/* The village an order goes to, by code. */
static const char *order_village(const pd_state *st, int slot)
{
    return rules->data.map.village[pd_order_village(st, slot)].code;
}

/* Expansion TIMED cards act once and go to the discards: Lucky Day $3,
 * Down on Your Luck two random sewer cards. */
static void test_lucky_day_and_down_on_your_luck(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 99);
    int money = st.player[0].money;
    int p = give_power(&st, 0, "lucky-day");
    play(&st, "play power:lucky-day");
    assert_int_equal(st.player[0].money, money + 3);
    assert_true(st.power_discard >> p & 1);
    refused(&st, "play power:lucky-day");
    /* next turn: the sewer holds exactly two cards, both come to hand */
    market_from_deck(&st);
    pass_round(&st);
    empty_hand(&st, 0);
    empty_sewer(&st);
    to_sewer(&st, "Harlem/Ham");
    to_sewer(&st, "Midtown/Onions");
    give_power(&st, 0, "down-on-your-luck");
    play(&st, "play power:down-on-your-luck");
    assert_int_equal(st.player[0].hand[card("Harlem/Ham")], 1);
    assert_int_equal(st.player[0].hand[card("Midtown/Onions")], 1);
    assert_int_equal(st.player[0].hand_size, 2);
}

/* Another seat's guesses at the hidden cards keep the known cards (`top`:
 * counts per type) on top of the deck, above position `from`. */
static void guesses_keep_top(const pd_state *st, int from, const int *top)
{
    pb_rng rng;
    pb_rng_seed(&rng, 4);
    for (int k = 0; k < 20; k++) {
        pd_state d = *st;
        pd_determinize(&d, 1, &rng);
        int again[PD_TYPES] = {0};
        for (int i = from; i < d.ndeck; i++)
            again[d.deck[i]]++;
        assert_memory_equal(again, top, sizeof again);
        check(&d);
    }
}

/* Buying Time: 10 random sewer cards go on top of the market deck; the
 * sewer is public, so what they are is known (not their order): a guess at
 * the hidden cards keeps them on top, and the next draws take them. */
static void test_buying_time(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 111);
    empty_sewer(&st);
    static const char *const sewer[] = {"Harlem/Ham", "Harlem/Onions", "Midtown/Ham", "Midtown/Onions",
                                        "Harlem/Peppers", "Midtown/Peppers", "Harlem/Tomatoes",
                                        "Midtown/Tomatoes", "Harlem/Pineapple", "Midtown/Pineapple",
                                        "Harlem/Sausage", "Midtown/Sausage"};
    for (int i = 0; i < 12; i++)
        to_sewer(&st, sewer[i]);
    int deck = st.ndeck;
    give_power(&st, 0, "buying-time");
    play(&st, "play power:buying-time");
    assert_int_equal(st.ndeck, deck + 10);
    assert_int_equal(st.known_top, 10);
    int left = 0, top[PD_TYPES] = {0};
    for (int c = 0; c < PD_TYPES; c++)
        left += st.sewer[c];
    assert_int_equal(left, 2);
    for (int i = deck; i < st.ndeck; i++)
        top[st.deck[i]]++;
    guesses_keep_top(&st, deck, top); /* the top ten */
    /* every seat sees which ten lie on top */
    json_t *v = pd_view(&st, 1);
    const json_t *shown = json_object_get(v, "deck_top");
    int seen = 0;
    for (size_t i = 0; i < json_array_size(shown); i++) {
        const json_t *e = json_array_get(shown, i);
        int c = card(json_string_value(json_object_get(e, "card")));
        assert_int_equal(json_integer_value(json_object_get(e, "count")), top[c]);
        seen += top[c];
    }
    assert_int_equal(seen, 10);
    json_decref(v);
    play(&st, "market");
    play(&st, "take deck");
    play(&st, "take deck");
    /* a card drawn into a hand: the others cannot tell which of the ten it
     * was, so none of the rest is known any more (forgotten, never leaked) */
    assert_int_equal(st.known_top, 0);
    v = pd_view(&st, 1);
    assert_null(json_object_get(v, "deck_top"));
    json_decref(v);
    for (int c = 0; c < PD_TYPES; c++)
        if (st.player[0].hand[c])
            assert_true(top[c] > 0); /* both came from the ten */
}

/* Real-Estate Tycoon: a build, then a second one of equal or lower cost
 * for free, no upgrades; the turn's action may not be Increase Your
 * Reputation (after one, the card is not offered). */
static void test_real_estate_tycoon(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 112);
    give(&st, 0, "Upper West Side/Ham");
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Financial District/Ham");
    give(&st, 0, "Midtown/Onions");
    give(&st, 0, "Midtown/Peppers");
    give(&st, 0, "Hell's Kitchen/Peppers");
    give(&st, 0, "East Village/Peppers");
    st.player[0].money = 0;
    give_power(&st, 0, "real-estate-tycoon");
    play(&st, "play power:real-estate-tycoon");
    assert_int_equal(st.phase, PD_PH_REPUTATION);
    refused(&st, "done"); /* the first build is the card's point */
    int uw = pd_lot_find(&rules->data.map, "UW-1"), ha = pd_lot_find(&rules->data.map, "HA-1");
    int fd = pd_lot_find(&rules->data.map, "FD-1");
    int cost = rules->data.map.lot[uw].cost;
    play(&st, "build UW-1 Upper-West-Side/Ham");
    static const char *const pay[] = {"pay Hell's-Kitchen/Peppers", "pay Midtown/Peppers", "pay Midtown/Onions",
                                      "pay East-Village/Peppers", "pay power:real-estate-tycoon"};
    for (int i = 0; i < cost; i++) /* with the cards kept for the second build */
        play(&st, pay[i]);
    assert_int_equal(st.lot_owner[uw], 0);
    assert_int_equal(st.phase, PD_PH_REPUTATION);
    assert_true(rules->data.map.lot[ha].cost <= cost);
    int hand = st.player[0].hand_size;
    if (rules->data.map.lot[fd].cost > cost)
        refused(&st, "build FD-1 Financial-District/Ham"); /* dearer than the first */
    refused(&st, "upgrade UW Upper-West-Side/Ham disk");
    play(&st, "build HA-1 Harlem/Ham");
    assert_int_equal(st.lot_owner[ha], 0);
    assert_int_equal(st.player[0].hand_size, hand - 1); /* free: only the card itself */
    assert_int_equal(st.phase, PD_PH_START);            /* the turn's action is still to come */
    refused(&st, "reputation");
    market_from_deck(&st);

    /* after Increase Your Reputation the card is not offered */
    pass_round(&st);
    empty_hand(&st, 0);
    give(&st, 0, "Greenwich Village/Ham");
    give(&st, 0, "Harlem/Onions");
    give_power(&st, 0, "real-estate-tycoon");
    st.player[0].money = 10;
    play(&st, "reputation");
    play(&st, "upgrade HA Harlem/Onions disk");
    if (st.phase == PD_PH_REPUTATION)
        play(&st, "done");
    assert_int_equal(st.phase, PD_PH_AFTER);
    refused(&st, "play power:real-estate-tycoon");
}

/* Over Achiever: the delivery of the turn it is played earns $2 more;
 * Coupon Days: every delivery pays half (rounded down, at least $1) for 3
 * rounds, then the global goes. */
static void test_over_achiever_and_coupon_days(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 100);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Tomatoes", "Midtown/Pineapple", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Pineapple");
    give_power(&st, 0, "over-achiever");
    int money = st.player[0].money;
    play(&st, "play power:over-achiever");
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Pineapple");
    assert_int_equal(st.player[0].money, money + 2 + 2);
    pass_round(&st);
    assert_false(st.over_achiever); /* one turn only */
    /* it changes the delivery to come: not offered after the action (edition
     * 2 took it there, for nothing) */
    order(&st, 0, a);
    give(&st, 0, "Harlem/Pineapple");
    give_power(&st, 0, "over-achiever");
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Pineapple");
    assert_int_equal(st.phase, PD_PH_AFTER);
    assert_refused_with(&st, "play power:over-achiever", "Over Achiever is played before your action");
    pass_round(&st);

    int p = give_power(&st, 0, "coupon-days");
    play(&st, "play power:coupon-days");
    assert_int_equal(st.global, p);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Pineapple");
    money = st.player[0].money;
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Pineapple");
    assert_int_equal(st.player[0].money, money + 1); /* $2 halved */
    for (int r = 0; r < 3; r++)
        pass_round(&st);
    assert_true(st.global != p); /* three rounds later (another global may have come) */
    assert_true(st.power_discard >> p & 1);
}

/* Coupon Days halves Sausage's $1 with the rest of the delivery's money:
 * ($2 + $1) / 2 = $1, not $2 / 2 + $1 as edition 1 of the rules had it (a
 * game begun then keeps it). */
static void test_coupon_days_halves_sausage_dollar(void **state)
{
    (void)state;
    for (int edition = 1; edition <= PD_EDITION; edition++) {
        pd_state st;
        expansion_table(&st, 5, 100);
        rules->edition = (uint8_t)edition;
        static const char *const mt[] = {"Midtown/Sausage", NULL};
        static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
        pizzeria(&st, 0, "MT-1", 4, mt);
        order(&st, 0, a);
        int coupon = give_power(&st, 0, "coupon-days");
        st.player[0].powers &= ~(1ull << coupon);
        st.global = (int8_t)coupon;
        st.global_until = (uint16_t)(st.turn + 3 * st.players);
        empty_hand(&st, 0);
        give(&st, 0, "Upper West Side/Ham");
        give(&st, 0, "Upper West Side/Onions");
        give(&st, 0, "Harlem/Ham");
        int money = st.player[0].money;
        play(&st, "deliver 1 from MT");
        play(&st, "use Upper-West-Side/Ham");
        play(&st, "use Upper-West-Side/Onions");
        play(&st, "extra Harlem/Ham");
        assert_int_equal(st.player[0].money, money + (edition >= 2 ? (2 + 1) / 2 : 2 / 2 + 1));
    }
    rules->edition = PD_EDITION;
}

/* Moped Delivery: 5 spaces beyond the pizzeria's range for free, and no
 * further for any number of cards. */
static void test_moped_delivery(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 101);
    const pd_map *map = &rules->data.map;
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 1, mt); /* range 1 + 1 (Tomatoes) */
    in_play(&st, 0, "moped-delivery");
    int door = map->lot[pd_lot_find(map, "MT-1")].door, mt_v = pd_village_find(map, "MT");
    for (int k = 0; k < 6; k++)
        give(&st, 0, k % 2 ? "Harlem/Ham" : "Harlem/Onions");
    int near = 0, far = 0;
    for (int v = 0; v < map->nvillages; v++) {
        int len = pd_route_length(map, door, map->village[v].zone, 0);
        if (len < 0 || strcmp(map->village[v].code, "CP") == 0) /* no Central Park orders */
            continue;
        const char *tomatoes[] = {NULL, NULL};
        char name[64];
        snprintf(name, sizeof name, "%s/Tomatoes", map->village[v].code);
        tomatoes[0] = name;
        order(&st, 0, tomatoes);
        pd_quote q;
        int rc = pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q);
        if (len <= 2 + 5) {
            assert_int_equal(rc, 0);
            assert_int_equal(q.distance_cards, 0);
            near++;
        } else {
            assert_int_equal(rc, -1); /* six cards in hand, but the moped pays none */
            far++;
        }
    }
    assert_true(near > 0 && far > 0);
}

/* The reason a move is refused. */
static const char *refusal(const pd_state *st, const char *text)
{
    static char err[PB_ERR_LEN];
    pb_action a;
    if (pd_action_parse(st, text, &a, err, sizeof err) == 0)
        fail_msg("\"%s\" was accepted", text);
    return err;
}

/* The view's entry of "deliveries" announced by `move`, or NULL. */
static json_t *view_delivery(json_t *view, const char *move)
{
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(view, "deliveries"), i, d) {
        if (strcmp(json_string_value(json_object_get(d, "move")), move) == 0)
            return d;
    }
    return NULL;
}

/* The view's quote names what the hand must supply, as the engine will ask
 * for it: a pizzeria card supplies one ingredient (an order with two
 * Pineapples and a pizzeria with one leaves one), Farmer Brown's card
 * another. The page fills its Confirm from this list. */
static void test_view_names_what_the_hand_supplies(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 93);
    static const char *const mt[] = {"Midtown/Pineapple", NULL};
    static const char *const a[] = {"Midtown/Ham", "Harlem/Pineapple", "Upper East Side/Pineapple", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    order(&st, 0, a);
    farm_for_seat_0(&st, "Harlem/Ham");
    empty_hand(&st, 0);
    give(&st, 0, "Upper West Side/Ham");
    give(&st, 0, "Upper West Side/Pineapple");
    check(&st);
    json_t *v = pd_view(&st, 0);
    json_t *d = view_delivery(v, "deliver 1 from MT");
    assert_non_null(d);
    json_t *needs = json_object_get(d, "needs");
    assert_int_equal(json_array_size(needs), 1);
    assert_string_equal(json_string_value(json_array_get(needs, 0)), "Pineapple");
    assert_int_equal(json_integer_value(json_object_get(d, "ingredient_cards")), 1);
    json_decref(v);
    play(&st, "deliver 1 from MT");
    assert_refused_with(&st, "use UW/Ham", "the order still needs Pineapple");
    play(&st, "use UW/Pineapple");
    assert_int_equal(st.player[0].deliveries, 1);
}

/* Copy Cat: a delivery from another player's pizzeria, named by its lot:
 * its door, its disks as the free range and its permanent ingredients, the
 * rest and the distance beyond from the holder's hand; not its top card's
 * power; the owner gets nothing and keeps the pizzeria as it was. Refused
 * without the card and from a closed pizzeria. */
static void test_copy_cat(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 110);
    const pd_map *map = &rules->data.map;
    int hk = pd_village_find(map, "HK"), mt = pd_village_find(map, "MT");
    static const char *const theirs[] = {"Hell's Kitchen/Ham", "Hell's Kitchen/Pineapple", NULL}; /* Pineapple: +$1 */
    static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
    pizzeria(&st, 1, "HK-2", 1, theirs);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Onions");
    pd_quote q;
    assert_int_equal(pd_delivery_quote_from(&st, 0, 1, 0, hk, -1, 0, &q), -1);
    assert_non_null(strstr(refusal(&st, "deliver 1 from HK-2"), "Copy Cat"));
    assert_non_null(strstr(refusal(&st, "deliver 1 from HK"), "you have no pizzeria in Hell's Kitchen")); /* seat 0 has no pizzeria there */

    /* the spaces beyond their one disk, paid from the holder's hand */
    static const char *const fares[] = {"Upper West Side/Peppers", "Upper East Side/Peppers", "Harlem/Peppers",
                                        "Financial District/Peppers", "East Village/Peppers", "Greenwich Village/Peppers"};
    int length = pd_route_length(map, map->lot[pd_lot_find(map, "HK-2")].door, map->village[mt].zone, 0);
    assert_true(length > 1 && length - 1 <= 6);
    for (int k = 0; k < length - 1; k++)
        give(&st, 0, fares[k]);
    in_play(&st, 0, "copy-cat");
    assert_int_equal(pd_delivery_quote_from(&st, 0, 1, 0, hk, -1, 0, &q), 0);
    assert_int_equal(q.length, length);
    assert_int_equal(q.free_range, 1);             /* their one disk */
    assert_int_equal(q.distance_cards, length - 1);
    assert_int_equal(q.hand_ingredients, 1);       /* their Ham is permanent: the Onions from hand */
    int pay = rules->data.cards.order[st.order[0].kind].pay;
    assert_int_equal(q.pay, pay);                  /* no Pineapple dollar: it is their pizzeria's power */
    json_t *v = pd_view(&st, 0);
    json_t *d = view_delivery(v, "deliver 1 from HK-2");
    assert_non_null(d);
    assert_int_equal(json_integer_value(json_object_get(d, "owner")), 1);
    assert_string_equal(json_string_value(json_object_get(d, "lot")), "HK-2");
    assert_int_equal(json_integer_value(json_object_get(d, "pay")), pay);
    json_decref(v);

    pd_pizzeria before = st.player[1].pizzeria[hk];
    int money = st.player[0].money, their_money = st.player[1].money, tip = st.order[0].tip;
    play(&st, "deliver 1 from hk-2");
    assert_int_equal(st.pending.owner, 1);
    assert_int_equal(st.pending.nneeds, 1);
    play(&st, "use Harlem/Onions");
    assert_int_equal(st.phase, PD_PH_DISTANCE);
    for (int k = 0; k < q.distance_cards; k++) { /* in the fixed order of payments */
        pb_action legal[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, legal) > 0);
        assert_int_equal(PD_KIND(legal[0]), PD_A_PAY_CARD);
        assert_int_equal(pd_apply(&st, legal[0], err, sizeof err), 0);
    }
    assert_int_equal(st.player[0].money, money + pay);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].ntips, 1);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(st.player[0].hand_size, 0);
    assert_int_equal(st.player[1].money, their_money);
    assert_int_equal(st.player[1].deliveries, 0);
    assert_memory_equal(&st.player[1].pizzeria[hk], &before, sizeof before);

    /* closed by a crash: no disk left on the board */
    pass_round(&st);
    st.player[1].disks = (uint8_t)(st.player[1].disks + st.player[1].pizzeria[hk].disks);
    st.player[1].pizzeria[hk].disks = 0;
    in_play(&st, 0, "copy-cat");
    order(&st, 0, a);
    empty_hand(&st, 0);
    for (int k = 0; k < 6; k++)
        give(&st, 0, k ? fares[k - 1] : "Harlem/Onions");
    check(&st);
    assert_non_null(strstr(refusal(&st, "deliver 1 from HK-2"), "closed"));
}

/* Pay the distance with the first legal card each time, to the end of the
 * delivery's payments. */
static void pay_distance(pd_state *st)
{
    while (st->phase == PD_PH_DISTANCE) {
        pb_action legal[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, legal) > 0);
        assert_int_equal(pd_apply(st, legal[0], err, sizeof err), 0);
    }
}

/* Copy Cat from a pizzeria with Extra Cheese: the cheese is one of its
 * permanent ingredients, so an order asking for cheese keeps its tip, but
 * its bonus is the owner's special pizzeria power, not the deliverer's; the
 * deliverer may still put their own cheese card on for the bonus. */
static void test_copy_cat_and_extra_cheese(void **state)
{
    (void)state;
    pd_state st;
    table_with(&st, 5, 110, true);
    int hk = pd_village_find(&rules->data.map, "HK");
    static const char *const theirs[] = {"Hell's Kitchen/Extra Cheese", "Hell's Kitchen/Ham", NULL};
    static const char *const a[] = {"Harlem/Extra Cheese", "Midtown/Ham", NULL};
    pizzeria(&st, 1, "HK-2", 3, theirs);
    order(&st, 0, a);
    in_play(&st, 0, "copy-cat");
    static const char *const cards[] = {"Upper East Side/Extra Cheese", "Upper West Side/Peppers",
                                        "Upper East Side/Peppers", "Harlem/Peppers", "Financial District/Peppers",
                                        "East Village/Peppers", "Greenwich Village/Peppers", NULL};
    for (int i = 0; cards[i]; i++)
        give(&st, 0, cards[i]);
    pd_quote q;
    assert_int_equal(pd_delivery_quote_from(&st, 0, 1, 0, hk, -1, 0, &q), 0);
    int pay = rules->data.cards.order[st.order[0].kind].pay;
    assert_false(q.cheese_in_pizzeria); /* not the deliverer's bonus */
    assert_false(q.cheese_required);    /* but the order's cheese is there */
    assert_true(q.tip);
    assert_int_equal(q.pay, pay);
    int money = st.player[0].money, tip = st.order[0].tip;
    play(&st, "deliver 1 from HK-2");
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    pd_state with_own = st;
    play(&st, "done"); /* no cheese card of their own */
    pay_distance(&st);
    assert_int_equal(st.player[0].money, money + pay);
    assert_int_equal(st.player[0].tip[0], tip); /* the tip, not NO TIP */

    play(&with_own, "cheese UE/Extra-Cheese");
    pay_distance(&with_own);
    assert_int_equal(with_own.player[0].money, money + pay + 1);
}

/* Special Sale's delivery of order 1 (Harlem/Ham, Midtown/Onions) from
 * Midtown, whose Ham supplies one Ham: the rest from hand. */
static void deliver_on_sale(pd_state *st)
{
    play(st, "deliver 1 from MT");
    assert_int_equal(st->pending.nneeds, 3);
    play(st, "use Harlem/Ham");
    play(st, "use Harlem/Onions");
    play(st, "use Upper-West-Side/Onions");
}

/* Special Sale: the turn's delivery needs every ingredient twice (a
 * permanent ingredient still supplies one), pays twice its money less $1
 * (halved under Coupon Days), gives two tip tokens and one power card;
 * played before the action only, and wasted on a market turn. */
static void test_special_sale(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 111);
    for (int s = 1; s < 5; s++) { /* nobody else plays a card meanwhile */
        st.power_discard |= st.player[s].powers;
        st.player[s].powers = 0;
    }
    int mt_v = pd_village_find(&rules->data.map, "MT");
    static const char *const mt[] = {"Midtown/Ham", "Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    int sale = give_power(&st, 0, "special-sale");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 1); /* the Onions; the pizzeria's Ham the Ham */
    assert_int_equal(q.distance_cards, 0);
    int pay = q.pay;
    play(&st, "play power:special-sale");
    assert_true(st.special_sale);
    json_t *v = pd_view(&st, 0);
    assert_true(json_is_true(json_object_get(v, "special_sale")));
    json_decref(v);
    refused(&st, "deliver 1 from MT"); /* Ham, Onions and Onions from hand: one short */
    give(&st, 0, "Upper West Side/Onions");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 3);
    assert_int_equal(q.pay, 2 * pay - 1);
    int money = st.player[0].money, tip = st.order[0].tip, second = st.tip_pool[st.ntip_pool - 1];
    int deck = st.npower_deck, powers = __builtin_popcountll(st.player[0].powers);
    deliver_on_sale(&st);
    assert_int_equal(st.player[0].money, money + 2 * pay - 1);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].ntips, 2);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(st.player[0].tip[1], second);
    assert_int_equal(st.npower_deck, deck - 1); /* one power card */
    assert_int_equal(__builtin_popcountll(st.player[0].powers), powers + 1);
    assert_true(st.power_discard >> sale & 1);

    /* not after the action */
    pass_round(&st);
    assert_false(st.special_sale);
    give_power(&st, 0, "special-sale");
    market_from_deck(&st);
    assert_int_equal(st.phase, PD_PH_AFTER);
    refused(&st, "play power:special-sale");
    play(&st, "end");
    /* played, then a market turn: wasted */
    pass_round(&st);
    play(&st, "play power:special-sale");
    market_from_deck(&st);
    assert_int_equal(st.seat, 1);
    assert_false(st.special_sale);
    assert_true(st.power_discard >> sale & 1);
    assert_int_equal(st.player[0].deliveries, 1);

    /* with Coupon Days: the doubled money halved */
    pass_round(&st);
    int coupon = give_power(&st, 0, "coupon-days");
    st.player[0].powers &= ~(1ull << coupon);
    st.global = (int8_t)coupon;
    st.global_until = (uint16_t)(st.turn + 3 * st.players);
    empty_hand(&st, 0);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Upper West Side/Onions");
    give_power(&st, 0, "special-sale");
    play(&st, "play power:special-sale");
    money = st.player[0].money;
    deliver_on_sale(&st);
    int halved = (2 * pay - 1) / 2;
    assert_int_equal(st.player[0].money, money + (halved > 1 ? halved : 1));
    assert_int_equal(st.player[0].deliveries, 2);
    assert_int_equal(st.player[0].ntips, 4);
}

/* Hacker, Order Screw Up, System Error change the orders; the village an
 * order goes to follows its last card. */
static void test_order_changing_cards(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 102);
    static const char *const a[] = {"Midtown/Ham", "Harlem/Onions", NULL};
    static const char *const b[] = {"Greenwich-Village/Sausage", NULL};
    order(&st, 0, a);
    order(&st, 1, b);
    give(&st, 0, "Midtown/Sausage");
    give_power(&st, 0, "hacker");
    play(&st, "play power:hacker");
    assert_int_equal(st.phase, PD_PH_ORDERS);
    refused(&st, "screw 1.1 2.1");
    play(&st, "hack 1.2 MT/Sausage");
    assert_string_equal(order_village(&st, 0), "MT");
    assert_int_equal(st.player[0].hand[card("Harlem/Onions")], 1);
    assert_int_equal(st.phase, PD_PH_START); /* back to the action */
    market_from_deck(&st);
    pass_round(&st);

    static const char *const c[] = {"Midtown/Ham", "Midtown/Sausage", NULL};
    order(&st, 0, c);
    order(&st, 1, b);
    give_power(&st, 0, "order-screw-up");
    play(&st, "play power:order-screw-up");
    play(&st, "screw 1.2 2.1");
    assert_string_equal(order_village(&st, 0), "GV");
    assert_string_equal(order_village(&st, 1), "MT");
    market_from_deck(&st);
    pass_round(&st);

    static const char *const d[] = {"Midtown/Ham", "Greenwich-Village/Sausage", NULL};
    order(&st, 0, d);
    give_power(&st, 0, "system-error");
    play(&st, "play power:system-error");
    play(&st, "reorder 1.1"); /* Midtown/Ham goes last */
    assert_string_equal(order_village(&st, 0), "MT");
    assert_int_equal(st.order[0].card[0], card("Greenwich-Village/Sausage"));
}

/* That's My Spot: a disk from the supply on a delivery zone; others
 * delivering there pay its holder $1, the holder's own deliveries there earn
 * $1 from the bank; the disk counts at the end and goes back with the card. */
static void test_thats_my_spot(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 103);
    static const char *const mt[] = {"Central-Park/Onions", "Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    pizzeria(&st, 1, "MT-2", 3, mt);
    int score = pd_score(&st, 0), disks = st.player[0].disks;
    give_power(&st, 0, "thats-my-spot");
    play(&st, "play power:thats-my-spot");
    assert_int_equal(st.phase, PD_PH_SPOT);
    play(&st, "spot MT");
    assert_int_equal(st.player[0].disks, disks - 1);
    assert_int_equal(pd_score(&st, 0), score + 1 + 1); /* the card and the disk */
    order(&st, 0, a);
    int money = st.player[0].money;
    play(&st, "deliver 1 from MT"); /* $1 for the order, $1 from the bank */
    assert_int_equal(st.player[0].money, money + 2);
    while (st.seat != 1 || st.phase != PD_PH_START)
        finish_turn(&st);
    order(&st, 0, a);
    money = st.player[0].money;
    int theirs = st.player[1].money;
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.player[0].money, money + 1);
    assert_int_equal(st.player[1].money, theirs + 1 - 1);
}

/* Bonus Supplies: three takes, then back to the phase it was played in. */
static void test_bonus_supplies(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 104);
    give_power(&st, 0, "bonus-supplies");
    play(&st, "play power:bonus-supplies");
    assert_int_equal(st.phase, PD_PH_BONUS);
    play(&st, "take deck");
    play(&st, "take deck");
    play(&st, "take deck");
    assert_int_equal(st.player[0].hand_size, 3);
    assert_int_equal(st.phase, PD_PH_START); /* the turn's action still to come */
    market_from_deck(&st);
    assert_int_equal(st.player[0].hand_size, 5);
}

/* Oooops!: after the action, another one, not the same; Windfall: $3 and
 * two cards before the action, and then no market, delivery or build. */
static void test_oooops_and_windfall(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 105);
    give_power(&st, 0, "oooops");
    refused(&st, "play power:oooops"); /* it follows an action */
    market_from_deck(&st);
    play(&st, "play power:oooops");
    assert_int_equal(st.phase, PD_PH_START);
    refused(&st, "market");
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    play(&st, "deliver 1 from MT"); /* the second action */
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.seat, 1); /* no third action, no second power card: the turn is over */
    pass_round(&st);

    order(&st, 0, a);
    empty_hand(&st, 0);
    give_power(&st, 0, "windfall");
    int money = st.player[0].money;
    play(&st, "play power:windfall");
    assert_int_equal(st.player[0].money, money + 3);
    assert_int_equal(st.player[0].hand_size, 2);
    refused(&st, "market");
    refused(&st, "deliver 1 from MT");
    pb_action legal[PB_MAX_ACTIONS];
    int n = pd_legal_actions(&st, legal);
    for (int i = 0; i < n; i++)
        assert_true(PD_KIND(legal[i]) == PD_A_REPUTATION || PD_KIND(legal[i]) == PD_A_END);
}

/* Ingredient Shortage: a sewer card under it; no pizza with its ingredient
 * is delivered for 3 rounds; then the card goes back to the sewer. */
static void test_ingredient_shortage(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 106);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    empty_sewer(&st);
    to_sewer(&st, "Harlem/Tomatoes");
    others_without_powers(&st);
    int p = give_power(&st, 0, "ingredient-shortage");
    play(&st, "play power:ingredient-shortage");
    assert_int_equal(st.shortage, card("Harlem/Tomatoes"));
    refused(&st, "deliver 1 from MT");
    market_from_deck(&st);
    pass_round(&st);
    pass_round(&st);
    assert_int_equal(st.global, p); /* two rounds on, still in play */
    refused(&st, "deliver 1 from MT");
    pass_round(&st);
    assert_int_equal(st.global, -1); /* the third round is over */
    assert_int_equal(st.shortage, PD_NO_CARD);
    assert_int_equal(st.sewer[card("Harlem/Tomatoes")], 1); /* back in the sewer */
    assert_true(st.power_discard >> p & 1);
}

/* Ingredient Shortage: "No one may deliver a pizza with this ingredient on
 * it": the short ingredient fills no need, an Any Meat need included, and
 * is no Sausage extra card. */
static void test_ingredient_shortage_fills_no_any_need(void **state)
{
    (void)state;
    static const char *const a[] = {"Midtown/Any-Meat", "Midtown/Onions", NULL};
    static const char *const tomatoes[] = {"Midtown/Tomatoes", NULL}, *const sausage[] = {"Midtown/Sausage", NULL};
    for (int on_top = 0; on_top < 2; on_top++) { /* Tomatoes, then Sausage on top */
        pd_state st;
        expansion_table(&st, 5, 106);
        others_without_powers(&st);
        pizzeria(&st, 0, "MT-1", 3, on_top ? sausage : tomatoes);
        order(&st, 0, a);
        empty_hand(&st, 0);
        give(&st, 0, "Upper West Side/Ham");
        give(&st, 0, "Upper West Side/Onions");
        give(&st, 0, "Harlem/Pepperoni");
        int shortage = give_power(&st, 1, "ingredient-shortage");
        st.player[1].powers &= ~(1ull << shortage);
        st.global = (int8_t)shortage;
        st.global_until = (uint16_t)(st.turn + 3 * st.players);
        pd_card under = card("Midtown/Ham");
        take_out(&st, under);
        st.shortage = under;
        check(&st);
        play(&st, "deliver 1 from MT");
        play(&st, "use Upper-West-Side/Onions");
        if (!on_top) { /* the hand fills the Any Meat need: not with Ham */
            assert_refused_with(&st, "use Upper-West-Side/Ham", "does not fit");
            assert_true(is_legal(&st, "use Harlem/Pepperoni"));
            continue;
        }
        /* the pizzeria's Sausage fills it; Sausage's extra card: not a Ham */
        refused(&st, "extra Upper-West-Side/Ham");
        assert_true(is_legal(&st, "extra Harlem/Pepperoni"));
    }
}

/* Charity Event: everyone, clockwise from the player, gives two market
 * cards of their choice (all they have if two or fewer, without asking). */
static void test_charity_event(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 107);
    for (int s = 1; s < 5; s++)
        empty_hand(&st, s);
    give(&st, 1, "Harlem/Ham"); /* one card: given without a question */
    give(&st, 2, "Harlem/Onions");
    give(&st, 2, "Midtown/Onions");
    give(&st, 2, "Midtown/Ham"); /* three: a choice */
    give(&st, 0, "Midtown/Sausage");
    give(&st, 0, "Midtown/Sausage"); /* two alike: one way only */
    int p = give_power(&st, 0, "charity-event");
    play(&st, "play power:charity-event");
    assert_int_equal(st.global, p);
    assert_int_equal(st.player[0].hand_size, 0);
    assert_int_equal(st.player[1].hand_size, 0);
    assert_int_equal(st.phase, PD_PH_CHARITY);
    assert_int_equal(pd_current_seat(&st), 2);
    play(&st, "give Midtown/Onions Harlem/Onions"); /* either order */
    assert_int_equal(st.player[2].hand_size, 1);
    assert_int_equal(st.player[2].hand[card("Midtown/Ham")], 1);
    assert_int_equal(st.phase, PD_PH_START); /* seats 3 and 4 had nothing: back to the turn */
    assert_int_equal(st.seat, 0);
}

/* Stock Market Crash: everyone with a pizzeria loses a level, a disk or a
 * card of their choice (asked only when there is a choice); a pizzeria
 * left without disks or cards is closed until an upgrade reopens it. */
static void test_stock_market_crash(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 108);
    static const char *const one[] = {"Midtown/Tomatoes", NULL};
    static const char *const two[] = {"Central-Park/Onions", "Harlem/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 1, one);
    pizzeria(&st, 1, "HA-1", 2, two);
    int p = give_power(&st, 0, "stock-market-crash");
    play(&st, "play power:stock-market-crash");
    assert_int_equal(st.global, p);
    assert_int_equal(st.phase, PD_PH_CRASH);
    assert_int_equal(pd_current_seat(&st), 0);
    refused(&st, "lose HA disk"); /* not seat 0's */
    play(&st, "lose MT disk");
    const pd_pizzeria *mt = &st.player[0].pizzeria[pd_village_find(&rules->data.map, "MT")];
    assert_int_equal(mt->disks, 0);
    static const char *const a[] = {"Midtown/Tomatoes", NULL};
    order(&st, 0, a);
    assert_int_equal(pd_current_seat(&st), 1);
    refused(&st, "lose HA 2"); /* it would leave Central Park on top */
    play(&st, "lose HA 1");
    const pd_pizzeria *ha = &st.player[1].pizzeria[pd_village_find(&rules->data.map, "HA")];
    assert_int_equal(ha->ncards, 1);
    assert_int_equal(ha->card[0], card("Harlem/Ham"));
    assert_int_equal(st.phase, PD_PH_START); /* everyone has lost a level: the turn goes on */
    assert_int_equal(st.seat, 0);
    refused(&st, "deliver 1 from MT"); /* closed: no disk on the board */
}

/* Stock Market Soars: a random tip token each, then, clockwise from the
 * player, two takes each (open market or deck). */
static void test_stock_market_soars(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 109);
    int hands[5], tips[5];
    for (int s = 0; s < 5; s++) {
        hands[s] = st.player[s].hand_size;
        tips[s] = st.player[s].ntips;
    }
    give_power(&st, 0, "stock-market-soars");
    play(&st, "play power:stock-market-soars");
    assert_int_equal(st.phase, PD_PH_SOARS);
    for (int s = 0; s < 5; s++) {
        assert_int_equal(st.player[s].ntips, tips[s] + 1);
        assert_int_equal(pd_current_seat(&st), s);
        play(&st, "take deck");
        play(&st, "take deck");
        assert_int_equal(st.player[s].hand_size, hands[s] + 2);
    }
    assert_int_equal(st.phase, PD_PH_START); /* then the player's turn goes on */
    assert_int_equal(st.seat, 0);
}

/* The view's orders (Orders 5 and 6 only while one of them is there). */
static size_t view_orders(const pd_state *st)
{
    json_t *v = pd_view(st, 0);
    size_t n = json_array_size(json_object_get(v, "orders"));
    json_decref(v);
    return n;
}

/* Pandemic: Orders 5 and 6 join, each with an order card, its market cards
 * and a tip token; delivered, one is not replaced; they stay when another
 * global replaces the card; played again, only the empty one gets an order. */
static void test_pandemic(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 130);
    others_without_powers(&st);
    assert_refused_with(&st, "deliver 5 from MT", "there is no order 5 (Orders 5 and 6 come with Pandemic)");
    assert_refused_with(&st, "deliver 7 from MT", "there is no order 7 (the orders on the table are numbered 1 to 4)");
    assert_int_equal(view_orders(&st), 4);
    int orders = st.norder_deck, p = give_power(&st, 0, "pandemic");
    play(&st, "play power:pandemic");
    assert_int_equal(st.global, p);
    assert_int_equal(st.norder_deck, orders - 2);
    for (int slot = PD_BOARD_SLOTS; slot < PD_ORDER_SLOTS; slot++) {
        const pd_order *o = &st.order[slot];
        assert_true(o->kind >= 0);
        assert_true(o->tip != PD_NO_TIP);
        assert_int_equal(o->ncards, rules->data.cards.order[o->kind].market_cards); /* a specialty: none */
    }
    assert_int_equal(view_orders(&st), 6);

    /* Order 5 is delivered like any order, and not replaced; Order 6 stays */
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 4, mt);
    pd_order six = st.order[5];
    int tip = st.order[4].tip;
    play(&st, "deliver 5 from MT");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(st.order[4].kind, -1);
    assert_memory_equal(&st.order[5], &six, sizeof six);
    pass_round(&st);
    assert_int_equal(st.order[4].kind, -1); /* a round later, still empty */
    assert_int_equal(view_orders(&st), 6);  /* while Order 6 is there */

    /* another global replaces the card: Order 6 stays until delivered */
    int coupons = give_power(&st, 0, "coupon-days");
    play(&st, "play power:coupon-days");
    assert_int_equal(st.global, coupons);
    assert_true(st.power_discard >> p & 1);
    assert_memory_equal(&st.order[5], &six, sizeof six);
    market_from_deck(&st);
    pass_round(&st);

    /* Pandemic again: only the empty Order 5 gets an order */
    give_power(&st, 0, "pandemic");
    play(&st, "play power:pandemic");
    assert_true(st.order[4].kind >= 0 && st.order[4].tip != PD_NO_TIP);
    assert_memory_equal(&st.order[5], &six, sizeof six);
}

/* The cards of each order in the deck's types, summed. */
static void order_cards(const pd_state *st, int *count)
{
    memset(count, 0, sizeof(int) * PD_TYPES);
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        for (int i = 0; i < st->order[slot].ncards; i++)
            count[st->order[slot].card[i]]++;
}

/* Every regular order has all its cards. */
static void assert_orders_whole(const pd_state *st)
{
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        if (st->order[slot].kind >= 0)
            assert_int_equal(st->order[slot].ncards, rules->data.cards.order[st->order[slot].kind].market_cards);
}

/* Power Outage: the cards of every regular order (Pandemic's too) go,
 * shuffled, on top of the market deck, where everyone knows which they are
 * (not their order); the orders keep their order card and tip token but
 * can be neither delivered nor changed (Hacker finds no card on them); a
 * specialty order is delivered as always, and the order made after it
 * comes with its cards; a round later the empty orders are filled from
 * the deck and the card goes. */
static void test_power_outage(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 131);
    others_without_powers(&st);
    static const char *const a[] = {"Midtown/Ham", "Harlem/Onions", NULL};
    static const char *const b[] = {"Greenwich-Village/Sausage", NULL};
    static const char *const c[] = {"Harlem/Peppers", "Midtown/Peppers", "Harlem/Tomatoes", NULL};
    order(&st, 0, a);
    order(&st, 1, b);
    meat_lovers(&st, 3);
    drawn_order(&st, 4, c); /* Pandemic's, left after the card went */
    static const char *const fd[] = {"Financial District/Pepperoni", NULL};
    pizzeria(&st, 0, "FD-1", 1, fd);
    static const char *const hand[] = {"Harlem/Pepperoni", "Harlem/Meatballs", "Midtown/Meatballs", "Harlem/Sausage",
                                       "Midtown/Sausage",  "Midtown/Onions",   "Midtown/Tomatoes",  "Midtown/Ham"};
    for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++)
        give(&st, 0, hand[i]);
    check(&st);
    pd_order before[PD_ORDER_SLOTS];
    memcpy(before, st.order, sizeof before);
    int taken[PD_TYPES], n = 0, deck = st.ndeck;
    order_cards(&st, taken);
    for (int t = 0; t < PD_TYPES; t++)
        n += taken[t];
    int p = give_power(&st, 0, "power-outage");
    play(&st, "play power:power-outage");
    assert_int_equal(st.global, p);
    assert_int_equal(st.ndeck, deck + n);
    assert_int_equal(st.known_top, n);
    int top[PD_TYPES] = {0};
    for (int i = deck; i < st.ndeck; i++)
        top[st.deck[i]]++;
    assert_memory_equal(top, taken, sizeof top);
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        assert_int_equal(st.order[slot].kind, before[slot].kind);
        assert_int_equal(st.order[slot].tip, before[slot].tip);
        assert_int_equal(st.order[slot].ncards, 0);
    }
    guesses_keep_top(&st, deck, top);
    /* the view tells the dark orders, and when the lights come back */
    json_t *v = pd_view(&st, 1);
    const json_t *orders = json_object_get(v, "orders");
    assert_true(json_is_true(json_object_get(json_array_get(orders, 0), "outage")));
    assert_true(json_is_true(json_object_get(json_array_get(orders, 4), "outage")));
    assert_null(json_object_get(json_array_get(orders, 3), "outage")); /* the specialty order */
    const json_t *until = json_object_get(v, "global_until");
    assert_int_equal(json_integer_value(json_object_get(until, "seat")), 0);
    assert_int_equal(json_integer_value(json_object_get(until, "turn")), st.turn + 5);
    json_decref(v);

    /* the dark orders cannot be delivered; the specialty order can, and the
     * order that replaces it comes with its cards */
    assert_refused_with(&st, "deliver 1 from FD", "order 1 has no ingredients until the Power Outage ends");
    play(&st, "deliver 4 from FD to FD");
    while (st.seat == 0 && st.phase != PD_PH_OVER) {
        pb_action all[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, all) > 0);
        assert_int_equal(pd_apply(&st, all[0], err, sizeof err), 0);
        check(&st);
    }
    assert_int_equal(st.player[0].deliveries, 1);
    assert_true(st.order[3].kind >= 0);
    assert_int_equal(st.order[3].ncards, rules->data.cards.order[st.order[3].kind].market_cards);

    /* the next seat's Hacker finds no card on a dark order */
    give_power(&st, 1, "hacker");
    play(&st, "play power:hacker");
    pb_action legal[PB_MAX_ACTIONS];
    int k = pd_legal_actions(&st, legal);
    for (int i = 0; i < k; i++)
        if (PD_KIND(legal[i]) == PD_A_HACK)
            assert_int_equal(PD_ARG(legal[i]) & 0xF, 3); /* only the new Order 4 */
    assert_refused_with(&st, "hack 1.1 Harlem/Ham", "order 1 has no ingredients");
    play(&st, "done");
    market_from_deck(&st);
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        if (slot != 3)
            assert_int_equal(st.order[slot].ncards, 0);

    /* a round later, at its player's turn, the orders are filled and the card goes */
    pass_round(&st);
    assert_int_equal(st.global, -1);
    assert_true(st.power_discard >> p & 1);
    assert_orders_whole(&st);
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        if (slot != 3)
            assert_int_equal(st.order[slot].kind, before[slot].kind);
    v = pd_view(&st, 0);
    assert_null(json_object_get(json_array_get(json_object_get(v, "orders"), 0), "outage"));
    assert_null(json_object_get(v, "global_until"));
    json_decref(v);
}

/* Power Outage replaced by another global: the orders are filled at once,
 * Order 1 first, from the top of the deck; a Health Inspector drawn on the
 * way is fined and set aside and another card takes its place; the third
 * ends the game. */
static void test_power_outage_replaced(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 132);
    others_without_powers(&st);
    int p = give_power(&st, 0, "power-outage");
    market_from_deck(&st);
    play(&st, "play power:power-outage"); /* after the action */
    assert_int_equal(st.seat, 1);
    /* two Health Inspectors came before; the third lies on top (the known
     * cards under it, as after a draw into a hand, unknown again) */
    int moved = 0;
    for (int i = 0; i < st.ndeck && moved < 3; i++)
        if (st.deck[i] == PD_CARD_INSPECTOR) {
            memmove(st.deck + i, st.deck + i + 1, (size_t)(st.ndeck - i - 1));
            st.ndeck--;
            st.timer--;
            i--;
            moved++;
        }
    assert_int_equal(moved, 3);
    st.inspectors = 2;
    st.deck[st.ndeck++] = PD_CARD_INSPECTOR;
    st.known_top = 0;
    check(&st);
    int need = 0;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        if (st.order[slot].kind >= 0)
            need += rules->data.cards.order[st.order[slot].kind].market_cards;
    pd_card expect[PD_ORDER_SLOTS * PD_ORDER_CARDS];
    for (int i = 0; i < need; i++)
        expect[i] = st.deck[st.ndeck - 2 - i];
    give_power(&st, 1, "coupon-days");
    play(&st, "play power:coupon-days");
    assert_true(st.power_discard >> p & 1);
    assert_int_equal(st.inspectors, 3);
    assert_orders_whole(&st);
    int k = 0;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        for (int i = 0; i < st.order[slot].ncards; i++)
            assert_int_equal(st.order[slot].card[i], expect[k++]);
    assert_int_equal(k, need);
    assert_int_equal(st.phase, PD_PH_FINE);
    while (st.phase == PD_PH_FINE) {
        pb_action all[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, all) > 0);
        assert_int_equal(pd_apply(&st, all[0], err, sizeof err), 0);
        check(&st);
    }
    assert_int_equal(st.phase, PD_PH_OVER);
}


/* ------------------------------------------------------------ co-op (PD-C1) */

/* A co-op table at difficulty row 4 (B11 R13 P30 M60), the power cards
 * kept, seat 0 to act with an empty hand; `first_round` false skips the
 * free-property round; the 5-6 player box's cards when `expansion`. */
static void coop_table_with(pd_state *st, int players, uint64_t seed, bool first_round, bool expansion)
{
    pd_rules_init(rules, players, 0);
    pd_rules_coop(rules, PD_DEFAULT_DIFFICULTY);
    rules->expansion = expansion;
    pd_init(st, rules, seed);
    while (st->phase == PD_PH_KEEP) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
    }
    if (!first_round)
        st->turn = (uint16_t)players;
    empty_hand(st, 0);
    check(st);
}

static void coop_table(pd_state *st, int players, uint64_t seed, bool first_round)
{
    coop_table_with(st, players, seed, first_round, false);
}

/* Play the first legal move until the next turn (one seat may play them all). */
static void finish_day(pd_state *st)
{
    uint16_t turn = st->turn;
    while (st->phase != PD_PH_OVER && st->turn == turn) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
        check(st);
    }
}

/* A turn to market, then whatever comes first until the next turn. */
static void market_day(pd_state *st)
{
    uint16_t turn = st->turn;
    market_from_deck(st);
    if (st->turn == turn)
        finish_day(st);
}

/* PD-C1: the difficulty rows, the first round's free property, and only
 * "reputation" as its action; the team's money pays from the next round. */
static void test_coop_first_round_free_property(void **state)
{
    (void)state;
    assert_int_equal(pd_difficulty[0][2], 36); /* HARD: 36 pizzas, $75 */
    assert_int_equal(pd_difficulty[7][3], 40); /* EASY: $40 */
    pd_state st;
    coop_table(&st, 2, 301, true);
    assert_int_equal(rules->goal_pizzas, 30);
    assert_int_equal(rules->goal_money, 60);
    give(&st, 0, "Midtown/Pepperoni");
    give(&st, 0, "Harlem/Ham");
    assert_refused_with(&st, "market", "the co-op game's first round: everyone's action is a build");
    play(&st, "reputation");
    play(&st, "build MT-2 Midtown/Pepperoni"); /* an $8 lot, free: no payment step */
    assert_int_equal(st.lot_owner[pd_lot_find(&rules->data.map, "MT-2")], 0);
    assert_int_equal(st.player[0].hand_size, 1);
    assert_int_equal(st.team_money, 0);
    st.team_money = 3;
    st.turn = 2; /* the first round is over */
    st.seat = 0;
    st.phase = PD_PH_START;
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Tomatoes");
    play(&st, "reputation");
    play(&st, "build HA-1 Harlem/Ham");
    assert_int_equal(st.phase, PD_PH_PAY); /* now it costs: the team's money pays */
    int cost = rules->data.map.lot[pd_lot_find(&rules->data.map, "HA-1")].cost;
    for (int i = 0; i < cost; i++) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    assert_int_equal(st.team_money, cost >= 3 ? 0 : 3 - cost);
    assert_int_equal(st.player[0].money, 0); /* no money of one's own */
}

/* Transfer Goods: before the turn ends, up to two cards (power cards too)
 * to the neighbours; the others see that a card went, not which. */
static void test_coop_transfer_goods(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 3, 302, false);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    int drone = give_power(&st, 0, "drone-delivery");
    int hand1 = st.player[1].hand_size, hand2 = st.player[2].hand_size;
    market_from_deck(&st);
    play(&st, "end");
    assert_int_equal(st.phase, PD_PH_TRANSFER);
    pb_action a;
    char err[PB_ERR_LEN], seen[64];
    assert_int_equal(pd_action_parse(&st, "pass Harlem/Ham left", &a, err, sizeof err), 0);
    assert_int_equal(pd_action_text(&st, a, 1, seen, sizeof seen), 0);
    assert_string_equal(seen, "pass HA/Ham left"); /* the receiver sees it, as the table names it */
    assert_int_equal(pd_action_text(&st, a, 2, seen, sizeof seen), 0);
    assert_string_equal(seen, "pass ? left");
    play(&st, "pass Harlem/Ham left");
    play(&st, "pass power:drone-delivery right");
    /* two given: the turn is over */
    assert_int_equal(st.seat, 1);
    assert_int_equal(st.player[1].hand_size, hand1 + 1);
    assert_int_equal(st.player[1].hand[card("Harlem/Ham")], 1);
    assert_int_equal(st.player[2].hand_size, hand2);
    assert_true(st.player[2].powers >> drone & 1);
    assert_int_equal(st.day, 1); /* Sunday */
    /* or none at all */
    market_from_deck(&st);
    play(&st, "end");
    assert_int_equal(st.phase, PD_PH_TRANSFER);
    play(&st, "end");
    assert_true(st.seat == 2 || st.phase == PD_PH_DISCARD); /* seat 1 may hold more than 10 now */
}

/* The week tracker: the pawn moves a day after every turn; Friday evening
 * brings two orders, packed towards Order 4; no order is refilled after a
 * delivery, the others slide right; the team's money and pizzas count. */
static void test_coop_week_and_orders(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 1, 303, false);
    for (int day = 0; day < PD_FRIDAY; day++) {
        assert_int_equal(st.day, day);
        market_day(&st);
        empty_hand(&st, 0);
        for (int i = 0; i < PD_ORDER_SLOTS; i++)
            assert_int_equal(st.order[i].kind, -1);
    }
    assert_int_equal(st.day, PD_FRIDAY);
    market_day(&st);
    empty_hand(&st, 0);
    assert_int_equal(st.day, 0); /* Saturday again */
    assert_int_equal(st.order[0].kind, -1);
    assert_int_equal(st.order[1].kind, -1);
    assert_true(st.order[2].kind >= 0 && st.order[3].kind >= 0);
    assert_int_equal(st.norder_deck, 12);
    /* a delivery of Order 4: Order 3 slides into its place, nothing new */
    static const char *const ha[] = {"Harlem/Ham", "Harlem/Onions", NULL};
    static const char *const two[] = {"Midtown/Ham", "Harlem/Tomatoes", NULL};
    pizzeria(&st, 0, "HA-1", 3, ha);
    int kind2 = st.order[2].kind;
    order(&st, 3, two);
    give(&st, 0, "Upper West Side/Tomatoes");
    give(&st, 0, "Upper West Side/Peppers");
    check(&st);
    play(&st, "deliver 4 from HA");
    while (st.phase == PD_PH_SUPPLY || st.phase == PD_PH_DISTANCE || st.phase == PD_PH_TIP) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    check(&st);
    assert_int_equal(pd_team_deliveries(&st), 1);
    assert_true(st.team_money >= 2);
    assert_int_equal(st.player[0].money, 0);
    assert_int_equal(st.order[3].kind, kind2);
    assert_int_equal(st.order[2].kind, -1);
    assert_int_equal(st.norder_deck, 12);
}

/* Orders pushed past Order 4 go into the sewer with their cards, their card
 * out of the game; a promotion marker the money reaches puts a token on a
 * day, and that day's orders come in the morning, the evening or both. */
static void test_coop_promotions_push_orders_out(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 1, 304, false);
    static const char *const o[4][3] = {{"Harlem/Ham", NULL}, {"Midtown/Ham", NULL}, {"Harlem/Onions", NULL},
                                        {"Midtown/Onions", NULL}};
    for (int i = 0; i < PD_BOARD_SLOTS; i++)
        drawn_order(&st, i, o[i]); /* as promotions made them */
    int sewer = st.sewer[card("Midtown/Onions")] + st.sewer[card("Harlem/Onions")], kind0 = st.order[0].kind;
    st.day = PD_FRIDAY;
    check(&st);
    market_day(&st);
    /* two new orders: Orders 3 and 4 were pushed out */
    assert_int_equal(st.orders_out, 2);
    assert_int_equal(st.sewer[card("Midtown/Onions")] + st.sewer[card("Harlem/Onions")], sewer + 2);
    assert_int_equal(st.order[2].kind, kind0);
    check(&st);
    /* the money reaches the Blue marker ($11): a Blue token goes on a day */
    st.team_money = 11;
    empty_hand(&st, 0);
    market_from_deck(&st);
    assert_true(st.promos_placed & 1u << PD_PROMO_BLUE);
    assert_false(st.promos_placed & 1u << PD_PROMO_RED);
    int day = -1;
    for (int d = 0; d < PD_DAYS; d++)
        if (st.promo[d] && PD_PROMO_COLOUR(st.promo[d]) == PD_PROMO_BLUE)
            day = d;
    assert_true(day >= 0 && day < PD_FRIDAY); /* the die names Saturday to Thursday */
    int orders;
    int k = pd_next_promotion(&st, &orders);
    assert_true(k >= 0 && orders > 0);
    /* play on to the token's day: its two orders come that day */
    int out = st.orders_out, left = st.norder_deck + st.norder_discard;
    finish_day(&st);
    while (st.day != day) {
        empty_hand(&st, 0);
        market_day(&st);
    }
    market_day(&st);
    assert_int_equal(st.norder_deck + st.norder_discard, left - 2);
    assert_int_equal(st.orders_out, out + 2); /* all four slots were full */
}

/* How many of each order card a pile holds: piles compared as sets. */
static void pile_counts(const int8_t *pile, int n, int *count)
{
    memset(count, 0, sizeof(int) * PD_MAX_ORDERS);
    for (int i = 0; i < n; i++)
        count[pile[i]]++;
}

/* Once the discards are shuffled back as the order deck, everyone knows
 * which cards it holds: a guess at the hidden cards never swaps one of the
 * six left in the box into it (before, it still may). */
static void test_coop_reshuffled_order_deck_is_known(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 1, 309, false);
    int deck[PD_MAX_ORDERS], box[PD_MAX_ORDERS], seen[PD_MAX_ORDERS];
    /* a guess before: box cards may go into the deck */
    bool swapped = false;
    pile_counts(st.order_box, st.norder_box, box);
    for (int i = 0; i < 20 && !swapped; i++) {
        pd_state d = st;
        pb_rng rng;
        pb_rng_seed(&rng, (uint64_t)i);
        pd_determinize(&d, 0, &rng);
        pile_counts(d.order_box, d.norder_box, seen);
        swapped = memcmp(seen, box, sizeof box) != 0;
    }
    assert_true(swapped);
    /* every order card delivered: the deck is out, Friday's promotion shuffles the discards back */
    memcpy(st.order_discard, st.order_deck, st.norder_deck);
    st.norder_discard = st.norder_deck;
    st.norder_deck = 0;
    st.day = PD_FRIDAY;
    check(&st);
    market_day(&st);
    assert_true(st.order_deck_seen);
    assert_true(st.norder_deck > 0);
    pile_counts(st.order_deck, st.norder_deck, deck);
    pile_counts(st.order_box, st.norder_box, box);
    for (int i = 0; i < 20; i++) {
        pd_state d = st;
        pb_rng rng;
        pb_rng_seed(&rng, (uint64_t)i);
        pd_determinize(&d, 0, &rng);
        pile_counts(d.order_deck, d.norder_deck, seen);
        assert_memory_equal(seen, deck, sizeof deck);
        pile_counts(d.order_box, d.norder_box, seen);
        assert_memory_equal(seen, box, sizeof box);
    }
}

/* Four orders on the board, as promotions made them. */
static void full_board(pd_state *st)
{
    static const char *const o[PD_BOARD_SLOTS][3] = {
        {"Harlem/Ham", NULL}, {"Midtown/Ham", NULL}, {"Harlem/Onions", NULL}, {"Midtown/Onions", NULL}};
    for (int i = 0; i < PD_BOARD_SLOTS; i++)
        drawn_order(st, i, o[i]);
}

static int sewer_size(const pd_state *st)
{
    int n = 0;
    for (int c = 0; c < PD_TYPES; c++)
        n += st->sewer[c];
    return n;
}

/* Co-op Pandemic: its two orders come from the co-op order deck and are
 * never pushed out (promotions push Orders 1-4 only); delivered, one is not
 * replaced; with no order card left its slot stays empty and the team
 * plays on (only a promotion without an order card loses). */
static void test_coop_pandemic(void **state)
{
    (void)state;
    pd_state st;
    coop_table_with(&st, 1, 306, false, true);
    full_board(&st);
    int left = st.norder_deck;
    give_power(&st, 0, "pandemic");
    play(&st, "play power:pandemic");
    assert_int_equal(st.norder_deck, left - 2);
    pd_order five = st.order[4], six = st.order[5];
    assert_true(five.kind >= 0 && six.kind >= 0);
    st.day = PD_FRIDAY;
    market_day(&st);
    assert_int_equal(st.orders_out, 2); /* Friday's two pushed two out of Orders 1-4 */
    assert_memory_equal(&st.order[4], &five, sizeof five);
    assert_memory_equal(&st.order[5], &six, sizeof six);
    /* Order 5 delivered: not replaced, and nothing slides */
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 4, mt);
    pd_order board[PD_BOARD_SLOTS];
    memcpy(board, st.order, sizeof board);
    empty_hand(&st, 0);
    play(&st, "deliver 5 from MT");
    assert_int_equal(pd_team_deliveries(&st), 1);
    assert_int_equal(st.order[4].kind, -1);
    assert_memory_equal(st.order, board, sizeof board);
    assert_memory_equal(&st.order[5], &six, sizeof six);

    /* one order card left: Order 5 gets it, Order 6 stays empty */
    coop_table_with(&st, 1, 307, false, true);
    st.orders_out = (uint8_t)(st.norder_deck - 1); /* as if pushed out */
    st.norder_deck = 1;
    check(&st);
    give_power(&st, 0, "pandemic");
    play(&st, "play power:pandemic");
    assert_true(st.order[4].kind >= 0);
    assert_int_equal(st.order[5].kind, -1);
    assert_int_equal(st.phase, PD_PH_START);
    assert_int_equal(st.coop_result, PD_COOP_PLAYING);
    json_t *v = pd_view(&st, 0);
    assert_true(json_is_null(json_array_get(json_object_get(v, "orders"), 5)));
    json_decref(v);
}

/* Co-op Power Outage: orders pushed out without their cards put none into
 * the sewer; a promotion's orders come with their cards; a round later
 * (alone: the next turn) the dark orders left are filled. */
static void test_coop_power_outage(void **state)
{
    (void)state;
    pd_state st;
    coop_table_with(&st, 1, 308, false, true);
    full_board(&st);
    give_power(&st, 0, "power-outage");
    play(&st, "play power:power-outage");
    int sewer = sewer_size(&st), inspectors = st.inspectors;
    pd_order first = st.order[0], second = st.order[1];
    assert_int_equal(first.ncards, 0);
    st.day = PD_FRIDAY;
    market_day(&st);
    assert_int_equal(st.inspectors, inspectors);
    assert_int_equal(st.orders_out, 2);
    assert_int_equal(sewer_size(&st), sewer); /* the pushed out orders had no cards */
    assert_int_equal(st.order[2].kind, first.kind);
    assert_int_equal(st.order[3].kind, second.kind);
    assert_int_equal(st.global, -1); /* its round is over */
    assert_orders_whole(&st);
}

/* The team wins as soon as both goals are met; loses when a promotion finds
 * no order card, or at the third Health Inspector; every seat gets the
 * team's result. */
static void test_coop_win_and_loss(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 2, 305, false);
    st.team_money = 60;
    st.player[1].deliveries = 29;
    market_from_deck(&st);
    assert_true(st.phase != PD_PH_OVER); /* 29 pizzas: not yet */
    st.player[0].deliveries = 1;
    play(&st, "end"); /* any decision: the goals are checked after it */
    assert_int_equal(st.phase, PD_PH_OVER);
    assert_int_equal(st.coop_result, PD_COOP_WON);
    double r[PD_PLAYERS];
    pd_returns(&st, r);
    assert_true(r[0] == 1.0 && r[1] == 1.0);
    json_t *score = pd_score_json(&st, NULL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(score, "coop"), "code")),
                        "Win 2PL - B11 - R13 - P30 - M60");
    json_decref(score);

    /* no order card for Friday's promotion */
    coop_table(&st, 2, 306, false);
    st.orders_out = st.norder_deck; /* as if every order card had been pushed out */
    st.norder_deck = 0;
    st.day = PD_FRIDAY;
    market_day(&st);
    assert_int_equal(st.phase, PD_PH_OVER);
    assert_int_equal(st.coop_result, PD_COOP_LOST_ORDERS);
    pd_returns(&st, r);
    assert_true(r[0] == 0.0 && r[1] == 0.0);

    /* the third Health Inspector: over at once, no fines */
    coop_table(&st, 2, 307, false);
    inspectors_on_top(&st);
    play(&st, "market");
    play(&st, "take deck");
    assert_int_equal(st.phase, PD_PH_OVER);
    assert_int_equal(st.coop_result, PD_COOP_LOST_INSPECTOR);
}

/* Fines come out of the team's money; "Not for Co-Op" cards never appear. */
static void test_coop_fines_and_cards(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 2, 308, false);
    for (int p = 0; p < rules->data.cards.npowers; p++)
        if (rules->data.cards.power[p].not_for_coop) {
            for (int i = 0; i < st.npower_deck; i++)
                assert_int_not_equal(st.power_deck[i], p);
            assert_false((st.player[0].powers | st.player[1].powers) >> p & 1);
        }
    /* one inspector on top */
    for (int i = 0; i < st.ndeck; i++)
        if (st.deck[i] == PD_CARD_INSPECTOR) {
            memmove(st.deck + i, st.deck + i + 1, (size_t)(st.ndeck - i - 1));
            st.deck[st.ndeck - 1] = PD_CARD_INSPECTOR;
            break;
        }
    st.team_money = 10;
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    check(&st);
    play(&st, "market");
    play(&st, "take deck");
    assert_int_equal(st.phase, PD_PH_FINE);
    play(&st, "fine $2");
    assert_int_equal(st.team_money, 8);
    assert_int_equal(pd_current_seat(&st), 1);
    play(&st, "fine $2");
    assert_int_equal(st.team_money, 6);
}

/* ---- Extra Cheese (PD-C2) ---- */

/* "extra_cheese" is a choice of the config: true or false, nothing else;
 * chosen, its 18 cards are in the market deck. */
static void test_extra_cheese_config(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    json_t *bad = json_pack("{s:i,s:s}", "players", 2, "extra_cheese", "yes");
    assert_null(pb_game_new("delivery", bad, err, sizeof err));
    assert_non_null(strstr(err, "extra_cheese must be true or false"));
    json_decref(bad);
    json_t *config = json_pack("{s:i,s:b}", "players", 2, "extra_cheese", 1);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    assert_true(json_is_true(json_object_get(g->config, "extra_cheese")));
    assert_true(((const pd_rules *)g->rules)->extra_cheese);
    pd_state st;
    pd_init(&st, g->rules, 3);
    int cards = st.ndeck + st.open_size + 5 * 2;
    for (int i = 0; i < PD_ORDER_SLOTS; i++)
        cards += st.order[i].ncards;
    assert_int_equal(cards, 144 + 3 + 18);
    check(&st);
    pb_game_free(g);
    g = pb_game_new("delivery", NULL, err, sizeof err); /* left out by default */
    assert_non_null(g);
    assert_false(((const pd_rules *)g->rules)->extra_cheese);
    assert_null(json_object_get(g->config, "extra_cheese"));
    pb_game_free(g);
}

/* A cheese card from hand on a delivery earns $1; it is a choice ("done"
 * keeps the card), made after the ingredients, and no ingredient itself. */
static void test_extra_cheese_from_hand(void **state)
{
    (void)state;
    for (int add = 0; add < 2; add++) {
        pd_state st;
        table_with(&st, 2, 120, true);
        static const char *const mt[] = {"Midtown/Tomatoes", NULL};
        static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
        pizzeria(&st, 0, "MT-1", 4, mt);
        order(&st, 0, a);
        give(&st, 0, "Upper West Side/Ham");
        give(&st, 0, "Upper West Side/Onions");
        give(&st, 0, "Harlem/Extra Cheese");
        pd_quote q;
        assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "MT"), -1, 0, &q), 0);
        assert_int_equal(q.pay, 2);
        assert_int_equal(q.cheese_bonus, 1);
        assert_int_equal(q.cheese_cards, 1);
        assert_false(q.cheese_in_pizzeria);
        assert_false(q.cheese_required);
        int tip = st.order[0].tip;
        play(&st, "deliver 1 from MT");
        refused(&st, "use Harlem/Extra-Cheese");  /* cheese is no ingredient */
        refused(&st, "cheese Harlem/Extra-Cheese"); /* the ingredients come first */
        play(&st, "use Upper-West-Side/Ham");
        play(&st, "use Upper-West-Side/Onions");
        assert_int_equal(st.phase, PD_PH_SUPPLY);
        json_t *v = pd_view(&st, 0);
        assert_false(json_is_true(json_object_get(json_object_get(v, "pending"), "cheese")));
        json_decref(v);
        play(&st, add ? "cheese HA/Extra-Cheese" : "done");
        assert_int_equal(st.player[0].deliveries, 1);
        assert_int_equal(st.player[0].money, 5 + 2 + add);
        assert_int_equal(st.player[0].tip[0], tip);
        assert_int_equal(st.player[0].hand[card("Harlem/Extra Cheese")], !add);
        assert_int_equal(st.sewer[card("Harlem/Extra Cheese")], add);
    }
}

/* On a specialty pizza Extra Cheese earns $2; it comes after the further
 * cards and before the distance, and leaves a card for each space. */
static void test_extra_cheese_on_a_specialty(void **state)
{
    (void)state;
    pd_state st;
    table_with(&st, 2, 121, true);
    meat_lovers(&st, 0);
    static const char *const fd[] = {"Financial District/Pepperoni", NULL};
    pizzeria(&st, 0, "FD-1", 1, fd);
    const char *const hand[] = {"Harlem/Pepperoni", "Harlem/Meatballs", "Midtown/Meatballs", "Harlem/Sausage",
                                "Midtown/Sausage", "Midtown/Onions", "Midtown/Tomatoes", "Midtown/Ham",
                                "Financial District/Extra Cheese", NULL};
    for (int i = 0; hand[i]; i++)
        give(&st, 0, hand[i]);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "FD"), -1, 0, &q), 0);
    assert_int_equal(q.cheese_bonus, 2);
    assert_int_equal(q.distance_cards, 1);
    play(&st, "deliver 1 from FD to FD");
    static const char *const moves[] = {"use Harlem/Pepperoni", "use Harlem/Meatballs", "use Midtown/Meatballs",
                                        "use Harlem/Sausage",   "use Midtown/Sausage",  "use Midtown/Onions",
                                        "use Midtown/Tomatoes", NULL};
    for (int i = 0; moves[i]; i++)
        play(&st, moves[i]);
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    play(&st, "cheese FD/Extra-Cheese");
    assert_int_equal(st.phase, PD_PH_DISTANCE);
    play(&st, "pay Midtown/Ham");
    assert_int_equal(st.player[0].money, 5 + 8 + 2);
    assert_int_equal(st.player[0].hand_size, 0);
}

/* A cheese card anywhere in a pizzeria is on every pizza from there: the
 * bonus without a card from hand, and only once a pizza (no cheese card
 * from hand is asked for); an order that asks for cheese keeps its tip. */
static void test_extra_cheese_in_the_pizzeria(void **state)
{
    (void)state;
    pd_state st;
    table_with(&st, 2, 122, true);
    static const char *const mt[] = {"Midtown/Extra Cheese", "Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Harlem/Extra Cheese", "Midtown/Ham", NULL};
    static const char *const b[] = {"Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    order(&st, 1, b);
    give(&st, 0, "Upper West Side/Ham");
    give(&st, 0, "Upper West Side/Onions");
    give(&st, 0, "Upper East Side/Extra Cheese");
    int mt_v = pd_village_find(&rules->data.map, "MT");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_true(q.cheese_in_pizzeria);
    assert_false(q.cheese_required); /* asked for, and the pizzeria gives it */
    assert_int_equal(q.hand_ingredients, 1); /* the order's cheese card is no ingredient */
    assert_int_equal(q.pay, 2 + 1);
    assert_int_equal(pd_delivery_quote(&st, 0, 1, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.pay, 1 + 1);
    json_t *v = pd_view(&st, 0);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(v, "orders"), 0), "cheese")));
    assert_null(json_object_get(json_array_get(json_object_get(v, "orders"), 1), "cheese"));
    json_decref(v);
    int tip = st.order[0].tip;
    play(&st, "deliver 1 from MT");
    pb_action a0;
    char err[PB_ERR_LEN];
    assert_int_equal(pd_action_parse(&st, "cheese UE/Extra-Cheese", &a0, err, sizeof err), -1);
    assert_non_null(strstr(err, "one bonus a pizza"));
    play(&st, "use Upper-West-Side/Ham");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 2 + 1);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(st.player[0].hand[card("Upper East Side/Extra Cheese")], 1);
    assert_int_equal(st.player[0].pizzeria[mt_v].ncards, 2); /* it stays for the next pizza */
}

/* Extra Cheese builds and upgrades like any card of its village; on top it
 * gives no delivery power, and its bonus counts from anywhere. */
static void test_extra_cheese_builds(void **state)
{
    (void)state;
    pd_state st;
    table_with(&st, 2, 126, true);
    st.player[0].money = 10;
    give(&st, 0, "Upper West Side/Extra Cheese");
    give(&st, 0, "Upper West Side/Ham");
    play(&st, "reputation");
    play(&st, "build UW-2 UW/Extra-Cheese");
    while (st.phase == PD_PH_PAY)
        play(&st, "pay $1");
    play(&st, "upgrade UW UW/Ham add");
    int uw = pd_village_find(&rules->data.map, "UW");
    const pd_pizzeria *z = &st.player[0].pizzeria[uw];
    assert_int_equal(z->ncards, 2);
    assert_int_equal(z->card[1], card("Upper West Side/Extra Cheese")); /* still on top */
    assert_int_equal(rules->top_power[PD_CARD_INGREDIENT(z->card[1])], PD_TOP_NONE);
    static const char *const a[] = {"Upper West Side/Ham", NULL};
    order(&st, 0, a);
    st.player[0].pizzeria[uw].disks += 1; /* in range of its zone */
    st.player[0].disks -= 1;
    check(&st);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, uw, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 0); /* the Ham under the cheese */
    assert_int_equal(q.pay, 1 + 1);
}

/* An order with a cheese card asks for cheese: delivered without any (the
 * frugal pizzeria) it pays its money but earns NO TIP instead of its tip;
 * with a cheese card from hand, the tip and $1 more. */
static void test_extra_cheese_left_out(void **state)
{
    (void)state;
    enum { NO_CHEESE, DECLINED, ADDED };
    for (int way = NO_CHEESE; way <= ADDED; way++) {
        pd_state st;
        table_with(&st, 2, 123, true);
        static const char *const mt[] = {"Midtown/Ham", NULL}; /* Ham on top: no tip to choose without cheese */
        static const char *const a[] = {"Harlem/Onions", "Harlem/Extra Cheese", "Midtown/Ham", NULL};
        pizzeria(&st, 0, "MT-1", 4, mt);
        order(&st, 0, a);
        give(&st, 0, "Upper West Side/Onions");
        if (way != NO_CHEESE)
            give(&st, 0, "Upper East Side/Extra Cheese");
        int tip = st.order[0].tip, no_tips = st.no_tips, pool = st.ntip_pool;
        play(&st, "deliver 1 from MT");
        play(&st, "use Upper-West-Side/Onions");
        if (way == NO_CHEESE) {
            assert_int_equal(st.player[0].deliveries, 1); /* nothing to ask */
        } else {
            assert_int_equal(st.phase, PD_PH_SUPPLY);
            json_t *v = pd_view(&st, 0);
            assert_true(json_is_true(json_object_get(json_object_get(v, "pending"), "cheese_left_out")));
            json_decref(v);
            play(&st, way == ADDED ? "cheese UE/Extra-Cheese" : "done");
        }
        if (way == ADDED && st.phase == PD_PH_TIP)
            ham_tip(&st, "tip 1"); /* Ham: the delivered order's own token */
        assert_int_equal(st.player[0].deliveries, 1);
        assert_int_equal(st.player[0].ntips, 1);
        if (way == ADDED) {
            assert_int_equal(st.player[0].money, 5 + 3 + 1);
            assert_int_equal(st.player[0].tip[0], tip);
            assert_int_equal(st.no_tips, no_tips);
        } else {
            assert_int_equal(st.player[0].money, 5 + 3);
            assert_int_equal(st.player[0].tip[0], PD_NO_TIP);
            assert_int_equal(st.no_tips, no_tips - 1);
            assert_int_equal(st.ntip_pool, pool); /* the order's token back, the new order's out */
        }
    }
}

/* Farmer Brown never takes Extra Cheese: with only cheese in the sewer he
 * takes nothing. */
static void test_extra_cheese_not_for_farmer_brown(void **state)
{
    (void)state;
    for (int ham = 0; ham < 2; ham++) {
        pd_state st;
        table_with(&st, 2, 124, true);
        empty_sewer(&st);
        to_sewer(&st, "Harlem/Extra Cheese");
        if (ham)
            to_sewer(&st, "Harlem/Ham");
        give_power(&st, 0, "farmer-brown");
        play(&st, "play power:farmer-brown");
        if (!ham) {
            assert_int_equal(st.phase, PD_PH_START);
            assert_int_equal(st.farmed[0], PD_NO_CARD);
            continue;
        }
        assert_int_equal(st.phase, PD_PH_FARM);
        refused(&st, "farm Harlem/Extra-Cheese");
        play(&st, "farm Harlem/Ham");
        assert_int_equal(st.farmed[0], card("Harlem/Ham"));
    }
}

/* Extra Cheese under Cold Storage goes on a pizza like a hand card
 * ("cheese stored CARD"), never as an ingredient. */
static void test_extra_cheese_in_cold_storage(void **state)
{
    (void)state;
    pd_state st;
    table_with(&st, 2, 125, true);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 4, mt);
    empty_sewer(&st);
    static const char *const sewer[] = {"Harlem/Ham", "Harlem/Extra Cheese", "Harlem/Pepperoni", "Midtown/Onions"};
    for (int i = 0; i < 4; i++)
        to_sewer(&st, sewer[i]);
    give_power(&st, 0, "cold-storage");
    play(&st, "play power:cold-storage");
    assert_int_equal(st.ncold, 4);
    market_from_deck(&st);
    pass_round(&st);
    empty_hand(&st, 0);
    order(&st, 0, a); /* now: the other player's power card may have changed the orders */
    check(&st);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, pd_village_find(&rules->data.map, "MT"), -1, 0, &q), 0);
    assert_int_equal(q.cheese_cards, 1);
    play(&st, "deliver 1 from MT");
    refused(&st, "use stored Harlem/Extra-Cheese");
    play(&st, "use stored Harlem/Ham");
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    refused(&st, "cheese Harlem/Extra-Cheese"); /* not in hand */
    play(&st, "cheese stored Harlem/Extra-Cheese");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 1 + 1);
    assert_int_equal(st.ncold, 2);
    assert_int_equal(st.sewer[card("Harlem/Extra Cheese")], 1);
}

/* A 5-player expansion table where seat 0 can deliver order 1 (Midtown
 * Onions, one card) from its Midtown pizzeria with a tip token on it, and
 * only the seats in `holders` hold power cards. */
static void delivery_to_answer(pd_state *st, uint64_t seed, unsigned holders)
{
    expansion_table(st, 5, seed);
    for (int s = 1; s < st->players; s++)
        if (!(holders >> s & 1))
            empty_hand(st, s);
    static const char *const mt[] = {"Central-Park/Onions", "Midtown/Tomatoes", NULL}, *const onions[] = {"Midtown/Onions", NULL};
    pizzeria(st, 0, "MT-1", 3, mt); /* Tomatoes: a fourth free space */
    order(st, 0, onions);
    assert_int_not_equal(st->order[0].tip, PD_NO_TIP);
}

/* Rough Delivery and Traffic Jam: after another seat's delivery, the seats
 * holding power cards are asked in turn; either card sends the tip back. */
static void test_tip_losing_instants(void **state)
{
    (void)state;
    static const char *const cards[] = {"traffic-jam", "rough-delivery"};
    for (int k = 0; k < 2; k++) {
        pd_state st;
        delivery_to_answer(&st, 120 + (uint64_t)k, 1u << 2 | 1u << 4);
        give_power(&st, 2, cards[k]);
        give_power(&st, 4, cards[1 - k]);
        /* not on your own turn */
        assert_refused_with(&st, "instant power:traffic-jam", "Instant cards answer another player's delivery");
        int pool = st.ntip_pool, tips = st.player[0].ntips, money = st.player[0].money;
        play(&st, "deliver 1 from MT");
        assert_int_equal(st.player[0].ntips, tips + 1);
        assert_int_equal(st.player[0].money, money + 1); /* the money stays */
        /* seat 1 holds no power card: not asked; seat 2 is */
        assert_int_equal(st.phase, PD_PH_INSTANT);
        assert_int_equal(st.seat, 2);
        assert_int_equal(pd_current_seat(&st), 2);
        char text[64];
        snprintf(text, sizeof text, "instant power:%s", cards[k]);
        play(&st, text);
        assert_int_equal(st.player[0].ntips, tips);
        assert_int_equal(st.ntip_pool, pool);
        assert_true(st.power_discard >> pd_power_find(&rules->data.cards, cards[k]) & 1);
        /* seat 4 is asked too, but there is no tip left to take */
        assert_int_equal(st.seat, 4);
        snprintf(text, sizeof text, "instant power:%s", cards[1 - k]);
        refused(&st, text);
        play(&st, "done");
        assert_int_equal(st.seat, 0); /* the deliverer's turn goes on */
        assert_int_equal(st.phase, PD_PH_AFTER);
        assert_true(st.player[4].powers != 0);
    }
    /* nobody is asked when nobody else holds a power card */
    pd_state st;
    delivery_to_answer(&st, 122, 0);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.seat, 0);
    assert_int_equal(st.phase, PD_PH_AFTER);
}

/* Traffic Jam on a Special Sale's delivery sends both of its tip tokens back. */
static void test_traffic_jam_on_a_special_sale(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 111);
    for (int s = 1; s < 5; s++)
        empty_hand(&st, s);
    give_power(&st, 3, "traffic-jam");
    static const char *const mt[] = {"Midtown/Ham", "Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Harlem/Ham", "Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Upper West Side/Onions");
    give_power(&st, 0, "special-sale");
    play(&st, "play power:special-sale");
    int pool = st.ntip_pool, tips = st.player[0].ntips;
    deliver_on_sale(&st);
    assert_int_equal(st.player[0].ntips, tips + 2);
    assert_int_equal(st.phase, PD_PH_INSTANT);
    assert_int_equal(st.seat, 3);
    play(&st, "instant power:traffic-jam");
    assert_int_equal(st.player[0].ntips, tips);
    /* both back face down: the pool lost only the new order's token */
    assert_int_equal(st.ntip_pool, pool - 1 + 1);
    assert_int_equal(st.seat, 1); /* nobody else to ask; seat 0's turn is over */
    assert_int_equal(st.phase, PD_PH_START);
}

/* Property Tax: on any opponent, half of each pizzeria's reputation rounded
 * down, $5 at most, paid a dollar or a card at a time. */
static void test_property_tax(void **state)
{
    (void)state;
    pd_state st;
    delivery_to_answer(&st, 123, 1u << 1);
    give_power(&st, 1, "property-tax");
    static const char *const one[] = {"Harlem/Ham", NULL}, *const two[] = {"Harlem/Onions", "Harlem/Peppers", NULL};
    pizzeria(&st, 3, "HA-1", 2, one);          /* reputation 3: $1 */
    pizzeria(&st, 3, "FD-1", 3, two);          /* 5: $2 */
    assert_int_equal(pd_property_tax(&st, 3), 3);
    assert_int_equal(pd_property_tax(&st, 0), 2); /* Midtown: 5 */
    assert_int_equal(pd_property_tax(&st, 2), 0);
    st.player[3].money = 1;
    empty_hand(&st, 3);
    give(&st, 3, "Midtown/Ham");
    give(&st, 3, "Midtown/Ham");
    give(&st, 3, "Harlem/Pepperoni");
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.seat, 1);
    refused(&st, "instant power:property-tax on 3"); /* seat 2 owns nothing */
    refused(&st, "instant power:property-tax on 2"); /* not on yourself */
    play(&st, "instant power:property-tax on 4");
    assert_int_equal(st.phase, PD_PH_TAX);
    assert_int_equal(pd_current_seat(&st), 3);
    play(&st, "pay $1");
    refused(&st, "pay $1"); /* no money left */
    play(&st, "pay Midtown/Ham");
    pd_state other = st; /* any order: the Pepperoni card as well */
    play(&other, "pay Harlem/Pepperoni");
    assert_int_equal(other.player[3].hand[PD_CARD(pd_village_find(&rules->data.map, "HA"), pd_ingredient_find(&rules->data.cards, "Pepperoni"))], 0);
    play(&st, "pay Midtown/Ham");
    assert_int_equal(st.player[3].money, 0);
    assert_int_equal(st.player[3].hand_size, 1);
    assert_int_equal(st.seat, 0); /* seat 1 was the only one asked */
    assert_int_equal(st.phase, PD_PH_AFTER);

    /* a tax of $6 is $5; one who cannot pay it all pays what they have */
    pd_state st2;
    delivery_to_answer(&st2, 124, 1u << 1);
    give_power(&st2, 1, "property-tax");
    static const char *const a[] = {"Harlem/Ham", NULL}, *const b[] = {"Hells-Kitchen/Ham", NULL},
                             *const c[] = {"Financial-District/Ham", NULL};
    pizzeria(&st2, 2, "HA-1", 4, a);
    pizzeria(&st2, 2, "HK-1", 4, b);
    pizzeria(&st2, 2, "FD-1", 4, c);
    assert_int_equal(pd_property_tax(&st2, 2), 5);
    st2.player[2].money = 2;
    empty_hand(&st2, 2);
    give(&st2, 2, "Midtown/Ham");
    play(&st2, "deliver 1 from MT");
    play(&st2, "instant power:property-tax on 3");
    assert_int_equal(st2.pending.due, 3);
    play(&st2, "pay $1");
    play(&st2, "pay $1");
    play(&st2, "pay Midtown/Ham");
    assert_int_equal(st2.player[2].hand_size, 0);
    assert_int_equal(st2.player[2].powers, 0);
    assert_int_equal(st2.player[2].money, 0);
    assert_int_equal(st2.phase, PD_PH_AFTER);
}

/* ---- Ham, Property Tax on your own turn, Bait and Switch in play ---- */

/* The phase as the view names it. */
static bool in_phase(const pd_state *st, const char *name)
{
    json_t *v = pd_view(st, -1);
    bool same = strcmp(json_string_value(json_object_get(v, "phase")), name) == 0;
    json_decref(v);
    return same;
}

/* A legal move as `viewer` is told it. */
static void told(const pd_state *st, const char *text, int viewer, char *out, size_t n)
{
    pb_action a;
    char err[PB_ERR_LEN];
    if (pd_action_parse(st, text, &a, err, sizeof err) != 0)
        fail_msg("\"%s\" refused: %s", text, err);
    assert_int_equal(pd_action_text(st, a, viewer, out, n), 0);
}

/* The token on an order (none: one is put there) changes places with a
 * face-down one of this value. */
static void tip_worth(pd_state *st, int slot, int value)
{
    for (int i = 0; i < st->ntip_pool; i++)
        if (st->tip_value[st->tip_pool[i]] == value) {
            uint8_t mine = st->order[slot].tip;
            st->order[slot].tip = st->tip_pool[i];
            if (mine != PD_NO_TIP) {
                st->tip_pool[i] = mine;
            } else {
                memmove(st->tip_pool + i, st->tip_pool + i + 1, (size_t)(st->ntip_pool - i - 1));
                st->ntip_pool--;
            }
            return;
        }
    fail_msg("no face-down token of $%d", value);
}

static int tip_on(const pd_state *st, int slot)
{
    return st->order[slot].tip == PD_NO_TIP ? 0 : st->tip_value[st->order[slot].tip];
}

/* Seat 0 delivers order 1 from a Midtown pizzeria topped with Ham; orders
 * 2, 3 and 4 go to Midtown, Harlem and the Financial District; the tokens
 * on orders 1-4 are worth `tips`. */
static void ham_table(pd_state *st, uint64_t seed, const int *tips)
{
    table(st, 2, seed);
    others_without_powers(st);
    static const char *const mt[] = {"Midtown/Ham", NULL}, *const one[] = {"Midtown/Ham", NULL},
                             *const two[] = {"Midtown/Onions", NULL}, *const three[] = {"Harlem/Onions", NULL},
                             *const four[] = {"Financial-District/Onions", NULL};
    for (int slot = 0; slot < 4; slot++) { /* the orders' cards back to the sewer first: any may be taken */
        for (int i = 0; i < st->order[slot].ncards; i++)
            st->sewer[st->order[slot].card[i]]++;
        st->order[slot].ncards = 0;
    }
    pizzeria(st, 0, "MT-1", 4, mt);
    const char *const *cards[] = {one, two, three, four};
    for (int slot = 0; slot < 4; slot++) {
        order(st, slot, cards[slot]);
        tip_worth(st, slot, tips[slot]);
    }
    check(st);
}

/* Ham (rulebook: "Look at the 4 tip tokens on the board chose one when you
 * deliver. Rearrange the others how you like and return."): the deliverer
 * keeps one token, then decides which order each other token goes back on;
 * the delivered order's new order gets a new token. */
static void test_ham_keeps_a_tip_and_rearranges_the_others(void **state)
{
    (void)state;
    pd_state st;
    static const int tips[] = {1, 2, 4, 3};
    ham_table(&st, 140, tips);
    int pool = st.ntip_pool;
    play(&st, "deliver 1 from MT");
    assert_true(in_phase(&st, "tip"));
    play(&st, "tip 3");
    /* nothing given yet: the others go back first, in any order ($1, $2, $3 on orders 2, 3, 4) */
    assert_true(in_phase(&st, "arrange"));
    assert_int_equal(st.player[0].ntips, 0);
    assert_int_equal(pd_legal_actions(&st, NULL), 6);
    refused(&st, "arrange 2:$4 3:$2 4:$1"); /* the $4 is kept */
    refused(&st, "arrange 1:$1 3:$2 4:$3"); /* order 1 is delivered: its new order gets a new token */
    play(&st, "arrange 2:$1 3:$3 4:$2");
    assert_int_equal(st.player[0].ntips, 1);
    assert_int_equal(pd_tip_money(&st, 0), 4);
    assert_int_equal(tip_on(&st, 1), 1);
    assert_int_equal(tip_on(&st, 2), 3);
    assert_int_equal(tip_on(&st, 3), 2);
    assert_int_not_equal(st.order[0].tip, PD_NO_TIP);
    assert_int_equal(st.ntip_pool, pool - 1); /* order 1's new token */
    assert_true(in_phase(&st, "after") || st.seat == 1);

    /* tokens of one value are alike: an arrangement per sequence of values */
    pd_state dup;
    static const int same[] = {2, 2, 4, 1};
    ham_table(&dup, 141, same);
    play(&dup, "deliver 1 from MT");
    play(&dup, "tip 3");
    assert_int_equal(pd_legal_actions(&dup, NULL), 3);
    play(&dup, "arrange 2:$1 3:$2 4:$2");
    assert_int_equal(tip_on(&dup, 1), 1);

    /* with one place left there is nothing to arrange: the delivered
     * order's token goes where the kept one was */
    pd_state one;
    ham_table(&one, 142, tips);
    for (int slot = 2; slot < 4; slot++) { /* orders 3 and 4 without a token */
        one.tip_pool[one.ntip_pool++] = one.order[slot].tip;
        one.order[slot].tip = PD_NO_TIP;
    }
    check(&one);
    play(&one, "deliver 1 from MT");
    play(&one, "tip 2");
    assert_false(in_phase(&one, "arrange"));
    assert_int_equal(pd_tip_money(&one, 0), 2);
    assert_int_equal(tip_on(&one, 1), 1);

    /* the delivered order had no token: one order is left without, and the
     * deliverer chooses which (were it the kept token's order, everyone
     * would see which was kept) */
    pd_state none;
    ham_table(&none, 144, tips);
    none.tip_pool[none.ntip_pool++] = none.order[0].tip;
    none.order[0].tip = PD_NO_TIP;
    check(&none);
    play(&none, "deliver 1 from MT");
    play(&none, "tip 3");
    assert_true(in_phase(&none, "arrange"));
    assert_int_equal(pd_legal_actions(&none, NULL), 6); /* $2, $3 and none on orders 2, 3, 4 */
    play(&none, "arrange 2:$3 3:- 4:$2");
    assert_int_equal(pd_tip_money(&none, 0), 4);
    assert_int_equal(tip_on(&none, 1), 3);
    assert_int_equal(none.order[2].tip, PD_NO_TIP);
    assert_int_equal(tip_on(&none, 3), 2);
    check(&none);
}

/* Ham: only the deliverer sees the values, the one kept and where the
 * others went; the others are told that a token was kept and the rest put
 * back, and what they had seen of those tokens is forgotten. */
static void test_ham_tokens_stay_secret(void **state)
{
    (void)state;
    pd_state st;
    static const int tips[] = {1, 2, 4, 3};
    ham_table(&st, 143, tips);
    st.tip_seen[st.order[1].tip] |= 1u << 1; /* seat 1 looked at order 2's token (an earlier Ham of theirs) */
    play(&st, "deliver 1 from MT");
    char text[96];
    told(&st, "tip 3", 0, text, sizeof text);
    assert_string_equal(text, "tip 3");
    told(&st, "tip 3", 1, text, sizeof text);
    assert_string_equal(text, "tip ?");
    told(&st, "tip 3", -1, text, sizeof text); /* a spectator */
    assert_string_equal(text, "tip ?");
    play(&st, "tip 3");
    json_t *mine = pd_view(&st, 0), *theirs = pd_view(&st, 1);
    json_t *ham = json_object_get(json_object_get(mine, "pending"), "ham");
    assert_int_equal(json_integer_value(json_object_get(ham, "kept_from")), 3);
    assert_int_equal(json_integer_value(json_object_get(ham, "value")), 4);
    assert_null(json_object_get(json_object_get(theirs, "pending"), "ham"));
    assert_string_equal(json_string_value(json_object_get(theirs, "phase")), "arrange");
    json_decref(mine);
    json_decref(theirs);
    told(&st, "arrange 2:$3 3:$1 4:$2", 0, text, sizeof text);
    assert_string_equal(text, "arrange 2:$3 3:$1 4:$2");
    told(&st, "arrange 2:$3 3:$1 4:$2", 1, text, sizeof text);
    assert_string_equal(text, "arrange ?");
    play(&st, "arrange 2:$3 3:$1 4:$2");
    mine = pd_view(&st, 0);
    theirs = pd_view(&st, 1);
    static const int placed[] = {3, 1, 2};
    for (size_t i = 1; i < 4; i++) {
        json_t *o = json_array_get(json_object_get(mine, "orders"), i);
        assert_int_equal(json_integer_value(json_object_get(o, "tip_value")), placed[i - 1]);
        assert_null(json_object_get(json_array_get(json_object_get(theirs, "orders"), i), "tip_value"));
    }
    /* the new order's token nobody has seen */
    assert_null(json_object_get(json_array_get(json_object_get(mine, "orders"), 0), "tip_value"));
    json_decref(mine);
    json_decref(theirs);
}

/* Ham: a guess at the hidden things (search bots) keeps what the deliverer
 * knows, the token kept and the values where they put the others, and
 * only for them. */
static void test_ham_guesses_keep_where_the_deliverer_put_the_tokens(void **state)
{
    (void)state;
    pd_state st;
    static const int tips[] = {1, 2, 4, 3};
    ham_table(&st, 144, tips);
    play(&st, "deliver 1 from MT");
    play(&st, "tip 3");
    play(&st, "arrange 2:$2 3:$3 4:$1");
    bool moved = false;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        pd_state mine = st, theirs = st;
        pb_rng rng;
        pb_rng_seed(&rng, seed);
        pd_determinize(&mine, 0, &rng);
        pd_determinize(&theirs, 1, &rng);
        assert_int_equal(mine.tip_value[st.player[0].tip[0]], 4);
        for (int slot = 1; slot < 4; slot++) {
            assert_int_equal(tip_on(&mine, slot), tip_on(&st, slot));
            moved |= tip_on(&theirs, slot) != tip_on(&st, slot);
        }
    }
    assert_true(moved); /* seat 1 knows none of them */
}

/* Ham, for the bots: the token kept counts at its value, and a good token
 * put back on an order near the deliverer's pizzeria is worth more to them
 * than on one far away. */
static void test_ham_bots_value_what_they_saw(void **state)
{
    (void)state;
    pd_state st;
    static const int tips[] = {1, 2, 4, 3};
    ham_table(&st, 145, tips);
    play(&st, "deliver 1 from MT");
    pb_action a[PB_MAX_ACTIONS];
    double best = -1e9;
    int best_value = 0, n = pd_legal_actions(&st, a);
    for (int i = 0; i < n; i++) {
        pd_state next = st;
        char err[PB_ERR_LEN];
        assert_int_equal(pd_apply(&next, a[i], err, sizeof err), 0);
        double v[PD_PLAYERS];
        pd_evaluate(&next, 0, v);
        if (v[0] - v[1] > best + 1e-9) {
            best = v[0] - v[1];
            best_value = tip_on(&st, (int)PD_ARG(a[i]));
        }
    }
    assert_int_equal(best_value, 4);
    play(&st, "tip 3");
    n = pd_legal_actions(&st, a);
    best = -1e9;
    int near = 0; /* the value the best arrangement puts on order 2, Midtown's */
    for (int i = 0; i < n; i++) {
        pd_state next = st;
        char err[PB_ERR_LEN];
        assert_int_equal(pd_apply(&next, a[i], err, sizeof err), 0);
        double v[PD_PLAYERS];
        pd_evaluate(&next, 0, v);
        if (v[0] - v[1] > best + 1e-9) {
            best = v[0] - v[1];
            near = tip_on(&next, 1);
        }
    }
    assert_int_equal(near, 3);
}

/* Property Tax is Timed and Instant: played on your own turn too (before
 * or after the action, as the turn's power card) on an opponent, who pays
 * at once; then the turn goes on. */
static void test_property_tax_on_your_own_turn(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 130);
    for (int s = 1; s < st.players; s++)
        empty_hand(&st, s);
    static const char *const one[] = {"Harlem/Ham", NULL}, *const two[] = {"Harlem/Onions", "Harlem/Peppers", NULL};
    pizzeria(&st, 2, "HA-1", 2, one); /* reputation 3: $1 */
    pizzeria(&st, 2, "FD-1", 3, two); /* 5: $2 */
    st.player[2].money = 5;
    give_power(&st, 0, "property-tax");
    give_power(&st, 0, "lucky-day");
    refused(&st, "play power:property-tax"); /* on whom? */
    refused(&st, "play power:property-tax on 2"); /* seat 1 owns nothing */
    refused(&st, "play power:property-tax on 1"); /* not on yourself */
    double before[PD_PLAYERS], after[PD_PLAYERS];
    pd_evaluate(&st, 0, before);
    play(&st, "play power:property-tax on 3");
    assert_true(in_phase(&st, "tax"));
    assert_int_equal(pd_current_seat(&st), 2);
    pd_evaluate(&st, 0, after); /* bots count it as paid */
    assert_true(after[2] < before[2] - 2.5);
    json_t *v = pd_view(&st, 2);
    assert_int_equal(json_integer_value(json_object_get(v, "whose_turn")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "tax"), "due")), 3);
    json_decref(v);
    play(&st, "pay $1");
    play(&st, "pay $1");
    play(&st, "pay $1");
    assert_int_equal(st.player[2].money, 2);
    assert_int_equal(st.seat, 0);
    assert_true(in_phase(&st, "start")); /* back to the turn's action */
    assert_true(st.power_discard >> pd_power_find(&rules->data.cards, "property-tax") & 1);
    refused(&st, "play power:lucky-day"); /* it was the turn's power card */

    /* after the action: the target pays, then the turn ends */
    pd_state st2;
    expansion_table(&st2, 5, 131);
    for (int s = 1; s < st2.players; s++)
        empty_hand(&st2, s);
    pizzeria(&st2, 3, "HA-1", 2, one);
    st2.player[3].money = 0;
    give(&st2, 3, "Midtown/Ham");
    give_power(&st2, 0, "property-tax");
    market_from_deck(&st2);
    assert_true(in_phase(&st2, "after"));
    play(&st2, "play power:property-tax on 4");
    assert_int_equal(pd_current_seat(&st2), 3);
    play(&st2, "pay Midtown/Ham");
    assert_int_equal(st2.player[3].hand_size, 0);
    assert_int_equal(st2.seat, 1); /* nothing left to play: seat 0's turn is over */
}

/* Bait and Switch is a SPEED card: while it is in play its holder may swap
 * once a turn, before or after the action, without playing a card. */
static void test_bait_and_switch_in_play_once_a_turn(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 150);
    others_without_powers(&st);
    static const char *const a[] = {"Greenwich Village/Onions", "Harlem/Ham", NULL};
    order(&st, 2, a);
    in_play(&st, 0, "bait-and-switch");
    give(&st, 0, "Midtown/Ham");
    give(&st, 0, "Hells-Kitchen/Ham");
    play(&st, "swap 3 Midtown/Ham");
    assert_string_equal(order_village(&st, 2), "MT");
    assert_int_equal(st.player[0].hand[card("Harlem/Ham")], 1);
    assert_true(in_phase(&st, "start"));
    refused(&st, "swap 3 Hells-Kitchen/Ham"); /* once a turn */
    market_from_deck(&st);
    assert_int_equal(st.seat, 1); /* used: nothing to wait for after the action */
    pass_round(&st);
    assert_int_equal(st.seat, 0);
    play(&st, "swap 3 Hells-Kitchen/Ham"); /* a new turn */
    assert_string_equal(order_village(&st, 2), "HK");
}

/* Bait and Switch: "You may do this even if you are not delivering this
 * turn": after another action, and never forced (after Windfall, which
 * leaves no action, the turn may still end without a swap). */
static void test_bait_and_switch_without_delivering(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 151);
    others_without_powers(&st);
    static const char *const a[] = {"Greenwich Village/Onions", "Harlem/Ham", NULL};
    order(&st, 2, a);
    in_play(&st, 0, "bait-and-switch");
    give(&st, 0, "Midtown/Ham");
    market_from_deck(&st);
    /* the turn waits after the action although seat 0 holds no power card:
     * the card in play may still be used (a pause for any hand, so it tells nothing) */
    assert_int_equal(st.seat, 0);
    assert_true(in_phase(&st, "after"));
    play(&st, "swap 3 Midtown/Ham");
    assert_string_equal(order_village(&st, 2), "MT");
    assert_int_equal(st.seat, 1);

    pd_state wf;
    expansion_table(&wf, 5, 152);
    order(&wf, 2, a);
    in_play(&wf, 0, "bait-and-switch");
    give(&wf, 0, "Midtown/Ham");
    give_power(&wf, 0, "windfall");
    play(&wf, "play power:windfall");
    assert_true(is_legal(&wf, "swap 3 Midtown/Ham"));
    assert_true(is_legal(&wf, "end"));
}

/* Bait and Switch played: it goes into play with no decision of its own;
 * its swap is offered at once, as on every turn it stays. */
static void test_bait_and_switch_played_then_used(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 153);
    static const char *const a[] = {"Greenwich Village/Onions", "Harlem/Ham", NULL};
    order(&st, 2, a);
    give(&st, 0, "Midtown/Ham");
    give_power(&st, 0, "bait-and-switch");
    play(&st, "play power:bait-and-switch");
    assert_true(in_phase(&st, "start"));
    refused(&st, "done");
    play(&st, "swap 3 Midtown/Ham");
    assert_true(in_phase(&st, "start"));
    assert_string_equal(order_village(&st, 2), "MT");
}

/* Stock Market Crash never takes the Any Ingredient card that lets a
 * pizzeria stand above reputation 5: a disk goes instead. */
static void test_crash_keeps_any_ingredient_limit(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 127);
    static const char *const any[] = {"Harlem/Any-Ingredient", NULL};
    pizzeria(&st, 0, "HA-1", 6, any);
    int ha = rules->data.map.lot[pd_lot_find(&rules->data.map, "HA-1")].village;
    assert_int_equal(pd_reputation(&st, 0, ha), 7);
    give_power(&st, 0, "stock-market-crash");
    play(&st, "play power:stock-market-crash"); /* one way left: made without asking */
    assert_int_equal(st.player[0].pizzeria[ha].disks, 5);
    assert_int_equal(st.player[0].pizzeria[ha].ncards, 1);
    assert_int_equal(st.phase, PD_PH_START); /* played before the action */
}

/* ---- Any cards and upgrades as printed ("Persistent Powers", "Upgrade") ---- */

/* The pizzeria of a seat in a village, by code. */
static const pd_pizzeria *pizzeria_in(const pd_state *st, int seat, const char *code)
{
    return &st->player[seat].pizzeria[pd_village_find(&rules->data.map, code)];
}

/* Any Ingredient "can be the only card in your pizzeria": added, it sends
 * every other card to the sewer; a card added later replaces it (to the
 * sewer), and the limit is 5 again. */
static void test_any_ingredient_is_the_only_card(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 131);
    static const char *const ha[] = {"Harlem/Onions", "Harlem/Ham", NULL};
    pizzeria(&st, 0, "HA-1", 2, ha);
    give(&st, 0, "Harlem/Any-Ingredient");
    give(&st, 0, "Harlem/Pineapple");
    int any_in_sewer = st.sewer[card("Harlem/Any-Ingredient")], onions = st.sewer[card("Harlem/Onions")],
        ham = st.sewer[card("Harlem/Ham")];
    play(&st, "reputation");
    play(&st, "upgrade HA Harlem/Any-Ingredient add");
    const pd_pizzeria *z = pizzeria_in(&st, 0, "HA");
    assert_int_equal(z->ncards, 1);
    assert_int_equal(z->card[0], card("Harlem/Any-Ingredient"));
    assert_int_equal(st.sewer[card("Harlem/Onions")], onions + 1); /* the others to the sewer */
    assert_int_equal(st.sewer[card("Harlem/Ham")], ham + 1);
    assert_int_equal(pd_reputation_limit(&st, 0, pd_village_find(&rules->data.map, "HA")), 7);
    play(&st, "upgrade HA Harlem/Pineapple add");
    assert_int_equal(z->ncards, 1); /* the Pineapple replaced it */
    assert_int_equal(z->card[0], card("Harlem/Pineapple"));
    assert_int_equal(st.sewer[card("Harlem/Any-Ingredient")], any_in_sewer + 1);
    assert_int_equal(pd_reputation_limit(&st, 0, pd_village_find(&rules->data.map, "HA")), 5);
}

/* Any Ingredient replaced at reputation 7: the limit goes back to 5 and
 * what is over goes; the new card is the only one (and the top), so two
 * disks go back to the supply, without asking. A disk added at 7 would go
 * back at once: not offered. */
static void test_any_ingredient_replaced_gives_back_what_is_over(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 132);
    static const char *const any[] = {"Harlem/Any-Ingredient", NULL};
    pizzeria(&st, 0, "HA-1", 6, any);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    int ha = pd_village_find(&rules->data.map, "HA");
    assert_int_equal(pd_reputation(&st, 0, ha), 7);
    int supply = st.player[0].disks;
    play(&st, "reputation");
    refused(&st, "upgrade HA Harlem/Ham disk");
    play(&st, "upgrade HA Harlem/Ham top");
    const pd_pizzeria *z = pizzeria_in(&st, 0, "HA");
    assert_int_equal(z->ncards, 1);
    assert_int_equal(z->card[0], card("Harlem/Ham"));
    assert_int_equal(z->disks, 4);
    assert_int_equal(st.player[0].disks, supply + 2);
    assert_int_equal(pd_reputation(&st, 0, ha), 5);
    assert_int_equal(pd_reputation_limit(&st, 0, ha), 5);
    assert_int_equal(st.phase, PD_PH_REPUTATION); /* the second step may follow */
}

/* Any Meat is the pizzeria's only permanent meat: a meat added later
 * replaces it (a vegetable does not); Any Vegetable alike. When the Any card
 * was the top, the new card takes its place unless another is chosen. */
static void test_meat_or_vegetable_added_replaces_the_any_card(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 133);
    static const char *const mt[] = {"Midtown/Onions", "Midtown/Any-Meat", NULL};
    static const char *const hk[] = {"Hell's Kitchen/Ham", "Hell's Kitchen/Any-Vegetable", NULL};
    pizzeria(&st, 0, "MT-1", 1, mt);
    give(&st, 0, "Midtown/Peppers");
    give(&st, 0, "Midtown/Sausage");
    int meat_in_sewer = st.sewer[card("Midtown/Any-Meat")];
    play(&st, "reputation");
    play(&st, "upgrade MT Midtown/Peppers add"); /* a vegetable: the Any Meat stays */
    const pd_pizzeria *z = pizzeria_in(&st, 0, "MT");
    assert_int_equal(z->ncards, 3);
    assert_int_equal(z->card[2], card("Midtown/Any-Meat"));
    play(&st, "upgrade MT Midtown/Sausage add"); /* a meat: it replaces the Any Meat */
    assert_int_equal(z->ncards, 3);
    assert_int_equal(st.sewer[card("Midtown/Any-Meat")], meat_in_sewer + 1);
    assert_int_equal(z->card[2], card("Midtown/Sausage")); /* on top in its place */
    for (int i = 0; i < z->ncards; i++)
        assert_int_not_equal(z->card[i], card("Midtown/Any-Meat"));

    pd_state st2;
    expansion_table(&st2, 5, 137);
    pizzeria(&st2, 0, "HK-1", 1, hk);
    give(&st2, 0, "Hell's Kitchen/Tomatoes");
    play(&st2, "reputation");
    play(&st2, "upgrade HK Hell's-Kitchen/Tomatoes add top Ham");
    z = pizzeria_in(&st2, 0, "HK");
    assert_int_equal(z->ncards, 2); /* the Any Vegetable went */
    assert_int_equal(z->card[0], card("Hell's Kitchen/Tomatoes"));
    assert_int_equal(z->card[1], card("Hell's Kitchen/Ham"));
}

/* "To change a power you must perform an upgrade then you may reorder the
 * cards in your pizzeria": an upgrade puts any card of the pizzeria on top
 * (never Central Park), a disk upgrade too. */
static void test_upgrade_chooses_the_top_card(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 134);
    static const char *const mt[] = {"Central Park/Ham", "Midtown/Onions", "Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 1, mt);
    give(&st, 0, "Midtown/Pepperoni");
    give(&st, 0, "Midtown/Pineapple");
    play(&st, "reputation");
    refused(&st, "upgrade MT Midtown/Pepperoni disk top Tomatoes"); /* on top already */
    refused(&st, "upgrade MT Midtown/Pepperoni disk top Ham"); /* its Ham is Central Park's */
    play(&st, "upgrade MT Midtown/Pepperoni disk top Onions");
    const pd_pizzeria *z = pizzeria_in(&st, 0, "MT");
    assert_int_equal(z->disks, 2);
    assert_int_equal(z->ncards, 3);
    assert_int_equal(z->card[2], card("Midtown/Onions"));
    play(&st, "upgrade MT Midtown/Pineapple add top Tomatoes"); /* at the limit: one goes */
    assert_int_equal(st.phase, PD_PH_TRIM);
    play(&st, "remove MT Central-Park/Ham");
    assert_int_equal(z->ncards, 3);
    assert_int_equal(z->card[0], card("Midtown/Pineapple"));
    assert_int_equal(z->card[2], card("Midtown/Tomatoes"));
    assert_int_equal(pd_reputation(&st, 0, pd_village_find(&rules->data.map, "MT")), 5);
}

/* A pizzeria at its top reputation can still be upgraded: the new card goes
 * in, then the player removes what is over the limit, a card below the top
 * of their choice (never the top card, nor a disk while such a card is
 * there). */
static void test_upgrade_at_the_limit_replaces_a_card(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 135);
    static const char *const ha[] = {"Central Park/Ham", "Harlem/Ham", NULL};
    pizzeria(&st, 0, "HA-1", 3, ha);
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Pepperoni");
    int ha_v = pd_village_find(&rules->data.map, "HA");
    play(&st, "reputation");
    play(&st, "upgrade HA Harlem/Onions top");
    assert_int_equal(st.phase, PD_PH_TRIM);
    assert_int_equal(pd_reputation(&st, 0, ha_v), 6);
    json_t *v = pd_view(&st, 0);
    assert_string_equal(json_string_value(json_object_get(v, "phase")), "trim");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "pending"), "due")), 1);
    json_decref(v);
    assert_refused_with(&st, "remove HA Harlem/Onions", "the top card stays");
    assert_refused_with(&st, "remove HA disk", "a card below the top goes");
    refused(&st, "upgrade HA Harlem/Pepperoni add");
    play(&st, "remove HA Harlem/Ham");
    const pd_pizzeria *z = pizzeria_in(&st, 0, "HA");
    assert_int_equal(z->disks, 3);
    assert_int_equal(z->ncards, 2);
    assert_int_equal(z->card[0], card("Central Park/Ham"));
    assert_int_equal(z->card[1], card("Harlem/Onions"));
    assert_int_equal(st.sewer[card("Harlem/Ham")] >= 1, 1);
    assert_int_equal(st.phase, PD_PH_REPUTATION); /* the second step */
}

/* At the top reputation an upgrade for a disk puts another card on top,
 * and what is over goes: "remove a card if you are over the allowable
 * reputation level", the card below the top (the only one: at once), not
 * the new disk. Editions 1 and 2 let the player give the disk back instead,
 * a reorder for nothing but the card spent. */
static void test_upgrade_at_the_limit_reorders(void **state)
{
    (void)state;
    for (int edition = 2; edition <= PD_EDITION; edition++) {
        pd_state st;
        table(&st, 2, 136);
        rules->edition = (uint8_t)edition;
        static const char *const ha[] = {"Harlem/Onions", "Harlem/Pepperoni", NULL};
        pizzeria(&st, 0, "HA-1", 3, ha);
        give(&st, 0, "Harlem/Ham");
        int supply = st.player[0].disks, sewer = st.sewer[card("Harlem/Pepperoni")];
        play(&st, "reputation");
        play(&st, "upgrade HA Harlem/Ham disk top Onions");
        const pd_pizzeria *z = pizzeria_in(&st, 0, "HA");
        if (edition >= 3) {
            assert_int_not_equal(st.phase, PD_PH_TRIM); /* one way: made at once */
            assert_int_equal(z->disks, 4);
            assert_int_equal(st.player[0].disks, supply - 1);
            assert_int_equal(z->ncards, 1);
            assert_int_equal(z->card[0], card("Harlem/Onions"));
            assert_int_equal(st.sewer[card("Harlem/Pepperoni")], sewer + 1);
        } else {
            assert_int_equal(st.phase, PD_PH_TRIM);
            play(&st, "remove HA disk");
            assert_int_equal(z->disks, 3);
            assert_int_equal(st.player[0].disks, supply);
            assert_int_equal(z->ncards, 2);
            assert_int_equal(z->card[1], card("Harlem/Onions"));
        }
        assert_int_equal(st.player[0].hand_size, 0);
    }
    rules->edition = PD_EDITION;
}

/* Out of Supplies: played on an opponent, who pays $2 (money or two cards)
 * before delivering again. */
static void test_out_of_supplies(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 125);
    for (int s = 1; s < st.players; s++)
        empty_hand(&st, s);
    give_power(&st, 0, "out-of-supplies");
    assert_refused_with(&st, "supplies $2", "you owe nothing for Out of Supplies");
    refused(&st, "play power:out-of-supplies"); /* on whom? */
    refused(&st, "play power:out-of-supplies on 1");
    play(&st, "play power:out-of-supplies on 2");
    assert_int_equal(st.supplies_due[1], 1);
    market_from_deck(&st); /* the turn ends by itself: no power card left to play */
    assert_int_equal(st.seat, 1);
    static const char *const mt[] = {"Central-Park/Onions", "Midtown/Tomatoes", NULL}, *const onions[] = {"Midtown/Onions", NULL};
    pizzeria(&st, 1, "MT-1", 3, mt);
    order(&st, 0, onions);
    refused(&st, "deliver 1 from MT");
    int money = st.player[1].money;
    /* paying is worth more than the $2 it costs: the pizzerias deliver again (bots pay) */
    double owing[PD_PLAYERS], paid[PD_PLAYERS];
    pd_evaluate(&st, 1, owing);
    play(&st, "supplies $2");
    pd_evaluate(&st, 1, paid);
    assert_true(paid[1] > owing[1] + 0.5);
    assert_int_equal(st.player[1].money, money - 2);
    assert_int_equal(st.supplies_due[1], 0);
    play(&st, "deliver 1 from MT");

    /* owed twice, paid with cards the second time; without $2 or two cards, no delivery */
    pd_state st2;
    expansion_table(&st2, 5, 126);
    st2.supplies_due[0] = 2;
    pizzeria(&st2, 0, "MT-1", 3, mt);
    order(&st2, 0, onions);
    st2.player[0].money = 2;
    give(&st2, 0, "Harlem/Ham");
    play(&st2, "supplies $2");
    refused(&st2, "supplies $2"); /* no money left */
    refused(&st2, "deliver 1 from MT");
    give(&st2, 0, "Harlem/Onions");
    play(&st2, "supplies Harlem/Onions Harlem/Ham");
    assert_int_equal(st2.player[0].hand_size, 0);
    play(&st2, "deliver 1 from MT");

    /* paid before the action, not after it */
    expansion_table(&st2, 5, 127);
    st2.supplies_due[0] = 1;
    st2.player[0].money = 5;
    play(&st2, "market");
    assert_refused_with(&st2, "supplies $2", "paid at the start of your turn");
}

/* ---------------- rules that had no test (docs/rules-coverage.md) ---------------- */

/* The delivery under way: its ingredients, distance and Ham's tip, the
 * first way each time, up to the reward. */
static void finish_delivery(pd_state *st)
{
    while (st->phase == PD_PH_SUPPLY || st->phase == PD_PH_DISTANCE || st->phase == PD_PH_TIP) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(st, a) > 0);
        assert_int_equal(pd_apply(st, a[0], err, sizeof err), 0);
        check(st);
    }
}

/* After the action, end the turn without playing a power card. */
static void end_after_action(pd_state *st)
{
    if (st->phase == PD_PH_AFTER)
        play(st, "end");
}

/* PD-S3, 003:359: a 5-player table (the expansion in). Position: the two
 * cards dealt to each player to keep one. Expected: only basic cards are
 * dealt (none of the expansion anywhere yet); once everyone has kept one,
 * the power deck holds the returned basic cards and all 26 expansion cards. */
static void test_expansion_power_cards_after_the_keep(void **state)
{
    (void)state;
    const pd_cards *cards = &rules->data.cards;
    pd_rules_init(rules, 5, 0);
    assert_true(rules->expansion);
    pd_state st;
    pd_init(&st, rules, 41);
    assert_int_equal(st.phase, PD_PH_KEEP);
    int basic = 0, expansion = 0;
    for (int p = 0; p < cards->npowers; p++) {
        basic += cards->power[p].box == PD_BASIC;
        expansion += cards->power[p].box == PD_EXPANSION;
    }
    assert_int_equal(basic, 22);
    assert_int_equal(expansion, 26);
    for (int s = 0; s < 5; s++)
        for (uint64_t m = st.kept_choice[s]; m; m &= m - 1)
            assert_int_equal(cards->power[__builtin_ctzll(m)].box, PD_BASIC);
    for (int i = 0; i < st.npower_deck; i++)
        assert_int_equal(cards->power[st.power_deck[i]].box, PD_BASIC);
    assert_int_equal(st.npower_deck, basic - 2 * 5);
    while (st.phase == PD_PH_KEEP) {
        pb_action a[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    check(&st);
    int in_deck = 0;
    for (int s = 0; s < 5; s++) { /* each kept a basic card */
        assert_int_equal(__builtin_popcountll(st.player[s].powers), 1);
        assert_int_equal(cards->power[__builtin_ctzll(st.player[s].powers)].box, PD_BASIC);
    }
    for (int i = 0; i < st.npower_deck; i++)
        in_deck += cards->power[st.power_deck[i]].box == PD_EXPANSION;
    assert_int_equal(in_deck, expansion);
    assert_int_equal(st.npower_deck, basic - 5 + expansion);
}

/* PD-S6, 003:22: no first seat configured. Position: 4-player games set up
 * from different seeds. Expected: the first player is drawn from the seed
 * (the same seed, the same player; over many seeds every seat starts), keeps
 * a power card first and takes the first turn; a config without "first"
 * says "random". */
static void test_first_player_drawn_from_the_seed(void **state)
{
    (void)state;
    pd_rules_init(rules, 4, -1);
    unsigned seen = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        pd_state st, again;
        pd_init(&st, rules, seed);
        pd_init(&again, rules, seed);
        assert_true(st.first < 4);
        assert_int_equal(again.first, st.first);
        assert_int_equal(st.seat, st.first); /* the first to keep a power card */
        seen |= 1u << st.first;
        while (st.phase == PD_PH_KEEP) {
            pb_action a[PB_MAX_ACTIONS];
            char err[PB_ERR_LEN];
            assert_true(pd_legal_actions(&st, a) > 0);
            assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
        }
        assert_int_equal(st.phase, PD_PH_START);
        assert_int_equal(st.seat, st.first); /* and the first turn */
    }
    assert_int_equal(seen, 0xFu);
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i}", "players", 3);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    assert_string_equal(json_string_value(json_object_get(g->config, "first")), "random");
    assert_int_equal(((const pd_rules *)g->rules)->first, -1);
    pb_game_free(g);
}

/* PD-T1, 003:195: the Greenwich Village pizzeria (1 disk, Pepperoni on top)
 * delivers a Pepperoni pizza to Hell's Kitchen, 5 spaces away: 4 spaces to
 * pay, with 3 market cards and a power card (Mob Boss) in hand. Expected: the power card pays the fourth space,
 * $1 like a card, and goes to the power cards' discards. */
static void test_power_card_pays_for_distance(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 140);
    static const char *const gv[] = {"Greenwich Village/Pepperoni", NULL};
    static const char *const b[] = {"Hell's Kitchen/Pepperoni", NULL};
    pizzeria(&st, 0, "GV-1", 1, gv);
    order(&st, 1, b);
    give(&st, 0, "Harlem/Peppers");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Tomatoes");
    int mob = give_power(&st, 0, "mob-boss");
    check(&st);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 1, pd_village_find(&rules->data.map, "GV"), -1, 0, &q), 0);
    assert_int_equal(q.distance_cards, 4);
    play(&st, "deliver 2 from GV");
    assert_int_equal(st.phase, PD_PH_DISTANCE);
    play(&st, "pay Harlem/Peppers");
    play(&st, "pay Harlem/Onions");
    play(&st, "pay Harlem/Tomatoes");
    play(&st, "pay power:mob-boss");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 1);
    assert_int_equal(st.player[0].hand_size, 0);
    assert_true(st.power_discard >> mob & 1);
    assert_false(st.player[0].powers >> mob & 1);
    assert_int_equal(__builtin_popcountll(st.player[0].powers), 1); /* only the one the delivery gave */
}

/* PD-T5, 003:187, 212: 8 market cards and 2 power cards in hand, then to
 * market. Expected: 12 cards at the end of the turn, 10 of them market
 * cards: two must go, and a power card may be one of them. */
static void test_power_cards_count_towards_the_hand_limit(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 141);
    const char *const cards[] = {"Harlem/Ham",     "Harlem/Onions",   "Harlem/Peppers", "Harlem/Sausage",
                                 "Midtown/Ham",    "Midtown/Onions",  "Midtown/Peppers", "Midtown/Sausage", NULL};
    for (int i = 0; cards[i]; i++)
        give(&st, 0, cards[i]);
    int mob = give_power(&st, 0, "mob-boss");
    give_power(&st, 0, "drone-delivery");
    market_from_deck(&st);
    assert_int_equal(st.player[0].hand_size, 10);
    assert_int_equal(st.phase, PD_PH_AFTER);
    play(&st, "end");
    assert_int_equal(st.phase, PD_PH_DISCARD); /* 10 market cards, but 12 cards */
    play(&st, "discard Harlem/Ham");
    assert_int_equal(st.phase, PD_PH_DISCARD);
    play(&st, "discard power:mob-boss");
    assert_int_equal(st.seat, 1);
    assert_int_equal(st.player[0].hand_size, 9);
    assert_int_equal(__builtin_popcountll(st.player[0].powers), 1);
    assert_true(st.power_discard >> mob & 1);
}

/* PD-T5, 003:212: 11 market cards and a power card after a market turn (12
 * cards). Expected: the discard waits until the optional power card: played
 * after the action, Liberty Storage raises the limit to 12 and nothing is
 * discarded; Drone Delivery played leaves 11 cards, and one is discarded. */
static void test_hand_limit_after_the_power_card(void **state)
{
    (void)state;
    static const char *const played[] = {"liberty-storage", "drone-delivery"};
    for (int k = 0; k < 2; k++) {
        pd_state st;
        table(&st, 2, 142);
        const char *const cards[] = {"Harlem/Ham",  "Harlem/Onions",  "Harlem/Peppers",  "Harlem/Sausage", "Harlem/Tomatoes",
                                     "Midtown/Ham", "Midtown/Onions", "Midtown/Peppers", "Midtown/Sausage", NULL};
        for (int i = 0; cards[i]; i++)
            give(&st, 0, cards[i]);
        give_power(&st, 0, played[k]);
        market_from_deck(&st);
        assert_int_equal(st.player[0].hand_size, 11);
        assert_int_equal(st.phase, PD_PH_AFTER); /* 12 cards, and no discard yet */
        char text[64];
        snprintf(text, sizeof text, "play power:%s", played[k]);
        play(&st, text);
        if (k == 0) {
            assert_int_equal(st.seat, 1); /* 11 cards, within Liberty Storage's 12 */
            assert_int_equal(st.player[0].hand_size, 11);
        } else {
            assert_int_equal(st.phase, PD_PH_DISCARD);
            play(&st, "discard Harlem/Ham");
            assert_int_equal(st.seat, 1);
            assert_int_equal(st.player[0].hand_size, 10);
        }
    }
}

/* PD-T3, 003:189, 214: Increase Your Reputation with a Harlem and a
 * Financial District card and $5. Expected: two builds in one action
 * (HA-1 and FD-1, $2 each); on the next turn, two upgrades of the Harlem
 * pizzeria (a disk and a card): reputation 2 + 2 = 4. */
static void test_two_builds_or_two_upgrades(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 143);
    others_without_powers(&st);
    const pd_map *map = &rules->data.map;
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Financial District/Ham");
    play(&st, "reputation");
    play(&st, "build HA-1 Harlem/Ham");
    play(&st, "pay $1");
    play(&st, "pay $1");
    assert_int_equal(st.phase, PD_PH_REPUTATION); /* a second step */
    play(&st, "build FD-1 Financial-District/Ham");
    play(&st, "pay $1");
    play(&st, "pay $1");
    assert_int_equal(st.lot_owner[pd_lot_find(map, "HA-1")], 0);
    assert_int_equal(st.lot_owner[pd_lot_find(map, "FD-1")], 0);
    assert_int_equal(st.player[0].money, 5 - 2 - 2);
    assert_int_equal(st.player[0].disks, PD_DISKS - 2);
    assert_int_equal(st.seat, 1);
    finish_turn(&st);
    assert_int_equal(st.seat, 0);
    empty_hand(&st, 0);
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Peppers");
    check(&st);
    int ha = pd_village_find(map, "HA");
    play(&st, "reputation");
    play(&st, "upgrade HA Harlem/Onions disk");
    assert_int_equal(st.phase, PD_PH_REPUTATION);
    play(&st, "upgrade HA Harlem/Peppers add");
    assert_int_equal(pd_reputation(&st, 0, ha), 4);
    assert_int_equal(st.player[0].pizzeria[ha].disks, 2);
    assert_int_equal(st.player[0].pizzeria[ha].ncards, 2);
    assert_int_equal(st.seat, 1);
}

/* PD-P1, 003:238: two pizzerias: Midtown (3 disks, Tomatoes on top: one
 * more space) and Hell's Kitchen (3 disks, Pineapple on top: $1 more); an
 * Onions pizza to Midtown, the Onions from hand. Expected: from Midtown the
 * Tomatoes' space (4 free, no card) and no Pineapple dollar ($1); from
 * Hell's Kitchen the Pineapple's dollar ($2) and no Tomatoes' space. */
static void test_only_the_delivering_pizzerias_power(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 144);
    const pd_map *map = &rules->data.map;
    static const char *const mt[] = {"Midtown/Tomatoes", NULL}, *const hk[] = {"Hell's Kitchen/Pineapple", NULL};
    static const char *const a[] = {"Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    pizzeria(&st, 0, "HK-1", 3, hk);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Onions");
    give_from_deck(&st, 0, 6);
    check(&st);
    int mt_v = pd_village_find(map, "MT"), hk_v = pd_village_find(map, "HK");
    pd_quote from_mt, from_hk;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &from_mt), 0);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, hk_v, -1, 0, &from_hk), 0);
    assert_int_equal(from_mt.free_range, 3 + 1);
    assert_int_equal(from_mt.pay, 1);
    assert_int_equal(from_hk.free_range, 3);
    assert_int_equal(from_hk.pay, 1 + 1);
    assert_int_equal(from_mt.distance_cards, 0);
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Onions");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 1);
    assert_int_equal(st.player[0].hand_size, 6); /* no card paid for the distance */
}

/* PD-T4, 003:239: Midtown's pizzeria has Ham, Hell's Kitchen's Onions; a
 * Ham and Onions pizza to Midtown. Expected: from Midtown the Onions of the
 * other pizzeria do not count: with an empty hand no delivery; with an
 * Onions card in hand it is used. */
static void test_only_the_delivering_pizzerias_ingredients(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 145);
    const pd_map *map = &rules->data.map;
    static const char *const mt[] = {"Midtown/Ham", "Midtown/Tomatoes", NULL}, *const hk[] = {"Hell's Kitchen/Onions", NULL};
    static const char *const a[] = {"Harlem/Onions", "Midtown/Ham", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    pizzeria(&st, 0, "HK-1", 3, hk);
    order(&st, 0, a);
    check(&st);
    pd_quote q;
    int mt_v = pd_village_find(map, "MT");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), -1);
    refused(&st, "deliver 1 from MT");
    give(&st, 0, "Upper West Side/Onions");
    check(&st);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 1);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    play(&st, "use Upper-West-Side/Onions");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].hand_size, 0);
}

/* PD-O1, 003:246, competitive: the order deck is empty, the 16 order cards
 * not on the board are discarded. Position: a delivery of Order 1. Expected:
 * its card joins the discards, which are shuffled back as the order deck,
 * and the new order comes from it (16 cards left, none discarded). */
static void test_order_deck_shuffled_back(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 146);
    for (int i = 0; i < st.norder_deck; i++)
        st.order_discard[st.norder_discard++] = st.order_deck[i];
    st.norder_deck = 0;
    assert_int_equal(st.norder_discard, 16);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, mt);
    check(&st);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_true(st.order[0].kind >= 0); /* a new order */
    assert_int_equal(st.order[0].ncards, rules->data.cards.order[st.order[0].kind].market_cards);
    assert_int_equal(st.norder_deck, 16);
    assert_int_equal(st.norder_discard, 0);
}

/* The last Health Inspector on top of the market deck (two already drawn). */
static void last_inspector_on_top(pd_state *st)
{
    int moved = 0;
    for (int i = 0; i < st->ndeck && moved < 3; i++)
        if (st->deck[i] == PD_CARD_INSPECTOR) {
            memmove(st->deck + i, st->deck + i + 1, (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            if (st->timer > i)
                st->timer--;
            i--;
            moved++;
        }
    assert_int_equal(moved, 3);
    st->inspectors = 2;
    st->deck[st->ndeck++] = PD_CARD_INSPECTOR;
    st->known_top = 0;
    check(st);
}

/* PD-E1, 003:203: the third Health Inspector ends the game. Position: seat
 * 0 has $4, a Midtown pizzeria (2 disks, 1 card) and 3 market cards and a
 * power card in hand; seat 1 has $5 and 8 cards in hand. Expected: after
 * the fines ($2 each) the hands count for nothing: seat 0 scores $2 + 1
 * card + 2 disks = 5, seat 1 $3, and seat 0 wins. */
static void test_hands_discarded_before_scoring(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 147);
    empty_hand(&st, 1);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 2, mt);
    st.player[0].money = 4;
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Peppers");
    give_power(&st, 0, "mob-boss");
    const char *const theirs[] = {"Midtown/Ham",  "Midtown/Onions",  "Midtown/Peppers", "Midtown/Sausage",
                                  "Upper West Side/Ham", "Upper West Side/Onions", "Upper West Side/Peppers",
                                  "Upper West Side/Sausage", NULL};
    for (int i = 0; theirs[i]; i++)
        give(&st, 1, theirs[i]);
    last_inspector_on_top(&st);
    play(&st, "market");
    play(&st, "take deck"); /* the third inspector, and a card */
    assert_int_equal(st.phase, PD_PH_FINE);
    play(&st, "fine $2");
    play(&st, "fine $2");
    assert_int_equal(st.phase, PD_PH_OVER);
    assert_true(st.player[0].hand_size + st.player[1].hand_size > 0);
    assert_int_equal(pd_score(&st, 0), 2 + 1 + 2);
    assert_int_equal(pd_score(&st, 1), 3);
    double r[PD_PLAYERS];
    pd_returns(&st, r);
    assert_true(r[0] == 1.0 && r[1] == 0.0);
    json_t *score = pd_score_json(&st, NULL);
    json_t *players = json_object_get(score, "players");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(players, 0), "score")), 5);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(players, 1), "score")), 3);
    json_decref(score);
}

/* PD-E1, 003:204: Ingredient Shortage (a GLOBAL) played, with a card
 * under it. Expected: neither the card nor the one under it counts in the
 * player's score, as long as it is in play. */
static void test_global_cards_do_not_count_at_the_end(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 148);
    others_without_powers(&st);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 2, mt);
    to_sewer(&st, "Harlem/Ham");
    int p = give_power(&st, 0, "ingredient-shortage");
    int score = pd_score(&st, 0), disks, cards = pd_tableau_cards(&st, 0, &disks);
    play(&st, "play power:ingredient-shortage");
    assert_int_equal(st.global, p);
    assert_true(st.shortage != PD_NO_CARD);
    int after_disks;
    assert_int_equal(pd_tableau_cards(&st, 0, &after_disks), cards);
    assert_int_equal(pd_score(&st, 0), score);
    /* an EVENT card played counts, for comparison */
    market_from_deck(&st);
    pass_round(&st);
    in_play(&st, 0, "liberty-storage");
    assert_int_equal(pd_score(&st, 0), score + 1);
}

/* PD-E1, 003:208: three players; two have the same score, deliveries and tip
 * money, the third less. Expected: the two share the win. */
static void test_tie_is_shared(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 3, 149);
    st.player[0].money = 10;
    st.player[1].money = 10;
    st.player[2].money = 9;
    for (int s = 0; s < 3; s++)
        st.player[s].deliveries = 2;
    check(&st);
    double r[PD_PLAYERS];
    pd_returns(&st, r);
    assert_true(r[0] == 0.5 && r[1] == 0.5 && r[2] == 0.0);
    json_t *score = pd_score_json(&st, NULL);
    json_t *winners = json_object_get(score, "winners");
    assert_int_equal(json_array_size(winners), 2);
    assert_int_equal(json_integer_value(json_array_get(winners, 0)), 0);
    assert_int_equal(json_integer_value(json_array_get(winners, 1)), 1);
    json_decref(score);
}

/* PD-P3, 003:315: Building Commissioner's three tokens on the Midtown lots,
 * then another EVENT card (Liberty Storage) replaces it. Expected: every
 * token leaves the lots, and the next player may build on them. */
static void test_building_commissioner_replaced(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 150);
    others_without_powers(&st);
    const pd_map *map = &rules->data.map;
    give_power(&st, 0, "building-commissioner");
    play(&st, "play power:building-commissioner");
    play(&st, "block MT-1");
    play(&st, "block MT-2");
    play(&st, "block MT-3");
    market_from_deck(&st);
    pass_round(&st);
    empty_hand(&st, 0);
    int bc = pd_power_find(&rules->data.cards, "building-commissioner");
    give_power(&st, 0, "liberty-storage");
    play(&st, "play power:liberty-storage");
    assert_false(st.tableau[0] >> bc & 1);
    assert_true(st.power_discard >> bc & 1);
    for (int l = 0; l < map->nlots; l++)
        assert_int_equal(st.blocker[l], -1);
    market_from_deck(&st);
    assert_int_equal(st.seat, 1);
    give(&st, 1, "Midtown/Onions");
    st.player[1].money = 10;
    check(&st);
    play(&st, "reputation");
    play(&st, "build MT-1 Midtown/Onions");
    for (int i = 0; i < map->lot[pd_lot_find(map, "MT-1")].cost; i++)
        play(&st, "pay $1");
    assert_int_equal(st.lot_owner[pd_lot_find(map, "MT-1")], 1);
}

/* A zone money card (Financial Wizard, Pope of Greenwich Village, Park
 * Commissioner) held by `holder` (-1: nobody), the Park Path in play with
 * `path_owner` (-1: nobody); seat 0 delivers a $2 pizza (Tomatoes from its
 * pizzeria and from hand) from `lot` to `village`'s zone. Seat 0's and
 * seat 1's money gained. */
static void zone_card_delivery(const char *id, int holder, int path_owner, const char *lot, const char *village,
                               int *gained0, int *gained1)
{
    pd_state st;
    table(&st, 2, 151);
    const pd_map *map = &rules->data.map;
    int l = pd_lot_find(map, lot), v = map->lot[l].village;
    char top[64], last[64];
    snprintf(top, sizeof top, "%s/Tomatoes", map->village[v].name);
    snprintf(last, sizeof last, "%s/Tomatoes", village);
    const char *const mine[] = {top, NULL}, *const a[] = {"Harlem/Tomatoes", last, NULL};
    pizzeria(&st, 0, lot, 4, mine);
    order(&st, 0, a);
    give(&st, 0, "Upper West Side/Tomatoes");
    if (holder >= 0)
        in_play(&st, holder, id);
    if (path_owner >= 0)
        in_play(&st, path_owner, "park-path");
    st.player[1].money = 5;
    check(&st);
    char text[64];
    snprintf(text, sizeof text, "deliver 1 from %s", map->village[v].code);
    play(&st, text);
    finish_delivery(&st);
    assert_int_equal(st.player[0].deliveries, 1);
    *gained0 = st.player[0].money - 5;
    *gained1 = st.player[1].money - 5;
}

/* PD-P3, 003:325: a $2 pizza delivered from the Financial District's FD-1
 * to its zone. Expected: the holder's own delivery gets $2 from the bank
 * ($4 in all); an opponent's pays the holder $1 ($1 left of $2); with
 * nobody holding the card, just the $2. */
static void test_financial_wizard(void **state)
{
    (void)state;
    int mine, theirs;
    zone_card_delivery("financial-wizard", 0, -1, "FD-1", "Financial District", &mine, &theirs);
    assert_int_equal(mine, 2 + 2);
    assert_int_equal(theirs, 0);
    zone_card_delivery("financial-wizard", 1, -1, "FD-1", "Financial District", &mine, &theirs);
    assert_int_equal(mine, 2 - 1);
    assert_int_equal(theirs, 1);
    zone_card_delivery("financial-wizard", -1, -1, "FD-1", "Financial District", &mine, &theirs);
    assert_int_equal(mine, 2);
}

/* PD-P3, 003:347: the same from Greenwich Village's GV-1 to its zone with
 * Pope of Greenwich Village. Expected: $2 more for the holder; an
 * opponent pays the holder $1. */
static void test_pope_of_greenwich_village(void **state)
{
    (void)state;
    int mine, theirs;
    zone_card_delivery("pope-of-greenwich-village", 0, -1, "GV-1", "Greenwich Village", &mine, &theirs);
    assert_int_equal(mine, 2 + 2);
    assert_int_equal(theirs, 0);
    zone_card_delivery("pope-of-greenwich-village", 1, -1, "GV-1", "Greenwich Village", &mine, &theirs);
    assert_int_equal(mine, 2 - 1);
    assert_int_equal(theirs, 1);
}

/* PD-P3, 003:343: a $2 pizza to Central Park's zone from Midtown's MT-2
 * (its door next to the zone). Expected: the holder's own delivery gets $1
 * from the bank, $2 while someone (here the other player) owns the Park
 * Path; an opponent's delivery pays the holder $1. */
static void test_park_commissioner(void **state)
{
    (void)state;
    int mine, theirs;
    zone_card_delivery("park-commissioner", 0, -1, "MT-2", "Central Park", &mine, &theirs);
    assert_int_equal(mine, 2 + 1);
    zone_card_delivery("park-commissioner", 0, 1, "MT-2", "Central Park", &mine, &theirs);
    assert_int_equal(mine, 2 + 1 + 1);
    assert_int_equal(theirs, 0); /* the route does not cross the park: nothing for the path */
    zone_card_delivery("park-commissioner", 1, -1, "MT-2", "Central Park", &mine, &theirs);
    assert_int_equal(mine, 2 - 1);
    assert_int_equal(theirs, 1);
}

/* PD-P3, 003:335: Long Distance Delivery; a Harlem pizza delivered from the
 * Financial District (FD-1, 1 disk and Tomatoes: 2 free spaces), the rest of
 * the way paid with cards. Expected: $1 for the order and $5 from the bank;
 * a pizza from there to Greenwich Village gets no $5. */
static void test_long_distance_back_to_harlem(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 152);
    const pd_map *map = &rules->data.map;
    static const char *const fd[] = {"Financial District/Tomatoes", NULL};
    static const char *const a[] = {"Harlem/Tomatoes", NULL}, *const b[] = {"Greenwich Village/Tomatoes", NULL};
    pizzeria(&st, 0, "FD-1", 1, fd);
    order(&st, 0, a);
    order(&st, 1, b);
    in_play(&st, 0, "long-distance-delivery");
    give_from_deck(&st, 0, 20);
    check(&st);
    int fd_v = pd_village_find(map, "FD");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 1, fd_v, -1, 0, &q), 0);
    assert_int_equal(q.pay, 1); /* not Harlem */
    assert_int_equal(pd_delivery_quote(&st, 0, 0, fd_v, -1, 0, &q), 0);
    assert_int_equal(q.pay, 1 + 5);
    int hand = st.player[0].hand_size;
    play(&st, "deliver 1 from FD");
    finish_delivery(&st);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 1 + 5);
    assert_int_equal(st.player[0].hand_size, hand - q.distance_cards);
}

/* PD-P3, 003:351: Subway Fast Pass in play with its 3 tokens; a Greenwich
 * Village pizzeria (3 disks, Tomatoes) delivers to Hell's Kitchen by the
 * red line, three turns running. Expected: each ride uses a token and costs
 * no card; with the tokens gone the subway is closed to the player (only the
 * streets, a card for the space beyond the free range), and the card stays
 * in the tableau. */
static void test_subway_fast_pass_tokens_used_up(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 153);
    others_without_powers(&st);
    const pd_map *map = &rules->data.map;
    static const char *const gv[] = {"Greenwich Village/Tomatoes", NULL};
    static const char *const b[] = {"Hell's Kitchen/Tomatoes", NULL};
    pizzeria(&st, 0, "GV-1", 3, gv);
    in_play(&st, 0, "subway-fast-pass");
    int fp = pd_power_find(&rules->data.cards, "subway-fast-pass"), gv_v = pd_village_find(map, "GV");
    for (int ride = 0; ride < 3; ride++) {
        empty_hand(&st, 0);
        order(&st, 0, b);
        check(&st);
        assert_int_equal(st.pass_tokens[0], 3 - ride);
        pd_quote q;
        assert_int_equal(pd_delivery_quote(&st, 0, 0, gv_v, -1, PD_ROUTE_RED | PD_ROUTE_BLUE, &q), 0);
        assert_int_equal(q.distance_cards, 0);
        play(&st, "deliver 1 from GV via subway");
        assert_int_equal(st.player[0].deliveries, ride + 1);
        assert_int_equal(st.pass_tokens[0], 2 - ride);
        end_after_action(&st);
        pass_round(&st);
    }
    empty_hand(&st, 0);
    order(&st, 0, b);
    give(&st, 0, "Harlem/Ham");
    check(&st);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, gv_v, -1, PD_ROUTE_RED | PD_ROUTE_BLUE, &q), -1);
    refused(&st, "deliver 1 from GV via subway");
    assert_true(st.tableau[0] >> fp & 1);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, gv_v, -1, 0, &q), 0);
    assert_int_equal(q.distance_cards, q.length - 4);
    play(&st, "deliver 1 from GV");
    finish_delivery(&st);
    assert_int_equal(st.player[0].deliveries, 4);
}

/* PD-P3, 003:353: Subway Ticket Blue in play; an East Village pizzeria
 * (EV-2, 1 disk, Tomatoes: 2 free spaces) delivers to the Upper East Side.
 * Expected: the blue line from the East Village's station to the Upper East
 * Side's is shorter than the streets; the ride counts no space and costs 2
 * cards on top of the spaces beyond the free range; the red line stays
 * closed; without the ticket the blue line is closed too. */
static void test_subway_ticket_blue(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 154);
    const pd_map *map = &rules->data.map;
    static const char *const ev[] = {"East Village/Tomatoes", NULL};
    static const char *const a[] = {"Upper East Side/Tomatoes", NULL};
    pizzeria(&st, 0, "EV-2", 1, ev);
    order(&st, 0, a);
    give_from_deck(&st, 0, 12);
    check(&st);
    int ev_v = pd_village_find(map, "EV"), door = map->lot[pd_lot_find(map, "EV-2")].door;
    int zone = map->village[pd_village_find(map, "UE")].zone;
    pd_quote streets, blue;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, ev_v, -1, PD_ROUTE_BLUE, &blue), -1); /* no ticket */
    in_play(&st, 0, "subway-ticket-blue");
    assert_int_equal(pd_delivery_quote(&st, 0, 0, ev_v, -1, 0, &streets), 0);
    assert_int_equal(pd_delivery_quote(&st, 0, 0, ev_v, -1, PD_ROUTE_BLUE, &blue), 0);
    assert_int_equal(blue.length, pd_route_length(map, door, zone, PD_ROUTE_BLUE));
    assert_int_equal(blue.length, 3); /* e12, the station d12; off at d5, then d6 */
    assert_true(blue.length < streets.length);
    assert_int_equal(blue.distance_cards, blue.length - blue.free_range + 2);
    assert_true(blue.distance_cards < streets.distance_cards);
    pd_quote red;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, ev_v, -1, PD_ROUTE_RED, &red), -1);
    refused(&st, "deliver 1 from EV via red");
    int hand = st.player[0].hand_size;
    play(&st, "deliver 1 from EV via blue");
    finish_delivery(&st);
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, 5 + 1);
    assert_int_equal(st.player[0].hand_size, hand - blue.distance_cards);
}

/* PD-P3, 003:373: Coupon Days in play; a $1 pizza delivered. Expected: half
 * of $1 rounded down is $0, so it pays the minimum $1; the order's tip token
 * and a power card come as on any delivery. */
static void test_coupon_days_minimum_tip_and_power_card(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 155);
    others_without_powers(&st);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, mt);
    int p = give_power(&st, 0, "coupon-days");
    play(&st, "play power:coupon-days");
    assert_int_equal(st.global, p);
    int money = st.player[0].money, tip = st.order[0].tip, deck = st.npower_deck;
    assert_int_not_equal(tip, PD_NO_TIP);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.player[0].money, money + 1);
    assert_int_equal(st.player[0].ntips, 1);
    assert_int_equal(st.player[0].tip[0], tip);
    assert_int_equal(st.npower_deck, deck - 1);
    assert_int_equal(__builtin_popcountll(st.player[0].powers), 1);
}

/* PD-P3, 003:379: Ingredient Shortage played while the sewer holds an Any
 * Meat, an Any Vegetable, an Any Ingredient and one Harlem/Tomatoes.
 * Expected: the card under it is the Tomatoes (never an ANY card), and a
 * Tomatoes pizza cannot be delivered; when the next player's GLOBAL (Coupon
 * Days) replaces it, the Tomatoes go back to the sewer, the card to the
 * discards, and the pizza can be delivered again. */
static void test_ingredient_shortage_plain_card_and_replaced(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 156);
    others_without_powers(&st);
    empty_sewer(&st);
    to_sewer(&st, "Midtown/Any-Meat");
    to_sewer(&st, "Harlem/Any-Vegetable");
    to_sewer(&st, "Harlem/Any-Ingredient");
    to_sewer(&st, "Harlem/Tomatoes");
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, mt);
    int p = give_power(&st, 0, "ingredient-shortage");
    play(&st, "play power:ingredient-shortage");
    assert_int_equal(st.shortage, card("Harlem/Tomatoes"));
    assert_int_equal(st.sewer[card("Harlem/Any-Ingredient")], 1);
    refused(&st, "deliver 1 from MT");
    market_from_deck(&st);
    assert_int_equal(st.seat, 1);
    int coupons = give_power(&st, 1, "coupon-days");
    play(&st, "play power:coupon-days");
    assert_int_equal(st.global, coupons);
    assert_int_equal(st.shortage, PD_NO_CARD);
    assert_int_equal(st.sewer[card("Harlem/Tomatoes")], 1);
    assert_true(st.power_discard >> p & 1);
    market_from_deck(&st);
    pass_round(&st);
    order(&st, 0, mt);
    check(&st);
    play(&st, "deliver 1 from MT");
    assert_int_equal(st.player[0].deliveries, 1);
}

/* PD-P3, 003:403: Stock Market Crash closes seat 0's only pizzeria (MT-1),
 * once by its last disk, once by its last card. Expected: the lot stays
 * seat 0's (nobody else may build there) and no delivery leaves from it; on
 * seat 0's next turn an upgrade (a disk, or a card: never a Central Park
 * card, which cannot be on top) reopens it, and a turn later it delivers. */
static void test_crash_closed_pizzeria_reopened_by_upgrade(void **state)
{
    (void)state;
    for (int by_card = 0; by_card < 2; by_card++) {
        pd_state st;
        expansion_table(&st, 5, 157 + (uint64_t)by_card);
        others_without_powers(&st);
        const pd_map *map = &rules->data.map;
        int mt1 = pd_lot_find(map, "MT-1"), mt = pd_village_find(map, "MT");
        static const char *const mine[] = {"Midtown/Tomatoes", NULL};
        pizzeria(&st, 0, "MT-1", by_card ? 3 : 1, mine);
        give_power(&st, 0, "stock-market-crash");
        play(&st, "play power:stock-market-crash");
        assert_int_equal(st.phase, PD_PH_CRASH); /* a disk or the card: a choice */
        play(&st, by_card ? "lose MT 1" : "lose MT disk");
        const pd_pizzeria *z = &st.player[0].pizzeria[mt];
        assert_int_equal(by_card ? z->ncards : z->disks, 0);
        assert_int_equal(st.lot_owner[mt1], 0); /* still seat 0's property */
        assert_int_equal(z->lot, mt1);
        order(&st, 0, mine);
        give(&st, 0, "Harlem/Tomatoes");
        give_from_deck(&st, 0, 3); /* enough for the Tomatoes and the way, open or not */
        check(&st);
        refused(&st, "deliver 1 from MT");
        market_from_deck(&st);
        assert_int_equal(st.seat, 1);
        give(&st, 1, "Midtown/Onions");
        st.player[1].money = 10;
        check(&st);
        play(&st, "reputation");
        refused(&st, "build MT-1 Midtown/Onions");
        play(&st, "build MT-3 Midtown/Onions");
        while (st.phase == PD_PH_PAY)
            play(&st, "pay $1");
        pass_round(&st);
        empty_hand(&st, 0);
        give(&st, 0, by_card ? "Midtown/Tomatoes" : "Midtown/Onions");
        give(&st, 0, "Central Park/Ham");
        check(&st);
        play(&st, "reputation");
        if (by_card)
            refused(&st, "upgrade MT Central-Park/Ham add");
        play(&st, by_card ? "upgrade MT Midtown/Tomatoes add" : "upgrade MT Midtown/Onions disk");
        if (st.phase == PD_PH_REPUTATION)
            play(&st, "done");
        assert_int_equal(z->disks, by_card ? 3 : 1);
        assert_int_equal(z->ncards, 1);
        assert_int_equal(z->card[0], card("Midtown/Tomatoes"));
        end_after_action(&st);
        pass_round(&st);
        empty_hand(&st, 0);
        give_from_deck(&st, 0, 2); /* for the spaces beyond one disk and Tomatoes */
        order(&st, 0, mine);
        check(&st);
        play(&st, "deliver 1 from MT");
        finish_delivery(&st);
        assert_int_equal(st.player[0].deliveries, 1);
    }
}

/* PD-C1, 003:424-428: a 3-player co-op game just set up. Expected: as in
 * the competitive setup, the 3 Health Inspectors are in no hand and not in
 * the open market but in the bottom third of the market deck, the open
 * market has 5 cards face up, the 48 tip tokens lie face down with the 9
 * NO TIP tokens beside them (none on an order: there is none yet). */
static void test_coop_setup_as_competitive(void **state)
{
    (void)state;
    pd_rules_init(rules, 3, 0);
    pd_rules_coop(rules, PD_DEFAULT_DIFFICULTY);
    pd_state st;
    pd_init(&st, rules, 160);
    check(&st);
    int inspectors = 0;
    for (int i = 0; i < st.ndeck; i++)
        if (st.deck[i] == PD_CARD_INSPECTOR) {
            assert_true(i < st.timer); /* the bottom third */
            inspectors++;
        }
    assert_int_equal(inspectors, 3);
    assert_int_equal(st.inspectors, 0);
    assert_true(st.timer * 3 <= st.ndeck + 9);
    assert_true(st.timer * 3 >= st.ndeck - 3);
    assert_int_equal(st.open_size, 5);
    assert_int_equal(st.ntips, 48);
    assert_int_equal(st.ntip_pool, 48);
    assert_int_equal(st.no_tips, 9);
    for (int s = 0; s < 3; s++)
        assert_int_equal(st.player[s].ntips, 0);
}

/* PD-C1, 003:427: a co-op game with the 5-6 player box. Expected: once
 * every player has kept a basic card, the power deck holds the expansion's
 * cards except the five "Not for Co-Op" ones (Out of Supplies, Property Tax,
 * Rough Delivery, That's My Spot, Traffic Jam), which are nowhere. */
static void test_coop_expansion_without_not_for_coop_cards(void **state)
{
    (void)state;
    pd_state st;
    coop_table_with(&st, 2, 161, false, true);
    const pd_cards *cards = &rules->data.cards;
    static const char *const out[] = {"out-of-supplies", "property-tax", "rough-delivery", "thats-my-spot",
                                      "traffic-jam", "midtown-hi-jinks"};
    uint64_t everywhere = st.power_discard;
    for (int i = 0; i < st.npower_deck; i++)
        everywhere |= 1ull << st.power_deck[i];
    for (int s = 0; s < st.players; s++)
        everywhere |= st.player[s].powers | st.tableau[s];
    for (size_t k = 0; k < sizeof out / sizeof out[0]; k++) {
        int p = pd_power_find(cards, out[k]);
        assert_true(p >= 0);
        assert_true(cards->power[p].not_for_coop);
        assert_false(everywhere >> p & 1);
    }
    int expansion = 0;
    for (int p = 0; p < cards->npowers; p++) {
        if (cards->power[p].box != PD_EXPANSION || cards->power[p].not_for_coop)
            continue;
        expansion++;
        bool in_deck = false;
        for (int i = 0; i < st.npower_deck; i++)
            in_deck |= st.power_deck[i] == p;
        assert_true(in_deck);
    }
    assert_int_equal(expansion, 26 - 5);
    assert_int_equal(st.npower_deck, 21 - 2 + 21); /* 21 basic cards in co-op, 2 kept */
}

/* PD-C1, 003:449: co-op tables configured with one marker moved from the
 * default row 4 (B11 R13 P30 M60). Expected: that marker alone changes and
 * the record code says so; a marker outside co-op is refused. */
static void test_coop_markers_one_by_one(void **state)
{
    (void)state;
    static const struct {
        const char *key;
        int value;
        const char *code;
    } moved[] = {
        {"blue", 13, "Loss 3PL - B13 - R13 - P30 - M60"},
        {"red", 15, "Loss 3PL - B11 - R15 - P30 - M60"},
        {"pizzas", 25, "Loss 3PL - B11 - R13 - P25 - M60"},
        {"money", 50, "Loss 3PL - B11 - R13 - P30 - M50"},
    };
    char err[PB_ERR_LEN];
    for (size_t k = 0; k < sizeof moved / sizeof moved[0]; k++) {
        json_t *config = json_pack("{s:i,s:b,s:i}", "players", 3, "coop", 1, moved[k].key, moved[k].value);
        pb_game *g = pb_game_new("delivery", config, err, sizeof err);
        json_decref(config);
        assert_non_null(g);
        assert_int_equal(json_integer_value(json_object_get(g->config, moved[k].key)), moved[k].value);
        assert_int_equal(json_integer_value(json_object_get(g->config, "difficulty")), PD_DEFAULT_DIFFICULTY);
        pd_state st;
        pd_init(&st, g->rules, 162);
        json_t *score = pd_score_json(&st, NULL);
        assert_string_equal(json_string_value(json_object_get(json_object_get(score, "coop"), "code")), moved[k].code);
        json_decref(score);
        pb_game_free(g);
    }
    json_t *config = json_pack("{s:i,s:i}", "players", 3, "red", 15);
    assert_null(pb_game_new("delivery", config, err, sizeof err));
    assert_non_null(strstr(err, "red is a co-op marker"));
    json_decref(config);
}

/* PD-C1, 003:488: co-op, one player, the pawn on Monday; a promotion token
 * on every day from Saturday to Thursday but Monday; the team's money reaches
 * the Red marker. Expected: the die is rolled again until it names the free
 * day, Monday, the pawn's own: the token goes under the pawn and brings no
 * order that day; a week later, when the pawn comes back to Monday, its two
 * orders come. */
static void test_coop_promotion_on_the_pawns_day_waits_a_week(void **state)
{
    (void)state;
    enum { MONDAY = 2 };
    pd_state st;
    coop_table(&st, 1, 163, false);
    st.day = MONDAY;
    for (int d = 0; d < PD_FRIDAY; d++)
        if (d != MONDAY)
            st.promo[d] = PD_PROMO(PD_PROMO_MORNING, PD_PROMO_BLUE);
    st.promos_placed = 1u << PD_PROMO_BLUE;
    st.team_money = rules->promo_at[PD_PROMO_RED];
    check(&st);
    play(&st, "market");
    assert_int_equal(PD_PROMO_COLOUR(st.promo[MONDAY]), PD_PROMO_RED);
    assert_true(st.promo_asleep >> MONDAY & 1);
    int when = PD_PROMO_WHEN(st.promo[MONDAY]);
    for (int d = 0; d < PD_FRIDAY; d++) /* the other tokens were only there to be rolled past */
        if (d != MONDAY)
            st.promo[d] = 0;
    int deck = st.norder_deck;
    play(&st, "take deck");
    play(&st, "take deck");
    assert_int_equal(st.day, MONDAY + 1);
    assert_int_equal(st.norder_deck, deck); /* none this Monday evening */
    while (st.day != MONDAY) {
        empty_hand(&st, 0);
        market_day(&st);
    }
    /* Friday brought two; the Monday token its morning ones now */
    int morning = when == PD_PROMO_MORNING ? 2 : when == PD_PROMO_SPLIT ? 1 : 0;
    assert_int_equal(st.norder_deck, deck - 2 - morning);
    empty_hand(&st, 0);
    market_day(&st);
    assert_int_equal(st.norder_deck, deck - 2 - 2);
    assert_int_equal(st.phase, PD_PH_START);
}

/* A co-op table for one player, the pawn on Monday, Red's token placed and
 * a token on every day from Saturday to Thursday but `free_days` (a bit
 * each), the team's money at the Blue marker; "market" places Blue's token
 * on a free day, and its back-side pizza waits to be timed. */
static void coop_marker_reached(pd_state *st, uint64_t seed, unsigned free_days, bool insane, bool easier)
{
    coop_table(st, 1, seed, false);
    rules->insane = insane;
    rules->easier = easier;
    st->day = 2; /* Monday */
    for (int d = 0; d < PD_FRIDAY; d++)
        if (!(free_days >> d & 1))
            st->promo[d] = PD_PROMO(PD_PROMO_MORNING, PD_PROMO_RED);
    st->promos_placed = 1u << PD_PROMO_RED;
    st->team_money = rules->promo_at[PD_PROMO_BLUE];
    check(st);
    play(st, "market");
    assert_int_equal(st->phase, PD_PH_PROMO);
}

/* The market's two takes end Monday's turn: Tuesday's morning. */
static void to_tuesday(pd_state *st)
{
    play(st, "take deck");
    play(st, "take deck");
    if (st->day == 2) /* a power card to play first */
        finish_day(st);
    assert_int_equal(st->day, 3);
}

/* Only the token on `day` (and Friday's) stays on the tracker. */
static void keep_only(pd_state *st, int day)
{
    for (int d = 0; d < PD_FRIDAY; d++)
        if (d != day)
            st->promo[d] = 0;
}

/* PD-C1, 003:503 (Optional Insane Difficulty): one player, the Blue marker
 * reached on Monday, Tuesday the only free day. Expected: the decision that
 * reached it stops for the back-side token's time ("morning" or "evening",
 * nothing else; later, "morning" is refused with the reason); "evening"
 * chosen, Tuesday brings the front's orders and
 * one more in the evening: 3 that day. Two markers reached at once ask
 * twice, one token after the other. */
static void test_coop_insane_adds_a_third_pizza(void **state)
{
    (void)state;
    enum { TUESDAY = 3 };
    pd_state st;
    coop_marker_reached(&st, 171, 1u << TUESDAY, true, false);
    json_t *v = pd_view(&st, 0);
    assert_string_equal(json_string_value(json_object_get(v, "phase")), "promotion");
    json_t *legal = json_object_get(v, "legal");
    assert_int_equal(json_array_size(legal), 2);
    assert_string_equal(json_string_value(json_array_get(legal, 0)), "morning");
    assert_string_equal(json_string_value(json_array_get(legal, 1)), "evening");
    json_decref(v);
    refused(&st, "take deck");
    play(&st, "evening");
    assert_int_equal(st.phase, PD_PH_MARKET); /* the action goes on */
    assert_refused_with(&st, "morning", "morning and evening time a back-side promotion token's pizza");
    assert_int_equal(PD_PROMO_COLOUR(st.promo[TUESDAY]), PD_PROMO_BLUE);
    assert_int_equal(PD_PROMO_EXTRA(st.promo[TUESDAY]), PD_PROMO_EVENING);
    int when = PD_PROMO_WHEN(st.promo[TUESDAY]);
    keep_only(&st, TUESDAY);
    int deck = st.norder_deck;
    to_tuesday(&st);
    int morning = when == PD_PROMO_MORNING ? 2 : when == PD_PROMO_SPLIT ? 1 : 0;
    assert_int_equal(st.norder_deck, deck - morning);
    empty_hand(&st, 0);
    market_day(&st); /* Tuesday's evening: the rest of the front's and the back's */
    assert_int_equal(st.day, TUESDAY + 1);
    assert_int_equal(st.norder_deck, deck - 3);

    /* Blue and Red reached by one decision: two tokens, timed one after the other */
    coop_table(&st, 1, 172, false);
    rules->insane = true;
    for (int d = 0; d < 3; d++)
        st.promo[d] = PD_PROMO(PD_PROMO_MORNING, PD_PROMO_RED);
    st.team_money = rules->promo_at[PD_PROMO_RED];
    play(&st, "market");
    assert_int_equal(st.phase, PD_PH_PROMO);
    play(&st, "morning");
    assert_int_equal(st.phase, PD_PH_PROMO);
    play(&st, "evening");
    assert_int_equal(st.phase, PD_PH_MARKET);
    int timed[4] = {0};
    for (int d = TUESDAY; d < PD_FRIDAY; d++)
        timed[PD_PROMO_EXTRA(st.promo[d])]++;
    assert_int_equal(timed[PD_PROMO_MORNING], 1);
    assert_int_equal(timed[PD_PROMO_EVENING], 1);
    rules->insane = false;
}

/* PD-C1, 003:505 (Optional Easier Mode for Children): one player, the Blue
 * marker reached on Monday, Tuesday the only free day. Expected: the token
 * goes back side up and the player times its one pizza; "morning" chosen,
 * Tuesday brings 1 order at its start and none at its end; Friday still
 * brings 2 in the evening. Insane and Easier together are refused. */
static void test_coop_easier_adds_one_pizza_friday_two(void **state)
{
    (void)state;
    enum { TUESDAY = 3 };
    pd_state st;
    coop_marker_reached(&st, 173, 1u << TUESDAY, false, true);
    play(&st, "morning");
    assert_true(st.promo[TUESDAY] & PD_PROMO_BACK);
    assert_int_equal(PD_PROMO_WHEN(st.promo[TUESDAY]), PD_PROMO_MORNING);
    keep_only(&st, TUESDAY);
    json_t *v = pd_view(&st, 0);
    json_t *tokens = json_object_get(json_object_get(v, "coop"), "promotions");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(tokens, 0), "orders")), 1);
    json_decref(v);
    int deck = st.norder_deck;
    to_tuesday(&st);
    assert_int_equal(st.norder_deck, deck - 1);
    empty_hand(&st, 0);
    market_day(&st);
    assert_int_equal(st.norder_deck, deck - 1); /* nothing in Tuesday's evening */
    while (st.day != 0) { /* to Saturday: Friday's evening brought its two */
        empty_hand(&st, 0);
        market_day(&st);
    }
    assert_int_equal(st.norder_deck, deck - 3);
    rules->easier = false;

    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i,s:b,s:b,s:b}", "players", 2, "coop", 1, "coop_insane", 1, "coop_easier", 1);
    assert_null(pb_game_new("delivery", config, err, sizeof err));
    assert_non_null(strstr(err, "coop_insane and coop_easier cannot go together"));
    json_decref(config);
}

/* PD-C1, 003:468 (Top Chef): three players whose deliveries (4, 4, 1), tip
 * tokens (none, one, none), open pizzerias (2, 1, 1), tableau cards (3, 3, 1)
 * and disks on the board (2, 2, 1) are set. Expected: each die roll names
 * its category's best, a tie shared (1, 4 and 5: seats 0 and 1),
 * 6 the seat lowest in the most of the others (seat 2, lowest in all five);
 * at the end of a game with Top Chef (a loss too) the die is rolled from the
 * game's seed and the score report names the chefs of its category. */
static void test_coop_top_chef_by_the_die(void **state)
{
    (void)state;
    pd_state st;
    coop_table(&st, 3, 174, false);
    rules->top_chef = true;
    static const char *const ha[] = {"Harlem/Ham", "Harlem/Onions", NULL};
    static const char *const mt[] = {"Midtown/Pepperoni", NULL};
    static const char *const ha2[] = {"Harlem/Tomatoes", "Harlem/Peppers", "Harlem/Pepperoni", NULL};
    static const char *const uw[] = {"Upper West Side/Tomatoes", NULL};
    pizzeria(&st, 0, "HA-1", 1, ha);
    pizzeria(&st, 0, "MT-2", 1, mt);
    pizzeria(&st, 1, "HA-2", 2, ha2);
    pizzeria(&st, 2, "UW-1", 1, uw);
    st.player[0].deliveries = st.player[1].deliveries = 4;
    st.player[2].deliveries = 1;
    uint8_t tip = st.tip_pool[--st.ntip_pool];
    st.player[1].tip[st.player[1].ntips++] = tip;
    assert_true(st.tip_value[tip] > 0);
    check(&st);
    static const unsigned chefs[7] = {0, 3, 2, 1, 3, 3, 4};
    static const int lowest[3] = {1, 1, 5};
    int value[PD_PLAYERS];
    for (int roll = 1; roll <= 6; roll++)
        assert_int_equal(pd_top_chef(&st, roll, value), chefs[roll]);
    pd_top_chef(&st, PD_CHEF_LOWEST, value);
    assert_memory_equal(value, lowest, sizeof lowest);

    /* the end: the third Health Inspector; the die from the game's own randomness */
    inspectors_on_top(&st);
    pd_state copy = st;
    play(&st, "market");
    play(&st, "take deck");
    assert_int_equal(st.coop_result, PD_COOP_LOST_INSPECTOR);
    assert_true(st.top_chef_roll >= 1 && st.top_chef_roll <= 6);
    play(&copy, "market");
    play(&copy, "take deck");
    assert_int_equal(copy.top_chef_roll, st.top_chef_roll); /* a record replays it */
    const char *names[3] = {"Ann", "Bob", "Cy"};
    json_t *score = pd_score_json(&st, names);
    json_t *chef = json_object_get(json_object_get(score, "coop"), "top_chef");
    assert_int_equal(json_integer_value(json_object_get(chef, "roll")), st.top_chef_roll);
    assert_string_equal(json_string_value(json_object_get(chef, "category")), pd_chef_categories[st.top_chef_roll]);
    json_t *seats = json_object_get(chef, "seats");
    unsigned named = 0;
    for (size_t i = 0; i < json_array_size(seats); i++)
        named |= 1u << json_integer_value(json_array_get(seats, i));
    assert_int_equal(named, chefs[st.top_chef_roll]);
    assert_string_equal(json_string_value(json_array_get(json_object_get(chef, "names"), 0)),
                        names[__builtin_ctz(chefs[st.top_chef_roll])]);
    json_decref(score);
    rules->top_chef = false;
}

/* PD-C1, 003:449: markers are set from the table's values; the options
 * only in co-op. Expected: blue 12 (no row has it) is refused naming the
 * values; the options come back in the config when chosen, not otherwise. */
static void test_coop_options_in_the_config(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i,s:b,s:i}", "players", 2, "coop", 1, "blue", 12);
    assert_null(pb_game_new("delivery", config, err, sizeof err));
    assert_non_null(strstr(err, "blue must be one of the co-op table's values: 8, 9, 10, 11, 13, 15, 17, 19"));
    json_decref(config);
    /* 2^32 + 10 is no 10 (a valid blue marker), however it is cut to an int */
    config = json_pack("{s:i,s:b,s:I}", "players", 2, "coop", 1, "blue", (json_int_t)4294967306LL);
    assert_null(pb_game_new("delivery", config, err, sizeof err));
    assert_non_null(strstr(err, "blue must be one of the co-op table's values"));
    json_decref(config);
    config = json_pack("{s:i,s:b}", "players", 2, "top_chef", 1);
    assert_null(pb_game_new("delivery", config, err, sizeof err));
    assert_non_null(strstr(err, "top_chef is a co-op option"));
    json_decref(config);
    config = json_pack("{s:i,s:b,s:b,s:b,s:i}", "players", 2, "coop", 1, "coop_easier", 1, "top_chef", 1, "money", 40);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    assert_true(json_is_true(json_object_get(g->config, "coop_easier")));
    assert_true(json_is_true(json_object_get(g->config, "top_chef")));
    assert_null(json_object_get(g->config, "coop_insane"));
    assert_int_equal(json_integer_value(json_object_get(g->config, "money")), 40);
    pb_game_free(g);
}

/* PD-C2, 003:528: a 2-player co-op game with Extra Cheese. Expected: the
 * config is accepted and the 18 cheese cards are in the market deck; a
 * cheese card from hand on a $1 pizza earns the team $1 more. */
static void test_coop_extra_cheese(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    json_t *config = json_pack("{s:i,s:b,s:b}", "players", 2, "coop", 1, "extra_cheese", 1);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    assert_true(((const pd_rules *)g->rules)->coop);
    assert_true(((const pd_rules *)g->rules)->extra_cheese);
    pd_state st;
    pd_init(&st, g->rules, 164);
    int cards = st.ndeck + st.open_size + 2 * PD_COOP_HAND;
    assert_int_equal(cards, 144 + 3 + 18);
    pb_game_free(g);

    pd_rules_init(rules, 2, 0);
    pd_rules_coop(rules, PD_DEFAULT_DIFFICULTY);
    rules->extra_cheese = true;
    pd_init(&st, rules, 165);
    while (st.phase == PD_PH_KEEP) {
        pb_action a[PB_MAX_ACTIONS];
        assert_true(pd_legal_actions(&st, a) > 0);
        assert_int_equal(pd_apply(&st, a[0], err, sizeof err), 0);
    }
    st.turn = 2; /* past the first round */
    empty_hand(&st, 0);
    static const char *const mt[] = {"Midtown/Tomatoes", NULL};
    static const char *const a[] = {"Midtown/Tomatoes", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    drawn_order(&st, 3, a);
    give(&st, 0, "Harlem/Extra Cheese");
    check(&st);
    play(&st, "deliver 4 from MT");
    assert_int_equal(st.phase, PD_PH_SUPPLY);
    play(&st, "cheese Harlem/Extra-Cheese");
    assert_int_equal(st.team_money, 1 + 1);
    assert_int_equal(pd_team_deliveries(&st), 1);
    assert_int_equal(st.player[0].hand_size, 0);
}

/* PD-S3 (a decision): tables of 5 and 6 players asked for without the 5-6
 * player box. Expected: refused with the reason; 5 or 6 players with no
 * word on it get the box; 4 players may leave it out. */
static void test_five_or_six_players_need_the_expansion(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    for (int n = 5; n <= 6; n++) {
        json_t *config = json_pack("{s:i,s:b}", "players", n, "expansion", 0);
        assert_null(pb_game_new("delivery", config, err, sizeof err));
        assert_non_null(strstr(err, "5 or 6 players need the expansion's cards"));
        json_decref(config);
        config = json_pack("{s:i}", "players", n);
        pb_game *g = pb_game_new("delivery", config, err, sizeof err);
        json_decref(config);
        assert_non_null(g);
        assert_true(json_is_true(json_object_get(g->config, "expansion")));
        pb_game_free(g);
    }
    json_t *config = json_pack("{s:i,s:b}", "players", 4, "expansion", 0);
    pb_game *g = pb_game_new("delivery", config, err, sizeof err);
    json_decref(config);
    assert_non_null(g);
    assert_false(((const pd_rules *)g->rules)->expansion);
    pb_game_free(g);
}

/* ---- Persistent cards as printed: from the hand, covered, Any Vegetable
 * added, Any Ingredient's six disks ---- */

/* "When used as an ingredient card from your hand then power has no
 * effect": an Any card from the hand is one ingredient of its kind, used up
 * like any card; it is not the pizzeria's (no 7 for an Any Ingredient, no
 * meat sent to the sewer for an Any Meat). The order asks for Sausage and
 * Pepperoni; the pizzeria's Ham and Pineapple supply neither. */
static void test_any_card_from_the_hand_is_only_an_ingredient(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 170);
    static const char *const mt[] = {"Midtown/Ham", "Midtown/Pineapple", NULL};
    static const char *const a[] = {"Harlem/Sausage", "Midtown/Pepperoni", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Any-Meat");
    give(&st, 0, "Harlem/Onions"); /* for the space beyond the free range */
    int mt_v = pd_village_find(&rules->data.map, "MT");
    pd_quote q;
    /* one wild meat from the hand is one meat, not both */
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), -1);
    refused(&st, "deliver 1 from MT");
    give(&st, 0, "Harlem/Any-Ingredient");
    assert_int_equal(pd_reputation_limit(&st, 0, mt_v), 5); /* in hand it raises no limit */
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 2);
    assert_int_equal(q.distance_cards, 1);
    assert_int_equal(q.pay, 2 + 1); /* the order and the Pineapple on top */
    int money = st.player[0].money, any_meat = st.sewer[card("Harlem/Any-Meat")],
        any_ingredient = st.sewer[card("Harlem/Any-Ingredient")];
    play(&st, "deliver 1 from MT");
    play(&st, "use Harlem/Any-Meat");
    play(&st, "use Harlem/Any-Ingredient");
    play(&st, "pay Harlem/Onions");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].money, money + 3);
    assert_int_equal(st.player[0].hand_size, 0);
    /* both used up, to the sewer like any card used */
    assert_int_equal(st.sewer[card("Harlem/Any-Meat")], any_meat + 1);
    assert_int_equal(st.sewer[card("Harlem/Any-Ingredient")], any_ingredient + 1);
    /* the pizzeria is as it was: its Ham stays, its limit is 5 */
    const pd_pizzeria *z = pizzeria_in(&st, 0, "MT");
    assert_int_equal(z->ncards, 2);
    assert_int_equal(z->card[0], card("Midtown/Ham"));
    assert_int_equal(z->card[1], card("Midtown/Pineapple"));
    assert_int_equal(pd_reputation(&st, 0, mt_v), 5);
    assert_int_equal(pd_reputation_limit(&st, 0, mt_v), 5);
}

/* Persistent powers "are active at all times, even if covered by another
 * card": an Any Meat under a Pineapple top supplies the order's Sausage,
 * and stays in the pizzeria for the next pizza. */
static void test_any_card_covered_still_supplies(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 171);
    static const char *const mt[] = {"Midtown/Any-Meat", "Midtown/Pineapple", NULL};
    static const char *const a[] = {"Harlem/Sausage", "Midtown/Onions", NULL};
    pizzeria(&st, 0, "MT-1", 3, mt);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Harlem/Peppers"); /* for the space beyond the free range */
    int mt_v = pd_village_find(&rules->data.map, "MT");
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, mt_v, -1, 0, &q), 0);
    assert_int_equal(q.hand_ingredients, 1); /* only the Onions: the covered Any Meat is the Sausage */
    assert_int_equal(q.distance_cards, 1);
    play(&st, "deliver 1 from MT");
    refused(&st, "use Harlem/Peppers"); /* not on the order */
    play(&st, "use Harlem/Onions");
    play(&st, "pay Harlem/Peppers");
    assert_int_equal(st.player[0].deliveries, 1);
    assert_int_equal(st.player[0].hand_size, 0);
    const pd_pizzeria *z = pizzeria_in(&st, 0, "MT");
    assert_int_equal(z->ncards, 2);
    assert_int_equal(z->card[0], card("Midtown/Any-Meat"));
    assert_int_equal(z->card[1], card("Midtown/Pineapple"));
}

/* Any Veggie "can be your only permanent vegetable ingredient in your
 * pizzeria. If added, discard all your other vegetables in the sewer": the
 * Onions and the Tomatoes on top go, the Ham stays; the Any Vegetable takes
 * the top; a meat added later leaves it. */
static void test_any_vegetable_added_sends_the_other_vegetables_to_the_sewer(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 172);
    static const char *const hk[] = {"Hell's Kitchen/Onions", "Hell's Kitchen/Ham", "Hell's Kitchen/Tomatoes", NULL};
    pizzeria(&st, 0, "HK-1", 1, hk);
    give(&st, 0, "Hell's Kitchen/Any-Vegetable");
    give(&st, 0, "Hell's Kitchen/Sausage");
    int onions = st.sewer[card("Hell's Kitchen/Onions")], tomatoes = st.sewer[card("Hell's Kitchen/Tomatoes")],
        ham = st.sewer[card("Hell's Kitchen/Ham")];
    play(&st, "reputation");
    play(&st, "upgrade HK Hell's-Kitchen/Any-Vegetable add");
    const pd_pizzeria *z = pizzeria_in(&st, 0, "HK");
    assert_int_equal(z->ncards, 2);
    assert_int_equal(z->card[0], card("Hell's Kitchen/Ham"));
    assert_int_equal(z->card[1], card("Hell's Kitchen/Any-Vegetable")); /* on top, in the Tomatoes' place */
    assert_int_equal(st.sewer[card("Hell's Kitchen/Onions")], onions + 1);
    assert_int_equal(st.sewer[card("Hell's Kitchen/Tomatoes")], tomatoes + 1);
    assert_int_equal(st.sewer[card("Hell's Kitchen/Ham")], ham);
    assert_int_equal(pd_reputation(&st, 0, pd_village_find(&rules->data.map, "HK")), 1 + 2);
    play(&st, "upgrade HK Hell's-Kitchen/Sausage add"); /* a meat: the Any Vegetable stays */
    assert_int_equal(z->ncards, 3);
    assert_int_equal(z->card[2], card("Hell's Kitchen/Any-Vegetable"));
}

/* "A pizzeria with an ANY INGREDIENT Multi-use card will max out at 7
 * instead of 5 ... you can stack 6 levels on the board giving this pizzeria
 * a free range delivery of 6 spaces": a sixth disk upgrade is kept (7, no
 * trim), and a delivery's free range is 6. */
static void test_any_ingredient_six_disks_free_range_six(void **state)
{
    (void)state;
    pd_state st;
    expansion_table(&st, 5, 173);
    static const char *const any[] = {"Harlem/Any-Ingredient", NULL};
    static const char *const a[] = {"Midtown/Onions", NULL};
    pizzeria(&st, 0, "HA-1", 5, any);
    order(&st, 0, a);
    give(&st, 0, "Harlem/Ham");
    give_from_deck(&st, 0, 10); /* for the distance */
    int ha = pd_village_find(&rules->data.map, "HA");
    assert_int_equal(pd_reputation(&st, 0, ha), 6);
    int supply = st.player[0].disks;
    play(&st, "reputation");
    play(&st, "upgrade HA Harlem/Ham disk");
    assert_int_not_equal(st.phase, PD_PH_TRIM); /* nothing over */
    const pd_pizzeria *z = pizzeria_in(&st, 0, "HA");
    assert_int_equal(z->disks, 6);
    assert_int_equal(st.player[0].disks, supply - 1);
    assert_int_equal(z->ncards, 1);
    assert_int_equal(pd_reputation(&st, 0, ha), 7);
    pd_quote q;
    assert_int_equal(pd_delivery_quote(&st, 0, 0, ha, -1, 0, &q), 0);
    assert_int_equal(q.length, 12); /* HA-1 to Midtown's zone */
    assert_int_equal(q.free_range, 6);
    assert_int_equal(q.distance_cards, 12 - 6);
    assert_int_equal(q.hand_ingredients, 0); /* the Any Ingredient is the Onions */
}

/* ---- issue 19: the player's words ---- */

/* Every refusal names its reason: illegal inputs in real positions, each
 * with what its reason must say. */
static void test_refusals_name_their_reason(void **state)
{
    (void)state;
    pd_state st;
    pd_rules_init(rules, 2, 0);
    pd_init(&st, rules, 89);
    assert_refused_with(&st, "market", "not now: you are asked to keep a power card: power:");
    assert_refused_with(&st, "keep power:zzz", "there is no power card power:zzz");
    assert_refused_with(&st, "keep power:subway-t", "could be power:subway-ticket-blue, power:subway-ticket-red");
    table(&st, 2, 89);
    static const char *const uw[] = {"Upper West Side/Ham", NULL};
    static const char *const ue[] = {"Upper East Side/Ham", NULL};
    static const char *const two[] = {"Midtown/Sausage", "Upper West Side/Onions", NULL};
    pizzeria(&st, 0, "UW-2", 1, uw);
    order(&st, 0, ue);
    order(&st, 1, two);
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Midtown/Pepperoni");
    st.player[0].money = 5;
    static const struct {
        const char *text, *why;
    } start[] = {
        {"deliver 1 from HA", "you have no pizzeria in Harlem (yours: UW)"},
        {"deliver 5 from UW", "there is no order 5 (Orders 5 and 6 come with Pandemic)"},
        {"deliver 1 from UW via boat", "via boat takes Motor Boat in your tableau"},
        {"deliver 1 from UW", "this delivery needs "},
        {"deliver 1 from UW", "and you have 2"},
        {"deliver 2 from UW", "missing ingredient: order 2 needs Sausage from your hand"},
        {"take deck", "not now: you are asked to choose your action"},
        {"end", "choose your action first"},
        {"frobnicate now", "there is no move \"frobnicate\"; now you can type market, reputation"},
        {"play power:motor-boat", "you do not hold Motor Boat"},
        {"swap 1 Harlem/Ham", "swap takes Bait and Switch in your tableau"},
        {"keep power:finan", "not now: you are asked to choose your action"},
        {"discard HA/Onions", "not now: you are asked to choose your action"},
        {"instant power:traffic-jam", "Instant cards answer another player's delivery"},
        {"supplies $2", "you owe nothing for Out of Supplies"},
        {"take Harlem/Hamm", "no ingredient of that name"},
    };
    for (size_t i = 0; i < sizeof start / sizeof start[0]; i++)
        assert_refused_with(&st, start[i].text, start[i].why);
    /* the distance in numbers: spaces, the free ones, the cards, the hand */
    pd_quote q;
    int v = pd_village_find(&rules->data.map, "UW");
    pd_delivery_quote(&st, 0, 0, v, -1, 0, &q);
    char why[120];
    snprintf(why, sizeof why, "this delivery needs %d spaces: %d free, %d cards, and you have 2", q.length, q.free_range,
             q.distance_cards);
    assert_refused_with(&st, "deliver 1 from UW", why);

    play(&st, "reputation");
    static const struct {
        const char *text, *why;
    } build[] = {
        {"build MT-2 Midtown/Pepperoni", "not enough money: you have $5 and 1 other card ($1 each), it costs $8"},
        {"build MT-3 Harlem/Onions", "a pizzeria in Midtown is built with a Midtown card; HA/Onions is not one"},
        {"build UW-2 Upper-West-Side/Ham", "UW-2 is taken: your pizzeria is on it"},
        {"build HA-1 Harlem/Ham", "you have no HA/Ham card in hand"},
        {"upgrade HA Harlem/Onions disk", "you have no pizzeria in Harlem to upgrade"},
        {"upgrade UW Harlem/Onions disk", "upgraded with a Upper West Side or Central Park card"},
        {"fine $2", "not now: you are asked to build or upgrade"},
    };
    for (size_t i = 0; i < sizeof build / sizeof build[0]; i++)
        assert_refused_with(&st, build[i].text, build[i].why);
    play(&st, "build HA-1 Harlem/Onions");
    assert_int_equal(st.phase, PD_PH_PAY);
    assert_refused_with(&st, "pay Harlem/Onions", "that card is the one the pizzeria is built with");
    assert_refused_with(&st, "pay power:motor-boat", "you do not hold Motor Boat");
    assert_refused_with(&st, "take deck", "not now: you are asked to pay for the property: $2 still due");
    assert_refused_with(&st, "pay $3", "that is more than is due: its first 2 parts settle it");
    st.player[0].money = 0;
    assert_refused_with(&st, "pay $1", "not enough money: you have $0 left");
}

/* Payments in any order (the rules set none): a card, then money, then a
 * card, where the listing's one order puts money first; the text of each is
 * what is typed, and reads back as the same move (records replay). */
static void test_payments_in_any_order(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 89);
    give(&st, 0, "Harlem/Ham");
    give(&st, 0, "Harlem/Onions");
    give(&st, 0, "Midtown/Pepperoni");
    st.player[0].money = 5;
    play(&st, "reputation");
    play(&st, "build HA-3 Harlem/Ham"); /* $3 */
    /* a card before the money: not in the listing's one order (money first,
     * for the search), accepted all the same */
    pb_action listed[PB_MAX_ACTIONS], a;
    int n = pd_legal_actions(&st, listed);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(PD_KIND(listed[i]), PD_A_PAY_CARD);
    play(&st, "pay Midtown/Pepperoni");
    char err[PB_ERR_LEN], text[64];
    assert_int_equal(pd_action_parse(&st, "pay $1", &a, err, sizeof err), 0);
    assert_true(pd_is_legal(&st, a));
    assert_int_equal(pd_action_text(&st, a, PD_EVERYONE_SEES_ALL, text, sizeof text), 0);
    assert_string_equal(text, "pay $1");
    play(&st, "pay $1");
    play(&st, "pay Harlem/Onions");
    assert_int_equal(st.lot_owner[pd_lot_find(&rules->data.map, "HA-3")], 0);
    assert_int_equal(st.player[0].money, 4);
    assert_int_equal(st.player[0].hand_size, 0);
}

/* The ingredients of a delivery in any order, not only the next one. */
static void test_ingredients_in_any_order(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 89);
    static const char *const uw[] = {"Upper West Side/Ham", NULL};
    static const char *const two[] = {"Midtown/Sausage", "Upper West Side/Onions", NULL};
    pizzeria(&st, 0, "UW-2", 1, uw);
    order(&st, 0, two);
    give(&st, 0, "Harlem/Sausage");
    give(&st, 0, "Harlem/Onions");
    give_from_deck(&st, 0, 6);
    play(&st, "deliver 1 from UW");
    play(&st, "use HA/Onions"); /* the order lists Sausage first */
    play(&st, "use HA/Sausage");
    assert_int_not_equal(st.phase, PD_PH_SUPPLY);
}

/* One notation: cards as the table shows them (the village's code), power
 * cards by an unambiguous start of their id. */
static void test_notation_as_the_table_shows(void **state)
{
    (void)state;
    pd_state st;
    pd_rules_init(rules, 2, 0);
    pd_init(&st, rules, 89);
    char text[80], err[PB_ERR_LEN];
    pb_action a;
    assert_int_equal(pd_action_text(&st, PD_ACTION(PD_A_TAKE_OPEN, card("Upper West Side/Any Meat")), PD_EVERYONE_SEES_ALL,
                                    text, sizeof text), 0);
    assert_string_equal(text, "take UW/Any-Meat");
    int wizard = pd_power_find(&rules->data.cards, "financial-wizard");
    st.kept_choice[0] |= 1ull << wizard;
    assert_int_equal(pd_action_parse(&st, "keep power:finan", &a, err, sizeof err), 0);
    assert_true(a == PD_ACTION(PD_A_KEEP, wizard));
    assert_int_equal(pd_action_parse(&st, "KEEP POWER:Financial-Wizard", &a, err, sizeof err), 0);
}

/* `rules NAME`: every power card by id and by name, the ANY cards, Extra
 * Cheese, an ingredient's power and the Health Inspector, from the cards
 * file's texts (the ones the view gives). */
static void test_explain_every_card(void **state)
{
    (void)state;
    const pd_cards *c = &rules->data.cards;
    char buf[512], name[64];
    assert_int_equal(c->npowers, 22 + 26); /* the basic box's and the expansion's */
    for (int i = 0; i < c->npowers; i++) {
        assert_int_equal(pd_explain(&rules->data, c->power[i].id, buf, sizeof buf), 0);
        assert_non_null(strstr(buf, c->power[i].name));
        assert_non_null(strstr(buf, c->power[i].text));
        snprintf(name, sizeof name, "%s", c->power[i].name);
        for (char *p = name; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        assert_int_equal(pd_explain(&rules->data, name, buf, sizeof buf), 0);
        assert_non_null(strstr(buf, c->power[i].text));
    }
    static const char *const named[][2] = {
        {"Any Meat", "Counts as any meat"}, {"any-veggie", "Counts as any vegetable"},
        {"Any Ingredient", "reputation 7"},  {"Extra Cheese", "earns $1 more"},
        {"HA/Ham", "Look at the tip tokens"}, {"power:motor-boat", "Motor Boat"},
        {"health inspector", "fine"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        assert_int_equal(pd_explain(&rules->data, named[i][0], buf, sizeof buf), 0);
        if (!strstr(buf, named[i][1]))
            fail_msg("rules %s: \"%s\" lacks \"%s\"", named[i][0], buf, named[i][1]);
    }
    assert_int_equal(pd_explain(&rules->data, "no-such-card", buf, sizeof buf), -1);
}

/* The log's news: what a delivery paid and drew without a decision. */
static void test_news_of_a_delivery(void **state)
{
    (void)state;
    pd_state st;
    table(&st, 2, 89);
    static const char *const uw[] = {"Upper West Side/Ham", NULL};
    static const char *const a[] = {"Upper East Side/Ham", NULL};
    pizzeria(&st, 0, "UW-2", 1, uw);
    order(&st, 0, a);
    give_from_deck(&st, 0, 10);
    in_play(&st, 1, "park-path");
    char news[256] = "", all[1024] = "";
    /* the log calls players by the table's names, the terminal's "You" too */
    static const char *const names[] = {"You", "Ben"};
    pd_state before = st;
    play(&st, "deliver 1 from UW via park");
    pd_news(&before, &st, names, news, sizeof news);
    strcat(all, news);
    while (st.player[0].deliveries == 0) { /* the distance, Ham's tip */
        before = st;
        pb_action moves[PB_MAX_ACTIONS];
        char err[PB_ERR_LEN];
        assert_true(pd_legal_actions(&st, moves) > 0);
        assert_int_equal(pd_apply(&st, moves[0], err, sizeof err), 0);
        pd_news(&before, &st, names, news, sizeof news);
        strcat(all, news);
    }
    if (!strstr(all, "Park Path"))
        fail_msg("news: \"%s\" (phase %d, deliveries %d, money %d %d)", all, st.phase, st.player[0].deliveries, st.player[0].money, st.player[1].money);
    snprintf(news, sizeof news, "%s", all);
    assert_non_null(strstr(news, "You pay Ben $1 (Park Path)."));
    assert_non_null(strstr(news, "You draw a power card."));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keep_power_card),
        cmocka_unit_test(test_market),
        cmocka_unit_test(test_build_midtown_first_turn),
        cmocka_unit_test(test_build_and_upgrade_limits),
        cmocka_unit_test(test_delivery_example_distance),
        cmocka_unit_test(test_delivery_example_onions),
        cmocka_unit_test(test_delivery_bonuses),
        cmocka_unit_test(test_ham_chooses_tip),
        cmocka_unit_test(test_meatballs_market_pick),
        cmocka_unit_test(test_sausage_double),
        cmocka_unit_test(test_specialty_order),
        cmocka_unit_test(test_health_inspectors_end_the_game),
        cmocka_unit_test(test_score_and_ties),
        cmocka_unit_test(test_hand_limit),
        cmocka_unit_test(test_notation_errors),
        cmocka_unit_test(test_power_card_timing),
        cmocka_unit_test(test_speed_cards),
        cmocka_unit_test(test_zone_money_card),
        cmocka_unit_test(test_midtown_hi_jinks),
        cmocka_unit_test(test_east_village_mogul),
        cmocka_unit_test(test_frugal_shopper_and_liberty_storage),
        cmocka_unit_test(test_frugal_shopper_no_other_power_that_turn),
        cmocka_unit_test(test_health_inspector_power_card),
        cmocka_unit_test(test_long_distance),
        cmocka_unit_test(test_park_path_and_boat),
        cmocka_unit_test(test_park_path_is_a_single_space_road),
        cmocka_unit_test(test_park_path_owner_may_always_use_it),
        cmocka_unit_test(test_specialty_extra_cards_may_be_power_cards),
        cmocka_unit_test(test_end_score_counts_cards_under_power_cards),
        cmocka_unit_test(test_bait_and_switch),
        cmocka_unit_test(test_building_commissioner),
        cmocka_unit_test(test_farmer_brown),
        cmocka_unit_test(test_view_names_what_the_hand_supplies),
        cmocka_unit_test(test_after_the_action_reveals_nothing),
        cmocka_unit_test(test_cold_storage),
        cmocka_unit_test(test_cold_storage_refilled_with_a_power_card),
        cmocka_unit_test(test_harlem_rotary),
        cmocka_unit_test(test_any_card_covers_what_the_hand_cannot),
        cmocka_unit_test(test_any_card_never_leaves_central_park_on_top),
        cmocka_unit_test(test_lucky_day_and_down_on_your_luck),
        cmocka_unit_test(test_over_achiever_and_coupon_days),
        cmocka_unit_test(test_coupon_days_halves_sausage_dollar),
        cmocka_unit_test(test_moped_delivery),
        cmocka_unit_test(test_copy_cat),
        cmocka_unit_test(test_copy_cat_and_extra_cheese),
        cmocka_unit_test(test_special_sale),
        cmocka_unit_test(test_order_changing_cards),
        cmocka_unit_test(test_thats_my_spot),
        cmocka_unit_test(test_bonus_supplies),
        cmocka_unit_test(test_oooops_and_windfall),
        cmocka_unit_test(test_ingredient_shortage),
        cmocka_unit_test(test_ingredient_shortage_fills_no_any_need),
        cmocka_unit_test(test_charity_event),
        cmocka_unit_test(test_stock_market_crash),
        cmocka_unit_test(test_stock_market_soars),
        cmocka_unit_test(test_pandemic),
        cmocka_unit_test(test_power_outage),
        cmocka_unit_test(test_power_outage_replaced),
        cmocka_unit_test(test_buying_time),
        cmocka_unit_test(test_real_estate_tycoon),
        cmocka_unit_test(test_tip_losing_instants),
        cmocka_unit_test(test_traffic_jam_on_a_special_sale),
        cmocka_unit_test(test_property_tax),
        cmocka_unit_test(test_ham_keeps_a_tip_and_rearranges_the_others),
        cmocka_unit_test(test_ham_tokens_stay_secret),
        cmocka_unit_test(test_ham_guesses_keep_where_the_deliverer_put_the_tokens),
        cmocka_unit_test(test_ham_bots_value_what_they_saw),
        cmocka_unit_test(test_property_tax_on_your_own_turn),
        cmocka_unit_test(test_bait_and_switch_in_play_once_a_turn),
        cmocka_unit_test(test_bait_and_switch_without_delivering),
        cmocka_unit_test(test_bait_and_switch_played_then_used),
        cmocka_unit_test(test_out_of_supplies),
        cmocka_unit_test(test_crash_keeps_any_ingredient_limit),
        cmocka_unit_test(test_any_ingredient_is_the_only_card),
        cmocka_unit_test(test_any_ingredient_replaced_gives_back_what_is_over),
        cmocka_unit_test(test_meat_or_vegetable_added_replaces_the_any_card),
        cmocka_unit_test(test_upgrade_chooses_the_top_card),
        cmocka_unit_test(test_upgrade_at_the_limit_replaces_a_card),
        cmocka_unit_test(test_upgrade_at_the_limit_reorders),
        cmocka_unit_test(test_coop_first_round_free_property),
        cmocka_unit_test(test_coop_reshuffled_order_deck_is_known),
        cmocka_unit_test(test_coop_transfer_goods),
        cmocka_unit_test(test_coop_week_and_orders),
        cmocka_unit_test(test_coop_promotions_push_orders_out),
        cmocka_unit_test(test_coop_pandemic),
        cmocka_unit_test(test_coop_power_outage),
        cmocka_unit_test(test_coop_win_and_loss),
        cmocka_unit_test(test_coop_fines_and_cards),
        cmocka_unit_test(test_extra_cheese_config),
        cmocka_unit_test(test_extra_cheese_from_hand),
        cmocka_unit_test(test_extra_cheese_on_a_specialty),
        cmocka_unit_test(test_extra_cheese_in_the_pizzeria),
        cmocka_unit_test(test_extra_cheese_builds),
        cmocka_unit_test(test_extra_cheese_left_out),
        cmocka_unit_test(test_extra_cheese_not_for_farmer_brown),
        cmocka_unit_test(test_extra_cheese_in_cold_storage),
        cmocka_unit_test(test_expansion_power_cards_after_the_keep),
        cmocka_unit_test(test_first_player_drawn_from_the_seed),
        cmocka_unit_test(test_power_card_pays_for_distance),
        cmocka_unit_test(test_power_cards_count_towards_the_hand_limit),
        cmocka_unit_test(test_hand_limit_after_the_power_card),
        cmocka_unit_test(test_two_builds_or_two_upgrades),
        cmocka_unit_test(test_only_the_delivering_pizzerias_power),
        cmocka_unit_test(test_only_the_delivering_pizzerias_ingredients),
        cmocka_unit_test(test_order_deck_shuffled_back),
        cmocka_unit_test(test_hands_discarded_before_scoring),
        cmocka_unit_test(test_global_cards_do_not_count_at_the_end),
        cmocka_unit_test(test_tie_is_shared),
        cmocka_unit_test(test_building_commissioner_replaced),
        cmocka_unit_test(test_financial_wizard),
        cmocka_unit_test(test_pope_of_greenwich_village),
        cmocka_unit_test(test_park_commissioner),
        cmocka_unit_test(test_long_distance_back_to_harlem),
        cmocka_unit_test(test_subway_fast_pass_tokens_used_up),
        cmocka_unit_test(test_subway_ticket_blue),
        cmocka_unit_test(test_coupon_days_minimum_tip_and_power_card),
        cmocka_unit_test(test_ingredient_shortage_plain_card_and_replaced),
        cmocka_unit_test(test_crash_closed_pizzeria_reopened_by_upgrade),
        cmocka_unit_test(test_coop_setup_as_competitive),
        cmocka_unit_test(test_coop_expansion_without_not_for_coop_cards),
        cmocka_unit_test(test_coop_markers_one_by_one),
        cmocka_unit_test(test_coop_promotion_on_the_pawns_day_waits_a_week),
        cmocka_unit_test(test_coop_extra_cheese),
        cmocka_unit_test(test_coop_insane_adds_a_third_pizza),
        cmocka_unit_test(test_coop_easier_adds_one_pizza_friday_two),
        cmocka_unit_test(test_coop_top_chef_by_the_die),
        cmocka_unit_test(test_coop_options_in_the_config),
        cmocka_unit_test(test_five_or_six_players_need_the_expansion),
        cmocka_unit_test(test_any_card_from_the_hand_is_only_an_ingredient),
        cmocka_unit_test(test_any_card_covered_still_supplies),
        cmocka_unit_test(test_any_vegetable_added_sends_the_other_vegetables_to_the_sewer),
        cmocka_unit_test(test_any_ingredient_six_disks_free_range_six),
        cmocka_unit_test(test_refusals_name_their_reason),
        cmocka_unit_test(test_payments_in_any_order),
        cmocka_unit_test(test_ingredients_in_any_order),
        cmocka_unit_test(test_notation_as_the_table_shows),
        cmocka_unit_test(test_explain_every_card),
        cmocka_unit_test(test_news_of_a_delivery),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
