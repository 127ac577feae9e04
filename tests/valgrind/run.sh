#!/bin/sh
# tests/valgrind/run.sh -- whole games through each front end under valgrind
# memcheck: the terminal (New York Slice and Pizza Theory, a human seat fed
# from a script), the simulator (two threads), the engine protocol and the
# server (a table of each game over a WebSocket, then a clean stop). Any
# memory error, and any leak definitely, indirectly or possibly lost, fails
# the run; memory still reachable at exit (libraries' caches) does not.
#
#   sh tests/valgrind/run.sh build/pizzabox
. "$(dirname "$0")/../cli/lib.sh"
use_binary valgrind "$1"
HERE=$(cd "$(dirname "$0")" && pwd)

if ! command -v valgrind >/dev/null; then
    echo "valgrind: not installed (make installs it with the test packages)" >&2
    exit 2
fi
# The program's allocator is jemalloc: valgrind puts its own in its place.
VG="valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --track-origins=yes --soname-synonyms=somalloc=libjemalloc.so*"

# memcheck NAME LOG: ok when the log shows no error and no leak.
memcheck() {
    summary=$(grep 'ERROR SUMMARY' "$2" | tail -1 | sed 's/^==[0-9]*== //')
    leaks=$(grep -E '(definitely|indirectly|possibly) lost: [1-9]' "$2" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')
    case $summary in
    "ERROR SUMMARY: 0 errors"*) check "$1" "$leaks" ;;
    "") not_ok "$1" "no valgrind summary in $2" ;;
    *) not_ok "$1" "$summary" "$leaks" "$(grep -m 20 -E '^==[0-9]+== (Invalid|Conditional|Use of|  at|   by)' "$2")" ;;
    esac
}

# Enter plays the suggested (greedy) move at every prompt until the game ends.
yes '' | head -n 400 >"$T/enter.in"

$VG --log-file="$T/play-nyslice.vg" "$BIN" play --hint greedy --seats human,greedy,random,greedy \
    --seed 5 <"$T/enter.in" >"$T/play-nyslice.out" 2>&1
grep -q '^Winner' "$T/play-nyslice.out" || not_ok "terminal, New York Slice: the game did not finish" \
    "$(tail -3 "$T/play-nyslice.out")"
memcheck "terminal, New York Slice: a whole game, no memory errors or leaks" "$T/play-nyslice.vg"

$VG --log-file="$T/play-theory.vg" "$BIN" play --game theory --hint greedy --seats human,greedy,random \
    --seed 5 <"$T/enter.in" >"$T/play-theory.out" 2>&1
grep -q '^Winner\|^No winner\|[Dd]raw' "$T/play-theory.out" || not_ok "terminal, Pizza Theory: the game did not finish" \
    "$(tail -3 "$T/play-theory.out")"
memcheck "terminal, Pizza Theory: a whole game, no memory errors or leaks" "$T/play-theory.vg"

$VG --log-file="$T/sim.vg" "$BIN" sim --games 40 --threads 2 --bots greedy,random,random,random \
    --out "$T/sim.jsonl" >"$T/sim.out" 2>&1
[ "$(wc -l <"$T/sim.jsonl")" -ge 40 ] || not_ok "simulator: not every game written" "$(tail -3 "$T/sim.out")"
memcheck "simulator: 40 games on two threads, no memory errors or leaks" "$T/sim.vg"

# The engine protocol: the fuzzer's seed sessions, one after the other (each
# game, think, determinize, undo, a record loaded, bad input).
for f in bad delivery delivery-coop nyslice-load nyslice-session theory-session; do
    grep -vx quit "$HERE/../fuzz/corpus/fuzz_engine_protocol/$f"
done >"$T/engine.in"
$VG --log-file="$T/engine.vg" "$BIN" engine <"$T/engine.in" >"$T/engine.out" 2>&1
[ "$(grep -c '^ok$' "$T/engine.out")" -ge 20 ] || not_ok "engine protocol: the sessions were not answered" \
    "$(tail -3 "$T/engine.out")"
memcheck "engine protocol: every game's commands, no memory errors or leaks" "$T/engine.vg"

# The server: node starts it through a wrapper that runs it under valgrind.
printf '#!/bin/sh\nexec %s --log-file=%s %s "$@"\n' "$(echo $VG)" "$T/serve.vg" "$BIN" >"$T/serve-vg"
chmod +x "$T/serve-vg"
if PIZZABOX_BIN="$T/serve-vg" node --experimental-websocket "$HERE/server-games.mjs" "$T/serve.db" \
    >"$T/serve.out" 2>&1; then
    memcheck "server: a table of each game to the end and a clean stop, no memory errors or leaks" "$T/serve.vg"
else
    not_ok "server: the games did not finish" "$(tail -5 "$T/serve.out")"
fi

summary valgrind
