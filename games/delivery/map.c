/* map.c -- the New York Pizza Delivery map: the map file, lookups by id, and
 * route lengths (PD-D2, PD-T4).
 *
 * A map file lists villages, lots, spaces, and roads as runs of spaces (each
 * two spaces next to each other in a road are linked). Route lengths between
 * every two spaces, for every route mode, are worked out once when the map is
 * read, so a delivery only looks them up. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "../../core/text.h"
#include "../../core/game.h"
#include "../../core/jsonutil.h"
#include "data.h"

extern const char pb_data_delivery_map[];

/* ================================================================ helpers */

bool pd_names_match(const char *a, const char *b)
{
    bool any = false;
    for (;;) {
        while (*a && !isalnum((unsigned char)*a))
            a++;
        while (*b && !isalnum((unsigned char)*b))
            b++;
        if (!*a || !*b)
            return !*a && !*b && any;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        any = true;
        a++;
        b++;
    }
}

bool pd_json_text(const json_t *v, size_t n)
{
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= n)
        return false;
    const char *s = json_string_value(v);
    if (strlen(s) != json_string_length(v))
        return false; /* a NUL inside */
    return !pb_text_unprintable(s);
}

/* Space and lot ids: short, and safe to print in notation and messages. */
static bool id_ok(const json_t *v)
{
    if (!pd_json_text(v, PD_ID_LEN))
        return false;
    for (const char *s = json_string_value(v); *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-')
            return false;
    return true;
}

static bool code_ok(const json_t *v)
{
    if (!pd_json_text(v, PD_CODE_LEN))
        return false;
    for (const char *s = json_string_value(v); *s; s++)
        if (*s < 'A' || *s > 'Z')
            return false;
    return true;
}

static bool int_in(const json_t *v, int lo, int hi, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

/* An optional true/false field (absent is false). */
static int read_flag(const json_t *obj, const char *key, bool *out, const char *where, char *err, size_t errlen)
{
    json_t *v = json_object_get(obj, key);
    if (v && !json_is_boolean(v))
        return pb_errorf(err, errlen, "map: %s: '%s' must be true or false", where, key);
    *out = json_is_true(v);
    return 0;
}

int pd_space_find(const pd_map *m, const char *id)
{
    for (int i = 0; i < m->nspaces; i++)
        if (strcasecmp(m->space[i].id, id) == 0)
            return i;
    return -1;
}

int pd_lot_find(const pd_map *m, const char *id)
{
    for (int i = 0; i < m->nlots; i++)
        if (strcasecmp(m->lot[i].id, id) == 0)
            return i;
    return -1;
}

int pd_village_find(const pd_map *m, const char *code_or_name)
{
    for (int v = 0; v < m->nvillages; v++)
        if (strcasecmp(m->village[v].code, code_or_name) == 0 || pd_names_match(m->village[v].name, code_or_name))
            return v;
    return -1;
}

/* A village named by its code in a file (exact: the file is the reference). */
static int village_by_code(const pd_map *m, const json_t *v)
{
    for (int i = 0; json_is_string(v) && i < m->nvillages; i++)
        if (strcmp(m->village[i].code, json_string_value(v)) == 0)
            return i;
    return -1;
}

/* A space or lot id from a file, for a message. */
static const char *quoted(const json_t *v, char *buf, size_t n)
{
    pb_quote(json_is_string(v) ? json_string_value(v) : "?", buf, n);
    return buf;
}

/* ============================================================== the file */

static int read_villages(const json_t *list, pd_map *m, char *err, size_t errlen)
{
    static const char *const known[] = {"code", "name", "zone", "park", NULL};
    if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > PD_MAX_VILLAGES)
        return pb_errorf(err, errlen, "map: 'villages' must list 1 to %d villages", PD_MAX_VILLAGES);
    m->park = -1;
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *j = json_array_get(list, i);
        char where[128], q[48];
        snprintf(where, sizeof where, "village %zu", i + 1);
        if (!json_is_object(j))
            return pb_errorf(err, errlen, "map: %s must be an object", where);
        if (pb_json_known_keys(j, known, "map: ", where, err, errlen) != 0)
            return -1;
        json_t *code = json_object_get(j, "code"), *name = json_object_get(j, "name");
        if (!code_ok(code))
            return pb_errorf(err, errlen, "map: %s: 'code' must be 1 to %d capital letters", where, PD_CODE_LEN - 1);
        pd_village *v = &m->village[i];
        snprintf(v->code, sizeof v->code, "%s", json_string_value(code));
        snprintf(where, sizeof where, "village %s", v->code);
        /* a name matches itself only if it has a letter or a digit */
        if (!pd_json_text(name, PD_NAME_LEN) || strchr(json_string_value(name), '/') ||
            !pd_names_match(json_string_value(name), json_string_value(name)))
            return pb_errorf(err, errlen, "map: %s: 'name' must be 1 to %d characters with a letter or digit "
                             "and without '/' (it is part of card names)", where, PD_NAME_LEN - 1);
        snprintf(v->name, sizeof v->name, "%s", json_string_value(name));
        for (size_t k = 0; k < i; k++) {
            const pd_village *o = &m->village[k];
            if (strcmp(o->code, v->code) == 0)
                return pb_errorf(err, errlen, "map: village code %s is used twice", v->code);
            if (pd_names_match(o->name, v->name) || pd_names_match(o->code, v->name) ||
                pd_names_match(o->name, v->code))
                return pb_errorf(err, errlen, "map: villages %s and %s have names too alike to tell apart (%s)",
                                 o->code, v->code, quoted(name, q, sizeof q));
        }
        if (read_flag(j, "park", &v->park, where, err, errlen) != 0)
            return -1;
        if (v->park && m->park >= 0)
            return pb_errorf(err, errlen, "map: villages %s and %s are both parks: a map has at most one",
                             m->village[m->park].code, v->code);
        if (v->park)
            m->park = (int)i;
        m->nvillages = (int)i + 1;
    }
    return 0;
}

