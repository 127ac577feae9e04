/* engine.c -- New York Pizza Delivery: setup, the turn, the market, builds and
 * upgrades, payments, Health Inspectors, the end and the score (delivery.h).
 * Deliveries are in deliver.c. */
#include <string.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

/* ------------------------------------------------------------ the data */

void pd_rules_init(pd_rules *r, int players, int first)
{
    static const struct {
        const char *id;
        pd_top_power power;
    } powers[] = {
        {"vegetarian-bonus", PD_TOP_VEGETARIAN}, {"double-topping", PD_TOP_DOUBLE},
        {"choose-tip", PD_TOP_CHOOSE_TIP},       {"market-pick", PD_TOP_MARKET_PICK},
        {"meat-bonus", PD_TOP_MEAT},             {"short-topping", PD_TOP_SHORT},
        {"extra-space", PD_TOP_EXTRA_SPACE},     {"extra-dollar", PD_TOP_EXTRA_DOLLAR},
    };
    r->players = players;
    r->first = first;
    r->expansion = players >= 5;
    r->expansion_powers = false;
    r->edition = PD_EDITION;
    r->coop = r->insane = r->easier = r->top_chef = false;
    r->extra_cheese = false;
    for (int i = 0; i < r->data.cards.ningredients; i++) {
        r->top_power[i] = PD_TOP_NONE;
        for (size_t k = 0; k < sizeof powers / sizeof powers[0]; k++)
            if (strcmp(r->data.cards.ingredient[i].power, powers[k].id) == 0)
                r->top_power[i] = (uint8_t)powers[k].power;
    }
    pd_rules_powers(r);
    pd_rules_reach(r);
    pd_rules_supplies(r);
}

int pd_money(const pd_state *st, int seat)
{
    return st->rules->coop ? st->team_money : st->player[seat].money;
}

int16_t *pd_purse(pd_state *st, int seat)
{
    return st->rules->coop ? &st->team_money : &st->player[seat].money;
}

int pd_lot_cost(const pd_state *st, int lot)
{
    return pd_first_round(st) || st->tycoon == 2 ? 0 : st->rules->data.map.lot[lot].cost;
}

bool pd_power_in_game(const pd_state *st, int power)
{
    return !(st->rules->coop && st->rules->data.cards.power[power].not_for_coop);
}

int pd_group_of(const pd_state *st, int ingredient)
{
    return (int)st->rules->data.cards.ingredient[ingredient].group;
}

bool pd_is_park_card(const pd_state *st, pd_card c)
{
    return PD_CARD_VILLAGE(c) == st->rules->data.map.park;
}

/* ------------------------------------------------------------- counts */

int pd_hand_total(const pd_state *st, int seat)
{
    return st->player[seat].hand_size + __builtin_popcountll(st->player[seat].powers);
}

void pd_hand_add(pd_state *st, int seat, pd_card c)
{
    st->player[seat].hand[c]++;
    st->player[seat].hand_size++;
}

void pd_hand_remove(pd_state *st, int seat, pd_card c)
{
    st->player[seat].hand[c]--;
    st->player[seat].hand_size--;
}

bool pd_has_pizzeria(const pd_state *st, int seat)
{
    for (int v = 0; v < PD_MAX_VILLAGES; v++)
        if (st->player[seat].pizzeria[v].lot >= 0)
            return true;
    return false;
}

int pd_reputation(const pd_state *st, int seat, int village)
{
    const pd_pizzeria *p = &st->player[seat].pizzeria[village];
    return p->lot < 0 ? 0 : p->disks + p->ncards;
}

/* PD-T3: 5, or 7 while an Any Ingredient card is the pizzeria's only card (PD-P2). */
int pd_limit_of(const pd_state *st, const pd_pizzeria *z)
{
    bool any_alone = z->ncards == 1 && pd_group_of(st, PD_CARD_INGREDIENT(z->card[0])) == PD_ANY_INGREDIENT;
    return any_alone ? PD_MAX_REPUTATION + 2 : PD_MAX_REPUTATION;
}

int pd_reputation_limit(const pd_state *st, int seat, int village)
{
    return pd_limit_of(st, &st->player[seat].pizzeria[village]);
}

/* ------------------------------------------------------------- draws */

/* PD-O1: the top market card; a Health Inspector on the way is set aside and
 * fines everyone (paid once the current decision is done). PD_NO_CARD when
 * the deck is empty. */
pd_card pd_draw_to_hand(pd_state *st)
{
    bool known = st->known_top > 0;
    pd_card c = pd_draw(st);
    if (known) /* the others cannot tell which known card went: they forget them all */
        st->known_top = 0;
    return c;
}

pd_card pd_draw(pd_state *st)
{
    while (st->ndeck > 0) {
        pd_card c = st->deck[--st->ndeck];
        if (st->known_top) /* the top one was known */
            st->known_top--;
        if (st->timer > st->ndeck)
            st->timer = (uint8_t)st->ndeck;
        if (c != PD_CARD_INSPECTOR)
            return c;
        st->inspectors++;
        for (int s = 0; s < st->players; s++)
            st->fines_due[s]++;
    }
    return PD_NO_CARD;
}

/* PD-S2: the open market never has fewer than five cards while the deck lasts. */
void pd_refill_open(pd_state *st)
{
    while (st->open_size < PD_OPEN_MIN) {
        pd_card c = pd_draw(st);
        if (c == PD_NO_CARD)
            return;
        st->open[c]++;
        st->open_size++;
    }
}

int pd_draw_tip(pd_state *st)
{
    return st->ntip_pool ? st->tip_pool[--st->ntip_pool] : PD_NO_TIP;
}

void pd_return_tip(pd_state *st, int tip)
{
    int at = (int)pb_rng_below(&st->rng, st->ntip_pool + 1u);
    st->tip_pool[st->ntip_pool++] = st->tip_pool[at];
    st->tip_pool[at] = (uint8_t)tip;
    st->tip_seen[tip] = 0;
}

void pd_clear_order(pd_state *st, int slot)
{
    pd_order *o = &st->order[slot];
    memset(o, 0, sizeof *o);
    o->kind = -1;
    o->tip = PD_NO_TIP;
}

/* PD-O1: the last card placed names the village; a Health Inspector on the
 * way is handled by pd_draw. */
void pd_fill_order(pd_state *st, int slot)
{
    pd_order *o = &st->order[slot];
    const pd_order_kind *k = &st->rules->data.cards.order[o->kind];
    while (o->ncards < k->market_cards && o->ncards < PD_ORDER_CARDS) {
        pd_card c = pd_draw(st);
        if (c == PD_NO_CARD)
            break;
        o->card[o->ncards++] = c;
    }
}

/* PD-O1: a new order in an empty slot: an order card (the discards are
 * shuffled back when the deck is out), its market cards, a tip token. */
void pd_make_order(pd_state *st, int slot)
{
    pd_clear_order(st, slot);
    if (st->norder_deck == 0 && st->norder_discard > 0) {
        memcpy(st->order_deck, st->order_discard, st->norder_discard);
        st->norder_deck = st->norder_discard;
        st->norder_discard = 0;
        st->order_deck_seen = true;
        pb_rng_shuffle_u8(&st->rng, (uint8_t *)st->order_deck, st->norder_deck);
    }
    if (st->norder_deck == 0)
        return;
    pd_order *o = &st->order[slot];
    o->kind = st->order_deck[--st->norder_deck];
    pd_fill_order(st, slot);
    o->tip = (uint8_t)pd_draw_tip(st);
}

/* ------------------------------------------------------------- setup */

