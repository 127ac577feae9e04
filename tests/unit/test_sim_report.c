/* test_sim_report.c -- the simulator's HTML report (app/sim_report.c): one
 * self-contained page, every chart present, the numbers of the text summary,
 * names escaped, and failures reported rather than half-written files. */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../app/sim.h"

#define ERR_SIZE 256

static const char *const chart_ids[] = {"win-by-bot", "win-by-seat", "first-mover", "items", "categories", "scores"};

/* ---- Helpers ---- */

static json_t *parse_json(const char *text)
{
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!j)
        fail_msg("test JSON does not parse: %s (%s)", jerr.text, text);
    return j;
}

static void add_line(sim_stats *s, const char *text)
{
    char err[ERR_SIZE] = "";
    json_t *j = parse_json(text);
    if (sim_stats_add(s, j, err, sizeof err) != 0)
        fail_msg("sim_stats_add refused a game line: %s", err);
    json_decref(j);
}

/* Statistics of four hand-made games; bot0 is the first seat's bot (a JSON
 * string body, already escaped for JSON). */
static void make_stats(sim_stats *s, const char *bot0)
{
    char text[1024], err[ERR_SIZE] = "";
    snprintf(text, sizeof text,
             "{\"sim\":{\"game\":\"nyslice\",\"title\":\"New York Slice\",\"players\":4,\"seed\":7,"
             "\"bots\":[\"%s\",\"random\",\"random\",\"random\"],\"rotate\":false}}",
             bot0);
    json_t *h = parse_json(text);
    if (sim_stats_init(s, h, err, sizeof err) != 0)
        fail_msg("sim_stats_init refused the header: %s", err);
    json_decref(h);
    static const char *const games[] = {
        "{\"game\":0,\"seed\":1,\"totals\":[40,31,22,18],\"winners\":[0],\"length\":49,\"first\":0,"
        "\"holders\":{\"buffet\":1,\"<i>lunch</i>\":0},"
        "\"outcomes\":{\"3 Veggie\":\"won\",\"Pepperoni\":\"tied\",\"Sausage\":\"none\"}}",
        "{\"game\":1,\"seed\":2,\"totals\":[25,35,35,20],\"winners\":[1,2],\"length\":53,\"first\":1,"
        "\"holders\":{\"buffet\":2,\"<i>lunch</i>\":null},"
        "\"outcomes\":{\"3 Veggie\":\"won\",\"Pepperoni\":\"won\",\"Sausage\":\"tied\"}}",
        "{\"game\":2,\"seed\":3,\"totals\":[44,30,29,12],\"winners\":[0],\"length\":47,\"first\":2,"
        "\"holders\":{\"buffet\":0,\"<i>lunch</i>\":3},"
        "\"outcomes\":{\"3 Veggie\":\"tied\",\"Pepperoni\":\"won\",\"Sausage\":\"won\"}}",
        "{\"game\":3,\"seed\":4,\"totals\":[21,19,26,33],\"winners\":[3],\"length\":51,\"first\":3,"
        "\"holders\":{\"buffet\":3},"
        "\"outcomes\":{\"3 Veggie\":\"none\",\"Pepperoni\":\"won\",\"Sausage\":\"won\"}}",
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        char line[1024];
        snprintf(line, sizeof line, "%.*s\"bots\":[\"%s\",\"random\",\"random\",\"random\"],%s",
                 (int)(strchr(games[i] + 1, ',') - games[i] + 1), games[i], bot0, strchr(games[i] + 1, ',') + 1);
        add_line(s, line);
    }
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot read the report %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        n = fread(buf + len, 1, 4096, f);
        len += n;
    } while (n > 0);
    fclose(f);
    buf[len] = 0;
    return buf;
}

/* A fresh temporary directory; the caller removes it with remove_dir. */
static void make_dir(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, n, "%s/pizzabox-report.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir))
        fail_msg("cannot make a temporary directory %s", dir);
}

/* Names in a directory, one per line (for "nothing left behind" checks). */
static void list_dir(const char *dir, char *out, size_t n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    out[0] = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            snprintf(out + strlen(out), n - strlen(out), "%s\n", e->d_name);
    closedir(d);
}

static void remove_dir(const char *dir)
{
    char names[4096], path[1024];
    list_dir(dir, names, sizeof names);
    for (char *p = strtok(names, "\n"); p; p = strtok(NULL, "\n")) {
        snprintf(path, sizeof path, "%s/%s", dir, p);
        unlink(path);
    }
    rmdir(dir);
}

