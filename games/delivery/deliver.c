/* deliver.c -- New York Pizza Delivery: delivering a pizza (PD-T4, PD-P1).
 *
 * An order's ingredients are matched to the delivering pizzeria's permanent
 * ingredients first (they are never used up, so using as many as can be is
 * always best), then to cards from hand, one decision per ingredient still
 * needed. A card supplies one ingredient; a wild (Any Meat, Any Vegetable,
 * Any Ingredient) supplies one of its kind. Cards under Cold Storage count
 * like hand cards for the ingredients, and are used before the hand. Then,
 * with Extra Cheese, a cheese card or not; then a card per space beyond the
 * free range; then the reward.
 *
 * Harlem Rotary Pizzeria's copy of another seat's delivery is a delivery of
 * its own (slot PD_COPY_SLOT, the copied order kept in st->copied) by the
 * card's holder, who is st->seat while it is made.
 *
 * With Copy Cat the pizzeria may be another seat's (pending.owner): its
 * place, disks and cards, never its top card's power. Special Sale doubles
 * the turn's delivery: the needs in needs_left, the money in route_and_pay,
 * the second tip token in complete. */
#include <string.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

typedef struct needs {
    int n;
    int8_t ingredient[PD_MAX_SUPPLY]; /* -1: any of the group */
    int8_t group[PD_MAX_SUPPLY];      /* PD_MEAT, PD_VEGETABLE or PD_ANY_INGREDIENT (either) */
} needs;

static const pd_order *order_at(const pd_state *st, int slot)
{
    return slot == PD_COPY_SLOT ? &st->copied : &st->order[slot];
}

static const pd_order_kind *kind_of(const pd_state *st, int slot)
{
    return &st->rules->data.cards.order[order_at(st, slot)->kind];
}

static void push_need(needs *nd, int ingredient, int group)
{
    if (nd->n < PD_MAX_SUPPLY) {
        nd->ingredient[nd->n] = (int8_t)ingredient;
        nd->group[nd->n++] = (int8_t)group;
    }
}

/* Special Sale: the mover's delivery this turn, not a Harlem Rotary copy,
 * is doubled. */
static bool sale_on(const pd_state *st, int seat, int slot)
{
    return st->special_sale && slot != PD_COPY_SLOT && seat == st->seat;
}

/* Every need twice, each next to its copy. */
static void double_needs(needs *nd)
{
    needs once = *nd;
    nd->n = 0;
    for (int i = 0; i < once.n; i++)
        for (int k = 0; k < 2; k++)
            push_need(nd, once.ingredient[i], once.group[i]);
}

/* Every ingredient an order needs (PD-D4). */
static void order_needs(const pd_state *st, int slot, needs *nd)
{
    const pd_order *o = order_at(st, slot);
    const pd_order_kind *k = kind_of(st, slot);
    memset(nd, 0, sizeof *nd);
    if (!k->specialty) {
        for (int i = 0; i < o->ncards; i++) {
            int ing = PD_CARD_INGREDIENT(o->card[i]), g = pd_group_of(st, ing);
            if (g == PD_ANY_MEAT)
                push_need(nd, -1, PD_MEAT);
            else if (g == PD_ANY_VEGETABLE)
                push_need(nd, -1, PD_VEGETABLE);
            else if (g == PD_ANY_INGREDIENT)
                push_need(nd, -1, PD_ANY_INGREDIENT);
            else if (g == PD_MEAT || g == PD_VEGETABLE)
                push_need(nd, ing, g);
        }
        return;
    }
    for (int l = 0; l < k->nneeds; l++)
        for (int c = 0; c < k->need[l].count; c++)
            push_need(nd, k->need[l].ingredient,
                      k->need[l].ingredient >= 0 ? pd_group_of(st, k->need[l].ingredient) : k->need[l].group);
}

/* Does a card of this ingredient supply this need? By the rules' groups. */
static bool supplies_by_groups(const pd_rules *r, int ingredient, int need_ingredient, int need_group)
{
    int g = (int)r->data.cards.ingredient[ingredient].group;
    if (need_ingredient >= 0 && ingredient == need_ingredient)
        return true;
    if (need_ingredient < 0 && (g == need_group || (need_group == PD_ANY_INGREDIENT && (g == PD_MEAT || g == PD_VEGETABLE))))
        return true;
    if (g == PD_ANY_INGREDIENT)
        return true;
    if (g == PD_ANY_MEAT)
        return need_group == PD_MEAT || need_group == PD_ANY_INGREDIENT;
    if (g == PD_ANY_VEGETABLE)
        return need_group == PD_VEGETABLE || need_group == PD_ANY_INGREDIENT;
    return false;
}

_Static_assert(PD_MAX_INGREDIENTS <= 16, "a need's suppliers are a 16-bit set");

void pd_rules_supplies(pd_rules *r)
{
    for (int need = -1; need < PD_MAX_INGREDIENTS; need++)
        for (int group = 0; group < PD_GROUPS; group++) {
            uint16_t set = 0;
            for (int i = 0; i < r->data.cards.ningredients; i++)
                if (supplies_by_groups(r, i, need, group))
                    set |= (uint16_t)(1u << i);
            r->supplied_by[need + 1][group] = set;
        }
}

/* The ingredients whose cards supply this need (from the rules' table);
 * never the one Ingredient Shortage holds: no pizza may have it on, whatever
 * need it would fill (an Any need, Sausage's extra card). */
static unsigned suppliers(const pd_state *st, int need_ingredient, int need_group)
{
    unsigned set = 0;
    if (need_ingredient >= -1 && need_ingredient < PD_MAX_INGREDIENTS && need_group >= 0 && need_group < PD_GROUPS)
        set = st->rules->supplied_by[need_ingredient + 1][need_group];
    else /* a need the table has no place for */
        for (int i = 0; i < st->rules->data.cards.ningredients; i++)
            if (supplies_by_groups(st->rules, i, need_ingredient, need_group))
                set |= 1u << i;
    int scarce = pd_corrected(st) ? pd_short_ingredient(st) : -1;
    return scarce >= 0 ? set & ~(1u << scarce) : set;
}

/* Does a card of this ingredient supply this need? */
static bool supplies(const pd_state *st, int ingredient, int need_ingredient, int need_group)
{
    return suppliers(st, need_ingredient, need_group) >> ingredient & 1;
}

/* ---- bipartite matching of needs to cards (a few dozen at most) ---- */

#define MAX_UNITS 96
typedef struct matcher {
    const pd_state *st;
    const needs *nd;
    int nunits;
    int8_t unit[MAX_UNITS];          /* ingredient of each card */
    int8_t need_of[MAX_UNITS];       /* need a unit supplies, -1 */
    int8_t unit_of[PD_MAX_SUPPLY];
    bool seen[MAX_UNITS];
} matcher;

static bool augment(matcher *m, int need)
{
    unsigned by = suppliers(m->st, m->nd->ingredient[need], m->nd->group[need]);
    for (int u = 0; u < m->nunits; u++) {
        if (m->seen[u] || !(by >> m->unit[u] & 1))
            continue;
        m->seen[u] = true;
        if (m->need_of[u] < 0 || augment(m, m->need_of[u])) {
            m->need_of[u] = (int8_t)need;
            m->unit_of[need] = (int8_t)u;
            return true;
        }
    }
    return false;
}

/* Needs not yet supplied, supplied where augmenting paths allow (a unit
 * once matched stays matched); the number added. */
static int match_more(matcher *m)
{
    int k = 0;
    for (int i = 0; i < m->nd->n; i++) {
        if (m->unit_of[i] >= 0)
            continue;
        memset(m->seen, 0, (size_t)m->nunits);
        k += augment(m, i);
    }
    return k;
}

/* The most needs the units can supply; unit_of[] tells which. The first
 * `first` units (Cold Storage's) are matched first and stay matched, so
 * the match uses as many of them, and as few hand cards, as it can; their
 * number is in *from_first. */
static int match_first(matcher *m, int first, int *from_first)
{
    int all = m->nunits;
    memset(m->need_of, -1, sizeof m->need_of);
    memset(m->unit_of, -1, sizeof m->unit_of);
    m->nunits = first;
    *from_first = match_more(m);
    m->nunits = all;
    return *from_first + match_more(m);
}

