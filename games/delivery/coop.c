/* coop.c -- New York Pizza Delivery's co-op game (PD-C1): the team's goals
 * and difficulty rows, the order system fed by Pizza Promotions on the week
 * tracker, Transfer Goods, and how the team wins or loses. The turn itself
 * is the competitive one (engine.c); these are the places it differs. */
#include <stdio.h>
#include <string.h>

#include "delivery.h"
#include "internal.h"

/* PD-C1: Blue promotion, Red promotion, pizzas, money; HARD to EASY. Rows 4
 * and 6 lost cells in the rulebook's text: the spec fills them between
 * their neighbours. */
const uint8_t pd_difficulty[PD_DIFFICULTIES][4] = {
    {8, 10, 36, 75},  {9, 11, 34, 70},  {10, 12, 32, 65}, {11, 13, 30, 60},
    {13, 15, 25, 55}, {15, 17, 22, 50}, {17, 19, 20, 45}, {19, 21, 18, 40},
};

int pd_marker_row(int marker, int value)
{
    for (int row = 0; row < PD_DIFFICULTIES; row++)
        if (pd_difficulty[row][marker] == value)
            return row;
    return -1;
}

void pd_marker_values(int marker, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int row = 0; row < PD_DIFFICULTIES && used < n; row++)
        used += (size_t)snprintf(buf + used, n - used, "%s%d", row ? ", " : "", pd_difficulty[row][marker]);
}

void pd_rules_coop(pd_rules *r, int difficulty)
{
    const uint8_t *row = pd_difficulty[difficulty - 1];
    r->coop = true;
    r->promo_at[PD_PROMO_BLUE] = row[0];
    r->promo_at[PD_PROMO_RED] = row[1];
    r->goal_pizzas = row[2];
    r->goal_money = row[3];
}

int pd_team_deliveries(const pd_state *st)
{
    int n = 0;
    for (int s = 0; s < st->players; s++)
        n += st->player[s].deliveries;
    return n;
}

bool pd_first_round(const pd_state *st)
{
    return st->rules->coop && st->turn < st->players;
}

/* PD-C1 setup: 14 order cards at random, the rest stay in the box unseen;
 * no order is made yet; the pawn on Saturday, Friday's promotion. */
void pd_coop_setup(pd_state *st)
{
    while (st->norder_deck > PD_COOP_ORDERS) /* the deck is shuffled: its top cards are random */
        st->order_box[st->norder_box++] = st->order_deck[--st->norder_deck];
    st->day = 0;
    st->promo[PD_FRIDAY] = PD_PROMO(PD_PROMO_EVENING, PD_PROMO_FRIDAY);
}

/* Orders flow from slot 0 (Order 1) to slot 3 (Order 4): the ones on the
 * board slide right over empty slots, keeping their order. Pandemic's
 * Orders 5 and 6 stay where they are. */
static void slide_right(pd_state *st)
{
    int to = PD_BOARD_SLOTS - 1;
    for (int i = PD_BOARD_SLOTS - 1; i >= 0; i--)
        if (st->order[i].kind >= 0) {
            if (i != to) {
                st->order[to] = st->order[i];
                pd_clear_order(st, i);
            }
            to--;
        }
}

void pd_coop_delivered(pd_state *st, int slot)
{
    pd_clear_order(st, slot);
    slide_right(st);
}

/* A promotion's order in slot 0; one pushed past Order 4 goes into the sewer
 * with its cards (none while Power Outage has them), its card out of the
 * game, its tip back face down; Pandemic's orders are never pushed. False
 * when no order card is left: the team has lost. */
static bool add_order(pd_state *st)
{
    if (st->norder_deck == 0 && st->norder_discard == 0)
        return false;
    slide_right(st);
    pd_order *last = &st->order[PD_BOARD_SLOTS - 1];
    if (st->order[0].kind >= 0) { /* every board slot full */
        for (int i = 0; i < last->ncards; i++)
            st->sewer[last->card[i]]++;
        if (last->tip != PD_NO_TIP)
            pd_return_tip(st, last->tip);
        st->orders_out++;
        memmove(&st->order[1], &st->order[0], sizeof st->order[0] * (PD_BOARD_SLOTS - 1));
    }
    pd_make_order(st, 0);
    slide_right(st);
    return true;
}

