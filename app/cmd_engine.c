/* cmd_engine.c -- `pizzabox engine`: the engine protocol (app/engine.c,
 * docs/engine.md) on standard input and output. */
#include <stdlib.h>
#include <string.h>

#include "../core/record.h"
#include "cli.h"
#include "engine.h"

/* The longest command line: a whole record for `load`, and some room. */
#define MAX_LINE (PB_RECORD_MAX_BYTES + 4096)

int cmd_engine(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: pizzabox engine\n"
               "Reads one command a line on standard input and answers each on standard\n"
               "output: data lines, then 'ok', or one line 'error MESSAGE'. Drives any game\n"
               "(new, view, moves, play, undo, determinize, score) and asks its bots (think).\n"
               "'help' lists the commands; docs/engine.md describes them.\n");
        return 0;
    }
    if (argc > 1) {
        cli_error("engine", "unexpected argument '%s' (the commands come on standard input)", argv[1]);
        return EXIT_USAGE;
    }
    pb_engine *e = pb_engine_new();
    if (!e) {
        cli_error("engine", "out of memory");
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int quit = 0;
    while (!quit && (len = getline(&line, &cap, stdin)) >= 0) {
        if (len && line[len - 1] == '\n')
            len--;
        if (len > MAX_LINE)
            printf("error line too long (%zd bytes; at most %d)\n", len, MAX_LINE);
        else
            quit = pb_engine_command(e, line, (size_t)len, stdout);
        fflush(stdout); /* the client waits for each answer */
    }
    free(line);
    pb_engine_free(e);
    return 0;
}
