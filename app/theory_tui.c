/* theory_tui.c -- Pizza Theory drawn for a terminal (theory_tui.h).
 *
 * The hexagon is drawn with one text row per z coordinate (top: smallest)
 * and x - y across, so neighbours in a row are four columns apart and the
 * rows interleave like the printed board. Each space is a 3-column token:
 * a colour letter (R, G, W) for a topping, the space's label where the
 * player to move may put one, the row number along the player's cutting
 * direction while they choose a cut, and '.' for other empty spaces. In a
 * 2-player round the neutral's line, once the die gave it, is drawn across
 * it. Beside it the last reveal: each space's slice letter and its topping
 * after the replacements, '*' where one changed. Everything comes from the
 * view. */
#include "theory_tui.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"

#define MAX_CELLS 64
#define COLOURS 3
#define BOARD_X 2     /* column of the board's left edge */
#define LAST_X 42     /* column of the last reveal's board */

static const char *const colour_name[COLOURS] = {"Red", "Green", "White"};
static const char colour_letter[COLOURS] = {'R', 'G', 'W'};
static const char *const colour_sgr[COLOURS] = {"1;31", "1;32", "1;37"};
static const char *const side_name[3] = {"1st", "2nd", "3rd"};

typedef struct tview {
    const json_t *v;
    tb b;
    int n, players, you, to_move, neutral;
    int cube[MAX_CELLS][3];
    int row[MAX_CELLS], col[MAX_CELLS];  /* text row (0 = top) and column offset */
    int rows, minz, minxy;
    char label[MAX_CELLS][12];
    const char *name[COLOURS];
    char fallback[COLOURS][16];
} tview;

static int jint(const json_t *o, const char *key, int dflt)
{
    const json_t *x = json_object_get(o, key);
    return json_is_integer(x) ? (int)json_integer_value(x) : dflt;
}

static int aint(const json_t *a, int i, int dflt)
{
    const json_t *x = json_array_get(a, (size_t)i);
    return json_is_integer(x) ? (int)json_integer_value(x) : dflt;
}

/* The board geometry and the labels, from view.cells. */
static void layout(tview *t)
{
    const json_t *cells = json_object_get(t->v, "cells");
    t->n = (int)json_array_size(cells);
    if (t->n > MAX_CELLS)
        t->n = MAX_CELLS;
    t->minz = 99, t->minxy = 99;
    int maxz = -99;
    for (int i = 0; i < t->n; i++) {
        for (int a = 0; a < 3; a++)
            t->cube[i][a] = aint(json_array_get(cells, (size_t)i), a, 0);
        int z = t->cube[i][2], xy = t->cube[i][0] - t->cube[i][1];
        t->minz = z < t->minz ? z : t->minz;
        maxz = z > maxz ? z : maxz;
        t->minxy = xy < t->minxy ? xy : t->minxy;
    }
    t->rows = t->n ? maxz - t->minz + 1 : 0;
    for (int i = 0; i < t->n; i++) {
        t->row[i] = t->cube[i][2] - t->minz;
        t->col[i] = (t->cube[i][0] - t->cube[i][1] - t->minxy) * 2;
    }
    const json_t *labels = json_object_get(t->v, "labels"); /* the engine names the spaces */
    for (int i = 0; i < t->n; i++) {
        const char *l = json_string_value(json_array_get(labels, (size_t)i));
        snprintf(t->label[i], sizeof t->label[i], "%s", l ? l : "?");
    }
}

static void tview_init(tview *t, const json_t *v, const pb_tui_opts *o)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->b.colour = o && o->colour;
    t->players = jint(v, "player_count", 3);
    t->players = t->players < 2 ? 2 : t->players > 3 ? 3 : t->players;
    t->you = o ? o->you : -1;
    t->to_move = jint(v, "to_move", -1);
    t->neutral = jint(v, "neutral", -1);
    for (int c = 0; c < COLOURS; c++) {
        const char *given = o && o->names && c < t->players ? o->names[c] : NULL;
        if (c == t->neutral)
            snprintf(t->fallback[c], sizeof t->fallback[c], "Neutral");
        else
            snprintf(t->fallback[c], sizeof t->fallback[c], "Seat %d", c + 1);
        t->name[c] = given && *given ? given : t->fallback[c];
    }
    layout(t);
}

