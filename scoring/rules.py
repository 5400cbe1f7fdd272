"""Rule sets: the three variants as presets, every setting of RULES.md by its name.

A :class:`RuleSet` is immutable and validated when built: an unknown setting or an impossible
value raises :class:`~scoring.errors.RuleSetError` naming it. Its :attr:`RuleSet.id` is a short
hash of its settings, printed on every sheet and stored with every game, so that a sheet is
always scored by the rules its players agreed on (RULES.md, preamble).

>>> rules = RuleSet.preset("sochi", players=3, pool=20)
>>> rules.whist_rate, rules.pool_point_whists, rules.allpass_progression.price(5)
(1, 10, 2)
>>> RuleSet.from_settings({"variant": "leningrad", "players": 4, "pool": 10}).one_whister
'gentleman'
>>> RuleSet.from_settings({"variant": "sochi", "players": 3, "pool": 20, "colour": "red"})
Traceback (most recent call last):
...
scoring.errors.RuleSetError: rules.colour: unknown setting; known: variant, players, pool, ...
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, Literal

from scoring.errors import RuleSetError
from scoring.limits import MAX_NUMBER_DIGITS, MAX_POOL, MAX_STAKE

VARIANTS = ("sochi", "leningrad", "rostov")
VARIANT_ALIASES = {
    "sochi": "sochi", "сочи": "sochi", "сочинка": "sochi",
    "leningrad": "leningrad", "ленинград": "leningrad", "ленинградка": "leningrad",
    "piter": "leningrad", "питер": "leningrad",
    "rostov": "rostov", "ростов": "rostov", "ростовка": "rostov",
}
WhistResponsibility = Literal["responsible", "half"]
OneWhister = Literal["greedy", "gentleman"]


@dataclass(frozen=True)
class AllPassProgression:
    """The all-pass price over consecutive all-passes (RULES.md §5).

    ``mode="repeat"``: the last price repeats (``1, 2, 2, 2, …``);
    ``mode="step"``: the last step repeats (``1, 2, 3, …``).

    >>> AllPassProgression.parse("1, 2, 3, …").price(4)
    5
    >>> AllPassProgression.parse([2, 4, 6]).price(7)
    6
    """

    prices: tuple[int, ...]
    mode: Literal["repeat", "step"] = "repeat"

    def price(self, index: int) -> int:
        """Price of the all-pass at position ``index`` (0 = first) of a run of all-passes."""
        if index < len(self.prices):
            return self.prices[index]
        if self.mode == "repeat" or len(self.prices) < 2:
            return self.prices[-1]
        step = self.prices[-1] - self.prices[-2]
        return self.prices[-1] + step * (index - len(self.prices) + 1)

    @classmethod
    def parse(cls, value: object, where: str = "rules.allpass_progression") -> AllPassProgression:
        """Read a list (last price repeats) or a string as RULES.md writes it."""
        if isinstance(value, list | tuple):
            prices = value
            mode: Literal["repeat", "step"] = "repeat"
        elif isinstance(value, str):
            text = value.strip()
            ellipsis = text.endswith("…") or text.endswith("...")
            parts = [p for p in re.split(r"[,\s]+", text.rstrip(".…").strip()) if p]
            try:
                prices = [int(p) for p in parts]
            except ValueError:
                raise RuleSetError(f"{value!r} is not a list of prices like '1, 2, 2, …'",
                                   where) from None
            mode = "repeat"
            if ellipsis and len(prices) >= 2 and prices[-1] != prices[-2]:
                mode = "step"
        else:
            raise RuleSetError(f"expected a list of prices or a string, got {value!r}", where)
        if not prices or not all(isinstance(p, int) and not isinstance(p, bool) and p > 0
                                 for p in prices):
            raise RuleSetError(f"prices must be positive integers, got {value!r}", where)
        if mode == "repeat":
            while len(prices) > 1 and prices[-1] == prices[-2]:
                prices = prices[:-1]
        return cls(tuple(prices), mode)

    def to_json(self) -> list[int] | str:
        """A list when the last price repeats, else the string form ``"1, 2, 3, …"``."""
        if self.mode == "repeat":
            return list(self.prices)
        return ", ".join(str(p) for p in self.prices) + ", …"


@dataclass(frozen=True)
class RuleSet:
    """Everything the players agreed on before the first deal (RULES.md §§3-7)."""

    variant: str
    players: int
    pool: int | None
    ten_whisted: bool
    allpass_progression: AllPassProgression
    talon_prize: bool
    dealer_consolation: bool
    both_pay_on_high: bool
    stalingrad: bool
    misere_consolation: bool
    whist_responsibility: WhistResponsibility
    one_whister: OneWhister
    allpass_dealer_bonus: bool
    stake: Fraction | None = None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, variant: str, players: int = 3, pool: int | None = 20) -> RuleSet:
        """The variant's defaults (RULES.md §7), for a table size and a pool."""
        return cls.from_settings({"variant": variant, "players": players, "pool": pool})

    @classmethod
    def from_settings(cls, settings: Any, where: str = "rules") -> RuleSet:
        """Build and validate a rule set from the ``rules`` object of a record."""
        if not isinstance(settings, dict):
            raise RuleSetError(f"expected an object of settings, got {settings!r}", where)
        unknown = sorted(set(settings) - set(SETTING_NAMES))
        if unknown:
            raise RuleSetError(f"unknown setting; known: {', '.join(SETTING_NAMES[:3])}, ...",
                               f"{where}.{unknown[0]}")
        for required in ("variant", "players", "pool"):
            if required not in settings:
                raise RuleSetError("required setting missing", f"{where}.{required}")
        variant = _variant(settings["variant"], f"{where}.variant")
        players = settings["players"]
        if players not in (3, 4) or isinstance(players, bool):
            raise RuleSetError(f"must be 3 or 4, got {players!r}", f"{where}.players")
        pool = settings["pool"]
        if pool is not None and (isinstance(pool, bool) or not isinstance(pool, int) or
                                 not 1 <= pool <= MAX_POOL):
            raise RuleSetError(f"must be a positive whole number or null (a game by time), "
                               f"at most {MAX_POOL}, got {str(pool)[:30]}", f"{where}.pool")
        values = _defaults(variant, players)
        for name, value in settings.items():
            if name in ("variant", "players", "pool"):
                continue
            values[name] = _check_setting(name, value, variant, f"{where}.{name}")
        return cls(variant=variant, players=players, pool=pool, **values)

    def with_settings(self, **changes: Any) -> RuleSet:
        """A copy with some settings changed, validated like :meth:`from_settings`."""
        settings = self.settings()
        settings.update(changes)
        for key, value in list(settings.items()):
            if isinstance(value, AllPassProgression):
                settings[key] = value.to_json()
        return RuleSet.from_settings(settings)

    # --- derived rates (RULES.md §7) -----------------------------------------------------

    @property
    def whist_rate(self) -> int:
        """Multiplier of the price for mountain, whists and consolation: 2 in Leningrad."""
        return 2 if self.variant == "leningrad" else 1

    @property
    def pool_point_whists(self) -> int:
        """One pool point in whists, r_p: 20 in Leningrad, 10 otherwise (RULES.md §2)."""
        return 10 * self.whist_rate

    @property
    def helps_on_close(self) -> bool:
        """Sochi and Rostov help the other pools (4.2.3); Leningrad doubles (4.2.3.3)."""
        return self.variant != "leningrad"

    @property
    def allpass_in_whists(self) -> bool:
        """Rostov writes all-passes as whists, not mountain (RULES.md §5)."""
        return self.variant == "rostov"

    # --- identity ------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        """Every setting by its RULES.md name, as JSON values."""
        values = asdict(self)
        values["allpass_progression"] = self.allpass_progression.to_json()
        values["stake"] = None if self.stake is None else _fraction_json(self.stake)
        return values

    def changed_settings(self) -> dict[str, Any]:
        """The settings that differ from the variant's preset (printed in the centre circle)."""
        preset = RuleSet.preset(self.variant, self.players, self.pool).settings()
        return {k: v for k, v in self.settings().items() if preset[k] != v}

    @property
    def id(self) -> str:
        """Stable short id: the first 10 hex digits of SHA-256 over the canonical settings.

        >>> RuleSet.preset("sochi", 3, 20).id == RuleSet.preset("sochi", 3, 20).id
        True
        """
        canonical = json.dumps(self.settings(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:10]

    def describe(self) -> str:
        """One line for people: ``Sochi, 3 players, pool 20``."""
        pool = "by time" if self.pool is None else f"pool {self.pool}"
        return f"{self.variant.capitalize()}, {self.players} players, {pool}"


SETTING_NAMES = (
    "variant", "players", "pool", "ten_whisted", "allpass_progression", "talon_prize",
    "dealer_consolation", "both_pay_on_high", "stalingrad", "misere_consolation",
    "whist_responsibility", "one_whister", "allpass_dealer_bonus", "stake",
)
_BOOLEAN_SETTINGS = ("ten_whisted", "talon_prize", "dealer_consolation", "both_pay_on_high",
                     "stalingrad", "misere_consolation", "allpass_dealer_bonus")


def _defaults(variant: str, players: int) -> dict[str, Any]:
    """Defaults of RULES.md §§3-7 for one variant and table size."""
    progression = {"sochi": [1, 2], "leningrad": [2, 4, 6], "rostov": [1]}[variant]
    return {
        "ten_whisted": True,
        "allpass_progression": AllPassProgression.parse(progression),
        "talon_prize": players == 4,
        "dealer_consolation": True,
        "both_pay_on_high": False,
        "stalingrad": False,
        "misere_consolation": False,
        "whist_responsibility": "responsible" if variant == "sochi" else "half",
        "one_whister": "greedy" if variant == "sochi" else "gentleman",
        "allpass_dealer_bonus": variant == "rostov",
        "stake": None,
    }


def _variant(value: object, where: str) -> str:
    if isinstance(value, str) and value.strip().lower() in VARIANT_ALIASES:
        return VARIANT_ALIASES[value.strip().lower()]
    raise RuleSetError(f"unknown variant {value!r}; use one of {', '.join(VARIANTS)}", where)


def _check_setting(name: str, value: object, variant: str, where: str) -> Any:
    if name in _BOOLEAN_SETTINGS:
        if not isinstance(value, bool):
            raise RuleSetError(f"must be true or false, got {value!r}", where)
        return value
    if name == "whist_responsibility":
        if value not in ("responsible", "half"):
            raise RuleSetError(f"must be 'responsible' or 'half', got {value!r}", where)
        return value
    if name == "one_whister":
        if value not in ("greedy", "gentleman"):
            raise RuleSetError(f"must be 'greedy' or 'gentleman', got {value!r}", where)
        return value
    if name == "allpass_progression":
        progression = AllPassProgression.parse(value, where)
        if variant == "rostov" and progression != AllPassProgression((1,)):
            raise RuleSetError("Rostov all-passes have no progression (RULES.md §5)", where)
        return progression
    if name == "stake":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str) or \
                len(str(value)) > MAX_NUMBER_DIGITS:
            raise RuleSetError(f"must be a number (money per whist), got {str(value)[:30]}",
                               where)
        try:
            stake = Fraction(str(value))
        except (ValueError, ZeroDivisionError, OverflowError):
            raise RuleSetError(f"must be a number (money per whist), got {value!r}",
                               where) from None
        if not 0 <= stake <= MAX_STAKE or stake.denominator > MAX_STAKE:
            raise RuleSetError(f"must be a number from 0 to {MAX_STAKE}, got {str(value)[:30]}",
                               where)
        return stake
    raise RuleSetError("unknown setting", where)  # pragma: no cover - names checked above


def _fraction_json(value: Fraction) -> int | str:
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"

