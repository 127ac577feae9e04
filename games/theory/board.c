/* board.c -- the Pizza Theory board: the board file and what follows from it.
 *
 * A board file names its spaces by cube coordinates (PT-B1), in the fixed
 * board order PT-R6 fills spaces in; each of the three sides names the axis
 * it cuts along, its six lines and its start spaces (PT-B2, PT-B3). Which
 * spaces are next to each other follows from the coordinates. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../core/error.h"
#include "../../core/jsonutil.h"
#include "../../core/text.h"
#include "theory.h"

extern const char pb_data_theory_board[];

#define COORD_LIMIT 9 /* |coordinate| on any axis; 64 spaces fit well inside */

int th_cell_at(const th_board *b, int x, int y, int z)
{
    for (int i = 0; i < b->ncells; i++)
        if (b->cube[i][0] == x && b->cube[i][1] == y && b->cube[i][2] == z)
            return i;
    return -1;
}

/* A space as [x, y, z] with x + y + z = 0; `what` names it in errors. */
static int read_cube(const json_t *j, int out[3], const char *what, char *err, size_t errlen)
{
    if (!json_is_array(j) || json_array_size(j) != 3)
        return pb_errorf(err, errlen, "board: %s must be [x, y, z]", what);
    for (int a = 0; a < 3; a++) {
        json_t *v = json_array_get(j, (size_t)a);
        if (!json_is_integer(v) || json_integer_value(v) < -COORD_LIMIT || json_integer_value(v) > COORD_LIMIT)
            return pb_errorf(err, errlen, "board: %s must hold whole numbers from %d to %d", what,
                             -COORD_LIMIT, COORD_LIMIT);
        out[a] = (int)json_integer_value(v);
    }
    if (out[0] + out[1] + out[2] != 0)
        return pb_errorf(err, errlen, "board: %s [%d, %d, %d] is not a space: x + y + z must be 0", what,
                         out[0], out[1], out[2]);
    return 0;
}

/* Labels as the terminal draws the board: one row per z (a: the smallest),
 * counted from the left (smallest x - y) within the row. COORD_LIMIT keeps
 * it to 19 rows of at most 19 spaces. */
static void set_labels(th_board *b)
{
    int minz = COORD_LIMIT;
    for (int i = 0; i < b->ncells; i++)
        minz = b->cube[i][2] < minz ? b->cube[i][2] : minz;
    for (int i = 0; i < b->ncells; i++) {
        int rank = 1;
        for (int j = 0; j < b->ncells; j++)
            rank += b->cube[j][2] == b->cube[i][2] &&
                    b->cube[j][0] - b->cube[j][1] < b->cube[i][0] - b->cube[i][1];
        /* at most 19: two digits, said so for the compiler's length check */
        snprintf(b->label[i], sizeof b->label[i], "%c%u", 'a' + (b->cube[i][2] - minz), (unsigned)rank % 100u);
    }
}

int th_cell_by_label(const th_board *b, const char *label)
{
    for (int i = 0; i < b->ncells; i++)
        if (strcasecmp(b->label[i], label) == 0)
            return i;
    return -1;
}

static int read_cells(const json_t *cells, th_board *b, char *err, size_t errlen)
{
    if (!json_is_array(cells) || json_array_size(cells) < 7 || json_array_size(cells) > TH_MAX_CELLS)
        return pb_errorf(err, errlen, "board: 'cells' must list 7 to %d spaces", TH_MAX_CELLS);
    int n = (int)json_array_size(cells);
    b->ncells = 0;
    for (int i = 0; i < n; i++) {
        int c[3];
        char what[32];
        snprintf(what, sizeof what, "cell %d", i + 1);
        if (read_cube(json_array_get(cells, (size_t)i), c, what, err, errlen) != 0)
            return -1;
        if (th_cell_at(b, c[0], c[1], c[2]) >= 0)
            return pb_errorf(err, errlen, "board: space [%d, %d, %d] is listed twice", c[0], c[1], c[2]);
        for (int a = 0; a < 3; a++)
            b->cube[i][a] = (int8_t)c[a];
        b->ncells = i + 1; /* th_cell_at sees only the spaces read so far */
    }
    b->all = b->ncells == 64 ? ~0ull : (1ull << b->ncells) - 1;
    set_labels(b);
    for (int i = 0; i < b->ncells; i++) {
        b->next[i] = 0;
        for (int j = 0; j < b->ncells; j++) {
            int d = 0;
            for (int a = 0; a < 3; a++)
                d += abs(b->cube[i][a] - b->cube[j][a]);
            if (d == 2) /* one lattice step changes two coordinates by one */
                b->next[i] |= 1ull << j;
        }
    }
    return 0;
}

