#!/bin/sh
# tests/cli/export.sh -- `pizzabox export`: the records of a server's finished
# tables replay at the terminal to the scores the players were shown.
#
#   sh tests/cli/export.sh build/pizzabox
#
# A real `pizzabox serve` (on a free loopback port, with a temporary
# database) plays a few tables through Node's WebSocket client, as
# tests/server/ does: all three games, bots and one or two
# scripted humans, and one table left waiting for a player. The server is
# stopped, then every finished table is exported, replayed and its score
# compared with the `score` of the last view its players received.

. "$(dirname "$0")/lib.sh"
use_binary export "${1:-}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v node >/dev/null 2>&1; then
    echo "export: node is needed to drive the server" >&2
    exit 2
fi

# ---- A server database with finished tables and one unfinished ----
cat >"$T/play.mjs" <<'EOF'
const { startServer, Client, playToEnd, seeded } = await import(process.env.HELPERS);
const server = await startServer(process.argv[2]);
const out = { finished: {}, unfinished: null };
const tables = [
  ['nyslice', ['human', 'greedy', 'random']],
  ['nyslice', ['human', 'human', 'random', 'greedy']],
  ['theory', ['human', 'random', 'greedy']],
  ['theory', ['human', 'greedy']],
  ['delivery', ['human', 'random']],
];
for (const [game, seats] of tables) {
  const ann = await Client.connect(server.url, 'ann');
  const j = await ann.request({ type: 'create', game, players: seats.length, seats, name: 'Ann' },
    (m) => m.type === 'joined' || m.type === 'error');
  if (j.type === 'error') throw new Error(j.message);
  const players = [ann];
  if (seats.filter((s) => s === 'human').length > 1) {
    const bo = await Client.connect(server.url, 'bo');
    await bo.request({ type: 'join', code: j.code, name: 'Bo' }, (m) => m.type === 'joined');
    players.push(bo);
  }
  const ends = await Promise.all(players.map((c, i) => playToEnd(c, j.code, { rng: seeded(11 + i), timeout: 120000 })));
  out.finished[j.code] = ends[0].score;
  for (const c of players) {
    if (c.problems.length) throw new Error(c.problems[0]);
    await c.close();
  }
}
const cy = await Client.connect(server.url, 'cy');
const w = await cy.request({ type: 'create', game: 'nyslice', players: 2, seats: ['human', 'human'], name: 'Cy' },
  (m) => m.type === 'joined');
out.unfinished = w.code;
await cy.close();
await server.stop();
// a sanitizer build of the server reports at exit
if (/Sanitizer|runtime error:/.test(server.stderr)) throw new Error('server: ' + server.stderr.slice(0, 2000));
console.log(JSON.stringify(out));
EOF
DB=$T/server.db
HELPERS=$ROOT/tests/server/helpers.mjs PIZZABOX_BIN=$BIN node --experimental-websocket "$T/play.mjs" "$DB" >"$T/expect.json" 2>"$T/play.err"
rc=$?
check "a server session of five finished tables and one waiting" \
    "$([ $rc -eq 0 ] || echo "node exit $rc: $(head -3 "$T/play.err")")"
[ $rc -eq 0 ] || { summary export; exit 1; }

# jq-free JSON access through node: js EXPRESSION (e is expect.json).
js() {
    node -e "const e = JSON.parse(require('fs').readFileSync('$T/expect.json', 'utf8')); $1"
}
CODES=$(js "console.log(Object.keys(e.finished).join(' '))")
WAITING=$(js "console.log(e.unfinished)")
SUM_BEFORE=$(cksum <"$DB")

# ---- Every finished table ----
"$BIN" export --db "$DB" --out "$T/records" >"$T/all.out" 2>"$T/all.err"
rc=$?
check "export: every finished table, one file each, named by its code" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/all.err")")" \
    "$([ -s "$T/all.err" ] && echo "stderr: $(head -2 "$T/all.err")")" \
    "$(grep -q '^exported 5 finished tables of ' "$T/all.out" || echo "summary: $(cat "$T/all.out")")" \
    "$(for c in $CODES; do [ -f "$T/records/$c.json" ] || echo "no $c.json"; done)" \
    "$([ "$(ls "$T/records" | wc -l)" -eq 5 ] || echo "files: $(ls "$T/records" | tr '\n' ' ')")" \
    "$([ -f "$T/records/$WAITING.json" ] && echo 'the unfinished table was exported')"