static int read_spaces(const json_t *list, pd_map *m, char *err, size_t errlen)
{
    static const char *const known[] = {"id", "x", "y", "village", "dock", "subway", "park_path", NULL};
    if (!json_is_array(list) || json_array_size(list) < 2 || json_array_size(list) > PD_MAX_SPACES)
        return pb_errorf(err, errlen, "map: 'spaces' must list 2 to %d spaces", PD_MAX_SPACES);
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *j = json_array_get(list, i);
        char where[128], q[48];
        snprintf(where, sizeof where, "space %zu", i + 1);
        if (!json_is_object(j))
            return pb_errorf(err, errlen, "map: %s must be an object", where);
        if (pb_json_known_keys(j, known, "map: ", where, err, errlen) != 0)
            return -1;
        json_t *id = json_object_get(j, "id");
        if (!id_ok(id))
            return pb_errorf(err, errlen, "map: %s: 'id' must be 1 to %d letters, digits or '-'", where,
                             PD_ID_LEN - 1);
        pd_space *s = &m->space[i];
        snprintf(s->id, sizeof s->id, "%s", json_string_value(id));
        if (pd_space_find(m, s->id) >= 0)
            return pb_errorf(err, errlen, "map: space id %s is used twice", s->id);
        snprintf(where, sizeof where, "space %s", s->id);
        int x, y;
        if (!int_in(json_object_get(j, "x"), 0, PD_MAX_COORD, &x) ||
            !int_in(json_object_get(j, "y"), 0, PD_MAX_COORD, &y))
            return pb_errorf(err, errlen, "map: %s: 'x' and 'y' must be whole numbers from 0 to %d", where,
                             PD_MAX_COORD);
        s->x = (int16_t)x;
        s->y = (int16_t)y;
        json_t *village = json_object_get(j, "village");
        if (!village)
            return pb_errorf(err, errlen, "map: %s has no 'village'", where);
        int v = village_by_code(m, village);
        if (v < 0)
            return pb_errorf(err, errlen, "map: %s: no village has the code %s", where, quoted(village, q, sizeof q));
        s->village = (int8_t)v;
        if (read_flag(j, "dock", &s->dock, where, err, errlen) != 0 ||
            read_flag(j, "park_path", &s->park_path, where, err, errlen) != 0)
            return -1;
        json_t *subway = json_object_get(j, "subway");
        const char *line = json_is_string(subway) ? json_string_value(subway) : "";
        s->subway = strcmp(line, "red") == 0    ? PD_ROUTE_RED
                    : strcmp(line, "blue") == 0 ? PD_ROUTE_BLUE
                    : strcmp(line, "both") == 0 ? PD_ROUTE_RED | PD_ROUTE_BLUE
                                                : 0;
        if (subway && !s->subway)
            return pb_errorf(err, errlen, "map: %s: 'subway' must be \"red\", \"blue\" or \"both\"", where);
        if (s->park_path && v != m->park)
            return pb_errorf(err, errlen, "map: %s is on the Park Path but not in the park", where);
        if (s->park_path && (s->dock || s->subway))
            return pb_errorf(err, errlen, "map: %s is on the Park Path: docks and stations must be on streets",
                             where);
        m->nspaces = (int)i + 1;
    }
    return 0;
}