static void add_unit(matcher *m, int ingredient)
{
    if (m->nunits < MAX_UNITS)
        m->unit[m->nunits++] = (int8_t)ingredient;
}

/* The free cards in hand as units, less `minus` (a type, or -1). */
static void hand_units(matcher *m, const pd_state *st, int seat, int minus)
{
    for (int run = 0; run < PD_TYPES; run += 8) {
        if (pd_none8(&st->player[seat].hand[run])) /* none in hand: none free */
            continue;
        for (int c = run; c < run + 8; c++) {
            int n = pd_free_cards(st, seat, (pd_card)c) - (c == minus);
            int g = n > 0 ? pd_group_of(st, PD_CARD_INGREDIENT(c)) : -1;
            if (g < 0 || g == PD_CHEESE)
                continue;
            for (int k = 0; k < n; k++)
                add_unit(m, PD_CARD_INGREDIENT(c));
        }
    }
}

/* Cold Storage's cards the seat may use now and has not set aside, as units. */
static void stored_units(matcher *m, const pd_state *st, int seat, int minus)
{
    if (!pd_cold_usable(st, seat))
        return;
    for (int i = 0; i < st->ncold; i++) {
        if (st->pending.stored_used >> i & 1)
            continue;
        if (st->cold[i] == minus) { /* the one this decision would take */
            minus = -1;
            continue;
        }
        if (pd_group_of(st, PD_CARD_INGREDIENT(st->cold[i])) != PD_CHEESE)
            add_unit(m, PD_CARD_INGREDIENT(st->cold[i]));
    }
}

static int free_market_cards(const pd_state *st, int seat)
{
    int n = 0;
    for (int c = 0; c < PD_TYPES; c += 8)
        if (!pd_none8(&st->player[seat].hand[c]) || !pd_none8(&st->pending.paid_cards[c]))
            for (int k = c; k < c + 8; k++)
                n += pd_free_cards(st, seat, (pd_card)k);
    return n;
}

/* ---- the delivery as announced ---- */

/* PD-P1: the delivering pizzeria's top card's power. A Harlem Rotary copy
 * gets the ones that change its money or range; the ones that choose
 * (Sausage's extra card, Ham's tip, Onions, Meatballs' card) are not part
 * of what the card gives (docs/rules-notes.md). Copy Cat's delivery from
 * another seat's pizzeria gets none: they are its owner's. */
static int top_power(const pd_state *st, int seat, int owner, int village, int slot)
{
    const pd_pizzeria *z = &st->player[owner].pizzeria[village];
    if (z->ncards == 0 || owner != seat)
        return PD_TOP_NONE;
    int power = st->rules->top_power[PD_CARD_INGREDIENT(z->card[z->ncards - 1])];
    if (slot == PD_COPY_SLOT && (power == PD_TOP_DOUBLE || power == PD_TOP_CHOOSE_TIP || power == PD_TOP_SHORT ||
                                 power == PD_TOP_MARKET_PICK))
        return PD_TOP_NONE;
    return power;
}

/* The power of the pending delivery's pizzeria. */
static int pending_top_power(const pd_state *st)
{
    const pd_pending *pe = &st->pending;
    return top_power(st, st->seat, pe->owner, pe->village, pe->slot);
}

int pd_order_village(const pd_state *st, int slot)
{
    const pd_order *o = order_at(st, slot);
    if (o->kind < 0)
        return -1;
    if (slot == PD_COPY_SLOT) /* the copy goes where the copied delivery went */
        return pd_rotary_village(st);
    if (kind_of(st, slot)->specialty || o->ncards == 0)
        return -1;
    return PD_CARD_VILLAGE(o->card[o->ncards - 1]);
}

/* ---- Extra Cheese (PD-C2): never a need; a bonus once a pizza ---- */

static bool is_cheese(const pd_state *st, pd_card c)
{
    return pd_group_of(st, PD_CARD_INGREDIENT(c)) == PD_CHEESE;
}

/* A cheese card anywhere in the pizzeria is on every pizza from it (PD-P2). */
static bool pizzeria_cheese(const pd_state *st, int seat, int village)
{
    const pd_pizzeria *z = &st->player[seat].pizzeria[village];
    for (int i = 0; st->rules->extra_cheese && i < z->ncards; i++)
        if (is_cheese(st, z->card[i]))
            return true;
    return false;
}

/* An order with a cheese card among its market cards asks for cheese;
 * two of them still ask for it once. */
bool pd_order_wants_cheese(const pd_state *st, int slot)
{
    const pd_order *o = order_at(st, slot);
    for (int i = 0; st->rules->extra_cheese && o->kind >= 0 && i < o->ncards; i++)
        if (is_cheese(st, o->card[i]))
            return true;
    return false;
}

/* The seat's free cards as units (Cold Storage's first), and how many
 * market and other cards it has, as every delivery a list considers needs
 * them (built once per list). */
typedef struct hand_now {
    matcher units;
    int stored;            /* the first units: Cold Storage's */
    int market, total;
    unsigned set;          /* the units' ingredients */
} hand_now;

/* The needs the pizzeria's permanent ingredients (owner's: Copy Cat's may
 * be another seat's) leave to the seat's hand, in order. Under Special Sale
 * each need counts twice and a pizzeria card still supplies only one.
 * free: the seat's hand_now_of(st, seat, free, -1, -1) when at hand, else
 * NULL (the free cards are then gathered here). */
static void needs_left(const pd_state *st, int seat, int owner, int slot, int village, const hand_now *free,
                       needs *left)
{
    needs all;
    order_needs(st, slot, &all);
    if (sale_on(st, seat, slot))
        double_needs(&all);
    matcher m = {.st = st, .nd = &all};
    const pd_pizzeria *z = &st->player[owner].pizzeria[village];
    for (int i = 0; i < z->ncards; i++)
        if (pd_group_of(st, PD_CARD_INGREDIENT(z->card[i])) != PD_CHEESE)
            add_unit(&m, PD_CARD_INGREDIENT(z->card[i]));
    int farmed = pd_farmed_ingredient(st, seat); /* the deliverer's Farmer Brown: on every delivery of theirs */
    if (farmed >= 0)
        add_unit(&m, farmed);
    /* The pizzeria covers as many needs as it can; with wild cards there
     * are several ways, so the free cards join the match and the way that
     * leaves needs they can supply is kept (augmenting keeps every
     * pizzeria unit matched). */
    int own = m.nunits, from_own;
    bool ways = false; /* only a wild unit or a need of a whole group leaves a choice */
    for (int u = 0; u < own; u++)
        ways |= pd_group_of(st, m.unit[u]) >= PD_ANY_MEAT;
    for (int i = 0; i < all.n; i++)
        ways |= all.ingredient[i] < 0;
    if (ways && free) /* the seat's free cards, as hand_now_of(st, seat, -1, -1) has them */
        for (int u = 0; u < free->units.nunits; u++)
            add_unit(&m, free->units.unit[u]);
    else if (ways) {
        stored_units(&m, st, seat, -1);
        hand_units(&m, st, seat, -1);
    }
    match_first(&m, own, &from_own);
    memset(left, 0, sizeof *left); /* all of it: it is copied into the state */
    for (int i = 0; i < all.n; i++)
        if (m.unit_of[i] < 0 || m.unit_of[i] >= own)
            push_need(left, all.ingredient[i], all.group[i]);
}

static bool all_of_group(const needs *nd, int group)
{
    for (int i = 0; i < nd->n; i++)
        if (nd->group[i] != group)
            return false;
    return nd->n > 0;
}

/* A delivery's route length: `via park` the shortest route across the Park
 * Path (a detour too: its owner may take one to be paid), else the streets
 * with the rides and boat of `modes`. */
static int way_length(const pd_map *map, int lot, int village, unsigned modes)
{
    if (modes & PD_ROUTE_PARK) /* pd_route_length_across, looked up */
        return map->across[(modes % PD_ROUTE_MODES) >> 1][lot][village];
    return pd_route_length(map, map->lot[lot].door, map->village[village].zone, modes);
}

/* The route, the free range, the distance cards and the pay of seat's
 * delivery from owner's pizzeria, whatever the hand holds; -1 when there is
 * no such delivery. Another seat's pizzeria only with Copy Cat, never for a
 * Harlem Rotary copy. known: the order's order_needs when at hand, else NULL. */
