/* view.c -- New York Pizza Delivery: what one seat may see, as JSON
 * (docs/delivery-view.md). Other hands show only their size, tip tokens
 * only their number (a seat sees its own values; everyone sees all at the
 * end), the decks only their size. The map (it never changes during a
 * game) comes along so a front end can draw from the view alone. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "delivery.h"
#include "internal.h"

static const char *const phase_names[] = {"keep",  "start",   "market", "reputation", "pay",  "supply",
                                          "distance", "tip", "arrange", "bonus", "after", "discard", "fine",
                                          "block", "farm",   "copy", "orders", "spot", "charity", "crash", "soars", "transfer",
                                          "instant", "tax", "trim", "promotion", "over"};
_Static_assert(sizeof phase_names / sizeof phase_names[0] == PD_PH_OVER + 1, "a name for every phase");

static json_t *card_json(const pd_state *st, pd_card c)
{
    char name[PD_CARD_NAME_LEN];
    pd_card_name(&st->rules->data, c, name, sizeof name);
    return json_string(name);
}

/* Counts per type as [{"card": name, "count": n}], in type order. */
static json_t *counts_json(const pd_state *st, const uint8_t *count)
{
    json_t *a = json_array();
    for (int c = 0; c < PD_TYPES; c++)
        if (count[c])
            json_array_append_new(a, json_pack("{s:o,s:i}", "card", card_json(st, (pd_card)c), "count", count[c]));
    return a;
}

static json_t *powers_json(const pd_state *st, uint64_t mask)
{
    json_t *a = json_array();
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1)
            json_array_append_new(a, json_string(st->rules->data.cards.power[i].id));
    return a;
}

/* An order (the copied one: slot PD_COPY_SLOT); a tip token's value only
 * for a viewer who has looked at it (Ham). */
static json_t *order_json(const pd_state *st, int slot, int viewer)
{
    const pd_order *o = slot == PD_COPY_SLOT ? &st->copied : &st->order[slot];
    if (o->kind < 0)
        return json_null();
    const pd_order_kind *k = &st->rules->data.cards.order[o->kind];
    json_t *cards = json_array();
    for (int i = 0; i < o->ncards; i++)
        json_array_append_new(cards, card_json(st, o->card[i]));
    int v = pd_order_village(st, slot);
    json_t *j = json_pack("{s:i,s:s,s:s,s:b,s:o,s:o,s:i,s:b}", "slot", slot + 1, "id", k->id, "name", k->name,
                          "specialty", k->specialty, "cards", cards, "village",
                          v >= 0 ? json_string(st->rules->data.map.village[v].code) : json_null(), "pay", k->pay,
                          "tip", o->tip != PD_NO_TIP);
    if (o->tip != PD_NO_TIP && viewer >= 0 && viewer < st->players && (st->tip_seen[o->tip] >> viewer & 1))
        json_object_set_new(j, "tip_value", json_integer(st->tip_value[o->tip]));
    if (pd_order_wants_cheese(st, slot)) /* Extra Cheese: without it, NO TIP */
        json_object_set_new(j, "cheese", json_true());
    if (slot != PD_COPY_SLOT && pd_order_dark(st, slot)) /* Power Outage: no cards, no delivery */
        json_object_set_new(j, "outage", json_true());
    if (k->specialty) {
        json_t *needs = json_array();
        for (int l = 0; l < k->nneeds; l++)
            json_array_append_new(
                needs, json_pack("{s:s,s:i}", "ingredient",
                                 k->need[l].ingredient >= 0 ? st->rules->data.cards.ingredient[k->need[l].ingredient].name
                                                            : pd_group_name((pd_group)k->need[l].group),
                                 "count", k->need[l].count));
        json_object_set_new(j, "needs", needs);
        json_object_set_new(j, "extra_cards", json_integer(k->extra_cards));
    }
    return j;
}

