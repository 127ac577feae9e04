/* cmd_verify.c -- `pizzabox verify`: prove that a game record's deal was
 * fixed before its first move (docs/records.md, "Deals anyone can verify"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/hash.h"
#include "../core/record.h"
#include "cli.h"

int cmd_verify(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: pizzabox verify FILE|-\n"
               "Checks a game record from a pizzabox server: the commitment the server showed\n"
               "every player before the first move (its \"deal\": a SHA-256) is the hash of the\n"
               "record's seed and the salt revealed at the end, and every move replays to the\n"
               "end. Exit 0 when both hold, 2 when either fails (the reason is printed).\n");
        return 0;
    }
    if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
        cli_error("verify", "give one record file, or - for stdin");
        return EXIT_USAGE;
    }
    const char *path = argv[1];
    char err[PB_ERR_LEN];
    char *text = pb_read_file(path, PB_RECORD_MAX_BYTES, err, sizeof err);
    if (!text) {
        cli_error("verify", "%s", err);
        return EXIT_USAGE;
    }
    pb_replay r;
    int rc = pb_replay_text(text, &r, err, sizeof err);
    free(text);
    if (rc != 0) {
        cli_error("verify", "%s: %s", path, err);
        return EXIT_USAGE;
    }
    const char *salt, *shown = pb_record_deal(r.record, &salt);
    char computed[PB_SHA256_HEX];
    rc = EXIT_USAGE;
    if (!shown)
        cli_error("verify", "%s: the record has no deal commitment (only tables of a pizzabox server have one)", path);
    else if (pb_deal_commitment(pb_record_seed(r.record), salt, computed), strcmp(computed, shown) != 0)
        cli_error("verify", "%s: the deal does not match its commitment: seed %llu with salt %s hashes to %s, "
                  "the server showed %s", path, (unsigned long long)pb_record_seed(r.record), salt, computed, shown);
    else if (!pb_is_terminal(r.game, r.state))
        cli_error("verify", "%s: the record ends after %d moves, before the game is over", path, r.actions);
    else {
        printf("verified: the deal (seed %llu) was fixed before the first move: SHA-256(\"pizzabox-deal:%llu:%s\") "
               "= %s, the commitment shown at the table; all %d moves replay to the end.\n",
               (unsigned long long)pb_record_seed(r.record), (unsigned long long)pb_record_seed(r.record), salt,
               computed, r.actions);
        rc = 0;
    }
    pb_replay_free(&r);
    return rc;
}
