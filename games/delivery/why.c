/* why.c -- New York Pizza Delivery: why a move is not legal now, in the
 * words a player uses (every refusal names its reason, issue 19). The move
 * is one a text named (notation.c reads a refused text the way it reads an
 * accepted one); the reason is the first rule it breaks, checked in the
 * order a player would: the phase, then what the move names, then what it
 * would cost. */
#include <stdio.h>
#include <string.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

static const pd_data *data_of(const pd_state *st)
{
    return &st->rules->data;
}

static void card_text(const pd_state *st, pd_card c, char *buf, size_t n)
{
    const pd_data *d = data_of(st);
    if (PD_CARD_VILLAGE(c) < d->map.nvillages && PD_CARD_INGREDIENT(c) < d->cards.ningredients)
        snprintf(buf, n, "%s/%s", d->map.village[PD_CARD_VILLAGE(c)].code, d->cards.ingredient[PD_CARD_INGREDIENT(c)].name);
    else
        snprintf(buf, n, "that card");
}

static const char *power_name(const pd_state *st, int i)
{
    return i >= 0 && i < data_of(st)->cards.npowers ? data_of(st)->cards.power[i].name : "that power card";
}

static const char *village_name(const pd_state *st, int v)
{
    return v >= 0 && v < data_of(st)->map.nvillages ? data_of(st)->map.village[v].name : "that village";
}

void pd_asked_now(const pd_state *st, char *buf, size_t n)
{
    const pd_pending *pe = &st->pending;
    int s = pd_current_seat(st);
    switch (st->phase) {
    case PD_PH_KEEP: {
        uint64_t m = s >= 0 ? st->kept_choice[s] : 0;
        int a = m ? __builtin_ctzll(m) : -1;
        m &= m - 1;
        int b = m ? __builtin_ctzll(m) : -1;
        if (a >= 0 && b >= 0)
            snprintf(buf, n, "keep a power card: power:%s or power:%s", data_of(st)->cards.power[a].id,
                     data_of(st)->cards.power[b].id);
        else
            snprintf(buf, n, "keep a power card");
        return;
    }
    case PD_PH_START:
        snprintf(buf, n, "choose your action: market, reputation or deliver (a power card may come first)");
        return;
    case PD_PH_MARKET:
    case PD_PH_BONUS:
        snprintf(buf, n, "take a market card (take CARD or take deck)");
        return;
    case PD_PH_REPUTATION:
        snprintf(buf, n, "build or upgrade%s", st->steps_left < 2 ? " (or done)" : "");
        return;
    case PD_PH_PAY:
        snprintf(buf, n, "pay for the property: $%d still due (pay $1, pay CARD or pay power:ID)", pe->due);
        return;
    case PD_PH_SUPPLY:
        if (pe->nneeds)
            snprintf(buf, n, "supply the ingredients (use CARD)");
        else if (pe->extras)
            snprintf(buf, n, "give the order's %d further card%s (use CARD or use power:ID)", pe->extras,
                     pe->extras > 1 ? "s" : "");
        else
            snprintf(buf, n, "add a card to the pizza or not (done)");
        return;
    case PD_PH_DISTANCE:
        snprintf(buf, n, "pay for the distance: %d card%s still due (pay CARD or pay power:ID)", pe->due,
                 pe->due > 1 ? "s" : "");
        return;
    case PD_PH_TIP:
        snprintf(buf, n, "choose the tip token to keep (tip N)");
        return;
    case PD_PH_ARRANGE:
        snprintf(buf, n, "put the other tip tokens back (arrange ...)");
        return;
    case PD_PH_AFTER:
        snprintf(buf, n, "play a power card or end your turn (end)");
        return;
    case PD_PH_DISCARD:
        snprintf(buf, n, "discard down to the hand limit of %d (discard CARD)", s >= 0 ? pd_hand_limit(st, s) : 0);
        return;
    case PD_PH_FINE:
        snprintf(buf, n, "pay a Health Inspector's fine: fine $%d, or fine CARD CARD", data_of(st)->cards.fine);
        return;
    case PD_PH_BLOCK:
        snprintf(buf, n, "reserve a lot for Building Commissioner (block LOT)");
        return;
    case PD_PH_FARM:
        snprintf(buf, n, "choose a sewer card for Farmer Brown (farm CARD)");
        return;
    case PD_PH_COPY:
        snprintf(buf, n, "copy the delivery to Harlem (copy from VILLAGE) or not (done)");
        return;
    case PD_PH_ORDERS:
        snprintf(buf, n, "change the orders (hack, screw or reorder) or not (done)");
        return;
    case PD_PH_SPOT:
        snprintf(buf, n, "choose the delivery zone for That's My Spot's disk (spot VILLAGE)");
        return;
    case PD_PH_CHARITY:
        snprintf(buf, n, "give two market cards for Charity Event (give CARD CARD)");
        return;
    case PD_PH_CRASH:
        snprintf(buf, n, "lose a reputation level for Stock Market Crash (lose VILLAGE disk, or lose VILLAGE N)");
        return;
    case PD_PH_SOARS:
        snprintf(buf, n, "take a market card for Stock Market Soars (take CARD or take deck)");
        return;
    case PD_PH_TRANSFER:
        snprintf(buf, n, "pass cards to your neighbours (pass CARD left|right) or end");
        return;
    case PD_PH_INSTANT:
        snprintf(buf, n, "answer the delivery with an Instant card (instant power:ID) or not (done)");
        return;
    case PD_PH_TAX:
        snprintf(buf, n, "pay Property Tax: $%d still due (pay $1, pay CARD or pay power:ID)", pe->due);
        return;
    case PD_PH_TRIM:
        snprintf(buf, n, pd_edition_3(st) ? "remove what is over the pizzeria's reputation limit, a card below the top "
                                            "(remove VILLAGE CARD)"
                                          : "remove what is over the pizzeria's reputation limit (remove VILLAGE disk, "
                                            "or remove VILLAGE CARD)");
        return;
    case PD_PH_PROMO:
        snprintf(buf, n, "choose when the new promotion's back-side pizza comes (morning or evening)");
        return;
    default:
        snprintf(buf, n, "nothing: the game is over");
    }
}

