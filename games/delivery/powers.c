/* powers.c -- New York Pizza Delivery: playing power cards (PD-T1, PD-P3)
 * and what the ones in play do to deliveries.
 *
 * A power card is played from hand before or after the turn's action (not
 * both). SPEED, MONEY and EVENT cards go to the tableau, one of each type (a
 * new one replaces the old); a GLOBAL card acts on everyone at once and
 * replaces the global in play. The engine plays the cards in pd_pc: every
 * basic and expansion card (docs/rules-notes.md); the Instant ones are
 * played on others' turns (instant.c), Property Tax on the player's own
 * too. A card in play may act on its own: Bait and Switch's swap, once a
 * turn. */
#include <string.h>

#include "delivery.h"
#include "internal.h"

static const char *const pc_ids[PD_PC_COUNT] = {
    [PD_PC_DRONE] = "drone-delivery",
    [PD_PC_BOAT] = "motor-boat",
    [PD_PC_ROLLER_BLADES] = "roller-blades",
    [PD_PC_FAST_PASS] = "subway-fast-pass",
    [PD_PC_TICKET_BLUE] = "subway-ticket-blue",
    [PD_PC_TICKET_RED] = "subway-ticket-red",
    [PD_PC_FINANCIAL_WIZARD] = "financial-wizard",
    [PD_PC_MOB_BOSS] = "mob-boss",
    [PD_PC_POPE] = "pope-of-greenwich-village",
    [PD_PC_PARK_COMMISSIONER] = "park-commissioner",
    [PD_PC_PARK_PATH] = "park-path",
    [PD_PC_LONG_DISTANCE] = "long-distance-delivery",
    [PD_PC_EV_MOGUL] = "east-village-mogul",
    [PD_PC_FRUGAL] = "frugal-shopper",
    [PD_PC_LIBERTY] = "liberty-storage",
    [PD_PC_HI_JINKS] = "midtown-hi-jinks",
    [PD_PC_HEALTH_INSPECTOR] = "health-inspector",
    [PD_PC_BAIT_AND_SWITCH] = "bait-and-switch",
    [PD_PC_COMMISSIONER] = "building-commissioner",
    [PD_PC_FARMER_BROWN] = "farmer-brown",
    [PD_PC_COLD_STORAGE] = "cold-storage",
    [PD_PC_HARLEM_ROTARY] = "harlem-rotary-pizzeria",
    [PD_PC_LUCKY_DAY] = "lucky-day",
    [PD_PC_DOWN_ON_LUCK] = "down-on-your-luck",
    [PD_PC_OVER_ACHIEVER] = "over-achiever",
    [PD_PC_MOPED] = "moped-delivery",
    [PD_PC_COUPON_DAYS] = "coupon-days",
    [PD_PC_HACKER] = "hacker",
    [PD_PC_ORDER_SCREW_UP] = "order-screw-up",
    [PD_PC_SYSTEM_ERROR] = "system-error",
    [PD_PC_MY_SPOT] = "thats-my-spot",
    [PD_PC_BONUS_SUPPLIES] = "bonus-supplies",
    [PD_PC_OOOOPS] = "oooops",
    [PD_PC_WINDFALL] = "windfall",
    [PD_PC_SHORTAGE] = "ingredient-shortage",
    [PD_PC_CHARITY] = "charity-event",
    [PD_PC_CRASH] = "stock-market-crash",
    [PD_PC_SOARS] = "stock-market-soars",
    [PD_PC_BUYING_TIME] = "buying-time",
    [PD_PC_TYCOON] = "real-estate-tycoon",
    [PD_PC_OUT_OF_SUPPLIES] = "out-of-supplies",
    [PD_PC_PROPERTY_TAX] = "property-tax",
    [PD_PC_ROUGH_DELIVERY] = "rough-delivery",
    [PD_PC_TRAFFIC_JAM] = "traffic-jam",
    [PD_PC_PANDEMIC] = "pandemic",
    [PD_PC_POWER_OUTAGE] = "power-outage",
    [PD_PC_COPY_CAT] = "copy-cat",
    [PD_PC_SPECIAL_SALE] = "special-sale",
};

void pd_rules_powers(pd_rules *r)
{
    r->playable = 0;
    for (int k = 0; k < PD_PC_COUNT; k++) {
        r->pc[k] = -1;
        for (int i = 0; i < r->data.cards.npowers; i++)
            if (strcmp(r->data.cards.power[i].id, pc_ids[k]) == 0) {
                r->pc[k] = (int8_t)i;
                r->playable |= 1ull << i;
            }
    }
}

bool pd_has(const pd_state *st, int seat, pd_pc pc)
{
    int i = st->rules->pc[pc];
    return i >= 0 && (st->tableau[seat] >> i & 1);
}

int pd_other_holder(const pd_state *st, int seat, pd_pc pc)
{
    for (int s = 0; s < st->players; s++)
        if (s != seat && pd_has(st, s, pc))
            return s;
    return -1;
}

