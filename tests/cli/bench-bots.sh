#!/bin/sh
# tests/cli/bench-bots.sh -- the bot strength benchmarks (bench/bots.sh and
# its Pizza Theory and New York Slice forms): a win share with its interval
# and the parity of the player count, and a clear stop on bad input.
#
#   sh tests/cli/bench-bots.sh build/pizzabox

. "$(dirname "$0")/lib.sh"
use_binary bench-bots "${1:-}"
root=$(cd "$(dirname "$0")/../.." && pwd)

# Pizza Theory at 2 and 3 players: every seat played, the total adds up.
for n in 2 3; do
    sh "$root/bench/theory-bots.sh" "$BIN" "$n" greedy random 12 >"$T/t$n.out" 2>&1
    rc=$?
    seats=$(grep -c "^greedy in seat [0-9] of $n against random: [0-9.]* wins in $((12 / n)) games" "$T/t$n.out")
    sum=$(awk '/^greedy in seat/ {t += $(NF - 4)} END {print t}' "$T/t$n.out")
    share=$(sed -n 's/.*win share \([0-9.]*\)%.*/\1/p' "$T/t$n.out")
    check "theory-bots.sh at $n players: each seat's wins, the share and the parity" \
        "$([ $rc -eq 0 ] || echo "exit $rc")" "$([ "$seats" -eq "$n" ] || echo "$seats seat lines")" \
        "$(echo "$sum $share" | awk '{ if ($1 / 12 * 100 - $2 > 0.06 || $2 - $1 / 12 * 100 > 0.06) print "share " $2 "% is not " $1 " of 12" }')" \
        "$(grep -q "greedy vs $((n - 1)) x random: win share .* (95% CI [0-9.]*%-[0-9.]*%) over 12 games, parity $([ $n = 2 ] && echo 50 || echo 33.3)%" "$T/t$n.out" || echo "summary: $(tail -n 2 "$T/t$n.out")")"
done

sh "$root/bench/nyslice-bots.sh" "$BIN" greedy random 8 >"$T/ny.out" 2>&1
check "nyslice-bots.sh: 4 seats, parity 25%" "$([ "$(grep -c '^greedy in seat . of 4' "$T/ny.out")" -eq 4 ] || echo 'seat lines')" \
    "$(grep -q 'greedy vs 3 x random: win share .* over 8 games, parity 25%' "$T/ny.out" || echo "summary: $(cat "$T/ny.out")")"

mkdir "$T/tmp"
TMPDIR="$T/tmp" sh "$root/bench/theory-bots.sh" "$BIN" 3 greedy nobot 6 >"$T/bad.out" 2>&1
rc=$?
check "theory-bots.sh: an unknown bot stops it with pizzabox's reason, leaving no files" \
    "$([ $rc -ne 0 ] || echo 'exit 0')" \
    "$(grep -q "unknown bot 'nobot'" "$T/bad.out" || echo "output: $(cat "$T/bad.out")")" \
    "$(! grep -q 'win share' "$T/bad.out" || echo 'printed a share anyway')" \
    "$([ -z "$(ls "$T/tmp")" ] || echo "left $(ls "$T/tmp")")"

JOBS=0 sh "$root/bench/bots.sh" "$BIN" nyslice 3 greedy random 3 >"$T/jobs.out" 2>&1
check "bots.sh: JOBS=0 is refused" "$(grep -q "JOBS must be a whole number of at least 1, not '0'" "$T/jobs.out" ||
    echo "output: $(cat "$T/jobs.out")")"
SEED=x1 sh "$root/bench/bots.sh" "$BIN" nyslice 3 greedy random 3 >"$T/seed.out" 2>&1
check "bots.sh: a SEED that is not a number is refused" "$(grep -q "SEED must be a whole number without a leading 0, not 'x1'" "$T/seed.out" ||
    echo "output: $(cat "$T/seed.out")")"
# random against random: every seat's wins depend on the deals and the moves, so on the seed
for s in default 1000 5000; do
    env $([ $s = default ] || echo SEED=$s) sh "$root/bench/bots.sh" "$BIN" nyslice 4 random random 40 |
        grep ' in seat ' >"$T/seed-$s.out"
done
check "bots.sh: SEED=1000 plays the default's games, SEED=5000 others" \
    "$([ -s "$T/seed-default.out" ] && cmp -s "$T/seed-default.out" "$T/seed-1000.out" || echo "SEED=1000: $(cat "$T/seed-1000.out")")" \
    "$(! cmp -s "$T/seed-default.out" "$T/seed-5000.out" || echo "SEED=5000 played the same games")"
summary bench-bots
