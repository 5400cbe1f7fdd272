#!/usr/bin/env bash
# The main job on the bundled samples, after set-up: print sheets, fill them in real handwriting
# (a scan and a phone photo, with recording errors), scan them with the bundled samples, audit,
# settle, and keep a tournament store with standings. Everything goes to out/demo/.
# The language of every output (CLI, reports, standings, the review page): `--lang ru|uk|en` as
# the first arguments, or PULKA_LANG=ru|uk|en, else the locale (LANG=ru_RU.UTF-8), else English.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--lang" ]; then
  PULKA_LANG=${2:?"--lang needs a language: ru, uk or en"}
fi
LANG_ARGS=()
if [ -n "${PULKA_LANG:-}" ]; then LANG_ARGS=(--lang "$PULKA_LANG"); fi
bash scripts/setup.sh
OUT=out/demo
rm -rf "$OUT"
mkdir -p "$OUT"
pulka() { .venv/bin/pulka ${LANG_ARGS[@]+"${LANG_ARGS[@]}"} "$@"; }
# commands that report findings or doubtful cells exit 1: that is a result, not a failure
allow_findings() { "$@" || [ $? -eq 1 ]; }

echo "== 1. print: a tournament round for 3 players, a blank 4-player Leningrad sheet"
pulka print --players 3 --tournament "Demo Cup" --rounds 1 --tables 2 -o "$OUT/printed/round-1.pdf"
pulka print --players 4 --variant leningrad --pool 20 --lang en -o "$OUT/printed/blank-4.pdf"

echo "== 2. fill: random games written in real handwriting, scanned and photographed"
pulka samples --random 2 --variant sochi --players 3 --seed 11 --scan --errors 2 \
  --out "$OUT/filled/sochi-scan"
pulka samples --random 1 --variant leningrad --players 4 --seed 12 --photo --errors 1 \
  --out "$OUT/filled/leningrad-photo"

echo "== 3. scan: the filled sheets and the bundled samples (samples/scans)"
allow_findings pulka scan "$OUT/filled" samples/scans --out "$OUT/scans"

echo "== 4. audit: an HTML and a PDF report per sheet"
for scan in "$OUT"/scans/*/scan.json; do
  allow_findings pulka audit "$scan" --report "$OUT/reports" > /dev/null
done
ls "$OUT/reports"

echo "== 5. settle: each game in whists (Codex 4.2.14), as a table and as JSON"
for record in "$OUT"/scans/*/record.json; do
  echo "-- $record"
  pulka settle "$record" | tail -6
done

echo "== 6. tournament: import the filled sheets into a store and rank the players (Codex 4.1.3)"
allow_findings pulka import "$OUT/filled" --db "$OUT/demo.sqlite" --out "$OUT/store-scans"
pulka standings --db "$OUT/demo.sqlite" --csv "$OUT/standings.csv" | tee "$OUT/standings.txt"
allow_findings pulka show "$(ls "$OUT/store-scans" | head -n 1)" --db "$OUT/demo.sqlite" | head -n 20

echo "Done: see $OUT (printed/, filled/, scans/, reports/, standings.csv)."
echo "Settle the doubtful cells in the browser: .venv/bin/pulka ${LANG_ARGS[*]+${LANG_ARGS[*]} }review --db $OUT/demo.sqlite"
