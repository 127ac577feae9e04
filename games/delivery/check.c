/* check.c -- New York Pizza Delivery: what must hold in every state (for
 * tests and fuzzing): every card, power card and tip token in exactly one
 * place, counts consistent, money never below zero, every disk somewhere. */
#include <string.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

static int check_market_cards(const pd_state *st, char *err, size_t errlen)
{
    const pd_cards *cards = &st->rules->data.cards;
    int count[PD_TYPES] = {0};
    int inspectors = st->inspectors, open = 0;
    for (int i = 0; i < st->ndeck; i++) {
        if (st->deck[i] == PD_CARD_INSPECTOR)
            inspectors++;
        else if (st->deck[i] < PD_TYPES)
            count[st->deck[i]]++;
        else
            return pb_errorf(err, errlen, "deck position %d holds card %d", i, st->deck[i]);
    }
    for (int c = 0; c < PD_TYPES; c++) {
        count[c] += st->open[c] + st->sewer[c];
        open += st->open[c];
    }
    if (st->known_top > st->ndeck)
        return pb_errorf(err, errlen, "%d known cards on a deck of %d", st->known_top, st->ndeck);
    for (int i = st->ndeck - st->known_top; i < st->ndeck; i++)
        if (st->deck[i] == PD_CARD_INSPECTOR)
            return pb_errorf(err, errlen, "a Health Inspector among the known top cards");
    if (open != st->open_size)
        return pb_errorf(err, errlen, "open market size %d, but %d cards in it", st->open_size, open);
    for (int i = 0; i < PD_ORDER_SLOTS; i++)
        for (int k = 0; k < st->order[i].ncards; k++)
            count[st->order[i].card[k]]++;
    for (int i = 0; i < st->ncold; i++) /* the copied order of Harlem Rotary is no cards */
        count[st->cold[i]]++;
    if (st->shortage != PD_NO_CARD)
        count[st->shortage]++;
    for (int s = 0; s < st->players; s++) {
        const pd_player *p = &st->player[s];
        int n = 0;
        for (int c = 0; c < PD_TYPES; c++) {
            count[c] += p->hand[c];
            n += p->hand[c];
            if (s == st->seat && st->pending.paid_cards[c] > p->hand[c])
                return pb_errorf(err, errlen, "more cards of type %d set aside than seat %d holds", c, s);
        }
        if (n != p->hand_size)
            return pb_errorf(err, errlen, "seat %d: hand size %d, but %d cards in hand", s, p->hand_size, n);
        for (int v = 0; v < PD_MAX_VILLAGES; v++)
            for (int k = 0; k < p->pizzeria[v].ncards; k++)
                count[p->pizzeria[v].card[k]]++;
        if (st->farmed[s] != PD_NO_CARD)
            count[st->farmed[s]]++;
    }
    if (inspectors != cards->inspectors)
        return pb_errorf(err, errlen, "%d Health Inspectors accounted for, not %d", inspectors, cards->inspectors);
    const pd_market *m = &cards->market[PD_SET_BASE], *any = &cards->market[PD_SET_ANY],
                    *cheese = &cards->market[PD_SET_CHEESE];
    for (int c = 0; c < PD_TYPES; c++) {
        int want = m->copies[PD_CARD_VILLAGE(c)][PD_CARD_INGREDIENT(c)] +
                   (st->rules->expansion ? any->copies[PD_CARD_VILLAGE(c)][PD_CARD_INGREDIENT(c)] : 0) +
                   (st->rules->extra_cheese ? cheese->copies[PD_CARD_VILLAGE(c)][PD_CARD_INGREDIENT(c)] : 0);
        if (count[c] != want)
            return pb_errorf(err, errlen, "card type %d: %d copies accounted for, not %d", c, count[c], want);
    }
    return 0;
}

