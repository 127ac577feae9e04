/* notation.c -- New York Pizza Delivery: actions as text and back.
 *
 *   keep power:park-path       market            reputation
 *   deliver 2 from MT          (order 1-4, 5 and 6 with Pandemic; the pizzeria's village code)
 *   take Midtown/Ham           take deck
 *   build MT-2 Midtown/Pepperoni
 *   upgrade MT Central-Park/Ham add      (disk, add or top)
 *   upgrade MT Midtown/Ham add top Onions   (and the pizzeria's Onions card put on top)
 *   remove MT disk             remove MT Midtown/Ham  (over the reputation limit after an upgrade)
 *   pay $1                     pay Harlem/Ham    pay power:mob-boss
 *   pay $2 Harlem/Ham power:mob-boss   (several parts of a price as one move: all that is due or
 *                              a part of it; "discard A B" alike down to the hand limit, and
 *                              "use A B" for a delivery's ingredients and further cards)
 *   use Harlem/Ham             short             extra Harlem/Ham
 *   use power:mob-boss         (a specialty order's further card may be a power card)
 *   cheese Harlem/Extra-Cheese cheese stored Harlem/Extra-Cheese  (Extra Cheese on the pizza,
 *                              from hand or Cold Storage; "done" leaves it off)
 *   play power:drone-delivery  (a power card, before or after the action)
 *   deliver 2 from MT via red  (via red, blue, subway, boat, park: with the cards that open them)
 *   deliver 4 from MT to HA    (a specialty order: the zone it goes to)
 *   deliver 2 from MT-2        (Copy Cat: from another player's pizzeria, named by its lot)
 *   copy from HA via boat      (Harlem Rotary Pizzeria: copy another seat's delivery to Harlem)
 *   use stored Harlem/Ham      refill Harlem/Ham   (Cold Storage: a card under it; the hand card
 *                                                  discarded to refill it)
 *   hack 2.3 Harlem/Ham        (Hacker: order 2's third card for a hand card)
 *   screw 1.2 3.1              (Order Screw Up: order 1's second card and order 3's first swap)
 *   reorder 2.1                (System Error: order 2's first card goes last)
 *   spot HA                    (That's My Spot: a disk on Harlem's delivery zone)
 *   give Harlem/Ham Midtown/Onions   (Charity Event: two market cards, in either order)
 *   lose MT disk               lose MT 2   (Stock Market Crash: a disk, or the pizzeria's second card)
 *   pass Harlem/Ham left       pass power:drone-delivery right   (co-op Transfer Goods: to the next
 *                                                seat clockwise, or the one before)
 *   block MT-2                 farm Midtown/Ham  (Building Commissioner, Farmer Brown)
 *   swap 2 Harlem/Ham          (Bait and Switch in play: once a turn, before or after the action)
 *   tip 3                      (Ham: keep order 3's tip token)
 *   arrange 1:$3 2:$1 4:$2     (Ham: the others back, each order with the value put on it;
 *                               `4:-` an order left without when the delivered one had none)
 *   done                       end
 *   discard Harlem/Ham         discard power:mob-boss
 *   fine $2                    fine Harlem/Ham power:mob-boss   (the two in either order)
 *   play power:out-of-supplies on 2      (a card played on an opponent: seat 2, counted from 1;
 *                                                Property Tax too, on the player's own turn)
 *   supplies $2                supplies Harlem/Ham Midtown/Onions  (Out of Supplies: $2 before delivering)
 *   instant power:traffic-jam  instant power:property-tax on 3     (an Instant card after another's
 *                                                delivery; "done" plays none)
 *
 * Cards are written `Village/Ingredient` (spaces as '-', or the village's
 * code: `MT/Ham`); words match without regard to case. A move is read by
 * writing every legal move out and finding the one that reads the same, so
 * the two directions cannot drift apart. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "delivery.h"
#include "internal.h"

static const pd_data *data_of(const pd_state *st)
{
    return &st->rules->data;
}

/* A market card as the table shows it and a player types it: the village's
 * code and the ingredient, spaces as '-' ("UW/Any-Meat"). */
static void card_word(const pd_state *st, pd_card c, char *buf, size_t n)
{
    const pd_data *d = data_of(st);
    if (PD_CARD_VILLAGE(c) < d->map.nvillages && PD_CARD_INGREDIENT(c) < d->cards.ningredients) {
        snprintf(buf, n, "%s/%s", d->map.village[PD_CARD_VILLAGE(c)].code, d->cards.ingredient[PD_CARD_INGREDIENT(c)].name);
        for (char *s = buf; *s; s++)
            if (*s == ' ')
                *s = '-';
    } else {
        pd_card_word(d, c, buf, n);
    }
}

static void power_word(const pd_state *st, int i, char *buf, size_t n)
{
    snprintf(buf, n, "power:%s", data_of(st)->cards.power[i].id);
}

/* A card of a two-card fine: a market card or a power card. */
static void item_word(const pd_state *st, int item, char *buf, size_t n)
{
    if (item & PD_POWER_FLAG)
        power_word(st, item & 63, buf, n);
    else
        card_word(st, (pd_card)item, buf, n);
}

/* The verb of a set's parts in this phase. */
static const char *set_verb(const pd_state *st)
{
    return st->phase == PD_PH_DISCARD ? "discard" : st->phase == PD_PH_SUPPLY ? "use" : "pay";
}

