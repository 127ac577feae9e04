/* delivery.h -- New York Pizza Delivery: the rules engine (pure: no I/O, no
 * globals that change).
 *
 * The rules contract is shared/specs/pizza-delivery.md; rule ids (PD-...) in
 * comments point to it, decisions it leaves open are in docs/rules-notes.md.
 * The map and the cards are data (data.h). A turn is a chain of small
 * decisions, each one action: "market" then two "take"s, "build" then a
 * "pay" per dollar, "deliver" then a "use" per ingredient from hand (with
 * Extra Cheese, then a "cheese" card or "done") and a "pay" per space
 * beyond the free range. A player (and a bot, through the game's join) pays
 * or discards several parts as one move, PD_A_SET. Nothing of a build or a delivery
 * happens until its last decision; front ends show what a delivery will
 * cost (pd_delivery_quote) before the player announces it.
 *
 * Market cards are types (pd_card: village and ingredient); identical cards
 * are interchangeable, so hands, the open market and the sewer are counts per
 * type. Only the market deck, the orders and the pizzerias keep an order. */
#ifndef PD_DELIVERY_H
#define PD_DELIVERY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"
#include "../../core/rng.h"
#include "data.h"

#define PD_PLAYERS 6
#define PD_TYPES (PD_MAX_VILLAGES * PD_MAX_INGREDIENTS) /* pd_card values below this */
#define PD_DECK_MAX 256
#define PD_BOARD_SLOTS 4        /* PD-S4: Orders 1-4 on the board */
#define PD_ORDER_SLOTS 6        /* and Pandemic's Orders 5 and 6 */
#define PD_ORDER_CARDS 4        /* market cards on one regular order */
#define PD_PIZZERIA_CARDS 8
#define PD_DISKS 12             /* PD-S1 */
#define PD_START_MONEY 5
#define PD_START_HAND 5
#define PD_OPEN_MIN 5           /* PD-S2 */
#define PD_HAND_LIMIT 10        /* PD-T5 */
#define PD_MAX_REPUTATION 5     /* PD-T3 */
#define PD_INSPECTORS_TO_END 3  /* PD-O1 */
#define PD_MAX_TURNS 2000       /* a safety net; never reached in play */
#define PD_NO_TIP 0xFF
#define PD_COPY_SLOT PD_ORDER_SLOTS /* past the last slot: the pending delivery is Harlem Rotary's copy */
#define PD_MAX_SUPPLY (2 * PD_MAX_ORDER_SIZE) /* ingredients one delivery may need: Special Sale doubles an order */
#define PD_COLD_CARDS 4         /* Cold Storage holds 4 sewer cards */
#define PD_NEVER 0xFFFF         /* a turn number no turn has */
#define PD_COOP_HAND 8          /* PD-C1: co-op hands */
#define PD_COOP_ORDERS 14       /* PD-C1: orders in a co-op game */
#define PD_DAYS 7               /* the co-op week tracker, Saturday first */
#define PD_FRIDAY 6
#define PD_GIVE_MAX 2           /* Transfer Goods: cards a turn */
#define PD_DIFFICULTIES 8       /* PD-C1: the difficulty table's rows, HARD first */
#define PD_MAX_SET 64           /* parts of one PD_A_SET */
#define PD_SUPPLIES_COST 2      /* Out of Supplies: what its target pays before delivering */

