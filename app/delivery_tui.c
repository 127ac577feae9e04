/* delivery_tui.c -- New York Pizza Delivery drawn for a terminal
 * (delivery_tui.h).
 *
 * The map is a character grid: every distinct x of the map's street spaces
 * is a column, every distinct y a row (scaled down when there are too many).
 * A space shows as '.', ':' on the Park Path, its village's code on a
 * delivery zone, with '~' for a dock and r/b/s for a subway stop; a lot is
 * drawn beside its door: the end of its id while empty ("1" for HA-1), its
 * owner's letter and level disks once built ("B2"). Beside the map each
 * village lists its lots with their prices. Everything comes from the view;
 * only rule constants come from the engine's header. */
#include "delivery_tui.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../games/delivery/delivery.h"
#include "textbuf.h"

#define SEATS PD_PLAYERS
#define CELL 7           /* map columns per grid column: a space, a blank, a lot's mark (BHK), a blank */
#define MAP_X 1          /* the map's left edge */
#define MAX_COLS 12      /* grid columns before scaling */
#define MAX_ROWS 40      /* grid rows before scaling */
#define LISTED 60        /* legal moves numbered in the table */
#define WORDS 16         /* words of an input line */
#define WORD_LEN 64
#define W(t) tb_width(&(t)->b) /* the columns of a line */

static const char *const seat_sgr[SEATS] = {"1;31", "1;34", "1;32", "1;33", "1;35", "1;36"};

typedef struct dspace {
    const char *id;
    int x, y, row, col;
    int zone_of; /* the village whose delivery zone it is, or -1 */
    bool park, dock;
    char subway; /* 'r', 'b', 's' (both) or 0 */
} dspace;

typedef struct dvillage {
    const char *code, *name, *zone;
} dvillage;

typedef struct dlot {
    const char *id;
    int village, cost, door, owner, disks;
} dlot;

/* How the table is laid out: everything at 80 columns when the output is
 * no terminal (a log of a scripted game stays whole); on a terminal of at
 * least 100x40 the orders beside the map; on a smaller one (80x24) no map,
 * so that the orders, your moves and the last moves logged stay on screen. */
enum layout { LAYOUT_FULL, LAYOUT_WIDE, LAYOUT_SHORT };

typedef struct dview {
    const json_t *v;
    tb b;
    enum layout layout;
    int screen_rows; /* the terminal's rows, 0 when it is no terminal */
    bool tight;      /* too tall for the screen: the players in short lines */
    bool rivals;     /* wide: the other players' pizzerias too (when they fit) */
    bool moves_cut;  /* the list of moves was cut to the screen */
    bool market_beside; /* wide: the open market fits beside the map */
    const char *phase;
    int players, you, to_move;
    const char *name[SEATS];
    char fallback[SEATS][16];
    int nspaces, nvillages, nlots, rows, cols;
    dspace space[PD_MAX_SPACES];
    dvillage village[PD_MAX_VILLAGES];
    dlot lot[PD_MAX_LOTS];
    /* a road across grid cells with no space ('|' or '-'; upper case: the
     * Park Path's, such as its single space's roads north and south) */
    char link[MAX_ROWS][MAX_COLS];
} dview;

/* ---- Reading the view ---- */

static const json_t *jget(const json_t *o, const char *key)
{
    return json_object_get(o, key);
}

static int jint(const json_t *o, const char *key, int dflt)
{
    const json_t *x = json_object_get(o, key);
    return json_is_integer(x) ? (int)json_integer_value(x) : dflt;
}

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static bool is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* Letters and digits equal, case aside ("Hell's-Kitchen" is Hell's Kitchen). */
static bool same_name(const char *a, size_t na, const char *b)
{
    size_t i = 0;
    for (;;) {
        while (i < na && a[i] && !isalnum((unsigned char)a[i]))
            i++;
        while (*b && !isalnum((unsigned char)*b))
            b++;
        bool ea = i >= na || !a[i];
        if (ea || !*b)
            return ea && !*b;
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)*b))
            return false;
        i++, b++;
    }
}

/* A village by its code or its name (the first n bytes of w), or -1. */
static int village_of(const dview *t, const char *w, size_t n)
{
    for (int i = 0; i < t->nvillages; i++)
        if ((strlen(t->village[i].code) == n && strncasecmp(w, t->village[i].code, n) == 0) ||
            same_name(w, n, t->village[i].name))
            return i;
    return -1;
}

static int space_of(const dview *t, const char *id)
{
    for (int i = 0; i < t->nspaces; i++)
        if (is(t->space[i].id, id))
            return i;
    return -1;
}

/* Grid positions of n sorted distinct values, scaled into at most max. */
static int grid_index(const int *values, int n, int max, int value)
{
    int k = 0;
    while (k < n && values[k] != value)
        k++;
    if (n <= max || n < 2 || values[n - 1] == values[0])
        return k < max ? k : max - 1;
    return (int)((long)(value - values[0]) * (max - 1) / (values[n - 1] - values[0]));
}

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int distinct_sorted(int *values, int n)
{
    qsort(values, (size_t)n, sizeof *values, by_value);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || values[k - 1] != values[i])
            values[k++] = values[i];
    return k;
}

static void read_villages(dview *t)
{
    size_t i;
    const json_t *a;
    json_array_foreach(jget(jget(t->v, "map"), "villages"), i, a) {
        if (t->nvillages >= PD_MAX_VILLAGES)
            break;
        dvillage *v = &t->village[t->nvillages++];
        v->code = jstr(a, "code"), v->name = jstr(a, "name"), v->zone = jstr(a, "zone");
    }
}

/* The spaces on the grid, the lots and who built on them. */
static void read_map(dview *t)
{
    const json_t *map = jget(t->v, "map"), *a;
    size_t i;
    int xs[PD_MAX_SPACES], ys[PD_MAX_SPACES];
    json_array_foreach(jget(map, "spaces"), i, a) {
        if (t->nspaces >= PD_MAX_SPACES)
            break;
        dspace *s = &t->space[t->nspaces];
        s->id = jstr(a, "id");
        s->x = jint(a, "x", 0), s->y = jint(a, "y", 0);
        s->zone_of = -1;
        s->park = json_is_true(jget(a, "park_path"));
        s->dock = json_is_true(jget(a, "dock"));
        const char *sub = jstr(a, "subway");
        s->subway = is(sub, "red") ? 'r' : is(sub, "blue") ? 'b' : is(sub, "both") ? 's' : 0;
        xs[t->nspaces] = s->x, ys[t->nspaces] = s->y;
        t->nspaces++;
    }
    int nx = distinct_sorted(xs, t->nspaces), ny = distinct_sorted(ys, t->nspaces);
    t->cols = t->rows = 0;
    for (int k = 0; k < t->nspaces; k++) {
        dspace *s = &t->space[k];
        s->col = grid_index(xs, nx, MAX_COLS, s->x);
        s->row = grid_index(ys, ny, MAX_ROWS, s->y);
        t->cols = s->col + 1 > t->cols ? s->col + 1 : t->cols;
        t->rows = s->row + 1 > t->rows ? s->row + 1 : t->rows;
    }
    for (int v = 0; v < t->nvillages; v++) {
        int z = space_of(t, t->village[v].zone);
        if (z >= 0)
            t->space[z].zone_of = v;
    }
    /* roads along a column or a row that pass cells without a space */
    memset(t->link, 0, sizeof t->link);
    json_array_foreach(jget(map, "roads"), i, a) {
        int p = space_of(t, json_string_value(json_array_get(a, 0))), q = space_of(t, json_string_value(json_array_get(a, 1)));
        if (p < 0 || q < 0)
            continue;
        const dspace *u = &t->space[p], *w = &t->space[q];
        bool park = u->park || w->park;
        if (u->col == w->col)
            for (int r = (u->row < w->row ? u->row : w->row) + 1; r < (u->row < w->row ? w->row : u->row); r++)
                t->link[r][u->col] = park ? 'I' : '|';
        else if (u->row == w->row)
            for (int c = (u->col < w->col ? u->col : w->col) + 1; c < (u->col < w->col ? w->col : u->col); c++)
                t->link[u->row][c] = park ? 'H' : '-';
    }
    json_array_foreach(jget(map, "lots"), i, a) {
        if (t->nlots >= PD_MAX_LOTS)
            break;
        dlot *l = &t->lot[t->nlots++];
        l->id = jstr(a, "id");
        const char *code = jstr(a, "village");
        l->village = village_of(t, code, strlen(code));
        l->cost = jint(a, "cost", 0);
        l->door = space_of(t, jstr(a, "door"));
        l->owner = -1;
    }
    /* who built where */
    const json_t *p;
    json_array_foreach(jget(t->v, "players"), i, p) {
        size_t k;
        const json_t *z;
        json_array_foreach(jget(p, "pizzerias"), k, z) {
            for (int l = 0; l < t->nlots; l++)
                if (is(t->lot[l].id, jstr(z, "lot"))) {
                    t->lot[l].owner = jint(p, "seat", (int)i);
                    t->lot[l].disks = jint(z, "disks", 0);
                }
        }
    }
}

/* ---- The terminal's size ---- */

static int forced_cols, forced_rows;

void dlv_tui_set_screen(int cols, int rows)
{
    forced_cols = cols, forced_rows = rows;
}

static int env_number(const char *name)
{
    const char *s = getenv(name);
    return s && *s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 5 ? atoi(s) : 0;
}

/* The size set for a test, else the terminal's on stdout (TIOCGWINSZ),
 * else COLUMNS and LINES when both are exported; 0x0 when none is known. */
static void screen_size(int *cols, int *rows)
{
    struct winsize ws;
    *cols = *rows = 0;
    if (forced_cols < 0 || forced_rows < 0)
        return;
    if (forced_cols > 0 && forced_rows > 0)
        *cols = forced_cols, *rows = forced_rows;
    else if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row)
        *cols = ws.ws_col, *rows = ws.ws_row;
    else if (env_number("COLUMNS") && env_number("LINES"))
        *cols = env_number("COLUMNS"), *rows = env_number("LINES");
}

/* The layout and the line's width for the screen. */
static void choose_layout(dview *t)
{
    int cols, rows;
    screen_size(&cols, &rows);
    t->screen_rows = rows;
    if (!rows) {
        t->layout = LAYOUT_FULL;
    } else if (cols >= 100 && rows >= 40) {
        t->layout = LAYOUT_WIDE;
        t->b.width = 100;
    } else {
        t->layout = LAYOUT_SHORT;
        t->b.width = cols < TB_WIDTH ? cols : TB_WIDTH;
    }
}

/* The viewer, the names and the villages; the map too when it is drawn. */
static void dview_init(dview *t, const json_t *v, const pb_tui_opts *o, bool map)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    choose_layout(t);
    t->b.colour = o && o->colour;
    t->phase = jstr(v, "phase");
    t->players = jint(v, "player_count", 2);
    t->players = t->players < 1 ? 1 : t->players > SEATS ? SEATS : t->players;
    t->you = o ? o->you : -1;
    t->to_move = jint(v, "to_move", -1);
    for (int s = 0; s < SEATS; s++) {
        const char *given = o && o->names && s < t->players ? o->names[s] : NULL;
        snprintf(t->fallback[s], sizeof t->fallback[s], "Seat %d", s + 1);
        t->name[s] = given && *given ? given : t->fallback[s];
    }
    read_villages(t);
    if (map)
        read_map(t);
}

/* ---- Cards and moves written short ---- */

/* "Hell's Kitchen/Sausage" (or "Hell's-Kitchen/Sausage") as "HK/Sausage";
 * the notation reads both. Spaces become '-' so the word can be typed. */
static void short_card(const dview *t, const char *card, char *out, size_t n)
{
    const char *slash = strrchr(card, '/');
    int v = slash ? village_of(t, card, (size_t)(slash - card)) : -1;
    if (v >= 0)
        snprintf(out, n, "%s/%s", t->village[v].code, slash + 1);
    else
        snprintf(out, n, "%s", card);
    for (char *s = out; *s; s++)
        if (*s == ' ')
            *s = '-';
}

/* A move with its card words short. */
static void short_move(const dview *t, const char *text, char *out, size_t n)
{
    size_t used = 0;
    out[0] = 0;
    for (const char *s = text; *s && used + 1 < n;) {
        size_t len = strcspn(s, " ");
        char word[WORD_LEN * 2], sw[WORD_LEN * 2];
        snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word - 1 ? len : sizeof word - 1), s);
        if (strchr(word, '/'))
            short_card(t, word, sw, sizeof sw);
        else
            snprintf(sw, sizeof sw, "%s", word);
        int wrote = snprintf(out + used, n - used, "%s%s", used ? " " : "", sw);
        if (wrote < 0 || (size_t)wrote >= n - used)
            break;
        used += (size_t)wrote;
        s += len;
        s += strspn(s, " ");
    }
}

/* ---- Drawing helpers ---- */

static const char *seat_colour(int s)
{
    return s >= 0 && s < SEATS ? seat_sgr[s] : NULL;
}

static char seat_letter(int s)
{
    return s >= 0 && s < SEATS ? (char)('A' + s) : '?';
}

/* Text cut to the end of the line. */
static void put(dview *t, const char *s)
{
    tb_text(&t->b, s, strlen(s), W(t) - t->b.col);
}

static void cput(dview *t, const char *sgr, const char *s)
{
    tb_sgr(&t->b, sgr);
    put(t, s);
    if (sgr)
        tb_sgr(&t->b, "0");
}

static const char *seat_name(const dview *t, int s)
{
    return s >= 0 && s < SEATS ? t->name[s] : "?";
}

/* "B Bo": a seat as the prompts write it, in plain text. */
static void seat_words(const dview *t, int s, char *out, size_t n)
{
    snprintf(out, n, "%c %.40s", seat_letter(s), seat_name(t, s));
}

/* A power card's name ("Traffic Jam") from the view, or its id. */
static const char *power_name(const dview *t, const char *id)
{
    const char *name = json_string_value(jget(jget(jget(t->v, "power_cards"), id), "name"));
    return name ? name : id;
}

/* "Traffic Jam (instant): its text": a power card as the view explains it,
 * or its id when the view has no text for it. */
