#!/usr/bin/env python3
"""Play one seat of a New York Slice game against pizzabox bots, through the
engine protocol (`pizzabox engine`, docs/engine.md). Standard library only.

    python3 examples/engine_client.py [--engine build/pizzabox] [--bot expert]
        [--players 4] [--seat 0] [--seed 1] [--me random|BOT]

Our seat reads its own view and the legal moves and picks one (--me random:
at random, seeded; --me BOT: asks that bot to think for it); every other seat
is played by --bot (default expert). Prints every move and the final score.
"""
import argparse
import json
import os
import random
import subprocess
import sys


class EngineError(Exception):
    """The engine refused a command: its `error` line."""


class Engine:
    """One `pizzabox engine` process: a command a line, an answer block back."""

    def __init__(self, argv):
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         encoding="utf-8", errors="replace", bufsize=1)
        except OSError as e:
            raise EngineError("cannot start %s: %s" % (argv[0], e.strerror)) from None

    def ask(self, command):
        """Send one command; its data lines as (keyword, value) pairs.
        Raises EngineError on an `error` answer."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EngineError("the engine stopped answering")
            line = line.rstrip("\n")
            if line == "ok":
                return lines
            if line.startswith("error "):
                raise EngineError(line[len("error "):])
            key, _, value = line.partition(" ")
            lines.append((key, value))

    def value(self, command, key):
        """The value of the first `key` line of the answer."""
        return next(v for k, v in self.ask(command) if k == key)

    def close(self):
        self.ask("quit")
        self.proc.stdin.close()
        self.proc.wait()


def default_engine():
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "build", "pizzabox")
    return built if os.access(built, os.X_OK) else "pizzabox"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=default_engine(), help="the pizzabox binary")
    ap.add_argument("--bot", default="expert", help="the other seats' bot (default expert)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seat", type=int, default=0, help="our seat, 0 to players-1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--me", default="random", help="how our seat chooses: random, or a bot spec")
    args = ap.parse_args()
    if not 0 <= args.seat < args.players:
        ap.error("--seat must be 0 to %d" % (args.players - 1))

    rng = random.Random(args.seed)
    try:
        engine = Engine([args.engine, "engine"])
        engine.ask("new nyslice %d %s" % (args.seed, json.dumps({"players": args.players})))
        # A bot spec is checked before the first move: one look at the opening.
        for spec in [args.bot] + ([] if args.me == "random" else [args.me]):
            engine.ask("think %s" % spec)
        print("New York Slice, %d players, seed %d: we are seat %d, the others %s"
              % (args.players, args.seed, args.seat, args.bot))
        turn = 0
        while True:
            seat = engine.value("seat", "seat")
            if seat == "over":
                break
            seat = int(seat)
            turn += 1
            if seat == args.seat:
                view = json.loads(engine.value("view %d" % seat, "view"))
                if args.me == "random":
                    moves = [v for k, v in engine.ask("moves") if k == "move"]
                    move, why = rng.choice(moves), "one of %d legal moves" % len(moves)
                else:
                    answer = dict(engine.ask("think %s" % args.me))
                    move, why = answer["move"], answer["why"]
                who = "us, %s" % view.get("phase", "?")
            else:
                answer = dict(engine.ask("think %s" % args.bot))
                move, why, who = answer["move"], answer["why"], args.bot
            engine.ask("play " + move)
            print("%3d. seat %d (%s): %s  [%s]" % (turn, seat, who, move, why))
        score = dict(engine.ask("score"))
        totals = [int(t) for t in score["totals"].split()]
        result = [float(r) for r in score["result"].split()]
        print("final score: " + ", ".join("seat %d %d" % (i, t) for i, t in enumerate(totals)))
        winners = [i for i, r in enumerate(result) if r > 0]
        print("winner: " + ", ".join("seat %d" % i for i in winners)
              + (" (us)" if args.seat in winners else ""))
        engine.close()
    except EngineError as e:
        print("engine: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