typedef enum pd_phase {
    PD_PH_KEEP,       /* PD-S3: each player keeps one of two power cards */
    PD_PH_START,      /* PD-T1: the turn's action (a power card may come first) */
    PD_PH_MARKET,     /* PD-T2: two takes */
    PD_PH_REPUTATION, /* PD-T3: up to two builds or upgrades */
    PD_PH_PAY,        /* a build's price, a dollar or a card at a time */
    PD_PH_SUPPLY,     /* PD-T4: a hand card for each ingredient still needed */
    PD_PH_DISTANCE,   /* a card for each space beyond the free range */
    PD_PH_TIP,        /* Ham: which order's tip token to take */
    PD_PH_ARRANGE,    /* Ham: which order each other token goes back on */
    PD_PH_BONUS,      /* Meatballs: one market card after the delivery */
    PD_PH_AFTER,      /* a power card after the action, or the end of the turn */
    PD_PH_DISCARD,    /* PD-T5: down to the hand limit */
    PD_PH_FINE,       /* PD-O1: everyone pays a Health Inspector's fine */
    PD_PH_BLOCK,      /* Building Commissioner: the lots to reserve */
    PD_PH_FARM,       /* Farmer Brown: the sewer card to keep under it */
    PD_PH_COPY,       /* Harlem Rotary Pizzeria: its holder copies a delivery to Harlem, or not */
    PD_PH_ORDERS,     /* Hacker, Order Screw Up, System Error: the change to the orders */
    PD_PH_SPOT,       /* That's My Spot: the delivery zone for its disk */
    PD_PH_CHARITY,    /* Charity Event: everyone discards two market cards */
    PD_PH_CRASH,      /* Stock Market Crash: everyone loses a reputation level */
    PD_PH_SOARS,      /* Stock Market Soars: everyone takes two market cards */
    PD_PH_TRANSFER,   /* co-op Transfer Goods: up to two cards to the neighbours */
    PD_PH_INSTANT,    /* after a delivery: each other seat with a power card plays an Instant card or not */
    PD_PH_TAX,        /* Property Tax: its target pays, a dollar or a card at a time */
    PD_PH_TRIM,       /* an upgrade left a pizzeria over its reputation limit: a disk or a card goes at a time */
    PD_PH_PROMO,      /* co-op Insane or Easier: a back-side promotion token's pizza, morning or evening */
    PD_PH_OVER,
} pd_phase;

/* Action kinds: the top byte of a pb_action; the rest holds its arguments. */
enum {
    PD_A_KEEP = 1,    /* power card index */
    PD_A_MARKET,
    PD_A_REPUTATION,
    PD_A_DELIVER,     /* order slot | pizzeria village << 4 | route modes << 8 | (zone village + 1) << 12
                       * | (pizzeria owner + 1) << 16 (the zone only for a specialty order, which goes
                       * to any; the owner only for Copy Cat's delivery from another's pizzeria, else 0) */
    PD_A_TAKE_OPEN,   /* card type */
    PD_A_TAKE_DECK,
    PD_A_BUILD,       /* lot | card << 8 */
    PD_A_UPGRADE,     /* village | card << 8 | how << 16 (pd_upgrade) | from << 20: the position (from 1,
                       * bottom first) of the pizzeria's card put on top, 0: the top as `how` says */
    PD_A_DONE,        /* no second build or upgrade */
    PD_A_PAY_MONEY,
    PD_A_PAY_CARD,    /* card type */
    PD_A_PAY_POWER,   /* power card index: any power card in hand is worth $1 */
    PD_A_USE,         /* card type, for the next ingredient still needed or a specialty
                       * order's further card; PD_POWER_FLAG | index: a power card as one */
    PD_A_SHORT,       /* Onions: leave this ingredient out, take NO TIP */
    PD_A_END,         /* end the turn */
    PD_A_DISCARD,     /* card type */
    PD_A_DISCARD_POWER,
    PD_A_FINE_MONEY,
    PD_A_FINE_CARDS,  /* two cards: a | b << 9, a <= b; PD_POWER_FLAG | index for a power card */
    PD_A_TIP,         /* Ham: the order slot whose tip token to take */
    PD_A_EXTRA,       /* Sausage: one more card of an ingredient the order needs */
    PD_A_POWER,       /* play a power card from hand (PD-T1) */
    PD_A_SWAP,        /* Bait and Switch (in play, once a turn): order slot | hand card << 8 */
    PD_A_BLOCK,       /* Building Commissioner: a lot */
    PD_A_FARM,        /* Farmer Brown: a card type from the sewer */
    PD_A_COPY,        /* Harlem Rotary: pizzeria village | route modes << 8 */
    PD_A_USE_STORED,  /* Cold Storage: a stored card type, for the next ingredient still needed */
    PD_A_REFILL,      /* Cold Storage: the hand card discarded to refill it */
    PD_A_HACK,        /* Hacker: order slot | card position << 4 | hand card << 8 */
    PD_A_SCREW,       /* Order Screw Up: slot | position << 4 | other slot << 8 | its position << 12 */
    PD_A_REORDER,     /* System Error: slot | the position of the card that goes last << 4 */
    PD_A_SPOT,        /* That's My Spot: the village whose zone gets the disk */
    PD_A_CHARITY,     /* Charity Event: two market cards, a | b << 9, a <= b */
    PD_A_CRASH,       /* Stock Market Crash: village | what << 4 (0: a disk, 1 + i: the pizzeria's card i) */
    PD_A_GIVE,        /* co-op Transfer Goods: card | PD_POWER_FLAG for a power card index, | 1 << 12 to the right */
    PD_A_CHEESE,      /* Extra Cheese on the pizza being delivered: card type | PD_CHEESE_STORED (from Cold Storage) */
    PD_A_INSTANT,     /* an Instant card on another's delivery: power card index | (target seat + 1) << 8 (Property Tax) */
    PD_A_SUPPLIES_MONEY, /* Out of Supplies: the $2 owed, before a delivery */
    PD_A_SUPPLIES_CARDS, /* ... or two cards, as PD_A_FINE_CARDS */
    PD_A_ARRANGE,     /* Ham: for each place i (pd_ham_places), the order its token was on, << 3 * i */
    PD_A_REMOVE,      /* over the reputation limit after an upgrade: village | what << 4 (0: a disk, 1 + a card type) */
    PD_A_SET,         /* a payment or a discard of several parts as one move (payset.c) */
    PD_A_PROMO,       /* co-op Insane or Easier: when a back-side token's pizza comes, PD_PROMO_MORNING or _EVENING */
    PD_A_KINDS
};
#define PD_ACTION(kind, arg) ((pb_action)(((uint32_t)(kind) << 24) | ((uint32_t)(arg) & 0xFFFFFFu)))
#define PD_KIND(a) ((int)((a) >> 24))
#define PD_ARG(a) ((uint32_t)(a) & 0xFFFFFFu)
#define PD_POWER_FLAG 0x100     /* in a two-card fine: the card is a power card */
#define PD_CHEESE_STORED 0x100  /* in PD_A_CHEESE: the card is one under Cold Storage */

