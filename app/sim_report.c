/* sim_report.c -- the simulator's summary as one self-contained HTML page.
 *
 * The page shows the figures sim_print_summary prints, each as an inline SVG
 * chart (drawn here, no scripts) with a table of the exact numbers under it.
 * It loads nothing: no scripts, fonts or images, and a Content-Security-Policy
 * that forbids them. Text from the statistics (bot, item and category names,
 * the title) is escaped for HTML. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/error.h"
#include "sim.h"

#define CHART_W 640     /* viewBox width of every chart */
#define RIGHT_W 96      /* room right of the plot for value notes */
#define ROW_H 28        /* one bar's row */
#define BAR_H 16
#define TOP_H 26        /* above the first row: legend or reference label */
#define AXIS_H 30       /* below the last row: tick labels */
#define CHAR_W 7        /* rough width of a 12px character */
#define LABEL_MIN 64
#define LABEL_MAX 200

/* ---- Text ---- */

/* Text for HTML content or attribute values; control characters become spaces. */
static void put_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
        }
    }
}

/* Characters (UTF-8 code points) in s. */
static size_t utf8_len(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* s escaped, cut to at most `max` characters with an ellipsis. */
static void put_short(FILE *f, const char *s, size_t max)
{
    if (utf8_len(s) <= max) {
        put_esc(f, s);
        return;
    }
    char buf[128];
    size_t i = 0, chars = 0;
    for (; s[i] && i < sizeof buf - 1; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80 && chars++ == max - 1)
            break;
        buf[i] = s[i];
    }
    buf[i] = 0;
    put_esc(f, buf);
    fputs("\u2026", f);
}

static double pct(long part, long whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* ---- Axes ---- */

typedef struct axis {
    double lo, hi, step;   /* values at the ends, between ticks */
    double x0, x1;         /* where they are drawn */
} axis;

/* A readable axis over [lo, hi] (always including 0) drawn from x0 to x1. */
static void axis_fit(axis *a, double lo, double hi, double x0, double x1)
{
    lo = lo < 0 ? lo : 0;
    hi = hi > 0 ? hi : 0;
    if (hi - lo < 1e-9)
        hi = lo + 1;
    double raw = (hi - lo) / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;
    a->step = (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
    a->lo = floor(lo / a->step + 1e-9) * a->step;
    a->hi = ceil(hi / a->step - 1e-9) * a->step;
    a->x0 = x0;
    a->x1 = x1;
}

static double ax_x(const axis *a, double v)
{
    return a->x0 + (v - a->lo) / (a->hi - a->lo) * (a->x1 - a->x0);
}

/* Width of the label column for labels of up to `chars` characters. */
static int label_width(size_t chars)
{
    long w = (long)chars * CHAR_W + 16;
    return (int)(w < LABEL_MIN ? LABEL_MIN : w > LABEL_MAX ? LABEL_MAX : w);
}

static size_t label_chars(int width)
{
    return (size_t)(width - 16) / CHAR_W;
}

/* ---- SVG pieces ---- */

static void svg_open(FILE *f, const char *id, int height, const char *title, const char *desc)
{
    fprintf(f,
            "<svg id=\"%s\" class=\"chart\" role=\"img\" aria-labelledby=\"%s-title %s-desc\" "
            "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">\n",
            id, id, id, CHART_W, height, CHART_W, height);
    fprintf(f, "<title id=\"%s-title\">", id);
    put_esc(f, title);
    fprintf(f, "</title>\n<desc id=\"%s-desc\">", id);
    put_esc(f, desc);
    fputs("</desc>\n", f);
}

/* Vertical grid lines with tick labels under the rows (top..bottom). */
static void svg_grid(FILE *f, const axis *a, int top, int bottom, const char *unit)
{
    long n = lround((a->hi - a->lo) / a->step);
    fputs("<g class=\"grid\" aria-hidden=\"true\">", f);
    for (long i = 0; i <= n; i++) {
        double v = a->lo + (double)i * a->step, x = ax_x(a, v);
        v = fabs(v) < a->step * 1e-6 ? 0 : v;
        fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", v == 0 ? "zero" : "tick",
                x, top, x, bottom);
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%g%s</text>", x, bottom + 16, v, unit);
    }
    fputs("</g>\n", f);
}

/* A dashed line at value v with a label above it. */
static void svg_ref(FILE *f, const axis *a, double v, int bottom, const char *label)
{
    double x = ax_x(a, v);
    fprintf(f, "<line class=\"ref\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, TOP_H - 6, x, bottom);
    fprintf(f, "<text class=\"ref-label\" x=\"%.1f\" y=\"%d\">", x, TOP_H - 10);
    put_esc(f, label);
    fputs("</text>\n", f);
}

/* A row's label, right-aligned before the plot; the full name as a tooltip. */
static void svg_label(FILE *f, int lw, double y, const char *label)
{
    fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\"><title>", lw - 8, y + 4);
    put_esc(f, label);
    fputs("</title>", f);
    put_short(f, label, label_chars(lw));
    fputs("</text>\n", f);
}

/* A bar from value 0 to v, with a tooltip "label: text". */
static void svg_bar(FILE *f, const axis *a, double y, double h, double v, const char *cls, const char *label,
                    const char *text)
{
    double x0 = ax_x(a, 0), x1 = ax_x(a, v);
    fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>", cls,
            x0 < x1 ? x0 : x1, y, fabs(x1 - x0), h);
    put_esc(f, label);
    fputs(": ", f);
    put_esc(f, text);
    fputs("</title></rect>\n", f);
}