static void power_text(const dview *t, const char *id, char *out, size_t n)
{
    const json_t *card = jget(jget(t->v, "power_cards"), id);
    const char *text = json_string_value(jget(card, "text")), *type = json_string_value(jget(card, "type"));
    if (text)
        snprintf(out, n, "%s (%s%s%s): %s", power_name(t, id), id, type ? ", " : "", type ? type : "", text);
    else
        snprintf(out, n, "%s", id);
}

/* What Property Tax on a seat would take (the engine's figure). */
static int property_tax(const dview *t, int seat)
{
    const json_t *taxes = jget(t->v, "property_tax");
    if (!taxes)
        taxes = jget(jget(t->v, "instant"), "property_tax");
    return (int)json_integer_value(json_array_get(taxes, (size_t)seat));
}

/* "B Bo's delivery (1 tip token)": the delivery the Instant cards answer. */
static void instant_delivery(const dview *t, char *out, size_t n)
{
    const json_t *in = jget(t->v, "instant");
    char who[64];
    int tips = jint(in, "tips", 0);
    seat_words(t, jint(in, "deliverer", -1), who, sizeof who);
    snprintf(out, n, "%s's delivery (%d tip token%s)", who, tips, tips == 1 ? "" : "s");
}

/* "B Bo" in B's colour, the name cut to maxcols. */
static void put_seat(dview *t, int s, int maxcols)
{
    char text[64];
    seat_words(t, s, text, sizeof text);
    tb_sgr(&t->b, seat_colour(s));
    tb_text(&t->b, text, strlen(text), maxcols < W(t) - t->b.col ? maxcols : W(t) - t->b.col);
    tb_sgr(&t->b, seat_colour(s) ? "0" : NULL);
}

/* A unit of text kept whole on one line, wrapped at `indent`. */
static void unit(dview *t, const char *sgr, const char *s, int indent, int sep)
{
    tb_room(&t->b, cols_of(s, strlen(s)), indent, sep);
    cput(t, sgr, s);
}

static void heading(dview *t, const char *s)
{
    cput(t, "1", s);
}

static void card_list(dview *t, const json_t *cards, bool numbered, int indent);

/* ---- The map and the villages ---- */

/* The end of a lot's id after its village's code ("1" for HA-1). */
static const char *lot_tag(const dview *t, const dlot *l)
{
    const char *code = l->village >= 0 ? t->village[l->village].code : "";
    size_t n = strlen(code);
    if (n && strncmp(l->id, code, n) == 0 && l->id[n] == '-' && l->id[n + 1])
        return l->id + n + 1;
    return l->id;
}

static void draw_space(dview *t, const dspace *s, int x)
{
    char glyph[8];
    const char *sgr = NULL;
    if (s->zone_of >= 0) {
        snprintf(glyph, sizeof glyph, "%.3s", t->village[s->zone_of].code);
        sgr = "1";
    } else {
        snprintf(glyph, sizeof glyph, "%c%s", s->park ? ':' : '.', s->dock ? "~" : s->subway ? " " : "");
        if (s->subway)
            glyph[1] = s->subway;
        sgr = s->park ? "32" : s->subway == 'r' ? "31" : s->subway == 'b' ? "34" : s->dock ? "36" : NULL;
    }
    tb_pad(&t->b, x);
    cput(t, sgr, glyph);
    /* its lots, beside the door */
    int at = x + 3;
    for (int l = 0; l < t->nlots; l++) {
        const dlot *lot = &t->lot[l];
        if (lot->door != s - t->space || at > x + CELL - 2)
            continue;
        char tag[8];
        if (lot->owner >= 0) /* one pizzeria a player in a village: a mark of its own */
            snprintf(tag, sizeof tag, "%c%.2s", seat_letter(lot->owner),
                     lot->village >= 0 ? t->village[lot->village].code : "?");
        else
            snprintf(tag, sizeof tag, "%.2s", lot_tag(t, lot));
        tb_pad(&t->b, at);
        tb_sgr(&t->b, seat_colour(lot->owner));
        tb_text(&t->b, tag, strlen(tag), x + CELL - 1 - t->b.col);
        tb_sgr(&t->b, seat_colour(lot->owner) ? "0" : NULL);
        at = t->b.col;
    }
}

static void draw_map_row(dview *t, int row)
{
    for (int c = 0; c < t->cols; c++) {
        bool drawn = false;
        for (int i = 0; i < t->nspaces && !drawn; i++)
            if (t->space[i].row == row && t->space[i].col == c && t->b.col <= MAP_X + c * CELL) {
                draw_space(t, &t->space[i], MAP_X + c * CELL);
                drawn = true;
            }
        char l = row < MAX_ROWS && c < MAX_COLS ? t->link[row][c] : 0;
        if (!drawn && l && t->b.col <= MAP_X + c * CELL) { /* a road through a cell without a space */
            tb_pad(&t->b, MAP_X + c * CELL);
            cput(t, l == 'I' || l == 'H' ? "32" : NULL, l == 'I' || l == '|' ? "|" : "-");
        }
    }
}

static void draw_orders(dview *t, int x);
static void draw_market(dview *t, int x);

/* The villages with their lots, then the legend or (wide) the orders, each
 * line from column x. */
/* Lines of a text. */
static int lines_of(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

typedef struct panel_widths {
    int code, name, lots;
} panel_widths;

/* The columns of the villages' codes, names and lots at their widest. */
static panel_widths village_widths(const dview *t)
{
    panel_widths pw = {2, 0, 0};
    for (int v = 0; v < t->nvillages; v++) {
        int w = cols_of(t->village[v].name, strlen(t->village[v].name)), lw = 0;
        pw.name = w > pw.name ? w : pw.name;
        pw.code = (int)strlen(t->village[v].code) > pw.code ? (int)strlen(t->village[v].code) : pw.code;
        for (int l = 0; l < t->nlots; l++)
            if (t->lot[l].village == v)
                lw += (lw ? 2 : 0) + cols_of(t->lot[l].id, strlen(t->lot[l].id)) + 1 + (t->lot[l].cost >= 10 ? 3 : 2);
        pw.lots = lw > pw.lots ? lw : pw.lots;
    }
    return pw;
}

static char *villages_panel(dview *t, int x)
{
    dview p = *t; /* a second buffer with the same names */
    memset(&p.b, 0, sizeof p.b);
    p.b.colour = t->b.colour;
    p.b.width = t->b.width;
    /* code, name and lots in one line when they fit: the name gives way */
    panel_widths pw = village_widths(t);
    int code_w = pw.code, name_w = pw.name, lots_w = pw.lots;
    int room = W(t) - x - code_w - 2 - lots_w;
    name_w = name_w < room ? name_w : room < 8 ? 8 : room;
    tb_pad(&p.b, x);
    heading(&p, "Villages, lots: $price or owner+disks");
    tb_nl(&p.b);
    for (int v = 0; v < t->nvillages; v++) {
        tb_pad(&p.b, x);
        cput(&p, "1", t->village[v].code);
        tb_pad(&p.b, x + code_w + 1);
        tb_text(&p.b, t->village[v].name, strlen(t->village[v].name), name_w);
        int indent = x + code_w + 1 + name_w + 1, any = 0;
        tb_pad(&p.b, indent);
        for (int l = 0; l < t->nlots; l++) {
            const dlot *lot = &t->lot[l];
            if (lot->village != v)
                continue;
            char text[32];
            int sep = any++ ? 2 : 0;
            if (lot->owner >= 0) {
                snprintf(text, sizeof text, "%s %c%d", lot->id, seat_letter(lot->owner), lot->disks % 100);
                tb_room(&p.b, cols_of(text, strlen(text)), indent, sep);
                tb_text(&p.b, lot->id, strlen(lot->id), 8);
                tb_text(&p.b, " ", 1, 1);
                snprintf(text, sizeof text, "%c%d", seat_letter(lot->owner), lot->disks % 100);
                tb_cput(&p.b, seat_colour(lot->owner), text);
            } else {
                snprintf(text, sizeof text, "%s $%d", lot->id, lot->cost);
                tb_room(&p.b, cols_of(text, strlen(text)), indent, sep);
                tb_put(&p.b, text);
            }
        }
        if (!any)
            put(&p, "no lots");
        tb_nl(&p.b);
    }
    if (t->layout == LAYOUT_WIDE) { /* the orders and the market beside the map, the legend below it */
        draw_orders(&p, x);
        size_t before = p.b.len;
        tb_pad(&p.b, x);
        draw_market(&p, x);
        t->market_beside = lines_of(p.b.s) <= t->rows;
        if (!t->market_beside && p.b.s) /* the map would grow: the market goes below it */
            p.b.s[p.b.len = before] = 0;
        return tb_done(&p.b);
    }
    static const char *const legend[] = {
        "HA     a village's delivery zone",
        ".r .b  subway stop, red / blue line (.s both)",
        ".~     dock  :  Park Path: one space (its card)",
        "1 2 3  empty lot (HA-1 ..) beside its door",
        "XHK    player X's pizzeria in HK (disks: above)",
    };
    tb_nl(&p.b);
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
        tb_pad(&p.b, x);
        put(&p, legend[i]);
        tb_nl(&p.b);
    }
    return tb_done(&p.b);
}

/* The map's legend on one line, under the map. */
static void legend_line(dview *t)
{
    put(t, " HA zone  .r .b subway red/blue (.s both)  .~ dock  : Park Path  1 2 3 empty lots  "
           "XHK X's pizzeria in HK");
    tb_nl(&t->b);
}

static void draw_map(dview *t)
{
    int width = t->cols * CELL;
    /* the villages beside the map when their names fit, else below it */
    panel_widths pw = village_widths(t);
    bool beside = MAP_X + width + 2 + pw.code + 1 + pw.name + 1 + pw.lots <= W(t);
    int x = beside ? MAP_X + width + 2 : MAP_X;
    char *panel = villages_panel(t, x);
    const char *line = panel;
    if (!beside) {
        for (int r = 0; r < t->rows; r++) {
            draw_map_row(t, r);
            tb_nl(&t->b);
        }
    }
    for (int r = 0; beside ? r < t->rows || (line && *line) : line && *line; r++) {
        if (beside && r < t->rows)
            draw_map_row(t, r);
        if (line && *line) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            /* the panel's lines start with x blanks: skip them */
            size_t skip = 0;
            while (skip < len && skip < (size_t)x && line[skip] == ' ')
                skip++;
            if (skip < len) {
                tb_pad(&t->b, x);
                tb_raw(&t->b, line + skip, len - skip);
                t->b.col = W(t); /* the panel's text ends the line */
            }
            line = end ? end + 1 : NULL;
        }
        tb_nl(&t->b);
    }
    free(panel);
    if (t->layout == LAYOUT_WIDE)
        legend_line(t);
}

/* ---- The rest of the table ---- */

static void draw_header(dview *t)
{
    char text[120];
    snprintf(text, sizeof text, "NEW YORK PIZZA DELIVERY  turn %d", jint(t->v, "turn", 0) + 1);
    heading(t, text);
    if (is(t->phase, "over")) {
        put(t, "  (game over)");
    } else if (t->to_move >= 0) {
        put(t, "  to move: ");
        put_seat(t, t->to_move, 24);
    }
    int sewer = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(jget(t->v, "sewer"), i, c)
        sewer += jint(c, "count", 0);
    if (t->layout == LAYOUT_WIDE) { /* the rest of the counts are for `table` */
        snprintf(text, sizeof text, "   market deck %d, sewer %d", jint(t->v, "deck", 0), sewer);
        put(t, text);
    }
    snprintf(text, sizeof text, "Inspectors %d of %d", jint(t->v, "inspectors", 0), PD_INSPECTORS_TO_END);
    tb_pad(&t->b, W(t) - (int)strlen(text) > t->b.col + 2 ? W(t) - (int)strlen(text) : t->b.col + 2);
    put(t, text);
    tb_nl(&t->b);
    bool counts = t->layout == LAYOUT_FULL;
    snprintf(text, sizeof text, "Market deck %d, sewer %d card%s; power deck %d; tips %d face down + %d NO TIP",
             jint(t->v, "deck", 0), sewer, sewer == 1 ? "" : "s", jint(t->v, "power_deck", 0), jint(t->v, "tips_left", 0),
             jint(t->v, "no_tips", 0));
    if (counts) {
        put(t, text);
        tb_nl(&t->b);
    }
    const json_t *top = jget(t->v, "deck_top");
    if (json_array_size(top)) { /* Buying Time's or Power Outage's cards: seen by all, order unknown */
        put(t, "On top of the market deck, in some order:");
        card_list(t, top, false, 3);
        tb_nl(&t->b);
    }
    const char *global = json_string_value(jget(t->v, "global"));
    if (global) {
        put(t, "Global card in play: ");
        put(t, global);
        const json_t *until = jget(t->v, "global_until");
        if (until) {
            snprintf(text, sizeof text, " until %.60s's turn", seat_name(t, jint(until, "seat", -1)));
            put(t, text);
        }
        const char *shortage = json_string_value(jget(t->v, "shortage"));
        if (shortage) {
            char card[96];
            short_card(t, shortage, card, sizeof card);
            snprintf(text, sizeof text, " (under it %.60s: no pizza with that ingredient)", card);
            put(t, text);
        }
        tb_nl(&t->b);
    }
}

/* ---- What a payment in progress leaves ----
 * While a build or a delivery is paid for, the money paid so far and the
 * cards set aside stay in the view's purse and hand (the engine moves them
 * when the payment ends): the table shows what is left. */

/* The seat paying for the pending build or delivery, or -1. */
static int payer(const dview *t)
{
    const json_t *pe = jget(t->v, "pending");
    const char *kind = jstr(pe, "kind");
    if (is(kind, "copy")) /* Harlem Rotary: its holder, whose pizzeria it comes from */
        return jint(pe, "owner", -1);
    return is(kind, "build") || is(kind, "deliver") ? jint(t->v, "whose_turn", -1) : -1;
}

/* The cards of a [{card, count}] list. */
static int count_cards(const json_t *cards)
{
    int n = 0;
    size_t i;
    const json_t *c;
    json_array_foreach(cards, i, c)
        n += jint(c, "count", 0);
    return n;
}

