/* test_delivery_data.c -- New York Pizza Delivery's data: the default map and
 * cards against the rules contract (shared/specs/pizza-delivery.md, PD-D1..D6,
 * PD-P1, PD-T4), the loaders' refusals, and route lengths.
 *
 * The default map (data/delivery/map.json) is a grid: column letters a..e
 * from west to east, row numbers 1..18 from north to south, so "c12" is the
 * middle avenue at row 12. Central Park fills rows 5..7 of column c: the
 * Park Path is its one space c6, linked to c4 (north), c8 (south), b6 (west)
 * and d6 (east); its zone is c8, on the street south of it. Red stations: b3 b5 b10 b12 b15;
 * blue: d3 d5 d9 d12 d16; docks: a2 a6 a10 a13 e13 c18. Zones: HA c3, UW b6,
 * UE d6, CP c8, HK b9, MT d10, GV b13, EV d13, FD c16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "../../games/delivery/data.h"

extern const char pb_data_delivery_map[];
extern const char pb_data_delivery_cards[];

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The default data, loaded once (read only). */
static pd_data *D;

static int setup(void **state)
{
    (void)state;
    D = malloc(sizeof *D);
    pd_data_default(D);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(D);
    return 0;
}

/* ---------------------------------------------------------------- lookups */

static int space(const char *id)
{
    int s = pd_space_find(&D->map, id);
    if (s < 0)
        fail_msg("no space %s on the default map", id);
    return s;
}

static int village(const char *code)
{
    int v = pd_village_find(&D->map, code);
    if (v < 0)
        fail_msg("no village %s on the default map", code);
    return v;
}

static int zone(const char *code)
{
    return D->map.village[village(code)].zone;
}

static int route(const char *from, const char *to, unsigned modes)
{
    return pd_route_length(&D->map, space(from), space(to), modes);
}

static int zones_apart(const char *a, const char *b, unsigned modes)
{
    return pd_route_length(&D->map, zone(a), zone(b), modes);
}

/* What a route's spaces add up to (a link or a boat trip 1, a subway ride
 * 0), with its rides, boat trips and Park Path spaces counted. */
typedef struct walked {
    int length, rides, trips, path;
} walked;

static walked walk(const pd_map *m, const uint8_t *r, int n, unsigned modes)
{
    walked w = {.length = 1, .path = n > 0 && m->space[r[0]].park_path};
    for (int i = 0; i + 1 < n; i++) {
        const pd_space *s = &m->space[r[i]], *t = &m->space[r[i + 1]];
        bool linked = false;
        for (int k = 0; k < s->nnext; k++)
            linked |= s->next[k] == r[i + 1];
        w.path += t->park_path;
        if (linked)
            w.length++;
        else if ((s->subway & modes) && (t->subway & modes))
            w.rides++; /* a ride: 0 */
        else if (s->dock && t->dock && (modes & PD_ROUTE_BOAT))
            w.length++, w.trips++;
        else
            fail_msg("%s to %s in a route is neither a link, a ride nor a boat trip", s->id, t->id);
    }
    return w;
}

static const pd_power *power(const char *id)
{
    int p = pd_power_find(&D->cards, id);
    if (p < 0)
        fail_msg("no power card %s", id);
    return &D->cards.power[p];
}

static int ingredient(const char *name)
{
    int i = pd_ingredient_find(&D->cards, name);
    if (i < 0)
        fail_msg("no ingredient %s", name);
    return i;
}

/* ============================================================= PD-D1, D2 */

/* PD-D1: the nine villages; Central Park is the park and has no lots. */
static void test_PD_D1_villages(void **state)
{
    (void)state;
    static const char *const names[] = {"Harlem", "Upper West Side", "Upper East Side", "Central Park",
                                        "Hell's Kitchen", "Midtown", "Greenwich Village", "East Village",
                                        "Financial District"};
    static const char *const codes[] = {"HA", "UW", "UE", "CP", "HK", "MT", "GV", "EV", "FD"};
    const pd_map *m = &D->map;
    assert_int_equal(m->nvillages, 9);
    for (int v = 0; v < 9; v++) {
        assert_string_equal(m->village[v].name, names[v]);
        assert_string_equal(m->village[v].code, codes[v]);
        assert_int_equal(m->village[v].park, v == 3);
    }
    assert_int_equal(m->park, village("CP"));
    assert_int_equal(m->village[m->park].nlots, 0);
}

/* PD-D2: a plausible size, every street reachable without the Park Path. */
static void test_PD_D2_size_and_connected(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    int streets = 0, path = 0;
    for (int s = 0; s < m->nspaces; s++)
        m->space[s].park_path ? path++ : streets++;
    assert_int_equal(streets, 80);
    assert_int_equal(path, 1); /* the Park Path: a single space road */
    assert_true(streets >= 60 && streets <= 120);
    for (int s = 0; s < m->nspaces; s++)
        if (!m->space[s].park_path)
            assert_true(pd_route_length(m, 0, s, PD_ROUTE_STREETS) > 0);
}

/* PD-D2: laid out like Manhattan: Harlem north, the Financial District at the
 * southern tip, Central Park in the middle north with the Upper West and East
 * Sides either side, Hell's Kitchen west of Midtown, Greenwich Village west of
 * the East Village (by the positions of their zones). */
static void test_PD_D2_laid_out_like_manhattan(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
#define X(code) m->space[zone(code)].x
#define Y(code) m->space[zone(code)].y
    for (int v = 0; v < m->nvillages; v++) {
        const pd_space *z = &m->space[m->village[v].zone];
        if (strcmp(m->village[v].code, "HA") != 0)
            assert_true(Y("HA") < z->y);
        if (strcmp(m->village[v].code, "FD") != 0)
            assert_true(Y("FD") > z->y);
    }
    assert_true(X("UW") < X("CP") && X("CP") < X("UE"));
    assert_true(Y("UW") == Y("UE") && Y("UW") < Y("HK"));
    assert_true(X("HK") < X("MT") && X("GV") < X("EV"));
    assert_true(Y("MT") < Y("EV") && Y("HK") < Y("GV"));
    /* long and narrow */
    int minx = PD_MAX_COORD, maxx = 0, miny = PD_MAX_COORD, maxy = 0;
    for (int s = 0; s < m->nspaces; s++) {
        const pd_space *sp = &m->space[s];
        minx = sp->x < minx ? sp->x : minx;
        maxx = sp->x > maxx ? sp->x : maxx;
        miny = sp->y < miny ? sp->y : miny;
        maxy = sp->y > maxy ? sp->y : maxy;
    }
    assert_true(maxy - miny > 3 * (maxx - minx));
#undef X
#undef Y
}

/* PD-D2: each village (Central Park too) has one zone, a street space of its own. */
static void test_PD_D2_one_zone_per_village(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    for (int v = 0; v < m->nvillages; v++) {
        const pd_space *z = &m->space[m->village[v].zone];
        assert_int_equal(z->village, v);
        assert_false(z->park_path);
        for (int w = 0; w < v; w++)
            assert_int_not_equal(m->village[w].zone, m->village[v].zone);
    }
    assert_string_equal(m->space[zone("CP")].id, "c8");
}

/* PD-D2: three lots in every buildable village, with short ids. */
static void test_PD_D2_three_lots_per_village(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    assert_int_equal(m->nlots, 24);
    for (int v = 0; v < m->nvillages; v++) {
        if (m->village[v].park)
            continue;
        assert_int_equal(m->village[v].nlots, 3);
        for (int k = 0; k < 3; k++) {
            char id[PD_ID_LEN];
            snprintf(id, sizeof id, "%s-%d", m->village[v].code, k + 1);
            assert_int_equal(pd_lot_find(m, id), m->village[v].lot[k]);
            assert_int_equal(m->lot[m->village[v].lot[k]].village, v);
        }
    }
}

/* PD-D2: every lot costs $2..$8 and its door is a street space of its village. */
static void test_PD_D2_lot_costs_and_doors(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    for (int l = 0; l < m->nlots; l++) {
        const pd_lot *lot = &m->lot[l];
        const pd_space *door = &m->space[lot->door];
        assert_true(lot->cost >= 2 && lot->cost <= 8);
        assert_false(door->park_path);
        assert_int_equal(door->village, lot->village);
    }
}

/* PD-D2: Midtown is the dearest village; Harlem and the Financial District
 * the cheapest (by the sum of their lots, and the $8 and $2 lots). */
static void test_PD_D2_midtown_dearest_ends_cheapest(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    int sum[PD_MAX_VILLAGES] = {0};
    for (int l = 0; l < m->nlots; l++) {
        const pd_lot *lot = &m->lot[l];
        sum[lot->village] += lot->cost;
        if (lot->cost == 8)
            assert_int_equal(lot->village, village("MT"));
        if (lot->cost == 2)
            assert_true(lot->village == village("HA") || lot->village == village("FD"));
    }
    for (int v = 0; v < m->nvillages; v++) {
        if (m->village[v].park)
            continue;
        if (v != village("MT"))
            assert_true(sum[v] < sum[village("MT")]);
        if (v != village("HA") && v != village("FD"))
            assert_true(sum[v] > sum[village("HA")] && sum[v] > sum[village("FD")]);
    }
    assert_int_equal(sum[village("MT")], 21);
    assert_int_equal(sum[village("HA")], 7);
    assert_int_equal(sum[village("FD")], 7);
}