/* An error bar from lo to hi, centred on y. */
static void svg_err(FILE *f, const axis *a, double y, double lo, double hi)
{
    double x0 = ax_x(a, lo), x1 = ax_x(a, hi);
    fprintf(f, "<path class=\"err\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n", x0, y, x1, x0,
            y - 5, y + 5, x1, y - 5, y + 5);
}

/* A note (the value) just right of x. */
static void svg_note(FILE *f, double x, double y, const char *text)
{
    fprintf(f, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">", x + 6, y + 4);
    put_esc(f, text);
    fputs("</text>\n", f);
}

/* A legend in the top band: a swatch and a name per series. */
static void svg_legend(FILE *f, int x, const char *const *cls, const char *const *names, int n)
{
    fputs("<g class=\"legend\">", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<rect class=\"%s\" x=\"%d\" y=\"6\" width=\"12\" height=\"12\"/>", cls[i], x);
        fprintf(f, "<text x=\"%d\" y=\"16\">%s</text>", x + 17, names[i]);
        x += 17 + (int)strlen(names[i]) * CHAR_W + 18;
    }
    fputs("</g>\n", f);
}

/* ---- Bar charts with error bars ---- */

typedef struct row {
    char label[80];
    double v, lo, hi;    /* bar, error bar from lo to hi */
    char note[48];       /* the value as shown */
} row;

typedef struct chart {
    const char *id, *title, *desc;
    const char *unit;    /* after tick labels */
    double ref;          /* a dashed reference line at ref, if ref_label */
    const char *ref_label;
} chart;

static void rows_range(const row *r, int n, double *lo, double *hi)
{
    *lo = 0;
    *hi = 0;
    for (int i = 0; i < n; i++) {
        *lo = fmin(*lo, fmin(r[i].v, r[i].lo));
        *hi = fmax(*hi, fmax(r[i].v, r[i].hi));
    }
}

static int rows_label_width(const row *r, int n)
{
    size_t w = 0;
    for (int i = 0; i < n; i++)
        w = utf8_len(r[i].label) > w ? utf8_len(r[i].label) : w;
    return label_width(w);
}

/* Horizontal bars, one per row, each with an error bar and its value. */
static void bar_chart(FILE *f, const chart *c, const row *r, int n)
{
    int lw = rows_label_width(r, n), bottom = TOP_H + n * ROW_H;
    double lo, hi;
    axis a;
    rows_range(r, n, &lo, &hi);
    if (c->ref_label)
        hi = fmax(hi, c->ref);
    axis_fit(&a, lo, hi, lw, CHART_W - RIGHT_W);
    svg_open(f, c->id, bottom + AXIS_H, c->title, c->desc);
    svg_grid(f, &a, TOP_H - 4, bottom, c->unit);
    if (c->ref_label)
        svg_ref(f, &a, c->ref, bottom, c->ref_label);
    for (int i = 0; i < n; i++) {
        double y = TOP_H + i * ROW_H, mid = y + ROW_H / 2.0;
        svg_label(f, lw, mid, r[i].label);
        svg_bar(f, &a, mid - BAR_H / 2.0, BAR_H, r[i].v, "bar", r[i].label, r[i].note);
        svg_err(f, &a, mid, r[i].lo, r[i].hi);
        svg_note(f, ax_x(&a, fmax(r[i].v, r[i].hi)), mid, r[i].note);
    }
    fputs("</svg>\n", f);
}

