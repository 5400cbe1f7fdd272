"""How a writer fills one column, and the posterior of each entry given all of the column's ink.

A writer's state after an entry is the total the next step adds to and the next deal of the
column to write (or that the column has ended). From a state the rules expect a few values,
each with a prior (the constants below): the previous total plus the deal's amount, the right
running total after a slip, the next deal's entry when one was skipped (Codex 4.2.10), or
nothing once the column has nothing more to write. Any other value keeps a small prior: a
player's error (4.2.1 slip, 4.2.7 wrong amount), after which the writer either carries on from
it or writes the right value next (a 4.2.7 correction).

:func:`entry_posteriors` runs the forward-backward algorithm over these states, so each entry
is weighed with the entries before *and* after it: a clear wrong value followed by the right
one is a correction, not two errors; an unsure entry is settled by the one after it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Generic, NamedTuple, TypeVar

from scoring.sheet import SheetEntry

PRIOR_RIGHT_STEP = 0.95
"""Prior that an entry is the writer's previous total plus the deal's amount (or that an
entry is empty once the column has nothing more to write)."""
PRIOR_RIGHT_TOTAL = 0.01
"""Prior that an entry is the right running total although the previous one was off."""
PRIOR_SKIPPED = 0.004
"""Prior that the writer skipped an entry and wrote the next deal's."""
OTHER_VALUES = 200
"""The rest of the prior is spread over this many other values a player might write."""
OTHER_VALUE_PRIOR = (1 - PRIOR_RIGHT_STEP - PRIOR_RIGHT_TOTAL - PRIOR_SKIPPED) / OTHER_VALUES
"""The prior of each of those values where a writer state expects the step, the right total
and a skipped entry (the usual case)."""
PRIOR_CORRECTION = 0.25
"""Prior that a value the rules do not expect is followed by the right one (a 4.2.7
correction: the wrong value stands, nothing is crossed out); otherwise the writer carries on
from the wrong value."""
INK_CLEAR = 0.999
"""A value no writer state expects is kept as written (a recording error, for the audit) when
the ink alone gives it this much of its likelihood: the rules do not override clear ink."""
STATE_KEPT = 1e-7
"""Writer states less likely than this, relative to the likeliest, are not followed further ..."""
STATES_KEPT = 12
"""... nor any but this many likeliest. Each unsure entry's other readings open two states
each (carried on, corrected): six let them crowd out a slip carried on from the first entry
that the later entries made five times likelier than the rules' values, and the first entry
was read as the rules' value at 0.9999 (TRAINING part, far photo, seed 56); 10 already
gives the full answer there, 12 leaves room (16 and 24 decide the same)."""
VALUE_KEPT = 1e-6
"""A value no state expects is not weighed when the ink finds it this much (relative to its
likeliest value) less likely: its prior is already thousands of times below an expected one."""

Entry = TypeVar("Entry")


class Expectation(NamedTuple):
    """A value the rules allow next, the expected entry it would be, and its prior (a named
    tuple: :func:`entry_posteriors` makes a few for every writer state it follows)."""

    value: int | None
    # the field hides tuple.index (never called on an Expectation), which mypy flags
    index: int  # type: ignore[assignment]
    prior: float


class WriterState(NamedTuple):
    """The writer after an entry: the total the next step adds to, the next expected entry,
    and whether the column has ended (an empty entry: nothing more is written)."""

    previous: int
    next: int
    ended: bool = False


class Edge(NamedTuple):
    """One way to write one value from one state; ``option`` is ``None`` for a value the
    rules do not expect there."""

    source: WriterState
    value: int | None
    target: WriterState
    weight: float
    option: Expectation | None
    expected_value: int | None
    """The value the rules expected from ``source`` (the first one that is not empty)."""


@dataclass
class EntryStep(Generic[Entry]):
    """An entry's posterior over its values, and what explains each value best."""

    ink: dict[int | None, float]
    """P(ink | value) for every value weighed."""
    ink_clear: bool
    """The ink clearly says a value no state expects: the entry is that value."""
    posterior: dict[int | None, float]
    matched: dict[int | None, float]
    """The posterior mass of each value that comes from the rules expecting it."""
    best_arcs: dict[int | None, _Arc]
    """The edge that brings each value the most posterior mass (:meth:`best_edge`)."""
    before_only: dict[int | None, float]
    """Each value's posterior from the ink and the entries before it alone (the forward
    pass): what the entries after it add is :meth:`later_odds`."""

    def later_odds(self, value: int | None) -> float:
        """How many times the entries after this one raise the odds of ``value`` (its
        posterior odds over its odds from the ink and the earlier entries alone): a slip
        the writer carried on from is confirmed by the entries that follow it."""
        def odds(p: float) -> float:
            return p / max(1.0 - p, 1e-300)
        before = self.before_only.get(value, 0.0)
        return odds(self.posterior.get(value, 0.0)) / max(odds(before), 1e-300)

    def best_edge(self, value: int | None) -> Edge:
        """The edge that brings ``value`` the most posterior mass."""
        source, value, target, weight, option, expected_value = self.best_arcs[value]
        return Edge(WriterState(*source), value, WriterState(*target), weight, option,
                    expected_value)