/* PD-D2: villages are neighbours when a street (not the Park Path) runs from
 * one into the other; their zones are 3 to 5 spaces apart (PD-T4 counting). */
static void test_PD_D2_neighbouring_zones_3_to_5(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    char pairs[512] = "";
    bool seen[PD_MAX_VILLAGES][PD_MAX_VILLAGES] = {{false}};
    for (int s = 0; s < m->nspaces; s++)
        for (int k = 0; k < m->space[s].nnext; k++) {
            const pd_space *a = &m->space[s], *b = &m->space[a->next[k]];
            if (a->park_path || b->park_path || a->village >= b->village || seen[a->village][b->village])
                continue;
            seen[a->village][b->village] = true;
        }
    for (int a = 0; a < m->nvillages; a++)
        for (int b = a + 1; b < m->nvillages; b++) {
            if (!seen[a][b])
                continue;
            int d = pd_route_length(m, m->village[a].zone, m->village[b].zone, PD_ROUTE_STREETS);
            if (d < 3 || d > 5)
                fail_msg("zones of %s and %s are %d apart", m->village[a].code, m->village[b].code, d);
            char pair[16];
            snprintf(pair, sizeof pair, "%s%s-%s=%d", pairs[0] ? " " : "", m->village[a].code, m->village[b].code,
                     d);
            strcat(pairs, pair);
        }
    assert_string_equal(pairs, "HA-UW=5 HA-UE=5 UW-HK=4 UE-MT=5 CP-HK=3 CP-MT=4 HK-MT=4 HK-GV=5 MT-EV=4 "
                               "GV-EV=3 GV-FD=5 EV-FD=5");
    /* The sides of the park: 4 from its zone, though their streets meet it
     * only by the Park Path. */
    assert_int_equal(zones_apart("UW", "CP", PD_ROUTE_STREETS), 4);
    assert_int_equal(zones_apart("UE", "CP", PD_ROUTE_STREETS), 4);
}

/* PD-D2: Harlem's zone and the Financial District's are at least 14 apart
 * by the streets; the Park Path (a power card, one space across the park)
 * takes 4 off. */
static void test_PD_D2_harlem_to_financial_district(void **state)
{
    (void)state;
    assert_int_equal(zones_apart("HA", "FD", PD_ROUTE_STREETS), 16);
    assert_int_equal(zones_apart("FD", "HA", PD_ROUTE_STREETS), 16);
    assert_int_equal(zones_apart("HA", "FD", PD_ROUTE_PARK), 12);
}

/* The westmost or eastmost space of its row, or the southernmost of its column. */
static bool waterfront(const pd_map *m, int s)
{
    const pd_space *a = &m->space[s];
    bool west = true, east = true, south = true;
    for (int t = 0; t < m->nspaces; t++) {
        const pd_space *b = &m->space[t];
        west &= !(b->y == a->y && b->x < a->x);
        east &= !(b->y == a->y && b->x > a->x);
        south &= !(b->x == a->x && b->y > a->y);
    }
    return west || east || south;
}

/* PD-D2: docks on the waterfront of at least 5 villages. */
static void test_PD_D2_docks(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    bool has[PD_MAX_VILLAGES] = {false};
    int docks = 0, villages = 0;
    for (int s = 0; s < m->nspaces; s++)
        if (m->space[s].dock) {
            assert_true(waterfront(m, s));
            assert_false(m->space[s].park_path);
            docks++;
            villages += !has[m->space[s].village];
            has[m->space[s].village] = true;
        }
    assert_int_equal(docks, 6);
    assert_int_equal(villages, 6);
    assert_true(villages >= 5);
}

/* PD-D2: a red line on the west side and a blue line on the east side, each
 * with stations in at least 5 villages (west and east of the Park Path's
 * north-south line). */
static void test_PD_D2_subway_lines(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    int middle = m->space[space("c6")].x;
    for (unsigned line = PD_ROUTE_RED; line <= PD_ROUTE_BLUE; line <<= 1) {
        bool has[PD_MAX_VILLAGES] = {false};
        int villages = 0;
        for (int s = 0; s < m->nspaces; s++)
            if (m->space[s].subway & line) {
                assert_true(line == PD_ROUTE_RED ? m->space[s].x < middle : m->space[s].x > middle);
                villages += !has[m->space[s].village];
                has[m->space[s].village] = true;
            }
        assert_int_equal(villages, 5);
    }
}

/* PD-D2: the Park Path is a single space road (c6) across Central Park
 * north-south (c4 c6 c8) and east-west (b6 c6 d6): crossing it counts one
 * space either way. It is part of no route while it is closed. */
static void test_PD_D2_park_path(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    for (int s = 0; s < m->nspaces; s++)
        if (m->space[s].park_path) {
            assert_int_equal(m->space[s].village, m->park);
            assert_int_equal(pd_route_length(m, space("c3"), s, PD_ROUTE_STREETS), -1);
            assert_int_equal(pd_route_length(m, s, space("c3"), PD_ROUTE_RED), -1);
            assert_true(pd_route_length(m, space("c3"), s, PD_ROUTE_PARK) > 0);
        }
    /* north-south: c4 (north of the park) to c8 (its zone, south of it) */
    assert_int_equal(route("c4", "c8", PD_ROUTE_STREETS), 7);
    assert_int_equal(route("c4", "c8", PD_ROUTE_PARK), 3);
    /* east-west: the Upper West Side's zone to the Upper East Side's */
    assert_int_equal(route("b6", "d6", PD_ROUTE_STREETS), 7);
    assert_int_equal(route("b6", "d6", PD_ROUTE_PARK), 3);
}

/* ============================================================= PD-D3..D6 */

/* PD-D3: 144 market cards, 9 villages x 8 ingredients x 2; four meats and
 * four vegetables. */
static void test_PD_D3_base_market(void **state)
{
    (void)state;
    static const char *const meats[] = {"Pepperoni", "Sausage", "Ham", "Meatballs"};
    static const char *const vegetables[] = {"Peppers", "Onions", "Tomatoes", "Pineapple"};
    const pd_cards *c = &D->cards;
    for (int k = 0; k < 4; k++) {
        assert_int_equal(c->ingredient[ingredient(meats[k])].group, PD_MEAT);
        assert_int_equal(c->ingredient[ingredient(vegetables[k])].group, PD_VEGETABLE);
    }
    const pd_market *base = &c->market[PD_SET_BASE];
    assert_int_equal(base->count, 144);
    int total = 0;
    for (int v = 0; v < PD_MAX_VILLAGES; v++)
        for (int i = 0; i < PD_MAX_INGREDIENTS; i++) {
            bool plain = v < 9 && i < c->ningredients && c->ingredient[i].group <= PD_VEGETABLE;
            assert_int_equal(base->copies[v][i], plain ? 2 : 0);
            total += base->copies[v][i];
        }
    assert_int_equal(total, 144);
}

/* PD-D3: 44 ANY cards, 16 Any Meat, 16 Any Vegetable, 12 Any Ingredient,
 * spread evenly over the villages other than Central Park. */
static void test_PD_D3_any_cards(void **state)
{
    (void)state;
    const pd_cards *c = &D->cards;
    const pd_market *any = &c->market[PD_SET_ANY];
    static const char *const kinds[] = {"Any Meat", "Any Vegetable", "Any Ingredient"};
    static const int want[] = {16, 16, 12};
    assert_int_equal(any->count, 44);
    for (int k = 0; k < 3; k++) {
        int i = ingredient(kinds[k]), total = 0, lo = 99, hi = 0;
        for (int v = 0; v < D->map.nvillages; v++) {
            int n = any->copies[v][i];
            total += n;
            if (v == D->map.park) {
                assert_int_equal(n, 0);
                continue;
            }
            lo = n < lo ? n : lo;
            hi = n > hi ? n : hi;
        }
        assert_int_equal(total, want[k]);
        assert_true(lo >= 1 && hi - lo <= 1);
    }
}

/* PD-D3: 18 Extra Cheese cards, 2 per village, Central Park included. */
static void test_PD_D3_extra_cheese(void **state)
{
    (void)state;
    const pd_cards *c = &D->cards;
    int cheese = ingredient("Extra Cheese");
    assert_int_equal(c->market[PD_SET_CHEESE].count, 18);
    for (int v = 0; v < D->map.nvillages; v++)
        assert_int_equal(c->market[PD_SET_CHEESE].copies[v][cheese], 2);
    assert_int_equal(c->ingredient[cheese].group, PD_CHEESE);
    assert_int_equal(c->inspectors, 3); /* PD-S5 */
    assert_int_equal(c->fine, 2);       /* PD-O1 */
}