static int check_powers(const pd_state *st, char *err, size_t errlen)
{
    uint64_t seen = st->power_discard;
    int n = __builtin_popcountll(seen);
    if (st->global >= 0) {
        seen |= 1ull << st->global;
        n++;
    }
    for (int i = 0; i < st->npower_deck; i++) {
        seen |= 1ull << st->power_deck[i];
        n++;
    }
    for (int s = 0; s < st->players; s++) {
        uint64_t mine[3] = {st->player[s].powers, st->tableau[s], st->kept_choice[s]};
        for (int k = 0; k < 3; k++) {
            seen |= mine[k];
            n += __builtin_popcountll(mine[k]);
        }
    }
    bool dealt = st->phase != PD_PH_KEEP; /* the expansion's join the deck after PD-S3 */
    const pd_cards *cards = &st->rules->data.cards;
    int basic = 0;
    for (int p = 0; p < cards->npowers; p++)
        basic += pd_power_in_game(st, p) && (cards->power[p].box == PD_BASIC || (pd_expansion_powers(st->rules) && dealt));
    if (seen & ~((1ull << cards->npowers) - 1))
        return pb_errorf(err, errlen, "a power card index beyond the %d there are", cards->npowers);
    for (int p = 0; p < cards->npowers; p++)
        if ((seen >> p & 1) && !pd_power_in_game(st, p))
            return pb_errorf(err, errlen, "%s is in a co-op game", cards->power[p].name);
    if (n != basic || __builtin_popcountll(seen) != basic)
        return pb_errorf(err, errlen, "%d power cards in %d places, not %d once each", __builtin_popcountll(seen), n,
                         basic);
    return 0;
}

static int check_tips(const pd_state *st, char *err, size_t errlen)
{
    int where[256];
    memset(where, 0, sizeof where);
    for (int i = 0; i < st->ntip_pool; i++)
        where[st->tip_pool[i]]++;
    for (int i = 0; i < PD_ORDER_SLOTS; i++)
        if (st->order[i].tip != PD_NO_TIP)
            where[st->order[i].tip]++;
    int no_tips = st->no_tips;
    for (int s = 0; s < st->players; s++)
        for (int i = 0; i < st->player[s].ntips; i++) {
            if (st->player[s].tip[i] == PD_NO_TIP)
                no_tips++;
            else
                where[st->player[s].tip[i]]++;
        }
    for (int t = 0; t < st->ntips; t++)
        if (where[t] != 1)
            return pb_errorf(err, errlen, "tip token %d is in %d places", t, where[t]);
    const pd_tips *tips = st->rules->data.cards.tips;
    if (no_tips != tips[PD_BASIC].no_tip + (st->rules->expansion ? tips[PD_EXPANSION].no_tip : 0))
        return pb_errorf(err, errlen, "%d NO TIP tokens accounted for", no_tips);
    return 0;
}

/* PD-P2: an Any Ingredient card is the only card of its pizzeria, an Any
 * Meat card its only permanent meat, an Any Vegetable card its only
 * permanent vegetable; -1 when not. */
static int check_any_cards(const pd_state *st, const pd_pizzeria *z)
{
    int count[PD_GROUPS] = {0};
    for (int i = 0; i < z->ncards; i++)
        count[pd_group_of(st, PD_CARD_INGREDIENT(z->card[i]))]++;
    if (count[PD_ANY_INGREDIENT] && z->ncards > 1)
        return -1;
    if (count[PD_ANY_MEAT] && count[PD_ANY_MEAT] + count[PD_MEAT] > 1)
        return -1;
    if (count[PD_ANY_VEGETABLE] && count[PD_ANY_VEGETABLE] + count[PD_VEGETABLE] > 1)
        return -1;
    return 0;
}

