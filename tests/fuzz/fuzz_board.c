/* fuzz_board.c -- Pizza Theory board files (games/theory/board.c): any
 * bytes are answered with a board or a message, never a crash; a board that
 * is accepted writes back to JSON that reads as the same board. */
#include <stdlib.h>
#include <string.h>

#include "../../games/theory/theory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[PB_ERR_LEN] = "";
    json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
    if (!j)
        return 0;
    static th_board board, again;
    if (th_board_from_json(j, &board, err, sizeof err) != 0) {
        if (!err[0])
            abort(); /* a refusal always says why */
    } else {
        json_t *back = th_board_to_json(&board);
        if (th_board_from_json(back, &again, err, sizeof err) != 0 || memcmp(&board, &again, sizeof board) != 0)
            abort();
        json_decref(back);
    }
    json_decref(j);
    return 0;
}