static int route_and_pay(const pd_state *st, int seat, int owner, int slot, int village, int to, unsigned modes,
                         const needs *known, pd_quote *q)
{
    const pd_map *map = &st->rules->data.map;
    memset(q, 0, sizeof *q);
    if (slot < 0 || slot > PD_COPY_SLOT || village < 0 || village >= map->nvillages || to >= map->nvillages ||
        owner < 0 || owner >= st->players)
        return -1;
    if (owner != seat && (slot == PD_COPY_SLOT || !pd_has(st, seat, PD_PC_COPY_CAT)))
        return -1;
    const pd_order *o = order_at(st, slot);
    const pd_pizzeria *z = &st->player[owner].pizzeria[village];
    if (o->kind < 0 || z->lot < 0 || z->ncards == 0 || z->disks == 0 || !pd_modes_ok(st, seat, modes))
        return -1; /* no pizzeria, or one closed (Stock Market Crash) */
    const pd_order_kind *k = kind_of(st, slot);
    if (!k->specialty && o->ncards < k->market_cards)
        return -1;
    needs computed;
    const needs *all = known;
    if (!all) {
        order_needs(st, slot, &computed);
        all = &computed;
    }
    int shortage = pd_short_ingredient(st); /* Ingredient Shortage: no pizza with it */
    for (int i = 0; shortage >= 0 && i < all->n; i++)
        if (all->ingredient[i] == shortage)
            return -1;
    int door = map->lot[z->lot].door;
    /* PD-T4: a regular order goes to its village's zone, a specialty one to
     * the one chosen (the nearest if none is) */
    int own = pd_order_village(st, slot);
    if (own >= 0 && to >= 0 && to != own)
        return -1;
    if (own >= 0)
        to = own;
    q->length = -1;
    int zone_village = -1;
    for (int v = 0; v < map->nvillages; v++) {
        if (to >= 0 && v != to)
            continue;
        int len = way_length(map, z->lot, v, modes);
        if (len >= 0 && (q->length < 0 || len < q->length)) {
            q->length = len;
            q->zone = map->village[v].zone;
            zone_village = v;
        }
    }
    if (q->length < 0)
        return -1;
    /* a ride or a boat only where it shortens the route (the two subway
     * colours count as one, for the Fast Pass); the Park Path where it is
     * shorter than going round, and for its owner always: the owner is paid
     * for using it, others pay the owner */
    static const unsigned parts[] = {PD_ROUTE_BOAT, PD_ROUTE_RED | PD_ROUTE_BLUE};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if ((modes & parts[i]) && way_length(map, z->lot, zone_village, modes & ~parts[i]) <= q->length)
            return -1;
    int round = pd_route_length(map, door, q->zone, modes & ~PD_ROUTE_PARK);
    if ((modes & PD_ROUTE_PARK) && !pd_has(st, seat, PD_PC_PARK_PATH) && round >= 0 && round <= q->length)
        return -1;
    int power = top_power(st, seat, owner, village, slot);
    q->free_range = z->disks + (power == PD_TOP_EXTRA_SPACE);
    q->distance_cards = pd_distance_cards(st, seat, q->length, q->free_range, modes);
    if (q->distance_cards < 0)
        return -1; /* Moped Delivery: out of its reach */
    q->park_used = (modes & PD_ROUTE_PARK) != 0;
    bool sale = sale_on(st, seat, slot);
    const pd_pending *pe = &st->pending; /* is this the delivery being made? */
    bool being_made = pe->kind == PD_A_DELIVER && seat == st->seat && pe->slot == slot && pe->village == village &&
                      pe->owner == owner;
    q->extras = k->specialty ? k->extra_cards * (sale ? 2 : 1) : 0;
    q->pay = k->pay + (power == PD_TOP_EXTRA_DOLLAR) + 2 * (power == PD_TOP_VEGETARIAN && all_of_group(all, PD_VEGETABLE)) +
             2 * (power == PD_TOP_MEAT && all_of_group(all, PD_MEAT)) +
             pd_power_bonus(st, seat, village, map->space[q->zone].village, q->park_used);
    if (st->rules->extra_cheese) {
        /* the pizzeria's own cheese, or a card put on this very delivery
         * while it is being made: once a pizza, part of its money */
        q->cheese_bonus = k->specialty ? 2 : 1;
        /* with Copy Cat another's pizzeria's cheese is on the pizza (a
         * permanent ingredient: the order's cheese is there) but its bonus,
         * a special pizzeria power, is not the deliverer's */
        bool cheese_there = pizzeria_cheese(st, owner, village);
        q->cheese_in_pizzeria = cheese_there && (owner == seat || !pd_corrected(st));
        q->cheese_required = pd_order_wants_cheese(st, slot) && !cheese_there;
        bool added = being_made && st->pending.cheese_added;
        q->pay += q->cheese_in_pizzeria || added ? q->cheese_bonus : 0;
    }
    if (sale) { /* Special Sale: twice the money less $1, what cheese earns too */
        q->pay = 2 * q->pay - 1;
        q->cheese_bonus *= 2;
    }
    if (st->over_achiever && slot != PD_COPY_SLOT && seat == st->seat)
        q->pay += 2;
    /* Sausage's $1, once the extra card is given: Special Sale does not
     * double it, Coupon Days halves it with the rest */
    if (being_made && st->pending.doubled && pd_corrected(st))
        q->pay += 1;
    if (st->global >= 0 && st->global == st->rules->pc[PD_PC_COUPON_DAYS]) /* half, rounded down, at least $1 */
        q->pay = q->pay / 2 > 1 ? q->pay / 2 : 1;
    return 0;
}

/* The ingredients among a matcher's units, as a set. */
static unsigned unit_set(const matcher *m)
{
    unsigned set = 0;
    for (int u = 0; u < m->nunits; u++)
        set |= 1u << m->unit[u];
    return set;
}

static void hand_now_of(const pd_state *st, int seat, hand_now *h, int minus_hand, int minus_stored)
{
    memset(h, 0, sizeof *h);
    h->units.st = st;
    stored_units(&h->units, st, seat, minus_stored);
    h->stored = h->units.nunits;
    hand_units(&h->units, st, seat, minus_hand);
    h->set = unit_set(&h->units);
    int used = minus_hand >= 0;
    h->market = free_market_cards(st, seat) - used;
    h->total = pd_free_total(st, seat) - used;
}

/* Can the units supply `left` (but `shorts` of it), with the rest paid from
 * hand: `extras` (a specialty order's further cards) and `due` cards of any
 * kind, power cards too? The hand cards the ingredients take in
 * *hand_ingredients. */
static bool supply_check(const hand_now *h, const needs *left, int shorts, int extras, int due, int *hand_ingredients)
{
    matcher m = h->units;
    m.nd = left;
    int stored;
    int required = left->n - shorts > 0 ? left->n - shorts : 0;
    if (match_first(&m, h->stored, &stored) < required)
        return false;
    *hand_ingredients = required > stored ? required - stored : 0;
    return h->market >= *hand_ingredients && h->total >= *hand_ingredients + extras + due;
}

/* Can the hand supply what the pizzeria does not, and pay the rest? h: the
 * seat's hand_now_of(st, seat, h, -1, -1). */
static int hand_check(const pd_state *st, int seat, int owner, int slot, int village, pd_quote *q, const hand_now *h)
{
    needs left;
    needs_left(st, seat, owner, slot, village, h, &left);
    q->nneeds = left.n;
    memcpy(q->need_ingredient, left.ingredient, sizeof q->need_ingredient);
    memcpy(q->need_group, left.group, sizeof q->need_group);
    int shorts = top_power(st, seat, owner, village, slot) == PD_TOP_SHORT;
    return supply_check(h, &left, shorts, q->extras, q->distance_cards, &q->hand_ingredients) ? 0 : -1;
}

int pd_delivery_reward(const pd_state *st, int seat, int owner, int slot, int village, int to, unsigned modes)
{
    pd_quote q;
    return route_and_pay(st, seat, owner, slot, village, to, modes, NULL, &q) == 0 ? q.pay : 0;
}

int pd_delivery_quote(const pd_state *st, int seat, int slot, int village, int to, unsigned modes, pd_quote *q)
{
    return pd_delivery_quote_from(st, seat, seat, slot, village, to, modes, q);
}