static const char *name_of(const tview *t, int c)
{
    return c >= 0 && c < COLOURS ? t->name[c] : "?";
}

/* A colour's player: "Ann (Red)", the neutral "the neutral (White)". */
static void colour_text(const tview *t, int c, char *text, size_t n)
{
    if (c < 0 || c >= COLOURS)
        snprintf(text, n, "?");
    else if (c == t->neutral)
        snprintf(text, n, "the neutral (%s)", colour_name[c]);
    else
        snprintf(text, n, "%.40s (%s)", name_of(t, c), colour_name[c]);
}

static void put_colour(tview *t, int c)
{
    char text[80];
    colour_text(t, c, text, sizeof text);
    tb_cput(&t->b, c >= 0 && c < COLOURS ? colour_sgr[c] : NULL, text);
}

/* A unit "<colour's player><rest>" kept on one line, wrapped at indent 3. */
static void colour_unit(tview *t, int c, const char *rest)
{
    char who[80];
    colour_text(t, c, who, sizeof who);
    tb_room(&t->b, cols_of(who, strlen(who)) + cols_of(rest, strlen(rest)), 3, 1);
    put_colour(t, c);
    tb_put(&t->b, rest);
}

static void put_line(tview *t, const char *s)
{
    tb_put(&t->b, s);
}

/* The cell a "put d4" names, or -1. */
static int cell_of_put(const tview *t, const char *text)
{
    if (strncmp(text, "put ", 4) != 0)
        return -1;
    for (int i = 0; i < t->n; i++)
        if (strcmp(text + 4, t->label[i]) == 0)
            return i;
    return -1;
}

/* Where side d's edge lies on the drawing: "top", "lower left", ... */
static const char *side_place(const tview *t, int d)
{
    const json_t *side = json_array_get(json_object_get(t->v, "sides"), (size_t)d);
    const char *axis = json_string_value(json_object_get(side, "axis"));
    int a = axis && axis[0] >= 'x' && axis[0] <= 'z' ? axis[0] - 'x' : 0, lo = 99;
    for (int i = 0; i < t->n; i++)
        lo = t->cube[i][a] < lo ? t->cube[i][a] : lo;
    double r = 0, c = 0, rc = 0, cc = 0;
    int k = 0;
    for (int i = 0; i < t->n; i++) {
        rc += t->row[i], cc += t->col[i];
        if (t->cube[i][a] == lo)
            r += t->row[i], c += t->col[i], k++;
    }
    if (!k || !t->n)
        return "?";
    double dr = r / k - rc / t->n, dc = c / k - cc / t->n;
    static const char *const names[3][3] = {{"upper left", "top", "upper right"},
                                            {"left", "middle", "right"},
                                            {"lower left", "bottom", "lower right"}};
    return names[dr < -0.5 ? 0 : dr > 0.5 ? 2 : 1][dc < -1 ? 0 : dc > 1 ? 2 : 1];
}

/* Row numbers along side d: row 1 along its edge, line k between rows k and k+1. */
static int cut_row(const tview *t, int d, int cell)
{
    const json_t *side = json_array_get(json_object_get(t->v, "sides"), (size_t)d);
    const char *axis = json_string_value(json_object_get(side, "axis"));
    int a = axis && axis[0] >= 'x' && axis[0] <= 'z' ? axis[0] - 'x' : 0, row = 1;
    const json_t *lines = json_object_get(side, "lines");
    for (size_t k = 0; k < json_array_size(lines); k++)
        row += t->cube[cell][a] > aint(lines, (int)k, 0);
    return row;
}

/* The side the viewer cuts from this round, or -1. */
static int my_side(const tview *t)
{
    for (int d = 0; d < 3; d++)
        if (jint(json_array_get(json_object_get(t->v, "sides"), (size_t)d), "colour", -1) == t->you)
            return d;
    return -1;
}

/* ---- The boards ---- */