static bool anyone_has(const pd_state *st, pd_pc pc)
{
    for (int s = 0; s < st->players; s++)
        if (pd_has(st, s, pc))
            return true;
    return false;
}

/* ---- playing ---- */

/* A random card out of the sewer (with `plain`, only a meat or a
 * vegetable: no ANY card, no Extra Cheese); PD_NO_CARD when there is none. */
static pd_card from_sewer(pd_state *st, bool plain)
{
    int total = 0;
    for (int c = 0; c < PD_TYPES; c++)
        if (!plain || pd_group_of(st, PD_CARD_INGREDIENT(c)) <= PD_VEGETABLE)
            total += st->sewer[c];
    if (total == 0)
        return PD_NO_CARD;
    int pick = (int)pb_rng_below(&st->rng, (uint32_t)total);
    for (int c = 0; c < PD_TYPES; c++)
        if ((!plain || pd_group_of(st, PD_CARD_INGREDIENT(c)) <= PD_VEGETABLE) && (pick -= st->sewer[c]) < 0) {
            st->sewer[c]--;
            return (pd_card)c;
        }
    return PD_NO_CARD;
}

/* Cold Storage: up to 4 random cards from the sewer go under the card; not
 * to be used on the turn they come. */
static void fill_cold(pd_state *st)
{
    st->ncold = 0;
    for (pd_card c; st->ncold < PD_COLD_CARDS && (c = from_sewer(st, false)) != PD_NO_CARD;)
        st->cold[st->ncold++] = c;
    st->cold_filled_turn = st->turn;
}

static int list_order_changes(const pd_state *st, pb_action *out, int n);

/* Stock Market Crash: a level disk off the board, or a card out of a
 * pizzeria (never leaving a Central Park card on top); a pizzeria without
 * disks or cards is closed until an upgrade reopens it. */
int pd_list_crash(const pd_state *st, int s, pb_action *out, int n)
{
    for (int v = 0; v < st->rules->data.map.nvillages; v++) {
        const pd_pizzeria *z = &st->player[s].pizzeria[v];
        if (z->lot < 0)
            continue;
        if (z->disks)
            n = pd_add_action(out, n, PD_ACTION(PD_A_CRASH, v));
        int any_ingredient = 0;
        for (int i = 0; i < z->ncards; i++)
            any_ingredient += pd_group_of(st, PD_CARD_INGREDIENT(z->card[i])) == PD_ANY_INGREDIENT;
        for (int i = 0; i < z->ncards; i++) {
            bool park_on_top = i == z->ncards - 1 && i > 0 && pd_is_park_card(st, z->card[i - 1]);
            bool same = i > 0 && z->card[i - 1] == z->card[i]; /* the same card twice: one way */
            /* the last Any Ingredient card keeps a reputation over 5 within its limit */
            bool over = any_ingredient == 1 && pd_group_of(st, PD_CARD_INGREDIENT(z->card[i])) == PD_ANY_INGREDIENT &&
                        z->disks + z->ncards - 1 > PD_MAX_REPUTATION;
            if (!park_on_top && !same && !over)
                n = pd_add_action(out, n, PD_ACTION(PD_A_CRASH, v | (i + 1) << 4));
        }
    }
    return n;
}

void pd_crash(pd_state *st, int s, uint32_t arg)
{
    pd_pizzeria *z = &st->player[s].pizzeria[arg & 0xF];
    int what = (int)(arg >> 4);
    if (what == 0) {
        z->disks--;
        st->player[s].disks++;
    } else {
        st->sewer[z->card[what - 1]]++;
        memmove(z->card + what - 1, z->card + what, (size_t)(z->ncards - what));
        z->ncards--;
    }
}

static bool global_is(const pd_state *st, pd_pc pc)
{
    return st->global >= 0 && st->global == st->rules->pc[pc];
}

bool pd_order_dark(const pd_state *st, int slot)
{
    const pd_order *o = &st->order[slot];
    return global_is(st, PD_PC_POWER_OUTAGE) && o->kind >= 0 && o->ncards == 0 &&
           !st->rules->data.cards.order[o->kind].specialty;
}

/* Power Outage: the market cards of every regular order, shuffled, on top
 * of the market deck. They lay face up, so everyone knows which cards are
 * on top (not their order), as after Buying Time. */
static void power_outage(pd_state *st)
{
    int from = st->ndeck;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        pd_order *o = &st->order[slot];
        for (int i = 0; i < o->ncards && st->ndeck < PD_DECK_MAX; i++)
            st->deck[st->ndeck++] = o->card[i];
        o->ncards = 0;
        memset(o->card, 0, sizeof o->card);
    }
    pb_rng_shuffle_u8(&st->rng, st->deck + from, st->ndeck - from);
    st->known_top = (uint8_t)(st->known_top + st->ndeck - from);
}

/* The global in play goes to the discards, with the card under it; when
 * Power Outage goes (after its round, or replaced), the orders it left
 * without cards get them from the top of the market deck, Order 1 first. */