/* The game ends with the team's result; with Top Chef the die is rolled now,
 * from the game's own randomness, so a record replays it. */
void pd_coop_over(pd_state *st, int result)
{
    st->coop_result = (uint8_t)result;
    st->phase = PD_PH_OVER;
    st->promo_choice = 0;
    if (st->rules->top_chef)
        st->top_chef_roll = (uint8_t)(1 + pb_rng_below(&st->rng, 6));
}

/* The orders a token (and Insane's back-side token with it) adds in the
 * morning or the evening: its front's two (one each when split), its
 * back's one (Easier) at the time chosen. */
static int promotion_orders(uint8_t p, bool evening)
{
    int when = PD_PROMO_WHEN(p), at = evening ? PD_PROMO_EVENING : PD_PROMO_MORNING;
    int orders = p & PD_PROMO_BACK            ? when == at
                 : when == PD_PROMO_SPLIT ? 1
                 : when == at             ? 2
                                          : 0;
    return orders + (PD_PROMO_EXTRA(p) == at);
}

/* The orders a promotion on today's tracker adds now (morning or evening). */
static void promotion(pd_state *st, bool evening)
{
    uint8_t p = st->promo[st->day];
    if (!p || (st->promo_asleep >> st->day & 1))
        return;
    int orders = promotion_orders(p, evening);
    for (int k = 0; k < orders; k++)
        if (!add_order(st)) {
            pd_coop_over(st, PD_COOP_LOST_ORDERS);
            return;
        }
}

/* "Advance the Day" after every turn: the evening's orders, the pawn to the
 * next day (a token that went under it wakes), the morning's orders. */
void pd_coop_next_day(pd_state *st)
{
    promotion(st, true);
    if (st->phase == PD_PH_OVER)
        return;
    st->promo_asleep &= (uint8_t)~(1u << st->day);
    st->day = (uint8_t)((st->day + 1) % PD_DAYS);
    promotion(st, false);
}

/* After every decision: a promotion marker the money reached puts a token on
 * a day the die names (Saturday..Thursday: Friday has its own), rolled again
 * while that day has one; the goals met win; the third Health Inspector
 * before that loses. With Insane or Easier the token has a back-side pizza
 * whose morning or evening the player whose decision reached the marker
 * chooses (PD_PH_PROMO) before anything else; a second marker reached at
 * once waits for that choice. */
void pd_coop_check(pd_state *st)
{
    if (!st->rules->coop || st->phase == PD_PH_OVER)
        return;
    for (int colour = PD_PROMO_BLUE; colour <= PD_PROMO_RED && !st->promo_choice; colour++) {
        if ((st->promos_placed >> colour & 1) || st->team_money < st->rules->promo_at[colour])
            continue;
        st->promos_placed |= (uint8_t)(1u << colour);
        int day;
        do
            day = (int)pb_rng_below(&st->rng, PD_DAYS - 1);
        while (st->promo[day]);
        st->promo[day] = st->rules->easier ? (uint8_t)(PD_PROMO(0, colour) | PD_PROMO_BACK)
                                           : PD_PROMO(PD_PROMO_MORNING + (int)pb_rng_below(&st->rng, 3), colour);
        if (day == st->day)
            st->promo_asleep |= (uint8_t)(1u << day);
        if (st->rules->easier || st->rules->insane) {
            st->promo_choice = (uint8_t)(day + 1);
            st->promo_resume = st->phase;
            st->phase = PD_PH_PROMO;
        }
    }
    if (pd_team_deliveries(st) >= st->rules->goal_pizzas && st->team_money >= st->rules->goal_money) {
        pd_coop_over(st, PD_COOP_WON);
    } else if (st->inspectors >= PD_INSPECTORS_TO_END) {
        memset(st->fines_due, 0, sizeof st->fines_due);
        pd_coop_over(st, PD_COOP_LOST_INSPECTOR);
    }
}

