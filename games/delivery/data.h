/* data.h -- New York Pizza Delivery: the game's data (the map and the cards)
 * and route lengths on the map.
 *
 * The rules contract is shared/specs/pizza-delivery.md; rule ids (PD-...) in
 * comments point to it. Both files are data (data/delivery/, embedded in the
 * binary as the defaults) and are checked strictly when loaded: a refusal
 * names the problem. Everything is fixed-size and never changes after loading,
 * so the engine keeps a `const pd_data *` and clones its states with memcpy.
 * docs/delivery-data.md describes both formats and the reconstruction. */
#ifndef PD_DATA_H
#define PD_DATA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- limits (a file beyond them is refused) ---- */
#define PD_MAX_SPACES 128        /* street and Park Path spaces */
#define PD_MAX_NEXT 8            /* neighbours of one space */
#define PD_MAX_ROADS 512
#define PD_MAX_VILLAGES 12
#define PD_MAX_LOTS 48           /* on the whole map */
#define PD_MAX_VILLAGE_LOTS 6
#define PD_MAX_LOT_COST 20       /* dollars */
#define PD_MAX_COORD 10000       /* drawing positions are 0..PD_MAX_COORD */
#define PD_ID_LEN 8              /* space and lot ids: 1..7 letters, digits, '-' */
#define PD_CODE_LEN 4            /* village codes: 1..3 capital letters */
#define PD_NAME_LEN 32           /* names of maps, villages, ingredients, cards */
#define PD_SLUG_LEN 32           /* ids of powers and orders: lower-case-with-dashes */
#define PD_TEXT_LEN 256          /* one-line card texts */

#define PD_MAX_INGREDIENTS 16
#define PD_MAX_COPIES 9          /* copies of one market card in one set */
#define PD_MAX_MARKET 250        /* market cards of all sets together */
#define PD_MAX_INSPECTORS 6
#define PD_MAX_ORDER_KINDS 16
#define PD_MAX_ORDERS 64
#define PD_MAX_NEEDS 6           /* ingredient lines of a specialty order */
#define PD_MAX_ORDER_SIZE 12     /* ingredients one order may need */
#define PD_MAX_REGULAR 4         /* market cards on a regular order (PD-D4: 1 to 4) */
#define PD_MAX_TIP_VALUE 9       /* dollars */
#define PD_MAX_TIPS 128          /* tip tokens of one set, NO TIP included */
#define PD_MAX_POWERS 64         /* power cards, basic and expansion together */

/* A market card is a small number: its village and its ingredient. */
typedef uint8_t pd_card;
#define PD_CARD(village, ingredient) ((pd_card)((village) * PD_MAX_INGREDIENTS + (ingredient)))
#define PD_CARD_VILLAGE(c) ((c) / PD_MAX_INGREDIENTS)
#define PD_CARD_INGREDIENT(c) ((c) % PD_MAX_INGREDIENTS)
#define PD_CARD_INSPECTOR 0xFE   /* PD-O1: a Health Inspector in the market deck */
#define PD_NO_CARD 0xFF
#define PD_CARD_NAME_LEN (2 * PD_NAME_LEN)

/* Route modes, combined with |; PD_ROUTE_RED | PD_ROUTE_BLUE is the Subway
 * Fast Pass (get on and off at a station of either colour). */
#define PD_ROUTE_STREETS 0u
#define PD_ROUTE_PARK 1u         /* the Park Path is open */
#define PD_ROUTE_BOAT 2u         /* Motor Boat: from a dock to another dock is one space */
#define PD_ROUTE_RED 4u          /* one ride between red stations counts 0 spaces */
#define PD_ROUTE_BLUE 8u
#define PD_ROUTE_MODES 16
#define PD_NO_ROUTE 0xFF

/* ================================================================= the map */

typedef struct pd_space {
    char id[PD_ID_LEN];
    int16_t x, y;               /* drawing position: x grows east, y grows south */
    int8_t village;
    bool park_path;             /* PD-D2: usable only while the Park Path is open */
    bool dock;                  /* the Motor Boat lands here */
    uint8_t subway;             /* PD_ROUTE_RED and/or PD_ROUTE_BLUE: a station of those lines */
    uint8_t nnext;
    uint8_t next[PD_MAX_NEXT];  /* linked spaces, in the order the roads list them */
} pd_space;

typedef struct pd_lot {
    char id[PD_ID_LEN];
    int8_t village;
    uint8_t cost;               /* PD-T3: the printed price of the property */
    uint8_t door;               /* the street space in front of it: route space 1 */
    int16_t x, y;
} pd_lot;

typedef struct pd_village {
    char code[PD_CODE_LEN];     /* "MT": ids and short card names */
    char name[PD_NAME_LEN];     /* "Midtown" */
    bool park;                  /* PD-D1: Central Park: a zone, no lots, wild for upgrades */
    uint8_t zone;               /* the one delivery-zone space */
    uint8_t nlots;
    uint8_t lot[PD_MAX_VILLAGE_LOTS];
} pd_village;