/* A tally's win share (percent) with its Wilson interval. */
static void win_row(row *r, const char *label, const sim_tally *t)
{
    double p = sim_share(t), lo, hi;
    sim_wilson(p, (double)t->games, &lo, &hi);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->v = 100 * p;
    r->lo = 100 * lo;
    r->hi = 100 * hi;
    snprintf(r->note, sizeof r->note, "%.1f%%", 100 * p);
}

/* A tally's mean score with mean +- sd as the error bar. */
static void score_row(row *r, const char *label, const sim_tally *t)
{
    double m = sim_mean(t), sd = sim_sd(t);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->v = m;
    r->lo = m - sd;
    r->hi = m + sd;
    snprintf(r->note, sizeof r->note, "%.1f \u00b1 %.1f", m, sd);
}

/* ---- HTML pieces ---- */

static void section_open(FILE *f, const char *id, const char *heading, const char *intro)
{
    fprintf(f, "<section id=\"%s-section\">\n<h2>%s</h2>\n", id, heading);
    if (intro)
        fprintf(f, "<p>%s</p>\n", intro);
}

static void table_open(FILE *f, const char *caption, const char *const *cols, int n)
{
    fprintf(f, "<table>\n<caption>%s</caption>\n<thead><tr>", caption);
    for (int i = 0; i < n; i++)
        fprintf(f, "<th scope=\"col\">%s</th>", cols[i]);
    fputs("</tr></thead>\n<tbody>\n", f);
}

static void table_close(FILE *f)
{
    fputs("</tbody>\n</table>\n", f);
}

static void th_row(FILE *f, const char *name)
{
    fputs("<tr><th scope=\"row\">", f);
    put_esc(f, name);
    fputs("</th>", f);
}

/* Cells: win share, interval, mean score +- sd, games. */
static void tally_cells(FILE *f, const sim_tally *t)
{
    double p = sim_share(t), lo, hi;
    sim_wilson(p, (double)t->games, &lo, &hi);
    fprintf(f, "<td class=\"win\">%.1f%%</td><td>[%.1f%%, %.1f%%]</td><td>%.1f \u00b1 %.1f</td><td>%ld</td>",
            100 * p, 100 * lo, 100 * hi, sim_mean(t), sim_sd(t), t->games);
}

static const char *const tally_cols[] = {"Win share", "95% interval", "Mean score \u00b1 sd", "Games"};

static void tally_table(FILE *f, const char *caption, const char *first_col, const char *const *names,
                        const sim_tally *t, int n)
{
    const char *cols[5] = {first_col, tally_cols[0], tally_cols[1], tally_cols[2], tally_cols[3]};
    table_open(f, caption, cols, 5);
    for (int i = 0; i < n; i++) {
        th_row(f, names[i]);
        tally_cells(f, &t[i]);
        fputs("</tr>\n", f);
    }
    table_close(f);
}

/* ---- The page ---- */