/* Insane or Easier: the back-side pizza's morning or evening. */
int pd_list_promo_times(const pd_state *st, pb_action *out, int n)
{
    (void)st;
    n = pd_add_action(out, n, PD_ACTION(PD_A_PROMO, PD_PROMO_MORNING));
    return pd_add_action(out, n, PD_ACTION(PD_A_PROMO, PD_PROMO_EVENING));
}

void pd_promo_time(pd_state *st, int when)
{
    uint8_t *p = &st->promo[st->promo_choice - 1];
    *p = (uint8_t)(*p | (st->rules->easier ? when : when << 4));
    st->promo_choice = 0;
    st->phase = st->promo_resume;
}

/* ------------------------------------------------------------ Top Chef */

const char *const pd_chef_categories[7] = {
    "",
    "most deliveries",
    "highest tip value",
    "most pizzerias",
    "highest-value tableau",
    "most disks on the board",
    "lowest in the most of the other categories",
};

/* A seat's value in categories 1..5: deliveries, the tip tokens' money,
 * open pizzerias, the tableau's cards ($1 each at the competitive end,
 * PD-E1) and its disks on the board. */
static int chef_value(const pd_state *st, int seat, int category)
{
    int disks, cards = pd_tableau_cards(st, seat, &disks), open = 0;
    for (int v = 0; v < PD_MAX_VILLAGES; v++) {
        const pd_pizzeria *z = &st->player[seat].pizzeria[v];
        open += z->lot >= 0 && z->ncards > 0 && z->disks > 0; /* Stock Market Crash may have closed one */
    }
    switch (category) {
    case PD_CHEF_DELIVERIES:
        return st->player[seat].deliveries;
    case PD_CHEF_TIPS:
        return pd_tip_money(st, seat);
    case PD_CHEF_PIZZERIAS:
        return open;
    case PD_CHEF_TABLEAU:
        return cards;
    default:
        return disks;
    }
}

/* The seats with the highest value (a tie shares), a bit each. */
static unsigned best_of(const int *value, int players, bool lowest)
{
    unsigned who = 0;
    int best = value[0];
    for (int s = 0; s < players; s++) {
        if (lowest ? value[s] < best : value[s] > best) {
            best = value[s];
            who = 0;
        }
        if (value[s] == best)
            who |= 1u << s;
    }
    return who;
}

unsigned pd_top_chef(const pd_state *st, int roll, int *value)
{
    if (roll != PD_CHEF_LOWEST) {
        for (int s = 0; s < st->players; s++)
            value[s] = chef_value(st, s, roll);
        return best_of(value, st->players, false);
    }
    memset(value, 0, sizeof *value * (size_t)st->players);
    for (int c = PD_CHEF_DELIVERIES; c < PD_CHEF_LOWEST; c++) {
        int v[PD_PLAYERS];
        for (int s = 0; s < st->players; s++)
            v[s] = chef_value(st, s, c);
        unsigned low = best_of(v, st->players, true);
        for (int s = 0; s < st->players; s++)
            value[s] += low >> s & 1;
    }
    return best_of(value, st->players, false);
}

const char *const pd_day_names[PD_DAYS] = {"Saturday", "Sunday",   "Monday", "Tuesday",
                                           "Wednesday", "Thursday", "Friday"};

/* The next promotion still to come: turns from now (0: this turn's evening)
 * and its orders, or -1. */
int pd_next_promotion(const pd_state *st, int *orders)
{
    for (int k = 0; k <= PD_DAYS; k++) {
        int d = (st->day + k) % PD_DAYS;
        uint8_t p = st->promo[d];
        if (!p || (k == 0 && (st->promo_asleep >> d & 1)))
            continue;
        *orders = promotion_orders(p, true) + (k == 0 ? 0 : promotion_orders(p, false));
        if (*orders)
            return k;
    }
    return -1;
}