typedef struct pd_map {
    char name[64];
    int nspaces, nvillages, nlots;
    int park;                   /* the park village, or -1 */
    pd_space space[PD_MAX_SPACES];
    pd_village village[PD_MAX_VILLAGES];
    pd_lot lot[PD_MAX_LOTS];
    /* Spaces moved over from one space to another, the first not counted,
     * per route mode; PD_NO_ROUTE where there is none. */
    uint8_t steps[PD_ROUTE_MODES][PD_MAX_SPACES][PD_MAX_SPACES];
    /* The Park Path crossed: the street spaces next to it (its ends), and
     * the steps from one end over Park Path spaces alone to another end
     * (PD_NO_ROUTE between the same end, or ends it does not join). */
    int nends;
    uint8_t end[PD_MAX_SPACES];
    uint8_t cross[PD_MAX_SPACES][PD_MAX_SPACES];
    /* pd_route_length_across from each lot's door to each village's zone,
     * for the modes with PD_ROUTE_PARK at [modes >> 1]: deliveries are
     * priced many thousand times a move */
    int16_t across[PD_ROUTE_MODES / 2][PD_MAX_LOTS][PD_MAX_VILLAGES];
} pd_map;

typedef enum pd_park_use {
    PD_PARK_UNUSED,             /* no shortest route crosses the park (or it is closed) */
    PD_PARK_OPTIONAL,           /* some shortest routes cross it, others go round */
    PD_PARK_NEEDED,             /* every shortest route crosses it */
} pd_park_use;

/* Read a map object (PD-D2). Returns 0, or -1 with "map: <the problem>" in
 * err; *m is then unspecified. Fills the route tables. */
int pd_map_from_json(const json_t *j, pd_map *m, char *err, size_t errlen);
/* The same from untrusted text (malformed JSON refused with its position). */
int pd_map_from_text(const char *text, pd_map *m, char *err, size_t errlen);
/* The embedded default map; aborts only if the binary itself is broken. */
void pd_map_default(pd_map *m);

/* PD-T4: the length of the shortest route from `from` (counted as space 1) to
 * `to`, over street spaces and what `modes` allows; -1 when there is none
 * (an index out of range, or a Park Path space without PD_ROUTE_PARK). */
int pd_route_length(const pd_map *m, int from, int to, unsigned modes);
/* Whether the shortest routes with the Park Path open (PD_ROUTE_PARK is
 * added to `modes`) cross it. A description of the map: who is paid follows
 * the move (`via park`, pd_route_length_across), not this. */
pd_park_use pd_route_park_use(const pd_map *m, int from, int to, unsigned modes);
/* One shortest route as its spaces, `from` first and `to` last; with
 * PD_ROUTE_PARK it crosses the park whenever a shortest route can. Two
 * consecutive spaces that are not neighbours are a subway ride or a boat
 * trip. Returns the number of spaces, or -1 when there is no route or it
 * does not fit in `max`. */
int pd_route(const pd_map *m, int from, int to, unsigned modes, uint8_t *spaces, int max);
/* A delivery `via park`: the length of the shortest route that crosses the
 * Park Path once (PD_ROUTE_PARK is implied), in at one end and out at
 * another, even where going round is shorter; the subway ride and the boat
 * trip that `modes` allows at most once each, before or after the park. -1
 * when there is none. pd_route_across lists that route's spaces as pd_route
 * does: the way in and the way out may pass the same spaces, so it needs
 * room for up to PD_MAX_ROUTE_ACROSS. */
#define PD_MAX_ROUTE_ACROSS (2 * PD_MAX_SPACES + 2)
int pd_route_length_across(const pd_map *m, int from, int to, unsigned modes);
int pd_route_across(const pd_map *m, int from, int to, unsigned modes, uint8_t *spaces, int max);

/* Lookups by id, code or name; -1 when not found. Ids and codes match
 * without regard to case; names also ignore everything but letters and
 * digits ("hells-kitchen" is Hell's Kitchen). */
int pd_space_find(const pd_map *m, const char *id);
int pd_lot_find(const pd_map *m, const char *id);
int pd_village_find(const pd_map *m, const char *code_or_name);

/* =============================================================== the cards */

typedef enum pd_group {
    PD_MEAT,
    PD_VEGETABLE,
    PD_ANY_MEAT,                /* PD-P2: wild cards, persistent in a pizzeria */
    PD_ANY_VEGETABLE,
    PD_ANY_INGREDIENT,
    PD_CHEESE,                  /* Extra Cheese: never an order's need; a bonus on a pizza (PD-C2) */
    PD_GROUPS
} pd_group;

typedef struct pd_ingredient {
    char name[PD_NAME_LEN];
    pd_group group;
    bool persistent;            /* PD-P2: works from anywhere in a pizzeria */
    char power[PD_SLUG_LEN];    /* PD-P1: the delivery power's id */
    char text[PD_TEXT_LEN];
} pd_ingredient;

typedef enum pd_market_set {
    PD_SET_BASE,                /* PD-D3: 9 villages x 8 ingredients x 2 */
    PD_SET_ANY,                 /* the 5-6 player ANY cards */
    PD_SET_CHEESE,              /* the Extra Cheese mini expansion */
    PD_SETS
} pd_market_set;