static int link(pd_map *m, int a, int b, int road, char *err, size_t errlen)
{
    pd_space *s = &m->space[a];
    if (a == b)
        return pb_errorf(err, errlen, "map: road %d links %s to itself", road, s->id);
    for (int k = 0; k < s->nnext; k++)
        if (s->next[k] == b)
            return pb_errorf(err, errlen, "map: road %d links %s and %s, which are linked already", road, s->id,
                             m->space[b].id);
    if (s->nnext == PD_MAX_NEXT || m->space[b].nnext == PD_MAX_NEXT)
        return pb_errorf(err, errlen, "map: road %d: %s has more than %d neighbours", road,
                         s->nnext == PD_MAX_NEXT ? s->id : m->space[b].id, PD_MAX_NEXT);
    s->next[s->nnext++] = (uint8_t)b;
    m->space[b].next[m->space[b].nnext++] = (uint8_t)a;
    return 0;
}

static int read_roads(const json_t *list, pd_map *m, char *err, size_t errlen)
{
    if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > PD_MAX_ROADS)
        return pb_errorf(err, errlen, "map: 'roads' must list 1 to %d roads", PD_MAX_ROADS);
    for (size_t r = 0; r < json_array_size(list); r++) {
        json_t *road = json_array_get(list, r);
        if (!json_is_array(road) || json_array_size(road) < 2 || json_array_size(road) > PD_MAX_SPACES)
            return pb_errorf(err, errlen, "map: road %zu must list 2 or more space ids", r + 1);
        int prev = -1;
        for (size_t k = 0; k < json_array_size(road); k++) {
            json_t *id = json_array_get(road, k);
            char q[48];
            int s = json_is_string(id) ? pd_space_find(m, json_string_value(id)) : -1;
            if (s < 0 || strcmp(m->space[s].id, json_string_value(id)) != 0)
                return pb_errorf(err, errlen, "map: road %zu: %s is not a space", r + 1, quoted(id, q, sizeof q));
            if (prev >= 0 && link(m, prev, s, (int)r + 1, err, errlen) != 0)
                return -1;
            prev = s;
        }
    }
    return 0;
}

