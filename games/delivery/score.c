/* score.c -- New York Pizza Delivery: the final score report (PD-E1) and the
 * bots' estimate of a position. */
#include <math.h>
#include <stdio.h>

#include "delivery.h"
#include "internal.h"

json_t *pd_score_json(const pd_state *st, const char *const *names)
{
    json_t *players = json_array(), *winners = json_array();
    double r[PD_PLAYERS];
    pd_returns(st, r);
    for (int s = 0; s < st->players; s++) {
        char fallback[16];
        snprintf(fallback, sizeof fallback, "Seat %d", s + 1);
        int disks, cards = pd_tableau_cards(st, s, &disks);
        json_array_append_new(
            players, json_pack("{s:i,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "seat", s, "name",
                               names && names[s] ? names[s] : fallback, "money", st->player[s].money, "tableau",
                               cards,
                               "disks", disks, "tips",
                               pd_tip_money(st, s), "score", pd_score(st, s), "deliveries",
                               st->player[s].deliveries, "tip_tokens", st->player[s].ntips));
        if (r[s] > 0)
            json_array_append_new(winners, json_integer(s));
    }
    json_t *j = json_pack("{s:s,s:o,s:o}", "game", "delivery", "players", players, "winners", winners);
    if (st->rules->coop) { /* PD-C1: the team's result, in the rulebook's record code */
        const pd_rules *ru = st->rules;
        char code[96];
        pd_coop_code(st, code, sizeof code);
        json_t *team = json_pack("{s:b,s:i,s:i,s:i,s:i,s:i,s:s}", "won", st->coop_result == PD_COOP_WON, "money",
                                 st->team_money, "money_goal", ru->goal_money, "pizzas", pd_team_deliveries(st),
                                 "pizzas_goal", ru->goal_pizzas, "turns", st->turn, "code", code);
        if (st->top_chef_roll)
            json_object_set_new(team, "top_chef", pd_top_chef_json(st, names));
        json_object_set_new(j, "coop", team);
    }
    return j;
}

/* The mean value of a face-down tip token (the viewer's own are known). */
static double mean_tip(const pd_state *st)
{
    int sum = 0;
    for (int t = 0; t < st->ntips; t++)
        sum += st->tip_value[t];
    const pd_tips *tips = st->rules->data.cards.tips;
    int tokens = st->ntips + tips[PD_BASIC].no_tip + (st->rules->expansion ? tips[PD_EXPANSION].no_tip : 0);
    return tokens ? (double)sum / tokens : 0;
}

/* How well a pizzeria reaches the delivery zones: each zone within its free
 * range counts 1, one or two spaces further 0.6 or 0.3 (a card or two). The
 * Park Path counts while it is open (to everyone, while anyone owns it): it
 * is one space across the park. */
static double reach_from(const pd_map *m, int lot, int disks, unsigned park)
{
    double r = 0;
    for (int v = 0; v < m->nvillages; v++) {
        int over = pd_route_length(m, m->lot[lot].door, m->village[v].zone, park) - disks;
        r += over <= 0 ? 1.0 : over == 1 ? 0.6 : over == 2 ? 0.3 : 0.0;
    }
    return r;
}

void pd_rules_reach(pd_rules *r)
{
    for (int open = 0; open < 2; open++)
        for (int l = 0; l < r->data.map.nlots; l++)
            for (int d = 0; d <= PD_DISKS; d++)
                r->reach[open][l][d] = reach_from(&r->data.map, l, d, open ? PD_ROUTE_PARK : 0);
}

/* park: pd_park_open(st), asked once by the callers */
static double reach(const pd_state *st, const pd_pizzeria *z, unsigned park)
{
    if (z->disks <= PD_DISKS)
        return st->rules->reach[park != 0][z->lot][z->disks];
    return reach_from(&st->rules->data.map, z->lot, z->disks, park);
}

/* Turns each seat may still have: the deck runs until the last Health
 * Inspector, somewhere in what is left of its bottom third; a turn draws
 * about one and a half market cards. */
static double turns_left(const pd_state *st)
{
    int left = PD_INSPECTORS_TO_END - st->inspectors;
    if (left <= 0)
        return 0;
    double draws = st->ndeck - (double)st->timer / (left + 1);
    return draws > 0 ? draws / (1.5 * st->players) : 0;
}

/* What a seat's pizzerias may still earn a turn: about a quarter of a
 * dollar for every zone they reach, at most two dollars; `extra` is a
 * pizzeria being built (NULL: none). */
static double earning_rate(const pd_state *st, int seat, const pd_pizzeria *extra)
{
    const pd_player *p = &st->player[seat];
    unsigned park = pd_park_open(st);
    double rate = extra ? 0.25 * reach(st, extra, park) + 0.1 * extra->ncards : 0;
    for (int vil = 0; vil < PD_MAX_VILLAGES; vil++)
        if (p->pizzeria[vil].lot >= 0)
            rate += 0.25 * reach(st, &p->pizzeria[vil], park) + 0.1 * p->pizzeria[vil].ncards;
    return rate < 2.0 ? rate : 2.0;
}