void pd_end_global(pd_state *st)
{
    if (st->global < 0)
        return;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
        if (pd_order_dark(st, slot))
            pd_fill_order(st, slot);
    st->power_discard |= 1ull << st->global;
    st->global = -1;
    if (st->shortage != PD_NO_CARD) {
        st->sewer[st->shortage]++;
        st->shortage = PD_NO_CARD;
    }
}

/* Ingredient Shortage: the ingredient no delivery may include, or -1. */
int pd_short_ingredient(const pd_state *st)
{
    return st->shortage != PD_NO_CARD ? PD_CARD_INGREDIENT(st->shortage) : -1;
}

/* TIMED cards act once, then go to the discards; `target` is the
 * opponent a card is played on (-1: none). */
static void play_timed(pd_state *st, int p, int target)
{
    int s = st->seat;
    const int8_t *pc = st->rules->pc;
    st->power_discard |= 1ull << p;
    if (p == pc[PD_PC_LUCKY_DAY])
        *pd_purse(st, s) = (int16_t)(pd_money(st, s) + 3);
    if (p == pc[PD_PC_DOWN_ON_LUCK])
        for (int k = 0; k < 2; k++) {
            pd_card c = from_sewer(st, false);
            if (c != PD_NO_CARD)
                pd_hand_add(st, s, c);
        }
    if (p == pc[PD_PC_OVER_ACHIEVER])
        st->over_achiever = true;
    if (p == pc[PD_PC_OUT_OF_SUPPLIES] && target >= 0 && st->supplies_due[target] < UINT8_MAX)
        st->supplies_due[target]++;
    if (p == pc[PD_PC_SPECIAL_SALE])
        st->special_sale = true;
    if (p == pc[PD_PC_OOOOPS]) { /* another action, not the same one */
        st->banned = st->action;
        st->phase = PD_PH_START;
    }
    if (p == pc[PD_PC_BUYING_TIME]) /* 10 random sewer cards on top of the market deck */
        for (int k = 0; k < 10 && st->ndeck < PD_DECK_MAX; k++) {
            pd_card c = from_sewer(st, false);
            if (c == PD_NO_CARD)
                break;
            st->deck[st->ndeck++] = c;
            st->known_top++;
        }
    if (p == pc[PD_PC_TYCOON]) { /* a build, a free one, then the turn goes on without reputation */
        st->power_resume = st->phase;
        st->phase = PD_PH_REPUTATION;
        st->steps_left = 2;
        st->tycoon = 1;
        if (st->power_resume == PD_PH_START)
            st->banned = PD_A_REPUTATION;
    }
    if (p == pc[PD_PC_WINDFALL]) {
        *pd_purse(st, s) = (int16_t)(pd_money(st, s) + 3);
        for (int k = 0; k < 2; k++) {
            pd_card c = pd_draw_to_hand(st);
            if (c != PD_NO_CARD)
                pd_hand_add(st, s, c);
        }
        st->windfall = true;
    }
    if (p == pc[PD_PC_BONUS_SUPPLIES]) { /* 3 takes, then back where it was played */
        st->gift = true;
        st->power_resume = st->phase;
        st->phase = PD_PH_BONUS;
        st->steps_left = 3;
    }
    if (p == pc[PD_PC_HACKER] || p == pc[PD_PC_ORDER_SCREW_UP] || p == pc[PD_PC_SYSTEM_ERROR]) {
        st->power_resume = st->phase;
        st->changing = (int8_t)p;
        st->phase = PD_PH_ORDERS;
    }
    if (p == pc[PD_PC_PROPERTY_TAX] && target >= 0) /* the target pays now, then the turn goes on */
        pd_start_tax(st, target);
}

bool pd_cold_usable(const pd_state *st, int seat)
{
    return st->ncold > 0 && st->cold_filled_turn != st->turn && pd_has(st, seat, PD_PC_COLD_STORAGE);
}

/* Once empty, Cold Storage is refilled on its holder's turn for a hand card,
 * a market card or a power card (before or after the action; not on a turn
 * its cards were used or it was filled), if the sewer has cards to give. */
int pd_list_refills(const pd_state *st, pb_action *out, int n)
{
    int s = st->seat;
    if ((st->phase != PD_PH_START && st->phase != PD_PH_AFTER) || st->ncold > 0 || st->frugal_taken ||
        !pd_has(st, s, PD_PC_COLD_STORAGE) || st->cold_filled_turn == st->turn || st->cold_used_turn == st->turn)
        return n;
    int sewer = 0;
    for (int c = 0; c < PD_TYPES; c++)
        sewer += st->sewer[c];
    for (int c = 0; sewer > 0 && c < PD_TYPES; c++)
        if (st->player[s].hand[c])
            n = pd_add_action(out, n, PD_ACTION(PD_A_REFILL, c));
    for (uint64_t m = sewer > 0 && pd_corrected(st) ? st->player[s].powers : 0; m; m &= m - 1)
        n = pd_add_action(out, n, PD_ACTION(PD_A_REFILL, PD_POWER_FLAG | (uint32_t)__builtin_ctzll(m)));
    return n;
}