void pd_init(pd_state *st, const pd_rules *r, uint64_t seed)
{
    const pd_cards *cards = &r->data.cards;
    memset(st, 0, sizeof *st);
    st->rules = r;
    st->players = (uint8_t)r->players;
    pb_rng_seed(&st->rng, seed);
    for (int s = 0; s < PD_PLAYERS; s++) {
        st->player[s].money = r->coop ? 0 : PD_START_MONEY; /* co-op: the team's money starts at 0 */
        st->player[s].disks = PD_DISKS;
        for (int v = 0; v < PD_MAX_VILLAGES; v++)
            st->player[s].pizzeria[v].lot = -1;
    }
    memset(st->lot_owner, -1, sizeof st->lot_owner);
    memset(st->blocker, -1, sizeof st->blocker);
    memset(st->farmed, PD_NO_CARD, sizeof st->farmed);
    st->global = -1;
    st->global_until = PD_NEVER;
    memset(st->spot, -1, sizeof st->spot);
    st->shortage = PD_NO_CARD;
    st->changing = -1;
    for (int i = 0; i < PD_ORDER_SLOTS; i++)
        pd_clear_order(st, i);
    st->copied.kind = -1;
    st->copied.tip = PD_NO_TIP;
    st->cold_filled_turn = st->cold_used_turn = PD_NEVER;

    /* PD-D3: the base market deck, the ANY cards with the expansion, the
     * Extra Cheese cards when chosen (PD-C2) */
    for (int set = PD_SET_BASE; set <= PD_SET_CHEESE; set++) {
        const pd_market *m = &cards->market[set];
        if ((set == PD_SET_ANY && !r->expansion) || (set == PD_SET_CHEESE && !r->extra_cheese))
            continue;
        for (int v = 0; v < PD_MAX_VILLAGES; v++)
            for (int i = 0; i < PD_MAX_INGREDIENTS; i++)
                for (int k = 0; k < m->copies[v][i] && st->ndeck < PD_DECK_MAX - PD_MAX_INSPECTORS; k++)
                    st->deck[st->ndeck++] = PD_CARD(v, i);
    }
    pb_rng_shuffle_u8(&st->rng, st->deck, st->ndeck);
    /* PD-S1; PD-C1: 8 cards each in co-op */
    for (int s = 0; s < st->players; s++)
        for (int k = 0; k < (r->coop ? PD_COOP_HAND : PD_START_HAND); k++) {
            pd_card c = pd_draw(st);
            if (c != PD_NO_CARD)
                pd_hand_add(st, s, c);
        }
    pd_refill_open(st); /* PD-S2 */

    /* PD-S3: two basic power cards each, to keep one */
    for (int p = 0; p < cards->npowers; p++)
        if (cards->power[p].box == PD_BASIC && pd_power_in_game(st, p))
            st->power_deck[st->npower_deck++] = (uint8_t)p;
    pb_rng_shuffle_u8(&st->rng, st->power_deck, st->npower_deck);
    for (int s = 0; s < st->players; s++)
        for (int k = 0; k < 2 && st->npower_deck; k++)
            st->kept_choice[s] |= 1ull << st->power_deck[--st->npower_deck];

    /* PD-D5: tip tokens, values hidden (the expansion adds its own) */
    for (int box = PD_BASIC; box <= (r->expansion ? PD_EXPANSION : PD_BASIC); box++) {
        const pd_tips *t = &cards->tips[box];
        for (int v = 1; v <= PD_MAX_TIP_VALUE; v++)
            for (int k = 0; k < t->copies[v] && st->ntips < 255; k++)
                st->tip_value[st->ntips++] = (uint8_t)v;
        st->no_tips = (uint8_t)(st->no_tips + t->no_tip);
    }
    for (int i = 0; i < st->ntips; i++)
        st->tip_pool[i] = (uint8_t)i;
    st->ntip_pool = st->ntips;
    pb_rng_shuffle_u8(&st->rng, st->tip_pool, st->ntip_pool);

    /* PD-S4: the order deck and four orders */
    for (int k = 0; k < cards->norder_kinds; k++)
        for (int c = 0; c < cards->order[k].copies && st->norder_deck < PD_MAX_ORDERS; c++)
            st->order_deck[st->norder_deck++] = (int8_t)k;
    pb_rng_shuffle_u8(&st->rng, (uint8_t *)st->order_deck, st->norder_deck);
    if (r->coop) /* PD-C1: 14 of them, and no order until a promotion */
        pd_coop_setup(st);
    else
        for (int i = 0; i < PD_BOARD_SLOTS; i++)
            pd_make_order(st, i);

    /* PD-S5: the Health Inspectors go into the bottom third of what is left */
    int third = st->ndeck / 3;
    memmove(st->deck + cards->inspectors, st->deck, st->ndeck);
    for (int i = 0; i < cards->inspectors; i++)
        st->deck[i] = PD_CARD_INSPECTOR;
    st->ndeck = (uint16_t)(st->ndeck + cards->inspectors);
    st->timer = (uint8_t)(third + cards->inspectors);
    pb_rng_shuffle_u8(&st->rng, st->deck, st->timer);

    /* PD-S6 */
    st->first = (uint8_t)(r->first >= 0 ? r->first : (int)pb_rng_below(&st->rng, st->players));
    st->seat = st->first;
    st->phase = PD_PH_KEEP;
}

/* ------------------------------------------------------------- turn flow */

static void next_turn(pd_state *st)
{
    if (st->rules->coop) {
        pd_coop_next_day(st);
        if (st->phase == PD_PH_OVER) /* a promotion found no order card */
            return;
    }
    st->given = 0;
    st->seat = (uint8_t)((st->seat + 1) % st->players);
    st->turn++;
    st->power_played = false;
    st->delivered = false;
    st->swapped = st->frugal_played = st->frugal_taken = false;
    st->over_achiever = st->special_sale = st->windfall = false;
    st->action = st->banned = 0;
    if (st->global >= 0 && st->turn >= st->global_until) /* its rounds are over */
        pd_end_global(st);
    st->phase = st->turn >= PD_MAX_TURNS ? PD_PH_OVER : PD_PH_START;
    if (st->phase == PD_PH_OVER && st->rules->coop) /* the safety net: the team ran out of time */
        pd_coop_over(st, PD_COOP_LOST_TIME);
}

/* The turn ends: down to the hand limit first (PD-T5), then the next seat. */
static void end_turn(pd_state *st)
{
    memset(&st->pending, 0, sizeof st->pending);
    if (st->phase != PD_PH_TRANSFER && pd_can_give(st)) { /* co-op: Transfer Goods first */
        st->phase = PD_PH_TRANSFER;
        return;
    }
    st->phase = pd_hand_total(st, st->seat) > pd_hand_limit(st, st->seat) ? PD_PH_DISCARD : PD_PH_START;
    if (st->phase == PD_PH_START)
        next_turn(st);
}

/* The action is done: a power card may follow (PD-T1), then the hand limit. */
void pd_action_done(pd_state *st)
{
    memset(&st->pending, 0, sizeof st->pending);
    st->phase = PD_PH_AFTER;
}

static bool fines_owed(const pd_state *st)
{
    for (int s = 0; s < st->players; s++)
        if (st->fines_due[s])
            return true;
    return false;
}

static int list_pairs(const pd_state *st, int s, bool powers, int kind, pb_action *out, int n);
static int list_takes(const pd_state *st, pb_action *out, int n);

/* Moves that decide nothing are made at once: the end of a turn with no
 * power card to play and a hand within the limit, a fine with one way to pay. */
static void settle(pd_state *st)
{
    for (;;) {
        pd_coop_check(st);
        if (fines_owed(st) && st->phase != PD_PH_FINE && st->phase != PD_PH_OVER) {
            st->resume = st->phase;
            st->phase = PD_PH_FINE;
        }
        if (st->phase == PD_PH_FINE) {
            if (!fines_owed(st)) {
                st->phase = st->inspectors >= PD_INSPECTORS_TO_END ? PD_PH_OVER : st->resume;
                continue;
            }
            int s = pd_current_seat(st);
            int cards = pd_hand_total(st, s);
            int fine = st->rules->data.cards.fine;
            int16_t *money = pd_purse(st, s);
            if (cards >= fine && *money >= fine)
                return; /* the player's choice */
            if (*money >= fine || cards < fine) {
                /* money if it covers the fine; otherwise all there is */
                int from_money = *money < fine ? *money : fine;
                *money = (int16_t)(*money - from_money);
                for (int left = fine - from_money; left > 0 && pd_hand_total(st, s) > 0; left--)
                    pd_lose_any_card(st, s);
            } else {
                return; /* cards only, but which: the player's choice */
            }
            st->fines_due[s]--;
            continue;
        }
        if (st->phase == PD_PH_CHARITY || st->phase == PD_PH_CRASH || st->phase == PD_PH_SOARS) {
            int s = pd_current_seat(st);
            if (s == st->seat && !st->owed[s]) { /* everyone has answered */
                st->phase = st->owed_resume;
                continue;
            }
            /* a fine paid in between (a Power Outage's refill drew a Health
             * Inspector) may have left fewer cards than were owed */
            if (st->phase == PD_PH_CHARITY && st->owed[s] > st->player[s].hand_size)
                st->owed[s] = st->player[s].hand_size;
            if (st->phase == PD_PH_CHARITY &&
                (st->owed[s] < 2 || list_pairs(st, s, false, PD_A_CHARITY, NULL, 0) == 1)) {
                /* one card left to give, or one way to give two: no choice */
                for (; st->owed[s]; st->owed[s]--)
                    pd_lose_any_card(st, s);
                continue;
            }
            if (st->phase == PD_PH_SOARS && list_takes(st, NULL, 0) == 0) {
                st->owed[s] = 0; /* nothing left to take */
                continue;
            }
            pb_action ways[PD_MAX_VILLAGES * (1 + PD_PIZZERIA_CARDS)];
            if (st->phase == PD_PH_CRASH && pd_list_crash(st, s, ways, 0) == 1) {
                pd_crash(st, s, PD_ARG(ways[0])); /* one way to lose a level */
                st->owed[s] = 0;
                continue;
            }
            return;
        }
        if ((st->phase == PD_PH_AFTER && !pd_can_play_power(st)) || (st->phase == PD_PH_TRANSFER && !pd_can_give(st))) {
            end_turn(st);
            continue;
        }
        if (st->phase == PD_PH_DISCARD && pd_hand_total(st, st->seat) <= pd_hand_limit(st, st->seat)) {
            next_turn(st);
            continue;
        }
        return;
    }
}