typedef enum pd_upgrade {
    PD_UP_DISK,       /* discard the card, add a level disk */
    PD_UP_ADD,        /* the card becomes a permanent ingredient under the top (on top if the top
                       * card went: the Any card it was, or an Any card added) */
    PD_UP_TOP,        /* ... on top: its delivery power replaces the old one */
} pd_upgrade;

typedef struct pd_pizzeria {
    int8_t lot;                       /* -1: none in this village */
    uint8_t disks;
    uint8_t ncards;
    pd_card card[PD_PIZZERIA_CARDS];  /* the top card last */
} pd_pizzeria;

typedef struct pd_order {
    int8_t kind;                      /* rules' order kind; -1: empty slot */
    uint8_t ncards;
    pd_card card[PD_ORDER_CARDS];     /* the last one names the village (PD-O1) */
    uint8_t tip;                      /* tip token index, or PD_NO_TIP */
} pd_order;

typedef struct pd_player {
    int16_t money;
    uint8_t disks;                    /* in the supply, not on the board */
    uint8_t deliveries;
    uint8_t hand_size;                /* market cards in hand */
    uint8_t ntips;
    uint8_t tip[2 * PD_MAX_TIPS];     /* tip tokens collected, face down; PD_NO_TIP for NO TIP */
    uint64_t powers;                  /* power cards in hand, a bit each */
    uint8_t hand[PD_TYPES];           /* market cards in hand, per type */
    pd_pizzeria pizzeria[PD_MAX_VILLAGES];
} pd_player;

/* A build or a delivery being made: everything about it is decided before
 * anything changes. An upgrade that left its pizzeria over the reputation
 * limit (PD_PH_TRIM) is PD_A_UPGRADE, its village and what is over (due). */
typedef struct pd_pending {
    uint8_t kind;                     /* PD_A_BUILD, PD_A_DELIVER or PD_A_UPGRADE, 0: none */
    uint8_t lot, village, slot, modes;
    uint8_t owner;                    /* the delivering pizzeria's seat (Copy Cat: another's) */
    int8_t to;                        /* a specialty order's zone village, -1: the order's own */
    pd_card card;                     /* the build's card */
    uint8_t due;                      /* dollars or spaces still to pay */
    uint16_t last_key;                /* payments come in a fixed order (pay_key) */
    uint8_t paid_money;
    uint8_t paid_cards[PD_TYPES];     /* cards set aside so far (payments and ingredients) */
    uint64_t paid_powers;
    uint8_t nneeds;                   /* ingredients still to supply from hand */
    int8_t need_ingredient[PD_MAX_SUPPLY];
    int8_t need_group[PD_MAX_SUPPLY];
    uint8_t extras;                   /* specialty: further cards of any kind still due */
    bool shorted;                     /* Onions used */
    bool doubled;                     /* Sausage used */
    bool double_decided;              /* Sausage used or declined */
    int8_t tip_slot;                  /* Ham: the slot whose tip was taken */
    uint16_t arrangement;             /* Ham: where the others go back, as PD_A_ARRANGE's argument */
    uint8_t stored_used;              /* Cold Storage: the stored cards set aside, a bit each */
    bool cheese_decided;              /* Extra Cheese: a card added or declined */
    bool cheese_added;                /* a card from hand or Cold Storage is on the pizza */
} pd_pending;