static json_t *pizzerias_json(const pd_state *st, int seat)
{
    const pd_map *m = &st->rules->data.map;
    json_t *a = json_array();
    for (int v = 0; v < m->nvillages; v++) {
        const pd_pizzeria *z = &st->player[seat].pizzeria[v];
        if (z->lot < 0)
            continue;
        json_t *cards = json_array();
        for (int i = 0; i < z->ncards; i++)
            json_array_append_new(cards, card_json(st, z->card[i]));
        const char *power = "";
        if (z->ncards)
            power = st->rules->data.cards.ingredient[PD_CARD_INGREDIENT(z->card[z->ncards - 1])].power;
        json_array_append_new(a, json_pack("{s:s,s:s,s:i,s:o,s:i,s:i,s:s}", "village", m->village[v].code, "lot",
                                           m->lot[z->lot].id, "disks", z->disks, "cards", cards, "reputation",
                                           pd_reputation(st, seat, v), "limit", pd_reputation_limit(st, seat, v),
                                           "power", power));
    }
    return a;
}

static json_t *player_json(const pd_state *st, int s, int seat)
{
    const pd_player *p = &st->player[s];
    bool over = st->phase == PD_PH_OVER;
    json_t *j = json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o}", "seat", s, "money", p->money, "disks", p->disks,
                          "deliveries", p->deliveries, "hand", p->hand_size, "powers",
                          __builtin_popcountll(p->powers), "tips", p->ntips, "tableau",
                          powers_json(st, st->tableau[s]), "pizzerias", pizzerias_json(st, s));
    if (over || s == seat)
        json_object_set_new(j, "tip_money", json_integer(pd_tip_money(st, s)));
    if (over)
        json_object_set_new(j, "score", json_integer(pd_score(st, s)));
    if (st->farmed[s] != PD_NO_CARD)
        json_object_set_new(j, "farmer_brown", card_json(st, st->farmed[s]));
    if (st->pass_tokens[s])
        json_object_set_new(j, "subway_tokens", json_integer(st->pass_tokens[s]));
    if (st->supplies_due[s]) /* Out of Supplies: $2 each, before the next delivery */
        json_object_set_new(j, "supplies_due", json_integer(PD_SUPPLIES_COST * st->supplies_due[s]));
    if (st->spot[s] >= 0)
        json_object_set_new(j, "spot", json_string(st->rules->data.map.village[st->spot[s]].code));
    if (pd_has(st, s, PD_PC_COLD_STORAGE)) {
        json_t *cold = json_array();
        for (int i = 0; i < st->ncold; i++)
            json_array_append_new(cold, card_json(st, st->cold[i]));
        json_object_set_new(j, "cold_storage", cold);
    }
    json_t *blocked = json_array();
    for (int l = 0; l < st->rules->data.map.nlots; l++)
        if (st->blocker[l] == s)
            json_array_append_new(blocked, json_string(st->rules->data.map.lot[l].id));
    json_object_set_new(j, "reserved_lots", blocked);
    return j;
}