/* The seat that owes a fine next, clockwise from the seat whose turn it is. */
int pd_current_seat(const pd_state *st)
{
    if (st->phase == PD_PH_OVER)
        return PB_TERMINAL;
    if (st->phase == PD_PH_FINE || st->phase == PD_PH_CHARITY || st->phase == PD_PH_CRASH || st->phase == PD_PH_SOARS)
        for (int k = 0; k < st->players; k++) {
            int s = (st->seat + k) % st->players;
            if (st->phase == PD_PH_FINE ? st->fines_due[s] : st->owed[s])
                return s;
        }
    return st->seat;
}

/* A fine that leaves nothing to choose: the first card of the hand. */
void pd_lose_any_card(pd_state *st, int seat)
{
    pd_player *p = &st->player[seat];
    for (int c = 0; c < PD_TYPES; c++)
        if (p->hand[c]) {
            pd_hand_remove(st, seat, (pd_card)c);
            st->sewer[c]++;
            return;
        }
    if (p->powers) {
        int i = __builtin_ctzll(p->powers);
        p->powers &= ~(1ull << i);
        st->power_discard |= 1ull << i;
    }
}

/* Does the turn stop after the action for the mover to play a power card
 * or end it? Decided on what everyone sees (how many power cards the mover
 * holds, Frugal Shopper in play, Bait and Switch in play and not yet used
 * with market cards in hand), never on which cards: a pause only when a
 * card could be played would tell the table something about the hand. */
bool pd_can_play_power(const pd_state *st)
{
    int s = st->seat;
    return (!st->power_played && st->player[s].powers != 0) || pd_frugal_take(st) ||
           pd_list_refills(st, NULL, 0) > 0 ||
           (pd_has(st, s, PD_PC_BAIT_AND_SWITCH) && !st->swapped && !st->frugal_taken && st->player[s].hand_size > 0);
}

/* ---------------------------------------------------------- payments */

/* Payments and discards come in one fixed order (money, then cards by type,
 * then power cards), so each way to pay is one sequence of decisions. */
unsigned pd_pay_key(pb_action a)
{
    switch (PD_KIND(a)) {
    case PD_A_PAY_MONEY:
        return 0;
    case PD_A_USE:
        if (PD_ARG(a) & PD_POWER_FLAG) /* a specialty order's further card: a power card */
            return 1 + PD_TYPES + (PD_ARG(a) & 63);
        return 1 + PD_ARG(a);
    case PD_A_PAY_CARD:
    case PD_A_DISCARD:
        return 1 + PD_ARG(a);
    default:
        return 1 + PD_TYPES + PD_ARG(a);
    }
}

int pd_free_cards(const pd_state *st, int seat, pd_card c)
{
    return st->player[seat].hand[c] - st->pending.paid_cards[c];
}

int pd_free_total(const pd_state *st, int seat)
{
    int n = pd_hand_total(st, seat) - __builtin_popcountll(st->pending.paid_powers);
    for (int run = 0; run < PD_TYPES; run += 8) {
        if (pd_none8(&st->pending.paid_cards[run]))
            continue;
        for (int c = run; c < run + 8; c++)
            n -= st->pending.paid_cards[c];
    }
    return n;
}

/* ---------------------------------------------------------- reputation */

/* `held_back`: hand cards that may not pay (a power card about to be played). */
static bool can_build(const pd_state *st, int lot, pd_card c, int held_back)
{
    const pd_map *m = &st->rules->data.map;
    const pd_player *p = &st->player[st->seat];
    if (lot < 0 || lot >= m->nlots || st->lot_owner[lot] >= 0 || c >= PD_TYPES || !p->hand[c])
        return false;
    if (st->blocker[lot] >= 0 && st->blocker[lot] != st->seat)
        return false; /* reserved by another player's Building Commissioner */
    if (st->windfall)
        return false; /* Windfall: no building this turn */
    int v = m->lot[lot].village;
    if (PD_CARD_VILLAGE(c) != v || p->pizzeria[v].lot >= 0 || p->disks == 0)
        return false;
    if (st->tycoon == 2 && m->lot[lot].cost > st->tycoon_cost)
        return false; /* Real-Estate Tycoon's free build: a lot of equal or lower cost */
    /* the card itself goes into the pizzeria; the rest of the hand and the money pay */
    return pd_money(st, st->seat) + pd_hand_total(st, st->seat) - 1 - held_back >= pd_lot_cost(st, lot);
}

/* PD-P2: does a card added to a pizzeria replace this card of it? An Any
 * Ingredient card can be the only card of its pizzeria: it replaces every
 * card, and any card added replaces it. An Any Meat card can be its only
 * permanent meat: it replaces the meats (another Any Meat too), and a meat
 * added replaces it; Any Vegetable alike. */
static bool replaces(const pd_state *st, pd_card added, pd_card old)
{
    int g = pd_group_of(st, PD_CARD_INGREDIENT(added)), o = pd_group_of(st, PD_CARD_INGREDIENT(old));
    if (g == PD_ANY_INGREDIENT || o == PD_ANY_INGREDIENT)
        return true;
    bool meat = g == PD_MEAT || g == PD_ANY_MEAT, vegetable = g == PD_VEGETABLE || g == PD_ANY_VEGETABLE;
    return (meat && (o == PD_ANY_MEAT || (g == PD_ANY_MEAT && o == PD_MEAT))) ||
           (vegetable && (o == PD_ANY_VEGETABLE || (g == PD_ANY_VEGETABLE && o == PD_VEGETABLE)));
}

/* The highest card of type c goes on top. */
static void to_top(pd_pizzeria *z, pd_card c)
{
    for (int i = z->ncards - 1; i >= 0; i--)
        if (z->card[i] == c) {
            memmove(z->card + i, z->card + i + 1, (size_t)(z->ncards - 1 - i));
            z->card[z->ncards - 1] = c;
            return;
        }
}

bool pd_upgraded(const pd_state *st, pd_pizzeria *z, pd_card c, int how, int from, uint8_t *sewer)
{
    pd_card chosen = PD_NO_CARD, old_top = z->ncards ? z->card[z->ncards - 1] : PD_NO_CARD;
    if (from) { /* the first card of its kind names it; never Central Park (PD-T3) */
        if (how == PD_UP_TOP || from > z->ncards || pd_is_park_card(st, z->card[from - 1]))
            return false;
        chosen = z->card[from - 1];
        for (int i = 0; i < from - 1; i++)
            if (z->card[i] == chosen)
                return false;
    }
    if (how == PD_UP_DISK) {
        if (chosen == old_top && from) /* the top already */
            return false;
        z->disks++;
        if (from)
            to_top(z, chosen);
        return true;
    }
    if (z->ncards >= PD_PIZZERIA_CARDS || (how == PD_UP_TOP && pd_is_park_card(st, c)))
        return false;
    bool top_kept = false, chosen_kept = false;
    int n = 0;
    for (int i = 0; i < z->ncards; i++) {
        if (replaces(st, c, z->card[i])) {
            if (sewer)
                sewer[z->card[i]]++;
            continue;
        }
        top_kept |= i == z->ncards - 1;
        chosen_kept |= z->card[i] == chosen;
        z->card[n++] = z->card[i];
    }
    /* under the others */
    memmove(z->card + 1, z->card, (size_t)n);
    z->card[0] = c;
    z->ncards = (uint8_t)(n + 1);
    if (how == PD_UP_TOP) {
        to_top(z, c);
        return true;
    }
    /* `add`: the top stays; if it went, the new card goes on top, or (a
     * Central Park card, never on top) the highest card that may be */
    pd_card plain = top_kept ? old_top : pd_is_park_card(st, c) ? PD_NO_CARD : c;
    for (int i = z->ncards - 1; plain == PD_NO_CARD && i > 0; i--)
        if (!pd_is_park_card(st, z->card[i]))
            plain = z->card[i];
    if (plain == PD_NO_CARD) /* Central Park cards alone */
        return false;
    if (from && (!chosen_kept || chosen == c || chosen == plain))
        return false; /* gone, or the same as `top` or `add` */
    to_top(z, from ? chosen : plain);
    return true;
}