/* A space named in a file that must be a street space of village v. */
static int street_of(const pd_map *m, const json_t *id, int v, const char *what, int *out, char *err, size_t errlen)
{
    char q[48];
    int s = json_is_string(id) ? pd_space_find(m, json_string_value(id)) : -1;
    if (s < 0 || strcmp(m->space[s].id, json_string_value(id)) != 0)
        return pb_errorf(err, errlen, "map: %s %s is not a space", what, quoted(id, q, sizeof q));
    const pd_space *sp = &m->space[s];
    if (sp->park_path)
        return pb_errorf(err, errlen, "map: %s %s is not a street space (it is on the Park Path)", what, sp->id);
    if (sp->village != v)
        return pb_errorf(err, errlen, "map: %s %s is in %s, not in %s", what, sp->id, m->village[sp->village].name,
                         m->village[v].name);
    *out = s;
    return 0;
}

static int read_zones(const json_t *list, pd_map *m, char *err, size_t errlen)
{
    for (int v = 0; v < m->nvillages; v++) {
        json_t *zone = json_object_get(json_array_get(list, (size_t)v), "zone");
        char what[128];
        int s;
        if (!zone)
            return pb_errorf(err, errlen, "map: village %s has no delivery zone ('zone')", m->village[v].code);
        snprintf(what, sizeof what, "village %s: zone", m->village[v].code);
        if (street_of(m, zone, v, what, &s, err, errlen) != 0)
            return -1;
        m->village[v].zone = (uint8_t)s;
    }
    return 0;
}

static int read_lots(const json_t *list, pd_map *m, char *err, size_t errlen)
{
    static const char *const known[] = {"id", "village", "cost", "door", "x", "y", NULL};
    if (!json_is_array(list) || json_array_size(list) < 1 || json_array_size(list) > PD_MAX_LOTS)
        return pb_errorf(err, errlen, "map: 'lots' must list 1 to %d lots", PD_MAX_LOTS);
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *j = json_array_get(list, i);
        char where[128], q[48];
        snprintf(where, sizeof where, "lot %zu", i + 1);
        if (!json_is_object(j))
            return pb_errorf(err, errlen, "map: %s must be an object", where);
        if (pb_json_known_keys(j, known, "map: ", where, err, errlen) != 0)
            return -1;
        json_t *id = json_object_get(j, "id");
        if (!id_ok(id))
            return pb_errorf(err, errlen, "map: %s: 'id' must be 1 to %d letters, digits or '-'", where,
                             PD_ID_LEN - 1);
        pd_lot *lot = &m->lot[i];
        snprintf(lot->id, sizeof lot->id, "%s", json_string_value(id));
        if (pd_lot_find(m, lot->id) >= 0 || pd_space_find(m, lot->id) >= 0)
            return pb_errorf(err, errlen, "map: id %s is used twice (lots and spaces need ids of their own)",
                             lot->id);
        snprintf(where, sizeof where, "lot %s", lot->id);
        json_t *village = json_object_get(j, "village");
        if (!village)
            return pb_errorf(err, errlen, "map: %s has no 'village'", where);
        int v = village_by_code(m, village);
        if (v < 0)
            return pb_errorf(err, errlen, "map: %s: no village has the code %s", where, quoted(village, q, sizeof q));
        if (m->village[v].park)
            return pb_errorf(err, errlen, "map: %s is in %s, where nobody builds", where, m->village[v].name);
        if (m->village[v].nlots == PD_MAX_VILLAGE_LOTS)
            return pb_errorf(err, errlen, "map: village %s has more than %d lots", m->village[v].code,
                             PD_MAX_VILLAGE_LOTS);
        int cost, x, y, door;
        if (!int_in(json_object_get(j, "cost"), 1, PD_MAX_LOT_COST, &cost))
            return pb_errorf(err, errlen, "map: %s: 'cost' must be a whole number from 1 to %d", where,
                             PD_MAX_LOT_COST);
        if (!int_in(json_object_get(j, "x"), 0, PD_MAX_COORD, &x) ||
            !int_in(json_object_get(j, "y"), 0, PD_MAX_COORD, &y))
            return pb_errorf(err, errlen, "map: %s: 'x' and 'y' must be whole numbers from 0 to %d", where,
                             PD_MAX_COORD);
        json_t *door_id = json_object_get(j, "door");
        if (!door_id)
            return pb_errorf(err, errlen, "map: %s has no 'door'", where);
        snprintf(where, sizeof where, "lot %s: door", lot->id);
        if (street_of(m, door_id, v, where, &door, err, errlen) != 0)
            return -1;
        lot->village = (int8_t)v;
        lot->cost = (uint8_t)cost;
        lot->door = (uint8_t)door;
        lot->x = (int16_t)x;
        lot->y = (int16_t)y;
        m->village[v].lot[m->village[v].nlots++] = (uint8_t)i;
        m->nlots = (int)i + 1;
    }
    for (int v = 0; v < m->nvillages; v++)
        if (!m->village[v].park && m->village[v].nlots == 0)
            return pb_errorf(err, errlen, "map: village %s has no lots (only the park may have none)",
                             m->village[v].code);
    return 0;
}

