/* quote.c -- see quote.h. */
#include "quote.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

void pb_quote(const char *s, char *out, size_t n)
{
    json_t *j = json_string(s);
    char *dump = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    if (n > 8 && dump && snprintf(out, n, "%s", dump) >= (int)n)
        snprintf(out + n - 5, 5, "...\""); /* cut, still one line and still quoted */
    else
        snprintf(out, n, "%s", dump ? dump : "\"?\"");
    free(dump);
    json_decref(j);
}