/* Could hand card c go to the mover's pizzeria in village v in some way?
 * (can_upgrade's tests that do not depend on the way: the listings ask
 * them once for all the ways) */
static bool upgrade_candidate(const pd_state *st, int v, pd_card c)
{
    const pd_player *p = &st->player[st->seat];
    if (v < 0 || v >= st->rules->data.map.nvillages || c >= PD_TYPES || !p->hand[c])
        return false;
    return p->pizzeria[v].lot >= 0 && (PD_CARD_VILLAGE(c) == v || pd_is_park_card(st, c)) &&
           !st->tycoon; /* Real-Estate Tycoon builds only */
}

static bool can_upgrade(const pd_state *st, int v, pd_card c, int how, int from)
{
    const pd_player *p = &st->player[st->seat];
    if (!upgrade_candidate(st, v, c) || how < PD_UP_DISK || how > PD_UP_TOP)
        return false;
    const pd_pizzeria *z = &p->pizzeria[v];
    if (how == PD_UP_DISK && p->disks == 0)
        return false;
    pd_pizzeria after = *z;
    if (!pd_upgraded(st, &after, c, how, from, NULL))
        return false;
    /* over the limit what is over goes (never the top card nor the last
     * disk): a disk that could only go back at once changes nothing */
    return !(how == PD_UP_DISK && !from && after.ncards < 2 && after.disks + after.ncards > pd_limit_of(st, &after));
}

/* The last card an upgrade of this kind may name (pd_upgraded: a card
 * put on top names none). */
static int last_from(const pd_player *p, int v, int how)
{
    return how == PD_UP_TOP ? 0 : p->pizzeria[v].ncards;
}

bool pd_any_build(const pd_state *st, int held_back)
{
    const pd_map *m = &st->rules->data.map;
    for (int c = 0; c < PD_TYPES; c++)
        for (int l = 0; st->player[st->seat].hand[c] && l < m->nlots; l++)
            if (can_build(st, l, (pd_card)c, held_back))
                return true;
    return false;
}

/* The builds and upgrades are over: the action is done, or Real-Estate
 * Tycoon's builds are and the turn goes back where the card was played. */
static void reputation_over(pd_state *st)
{
    if (st->tycoon) {
        memset(&st->pending, 0, sizeof st->pending);
        st->tycoon = 0;
        st->phase = st->power_resume;
    } else {
        pd_action_done(st);
    }
}

static bool any_reputation_step(const pd_state *st)
{
    const pd_map *m = &st->rules->data.map;
    const pd_player *p = &st->player[st->seat];
    for (int c = 0; c < PD_TYPES; c++) {
        if (!p->hand[c])
            continue;
        const pd_village *vil = &m->village[PD_CARD_VILLAGE(c)];
        for (int k = 0; PD_CARD_VILLAGE(c) < m->nvillages && k < vil->nlots; k++) /* a lot of the card's village */
            if (can_build(st, vil->lot[k], (pd_card)c, 0))
                return true;
        for (int v = 0; v < m->nvillages; v++)
            for (int how = PD_UP_DISK; upgrade_candidate(st, v, (pd_card)c) && how <= PD_UP_TOP; how++)
                for (int from = 0; from <= last_from(p, v, how); from++)
                    if (can_upgrade(st, v, (pd_card)c, how, from))
                        return true;
    }
    return false;
}

/* What may go from a pizzeria over its limit after an upgrade: a card below
 * the top, one way for each kind ("remove a card"); a level disk (never the
 * last) when there is no such card, as after an Any Ingredient card was
 * replaced (edition 1 and 2: a disk at any time). */
static int list_trims(const pd_state *st, pb_action *out, int n)
{
    int v = st->pending.village;
    const pd_pizzeria *z = &st->player[st->seat].pizzeria[v];
    if (z->disks > 1 && (z->ncards < 2 || !pd_edition_3(st)))
        n = pd_add_action(out, n, PD_ACTION(PD_A_REMOVE, v));
    for (int i = 0; i + 1 < z->ncards; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= z->card[j] == z->card[i];
        if (!seen)
            n = pd_add_action(out, n, PD_ACTION(PD_A_REMOVE, v | (1u + z->card[i]) << 4));
    }
    return n;
}

static void trim(pd_state *st, uint32_t arg)
{
    pd_player *p = &st->player[st->seat];
    pd_pizzeria *z = &p->pizzeria[arg & 0xF];
    if (arg >> 4 == 0) {
        z->disks--;
        p->disks++;
        return;
    }
    pd_card c = (pd_card)((arg >> 4) - 1);
    for (int i = 0; i + 1 < z->ncards; i++)
        if (z->card[i] == c) {
            st->sewer[c]++;
            memmove(z->card + i, z->card + i + 1, (size_t)(z->ncards - 1 - i));
            z->ncards--;
            return;
        }
}

/* After an upgrade, or a disk or card gone: what is still over the limit
 * goes, the player's choice (made at once when there is one way), then the
 * next build or upgrade. */
static void upgrade_settles(pd_state *st)
{
    pd_pending *pe = &st->pending;
    for (;;) {
        int over = pd_reputation(st, st->seat, pe->village) - pd_reputation_limit(st, st->seat, pe->village);
        if (over <= 0)
            break;
        pb_action ways[PD_PIZZERIA_CARDS + 1];
        if (list_trims(st, ways, 0) != 1) {
            pe->due = (uint8_t)over;
            st->phase = PD_PH_TRIM;
            return;
        }
        trim(st, PD_ARG(ways[0]));
    }
    memset(pe, 0, sizeof *pe);
    st->phase = PD_PH_REPUTATION;
    if (st->steps_left == 0 || !any_reputation_step(st))
        pd_action_done(st);
}

/* PD-T3: the card to a disk or to the pizzeria, the top card chosen; what
 * the card replaces goes to the sewer (PD-P2). */
static void do_upgrade(pd_state *st, int v, pd_card c, int how, int from)
{
    pd_player *p = &st->player[st->seat];
    pd_pizzeria *z = &p->pizzeria[v];
    pd_hand_remove(st, st->seat, c);
    if (how == PD_UP_DISK) {
        st->sewer[c]++;
        p->disks--;
    }
    pd_upgraded(st, z, c, how, from, st->sewer);
    memset(&st->pending, 0, sizeof st->pending);
    st->pending.kind = PD_A_UPGRADE;
    st->pending.village = (uint8_t)v;
    st->steps_left--;
    upgrade_settles(st);
}

static void finish_build(pd_state *st)
{
    pd_pending *pe = &st->pending;
    pd_player *p = &st->player[st->seat];
    int v = st->rules->data.map.lot[pe->lot].village;
    *pd_purse(st, st->seat) = (int16_t)(pd_money(st, st->seat) - pe->paid_money);
    for (int c = 0; c < PD_TYPES; c++)
        for (; pe->paid_cards[c]; pe->paid_cards[c]--) {
            pd_hand_remove(st, st->seat, (pd_card)c);
            st->sewer[c]++;
        }
    p->powers &= ~pe->paid_powers;
    st->power_discard |= pe->paid_powers;
    pd_hand_remove(st, st->seat, pe->card);
    pd_pizzeria *z = &p->pizzeria[v];
    z->lot = (int8_t)pe->lot;
    z->disks = 1;
    z->ncards = 1;
    z->card[0] = pe->card;
    p->disks--;
    st->lot_owner[pe->lot] = (int8_t)st->seat;
    st->blocker[pe->lot] = -1; /* the commissioner's own token goes */
    memset(pe, 0, sizeof *pe);
    st->steps_left--;
    st->phase = PD_PH_REPUTATION;
    if (st->tycoon == 1) /* the free build may follow */
        st->tycoon = 2;
    if (st->steps_left == 0 || !any_reputation_step(st))
        reputation_over(st);
}