/* ================================================================ routes */

/* The search runs over the spaces and two stops of no place: the subway
 * (every station of an allowed line leads into it at no cost and out of it at
 * no cost, so a ride counts 0 spaces) and the boat (every dock leads into it
 * for 1 space and out of it at no cost, so a trip counts 1 space). A shortest
 * route never rides twice: one ride from the first station to the last is as
 * short. */
#define QUEUE 512 /* a power of two above the pushes of one search: each node enters at most twice */

typedef struct queue {
    int item[QUEUE];
    unsigned head, tail;
} queue;

static bool usable(const pd_space *s, unsigned modes)
{
    return !s->park_path || (modes & PD_ROUTE_PARK);
}

/* Reach v from u over a link of cost w (0 or 1): 0-cost links go to the
 * front of the queue, so it stays ordered by distance. */
static void reach(queue *q, int *dist, int *prev, int u, int v, int w)
{
    if (dist[u] + w >= dist[v])
        return;
    dist[v] = dist[u] + w;
    prev[v] = u;
    if (w == 0)
        q->item[--q->head % QUEUE] = v;
    else
        q->item[q->tail++ % QUEUE] = v;
}

/* 0-1 breadth-first search from `from`: dist (INT_MAX where unreachable) and
 * prev (-1 at the start) for the m->nspaces + 2 nodes. */
static void search(const pd_map *m, int from, unsigned modes, int *dist, int *prev)
{
    int n = m->nspaces, subway = n, boat = n + 1;
    unsigned lines = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE);
    queue q = {.head = 0, .tail = 0};
    for (int i = 0; i < n + 2; i++) {
        dist[i] = INT_MAX;
        prev[i] = -1;
    }
    if (!usable(&m->space[from], modes))
        return;
    dist[from] = 0;
    q.item[q.tail++] = from;
    while (q.head != q.tail) {
        int u = q.item[q.head++ % QUEUE];
        if (u == subway || u == boat) {
            for (int v = 0; v < n; v++)
                if (u == subway ? (m->space[v].subway & lines) != 0 : m->space[v].dock)
                    reach(&q, dist, prev, u, v, 0);
            continue;
        }
        const pd_space *s = &m->space[u];
        for (int k = 0; k < s->nnext; k++)
            if (usable(&m->space[s->next[k]], modes))
                reach(&q, dist, prev, u, s->next[k], 1);
        if (s->subway & lines)
            reach(&q, dist, prev, u, subway, 0);
        if (s->dock && (modes & PD_ROUTE_BOAT))
            reach(&q, dist, prev, u, boat, 1);
    }
}

static void fill_routes(pd_map *m)
{
    int dist[PD_MAX_SPACES + 2], prev[PD_MAX_SPACES + 2];
    memset(m->steps, PD_NO_ROUTE, sizeof m->steps);
    for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++)
        for (int from = 0; from < m->nspaces; from++) {
            search(m, from, modes, dist, prev);
            for (int to = 0; to < m->nspaces; to++)
                if (dist[to] != INT_MAX)
                    m->steps[modes][from][to] = (uint8_t)dist[to]; /* < PD_MAX_SPACES */
        }
}