typedef struct token {
    char text[12];
    int colour; /* -1 plain */
} token;

/* Tokens of the board now, for this viewer. */
static void board_now(const tview *t, token *tok)
{
    const json_t *board = json_object_get(t->v, "board");
    const char *phase = json_string_value(json_object_get(t->v, "phase"));
    bool mine = t->you >= 0 && t->you == t->to_move;
    bool cutting = mine && phase && strcmp(phase, "cut") == 0;
    int side = cutting ? my_side(t) : -1;
    bool legal[MAX_CELLS] = {false};
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(t->v, "legal"), i, m) {
        int cell = cell_of_put(t, json_string_value(m) ? json_string_value(m) : "");
        if (cell >= 0)
            legal[cell] = true;
    }
    for (int c = 0; c < t->n; c++) {
        int p = aint(board, c, -1);
        tok[c].colour = p >= 0 && p < COLOURS ? p : -1;
        if (side >= 0)
            snprintf(tok[c].text, sizeof tok[c].text, "%c%d", tok[c].colour >= 0 ? colour_letter[p] : '.',
                     cut_row(t, side, c));
        else if (tok[c].colour >= 0)
            snprintf(tok[c].text, sizeof tok[c].text, " %c", colour_letter[p]);
        else if (legal[c])
            snprintf(tok[c].text, sizeof tok[c].text, "%s", t->label[c]);
        else
            snprintf(tok[c].text, sizeof tok[c].text, " .");
    }
}

/* Tokens of the last reveal: slice letter, topping after, '*' if changed. */
static bool board_last(const tview *t, token *tok)
{
    const json_t *last = json_object_get(t->v, "last");
    if (!json_is_object(last))
        return false;
    const json_t *regions = json_object_get(last, "regions"), *before = json_object_get(last, "before");
    int after[MAX_CELLS], letter_of[8];
    for (int c = 0; c < t->n; c++)
        after[c] = aint(before, c, -1);
    for (int r = 0; r < 8; r++)
        letter_of[r] = -1;
    int next = 0;
    bool changed[MAX_CELLS] = {false};
    size_t i;
    const json_t *ch;
    json_array_foreach(json_object_get(last, "changed"), i, ch) {
        int cell = jint(ch, "cell", -1);
        if (cell >= 0 && cell < t->n) {
            changed[cell] = true;
            after[cell] = jint(ch, "to", -1);
        }
    }
    for (int c = 0; c < t->n; c++) {
        int r = aint(regions, c, 0) & 7;
        if (letter_of[r] < 0)
            letter_of[r] = next++;
        int p = after[c];
        tok[c].colour = p >= 0 && p < COLOURS ? p : -1;
        snprintf(tok[c].text, sizeof tok[c].text, "%c%c%s", 'A' + letter_of[r],
                 tok[c].colour >= 0 ? colour_letter[p] : '.', changed[c] ? "*" : "");
    }
    return true;
}

/* A line drawn across the board: the spaces whose coordinate on `axis`
 * is at most `at` lie on one side of it (axis -1: none). */
typedef struct rule {
    int axis, at;
} rule;

/* The neutral's line this round (2 players, once the die gave it), so that
 * a player choosing a cut sees where it falls: only the own side's rows
 * are numbered on the board. */
static rule neutral_rule(const tview *t)
{
    rule none = {-1, 0};
    int die = jint(t->v, "die", 0);
    if (t->neutral < 0 || die < 1 || die > 6)
        return none;
    const json_t *sides = json_object_get(t->v, "sides");
    for (int d = 0; d < 3; d++) {
        const json_t *side = json_array_get(sides, (size_t)d);
        const char *axis = json_string_value(json_object_get(side, "axis"));
        if (jint(side, "colour", -1) == t->neutral && axis && axis[0] >= 'x' && axis[0] <= 'z' && !axis[1])
            return (rule){axis[0] - 'x', aint(json_object_get(side, "lines"), die - 1, 0)};
    }
    return none;
}

/* How the rule looks on the board: along a row it crosses the rows at a
 * slant, one mark between two spaces of each row; along z it runs between
 * two rows of text. */
