#!/bin/sh
# Strength of one bot against one (2 players) or two (3 players) copies of
# another in Pizza Theory, seats rotated: the win share with a Wilson 95%
# interval; parity is 50% at 2 players, 33.3% at 3. At 2 players a game the
# neutral wins is lost by both.
#
#   sh bench/theory-bots.sh [build/pizzabox] [PLAYERS] [BOT] [OPPONENT] [GAMES]
#   sh bench/theory-bots.sh build/pizzabox 3 expert mcts:iters=1000 400
set -eu
exec sh "$(dirname "$0")/bots.sh" "${1:-build/pizzabox}" theory "${2:-3}" "${3:-expert}" "${4:-mcts:iters=1000}" \
    "${5:-400}"