static int axis_from_name(const json_t *j)
{
    static const char *const names[] = {"x", "y", "z"};
    for (int a = 0; a < 3; a++)
        if (json_is_string(j) && strcmp(json_string_value(j), names[a]) == 0)
            return a;
    return -1;
}

static int read_side(const json_t *s, int d, th_board *b, char *err, size_t errlen)
{
    static const char *const known[] = {"axis", "lines", "start", NULL};
    char where[32];
    snprintf(where, sizeof where, "side %d", d + 1);
    if (!json_is_object(s))
        return pb_errorf(err, errlen, "board: %s must be an object", where);
    if (pb_json_known_keys(s, known, "board: ", where, err, errlen) != 0)
        return -1;
    int axis = axis_from_name(json_object_get(s, "axis"));
    if (axis < 0)
        return pb_errorf(err, errlen, "board: %s: 'axis' must be \"x\", \"y\" or \"z\"", where);
    for (int e = 0; e < d; e++)
        if (b->axis[e] == axis)
            return pb_errorf(err, errlen, "board: sides %d and %d both cut along %c: each side needs its own axis",
                             e + 1, d + 1, "xyz"[axis]);
    b->axis[d] = axis;
    json_t *lines = json_object_get(s, "lines");
    if (!json_is_array(lines) || json_array_size(lines) != TH_LINES)
        return pb_errorf(err, errlen, "board: %s: 'lines' must list %d lines", where, TH_LINES);
    for (int k = 0; k < TH_LINES; k++) {
        json_t *v = json_array_get(lines, (size_t)k);
        if (!json_is_integer(v) || json_integer_value(v) < -COORD_LIMIT || json_integer_value(v) > COORD_LIMIT)
            return pb_errorf(err, errlen, "board: %s: line %d must be a whole number (the row it runs after)",
                             where, k + 1);
        int t = (int)json_integer_value(v);
        b->line[d][k] = (int8_t)t;
        b->low[d][k] = b->near[d][k] = 0;
        for (int i = 0; i < b->ncells; i++) {
            int c = b->cube[i][axis];
            if (c <= t)
                b->low[d][k] |= 1ull << i;
            if (c == t || c == t + 1)
                b->near[d][k] |= 1ull << i;
        }
        if (b->low[d][k] == 0 || b->low[d][k] == b->all)
            return pb_errorf(err, errlen, "board: %s: line %d does not cut the board (spaces on one side only)",
                             where, k + 1);
        for (int e = 0; e < k; e++)
            if (b->line[d][e] == t)
                return pb_errorf(err, errlen, "board: %s: lines %d and %d are the same line", where, e + 1, k + 1);
    }
    json_t *start = json_object_get(s, "start");
    if (!json_is_array(start) || json_array_size(start) < 1 || json_array_size(start) > TH_MAX_START)
        return pb_errorf(err, errlen, "board: %s: 'start' must list 1 to %d spaces", where, TH_MAX_START);
    b->nstart[d] = (int)json_array_size(start);
    for (int i = 0; i < b->nstart[d]; i++) {
        int c[3];
        char what[64];
        snprintf(what, sizeof what, "%s start space %d", where, i + 1);
        if (read_cube(json_array_get(start, (size_t)i), c, what, err, errlen) != 0)
            return -1;
        int cell = th_cell_at(b, c[0], c[1], c[2]);
        if (cell < 0)
            return pb_errorf(err, errlen, "board: %s [%d, %d, %d] is not one of the board's cells", what, c[0],
                             c[1], c[2]);
        for (int e = 0; e <= d; e++)
            for (int q = 0; q < (e == d ? i : b->nstart[e]); q++)
                if (b->start[e][q] == cell)
                    return pb_errorf(err, errlen, "board: start space [%d, %d, %d] is used twice", c[0], c[1],
                                     c[2]);
        b->start[d][i] = (uint8_t)cell;
    }
    return 0;
}

