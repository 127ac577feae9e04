/* engine.h -- the engine protocol (`pizzabox engine`, docs/engine.md): one
 * command a line in, one answer block out, for programs in any language to
 * drive any game through the game interface and ask its bots. */
#ifndef PB_ENGINE_H
#define PB_ENGINE_H

#include <stddef.h>
#include <stdio.h>

typedef struct pb_engine pb_engine;

/* A session without a game; NULL when out of memory. */
pb_engine *pb_engine_new(void);
void pb_engine_free(pb_engine *e);

/* Answer one command line (len bytes, without its newline; any bytes) on
 * out: data lines, each a keyword and its value, then "ok"; or the one line
 * "error MESSAGE". Empty lines and lines starting with '#' get no answer.
 * Returns 1 after `quit`, else 0. */
int pb_engine_command(pb_engine *e, const char *line, size_t len, FILE *out);

#endif