/* Not now: what the player is asked instead. */
static int wrong_phase(const pd_state *st, char *err, size_t errlen)
{
    char asked[PB_ERR_LEN];
    pd_asked_now(st, asked, sizeof asked);
    return pb_errorf(err, errlen, "not now: you are asked to %s", asked);
}

static bool phase_in(const pd_state *st, int a, int b, int c)
{
    return st->phase == a || st->phase == b || st->phase == c;
}

/* A market card the seat does not have free (set aside already, or none). */
static int no_card(const pd_state *st, int s, pd_card c, const char *what, char *err, size_t errlen)
{
    char name[PD_CARD_NAME_LEN];
    card_text(st, c, name, sizeof name);
    if (st->player[s].hand[c] > 0)
        return pb_errorf(err, errlen, "your %s card%s already set aside for this %s", name,
                         st->player[s].hand[c] > 1 ? "s are all" : " is", what);
    return pb_errorf(err, errlen, "you have no %s card in hand", name);
}

static int build_why(const pd_state *st, uint32_t arg, char *err, size_t errlen)
{
    const pd_map *m = &data_of(st)->map;
    int lot = (int)(arg & 0xFF), s = st->seat;
    pd_card c = (pd_card)(arg >> 8);
    char name[PD_CARD_NAME_LEN];
    card_text(st, c, name, sizeof name);
    if (lot >= m->nlots)
        return pb_errorf(err, errlen, "there is no such lot");
    int v = m->lot[lot].village;
    if (st->lot_owner[lot] >= 0)
        return pb_errorf(err, errlen, "%s is taken: %s pizzeria is on it", m->lot[lot].id,
                         st->lot_owner[lot] == s ? "your" : "another player's");
    if (st->blocker[lot] >= 0 && st->blocker[lot] != s)
        return pb_errorf(err, errlen, "%s is reserved by another player's Building Commissioner", m->lot[lot].id);
    if (!st->player[s].hand[c])
        return pb_errorf(err, errlen, "you have no %s card in hand", name);
    if (PD_CARD_VILLAGE(c) != v)
        return pb_errorf(err, errlen, "a pizzeria in %s is built with a %s card; %s is not one", village_name(st, v),
                         village_name(st, v), name);
    if (st->player[s].pizzeria[v].lot >= 0)
        return pb_errorf(err, errlen, "you already have a pizzeria in %s (one a village)", village_name(st, v));
    if (st->player[s].disks == 0)
        return pb_errorf(err, errlen, "you have no level disk left to build with");
    if (st->windfall)
        return pb_errorf(err, errlen, "Windfall is in play: no building this turn");
    if (st->tycoon == 2 && m->lot[lot].cost > st->tycoon_cost)
        return pb_errorf(err, errlen, "Real-Estate Tycoon's free build costs at most $%d; %s costs $%d", st->tycoon_cost,
                         m->lot[lot].id, m->lot[lot].cost);
    int cost = pd_lot_cost(st, lot), money = pd_money(st, s), cards = pd_hand_total(st, s) - 1;
    if (money + cards < cost)
        return pb_errorf(err, errlen, "not enough money: you have $%d and %d other card%s ($1 each), it costs $%d", money,
                         cards, cards == 1 ? "" : "s", cost);
    return pb_errorf(err, errlen, "that build cannot be made now");
}