/* PD-D4: 16 regular orders, 4 each of 1..4 ingredients at $1 per
 * ingredient, and the 4 specialty orders with the rulebook's contents. */
static void test_PD_D4_orders(void **state)
{
    (void)state;
    const pd_cards *c = &D->cards;
    assert_int_equal(c->orders, 20);
    assert_int_equal(c->norder_kinds, 8);
    for (int n = 1; n <= 4; n++) {
        const pd_order_kind *o = &c->order[n - 1];
        assert_false(o->specialty);
        assert_int_equal(o->market_cards, n);
        assert_int_equal(o->pay, n);
        assert_int_equal(o->copies, 4);
    }
    static const struct {
        const char *id, *needs;
        int pay;
    } specialty[] = {
        {"hawaiian", "2 Pineapple, 2 Onions, 2 Ham", 8},
        {"veggie-lovers", "2 Peppers, 2 Onions, 2 Tomatoes", 8},
        {"meat-lovers", "2 Pepperoni, 2 Meatballs, 2 Sausage", 8},
        {"triple-deluxe", "3 vegetable, 3 meat", 6},
    };
    for (int k = 0; k < 4; k++) {
        const pd_order_kind *o = &c->order[4 + k];
        char needs[128] = "";
        assert_string_equal(o->id, specialty[k].id);
        assert_true(o->specialty);
        assert_int_equal(o->copies, 1);
        assert_int_equal(o->pay, specialty[k].pay);
        assert_int_equal(o->extra_cards, 2);
        assert_int_equal(o->market_cards, 0);
        for (int i = 0; i < o->nneeds; i++) {
            char one[48];
            const pd_need *n = &o->need[i];
            snprintf(one, sizeof one, "%s%d %s", i ? ", " : "", n->count,
                     n->ingredient >= 0 ? c->ingredient[n->ingredient].name : pd_group_name((pd_group)n->group));
            strcat(needs, one);
        }
        assert_string_equal(needs, specialty[k].needs);
    }
}

/* PD-D5: tip tokens, base and expansion, and the NO TIP tokens. */
static void test_PD_D5_tips(void **state)
{
    (void)state;
    const pd_tips *base = &D->cards.tips[PD_BASIC], *exp = &D->cards.tips[PD_EXPANSION];
    static const int base_want[] = {0, 16, 16, 10, 6}, exp_want[] = {0, 4, 4, 2, 2};
    assert_int_equal(base->count, 48);
    assert_int_equal(base->no_tip, 9);
    assert_int_equal(exp->count, 12);
    assert_int_equal(exp->no_tip, 3);
    for (int v = 0; v <= PD_MAX_TIP_VALUE; v++) {
        assert_int_equal(base->copies[v], v < 5 ? base_want[v] : 0);
        assert_int_equal(exp->copies[v], v < 5 ? exp_want[v] : 0);
    }
}

/* PD-D6: the 22 basic power cards the rulebook describes (it says 21; the
 * list wins) and the 26 expansion cards, with their types. */
static void test_PD_D6_power_cards(void **state)
{
    (void)state;
    static const char *const basic[] = {
        "bait-and-switch speed", "building-commissioner event", "cold-storage event", "drone-delivery speed",
        "east-village-mogul event", "farmer-brown event", "financial-wizard money", "frugal-shopper event",
        "harlem-rotary-pizzeria money", "health-inspector global", "liberty-storage event",
        "long-distance-delivery money", "midtown-hi-jinks event", "mob-boss money", "motor-boat speed",
        "park-commissioner money", "park-path money", "pope-of-greenwich-village money", "roller-blades speed",
        "subway-fast-pass speed", "subway-ticket-blue speed", "subway-ticket-red speed"};
    static const char *const expansion[] = {
        "bonus-supplies timed", "buying-time timed", "charity-event global", "copy-cat speed",
        "coupon-days global", "down-on-your-luck timed", "hacker timed", "ingredient-shortage global",
        "lucky-day timed", "moped-delivery speed", "oooops timed", "order-screw-up timed",
        "out-of-supplies timed", "over-achiever timed", "pandemic global", "power-outage global",
        "property-tax timed", "real-estate-tycoon timed", "rough-delivery timed", "special-sale timed",
        "stock-market-crash global", "stock-market-soars global", "system-error timed", "thats-my-spot money",
        "traffic-jam timed", "windfall timed"};
    const pd_cards *c = &D->cards;
    assert_int_equal(LEN(basic), 22);
    assert_int_equal(LEN(expansion), 26);
    assert_int_equal(c->powers_in[PD_BASIC], 22);
    assert_int_equal(c->powers_in[PD_EXPANSION], 26);
    assert_int_equal(c->npowers, 48);
    for (int p = 0; p < c->npowers; p++) {
        char want[64];
        snprintf(want, sizeof want, "%s %s", c->power[p].id, pd_power_type_name(c->power[p].type));
        assert_string_equal(want, p < 22 ? basic[p] : expansion[p - 22]);
        assert_int_equal(c->power[p].box, p < 22 ? PD_BASIC : PD_EXPANSION);
        assert_true(strlen(c->power[p].text) > 5);
    }
}

/* PD-D6: the Instant TIMED cards, the "Not for Co-Op" ones, the tokens and
 * the villages the texts name. */
static void test_PD_D6_power_details(void **state)
{
    (void)state;
    const pd_cards *c = &D->cards;
    char instant[256] = "", not_coop[256] = "";
    for (int p = 0; p < c->npowers; p++) {
        if (c->power[p].instant) {
            strcat(instant, " ");
            strcat(instant, c->power[p].id);
        }
        if (c->power[p].not_for_coop) {
            strcat(not_coop, " ");
            strcat(not_coop, c->power[p].id);
        }
    }
    assert_string_equal(instant, " property-tax rough-delivery traffic-jam");
    assert_string_equal(not_coop,
                        " midtown-hi-jinks out-of-supplies property-tax rough-delivery thats-my-spot traffic-jam");
    assert_int_equal(power("building-commissioner")->tokens, 3);
    assert_int_equal(power("subway-fast-pass")->tokens, 3);
    assert_int_equal(power("mob-boss")->nvillages, 1);
    assert_int_equal(power("mob-boss")->village[0], village("HK"));
    assert_int_equal(power("long-distance-delivery")->nvillages, 2);
    assert_int_equal(power("long-distance-delivery")->village[1], village("FD"));
    assert_int_equal(power("Pope of Greenwich Village")->village[0], village("GV"));
    assert_int_equal(power("park-commissioner")->village[0], D->map.park);
}

/* PD-P1, PD-P2: each ingredient's delivery power; the wild cards and Extra
 * Cheese are persistent. */
static void test_PD_P1_ingredient_powers(void **state)
{
    (void)state;
    static const char *const want[] = {
        "Pepperoni vegetarian-bonus", "Sausage double-topping", "Ham choose-tip", "Meatballs market-pick",
        "Peppers meat-bonus", "Onions short-topping", "Tomatoes extra-space", "Pineapple extra-dollar",
        "Any Meat wild-meat *", "Any Vegetable wild-vegetable *", "Any Ingredient wild-ingredient *",
        "Extra Cheese extra-cheese *"};
    const pd_cards *c = &D->cards;
    assert_int_equal(c->ningredients, LEN(want));
    for (int i = 0; i < c->ningredients; i++) {
        char got[96];
        snprintf(got, sizeof got, "%s %s%s", c->ingredient[i].name, c->ingredient[i].power,
                 c->ingredient[i].persistent ? " *" : "");
        assert_string_equal(got, want[i]);
        assert_true(strlen(c->ingredient[i].text) > 10);
    }
}

/* ================================================================ PD-T4 */

/* PD-T4: the door is space 1, each further space adds 1. */
static void test_PD_T4_route_streets(void **state)
{
    (void)state;
    assert_int_equal(route("c3", "c3", PD_ROUTE_STREETS), 1);
    assert_int_equal(route("a2", "a3", PD_ROUTE_STREETS), 2);
    assert_int_equal(route("b1", "c3", PD_ROUTE_STREETS), 4);     /* b1 b2 b3 c3 */
    assert_int_equal(route("a7", "e7", PD_ROUTE_STREETS), 7);     /* round the park's south end */
    assert_int_equal(route("d10", "b13", PD_ROUTE_STREETS), 6);   /* Midtown's zone to Greenwich's */
    assert_int_equal(pd_route_length(&D->map, -1, 0, 0), -1);
    assert_int_equal(pd_route_length(&D->map, 0, D->map.nspaces, 0), -1);
    /* HK-2's door a11 to the Greenwich Village zone: a11 a12 a13 b13 */
    int lot = pd_lot_find(&D->map, "HK-2");
    assert_int_equal(pd_route_length(&D->map, D->map.lot[lot].door, zone("GV"), 0), 4);
}