/* ------------------------------------------------------ Transfer Goods */

/* The neighbours: the next seat clockwise ("left") and the one before. */
static int neighbour(const pd_state *st, int dir)
{
    return (st->seat + (dir ? st->players - 1 : 1)) % st->players;
}

bool pd_can_give(const pd_state *st)
{
    const pd_player *p = &st->player[st->seat];
    return st->rules->coop && st->players > 1 && st->given < PD_GIVE_MAX && (p->hand_size > 0 || p->powers);
}

/* A card or power card to either neighbour (one direction with two players:
 * both neighbours are the same), or done. */
int pd_list_gifts(const pd_state *st, pb_action *out, int n)
{
    const pd_player *p = &st->player[st->seat];
    int dirs = st->players > 2 ? 2 : 1;
    for (int dir = 0; dir < dirs; dir++) {
        for (int c = 0; c < PD_TYPES; c++)
            if (p->hand[c])
                n = pd_add_action(out, n, PD_ACTION(PD_A_GIVE, c | dir << 12));
        for (uint64_t m = p->powers; m; m &= m - 1)
            n = pd_add_action(out, n, PD_ACTION(PD_A_GIVE, (PD_POWER_FLAG | __builtin_ctzll(m)) | dir << 12));
    }
    return pd_add_action(out, n, PD_ACTION(PD_A_END, 0));
}

void pd_give(pd_state *st, uint32_t arg)
{
    int to = neighbour(st, (int)(arg >> 12 & 1));
    int item = (int)(arg & 0xFFF);
    if (item & PD_POWER_FLAG) {
        st->player[st->seat].powers &= ~(1ull << (item & 63));
        st->player[to].powers |= 1ull << (item & 63);
    } else {
        pd_hand_remove(st, st->seat, (pd_card)item);
        pd_hand_add(st, to, (pd_card)item);
    }
    st->given++;
}

int pd_gift_receiver(const pd_state *st, pb_action a)
{
    return neighbour(st, (int)(PD_ARG(a) >> 12 & 1));
}

/* The rulebook's record code of the markers ("Win 3PL - B15 - R17 - P22 -
 * M50"), and the mode when one is played: " - Insane", " - Easier". */
void pd_coop_code(const pd_state *st, char *buf, size_t n)
{
    const pd_rules *r = st->rules;
    snprintf(buf, n, "%s %dPL - B%d - R%d - P%d - M%d%s", st->coop_result == PD_COOP_WON ? "Win" : "Loss", st->players,
             r->promo_at[PD_PROMO_BLUE], r->promo_at[PD_PROMO_RED], r->goal_pizzas, r->goal_money,
             r->insane ? " - Insane" : r->easier ? " - Easier" : "");
}

/* Top Chef once rolled: the die, its category, each seat's value in it and
 * the Top Chefs (seats; their names when given). */
json_t *pd_top_chef_json(const pd_state *st, const char *const *names)
{
    int value[PD_PLAYERS];
    unsigned chefs = pd_top_chef(st, st->top_chef_roll, value);
    json_t *seats = json_array(), *values = json_array(), *who = json_array();
    for (int s = 0; s < st->players; s++) {
        json_array_append_new(values, json_integer(value[s]));
        if (!(chefs >> s & 1))
            continue;
        char fallback[16];
        snprintf(fallback, sizeof fallback, "Seat %d", s + 1);
        json_array_append_new(seats, json_integer(s));
        json_array_append_new(who, json_string(names && names[s] ? names[s] : fallback));
    }
    return json_pack("{s:i,s:s,s:o,s:o,s:o}", "roll", st->top_chef_roll, "category",
                     pd_chef_categories[st->top_chef_roll], "values", values, "seats", seats, "names", who);
}
