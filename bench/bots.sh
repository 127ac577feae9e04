#!/bin/sh
# Strength of one bot against copies of another in any game, seats rotated so
# the tested bot plays every seat equally: its win share with a Wilson 95%
# interval, and parity (an equal share: 1 / players). A shared win counts as
# a share; a game nobody wins (Pizza Theory's neutral, a draw) counts as a
# loss for everyone, and then a last line gives the tested bot's share of
# the games a player won, whose parity is 1 / players.
#
# The seats' games run side by side, JOBS at a time (default: the cores).
# Seat k's games are seeded from SEED + k (default 1000): the same SEED plays
# the same deals, a SEED at least PLAYERS away from another an independent
# sample.
#
#   [JOBS=N] [SEED=N] sh bench/bots.sh [build/pizzabox] [GAME] [PLAYERS] [BOT] [OPPONENT] [GAMES]
#   sh bench/bots.sh build/pizzabox theory 3 expert mcts:iters=1000 400
set -eu
bin=${1:-build/pizzabox}
game=${2:-nyslice}
players=${3:-4}
bot=${4:-greedy}
opp=${5:-random}
games=${6:-2000}
per_seat=$(((games + players - 1) / players)) # at least GAMES
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
'' | *[!0-9]* | 0)
    echo "bots.sh: JOBS must be a whole number of at least 1, not '$jobs'" >&2
    exit 2
    ;;
esac
base=${SEED:-1000}
case $base in
'' | *[!0-9]* | 0?*) # a leading 0 would read as octal
    echo "bots.sh: SEED must be a whole number without a leading 0, not '$base'" >&2
    exit 2
    ;;
esac
out=$(mktemp -d)
running="" # "pid:seat" of the selfplays not yet waited for
# However the script ends, no selfplay is left running.
trap 'for r in $running; do kill "${r%%:*}" 2>/dev/null || :; done; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM HUP
start=$(date +%s)
# One selfplay per tested seat, its output in $out/SEAT; at most $jobs at once.
seat=0
while [ "$seat" -lt "$players" ]; do
    bots=""
    s=0
    while [ "$s" -lt "$players" ]; do
        if [ "$s" = "$seat" ]; then b=$bot; else b=$opp; fi
        bots="${bots:+$bots,}$b"
        s=$((s + 1))
    done
    "$bin" selfplay --game "$game" --players "$players" --games "$per_seat" --seed $((base + seat)) \
        --bots "$bots" >"$out/$seat" 2>"$out/$seat.err" &
    running="$running $!:$seat"
    seat=$((seat + 1))
    if [ $((seat % jobs)) = 0 ] || [ "$seat" = "$players" ]; then
        for r in $running; do
            # A bad game, count or bot: stop with pizzabox's message.
            wait "${r%%:*}" || { cat "$out/${r#*:}.err" >&2; exit 1; }
            running=${running#* "$r"}
        done
    fi
done
total=0
opps=0
seat=0
while [ "$seat" -lt "$players" ]; do
    # The summary's "wins" list, one share per seat.
    wins=$(tail -n 1 "$out/$seat" | sed 's/.*"wins":\[\([^]]*\)\].*/\1/')
    mine=$(echo "$wins" | awk -F, -v s=$((seat + 1)) '{print $s}')
    others=$(echo "$wins" | awk -F, -v s=$((seat + 1)) '{t = 0; for (i = 1; i <= NF; i++) if (i != s) t += $i; print t}')
    echo "$bot in seat $((seat + 1)) of $players against $opp: $mine wins in $per_seat games"
    total=$(echo "$total $mine" | awk '{print $1 + $2}')
    opps=$(echo "$opps $others" | awk '{print $1 + $2}')
    seat=$((seat + 1))
done
echo "$total $((per_seat * players)) $opps $(($(date +%s) - start))" |
    awk -v bot="$bot" -v opp="$opp" -v players="$players" '{
    n = $2; p = $1 / n; z = 1.959964
    d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    printf "%s vs %d x %s: win share %.1f%% (95%% CI %.1f%%-%.1f%%) over %d games, parity %.3g%%\n",
           bot, players - 1, opp, 100 * p, 100 * (c - h), 100 * (c + h), n, 100 / players
    printf "each %s: %.1f%%; nobody: %.1f%%; %d s\n", opp, 100 * $3 / n / (players - 1),
           (1 - p - $3 / n > 0.0005 ? 100 * (1 - p - $3 / n) : 0), $4
    # Where games can end with no winner (the neutral), equal bots share
    # what the players win: parity there is the share of those.
    w = $1 + $3
    if (n - w > 0.5 && w > 0) {
        q = $1 / w; d = 1 + z * z / w; c = (q + z * z / (2 * w)) / d
        h = z * sqrt(q * (1 - q) / w + z * z / (4 * w * w)) / d
        printf "of the %.0f games a player won: %s %.1f%% (95%% CI %.1f%%-%.1f%%), parity %.3g%%\n",
               w, bot, 100 * q, 100 * (c - h), 100 * (c + h), 100 / players
    }
}'