/* ---------------------------------------------------------- legal moves */

int pd_add_action(pb_action *out, int n, pb_action a)
{
    if (out && n < PB_MAX_ACTIONS)
        out[n] = a;
    return n + 1;
}

/* Dollars a seat can still pay from each key on (pay_key order): money
 * (only if `money`), free cards, power cards; `keep` is a card type the build
 * itself needs (-1: none). cap[k] counts what has a key of k or more. */
void pd_capacities(const pd_state *st, int seat, bool money, int keep, int *cap)
{
    const pd_player *p = &st->player[seat];
    cap[PD_KEYS] = 0;
    for (int i = 63; i >= 0; i--)
        cap[1 + PD_TYPES + i] = cap[2 + PD_TYPES + i] + (int)((p->powers & ~st->pending.paid_powers) >> i & 1);
    for (int run = PD_TYPES - 8; run >= 0; run -= 8) {
        bool none = pd_none8(&p->hand[run]); /* none in hand: none free */
        for (int c = run + 7; c >= run; c--) {
            int n = none ? 0 : pd_free_cards(st, seat, (pd_card)c) - (c == keep);
            cap[1 + c] = cap[2 + c] + (n > 0 ? n : 0);
        }
    }
    cap[0] = cap[1] + (money ? pd_money(st, seat) - st->pending.paid_money : 0);
}

/* One dollar or one card, in pay_key order from the last one, when what
 * comes after it in that order can still pay the rest of `due`. */
int pd_list_payments(const pd_state *st, pb_action *out, int n, int due, bool money, int keep)
{
    int s = st->seat, cap[PD_KEYS + 1];
    const pd_player *p = &st->player[s];
    unsigned last = st->pending.last_key;
    pd_capacities(st, s, money, keep, cap);
    if (money && last == 0 && pd_money(st, s) > st->pending.paid_money && cap[0] >= due)
        n = pd_add_action(out, n, PD_ACTION(PD_A_PAY_MONEY, 0));
    for (int run = 0; run < PD_TYPES; run += 8) {
        if (pd_none8(&p->hand[run])) /* none in hand: none free */
            continue;
        for (int c = run; c < run + 8; c++) {
            pb_action a = PD_ACTION(PD_A_PAY_CARD, c);
            if (pd_free_cards(st, s, (pd_card)c) > (c == keep) && pd_pay_key(a) >= last && cap[pd_pay_key(a)] >= due)
                n = pd_add_action(out, n, a);
        }
    }
    for (int i = 0; i < 64; i++) {
        pb_action a = PD_ACTION(PD_A_PAY_POWER, i);
        if ((p->powers & ~st->pending.paid_powers) >> i & 1 && pd_pay_key(a) >= last && cap[pd_pay_key(a)] >= due)
            n = pd_add_action(out, n, a);
    }
    return n;
}

/* Two of a seat's cards as actions of `kind` (a | b << 9, a <= b): market
 * cards, then (with `powers`) power cards. */
static int list_pairs(const pd_state *st, int s, bool powers, int kind, pb_action *out, int n)
{
    const pd_player *p = &st->player[s];
    int item[PD_TYPES + 64], count[PD_TYPES + 64], k = 0;
    for (int c = 0; c < PD_TYPES; c++)
        if (p->hand[c]) {
            item[k] = c;
            count[k++] = p->hand[c];
        }
    for (int i = 0; powers && i < 64; i++)
        if (p->powers >> i & 1) {
            item[k] = PD_POWER_FLAG | i;
            count[k++] = 1;
        }
    for (int a = 0; a < k; a++)
        for (int b = a; b < k; b++)
            if (b > a || count[a] >= 2)
                n = pd_add_action(out, n, PD_ACTION(kind, item[a] | item[b] << 9));
    return n;
}

/* Out of Supplies: $2 in money or two cards (power cards too), as a fine. */
static int list_supplies(const pd_state *st, pb_action *out, int n)
{
    if (pd_money(st, st->seat) >= PD_SUPPLIES_COST)
        n = pd_add_action(out, n, PD_ACTION(PD_A_SUPPLIES_MONEY, 0));
    return list_pairs(st, st->seat, true, PD_A_SUPPLIES_CARDS, out, n);
}

static int list_fines(const pd_state *st, pb_action *out, int n)
{
    int s = pd_current_seat(st);
    if (pd_money(st, s) >= st->rules->data.cards.fine)
        n = pd_add_action(out, n, PD_ACTION(PD_A_FINE_MONEY, 0));
    return list_pairs(st, s, true, PD_A_FINE_CARDS, out, n); /* or two cards, power cards too */
}

static int list_discards(const pd_state *st, pb_action *out, int n)
{
    const pd_player *p = &st->player[st->seat];
    unsigned last = st->pending.last_key;
    int over = pd_hand_total(st, st->seat) - pd_hand_limit(st, st->seat), cap[PD_KEYS + 1];
    pd_capacities(st, st->seat, false, -1, cap);
    for (int c = 0; c < PD_TYPES; c++) {
        pb_action a = PD_ACTION(PD_A_DISCARD, c);
        if (p->hand[c] && pd_pay_key(a) >= last && cap[pd_pay_key(a)] >= over)
            n = pd_add_action(out, n, a);
    }
    for (int i = 0; i < 64; i++) {
        pb_action a = PD_ACTION(PD_A_DISCARD_POWER, i);
        if (p->powers >> i & 1 && pd_pay_key(a) >= last && cap[pd_pay_key(a)] >= over)
            n = pd_add_action(out, n, a);
    }
    return n;
}

static int list_takes(const pd_state *st, pb_action *out, int n)
{
    for (int run = 0; run < PD_TYPES; run += 8) {
        if (pd_none8(&st->open[run]))
            continue;
        for (int c = run; c < run + 8; c++)
            if (st->open[c])
                n = pd_add_action(out, n, PD_ACTION(PD_A_TAKE_OPEN, c));
    }
    if (st->ndeck > 0)
        n = pd_add_action(out, n, PD_ACTION(PD_A_TAKE_DECK, 0));
    return n;
}

static int list_reputation(const pd_state *st, pb_action *out, int n)
{
    const pd_map *m = &st->rules->data.map;
    const pd_player *p = &st->player[st->seat];
    for (int c = 0; c < PD_TYPES; c++) {
        if (!p->hand[c])
            continue;
        for (int l = 0; l < m->nlots; l++)
            if (m->lot[l].village == PD_CARD_VILLAGE(c) && can_build(st, l, (pd_card)c, 0))
                n = pd_add_action(out, n, PD_ACTION(PD_A_BUILD, l | c << 8));
        for (int v = 0; v < m->nvillages; v++)
            for (int how = PD_UP_DISK; upgrade_candidate(st, v, (pd_card)c) && how <= PD_UP_TOP; how++)
                for (int from = 0; from <= last_from(p, v, how); from++)
                    if (can_upgrade(st, v, (pd_card)c, how, from))
                        n = pd_add_action(out, n, PD_ACTION(PD_A_UPGRADE, v | c << 8 | how << 16 | from << 20));
    }
    if (st->steps_left < 2)
        n = pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
    return n;
}