#define CARD_WORTH 0.4 /* a card in hand: a dollar of payment, an ingredient, a space */

static double build_worth(const pd_state *st, int s, int lot_index, pd_card card, double turns)
{
    const pd_lot *lot = &st->rules->data.map.lot[lot_index];
    pd_pizzeria z = {.lot = (int8_t)lot_index, .disks = 1, .ncards = 1, .card = {card}};
    /* money and cards; free in co-op's first round and Real-Estate Tycoon's second build */
    bool free = pd_first_round(st) || (s == st->seat && st->tycoon == 2 && lot->cost <= st->tycoon_cost);
    int price = free ? 0 : lot->cost;
    double cost = 0.8 * price;
    return 2 - CARD_WORTH + (earning_rate(st, s, &z) - earning_rate(st, s, NULL)) * turns - cost;
}

/* The best single build or upgrade the seat could make now. */
static double best_step(const pd_state *st, int s, double turns)
{
    const pd_map *m = &st->rules->data.map;
    const pd_player *p = &st->player[s];
    unsigned park = pd_park_open(st);
    double best = 0;
    for (int c = 0; c < PD_TYPES; c++) {
        if (!p->hand[c])
            continue;
        int v = PD_CARD_VILLAGE(c);
        if (v == m->park || p->pizzeria[v].lot < 0) {
            for (int k = 0; v != m->park && k < m->village[v].nlots; k++) {
                int l = m->village[v].lot[k];
                if (st->lot_owner[l] < 0 && pd_money(st, s) + pd_hand_total(st, s) > pd_lot_cost(st, l)) {
                    double w = build_worth(st, s, l, (pd_card)c, turns);
                    best = w > best ? w : best;
                }
            }
            if (v != m->park)
                continue;
        }
        /* an upgrade: the card to a disk, or to the pizzeria (replacing
         * what an Any card replaces, PD-P2); what a replaced Any Ingredient
         * card leaves over the limit goes, a card while there are two, then
         * disks. A pizzeria at its limit only trades (a card for a disk, one
         * top for another): counted as nothing here, or greedy spends its
         * actions on trades */
        for (int u = 0; u < m->nvillages; u++) {
            const pd_pizzeria *z = &p->pizzeria[u];
            if (z->lot < 0 || (u != v && v != m->park) || z->disks + z->ncards >= pd_reputation_limit(st, s, u))
                continue;
            for (int how = PD_UP_DISK; how <= PD_UP_ADD; how++) {
                pd_pizzeria up = *z;
                if ((how == PD_UP_DISK && p->disks == 0) || !pd_upgraded(st, &up, (pd_card)c, how, 0, NULL))
                    continue;
                while (up.disks + up.ncards > pd_limit_of(st, &up)) {
                    if (up.ncards > 1)
                        up.ncards--;
                    else
                        up.disks--;
                }
                double w = up.disks + up.ncards - z->disks - z->ncards - CARD_WORTH +
                           (0.25 * (reach(st, &up, park) - reach(st, z, park)) + 0.1 * (up.ncards - z->ncards)) * turns;
                best = w > best ? w : best;
            }
        }
    }
    return best;
}

/* A build or delivery being made counts as made (its decisions only say how
 * it is paid), and takes still to come as taken, so choosing one shows; the
 * token Ham keeps at its value, when the viewer has seen it. */
static double pending_worth(const pd_state *st, int viewer, double tip, double turns)
{
    const pd_pending *pe = &st->pending;
    int s = st->seat;
    if (pe->kind == PD_A_DELIVER && pe->tip_slot >= 0 && tip > 0) {
        int kept = st->order[pe->tip_slot].tip;
        if (kept != PD_NO_TIP && viewer >= 0 && viewer < st->players && (st->tip_seen[kept] >> viewer & 1))
            tip = st->tip_value[kept];
    }
    if (st->phase == PD_PH_MARKET || st->phase == PD_PH_BONUS)
        return CARD_WORTH * st->steps_left;
    if (st->phase == PD_PH_REPUTATION)
        return best_step(st, s, turns) * st->steps_left;
    if (st->phase == PD_PH_TRIM) /* what is over the limit goes: a point each, and a card what it earns */
        return best_step(st, s, turns) * st->steps_left - pe->due * (1 + 0.1 * turns);
    if (pe->kind == PD_A_BUILD)
        return build_worth(st, s, pe->lot, pe->card, turns);
    if (pe->kind == PD_A_DELIVER) {
        int spent = pe->nneeds + pe->extras + pe->due;
        for (int c = 0; c < PD_TYPES; c++)
            spent += pe->paid_cards[c];
        spent += __builtin_popcountll(pe->paid_powers);
        /* the reward counts Extra Cheese once it is on (a card added: part of the pay) */
        return pd_delivery_reward(st, s, pe->owner, pe->slot, pe->village, pe->to, pe->modes) +
               (pd_corrected(st) ? 0 : pe->doubled) +
               (pe->shorted || pd_cheese_left_out(st) ? 0 : tip) + 0.5 - CARD_WORTH * spent;
    }
    return 0;
}