int pd_delivery_quote_from(const pd_state *st, int seat, int owner, int slot, int village, int to, unsigned modes,
                           pd_quote *q)
{
    if (seat < 0 || seat >= st->players || route_and_pay(st, seat, owner, slot, village, to, modes, NULL, q) != 0)
        return -1;
    hand_now h;
    hand_now_of(st, seat, &h, -1, -1);
    for (int c = 0; q->cheese_bonus && c < PD_TYPES; c++)
        if (is_cheese(st, (pd_card)c) && pd_free_cards(st, seat, (pd_card)c) > 0)
            q->cheese_cards += pd_free_cards(st, seat, (pd_card)c);
    for (int i = 0; q->cheese_bonus && pd_cold_usable(st, seat) && i < st->ncold; i++)
        q->cheese_cards += !(st->pending.stored_used >> i & 1) && is_cheese(st, st->cold[i]);
    if (hand_check(st, seat, owner, slot, village, q, &h) != 0)
        return -1;
    /* a tip unless there is none, Midtown Hi-Jinks takes it, the order's
     * cheese is missing, or the hand can make it only with Onions' short */
    needs left;
    needs_left(st, seat, owner, slot, village, &h, &left);
    int ingredients;
    q->tip = order_at(st, slot)->tip != PD_NO_TIP && !pd_tip_blocked(st, seat, st->rules->data.map.space[q->zone].village) &&
             !(q->cheese_required && !q->cheese_cards) &&
             supply_check(&h, &left, 0, q->extras, q->distance_cards, &ingredients);
    return 0;
}

int pd_deliver_owner(const pd_state *st, pb_action a)
{
    unsigned owner = PD_KIND(a) == PD_A_DELIVER ? PD_ARG(a) >> 16 & 0xFF : 0;
    return owner ? (int)owner - 1 : st->seat;
}

/* A quick proof that seat's delivery of `slot` from owner's pizzeria in
 * `village` cannot be made, whatever the route: more of the order's needs
 * than Onions may leave out are supplied by no ingredient of the
 * pizzeria's and the free cards' (h), or the needs outnumber all these
 * cards (order: the order's order_needs). False: hand_check decides. */
static bool surely_short(const pd_state *st, int seat, int owner, int slot, int village, const needs *order,
                         const hand_now *h)
{
    needs all = *order;
    if (sale_on(st, seat, slot))
        double_needs(&all);
    const pd_pizzeria *z = &st->player[owner].pizzeria[village];
    int units = h->units.nunits, farmed = pd_farmed_ingredient(st, seat);
    unsigned have = h->set;
    for (int i = 0; i < z->ncards; i++)
        if (pd_group_of(st, PD_CARD_INGREDIENT(z->card[i])) != PD_CHEESE) {
            have |= 1u << PD_CARD_INGREDIENT(z->card[i]);
            units++;
        }
    if (farmed >= 0) {
        have |= 1u << farmed;
        units++;
    }
    int shorts = top_power(st, seat, owner, village, slot) == PD_TOP_SHORT, unsupplied = 0;
    if (all.n - shorts > units)
        return true;
    for (int i = 0; i < all.n; i++)
        unsupplied += !(suppliers(st, all.ingredient[i], all.group[i]) & have);
    return unsupplied > shorts;
}

/* Every delivery of `slot` the mover can make: a pizzeria (the mover's own
 * first, then with Copy Cat the others'), a way to go and, for a specialty
 * order, the zone; as actions of `kind`. */
static int list_slot(const pd_state *st, pb_action *out, int n, int slot, int kind, hand_now *h, bool *have_hand)
{
    const pd_map *map = &st->rules->data.map;
    unsigned allowed = pd_allowed_modes(st, st->seat);
    const pd_order *o = order_at(st, slot);
    bool any_zone = o->kind >= 0 && pd_order_village(st, slot) < 0;
    int owners = kind == PD_A_DELIVER && pd_has(st, st->seat, PD_PC_COPY_CAT) ? st->players : 1;
    if (o->kind < 0) /* no order: no route either */
        return n;
    needs all;
    order_needs(st, slot, &all);
    for (int k = 0; k < owners; k++) {
        int owner = (st->seat + k) % st->players;
        for (int v = 0; v < map->nvillages; v++) {
            if (st->player[owner].pizzeria[v].lot < 0)
                continue;
            if (!*have_hand) {
                hand_now_of(st, st->seat, h, -1, -1);
                *have_hand = true;
            }
            if (surely_short(st, st->seat, owner, slot, v, &all, h)) /* by no route */
                continue;
            /* the ingredients do not depend on the route: matched once */
            pd_quote bare = {0};
            if (hand_check(st, st->seat, owner, slot, v, &bare, h) != 0)
                continue;
            int from_hand = bare.hand_ingredients;
            for (int to = any_zone ? 0 : -1; to < (any_zone ? map->nvillages : 0); to++)
                for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++) {
                    pd_quote q;
                    if ((modes & ~allowed) || route_and_pay(st, st->seat, owner, slot, v, to, modes, &all, &q) != 0)
                        continue;
                    if (h->market >= from_hand && h->total >= from_hand + q.extras + q.distance_cards)
                        n = pd_add_action(out, n,
                                          PD_ACTION(kind, (slot == PD_COPY_SLOT ? 0 : slot) | v << 4 | modes << 8 |
                                                              (unsigned)(to + 1) << 12 |
                                                              (unsigned)(owner == st->seat ? 0 : owner + 1) << 16));
                }
        }
    }
    return n;
}

int pd_list_deliveries(const pd_state *st, pb_action *out, int n)
{
    hand_now h;
    bool have_hand = false;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        n = list_slot(st, out, n, slot, PD_A_DELIVER, &h, &have_hand);
    return n;
}

/* Harlem Rotary: every way to copy the delivery, or not. */
int pd_list_copies(const pd_state *st, pb_action *out, int n)
{
    hand_now h;
    bool have_hand = false;
    if (!st->supplies_due[st->seat]) /* Out of Supplies: no delivery before the $2 */
        n = list_slot(st, out, n, PD_COPY_SLOT, PD_A_COPY, &h, &have_hand);
    return pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
}

/* ---- the decisions after "deliver" ---- */

/* hand_now_of(st, st->seat, out, card, stored) made from the seat's whole
 * free hand `all` (hand_now_of(..., -1, -1)): the unit the card would be
 * taken out. Which of the units of its ingredient goes does not matter: a
 * match's counts do not depend on the units' order. */
static void hand_less(const pd_state *st, const hand_now *all, int card, int stored, hand_now *out)
{
    *out = *all;
    if (all->units.nunits == MAX_UNITS) { /* perhaps cut short: gathered again */
        hand_now_of(st, st->seat, out, card, stored);
        return;
    }
    int from = 0, to = 0, ingredient = -1; /* the units to take one of */
    if (card >= 0) {
        out->market--;
        out->total--;
        if (pd_free_cards(st, st->seat, (pd_card)card) > 0 && !is_cheese(st, (pd_card)card)) {
            ingredient = PD_CARD_INGREDIENT(card);
            from = all->stored;
            to = all->units.nunits;
        }
    } else if (stored >= 0 && !is_cheese(st, (pd_card)stored) && pd_cold_usable(st, st->seat)) {
        for (int i = 0; ingredient < 0 && i < st->ncold; i++)
            if (!(st->pending.stored_used >> i & 1) && st->cold[i] == stored) {
                ingredient = PD_CARD_INGREDIENT(stored);
                to = all->stored;
                out->stored--;
            }
    }
    matcher *m = &out->units;
    for (int u = from; ingredient >= 0 && u < to; u++)
        if (m->unit[u] == ingredient) {
            memmove(m->unit + u, m->unit + u + 1, (size_t)(m->nunits - u - 1));
            m->nunits--;
            break;
        }
    out->set = unit_set(m);
}

/* Can the rest be supplied and paid if the next need takes hand card
 * `card` or stored card `stored` (or is left out: both -1, `shorting`)?
 * all: the seat's whole free hand (hand_now_of(..., -1, -1)), or NULL. */