static int upgrade_why(const pd_state *st, uint32_t arg, char *err, size_t errlen)
{
    int v = (int)(arg & 0xF), s = st->seat, how = (int)(arg >> 16 & 0xF);
    pd_card c = (pd_card)(arg >> 8 & 0xFF);
    char name[PD_CARD_NAME_LEN];
    card_text(st, c, name, sizeof name);
    if (st->player[s].pizzeria[v].lot < 0)
        return pb_errorf(err, errlen, "you have no pizzeria in %s to upgrade", village_name(st, v));
    if (!st->player[s].hand[c])
        return pb_errorf(err, errlen, "you have no %s card in hand", name);
    if (PD_CARD_VILLAGE(c) != v && !pd_is_park_card(st, c))
        return pb_errorf(err, errlen, "a pizzeria in %s is upgraded with a %s or Central Park card; %s is not one",
                         village_name(st, v), village_name(st, v), name);
    if (st->tycoon)
        return pb_errorf(err, errlen, "Real-Estate Tycoon builds; it does not upgrade");
    if (how == PD_UP_DISK && st->player[s].disks == 0)
        return pb_errorf(err, errlen, "you have no level disk left");
    if (how == PD_UP_TOP && pd_is_park_card(st, c))
        return pb_errorf(err, errlen, "a Central Park card never goes on top");
    return pb_errorf(err, errlen, "that upgrade changes nothing or cannot be made: the pizzeria is at its reputation "
                                  "limit of %d, or has no room for another card",
                     pd_reputation_limit(st, s, v));
}

static int power_why(const pd_state *st, int kind, uint32_t arg, char *err, size_t errlen)
{
    int s = pd_current_seat(st), i = (int)(arg & 63);
    const pd_power *p = &data_of(st)->cards.power[i % PD_MAX_POWERS];
    if (s < 0 || !(st->player[s].powers >> i & 1)) {
        for (int t = 0; t < st->players; t++)
            if (st->tableau[t] >> i & 1)
                return pb_errorf(err, errlen, "%s is in %s tableau, not in your hand", p->name, t == s ? "your" : "a");
        return pb_errorf(err, errlen, "you do not hold %s", p->name);
    }
    if (kind == PD_A_INSTANT || kind == PD_A_POWER) {
        if (p->instant && kind == PD_A_POWER && i != st->rules->pc[PD_PC_PROPERTY_TAX])
            return pb_errorf(err, errlen, "%s is an Instant card: it is played after another player's delivery", p->name);
        if (kind == PD_A_INSTANT && !p->instant)
            return pb_errorf(err, errlen, "%s is not an Instant card: play it on your turn (play power:%s)", p->name, p->id);
        if (kind == PD_A_INSTANT && st->phase != PD_PH_INSTANT)
            return pb_errorf(err, errlen, "Instant cards answer another player's delivery once it is complete");
        if (st->phase != PD_PH_START && st->phase != PD_PH_AFTER && kind == PD_A_POWER)
            return wrong_phase(st, err, errlen);
        if (kind == PD_A_POWER && st->power_played)
            return pb_errorf(err, errlen, "you have played a power card this turn already (one a turn)");
        const int8_t *pc = st->rules->pc;
        if (kind == PD_A_POWER && st->phase == PD_PH_AFTER &&
            (i == pc[PD_PC_WINDFALL] || i == pc[PD_PC_SPECIAL_SALE] || (i == pc[PD_PC_OVER_ACHIEVER] && pd_edition_3(st))))
            return pb_errorf(err, errlen, "%s is played before your action: it changes the action to come", p->name);
        if (kind == PD_A_POWER && !(st->rules->playable >> i & 1))
            return pb_errorf(err, errlen, "%s is not played: it works while it is in hand (`rules %s`)", p->name, p->id);
        int target = (int)(arg >> 8) - 1;
        if (target >= 0 && (target == s || target >= st->players))
            return pb_errorf(err, errlen, "%s is played on an opponent: on 1 to %d, not you", p->name, st->players);
        if (i == st->rules->pc[PD_PC_PROPERTY_TAX] && target < 0)
            return pb_errorf(err, errlen, "%s is played on an opponent: add \"on N\"", p->name);
        if (i == st->rules->pc[PD_PC_PROPERTY_TAX] && pd_property_tax(st, target) == 0)
            return pb_errorf(err, errlen, "player %d would pay no Property Tax", target + 1);
        return pb_errorf(err, errlen, "%s cannot be played now (`rules %s` says when)", p->name, p->id);
    }
    if (st->pending.paid_powers >> i & 1)
        return pb_errorf(err, errlen, "%s is already set aside for this payment", p->name);
    return wrong_phase(st, err, errlen);
}

