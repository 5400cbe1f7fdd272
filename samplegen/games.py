"""Random games that fit a printed sheet: every total a whole number, every row and entry in
its boxes (no Rostov half-shares, no column longer than the sheet's)."""

from __future__ import annotations

import random
from typing import Any

from forms.layout import build_layout
from forms.render.fill import FillError
from samplegen.fill import columns_fit, deal_values
from scoring.random_games import random_record, written_columns
from scoring.record import parse_record
from scoring.rules import RuleSet
from scoring.sheet import expected_sheet

RANDOM_TRIES = 50
"""Random games tried until one fits the sheet."""


def fitting_game(rules: RuleSet, rng: random.Random, tries: int = RANDOM_TRIES
                 ) -> dict[str, Any]:
    """A random game of ``rules`` that fits its sheet; :class:`FillError` after ``tries``."""
    layout = build_layout(rules.players, "A4", rules.talon_prize)
    for _ in range(tries):
        doc = random_record(rules, rng)
        record = parse_record(doc)
        written = written_columns(expected_sheet(record))
        values = [v for cols in written.values() for v in
                  [*cols["pool"], *cols["mountain"], *sum(cols["whists"].values(), [])]]
        if any(isinstance(v, float) for v in values):
            continue
        if not columns_fit(layout, written):
            continue
        try:
            deal_values(layout, record)
        except FillError:
            continue
        return doc
    raise FillError(f"no random {rules.variant} game for {rules.players} fitted the sheet in "
                    f"{tries} tries; try a smaller pool")