/* Every legal action, or (out NULL) just their number. */
static int list_actions(const pd_state *st, pb_action *out)
{
    int n = 0;
    switch (st->phase) {
    case PD_PH_KEEP:
        for (int i = 0; i < 64; i++)
            if (st->kept_choice[st->seat] >> i & 1)
                n = pd_add_action(out, n, PD_ACTION(PD_A_KEEP, i));
        return n;
    case PD_PH_START:
        /* co-op: everyone's first action builds, for free (played before
         * any power card: nothing of the kept card is needed for it) */
        if (pd_first_round(st) && !st->action && st->banned != PD_A_REPUTATION && any_reputation_step(st))
            return pd_add_action(out, n, PD_ACTION(PD_A_REPUTATION, 0));
        /* Windfall rules out the market and deliveries; Oooops! the action already taken;
         * Real-Estate Tycoon played before the action, Increase Your Reputation */
        if (!st->windfall && st->banned != PD_A_MARKET)
            n = pd_add_action(out, n, PD_ACTION(PD_A_MARKET, 0));
        if (st->banned != PD_A_REPUTATION && any_reputation_step(st))
            n = pd_add_action(out, n, PD_ACTION(PD_A_REPUTATION, 0));
        /* Out of Supplies: $2 owed before any delivery */
        if (st->supplies_due[st->seat])
            n = list_supplies(st, out, n);
        else if (!st->windfall && st->banned != PD_A_DELIVER)
            n = pd_list_deliveries(st, out, n);
        /* no action left (after Windfall or Oooops!): the turn may end; what
         * needs no action (a power card, Cold Storage's refill, Bait and
         * Switch's swap) may still come first */
        if (!n && (st->windfall || st->banned))
            n = pd_add_action(out, n, PD_ACTION(PD_A_END, 0));
        return pd_list_swaps(st, out, pd_list_refills(st, out, pd_list_power_plays(st, out, n)));
    case PD_PH_MARKET:
    case PD_PH_BONUS:
        n = list_takes(st, out, n);
        return n ? n : pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
    case PD_PH_REPUTATION:
        return list_reputation(st, out, n);
    case PD_PH_PAY:
        return pd_list_payments(st, out, n, st->pending.due, true, st->pending.card);
    case PD_PH_SUPPLY:
    case PD_PH_DISTANCE:
    case PD_PH_TIP:
    case PD_PH_ARRANGE:
        return pd_list_delivery_steps(st, out, n);
    case PD_PH_AFTER:
        n = pd_list_swaps(st, out, pd_list_refills(st, out, pd_list_power_plays(st, out, n)));
        if (pd_frugal_take(st))
            n = list_takes(st, out, n);
        return pd_add_action(out, n, PD_ACTION(PD_A_END, 0));
    case PD_PH_DISCARD:
        return list_discards(st, out, n);
    case PD_PH_TRANSFER:
        return pd_list_gifts(st, out, n);
    case PD_PH_FINE:
        return list_fines(st, out, n);
    case PD_PH_BLOCK:
    case PD_PH_FARM:
        return pd_list_power_steps(st, out, n);
    case PD_PH_COPY:
        return pd_list_copies(st, out, n);
    case PD_PH_ORDERS:
    case PD_PH_SPOT:
        return pd_list_power_steps(st, out, n);
    case PD_PH_CHARITY:
        return list_pairs(st, pd_current_seat(st), false, PD_A_CHARITY, out, n);
    case PD_PH_CRASH:
        return pd_list_crash(st, pd_current_seat(st), out, n);
    case PD_PH_INSTANT:
        return pd_list_instants(st, out, n);
    case PD_PH_TAX:
        return pd_list_payments(st, out, n, st->pending.due, true, -1);
    case PD_PH_SOARS:
        return list_takes(st, out, n);
    case PD_PH_TRIM:
        return list_trims(st, out, n);
    case PD_PH_PROMO:
        return pd_list_promo_times(st, out, n);
    default:
        return 0;
    }
}

/* The last position listed on this thread and its moves. Searches ask about
 * one position many times (a move's legality for each child, then the move
 * applied to a copy); listing costs ~20k instructions, comparing the state's
 * bytes a few hundred. Equal bytes are the same position, so a hit is never
 * wrong; a position that differs only in padding is merely listed again. */
static __thread struct {
    bool valid;
    int n;
    pd_state st;
    pb_action legal[PB_MAX_ACTIONS];
} listed;

static const pb_action *legal_now(const pd_state *st, int *n)
{
    if (!listed.valid || memcmp(&listed.st, st, sizeof *st) != 0) {
        listed.n = list_actions(st, listed.legal);
        if (listed.n > PB_MAX_ACTIONS)
            listed.n = PB_MAX_ACTIONS;
        memcpy(&listed.st, st, sizeof *st);
        listed.valid = true;
    }
    *n = listed.n;
    return listed.legal;
}

int pd_legal_actions(const pd_state *st, pb_action *out)
{
    int n;
    const pb_action *legal = legal_now(st, &n);
    if (out) /* NULL: only the count */
        memcpy(out, legal, sizeof *out * (size_t)n);
    return n;
}

static bool listed_now(const pd_state *st, pb_action a)
{
    int n;
    const pb_action *legal = legal_now(st, &n);
    for (int i = 0; i < n; i++)
        if (legal[i] == a)
            return true;
    return false;
}

static bool among(const pb_action *out, int n, pb_action a)
{
    for (int i = 0; i < n; i++)
        if (out[i] == a)
            return true;
    return false;
}

static int add_new(pb_action *out, int n, pb_action a)
{
    return among(out, n, a) ? n : pd_add_action(out, n, a);
}

/* Payments in any order. The rules set none: a dollar, a card or a power
 * card, whichever a player names, while what is left still pays the rest.
 * The listing keeps one order (pd_pay_key) so that a search meets each way
 * to pay once; these are the other orders' next steps, for a player who
 * names them. Discards down to the hand limit alike; the ingredients of a
 * delivery in any order are deliver.c's. */
static int list_any_order(const pd_state *st, pb_action *out, int n)
{
    const pd_pending *pe = &st->pending;
    int s = pd_current_seat(st);
    if (s < 0)
        return n;
    const pd_player *p = &st->player[s];
    bool money = st->phase == PD_PH_PAY || st->phase == PD_PH_TAX;
    int keep = st->phase == PD_PH_PAY ? pe->card : -1, pay = PD_A_PAY_CARD, pay_power = PD_A_PAY_POWER;
    switch (st->phase) {
    case PD_PH_PAY:
    case PD_PH_TAX:
    case PD_PH_DISTANCE:
        break;
    case PD_PH_DISCARD:
        pay = PD_A_DISCARD;
        pay_power = PD_A_DISCARD_POWER;
        break;
    case PD_PH_SUPPLY:
        if (pe->nneeds > 0)
            return pd_list_any_need(st, out, n);
        if (pe->extras == 0 || pd_free_total(st, s) - 1 < pe->extras - 1 + pe->due)
            return n;
        pay = pay_power = PD_A_USE;
        break;
    default:
        return n;
    }
    if (money && pd_money(st, s) > pe->paid_money)
        n = add_new(out, n, PD_ACTION(PD_A_PAY_MONEY, 0));
    for (int c = 0; c < PD_TYPES; c++)
        if (pd_free_cards(st, s, (pd_card)c) > (c == keep))
            n = add_new(out, n, PD_ACTION(pay, c));
    for (uint64_t m = p->powers & ~pe->paid_powers; m; m &= m - 1)
        n = add_new(out, n, PD_ACTION(pay_power, (pay_power == PD_A_USE ? PD_POWER_FLAG : 0) | __builtin_ctzll(m)));
    return n;
}

int pd_accepted_actions(const pd_state *st, pb_action *out)
{
    int n = pd_legal_actions(st, out);
    return list_any_order(st, out, n);
}

/* A payment's part, which may be made in any order (not only as listed)? */
static bool any_order_kind(pb_action a)
{
    int k = PD_KIND(a);
    return k == PD_A_PAY_MONEY || k == PD_A_PAY_CARD || k == PD_A_PAY_POWER || k == PD_A_USE || k == PD_A_DISCARD ||
           k == PD_A_DISCARD_POWER;
}

bool pd_is_legal(const pd_state *st, pb_action a)
{
    bool legal;
    pd_legal_each(st, &a, 1, &legal);
    return legal;
}

/* The position is listed once for all n (a search asks about every move
 * at a node; each listing check compares the whole state), and the parts
 * payable in any order at most once. */
void pd_legal_each(const pd_state *st, const pb_action *a, int n, bool *legal)
{
    static __thread pb_action more[PB_MAX_ACTIONS];
    int nlisted, nmore = -1;
    const pb_action *listed_moves = NULL; /* legal_now's: other positions listed write over it */
    for (int i = 0; i < n; i++) {
        if (!listed_moves)
            listed_moves = legal_now(st, &nlisted);
        if (among(listed_moves, nlisted, a[i])) {
            legal[i] = true;
        } else if (PD_KIND(a[i]) == PD_A_SET) {
            legal[i] = pd_set_legal(st, a[i]); /* lists the positions of its parts */
            listed_moves = NULL;
        } else if (!any_order_kind(a[i])) {
            legal[i] = false;
        } else {
            if (nmore < 0) {
                nmore = list_any_order(st, more, 0);
                listed_moves = NULL;
            }
            legal[i] = among(more, nmore, a[i]);
        }
    }
}