/* Write the report of `s` into a fresh directory and return its text. */
static char *report_of(const sim_stats *s)
{
    char dir[512], path[600], err[ERR_SIZE] = "";
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/report.html", dir);
    if (sim_write_report(s, path, err, sizeof err) != 0)
        fail_msg("sim_write_report failed: %s", err);
    char *html = read_all(path);
    remove_dir(dir);
    return html;
}

static void assert_contains(const char *html, const char *want)
{
    if (!strstr(html, want))
        fail_msg("the report does not contain '%s'", want);
}

static void assert_lacks(const char *html, const char *bad)
{
    if (strstr(html, bad))
        fail_msg("the report contains '%s'", bad);
}

static int count(const char *html, const char *what)
{
    int n = 0;
    for (const char *p = html; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* The share cell and interval of a tally, formatted as in the tables. */
static void assert_tally_shown(const char *html, const sim_tally *t)
{
    char want[128];
    double p = sim_share(t), lo, hi;
    sim_wilson(p, (double)t->games, &lo, &hi);
    snprintf(want, sizeof want, "<td class=\"win\">%.1f%%</td><td>[%.1f%%, %.1f%%]</td>", 100 * p, 100 * lo,
             100 * hi);
    assert_contains(html, want);
    snprintf(want, sizeof want, "<td>%.1f \u00b1 %.1f</td><td>%ld</td>", sim_mean(t), sim_sd(t), t->games);
    assert_contains(html, want);
}

/* ---- The page ---- */

static void test_page_is_self_contained(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "greedy");
    char *html = report_of(&s);
    assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    assert_lacks(html, "http://");
    assert_lacks(html, "https://");
    assert_lacks(html, "<script");
    assert_lacks(html, "<link");
    assert_lacks(html, "<img");
    assert_lacks(html, "url(");
    assert_contains(html, "<meta charset=\"utf-8\">");
    assert_contains(html, "</html>\n");
    free(html);
}

static void test_every_chart_has_an_id_a_title_and_bars(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "greedy");
    char *html = report_of(&s);
    for (size_t i = 0; i < sizeof chart_ids / sizeof chart_ids[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "<svg id=\"%s\"", chart_ids[i]);
        assert_int_equal(count(html, want), 1);
        snprintf(want, sizeof want, "<title id=\"%s-title\">", chart_ids[i]);
        assert_contains(html, want);
        snprintf(want, sizeof want, "<desc id=\"%s-desc\">", chart_ids[i]);
        assert_contains(html, want);
    }
    assert_int_equal(count(html, "<svg "), 6);
    assert_int_equal(count(html, "</svg>"), 6);
    assert_int_equal(count(html, "<table>"), 7);  /* a table per chart and game length */
    assert_true(count(html, "<rect ") >= 2 + 4 + 1 + 2 * 2 + 3 * 3 + 2);
    assert_true(count(html, "class=\"ref\"") == 3); /* parity on the three win charts */
    free(html);
}

static void test_title_line(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "greedy");
    char *html = report_of(&s);
    assert_contains(html, "<h1>New York Slice: simulation report</h1>");
    assert_contains(html, "<code>nyslice</code>");
    assert_contains(html, "4 players");
    assert_contains(html, "4 games");
    assert_contains(html, "seed 7");
    assert_contains(html, "parity 25.0%");
    free(html);
}

static void test_win_shares_as_in_the_summary(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "greedy");
    assert_int_equal(s.nbots, 2);
    char *html = report_of(&s);
    /* greedy won games 0 and 2 of 4: 50.0%; the randoms share the rest. */
    assert_contains(html, "<th scope=\"row\">greedy</th><td class=\"win\">50.0%</td>");
    for (int b = 0; b < s.nbots; b++)
        assert_tally_shown(html, &s.by_bot[b]);
    for (int q = 0; q < s.players; q++)
        assert_tally_shown(html, &s.by_seat[q]);
    assert_tally_shown(html, &s.first);
    free(html);
}

static void test_items_categories_and_length(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "greedy");
    char *html = report_of(&s);
    /* buffet: holders 31, 35, 44, 33 (mean 35.8); others 80/3, 80/3, 71/3, 66/3. */
    assert_contains(html, "<th scope=\"row\">buffet</th><td>35.8</td><td>24.8</td><td>+11.0</td>"
                          "<td>62.5%</td><td>100.0%</td>");
    /* 3 Veggie: won twice, tied once, nobody once. */
    assert_contains(html, "<th scope=\"row\">3 Veggie</th><td>50.0%</td><td>25.0%</td><td>25.0%</td>");
    assert_contains(html, "<th scope=\"row\">Pepperoni</th><td>75.0%</td><td>25.0%</td><td>0.0%</td>");
    /* lengths 49 53 47 51 */
    assert_contains(html, "<td>50.0</td><td>2.6</td><td>47</td><td>53</td>");
    free(html);
}