/* How likely a seat is to deliver to a village soon: 1 within a
 * pizzeria's free range, 0.6 or 0.3 a space or two beyond, else 0. */
static double closeness(const pd_state *st, int seat, int village)
{
    const pd_map *m = &st->rules->data.map;
    double best = 0;
    for (int v = 0; v < PD_MAX_VILLAGES; v++) {
        const pd_pizzeria *z = &st->player[seat].pizzeria[v];
        if (z->lot < 0)
            continue;
        int over = pd_route_length(m, m->lot[z->lot].door, m->village[village].zone, PD_ROUTE_STREETS) - z->disks;
        double c = over <= 0 ? 1.0 : over == 1 ? 0.6 : over == 2 ? 0.3 : 0.0;
        best = c > best ? c : best;
    }
    return best;
}

/* Tip tokens the viewer has seen on the orders (Ham put them there): one
 * worth more than the mean is a chance for whoever delivers that order,
 * most likely a seat close to its village; one worth less, a loss. While
 * Ham's delivery is made, the token kept and the delivered order's are
 * not counted: they are about to leave their orders. */
static double known_tips(const pd_state *st, int viewer, int seat, double mean)
{
    double v = 0;
    bool routed = false;
    double near[PD_MAX_VILLAGES];
    for (int slot = 0; viewer >= 0 && viewer < st->players && slot < PD_ORDER_SLOTS; slot++) {
        int tip = st->order[slot].tip, village = pd_order_village(st, slot);
        bool delivering = st->pending.kind == PD_A_DELIVER && (st->pending.tip_slot == slot || st->pending.slot == slot);
        if (tip == PD_NO_TIP || !(st->tip_seen[tip] >> viewer & 1) || village < 0 || delivering)
            continue;
        if (!routed) { /* the routes only once a seen token asks for them */
            for (int k = 0; k < PD_MAX_VILLAGES; k++)
                near[k] = -1;
            routed = true;
        }
        if (near[village] < 0)
            near[village] = closeness(st, seat, village);
        v += 0.3 * near[village] * (st->tip_value[tip] - mean);
    }
    return v;
}

#define PIZZA_WORTH 2.5 /* a delivery's money, about: what one more pizza of the goal is worth */

/* PD-C1: the team's worth, 0 about an even chance: how what the team may
 * still earn (its pizzerias over the turns left, hands, the build or
 * delivery being made, orders waiting) compares with what the goals still
 * want (a delivery brings money and a pizza, so the larger shortfall counts
 * most), as a log ratio: a few points either way, like a lead in the
 * competitive game, so the search's squash does not flatten it. */
static double coop_worth(const pd_state *st, double turns)
{
    if (st->phase == PD_PH_OVER)
        return st->coop_result == PD_COOP_WON ? 100 : -100;
    double future = 0;
    for (int s = 0; s < st->players; s++)
        future += earning_rate(st, s, NULL) * turns + CARD_WORTH * pd_hand_total(st, s);
    future += pending_worth(st, -1, 0, turns);
    for (int i = 0; i < PD_ORDER_SLOTS; i++)
        future += st->order[i].kind >= 0 ? 0.5 : 0;
    int pizzas = st->rules->goal_pizzas - pd_team_deliveries(st), money = st->rules->goal_money - st->team_money;
    double want_pizzas = pizzas > 0 ? PIZZA_WORTH * pizzas : 0, want_money = money > 0 ? money : 0;
    double most = want_pizzas > want_money ? want_pizzas : want_money;
    double least = want_pizzas > want_money ? want_money : want_pizzas;
    double want = most + 0.3 * least;
    return 4 * log((future > 0 ? future : 0) + 1) - 4 * log(want + 1);
}

/* Points now (PD-E1) with unknown tips at their mean, plus what the
 * pizzerias may still earn, the hand, and what is being done now; in co-op
 * the team's worth for every seat. */
void pd_evaluate(const pd_state *st, int viewer, double *values)
{
    double tip = mean_tip(st), turns = turns_left(st);
    if (st->rules->coop) {
        double v = coop_worth(st, turns);
        for (int s = 0; s < st->players; s++)
            values[s] = v;
        return;
    }
    for (int s = 0; s < st->players; s++) {
        const pd_player *p = &st->player[s];
        int disks, cards = pd_tableau_cards(st, s, &disks);
        double v = p->money + cards + disks;
        v += s == viewer || st->phase == PD_PH_OVER ? pd_tip_money(st, s) : p->ntips * tip;
        if (st->phase != PD_PH_OVER) {
            double rate = earning_rate(st, s, NULL);
            v += rate * turns + CARD_WORTH * pd_hand_total(st, s);
            /* Out of Supplies: the $2 owed, and a turn's earnings that wait while it is (per
             * debt, though all may be paid at once: so each payment shows as a gain) */
            v -= (PD_SUPPLIES_COST + rate) * st->supplies_due[s];
            if (s == st->seat)
                v += pending_worth(st, viewer, tip, turns);
            if (s == st->seat && st->phase == PD_PH_TAX) /* Property Tax: as good as paid */
                v -= st->pending.due;
            v += known_tips(st, viewer, s, tip);
        }
        values[s] = v;
    }
}