/* A payment or a discard of several parts: the verb, the dollars summed,
 * then each card ("pay $2 MT/Ham power:mob-boss"). */
static int set_text(const pd_state *st, pb_action a, char *buf, size_t n)
{
    pb_action steps[PD_MAX_SET];
    int k = pd_set_steps(st, a, steps, PD_MAX_SET), dollars = 0;
    if (k < 0)
        return -1;
    size_t used = (size_t)snprintf(buf, n, "%s", set_verb(st));
    for (int i = 0; i < k; i++)
        dollars += PD_KIND(steps[i]) == PD_A_PAY_MONEY;
    if (dollars)
        used += (size_t)snprintf(buf + used, used < n ? n - used : 0, " $%d", dollars);
    for (int i = dollars; i < k && used < n; i++) {
        char w[PD_CARD_NAME_LEN + 8];
        if (PD_KIND(steps[i]) == PD_A_PAY_POWER || PD_KIND(steps[i]) == PD_A_DISCARD_POWER ||
            (PD_KIND(steps[i]) == PD_A_USE && PD_ARG(steps[i]) & PD_POWER_FLAG))
            power_word(st, (int)(PD_ARG(steps[i]) & 63), w, sizeof w);
        else
            card_word(st, (pd_card)PD_ARG(steps[i]), w, sizeof w);
        used += (size_t)snprintf(buf + used, n - used, " %s", w);
    }
    return used < n ? 0 : -1;
}