/* The sewer's cards as it was come out; the discard goes in after them (a
 * power card to the power discards). */
void pd_refill_cold(pd_state *st, uint32_t discard)
{
    if (discard & PD_POWER_FLAG) {
        uint64_t bit = 1ull << (discard & 63);
        st->player[st->seat].powers &= ~bit;
        st->power_discard |= bit;
        fill_cold(st);
        return;
    }
    pd_hand_remove(st, st->seat, (pd_card)discard);
    fill_cold(st);
    st->sewer[discard]++;
}

static int list_farm(const pd_state *st, pb_action *out, int n);

/* PD-T1: one power card a turn, before or after the action; Frugal
 * Shopper's take counts as that turn's card. */
int pd_list_power_plays(const pd_state *st, pb_action *out, int n)
{
    if (st->power_played || (st->phase != PD_PH_START && st->phase != PD_PH_AFTER))
        return n;
    uint64_t m = st->player[st->seat].powers & st->rules->playable;
    const int8_t *pc = st->rules->pc;
    for (; m; m &= m - 1) {
        int p = __builtin_ctzll(m);
        /* Oooops! follows an action (it gives another); Windfall comes before one (it rules some out),
         * and so do Special Sale and Over Achiever (they change the delivery to come; edition 1 and
         * 2 offered Over Achiever after it too, where it did nothing) */
        bool before = p == pc[PD_PC_WINDFALL] || p == pc[PD_PC_SPECIAL_SALE] ||
                      (p == pc[PD_PC_OVER_ACHIEVER] && pd_edition_3(st));
        if ((p == pc[PD_PC_OOOOPS] && st->phase != PD_PH_AFTER) || (before && st->phase != PD_PH_START))
            continue;
        /* Real-Estate Tycoon: a build possible without the card's own $1, and the action is not
         * Increase Your Reputation */
        if (p == pc[PD_PC_TYCOON] && (st->action == PD_A_REPUTATION || !pd_any_build(st, 1)))
            continue;
        /* Property Tax is Timed and Instant: on the player's own turn too, on an opponent who
         * would pay something; the other Instant cards only on others' turns (PD_PH_INSTANT) */
        if (p == pc[PD_PC_PROPERTY_TAX]) {
            for (int t = 0; t < st->players; t++)
                if (t != st->seat && pd_property_tax(st, t) > 0)
                    n = pd_add_action(out, n, PD_ACTION(PD_A_POWER, p | (t + 1) << 8));
            continue;
        }
        if (st->rules->data.cards.power[p].instant)
            continue;
        if (p == pc[PD_PC_OUT_OF_SUPPLIES]) { /* on an opponent */
            for (int t = 0; t < st->players; t++)
                if (t != st->seat)
                    n = pd_add_action(out, n, PD_ACTION(PD_A_POWER, p | (t + 1) << 8));
            continue;
        }
        n = pd_add_action(out, n, PD_ACTION(PD_A_POWER, p));
    }
    return n;
}