static const char page_css[] =
    ":root{--fg:#1f2630;--muted:#5d6675;--bg:#faf8f4;--card:#fff;--line:#dde1e7;--bar:#3466a5;"
    "--bar2:#aab4c2;--ref:#c0392b;--won:#2e8a57;--tied:#e3a21a;--none:#c5cbd3}\n"
    "@media (prefers-color-scheme:dark){:root{--fg:#e6e9ee;--muted:#9aa3b1;--bg:#171a1f;--card:#20252c;"
    "--line:#343b45;--bar:#6b9be0;--bar2:#5c6778;--ref:#ff7a66;--won:#3fb27a;--tied:#e8b84a;--none:#55606e}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif}\n"
    "main{max-width:720px;margin:0 auto;padding:24px 16px 48px}\n"
    "h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.15em;margin:0 0 .4em}\n"
    ".meta{color:var(--muted);margin:0 0 1.2em}\n"
    "section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px;"
    "margin:0 0 18px}\n"
    "section>p{margin:0 0 .6em;color:var(--muted)}\n"
    "svg.chart{display:block;max-width:100%;height:auto;margin:4px 0 10px}\n"
    ".chart text{font:12px system-ui,sans-serif;fill:var(--fg)}\n"
    ".chart .label{text-anchor:end}.chart .tick{fill:var(--muted);text-anchor:middle}\n"
    ".chart .grid line{stroke:var(--line)}.chart .grid .zero{stroke:var(--muted)}\n"
    ".chart .bar{fill:var(--bar)}.chart .bar2{fill:var(--bar2)}\n"
    ".chart .err{stroke:var(--fg);stroke-width:1.5;fill:none}\n"
    ".chart .ref{stroke:var(--ref);stroke-width:1.5;stroke-dasharray:5 4}\n"
    ".chart .ref-label{fill:var(--ref);text-anchor:middle}\n"
    ".chart .won{fill:var(--won)}.chart .tied{fill:var(--tied)}.chart .none{fill:var(--none)}\n"
    ".chart .seg{text-anchor:middle;fill:#1f2630}.chart .seg.on-won{fill:#fff}\n"
    ".chart .muted{fill:var(--muted)}\n"
    ".chart .note,.chart .ref-label{paint-order:stroke;stroke:var(--card);stroke-width:5px;stroke-linejoin:round}\n"
    "table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}\n"
    "caption{text-align:left;color:var(--muted);font-size:.9em;padding:0 0 4px}\n"
    "th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}\n"
    "th:first-child{text-align:left;white-space:normal;overflow-wrap:break-word}\n"
    "thead th{font-weight:600;border-bottom:2px solid var(--line);white-space:normal;vertical-align:bottom}\n"
    "code{font-size:.95em}\n";

static void write_head(FILE *f, const sim_stats *s)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">\n<title>",
          f);
    put_esc(f, s->title);
    fprintf(f, ": simulation report</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", page_css);
}

static void write_title(FILE *f, const sim_stats *s)
{
    fputs("<header>\n<h1>", f);
    put_esc(f, s->title);
    fputs(": simulation report</h1>\n<p class=\"meta\">Game <code>", f);
    put_esc(f, s->game);
    fprintf(f, "</code> \u00b7 %d players \u00b7 %ld games \u00b7 seed %llu%s<br>Bots by seat%s: ", s->players,
            s->games, (unsigned long long)s->seed, s->rotate ? " \u00b7 bots rotated through the seats" : "",
            s->rotate ? " in the first game" : "");
    for (int q = 0; q < s->players; q++) {
        fputs(q ? ", " : "", f);
        put_esc(f, s->bots[q]);
    }
    fputs("</p>\n</header>\n", f);
}

static double parity(const sim_stats *s)
{
    return 100.0 / s->players;
}

static void wins_by_bot(FILE *f, const sim_stats *s, const char *ref)
{
    row r[SIM_MAX_BOTS];
    const char *names[SIM_MAX_BOTS];
    for (int b = 0; b < s->nbots; b++) {
        win_row(&r[b], s->bot_names[b], &s->by_bot[b]);
        names[b] = s->bot_names[b];
    }
    chart c = {"win-by-bot", "Win share by bot",
               "Horizontal bars: each bot's share of the wins, in percent of the seat-games it played, "
               "with a 95% Wilson interval; a dashed line marks parity. The table below has the numbers.",
               "%", parity(s), ref};
    section_open(f, "win-by-bot", "Win share by bot",
                 "Shared wins count as a fraction. Whiskers are 95% Wilson intervals; the dashed line is parity.");
    bar_chart(f, &c, r, s->nbots);
    tally_table(f, "Win share and score by bot", "Bot", names, s->by_bot, s->nbots);
    fputs("</section>\n", f);
}

static void wins_by_seat(FILE *f, const sim_stats *s, const char *ref)
{
    row r[SIM_MAX_SEATS];
    char labels[SIM_MAX_SEATS][80];
    const char *names[SIM_MAX_SEATS];
    for (int q = 0; q < s->players; q++) {
        if (s->rotate)
            snprintf(labels[q], sizeof labels[q], "seat %d", q + 1);
        else
            snprintf(labels[q], sizeof labels[q], "seat %d (%.60s)", q + 1, s->bots[q]);
        win_row(&r[q], labels[q], &s->by_seat[q]);
        names[q] = labels[q];
    }
    chart c = {"win-by-seat", "Win share by seat",
               "Horizontal bars: each seat's share of the wins in percent, with a 95% Wilson interval; "
               "a dashed line marks parity. The table below has the numbers.",
               "%", parity(s), ref};
    section_open(f, "win-by-seat", "Win share by seat",
                 s->rotate ? "The bots moved one seat each game." : "Each seat kept its bot in every game.");
    bar_chart(f, &c, r, s->players);
    tally_table(f, "Win share and score by seat", "Seat", names, s->by_seat, s->players);
    fputs("</section>\n", f);
}