int pd_action_text(const pd_state *st, pb_action a, int viewer, char *buf, size_t n)
{
    static const char *const how[] = {"disk", "add", "top"};
    const pd_data *d = data_of(st);
    uint32_t arg = PD_ARG(a);
    char w1[PD_CARD_NAME_LEN + 8], w2[PD_CARD_NAME_LEN + 8];
    int wrote;
    switch (PD_KIND(a)) {
    case PD_A_KEEP:
        if (viewer != PD_EVERYONE_SEES_ALL && viewer != st->seat)
            return snprintf(buf, n, "keep ?") < (int)n ? 0 : -1; /* PD-S3: the kept card is secret */
        wrote = snprintf(buf, n, "keep power:%s", d->cards.power[arg & 63].id);
        break;
    case PD_A_MARKET:
        wrote = snprintf(buf, n, "market");
        break;
    case PD_A_REPUTATION:
        wrote = snprintf(buf, n, "reputation");
        break;
    case PD_A_DELIVER:
    case PD_A_COPY: {
        unsigned modes = arg >> 8 & 0xF, to = arg >> 12 & 0xF, village = arg >> 4 & 0xF;
        if (PD_KIND(a) == PD_A_DELIVER)
            snprintf(w1, sizeof w1, "deliver %u ", (arg & 0xF) + 1);
        else
            snprintf(w1, sizeof w1, "copy ");
        snprintf(w2, sizeof w2, " to %s", to ? d->map.village[(to - 1) % PD_MAX_VILLAGES].code : "");
        /* Copy Cat: another seat's pizzeria goes by its lot, which only it is on */
        int owner = pd_deliver_owner(st, a), lot = -1;
        if (owner != st->seat && owner >= 0 && owner < st->players)
            lot = st->player[owner].pizzeria[village % PD_MAX_VILLAGES].lot;
        wrote = snprintf(buf, n, "%sfrom %s%s%s%s%s", w1, lot >= 0 ? d->map.lot[lot].id : d->map.village[village].code,
                         to ? w2 : "",
                         (modes & (PD_ROUTE_RED | PD_ROUTE_BLUE)) == (PD_ROUTE_RED | PD_ROUTE_BLUE) ? " via subway"
                         : modes & PD_ROUTE_RED                                                ? " via red"
                         : modes & PD_ROUTE_BLUE                                               ? " via blue"
                                                                                               : "",
                         modes & PD_ROUTE_BOAT ? " via boat" : "", modes & PD_ROUTE_PARK ? " via park" : "");
        break;
    }
    case PD_A_TAKE_OPEN:
        card_word(st, (pd_card)arg, w1, sizeof w1);
        wrote = snprintf(buf, n, "take %s", w1);
        break;
    case PD_A_TAKE_DECK:
        wrote = snprintf(buf, n, "take deck");
        break;
    case PD_A_BUILD:
        card_word(st, (pd_card)(arg >> 8), w1, sizeof w1);
        wrote = snprintf(buf, n, "build %s %s", d->map.lot[arg & 0xFF].id, w1);
        break;
    case PD_A_UPGRADE: {
        /* "top INGREDIENT": the pizzeria's card at position `from` goes on
         * top; it is of the pizzeria's village (Central Park never is on top) */
        unsigned v = arg & 0xF, from = arg >> 20;
        bool top = from >= 1 && from <= PD_PIZZERIA_CARDS && v < PD_MAX_VILLAGES;
        const char *ingredient = "";
        card_word(st, (pd_card)(arg >> 8 & 0xFF), w1, sizeof w1);
        if (top) {
            card_word(st, st->player[st->seat].pizzeria[v].card[from - 1], w2, sizeof w2);
            ingredient = strrchr(w2, '/') ? strrchr(w2, '/') + 1 : w2;
        }
        wrote = snprintf(buf, n, "upgrade %s %s %s%s%s", d->map.village[v % PD_MAX_VILLAGES].code, w1,
                         how[(arg >> 16 & 0xF) % 3], top ? " top " : "", ingredient);
        break;
    }
    case PD_A_REMOVE: /* over the reputation limit: a disk, or a card of that kind */
        if (arg >> 4)
            card_word(st, (pd_card)((arg >> 4) - 1), w1, sizeof w1);
        wrote = snprintf(buf, n, "remove %s %s", d->map.village[arg & 0xF].code, arg >> 4 ? w1 : "disk");
        break;
    case PD_A_DONE:
        wrote = snprintf(buf, n, "done");
        break;
    case PD_A_SET:
        return set_text(st, a, buf, n);
    case PD_A_PAY_MONEY:
        wrote = snprintf(buf, n, "pay $1");
        break;
    case PD_A_PAY_CARD:
    case PD_A_USE:
    case PD_A_USE_STORED:
    case PD_A_REFILL:
    case PD_A_EXTRA:
    case PD_A_DISCARD:
        /* a specialty order's further card, or Cold Storage's refill: a power card */
        if ((PD_KIND(a) == PD_A_USE || PD_KIND(a) == PD_A_REFILL) && (arg & PD_POWER_FLAG))
            power_word(st, (int)(arg & 63), w1, sizeof w1);
        else
            card_word(st, (pd_card)arg, w1, sizeof w1);
        wrote = snprintf(buf, n, "%s %s",
                         PD_KIND(a) == PD_A_PAY_CARD     ? "pay"
                         : PD_KIND(a) == PD_A_USE        ? "use"
                         : PD_KIND(a) == PD_A_USE_STORED ? "use stored"
                         : PD_KIND(a) == PD_A_REFILL     ? "refill"
                         : PD_KIND(a) == PD_A_EXTRA      ? "extra"
                                                         : "discard",
                         w1);
        break;
    case PD_A_PAY_POWER:
    case PD_A_DISCARD_POWER:
        power_word(st, (int)(arg & 63), w1, sizeof w1);
        wrote = snprintf(buf, n, "%s %s", PD_KIND(a) == PD_A_PAY_POWER ? "pay" : "discard", w1);
        break;
    case PD_A_POWER:
    case PD_A_INSTANT: /* on an opponent: "on" and the seat, counted from 1 */
        power_word(st, (int)(arg & 63), w1, sizeof w1);
        snprintf(w2, sizeof w2, " on %u", arg >> 8);
        wrote = snprintf(buf, n, "%s %s%s", PD_KIND(a) == PD_A_POWER ? "play" : "instant", w1, arg >> 8 ? w2 : "");
        break;
    case PD_A_SWAP:
        card_word(st, (pd_card)(arg >> 8), w1, sizeof w1);
        wrote = snprintf(buf, n, "swap %u %s", (arg & 0xF) + 1, w1);
        break;
    case PD_A_BLOCK:
        wrote = snprintf(buf, n, "block %s", d->map.lot[arg & 0xFF].id);
        break;
    case PD_A_FARM:
        card_word(st, (pd_card)arg, w1, sizeof w1);
        wrote = snprintf(buf, n, "farm %s", w1);
        break;
    case PD_A_SHORT:
        wrote = snprintf(buf, n, "short");
        break;
    case PD_A_END:
        wrote = snprintf(buf, n, "end");
        break;
    case PD_A_FINE_MONEY:
        wrote = snprintf(buf, n, "fine $%d", d->cards.fine);
        break;
    case PD_A_SUPPLIES_MONEY:
        wrote = snprintf(buf, n, "supplies $%d", PD_SUPPLIES_COST);
        break;
    case PD_A_FINE_CARDS:
    case PD_A_CHARITY:
    case PD_A_SUPPLIES_CARDS:
        item_word(st, (int)(arg & 0x1FF), w1, sizeof w1);
        item_word(st, (int)(arg >> 9 & 0x1FF), w2, sizeof w2);
        wrote = snprintf(buf, n, "%s %s %s",
                         PD_KIND(a) == PD_A_CHARITY ? "give" : PD_KIND(a) == PD_A_FINE_CARDS ? "fine" : "supplies", w1,
                         w2);
        break;
    case PD_A_TIP: /* Ham: the tokens were all in the deliverer's hand; which one is kept is theirs to know */
        if (viewer != PD_EVERYONE_SEES_ALL && viewer != st->seat)
            return snprintf(buf, n, "tip ?") < (int)n ? 0 : -1;
        wrote = snprintf(buf, n, "tip %u", arg + 1);
        break;
    case PD_A_ARRANGE: { /* each place, and the value of the token put there */
        int8_t from[PD_ORDER_SLOTS], to[PD_ORDER_SLOTS];
        if (st->phase != PD_PH_ARRANGE)
            return -1;
        if (viewer != PD_EVERYONE_SEES_ALL && viewer != st->seat)
            return snprintf(buf, n, "arrange ?") < (int)n ? 0 : -1;
        int k = pd_ham_places(st, from, to);
        size_t used = (size_t)snprintf(buf, n, "arrange");
        for (int i = 0; i < k && used < n; i++) {
            int slot = arg >> 3 * i & 7, tip = slot < PD_ORDER_SLOTS ? st->order[slot].tip : PD_NO_TIP;
            if (slot == PD_HAM_NONE) /* the place left without a token */
                used += (size_t)snprintf(buf + used, n - used, " %d:-", to[i] + 1);
            else if (tip == PD_NO_TIP)
                return -1;
            else
                used += (size_t)snprintf(buf + used, n - used, " %d:$%d", to[i] + 1, st->tip_value[tip]);
        }
        return used < n ? 0 : -1;
    }
    case PD_A_HACK:
        card_word(st, (pd_card)(arg >> 8), w1, sizeof w1);
        wrote = snprintf(buf, n, "hack %u.%u %s", (arg & 0xF) + 1, (arg >> 4 & 0xF) + 1, w1);
        break;
    case PD_A_SCREW:
        wrote = snprintf(buf, n, "screw %u.%u %u.%u", (arg & 0xF) + 1, (arg >> 4 & 0xF) + 1, (arg >> 8 & 0xF) + 1,
                         (arg >> 12 & 0xF) + 1);
        break;
    case PD_A_CRASH:
        if (arg >> 4)
            wrote = snprintf(buf, n, "lose %s %u", d->map.village[arg & 0xF].code, arg >> 4);
        else
            wrote = snprintf(buf, n, "lose %s disk", d->map.village[arg & 0xF].code);
        break;
    case PD_A_SPOT:
        wrote = snprintf(buf, n, "spot %s", d->map.village[arg % PD_MAX_VILLAGES].code);
        break;
    case PD_A_REORDER:
        wrote = snprintf(buf, n, "reorder %u.%u", (arg & 0xF) + 1, (arg >> 4 & 0xF) + 1);
        break;
    case PD_A_GIVE: /* the card is the giver's and the receiver's secret */
        if (viewer != PD_EVERYONE_SEES_ALL && viewer != st->seat && viewer != pd_gift_receiver(st, a))
            snprintf(w1, sizeof w1, "?");
        else
            item_word(st, (int)(arg & 0x1FF), w1, sizeof w1);
        wrote = snprintf(buf, n, "pass %s %s", w1, arg >> 12 & 1 ? "right" : "left");
        break;
    case PD_A_CHEESE:
        card_word(st, (pd_card)(arg & 0xFF), w1, sizeof w1);
        wrote = snprintf(buf, n, "cheese %s%s", arg & PD_CHEESE_STORED ? "stored " : "", w1);
        break;
    case PD_A_PROMO: /* Insane or Easier: the back-side pizza's time */
        wrote = snprintf(buf, n, "%s", arg == PD_PROMO_EVENING ? "evening" : "morning");
        break;
    default:
        return -1;
    }
    return wrote >= 0 && (size_t)wrote < n ? 0 : -1;
}