@dataclass(frozen=True)
class ExpectedColumn:
    """A column's expected entries as the writer's model uses them: each entry's amount and
    total when whole (``None``: a half whist, which digit cells cannot hold), whether a deal
    caused it, and whether nothing more is to be written from it on."""

    amounts: tuple[int | None, ...]
    totals: tuple[int | None, ...]
    dealt: tuple[bool, ...]
    ended_from: tuple[bool, ...]
    """``ended_from[j]``: no entry from ``j`` on comes from a deal (one longer than the
    column: nothing is left after its last entry)."""

    @classmethod
    def of(cls, expected: Sequence[SheetEntry]) -> ExpectedColumn:
        """The model's view of the expected entries of one column."""
        ended = [True]
        for entry in reversed(expected):
            ended.append(ended[-1] and entry.deal is None)
        return cls(tuple(int(e.amount) if e.amount.denominator == 1 else None for e in expected),
                   tuple(int(e.total) if e.total.denominator == 1 else None for e in expected),
                   tuple(e.deal is not None for e in expected), tuple(reversed(ended)))


def expectations(previous: int, expected: ExpectedColumn, j: int) -> list[Expectation]:
    """The values the rules allow after ``previous`` when entry ``j`` is next (see the
    constants for the priors)."""
    options: list[Expectation] = []
    if expected.ended_from[min(j, len(expected.dealt))]:
        options.append(Expectation(None, j, PRIOR_RIGHT_STEP))  # nothing more to write
    for k, step_prior, total_prior in ((j, PRIOR_RIGHT_STEP, PRIOR_RIGHT_TOTAL),
                                       (j + 1, PRIOR_SKIPPED, PRIOR_SKIPPED)):
        if k >= len(expected.dealt) or not expected.dealt[k]:
            continue
        amount = expected.amounts[k]
        for value, prior in ((None if amount is None else previous + amount, step_prior),
                             (expected.totals[k], total_prior)):
            if value is None:
                continue  # a half whist cannot be written in digit cells
            for option in options:
                if option.value == value:
                    break
            else:
                options.append(Expectation(value, k, prior))
    return options


_State = tuple[int, int, bool]
"""A :class:`WriterState` as a plain tuple (equal to it, and hashed the same):
:func:`entry_posteriors` makes hundreds of states and edges per entry, most of them dropped
at once, and a plain tuple costs a fraction of a named one."""
_Arc = tuple[_State, int | None, _State, float, Expectation | None, int | None]
"""An :class:`Edge` as a plain tuple, its fields in the same order; only an edge asked of an
:class:`EntryStep` becomes an :class:`Edge`."""


def _options(state: _State, expected: ExpectedColumn) -> list[Expectation]:
    previous, following, ended = state
    if ended:  # the writer has stopped: the rules expect no more
        return [Expectation(None, following, PRIOR_RIGHT_STEP)]
    return expectations(previous, expected, following)


def _edges(state: _State, options: list[Expectation], values: Iterable[int | None],
           ink: dict[int | None, float], mass: float, edges: list[_Arc],
           reached: dict[_State, float]) -> None:
    """Every way to write each of ``values`` from ``state``, weighted by prior x ink,
    appended to ``edges``; each adds ``mass`` (the state's forward weight) x its weight to
    the weight of the state it reaches, in ``reached``. A value the rules expect for a later
    deal (a skipped entry) may also be a wrong value for this one: both ways are followed."""
    by_value: dict[int | None, Expectation] = {}
    for option in options:
        by_value.setdefault(option.value, option)
    expected_value = next((o.value for o in options if o.value is not None), None)
    other = (1 - sum(o.prior for o in options)) / OTHER_VALUES
    carried_on, corrected = other * (1 - PRIOR_CORRECTION), other * PRIOR_CORRECTION
    previous, following, _ = state
    stopped, stayed = (previous, following, True), (previous, following, False)
    append, weight_of = edges.append, reached.get
    for value in values:
        match = by_value.get(value)
        likelihood = ink[value]
        if match is not None:
            target = stopped if value is None else (value, match.index + 1, False)
            weight = match.prior * likelihood
            append((state, value, target, weight, match, expected_value))
            reached[target] = weight_of(target, 0.0) + mass * weight
            if value is None or match.index == following:
                continue  # as a wrong value, it would lead where it leads as a right one
        if value is None:
            weight = other * likelihood
            append((state, value, stopped, weight, None, expected_value))
            reached[stopped] = weight_of(stopped, 0.0) + mass * weight
        else:  # a value the rules do not expect: carried on from, or corrected next
            target = (value, following + 1, False)
            weight = carried_on * likelihood
            append((state, value, target, weight, None, expected_value))
            reached[target] = weight_of(target, 0.0) + mass * weight
            weight = corrected * likelihood
            append((state, value, stayed, weight, None, expected_value))
            reached[stayed] = weight_of(stayed, 0.0) + mass * weight