/* A player's money (p: their entry in "players") less what is paid so far. */
static int money_left(const dview *t, int seat, const json_t *p)
{
    return jint(p, "money", 0) - (seat == payer(t) ? jint(jget(t->v, "pending"), "money", 0) : 0);
}

/* The cards set aside, [{card, count}]: those paid so far, and a build's
 * card; a new list, NULL when out of memory. */
static json_t *set_aside(const dview *t)
{
    const json_t *pe = jget(t->v, "pending");
    json_t *cards = json_deep_copy(jget(pe, "cards"));
    if (json_is_array(cards) && is(jstr(pe, "kind"), "build"))
        json_array_append_new(cards, json_pack("{s:s,s:i}", "card", jstr(pe, "card"), "count", 1));
    return cards;
}

/* A player's hand size less the cards set aside. */
static int hand_left(const dview *t, int seat, const json_t *p)
{
    if (seat != payer(t))
        return jint(p, "hand", 0);
    json_t *aside = set_aside(t);
    int left = jint(p, "hand", 0) - count_cards(aside);
    json_decref(aside);
    return left;
}

/* A player's power cards in hand less those paid with so far. */
static int powers_left(const dview *t, int seat, const json_t *p)
{
    int n = jint(p, "powers", 0);
    return seat == payer(t) ? n - (int)json_array_size(jget(jget(t->v, "pending"), "powers")) : n;
}

/* Is your power card `id` paid with already (so no longer in hand)? */
static bool power_paid(const dview *t, const char *id)
{
    size_t i;
    const json_t *c;
    if (t->you < 0 || t->you != payer(t))
        return false;
    json_array_foreach(jget(jget(t->v, "pending"), "powers"), i, c) if (is(json_string_value(c), id)) return true;
    return false;
}

/* Your hand less the cards set aside: a new list, NULL when out of memory. */
static json_t *your_hand_left(const dview *t)
{
    json_t *left = json_deep_copy(jget(t->v, "hand"));
    if (!json_is_array(left) || t->you < 0 || t->you != payer(t))
        return left;
    json_t *aside = set_aside(t);
    size_t i, k;
    const json_t *c;
    json_array_foreach(aside, i, c) {
        json_t *h;
        json_array_foreach(left, k, h) {
            if (!is(jstr(h, "card"), jstr(c, "card")))
                continue;
            int count = jint(h, "count", 0) - jint(c, "count", 0);
            if (count > 0)
                json_object_set_new(h, "count", json_integer(count));
            else
                json_array_remove(left, k);
            break;
        }
    }
    json_decref(aside);
    return left;
}

/* PD-C1: the team's progress, the week tracker and what comes next, always
 * in sight in a co-op game. */
/* Insane's back-side pizza being timed: the front token's own time first,
 * which the choice depends on. */
static const char *insane_when(const json_t *promotion, char *buf, size_t n)
{
    snprintf(buf, n, "%s, + 1: morning or evening?", jstr(promotion, "when"));
    return buf;
}

static void draw_team(dview *t)
{
    const json_t *c = jget(t->v, "coop");
    if (!c)
        return;
    char text[600], next[120] = "none on the tracker", week[400] = "";
    const json_t *np = jget(c, "next_promotion");
    if (np) {
        int k = jint(np, "turns", 0);
        snprintf(next, sizeof next, "%d order%s %s", jint(np, "orders", 0), jint(np, "orders", 0) == 1 ? "" : "s",
                 k == 0 ? "at the end of this turn" : "");
        if (k > 0)
            snprintf(next + strlen(next), sizeof next - strlen(next), "on %s, in %d turn%s", jstr(np, "day"), k,
                     k == 1 ? "" : "s");
    }
    size_t i;
    const json_t *p;
    char insane[96];
    json_array_foreach(jget(c, "promotions"), i, p) {
        if (is(jstr(p, "colour"), "friday"))
            snprintf(week + strlen(week), sizeof week - strlen(week), "%sFriday evening (every week)", i ? "; " : "");
        else /* Easier's back side: one pizza; Insane's back-side token: one more */
            snprintf(week + strlen(week), sizeof week - strlen(week), "%s%s %s%s (%s%s%s%s)%s", i ? "; " : "",
                     jstr(p, "day"), jstr(p, "colour"), jint(p, "orders", 2) == 1 ? " back side" : "",
                     !json_is_true(jget(p, "choosing")) ? jstr(p, "when")
                     : jint(p, "orders", 2) == 1      ? "morning or evening?" /* Easier: its one pizza */
                                                      : insane_when(p, insane, sizeof insane),
                     jget(p, "extra") ? " + 1 in the " : "", jget(p, "extra") ? jstr(p, "extra") : "",
                     jint(p, "orders", 2) == 1 && !json_is_true(jget(p, "choosing")) ? ", 1 pizza" : "",
                     json_is_true(jget(p, "asleep")) ? ", under the pawn" : "");
    }
    heading(t, "TEAM (co-op)");
    snprintf(text, sizeof text, " money $%d of $%d, pizzas %d of %d; today is %s; next promotion: %s.",
             money_left(t, payer(t), c), jint(c, "money_goal", 0), jint(c, "pizzas", 0), jint(c, "pizzas_goal", 0),
             jstr(c, "day"), next);
    tb_para(&t->b, text, 2);
    tb_nl(&t->b);
    char markers[160] = "";
    json_array_foreach(jget(c, "markers"), i, p)
        snprintf(markers + strlen(markers), sizeof markers - strlen(markers), "%s%s at $%d%s", i ? ", " : "",
                 jstr(p, "colour"), jint(p, "at", 0), json_is_true(jget(p, "passed")) ? " (passed)" : "");
    snprintf(text, sizeof text,
             "Promotions: %s. Markers: %s. Order cards to come %d (delivered ones are shuffled back in), pushed out %d.",
             week, markers, jint(c, "orders_left", 0), jint(c, "orders_out", 0));
    tb_para(&t->b, text, 2);
    tb_nl(&t->b);
    if (json_is_true(jget(c, "first_round"))) {
        tb_para(&t->b, "First round: everyone builds, and the property is free.", 2);
        tb_nl(&t->b);
    }
    const json_t *o = jget(c, "options");
    if (o) {
        bool mode = json_is_true(jget(o, "insane")) || json_is_true(jget(o, "easier"));
        snprintf(text, sizeof text, "Options: %s%s%s.",
                 json_is_true(jget(o, "insane")) ? "Insane Difficulty (a back-side token, one pizza more, with each "
                                                   "Blue or Red token)"
                 : mode ? "Easier Mode (promotion tokens back side up: one pizza)"
                        : "",
                 mode && json_is_true(jget(o, "top_chef")) ? "; " : "",
                 json_is_true(jget(o, "top_chef")) ? "Top Chef by the die at the end" : "");
        tb_para(&t->b, text, 2);
        tb_nl(&t->b);
    }
    if (is(t->phase, "over")) {
        snprintf(text, sizeof text, "The team has %s.", jstr(c, "result"));
        tb_para(&t->b, text, 2);
        tb_nl(&t->b);
    }
}

/* The orders, each line from column x. */
static void draw_orders(dview *t, int x)
{
    tb_pad(&t->b, x);
    heading(t, "Orders");
    put(t, t->layout == LAYOUT_SHORT ? "  (the last card names the village; the map and more: type table)"
                                     : "  (deliver to a zone; the last card names the village)");
    tb_nl(&t->b);
    size_t i;
    const json_t *o;
    json_array_foreach(jget(t->v, "orders"), i, o) {
        char text[160];
        snprintf(text, sizeof text, " %d ", (int)i + 1);
        tb_pad(&t->b, x);
        put(t, text);
        if (!json_is_object(o)) {
            put(t, i < PD_BOARD_SLOTS ? "(empty)" : "(empty: Pandemic's orders are not replaced)");
            tb_nl(&t->b);
            continue;
        }
        bool dark = json_is_true(jget(o, "outage"));
        if (json_is_integer(jget(o, "tip_value"))) /* a token you looked at (Ham) */
            snprintf(text, sizeof text, "$%d +tip $%d", jint(o, "pay", 0), jint(o, "tip_value", 0));
        else
            snprintf(text, sizeof text, "$%d %s", jint(o, "pay", 0), json_is_true(jget(o, "tip")) ? "+tip" : "    ");
        put(t, text);
        if (t->b.col >= x + 13) /* "$10 +tip $3" runs past the column: a space still parts them */
            put(t, " ");
        tb_pad(&t->b, x + 13);
        const json_t *village = jget(o, "village");
        if (json_is_string(village)) {
            snprintf(text, sizeof text, "to %s", json_string_value(village));
            cput(t, "1", text);
        } else {
            put(t, dark ? "no zone" : "any zone");
        }
        tb_pad(&t->b, x + 23);
        if (json_is_true(jget(o, "specialty"))) {
            snprintf(text, sizeof text, "%s:", jstr(o, "name"));
            unit(t, NULL, text, x + 23, 0);
            size_t k;
            const json_t *need;
            json_array_foreach(jget(o, "needs"), k, need) {
                snprintf(text, sizeof text, "%d %s,", jint(need, "count", 0), jstr(need, "ingredient"));
                unit(t, NULL, text, x + 23, 1);
            }
            snprintf(text, sizeof text, t->layout == LAYOUT_FULL ? "+%d cards of any kind" : "+%d any",
                     jint(o, "extra_cards", 0));
            unit(t, NULL, text, x + 23, 1);
        } else if (dark) {
            snprintf(text, sizeof text, "no ingredients: Power Outage until %.40s's turn",
                     seat_name(t, jint(jget(t->v, "global_until"), "seat", -1)));
            unit(t, NULL, text, x + 23, 0);
        } else {
            size_t k;
            const json_t *card;
            json_array_foreach(jget(o, "cards"), k, card) {
                short_card(t, json_string_value(card) ? json_string_value(card) : "?", text, sizeof text);
                unit(t, NULL, text, x + 23, k ? 2 : 0);
            }
        }
        tb_nl(&t->b);
    }
}

/* Cards with counts ([{"card", "count"}]) as units, numbered if asked. */
static void card_list(dview *t, const json_t *cards, bool numbered, int indent)
{
    size_t i;
    const json_t *c;
    json_array_foreach(cards, i, c) {
        char name[96], text[128];
        short_card(t, jstr(c, "card"), name, sizeof name);
        int count = jint(c, "count", 1);
        if (numbered)
            snprintf(text, sizeof text, "%d:%s", (int)i + 1, name);
        else
            snprintf(text, sizeof text, "%s", name);
        if (count > 1) {
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, " x%d", count);
        }
        unit(t, NULL, text, indent, i ? 2 : 1);
    }
    if (!json_array_size(cards))
        unit(t, NULL, "none", indent, 1);
}

/* The open market, wrapped lines from column x + 3. */
static void draw_market(dview *t, int x)
{
    heading(t, "Open market");
    put(t, " (take N):");
    card_list(t, jget(t->v, "open"), true, x + 3);
    tb_nl(&t->b);
}

/* A pizzeria: "HK-2  2 disks  rep 3/5  HK/Sausage  top: double-topping". */
static void draw_pizzeria(dview *t, const json_t *z)
{
    char text[128];
    tb_pad(&t->b, 5);
    snprintf(text, sizeof text, "%-5s %d disk%s  rep %d/%d ", jstr(z, "lot"), jint(z, "disks", 0),
             jint(z, "disks", 0) == 1 ? " " : "s", jint(z, "reputation", 0), jint(z, "limit", 5));
    put(t, text);
    size_t k;
    const json_t *card;
    json_array_foreach(jget(z, "cards"), k, card) {
        short_card(t, json_string_value(card) ? json_string_value(card) : "?", text, sizeof text);
        unit(t, NULL, text, 9, 1);
    }
    if (*jstr(z, "power")) {
        snprintf(text, sizeof text, "(top: %s)", jstr(z, "power"));
        unit(t, NULL, text, 9, 1);
    }
    tb_nl(&t->b);
}

/* Power cards in play and what they hold: a Farmer Brown card, Cold
 * Storage's cards, subway rides, reserved lots. */
static void draw_tableau(dview *t, const json_t *p)
{
    const json_t *tableau = jget(p, "tableau"), *reserved = jget(p, "reserved_lots"), *cold = jget(p, "cold_storage");
    const char *farmed = json_string_value(jget(p, "farmer_brown")), *spot = json_string_value(jget(p, "spot"));
    int rides = jint(p, "subway_tokens", 0);
    if (!json_array_size(tableau) && !farmed && !rides && !json_array_size(reserved))
        return;
    char text[128];
    const char *first = json_string_value(json_array_get(tableau, 0));
    if (t->b.col) /* on a terminal, after the player's line when it fits with the first card */
        tb_room(&t->b, 9 + (first ? (int)strlen(first) : 0), 5, 2);
    else
        tb_pad(&t->b, 5);
    put(t, "in play:");
    size_t k;
    const json_t *id;
    json_array_foreach(tableau, k, id) unit(t, NULL, json_string_value(id) ? json_string_value(id) : "?", 9, 1);
    if (farmed) {
        char card[96];
        short_card(t, farmed, card, sizeof card);
        snprintf(text, sizeof text, "(Farmer Brown's card: %s)", card);
        unit(t, NULL, text, 9, 1);
    }
    if (json_is_array(cold)) {
        unit(t, NULL, json_array_size(cold) ? "(Cold Storage:" : "(Cold Storage: empty)", 9, 1);
        const json_t *c;
        json_array_foreach(cold, k, c) {
            char card[96];
            short_card(t, json_string_value(c) ? json_string_value(c) : "?", card, sizeof card);
            snprintf(text, sizeof text, "%s%s", card, k + 1 < json_array_size(cold) ? "," : ")");
            unit(t, NULL, text, 9, 1);
        }
    }
    if (rides) {
        snprintf(text, sizeof text, "(subway rides left: %d)", rides);
        unit(t, NULL, text, 9, 1);
    }
    if (spot) {
        snprintf(text, sizeof text, "(a disk on %.8s's zone)", spot);
        unit(t, NULL, text, 9, 1);
    }
    if (json_array_size(reserved)) {
        unit(t, NULL, "reserved lots:", 9, 1);
        json_array_foreach(reserved, k, id) unit(t, NULL, json_string_value(id) ? json_string_value(id) : "?", 9, 1);
    }
    tb_nl(&t->b);
}

