#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run every check: ruff, mypy (strict) on scoring, forms, scanner
# and pulka, the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy scoring forms scanner samplegen pulka
.venv/bin/python -m pytest "$@"