/* PD-T4 with the Park Path open; whether the route needs it. */
static void test_PD_T4_route_park_path(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    assert_int_equal(route("b6", "d6", PD_ROUTE_PARK), 3);
    assert_int_equal(pd_route_park_use(m, space("b6"), space("d6"), 0), PD_PARK_NEEDED);
    /* b4 to b8: b4 b5 b6 b7 b8 or b4 c4 c6 c8 b8, both 5 */
    assert_int_equal(route("b4", "b8", PD_ROUTE_STREETS), 5);
    assert_int_equal(route("b4", "b8", PD_ROUTE_PARK), 5);
    assert_int_equal(pd_route_park_use(m, space("b4"), space("b8"), 0), PD_PARK_OPTIONAL);
    /* c4 to b7 is shorter across the park: c4 c6 b6 b7 */
    assert_int_equal(route("c4", "b7", PD_ROUTE_PARK), 4);
    assert_int_equal(pd_route_park_use(m, space("c4"), space("b7"), 0), PD_PARK_NEEDED);
    assert_int_equal(pd_route_park_use(m, space("a2"), space("a3"), 0), PD_PARK_UNUSED);
    assert_int_equal(pd_route_park_use(m, zone("HA"), zone("FD"), 0), PD_PARK_NEEDED);
    /* with the subway the park no longer helps */
    assert_int_equal(pd_route_park_use(m, zone("HA"), zone("FD"), PD_ROUTE_RED), PD_PARK_UNUSED);

    uint8_t r[PD_MAX_SPACES];
    int n = pd_route(m, space("b6"), space("d6"), PD_ROUTE_PARK, r, LEN(r));
    assert_int_equal(n, 3);
    assert_string_equal(m->space[r[1]].id, "c6");
    /* when it is optional, the route with the park open crosses it, without goes round */
    n = pd_route(m, space("b4"), space("b8"), PD_ROUTE_PARK, r, LEN(r));
    assert_int_equal(n, 5);
    assert_string_equal(m->space[r[2]].id, "c6");
    n = pd_route(m, space("b4"), space("b8"), PD_ROUTE_STREETS, r, LEN(r));
    assert_int_equal(n, 5);
    for (int i = 0; i < n; i++)
        assert_false(m->space[r[i]].park_path);
    assert_int_equal(pd_route(m, space("b6"), space("d6"), PD_ROUTE_PARK, r, 2), -1); /* too small */
}

/* A delivery `via park` crosses the Park Path once, even where going round
 * is shorter (its owner is paid for it): in at one end, out at another,
 * never back out where it came in; a ride or a boat trip once, before or
 * after. */
static void test_PD_T4_route_across_the_park(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    assert_int_equal(m->nends, 4); /* c4, b6, d6, c8 */
    assert_int_equal(m->cross[space("c4")][space("c8")], 2);
    assert_int_equal(m->cross[space("b6")][space("b6")], PD_NO_ROUTE);
    assert_int_equal(pd_route_length_across(m, space("b6"), space("d6"), 0), 3);
    /* a detour: b6 is 3 from a5 by the streets, 6 across the park */
    assert_int_equal(route("a5", "b6", PD_ROUTE_PARK), 3);
    assert_int_equal(pd_route_length_across(m, space("a5"), space("b6"), 0), 6);
    uint8_t r[PD_MAX_SPACES];
    int n = pd_route_across(m, space("a5"), space("b6"), 0, r, LEN(r));
    assert_int_equal(n, 6);
    int path = 0;
    for (int i = 0; i < n; i++)
        path += m->space[r[i]].park_path;
    assert_int_equal(path, 1);
    assert_int_equal(r[0], space("a5"));
    assert_int_equal(r[n - 1], space("b6"));
    /* even from the zone itself: out across the park and back round */
    assert_int_equal(pd_route_length_across(m, space("b6"), space("b6"), 0), 6); /* b6 c6 c4 b4 b5 b6 */
    assert_int_equal(pd_route_across(m, space("a5"), space("b6"), 0, r, 5), -1); /* too small */
    /* the ride, once: Harlem to the Financial District by the red line
     * (4) does not cross the park; across it, the ride comes after */
    assert_int_equal(pd_route_length(m, zone("HA"), zone("FD"), PD_ROUTE_RED), 4);
    assert_int_equal(pd_route_length_across(m, zone("HA"), zone("FD"), PD_ROUTE_RED), 7); /* c3 c4 c6 b6 b5 ride b15 c15 c16 */
    /* every route across, in every mode, adds up to its length: one Park
     * Path space, a ride and a boat trip at most once */
    for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++)
        for (int a = 0; a < m->nvillages; a++)
            for (int b = 0; b < m->nvillages; b++) {
                int from = m->village[a].zone, to = m->village[b].zone;
                int len = pd_route_length_across(m, from, to, modes);
                assert_true(len >= pd_route_length(m, from, to, modes | PD_ROUTE_PARK));
                n = pd_route_across(m, from, to, modes, r, LEN(r));
                assert_true(n >= len);
                walked w = walk(m, r, n, modes);
                assert_int_equal(w.length, len);
                assert_int_equal(w.path, 1);
                assert_true(w.rides <= 1 && w.trips <= 1);
                assert_int_equal(r[0], from);
                assert_int_equal(r[n - 1], to);
            }
}

/* PD-T4 with the Motor Boat: from a dock to another dock is one space. */
static void test_PD_T4_route_boat(void **state)
{
    (void)state;
    assert_int_equal(route("a2", "c18", PD_ROUTE_BOAT), 2);
    assert_int_equal(route("a2", "c18", PD_ROUTE_STREETS), 19);
    /* c3 b3 b2 a2, boat to c18, c17 c16: 6 spaces after the door */
    assert_int_equal(zones_apart("HA", "FD", PD_ROUTE_BOAT), 7);
    /* a10 to e13: boat 1 then nothing: 2; by street a10..a13 then east: 8 */
    assert_int_equal(route("a10", "e13", PD_ROUTE_BOAT), 2);
    assert_int_equal(route("a10", "e13", PD_ROUTE_STREETS), 8);
    /* no dock nearby: the boat changes nothing */
    assert_int_equal(route("c9", "d10", PD_ROUTE_BOAT), 3);
    uint8_t r[PD_MAX_SPACES];
    int n = pd_route(&D->map, zone("HA"), zone("FD"), PD_ROUTE_BOAT, r, LEN(r));
    assert_int_equal(n, 7);
    assert_string_equal(D->map.space[r[3]].id, "a2");
    assert_string_equal(D->map.space[r[4]].id, "c18");
}

/* PD-T4 with the subway: the spaces before getting on and after getting off
 * count; the ride itself counts 0. */
static void test_PD_T4_route_subway(void **state)
{
    (void)state;
    /* red: c3 b3, ride to b15, c15 (or b16) c16 */
    assert_int_equal(zones_apart("HA", "FD", PD_ROUTE_RED), 4);
    /* blue: c3 d3, ride to d16, c16 */
    assert_int_equal(zones_apart("HA", "FD", PD_ROUTE_BLUE), 3);
    /* station to station: the door only */
    assert_int_equal(route("b3", "b15", PD_ROUTE_RED), 1);
    assert_int_equal(route("b3", "b15", PD_ROUTE_BLUE), 6); /* b3 c3 d3, d16 d15 c15 b15 */
    /* from red b3 to blue d16: red only b3..b15 then b15 c15 d15 d16 = 4;
     * blue only b3 c3 d3 then d16 = 3; either (Fast Pass) rides b3 to d16 = 1 */
    assert_int_equal(route("b3", "d16", PD_ROUTE_RED), 4);
    assert_int_equal(route("b3", "d16", PD_ROUTE_BLUE), 3);
    assert_int_equal(route("b3", "d16", PD_ROUTE_RED | PD_ROUTE_BLUE), 1);
    assert_int_equal(route("b3", "d16", PD_ROUTE_STREETS), 16);
    /* a short trip gains nothing */
    assert_int_equal(route("b9", "b10", PD_ROUTE_RED), 2);

    uint8_t r[PD_MAX_SPACES];
    int n = pd_route(&D->map, zone("HA"), zone("FD"), PD_ROUTE_RED, r, LEN(r));
    assert_int_equal(n, 5);
    assert_string_equal(D->map.space[r[0]].id, "c3");
    assert_string_equal(D->map.space[r[1]].id, "b3");
    assert_string_equal(D->map.space[r[2]].id, "b15");
    assert_string_equal(D->map.space[r[4]].id, "c16");
    /* every step of a route is a link or a ride between stations */
    for (int i = 0; i + 1 < n; i++) {
        const pd_space *a = &D->map.space[r[i]];
        bool linked = false;
        for (int k = 0; k < a->nnext; k++)
            linked |= a->next[k] == r[i + 1];
        assert_true(linked || (a->subway & D->map.space[r[i + 1]].subway & PD_ROUTE_RED));
    }
}

