/* fuzz_engine_protocol.c -- command lines for `pizzabox engine` (app/engine.c):
 * any bytes, split into lines, each answered with one block that ends in
 * "ok" or is one "error" line, and never a crash. `think` runs only with the
 * quick bots (random, greedy, easy): a search of seconds would only slow the
 * fuzzer down. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../app/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool slow_think(const char *line, size_t len)
{
    while (len && (*line == ' ' || *line == '\t'))
        line++, len--;
    if (len < 5 || memcmp(line, "think", 5) != 0)
        return false;
    static const char *const quick[] = {"think random", "think greedy", "think easy"};
    for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++)
        if (len >= strlen(quick[i]) && memcmp(line, quick[i], strlen(quick[i])) == 0)
            return false;
    return true;
}

/* One answer block: its last line "ok" or an "error ..." line alone, and no
 * other line that could be taken for an end. */
static void check_answer(const char *s, size_t n)
{
    if (n == 0)
        return; /* an empty line or a comment */
    if (s[n - 1] != '\n' || memchr(s, 0, n))
        abort();
    const char *line = s;
    while (line < s + n) {
        const char *end = memchr(line, '\n', (size_t)(s + n - line));
        bool last = end + 1 == s + n;
        bool ok = end - line == 2 && memcmp(line, "ok", 2) == 0;
        bool error = end - line > 6 && memcmp(line, "error ", 6) == 0;
        if (last ? !(ok || (error && line == s)) : (ok || error))
            abort();
        line = end + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pb_engine *e = pb_engine_new();
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (!slow_think(p, len)) {
            char *answer = NULL;
            size_t n = 0;
            FILE *out = open_memstream(&answer, &n);
            int quit = pb_engine_command(e, p, len, out);
            fclose(out);
            check_answer(answer, n);
            free(answer);
            if (quit)
                break;
        }
        p += len + 1;
    }
    pb_engine_free(e);
    return 0;
}