/* Every lot's door to every village's zone across the Park Path
 * (pd_map.across). */
static void fill_across(pd_map *m)
{
    for (unsigned modes = PD_ROUTE_PARK; modes < PD_ROUTE_MODES; modes += 2)
        for (int l = 0; l < m->nlots; l++)
            for (int v = 0; v < m->nvillages; v++)
                m->across[modes >> 1][l][v] =
                    (int16_t)pd_route_length_across(m, m->lot[l].door, m->village[v].zone, modes);
}

/* The ends of the Park Path (street spaces next to one of its spaces) and
 * the crossings between two of them over Park Path spaces alone: in at one
 * end, out at another, never back out where it came in. */
static void fill_crossings(pd_map *m)
{
    memset(m->cross, PD_NO_ROUTE, sizeof m->cross);
    m->nends = 0;
    for (int a = 0; a < m->nspaces; a++) {
        const pd_space *s = &m->space[a];
        bool end = false;
        for (int k = 0; k < s->nnext; k++)
            end |= !s->park_path && m->space[s->next[k]].park_path;
        if (!end)
            continue;
        m->end[m->nends++] = (uint8_t)a;
        int dist[PD_MAX_SPACES], item[PD_MAX_SPACES], head = 0, tail = 0;
        for (int i = 0; i < m->nspaces; i++)
            dist[i] = -1;
        dist[a] = 0;
        item[tail++] = a;
        while (head < tail) {
            int u = item[head++];
            if (u != a && !m->space[u].park_path)
                continue; /* out of the park: an end reached */
            for (int k = 0; k < m->space[u].nnext; k++) {
                int v = m->space[u].next[k];
                if (dist[v] >= 0 || (u == a && !m->space[v].park_path))
                    continue;
                dist[v] = dist[u] + 1;
                item[tail++] = v;
                if (!m->space[v].park_path)
                    m->cross[a][v] = (uint8_t)dist[v];
            }
        }
    }
}

/* Every street space reached from the first by streets alone; every Park
 * Path space once the path is open. */
static int check_connected(const pd_map *m, char *err, size_t errlen)
{
    int street = 0;
    while (m->space[street].park_path)
        if (++street == m->nspaces)
            return pb_errorf(err, errlen, "map: there are no street spaces");
    for (int s = 0; s < m->nspaces; s++) {
        unsigned modes = m->space[s].park_path ? PD_ROUTE_PARK : PD_ROUTE_STREETS;
        if (m->steps[modes][street][s] == PD_NO_ROUTE)
            return m->space[s].park_path
                       ? pb_errorf(err, errlen, "map: Park Path space %s cannot be reached from the streets",
                                   m->space[s].id)
                       : pb_errorf(err, errlen, "map: the streets are not connected: %s cannot be reached from "
                                   "%s (the Park Path does not count)", m->space[s].id, m->space[street].id);
    }
    return 0;
}

int pd_map_from_json(const json_t *j, pd_map *m, char *err, size_t errlen)
{
    static const char *const known[] = {"name", "note", "villages", "lots", "spaces", "roads", NULL};
    memset(m, 0, sizeof *m);
    m->park = -1;
    if (!json_is_object(j))
        return pb_errorf(err, errlen, "map: must be a JSON object");
    if (pb_json_known_keys(j, known, "map: ", "the map", err, errlen) != 0)
        return -1;
    json_t *name = json_object_get(j, "name"), *note = json_object_get(j, "note");
    if (name && !pd_json_text(name, sizeof m->name))
        return pb_errorf(err, errlen, "map: 'name' must be 1 to %zu characters", sizeof m->name - 1);
    snprintf(m->name, sizeof m->name, "%s", name ? json_string_value(name) : "custom map");
    if (note && !json_is_string(note))
        return pb_errorf(err, errlen, "map: 'note' must be a string");
    json_t *villages = json_object_get(j, "villages");
    if (read_villages(villages, m, err, errlen) != 0 || read_spaces(json_object_get(j, "spaces"), m, err, errlen) != 0 ||
        read_roads(json_object_get(j, "roads"), m, err, errlen) != 0 || read_zones(villages, m, err, errlen) != 0 ||
        read_lots(json_object_get(j, "lots"), m, err, errlen) != 0)
        return -1;
    fill_routes(m);
    fill_crossings(m);
    fill_across(m);
    return check_connected(m, err, errlen);
}