void pd_play_power(pd_state *st, uint32_t arg)
{
    int s = st->seat, p = (int)(arg & 63), target = (int)(arg >> 8) - 1;
    const pd_power *card = &st->rules->data.cards.power[p];
    st->player[s].powers &= ~(1ull << p);
    st->power_played = true;
    /* played before the action, its power is used the same turn (PD-T1) */
    st->frugal_played = p == st->rules->pc[PD_PC_FRUGAL] && st->phase == PD_PH_START && pd_corrected(st);
    if (card->type == PD_TIMED) {
        play_timed(st, p, target);
        return;
    }
    if (card->type == PD_GLOBAL) {
        pd_end_global(st);
        st->global = (int8_t)p;
        /* Coupon Days and Ingredient Shortage last 3 rounds: until this
         * seat's turn comes a third time; Power Outage one round */
        int rounds = p == st->rules->pc[PD_PC_COUPON_DAYS] || p == st->rules->pc[PD_PC_SHORTAGE] ? 3
                     : p == st->rules->pc[PD_PC_POWER_OUTAGE]                                     ? 1
                                                                                                  : 0;
        st->global_until = rounds ? (uint16_t)(st->turn + rounds * st->players) : PD_NEVER;
        if (p == st->rules->pc[PD_PC_POWER_OUTAGE])
            power_outage(st);
        if (p == st->rules->pc[PD_PC_PANDEMIC]) /* Orders 5 and 6, where empty; never refilled */
            for (int slot = PD_BOARD_SLOTS; slot < PD_ORDER_SLOTS; slot++)
                if (st->order[slot].kind < 0)
                    pd_make_order(st, slot);
        if (p == st->rules->pc[PD_PC_SHORTAGE])
            st->shortage = from_sewer(st, true); /* Ingredient Shortage: never an ANY card */
        if (p == st->rules->pc[PD_PC_CHARITY]) { /* everyone gives two market cards, if they have them */
            for (int k = 0; k < st->players; k++)
                st->owed[k] = (uint8_t)(st->player[k].hand_size < 2 ? st->player[k].hand_size : 2);
            st->owed_resume = st->phase;
            st->phase = PD_PH_CHARITY;
        }
        if (p == st->rules->pc[PD_PC_SOARS]) { /* a random tip token each, then two takes each */
            for (int k = 0; k < st->players; k++) {
                int tip = pd_draw_tip(st);
                if (tip != PD_NO_TIP)
                    st->player[k].tip[st->player[k].ntips++] = (uint8_t)tip;
                st->owed[k] = 2;
            }
            st->owed_resume = st->phase;
            st->phase = PD_PH_SOARS;
        }
        if (p == st->rules->pc[PD_PC_CRASH]) { /* everyone with a pizzeria loses a level */
            for (int k = 0; k < st->players; k++)
                st->owed[k] = pd_list_crash(st, k, NULL, 0) > 0;
            st->owed_resume = st->phase;
            st->phase = PD_PH_CRASH;
        }
        if (p == st->rules->pc[PD_PC_HEALTH_INSPECTOR])
            for (int k = 0; k < st->players; k++)
                st->fines_due[k]++; /* a fine like the market deck's, not one of the three */
        return;
    }
    /* PD-P3: one active card of each type; the new one replaces the old */
    for (uint64_t m = st->tableau[s]; m; m &= m - 1) {
        int old = __builtin_ctzll(m);
        if (st->rules->data.cards.power[old].type == card->type)
            pd_leave_tableau(st, s, old);
    }
    st->tableau[s] |= 1ull << p;
    const int8_t *pc = st->rules->pc;
    if (p == pc[PD_PC_FAST_PASS])
        st->pass_tokens[s] = card->tokens ? card->tokens : 3;
    /* cards with decisions of their own come back to the phase they left
     * (Bait and Switch has none: its swap is offered once a turn while it
     * is in play, this turn too) */
    st->power_resume = st->phase;
    if (p == pc[PD_PC_COMMISSIONER]) {
        int free_lots = 0;
        for (int l = 0; l < st->rules->data.map.nlots; l++)
            free_lots += st->lot_owner[l] < 0 && st->blocker[l] < 0;
        st->blocks_left = (uint8_t)(free_lots < 3 ? free_lots : 3);
        st->pending.last_key = 0;
        if (st->blocks_left)
            st->phase = PD_PH_BLOCK;
    }
    if (p == pc[PD_PC_FARMER_BROWN] && list_farm(st, NULL, 0) > 0)
        st->phase = PD_PH_FARM;
    if (p == pc[PD_PC_COLD_STORAGE])
        fill_cold(st);
    if (p == pc[PD_PC_MY_SPOT] && st->player[s].disks > 0)
        st->phase = PD_PH_SPOT;
}

/* A card leaves a tableau for the discards, with what it holds. */
void pd_leave_tableau(pd_state *st, int s, int p)
{
    st->tableau[s] &= ~(1ull << p);
    st->power_discard |= 1ull << p;
    const int8_t *pc = st->rules->pc;
    if (p == pc[PD_PC_FAST_PASS])
        st->pass_tokens[s] = 0;
    if (p == pc[PD_PC_COMMISSIONER])
        for (int l = 0; l < PD_MAX_LOTS; l++)
            if (st->blocker[l] == s)
                st->blocker[l] = -1;
    if (p == pc[PD_PC_FARMER_BROWN] && st->farmed[s] != PD_NO_CARD) {
        st->sewer[st->farmed[s]]++;
        st->farmed[s] = PD_NO_CARD;
    }
    if (p == pc[PD_PC_COLD_STORAGE]) {
        for (int i = 0; i < st->ncold; i++)
            st->sewer[st->cold[i]]++;
        st->ncold = 0;
    }
    if (p == pc[PD_PC_MY_SPOT] && st->spot[s] >= 0) { /* the disk goes back to the supply */
        st->player[s].disks++;
        st->spot[s] = -1;
    }
}

/* ---- Bait and Switch; the decisions of Building Commissioner, Farmer Brown ---- */

/* Bait and Switch (SPEED), while in play: once a turn, before or after the
 * action, a delivery or not, a hand card of the same ingredient as a
 * regular order's top card takes its place (it may move the delivery), the
 * top card comes to hand. */
