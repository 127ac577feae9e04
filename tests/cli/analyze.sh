#!/bin/sh
# tests/cli/analyze.sh -- `pizzabox analyze`: a record's decisions reviewed
# from each seat's own information, in words and as JSON lines.
#
#   sh tests/cli/analyze.sh build/pizzabox
#
# A game is played through `pizzabox engine` (greedy bots) in which a seat
# once plays a move the search rates far below its best; the analysis must
# mark that move a blunder. A selfplay record checks the report's shape.

. "$(dirname "$0")/lib.sh"
use_binary analyze "${1:-}"

# ---- A planted blunder ----
cat >"$T/plant.py" <<'PY'
import json, subprocess, sys
engine = subprocess.Popen([sys.argv[1], "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def ask(line):
    engine.stdin.write(line + "\n"); engine.stdin.flush()
    out = []
    while True:
        l = engine.stdout.readline().rstrip("\n")
        if l == "ok": return out
        if l.startswith("error"): sys.exit(f"{line}: {l}")
        out.append(l)
SEED = 12  # a game with a move 25 points of chance below the best (the search's values)
config = json.loads(next(l for l in ask(f'new nyslice {SEED} {{"players":4}}') if l.startswith("config "))[7:])
actions, planted, planted_seat = [], None, None
while True:
    seat = ask("seat")[0]
    if seat == "seat over": break
    move = None
    if len(actions) > 4 and planted is None:
        cands = [l.split(" ", 3) for l in ask("think hard 5") if l.startswith("candidate ")]
        best = float(cands[0][2])
        bad = [c for c in cands[1:] if int(c[1]) >= 5 and best - float(c[2]) >= 0.25]
        if bad:
            move, planted, planted_seat = bad[-1][3], len(actions), int(seat.split()[1])
    if move is None:
        move = next(l for l in ask("think greedy 3") if l.startswith("move "))[5:]
    ask("play " + move)
    actions.append(move)
ask("quit")
json.dump({"format": "pizzabox-record", "version": 2, "game": "nyslice", "config": config, "seed": SEED,
           "actions": actions}, open(sys.argv[2], "w"))
print(f"{planted} {planted_seat}" if planted is not None else "-1 0")
PY
plant=$(python3 "$T/plant.py" "$BIN" "$T/planted.json" 2>"$T/plant.err")
planted=${plant% *} # the move's index in the record, and its seat (from 0)
seat=${plant#* }
"$BIN" analyze "$T/planted.json" --seat $((seat + 1)) --json >"$T/planted.out" 2>"$T/planted.err"
rc=$?
check "analyze: a move far below the best found is marked a blunder" \
    "$([ -n "$planted" ] && [ "$planted" -ge 0 ] 2>/dev/null || echo "no move planted: $(cat "$T/plant.err")")" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -3 "$T/planted.err")")" \
    "$(grep -q "^{\"move\":$planted,\"seat\":$seat,.*\"mark\":\"blunder\"" "$T/planted.out" ||
        echo "move $planted not a blunder: $(grep "^{\"move\":$planted," "$T/planted.out")")" \
    "$(grep -v '^{"seat"' "$T/planted.out" | grep -v "\"seat\":$seat," | head -1)"

# ---- The report of a whole game ----
"$BIN" selfplay --game nyslice --players 3 --games 1 --seed 4 --bots greedy,random,easy \
    --record-dir "$T/games" >/dev/null 2>&1
REC="$T/games/game-000000.json"
"$BIN" analyze "$REC" --bot easy >"$T/words.out" 2>"$T/words.err"
rc=$?
check "analyze: every seat's decisions in words, then each seat's totals" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -3 "$T/words.err")")" \
    "$(grep -q '^ *[0-9][0-9]* Seat [123]: .* ([0-9.]*%' "$T/words.out" || echo 'no decision line')" \
    "$(grep "good$" "$T/words.out" | head -1)" \
    "$([ "$(grep -c '^Seat [123]: [0-9]* decisions reviewed' "$T/words.out")" -eq 3 ] || echo 'not three totals')" \
    "$(grep -q '^  [0-9]* inaccurac' "$T/words.out" || echo 'no counts of marks')" \
    "$(python3 - "$T/words.out" <<'PY'
import re, sys
problems, compared = [], 0
for line in open(sys.argv[1]):
    m = re.search(r"\(([0-9.]+)%( or less)?\); best .* \(([0-9.]+)%\): (-([0-9.]+)(, (\w+))?|no difference found)$", line)
    if not m: continue
    compared += 1
    played, best = float(m.group(1)), float(m.group(3))
    loss = float(m.group(5)) if m.group(5) else 0
    if best < played: problems.append(f"a best below the move played: {line.strip()}")
    if abs(best - played - loss) > 1e-9: problems.append(f"the loss is not the difference: {line.strip()}")
    want = "blunder" if loss >= 20 else "mistake" if loss >= 10 else "inaccuracy" if loss >= 5 else None
    if m.group(7) != want: problems.append(f"marked {m.group(7)}, not {want}: {line.strip()}")
if not compared: problems.append("no decision with a better move found")
print("; ".join(problems[:3]))
PY
)"
# "paid in parts" only where a game has moves paid in parts (Delivery's payments).
"$BIN" selfplay --game delivery --players 2 --games 1 --seed 4 --bots greedy --record-dir "$T/dgames" >/dev/null 2>&1
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["actions"] = r["actions"][:40]; print(json.dumps(r))' \
    "$T/dgames/game-000000.json" >"$T/dpart.json" 2>/dev/null