/* Does any player's row show tip money (your own, or everyone's at the end)? */
static bool tip_money_shown(const dview *t)
{
    size_t i;
    const json_t *p;
    json_array_foreach(jget(t->v, "players"), i, p)
        if (json_is_integer(jget(p, "tip_money")))
            return true;
    return false;
}

/* A short screen's line of a player, "B Bo   $5    disks 12  delivered 3
 * tips 2 ($5)  hand 5+1": each word before its number, in columns of a
 * fixed width, so that no number reads with the next word. */
static void short_player(dview *t, const json_t *p, int s)
{
    char text[200], money[16] = "team";
    tb_pad(&t->b, 1);
    put_seat(t, s, 12);
    tb_pad(&t->b, 14);
    if (!jget(t->v, "coop"))
        snprintf(money, sizeof money, "$%d", money_left(t, s, p));
    snprintf(text, sizeof text, "%-5s disks %2d  delivered %2d  tips %2d", money, jint(p, "disks", 0),
             jint(p, "deliveries", 0), jint(p, "tips", 0));
    if (tip_money_shown(t)) {
        char tips[16] = "";
        if (json_is_integer(jget(p, "tip_money")))
            snprintf(tips, sizeof tips, "($%d)", jint(p, "tip_money", 0));
        snprintf(text + strlen(text), sizeof text - strlen(text), " %-6s", tips);
    }
    if (is(t->phase, "over"))
        snprintf(text + strlen(text), sizeof text - strlen(text), "  score %3d", jint(p, "score", 0));
    else
        snprintf(text + strlen(text), sizeof text - strlen(text), "  hand %2d+%d", hand_left(t, s, p),
                 powers_left(t, s, p));
    put(t, text);
    if (s == t->you)
        put(t, "  <- you");
    tb_nl(&t->b);
    if (s != t->you || !json_array_size(jget(p, "pizzerias")))
        return;
    heading(t, "     your pizzerias:");
    size_t k;
    const json_t *z;
    json_array_foreach(jget(p, "pizzerias"), k, z) {
        snprintf(text, sizeof text, "%s (%d disk%s, rep %d/%d)%s", jstr(z, "lot"), jint(z, "disks", 0),
                 jint(z, "disks", 0) == 1 ? "" : "s", jint(z, "reputation", 0), jint(z, "limit", 5),
                 k + 1 < json_array_size(jget(p, "pizzerias")) ? "," : "");
        unit(t, NULL, text, 9, 1);
    }
    tb_nl(&t->b);
}

static void draw_players(dview *t)
{
    bool over = is(t->phase, "over");
    if (t->layout == LAYOUT_SHORT || t->tight) {
        size_t i;
        const json_t *p;
        json_array_foreach(jget(t->v, "players"), i, p) short_player(t, p, jint(p, "seat", (int)i));
        return;
    }
    heading(t, "Players");
    tb_pad(&t->b, 16);
    put(t, over ? "money disks left  deliveries  tips       score" : "money disks left  deliveries  tips        hand");
    tb_nl(&t->b);
    size_t i;
    const json_t *p;
    json_array_foreach(jget(t->v, "players"), i, p) {
        int s = jint(p, "seat", (int)i);
        char text[128];
        tb_pad(&t->b, 1);
        put_seat(t, s, 14);
        tb_pad(&t->b, 16);
        if (jget(t->v, "coop")) /* the team's money is the only money */
            snprintf(text, sizeof text, "%-5s %10d  %10d  %4d", "team", jint(p, "disks", 0), jint(p, "deliveries", 0),
                     jint(p, "tips", 0));
        else
            snprintf(text, sizeof text, "$%-4d %10d  %10d  %4d", money_left(t, s, p), jint(p, "disks", 0),
                     jint(p, "deliveries", 0), jint(p, "tips", 0));
        put(t, text);
        if (json_is_integer(jget(p, "tip_money"))) {
            snprintf(text, sizeof text, " ($%d)", jint(p, "tip_money", 0));
            put(t, text);
        }
        tb_pad(&t->b, 58);
        if (over) {
            snprintf(text, sizeof text, "%4d", jint(p, "score", 0));
            cput(t, "1", text);
        } else {
            int powers = powers_left(t, s, p);
            snprintf(text, sizeof text, "%4d", hand_left(t, s, p));
            put(t, text);
            if (powers) {
                snprintf(text, sizeof text, " + %d power", powers);
                put(t, text);
            }
        }
        if (s == t->you)
            put(t, "  <- you");
        bool own_line = t->layout == LAYOUT_FULL || jint(p, "supplies_due", 0) || (t->layout == LAYOUT_SHORT && s != t->you);
        if (own_line) /* else the power cards in play follow on the line */
            tb_nl(&t->b);
        if (jint(p, "supplies_due", 0)) { /* Out of Supplies */
            tb_pad(&t->b, 5);
            snprintf(text, sizeof text, "owes $%d for Out of Supplies: no delivery until it is paid",
                     jint(p, "supplies_due", 0));
            put(t, text);
            tb_nl(&t->b);
        }
        /* on a wide terminal the others' pizzerias are drawn when the
         * table fits the screen with them, else only in the villages' list;
         * on a short one they, and their power cards in play, are for `table` */
        if (t->layout != LAYOUT_SHORT || s == t->you)
            draw_tableau(t, p);
        if (t->b.col)
            tb_nl(&t->b);
        size_t k;
        const json_t *z;
        if (t->layout == LAYOUT_FULL)
            json_array_foreach(jget(p, "pizzerias"), k, z) draw_pizzeria(t, z);
        else if (s == t->you || t->rivals) { /* a wide terminal: side by side when they fit */
            json_array_foreach(jget(p, "pizzerias"), k, z) {
                char line[400];
                int len = snprintf(line, sizeof line, "%s %d disk%s rep %d/%d:", jstr(z, "lot"), jint(z, "disks", 0),
                                   jint(z, "disks", 0) == 1 ? "" : "s", jint(z, "reputation", 0), jint(z, "limit", 5));
                size_t c;
                const json_t *card;
                json_array_foreach(jget(z, "cards"), c, card) {
                    char name[96];
                    short_card(t, json_string_value(card) ? json_string_value(card) : "?", name, sizeof name);
                    len += snprintf(line + len, sizeof line - (size_t)len, " %s", name);
                    if (len >= (int)sizeof line - 100)
                        break;
                }
                if (*jstr(z, "power"))
                    snprintf(line + len, sizeof line - (size_t)len, " (top: %s)", jstr(z, "power"));
                unit(t, NULL, line, 5, 4);
            }
            if (t->b.col)
                tb_nl(&t->b);
        }
    }
}

static void draw_hand(dview *t)
{
    if (t->you < 0 || t->you >= t->players || is(t->phase, "over"))
        return;
    size_t i;
    const json_t *c;
    json_t *hand = your_hand_left(t);
    char text[96];
    snprintf(text, sizeof text, "Your hand (%d):", count_cards(hand));
    heading(t, text);
    card_list(t, hand, false, 3);
    json_decref(hand);
    const json_t *powers = jget(t->v, "powers");
    if (t->layout == LAYOUT_FULL) {
        tb_nl(&t->b);
        heading(t, "Your power cards:");
    } else { /* on one line with the hand when it fits, with the first card */
        const char *first = json_string_value(json_array_get(powers, 0));
        tb_room(&t->b, 13 + (first ? (int)strlen(first) : 4), 3, 2);
        heading(t, "power cards:");
    }
    size_t held = 0;
    json_array_foreach(powers, i, c) {
        if (power_paid(t, json_string_value(c)))
            continue; /* set aside with the payment */
        unit(t, NULL, json_string_value(c) ? json_string_value(c) : "?", 3, 1);
        held++;
    }
    if (held) {
        if (t->layout == LAYOUT_FULL) /* on a terminal `rules` says it */
            unit(t, NULL, "(any of them pays $1 of a price or a space)", 3, 2);
    } else
        unit(t, NULL, "none", 3, 1);
    tb_nl(&t->b);
    const json_t *keep = jget(t->v, "keep_from");
    if (json_array_size(keep)) {
        heading(t, "Dealt to you, keep one:");
        tb_nl(&t->b);
        json_array_foreach(keep, i, c) {
            char explained[1024], line[1100];
            power_text(t, json_string_value(c) ? json_string_value(c) : "?", explained, sizeof explained);
            snprintf(line, sizeof line, "%d %s", (int)i + 1, explained);
            tb_para(&t->b, line, 4);
            tb_nl(&t->b);
        }
    }
}

/* Harlem Rotary: the order a delivery to Harlem lets its holder copy. */
static void draw_copy(dview *t)
{
    const json_t *o = jget(t->v, "copy");
    if (!is(t->phase, "copy") || !json_is_object(o))
        return;
    char text[160];
    heading(t, "Now:");
    put_seat(t, jint(t->v, "copy_turn_of", 0), 30);
    snprintf(text, sizeof text, " delivered %s ($%d) to %s: copy it?", jstr(o, "name"),
             jint(o, "pay", 0), jstr(o, "village"));
    unit(t, NULL, text, 3, 1);
    tb_nl(&t->b);
}

/* The delivery that Instant cards may answer, or the Property Tax being
 * paid after it, or played on a player's own turn. */
static void draw_instant(dview *t)
{
    const json_t *in = jget(t->v, "instant"), *tax = jget(t->v, "tax");
    char text[320], delivery[96], who[64], by[64];
    if (!json_is_object(in) && is(t->phase, "tax")) {
        seat_words(t, t->to_move, who, sizeof who);
        seat_words(t, jint(t->v, "whose_turn", -1), by, sizeof by);
        snprintf(text, sizeof text, "Property Tax, played by %s on their turn: %s pays, $%d still due.", by, who,
                 jint(tax, "due", 0));
        heading(t, "Now:");
        tb_para(&t->b, text, 3);
        tb_nl(&t->b);
        return;
    }
    if (!json_is_object(in))
        return;
    instant_delivery(t, delivery, sizeof delivery);
    if (is(t->phase, "tax")) {
        seat_words(t, t->to_move, who, sizeof who);
        snprintf(text, sizeof text, "Property Tax after %s: %s pays, $%d still due.", delivery, who,
                 jint(in, "tax_due", 0));
    } else {
        snprintf(text, sizeof text, "%s is complete; each other player holding a power card is asked in "
                 "turn for an Instant card (Property Tax, Rough Delivery, Traffic Jam).", delivery);
    }
    heading(t, "Now:");
    tb_para(&t->b, text, 3);
    tb_nl(&t->b);
}

static void draw_pending(dview *t)
{
    const json_t *pe = jget(t->v, "pending");
    draw_copy(t);
    draw_instant(t);
    if (!json_is_object(pe))
        return;
    char text[160], card[96];
    heading(t, "Now:");
    if (is(jstr(pe, "kind"), "upgrade")) { /* what an upgrade left over the limit */
        snprintf(text, sizeof text, "bringing your pizzeria in %s back to its reputation limit: %d more to remove.",
                 jstr(pe, "village"), jint(pe, "due", 0));
        tb_para(&t->b, text, 3);
        tb_nl(&t->b);
        return;
    }
    if (is(jstr(pe, "kind"), "build")) {
        short_card(t, jstr(pe, "card"), card, sizeof card);
        snprintf(text, sizeof text, "building on %s with %s;", jstr(pe, "lot"), card);
        unit(t, NULL, text, 3, 1);
        int money = jint(pe, "money", 0);
        bool cards = json_array_size(jget(pe, "cards")) > 0;
        snprintf(text, sizeof text, "$%d still to pay%s", jint(pe, "due", 0), money || cards ? "; paid so far" : "");
        unit(t, NULL, text, 3, 1);
        snprintf(text, sizeof text, "$%d%s", money, cards ? " and" : "");
        if (money)
            unit(t, NULL, text, 3, 1);
        if (cards)
            card_list(t, jget(pe, "cards"), false, 3);
        tb_nl(&t->b);
        return;
    }
    int owner = jint(pe, "owner", -1);
    bool copy_cat = !is(jstr(pe, "kind"), "copy") && owner >= 0 && owner != jint(t->v, "whose_turn", owner);
    if (is(jstr(pe, "kind"), "copy"))
        snprintf(text, sizeof text, "copying the delivery to Harlem from %s;", jstr(pe, "from"));
    else if (copy_cat)
        snprintf(text, sizeof text, "delivering order %d from %s (Copy Cat),", jint(pe, "slot", 0), jstr(pe, "lot"));
    else
        snprintf(text, sizeof text, "delivering order %d from %s;", jint(pe, "slot", 0), jstr(pe, "from"));
    unit(t, NULL, text, 3, 1);
    if (copy_cat) {
        int name = owner < SEATS ? (int)strlen(t->name[owner]) : 1;
        tb_room(&t->b, 2 + (name < 22 ? name : 22) + 12, 3, 1); /* "D Di's pizzeria;" on one line */
        put_seat(t, owner, 24);
        put(t, "'s pizzeria;");
    }
    if (json_is_true(jget(t->v, "special_sale")) && !is(jstr(pe, "kind"), "copy"))
        unit(t, NULL, "on a Special Sale (every ingredient twice);", 3, 1);
    const json_t *needs = jget(pe, "needs");
    if (json_array_size(needs)) {
        unit(t, NULL, "still to supply:", 3, 1);
        size_t i;
        const json_t *n;
        json_array_foreach(needs, i, n) {
            snprintf(text, sizeof text, "%s%s", json_string_value(n) ? json_string_value(n) : "?",
                     i + 1 < json_array_size(needs) ? "," : ";");
            unit(t, NULL, text, 3, 1);
        }
    }
    if (jint(pe, "extras", 0)) {
        snprintf(text, sizeof text, "%d more cards of any kind;", jint(pe, "extras", 0));
        unit(t, NULL, text, 3, 1);
    }
    if (jint(pe, "due", 0)) {
        snprintf(text, sizeof text, "%d space%s to pay, a card each;", jint(pe, "due", 0),
                 jint(pe, "due", 0) == 1 ? "" : "s");
        unit(t, NULL, text, 3, 1);
    }
    if (json_is_true(jget(pe, "short")))
        unit(t, NULL, "one ingredient left out (NO TIP);", 3, 1);
    if (json_is_true(jget(pe, "cheese")))
        unit(t, NULL, "with Extra Cheese;", 3, 1);
    else if (json_is_true(jget(pe, "cheese_left_out")))
        unit(t, NULL, "the order asks for Extra Cheese (NO TIP without);", 3, 1);
    unit(t, NULL, "set aside:", 3, 1);
    card_list(t, jget(pe, "cards"), false, 3);
    if (json_array_size(jget(pe, "stored"))) {
        unit(t, NULL, "and from Cold Storage:", 3, 1);
        size_t i;
        const json_t *c;
        json_array_foreach(jget(pe, "stored"), i, c) {
            short_card(t, json_string_value(c) ? json_string_value(c) : "?", card, sizeof card);
            unit(t, NULL, card, 3, 1);
        }
    }
    tb_nl(&t->b);
}