/* PD-P1: what the top card of the delivering pizzeria does, by the id of
 * its ingredient's power in the cards file. */
typedef enum pd_top_power {
    PD_TOP_NONE,
    PD_TOP_VEGETARIAN,   /* Pepperoni: +$2 for a pizza without meat */
    PD_TOP_DOUBLE,       /* Sausage: one more card of a needed ingredient, +$1 */
    PD_TOP_CHOOSE_TIP,   /* Ham: take any order's tip token */
    PD_TOP_MARKET_PICK,  /* Meatballs: one market card after delivering */
    PD_TOP_MEAT,         /* Peppers: +$2 for a pizza of meats only */
    PD_TOP_SHORT,        /* Onions: leave one ingredient out, NO TIP */
    PD_TOP_EXTRA_SPACE,  /* Tomatoes: one more free space */
    PD_TOP_EXTRA_DOLLAR, /* Pineapple: +$1 */
} pd_top_power;

/* The basic power cards the engine plays (PD-D6, PD-P3), by id. */
typedef enum pd_pc {
    PD_PC_DRONE,            /* drone-delivery */
    PD_PC_BOAT,             /* motor-boat */
    PD_PC_ROLLER_BLADES,    /* roller-blades */
    PD_PC_FAST_PASS,        /* subway-fast-pass */
    PD_PC_TICKET_BLUE,      /* subway-ticket-blue */
    PD_PC_TICKET_RED,       /* subway-ticket-red */
    PD_PC_FINANCIAL_WIZARD, /* money cards tied to a zone */
    PD_PC_MOB_BOSS,
    PD_PC_POPE,
    PD_PC_PARK_COMMISSIONER,
    PD_PC_PARK_PATH,
    PD_PC_LONG_DISTANCE,
    PD_PC_EV_MOGUL,
    PD_PC_FRUGAL,
    PD_PC_LIBERTY,
    PD_PC_HI_JINKS,
    PD_PC_HEALTH_INSPECTOR,
    PD_PC_BAIT_AND_SWITCH,
    PD_PC_COMMISSIONER,     /* building-commissioner */
    PD_PC_FARMER_BROWN,
    PD_PC_COLD_STORAGE,
    PD_PC_HARLEM_ROTARY,    /* harlem-rotary-pizzeria */
    /* the 5-6 player expansion's */
    PD_PC_LUCKY_DAY,
    PD_PC_DOWN_ON_LUCK,     /* down-on-your-luck */
    PD_PC_OVER_ACHIEVER,
    PD_PC_MOPED,            /* moped-delivery */
    PD_PC_COUPON_DAYS,
    PD_PC_HACKER,
    PD_PC_ORDER_SCREW_UP,
    PD_PC_SYSTEM_ERROR,
    PD_PC_MY_SPOT,          /* thats-my-spot */
    PD_PC_BONUS_SUPPLIES,
    PD_PC_OOOOPS,
    PD_PC_WINDFALL,
    PD_PC_SHORTAGE,         /* ingredient-shortage */
    PD_PC_CHARITY,          /* charity-event */
    PD_PC_CRASH,            /* stock-market-crash */
    PD_PC_SOARS,            /* stock-market-soars */
    PD_PC_BUYING_TIME,
    PD_PC_TYCOON,           /* real-estate-tycoon */
    PD_PC_OUT_OF_SUPPLIES,  /* out-of-supplies */
    PD_PC_PROPERTY_TAX,     /* property-tax: Timed and Instant */
    PD_PC_ROUGH_DELIVERY,   /* rough-delivery: Instant */
    PD_PC_TRAFFIC_JAM,      /* traffic-jam: Instant */
    PD_PC_PANDEMIC,
    PD_PC_POWER_OUTAGE,
    PD_PC_COPY_CAT,
    PD_PC_SPECIAL_SALE,
    PD_PC_COUNT
} pd_pc;

