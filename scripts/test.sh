#!/usr/bin/env bash
# Set up (scripts/setup.sh), then run every check: ruff, mypy on scoring and forms, the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy scoring forms
.venv/bin/python -m pytest "$@"