int pd_map_from_text(const char *text, pd_map *m, char *err, size_t errlen)
{
    json_t *j = pb_json_parse(text, "map: ", err, errlen);
    if (!j)
        return -1;
    int rc = pd_map_from_json(j, m, err, errlen);
    json_decref(j);
    return rc;
}

void pd_map_default(pd_map *m)
{
    char err[PB_ERR_LEN];
    if (pd_map_from_text(pb_data_delivery_map, m, err, sizeof err) != 0) {
        /* The embedded file is part of the program and checked by the tests. */
        fprintf(stderr, "pizzabox: the embedded New York Pizza Delivery map is broken: %s\n", err);
        abort();
    }
}

/* ========================================================== route lookups */

static bool in_map(const pd_map *m, int s)
{
    return s >= 0 && s < m->nspaces;
}

int pd_route_length(const pd_map *m, int from, int to, unsigned modes)
{
    if (!in_map(m, from) || !in_map(m, to))
        return -1;
    int steps = m->steps[modes % PD_ROUTE_MODES][from][to];
    return steps == PD_NO_ROUTE ? -1 : steps + 1; /* PD-T4: the door is space 1 */
}

/* The first Park Path space some shortest route (park open) passes, or -1. */
static int park_space_on_route(const pd_map *m, int from, int to, unsigned modes)
{
    const uint8_t(*steps)[PD_MAX_SPACES] = m->steps[(modes | PD_ROUTE_PARK) % PD_ROUTE_MODES];
    if (!in_map(m, from) || !in_map(m, to) || steps[from][to] == PD_NO_ROUTE)
        return -1;
    for (int p = 0; p < m->nspaces; p++)
        if (m->space[p].park_path && steps[from][p] != PD_NO_ROUTE && steps[p][to] != PD_NO_ROUTE &&
            steps[from][p] + steps[p][to] == steps[from][to])
            return p;
    return -1;
}

pd_park_use pd_route_park_use(const pd_map *m, int from, int to, unsigned modes)
{
    if (park_space_on_route(m, from, to, modes) < 0)
        return PD_PARK_UNUSED;
    unsigned closed = (modes & ~PD_ROUTE_PARK) % PD_ROUTE_MODES;
    return m->steps[closed][from][to] == m->steps[closed | PD_ROUTE_PARK][from][to] ? PD_PARK_OPTIONAL
                                                                                     : PD_PARK_NEEDED;
}

/* The spaces of the route the search found, appended to out[*n..]. */
static int append_route(const pd_map *m, int from, int to, unsigned modes, uint8_t *out, int *n, int max)
{
    int dist[PD_MAX_SPACES + 2], prev[PD_MAX_SPACES + 2];
    uint8_t back[PD_MAX_SPACES];
    int nback = 0;
    search(m, from, modes, dist, prev);
    if (dist[to] == INT_MAX)
        return -1;
    for (int u = to; u >= 0; u = prev[u])
        if (u < m->nspaces)
            back[nback++] = (uint8_t)u; /* each space at most once: a shortest route */
    if (*n + nback > max)
        return -1;
    while (nback > 0)
        out[(*n)++] = back[--nback];
    return 0;
}