static json_t *pending_json(const pd_state *st, int viewer)
{
    const pd_pending *pe = &st->pending;
    const pd_map *m = &st->rules->data.map;
    if (pe->kind == PD_A_BUILD)
        return json_pack("{s:s,s:s,s:o,s:i,s:i,s:o,s:o}", "kind", "build", "lot", m->lot[pe->lot].id, "card",
                         card_json(st, pe->card), "due", pe->due, "money", pe->paid_money, "cards",
                         counts_json(st, pe->paid_cards), "powers", powers_json(st, pe->paid_powers));
    if (pe->kind == PD_A_UPGRADE) /* over the reputation limit: what still goes */
        return json_pack("{s:s,s:s,s:i}", "kind", "upgrade", "village", m->village[pe->village].code, "due", pe->due);
    if (pe->kind != PD_A_DELIVER)
        return json_null();
    json_t *needs = json_array();
    for (int i = 0; i < pe->nneeds; i++)
        json_array_append_new(needs, json_string(pe->need_ingredient[i] >= 0
                                                     ? st->rules->data.cards.ingredient[pe->need_ingredient[i]].name
                                                     : pd_group_name((pd_group)pe->need_group[i])));
    json_t *stored = json_array();
    for (int i = 0; i < st->ncold; i++)
        if (pe->stored_used >> i & 1)
            json_array_append_new(stored, card_json(st, st->cold[i]));
    json_t *j = json_pack("{s:s,s:o,s:s,s:o,s:i,s:i,s:o,s:o,s:b}", "kind",
                          pe->slot == PD_COPY_SLOT ? "copy" : "deliver", "slot",
                          pe->slot == PD_COPY_SLOT ? json_null() : json_integer(pe->slot + 1), "from",
                          m->village[pe->village].code, "needs", needs, "extras", pe->extras, "due", pe->due,
                          "cards", counts_json(st, pe->paid_cards), "stored", stored, "short", pe->shorted);
    json_object_set_new(j, "powers", powers_json(st, pe->paid_powers)); /* power cards paid, as the log told */
    /* whose pizzeria it comes from: another player's with Copy Cat */
    json_object_set_new(j, "owner", json_integer(pe->owner));
    json_object_set_new(j, "lot", json_string(m->lot[st->player[pe->owner].pizzeria[pe->village].lot].id));
    if (pe->tip_slot >= 0 && st->order[pe->tip_slot].tip != PD_NO_TIP && viewer == st->seat) {
        /* Ham: the token kept, which only the deliverer knows (the others see
         * that they are putting the rest back, not which) */
        int tip = st->order[pe->tip_slot].tip;
        json_t *places = json_array();
        int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
        for (int i = 0, k = pd_ham_places(st, from, to); i < k; i++)
            json_array_append_new(places, json_integer(to[i] + 1));
        json_object_set_new(j, "ham", json_pack("{s:i,s:i,s:o}", "kept_from", pe->tip_slot + 1, "value",
                                                st->tip_value[tip], "places", places));
    }
    if (st->rules->extra_cheese) {
        /* Extra Cheese: on the pizza (the pizzeria's own or a card added), and
         * whether its order asks for cheese it goes without (NO TIP) */
        json_object_set_new(j, "cheese", json_boolean(pd_cheese_on(st)));
        json_object_set_new(j, "cheese_left_out", json_boolean(pd_cheese_left_out(st)));
    }
    return j;
}

/* Each order the mover cannot deliver now from one of their pizzerias, and
 * why, in the words a refused move gets ("this delivery needs 9 spaces: 3
 * free, 6 cards, and you have 4"), for a front end's preview. */
static json_t *undeliverable_json(const pd_state *st, const pb_action *legal, int n)
{
    json_t *a = json_array();
    const pd_player *p = &st->player[st->seat];
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        for (int v = 0; st->order[slot].kind >= 0 && v < st->rules->data.map.nvillages; v++) {
            bool offered = false;
            for (int i = 0; i < n && !offered; i++)
                offered = PD_KIND(legal[i]) == PD_A_DELIVER && (PD_ARG(legal[i]) & 0xFF) == (uint32_t)(slot | v << 4);
            char why[PB_ERR_LEN];
            if (p->pizzeria[v].lot < 0 || offered ||
                pd_why_illegal(st, PD_ACTION(PD_A_DELIVER, (uint32_t)(slot | v << 4)), why, sizeof why) == 0)
                continue;
            json_array_append_new(a, json_pack("{s:i,s:s,s:s}", "slot", slot + 1, "from",
                                               st->rules->data.map.village[v].code, "why", why));
        }
    }
    return a;
}

/* What a delivery leaves to the hand, as the engine will ask for it: the
 * ingredients' names, "Any Meat" (and the like) where a card of the group
 * does; the page fills its Confirm from this rather than guessing what the
 * pizzeria supplies. */
static json_t *quote_needs_json(const pd_state *st, const pd_quote *q)
{
    json_t *a = json_array();
    for (int i = 0; i < q->nneeds; i++) {
        int ing = q->need_ingredient[i], g = q->need_group[i];
        json_array_append_new(a, json_string(ing >= 0             ? st->rules->data.cards.ingredient[ing].name
                                             : g == PD_MEAT      ? "Any Meat"
                                             : g == PD_VEGETABLE ? "Any Vegetable"
                                                                 : "Any Ingredient"));
    }
    return a;
}

/* Every delivery the seat to move could announce now (each way to go), with
 * what it costs, the move that announces it and one shortest route. */