static void first_mover(FILE *f, const sim_stats *s, const char *ref)
{
    row r;
    const char *names[1] = {"first mover"};
    win_row(&r, "first mover", &s->first);
    chart c = {"first-mover", "Win share of the first to move",
               "One bar: the win share of the player who moved first (New York Slice: the first Slicer; Pizza Theory: the start player), with a 95% Wilson "
               "interval, against parity shown as a dashed line. The table below has the numbers.",
               "%", parity(s), ref};
    section_open(f, "first-mover", "First-mover advantage", NULL);
    fprintf(f, "<p>The first to move won %.1f%% of the games against a parity of %.1f%%: "
               "%+.1f percentage points.</p>\n",
            r.v, parity(s), r.v - parity(s));
    bar_chart(f, &c, &r, 1);
    tally_table(f, "Win share and score of the first mover", "Who", names, &s->first, 1);
    fputs("</section>\n", f);
}

static void scores_by_bot(FILE *f, const sim_stats *s)
{
    row r[SIM_MAX_BOTS];
    for (int b = 0; b < s->nbots; b++)
        score_row(&r[b], s->bot_names[b], &s->by_bot[b]);
    chart c = {"scores", "Mean score by bot",
               "Horizontal bars: each bot's mean final score, with whiskers one standard deviation either "
               "side. The table below has the numbers.",
               "", 0, NULL};
    section_open(f, "scores", "Scores by bot", "Bars are mean final scores; whiskers are \u00b1 one standard deviation.");
    bar_chart(f, &c, r, s->nbots);
    const char *cols[] = {"Bot", "Mean score", "Standard deviation", "Games"};
    table_open(f, "Mean score and standard deviation by bot", cols, 4);
    for (int b = 0; b < s->nbots; b++) {
        th_row(f, s->bot_names[b]);
        fprintf(f, "<td>%.1f</td><td>%.1f</td><td>%ld</td></tr>\n", sim_mean(&s->by_bot[b]), sim_sd(&s->by_bot[b]),
                s->by_bot[b].games);
    }
    table_close(f);
    fputs("</section>\n", f);
}

/* ---- Items: the holder's mean score against the others' ---- */

static double item_holder_mean(const sim_stats *s, int k)
{
    return s->item_games[k] ? (double)s->item_holder_sum[k] / (double)s->item_games[k] : 0;
}

static double item_other_mean(const sim_stats *s, int k)
{
    return s->item_other_n[k] ? (double)s->item_other_sum[k] / (double)s->item_other_n[k] : 0;
}

static int items_label_width(const sim_stats *s)
{
    size_t w = 0;
    for (int k = 0; k < s->nitems; k++)
        w = utf8_len(s->items[k]) > w ? utf8_len(s->items[k]) : w;
    return label_width(w);
}

static void items_axis(const sim_stats *s, axis *a, int lw)
{
    double lo = 0, hi = 0;
    for (int k = 0; k < s->nitems; k++) {
        if (!s->item_games[k])
            continue;
        lo = fmin(lo, fmin(item_holder_mean(s, k), item_other_mean(s, k)));
        hi = fmax(hi, fmax(item_holder_mean(s, k), item_other_mean(s, k)));
    }
    axis_fit(a, lo, hi, lw, CHART_W - RIGHT_W);
}

/* One item's pair of bars (holder, others) in the band starting at y. */
static void item_bars(FILE *f, const sim_stats *s, const axis *a, int k, double y)
{
    char text[48];
    double h = item_holder_mean(s, k), o = item_other_mean(s, k), bh = (ROW_H + 8) / 2.0 - 2;
    snprintf(text, sizeof text, "holder %.1f", h);
    svg_bar(f, a, y + 2, bh, h, "bar", s->items[k], text);
    snprintf(text, sizeof text, "%.1f", h);
    svg_note(f, ax_x(a, fmax(h, 0)), y + 2 + bh / 2, text);
    snprintf(text, sizeof text, "others %.1f", o);
    svg_bar(f, a, y + 2 + bh, bh, o, "bar2", s->items[k], text);
    snprintf(text, sizeof text, "%.1f", o);
    svg_note(f, ax_x(a, fmax(o, 0)), y + 2 + 1.5 * bh, text);
}