int pd_list_swaps(const pd_state *st, pb_action *out, int n)
{
    const pd_player *p = &st->player[st->seat];
    if (st->swapped || st->frugal_taken || (st->phase != PD_PH_START && st->phase != PD_PH_AFTER) ||
        !pd_has(st, st->seat, PD_PC_BAIT_AND_SWITCH))
        return n;
    for (int slot = 0; slot < PD_ORDER_SLOTS; slot++) {
        const pd_order *o = &st->order[slot];
        if (o->kind < 0 || o->ncards == 0)
            continue;
        pd_card top = o->card[o->ncards - 1];
        for (int c = 0; c < PD_TYPES; c++)
            if (p->hand[c] && c != top && PD_CARD_INGREDIENT(c) == PD_CARD_INGREDIENT(top))
                n = pd_add_action(out, n, PD_ACTION(PD_A_SWAP, slot | c << 8));
    }
    return n;
}

void pd_swap(pd_state *st, uint32_t arg)
{
    int s = st->seat;
    pd_order *o = &st->order[arg & 0xF];
    pd_card mine = (pd_card)(arg >> 8);
    pd_hand_remove(st, s, mine);
    pd_hand_add(st, s, o->card[o->ncards - 1]);
    o->card[o->ncards - 1] = mine;
    st->swapped = true;
}

/* Building Commissioner: empty lots, in lot order, as long as enough remain. */
static int list_blocks(const pd_state *st, pb_action *out, int n)
{
    const pd_map *m = &st->rules->data.map;
    int after = 0;
    for (int l = m->nlots - 1; l >= (int)st->pending.last_key; l--) {
        bool free_lot = st->lot_owner[l] < 0 && st->blocker[l] < 0;
        if (free_lot && after >= st->blocks_left - 1)
            n = pd_add_action(out, n, PD_ACTION(PD_A_BLOCK, l));
        after += free_lot;
    }
    return n;
}

/* Farmer Brown: any ingredient card in the sewer (not Extra Cheese). */
static int list_farm(const pd_state *st, pb_action *out, int n)
{
    for (int c = 0; c < PD_TYPES; c++)
        if (st->sewer[c] && pd_group_of(st, PD_CARD_INGREDIENT(c)) != PD_CHEESE)
            n = pd_add_action(out, n, PD_ACTION(PD_A_FARM, c));
    return n;
}

/* Hacker: a hand card for any card of a regular order (the order's card to
 * hand); Order Screw Up: two cards of the orders change places; System
 * Error: one order's cards in a new order, which only matters for the last
 * (it names the village): the card put last. Or no change ("done"). */
static int list_order_changes(const pd_state *st, pb_action *out, int n)
{
    const int8_t *pc = st->rules->pc;
    int played = st->changing;
    for (int a = 0; a < PD_ORDER_SLOTS; a++) {
        const pd_order *o = &st->order[a];
        for (int i = 0; o->kind >= 0 && i < o->ncards; i++) {
            if (played == pc[PD_PC_HACKER])
                for (int c = 0; c < PD_TYPES; c++)
                    if (st->player[st->seat].hand[c] && c != o->card[i])
                        n = pd_add_action(out, n, PD_ACTION(PD_A_HACK, a | i << 4 | c << 8));
            if (played == pc[PD_PC_SYSTEM_ERROR] && i < o->ncards - 1 && o->card[i] != o->card[o->ncards - 1])
                n = pd_add_action(out, n, PD_ACTION(PD_A_REORDER, a | i << 4));
            if (played != pc[PD_PC_ORDER_SCREW_UP])
                continue;
            for (int b = a; b < PD_ORDER_SLOTS; b++)
                for (int k = b == a ? i + 1 : 0; st->order[b].kind >= 0 && k < st->order[b].ncards; k++)
                    if (st->order[b].card[k] != o->card[i])
                        n = pd_add_action(out, n, PD_ACTION(PD_A_SCREW, a | i << 4 | b << 8 | k << 12));
        }
    }
    return pd_add_action(out, n, PD_ACTION(PD_A_DONE, 0));
}

int pd_list_power_steps(const pd_state *st, pb_action *out, int n)
{
    if (st->phase == PD_PH_ORDERS)
        return list_order_changes(st, out, n);
    if (st->phase == PD_PH_SPOT) { /* That's My Spot: any village's zone */
        for (int v = 0; v < st->rules->data.map.nvillages; v++)
            n = pd_add_action(out, n, PD_ACTION(PD_A_SPOT, v));
        return n;
    }
    if (st->phase == PD_PH_BLOCK)
        return list_blocks(st, out, n);
    return list_farm(st, out, n);
}