static const char *rule_mark(rule r)
{
    return r.axis == 0 ? "\\" : r.axis == 1 ? "/" : "---";
}

/* Row `row` of a board; a slanted rule marks the gap it runs through. */
static void draw_row(tview *t, const token *tok, int row, int x0, rule r)
{
    int prev = -1;
    for (int c = 0; c < t->n; c++)
        if (t->row[c] == row) {
            bool x_cut = r.axis == 0 && t->cube[prev < 0 ? c : prev][0] <= r.at && t->cube[c][0] > r.at;
            bool y_cut = r.axis == 1 && t->cube[prev < 0 ? c : prev][1] > r.at && t->cube[c][1] <= r.at;
            if (prev >= 0 && t->col[c] - t->col[prev] == 4 && (x_cut || y_cut)) {
                tb_pad(&t->b, x0 + t->col[c] - 1);
                put_line(t, rule_mark(r));
            }
            tb_pad(&t->b, x0 + t->col[c]);
            tb_cput(&t->b, tok[c].colour >= 0 ? colour_sgr[tok[c].colour] : NULL, tok[c].text);
            prev = c;
        }
}

/* A rule along z: dashes under the wider of the two rows it runs between. */
static void draw_rule_row(tview *t, int above, int x0)
{
    int lo = 999, hi = -1;
    for (int c = 0; c < t->n; c++)
        if (t->row[c] == above || t->row[c] == above + 1) {
            lo = t->col[c] < lo ? t->col[c] : lo;
            hi = t->col[c] > hi ? t->col[c] : hi;
        }
    tb_pad(&t->b, x0 + lo);
    for (int x = lo; x <= hi + 1; x++)
        put_line(t, "-");
}

static void draw_boards(tview *t)
{
    token now[MAX_CELLS], last[MAX_CELLS];
    board_now(t, now);
    bool has_last = board_last(t, last);
    const json_t *lv = json_object_get(t->v, "last");
    char head[80];
    tb_pad(&t->b, BOARD_X);
    put_line(t, "The pizza now");
    if (has_last) {
        tb_pad(&t->b, LAST_X);
        snprintf(head, sizeof head, "Round %d's cuts: slices A.., * changed", jint(lv, "round", 0));
        put_line(t, head);
    }
    tb_nl(&t->b);
    rule r = neutral_rule(t), flat = {-1, 0};
    /* a rule along z takes a text line of its own on this board only */
    int split = r.axis == 2 && r.at - t->minz >= 0 && r.at - t->minz < t->rows - 1 ? r.at - t->minz : -1;
    int lines = t->rows + (split >= 0);
    for (int i = 0; i < lines && i < 27; i++) {
        if (i == split + 1 && split >= 0)
            draw_rule_row(t, split, BOARD_X);
        else if (i < 26)
            draw_row(t, now, split >= 0 && i > split ? i - 1 : i, BOARD_X, r);
        if (has_last && i < t->rows && i < 26)
            draw_row(t, last, i, LAST_X, flat);
        tb_nl(&t->b);
    }
}

/* ---- The table ---- */

static void draw_header(tview *t)
{
    char text[120];
    const char *phase = json_string_value(json_object_get(t->v, "phase"));
    snprintf(text, sizeof text, "PIZZA THEORY  round %d", jint(t->v, "round", 0));
    tb_cput(&t->b, "1", text);
    if (phase && strcmp(phase, "over") == 0) {
        put_line(t, "  (game over)");
    } else if (t->to_move >= 0) {
        put_line(t, "  to move: ");
        put_colour(t, t->to_move);
    }
    tb_nl(&t->b);
    const json_t *supply = json_object_get(t->v, "supply"), *on = json_object_get(t->v, "on_board");
    int toppings = jint(t->v, "toppings", 16);
    for (int c = 0; c < COLOURS; c++) {
        tb_pad(&t->b, 2);
        put_colour(t, c);
        snprintf(text, sizeof text, ": %d of %d on the pizza, %d in supply%s", aint(on, c, 0), toppings,
                 aint(supply, c, 0), c == t->you ? "  <- you" : "");
        put_line(t, text);
        tb_nl(&t->b);
    }
}