static bool can_finish_at(const pd_state *st, const hand_now *all, int card, int stored, bool shorting, int at)
{
    const pd_pending *pe = &st->pending;
    needs rest = {0};
    for (int i = 0; i < pe->nneeds; i++)
        if (i != at)
            push_need(&rest, pe->need_ingredient[i], pe->need_group[i]);
    hand_now h;
    if (all)
        hand_less(st, all, card, stored, &h);
    else
        hand_now_of(st, st->seat, &h, card, stored);
    int shorts = pending_top_power(st) == PD_TOP_SHORT && !pe->shorted && !shorting;
    int ingredients;
    return supply_check(&h, &rest, shorts, pe->extras, pe->due, &ingredients);
}

static bool can_finish(const pd_state *st, const hand_now *all, int card, int stored, bool shorting)
{
    return can_finish_at(st, all, card, stored, shorting, 0);
}

/* The need a hand card goes to: the next one when it can, else the first
 * later one it supplies while the rest can still be made (the ingredients
 * come in any order); -1 when none. all: as for can_finish_at. */
static int need_for(const pd_state *st, const hand_now *all, pd_card c)
{
    const pd_pending *pe = &st->pending;
    for (int i = 0; i < pe->nneeds; i++)
        if (supplies(st, PD_CARD_INGREDIENT(c), pe->need_ingredient[i], pe->need_group[i]) &&
            can_finish_at(st, all, c, -1, false, i))
            return i;
    return -1;
}

int pd_list_any_need(const pd_state *st, pb_action *out, int n)
{
    int listed = n;
    hand_now all;
    hand_now_of(st, st->seat, &all, -1, -1);
    for (int c = 0; c < PD_TYPES; c++) {
        pb_action a = PD_ACTION(PD_A_USE, c);
        bool seen = false;
        for (int i = 0; out && i < listed && i < PB_MAX_ACTIONS; i++)
            seen |= out[i] == a;
        if (!seen && pd_free_cards(st, st->seat, (pd_card)c) > 0 && !is_cheese(st, (pd_card)c) && need_for(st, &all, (pd_card)c) >= 0)
            n = pd_add_action(out, n, a);
    }
    return n;
}

/* Sausage's choice is still to come. */
static bool sausage_undecided(const pd_state *st)
{
    const pd_pending *pe = &st->pending;
    return !pe->double_decided && pending_top_power(st) == PD_TOP_DOUBLE;
}

/* Extra Cheese on the pizza: a cheese card from hand (leaving enough cards
 * for the distance) or one from Cold Storage; never when the deliverer's
 * own pizzeria has its own (one bonus a pizza; with Copy Cat another's
 * cheese earns its owner's bonus, not the deliverer's). "done" declines;
 * the caller lists it. */
static int list_cheese(const pd_state *st, pb_action *out, int n)
{
    const pd_pending *pe = &st->pending;
    int s = st->seat;
    if (!st->rules->extra_cheese || pe->cheese_decided ||
        ((pe->owner == s || !pd_corrected(st)) && pizzeria_cheese(st, pe->owner, pe->village)))
        return n;
    bool spare = pd_free_total(st, s) - 1 >= pe->due;
    for (int c = 0; spare && c < PD_TYPES; c++)
        if (pd_free_cards(st, s, (pd_card)c) > 0 && is_cheese(st, (pd_card)c))
            n = pd_add_action(out, n, PD_ACTION(PD_A_CHEESE, c));
    for (int i = 0; pd_cold_usable(st, s) && i < st->ncold; i++) {
        pd_card c = st->cold[i];
        bool earlier = false; /* a stored type once, however many there are */
        for (int k = 0; k < i; k++)
            earlier |= !(pe->stored_used >> k & 1) && st->cold[k] == c;
        if (!earlier && !(pe->stored_used >> i & 1) && is_cheese(st, c))
            n = pd_add_action(out, n, PD_ACTION(PD_A_CHEESE, c | PD_CHEESE_STORED));
    }
    return n;
}

bool pd_cheese_on(const pd_state *st)
{
    const pd_pending *pe = &st->pending;
    return pe->kind == PD_A_DELIVER && (pe->cheese_added || pizzeria_cheese(st, pe->owner, pe->village));
}

/* An order that asks for cheese, delivered without: NO TIP (the rulebook's
 * frugal pizzeria). */
bool pd_cheese_left_out(const pd_state *st)
{
    return st->pending.kind == PD_A_DELIVER && pd_order_wants_cheese(st, st->pending.slot) && !pd_cheese_on(st);
}

int pd_cheese_why(const pd_state *st, char *err, size_t errlen)
{
    const pd_pending *pe = &st->pending;
    if (!st->rules->extra_cheese)
        return pb_errorf(err, errlen, "not a legal move: this game is played without Extra Cheese");
    if (st->phase != PD_PH_SUPPLY || pe->kind != PD_A_DELIVER)
        return pb_errorf(err, errlen, "not a legal move now: Extra Cheese goes on a pizza as it is delivered");
    if ((pe->owner == st->seat || !pd_corrected(st)) && pizzeria_cheese(st, pe->owner, pe->village))
        return pb_errorf(err, errlen, "not a legal move now: the pizzeria's own Extra Cheese is on this pizza "
                                      "(one bonus a pizza)");
    if (pe->nneeds > 0 || pe->extras > 0 || sausage_undecided(st))
        return pb_errorf(err, errlen, "not a legal move now: Extra Cheese comes after the ingredients");
    if (pe->cheese_decided)
        return pb_errorf(err, errlen, "not a legal move now: this pizza's Extra Cheese is decided");
    return pb_errorf(err, errlen, "not a legal move now: no such Extra Cheese card in your hand or Cold Storage "
                                  "(a hand card must leave enough cards for the distance)");
}

static bool needed_by_order(const pd_state *st, int ingredient)
{
    needs all;
    order_needs(st, st->pending.slot, &all);
    for (int i = 0; i < all.n; i++)
        if (supplies(st, ingredient, all.ingredient[i], all.group[i]))
            return true;
    return false;
}

/* ---- Ham: look at the tokens on the orders, keep one, put the others back ---- */

int pd_ham_places(const pd_state *st, int8_t *from, int8_t *to)
{
    const pd_pending *pe = &st->pending;
    int nfrom = 0, nto = 0;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        if (st->order[slot].tip == PD_NO_TIP)
            continue;
        if (slot != pe->tip_slot)
            from[nfrom++] = (int8_t)slot;
        if (slot != pe->slot) /* the delivered order's new one gets a new token */
            to[nto++] = (int8_t)slot;
    }
    /* the delivered order had none: one order is left without, and which
     * is the deliverer's to choose (were it always the kept token's order,
     * everyone would see which token was kept) */
    if (nto > nfrom)
        from[nfrom++] = PD_HAM_NONE;
    return nfrom;
}

/* The value of the token a place gets from `slot`; -1 for none. */
static int tip_on(const pd_state *st, int slot)
{
    return slot == PD_HAM_NONE ? -1 : st->tip_value[st->order[slot].tip];
}

/* Every way to put the tokens back, one for each sequence of values the
 * places get (tokens of one value are alike; of those, the first to lie
 * on an order goes first): the values' distinct orders, smallest first. */
static int list_arrangements(const pd_state *st, pb_action *out, int n)
{
    int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
    int k = pd_ham_places(st, from, to);
    int value[PD_ORDER_SLOTS];
    for (int i = 0; i < k; i++) { /* sorted, for the distinct orders of a multiset */
        int v = tip_on(st, from[i]), j = i;
        for (; j > 0 && value[j - 1] > v; j--)
            value[j] = value[j - 1];
        value[j] = v;
    }
    for (;;) {
        uint32_t arg = 0, used = 0;
        for (int i = 0; i < k; i++)
            for (int f = 0; f < k; f++)
                if (!(used >> f & 1) && tip_on(st, from[f]) == value[i]) {
                    used |= 1u << f;
                    arg |= (uint32_t)from[f] << 3 * i;
                    break;
                }
        n = pd_add_action(out, n, PD_ACTION(PD_A_ARRANGE, arg));
        /* the next order of the values: the last rise, its successor, the tail reversed */
        int i = k - 2;
        while (i >= 0 && value[i] >= value[i + 1])
            i--;
        if (i < 0)
            return n;
        int j = k - 1;
        while (value[j] <= value[i])
            j--;
        int t = value[i];
        value[i] = value[j];
        value[j] = t;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            t = value[a];
            value[a] = value[b];
            value[b] = t;
        }
    }
}

/* The tokens go back as arranged; nobody else can tell them apart any
 * more (they were all in the deliverer's hand), so what the others saw of
 * them is forgotten. The delivered order is left without: its slot takes a
 * new order with a new token. */