static int check_players(const pd_state *st, char *err, size_t errlen)
{
    const pd_map *map = &st->rules->data.map;
    for (int s = 0; s < st->players; s++) {
        const pd_player *p = &st->player[s];
        if (p->money < 0 || (st->rules->coop && p->money != 0))
            return pb_errorf(err, errlen, "seat %d has $%d%s", s, p->money, st->rules->coop ? " of its own in co-op" : "");
        int disks = p->disks + (st->spot[s] >= 0);
        for (int v = 0; v < PD_MAX_VILLAGES; v++) {
            const pd_pizzeria *z = &p->pizzeria[v];
            if (z->lot < 0)
                continue;
            disks += z->disks;
            if (z->lot >= map->nlots || map->lot[z->lot].village != v || st->lot_owner[z->lot] != s)
                return pb_errorf(err, errlen, "seat %d: the pizzeria in village %d is on a wrong lot", s, v);
            /* over the limit only while the upgrade's player removes what is over */
            bool trimming = st->phase == PD_PH_TRIM && s == st->seat && v == st->pending.village;
            if (z->disks + z->ncards > pd_reputation_limit(st, s, v) && !trimming)
                return pb_errorf(err, errlen, "seat %d: reputation %d in village %d", s, z->disks + z->ncards, v);
            if (check_any_cards(st, z) != 0)
                return pb_errorf(err, errlen, "seat %d: village %d has an Any card with a card it replaces", s, v);
            if (z->ncards && pd_is_park_card(st, z->card[z->ncards - 1]))
                return pb_errorf(err, errlen, "seat %d: a Central Park card on top in village %d", s, v);
        }
        if (disks != PD_DISKS)
            return pb_errorf(err, errlen, "seat %d: %d disks accounted for", s, disks);
    }
    for (int l = 0; l < map->nlots; l++) {
        int o = st->lot_owner[l];
        if (o >= 0 && (o >= st->players || st->player[o].pizzeria[map->lot[l].village].lot != l))
            return pb_errorf(err, errlen, "lot %d's owner %d has no pizzeria on it", l, o);
    }
    return 0;
}

/* Every order whole: an empty slot holds nothing; a regular order has its
 * cards, none only while Power Outage has them (or the market deck ran
 * out); Orders 1-4 are never empty in the competitive game. */
static int check_orders(const pd_state *st, char *err, size_t errlen)
{
    const pd_cards *cards = &st->rules->data.cards;
    for (int i = 0; i < PD_ORDER_SLOTS; i++) {
        const pd_order *o = &st->order[i];
        if (o->kind < 0) {
            if (o->ncards || o->tip != PD_NO_TIP)
                return pb_errorf(err, errlen, "empty order slot %d holds cards or a tip", i + 1);
            if (!st->rules->coop && i < PD_BOARD_SLOTS)
                return pb_errorf(err, errlen, "order %d is empty", i + 1);
            continue;
        }
        if (o->kind >= cards->norder_kinds || o->ncards > cards->order[o->kind].market_cards)
            return pb_errorf(err, errlen, "order %d: kind %d with %d cards", i + 1, o->kind, o->ncards);
        if (o->ncards == 0 && !cards->order[o->kind].specialty && !pd_order_dark(st, i) && st->ndeck > 0)
            return pb_errorf(err, errlen, "order %d has no cards without a Power Outage", i + 1);
    }
    return 0;
}

/* A delivery being made comes from a pizzeria there is: the mover's own, or
 * with Copy Cat another seat's (never for a Harlem Rotary copy). */