static json_t *deliveries_json(const pd_state *st, const pb_action *legal, int n)
{
    json_t *a = json_array();
    const pd_map *m = &st->rules->data.map;
    for (int i = 0; i < n; i++) {
        if (PD_KIND(legal[i]) != PD_A_DELIVER)
            continue;
        uint32_t arg = PD_ARG(legal[i]);
        int slot = arg & 0xF, v = arg >> 4 & 0xF, to = (int)(arg >> 12 & 0xF) - 1;
        int owner = pd_deliver_owner(st, legal[i]);
        unsigned modes = arg >> 8 & 0xF;
        pd_quote q;
        char move[160];
        if (pd_delivery_quote_from(st, st->seat, owner, slot, v, to, modes, &q) != 0 ||
            pd_action_text(st, legal[i], st->seat, move, sizeof move) != 0)
            continue;
        uint8_t spaces[PD_MAX_ROUTE_ACROSS];
        int lot = st->player[owner].pizzeria[v].lot;
        int len = modes & PD_ROUTE_PARK ? pd_route_across(m, m->lot[lot].door, q.zone, modes, spaces, PD_MAX_ROUTE_ACROSS)
                                        : pd_route(m, m->lot[lot].door, q.zone, modes, spaces, PD_MAX_SPACES);
        json_t *route = json_array();
        for (int k = 0; k < len; k++)
            json_array_append_new(route, json_string(m->space[spaces[k]].id));
        const char *via = strstr(move, " via ");
        json_t *d = json_pack("{s:i,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:s,s:o}", "slot", slot + 1, "from",
                              m->village[v].code, "to", to >= 0 ? m->village[to].code : "", "move", move, "via",
                              via ? via + 5 : "", "length", q.length, "free", q.free_range, "distance_cards",
                              q.distance_cards, "ingredient_cards", q.hand_ingredients, "extra_cards", q.extras,
                              "pay", q.pay, "zone", m->space[q.zone].id, "route", route);
        /* the pizzeria's owner: another player with Copy Cat */
        json_object_update_new(d, json_pack("{s:i,s:s,s:b,s:o}", "owner", owner, "lot", m->lot[lot].id, "tip", q.tip,
                                            "needs", quote_needs_json(st, &q)));
        if (q.cheese_bonus) /* Extra Cheese: what it earns, and where it would come from */
            json_object_update_new(d, json_pack("{s:i,s:b,s:b,s:i}", "cheese_bonus", q.cheese_bonus,
                                                "cheese_in_pizzeria", q.cheese_in_pizzeria, "cheese_required",
                                                q.cheese_required, "cheese_cards", q.cheese_cards));
        json_array_append_new(a, d);
    }
    return a;
}

json_t *pd_map_json(const pd_map *m)
{
    json_t *spaces = json_array(), *roads = json_array(), *villages = json_array(), *lots = json_array();
    for (int i = 0; i < m->nspaces; i++) {
        const pd_space *sp = &m->space[i];
        unsigned sub = sp->subway & (PD_ROUTE_RED | PD_ROUTE_BLUE);
        json_t *subway = sub == (PD_ROUTE_RED | PD_ROUTE_BLUE) ? json_string("both")
                         : sub == PD_ROUTE_RED                 ? json_string("red")
                         : sub == PD_ROUTE_BLUE                ? json_string("blue")
                                                               : json_null();
        json_array_append_new(spaces, json_pack("{s:s,s:i,s:i,s:o,s:b,s:b,s:o}", "id", sp->id, "x", sp->x, "y", sp->y,
                                                "village",
                                                sp->village >= 0 ? json_string(m->village[sp->village].code)
                                                                 : json_null(),
                                                "park_path", sp->park_path, "dock", sp->dock, "subway", subway));
        for (int k = 0; k < sp->nnext; k++)
            if (sp->next[k] > i)
                json_array_append_new(roads, json_pack("[s,s]", sp->id, m->space[sp->next[k]].id));
    }
    for (int v = 0; v < m->nvillages; v++) {
        json_t *vl = json_array();
        for (int k = 0; k < m->village[v].nlots; k++)
            json_array_append_new(vl, json_string(m->lot[m->village[v].lot[k]].id));
        json_array_append_new(villages, json_pack("{s:s,s:s,s:s,s:o}", "code", m->village[v].code, "name",
                                                  m->village[v].name, "zone", m->space[m->village[v].zone].id,
                                                  "lots", vl));
    }
    for (int l = 0; l < m->nlots; l++)
        json_array_append_new(lots, json_pack("{s:s,s:s,s:i,s:s,s:i,s:i}", "id", m->lot[l].id, "village",
                                              m->village[m->lot[l].village].code, "cost", m->lot[l].cost, "door",
                                              m->space[m->lot[l].door].id, "x", m->lot[l].x, "y", m->lot[l].y));
    return json_pack("{s:s,s:o,s:o,s:o,s:o}", "name", m->name, "spaces", spaces, "roads", roads, "villages", villages,
                     "lots", lots);
}