static void items_chart(FILE *f, const sim_stats *s)
{
    static const char *const cls[] = {"bar", "bar2"}, *const names[] = {"holder", "others"};
    int lw = items_label_width(s), band = ROW_H + 8, bottom = TOP_H + s->nitems * band;
    axis a;
    items_axis(s, &a, lw);
    svg_open(f, "items", bottom + AXIS_H, "Holder's mean score against the others', by item",
             "Paired horizontal bars per item: the mean final score of the player holding it at the end, "
             "and the mean score of the other players in those games. The table below has the numbers.");
    svg_legend(f, lw, cls, names, 2);
    svg_grid(f, &a, TOP_H - 4, bottom, "");
    for (int k = 0; k < s->nitems; k++) {
        double y = TOP_H + k * band;
        svg_label(f, lw, y + band / 2.0, s->items[k]);
        if (s->item_games[k])
            item_bars(f, s, &a, k, y);
        else
            fprintf(f, "<text class=\"muted\" x=\"%.1f\" y=\"%.1f\">never held</text>\n", ax_x(&a, 0) + 6,
                    y + band / 2.0 + 4);
    }
    fputs("</svg>\n", f);
}

static void items_table(FILE *f, const sim_stats *s)
{
    const char *cols[] = {"Item", "Holder's mean", "Others' mean", "Difference", "Holder wins", "Held in"};
    table_open(f, "Mean scores with and without each item", cols, 6);
    for (int k = 0; k < s->nitems; k++) {
        th_row(f, s->items[k]);
        if (!s->item_games[k]) {
            fputs("<td colspan=\"5\">never held</td></tr>\n", f);
            continue;
        }
        double h = item_holder_mean(s, k), o = item_other_mean(s, k);
        fprintf(f, "<td>%.1f</td><td>%.1f</td><td>%+.1f</td><td>%.1f%%</td><td>%.1f%%</td></tr>\n", h, o, h - o,
                100.0 * (double)s->item_win60[k] / SIM_WIN_UNIT / (double)s->item_games[k],
                pct(s->item_games[k], s->games));
    }
    table_close(f);
}

static void items_section(FILE *f, const sim_stats *s)
{
    section_open(f, "items", "Items held at the end (Specials)",
                 "For each item, the final score of the player holding it against the other players' in the "
                 "same games.");
    if (s->nitems) {
        items_chart(f, s);
        items_table(f, s);
    } else {
        fputs("<p>No items were recorded in these games.</p>\n", f);
    }
    fputs("</section>\n", f);
}

/* ---- Categories: how often the majority is won, tied or nobody's ---- */

/* One segment of a stacked bar from percent a to b, labelled if wide enough. */
static void category_segment(FILE *f, const axis *ax, double y, double a, double b, int kind, const char *name)
{
    static const char *const cls[] = {"won", "tied", "none"}, *const what[] = {"won", "tied", "nobody"};
    double x0 = ax_x(ax, a), x1 = ax_x(ax, b);
    fprintf(f, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"><title>", cls[kind], x0, y,
            x1 - x0, BAR_H);
    put_esc(f, name);
    fprintf(f, ": %s %.1f%%</title></rect>\n", what[kind], b - a);
    if (x1 - x0 >= 36)
        fprintf(f, "<text class=\"seg%s\" x=\"%.1f\" y=\"%.1f\">%.0f%%</text>\n", kind == 0 ? " on-won" : "",
                (x0 + x1) / 2, y + BAR_H / 2.0 + 4, b - a);
}

static void categories_chart(FILE *f, const sim_stats *s)
{
    static const char *const cls[] = {"won", "tied", "none"}, *const names[] = {"won", "tied", "nobody"};
    int lw = label_width(0), bottom = TOP_H + s->ncategories * ROW_H;
    for (int k = 0; k < s->ncategories; k++)
        lw = label_width(utf8_len(s->categories[k])) > lw ? label_width(utf8_len(s->categories[k])) : lw;
    axis a;
    axis_fit(&a, 0, 100, lw, CHART_W - 24);
    svg_open(f, "categories", bottom + AXIS_H, "Majority outcome by category",
             "A 100% stacked bar per category: the share of games in which one player won the majority, in "
             "which it was tied so nobody scored it, and in which nobody collected it. The table below has "
             "the numbers.");
    svg_legend(f, lw, cls, names, 3);
    svg_grid(f, &a, TOP_H - 4, bottom, "%");
    for (int k = 0; k < s->ncategories; k++) {
        double y = TOP_H + k * ROW_H + (ROW_H - BAR_H) / 2.0;
        double w = pct(s->category_won[k], s->games), t = pct(s->category_tied[k], s->games);
        double e = pct(s->category_empty[k], s->games);
        svg_label(f, lw, y + BAR_H / 2.0, s->categories[k]);
        category_segment(f, &a, y, 0, w, 0, s->categories[k]);
        category_segment(f, &a, y, w, w + t, 1, s->categories[k]);
        category_segment(f, &a, y, w + t, w + t + e, 2, s->categories[k]);
    }
    fputs("</svg>\n", f);
}

