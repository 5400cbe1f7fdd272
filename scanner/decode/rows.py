"""A deal row's readings before they are checked, weighed best first, and deal shapes as keys.

:func:`scanner.decode.deals.decode_row` completes each deal shape its marks allow with tricks,
result and talon readings only when the shape's turn comes (:func:`best_first`): most rows find
their legal readings among the first few shapes.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple


class Reading(NamedTuple):
    """A row reading before it is checked: a shape (an index into the row's shapes; ``-1``
    for the empty row) completed with tricks and talon. Only the likeliest few become deals."""

    log_score: float
    shape: int
    tricks: dict[str, int] | None
    quick: int

    def deal(self, shapes: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The record deal (JSON object) this reading says; ``None`` for an empty row."""
        if self.shape < 0:
            return None
        deal = dict(shapes[self.shape])
        if self.tricks is not None:
            deal["tricks"] = self.tricks
        return {**deal, "talon": {"quick_tricks": self.quick}} if self.quick else deal


Queued = tuple[float, int, int, "Reading | None"]
"""A row's reading waiting its turn: minus its score, the index of its shape in the order the
shapes were made, its index among the shape's readings and the reading; or a shape not yet
completed (index -1, no reading), minus the bound of its readings' scores."""


def best_first(queue: list[Queued], complete: Callable[[int], list[Reading]]
                ) -> Iterator[Reading]:
    """A row's readings, most likely first, and in the order they were made where their
    scores tie: as a stable sort of all of them would list them, but a shape is completed
    with its tricks, result and talon readings (``complete``) only when its turn comes.

    A shape waits with a bound on its readings' scores: its score plus the row's best tricks
    score, best result score (sign and number) and its kind's best talon score, added in the
    order :func:`scanner.decode.deals._with_tricks` adds each reading's (rounded addition
    never decreases when an operand grows), so no reading of it scores above the bound. It
    is completed when its bound comes first (before readings of later shapes with the same
    score), so every reading comes out in its place; most rows find their legal readings
    among the first few shapes, and the rest are never completed."""
    heapq.heapify(queue)
    while queue:
        _, index, _, reading = heapq.heappop(queue)
        if reading is not None:
            yield reading
            continue
        for k, completed in enumerate(complete(index)):
            heapq.heappush(queue, (-completed.log_score, index, k, completed))


ShapeKey = tuple[tuple[str, Any], ...] | None
"""A deal shape as a hashable value (``None``: the empty row)."""


def shape_key(shape: dict[str, Any] | None) -> ShapeKey:
    """The shape's fields in name order, the defence's calls in seat order: two shapes have
    the same key exactly when they are the same."""
    if shape is None:
        return None
    return tuple(sorted((name, tuple(sorted(value.items())) if isinstance(value, dict)
                         else value) for name, value in shape.items()))
