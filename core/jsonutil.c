/* jsonutil.c -- see jsonutil.h. */
#include "jsonutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

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

int pb_json_known_keys(const json_t *obj, const char *const *allowed, const char *prefix,
                       const char *where, char *err, size_t errlen)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            char q[64];
            pb_quote(key, q, sizeof q);
            snprintf(err, errlen, "%sunknown field %s in %s", prefix, q, where);
            return -1;
        }
    }
    return 0;
}

json_t *pb_json_parse(const char *text, const char *prefix, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        /* jansson quotes the input near the error: it may hold a newline */
        pb_text_make_printable(jerr.text);
        snprintf(err, errlen, "%smalformed JSON at line %d column %d: %s", prefix, jerr.line, jerr.column,
                 jerr.text);
    }
    return root;
}

json_t *pb_json_edition_as_played(const json_t *config, int record_version, const int *from, int n)
{
    int edition = 1;
    while (edition <= n && record_version >= from[edition - 1])
        edition++;
    if (edition > n || json_object_get(config, "edition"))
        return NULL;
    json_t *played = config ? json_deep_copy(config) : json_object();
    if (played)
        json_object_set_new(played, "edition", json_integer(edition));
    return played;
}