/* A typed power card: its id, its name written with '-', or the start of
 * one id ("power:finan"); -1 with the problem in err when it names none or
 * several. */
static int typed_power(const pd_state *st, const char *name, char *err, size_t errlen)
{
    const pd_cards *c = &data_of(st)->cards;
    int found = pd_power_find(c, name), matches = 0;
    if (found >= 0)
        return found;
    char list[PB_ERR_LEN] = "";
    size_t used = 0, len = strlen(name);
    for (int i = 0; i < c->npowers; i++)
        if (len && strncasecmp(c->power[i].id, name, len) == 0) {
            found = i;
            if (used < sizeof list)
                used += (size_t)snprintf(list + used, sizeof list - used, "%spower:%s", matches++ ? ", " : "", c->power[i].id);
        }
    if (matches == 1)
        return found;
    if (matches)
        return pb_errorf(err, errlen, "power:%.40s could be %s: type more of it", name, list);
    return pb_errorf(err, errlen, "there is no power card power:%.40s (`rules cards` lists them)", name);
}

/* Lower case, single spaces, and every word that names a card written the
 * way pd_action_text writes it. A typed text (`typed`) may name a power card
 * by the start of its id; a problem with a word goes to err. */
static int normalize(const pd_state *st, const char *text, char *out, size_t n, bool typed, char *err, size_t errlen)
{
    char copy[256];
    if (strlen(text) >= sizeof copy)
        return pb_errorf(err, errlen, "a move is at most 255 characters");
    strcpy(copy, text);
    size_t used = 0;
    out[0] = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        char word[PD_CARD_NAME_LEN + 8];
        pd_card c;
        char why[PB_ERR_LEN];
        if (strchr(w, '/') && pd_card_from_text(data_of(st), w, &c, why, sizeof why) == 0) {
            card_word(st, c, word, sizeof word);
        } else if (typed && strchr(w, '/')) { /* every word with a '/' is a card */
            return pb_errorf(err, errlen, "%s", why);
        } else if (typed && strncasecmp(w, "power:", 6) == 0) {
            int i = typed_power(st, w + 6, err, errlen);
            if (i < 0)
                return -1;
            power_word(st, i, word, sizeof word);
        } else {
            snprintf(word, sizeof word, "%s", w);
        }
        for (char *p = word; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        int wrote = snprintf(out + used, n - used, "%s%s", used ? " " : "", word);
        if (wrote < 0 || (size_t)wrote >= n - used)
            return pb_errorf(err, errlen, "a move is at most 255 characters");
        used += (size_t)wrote;
    }
    return 0;
}