/* Every route's length agrees with the spaces it lists, in every mode. */
static void test_PD_T4_routes_agree_with_lengths(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    uint8_t r[PD_MAX_SPACES];
    for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++)
        for (int a = 0; a < m->nspaces; a += 3)
            for (int b = 0; b < m->nspaces; b += 2) {
                int len = pd_route_length(m, a, b, modes);
                int n = pd_route(m, a, b, modes, r, LEN(r));
                if (len < 0) {
                    assert_int_equal(n, -1);
                    continue;
                }
                assert_int_equal(r[0], a);
                assert_int_equal(r[n - 1], b);
                assert_int_equal(walk(m, r, n, modes).length, len);
                /* more ways to travel never make a route longer */
                for (unsigned less = 0; less < PD_ROUTE_MODES; less++)
                    if ((less & modes) == less && pd_route_length(m, a, b, less) > 0)
                        assert_true(len <= pd_route_length(m, a, b, less));
            }
}

/* ========================================================== lookups, names */

static void test_lookups(void **state)
{
    (void)state;
    const pd_map *m = &D->map;
    assert_int_equal(pd_village_find(m, "MT"), 5);
    assert_int_equal(pd_village_find(m, "mt"), 5);
    assert_int_equal(pd_village_find(m, "Midtown"), 5);
    assert_int_equal(pd_village_find(m, "hells-kitchen"), 4);
    assert_int_equal(pd_village_find(m, "Hell's Kitchen"), 4);
    assert_int_equal(pd_village_find(m, "Upper West Side"), 1);
    assert_int_equal(pd_village_find(m, "Brooklyn"), -1);
    assert_int_equal(pd_village_find(m, ""), -1);
    assert_int_equal(pd_village_find(m, "--"), -1);
    assert_string_equal(m->lot[pd_lot_find(m, "mt-2")].id, "MT-2");
    assert_int_equal(m->lot[pd_lot_find(m, "MT-2")].cost, 8);
    assert_int_equal(pd_lot_find(m, "MT-4"), -1);
    assert_int_equal(pd_lot_find(m, "c12"), -1);
    assert_string_equal(m->space[pd_space_find(m, "C12")].id, "c12");
    assert_int_equal(pd_space_find(m, "MT-2"), -1);
    assert_int_equal(pd_ingredient_find(&D->cards, "any-meat"), ingredient("Any Meat"));
    assert_int_equal(pd_ingredient_find(&D->cards, "PEPPERONI"), 0);
    assert_int_equal(pd_ingredient_find(&D->cards, "Bacon"), -1);
    assert_int_equal(pd_power_find(&D->cards, "Park Path"), pd_power_find(&D->cards, "park-path"));
    assert_int_equal(pd_power_find(&D->cards, "oooops"), pd_power_find(&D->cards, "Oooops!"));
    assert_int_equal(pd_power_find(&D->cards, "free-pizza"), -1);
}

