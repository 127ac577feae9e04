/* nyslice_ui.h -- New York Slice at the terminal: input and the end. */
#ifndef PB_NYSLICE_UI_H
#define PB_NYSLICE_UI_H

#include <jansson.h>
#include <stddef.h>

/* Turn a player's line into action notation for the phase in `view`
 * (letters for portions, numbers for slices to eat, yes/no answers; the
 * notation itself passes through). Returns 0, or -1 with a message. */
int nys_ui_translate(const json_t *view, const char *line, char *out, size_t n, char *err,
                     size_t errlen);

#endif