problems=""
for c in $CODES; do
    if ! "$BIN" replay "$T/records/$c.json" >"$T/$c.score" 2>"$T/$c.err"; then
        problems="$problems $c does not replay ($(head -1 "$T/$c.err"));"
        continue
    fi
    same=$(js "const got = JSON.parse(require('fs').readFileSync('$T/$c.score', 'utf8'));
        const want = e.finished['$c'];
        console.log(JSON.stringify(got) === JSON.stringify(want) ? 'same' : 'differs: ' + JSON.stringify(got).slice(0, 200))")
    [ "$same" = same ] || problems="$problems $c $same;"
done
check "replay: every exported game ends with the score its players were shown" "$problems"
# written with the record version of today, so that a Delivery game is read
# with the rules' current edition, not as a game from before (docs/records.md)
check "export: records of the current version, no earlier rules edition named" \
    "$(for c in $CODES; do grep -q '"version":4,' "$T/records/$c.json" || echo "$c: not version 4"; done)" \
    "$(grep -l '"edition"' "$T"/records/*.json)"

C1=${CODES%% *}
"$BIN" export --db "$DB" --code "$C1" >"$T/one.json" 2>"$T/one.err"
rc=$?
check "export --code: one record to standard output, the same as its file" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/one.err")")" \
    "$([ "$(cat "$T/one.json")" = "$(cat "$T/records/$C1.json")" ] || echo 'stdout differs from the file')"
"$BIN" export --db "$DB" --code "$C1" --out "$T/one" >/dev/null 2>"$T/one.err"
rc=$?
check "export --code --out: DIR/CODE.json, nothing else" \
    "$([ $rc -eq 0 ] || echo "exit $rc: $(head -2 "$T/one.err")")" \
    "$(cmp -s "$T/one/$C1.json" "$T/records/$C1.json" || echo 'the file differs')" \
    "$([ "$(ls "$T/one" | wc -l)" -eq 1 ] || echo "files: $(ls "$T/one" | tr '\n' ' ')")"
check "export only reads the database" \
    "$([ "$(cksum <"$DB")" = "$SUM_BEFORE" ] || echo 'the database file changed')" \
    "$([ -e "$DB-wal" ] && echo 'a write-ahead log was left behind')"

# ---- Bad input: one line on stderr, nothing on stdout, exit 2 ----
printf 'not a database\n' >"$T/text.db"
: >"$T/empty.db"
bad() {
    desc=$1
    want=$2
    shift 2
    "$BIN" export "$@" >"$T/bad.out" 2>"$T/bad.err"
    rc=$?
    check "export refuses $desc" \
        "$([ $rc -eq 2 ] || echo "exit $rc")" \
        "$([ -s "$T/bad.out" ] && echo "stdout: $(head -1 "$T/bad.out")")" \
        "$([ "$(wc -l <"$T/bad.err")" -eq 1 ] || echo "stderr has $(wc -l <"$T/bad.err") lines")" \
        "$(grep -q "$want" "$T/bad.err" || echo "message: $(head -1 "$T/bad.err")")"
}
bad "a missing --db" "give the server's database" --code "$C1"
bad "a database that does not exist" "cannot open .*No such file" --db "$T/nope.db"
bad "a file that is not a database" "is not a pizzabox database" --db "$T/text.db"
bad "an empty file" "is not a pizzabox database" --db "$T/empty.db"
bad "an unknown code" 'no table with the code "ZZZZ"' --db "$DB" --code ZZZZ
bad "a table not finished" "table $WAITING is not finished (0 moves so far)" --db "$DB" --code "$WAITING"
bad "an unknown option" "unknown option '--zip'" --db "$DB" --zip
check "the empty file is left as it was" "$([ -s "$T/empty.db" ] && echo 'it was written')"

summary export
