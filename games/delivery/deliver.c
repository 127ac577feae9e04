/* deliver.c -- New York Pizza Delivery: delivering a pizza (PD-T4, PD-P1).
 *
 * An order's ingredients are matched to the delivering pizzeria's permanent
 * ingredients first (they are never used up, so using as many as can be is
 * always best), then to cards from hand, one decision per ingredient still
 * needed. A card supplies one ingredient; a wild (Any Meat, Any Vegetable,
 * Any Ingredient) supplies one of its kind. Then a card per space beyond
 * the free range; then the reward. */
#include <string.h>

#include "delivery.h"
#include "internal.h"

typedef struct needs {
    int n;
    int8_t ingredient[PD_MAX_ORDER_SIZE]; /* -1: any of the group */
    int8_t group[PD_MAX_ORDER_SIZE];      /* PD_MEAT, PD_VEGETABLE or PD_ANY_INGREDIENT (either) */
} needs;

static const pd_order_kind *kind_of(const pd_state *st, int slot)
{
    return &st->rules->data.cards.order[st->order[slot].kind];
}

static void push_need(needs *nd, int ingredient, int group)
{
    if (nd->n < PD_MAX_ORDER_SIZE) {
        nd->ingredient[nd->n] = (int8_t)ingredient;
        nd->group[nd->n++] = (int8_t)group;
    }
}