/* "fine A B" and "fine B A" name the same two cards. */
static bool same_two(const char *have, const char *want)
{
    char w1[128], w2[128], w3[128], swapped[400];
    if (sscanf(have, "%127s %127s %127s", w1, w2, w3) != 3)
        return false;
    snprintf(swapped, sizeof swapped, "%s %s %s", w1, w3, w2);
    return strcmp(swapped, want) == 0;
}

/* Why a move naming an order cannot be: the order is not there (Orders 5
 * and 6 come only with Pandemic) or has no cards (Power Outage; its tip
 * token may still be taken); false when it names none of those. */
static bool order_missing(const pd_state *st, const char *want, char *why, size_t n)
{
    static const char *const verbs[] = {"deliver ", "swap ", "hack ", "screw ", "reorder ", "tip "};
    size_t v = 0;
    while (v < sizeof verbs / sizeof verbs[0] && strncmp(want, verbs[v], strlen(verbs[v])) != 0)
        v++;
    if (v == sizeof verbs / sizeof verbs[0])
        return false;
    const char *p = want + strlen(verbs[v]);
    bool tip = strcmp(verbs[v], "tip ") == 0; /* Ham takes a dark order's token too */
    for (int named = 0; named < (strcmp(verbs[v], "screw ") == 0 ? 2 : 1); named++) {
        char *end;
        long slot = strtol(p, &end, 10);
        if (end == p || (*end && *end != ' ' && *end != '.'))
            return false;
        if (slot < 1 || slot > PD_ORDER_SLOTS || st->order[slot - 1].kind < 0) {
            int last = PD_BOARD_SLOTS; /* the table's orders: 5 and 6 only with Pandemic */
            for (int o = PD_BOARD_SLOTS; o < PD_ORDER_SLOTS; o++)
                if (st->order[o].kind >= 0)
                    last = o + 1;
            char range[48];
            snprintf(range, sizeof range, "the orders on the table are numbered 1 to %d", last);
            snprintf(why, n, "not a legal move: there is no order %ld (%s)", slot,
                     slot > PD_BOARD_SLOTS && slot <= PD_ORDER_SLOTS ? "Orders 5 and 6 come with Pandemic"
                     : slot >= 1 && slot <= PD_BOARD_SLOTS           ? "its slot is empty"
                                                                     : range);
            return true;
        }
        if (!tip && pd_order_dark(st, (int)slot - 1)) {
            snprintf(why, n, "not a legal move: order %ld has no ingredients until the Power Outage ends", slot);
            return true;
        }
        p = end + strcspn(end, " ");
        p += strspn(p, " ");
    }
    return false;
    return false;
}

/* "deliver N from LOT" refused: why that lot's pizzeria cannot be delivered
 * from now (Copy Cat), in `why`; -1 when the text names no lot or the
 * usual reason fits. */
static int copy_cat_why(const pd_state *st, const char *want, char *why, size_t n)
{
    const pd_map *m = &st->rules->data.map;
    char from[64];
    if (st->phase != PD_PH_START || sscanf(want, "deliver %*d from %63s", from) != 1)
        return -1;
    int lot = pd_lot_find(m, from);
    if (lot < 0)
        return -1; /* a village: the mover's own pizzeria there */
    int owner = st->lot_owner[lot];
    const char *id = m->lot[lot].id;
    if (owner < 0)
        snprintf(why, n, "not a legal move: there is no pizzeria on %s", id);
    else if (owner == st->seat)
        snprintf(why, n, "not a legal move: %s is your own pizzeria: name its village (from %s)", id,
                 m->village[m->lot[lot].village].code);
    else if (!pd_has(st, st->seat, PD_PC_COPY_CAT))
        snprintf(why, n, "not a legal move: %s is another player's pizzeria; delivering from it takes Copy Cat in play",
                 id);
    else if (st->player[owner].pizzeria[m->lot[lot].village].disks == 0 ||
             st->player[owner].pizzeria[m->lot[lot].village].ncards == 0)
        snprintf(why, n, "not a legal move: the pizzeria on %s is closed (Stock Market Crash)", id);
    else
        return -1;
    return 0;
}

/* ---- a text that names no move legal now: which move it names ---- */

/* The moves a text may name, by kind: each kind's arguments are tried in
 * turn and written out, so a refused text is read exactly as an accepted one
 * (moves of two cards, and those whose text needs the phase, are left out). */
enum { ARG_NONE, ARG_CARD, ARG_POWER, ARG_LOT_CARD, ARG_VILLAGE_CARD, ARG_SLOT, ARG_SLOT_CARD, ARG_DELIVERY,
       ARG_TARGET, ARG_LOT, ARG_VILLAGE, ARG_REMOVE, ARG_CRASH, ARG_USE };
