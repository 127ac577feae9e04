#!/usr/bin/env python3
"""How well a search's reported chance of winning predicts the winner.

Plays GAMES games of GAME at PLAYERS players through the engine protocol
(docs/engine.md), every seat by `greedy`. Every EVERY decisions each BOT
thinks for the seat to move; the chance it reports for the move it would play
(its most visited root move's value) is kept with that seat. At the end each
kept chance is scored against the seat's share of the win: the Brier score
(0 is perfect; always saying 50% scores 0.25) overall and by third of the
game, and the temperature T that would calibrate it best (the chance read as
logistic(logit(p) / T)), which is what a game's `chance_temper` holds
(core/game.h). Standard library only.

    python3 bench/chance-calibration.py [--engine build/pizzabox] [--game delivery]
        [--players 2] [--games 60] [--every 10] [--seed 1000] [BOT ...]

BOTs default to `medium` and `hard`. The reported chances are taken as the
binary reports them: run it with a chance_temper of 1 to measure the raw
search, or as built to check a calibration.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples'))
from engine_client import Engine  # noqa: E402

TEMPERATURES = [1, 1.25, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6]
THIRDS = [('first third', 0, 1 / 3), ('middle third', 1 / 3, 2 / 3), ('last third', 2 / 3, 1.01)]


def tempered(p, t):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 1 / (1 + math.exp(-math.log(p / (1 - p)) / t))


def brier(samples, t=1.0):
    return sum((tempered(p, t) - won) ** 2 for p, won, _ in samples) / len(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--engine', default='build/pizzabox')
    ap.add_argument('--game', default='delivery')
    ap.add_argument('--players', type=int, default=2)
    ap.add_argument('--games', type=int, default=60)
    ap.add_argument('--every', type=int, default=10)
    ap.add_argument('--seed', type=int, default=1000)
    ap.add_argument('bots', nargs='*', default=['medium', 'hard'])
    a = ap.parse_args()
    kept = {b: [] for b in a.bots}
    e = Engine([a.engine, 'engine'])
    for g in range(a.games):
        e.ask('new %s %d {"players": %d}' % (a.game, a.seed + g, a.players))
        said, moves = [], 0
        while True:
            seat = e.value('seat', 'seat')
            if not seat.isdigit():
                break
            if moves % a.every == 0:
                for b in a.bots:
                    cands = [v.split() for k, v in e.ask('think ' + b) if k == 'candidate']
                    if cands:
                        best = max(cands, key=lambda c: int(c[0]))
                        said.append((b, int(seat), float(best[1]), moves))
            e.ask('play ' + e.value('think greedy', 'move'))
            moves += 1
        result = [float(x) for x in e.value('score', 'result').split()]
        for b, seat, p, at in said:
            kept[b].append((p, result[seat], at / max(moves, 1)))
        print('game %d: %d moves, result %s' % (g + 1, moves, ' '.join('%g' % r for r in result)), file=sys.stderr)
    e.close()
    print('%s, %d players, %d games played by greedy, a chance every %d decisions' %
          (a.game, a.players, a.games, a.every))
    for b in a.bots:
        s = kept[b]
        if not s:
            print('%s: no chances reported' % b)
            continue
        best = min(TEMPERATURES, key=lambda t: brier(s, t))
        print('%s: %d chances, Brier %.3f; best temperature %g: Brier %.3f' % (b, len(s), brier(s), best, brier(s, best)))
        for name, lo, hi in THIRDS:
            part = [x for x in s if lo <= x[2] < hi]
            if part:
                print('  %-12s %4d chances, Brier %.3f (at %g: %.3f), mean distance from 50%% %.2f' %
                      (name, len(part), brier(part), best, brier(part, best), sum(abs(p - .5) for p, _, _ in part) / len(part)))


if __name__ == '__main__':
    main()
