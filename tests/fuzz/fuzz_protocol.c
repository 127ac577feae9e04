/* fuzz_protocol.c -- messages from strangers to the server (server/lobby.c),
 * with a real table to aim at: "@@" in the input becomes its code. */
#include <stdlib.h>
#include <string.h>

#include "../../server/lobby.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char code[16];

static void on_send(void *ctx, int conn, const char *text)
{
    (void)ctx;
    (void)conn;
    json_t *m = json_loads(text, 0, NULL);
    if (!m) /* the server only ever sends JSON */
        abort();
    const char *joined = json_string_value(json_object_get(m, "code"));
    if (!code[0] && joined)
        snprintf(code, sizeof code, "%s", joined);
    json_decref(m);
}

static void on_bot(void *ctx, pb_bot_job *job)
{
    (void)ctx;
    free(job->state); /* bots stay silent here: the table waits */
    free(job);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pb_lobby *lobby;
    if (!lobby) {
        char err[PB_ERR_LEN];
        pb_store *store = pb_store_open(":memory:", err, sizeof err);
        static pb_lobby_io io = {NULL, on_send, on_bot, NULL, 0};
        lobby = pb_lobby_new(store, &io, err, sizeof err);
        const char *create = "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":3,"
                             "\"seats\":[\"human\",\"human\",\"random\"],\"name\":\"Ann\"}";
        pb_lobby_message(lobby, 0, create, strlen(create));
    }
    char *text = malloc(size * 8 + 1);
    size_t n = 0;
    for (size_t i = 0; i < size; i++) {
        if (i + 1 < size && data[i] == '@' && data[i + 1] == '@') {
            memcpy(text + n, code, strlen(code));
            n += strlen(code);
            i++;
        } else {
            text[n++] = (char)data[i];
        }
    }
    int conn = size ? data[0] % 3 : 0;
    pb_lobby_message(lobby, conn, text, n);
    if (size && data[size - 1] == '!')
        pb_lobby_disconnect(lobby, conn);
    if (size && data[size - 1] == '~') /* housekeeping: clocks, seats free for a bot */
        pb_lobby_tick(lobby);
    free(text);
    return 0;
}