/* The view's entry of "deliveries" for a legal deliver move, or NULL: by
 * its "move" when the view gives one, else by order and village (streets). */
static const json_t *delivery_quote(const dview *t, const char *move)
{
    int slot;
    char from[8];
    bool streets = sscanf(move, "deliver %d from %7s", &slot, from) == 2 && !strstr(move, " via ");
    size_t i;
    const json_t *d;
    json_array_foreach(jget(t->v, "deliveries"), i, d) {
        const char *m = json_string_value(jget(d, "move"));
        if (m ? is(m, move) : streets && jint(d, "slot", 0) == slot && is(jstr(d, "from"), from))
            return d;
    }
    return NULL;
}

/* Is the view's delivery `d` from another player's pizzeria (Copy Cat)? */
static bool copy_cat_delivery(const dview *t, const json_t *d)
{
    return d && jint(d, "owner", t->you) != t->you;
}

/* "d 2 MT", "d 2 MT boat" for a route by boat, "d 4 MT HA" for a specialty
 * order to Harlem, "d 2 HK-2" from another player's pizzeria (Copy Cat):
 * how to type a delivery. */
static void delivery_words(const dview *t, const json_t *d, char *out, size_t n)
{
    const char *via = jstr(d, "via"), *to = jstr(d, "to");
    snprintf(out, n, "d %d %.8s%s%.8s%s%.12s", jint(d, "slot", 0), copy_cat_delivery(t, d) ? jstr(d, "lot") : jstr(d, "from"),
             *to ? " " : "", to, *via ? " " : "", via);
}

static bool order_has_tip(const dview *t, int slot)
{
    return json_is_true(jget(json_array_get(jget(t->v, "orders"), (size_t)(slot - 1)), "tip"));
}

/* Extra Cheese in a delivery's pay: "cheese" when the pizzeria's own is
 * counted, "+$1 cheese" when a cheese card at hand may earn it, "no cheese"
 * when the order asks for cheese there is none of (no tip then); short
 * forms for a narrow line. "" without Extra Cheese. */
static const char *cheese_note(const json_t *q, bool narrow, bool *tip, char *out, size_t n)
{
    int bonus = jint(q, "cheese_bonus", 0);
    out[0] = 0;
    if (!bonus)
        return out;
    if (json_is_true(jget(q, "cheese_in_pizzeria")))
        snprintf(out, n, narrow ? "c" : " cheese");
    else if (jint(q, "cheese_cards", 0))
        snprintf(out, n, narrow ? "+c" : " +$%d cheese", bonus);
    else if (json_is_true(jget(q, "cheese_required"))) {
        *tip = false;
        snprintf(out, n, narrow ? "-c" : " no cheese");
    }
    return out;
}

/* A deliver move in the table of deliveries, with its cost when quoted;
 * the move column is w wide. */
static void draw_delivery_move(dview *t, int number, const char *move, const json_t *q, int w)
{
    char text[200], cheese[24];
    if (!q) {
        snprintf(text, sizeof text, "%4d %.120s", number, move);
    } else {
        for (int narrow = 0; narrow < 2; narrow++) {
            /* the quote knows a tip lost (Onions short, Hi-Jinks), else the order's */
            const json_t *quoted = jget(q, "tip");
            bool tip = quoted ? json_is_true(quoted) : order_has_tip(t, jint(q, "slot", 0));
            cheese_note(q, narrow, &tip, cheese, sizeof cheese);
            snprintf(text, sizeof text, "%4d %-*.80s %6d %4d %4d %4d %5d  $%d%s%s", number, w < 80 ? w : 80, move,
                     jint(q, "length", 0), jint(q, "free", 0), jint(q, "distance_cards", 0),
                     jint(q, "ingredient_cards", 0), jint(q, "extra_cards", 0), jint(q, "pay", 0), tip ? "+tip" : "",
                     cheese);
            if (cols_of(text, strlen(text)) <= W(t))
                break;
        }
    }
    put(t, text);
    tb_nl(&t->b);
}

static void list_moves(dview *t)
{
    const json_t *legal = jget(t->v, "legal");
    size_t n = json_array_size(legal);
    if (t->you < 0 || t->you != t->to_move || !n)
        return;
    heading(t, "Your moves");
    if (t->layout == LAYOUT_FULL) {
        put(t, " (type the number or the move; Enter suggests one):");
        tb_nl(&t->b);
    } else { /* the first moves on the same line */
        put(t, " (number or move):");
    }
    char shown[LISTED][96];
    int listed = n < LISTED ? (int)n : LISTED, width = 0;
    for (int i = 0; i < listed; i++) {
        const char *m = json_string_value(json_array_get(legal, (size_t)i));
        short_move(t, m ? m : "?", shown[i], sizeof shown[i]);
        int w = cols_of(shown[i], strlen(shown[i]));
        if (!is(shown[i], m ? m : "") || strncmp(shown[i], "deliver ", 8) != 0)
            width = w > width ? w : width;
    }
    width += 6;
    bool header = false, cheese = false, copy_cat = false;
    /* One-word moves (end, done, market, reputation, ...) first: they shape
     * the turn, and a short screen keeps only the first lines. Numbers stay
     * those of the legal list. */
    for (int k = 0; k < 2 * listed; k++) {
        int i = k % listed;
        if (strncmp(shown[i], "deliver ", 8) == 0 || (k < listed) != !strchr(shown[i], ' '))
            continue;
        char text[112];
        snprintf(text, sizeof text, "%4d %.95s", i + 1, shown[i]);
        int at = (t->b.col + width - 1) / width * width;
        if (t->b.col && at + cols_of(text, strlen(text)) > W(t))
            tb_nl(&t->b), at = 0;
        tb_pad(&t->b, at);
        put(t, text);
    }
    if (t->b.col)
        tb_nl(&t->b);
    int move_w = 17;
    for (int i = 0; i < listed; i++)
        if (strncmp(shown[i], "deliver ", 8) == 0 && cols_of(shown[i], strlen(shown[i])) > move_w)
            move_w = cols_of(shown[i], strlen(shown[i]));
    move_w = move_w > 36 ? 36 : move_w;
    for (int i = 0; i < listed; i++) {
        if (strncmp(shown[i], "deliver ", 8) != 0)
            continue;
        if (!header) {
            char text[160];
            if (json_is_true(jget(t->v, "special_sale"))) {
                put(t, "     Special Sale: every ingredient twice, twice the money less $1, two tips");
                tb_nl(&t->b);
            }
            snprintf(text, sizeof text, "     %-*s %6s %4s %4s %4s %5s  %s", move_w, "delivery", "spaces", "free",
                     "dist", "ingr", "extra", "pays");
            put(t, text);
            tb_nl(&t->b);
            header = true;
        }
        const json_t *q = delivery_quote(t, shown[i]);
        char note[24];
        bool tip;
        cheese |= *cheese_note(q, false, &tip, note, sizeof note) != 0; /* the footnote explains it */
        copy_cat |= copy_cat_delivery(t, q);
        draw_delivery_move(t, i + 1, shown[i], q, move_w);
    }
    if (header) {
        put(t, "     (cards from your hand: dist for the spaces beyond the free range,");
        tb_nl(&t->b);
        put(t, "     ingr for the ingredients, extra for a specialty pizza's further cards)");
        tb_nl(&t->b);
        if (copy_cat) {
            put(t, "     (from a lot: another player's pizzeria, Copy Cat: its ingredients and free");
            tb_nl(&t->b);
            put(t, "     range, not its top card's power; the rest from your hand)");
            tb_nl(&t->b);
        }
        if (cheese) {
            put(t, "     (Extra Cheese: +$1 cheese (+c) if you add a cheese card, $2 on a specialty;");
            tb_nl(&t->b);
            put(t, "     cheese (c): the pizzeria's own, in pays; no cheese (-c): no tip without)");
            tb_nl(&t->b);
        }
    }
    if (!header && json_is_true(jget(t->v, "special_sale")) && is(t->phase, "start")) {
        put(t, "     Special Sale played: no delivery can be made with every ingredient twice");
        tb_nl(&t->b);
    }
    if ((int)n > listed) {
        char text[96];
        snprintf(text, sizeof text, "     ... and %d more: type them in full", (int)n - listed);
        put(t, text);
        tb_nl(&t->b);
    }
}

/* ---- What was drawn last, on a terminal ---- */

/* Per seat (and the spectator), the view last drawn and its turn: within
 * a turn a step of paying or supplying draws only what it changed, and
 * the same view drawn again (the `table` command) is drawn whole. */
static struct last_drawn {
    char *view;
    int turn, whose;
} last_drawn[SEATS + 1];

/* A step that only pays or supplies something already chosen. */
static bool micro_step(const char *phase)
{
    static const char *const phases[] = {"pay", "supply", "distance", "tip", "arrange", "trim", "tax", "discard"};
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
        if (is(phase, phases[i]))
            return true;
    return false;
}

enum redraw { DRAW_TABLE, DRAW_STEP, DRAW_WHOLE };

/* What to draw of the view on a terminal, remembering it. */
static enum redraw redraw_of(dview *t)
{
    struct last_drawn *l = &last_drawn[t->you >= 0 && t->you < SEATS ? t->you : SEATS];
    char *dump = json_dumps(t->v, JSON_COMPACT | JSON_SORT_KEYS);
    int turn = jint(t->v, "turn", 0), whose = jint(t->v, "whose_turn", t->to_move);
    enum redraw r = DRAW_TABLE;
    if (dump && l->view && is(dump, l->view))
        r = DRAW_WHOLE;
    else if (l->view && micro_step(t->phase) && l->turn == turn && l->whose == whose)
        r = DRAW_STEP;
    free(l->view);
    l->view = dump;
    l->turn = turn, l->whose = whose;
    return r;
}


/* Lines kept free on a terminal above the table: the blank line before it,
 * a turn's banner and the last moves logged (a move and two lines of news). */
#define LOG_ROOM(t) ((t)->layout == LAYOUT_WIDE ? 5 : 4)

/* Lines the list of moves may take on this screen: what the table and the
 * prompt leave of it, with room for the log and the input line. */
static int moves_room(const dview *t, const json_t *view, const pb_tui_opts *o)
{
    if (t->layout == LAYOUT_FULL)
        return 1 << 20;
    char *prompt = dlv_tui_prompt(view, o);
    int room = t->screen_rows - lines_of(t->b.s) - lines_of(prompt) - 1 - LOG_ROOM(t);
    free(prompt);
    return room;
}

/* Your money and hand, what is left of them while a step spends them. */
static void draw_purse(dview *t)
{
    const json_t *me = json_array_get(jget(t->v, "players"), (size_t)t->you);
    char text[64];
    json_t *hand = your_hand_left(t);
    const json_t *team = jget(t->v, "coop"); /* in co-op the team's money is the only money */
    snprintf(text, sizeof text, "You have $%d; your hand (%d):", money_left(t, t->you, team ? team : me),
             count_cards(hand));
    put(t, text);
    card_list(t, hand, false, 3);
    json_decref(hand);
    tb_nl(&t->b);
}

/* Your moves in at most `room` lines: those beyond are left to `table`. */
static void draw_moves(dview *t, int room)
{
    size_t start = t->b.len;
    if (t->layout != LAYOUT_FULL && json_array_size(jget(t->v, "keep_from")))
        return; /* the two cards dealt, numbered above, are the moves */
    list_moves(t);
    if (t->b.oom || lines_of(t->b.s + start) <= room)
        return;
    size_t cut = start;
    for (int k = 0; k < (room > 2 ? room : 2) - 1; k++)
        cut += strcspn(t->b.s + cut, "\n") + 1;
    if (cut >= t->b.len)
        return; /* nothing would be left out */
    t->b.len = cut;
    t->b.s[cut] = 0;
    t->b.col = 0;
    t->moves_cut = true;
    put(t, "     ... and more: type table to list every move");
    tb_nl(&t->b);
}

static void draw_table(dview *t, enum redraw r, const json_t *view, const pb_tui_opts *o);

char *dlv_tui_table(const json_t *view, const pb_tui_opts *o)
{
    dview *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    dview_init(t, view, o, true);
    enum redraw r = t->layout == LAYOUT_FULL ? DRAW_TABLE : redraw_of(t);
    if (r == DRAW_WHOLE) { /* asked for again: everything, as a log has it */
        t->layout = LAYOUT_FULL;
        t->b.width = TB_WIDTH;
    }
    t->rivals = t->layout == LAYOUT_WIDE;
    draw_table(t, r, view, o);
    /* too tall: again without the others' pizzerias (they never cut the
     * moves short), then with the players in short lines */
    while (t->layout != LAYOUT_FULL && !t->tight && ((t->rivals && t->moves_cut) || moves_room(t, view, o) < 0) &&
           !t->b.oom) {
        free(t->b.s);
        t->b.s = NULL;
        t->b.len = t->b.cap = 0;
        t->b.col = 0;
        t->moves_cut = false;
        t->tight = !t->rivals;
        t->rivals = false;
        draw_table(t, r, view, o);
    }
    char *text = tb_done(&t->b);
    free(t);
    return text;
}