int th_board_from_json(const json_t *j, th_board *b, char *err, size_t errlen)
{
    static const char *const known[] = {"name", "toppings", "cells", "sides", NULL};
    memset(b, 0, sizeof *b);
    if (!json_is_object(j))
        return pb_errorf(err, errlen, "board: must be a JSON object");
    if (pb_json_known_keys(j, known, "board: ", "the board", err, errlen) != 0)
        return -1;
    json_t *name = json_object_get(j, "name");
    if (name && (!json_is_string(name) || json_string_length(name) >= sizeof b->name))
        return pb_errorf(err, errlen, "board: 'name' must be a string of at most %zu bytes", sizeof b->name - 1);
    snprintf(b->name, sizeof b->name, "%s", name ? json_string_value(name) : "custom board");
    if (pb_text_unprintable(b->name))
        return pb_errorf(err, errlen, "board: 'name' may not hold control characters");
    if (read_cells(json_object_get(j, "cells"), b, err, errlen) != 0)
        return -1;
    json_t *toppings = json_object_get(j, "toppings");
    b->toppings = 16;
    if (toppings) {
        if (!json_is_integer(toppings) || json_integer_value(toppings) < 2 ||
            json_integer_value(toppings) > b->ncells / 2)
            return pb_errorf(err, errlen, "board: 'toppings' must be a whole number from 2 to %d (half the "
                             "spaces)", b->ncells / 2);
        b->toppings = (int)json_integer_value(toppings);
    }
    json_t *sides = json_object_get(j, "sides");
    if (!json_is_array(sides) || json_array_size(sides) != TH_SIDES)
        return pb_errorf(err, errlen, "board: 'sides' must list the %d sides", TH_SIDES);
    for (int d = 0; d < TH_SIDES; d++)
        if (read_side(json_array_get(sides, (size_t)d), d, b, err, errlen) != 0)
            return -1;
    for (int d = 0; d < TH_SIDES; d++)
        if (b->nstart[d] > b->toppings)
            return pb_errorf(err, errlen, "board: side %d has more start spaces than a colour has toppings", d + 1);
    return 0;
}

json_t *th_board_to_json(const th_board *b)
{
    json_t *cells = json_array(), *sides = json_array();
    for (int i = 0; i < b->ncells; i++)
        json_array_append_new(cells, json_pack("[i,i,i]", b->cube[i][0], b->cube[i][1], b->cube[i][2]));
    for (int d = 0; d < TH_SIDES; d++) {
        json_t *lines = json_array(), *start = json_array();
        for (int k = 0; k < TH_LINES; k++)
            json_array_append_new(lines, json_integer(b->line[d][k]));
        for (int i = 0; i < b->nstart[d]; i++) {
            const int8_t *c = b->cube[b->start[d][i]];
            json_array_append_new(start, json_pack("[i,i,i]", c[0], c[1], c[2]));
        }
        char axis[2] = {"xyz"[b->axis[d]], 0};
        json_array_append_new(sides, json_pack("{s:s, s:o, s:o}", "axis", axis, "lines", lines, "start", start));
    }
    return json_pack("{s:s, s:i, s:o, s:o}", "name", b->name, "toppings", b->toppings, "cells", cells, "sides",
                     sides);
}

void th_board_default(th_board *b)
{
    json_error_t jerr;
    json_t *j = json_loads(pb_data_theory_board, JSON_REJECT_DUPLICATES, &jerr);
    char err[PB_ERR_LEN];
    if (!j || th_board_from_json(j, b, err, sizeof err) != 0) {
        /* The embedded file is part of the program and checked by the tests. */
        fprintf(stderr, "pizzabox: the embedded Pizza Theory board is broken: %s\n", j ? err : jerr.text);
        abort();
    }
    json_decref(j);
}

void th_rules_setup(th_rules *r)
{
    const th_board *b = &r->board;
    for (int combo = 0; combo < TH_COMBOS; combo++) {
        int k[TH_SIDES] = {combo / 36, combo / 6 % 6, combo % 6};
        for (int reg = 0; reg < TH_REGIONS; reg++) {
            uint64_t m = b->all;
            for (int d = 0; d < TH_SIDES; d++)
                m &= (reg >> d & 1) ? b->all & ~b->low[d][k[d]] : b->low[d][k[d]];
            r->region[combo][reg] = m;
        }
        r->nslices[combo] = 0;
        for (int reg = 0; reg < TH_REGIONS; reg++)
            if (r->region[combo][reg])
                r->slice[combo][r->nslices[combo]++] = r->region[combo][reg];
    }
}

const uint64_t *th_regions(const th_rules *r, const uint8_t *cuts)
{
    return r->region[(cuts[0] - 1) * 36 + (cuts[1] - 1) * 6 + (cuts[2] - 1)];
}