static void card_is(const char *text, const char *name)
{
    pd_card card;
    char err[PB_ERR_LEN], got[PD_CARD_NAME_LEN];
    if (pd_card_from_text(D, text, &card, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    pd_card_name(D, card, got, sizeof got);
    assert_string_equal(got, name);
}

static void card_refused(const char *text, const char *why)
{
    pd_card card;
    char err[PB_ERR_LEN] = "";
    assert_int_equal(pd_card_from_text(D, text, &card, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("'%s' refused with '%s', expected '%s'", text, err, why);
}

static void test_card_names(void **state)
{
    (void)state;
    card_is("Midtown/Pepperoni", "Midtown/Pepperoni");
    card_is("MT/Pepperoni", "Midtown/Pepperoni");
    card_is("mt/pepperoni", "Midtown/Pepperoni");
    card_is("Upper-West-Side/Any-Meat", "Upper West Side/Any Meat");
    card_is("hell's kitchen/extra cheese", "Hell's Kitchen/Extra Cheese");
    card_is("Health Inspector", "Health Inspector");
    card_is("health-inspector", "Health Inspector");
    card_refused("Health/Inspector", "card \"Health/Inspector\": no village of that name");
    card_refused("Midtown", "card \"Midtown\": write Village/Ingredient, e.g. Midtown/Pepperoni");
    card_refused("a/b/c", "write Village/Ingredient");
    card_refused("Mdtown/Ham", "card \"Mdtown/Ham\": no village of that name");
    card_refused("Midtown/Bacon", "card \"Midtown/Bacon\": no ingredient of that name");
    card_refused("/Ham", "no village of that name");
    card_refused("Midtown/", "no ingredient of that name");
    card_refused("Mdtown\n/Ham", "card \"Mdtown\\n/Ham\": no village"); /* one line, quoted */

    /* every card of every set prints and reads back, both ways */
    char name[PD_CARD_NAME_LEN], word[PD_CARD_NAME_LEN], err[PB_ERR_LEN];
    int cards = 0;
    for (int s = 0; s < PD_SETS; s++)
        for (int v = 0; v < PD_MAX_VILLAGES; v++)
            for (int i = 0; i < PD_MAX_INGREDIENTS; i++) {
                if (!D->cards.market[s].copies[v][i])
                    continue;
                pd_card card = PD_CARD(v, i), back;
                pd_card_name(D, card, name, sizeof name);
                pd_card_word(D, card, word, sizeof word);
                assert_null(strchr(word, ' '));
                assert_int_equal(pd_card_from_text(D, name, &back, err, sizeof err), 0);
                assert_int_equal(back, card);
                assert_int_equal(pd_card_from_text(D, word, &back, err, sizeof err), 0);
                assert_int_equal(back, card);
                cards += D->cards.market[s].copies[v][i];
            }
    assert_int_equal(cards, 144 + 44 + 18);
    pd_card_word(D, PD_CARD(1, ingredient("Any Meat")), word, sizeof word);
    assert_string_equal(word, "Upper-West-Side/Any-Meat");
    pd_card_name(D, PD_CARD(11, 0), name, sizeof name);
    assert_string_equal(name, "?");
    pd_card_name(D, PD_NO_CARD, name, sizeof name);
    assert_string_equal(name, "?");
}

/* ============================================================ map files */

static json_t *default_map(void)
{
    json_t *j = json_loads(pb_data_delivery_map, JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(j);
    return j;
}

static json_t *default_cards(void)
{
    json_t *j = json_loads(pb_data_delivery_cards, JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(j);
    return j;
}

/* The element of list `key` whose `field` is `value`. */
static json_t *item(json_t *j, const char *key, const char *field, const char *value)
{
    json_t *list = json_object_get(j, key), *e;
    size_t i;
    json_array_foreach(list, i, e)
        if (json_is_string(json_object_get(e, field)) && strcmp(json_string_value(json_object_get(e, field)), value) == 0)
            return e;
    fail_msg("no %s with %s %s", key, field, value);
    return NULL;
}

static json_t *space_json(json_t *map, const char *id)
{
    return item(map, "spaces", "id", id);
}

static json_t *lot_json(json_t *map, const char *id)
{
    return item(map, "lots", "id", id);
}

static json_t *village_json(json_t *map, const char *code)
{
    return item(map, "villages", "code", code);
}

/* The map is refused with a message containing `why`. Takes the reference. */
static void map_refused(json_t *j, const char *why)
{
    pd_map *m = malloc(sizeof *m);
    char err[PB_ERR_LEN] = "";
    assert_int_equal(pd_map_from_json(j, m, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("map refused with '%s', expected '%s'", err, why);
    assert_null(strchr(err, '\n'));
    free(m);
    json_decref(j);
}

static void test_map_file_refused_with_reason(void **state)
{
    (void)state;
    json_t *j;

    map_refused(json_integer(1), "map: must be a JSON object");

    j = default_map();
    json_object_set_new(j, "boroughs", json_integer(5));
    map_refused(j, "map: unknown field \"boroughs\" in the map");

    j = default_map();
    json_object_set_new(space_json(j, "c12"), "hydrant", json_true());
    map_refused(j, "map: unknown field \"hydrant\" in space 55");

    j = default_map();
    json_object_set_new(space_json(j, "c12"), "id", json_string("c11"));
    map_refused(j, "map: space id c11 is used twice");

    j = default_map();
    json_object_set_new(space_json(j, "c12"), "id", json_string("c 12"));
    map_refused(j, "map: space 55: 'id' must be 1 to 7 letters, digits or '-'");

    j = default_map();
    json_object_set_new(space_json(j, "c12"), "x", json_integer(-1));
    map_refused(j, "map: space c12: 'x' and 'y' must be whole numbers from 0 to 10000");

    j = default_map();
    json_object_del(space_json(j, "c12"), "village");
    map_refused(j, "map: space c12 has no 'village'");

    j = default_map();
    json_object_set_new(space_json(j, "c12"), "village", json_string("BK"));
    map_refused(j, "map: space c12: no village has the code \"BK\"");

    j = default_map();
    json_object_set_new(space_json(j, "a13"), "subway", json_string("green"));
    map_refused(j, "map: space a13: 'subway' must be \"red\", \"blue\" or \"both\"");

    j = default_map();
    json_object_set_new(space_json(j, "c4"), "park_path", json_true());
    map_refused(j, "map: space c4 is on the Park Path but not in the park");

    j = default_map();
    json_object_set_new(space_json(j, "c6"), "dock", json_true());
    map_refused(j, "map: space c6 is on the Park Path: docks and stations must be on streets");

    /* the Park Path belongs to the park */
    j = default_map();
    json_object_set_new(village_json(j, "CP"), "park", json_false());
    json_object_set_new(village_json(j, "UW"), "park", json_true());
    map_refused(j, "map: space c6 is on the Park Path but not in the park");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "door", json_string("c6"));
    map_refused(j, "map: lot MT-2: door c6 is not a street space (it is on the Park Path)");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "door", json_string("z9"));
    map_refused(j, "map: lot MT-2: door \"z9\" is not a space");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "door", json_string("b9"));
    map_refused(j, "map: lot MT-2: door b9 is in Hell's Kitchen, not in Midtown");

    j = default_map();
    json_object_del(lot_json(j, "MT-2"), "door");
    map_refused(j, "map: lot MT-2 has no 'door'");

    /* a lot without a village, or in one there is no such */
    j = default_map();
    json_object_del(lot_json(j, "MT-2"), "village");
    map_refused(j, "map: lot MT-2 has no 'village'");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "village", json_string("TS"));
    map_refused(j, "map: lot MT-2: no village has the code \"TS\"");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "village", json_string("CP"));
    map_refused(j, "map: lot MT-2 is in Central Park, where nobody builds");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "cost", json_integer(21));
    map_refused(j, "map: lot MT-2: 'cost' must be a whole number from 1 to 20");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "id", json_string("c9"));
    map_refused(j, "map: id c9 is used twice (lots and spaces need ids of their own)");

    j = default_map();
    json_object_set_new(lot_json(j, "MT-2"), "id", json_string("mt-1"));
    map_refused(j, "map: id mt-1 is used twice");

    /* a village without lots: FD-1..FD-3 are the last three */
    j = default_map();
    for (int k = 0; k < 3; k++)
        json_array_remove(json_object_get(j, "lots"), json_array_size(json_object_get(j, "lots")) - 1);
    map_refused(j, "map: village FD has no lots (only the park may have none)");

    j = default_map();
    json_t *lots = json_object_get(j, "lots");
    for (int k = 0; k < 4; k++) {
        json_t *extra = json_deep_copy(lot_json(j, "MT-1"));
        char id[8];
        snprintf(id, sizeof id, "MT-%d", 4 + k);
        json_object_set_new(extra, "id", json_string(id));
        json_array_append_new(lots, extra);
    }
    map_refused(j, "map: village MT has more than 6 lots");

    /* missing zone, zones off their village */
    j = default_map();
    json_object_del(village_json(j, "EV"), "zone");
    map_refused(j, "map: village EV has no delivery zone ('zone')");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "zone", json_string("b13"));
    map_refused(j, "map: village EV: zone b13 is in Greenwich Village, not in East Village");

    j = default_map();
    json_object_set_new(village_json(j, "CP"), "zone", json_string("c6"));
    map_refused(j, "map: village CP: zone c6 is not a street space (it is on the Park Path)");

    /* villages */
    j = default_map();
    json_object_set_new(village_json(j, "EV"), "code", json_string("GV"));
    map_refused(j, "map: village code GV is used twice");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "code", json_string("ev"));
    map_refused(j, "map: village 8: 'code' must be 1 to 3 capital letters");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "name", json_string("GREENWICH village"));
    map_refused(j, "map: villages GV and EV have names too alike to tell apart (\"GREENWICH village\")");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "name", json_string("East Village of the Lower East Side, NY"));
    map_refused(j, "map: village EV: 'name' must be 1 to 31 characters with a letter or digit and without '/'");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "name", json_string("East/West"));
    map_refused(j, "map: village EV: 'name' must be 1 to 31 characters with a letter or digit and without '/'");

    j = default_map();
    json_object_set_new(village_json(j, "EV"), "name", json_string("--"));
    map_refused(j, "map: village EV: 'name' must be 1 to 31 characters with a letter or digit");

    j = default_map();
    json_object_set_new(village_json(j, "HA"), "park", json_true());
    map_refused(j, "map: villages HA and CP are both parks: a map has at most one");

    j = default_map();
    json_object_set_new(j, "name", json_string("Manhattan\n"));
    map_refused(j, "map: 'name' must be 1 to 63 characters");

    /* names are one printable line: no line separator, no C1 control, no
     * bytes that are not UTF-8 (jansson checks UTF-8 only in what it parses) */
    j = default_map();
    json_object_set_new(village_json(j, "EV"), "name", json_string("East\xe2\x80\xa8Village"));
    map_refused(j, "map: village EV: 'name' must be 1 to 31 characters");

    j = default_map();
    json_object_set_new(j, "name", json_string("Manhattan\xc2\x9b"));
    map_refused(j, "map: 'name' must be 1 to 63 characters");

    j = default_map();
    json_object_set_new(j, "name", json_stringn_nocheck("Manhattan\xff", 10));
    map_refused(j, "map: 'name' must be 1 to 63 characters");

    /* roads */
    j = default_map();
    json_array_append_new(json_object_get(j, "roads"), json_pack("[s,s]", "a1", "b1"));
    map_refused(j, "map: road 30: \"a1\" is not a space");

    j = default_map();
    json_array_append_new(json_object_get(j, "roads"), json_pack("[s,s]", "b1", "b1"));
    map_refused(j, "map: road 30 links b1 to itself");

    j = default_map();
    json_array_append_new(json_object_get(j, "roads"), json_pack("[s,s,s]", "e2", "e3", "e2"));
    map_refused(j, "map: road 30 links e2 and e3, which are linked already");

    j = default_map();
    json_array_append_new(json_object_get(j, "roads"), json_pack("[s]", "b1"));
    map_refused(j, "map: road 30 must list 2 or more space ids");

    /* disconnected streets: a space no road reaches */
    j = default_map();
    json_array_append_new(json_object_get(j, "spaces"),
                          json_pack("{s:s, s:i, s:i, s:s}", "id", "z1", "x", 0, "y", 800, "village", "FD"));
    map_refused(j, "map: the streets are not connected: z1 cannot be reached from b1 (the Park Path does not count)");

    /* a Park Path space with no road */
    j = default_map();
    json_array_remove(json_object_get(j, "roads"), json_array_size(json_object_get(j, "roads")) - 1);
    json_array_remove(json_object_get(j, "roads"), json_array_size(json_object_get(j, "roads")) - 1);
    map_refused(j, "map: Park Path space c6 cannot be reached from the streets");

    /* too many spaces */
    j = default_map();
    json_t *spaces = json_object_get(j, "spaces");
    for (int k = 0; json_array_size(spaces) <= PD_MAX_SPACES; k++) {
        char id[8];
        snprintf(id, sizeof id, "z%d", k);
        json_array_append_new(spaces, json_pack("{s:s, s:i, s:i, s:s}", "id", id, "x", 0, "y", 0, "village", "HA"));
    }
    map_refused(j, "map: 'spaces' must list 2 to 128 spaces");

    j = default_map();
    json_object_set_new(j, "roads", json_array());
    map_refused(j, "map: 'roads' must list 1 to 512 roads");

    /* malformed text */
    pd_map *m = malloc(sizeof *m);
    char err[PB_ERR_LEN];
    assert_int_equal(pd_map_from_text("{\"villages\": [}", m, err, sizeof err), -1);
    assert_non_null(strstr(err, "map: malformed JSON at line 1"));
    assert_int_equal(pd_map_from_text("{\"name\": \"a\", \"name\": \"b\"}", m, err, sizeof err), -1);
    assert_non_null(strstr(err, "map: malformed JSON"));
    free(m);
}

/* ========================================================== cards files */