static void put_tips_back(pd_state *st)
{
    const pd_pending *pe = &st->pending;
    int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
    int k = pd_ham_places(st, from, to);
    uint8_t token[PD_ORDER_SLOTS];
    for (int i = 0; i < k; i++) {
        int from_slot = pe->arrangement >> 3 * i & 7;
        token[i] = from_slot >= PD_ORDER_SLOTS ? PD_NO_TIP : st->order[from_slot].tip; /* PD_HAM_NONE: none */
    }
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        pd_order *o = &st->order[slot];
        if (o->tip != PD_NO_TIP)
            st->tip_seen[o->tip] &= (uint8_t)(1u << st->seat);
        o->tip = PD_NO_TIP;
    }
    for (int i = 0; i < k; i++)
        st->order[to[i]].tip = token[i];
}

int pd_list_delivery_steps(const pd_state *st, pb_action *out, int n)
{
    const pd_pending *pe = &st->pending;
    int s = st->seat;
    if (st->phase == PD_PH_TIP) {
        for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
            if (st->order[slot].tip != PD_NO_TIP)
                n = pd_add_action(out, n, PD_ACTION(PD_A_TIP, slot));
        return n;
    }
    if (st->phase == PD_PH_ARRANGE)
        return list_arrangements(st, out, n);
    if (st->phase == PD_PH_DISTANCE)
        return pd_list_payments(st, out, n, pe->due, false, -1);
    if (pe->nneeds > 0) {
        hand_now all;
        hand_now_of(st, s, &all, -1, -1);
        for (int c = 0; c < PD_TYPES; c++)
            if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE &&
                supplies(st, PD_CARD_INGREDIENT(c), pe->need_ingredient[0], pe->need_group[0]) &&
                can_finish(st, &all, c, -1, false))
                n = pd_add_action(out, n, PD_ACTION(PD_A_USE, c));
        for (int i = 0; pd_cold_usable(st, s) && i < st->ncold; i++) {
            pd_card c = st->cold[i];
            bool earlier = false; /* a stored type once, however many there are */
            for (int k = 0; k < i; k++)
                earlier |= !(pe->stored_used >> k & 1) && st->cold[k] == c;
            if (!earlier && !(pe->stored_used >> i & 1) && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE &&
                supplies(st, PD_CARD_INGREDIENT(c), pe->need_ingredient[0], pe->need_group[0]) &&
                can_finish(st, &all, -1, c, false))
                n = pd_add_action(out, n, PD_ACTION(PD_A_USE_STORED, c));
        }
        if (pending_top_power(st) == PD_TOP_SHORT && !pe->shorted && can_finish(st, &all, -1, -1, true))
            n = pd_add_action(out, n, PD_ACTION(PD_A_SHORT, 0));
        return n;
    }
    if (pe->extras > 0) {
        /* a specialty order's further cards: any hand cards, power cards too
         * (as for a payment), in the payments' order (market cards by type,
         * then power cards), while enough cards later in it remain for the
         * rest, and then enough for the distance */
        int cap[PD_KEYS + 1];
        pd_capacities(st, s, false, -1, cap);
        bool spare = pd_free_total(st, s) - 1 >= pe->extras - 1 + pe->due;
        for (int c = 0; spare && c < PD_TYPES; c++) {
            pb_action a = PD_ACTION(PD_A_USE, c);
            if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_pay_key(a) >= pe->last_key && cap[pd_pay_key(a)] >= pe->extras)
                n = pd_add_action(out, n, a);
        }
        uint64_t powers = st->player[s].powers & ~pe->paid_powers;
        for (int i = 0; spare && i < 64; i++) {
            pb_action a = PD_ACTION(PD_A_USE, PD_POWER_FLAG | i);
            if ((powers >> i & 1) && pd_pay_key(a) >= pe->last_key && cap[pd_pay_key(a)] >= pe->extras)
                n = pd_add_action(out, n, a);
        }
        return n;
    }
    /* Sausage: one more card of an ingredient the order needs, or not; then
     * Extra Cheese, or not */
    bool sausage = sausage_undecided(st);
    for (int c = 0; sausage && c < PD_TYPES; c++)
        if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE &&
            needed_by_order(st, PD_CARD_INGREDIENT(c)) && pd_free_total(st, s) - 1 >= pe->due)
            n = pd_add_action(out, n, PD_ACTION(PD_A_EXTRA, c));
    if (!sausage)
        n = list_cheese(st, out, n);
    return pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
}

/* The cards a delivery set aside go: hand cards and Cold Storage's to the
 * sewer, power cards to the discards. */
static void spend_set_aside(pd_state *st, int s)
{
    pd_pending *pe = &st->pending;
    pd_player *p = &st->player[s];
    for (int c = 0; c < PD_TYPES; c++)
        for (; pe->paid_cards[c]; pe->paid_cards[c]--) {
            pd_hand_remove(st, s, (pd_card)c);
            st->sewer[c]++;
        }
    p->powers &= ~pe->paid_powers;
    st->power_discard |= pe->paid_powers;
    if (pe->stored_used) {
        int kept = 0;
        for (int i = 0; i < st->ncold; i++)
            if (pe->stored_used >> i & 1)
                st->sewer[st->cold[i]]++;
            else
                st->cold[kept++] = st->cold[i];
        st->ncold = (uint8_t)kept;
        st->cold_used_turn = st->turn;
    }
}

/* What every delivery gives the deliverer: its money with the powers that
 * apply, the others' zone cards paid, a delivery counted, a power card. */
static void reward(pd_state *st, int s, const pd_quote *q)
{
    pd_pending *pe = &st->pending;
    pd_player *p = &st->player[s];
    int zone_village = st->rules->data.map.space[q->zone].village;
    /* edition 1 added Sausage's $1 after Coupon Days' halving */
    *pd_purse(st, s) = (int16_t)(pd_money(st, s) + q->pay + (pd_corrected(st) ? 0 : pe->doubled));
    pd_delivery_powers(st, s, zone_village, pe->modes, q->park_used);
    p->deliveries++;
    if (pd_has(st, s, PD_PC_FRUGAL)) /* Frugal Shopper is discarded when its holder delivers */
        pd_leave_tableau(st, s, st->rules->pc[PD_PC_FRUGAL]);
    if (st->npower_deck > 0)
        p->powers |= 1ull << st->power_deck[--st->npower_deck];
    spend_set_aside(st, s);
}

/* Harlem Rotary: the holder's copy is made or declined; the turn goes on. */
static void copy_over(pd_state *st)
{
    memset(&st->pending, 0, sizeof st->pending);
    memset(&st->copied, 0, sizeof st->copied);
    st->copied.kind = -1;
    st->copied.tip = PD_NO_TIP;
    st->seat = st->copy_turn_seat;
    st->phase = st->copy_resume;
}

static void complete_copy(pd_state *st)
{
    int s = st->seat;
    pd_quote q;
    route_and_pay(st, s, s, PD_COPY_SLOT, st->pending.village, -1, st->pending.modes, NULL, &q);
    bool frugal = pd_cheese_left_out(st);
    reward(st, s, &q);
    if (frugal) { /* Extra Cheese asked for and left out: NO TIP */
        if (st->no_tips > 0) {
            st->no_tips--;
            st->player[s].tip[st->player[s].ntips++] = PD_NO_TIP;
        }
        copy_over(st);
        return;
    }
    int tip = pd_draw_tip(st); /* a random one: the order's own went with the first delivery */
    if (tip != PD_NO_TIP)
        st->player[s].tip[st->player[s].ntips++] = (uint8_t)tip;
    copy_over(st);
}

void pd_decline_copy(pd_state *st)
{
    copy_over(st);
}

