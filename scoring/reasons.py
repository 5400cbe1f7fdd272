"""The rules engine's reasons for an amount, by code: each an English template whose
``{placeholders}`` are its parameters (numbers as the engine writes them: ``3``, ``1/2``).

:func:`said` gives a :class:`scoring.said.Said`, the English reason (``"whists for 4 tricks
x 2"``) that knows its code and parameters, so a reader's catalogue says it in any language
(``pulka/report/said_text.py``); a nested reason (help from another seat) is a parameter.
"""

from __future__ import annotations

from scoring.said import N_, Param, Said, say

WORDS: dict[str, str] = {
    "misere": N_("misère"),
    "made": N_("{contract} made"),
    "down": N_("{contract} {down} down"),
    "not_played": N_("{contract} not played, all passed"),
    "stands": N_("{contract} stands against a half-whist"),
    "half_whist": N_("half-whist: half the duty, {tricks} x {price}"),
    "consolation": N_("consolation, {down} down"),
    "whists_for": N_("whists for {tricks} tricks x {price}"),
    "gentleman": N_("gentleman: half of the pair's {tricks} tricks x {price}"),
    "duty": N_("whister's duty {duty}: {tricks} short x {rate}"),
    "talon_prize": N_("talon prize, {n} quick tricks"),
    "talon_prize_half": N_("talon prize, {n} quick tricks, half each"),
    "misere_made": N_("misère made"),
    "misere_caught": N_("misère caught with {taken}"),
    "misere_consolation": N_("misère consolation"),
    "allpass": N_("all-pass, {tricks} tricks x {price}"),
    "allpass_shared": N_("all-pass, {tricks} tricks x {price} shared"),
    "allpass_no_trick": N_("all-pass without a trick"),
    "allpass_no_trick_price": N_("all-pass without a trick ({price})"),
    "allpass_dealer": N_("all-pass, dealer's bonus"),
    "help_from": N_("help from {helper} ({reason})"),
    "help": N_("help: {points} pool points x {n}"),
    "surplus": N_("{reason}: surplus off the own mountain"),
    "over_pool": N_("{points} points over the pool x {factor}"),
    "short_pool": N_("{points} points short of the pool x {factor}"),
    # a sheet's warning
    "after_end": N_("deal {deal} was recorded after the game ended with deal {end}; it is "
                    "scored anyway"),
}
"""Each reason's English template (``N_`` marks it for the catalogues), and the warning a
sheet gets."""


def said(code: str, /, **params: Param) -> Said:
    """The reason ``code`` with ``params``, in English, knowing its code.

    >>> reason = said("whists_for", tricks=4, price=2)
    >>> str(reason), reason.code, reason.params
    ('whists for 4 tricks x 2', 'whists_for', {'tricks': 4, 'price': 2})
    """
    return say(WORDS, code, **params)


def contract_said(contract: object) -> Param:
    """A contract as a reason names it: its notation (``6♠``), misère by its word."""
    text = str(contract)
    return said("misere") if text == WORDS["misere"] else text