int pd_route(const pd_map *m, int from, int to, unsigned modes, uint8_t *spaces, int max)
{
    if (!in_map(m, from) || !in_map(m, to))
        return -1;
    modes %= PD_ROUTE_MODES;
    int n = 0, p = (modes & PD_ROUTE_PARK) ? park_space_on_route(m, from, to, modes) : -1;
    if (p < 0)
        return append_route(m, from, to, modes, spaces, &n, max) == 0 ? n : -1;
    if (append_route(m, from, p, modes, spaces, &n, max) != 0)
        return -1;
    n--; /* p starts the second half too */
    return append_route(m, p, to, modes, spaces, &n, max) == 0 ? n : -1;
}

/* The best crossing of the Park Path from `from` to `to`: its ends a and b
 * and the modes before and after it (a ride and a boat trip each on one
 * side; the streets there, so the path is crossed once); its steps, or
 * INT_MAX. */
typedef struct crossing {
    int a, b;
    unsigned before, after;
} crossing;

static int best_crossing(const pd_map *m, int from, int to, unsigned modes, crossing *c)
{
    unsigned ride = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE), boat = modes & PD_ROUTE_BOAT;
    int best = INT_MAX;
    if (!in_map(m, from) || !in_map(m, to))
        return best;
    for (unsigned split = 0; split < 4; split++) {
        unsigned before = (split & 1 ? ride : 0) | (split & 2 ? boat : 0);
        unsigned after = (split & 1 ? 0 : ride) | (split & 2 ? 0 : boat);
        for (int i = 0; i < m->nends; i++) {
            int a = m->end[i], to_a = m->steps[before][from][a];
            if (to_a == PD_NO_ROUTE)
                continue;
            for (int k = 0; k < m->nends; k++) {
                int b = m->end[k], over = m->cross[a][b], on = m->steps[after][b][to];
                if (over == PD_NO_ROUTE || on == PD_NO_ROUTE || to_a + over + on >= best)
                    continue;
                best = to_a + over + on;
                *c = (crossing){.a = a, .b = b, .before = before, .after = after};
            }
        }
    }
    return best;
}

int pd_route_length_across(const pd_map *m, int from, int to, unsigned modes)
{
    crossing c;
    int steps = best_crossing(m, from, to, modes % PD_ROUTE_MODES, &c);
    return steps == INT_MAX ? -1 : steps + 1; /* PD-T4: the door is space 1 */
}

/* The Park Path spaces from end a to end b, and b, appended to out[*n..]. */
static int append_crossing(const pd_map *m, int a, int b, uint8_t *out, int *n, int max)
{
    int prev[PD_MAX_SPACES], item[PD_MAX_SPACES], head = 0, tail = 0;
    uint8_t back[PD_MAX_SPACES];
    int nback = 0;
    for (int i = 0; i < m->nspaces; i++)
        prev[i] = -2;
    prev[a] = -1;
    item[tail++] = a;
    while (head < tail && prev[b] == -2) {
        int u = item[head++];
        if (u != a && !m->space[u].park_path)
            continue;
        for (int k = 0; k < m->space[u].nnext; k++) {
            int v = m->space[u].next[k];
            if (prev[v] != -2 || (u == a && !m->space[v].park_path))
                continue;
            prev[v] = u;
            item[tail++] = v;
        }
    }
    if (prev[b] == -2)
        return -1;
    for (int u = b; u != a; u = prev[u])
        back[nback++] = (uint8_t)u;
    if (*n + nback > max)
        return -1;
    while (nback > 0)
        out[(*n)++] = back[--nback];
    return 0;
}

int pd_route_across(const pd_map *m, int from, int to, unsigned modes, uint8_t *spaces, int max)
{
    crossing c;
    int n = 0;
    if (best_crossing(m, from, to, modes % PD_ROUTE_MODES, &c) == INT_MAX ||
        append_route(m, from, c.a, c.before, spaces, &n, max) != 0 || append_crossing(m, c.a, c.b, spaces, &n, max) != 0)
        return -1;
    n--; /* b starts the last part too */
    return append_route(m, c.b, to, c.after, spaces, &n, max) == 0 ? n : -1;
}