/* The map of every view, built once per map: it never changes in a game,
 * and building it was most of a view's work. Shared (reference counted)
 * among the views of all games and threads with the same map, known by the
 * map's bytes up to its route tables (what the JSON is made of). Nothing
 * modifies a view once made. */
#define MAP_KEY offsetof(pd_map, steps)
static json_t *shared_map_json(const pd_map *m)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct {
        unsigned char key[MAP_KEY];
        json_t *json;
    } cache[4];
    static int next;
    json_t *j = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 4 && !j; i++)
        if (cache[i].json && memcmp(cache[i].key, m, MAP_KEY) == 0)
            j = json_incref(cache[i].json);
    if (!j && (j = pd_map_json(m))) {
        int i = next++ % 4;
        json_decref(cache[i].json); /* views that hold it keep their own reference */
        memcpy(cache[i].key, m, MAP_KEY);
        cache[i].json = json_incref(j);
    }
    pthread_mutex_unlock(&lock);
    return j;
}

/* Name, type and text of every power card the viewer can see (in play, in
 * their hand, dealt to keep), by id, so a front end can explain each. */
static json_t *power_cards_json(const pd_state *st, int seat)
{
    uint64_t shown = st->global >= 0 ? 1ull << st->global : 0;
    for (int s = 0; s < st->players; s++)
        shown |= st->tableau[s];
    if (seat >= 0 && seat < st->players)
        shown |= st->player[seat].powers | st->kept_choice[seat];
    json_t *o = json_object();
    for (; shown; shown &= shown - 1) {
        const pd_power *p = &st->rules->data.cards.power[__builtin_ctzll(shown)];
        json_object_set_new(o, p->id, json_pack("{s:s,s:s,s:s,s:b}", "name", p->name, "type",
                                                pd_power_type_name(p->type), "text", p->text, "instant", p->instant));
    }
    return o;
}

/* What each ingredient's card does (its delivery power, an ANY card's or
 * Extra Cheese's rule), by name, in the words `rules NAME` gives. */
static json_t *ingredient_texts_json(const pd_state *st)
{
    const pd_cards *c = &st->rules->data.cards;
    json_t *o = json_object();
    char text[PD_TEXT_LEN + 128];
    for (int i = 0; i < c->ningredients; i++)
        if (pd_explain(&st->rules->data, c->ingredient[i].name, text, sizeof text) == 0)
            json_object_set_new(o, c->ingredient[i].name, json_string(text));
    return o;
}