/* Who had no space to add a topping on this round (PT-R1), and a neutral
 * topping with nowhere to go: said, not left for the player to notice. */
static void draw_skips(tview *t)
{
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(t->v, "skipped"), i, c) {
        int colour = (int)json_integer_value(c);
        tb_pad(&t->b, 2);
        if (colour == t->neutral && aint(json_object_get(t->v, "supply"), colour, 0) == 0) {
            put_line(t, "The neutral has no topping left to place.");
        } else if (colour == t->neutral) {
            char text[96];
            snprintf(text, sizeof text, "No empty space is beside line %d: no neutral topping this round.",
                     jint(t->v, "die", 0));
            put_line(t, text);
        } else {
            put_colour(t, colour);
            tb_para(&t->b, aint(json_object_get(t->v, "supply"), colour, 0) == 0
                               ? "had no topping left to add and skipped."
                               : "had no space to add a topping on and skipped: every empty one is next to "
                                 "one of its own.", 4);
        }
        tb_nl(&t->b);
    }
}

static void draw_sides(tview *t)
{
    const json_t *sides = json_object_get(t->v, "sides");
    const char *phase = json_string_value(json_object_get(t->v, "phase"));
    bool cutting = phase && strcmp(phase, "cut") == 0;
    for (int d = 0; d < 3; d++) {
        const json_t *s = json_array_get(sides, (size_t)d);
        char text[96];
        snprintf(text, sizeof text, "  %s side (%s): ", side_name[d], side_place(t, d));
        put_line(t, text);
        put_colour(t, jint(s, "colour", -1));
        if (json_is_integer(json_object_get(s, "cut")))
            snprintf(text, sizeof text, " - line %d", jint(s, "cut", 0));
        else if (cutting && json_is_true(json_object_get(s, "chosen")))
            snprintf(text, sizeof text, " - has chosen (secret)");
        else
            text[0] = 0;
        put_line(t, text);
        tb_nl(&t->b);
    }
    if (json_is_integer(json_object_get(t->v, "die"))) {
        char text[96];
        rule r = neutral_rule(t);
        if (r.axis >= 0)
            snprintf(text, sizeof text, "  The die gave the neutral line %d: the %s on the board.",
                     jint(t->v, "die", 0), rule_mark(r));
        else
            snprintf(text, sizeof text, "  The die gave the neutral line %d.", jint(t->v, "die", 0));
        put_line(t, text);
        tb_nl(&t->b);
    }
    draw_skips(t);
}

char *th_tui_table(const json_t *view, const pb_tui_opts *o)
{
    tview t;
    tview_init(&t, view, o);
    draw_header(&t);
    draw_sides(&t);
    tb_nl(&t.b);
    draw_boards(&t);
    return tb_done(&t.b);
}

/* ---- Prompt ---- */

char *th_tui_prompt(const json_t *view, const pb_tui_opts *o)
{
    tview t;
    tview_init(&t, view, o);
    const char *phase = json_string_value(json_object_get(view, "phase"));
    phase = phase ? phase : "";
    char text[240];
    if (strcmp(phase, "over") == 0) {
        tb_raw(&t.b, "", 0); /* nothing to ask: an empty text, not NULL */
        return tb_done(&t.b);
    }
    if (t.you < 0 || t.you != t.to_move) {
        put_line(&t, "Waiting for ");
        put_colour(&t, t.to_move);
        put_line(&t, strcmp(phase, "cut") == 0 ? " to choose a cut." : " to add a topping.");
        tb_nl(&t.b);
        return tb_done(&t.b);
    }
    if (strcmp(phase, "cut") == 0) {
        int d = my_side(&t);
        snprintf(text, sizeof text,
                 "Your cut: type cut and a line 1-6 of the %s side (%s), e.g. \"cut 4\" or just \"4\". The "
                 "spaces show their row counted from that edge; line k runs between rows k and k+1. It stays "
                 "secret until all have chosen.",
                 d >= 0 ? side_name[d] : "?", d >= 0 ? side_place(&t, d) : "?");
    } else {
        const char *example = "";
        const json_t *first = json_array_get(json_object_get(view, "legal"), 0);
        int cell = cell_of_put(&t, json_string_value(first) ? json_string_value(first) : "");
        example = cell >= 0 ? t.label[cell] : "d4";
        if (strcmp(phase, "neutral") == 0)
            snprintf(text, sizeof text,
                     "Put the neutral (White) topping on a space next to line %d of its side: type put and "
                     "one of the labels shown (e.g. \"put %s\" or just \"%s\").", jint(view, "die", 0), example,
                     example);
        else
            snprintf(text, sizeof text,
                     "Add a topping: type put and one of the labels shown on the board (e.g. \"put %s\" or just "
                     "\"%s\").", example, example);
    }
    tb_para(&t.b, text, 0);
    tb_nl(&t.b);
    return tb_done(&t.b);
}