typedef struct pd_market {
    int count;
    uint8_t copies[PD_MAX_VILLAGES][PD_MAX_INGREDIENTS];
} pd_market;

/* One line of a specialty order: `count` cards of an ingredient, or of any
 * ingredient of a group (ingredient -1, group PD_MEAT or PD_VEGETABLE). */
typedef struct pd_need {
    int8_t ingredient;
    int8_t group;
    uint8_t count;
} pd_need;

typedef struct pd_order_kind {
    char id[PD_SLUG_LEN];
    char name[PD_NAME_LEN];
    bool specialty;
    uint8_t copies;
    uint8_t pay;                /* PD-D4: a regular order pays $1 per ingredient */
    uint8_t market_cards;       /* regular: market cards it takes, one per ingredient (PD-O1) */
    uint8_t extra_cards;        /* specialty: further cards of any kind from hand */
    uint8_t nneeds;
    pd_need need[PD_MAX_NEEDS];
} pd_order_kind;

typedef enum pd_box {
    PD_BASIC,                   /* the 1-4 player box */
    PD_EXPANSION,               /* EXP 5-6p */
    PD_BOXES
} pd_box;

typedef struct pd_tips {
    int count;                  /* face-down tip tokens */
    int no_tip;                 /* NO TIP tokens, worth $0 */
    uint8_t copies[PD_MAX_TIP_VALUE + 1]; /* by value in dollars; [0] is always 0 */
} pd_tips;

typedef enum pd_power_type { PD_SPEED, PD_MONEY, PD_EVENT, PD_GLOBAL, PD_TIMED, PD_POWER_TYPES } pd_power_type;

typedef struct pd_power {
    char id[PD_SLUG_LEN];
    char name[PD_NAME_LEN];
    pd_power_type type;
    pd_box box;
    bool instant;               /* TIMED, played on someone else's turn */
    bool not_for_coop;          /* PD-C1: left out of co-op games */
    uint8_t tokens;             /* power tokens that come with it */
    uint8_t nvillages;
    int8_t village[2];          /* the villages its text names */
    char text[PD_TEXT_LEN];
} pd_power;

typedef struct pd_cards {
    char name[64];
    int ningredients;
    pd_ingredient ingredient[PD_MAX_INGREDIENTS];
    pd_market market[PD_SETS];
    int inspectors;             /* PD-S5: Health Inspectors in the market deck */
    int fine;                   /* PD-O1: what each of them costs every player */
    int orders;                 /* order cards in all */
    int norder_kinds;
    pd_order_kind order[PD_MAX_ORDER_KINDS];
    pd_tips tips[PD_BOXES];
    int npowers;                /* the basic cards first, then the expansion's */
    int powers_in[PD_BOXES];
    pd_power power[PD_MAX_POWERS];
} pd_cards;

/* Read a cards object (PD-D3..D6, PD-P1) for a map: cards name its villages
 * by code. Returns 0, or -1 with "cards: <the problem>" in err. */
int pd_cards_from_json(const json_t *j, const pd_map *m, pd_cards *c, char *err, size_t errlen);
int pd_cards_from_text(const char *text, const pd_map *m, pd_cards *c, char *err, size_t errlen);
/* The embedded default cards for a map; fails, with a message, only when the
 * map lacks a village they name. */
int pd_cards_default(const pd_map *m, pd_cards *c, char *err, size_t errlen);

int pd_ingredient_find(const pd_cards *c, const char *name);
/* A power card by id or name; -1 when there is none. */
int pd_power_find(const pd_cards *c, const char *id_or_name);
const char *pd_group_name(pd_group g);
const char *pd_power_type_name(pd_power_type t);

/* Helpers the two loaders share. Whether two names are the same, comparing
 * letters and digits only, without regard to case. */
bool pd_names_match(const char *a, const char *b);
/* Whether v is a string of 1 to n-1 bytes without control characters. */
bool pd_json_text(const json_t *v, size_t n);

/* ============================================================ the game data */

typedef struct pd_data {
    pd_map map;
    pd_cards cards;
} pd_data;

/* Both files (NULL takes the embedded default); -1 with the problem in err. */
int pd_data_from_json(const json_t *map, const json_t *cards, pd_data *d, char *err, size_t errlen);
/* The embedded defaults; aborts only if the binary itself is broken. */
void pd_data_default(pd_data *d);

/* Card names: "Midtown/Pepperoni" for people, "Upper-West-Side/Any-Meat"
 * (no spaces) for the notation, "Health Inspector" for PD_CARD_INSPECTOR;
 * "?" for a card the data does not have. */
void pd_card_name(const pd_data *d, pd_card card, char *buf, size_t n);
void pd_card_word(const pd_data *d, pd_card card, char *buf, size_t n);
/* Read a card written either way, or with the village's code ("MT/Ham").
 * Returns 0, or -1 with the problem in err. */
int pd_card_from_text(const pd_data *d, const char *text, pd_card *card, char *err, size_t errlen);

#endif