"$BIN" analyze "$T/dpart.json" --bot easy >"$T/dwords.out" 2>&1
check "analyze: totals speak of moves \"paid in parts\" in Delivery only, not in New York Slice" \
    "$(grep -m1 'paid in parts' "$T/words.out")" \
    "$(grep -q '^Seat 1: [0-9]* decisions reviewed ([0-9]* more had one move):$' "$T/words.out" ||
        echo "New York Slice's totals: $(grep -m1 '^Seat 1: ' "$T/words.out")")" \
    "$(grep -q '^Seat 1: .* more had one move, or were paid in parts):$' "$T/dwords.out" ||
        echo "Delivery's totals: $(grep -m1 '^Seat 1: ' "$T/dwords.out")")"

"$BIN" analyze "$REC" --bot easy --json --seat 2 >"$T/json.out" 2>"$T/json.err"
rc=$?
check "analyze --json: a line per decision of the seat, values and marks consistent, then its totals" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -3 "$T/json.err")")" \
    "$(python3 - "$T/json.out" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
*moves, total = lines
problems = []
if not moves: problems.append("no decisions")
for m in moves:
    if m["seat"] != 1: problems.append(f"move {m['move']} is seat {m['seat']}'s")
    if m["mark"] in ("forced", "parts"): continue
    if not (0 <= m["played_chance"] <= 1 and 0 <= m["best_chance"] <= 1): problems.append(f"move {m['move']}: chance out of range")
    want = "blunder" if m["loss"] >= 0.2 else "mistake" if m["loss"] >= 0.1 else "inaccuracy" if m["loss"] >= 0.05 else "good"
    if m["mark"] != want: problems.append(f"move {m['move']}: loss {m['loss']} marked {m['mark']}")
    if m["played"] == m["best"] and m["loss"] != 0: problems.append(f"move {m['move']}: the best found lost something")
    if m["played"] != m["best"] and m["played_weighed"] and m["played_chance"] >= m["best_chance"]:
        problems.append(f"move {m['move']}: a best rated no higher than the move played")
if total.get("seat") != 1 or total["reviewed"] + total["forced"] != len(moves): problems.append(f"totals: {total}")
print("; ".join(problems[:3]))
PY
)"

# ---- Bad input ----
"$BIN" analyze "$REC" --bot greedy >"$T/greedy.out" 2>"$T/greedy.err"; rc_greedy=$?
"$BIN" analyze "$REC" --bot perfect >/dev/null 2>"$T/perfect.err"; rc_perfect=$?
"$BIN" analyze "$REC" --bot mcts:iters=0 >/dev/null 2>"$T/iters.err"; rc_iters=$?
"$BIN" analyze "$REC" --seat 4 >/dev/null 2>"$T/seat.err"; rc_seat=$?
printf '{"format":"pizzabox-record","version":2,"game":"nyslice","config":{"players":3},"seed":1,"actions":["take Z"]}' \
    >"$T/bad.json"
"$BIN" analyze "$T/bad.json" >/dev/null 2>"$T/bad.err"; rc_bad=$?
check "analyze: a bot that does not search, a seat not in the game, a bad record: errors that say so" \
    "$([ $rc_greedy -eq 2 ] && grep -q "needs a searching bot.*(not 'greedy')" "$T/greedy.err" || echo "greedy: exit $rc_greedy")" \
    "$([ -s "$T/greedy.out" ] && echo "a refused bot still printed: $(head -1 "$T/greedy.out")")" \
    "$([ $rc_perfect -eq 2 ] && grep -q "needs a searching bot.*(not 'perfect')" "$T/perfect.err" || echo "perfect: exit $rc_perfect")" \
    "$([ $rc_iters -eq 2 ] && grep -q "'iters=0': iters takes a whole number from 1 to" "$T/iters.err" || echo "iters=0: exit $rc_iters")" \
    "$([ $rc_seat -eq 2 ] && grep -q -- '--seat 4: the game has 3 seats' "$T/seat.err" || echo "seat 4: exit $rc_seat")" \
    "$([ $rc_bad -eq 2 ] && grep -q 'take Z' "$T/bad.err" || echo "bad record: exit $rc_bad $(cat "$T/bad.err")")"

# ---- A record that stops before the game's end ----
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["actions"] = r["actions"][:8]; print(json.dumps(r))' \
    "$REC" >"$T/part.json"
"$BIN" analyze "$T/part.json" --bot easy >"$T/part.out" 2>&1; rc_part=$?
"$BIN" analyze "$T/part.json" --bot easy --json --seat 1 >"$T/partj.out" 2>&1
check "analyze: a record that stops before the game's end is reviewed, and says so" \
    "$([ $rc_part -eq 0 ] || echo "exit $rc_part: $(head -2 "$T/part.out")")" \
    "$(grep -q '^The record ends before the game does' "$T/part.out" || echo 'not said in words')" \
    "$(tail -1 "$T/partj.out" | grep -q '"finished":false' || echo "not said in JSON: $(tail -1 "$T/partj.out")")" \
    "$(tail -1 "$T/json.out" | grep -q '"finished":true' || echo 'a whole game not finished in JSON')"

summary analyze