void pd_power_step(pd_state *st, pb_action a)
{
    int s = st->seat;
    uint32_t arg = PD_ARG(a);
    switch (PD_KIND(a)) {
    case PD_A_BLOCK:
        st->blocker[arg] = (int8_t)s;
        st->pending.last_key = (uint16_t)(arg + 1);
        if (--st->blocks_left > 0)
            return;
        st->pending.last_key = 0;
        break;
    case PD_A_FARM:
        st->sewer[arg]--;
        st->farmed[s] = (pd_card)arg;
        st->farmed_turn[s] = st->turn;
        break;
    case PD_A_SPOT:
        st->spot[s] = (int8_t)arg;
        st->player[s].disks--;
        break;
    case PD_A_HACK: {
        pd_order *o = &st->order[arg & 0xF];
        int i = arg >> 4 & 0xF;
        pd_card mine = (pd_card)(arg >> 8);
        pd_hand_remove(st, s, mine);
        pd_hand_add(st, s, o->card[i]);
        o->card[i] = mine;
        break;
    }
    case PD_A_SCREW: {
        pd_card *x = &st->order[arg & 0xF].card[arg >> 4 & 0xF], *y = &st->order[arg >> 8 & 0xF].card[arg >> 12 & 0xF];
        pd_card t = *x;
        *x = *y;
        *y = t;
        break;
    }
    case PD_A_REORDER: {
        pd_order *o = &st->order[arg & 0xF];
        int i = arg >> 4 & 0xF;
        pd_card last = o->card[i];
        memmove(o->card + i, o->card + i + 1, (size_t)(o->ncards - i - 1));
        o->card[o->ncards - 1] = last;
        break;
    }
    default: /* DONE: no change */
        break;
    }
    st->changing = -1;
    st->phase = st->power_resume;
}

/* Farmer Brown's card: an ingredient at all of the seat's pizzerias, from
 * the turn after it was put there; -1 when there is none. */
int pd_farmed_ingredient(const pd_state *st, int seat)
{
    if (st->farmed[seat] == PD_NO_CARD || st->farmed_turn[seat] == st->turn || !pd_has(st, seat, PD_PC_FARMER_BROWN))
        return -1;
    return PD_CARD_INGREDIENT(st->farmed[seat]);
}

/* Frugal Shopper: a turn without a delivery may end with one market card,
 * if no other power card is used that turn: none played (Frugal Shopper
 * itself, played before the action, may be used at once), no Bait and
 * Switch swap, no Cold Storage refill. */
bool pd_frugal_take(const pd_state *st)
{
    return st->phase == PD_PH_AFTER && !st->delivered && !st->frugal_taken &&
           (!st->power_played || st->frugal_played) &&
           (!pd_corrected(st) || (!st->swapped && st->cold_filled_turn != st->turn)) &&
           pd_has(st, st->seat, PD_PC_FRUGAL);
}

int pd_hand_limit(const pd_state *st, int seat)
{
    return pd_has(st, seat, PD_PC_LIBERTY) ? PD_HAND_LIMIT + 2 : PD_HAND_LIMIT; /* Liberty Storage */
}

/* ---- deliveries ---- */

/* Route modes open to the seat: the Park Path while anyone owns it, the
 * Motor Boat, a subway line with its ticket or a Fast Pass ride left. */
unsigned pd_park_open(const pd_state *st)
{
    return anyone_has(st, PD_PC_PARK_PATH) ? PD_ROUTE_PARK : 0;
}

unsigned pd_allowed_modes(const pd_state *st, int seat)
{
    unsigned modes = PD_ROUTE_STREETS | pd_park_open(st);
    if (pd_has(st, seat, PD_PC_BOAT))
        modes |= PD_ROUTE_BOAT;
    if (pd_has(st, seat, PD_PC_TICKET_RED))
        modes |= PD_ROUTE_RED;
    if (pd_has(st, seat, PD_PC_TICKET_BLUE))
        modes |= PD_ROUTE_BLUE;
    if (pd_has(st, seat, PD_PC_FAST_PASS) && st->pass_tokens[seat] > 0)
        modes |= PD_ROUTE_RED | PD_ROUTE_BLUE;
    return modes;
}

/* Is this combination of modes one the seat can ride as announced? A
 * ticket rides its own colour; the Fast Pass rides both, so with it the two
 * subway bits always go together ("via subway"). */
bool pd_modes_ok(const pd_state *st, int seat, unsigned modes)
{
    unsigned allowed = pd_allowed_modes(st, seat), sub = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE);
    if (modes & ~allowed)
        return false;
    bool pass = pd_has(st, seat, PD_PC_FAST_PASS) && st->pass_tokens[seat] > 0;
    return sub == 0 || pass == (sub == (PD_ROUTE_RED | PD_ROUTE_BLUE));
}

/* Cards for `over` spaces beyond the free range, and the fare: Drone Delivery
 * moves 2 spaces a card; Roller Blades 3 more free, then 2 cards a space;
 * a subway ticket costs 2 cards a ride (the Fast Pass a token instead). */
int pd_distance_cards(const pd_state *st, int seat, int length, int free_range, unsigned modes)
{
    int over = length - free_range;
    int cards;
    if (pd_has(st, seat, PD_PC_MOPED)) /* 5 spaces more, none paid for */
        return over - 5 > 0 ? -1 : 0;
    if (pd_has(st, seat, PD_PC_ROLLER_BLADES)) {
        over -= 3;
        cards = over > 0 ? 2 * over : 0;
    } else if (pd_has(st, seat, PD_PC_DRONE)) {
        cards = over > 0 ? (over + 1) / 2 : 0;
    } else {
        cards = over > 0 ? over : 0;
    }
    unsigned sub = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE);
    if (sub && sub != (PD_ROUTE_RED | PD_ROUTE_BLUE) && !(pd_has(st, seat, PD_PC_FAST_PASS) && st->pass_tokens[seat]))
        cards += 2;
    return cards;
}