/* ---------------------------------------------------------- apply */

static void take(pd_state *st, pb_action a)
{
    int s = pd_current_seat(st); /* the mover, or (Stock Market Soars) the next to take */
    if (PD_KIND(a) == PD_A_TAKE_OPEN) {
        st->open[PD_ARG(a)]--;
        st->open_size--;
        pd_hand_add(st, s, (pd_card)PD_ARG(a));
    } else if (PD_KIND(a) == PD_A_TAKE_DECK) {
        pd_card c = pd_draw_to_hand(st);
        if (c != PD_NO_CARD)
            pd_hand_add(st, s, c);
    }
    pd_refill_open(st);
}

/* The takes are over: the action is done, or a power card's gift goes back
 * to the phase it was played in (Bonus Supplies). */
static void takes_done(pd_state *st)
{
    if (st->gift) {
        st->gift = false;
        st->phase = st->power_resume;
    } else {
        pd_action_done(st);
    }
}

static void pay_fine_cards(pd_state *st, int s, int item)
{
    pd_player *p = &st->player[s];
    if (item & PD_POWER_FLAG) {
        p->powers &= ~(1ull << (item & 63));
        st->power_discard |= 1ull << (item & 63);
    } else {
        pd_hand_remove(st, s, (pd_card)item);
        st->sewer[item]++;
    }
}