/* PD-T4: the reward and the clean-up. */
static void complete(pd_state *st)
{
    pd_pending *pe = &st->pending;
    if (pe->slot == PD_COPY_SLOT) {
        complete_copy(st);
        return;
    }
    int s = st->seat;
    pd_player *p = &st->player[s];
    pd_order *o = &st->order[pe->slot];
    int power = pending_top_power(st);
    pd_quote q;
    route_and_pay(st, s, pe->owner, pe->slot, pe->village, pe->to, pe->modes, NULL, &q);
    int zone_village = st->rules->data.map.space[q.zone].village;
    reward(st, s, &q);
    st->delivered = true;
    /* the tip: Onions, or Extra Cheese asked for and left out, give NO TIP;
     * Ham takes any order's token and puts the others back as arranged */
    int tip = PD_NO_TIP;
    bool no_tip_token = false, frugal = pd_cheese_left_out(st);
    bool withheld = pe->shorted || frugal || pd_tip_blocked(st, s, zone_village);
    if (withheld) {
        if ((pe->shorted || frugal) && st->no_tips > 0) {
            st->no_tips--;
            no_tip_token = true;
        }
        if (o->tip != PD_NO_TIP) /* the order's own token goes back face down */
            pd_return_tip(st, o->tip);
    } else if (pe->tip_slot >= 0) {
        tip = st->order[pe->tip_slot].tip;
        put_tips_back(st);
    } else {
        tip = o->tip;
    }
    o->tip = PD_NO_TIP;
    if (tip != PD_NO_TIP || no_tip_token)
        p->tip[p->ntips++] = (uint8_t)tip;
    int tips = tip != PD_NO_TIP; /* tip tokens given (a NO TIP token is none) */
    if (!withheld && sale_on(st, s, pe->slot)) { /* Special Sale: a second token, the top face-down one */
        int second = pd_draw_tip(st);
        if (second != PD_NO_TIP) {
            p->tip[p->ntips++] = (uint8_t)second;
            tips++;
        }
    }
    /* Harlem Rotary: the order is kept for its holder to copy */
    int holder = pd_other_holder(st, s, PD_PC_HARLEM_ROTARY);
    bool copy = holder >= 0 && zone_village == pd_rotary_village(st) && pd_has_pizzeria(st, holder);
    if (copy) {
        st->copied = *o;
        st->copied.tip = PD_NO_TIP;
    }
    /* the order's cards go to the open market, the order card is discarded */
    for (int i = 0; i < o->ncards; i++) {
        st->open[o->card[i]]++;
        st->open_size++;
    }
    st->order_discard[st->norder_discard++] = o->kind;
    if (st->rules->coop) /* PD-C1: no refill; new orders come with promotions */
        pd_coop_delivered(st, pe->slot);
    else if (pe->slot < PD_BOARD_SLOTS)
        pd_make_order(st, pe->slot);
    else /* Pandemic's orders are not replaced */
        pd_clear_order(st, pe->slot);
    pd_refill_open(st);
    int takes = (power == PD_TOP_MARKET_PICK) + pd_bonus_takes(st, s, zone_village);
    if (takes) {
        memset(pe, 0, sizeof *pe);
        st->phase = PD_PH_BONUS;
        st->steps_left = (uint8_t)takes;
    } else {
        pd_action_done(st);
    }
    if (copy) { /* the holder decides now, before the turn goes on */
        st->copy_turn_seat = (uint8_t)s;
        st->copy_resume = st->phase;
        st->seat = (uint8_t)holder;
        st->phase = PD_PH_COPY;
    }
    /* the others may answer the delivery with Instant cards first */
    pd_open_instants(st, s, tips);
}

/* After the ingredients: the distance, Ham's tip (and the others put back), the reward. */
static void next_stage(pd_state *st)
{
    pd_pending *pe = &st->pending;
    if (pe->nneeds > 0 || pe->extras > 0)
        return;
    int power = pending_top_power(st);
    if (st->phase == PD_PH_SUPPLY && !pe->double_decided && power == PD_TOP_DOUBLE)
        return; /* Sausage: its choice comes first */
    if (st->phase == PD_PH_SUPPLY && list_cheese(st, NULL, 0) > 0)
        return; /* Extra Cheese: a card or "done" */
    if (pe->due > 0) {
        if (st->phase != PD_PH_DISTANCE)
            pe->last_key = 0;
        st->phase = PD_PH_DISTANCE;
        return;
    }
    pd_quote q;
    route_and_pay(st, st->seat, pe->owner, pe->slot, pe->village, pe->to, pe->modes, NULL, &q);
    if (pe->tip_slot < 0 && !pe->shorted && !pd_cheese_left_out(st) && power == PD_TOP_CHOOSE_TIP &&
        !pd_tip_blocked(st, st->seat, st->rules->data.map.space[q.zone].village)) {
        bool any = false;
        for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
            if (st->order[slot].tip != PD_NO_TIP) {
                st->tip_seen[st->order[slot].tip] |= (uint8_t)(1u << st->seat); /* Ham: look, then choose */
                any = true;
            }
        if (any) {
            st->phase = PD_PH_TIP;
            return;
        }
    }
    complete(st);
}

/* A card under Cold Storage set aside for the delivery. */
static void set_aside_stored(pd_state *st, pd_card c)
{
    for (int i = 0; i < st->ncold; i++)
        if (!(st->pending.stored_used >> i & 1) && st->cold[i] == c) {
            st->pending.stored_used |= (uint8_t)(1u << i);
            return;
        }
}

static void pop_need(pd_pending *pe)
{
    memmove(pe->need_ingredient, pe->need_ingredient + 1, (size_t)pe->nneeds - 1);
    memmove(pe->need_group, pe->need_group + 1, (size_t)pe->nneeds - 1);
    pe->nneeds--;
    pe->need_ingredient[pe->nneeds] = pe->need_group[pe->nneeds] = 0;
}

void pd_delivery_step(pd_state *st, pb_action a)
{
    pd_pending *pe = &st->pending;
    uint32_t arg = PD_ARG(a);
    switch (PD_KIND(a)) {
    case PD_A_DELIVER:
    case PD_A_COPY: {
        if (PD_KIND(a) == PD_A_DELIVER)
            st->action = PD_A_DELIVER;
        pd_quote q;
        int slot = PD_KIND(a) == PD_A_COPY ? PD_COPY_SLOT : (int)(arg & 0xF), village = arg >> 4 & 0xF;
        int to = (int)(arg >> 12 & 0xF) - 1;
        unsigned modes = arg >> 8 & 0xF;
        int owner = pd_deliver_owner(st, a);
        pd_delivery_quote_from(st, st->seat, owner, slot, village, to, modes, &q);
        needs left;
        needs_left(st, st->seat, owner, slot, village, NULL, &left);
        memset(pe, 0, sizeof *pe);
        pe->kind = PD_A_DELIVER;
        pe->owner = (uint8_t)owner;
        pe->slot = (uint8_t)slot;
        pe->village = (uint8_t)village;
        pe->to = (int8_t)to;
        pe->modes = (uint8_t)modes;
        pe->due = (uint8_t)q.distance_cards;
        pe->extras = (uint8_t)q.extras;
        pe->tip_slot = -1;
        pe->nneeds = (uint8_t)left.n;
        memcpy(pe->need_ingredient, left.ingredient, sizeof pe->need_ingredient);
        memcpy(pe->need_group, left.group, sizeof pe->need_group);
        st->phase = PD_PH_SUPPLY;
        break;
    }
    case PD_A_USE:
        if (pe->nneeds > 0) { /* the need it goes to first */
            int i = need_for(st, NULL, (pd_card)arg);
            if (i > 0) {
                int8_t ing = pe->need_ingredient[i], group = pe->need_group[i];
                pe->need_ingredient[i] = pe->need_ingredient[0], pe->need_group[i] = pe->need_group[0];
                pe->need_ingredient[0] = ing, pe->need_group[0] = group;
            }
        }
        if (arg & PD_POWER_FLAG) /* a specialty order's further card: a power card */
            pe->paid_powers |= 1ull << (arg & 63);
        else
            pe->paid_cards[arg]++;
        if (pe->nneeds > 0) {
            pop_need(pe);
        } else {
            pe->extras--;
            pe->last_key = (uint16_t)pd_pay_key(a);
        }
        break;
    case PD_A_USE_STORED:
        set_aside_stored(st, (pd_card)arg);
        pop_need(pe);
        break;
    case PD_A_CHEESE:
        if (arg & PD_CHEESE_STORED)
            set_aside_stored(st, (pd_card)(arg & 0xFF));
        else
            pe->paid_cards[arg]++;
        pe->cheese_added = pe->cheese_decided = true;
        break;
    case PD_A_SHORT:
        pe->shorted = true;
        pop_need(pe);
        break;
    case PD_A_EXTRA:
        pe->paid_cards[arg]++;
        pe->doubled = pe->double_decided = true;
        break;
    case PD_A_DONE: /* Sausage declined, or Extra Cheese */
        if (sausage_undecided(st))
            pe->double_decided = true;
        else
            pe->cheese_decided = true;
        break;
    case PD_A_TIP: { /* the others go back: with one place (or none) there is nothing to arrange */
        int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
        pe->tip_slot = (int8_t)arg;
        int k = pd_ham_places(st, from, to);
        if (k > 1) {
            st->phase = PD_PH_ARRANGE;
            return;
        }
        pe->arrangement = (uint16_t)(k ? from[0] : 0);
        complete(st);
        return;
    }
    case PD_A_ARRANGE:
        pe->arrangement = (uint16_t)arg;
        complete(st);
        return;
    default: /* a payment, already counted */
        break;
    }
    next_stage(st);
}

