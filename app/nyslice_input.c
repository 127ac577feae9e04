/* nyslice_input.c -- what a New York Slice player types, turned into the
 * action notation (docs/records.md). The terminal accepts the notation
 * itself and a few shorter forms: a bare letter ("B" for "take B"), slices
 * to eat by their number in the list ("eat 1 3"), yes/no answers. A taken
 * portion passes to the engine, which says that it is taken. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nyslice_tui.h"
#include "nyslice_ui.h"

#define MAX_WORDS 16

static bool is(const char *w, const char *a)
{
    return strcasecmp(w, a) == 0;
}

static bool yes(const char *w)
{
    return is(w, "y") || is(w, "yes");
}

static bool no(const char *w)
{
    return is(w, "n") || is(w, "no");
}

static bool number(const char *w, int *v)
{
    if (!*w)
        return false;
    for (const char *p = w; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    *v = (int)strtol(w, NULL, 10);
    return true;
}

/* A portion named by its bare letter ("B"): "take B" (a letter no portion
 * has goes to the game too, which says which letters there are). */
static int portion_by_letter(const char *w, char *out, size_t n)
{
    if (strlen(w) != 1 || !isalpha((unsigned char)w[0]))
        return -1;
    snprintf(out, n, "take %c", toupper((unsigned char)w[0]));
    return 0;
}

/* "eat 1 3" / "eat all": slices by their number in the placing list. */
static int eat_by_number(const json_t *view, char **w, int nw, char *out, size_t n, char *err,
                         size_t errlen)
{
    json_t *placing = json_object_get(view, "placing");
    json_t *slices = json_object_get(placing, "slices"), *edible = json_object_get(placing, "edible");
    size_t len = (size_t)snprintf(out, n, "eat");
    int count = 0;
    for (int i = 1; i < nw; i++) {
        int k;
        bool all = is(w[i], "all");
        if (!all && (!number(w[i], &k) || k < 1 || k > (int)json_array_size(slices))) {
            snprintf(err, errlen, "'%s' is not one of the slices 1-%zu", w[i], json_array_size(slices));
            return -1;
        }
        /* a number twice is a typo: it must not eat another slice */
        for (int j = 1; !all && j < i; j++)
            if (strtol(w[j], NULL, 10) == k) {
                snprintf(err, errlen, "slice %d is named twice: name each slice once, by its number in the list", k);
                return -1;
            }
        for (int j = all ? 1 : k; j <= (all ? (int)json_array_size(slices) : k); j++) {
            if (all && !json_is_true(json_array_get(edible, (size_t)j - 1)))
                continue;
            /* the Mystery slice by its own name: its token would name a visible twin */
            const json_t *m = json_object_get(placing, "mystery");
            bool mystery = json_is_integer(m) && json_integer_value(m) == j - 1;
            if (len < n)
                len += (size_t)snprintf(out + len, n - len, " %s",
                                        mystery ? "mystery"
                                                : json_string_value(json_array_get(slices, (size_t)j - 1)));
            count++;
        }
    }
    if (count == 0)
        snprintf(out, n, "collect all");
    return 0;
}

/* Are the words after "eat" numbers in the list ("eat 1 3", "eat all")
 * rather than tokens? A token wins: "eat 3" eats a Veggie 3 being placed
 * (as the log writes it), and "eat 3 9p2" is the notation. */
static bool by_number(const json_t *view, char **w, int nw)
{
    const json_t *slices = json_object_get(json_object_get(view, "placing"), "slices");
    int v;
    for (int i = 0; i < nw; i++) {
        if (!number(w[i], &v) && !(nw == 1 && is(w[i], "all")))
            return false;
        for (size_t k = 0; k < json_array_size(slices); k++) {
            const char *tok = json_string_value(json_array_get(slices, k));
            if (tok && !strcmp(w[i], tok))
                return false;
        }
    }
    return true;
}

int nys_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err, size_t errlen)
{
    char copy[256];
    char *w[MAX_WORDS];
    int nw = 0;
    snprintf(copy, sizeof copy, "%s", line);
    for (char *save, *p = strtok_r(copy, " \t\r\n", &save); p && nw < MAX_WORDS;
         p = strtok_r(NULL, " \t\r\n", &save))
        w[nw++] = p;
    if (nw == 0) {
        snprintf(err, errlen, "type a move, or 'help'");
        return -1;
    }
    const char *phase = json_string_value(json_object_get(view, "phase"));
    int v;
    snprintf(out, n, "%s", line); /* by default the line is already notation */
    if (!phase)
        return 0;
    if (strcmp(phase, "take") == 0) {
        if (nw == 1 && portion_by_letter(w[0], out, n) == 0)
            return 0;
    } else if (strcmp(phase, "place") == 0) {
        if ((nw == 1 && (is(w[0], "collect") || is(w[0], "none"))) ||
            (nw == 2 && is(w[0], "keep") && is(w[1], "all")))
            snprintf(out, n, "collect all");
        else if (nw >= 2 && is(w[0], "eat") && by_number(view, w + 1, nw - 1))
            return eat_by_number(view, w, nw, out, n, err, errlen);
    } else if (strcmp(phase, "eat-or-keep") == 0 && nw == 1) {
        if (yes(w[0]))
            snprintf(out, n, "eat");
        else if (no(w[0]))
            snprintf(out, n, "keep");
    } else if (strcmp(phase, "cut-in-line") == 0 && nw == 1) {
        if (yes(w[0]))
            snprintf(out, n, "cut-in-line");
        else if (no(w[0]))
            snprintf(out, n, "pass");
    } else if (nw == 1 && no(w[0])) {
        snprintf(out, n, "pass");
    } else if (nw == 1 && number(w[0], &v)) {
        if (strcmp(phase, "dibs") == 0)
            snprintf(out, n, "dibs %d", v);
        else if (strcmp(phase, "attach") == 0 || strcmp(phase, "seconds") == 0)
            snprintf(out, n, "%s %d", phase, v);
    }
    return 0;
}