/* Over the limit: why that disk or card may not go. */
static int trim_why(const pd_state *st, uint32_t arg, char *err, size_t errlen)
{
    const pd_pizzeria *z = &st->player[st->seat].pizzeria[st->pending.village];
    if ((arg & 0xF) != st->pending.village)
        return pb_errorf(err, errlen, "the pizzeria over its limit is the one just upgraded");
    if (arg >> 4 == 0)
        return pb_errorf(err, errlen, z->disks <= 1 ? "the last disk stays: remove a card below the top"
                                                    : "a card below the top goes (\"remove a card\"): a disk only "
                                                      "when no card is below it");
    for (int i = 0; i + 1 < z->ncards; i++)
        if (z->card[i] == (pd_card)((arg >> 4) - 1))
            return pb_errorf(err, errlen, "that card cannot go now");
    return pb_errorf(err, errlen, z->ncards && z->card[z->ncards - 1] == (pd_card)((arg >> 4) - 1)
                                      ? "the top card stays: it was chosen with the upgrade"
                                      : "that card is not in the pizzeria");
}

/* Frugal Shopper's take refused after the action: why. */
static int frugal_why(const pd_state *st, char *err, size_t errlen)
{
    if (st->delivered)
        return pb_errorf(err, errlen, "Frugal Shopper takes a card only on a turn without a delivery");
    if (st->frugal_taken)
        return pb_errorf(err, errlen, "Frugal Shopper takes one card a turn, and you have taken it");
    if (st->power_played && !st->frugal_played)
        return pb_errorf(err, errlen, "Frugal Shopper is not used on a turn another power card is played, nor on the "
                                      "turn it is played after the action (it works from your next turn)");
    return pb_errorf(err, errlen, "Frugal Shopper is not used on a turn another power card is used (a Bait and Switch "
                                  "swap, a Cold Storage refill)");
}

static const char frugal_alone[] = "no other power card is used on the turn you use Frugal Shopper";

static int swap_why(const pd_state *st, uint32_t arg, char *err, size_t errlen)
{
    int s = st->seat, slot = (int)(arg & 0xF);
    pd_card c = (pd_card)(arg >> 8);
    char name[PD_CARD_NAME_LEN], top[PD_CARD_NAME_LEN];
    if (!pd_has(st, s, PD_PC_BAIT_AND_SWITCH))
        return pb_errorf(err, errlen, "swap takes Bait and Switch in your tableau");
    if (st->swapped)
        return pb_errorf(err, errlen, "Bait and Switch swaps once a turn, and you have swapped this turn");
    if (st->frugal_taken)
        return pb_errorf(err, errlen, "%s", frugal_alone);
    if (st->phase != PD_PH_START && st->phase != PD_PH_AFTER)
        return wrong_phase(st, err, errlen);
    const pd_order *o = &st->order[slot % PD_ORDER_SLOTS];
    if (o->kind < 0 || o->ncards == 0)
        return pb_errorf(err, errlen, "order %d has no card to swap", slot + 1);
    card_text(st, c, name, sizeof name);
    card_text(st, o->card[o->ncards - 1], top, sizeof top);
    if (!st->player[s].hand[c])
        return pb_errorf(err, errlen, "you have no %s card in hand", name);
    return pb_errorf(err, errlen, "wrong swap: order %d's top card is %s; it swaps only for another village's %s card",
                     slot + 1, top, data_of(st)->cards.ingredient[PD_CARD_INGREDIENT(o->card[o->ncards - 1])].name);
}

