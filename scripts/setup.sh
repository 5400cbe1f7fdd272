#!/usr/bin/env bash
# Set up a fresh Debian machine for pulka: system packages, then a virtual environment in .venv.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  tesseract-ocr          # printed sheet ids, and the benchmark's second digit reader
  fonts-dejavu-core      # Cyrillic labels and suit signs on the printed sheets
  fonts-humor-sans fonts-dkg-handwriting  # handwriting fonts for the digit classifier's training
  fonts-comic-neue fonts-breip fonts-femkeklaver fonts-klee fonts-kristi  # more of them (samplegen.split)
  chromium chromium-driver  # the review page's and the report's tests drive a real browser
)
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
# The message catalogues: .po sources in git, .mo compiled here (pulka/locale/update.sh remakes
# both after a string changes).
.venv/bin/pybabel compile --statistics -D pulka -d pulka/locale
# Handwriting fonts from the npm registry into ~/.cache/pulka/fonts (outside git; the twelve
# reserved fonts of samplegen.split are never fetched). A machine without the registry still works:
# the open sample profile then uses the pen-stroke writers and the fonts that are there.
command -v npm >/dev/null && .venv/bin/python -m samplegen.fonts || echo "setup: handwriting fonts not fetched; run .venv/bin/python -m samplegen.fonts later" >&2
