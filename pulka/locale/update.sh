#!/usr/bin/env bash
# Extract every user-facing string into pulka.pot, merge it into the ru, uk and en catalogues
# (new strings come in untranslated, for a translator who follows GLOSSARY.md), and compile.
# Run from anywhere; needs Babel (pip install -e .).
set -euo pipefail
cd "$(dirname "$0")/../.."
PYBABEL=${PYBABEL:-pybabel}
$PYBABEL extract -F pulka/locale/babel.cfg -k t -k tn:1,2 --add-location=file \
  --sort-output --project=pulka --copyright-holder="pulka authors" \
  -o pulka/locale/pulka.pot pulka scanner/words.py scoring/reasons.py
for lang in ru uk en; do
  if [ -f "pulka/locale/$lang/LC_MESSAGES/pulka.po" ]; then
    $PYBABEL update -D pulka -i pulka/locale/pulka.pot -d pulka/locale -l "$lang" \
      --no-fuzzy-matching --ignore-obsolete
  else
    $PYBABEL init -D pulka -i pulka/locale/pulka.pot -d pulka/locale -l "$lang"
  fi
done
$PYBABEL compile -D pulka -d pulka/locale