typedef struct pd_rules {
    pd_data data;
    int players;
    int first;                        /* start seat, or -1: drawn from the seed */
    bool expansion;                   /* the 5-6 player box: ANY cards, its tips and power cards */
    bool expansion_powers;            /* its 26 power cards alone, at 2-4 players (the rulebook's "if desired") */
    uint8_t edition;                  /* the rules as pizzabox played them (PD_EDITION, or 1: a game from before) */
    bool extra_cheese;                /* the Extra Cheese mini expansion's cards in the market deck */
    uint8_t top_power[PD_MAX_INGREDIENTS];
    int8_t pc[PD_PC_COUNT];           /* power card index of each, -1: not in the data */
    uint64_t playable;                /* power cards the engine plays, a bit each */
    /* score.c's reach of a pizzeria on each lot with each number of disks,
     * the Park Path closed [0] and open [1]: the bots' evaluation asks for
     * it many thousand times a move (pd_rules_reach) */
    double reach[2][PD_MAX_LOTS][PD_DISKS + 1];
    /* The ingredients whose cards supply a need of ingredient i (group g),
     * at [i + 1][g]; an ingredient -1 asks for any of its group
     * (pd_rules_supplies): matching hands to orders asks it all the time. */
    uint16_t supplied_by[PD_MAX_INGREDIENTS + 1][PD_GROUPS];
    /* PD-C1 co-op: one team against the goals on the score track */
    bool coop;
    uint8_t promo_at[2];              /* the Blue and Red Pizza Promotion markers ($) */
    uint8_t goal_pizzas, goal_money;
    bool insane;                      /* a back-side token joins each promotion token: one pizza more */
    bool easier;                      /* promotion tokens go back side up: one pizza instead of two */
    bool top_chef;                    /* the die names a Top Chef at the end */
} pd_rules;

/* The co-op difficulty table (PD-C1), row 1 (HARD) to 8 (EASY): Blue
 * promotion, Red promotion, pizzas, money. */
extern const uint8_t pd_difficulty[PD_DIFFICULTIES][4];
#define PD_DEFAULT_DIFFICULTY 4
/* The table's row (0-based) whose column `marker` (0 Blue, 1 Red, 2 pizzas,
 * 3 money) holds `value`, or -1; that column's values as "8, 9, ..." */
int pd_marker_row(int marker, int value);
void pd_marker_values(int marker, char *buf, size_t n);

/* A Pizza Promotion token on the week tracker: when its two orders come,
 * and whose marker placed it. */
enum { PD_PROMO_MORNING = 1, PD_PROMO_EVENING, PD_PROMO_SPLIT };  /* two in the morning, two in the evening, one each */
enum { PD_PROMO_BLUE, PD_PROMO_RED, PD_PROMO_FRIDAY };
#define PD_PROMO(when, colour) ((uint8_t)((when) | (colour) << 2))
#define PD_PROMO_WHEN(p) ((p) & 3)
#define PD_PROMO_COLOUR(p) ((p) >> 2 & 3)
/* Insane: the back-side token on the same day, its pizza's PD_PROMO_MORNING
 * or _EVENING (0: none, or not chosen yet) */
#define PD_PROMO_EXTRA(p) ((p) >> 4 & 3)
#define PD_PROMO_BACK 0x40 /* Easier: the token is back side up, one pizza at its `when` (0: not chosen yet) */
/* Top Chef's categories by the die (1..6). */
enum { PD_CHEF_DELIVERIES = 1, PD_CHEF_TIPS, PD_CHEF_PIZZERIAS, PD_CHEF_TABLEAU, PD_CHEF_DISKS, PD_CHEF_LOWEST };
enum { PD_COOP_PLAYING, PD_COOP_WON, PD_COOP_LOST_INSPECTOR, PD_COOP_LOST_ORDERS, PD_COOP_LOST_TIME };