static const struct {
    const char *verb;
    int kind, args;
} named_kinds[] = {
    {"keep", PD_A_KEEP, ARG_POWER},          {"market", PD_A_MARKET, ARG_NONE},
    {"reputation", PD_A_REPUTATION, ARG_NONE}, {"deliver", PD_A_DELIVER, ARG_DELIVERY},
    {"take", PD_A_TAKE_OPEN, ARG_CARD},      {"take", PD_A_TAKE_DECK, ARG_NONE},
    {"build", PD_A_BUILD, ARG_LOT_CARD},     {"upgrade", PD_A_UPGRADE, ARG_VILLAGE_CARD},
    {"done", PD_A_DONE, ARG_NONE},           {"pay", PD_A_PAY_MONEY, ARG_NONE},
    {"pay", PD_A_PAY_CARD, ARG_CARD},        {"pay", PD_A_PAY_POWER, ARG_POWER},
    {"use", PD_A_USE, ARG_USE},              {"short", PD_A_SHORT, ARG_NONE},
    {"end", PD_A_END, ARG_NONE},             {"discard", PD_A_DISCARD, ARG_CARD},
    {"discard", PD_A_DISCARD_POWER, ARG_POWER}, {"fine", PD_A_FINE_MONEY, ARG_NONE},
    {"tip", PD_A_TIP, ARG_SLOT},             {"extra", PD_A_EXTRA, ARG_CARD},
    {"play", PD_A_POWER, ARG_TARGET},        {"swap", PD_A_SWAP, ARG_SLOT_CARD},
    {"block", PD_A_BLOCK, ARG_LOT},          {"farm", PD_A_FARM, ARG_CARD},
    {"use", PD_A_USE_STORED, ARG_CARD},      {"refill", PD_A_REFILL, ARG_USE},
    {"spot", PD_A_SPOT, ARG_VILLAGE},        {"lose", PD_A_CRASH, ARG_CRASH},
    {"cheese", PD_A_CHEESE, ARG_CARD},       {"instant", PD_A_INSTANT, ARG_TARGET},
    {"supplies", PD_A_SUPPLIES_MONEY, ARG_NONE}, {"remove", PD_A_REMOVE, ARG_REMOVE},
    /* named only, for the reasons of their kind */
    {"fine", PD_A_FINE_CARDS, -1},           {"give", PD_A_CHARITY, -1},
    {"supplies", PD_A_SUPPLIES_CARDS, -1},   {"hack", PD_A_HACK, -1},
    {"screw", PD_A_SCREW, -1},               {"reorder", PD_A_REORDER, -1},
    {"arrange", PD_A_ARRANGE, -1},           {"pass", PD_A_GIVE, -1},
    {"copy", PD_A_COPY, -1},                 {"morning", PD_A_PROMO, -1},
    {"evening", PD_A_PROMO, -1},
};

/* A quick test before normalize(): can `have` (a move's text) normalize to
 * `want` (normalized)? Normalizing keeps the words one for one and only
 * lowercases those without a '/' (cards), so these must already match.
 * Only the first `words` words are looked at (-1: all, and as many).
 * False means no; true means normalize and compare. */
static bool may_read_as(const char *have, const char *want, int words)
{
    for (; words != 0; words--) {
        while (*have == ' ')
            have++;
        size_t h = strcspn(have, " "), w = strcspn(want, " ");
        if (!h || !w)
            return !h && !w;
        if (!memchr(have, '/', h) && (h != w || strncasecmp(have, want, h) != 0))
            return false;
        have += h;
        want += w;
        want += *want == ' ';
    }
    return true;
}

/* Does the candidate read as `want`? */
static bool reads_as(const pd_state *st, pb_action a, const char *want)
{
    char have[256], norm[256];
    return pd_action_text(st, a, PD_EVERYONE_SEES_ALL, have, sizeof have) == 0 && may_read_as(have, want, -1) &&
           normalize(st, have, norm, sizeof norm, false, NULL, 0) == 0 && strcmp(norm, want) == 0;
}

/* The first move of `kind` with argument x | y << 8 | z << 16 (x < nx, y < ny,
 * z < nz) that reads as `want`; 0 when none. */
static pb_action first_reading(const pd_state *st, int kind, const char *want, int nx, int ny, int nz)
{
    for (int x = 0; x < nx; x++)
        for (int y = 0; y < ny; y++)
            for (int z = 0; z < nz; z++)
                if (reads_as(st, PD_ACTION(kind, x | y << 8 | z << 16), want))
                    return PD_ACTION(kind, x | y << 8 | z << 16);
    return 0;
}

/* The move of kind k the text names, whether legal or not; 0 when none. */
static pb_action named_move(const pd_state *st, size_t k, const char *want)
{
    const pd_data *d = data_of(st);
    int kind = named_kinds[k].kind, cards = PD_TYPES, powers = d->cards.npowers;
    int villages = d->map.nvillages, lots = d->map.nlots;
    switch (named_kinds[k].args) {
    case ARG_NONE:
        return first_reading(st, kind, want, 1, 1, 1);
    case ARG_USE: /* a card, or a power card (a specialty order's further card, a refill) */
        for (int i = 0; i < powers; i++)
            if (reads_as(st, PD_ACTION(kind, PD_POWER_FLAG | i), want))
                return PD_ACTION(kind, PD_POWER_FLAG | i);
        /* fall through */
    case ARG_CARD:
        return first_reading(st, kind, want, cards, 1, 1);
    case ARG_POWER: /* a power card; with a target, the seat played on (0: none) */
    case ARG_TARGET:
        return first_reading(st, kind, want, powers, named_kinds[k].args == ARG_TARGET ? st->players + 1 : 1, 1);
    case ARG_LOT_CARD:
        return first_reading(st, kind, want, lots, cards, 1);
    case ARG_VILLAGE_CARD:
        return first_reading(st, kind, want, villages, cards, 3);
    case ARG_SLOT:
    case ARG_SLOT_CARD:
        return first_reading(st, kind, want, PD_ORDER_SLOTS, named_kinds[k].args == ARG_SLOT ? 1 : cards, 1);
    case ARG_DELIVERY:
        for (int slot = 0; slot < PD_ORDER_SLOTS; slot++)
            for (int v = 0; v < villages; v++) {
                /* "deliver N from X" whatever comes after: the rest only
                 * where these four words are the ones asked for */
                char have[256];
                if (pd_action_text(st, PD_ACTION(kind, slot | v << 4), PD_EVERYONE_SEES_ALL, have, sizeof have) != 0 ||
                    !may_read_as(have, want, 4))
                    continue;
                for (int to = 0; to <= villages; to++)
                    for (uint32_t modes = 0; modes < PD_ROUTE_MODES; modes++)
                        if (reads_as(st, PD_ACTION(kind, slot | v << 4 | modes << 8 | (uint32_t)to << 12), want))
                            return PD_ACTION(kind, slot | v << 4 | modes << 8 | (uint32_t)to << 12);
            }
        return 0;
    case ARG_LOT:
    case ARG_VILLAGE:
        return first_reading(st, kind, want, named_kinds[k].args == ARG_LOT ? lots : villages, 1, 1);
    case ARG_REMOVE:
    case ARG_CRASH:
        for (int v = 0; v < villages; v++)
            for (int w = 0; w <= (named_kinds[k].args == ARG_REMOVE ? cards : PD_PIZZERIA_CARDS); w++)
                if (reads_as(st, PD_ACTION(kind, v | w << 4), want))
                    return PD_ACTION(kind, v | w << 4);
        return 0;
    default:
        return 0;
    }
}