/* ---- The round's banner ---- */

char *th_tui_banner(const json_t *view, const pb_tui_opts *o)
{
    const char *phase = json_string_value(json_object_get(view, "phase"));
    if (phase && strcmp(phase, "over") == 0)
        return NULL;
    /* The last round's reveal is not repeated here: the game's news told it
     * as the last cut was made (th_news), and the board beside shows it. */
    tview t;
    tview_init(&t, view, o);
    tb_nl(&t.b);
    char text[80];
    snprintf(text, sizeof text, "== Round %d: ", jint(view, "round", 0));
    tb_cput(&t.b, "1", text);
    put_colour(&t, jint(view, "first", -1));
    put_line(&t, " adds first. Cuts:");
    const json_t *sides = json_object_get(view, "sides");
    for (int d = 0; d < 3; d++) {
        snprintf(text, sizeof text, " from the %s (%s)%s", side_name[d], side_place(&t, d), d < 2 ? "," : ".");
        colour_unit(&t, jint(json_array_get(sides, (size_t)d), "colour", -1), text);
    }
    tb_nl(&t.b);
    return tb_done(&t.b);
}

/* ---- Input ---- */

/* The engine reads the labels itself, so every front end takes the same words. */
int th_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen)
{
    (void)view, (void)err, (void)errlen;
    snprintf(out, n, "%s", line);
    return 0;
}

/* ---- The result ---- */

void th_print_result(FILE *out, const pb_game *g, const pb_state *st, const char *const *names)
{
    json_t *r = g->ops->score_report(g, st, names);
    const json_t *players = json_object_get(r, "players");
    const char *end = json_string_value(json_object_get(r, "end"));
    fprintf(out, "%-24s %8s %8s\n", "RESULT", "on pizza", "short");
    size_t i;
    const json_t *p;
    json_array_foreach(players, i, p) {
        char who[40];
        snprintf(who, sizeof who, "%.24s (%s)", names && names[i] ? names[i] : "?",
                 i < COLOURS ? colour_name[i] : "?");
        fprintf(out, "%-24s %8d %8d\n", who, jint(p, "on_board", 0), jint(p, "short", 0));
    }
    if (json_object_get(r, "neutral_on_board"))
        fprintf(out, "%-24s %8d\n", "Neutral (White)", jint(r, "neutral_on_board", 0));
    int rounds = jint(r, "rounds", 0);
    if (end && strcmp(end, "neutral") == 0) {
        fprintf(out, "\nThe neutral filled the pizza after %d rounds: both players lose.\n", rounds);
    } else if (end && strcmp(end, "draw") == 0) {
        fprintf(out, "\nNo one filled the pizza in %d rounds: a draw.\n", rounds);
    } else {
        const json_t *w = json_object_get(r, "winners");
        fprintf(out, "\n%s", json_array_size(w) > 1 ? "Shared win: " : "Winner: ");
        for (size_t k = 0; k < json_array_size(w); k++) {
            int s = (int)json_integer_value(json_array_get(w, k));
            fprintf(out, "%s%s", k ? " and " : "", names && s >= 0 && s < g->players ? names[s] : "?");
        }
        fprintf(out, " (all toppings on the pizza after %d rounds)\n", rounds);
    }
    json_decref(r);
}