typedef struct pd_state {
    uint8_t players, phase, seat, first;
    uint8_t steps_left;               /* builds/upgrades (PD-T3) or takes (PD-T2) left */
    uint8_t timer;                    /* PD-S5: deck positions below this were the bottom third */
    uint8_t resume;                   /* the phase a fine or payment interrupted */
    uint8_t fines_due[PD_PLAYERS];    /* Health Inspector fines each seat still owes */
    uint8_t inspectors;               /* Health Inspectors drawn */
    bool power_played;                /* this turn (PD-T1) */
    bool delivered;                   /* this turn (Frugal Shopper) */
    bool swapped;                     /* Bait and Switch used this turn */
    bool frugal_played;               /* Frugal Shopper played this turn before the action */
    bool frugal_taken;                /* Frugal Shopper's card taken this turn */
    int8_t global;                    /* the GLOBAL card in play, -1: none */
    uint16_t global_until;            /* a global that lasts some rounds goes at this turn */
    bool over_achiever;               /* this turn's delivery earns $2 more */
    bool special_sale;                /* this turn's delivery doubled: twice the needs, 2x money - $1, two tips */
    int8_t changing;                  /* in PD_PH_ORDERS: the card played (Hacker, ...), else -1 */
    bool gift;                        /* the takes of PD_PH_BONUS come from a power card played */
    uint8_t action;                   /* this turn's action (PD_A_MARKET, _REPUTATION, _DELIVER), 0: none yet */
    uint8_t banned;                   /* the action this turn may not be (Oooops!, Real-Estate Tycoon) */
    bool windfall;                    /* Windfall: no delivery, build or market this turn */
    /* Real-Estate Tycoon: 1 while its paid build is to come, 2 while the
     * free one (costing at most tycoon_cost) may follow; 0 otherwise */
    uint8_t tycoon, tycoon_cost;
    /* Buying Time: the top cards of the market deck came from the sewer,
     * which everyone sees, so their kinds are known (not their order) */
    uint8_t known_top;
    pd_card shortage;                 /* Ingredient Shortage: the card under it, PD_NO_CARD: none */
    /* a global everyone answers in turn: what each seat still owes (Charity
     * Event: cards; Stock Market Crash: a reputation level; Stock Market
     * Soars: takes) and the phase it interrupted */
    uint8_t owed[PD_PLAYERS];
    uint8_t owed_resume;
    int8_t spot[PD_PLAYERS];          /* That's My Spot: the village whose zone has the seat's disk, -1 */
    uint8_t pass_tokens[PD_PLAYERS];  /* Subway Fast Pass rides left */
    uint8_t power_resume;             /* the phase a power card's own decisions interrupted */
    uint8_t blocks_left;              /* Building Commissioner tokens still to place */
    int8_t blocker[PD_MAX_LOTS];      /* the seat whose token reserves a lot, -1: none */
    pd_card farmed[PD_PLAYERS];       /* the card under Farmer Brown, PD_NO_CARD: none */
    uint16_t farmed_turn[PD_PLAYERS]; /* the turn it was put there (usable from the next) */
    /* Cold Storage: the sewer cards under it (its holder's, whoever that
     * is), the turn it was filled and the turn cards were last used */
    pd_card cold[PD_COLD_CARDS];
    uint8_t ncold;
    uint16_t cold_filled_turn, cold_used_turn;
    /* Harlem Rotary: the order its holder may copy, the seat whose turn it
     * is while the holder decides (st->seat is the holder then) and the
     * phase that turn goes on with */
    pd_order copied;
    uint8_t copy_turn_seat, copy_resume;
    uint16_t turn;
    /* co-op (PD-C1): the team's money (the score track's pawn), the day on
     * the week tracker, the promotion on each day (0: none), days whose token
     * went under the pawn (not used until it comes back), markers passed (a
     * bit per colour), order cards left in the box (unseen) and pushed out,
     * cards given this turn, and how the game ended */
    int16_t team_money;
    uint8_t day;
    uint8_t promo[PD_DAYS];
    uint8_t promo_asleep;
    uint8_t promos_placed;
    uint8_t norder_box, orders_out;
    int8_t order_box[PD_MAX_ORDERS];
    bool order_deck_seen; /* the deck is the discards shuffled back: no box card can be in it */
    uint8_t given;
    uint8_t coop_result;
    /* Insane or Easier: the day (+1) whose new back-side token waits for its
     * pizza's morning or evening (0: none) and the phase that choice
     * interrupted; the Top Chef die rolled at the end (0: not rolled) */
    uint8_t promo_choice, promo_resume;
    uint8_t top_chef_roll;
    /* Out of Supplies: the $2 payments each seat owes before it delivers */
    uint8_t supplies_due[PD_PLAYERS];
    /* Instant cards after a delivery (PD_PH_INSTANT): the deliverer, the
     * tip tokens the delivery gave (what Traffic Jam takes back), the seats
     * that have answered (a bit each), and the seat and phase the turn goes
     * on with (after the answers, or after a Property Tax played on the
     * player's own turn) */
    uint8_t instant_deliverer, delivery_tips, instant_answered;
    uint8_t instant_seat, instant_resume;
    /* the market deck, top last */
    uint16_t ndeck;
    pd_card deck[PD_DECK_MAX];
    uint8_t open[PD_TYPES];           /* the open market, per type */
    uint8_t open_size;
    uint8_t sewer[PD_TYPES];          /* PD-O2 */
    /* orders (PD-O1): the order deck, top last; the discarded ones */
    uint8_t norder_deck, norder_discard;
    int8_t order_deck[PD_MAX_ORDERS];
    int8_t order_discard[PD_MAX_ORDERS];
    pd_order order[PD_ORDER_SLOTS];   /* Orders 5 and 6 (Pandemic's) empty unless it made them */
    /* tip tokens: values by token index; the face-down pool, top last */
    uint8_t ntips, ntip_pool;
    uint8_t tip_value[PD_MAX_TIPS * 2];
    uint8_t tip_pool[PD_MAX_TIPS * 2];
    uint8_t tip_seen[PD_MAX_TIPS * 2];  /* Ham: seats that looked at a token face up, a bit each */
    uint8_t no_tips;                  /* NO TIP tokens left */
    /* power cards: the deck (top last), the discards, each tableau */
    uint8_t npower_deck;
    uint8_t power_deck[PD_MAX_POWERS];
    uint64_t power_discard;
    uint64_t tableau[PD_PLAYERS];
    uint64_t kept_choice[PD_PLAYERS]; /* PD-S3: the two dealt, until one is kept */
    int8_t lot_owner[PD_MAX_LOTS];
    pd_player player[PD_PLAYERS];
    pd_pending pending;
    pb_rng rng;
    const pd_rules *rules;
} pd_state;