/* The verbs of the moves legal now, for a text that starts with none. */
static void verbs_now(const pb_action *legal, int k, const pd_state *st, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < k && used < n; i++) {
        char text[256], verb[32];
        if (pd_action_text(st, legal[i], st->seat, text, sizeof text) != 0 || sscanf(text, "%31s", verb) != 1)
            continue;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) {
            char other[256], v2[32];
            seen = pd_action_text(st, legal[j], st->seat, other, sizeof other) == 0 &&
                   sscanf(other, "%31s", v2) == 1 && strcmp(v2, verb) == 0;
        }
        if (!seen)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "", verb);
    }
}

/* "build LOT ..." naming a lot the map does not have: which lots its
 * village has (or that it has none: Central Park). */
static bool lot_missing(const pd_state *st, const char *want, char *why, size_t n)
{
    char verb[16], lot[32];
    if (sscanf(want, "%15s %31s", verb, lot) != 2 || strcmp(verb, "build") != 0)
        return false;
    for (char *c = lot; *c; c++) /* as the table writes lots */
        *c = (char)toupper((unsigned char)*c);
    const pd_map *m = &data_of(st)->map;
    for (int i = 0; i < m->nlots; i++)
        if (strcasecmp(m->lot[i].id, lot) == 0)
            return false;
    for (int v = 0; v < m->nvillages; v++) {
        const pd_village *vi = &m->village[v];
        size_t len = strlen(vi->code);
        if (strncasecmp(lot, vi->code, len) != 0 || (lot[len] && lot[len] != '-'))
            continue;
        if (!vi->nlots)
            snprintf(why, n, "not a legal move: %s has no lots to build on", vi->name);
        else
            snprintf(why, n, "not a legal move: there is no lot %s (%s has %s to %s)", lot, vi->name,
                     m->lot[vi->lot[0]].id, m->lot[vi->lot[vi->nlots - 1]].id);
        return true;
    }
    snprintf(why, n, "not a legal move: there is no lot %s (a lot is named by its village and number, e.g. %s)", lot,
             m->lot[0].id);
    return true;
}

/* Why the typed text is no move now, in err. */
static int refuse(const pd_state *st, const char *text, const char *want, const pb_action *legal, int k, char *err,
                  size_t errlen)
{
    char why[PB_ERR_LEN], example[128] = "", verb[32] = "";
    sscanf(want, "%31s", verb);
    bool known = false;
    pb_action named = 0;
    for (size_t i = 0; i < sizeof named_kinds / sizeof named_kinds[0]; i++)
        if (strcmp(named_kinds[i].verb, verb) == 0) {
            known = true;
            if (!named && named_kinds[i].args >= 0)
                named = named_move(st, i, want);
            if (!named && named_kinds[i].args < 0)
                named = PD_ACTION(named_kinds[i].kind, 0); /* reasons of its kind, and its phase */
        }
    if (k > 0)
        pd_action_text(st, legal[0], st->seat, example, sizeof example);
    if (!known) {
        char verbs[PB_ERR_LEN];
        verbs_now(legal, k, st, verbs, sizeof verbs);
        return pb_errorf(err, errlen, "\"%.40s\": there is no move \"%.20s\"; now you can type %s (e.g. %s)", text,
                         verb, verbs, example);
    }
    /* an order that is not there and another's pizzeria (Copy Cat) have
     * reasons of their own, and so has every move the text names */
    if (!order_missing(st, want, why, sizeof why) && !lot_missing(st, want, why, sizeof why) &&
        copy_cat_why(st, want, why, sizeof why) != 0)
        pd_why_illegal(st, named ? named : PD_ACTION(PD_A_KINDS, 0), why, sizeof why);
    return pb_errorf(err, errlen, "\"%.60s\": %s; for example: %s", text, why, example);
}