static int zone_card(const pd_state *st, int village)
{
    static const pd_pc zone_cards[] = {PD_PC_FINANCIAL_WIZARD, PD_PC_MOB_BOSS, PD_PC_POPE, PD_PC_PARK_COMMISSIONER};
    for (size_t k = 0; k < sizeof zone_cards / sizeof zone_cards[0]; k++) {
        int i = st->rules->pc[zone_cards[k]];
        if (i >= 0 && st->rules->data.cards.power[i].nvillages > 0 && st->rules->data.cards.power[i].village[0] == village)
            return (int)zone_cards[k];
    }
    return -1;
}

/* What the bank adds for the deliverer's own cards (shown in the quote). */
int pd_power_bonus(const pd_state *st, int seat, int from_village, int zone_village, bool park_used)
{
    int bonus = 0, zc = zone_card(st, zone_village);
    if (zc >= 0 && pd_has(st, seat, (pd_pc)zc)) {
        if (zc == PD_PC_PARK_COMMISSIONER)
            bonus += 1 + anyone_has(st, PD_PC_PARK_PATH);
        else
            bonus += 2;
    }
    if (park_used && pd_has(st, seat, PD_PC_PARK_PATH))
        bonus += 2;
    if (pd_has(st, seat, PD_PC_MY_SPOT) && st->spot[seat] == zone_village) /* That's My Spot: $1 from the bank */
        bonus += 1;
    /* Long Distance Delivery: between the two villages its card names */
    int ld = st->rules->pc[PD_PC_LONG_DISTANCE];
    if (ld >= 0 && pd_has(st, seat, PD_PC_LONG_DISTANCE) && st->rules->data.cards.power[ld].nvillages == 2) {
        int a = st->rules->data.cards.power[ld].village[0], b = st->rules->data.cards.power[ld].village[1];
        if ((from_village == a && zone_village == b) || (from_village == b && zone_village == a))
            bonus += 5;
    }
    return bonus;
}

static void pay_player(pd_state *st, int from, int to, int dollars)
{
    if (st->rules->coop)
        return; /* the team's money pays itself */
    if (dollars > st->player[from].money)
        dollars = st->player[from].money;
    st->player[from].money = (int16_t)(st->player[from].money - dollars);
    st->player[to].money = (int16_t)(st->player[to].money + dollars);
}

/* After a delivery's pay: opponents' zone cards and the Park Path's owner
 * are paid $1 each (from money, as far as it goes); the Fast Pass gives up
 * a token for a ride. */
void pd_delivery_powers(pd_state *st, int seat, int zone_village, unsigned modes, bool park_used)
{
    int zc = zone_card(st, zone_village);
    if (zc >= 0) {
        int holder = pd_other_holder(st, seat, (pd_pc)zc);
        if (holder >= 0)
            pay_player(st, seat, holder, 1);
    }
    if (park_used) {
        int owner = pd_other_holder(st, seat, PD_PC_PARK_PATH);
        if (owner >= 0)
            pay_player(st, seat, owner, 1);
    }
    int spot = pd_other_holder(st, seat, PD_PC_MY_SPOT); /* That's My Spot: $1 to its holder */
    if (spot >= 0 && st->spot[spot] == zone_village)
        pay_player(st, seat, spot, 1);
    if ((modes & (PD_ROUTE_RED | PD_ROUTE_BLUE)) && pd_has(st, seat, PD_PC_FAST_PASS) && st->pass_tokens[seat])
        st->pass_tokens[seat]--;
}

int pd_rotary_village(const pd_state *st)
{
    int i = st->rules->pc[PD_PC_HARLEM_ROTARY];
    return i >= 0 && st->rules->data.cards.power[i].nvillages > 0 ? st->rules->data.cards.power[i].village[0] : -1;
}

/* Midtown Hi-Jinks: an opponent's delivery to Midtown gets no tip. */
bool pd_tip_blocked(const pd_state *st, int seat, int zone_village)
{
    int i = st->rules->pc[PD_PC_HI_JINKS];
    return i >= 0 && st->rules->data.cards.power[i].nvillages > 0 &&
           st->rules->data.cards.power[i].village[0] == zone_village && pd_other_holder(st, seat, PD_PC_HI_JINKS) >= 0;
}

/* East Village Mogul: two market cards after a delivery to its village. */
int pd_bonus_takes(const pd_state *st, int seat, int zone_village)
{
    int i = st->rules->pc[PD_PC_EV_MOGUL];
    return i >= 0 && st->rules->data.cards.power[i].nvillages > 0 &&
                   st->rules->data.cards.power[i].village[0] == zone_village && pd_has(st, seat, PD_PC_EV_MOGUL)
               ? 2
               : 0;
}