/* Edition 2 of the rules corrected Coupon Days with Sausage, Frugal Shopper,
 * Copy Cat with Extra Cheese, Cold Storage's refill and Ingredient Shortage
 * to the printed text. A game begun before keeps edition 1, the rules it
 * was played with, so its moves replay to the same end (config "edition",
 * records of version 2 and before, tables stored before). Edition 3 (records
 * from version 4): over the reputation limit a card below the top goes, a
 * level disk only when there is none (the book: "remove a card"); Over
 * Achiever is played before the action only, like Special Sale (after it,
 * it did nothing). Records of version 3 keep edition 2. */
#define PD_EDITION 3

/* Are the expansion's power cards in the power deck: with the whole box, or
 * alone? */
static inline bool pd_expansion_powers(const pd_rules *r)
{
    return r->expansion || r->expansion_powers;
}

/* ---- engine.c ---- */
/* r->data must be loaded; fills the rest. The 5-6 player expansion is in
 * for 5 or 6 players; set r->expansion after this to choose otherwise (or
 * r->expansion_powers for its power cards alone). Extra Cheese is out; set
 * r->extra_cheese to put it in. */
void pd_rules_init(pd_rules *r, int players, int first);
/* Co-op with the markers of a difficulty row (1..8); set single markers after. */
void pd_rules_coop(pd_rules *r, int difficulty);
/* A seat's money: its own, or in co-op the team's. */
int pd_money(const pd_state *st, int seat);
/* Co-op: the team's deliveries so far. */
int pd_team_deliveries(const pd_state *st);
extern const char *const pd_day_names[PD_DAYS];
/* Co-op's Top Chef (the die's category `roll`, 1..6): each seat's value in
 * that category into value[] (category 6: the other categories it is
 * lowest in) and the seats with the most, a bit each. */
unsigned pd_top_chef(const pd_state *st, int roll, int *value);
extern const char *const pd_chef_categories[7];
/* {"roll", "category", "values" (a seat each), "seats" and "names" of the Top Chefs} */
json_t *pd_top_chef_json(const pd_state *st, const char *const *names);
/* The rulebook's record code: "Win 2PL - B11 - R13 - P30 - M60" (" - Insane", " - Easier"). */
void pd_coop_code(const pd_state *st, char *buf, size_t n);
/* Co-op: turns until the next Pizza Promotion (0: this turn's evening) and
 * in *orders how many orders it brings then; -1 if none is on the tracker. */
int pd_next_promotion(const pd_state *st, int *orders);
void pd_init(pd_state *st, const pd_rules *r, uint64_t seed);
int pd_current_seat(const pd_state *st);
int pd_legal_actions(const pd_state *st, pb_action *out);
/* Legal now: listed, or a payment (discard, further card, ingredient) in
 * another order than the listing's, which a player may name (pd_accepted_actions). */