/* PD-C1: the team's progress, the week tracker, how the game ended. */
static json_t *coop_json(const pd_state *st)
{
    static const char *const colours[] = {"blue", "red", "friday"};
    static const char *const whens[] = {"", "morning", "evening", "morning and evening"};
    static const char *const results[] = {"playing", "won", "lost: the third Health Inspector came",
                                          "lost: no order card left for a promotion", "lost: out of time"};
    const pd_rules *r = st->rules;
    json_t *promos = json_array();
    for (int d = 0; d < PD_DAYS; d++) {
        uint8_t p = st->promo[d];
        if (!p)
            continue;
        /* Easier's token shows its back (one pizza); Insane's back-side token joins it ("extra") */
        json_t *t = json_pack("{s:s,s:s,s:s,s:b,s:i}", "day", pd_day_names[d], "colour", colours[PD_PROMO_COLOUR(p)],
                              "when", whens[PD_PROMO_WHEN(p)], "asleep", (st->promo_asleep >> d & 1) != 0, "orders",
                              p & PD_PROMO_BACK ? 1 : 2);
        if (PD_PROMO_EXTRA(p))
            json_object_set_new(t, "extra", json_string(whens[PD_PROMO_EXTRA(p)]));
        if (st->promo_choice == d + 1)
            json_object_set_new(t, "choosing", json_true());
        json_array_append_new(promos, t);
    }
    json_t *markers = json_array();
    for (int c = PD_PROMO_BLUE; c <= PD_PROMO_RED; c++)
        json_array_append_new(markers, json_pack("{s:s,s:i,s:b}", "colour", colours[c], "at", r->promo_at[c], "passed",
                                                 (st->promos_placed >> c & 1) != 0));
    json_t *j = json_pack("{s:i,s:i,s:i,s:i,s:s,s:i,s:o,s:o,s:i,s:i,s:s,s:b}", "money", st->team_money, "money_goal",
                          r->goal_money, "pizzas", pd_team_deliveries(st), "pizzas_goal", r->goal_pizzas, "day",
                          pd_day_names[st->day], "day_index", st->day, "promotions", promos, "markers", markers,
                          "orders_left", st->norder_deck + st->norder_discard, "orders_out", st->orders_out, "result",
                          results[st->coop_result], "first_round", pd_first_round(st));
    if (r->insane || r->easier || r->top_chef)
        json_object_set_new(j, "options", json_pack("{s:b,s:b,s:b}", "insane", r->insane, "easier", r->easier,
                                                    "top_chef", r->top_chef));
    if (st->top_chef_roll)
        json_object_set_new(j, "top_chef", pd_top_chef_json(st, NULL));
    int orders, k = pd_next_promotion(st, &orders);
    if (k >= 0 && st->phase != PD_PH_OVER)
        json_object_set_new(j, "next_promotion", json_pack("{s:s,s:i,s:i}", "day", pd_day_names[(st->day + k) % PD_DAYS],
                                                           "turns", k, "orders", orders));
    return j;
}

/* What Property Tax would take from each seat. */
static json_t *property_taxes(const pd_state *st)
{
    json_t *taxes = json_array();
    for (int s = 0; s < st->players; s++)
        json_array_append_new(taxes, json_integer(pd_property_tax(st, s)));
    return taxes;
}

