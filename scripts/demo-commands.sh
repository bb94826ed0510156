#!/usr/bin/env bash
# The command loop, end to end, on a throwaway console: start the console (gunicorn, a fresh
# SQLite database in a temporary folder, on a free port), start the device simulator
# (`flask telemetry simulate`) against it, send `stir 5` through the API with curl, and watch the
# command go queued -> delivered -> executed and the gas pressure rise in the readings.
#
#   scripts/demo-commands.sh            (needs curl and jq; `make -s build` done once)
#
# Everything it starts is stopped, and its folder removed, when it ends.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.venv/bin"
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

WORK="$(mktemp -d "${TMPDIR:-/tmp}/sibol-demo-XXXXXX")"
PORT="$("$VENV/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
PIDS=()
stop_all() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap stop_all EXIT

# A console of its own: its database, secret, queue and rate-limit store all live in $WORK.
export DATABASE_URL="sqlite:///$WORK/demo.sqlite3" SIBOL_INSTANCE="demo_commands_$$" \
  SIBOL_SAMPLE_DATA=0 SIBOL_ADMIN_PASSWORD="Demo-pass-2024!" SIBOL_BASE_URL="$BASE" FLASK_APP=wsgi
cd "$ROOT"
say() { printf '\n== %s\n' "$*"; }
at() { date -u +%H:%M:%S; }

say "Console: migrations and reference data, then gunicorn on $BASE"
"$VENV/flask" setup 2>/dev/null | grep -v password
"$VENV/gunicorn" --workers 2 --bind "127.0.0.1:$PORT" --log-level warning wsgi:app &
PIDS+=($!)
for _ in $(seq 50); do curl -fsS -o /dev/null "$BASE/login" 2>/dev/null && break; sleep 0.2; done

say "Simulator: flask telemetry simulate --machines 1 --interval 3 --poll 2 (log below)"
"$VENV/flask" telemetry simulate --machines 1 --interval 3 --poll 2 --duration 0 \
  --fault-rate 0 --silence-rate 0 --seed 4 --base-url "$BASE" >"$WORK/simulator.log" 2>&1 &
PIDS+=($!)
sleep 15 # a few readings before the command

TOKEN="$(curl -fsS "$BASE/api/auth/login" -H 'Content-Type: application/json' \
  -d "{\"username\": \"admin\", \"password\": \"$SIBOL_ADMIN_PASSWORD\"}" | jq -r .token)"
AUTH=(-H "Authorization: Bearer $TOKEN")
# The machine the simulator runs (the first one), from its log: "Machine #1 <name>: new device key issued".
MACHINE="$(sed -n 's/^Machine #\([0-9]*\) .*: new device key issued$/\1/p' "$WORK/simulator.log" | head -1)"
[ -n "$MACHINE" ] || { cat "$WORK/simulator.log"; echo "the simulator did not start" >&2; exit 1; }

say "$(at) POST /api/machines/$MACHINE/commands {\"command\": \"stir\", \"value\": 5}"
SENT="$(curl -sS -w '\nHTTP %{http_code}' "${AUTH[@]}" -H 'Content-Type: application/json' \
  -d '{"command": "stir", "value": 5}' "$BASE/api/machines/$MACHINE/commands")"
echo "$SENT"
CID="$(echo "$SENT" | head -1 | jq .id)"
last="$(echo "$SENT" | head -1 | jq -r .status)"

say "Its status, asked every 0.5 s (GET /api/machines/$MACHINE/commands), printed when it changes"
echo "$(at) #$CID $last (the POST's answer)"
for _ in $(seq 40); do
  status="$(curl -fsS "${AUTH[@]}" "$BASE/api/machines/$MACHINE/commands" | jq -r ".data[] | select(.id == $CID) | .status")"
  if [ "$status" != "$last" ]; then echo "$(at) #$CID $status"; last="$status"; fi
  case "$status" in executed | failed | expired) break ;; esac
  sleep 0.5
done

say "Every change of #$CID, as the device page shows them (newest first)"
curl -fsS "${AUTH[@]}" "$BASE/api/machines/$MACHINE/commands" |
  jq -r ".data[] | select(.id == $CID) | .events[] | \"\(.at)  \(.status)  \(.by)  \(.detail // \"\")\""

sleep 15 # a few readings while it stirs
say "Gas pressure (kPa) in the readings: stirring frees trapped gas, +1.5 kPa while it lasts"
DONE_AT="$(curl -fsS "${AUTH[@]}" "$BASE/api/machines/$MACHINE/commands" |
  jq -r ".data[] | select(.id == $CID) | .events[] | select(.status == \"executed\") | .at")"
curl -fsS "${AUTH[@]}" "$BASE/api/machines/$MACHINE/telemetry?metric=pressure_kpa&bucket=raw" |
  jq -r --arg done "$DONE_AT" '.data[] | "\(.ts)  \(.avg)\(if .ts >= $done then "  stirring" else "" end)"'
curl -fsS "${AUTH[@]}" "$BASE/api/machines/$MACHINE/telemetry?metric=pressure_kpa&bucket=raw" |
  jq -r --arg done "$DONE_AT" '
    def avg: if length == 0 then "-" else (add / length * 100 | round / 100) end;
    [.data[] | select(.ts < $done) | .avg] as $before | [.data[] | select(.ts >= $done) | .avg] as $after
    | "average before: \($before | avg) kPa (\($before | length) readings), while stirring: \($after | avg) kPa (\($after | length) readings)"'

say "Simulator log"
cat "$WORK/simulator.log"