static void categories_section(FILE *f, const sim_stats *s)
{
    const char *cols[] = {"Category", "Won", "Tied (nobody scores)", "Nobody collected"};
    section_open(f, "categories", "Majorities by category",
                 "How often one player won a category's majority, how often it was tied (so nobody scored "
                 "it) and how often nobody collected it at all.");
    if (!s->ncategories) {
        fputs("<p>No categories were recorded in these games.</p>\n</section>\n", f);
        return;
    }
    categories_chart(f, s);
    table_open(f, "Majority outcomes by category, in percent of games", cols, 4);
    for (int k = 0; k < s->ncategories; k++) {
        th_row(f, s->categories[k]);
        fprintf(f, "<td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td></tr>\n", pct(s->category_won[k], s->games),
                pct(s->category_tied[k], s->games), pct(s->category_empty[k], s->games));
    }
    table_close(f);
    fputs("</section>\n", f);
}

/* ---- Game length and the end ---- */

static void length_section(FILE *f, const sim_stats *s)
{
    double m = s->games ? (double)s->length_sum / (double)s->games : 0;
    double v = s->games > 1 ? ((double)s->length_sq - (double)s->games * m * m) / (double)(s->games - 1) : 0;
    const char *cols[] = {"Decisions per game", "Mean", "Standard deviation", "Shortest", "Longest"};
    section_open(f, "length", "Game length", NULL);
    table_open(f, "Game length in decisions", cols, 5);
    fprintf(f, "<tr><th scope=\"row\">all games</th><td>%.1f</td><td>%.1f</td><td>%ld</td><td>%ld</td></tr>\n", m,
            v > 0 ? sqrt(v) : 0, s->length_min < 0 ? 0 : s->length_min, s->length_max);
    table_close(f);
    fputs("</section>\n", f);
}

static void write_page(FILE *f, const sim_stats *s)
{
    char ref[48];
    snprintf(ref, sizeof ref, "parity %.1f%%", parity(s));
    write_head(f, s);
    write_title(f, s);
    wins_by_bot(f, s, ref);
    wins_by_seat(f, s, ref);
    first_mover(f, s, ref);
    items_section(f, s);
    categories_section(f, s);
    scores_by_bot(f, s);
    length_section(f, s);
    fputs("<footer class=\"meta\">Made by <code>pizzabox sim</code>. Shared wins count as a fraction for each "
          "winner.</footer>\n</main>\n</body>\n</html>\n",
          f);
}

/* ---- Writing the file ---- */

/* Write the page to an open temporary file and close it; an errno or 0. */
static int write_and_close(FILE *f, const sim_stats *s)
{
    errno = 0;
    write_page(f, s);
    int e = fflush(f) != 0 || ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    return e;
}

int sim_write_report(const sim_stats *s, const char *path, char *err, size_t errlen)
{
    if (s->players < 1 || s->players > SIM_MAX_SEATS)
        return pb_errorf(err, errlen, "cannot write the report: the statistics have no players");
    size_t n = strlen(path) + sizeof ".tmpXXXXXX";
    char *tmp = malloc(n);
    if (!tmp)
        return pb_errorf(err, errlen, "cannot write the report %s: out of memory", path);
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp), e = fd < 0 ? errno : 0;
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (fd >= 0 && !f) {
        e = errno;
        close(fd);
        unlink(tmp);
    }
    if (f) {
        (void)fchmod(fd, 0644);
        e = write_and_close(f, s);
        if (!e && rename(tmp, path) != 0)
            e = errno;
        if (e)
            unlink(tmp);
    }
    free(tmp);
    if (e)
        return pb_errorf(err, errlen, "cannot write the report %s: %s", path, strerror(e));
    return 0;
}