static void draw_table(dview *t, enum redraw r, const json_t *view, const pb_tui_opts *o)
{
    bool full = t->layout == LAYOUT_FULL, yours = t->you >= 0 && t->you == t->to_move;
    if (r == DRAW_STEP) { /* the table stands: what the step changed */
        tb_nl(&t->b);
        draw_pending(t);
        draw_purse(t);
    } else {
        draw_header(t);
        draw_team(t);
        if (full)
            tb_nl(&t->b);
        if (t->layout != LAYOUT_SHORT)
            draw_map(t);
        if (full)
            tb_nl(&t->b);
        if (t->layout != LAYOUT_WIDE)
            draw_orders(t, 0);
        if (!t->market_beside && !(t->tight && is(t->phase, "keep"))) /* a tight setup: the cards dealt */
            draw_market(t, 0);
        if (full)
            tb_nl(&t->b);
        if (!(t->tight && is(t->phase, "keep"))) /* at setup everyone has the same */
            draw_players(t);
        if (full)
            tb_nl(&t->b);
        draw_hand(t);
        draw_pending(t);
        if (full && yours && json_array_size(jget(view, "legal")))
            tb_nl(&t->b);
    }
    draw_moves(t, moves_room(t, view, o));
}

/* ---- Prompt ---- */