static void test_names_are_escaped(void **state)
{
    (void)state;
    sim_stats s;
    make_stats(&s, "a<b&\\\"c");
    assert_string_equal(s.bot_names[0], "a<b&\"c");
    char *html = report_of(&s);
    assert_lacks(html, "a<b");
    assert_lacks(html, "<i>");
    assert_contains(html, "a&lt;b&amp;&quot;c");
    assert_contains(html, "&lt;i&gt;lunch&lt;/i&gt;");
    free(html);
}

static void test_long_names_are_shortened_in_charts(void **state)
{
    (void)state;
    sim_stats s;
    char name[] = "a-bot-with-a-very-long-name-that-does-not-fit-in-the-label-column";
    make_stats(&s, "x");
    snprintf(s.bot_names[0], sizeof s.bot_names[0], "%s", name);
    char *html = report_of(&s);
    assert_contains(html, "\u2026</text>");   /* cut in the chart */
    char want[128];
    snprintf(want, sizeof want, "<th scope=\"row\">%.63s</th>", name);
    assert_contains(html, want);              /* whole in the table */
    free(html);
}

static void test_empty_statistics(void **state)
{
    (void)state;
    sim_stats s;
    char err[ERR_SIZE] = "";
    json_t *h = parse_json("{\"sim\":{\"game\":\"nyslice\",\"players\":3,\"seed\":1,"
                           "\"bots\":[\"random\",\"random\",\"random\"],\"rotate\":true}}");
    assert_int_equal(sim_stats_init(&s, h, err, sizeof err), 0);
    json_decref(h);
    char *html = report_of(&s);
    assert_contains(html, "0 games");
    assert_contains(html, "<svg id=\"win-by-seat\"");
    assert_contains(html, "bots rotated through the seats");
    assert_lacks(html, "nan");
    assert_lacks(html, "inf");
    free(html);
}

/* ---- Writing the file ---- */

static void test_unwritable_path_fails_with_message(void **state)
{
    (void)state;
    sim_stats s;
    char err[ERR_SIZE] = "";
    make_stats(&s, "greedy");
    assert_int_equal(sim_write_report(&s, "/nonexistent-pizzabox-dir/report.html", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent-pizzabox-dir/report.html"));
    assert_null(strchr(err, '\n'));
}

static void test_directory_path_fails_and_leaves_nothing(void **state)
{
    (void)state;
    sim_stats s;
    char dir[512], sub[600], err[ERR_SIZE] = "", names[4096];
    make_stats(&s, "greedy");
    make_dir(dir, sizeof dir);
    snprintf(sub, sizeof sub, "%s/report.html", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(sim_write_report(&s, sub, err, sizeof err), -1);
    assert_non_null(strstr(err, "report.html"));
    list_dir(dir, names, sizeof names);
    assert_string_equal(names, "report.html\n");
    rmdir(sub);
    remove_dir(dir);
}

static void test_rewrite_replaces_the_file(void **state)
{
    (void)state;
    sim_stats s;
    char dir[512], path[600], err[ERR_SIZE] = "", names[4096];
    make_stats(&s, "greedy");
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/report.html", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    assert_int_equal(sim_write_report(&s, path, err, sizeof err), 0);
    list_dir(dir, names, sizeof names);
    assert_string_equal(names, "report.html\n");
    char *html = read_all(path);
    assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* not mkstemp's 0600 */
    free(html);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_is_self_contained),
        cmocka_unit_test(test_every_chart_has_an_id_a_title_and_bars),
        cmocka_unit_test(test_title_line),
        cmocka_unit_test(test_win_shares_as_in_the_summary),
        cmocka_unit_test(test_items_categories_and_length),
        cmocka_unit_test(test_names_are_escaped),
        cmocka_unit_test(test_long_names_are_shortened_in_charts),
        cmocka_unit_test(test_empty_statistics),
        cmocka_unit_test(test_unwritable_path_fails_with_message),
        cmocka_unit_test(test_directory_path_fails_and_leaves_nothing),
        cmocka_unit_test(test_rewrite_replaces_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