int pd_apply(pd_state *st, pb_action a, char *err, size_t errlen)
{
    if (st->phase == PD_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    if (PD_KIND(a) == PD_A_SET) /* its parts, each as the single step it is */
        return pd_set_apply(st, a, err, errlen);
    /* a payment in an order other than the listing's: the listing starts
     * over from what is left (any order of it is one the rules allow) */
    bool in_order = listed_now(st, a);
    if (!in_order && !pd_is_legal(st, a))
        return pd_why_illegal(st, a, err, errlen);
    int phase = st->phase;
    pd_player *p = &st->player[st->seat];
    pd_pending *pe = &st->pending;
    uint32_t arg = PD_ARG(a);
    switch (PD_KIND(a)) {
    case PD_A_KEEP:
        p->powers |= 1ull << arg;
        st->kept_choice[st->seat] &= ~(1ull << arg);
        st->seat = (uint8_t)((st->seat + 1) % st->players);
        if (st->seat == st->first) {
            /* PD-S3: the returned cards are shuffled with the rest, and
             * with the expansion's cards when it is in */
            for (int s = 0; s < st->players; s++) {
                for (int i = 0; i < 64; i++)
                    if (st->kept_choice[s] >> i & 1)
                        st->power_deck[st->npower_deck++] = (uint8_t)i;
                st->kept_choice[s] = 0;
            }
            const pd_cards *cards = &st->rules->data.cards;
            for (int i = 0; pd_expansion_powers(st->rules) && i < cards->npowers; i++)
                if (cards->power[i].box == PD_EXPANSION && pd_power_in_game(st, i) && st->npower_deck < PD_MAX_POWERS)
                    st->power_deck[st->npower_deck++] = (uint8_t)i;
            pb_rng_shuffle_u8(&st->rng, st->power_deck, st->npower_deck);
            st->phase = PD_PH_START;
        }
        break;
    case PD_A_MARKET:
        st->action = PD_A_MARKET;
        st->phase = PD_PH_MARKET;
        st->steps_left = 2;
        break;
    case PD_A_REPUTATION:
        st->action = PD_A_REPUTATION;
        st->phase = PD_PH_REPUTATION;
        st->steps_left = 2;
        break;
    case PD_A_TAKE_OPEN:
    case PD_A_TAKE_DECK:
        if (st->phase == PD_PH_SOARS) {
            int s = pd_current_seat(st);
            take(st, a);
            st->owed[s]--;
            break;
        }
        take(st, a);
        if (st->phase == PD_PH_AFTER) { /* Frugal Shopper: no other power card this turn */
            st->power_played = true;
            st->frugal_taken = pd_corrected(st);
        }
        else if (--st->steps_left == 0)
            takes_done(st);
        break;
    case PD_A_POWER:
        pd_play_power(st, arg);
        break;
    case PD_A_REFILL:
        pd_refill_cold(st, arg);
        break;
    case PD_A_DONE:
        if (st->phase == PD_PH_SUPPLY)
            pd_delivery_step(st, a);
        else if (st->phase == PD_PH_COPY)
            pd_decline_copy(st);
        else if (st->phase == PD_PH_INSTANT)
            pd_answer_instant(st, a);
        else if (st->phase == PD_PH_ORDERS)
            pd_power_step(st, a);
        else if (st->phase == PD_PH_BONUS || st->phase == PD_PH_MARKET)
            takes_done(st); /* nothing left to take */
        else
            reputation_over(st);
        break;
    case PD_A_SWAP:
        pd_swap(st, arg);
        break;
    case PD_A_BLOCK:
    case PD_A_FARM:
    case PD_A_HACK:
    case PD_A_SCREW:
    case PD_A_REORDER:
    case PD_A_SPOT:
        pd_power_step(st, a);
        break;
    case PD_A_BUILD:
        memset(pe, 0, sizeof *pe);
        pe->kind = PD_A_BUILD;
        pe->lot = (uint8_t)(arg & 0xFF);
        pe->card = (pd_card)(arg >> 8);
        pe->due = (uint8_t)pd_lot_cost(st, pe->lot);
        if (st->tycoon == 1)
            st->tycoon_cost = st->rules->data.map.lot[pe->lot].cost;
        st->phase = PD_PH_PAY;
        if (pe->due == 0) /* co-op's first round: the property is free */
            finish_build(st);
        break;
    case PD_A_UPGRADE:
        do_upgrade(st, arg & 0xFF, (pd_card)(arg >> 8 & 0xFF), (int)(arg >> 16 & 0xF), (int)(arg >> 20));
        break;
    case PD_A_REMOVE:
        trim(st, arg);
        upgrade_settles(st);
        break;
    case PD_A_PAY_MONEY:
    case PD_A_PAY_CARD:
    case PD_A_PAY_POWER:
        if (st->phase == PD_PH_TAX) { /* paid at once: nothing waits on it */
            pd_pay_tax(st, a);
            break;
        }
        if (PD_KIND(a) == PD_A_PAY_MONEY)
            pe->paid_money++;
        else if (PD_KIND(a) == PD_A_PAY_CARD)
            pe->paid_cards[arg]++;
        else
            pe->paid_powers |= 1ull << arg;
        pe->last_key = (uint16_t)pd_pay_key(a);
        pe->due--;
        if (st->phase == PD_PH_PAY) {
            if (pe->due == 0)
                finish_build(st);
        } else {
            pd_delivery_step(st, a);
        }
        break;
    case PD_A_DELIVER:
    case PD_A_COPY:
    case PD_A_USE:
    case PD_A_USE_STORED:
    case PD_A_SHORT:
    case PD_A_EXTRA:
    case PD_A_CHEESE:
    case PD_A_TIP:
    case PD_A_ARRANGE:
        pd_delivery_step(st, a);
        break;
    case PD_A_END:
        end_turn(st);
        break;
    case PD_A_GIVE:
        pd_give(st, arg);
        break;
    case PD_A_PROMO:
        pd_promo_time(st, (int)arg);
        break;
    case PD_A_DISCARD:
        pd_hand_remove(st, st->seat, (pd_card)arg);
        st->sewer[arg]++;
        pe->last_key = (uint16_t)pd_pay_key(a);
        break;
    case PD_A_DISCARD_POWER:
        p->powers &= ~(1ull << arg);
        st->power_discard |= 1ull << arg;
        pe->last_key = (uint16_t)pd_pay_key(a);
        break;
    case PD_A_CHARITY: {
        int s = pd_current_seat(st);
        pay_fine_cards(st, s, (int)(arg & 0x1FF));
        pay_fine_cards(st, s, (int)(arg >> 9 & 0x1FF));
        st->owed[s] = 0;
        break;
    }
    case PD_A_CRASH: {
        int s = pd_current_seat(st);
        pd_crash(st, s, arg);
        st->owed[s] = 0;
        break;
    }
    case PD_A_INSTANT:
        pd_answer_instant(st, a);
        break;
    case PD_A_SUPPLIES_MONEY:
        *pd_purse(st, st->seat) = (int16_t)(pd_money(st, st->seat) - PD_SUPPLIES_COST);
        st->supplies_due[st->seat]--;
        break;
    case PD_A_SUPPLIES_CARDS:
        pay_fine_cards(st, st->seat, (int)(arg & 0x1FF));
        pay_fine_cards(st, st->seat, (int)(arg >> 9 & 0x1FF));
        st->supplies_due[st->seat]--;
        break;
    case PD_A_FINE_MONEY:
    case PD_A_FINE_CARDS: {
        int s = pd_current_seat(st);
        if (PD_KIND(a) == PD_A_FINE_MONEY) {
            *pd_purse(st, s) = (int16_t)(pd_money(st, s) - st->rules->data.cards.fine);
        } else {
            pay_fine_cards(st, s, (int)(arg & 0x1FF));
            pay_fine_cards(st, s, (int)(arg >> 9 & 0x1FF));
        }
        st->fines_due[s]--;
        break;
    }
    default:
        break;
    }
    if (!in_order && st->phase == phase)
        pe->last_key = 0;
    settle(st);
    return 0;
}

/* ---------------------------------------------------------- the end */

int pd_tip_money(const pd_state *st, int seat)
{
    const pd_player *p = &st->player[seat];
    int sum = 0;
    for (int i = 0; i < p->ntips; i++)
        if (p->tip[i] != PD_NO_TIP)
            sum += st->tip_value[p->tip[i]];
    return sum;
}

int pd_tableau_cards(const pd_state *st, int seat, int *disks)
{
    const pd_player *p = &st->player[seat];
    /* a card under a power card counts as a tableau card */
    int cards = __builtin_popcountll(st->tableau[seat]) + (st->farmed[seat] != PD_NO_CARD) +
                (pd_has(st, seat, PD_PC_COLD_STORAGE) ? st->ncold : 0);
    *disks = st->spot[seat] >= 0; /* That's My Spot's disk on a zone */
    for (int v = 0; v < PD_MAX_VILLAGES; v++)
        if (p->pizzeria[v].lot >= 0) {
            *disks += p->pizzeria[v].disks;
            cards += p->pizzeria[v].ncards;
        }
    return cards;
}

/* PD-E1: money + tableau cards (pizzerias, power cards in play) + disks on
 * the board + tips; the hand does not count. */
int pd_score(const pd_state *st, int seat)
{
    int disks, cards = pd_tableau_cards(st, seat, &disks);
    return st->player[seat].money + pd_tip_money(st, seat) + cards + disks;
}

/* PD-E1: highest score; ties by deliveries, then tip money, then shared. */
void pd_returns(const pd_state *st, double *out)
{
    if (st->rules->coop) { /* PD-C1: the team wins or loses together */
        for (int s = 0; s < st->players; s++)
            out[s] = st->coop_result == PD_COOP_WON;
        return;
    }
    long best = -1;
    long key[PD_PLAYERS];
    for (int s = 0; s < st->players; s++) {
        key[s] = ((long)pd_score(st, s) * 256 + st->player[s].deliveries) * 1024 + pd_tip_money(st, s);
        if (key[s] > best)
            best = key[s];
    }
    int winners = 0;
    for (int s = 0; s < st->players; s++)
        winners += key[s] == best;
    for (int s = 0; s < st->players; s++)
        out[s] = key[s] == best ? 1.0 / winners : 0.0;
}

/* ---------------------------------------------------------- hidden things */

/* Everything `seat` cannot know, rearranged at random: the other hands
 * (market and power cards; in setup the pairs dealt to keep from), the
 * market deck (the Health Inspectors still in it anywhere in what is left of
 * the bottom third), the power and order decks, and the values of the tip
 * tokens that are not the seat's own. */
void pd_determinize(pd_state *st, int seat, pb_rng *rng)
{
    if (st->phase == PD_PH_OVER)
        return; /* PD-E1: everything is turned over at the end */
    /* market cards; the known top ones (Buying Time) only change order */
    uint8_t pool[PD_DECK_MAX + PD_PLAYERS * 64];
    int n = 0, inspectors = 0, unknown = st->ndeck - st->known_top;
    pb_rng_deal_u8(rng, st->deck + unknown, st->known_top);
    for (int i = 0; i < unknown; i++) {
        if (st->deck[i] == PD_CARD_INSPECTOR)
            inspectors++;
        else
            pool[n++] = st->deck[i];
    }
    for (int s = 0; s < st->players; s++) {
        if (s == seat)
            continue;
        pd_player *p = &st->player[s];
        for (int run = 0; run < PD_TYPES; run += 8) {
            if (pd_none8(&p->hand[run]))
                continue;
            for (int c = run; c < run + 8; c++)
                for (; p->hand[c]; p->hand[c]--)
                    pool[n++] = (uint8_t)c;
        }
    }
    pb_rng_deal_u8(rng, pool, n);
    int k = 0;
    for (int s = 0; s < st->players; s++)
        if (s != seat)
            for (int i = 0; i < st->player[s].hand_size; i++)
                st->player[s].hand[pool[k++]]++;
    int bottom = st->timer < unknown ? st->timer : unknown;
    for (int i = 0; i < unknown; i++)
        st->deck[i] = i < inspectors ? PD_CARD_INSPECTOR : pool[k++];
    pb_rng_shuffle_u8(rng, st->deck, bottom);

    /* power cards */
    uint8_t powers[PD_MAX_POWERS];
    int np = 0;
    for (int i = 0; i < st->npower_deck; i++)
        powers[np++] = st->power_deck[i];
    int held[PD_PLAYERS] = {0}, choice[PD_PLAYERS] = {0};
    for (int s = 0; s < st->players; s++) {
        if (s == seat)
            continue;
        held[s] = __builtin_popcountll(st->player[s].powers);
        choice[s] = __builtin_popcountll(st->kept_choice[s]);
        uint64_t m = st->player[s].powers | st->kept_choice[s];
        for (; m; m &= m - 1)
            powers[np++] = (uint8_t)__builtin_ctzll(m);
        st->player[s].powers = st->kept_choice[s] = 0;
    }
    pb_rng_deal_u8(rng, powers, np);
    k = 0;
    for (int s = 0; s < st->players; s++) {
        for (int i = 0; i < held[s]; i++)
            st->player[s].powers |= 1ull << powers[k++];
        for (int i = 0; i < choice[s]; i++)
            st->kept_choice[s] |= 1ull << powers[k++];
    }
    for (int i = 0; i < st->npower_deck; i++)
        st->power_deck[i] = powers[k++];

    /* the order deck, with the cards co-op left in the box unseen while
     * the deck still holds cards nobody has seen */
    int8_t orders[2 * PD_MAX_ORDERS];
    int unseen = st->order_deck_seen ? 0 : st->norder_box;
    memcpy(orders, st->order_deck, st->norder_deck);
    memcpy(orders + st->norder_deck, st->order_box, (size_t)unseen);
    pb_rng_deal_u8(rng, (uint8_t *)orders, st->norder_deck + unseen);
    memcpy(st->order_deck, orders, st->norder_deck);
    memcpy(st->order_box, orders + st->norder_deck, (size_t)unseen);

    /* tip values: every token but the seat's own, and those it looked at
     * (Ham) and can still tell apart, is face down (a spectator, seat < 0,
     * knows none) */
    bool own[256] = {false};
    for (int i = 0; seat >= 0 && i < st->player[seat].ntips; i++)
        if (st->player[seat].tip[i] != PD_NO_TIP)
            own[st->player[seat].tip[i]] = true;
    for (int t = 0; seat >= 0 && t < st->ntips; t++)
        own[t] |= (st->tip_seen[t] >> seat & 1) != 0;
    uint8_t values[256];
    int nv = 0;
    for (int t = 0; t < st->ntips; t++)
        if (!own[t])
            values[nv++] = st->tip_value[t];
    pb_rng_deal_u8(rng, values, nv);
    nv = 0;
    for (int t = 0; t < st->ntips; t++)
        if (!own[t])
            st->tip_value[t] = values[nv++];

    pb_rng_seed(&st->rng, ((uint64_t)pb_rng_next(rng) << 32) | pb_rng_next(rng));
}