static const char *waiting_for(const char *phase)
{
    static const char *const words[][2] = {
        {"keep", "to keep a power card"},         {"start", "to choose an action"},
        {"market", "to take market cards"},       {"reputation", "to build or upgrade"},
        {"pay", "to pay for a property"},         {"supply", "to supply the ingredients"},
        {"distance", "to pay for the distance"},  {"tip", "to choose a tip token (Ham)"},
        {"arrange", "to put the other tip tokens back (Ham)"},
        {"bonus", "to take a market card"},       {"after", "to end the turn"},
        {"discard", "to discard down to the hand limit"},
        {"fine", "to pay a Health Inspector's fine"},
        {"block", "to reserve lots"},
        {"farm", "to take a card from the sewer"},
        {"copy", "to copy a delivery to Harlem or not (Harlem Rotary Pizzeria)"},
        {"orders", "to change the orders (Hacker, Order Screw Up, System Error)"},
        {"spot", "to put a disk on a delivery zone (That's My Spot)"},
        {"charity", "to give two cards (Charity Event)"},
        {"crash", "to lose a reputation level (Stock Market Crash)"},
        {"soars", "to take two cards (Stock Market Soars)"},
        {"transfer", "to pass cards to the neighbours (Transfer Goods)"},
        {"instant", "to answer with an Instant card"},
        {"tax", "to pay Property Tax"},
        {"trim", "to bring a pizzeria back to its reputation limit"},
        {"promotion", "to time a back-side promotion pizza (morning or evening)"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is(phase, words[i][0]))
            return words[i][1];
    return "to move";
}

/* Insane or Easier: the token just placed (its colour and day) and the
 * question of its back-side pizza's time. */
static void promotion_prompt(const dview *t, char *out, size_t n)
{
    const json_t *c = jget(t->v, "coop"), *p, *token = NULL;
    size_t i;
    json_array_foreach(jget(c, "promotions"), i, p)
        if (json_is_true(jget(p, "choosing")))
            token = p;
    bool insane = json_is_true(jget(jget(c, "options"), "insane"));
    snprintf(out, n, "The %s promotion token went on %s%s: %s pizza comes that day in the \"morning\" (the start "
             "of its turn) or the \"evening\" (its end). Choose.", token ? jstr(token, "colour") : "new",
             token ? jstr(token, "day") : "the week",
             insane ? " with Insane's back-side token" : ", back side up (Easier)", insane ? "its one more" : "its one");
}

/* The first legal move starting with `verb ` (or being it), written short;
 * "" when there is none. */
static void first_legal(const dview *t, const char *verb, char *out, size_t n)
{
    size_t i, len = strlen(verb);
    const json_t *m;
    out[0] = 0;
    json_array_foreach(jget(t->v, "legal"), i, m) {
        const char *s = json_string_value(m);
        if (s && strncmp(s, verb, len) == 0 && (s[len] == ' ' || !s[len])) {
            short_move(t, s, out, n);
            return;
        }
    }
}

static bool legal_has(const dview *t, const char *verb)
{
    char first[96];
    first_legal(t, verb, first, sizeof first);
    return *first != 0;
}

/* A power card played on an opponent (Out of Supplies, Property Tax) among
 * the legal moves: a note on how its target is typed, with what Property
 * Tax would take from each; "" when there is none. */
static const char *targeted_play(const dview *t, char *out, size_t n)
{
    size_t i, len;
    const json_t *m;
    out[0] = 0;
    json_array_foreach(jget(t->v, "legal"), i, m) {
        const char *s = json_string_value(m);
        int target;
        if (!s || strncmp(s, "play ", 5) != 0 || !strstr(s, " on "))
            continue;
        if (!*out)
            snprintf(out, n, "; one played on an opponent names them by number or letter (\"play power:ID on B\")");
        if (sscanf(s, "play power:property-tax on %d", &target) == 1 && (len = strlen(out)) + 40 < n) {
            char who[64];
            seat_words(t, target - 1, who, sizeof who);
            snprintf(out + len, n - len, "; Property Tax on %d: %s pays $%d", target, who, property_tax(t, target - 1));
        }
    }
    return out;
}

/* Bait and Switch in play and not used this turn: a note on its swap, "" without. */
static const char *swap_note(const dview *t)
{
    return legal_has(t, "swap") ? "; Bait and Switch swaps a hand card for an order's top card of the same "
                                  "ingredient, once a turn (\"swap ORDER CARD\")"
                                : "";
}

enum { WAY_MONEY = 1, WAY_CARD = 2, WAY_POWER = 4 };

/* How the legal moves `verb ...` pay: in money, with a market card, with a
 * power card (a bit each, by the first thing they give). */
static unsigned pay_ways(const dview *t, const char *verb)
{
    unsigned ways = 0;
    size_t i, len = strlen(verb);
    const json_t *m;
    json_array_foreach(jget(t->v, "legal"), i, m) {
        const char *s = json_string_value(m);
        if (!s || strncmp(s, verb, len) != 0 || s[len] != ' ')
            continue;
        s += len + 1;
        ways |= *s == '$' ? WAY_MONEY : strncmp(s, "power:", 6) == 0 ? WAY_POWER : WAY_CARD;
    }
    return ways;
}

/* Instant cards: the delivery they answer, each card the seat can play on
 * it with what it does, typed as the legal moves write it, or "done". */
static void instant_prompt(const dview *t, char *out, size_t n)
{
    char delivery[96], cards[640] = "", targets[400] = "", target_card[WORD_LEN] = "";
    instant_delivery(t, delivery, sizeof delivery);
    int tips = jint(jget(t->v, "instant"), "tips", 0);
    size_t i, len;
    const json_t *m;
    json_array_foreach(jget(t->v, "legal"), i, m) {
        char id[WORD_LEN], who[64];
        int target = 0;
        if (sscanf(json_string_value(m) ? json_string_value(m) : "", "instant power:%63s on %d", id, &target) < 1)
            continue;
        if (target > 0) { /* on an opponent (Property Tax): one move each */
            seat_words(t, target - 1, who, sizeof who);
            snprintf(target_card, sizeof target_card, "%s", id);
            len = strlen(targets);
            if (is(id, "property-tax"))
                snprintf(targets + len, sizeof targets - len, "%son %d, %s pays $%d", len ? "; " : "", target, who,
                         property_tax(t, target - 1));
            else
                snprintf(targets + len, sizeof targets - len, "%son %d, %s", len ? "; " : "", target, who);
            continue;
        }
        len = strlen(cards);
        snprintf(cards + len, sizeof cards - len, "\"instant power:%s\" (%s: %s %s back face down); ", id,
                 power_name(t, id), tips == 1 ? "its tip token goes" : "its tip tokens go",
                 tips == 1 ? "" : "both");
    }
    if (*target_card) {
        len = strlen(cards);
        snprintf(cards + len, sizeof cards - len, "%s on a player, \"instant power:%s on N\" (%s); ",
                 power_name(t, target_card), target_card, targets);
    }
    if (*cards)
        snprintf(out, n, "Instant cards: %s is complete, and you may answer it: %sor \"done\" to play none.",
                 delivery, cards);
    else /* asked like every holder of a power card, so that nobody learns who has none */
        snprintf(out, n, "Instant cards: %s is complete. You have no Instant card to play on it: \"done\" lets "
                 "it go (every player holding a power card is asked alike).", delivery);
}

/* Out of Supplies: what the seat owes before it may deliver, and how it
 * can pay it now ("" when it owes nothing). */
static void supplies_prompt(const dview *t, char *out, size_t n)
{
    int due = jint(json_array_get(jget(t->v, "players"), (size_t)t->you), "supplies_due", 0);
    unsigned ways = pay_ways(t, "supplies");
    out[0] = 0;
    if (!due)
        return;
    snprintf(out, n, "Out of Supplies: you owe $%d and may not deliver until it is paid%s%s%s%s. ", due,
             ways ? " (paying is not your action): " : "; you cannot pay it now",
             ways & WAY_MONEY ? "\"supplies $2\"" : "", ways & WAY_MONEY && ways & ~WAY_MONEY ? " or " : "",
             ways & ~WAY_MONEY ? "two cards, \"supplies CARD CARD\" (power cards too)" : "");
}

/* Property Tax: what is still due, and the ways to pay it listed now. */
static void tax_prompt(const dview *t, char *out, size_t n)
{
    char when[112];
    unsigned ways = pay_ways(t, "pay");
    if (json_is_object(jget(t->v, "instant"))) {
        char delivery[96];
        instant_delivery(t, delivery, sizeof delivery);
        snprintf(when, sizeof when, "after %s", delivery);
    } else {
        char who[64];
        seat_words(t, jint(t->v, "whose_turn", -1), who, sizeof who);
        snprintf(when, sizeof when, "by %s on their turn", who);
    }
    snprintf(out, n, "Property Tax was played on you %s: $%d still to pay, a dollar or a card at a time: "
             "%s%s%sseveral at once (\"pay $2 CARD\"), or just \"pay\" for the first way listed.", when, jint(jget(t->v, "tax"), "due", 0),
             ways & WAY_MONEY ? "\"pay $1\", " : "", ways & WAY_CARD ? "\"pay CARD\", " : "",
             ways & WAY_POWER ? "\"pay power:ID\", " : "");
}

/* "order 1 $3, order 2 $0, order 4 $5": the tip tokens the seat has
 * looked at (Ham), but for order `except`'s. */
static const char *tip_values(const dview *t, int except, char *out, size_t n)
{
    size_t i, len = 0;
    const json_t *o;
    out[0] = 0;
    json_array_foreach(jget(t->v, "orders"), i, o) {
        if ((int)i + 1 == except || !json_is_integer(jget(o, "tip_value")))
            continue;
        int wrote = snprintf(out + len, n - len, "%sorder %d $%d", len ? ", " : "", (int)i + 1, jint(o, "tip_value", 0));
        if (wrote > 0 && (size_t)wrote < n - len)
            len += (size_t)wrote;
    }
    return len ? out : "none seen";
}

/* Ham: the token kept, and how to put the others back. */
static void arrange_prompt(const dview *t, char *out, size_t n)
{
    const json_t *ham = jget(jget(t->v, "pending"), "ham"), *places = jget(ham, "places");
    char orders[64] = "";
    size_t i, len;
    const json_t *p;
    json_array_foreach(places, i, p) {
        len = strlen(orders);
        snprintf(orders + len, sizeof orders - len, "%s%d", i == 0 ? "" : i + 1 < json_array_size(places) ? ", " : " and ",
                 (int)json_integer_value(p));
    }
    char values[160];
    snprintf(out, n, "Ham: you keep order %d's token ($%d). Put the others (%s) back on orders %s, in the order you "
             "like (only you see their values): \"arrange %d:$V ...\", each order with the value it gets (\"-\": none, "
             "when one is left without), or a number from the list.", jint(ham, "kept_from", 0), jint(ham, "value", 0),
             tip_values(t, jint(ham, "kept_from", 0), values, sizeof values), orders,
             (int)json_integer_value(json_array_get(places, 0)));
}

char *dlv_tui_prompt(const json_t *view, const pb_tui_opts *o)
{
    dview *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    dview_init(t, view, o, false);
    const char *phase = t->phase;
    char text[1200], example[112], first[96], what[1024], owed[240], targets[400];
    if (is(phase, "over")) {
        tb_raw(&t->b, "", 0); /* nothing to ask: an empty text, not NULL */
    } else if (t->you < 0 || t->you != t->to_move) {
        put(t, "Waiting for ");
        put_seat(t, t->to_move, 30);
        snprintf(text, sizeof text, " %s.", waiting_for(phase));
        put(t, text);
        tb_nl(&t->b);
    } else {
        const json_t *legal = jget(view, "legal"), *pe = jget(view, "pending");
        const char *m0 = json_string_value(json_array_get(legal, 0));
        short_move(t, m0 ? m0 : "", example, sizeof example);
        if (is(phase, "keep")) {
            snprintf(what, sizeof what, "Keep one of the two power cards dealt to you (1 or 2); the other goes back%s",
                     t->layout != LAYOUT_FULL ? "." : " into the power deck. Type keep 1, keep 2, or the move.");
            snprintf(example, sizeof example, "keep 1");
        } else if (is(phase, "start") && json_is_true(jget(jget(view, "coop"), "first_round")) &&
                   json_array_size(legal) == 1 && is(m0 ? m0 : "", "reputation")) {
            snprintf(what, sizeof what, "First round of the co-op game: everyone's action is a build (\"r\"), "
                     "and the property is free.");
        } else if (is(phase, "start")) {
            const json_t *d = json_array_get(jget(view, "deliveries"), 0);
            if (d)
                delivery_words(t, d, example, sizeof example);
            first_legal(t, "play", first, sizeof first);
            bool copy_cat = false;
            size_t i;
            const json_t *q;
            json_array_foreach(jget(view, "deliveries"), i, q)
                copy_cat |= copy_cat_delivery(t, q);
            supplies_prompt(t, owed, sizeof owed);
            if (t->layout != LAYOUT_FULL && !*owed && !copy_cat && !*targeted_play(t, targets, sizeof targets) &&
                !*swap_note(t) && !json_is_true(jget(view, "special_sale")))
                snprintf(what, sizeof what, "One action: \"m\" market, \"r\" build or upgrade, \"d ORDER VILLAGE\" "
                         "deliver%s.", *first ? "; a power card may come first" : "");
            else
            snprintf(what, sizeof what, "%sYour turn, one action: \"m\" goes to market (2 cards), \"r\" builds or "
                     "upgrades (2 steps), \"d ORDER VILLAGE\" delivers an order from your pizzeria in that "
                     "village%s%s%s%s. %sType the move or its number in the list.", owed,
                     copy_cat ? " (\"d ORDER LOT\" from another player's, Copy Cat)" : "",
                     *first ? "; a power card may come first (\"play power:ID\")" : "",
                     targeted_play(t, targets, sizeof targets), swap_note(t),
                     json_is_true(jget(view, "special_sale"))
                         ? "Special Sale: this turn's delivery needs every ingredient twice and pays twice its money "
                           "less $1, with two tips. "
                         : "");
        } else if (is(phase, "market") || is(phase, "bonus") || is(phase, "soars")) {
            if (json_array_size(jget(view, "open")))
                snprintf(example, sizeof example, "take 1");
            snprintf(what, sizeof what, "%s: \"take N\" takes the N-th card of the open market, \"take deck\" the "
                     "top card of the market deck.",
                     is(phase, "bonus")   ? "Take a bonus card (Meatballs, East Village Mogul, Bonus Supplies)"
                     : is(phase, "soars") ? "Stock Market Soars: take two cards"
                                          : "Take a card");
        } else if (is(phase, "reputation") && t->layout != LAYOUT_FULL) {
            first_legal(t, "done", first, sizeof first);
            snprintf(what, sizeof what, "Build or upgrade: \"build LOT CARD\", \"upgrade VILLAGE CARD disk|add|top\"%s "
                     "(rules reputation).", *first ? ", \"done\"" : "");
        } else if (is(phase, "reputation")) {
            first_legal(t, "done", first, sizeof first);
            snprintf(what, sizeof what, "Build or upgrade: \"build LOT CARD\" (a card of that village; then you pay "
                     "the lot's price), \"upgrade VILLAGE CARD disk|add|top\" (\"... disk|add top INGREDIENT\" puts "
                     "another card of the pizzeria on top; at the limit what is over goes back)%s, or a number from "
                     "the list.",
                     *first ? ", \"done\" to stop after one step" : "");
        } else if (is(phase, "trim")) {
            snprintf(what, sizeof what, "The upgrade left your pizzeria in %s over its reputation limit by %d: remove a "
                     "disk (\"remove %s disk\", back to your supply) or a card below the top (\"remove %s CARD\", to "
                     "the sewer), one at a time.", jstr(pe, "village"), jint(pe, "due", 0), jstr(pe, "village"),
                     jstr(pe, "village"));
        } else if (is(phase, "pay")) {
            snprintf(what, sizeof what, "Pay for %s: $%d still due, a dollar or a card at a time: \"pay $1\", "
                     "\"pay CARD\", several at once (\"pay $2 CARD\"), or just \"pay\" for the first way listed.",
                     jstr(pe, "lot"), jint(pe, "due", 0));
        } else if (is(phase, "supply")) {
            const json_t *needs = jget(pe, "needs");
            const char *need = json_string_value(json_array_get(needs, 0));
            first_legal(t, "short", first, sizeof first);
            bool stored = legal_has(t, "use stored");
            if (need)
                snprintf(what, sizeof what, "Supply %s from your hand: \"use CARD\"%s%s.", need,
                         stored ? ", or from Cold Storage: \"use stored CARD\"" : "",
                         *first ? ", or \"short\" to leave it out and take NO TIP" : "");
            else if (jint(pe, "extras", 0))
                snprintf(what, sizeof what, "The specialty pizza takes %d more card%s of any kind: \"use CARD\", "
                         "or a power card, \"use power:ID\".",
                         jint(pe, "extras", 0), jint(pe, "extras", 0) == 1 ? "" : "s");
            else if (legal_has(t, "cheese"))
                snprintf(what, sizeof what, "Extra Cheese: a cheese card on the pizza earns $1 more ($2 on a specialty "
                         "pizza): \"cheese CARD\"%s, or \"done\" to leave it off%s.",
                         legal_has(t, "cheese stored") ? ", from Cold Storage \"cheese stored CARD\"" : "",
                         json_is_true(jget(pe, "cheese_left_out")) ? " (the order asks for cheese: without it, NO TIP)"
                                                                    : "");
            else
                snprintf(what, sizeof what, "Sausage: one more card of an ingredient the order needs earns $1 more: "
                         "\"extra CARD\", or \"done\".");
        } else if (is(phase, "distance")) {
            snprintf(what, sizeof what, "%d space%s beyond the free range: a card for each, \"pay CARD\" (or just "
                     "\"pay\" for the first listed).", jint(pe, "due", 0), jint(pe, "due", 0) == 1 ? "" : "s");
        } else if (is(phase, "copy")) {
            first_legal(t, "copy", first, sizeof first);
            snprintf(what, sizeof what, "Harlem Rotary Pizzeria: copy it from one of your pizzerias, paid as "
                     "your own delivery to Harlem, for the same money, a random tip and a power card: %s\"done\" "
                     "lets it go.",
                     *first ? "\"copy from VILLAGE\", or " : "you cannot make it now; ");
        } else if (is(phase, "crash")) {
            snprintf(what, sizeof what, "Stock Market Crash: one of your pizzerias loses a level: \"lose VILLAGE disk\" "
                     "or \"lose VILLAGE N\" (its N-th card, from the bottom). A pizzeria left without disks or cards "
                     "closes until an upgrade reopens it.");
        } else if (is(phase, "charity")) {
            snprintf(what, sizeof what, "Charity Event: give two market cards from your hand, \"give CARD CARD\", "
                     "or a number from the list.");
        } else if (is(phase, "spot")) {
            snprintf(what, sizeof what, "That's My Spot: put one of your disks on a delivery zone, \"spot VILLAGE\": "
                     "others delivering there pay you $1, your own deliveries there earn $1 more.");
        } else if (is(phase, "orders")) {
            snprintf(what, sizeof what, "Change the orders (cards are ORDER.CARD, counted from the first): "
                     "\"hack 2.3 CARD\" puts a hand card in place of one (Hacker), \"screw 1.2 3.1\" swaps two "
                     "(Order Screw Up), \"reorder 2.1\" puts that card last (System Error); the last card names "
                     "the village. \"done\" changes nothing.");
        } else if (is(phase, "transfer")) {
            snprintf(what, sizeof what, "Transfer Goods: before your turn ends, pass up to two cards (power cards "
                     "too) to your neighbours: \"pass CARD left\" to the next player, \"pass CARD right\" to the one "
                     "before; \"end\" passes no more.");
        } else if (is(phase, "promotion")) {
            promotion_prompt(t, what, sizeof what);
        } else if (is(phase, "tip")) {
            char values[160];
            snprintf(what, sizeof what, "Ham: you look at the tip tokens on the orders: %s. Keep one, \"tip N\" "
                     "(order N's), then put the others back in the order you like.",
                     tip_values(t, -1, values, sizeof values));
        } else if (is(phase, "arrange")) {
            arrange_prompt(t, what, sizeof what);
        } else if (is(phase, "discard")) {
            snprintf(what, sizeof what, "Your hand is over the limit of %d cards: \"discard CARD\", or several at once "
                     "(\"discard CARD CARD\").", PD_HAND_LIMIT);
        } else if (is(phase, "fine")) {
            snprintf(what, sizeof what, "A Health Inspector came (%d of %d): pay $2 (\"fine $2\") or two cards "
                     "(\"fine CARD CARD\").", jint(view, "inspectors", 0), PD_INSPECTORS_TO_END);
        } else if (is(phase, "instant")) {
            instant_prompt(t, what, sizeof what);
        } else if (is(phase, "tax")) {
            tax_prompt(t, what, sizeof what);
        } else if (is(phase, "after")) {
            snprintf(what, sizeof what, "Your action is done: \"end\" ends the turn%s%s%s%s.",
                     legal_has(t, "play") ? ", or play a power card now (\"play power:ID\")" : "",
                     targeted_play(t, targets, sizeof targets),
                     legal_has(t, "refill") ? ", or refill Cold Storage for a hand card (\"refill CARD\")" : "",
                     swap_note(t));
        } else {
            snprintf(what, sizeof what, "Your move: a number from the list, or the move.");
        }
        snprintf(text, sizeof text, "%s For example: \"%s\".", what, example);
        tb_para(&t->b, text, 0);
        tb_nl(&t->b);
    }
    char *out = tb_done(&t->b);
    free(t);
    return out;
}

/* ---- The banner ---- */

char *dlv_tui_banner(const json_t *view, const pb_tui_opts *o)
{
    if (is(jstr(view, "phase"), "over") || !json_is_integer(jget(view, "to_move")))
        return NULL;
    dview *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    dview_init(t, view, o, false);
    char text[160];
    if (t->layout == LAYOUT_FULL)
        tb_nl(&t->b);
    if (is(t->phase, "keep")) {
        heading(t, "== Setup: ");
        put(t, "each player keeps one of two power cards, from ");
        put_seat(t, jint(view, "first", 0), 24);
        put(t, " on.");
    } else {
        snprintf(text, sizeof text, "== Turn %d: ", jint(view, "turn", 0) + 1);
        heading(t, text);
        put_seat(t, t->to_move, 24);
        snprintf(text, sizeof text, " to move. Health Inspectors drawn: %d of %d.", jint(view, "inspectors", 0),
                 PD_INSPECTORS_TO_END);
        tb_para(&t->b, text, 3);
    }
    tb_nl(&t->b);
    char *out = tb_done(&t->b);
    free(t);
    return out;
}

/* ---- Input ---- */

/* A word as matching sees it: lower case; a card as code/ingredient. */
static void canon(const dview *t, const char *w, char *out, size_t n)
{
    const char *slash = strchr(w, '/');
    int v = slash ? village_of(t, w, (size_t)(slash - w)) : -1;
    size_t k = 0;
    if (v >= 0) {
        k = (size_t)snprintf(out, n, "%s/", t->village[v].code);
        for (const char *s = slash + 1; *s && k + 1 < n; s++)
            if (isalnum((unsigned char)*s))
                out[k++] = *s;
        out[k < n ? k : n - 1] = 0;
    } else {
        snprintf(out, n, "%s", w);
    }
    for (char *s = out; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

typedef struct words {
    int n;
    char w[WORDS][WORD_LEN];
} words;

static void split(const dview *t, const char *text, words *ws, bool canonical)
{
    ws->n = 0;
    for (const char *s = text; *s && ws->n < WORDS;) {
        s += strspn(s, " \t");
        size_t len = strcspn(s, " \t");
        if (!len)
            break;
        char word[WORD_LEN];
        snprintf(word, sizeof word, "%.*s", (int)(len < WORD_LEN - 1 ? len : WORD_LEN - 1), s);
        if (canonical)
            canon(t, word, ws->w[ws->n], WORD_LEN);
        else
            snprintf(ws->w[ws->n], WORD_LEN, "%s", word);
        ws->n++;
        s += len;
    }
}

static bool digits(const char *w)
{
    return *w && strspn(w, "0123456789") == strlen(w) && strlen(w) < 6;
}

/* The first n words of a legal move and of what was typed read the same;
 * a power card may be typed without "power:" ("play out-of-supplies"). */
static bool words_match(const words *have, const words *want, int n)
{
    for (int k = 0; k < n; k++)
        if (k >= have->n || k >= want->n ||
            !(is(have->w[k], want->w[k]) ||
              (strncmp(have->w[k], "power:", 6) == 0 && is(have->w[k] + 6, want->w[k]))))
            return false;
    return true;
}

/* "on 3" or "on c": the player a power card is played on, by seat number
 * or letter, written as the notation has it (the number); -1 naming the
 * problem with a seat that is not an opponent. */
static int read_target(const dview *t, char *w, char *err, size_t errlen)
{
    int s = strlen(w) == 1 && isalpha((unsigned char)*w) ? tolower((unsigned char)*w) - 'a' : digits(w) ? atoi(w) - 1 : -2;
    char last = seat_letter(t->players - 1);
    if (s == -2)
        snprintf(err, errlen, "\"on %.20s\": name the player by letter (A to %c) or seat number (1 to %d)", w, last,
                 t->players);
    else if (s < 0 || s >= t->players)
        snprintf(err, errlen, "there is no player %c%.20s: the players are A to %c (seats 1 to %d)",
                 isalpha((unsigned char)*w) ? toupper((unsigned char)*w) : *w, w + 1, last, t->players);
    else if (s == jint(t->v, "seat", -1))
        snprintf(err, errlen, "%c is you: the card is played on an opponent", seat_letter(s));
    else {
        snprintf(w, WORD_LEN, "%d", s + 1);
        return 0;
    }
    return -1;
}

/* The players the legal moves beginning with the first n typed words play
 * a card on, "B (2), C (3)"; how many. */
static int targets_of(const dview *t, const words *want, int n, char *out, size_t size)
{
    size_t i, len = 0;
    int count = 0;
    const json_t *m;
    out[0] = 0;
    json_array_foreach(jget(t->v, "legal"), i, m) {
        words have;
        split(t, json_string_value(m) ? json_string_value(m) : "", &have, true);
        if (have.n != n + 2 || !is(have.w[n], "on") || !words_match(&have, want, n) || !digits(have.w[n + 1]))
            continue;
        int s = atoi(have.w[n + 1]) - 1;
        int wrote = snprintf(out + len, size - len, "%s%c (%d)", count ? ", " : "", seat_letter(s), s + 1);
        if (wrote > 0 && (size_t)wrote < size - len)
            len += (size_t)wrote;
        count++;
    }
    return count;
}

static void join(const words *ws, char *out, size_t n)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < ws->n; i++) {
        int wrote = snprintf(out + used, n - used, "%s%s", i ? " " : "", ws->w[i]);
        if (wrote < 0 || (size_t)wrote >= n - used)
            return;
        used += (size_t)wrote;
    }
}

/* A word of the notation's own that is no card, village or lot: read in
 * any case, written in lower case. */
static bool keyword(const char *w)
{
    static const char *const kw[] = {"from", "via",  "to",     "on",   "deck", "d",   "red", "blue", "subway",
                                     "boat", "park", "stored", "disk", "add",  "top", "left", "right"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strcasecmp(w, kw[i]) == 0)
            return true;
    return false;
}

/* Does a word begin a move of the notation (games/delivery/notation.c)? */
static bool notation_verb(const char *w)
{
    static const char *const verbs[] = {"arrange", "block",   "build", "cheese",  "copy",     "deliver", "discard",
                                        "done",    "end",     "extra", "farm",    "fine",     "give",    "hack",
                                        "instant", "keep",    "lose",  "market",  "pass",     "pay",     "play",
                                        "refill",  "remove",  "reorder", "reputation", "screw", "short",  "spot",
                                        "supplies", "swap",   "take",  "tip",     "upgrade",  "use"};
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (is(w, verbs[i]))
            return true;
    return false;
}

int dlv_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen)
{
    dview *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    dview_init(t, view, NULL, false);
    const json_t *legal = jget(view, "legal");
    int nlegal = (int)json_array_size(legal), rc = 0;
    words in;
    split(t, line, &in, false);
    char text[512];
    /* the verb and the notation's own words in lower case; cards, villages
     * and lots as typed, so that a refusal quotes them as the player wrote
     * them (the notation reads any case) */
    for (int i = 0; i < in.n; i++)
        if (i == 0 || keyword(in.w[i]))
            for (char *s = in.w[i]; *s; s++)
                *s = (char)tolower((unsigned char)*s);
    /* keep 1, keep 2 (or 1, 2): the power cards dealt, as numbered */
    const json_t *dealt = jget(view, "keep_from");
    if (json_array_size(dealt) && (in.n == 1 || (in.n == 2 && is(in.w[0], "keep"))) && digits(in.w[in.n - 1])) {
        int k = atoi(in.w[in.n - 1]);
        if (k < 1 || k > (int)json_array_size(dealt)) {
            snprintf(err, errlen, "there is no power card %d: keep 1 or keep 2, as numbered", k);
            rc = -1;
        } else {
            snprintf(out, n, "keep power:%s", json_string_value(json_array_get(dealt, (size_t)k - 1)));
        }
        free(t);
        return rc;
    }
    /* a number from the list of moves */
    if (in.n == 1 && digits(in.w[0]) && nlegal) {
        int k = atoi(in.w[0]), listed = nlegal < LISTED ? nlegal : LISTED;
        if (k < 1 || k > listed) {
            snprintf(err, errlen, "there is no move %d: the list goes from 1 to %d", k, listed);
            rc = -1;
        } else {
            snprintf(out, n, "%s", json_string_value(json_array_get(legal, (size_t)k - 1)));
        }
        free(t);
        return rc;
    }
    /* short words */
    static const char *const abbrev[][2] = {{"m", "market"}, {"r", "reputation"}, {"rep", "reputation"},
                                            {"d", "deliver"}, {"t", "take"},        {"b", "build"},
                                            {"u", "upgrade"}, {"e", "end"},         {"deck", "take"}};
    if (in.n >= 1)
        for (size_t i = 0; i < sizeof abbrev / sizeof abbrev[0]; i++)
            if (is(in.w[0], abbrev[i][0])) {
                if (is(in.w[0], "deck") && in.n == 1) {
                    snprintf(in.w[0], WORD_LEN, "take");
                    snprintf(in.w[1], WORD_LEN, "deck");
                    in.n = 2;
                } else if (!is(in.w[0], "deck")) {
                    snprintf(in.w[0], WORD_LEN, "%s", abbrev[i][1]);
                }
                break;
            }
    /* deliver 2 MT -> deliver 2 from MT */
    if (in.n >= 3 && is(in.w[0], "deliver") && digits(in.w[1]) && !is(in.w[2], "from") && in.n < WORDS) {
        memmove(in.w[3], in.w[2], sizeof in.w[0] * (size_t)(in.n - 2));
        snprintf(in.w[2], WORD_LEN, "from");
        in.n++;
    }
    /* deliver 2 from MT red -> ... via red; deliver 4 from MT HA -> ... to HA */
    static const char *const routes[] = {"red", "blue", "subway", "boat", "park"};
    for (int at = 4; at < in.n && in.n < WORDS && is(in.w[0], "deliver") && is(in.w[2], "from"); at++) {
        bool route = false;
        for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
            route |= is(in.w[at], routes[i]);
        if (is(in.w[at - 1], "via") || is(in.w[at - 1], "to") || is(in.w[at], "via") || is(in.w[at], "to") ||
            (!route && at != 4))
            continue;
        memmove(in.w[at + 1], in.w[at], sizeof in.w[0] * (size_t)(in.n - at));
        snprintf(in.w[at], WORD_LEN, route ? "via" : "to");
        in.n++;
    }
    /* take 3: the open market's 3rd card as listed; take d: the deck */
    if (in.n == 2 && is(in.w[0], "take")) {
        const json_t *open = jget(view, "open");
        if (is(in.w[1], "d"))
            snprintf(in.w[1], WORD_LEN, "deck");
        else if (digits(in.w[1])) {
            int k = atoi(in.w[1]);
            if (k < 1 || k > (int)json_array_size(open)) {
                snprintf(err, errlen, "the open market lists %d card%s: take 1 to take %d, or take deck",
                         (int)json_array_size(open), json_array_size(open) == 1 ? "" : "s",
                         (int)json_array_size(open));
                free(t);
                return -1;
            }
            short_card(t, jstr(json_array_get(open, (size_t)k - 1), "card"), in.w[1], WORD_LEN);
        }
    }
    /* play CARD on 3, on C: the player by seat number or letter */
    bool targeted = in.n >= 3 && (is(in.w[0], "play") || is(in.w[0], "instant")) && is(in.w[in.n - 2], "on");
    if (targeted && read_target(t, in.w[in.n - 1], err, errlen) != 0) {
        free(t);
        return -1;
    }
    join(&in, text, sizeof text);
    /* a build or an upgrade is the reputation action's step, not an action */
    if (in.n && (is(in.w[0], "build") || is(in.w[0], "upgrade")) && is(t->phase, "start") &&
        legal_has(t, "reputation")) {
        snprintf(err, errlen, "\"%.40s\": %s is a step of the reputation action:\n"
                 "type r (reputation) first, then %s.", text, in.w[0], in.w[0]);
        free(t);
        return -1;
    }
    /* match the legal moves, card names written either way */
    words want;
    split(t, text, &want, true);
    int matches = 0, exact = -1, first = -1;
    char some[3][96] = {"", "", ""};
    for (int i = 0; i < nlegal && want.n; i++) {
        const char *m = json_string_value(json_array_get(legal, (size_t)i));
        size_t verb = m ? strcspn(m, " ") : 0;
        if (!m || verb != strlen(want.w[0]) || strncasecmp(m, want.w[0], verb) != 0)
            continue; /* the first word is never a card: a quick look first */
        words have;
        split(t, m, &have, true);
        if (have.n < want.n || !words_match(&have, &want, want.n))
            continue;
        if (have.n == want.n) {
            exact = i;
            break;
        }
        if (matches < 3)
            short_move(t, m, some[matches], sizeof some[0]);
        if (first < 0)
            first = i;
        matches++;
    }
    bool pick_first = want.n == 1 && (is(want.w[0], "pay") || is(want.w[0], "use") || is(want.w[0], "fine") ||
                                      is(want.w[0], "discard") || is(want.w[0], "cheese"));
    int chosen = exact >= 0 ? exact : matches == 1 || (matches > 1 && pick_first) ? first : -1;
    char seats[96];
    if (chosen < 0 && want.n >= 2 && targets_of(t, &want, targeted ? want.n - 2 : want.n, seats, sizeof seats)) {
        /* a card played on a player: which one, or not that one */
        snprintf(err, errlen, "\"%.40s\" %s %s", text,
                 targeted ? "cannot go on that player:\nit can go on"
                          : "is played on a player:\nadd \"on\" and their letter or seat number:", seats);
        rc = -1;
    } else if (chosen >= 0) {
        snprintf(out, n, "%s", json_string_value(json_array_get(legal, (size_t)chosen)));
    } else if (matches > 1) {
        char more[32] = "";
        if (matches > 3)
            snprintf(more, sizeof more, "\n   ... (%d in all)", matches);
        snprintf(err, errlen, "\"%.20s\" could be more than one move:\n   %.36s\n   %.36s%s%.36s%s\n"
                 "Type more of it, or its number in the list.", text, some[0], some[1], matches > 2 ? "\n   " : "",
                 matches > 2 ? some[2] : "", more);
        rc = -1;
    } else if (nlegal && want.n && !notation_verb(want.w[0])) {
        /* not a move at all: what is asked, and how moves are typed */
        short_move(t, json_string_value(json_array_get(legal, 0)), some[0], sizeof some[0]);
        snprintf(err, errlen, "\"%.30s\" is not a move: a move starts with a word such as\n"
                 "market, deliver, take, build, pay or use. You are asked\n%s.\n"
                 "Type a number from the list, or a move like\n"
                 "\"%.50s\" (help lists the commands).", line, waiting_for(t->phase), some[0]);
        rc = -1;
    } else {
        /* a move the list does not have, or not this seat's move: the
         * engine reads it and says why it cannot be made now */
        snprintf(out, n, "%s", text);
    }
    free(t);
    return rc;
}