/* Every ingredient an order needs (PD-D4). */
static void order_needs(const pd_state *st, int slot, needs *nd)
{
    const pd_order *o = &st->order[slot];
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

/* Does a card of this ingredient supply this need? */
static bool supplies(const pd_state *st, int ingredient, int need_ingredient, int need_group)
{
    int g = pd_group_of(st, ingredient);
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

/* ---- bipartite matching of needs to cards (a few dozen at most) ---- */

#define MAX_UNITS 96
typedef struct matcher {
    const pd_state *st;
    const needs *nd;
    int nunits;
    int8_t unit[MAX_UNITS];          /* ingredient of each card */
    int8_t need_of[MAX_UNITS];       /* need a unit supplies, -1 */
    int8_t unit_of[PD_MAX_ORDER_SIZE];
    bool seen[MAX_UNITS];
} matcher;

static bool augment(matcher *m, int need)
{
    for (int u = 0; u < m->nunits; u++) {
        if (m->seen[u] || !supplies(m->st, m->unit[u], m->nd->ingredient[need], m->nd->group[need]))
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

/* The most needs the units can supply; unit_of[] tells which. */
static int match(matcher *m)
{
    int k = 0;
    memset(m->need_of, -1, sizeof m->need_of);
    memset(m->unit_of, -1, sizeof m->unit_of);
    for (int i = 0; i < m->nd->n; i++) {
        memset(m->seen, 0, sizeof m->seen);
        k += augment(m, i);
    }
    return k;
}

static void add_unit(matcher *m, int ingredient)
{
    if (m->nunits < MAX_UNITS)
        m->unit[m->nunits++] = (int8_t)ingredient;
}

/* The free cards in hand as units, less `minus` (a type, or -1). */
static void hand_units(matcher *m, const pd_state *st, int seat, int minus)
{
    for (int c = 0; c < PD_TYPES; c++) {
        int n = pd_free_cards(st, seat, (pd_card)c) - (c == minus);
        int g = n > 0 ? pd_group_of(st, PD_CARD_INGREDIENT(c)) : -1;
        if (g < 0 || g == PD_CHEESE)
            continue;
        for (int k = 0; k < n; k++)
            add_unit(m, PD_CARD_INGREDIENT(c));
    }
}

static int free_market_cards(const pd_state *st, int seat)
{
    int n = 0;
    for (int c = 0; c < PD_TYPES; c++)
        n += pd_free_cards(st, seat, (pd_card)c);
    return n;
}

/* ---- the delivery as announced ---- */

static int top_power(const pd_state *st, int seat, int village)
{
    const pd_pizzeria *z = &st->player[seat].pizzeria[village];
    if (z->ncards == 0)
        return PD_TOP_NONE;
    return st->rules->top_power[PD_CARD_INGREDIENT(z->card[z->ncards - 1])];
}

int pd_order_village(const pd_state *st, int slot)
{
    const pd_order *o = &st->order[slot];
    if (o->kind < 0 || kind_of(st, slot)->specialty || o->ncards == 0)
        return -1;
    return PD_CARD_VILLAGE(o->card[o->ncards - 1]);
}

/* The needs a pizzeria's own ingredients leave to the hand, in order. */
static void needs_left(const pd_state *st, int seat, int slot, int village, needs *left)
{
    needs all;
    order_needs(st, slot, &all);
    matcher m = {.st = st, .nd = &all};
    const pd_pizzeria *z = &st->player[seat].pizzeria[village];
    for (int i = 0; i < z->ncards; i++)
        if (pd_group_of(st, PD_CARD_INGREDIENT(z->card[i])) != PD_CHEESE)
            add_unit(&m, PD_CARD_INGREDIENT(z->card[i]));
    int farmed = pd_farmed_ingredient(st, seat); /* Farmer Brown: at every pizzeria */
    if (farmed >= 0)
        add_unit(&m, farmed);
    match(&m);
    memset(left, 0, sizeof *left); /* all of it: it is copied into the state */
    for (int i = 0; i < all.n; i++)
        if (m.unit_of[i] < 0)
            push_need(left, all.ingredient[i], all.group[i]);
}

static bool all_of_group(const needs *nd, int group)
{
    for (int i = 0; i < nd->n; i++)
        if (nd->group[i] != group)
            return false;
    return nd->n > 0;
}

/* The route, the free range, the distance cards and the pay of a delivery,
 * whatever the hand holds; -1 when there is no such delivery. */
static int route_and_pay(const pd_state *st, int seat, int slot, int village, unsigned modes, pd_quote *q)
{
    const pd_map *map = &st->rules->data.map;
    memset(q, 0, sizeof *q);
    if (slot < 0 || slot >= PD_ORDER_SLOTS || village < 0 || village >= map->nvillages)
        return -1;
    const pd_order *o = &st->order[slot];
    const pd_pizzeria *z = &st->player[seat].pizzeria[village];
    if (o->kind < 0 || z->lot < 0 || z->ncards == 0 || !pd_modes_ok(st, seat, modes))
        return -1;
    const pd_order_kind *k = kind_of(st, slot);
    if (!k->specialty && o->ncards < k->market_cards)
        return -1;
    int door = map->lot[z->lot].door;
    /* PD-T4: a regular order goes to its village's zone, a specialty one to any */
    int to = pd_order_village(st, slot);
    q->length = -1;
    for (int v = 0; v < map->nvillages; v++) {
        if (to >= 0 && v != to)
            continue;
        int len = pd_route_length(map, door, map->village[v].zone, modes);
        if (len >= 0 && (q->length < 0 || len < q->length)) {
            q->length = len;
            q->zone = map->village[v].zone;
        }
    }
    if (q->length < 0)
        return -1;
    /* a ride, a boat or the Park Path only where it shortens the route (the
     * two subway colours count as one, for the Fast Pass) */
    static const unsigned parts[] = {PD_ROUTE_PARK, PD_ROUTE_BOAT, PD_ROUTE_RED | PD_ROUTE_BLUE};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if ((modes & parts[i]) && pd_route_length(map, door, q->zone, modes & ~parts[i]) <= q->length)
            return -1;
    int power = top_power(st, seat, village);
    q->free_range = z->disks + (power == PD_TOP_EXTRA_SPACE);
    q->distance_cards = pd_distance_cards(st, seat, q->length, q->free_range, modes);
    needs all;
    order_needs(st, slot, &all);
    q->park_used = (modes & PD_ROUTE_PARK) != 0;
    q->extras = k->specialty ? k->extra_cards : 0;
    q->pay = k->pay + (power == PD_TOP_EXTRA_DOLLAR) + 2 * (power == PD_TOP_VEGETARIAN && all_of_group(&all, PD_VEGETABLE)) +
             2 * (power == PD_TOP_MEAT && all_of_group(&all, PD_MEAT)) +
             pd_power_bonus(st, seat, village, map->space[q->zone].village, q->park_used);
    return 0;
}

/* The seat's free hand, as a delivery's quote needs it (built once for
 * every delivery a list considers). */
typedef struct hand_now {
    matcher units;
    int market, total;
} hand_now;

static void hand_now_of(const pd_state *st, int seat, hand_now *h)
{
    memset(h, 0, sizeof *h);
    h->units.st = st;
    hand_units(&h->units, st, seat, -1);
    h->market = free_market_cards(st, seat);
    h->total = pd_free_total(st, seat);
}

/* Can the hand supply what the pizzeria does not, and pay the rest? */
static int hand_check(const pd_state *st, int seat, int slot, int village, pd_quote *q, const hand_now *h)
{
    needs left;
    needs_left(st, seat, slot, village, &left);
    matcher m = h->units;
    m.nd = &left;
    int shorts = top_power(st, seat, village) == PD_TOP_SHORT;
    if (match(&m) < left.n - shorts)
        return -1;
    q->hand_ingredients = left.n - shorts > 0 ? left.n - shorts : 0;
    if (h->market < q->hand_ingredients + q->extras || h->total < q->hand_ingredients + q->extras + q->distance_cards)
        return -1;
    return 0;
}

int pd_delivery_reward(const pd_state *st, int seat, int slot, int village, unsigned modes)
{
    pd_quote q;
    return route_and_pay(st, seat, slot, village, modes, &q) == 0 ? q.pay : 0;
}

int pd_delivery_quote(const pd_state *st, int seat, int slot, int village, unsigned modes, pd_quote *q)
{
    if (route_and_pay(st, seat, slot, village, modes, q) != 0)
        return -1;
    hand_now h;
    hand_now_of(st, seat, &h);
    return hand_check(st, seat, slot, village, q, &h);
}

int pd_list_deliveries(const pd_state *st, pb_action *out, int n)
{
    const pd_map *map = &st->rules->data.map;
    unsigned allowed = pd_allowed_modes(st, st->seat);
    const pd_player *p = &st->player[st->seat];
    hand_now h;
    bool have_hand = false;
    for (int v = 0; v < map->nvillages; v++) {
        if (p->pizzeria[v].lot < 0)
            continue;
        for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
            for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++) {
                pd_quote q;
                if ((modes & ~allowed) || route_and_pay(st, st->seat, slot, v, modes, &q) != 0)
                    continue;
                if (!have_hand) {
                    hand_now_of(st, st->seat, &h);
                    have_hand = true;
                }
                if (hand_check(st, st->seat, slot, v, &q, &h) == 0)
                    n = pd_add_action(out, n, PD_ACTION(PD_A_DELIVER, slot | v << 4 | modes << 8));
            }
    }
    return n;
}

/* ---- the decisions after "deliver" ---- */

/* Can the rest be supplied and paid if the next need takes `card` (or is
 * left out, card -1 and `shorting`)? */
static bool can_finish(const pd_state *st, int card, bool shorting)
{
    const pd_pending *pe = &st->pending;
    needs rest = {0};
    for (int i = 1; i < pe->nneeds; i++)
        push_need(&rest, pe->need_ingredient[i], pe->need_group[i]);
    matcher m = {.st = st, .nd = &rest};
    hand_units(&m, st, st->seat, card);
    int shorts = top_power(st, st->seat, pe->village) == PD_TOP_SHORT && !pe->shorted && !shorting;
    if (match(&m) < rest.n - shorts)
        return false;
    int ingredients = rest.n - shorts > 0 ? rest.n - shorts : 0;
    int used = card >= 0;
    return free_market_cards(st, st->seat) - used >= ingredients + pe->extras &&
           pd_free_total(st, st->seat) - used >= ingredients + pe->extras + pe->due;
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
    if (st->phase == PD_PH_DISTANCE)
        return pd_list_payments(st, out, n, pe->due, false, -1);
    if (pe->nneeds > 0) {
        for (int c = 0; c < PD_TYPES; c++)
            if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE &&
                supplies(st, PD_CARD_INGREDIENT(c), pe->need_ingredient[0], pe->need_group[0]) &&
                can_finish(st, c, false))
                n = pd_add_action(out, n, PD_ACTION(PD_A_USE, c));
        if (top_power(st, s, pe->village) == PD_TOP_SHORT && !pe->shorted && can_finish(st, -1, true))
            n = pd_add_action(out, n, PD_ACTION(PD_A_SHORT, 0));
        return n;
    }
    if (pe->extras > 0) {
        /* a specialty order's further cards: any market cards, in type order,
         * while enough market cards of later types remain for the rest */
        int cap[PD_KEYS + 1];
        pd_capacities(st, s, false, -1, cap);
        int powers = cap[1 + PD_TYPES];
        for (int c = 0; c < PD_TYPES; c++) {
            pb_action a = PD_ACTION(PD_A_USE, c);
            if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_pay_key(a) >= pe->last_key &&
                cap[pd_pay_key(a)] - powers >= pe->extras && pd_free_total(st, s) - 1 >= pe->extras - 1 + pe->due)
                n = pd_add_action(out, n, a);
        }
        return n;
    }
    /* Sausage: one more card of an ingredient the order needs, or not */
    for (int c = 0; c < PD_TYPES; c++)
        if (pd_free_cards(st, s, (pd_card)c) > 0 && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE &&
            needed_by_order(st, PD_CARD_INGREDIENT(c)) && pd_free_total(st, s) - 1 >= pe->due)
            n = pd_add_action(out, n, PD_ACTION(PD_A_EXTRA, c));
    return pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
}

/* PD-T4: the reward and the clean-up. */
static void complete(pd_state *st)
{
    pd_pending *pe = &st->pending;
    int s = st->seat;
    pd_player *p = &st->player[s];
    pd_order *o = &st->order[pe->slot];
    int power = top_power(st, s, pe->village);
    pd_quote q;
    route_and_pay(st, s, pe->slot, pe->village, pe->modes, &q);
    int zone_village = st->rules->data.map.space[q.zone].village;
    p->money = (int16_t)(p->money + q.pay + pe->doubled);
    pd_delivery_powers(st, s, zone_village, pe->modes, q.park_used);
    p->deliveries++;
    st->delivered = true;
    if (pd_has(st, s, PD_PC_FRUGAL)) /* Frugal Shopper is discarded when its holder delivers */
        pd_leave_tableau(st, s, st->rules->pc[PD_PC_FRUGAL]);
    /* the tip: Onions give NO TIP; Ham takes any order's token */
    int tip = PD_NO_TIP;
    bool no_tip_token = false;
    if (pe->shorted || pd_tip_blocked(st, s, zone_village)) {
        if (pe->shorted && st->no_tips > 0) {
            st->no_tips--;
            no_tip_token = true;
        }
        if (o->tip != PD_NO_TIP) {
            /* the order's own token goes back among the face-down ones */
            int at = (int)pb_rng_below(&st->rng, st->ntip_pool + 1u);
            st->tip_pool[st->ntip_pool++] = st->tip_pool[at];
            st->tip_pool[at] = o->tip;
        }
    } else if (pe->tip_slot >= 0 && pe->tip_slot != pe->slot) {
        tip = st->order[pe->tip_slot].tip;
        st->order[pe->tip_slot].tip = o->tip;
    } else {
        tip = o->tip;
    }
    o->tip = PD_NO_TIP;
    if (tip != PD_NO_TIP || no_tip_token)
        p->tip[p->ntips++] = (uint8_t)tip;
    if (st->npower_deck > 0)
        p->powers |= 1ull << st->power_deck[--st->npower_deck];
    for (int c = 0; c < PD_TYPES; c++)
        for (; pe->paid_cards[c]; pe->paid_cards[c]--) {
            pd_hand_remove(st, s, (pd_card)c);
            st->sewer[c]++;
        }
    p->powers &= ~pe->paid_powers;
    st->power_discard |= pe->paid_powers;
    /* the order's cards go to the open market, the order card is discarded */
    for (int i = 0; i < o->ncards; i++) {
        st->open[o->card[i]]++;
        st->open_size++;
    }
    st->order_discard[st->norder_discard++] = o->kind;
    pd_make_order(st, pe->slot);
    pd_refill_open(st);
    int takes = (power == PD_TOP_MARKET_PICK) + pd_bonus_takes(st, s, zone_village);
    if (takes) {
        memset(pe, 0, sizeof *pe);
        st->phase = PD_PH_BONUS;
        st->steps_left = (uint8_t)takes;
    } else {
        pd_action_done(st);
    }
}

/* After the ingredients: the distance, Ham's tip, the reward. */
static void next_stage(pd_state *st)
{
    pd_pending *pe = &st->pending;
    if (pe->nneeds > 0 || pe->extras > 0)
        return;
    if (st->phase == PD_PH_SUPPLY && !pe->double_decided && top_power(st, st->seat, pe->village) == PD_TOP_DOUBLE)
        return; /* Sausage: its choice comes first */
    if (pe->due > 0) {
        if (st->phase != PD_PH_DISTANCE)
            pe->last_key = 0;
        st->phase = PD_PH_DISTANCE;
        return;
    }
    pd_quote q;
    route_and_pay(st, st->seat, pe->slot, pe->village, pe->modes, &q);
    if (pe->tip_slot < 0 && !pe->shorted && top_power(st, st->seat, pe->village) == PD_TOP_CHOOSE_TIP &&
        !pd_tip_blocked(st, st->seat, st->rules->data.map.space[q.zone].village)) {
        for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
            if (st->order[slot].tip != PD_NO_TIP) {
                st->phase = PD_PH_TIP;
                return;
            }
    }
    complete(st);
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
    case PD_A_DELIVER: {
        pd_quote q;
        int slot = arg & 0xF, village = arg >> 4 & 0xF;
        unsigned modes = arg >> 8 & 0xF;
        pd_delivery_quote(st, st->seat, slot, village, modes, &q);
        needs left;
        needs_left(st, st->seat, slot, village, &left);
        memset(pe, 0, sizeof *pe);
        pe->kind = PD_A_DELIVER;
        pe->slot = (uint8_t)slot;
        pe->village = (uint8_t)village;
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
        pe->paid_cards[arg]++;
        if (pe->nneeds > 0) {
            pop_need(pe);
        } else {
            pe->extras--;
            pe->last_key = (uint16_t)(1 + arg);
        }
        break;
    case PD_A_SHORT:
        pe->shorted = true;
        pop_need(pe);
        break;
    case PD_A_EXTRA:
        pe->paid_cards[arg]++;
        pe->doubled = pe->double_decided = true;
        break;
    case PD_A_DONE: /* Sausage declined */
        pe->double_decided = true;
        break;
    case PD_A_TIP:
        pe->tip_slot = (int8_t)arg;
        complete(st);
        return;
    default: /* a payment, already counted */
        break;
    }
    next_stage(st);
}