def _ink_clear(ink: dict[int | None, float], expected_values: set[int | None]) -> bool:
    value = max(ink, key=ink.__getitem__)  # the first of the likeliest
    return value not in expected_values and ink[value] / sum(ink.values()) >= INK_CLEAR


def entry_posteriors(entries: Sequence[Entry], expected: Sequence[SheetEntry],
                     ink_of: Callable[[Entry, Iterable[int | None]], dict[int | None, float]]
                     ) -> list[EntryStep[Entry]]:
    """Each entry's posterior over its values given the whole column (forward-backward).

    ``ink_of(entry, values)`` gives P(ink | value) for the entry's own likeliest values and
    for ``values`` (those the rules expect there); an entry it gives one value only is that
    value (a person verified it).
    """
    column = ExpectedColumn.of(expected)
    forward: list[dict[_State, float]] = [{(0, 0, False): 1.0}]
    steps: list[tuple[dict[int | None, float], bool, list[_Arc]]] = []
    for entry in entries:
        states = forward[-1]
        options = {state: _options(state, column) for state in states}
        # in a fixed order, so that values the ink finds equally likely keep one order in
        # every run (a set of ints and None iterates differently per process)
        expected_order = dict.fromkeys(o.value for opts in options.values() for o in opts)
        expected_values = set(expected_order)
        ink = ink_of(entry, [*expected_order, None])
        clear = len(ink) > 1 and _ink_clear(ink, expected_values)
        likeliest = max(ink.values())
        values = [max(ink, key=ink.__getitem__)] if clear else \
            [v for v, p in ink.items() if v in expected_values or p >= likeliest * VALUE_KEPT]
        edges: list[_Arc] = []
        reached: dict[_State, float] = {}  # summed in the order of the edges
        for state, mass in states.items():
            _edges(state, options[state], values, ink, mass, edges, reached)
        ranked = sorted(reached.items(), key=itemgetter(1), reverse=True)[:STATES_KEPT]
        top = ranked[0][1] if ranked and ranked[0][1] > 0 else 1.0
        kept = {state: weight / top for state, weight in ranked if weight >= top * STATE_KEPT}
        steps.append((ink, clear, [edge for edge in edges if edge[2] in kept]))
        forward.append(kept)
    backward: dict[_State, float] = dict.fromkeys(forward[-1], 1.0)
    posteriors: list[EntryStep[Entry]] = []
    for index in range(len(entries) - 1, -1, -1):
        step: EntryStep[Entry]
        step, backward = _step_back(*steps[index], forward[index], backward)
        posteriors.append(step)
    return posteriors[::-1]


def _step_back(ink: dict[int | None, float], clear: bool, edges: list[_Arc],
               before: dict[_State, float], backward: dict[_State, float]
               ) -> tuple[EntryStep[Entry], dict[_State, float]]:
    """One entry's :class:`EntryStep` from its ``edges``, the forward weights ``before`` it
    and the ``backward`` weights after it; and the backward weights before it."""
    posterior: dict[int | None, float] = defaultdict(float)
    before_only: dict[int | None, float] = defaultdict(float)
    matched: dict[int | None, float] = defaultdict(float)
    best: dict[int | None, tuple[float, _Arc]] = {}
    earlier: dict[_State, float] = defaultdict(float)
    for edge in edges:
        source, value, target, weight, option, _ = edge
        later = weight * backward.get(target, 0.0)
        earlier[source] += later
        mass = before[source] * later
        posterior[value] += mass
        before_only[value] += before[source] * weight
        if option is not None:
            matched[value] += mass
        if value not in best or mass > best[value][0]:
            best[value] = (mass, edge)
    total = sum(posterior.values()) or 1.0
    forward_total = sum(before_only.values()) or 1.0
    top = max(earlier.values(), default=0.0) or 1.0
    step: EntryStep[Entry] = EntryStep(
        ink, clear, {v: p / total for v, p in posterior.items()},
        {v: matched[v] / total for v in posterior},
        {v: edge for v, (_, edge) in best.items()},
        {v: p / forward_total for v, p in before_only.items()})
    return step, {state: weight / top for state, weight in earlier.items()}