/* A card for an ingredient of the delivery being made. */
static int use_why(const pd_state *st, uint32_t arg, char *err, size_t errlen)
{
    const pd_pending *pe = &st->pending;
    int s = st->seat;
    if (arg & PD_POWER_FLAG)
        return pe->nneeds ? pb_errorf(err, errlen, "an ingredient comes from a market card, not a power card")
                          : power_why(st, PD_A_USE, arg & 63, err, errlen);
    pd_card c = (pd_card)arg;
    if (pd_free_cards(st, s, c) <= 0)
        return no_card(st, s, c, "delivery", err, errlen);
    if (!pe->nneeds)
        return wrong_phase(st, err, errlen);
    char name[PD_CARD_NAME_LEN], list[PB_ERR_LEN] = "";
    card_text(st, c, name, sizeof name);
    size_t used = 0;
    const pd_cards *cards = &data_of(st)->cards;
    for (int i = 0; i < pe->nneeds && used < sizeof list; i++) {
        int ing = pe->need_ingredient[i], g = pe->need_group[i];
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 ing >= 0 ? cards->ingredient[ing].name
                                 : g == PD_MEAT ? "a meat" : g == PD_VEGETABLE ? "a vegetable" : "any ingredient");
    }
    return pb_errorf(err, errlen, "%s does not fit: the order still needs %s from your hand (and enough cards left for "
                                  "the rest)", name, list);
}