/* The cards are refused (for the default map) with a message containing `why`. */
static void cards_refused(json_t *j, const char *why)
{
    pd_cards *c = malloc(sizeof *c);
    char err[PB_ERR_LEN] = "";
    assert_int_equal(pd_cards_from_json(j, &D->map, c, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("cards refused with '%s', expected '%s'", err, why);
    assert_null(strchr(err, '\n'));
    free(c);
    json_decref(j);
}

static json_t *path(json_t *j, const char *a, const char *b)
{
    json_t *x = json_object_get(j, a);
    return b ? json_object_get(x, b) : x;
}

/* The power card with this id in the cards JSON. */
static json_t *power_json(json_t *j, const char *id)
{
    for (int b = 0; b < 2; b++) {
        json_t *list = path(path(j, "powers", b ? "expansion" : "basic"), "cards", NULL), *e;
        size_t i;
        json_array_foreach(list, i, e)
            if (strcmp(json_string_value(json_object_get(e, "id")), id) == 0)
                return e;
    }
    fail_msg("no power card %s", id);
    return NULL;
}

static void test_cards_file_refused_with_reason(void **state)
{
    (void)state;
    json_t *j, *e;

    cards_refused(json_string("cards"), "cards: must be a JSON object");

    j = default_cards();
    json_object_set_new(j, "toppings", json_array());
    cards_refused(j, "cards: unknown field \"toppings\" in the cards");

    /* ingredients */
    j = default_cards();
    json_object_set_new(json_array_get(json_object_get(j, "ingredients"), 1), "name", json_string("pepperoni"));
    cards_refused(j, "cards: ingredient name \"pepperoni\" is used twice or too like another card's");

    j = default_cards();
    json_object_set_new(json_array_get(json_object_get(j, "ingredients"), 1), "name", json_string("Salt/Pepper"));
    cards_refused(j, "cards: ingredient 2: 'name' must be 1 to 31 characters with a letter or digit and without '/'");

    j = default_cards();
    json_object_set_new(json_array_get(json_object_get(j, "ingredients"), 1), "name", json_string("Salt\xc2\x85Pepper"));
    cards_refused(j, "cards: ingredient 2: 'name' must be 1 to 31 characters");

    j = default_cards();
    json_object_set_new(json_array_get(json_object_get(j, "ingredients"), 1), "group", json_string("fish"));
    cards_refused(j, "cards: ingredient \"Sausage\": 'group' must be \"meat\", \"vegetable\"");

    j = default_cards();
    json_object_del(json_array_get(json_object_get(j, "ingredients"), 1), "power");
    cards_refused(j, "cards: ingredient \"Sausage\" has no 'power'");

    j = default_cards();
    e = json_object_get(json_array_get(json_object_get(j, "ingredients"), 1), "power");
    json_object_set_new(e, "id", json_string("Double Topping"));
    cards_refused(j, "cards: ingredient \"Sausage\" power: 'id' must be 1 to 31 lower-case letters, digits or dashes");

    /* the market */
    j = default_cards();
    json_object_set_new(path(j, "market", "base"), "count", json_integer(143));
    cards_refused(j, "cards: market set \"base\" holds 144 cards but its 'count' says 143");

    j = default_cards();
    json_object_set_new(json_object_get(json_array_get(path(path(j, "market", "any"), "cards", NULL), 0), "copies"),
                        "Any Meat", json_integer(3));
    cards_refused(j, "cards: market set \"any\" holds 45 cards but its 'count' says 44");

    j = default_cards();
    json_object_set_new(json_array_get(path(path(j, "market", "base"), "cards", NULL), 2), "village",
                        json_string("BK"));
    cards_refused(j, "cards: market set \"base\" entry 3: the map has no village with the code \"BK\"");

    j = default_cards();
    json_object_set_new(json_array_get(path(path(j, "market", "base"), "cards", NULL), 2), "village",
                        json_string("HA"));
    cards_refused(j, "cards: market set \"base\" lists village HA twice");

    j = default_cards();
    json_object_set_new(json_object_get(json_array_get(path(path(j, "market", "base"), "cards", NULL), 0), "copies"),
                        "Bacon", json_integer(2));
    cards_refused(j, "cards: market set \"base\", village HA: unknown ingredient \"Bacon\"");

    j = default_cards();
    json_object_set_new(json_object_get(json_array_get(path(path(j, "market", "base"), "cards", NULL), 0), "copies"),
                        "Ham", json_integer(10));
    cards_refused(j, "cards: market set \"base\", Harlem/Ham: copies must be a whole number from 0 to 9");

    j = default_cards();
    json_object_del(json_object_get(j, "market"), "base");
    cards_refused(j, "cards: 'market' has no \"base\" set");

    j = default_cards();
    json_object_set_new(json_object_get(j, "health_inspectors"), "count", json_integer(0));
    cards_refused(j, "cards: health_inspectors: 'count' must be 1 to 6 and 'fine' $2 (paid as $2 or two cards)");
    j = default_cards();
    json_object_set_new(json_object_get(j, "health_inspectors"), "fine", json_integer(3));
    cards_refused(j, "cards: health_inspectors: 'count' must be 1 to 6 and 'fine' $2 (paid as $2 or two cards)");
    j = default_cards();
    json_object_set_new(json_array_get(json_object_get(json_object_get(j, "orders"), "regular"), 0), "ingredients",
                        json_integer(5));
    cards_refused(j, "cards: regular order 1: 'ingredients' must be a whole number from 1 to 4");

    /* orders */
    j = default_cards();
    json_object_set_new(json_object_get(j, "orders"), "count", json_integer(21));
    cards_refused(j, "cards: the orders add up to 20 cards but 'count' says 21");

    j = default_cards();
    json_object_set_new(json_array_get(path(j, "orders", "regular"), 3), "ingredients", json_integer(2));
    cards_refused(j, "cards: regular orders 2 and 4 both need 2 ingredients");

    j = default_cards();
    e = json_array_get(json_object_get(json_array_get(path(j, "orders", "specialty"), 0), "needs"), 1);
    json_object_set_new(e, "ingredient", json_string("Anchovies"));
    cards_refused(j, "cards: specialty order \"hawaiian\" need 2: unknown ingredient \"Anchovies\"");

    j = default_cards();
    e = json_array_get(json_object_get(json_array_get(path(j, "orders", "specialty"), 3), "needs"), 0);
    json_object_set_new(e, "ingredient", json_string("Onions"));
    cards_refused(j, "cards: specialty order \"triple-deluxe\" need 1 must name either an 'ingredient' or a 'group'");

    j = default_cards();
    json_object_set_new(json_array_get(path(j, "orders", "specialty"), 3), "id", json_string("hawaiian"));
    cards_refused(j, "cards: order id \"hawaiian\" is used twice");

    j = default_cards();
    e = json_array_get(json_object_get(json_array_get(path(j, "orders", "specialty"), 3), "needs"), 0);
    json_object_set_new(e, "count", json_integer(9));
    cards_refused(j, "cards: specialty order \"triple-deluxe\" needs 14 cards, more than 12");

    /* tips */
    j = default_cards();
    json_object_set_new(json_array_get(path(path(j, "tips", "base"), "tokens", NULL), 3), "copies", json_integer(5));
    cards_refused(j, "cards: tips \"base\" add up to 47 tokens but 'count' says 48");

    j = default_cards();
    json_object_set_new(json_array_get(path(path(j, "tips", "expansion"), "tokens", NULL), 0), "value",
                        json_integer(0));
    cards_refused(j, "cards: tips \"expansion\" token 1: 'value' must be $1 to $9 (NO TIP tokens are counted in 'no_tip')");

    j = default_cards();
    json_object_set_new(json_array_get(path(path(j, "tips", "base"), "tokens", NULL), 3), "value", json_integer(1));
    cards_refused(j, "cards: tips \"base\" lists the value $1 twice");

    /* power cards */
    j = default_cards();
    json_object_set_new(path(j, "powers", "basic"), "count", json_integer(21));
    cards_refused(j, "cards: the basic power cards number 22 but 'count' says 21");

    j = default_cards();
    json_object_set_new(power_json(j, "mob-boss"), "type", json_string("crime"));
    cards_refused(j, "cards: power card \"mob-boss\": 'type' must be \"speed\", \"money\", \"event\"");

    j = default_cards();
    json_object_set_new(power_json(j, "mob-boss"), "instant", json_true());
    cards_refused(j, "cards: power card \"mob-boss\": only TIMED cards can be Instant");

    j = default_cards();
    json_object_set_new(power_json(j, "windfall"), "id", json_string("mob-boss"));
    cards_refused(j, "cards: power cards mob-boss and mob-boss have the same id or name");

    j = default_cards();
    json_object_set_new(power_json(j, "windfall"), "name", json_string("LUCKY DAY"));
    cards_refused(j, "cards: power cards lucky-day and windfall have the same id or name");

    j = default_cards();
    json_object_set_new(power_json(j, "mob-boss"), "villages", json_pack("[s]", "BX"));
    cards_refused(j, "cards: power card \"mob-boss\": the map has no village with the code \"BX\"");

    j = default_cards();
    char longtext[300];
    memset(longtext, 'a', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = 0;
    json_object_set_new(power_json(j, "lucky-day"), "text", json_string(longtext));
    cards_refused(j, "cards: power card \"lucky-day\": 'text' must be one line of 1 to 255 characters");

    j = default_cards();
    json_object_set_new(power_json(j, "lucky-day"), "name", json_string("A name far too long for any card"));
    cards_refused(j, "cards: power card \"lucky-day\": 'name' must be 1 to 31 characters");

    j = default_cards();
    json_object_set_new(power_json(j, "lucky-day"), "colour", json_string("gold"));
    cards_refused(j, "cards: unknown field \"colour\" in expansion power cards 9");

    /* malformed text */
    pd_cards *c = malloc(sizeof *c);
    char err[PB_ERR_LEN];
    assert_int_equal(pd_cards_from_text("[1,", &D->map, c, err, sizeof err), -1);
    assert_non_null(strstr(err, "cards: malformed JSON at line 1"));
    free(c);
}

/* ======================================================== a custom map */

/* Two villages either side of a small park, with a path across it:
 *
 *   n1 - n2 - n3        North (NO): lots NO-1 (door n1), NO-2 (door n3), zone n2
 *   |    p1    |        p1: the Park Path; PK's zone is w2 (west side)
 *   w2        e2
 *   |    p2    |
 *   s1 - s2 - s3        South (SO): lot SO-1 (door s3), zone s2; s1 and n1 docks,
 *                       w2 and s3 red stations. */
static const char small_map[] =
    "{\"name\": \"Small town\", \"villages\": ["
    "  {\"code\": \"NO\", \"name\": \"North\", \"zone\": \"n2\"},"
    "  {\"code\": \"PK\", \"name\": \"The Park\", \"zone\": \"w2\", \"park\": true},"
    "  {\"code\": \"SO\", \"name\": \"South\", \"zone\": \"s2\"}],"
    " \"lots\": ["
    "  {\"id\": \"NO-1\", \"village\": \"NO\", \"cost\": 3, \"door\": \"n1\", \"x\": 5, \"y\": 5},"
    "  {\"id\": \"NO-2\", \"village\": \"NO\", \"cost\": 4, \"door\": \"n3\", \"x\": 25, \"y\": 5},"
    "  {\"id\": \"SO-1\", \"village\": \"SO\", \"cost\": 2, \"door\": \"s3\", \"x\": 25, \"y\": 35}],"
    " \"spaces\": ["
    "  {\"id\": \"n1\", \"x\": 0, \"y\": 0, \"village\": \"NO\", \"dock\": true},"
    "  {\"id\": \"n2\", \"x\": 10, \"y\": 0, \"village\": \"NO\"},"
    "  {\"id\": \"n3\", \"x\": 20, \"y\": 0, \"village\": \"NO\"},"
    "  {\"id\": \"w2\", \"x\": 0, \"y\": 20, \"village\": \"PK\", \"subway\": \"red\"},"
    "  {\"id\": \"e2\", \"x\": 20, \"y\": 20, \"village\": \"SO\"},"
    "  {\"id\": \"p1\", \"x\": 10, \"y\": 10, \"village\": \"PK\", \"park_path\": true},"
    "  {\"id\": \"p2\", \"x\": 10, \"y\": 30, \"village\": \"PK\", \"park_path\": true},"
    "  {\"id\": \"s1\", \"x\": 0, \"y\": 40, \"village\": \"SO\", \"dock\": true},"
    "  {\"id\": \"s2\", \"x\": 10, \"y\": 40, \"village\": \"SO\"},"
    "  {\"id\": \"s3\", \"x\": 20, \"y\": 40, \"village\": \"SO\", \"subway\": \"both\"}],"
    " \"roads\": [[\"n1\", \"n2\", \"n3\"], [\"s1\", \"s2\", \"s3\"], [\"n1\", \"w2\", \"s1\"],"
    "  [\"n3\", \"e2\", \"s3\"], [\"n2\", \"p1\", \"p2\", \"s2\"]]}";

static void test_custom_small_map(void **state)
{
    (void)state;
    pd_map *m = malloc(sizeof *m);
    char err[PB_ERR_LEN];
    if (pd_map_from_text(small_map, m, err, sizeof err) != 0)
        fail_msg("small map refused: %s", err);
    assert_string_equal(m->name, "Small town");
    assert_int_equal(m->nspaces, 10);
    assert_int_equal(m->nvillages, 3);
    assert_int_equal(m->park, 1);
    assert_int_equal(m->village[0].nlots, 2);
    assert_int_equal(m->village[2].lot[0], pd_lot_find(m, "SO-1"));
    int n1 = pd_space_find(m, "n1"), n2 = pd_space_find(m, "n2"), s2 = pd_space_find(m, "s2"),
        s3 = pd_space_find(m, "s3"), w2 = pd_space_find(m, "w2");
    /* n2 n1 w2 s1 s2, or n2 n3 e2 s3 s2 */
    assert_int_equal(pd_route_length(m, n2, s2, PD_ROUTE_STREETS), 5);
    assert_int_equal(pd_route_length(m, n2, s2, PD_ROUTE_PARK), 4);
    assert_int_equal(pd_route_park_use(m, n2, s2, 0), PD_PARK_NEEDED);
    /* across a path of two spaces: n2 p1 p2 s2; n1 to n3 across, n1 n2 p1
     * p2 s2 s3 e2 n3 (8), not back out at n2 */
    assert_int_equal(m->nends, 2);
    assert_int_equal(pd_route_length_across(m, n2, s2, 0), 4);
    assert_int_equal(pd_route_length_across(m, n1, pd_space_find(m, "n3"), 0), 8);
    /* n1 boat s1, s2 */
    assert_int_equal(pd_route_length(m, n1, s2, PD_ROUTE_BOAT), 3);
    /* n1 w2 ride s3: w2 is red, s3 red and blue */
    assert_int_equal(pd_route_length(m, n1, s3, PD_ROUTE_RED), 2);
    assert_int_equal(pd_route_length(m, n1, s3, PD_ROUTE_BLUE), 5);
    assert_int_equal(pd_route_length(m, w2, s3, PD_ROUTE_RED | PD_ROUTE_BLUE), 1);
    assert_int_equal(pd_village_find(m, "the park"), 1);

    /* The default cards name villages this map does not have. */
    pd_cards *c = malloc(sizeof *c);
    assert_int_equal(pd_cards_default(m, c, err, sizeof err), -1);
    assert_string_equal(err, "cards: market set \"base\" entry 1: the map has no village with the code \"HA\"");

    /* Cards of its own: the default cards with a market for its villages and
     * no power card naming a village. */
    json_t *j = default_cards();
    json_t *market = json_pack("{s:{s:i, s:[{s:s, s:{s:i, s:i}}, {s:s, s:{s:i}}]}}", "base", "count", 7, "cards",
                               "village", "NO", "copies", "Ham", 3, "Onions", 2, "village", "SO", "copies", "Ham", 2);
    json_object_set_new(j, "market", market);
    for (int b = 0; b < 2; b++) {
        json_t *list = path(path(j, "powers", b ? "expansion" : "basic"), "cards", NULL), *e;
        size_t i;
        json_array_foreach(list, i, e)
            json_object_del(e, "villages");
    }
    if (pd_cards_from_json(j, m, c, err, sizeof err) != 0)
        fail_msg("custom cards refused: %s", err);
    assert_int_equal(c->market[PD_SET_BASE].count, 7);
    assert_int_equal(c->market[PD_SET_BASE].copies[0][pd_ingredient_find(c, "Ham")], 3);
    assert_int_equal(c->market[PD_SET_ANY].count, 0);

    /* As game data, with its card names. */
    pd_data *d = malloc(sizeof *d);
    json_t *mj = json_loads(small_map, 0, NULL);
    if (pd_data_from_json(mj, j, d, err, sizeof err) != 0)
        fail_msg("custom data refused: %s", err);
    pd_card card;
    char name[PD_CARD_NAME_LEN];
    assert_int_equal(pd_card_from_text(d, "The-Park/Onions", &card, err, sizeof err), 0);
    pd_card_name(d, card, name, sizeof name);
    assert_string_equal(name, "The Park/Onions");
    assert_int_equal(pd_data_from_json(mj, NULL, d, err, sizeof err), -1);
    assert_non_null(strstr(err, "no village with the code \"HA\""));
    json_decref(mj);
    json_decref(j);
    free(d);
    free(c);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_PD_D1_villages),
        cmocka_unit_test(test_PD_D2_size_and_connected),
        cmocka_unit_test(test_PD_D2_laid_out_like_manhattan),
        cmocka_unit_test(test_PD_D2_one_zone_per_village),
        cmocka_unit_test(test_PD_D2_three_lots_per_village),
        cmocka_unit_test(test_PD_D2_lot_costs_and_doors),
        cmocka_unit_test(test_PD_D2_midtown_dearest_ends_cheapest),
        cmocka_unit_test(test_PD_D2_neighbouring_zones_3_to_5),
        cmocka_unit_test(test_PD_D2_harlem_to_financial_district),
        cmocka_unit_test(test_PD_D2_docks),
        cmocka_unit_test(test_PD_D2_subway_lines),
        cmocka_unit_test(test_PD_D2_park_path),
        cmocka_unit_test(test_PD_D3_base_market),
        cmocka_unit_test(test_PD_D3_any_cards),
        cmocka_unit_test(test_PD_D3_extra_cheese),
        cmocka_unit_test(test_PD_D4_orders),
        cmocka_unit_test(test_PD_D5_tips),
        cmocka_unit_test(test_PD_D6_power_cards),
        cmocka_unit_test(test_PD_D6_power_details),
        cmocka_unit_test(test_PD_P1_ingredient_powers),
        cmocka_unit_test(test_PD_T4_route_streets),
        cmocka_unit_test(test_PD_T4_route_park_path),
        cmocka_unit_test(test_PD_T4_route_across_the_park),
        cmocka_unit_test(test_PD_T4_route_boat),
        cmocka_unit_test(test_PD_T4_route_subway),
        cmocka_unit_test(test_PD_T4_routes_agree_with_lengths),
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_card_names),
        cmocka_unit_test(test_map_file_refused_with_reason),
        cmocka_unit_test(test_cards_file_refused_with_reason),
        cmocka_unit_test(test_custom_small_map),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