bool pd_is_legal(const pd_state *st, pb_action a);
/* pd_is_legal for each of n actions, the position listed once. */
void pd_legal_each(const pd_state *st, const pb_action *a, int n, bool *legal);
/* The listed moves and those other orders' next steps: what a player may type. */
int pd_accepted_actions(const pd_state *st, pb_action *out);
int pd_apply(pd_state *st, pb_action a, char *err, size_t errlen);
void pd_determinize(pd_state *st, int seat, pb_rng *rng);
void pd_returns(const pd_state *st, double *out);
/* PD-E1: money + tableau cards + disks on the board + tips. */
int pd_score(const pd_state *st, int seat);
/* The tableau's cards (pizzerias, power cards in play, cards stored under
 * them) and, in *disks, the seat's disks on the board. */
int pd_tableau_cards(const pd_state *st, int seat, int *disks);
int pd_tip_money(const pd_state *st, int seat);
/* Reputation of a seat's pizzeria in a village (PD-T3). */
int pd_reputation(const pd_state *st, int seat, int village);
int pd_reputation_limit(const pd_state *st, int seat, int village);
/* The village an order is delivered to (-1: any zone, a specialty order). */
int pd_order_village(const pd_state *st, int slot);
/* The cards a delivery as announced would cost: ingredients from hand and
 * spaces beyond the free range; -1 when it cannot be made. */
typedef struct pd_quote {
    int length;        /* route spaces, the door counted as 1 */
    int free_range;
    int distance_cards;
    int hand_ingredients;
    int extras;
    int pay;           /* money the order pays with the powers that apply */
    int zone;          /* the delivery-zone space */
    bool park_used;
    /* Extra Cheese: what it earns ($1, $2 on a specialty pizza; in `pay`
     * when the deliverer's own pizzeria has a cheese card), whether it has
     * one, whether the order asks for cheese the pizzeria does not give
     * (left out: NO TIP), and the cheese cards in hand and Cold Storage
     * that could go on it */
    int cheese_bonus;
    bool cheese_in_pizzeria;
    bool cheese_required;
    int cheese_cards;
    bool tip;          /* the order's tip comes with it (not NO TIP: none on the order, Onions' short needed,
                        * the order's cheese missing, Midtown Hi-Jinks) */
    /* the ingredients the pizzeria (and Farmer Brown) leave to the hand and
     * Cold Storage, in the order's order, as the delivery would ask for
     * them: an ingredient, or -1 for any of need_group's */
    int nneeds;
    int8_t need_ingredient[PD_MAX_SUPPLY];
    int8_t need_group[PD_MAX_SUPPLY];
} pd_quote;
/* `to`: the zone village a specialty order goes to (-1: the order's own, or
 * for a specialty order the nearest). */
int pd_delivery_quote(const pd_state *st, int seat, int slot, int village, int to, unsigned modes, pd_quote *q);
/* The same from `owner`'s pizzeria in `village` (Copy Cat: another seat's). */
int pd_delivery_quote_from(const pd_state *st, int seat, int owner, int slot, int village, int to, unsigned modes,
                           pd_quote *q);
/* The seat whose pizzeria a PD_A_DELIVER or PD_A_COPY by the mover is from. */
int pd_deliver_owner(const pd_state *st, pb_action a);

/* ---- view.c, score.c ---- */
json_t *pd_view(const pd_state *st, int seat);
json_t *pd_map_json(const pd_map *m);
json_t *pd_score_json(const pd_state *st, const char *const *names);
void pd_evaluate(const pd_state *st, int viewer, double *values);

/* ---- notation.c ---- */
#define PD_EVERYONE_SEES_ALL (-2) /* a viewer who may see every secret (records) */
/* The action's text as `viewer` may see it (a kept power card is secret). */
int pd_action_text(const pd_state *st, pb_action a, int viewer, char *buf, size_t n);
/* Text to a legal action; -1 with the reason (and a legal example) in err. */
int pd_action_parse(const pd_state *st, const char *text, pb_action *a, char *err, size_t errlen);

/* ---- instant.c ---- */
/* What Property Tax takes from a seat: half of each pizzeria's reputation,
 * rounded down, $5 at most; all the seat can pay (money and hand) if less. */
int pd_property_tax(const pd_state *st, int seat);

/* ---- powers.c ---- */
/* Is power card `pc` in seat's tableau? */
bool pd_has(const pd_state *st, int seat, pd_pc pc);
/* Someone other than `seat` holding `pc`, or -1. */
int pd_other_holder(const pd_state *st, int seat, pd_pc pc);

/* ---- check.c ---- */
/* 0, or -1 naming what is broken: every card, tip and power card in exactly
 * one place, counts and sizes consistent. */
int pd_check_invariants(const pd_state *st, char *err, size_t errlen);

#endif
