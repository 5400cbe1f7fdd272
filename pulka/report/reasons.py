"""The rules engine's reasons for an amount (``scoring.deal_scoring``, ``scoring.sheet``:
"whists for 4 tricks x 2", "help from B (6♣ made)") in the chosen language.

The engine writes each reason in English from a fixed set of forms, and the store keeps
findings' notes in those words; each form is matched here and said again through the
catalogue, nested reasons too. ``tests/pulka/test_i18n_reasons.py`` checks that every reason
random games of every variant produce is matched, so a new form in the engine fails there.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pulka.i18n import N_, _

FORMS: tuple[tuple[str, str], ...] = (
    (r"help from (?P<helper>\S+) \((?P<reason>.+)\)", N_("help from {helper} ({reason})")),
    (r"(?P<reason>.+): surplus off the own mountain",
     N_("{reason}: surplus off the own mountain")),
    (r"help: (?P<points>\S+) pool points x (?P<n>\S+)", N_("help: {points} pool points x {n}")),
    (r"half-whist: half the duty, (?P<tricks>\S+) x (?P<price>\S+)",
     N_("half-whist: half the duty, {tricks} x {price}")),
    (r"consolation, (?P<down>\S+) down", N_("consolation, {down} down")),
    (r"whists for (?P<tricks>\S+) tricks x (?P<price>\S+)",
     N_("whists for {tricks} tricks x {price}")),
    (r"gentleman: half of the pair's (?P<tricks>\S+) tricks x (?P<price>\S+)",
     N_("gentleman: half of the pair's {tricks} tricks x {price}")),
    (r"whister's duty (?P<duty>\S+): (?P<tricks>\S+) short x (?P<rate>\S+)",
     N_("whister's duty {duty}: {tricks} short x {rate}")),
    (r"talon prize, (?P<n>\S+) quick tricks, half each",
     N_("talon prize, {n} quick tricks, half each")),
    (r"talon prize, (?P<n>\S+) quick tricks", N_("talon prize, {n} quick tricks")),
    (r"misère made", N_("misère made")),
    (r"misère caught with (?P<taken>\S+)", N_("misère caught with {taken}")),
    (r"misère consolation", N_("misère consolation")),
    (r"all-pass, (?P<tricks>\S+) tricks x (?P<price>\S+) shared",
     N_("all-pass, {tricks} tricks x {price} shared")),
    (r"all-pass, (?P<tricks>\S+) tricks x (?P<price>\S+)",
     N_("all-pass, {tricks} tricks x {price}")),
    (r"all-pass without a trick \((?P<price>\S+)\)", N_("all-pass without a trick ({price})")),
    (r"all-pass without a trick", N_("all-pass without a trick")),
    (r"all-pass, dealer's bonus", N_("all-pass, dealer's bonus")),
    (r"(?P<points>\S+) points over the pool x (?P<factor>\S+)",
     N_("{points} points over the pool x {factor}")),
    (r"(?P<points>\S+) points short of the pool x (?P<factor>\S+)",
     N_("{points} points short of the pool x {factor}")),
    (r"(?P<contract>\S+) not played, all passed", N_("{contract} not played, all passed")),
    (r"(?P<contract>\S+) stands against a half-whist",
     N_("{contract} stands against a half-whist")),
    (r"(?P<contract>\S+) made", N_("{contract} made")),
    (r"(?P<contract>\S+) (?P<down>\S+) down", N_("{contract} {down} down")),
)
"""Each form of the engine's reasons (a regular expression) and its catalogue message."""
_FORMS = tuple((re.compile(pattern), message) for pattern, message in FORMS)


def known(reason: str) -> bool:
    """Whether ``reason`` is one of the engine's forms."""
    return any(pattern.fullmatch(reason) for pattern, _message in _FORMS)


def reason_text(reason: str) -> str:
    """One reason in the chosen language (as it is when it is none of the engine's forms)."""
    for pattern, message in _FORMS:
        match = pattern.fullmatch(reason)
        if match:
            parts = {name: _PARTS.get(name, str)(value)
                     for name, value in match.groupdict().items()}
            return _(message).format(**parts)
    return reason


def reasons_text(reasons: str) -> str:
    """Reasons joined by ``; `` (a finding's note), each in the chosen language."""
    return "; ".join(reason_text(r) for r in reasons.split("; "))


_PARTS: dict[str, Callable[[str], str]] = {
    "reason": reason_text, "contract": lambda c: _("misère") if c == "misère" else c}
"""Parts of a reason that are words themselves: a nested reason, the misère contract."""