static int check_pending(const pd_state *st, char *err, size_t errlen)
{
    const pd_pending *pe = &st->pending;
    if (st->phase == PD_PH_TRIM) {
        const pd_pizzeria *z = &st->player[st->seat].pizzeria[pe->village % PD_MAX_VILLAGES];
        int over = z->disks + z->ncards - pd_limit_of(st, z);
        if (pe->kind != PD_A_UPGRADE || z->lot < 0 || over <= 0 || over != pe->due)
            return pb_errorf(err, errlen, "removing %d over the limit from village %d, %d over", pe->due, pe->village,
                             over);
    }
    if ((st->phase == PD_PH_TIP || st->phase == PD_PH_ARRANGE) && pe->kind != PD_A_DELIVER)
        return pb_errorf(err, errlen, "Ham's tip chosen with no delivery being made");
    /* Ham: the token kept lies on an order, and so do the others to go back */
    if (st->phase == PD_PH_ARRANGE) {
        int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
        if (pe->tip_slot < 0 || pe->tip_slot >= PD_ORDER_SLOTS || st->order[pe->tip_slot].tip == PD_NO_TIP)
            return pb_errorf(err, errlen, "Ham keeps the token of order %d, which has none", pe->tip_slot + 1);
        int k = pd_ham_places(st, from, to);
        for (int i = 0; i < k; i++)
            if ((from[i] != PD_HAM_NONE && st->order[from[i]].tip == PD_NO_TIP) || to[i] < 0 || to[i] >= PD_ORDER_SLOTS)
                return pb_errorf(err, errlen, "Ham puts back a token from order %d onto order %d", from[i] + 1, to[i] + 1);
    }
    if (pe->kind != PD_A_DELIVER)
        return 0;
    if (pe->owner >= st->players || pe->village >= PD_MAX_VILLAGES || st->player[pe->owner].pizzeria[pe->village].lot < 0)
        return pb_errorf(err, errlen, "a delivery from seat %d's pizzeria in village %d, which is not there", pe->owner,
                         pe->village);
    if (pe->owner != st->seat && (pe->slot == PD_COPY_SLOT || !pd_has(st, st->seat, PD_PC_COPY_CAT)))
        return pb_errorf(err, errlen, "seat %d delivers from seat %d's pizzeria without Copy Cat", st->seat, pe->owner);
    if (pe->nneeds > PD_MAX_SUPPLY)
        return pb_errorf(err, errlen, "%d needs pending", pe->nneeds);
    return 0;
}

/* Co-op: the team's money, the orders packed towards Order 4, 14 order
 * cards in all (the box unseen; pushed out ones gone). */
static int check_coop(const pd_state *st, char *err, size_t errlen)
{
    if (!st->rules->coop)
        return 0;
    if (st->team_money < 0)
        return pb_errorf(err, errlen, "the team has $%d", st->team_money);
    int on_board = 0;
    for (int i = 0; i < PD_ORDER_SLOTS; i++) {
        on_board += st->order[i].kind >= 0;
        if (i > 0 && i < PD_BOARD_SLOTS && st->order[i - 1].kind >= 0 && st->order[i].kind < 0)
            return pb_errorf(err, errlen, "order %d has an empty slot after it", i);
    }
    const pd_cards *cards = &st->rules->data.cards;
    int all = 0, total = on_board + st->norder_deck + st->norder_discard + st->orders_out;
    for (int k = 0; k < cards->norder_kinds; k++)
        all += cards->order[k].copies;
    int in_play = all < PD_COOP_ORDERS ? all : PD_COOP_ORDERS;
    if (total != in_play || total + st->norder_box != all)
        return pb_errorf(err, errlen, "%d order cards in play and %d in the box, not %d of %d", total, st->norder_box,
                         in_play, all);
    /* Insane or Easier: a new token's back-side pizza is being timed */
    if ((st->phase == PD_PH_PROMO) != (st->promo_choice != 0) && st->phase != PD_PH_FINE && st->phase != PD_PH_OVER)
        return pb_errorf(err, errlen, "a back-side promotion pizza waits for its time outside its phase");
    if (st->promo_choice && (st->promo_choice > PD_FRIDAY || !st->promo[st->promo_choice - 1]))
        return pb_errorf(err, errlen, "a back-side pizza timed for a day without a token");
    if (st->promo_asleep & ~(1u << st->day))
        return pb_errorf(err, errlen, "a promotion asleep on a day the pawn is not on");
    if (st->day >= PD_DAYS || st->promo[PD_FRIDAY] != PD_PROMO(PD_PROMO_EVENING, PD_PROMO_FRIDAY))
        return pb_errorf(err, errlen, "the week tracker is broken (day %d)", st->day);
    return 0;
}

int pd_check_invariants(const pd_state *st, char *err, size_t errlen)
{
    if (check_coop(st, err, errlen))
        return -1;
    if (check_orders(st, err, errlen) || check_market_cards(st, err, errlen) || check_powers(st, err, errlen) ||
        check_tips(st, err, errlen) || check_players(st, err, errlen) || check_pending(st, err, errlen))
        return -1;
    if (st->phase != PD_PH_OVER && pd_legal_actions(st, NULL) == 0)
        return pb_errorf(err, errlen, "no legal move in phase %d", st->phase);
    return 0;
}