/* ---- The result ---- */

void dlv_print_result(FILE *out, const pb_game *g, const pb_state *st, const char *const *names)
{
    json_t *r = g->ops->score_report(g, st, names);
    const json_t *players = json_object_get(r, "players"), *w = json_object_get(r, "winners");
    fprintf(out, "%-22s %6s %8s %6s %6s %7s %11s\n", "RESULT (PD-E1)", "money", "tableau", "disks", "tips", "score",
            "deliveries");
    size_t i;
    const json_t *p;
    json_array_foreach(players, i, p) {
        char who[40];
        snprintf(who, sizeof who, "%c %.20s", (int)('A' + (int)i), jstr(p, "name"));
        fprintf(out, "%-22s %6d %8d %6d %6d %7d %11d\n", who, jint(p, "money", 0), jint(p, "tableau", 0),
                jint(p, "disks", 0), jint(p, "tips", 0), jint(p, "score", 0), jint(p, "deliveries", 0));
    }
    const json_t *team = json_object_get(r, "coop");
    if (team) { /* PD-C1: one result for everyone */
        /* the record code on a line of its own: with a mode it outgrows 80 columns */
        fprintf(out, "\nThe team %s: %d pizzas of %d, $%d of $%d in %d turns.\nRecord: %s\n",
                json_is_true(jget(team, "won")) ? "WINS" : "loses", jint(team, "pizzas", 0), jint(team, "pizzas_goal", 0),
                jint(team, "money", 0), jint(team, "money_goal", 0), jint(team, "turns", 0), jstr(team, "code"));
        const json_t *chef = jget(team, "top_chef");
        if (chef) { /* the optional Top Chef, by the die */
            const json_t *chefs = jget(chef, "names");
            fprintf(out, "Top Chef (die %d: %s): ", jint(chef, "roll", 0), jstr(chef, "category"));
            for (size_t k = 0; k < json_array_size(chefs); k++)
                fprintf(out, "%s%s", k ? " and " : "", json_string_value(json_array_get(chefs, k)));
            /* the values on a line of their own: names and shared titles make the first one long */
            fprintf(out, "%s\n  each player's value:", json_array_size(chefs) > 1 ? " (shared)" : "");
            const json_t *values = jget(chef, "values");
            for (size_t k = 0; k < json_array_size(values); k++) /* the letters of the table above */
                fprintf(out, "%s %c %d", k ? "," : "", (int)('A' + (int)k),
                        (int)json_integer_value(json_array_get(values, k)));
            fprintf(out, "\n");
        }
        json_decref(r);
        return;
    }
    fprintf(out, "(score = money + tableau cards, under power cards too, + disks on the board\n"
                 " + tip money; a tie goes to the most deliveries, then the most tip money)\n");
    fprintf(out, "\n%s", json_array_size(w) > 1 ? "Shared win: " : "Winner: ");
    int best = 0;
    for (size_t k = 0; k < json_array_size(w); k++) {
        int s = (int)json_integer_value(json_array_get(w, k));
        const json_t *ps = json_array_get(players, (size_t)s);
        best = jint(ps, "score", 0);
        fprintf(out, "%s%s", k ? " and " : "", jstr(ps, "name"));
    }
    fprintf(out, " with a score of %d\n", best);
    json_decref(r);
}

/* How many of `name` a view's hand holds. */
static int hand_count(const json_t *view, const char *name)
{
    size_t i;
    const json_t *c;
    json_array_foreach(jget(view, "hand"), i, c)
        if (is(jstr(c, "card"), name))
            return jint(c, "count", 0);
    return 0;
}

static bool has_power(const json_t *view, const char *id)
{
    size_t i;
    const json_t *p;
    json_array_foreach(jget(view, "powers"), i, p)
        if (is(json_string_value(p) ? json_string_value(p) : "", id))
            return true;
    return false;
}

int dlv_tui_gained(const json_t *before, const json_t *after, const char *said, char *buf, size_t n)
{
    dview *t = calloc(1, sizeof *t); /* the villages, to write cards short as the table does */
    if (!t)
        return -1;
    dview_init(t, after, NULL, false);
    char list[512] = "";
    size_t used = 0, i;
    int count = 0;
    const json_t *c;
    json_array_foreach(jget(after, "hand"), i, c) {
        const char *name = jstr(c, "card");
        char shown[96];
        short_card(t, name, shown, sizeof shown);
        int more = jint(c, "count", 0) - hand_count(before, name);
        for (int k = 0; k < more && !strstr(said, name) && !strstr(said, shown) && used < sizeof list; k++, count++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", shown);
    }
    free(tb_done(&t->b));
    free(t);
    json_array_foreach(jget(after, "powers"), i, c) {
        const char *id = json_string_value(c) ? json_string_value(c) : "";
        if (!has_power(before, id) && !strstr(said, id) && used < sizeof list) {
            used += (size_t)snprintf(list + used, sizeof list - used, "%spower:%s", used ? ", " : "", id);
            count++;
        }
    }
    buf[0] = 0;
    if (!count)
        return 0;
    snprintf(buf, n, "You got %s.", list);
    return 0;
}