json_t *pd_view(const pd_state *st, int seat)
{
    int mover = pd_current_seat(st);
    json_t *orders = json_array(), *players = json_array();
    int slots = PD_BOARD_SLOTS; /* and Pandemic's two while either holds an order */
    for (int i = PD_BOARD_SLOTS; i < PD_ORDER_SLOTS; i++)
        if (st->order[i].kind >= 0)
            slots = PD_ORDER_SLOTS;
    for (int i = 0; i < slots; i++)
        json_array_append_new(orders, order_json(st, i, seat));
    for (int s = 0; s < st->players; s++)
        json_array_append_new(players, player_json(st, s, seat));
    json_t *v = json_pack("{s:s,s:o,s:i,s:s,s:o,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o}", "game", "delivery",
                          "seat", seat >= 0 ? json_integer(seat) : json_null(), "player_count", st->players, "phase",
                          phase_names[st->phase], "to_move", mover >= 0 ? json_integer(mover) : json_null(), "turn",
                          st->turn, "first", st->first, "deck", st->ndeck, "inspectors", st->inspectors, "power_deck",
                          st->npower_deck, "no_tips", st->no_tips, "tips_left", st->ntip_pool, "open",
                          counts_json(st, st->open), "sewer", counts_json(st, st->sewer), "orders", orders, "players",
                          players);
    json_object_set_new(v, "round", json_integer(st->turn)); /* a turn: the front ends announce each */
    /* while Harlem Rotary's holder copies a delivery, it is still the deliverer's turn; while
     * the target of a Property Tax played on a player's own turn pays, still that player's */
    bool timed_tax = st->phase == PD_PH_TAX && !pd_in_instants(st);
    json_object_set_new(v, "whose_turn", json_integer(st->copied.kind >= 0 ? st->copy_turn_seat
                                                      : pd_in_instants(st) ? st->instant_deliverer
                                                      : timed_tax          ? st->instant_seat
                                                                           : st->seat));
    if (st->phase == PD_PH_TAX) /* Property Tax: what its target still pays, and whether after a delivery */
        json_object_set_new(v, "tax", json_pack("{s:i,s:b}", "due", st->pending.due, "instant", !timed_tax));
    if (pd_tax_in_game(st)) /* what Property Tax would take from each seat: all public */
        json_object_set_new(v, "property_tax", property_taxes(st));
    if (pd_in_instants(st)) /* the delivery the others may answer with Instant cards */
        json_object_set_new(v, "instant", json_pack("{s:i,s:i,s:i,s:o}", "deliverer", st->instant_deliverer, "tips",
                                                    st->delivery_tips, "tax_due",
                                                    st->phase == PD_PH_TAX ? st->pending.due : 0, "property_tax",
                                                    property_taxes(st)));
    if (st->known_top) { /* Buying Time's or Power Outage's cards on the deck: which, not their order */
        uint8_t top[PD_TYPES] = {0};
        for (int i = st->ndeck - st->known_top; i < st->ndeck; i++)
            top[st->deck[i]]++;
        json_object_set_new(v, "deck_top", counts_json(st, top));
    }
    /* Special Sale played this turn: its delivery is doubled */
    json_object_set_new(v, "special_sale", json_boolean(st->special_sale));
    json_object_set_new(v, "global", st->global >= 0 ? json_string(st->rules->data.cards.power[st->global].id)
                                                      : json_null());
    if (st->shortage != PD_NO_CARD) /* Ingredient Shortage: its card, and so the ingredient no pizza may have */
        json_object_set_new(v, "shortage", card_json(st, st->shortage));
    if (st->global >= 0 && st->global_until != PD_NEVER) /* it goes when this turn begins (whose: from PD-S6's first) */
        json_object_set_new(v, "global_until", json_pack("{s:i,s:i}", "turn", st->global_until, "seat",
                                                         (st->first + st->global_until) % st->players));
    json_object_set_new(v, "map", shared_map_json(&st->rules->data.map));
    if (st->rules->coop)
        json_object_set_new(v, "coop", coop_json(st));
    if (st->phase == PD_PH_COPY || st->copied.kind >= 0) {
        json_object_set_new(v, "copy", order_json(st, PD_COPY_SLOT, seat));
        json_object_set_new(v, "copy_turn_of", json_integer(st->copy_turn_seat));
    }
    if (seat >= 0 && seat < st->players) {
        json_object_set_new(v, "hand", counts_json(st, st->player[seat].hand));
        json_object_set_new(v, "powers", powers_json(st, st->player[seat].powers));
        if (st->phase == PD_PH_KEEP)
            json_object_set_new(v, "keep_from", powers_json(st, st->kept_choice[seat]));
        if (st->phase == PD_PH_DISCARD && seat == st->seat) /* cards (market and power) over the hand limit */
            json_object_set_new(v, "discard_due", json_integer(pd_hand_total(st, seat) - pd_hand_limit(st, seat)));
    }
    if (st->phase != PD_PH_OVER)
        json_object_set_new(v, "pending", pending_json(st, seat));
    json_object_set_new(v, "power_cards", power_cards_json(st, seat));
    json_object_set_new(v, "ingredient_texts", ingredient_texts_json(st));
    if (seat >= 0 && seat == mover) {
        static __thread pb_action legal[PB_MAX_ACTIONS];
        int n = pd_legal_actions(st, legal);
        json_t *texts = json_array();
        for (int i = 0; i < n; i++) {
            char text[160];
            if (pd_action_text(st, legal[i], seat, text, sizeof text) == 0)
                json_array_append_new(texts, json_string(text));
        }
        json_object_set_new(v, "legal", texts);
        if (st->phase == PD_PH_START) {
            json_object_set_new(v, "deliveries", deliveries_json(st, legal, n));
            json_object_set_new(v, "undeliverable", undeliverable_json(st, legal, n));
        }
    }
    if (st->phase == PD_PH_OVER) {
        double r[PD_PLAYERS];
        pd_returns(st, r);
        json_t *w = json_array();
        for (int s = 0; s < st->players; s++)
            if (r[s] > 0)
                json_array_append_new(w, json_integer(s));
        json_object_set_new(v, "winners", w);
    }
    return v;
}