/* ---- why a delivery cannot be made ---- */

static const char *need_name(const pd_state *st, int ingredient, int group)
{
    if (ingredient >= 0)
        return st->rules->data.cards.ingredient[ingredient].name;
    return group == PD_MEAT ? "a meat" : group == PD_VEGETABLE ? "a vegetable" : "any ingredient";
}

/* The seat's pizzerias by village code, "MT, HK", or "none". */
static void pizzerias_of(const pd_state *st, int seat, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int v = 0; v < st->rules->data.map.nvillages && used < n; v++)
        if (st->player[seat].pizzeria[v].lot >= 0)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", st->rules->data.map.village[v].code);
    if (!used)
        snprintf(buf, n, "none yet: build one first");
}

/* A way the seat may not go, and the card that opens it. */
static int mode_why(const pd_state *st, int seat, unsigned modes, char *err, size_t errlen)
{
    unsigned allowed = pd_allowed_modes(st, seat), sub = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE);
    bool pass = pd_has(st, seat, PD_PC_FAST_PASS) && st->pass_tokens[seat] > 0;
    if ((modes & PD_ROUTE_PARK) && !(allowed & PD_ROUTE_PARK))
        return pb_errorf(err, errlen, "the Park Path is closed: it opens when someone has Park Path in play");
    if ((modes & PD_ROUTE_BOAT) && !(allowed & PD_ROUTE_BOAT))
        return pb_errorf(err, errlen, "via boat takes Motor Boat in your tableau");
    if (sub == (PD_ROUTE_RED | PD_ROUTE_BLUE) && !pass)
        return pb_errorf(err, errlen, "via subway takes Subway Fast Pass in your tableau with a ride left");
    if (sub && pass)
        return pb_errorf(err, errlen, "with the Subway Fast Pass the ride is written \"via subway\"");
    return pb_errorf(err, errlen, "via %s takes Subway Ticket %s in your tableau", sub == PD_ROUTE_RED ? "red" : "blue",
                     sub == PD_ROUTE_RED ? "Red" : "Blue");
}

int pd_delivery_why(const pd_state *st, pb_action a, char *err, size_t errlen)
{
    const pd_map *map = &st->rules->data.map;
    uint32_t arg = PD_ARG(a);
    int slot = (int)(arg & 0xF), v = (int)(arg >> 4 & 0xF), to = (int)(arg >> 12 & 0xF) - 1, s = st->seat;
    int owner = pd_deliver_owner(st, a);
    unsigned modes = arg >> 8 & 0xF;
    char list[64];
    if (st->windfall)
        return pb_errorf(err, errlen, "Windfall is in play: no delivery this turn");
    if (st->banned == PD_A_DELIVER)
        return pb_errorf(err, errlen, "not a second delivery this turn");
    if (st->supplies_due[s])
        return pb_errorf(err, errlen, "you owe $%d for Out of Supplies: pay it first (supplies $%d, or two cards)",
                         PD_SUPPLIES_COST, PD_SUPPLIES_COST);
    if (slot >= PD_ORDER_SLOTS || st->order[slot].kind < 0)
        return pb_errorf(err, errlen, "there is no order %d on the table", slot + 1);
    if (v >= map->nvillages || owner < 0 || owner >= st->players)
        return pb_errorf(err, errlen, "no such pizzeria");
    if (to >= map->nvillages)
        return pb_errorf(err, errlen, "no such delivery zone");
    const pd_pizzeria *z = &st->player[owner].pizzeria[v];
    if (z->lot < 0) {
        pizzerias_of(st, s, list, sizeof list);
        return pb_errorf(err, errlen, "you have no pizzeria in %s (yours: %s)", map->village[v].name, list);
    }
    if (z->disks == 0 || z->ncards == 0)
        return pb_errorf(err, errlen, "the pizzeria in %s is closed (Stock Market Crash)", map->village[v].name);
    if (!pd_modes_ok(st, s, modes))
        return mode_why(st, s, modes, err, errlen);
    int own = pd_order_village(st, slot);
    if (own >= 0 && to >= 0 && to != own)
        return pb_errorf(err, errlen, "order %d goes to %s; only a specialty order goes to a zone you choose", slot + 1,
                         map->village[own].name);
    int shortage = pd_short_ingredient(st);
    needs all;
    order_needs(st, slot, &all);
    for (int i = 0; shortage >= 0 && i < all.n; i++)
        if (all.ingredient[i] == shortage)
            return pb_errorf(err, errlen, "Ingredient Shortage is in play: no pizza with %s",
                             st->rules->data.cards.ingredient[shortage].name);
    pd_quote q;
    if (route_and_pay(st, s, owner, slot, v, to, modes, NULL, &q) != 0) {
        int free_range = z->disks + (top_power(st, s, owner, v, slot) == PD_TOP_EXTRA_SPACE);
        int len = way_length(map, z->lot, to >= 0 ? to : own >= 0 ? own : v, modes);
        if (len >= 0 && pd_distance_cards(st, s, len, free_range, modes) < 0)
            return pb_errorf(err, errlen, "too far: %d spaces, and Moped Delivery reaches %d", len, free_range + 5);
        if (modes & PD_ROUTE_PARK)
            return pb_errorf(err, errlen, "the Park Path does not shorten this route (only its owner goes through anyway)");
        if (modes)
            return pb_errorf(err, errlen, "that way does not shorten this route: deliver without it");
        return pb_errorf(err, errlen, "there is no route from your pizzeria in %s", map->village[v].name);
    }
    /* the ingredients the pizzeria leaves to the hand */
    needs left;
    needs_left(st, s, owner, slot, v, NULL, &left);
    hand_now h;
    hand_now_of(st, s, &h, -1, -1);
    matcher m = h.units;
    m.nd = &left;
    int stored, shorts = top_power(st, s, owner, v, slot) == PD_TOP_SHORT;
    int matched = match_first(&m, h.stored, &stored);
    if (matched < left.n - shorts) {
        char missing[PB_ERR_LEN] = "";
        size_t used = 0;
        int k = 0, skip = shorts; /* Onions leaves one out */
        for (int i = 0; i < left.n; i++)
            if (m.unit_of[i] < 0 && !(skip && skip--) && used < sizeof missing)
                used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%s", k++ ? ", " : "",
                                         need_name(st, left.ingredient[i], left.group[i]));
        int scarce = pd_corrected(st) ? pd_short_ingredient(st) : -1;
        char because[96] = ""; /* the short ingredient's cards would have fitted */
        if (scarce >= 0)
            snprintf(because, sizeof because, " (Ingredient Shortage: no %s on a pizza)",
                     st->rules->data.cards.ingredient[scarce].name);
        return pb_errorf(err, errlen, "missing ingredient: order %d needs %s from your hand, and you have no card of %s%s",
                         slot + 1, missing, k > 1 ? "those" : "it", because);
    }
    int from_hand = left.n - shorts - stored > 0 ? left.n - shorts - stored : 0;
    int spare = h.total - from_hand - q.extras;
    if (q.extras && h.total - from_hand < q.extras)
        return pb_errorf(err, errlen, "order %d takes %d more cards of any kind besides its ingredients, and you have %d",
                         slot + 1, q.extras, h.total - from_hand);
    if (spare < q.distance_cards)
        return pb_errorf(err, errlen, "this delivery needs %d spaces: %d free, %d cards, and you have %d", q.length,
                         q.free_range, q.distance_cards, spare > 0 ? spare : 0);
    return pb_errorf(err, errlen, "that delivery cannot be made now");
}