/* Ingredients named in an order the engine would not fill their needs in:
 * each word a card (or a power card, for a specialty order's further
 * cards), the set legal when some order of them is. */
static bool uses_in_any_order(const pd_state *st, const char *parts, pb_action *a)
{
    char copy[256], why[PB_ERR_LEN];
    pb_action steps[PD_MAX_SET];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", parts);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        pd_card c;
        int power = strncmp(w, "power:", 6) == 0 ? typed_power(st, w + 6, why, sizeof why) : -1;
        if (n == PD_MAX_SET)
            return false;
        if (power >= 0)
            steps[n++] = PD_ACTION(PD_A_USE, PD_POWER_FLAG | (uint32_t)power);
        else if (pd_card_from_text(data_of(st), w, &c, why, sizeof why) == 0)
            steps[n++] = PD_ACTION(PD_A_USE, c);
        else
            return false;
    }
    return pd_set_join(st, steps, n, a) == 0 && pd_is_legal(st, *a);
}

/* "pay $2 MT/Ham power:mob-boss", "discard A B": each part read as the single
 * step it is, made in turn on a copy (so a part refused says why), then
 * joined into one move. 1 when the text is no such set (one part). */
static int parse_set(const pd_state *st, const char *want, pb_action *a, char *err, size_t errlen)
{
    char copy[256], verb[16];
    if (!pd_set_phase(st) || sscanf(want, "%15s", verb) != 1 || strcmp(verb, set_verb(st)) != 0 ||
        strstr(want, " stored "))
        return 1; /* Cold Storage's cards go one at a time */
    snprintf(copy, sizeof copy, "%s", want + strlen(verb));
    pb_action steps[PD_MAX_SET];
    int n = 0, parts = 0, dollars = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        parts++;
        if (w[0] == '$' && sscanf(w, "$%d", &dollars) == 1 && dollars > 1)
            parts++; /* "$2" is two parts */
    }
    if (parts < 2)
        return 1;
    pd_state *now = malloc(sizeof *now);
    if (!now)
        return pb_errorf(err, errlen, "out of memory");
    *now = *st;
    snprintf(copy, sizeof copy, "%s", want + strlen(verb));
    int rc = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && rc == 0; w = strtok_r(NULL, " ", &save)) {
        char one[128], why[PB_ERR_LEN];
        int times = 1;
        if (w[0] == '$') { /* dollars: a dollar at a time */
            if (sscanf(w, "$%d", &times) != 1 || times < 1 || times > PD_MAX_SET) {
                rc = pb_errorf(err, errlen, "\"%.60s\": \"%.20s\" is no sum of money ($1, $2, ...)", want, w);
                break;
            }
            snprintf(one, sizeof one, "%s $1", verb);
        } else {
            snprintf(one, sizeof one, "%s %.100s", verb, w);
        }
        for (int t = 0; t < times && rc == 0; t++) {
            if (n > 0 && (pd_current_seat(now) != pd_current_seat(st) || !pd_set_phase(now)))
                rc = pb_errorf(err, errlen, "\"%.60s\": that is more than is due: its first %d part%s settle%s it", want,
                               n, n == 1 ? "" : "s", n == 1 ? "s" : "");
            else if (n == PD_MAX_SET || pd_action_parse(now, one, &steps[n], why, sizeof why) != 0 ||
                     pd_apply(now, steps[n], why, sizeof why) != 0)
                rc = pb_errorf(err, errlen, "\"%.60s\": the part \"%.40s\": %s", want, one + strlen(verb) + 1,
                               n == PD_MAX_SET ? "too many parts" : why);
            else
                n++;
        }
    }
    free(now);
    if (rc != 0 && st->phase == PD_PH_SUPPLY && uses_in_any_order(st, want + strlen(verb), a))
        return 0;
    if (rc == 0 && pd_set_join(st, steps, n, a) != 0)
        rc = pb_errorf(err, errlen, "\"%.60s\": that is more than is due, or too many kinds to name at once: "
                       "give it in two moves", want);
    return rc;
}

int pd_action_parse(const pd_state *st, const char *text, pb_action *a, char *err, size_t errlen)
{
    static __thread pb_action legal[PB_MAX_ACTIONS];
    char want[256], have[256];
    if (normalize(st, text, want, sizeof want, true, err, errlen) != 0)
        return -1;
    if (!want[0])
        return pb_errorf(err, errlen, "an empty move");
    if (st->phase == PD_PH_OVER)
        return pb_errorf(err, errlen, "the game is over");
    int set = parse_set(st, want, a, err, errlen);
    if (set <= 0)
        return set;
    int k = pd_accepted_actions(st, legal);
    for (int i = 0; i < k; i++) {
        bool pair = PD_KIND(legal[i]) == PD_A_FINE_CARDS || PD_KIND(legal[i]) == PD_A_CHARITY ||
                    PD_KIND(legal[i]) == PD_A_SUPPLIES_CARDS;
        if (pd_action_text(st, legal[i], PD_EVERYONE_SEES_ALL, have, sizeof have) != 0 ||
            (!pair && !may_read_as(have, want, -1)) || normalize(st, have, have, sizeof have, false, NULL, 0) != 0)
            continue;
        if (strcmp(have, want) == 0 || (pair && same_two(have, want))) {
            *a = legal[i];
            return 0;
        }
    }
    return refuse(st, text, want, legal, k, err, errlen);
}