int pd_why_illegal(const pd_state *st, pb_action a, char *err, size_t errlen)
{
    int kind = PD_KIND(a), s = pd_current_seat(st);
    uint32_t arg = PD_ARG(a);
    char name[PB_ERR_LEN];
    if (st->phase == PD_PH_OVER || s < 0)
        return pb_errorf(err, errlen, "the game is over");
    switch (kind) {
    case PD_A_CHEESE:
        return pd_cheese_why(st, err, errlen);
    case PD_A_SUPPLIES_MONEY:
    case PD_A_SUPPLIES_CARDS:
        if (!st->supplies_due[s])
            return pb_errorf(err, errlen, "you owe nothing for Out of Supplies");
        if (st->phase != PD_PH_START)
            return pb_errorf(err, errlen, "Out of Supplies is paid at the start of your turn, before the action");
        if (kind == PD_A_SUPPLIES_MONEY)
            return pb_errorf(err, errlen, "not enough money: you have $%d, it costs $%d", pd_money(st, s),
                             PD_SUPPLIES_COST);
        return pb_errorf(err, errlen, "you do not hold those two cards");
    case PD_A_INSTANT:
        if (st->phase != PD_PH_INSTANT)
            return pb_errorf(err, errlen, "Instant cards answer another player's delivery once it is complete");
        return power_why(st, kind, arg, err, errlen);
    case PD_A_PROMO:
        if (st->phase != PD_PH_PROMO)
            return pb_errorf(err, errlen, "morning and evening time a back-side promotion token's pizza (Insane or "
                                          "Easier co-op), as it is placed");
        return pb_errorf(err, errlen, "the back-side pizza comes in the morning or the evening");
    case PD_A_KEEP:
        if (st->phase != PD_PH_KEEP)
            return wrong_phase(st, err, errlen);
        pd_asked_now(st, name, sizeof name);
        return pb_errorf(err, errlen, "%s is not one of the two power cards you were dealt: %s",
                         power_name(st, (int)(arg & 63)), name);
    default:
        break;
    }
    /* the phase each kind belongs to */
    bool phase_ok = true;
    switch (kind) {
    case PD_A_MARKET:
    case PD_A_REPUTATION:
    case PD_A_DELIVER:
        phase_ok = st->phase == PD_PH_START;
        break;
    case PD_A_TAKE_OPEN:
    case PD_A_TAKE_DECK:
        phase_ok = phase_in(st, PD_PH_MARKET, PD_PH_BONUS, PD_PH_SOARS) || (st->phase == PD_PH_AFTER && pd_frugal_take(st));
        break;
    case PD_A_BUILD:
    case PD_A_UPGRADE:
        phase_ok = st->phase == PD_PH_REPUTATION;
        break;
    case PD_A_PAY_MONEY:
    case PD_A_PAY_CARD:
    case PD_A_PAY_POWER:
        phase_ok = phase_in(st, PD_PH_PAY, PD_PH_DISTANCE, PD_PH_TAX);
        break;
    case PD_A_USE:
    case PD_A_SHORT:
    case PD_A_EXTRA:
    case PD_A_USE_STORED:
        phase_ok = st->phase == PD_PH_SUPPLY;
        break;
    case PD_A_DISCARD:
    case PD_A_DISCARD_POWER:
        phase_ok = st->phase == PD_PH_DISCARD;
        break;
    case PD_A_FINE_MONEY:
    case PD_A_FINE_CARDS:
        phase_ok = st->phase == PD_PH_FINE;
        break;
    case PD_A_TIP:
        phase_ok = st->phase == PD_PH_TIP;
        break;
    case PD_A_END:
        if (st->phase == PD_PH_START)
            return pb_errorf(err, errlen, "choose your action first: market, reputation or deliver");
        phase_ok = st->phase == PD_PH_AFTER || st->phase == PD_PH_TRANSFER;
        break;
    case PD_A_POWER:
        return power_why(st, kind, arg, err, errlen);
    case PD_A_SWAP:
        return swap_why(st, arg, err, errlen);
    case PD_A_REFILL:
        if (st->frugal_taken)
            return pb_errorf(err, errlen, "%s", frugal_alone);
        break;
    default:
        break;
    }
    if (!phase_ok && (kind == PD_A_TAKE_OPEN || kind == PD_A_TAKE_DECK) && st->phase == PD_PH_AFTER &&
        pd_has(st, s, PD_PC_FRUGAL))
        return frugal_why(st, err, errlen);
    if (!phase_ok)
        return wrong_phase(st, err, errlen);
    if ((kind == PD_A_MARKET || kind == PD_A_DELIVER) && st->phase == PD_PH_START && !st->action &&
        pd_first_round(st))
        return pb_errorf(err, errlen, "the co-op game's first round: everyone's action is a build (reputation), "
                                      "the property free; the market and deliveries come from the next turn");
    switch (kind) {
    case PD_A_MARKET:
        return pb_errorf(err, errlen, st->windfall ? "Windfall is in play: no market this turn"
                                                   : "not the same action twice in a turn");
    case PD_A_REPUTATION:
        return pb_errorf(err, errlen, st->banned == PD_A_REPUTATION
                                          ? "not Increase Your Reputation this turn (Real-Estate Tycoon, or Oooops! "
                                            "after it)"
                                          : "you have nothing to build or upgrade with: a pizzeria takes a card of its "
                                            "village and the lot's price, an upgrade a card of the pizzeria's village");
    case PD_A_DELIVER:
        return pd_delivery_why(st, a, err, errlen);
    case PD_A_TAKE_OPEN:
        card_text(st, (pd_card)arg, name, sizeof name);
        return pb_errorf(err, errlen, "there is no %s card in the open market", name);
    case PD_A_TAKE_DECK:
        return pb_errorf(err, errlen, "the market deck is empty");
    case PD_A_BUILD:
        return build_why(st, arg, err, errlen);
    case PD_A_UPGRADE:
        return upgrade_why(st, arg, err, errlen);
    case PD_A_PAY_MONEY:
        if (st->phase == PD_PH_DISTANCE)
            return pb_errorf(err, errlen, "the distance is paid with cards, not money");
        return pb_errorf(err, errlen, "not enough money: you have $%d left to pay with",
                         pd_money(st, s) - st->pending.paid_money);
    case PD_A_PAY_CARD:
        if (st->phase == PD_PH_PAY && arg == st->pending.card && st->player[s].hand[arg] == 1)
            return pb_errorf(err, errlen, "that card is the one the pizzeria is built with");
        return no_card(st, s, (pd_card)arg, "payment", err, errlen);
    case PD_A_PAY_POWER:
    case PD_A_DISCARD_POWER:
        return power_why(st, kind, arg, err, errlen);
    case PD_A_USE:
        return use_why(st, arg, err, errlen);
    case PD_A_DISCARD:
        return no_card(st, s, (pd_card)arg, "discard", err, errlen);
    case PD_A_SHORT:
        return pb_errorf(err, errlen, "short is the power of an Onions card on top of the pizzeria, once a delivery, and "
                                      "only while the rest can still be supplied");
    case PD_A_EXTRA:
        return pb_errorf(err, errlen, "extra is the power of a Sausage card on top of the pizzeria: one more card of an "
                                      "ingredient the order needs");
    case PD_A_TIP:
        return pb_errorf(err, errlen, "order %u has no tip token", arg + 1);
    case PD_A_FINE_MONEY:
        return pb_errorf(err, errlen, "not enough money: you have $%d, it costs $%d", pd_money(st, s),
                         data_of(st)->cards.fine);
    case PD_A_REMOVE:
        return st->phase == PD_PH_TRIM ? trim_why(st, arg, err, errlen) : wrong_phase(st, err, errlen);
    default:
        return wrong_phase(st, err, errlen);
    }
}
