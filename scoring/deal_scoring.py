"""What one deal writes on the sheet, before the pool is closed (RULES.md §§3-5).

:func:`score_deal` returns the deal's :class:`Posting` s: amounts per column with the reason
in words. Pool points are raw here; :mod:`scoring.sheet` sends them through the closing of the
pool (help, or the own mountain). Rates follow RULES.md §7: Leningrad doubles mountain,
whists and consolation (``rules.whist_rate``).

Seed 001, Sochi, A plays 6 and takes 6, B whists and takes 4, C passes:

>>> from scoring.rules import RuleSet
>>> from scoring.deals import make_deal
>>> rules = RuleSet.preset("sochi", 3, 20)
>>> deal = make_deal(rules, ("A", "B", "C"), number=1, dealer="C", kind="contract",
...                  declarer="A", contract="6S", defence={"B": "whist", "C": "pass"},
...                  tricks={"A": 6, "B": 4, "C": 0})
>>> for posting in score_deal(deal, rules, allpass_price=1):
...     print(posting)
A pool +2: 6♠ made
B whists on A +8: whists for 4 tricks x 2
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring.columns import Column
from scoring.deals import Deal
from scoring.notation import MISERE_PRICE
from scoring.reasons import contract_said, said
from scoring.rules import RuleSet

ROSTOV_ALLPASS_WHISTS_PER_TRICK = 5
"""Rostov all-pass: the fewest-tricks player writes 5 whists per trick on each other (§5)."""


@dataclass(frozen=True)
class Posting:
    """An amount a deal adds to one column, and why."""

    column: Column
    amount: Fraction
    reason: str

    def __str__(self) -> str:
        amount = self.amount
        text = str(amount) if amount.denominator != 1 else str(amount.numerator)
        sign = "+" if amount >= 0 else ""
        return f"{self.column} {sign}{text}: {self.reason}"


def score_deal(deal: Deal, rules: RuleSet, allpass_price: int) -> list[Posting]:
    """Every posting of one deal; ``allpass_price`` is the current all-pass price (§5)."""
    if deal.kind == "allpass":
        if rules.allpass_in_whists:
            return _rostov_allpass(deal, rules)
        return _allpass(deal, rules, allpass_price)
    if deal.kind == "misere":
        return _misere(deal, rules)
    return _contract(deal, rules)


def _post(seat: str, kind: str, amount: Fraction | int, reason: str,
          on: str | None = None) -> Posting:
    return Posting(Column(seat, kind, on), Fraction(amount), reason)  # type: ignore[arg-type]


def _consolers(deal: Deal, rules: RuleSet) -> list[str]:
    """Who writes consolation on a declarer who went down: the defenders, and with 4 players
    the dealer too when ``dealer_consolation`` is on (RULES.md §3)."""
    others = list(deal.defenders)
    if rules.players == 4 and rules.dealer_consolation:
        others.append(deal.dealer)
    return others


def _contract(deal: Deal, rules: RuleSet) -> list[Posting]:
    """A contract: made or down, whists, the whisters' duty, half-whist, talon (§3)."""
    assert deal.contract is not None and deal.declarer is not None
    declarer, contract = deal.declarer, deal.contract
    price, rate = contract.price, rules.whist_rate
    postings = _talon_prize(deal, rules)
    if not deal.played:
        postings.insert(0, _post(declarer, "pool", price, said(
            "not_played" if "halfwhist" not in dict(deal.defence).values() else "stands",
            contract=contract_said(contract))))
        for seat, call in deal.defence:
            if call == "halfwhist":
                tricks = contract.duty // 2
                postings.append(_post(seat, "whists", tricks * price * rate,
                                      said("half_whist", tricks=tricks,
                                           price=str(price * rate)),
                                      declarer))
        return postings
    taken = deal.tricks_of(declarer)
    down = max(0, contract.level - taken)
    if down == 0:
        postings.insert(0, _post(declarer, "pool", price,
                                 said("made", contract=contract_said(contract))))
    else:
        loss = price * rate * down
        postings.insert(0, _post(declarer, "mountain", loss,
                                 said("down", contract=contract_said(contract), down=down)))
        for seat in _consolers(deal, rules):
            postings.append(_post(seat, "whists", loss, said("consolation", down=down),
                                  declarer))
    whisted = contract.level < 10 or rules.ten_whisted
    if deal.whisters and whisted:
        postings += _trick_whists(deal, rules, down > 0)
        postings += _duty_penalties(deal, rules)
    return postings


def _trick_whists(deal: Deal, rules: RuleSet, declarer_down: bool) -> list[Posting]:
    """Whists for the defenders' tricks; greedy or gentleman with one whister (§3, §9a)."""
    assert deal.contract is not None and deal.declarer is not None
    per_trick = deal.contract.price * rules.whist_rate
    whisters = deal.whisters
    if len(whisters) == 2:
        return [_post(w, "whists", deal.tricks_of(w) * per_trick,
                      said("whists_for", tricks=deal.tricks_of(w), price=str(per_trick)),
                      deal.declarer)
                for w in whisters]
    pair_tricks = sum(deal.tricks_of(d) for d in deal.defenders)
    (whister,) = whisters
    if rules.one_whister == "gentleman" and declarer_down:
        half = Fraction(pair_tricks * per_trick, 2)
        return [_post(d, "whists", half, said("gentleman", tricks=pair_tricks,
                                              price=str(per_trick)), deal.declarer)
                for d in deal.defenders]
    return [_post(whister, "whists", pair_tricks * per_trick,
                  said("whists_for", tricks=pair_tricks, price=str(per_trick)),
                  deal.declarer)]


def _duty_penalties(deal: Deal, rules: RuleSet) -> list[Posting]:
    """The whisters' duty and who pays a shortfall, to his mountain (§3, §9a)."""
    assert deal.contract is not None
    contract = deal.contract
    duty = contract.duty
    pair_tricks = sum(deal.tricks_of(d) for d in deal.defenders)
    shortfall = duty - pair_tricks
    if shortfall <= 0:
        return []
    rate = Fraction(contract.price * rules.whist_rate)
    if rules.whist_responsibility == "half":
        rate /= 2
    whisters = deal.whisters
    owed: dict[str, int] = {}
    if len(whisters) == 1:
        owed[whisters[0]] = shortfall
    elif contract.level <= 7:
        half = duty // 2
        for w in whisters:
            own = max(0, half - deal.tricks_of(w))
            if own:
                owed[w] = min(own, shortfall)
    elif rules.both_pay_on_high:
        owed = {w: shortfall for w in whisters}
    else:
        owed[whisters[1]] = shortfall
    return [_post(w, "mountain", tricks * rate,
                  said("duty", duty=duty, tricks=tricks, rate=str(rate)))
            for w, tricks in owed.items()]


def _talon_prize(deal: Deal, rules: RuleSet) -> list[Posting]:
    """Quick tricks in the talon, as whists on the declarer (RULES.md §3, seed 004)."""
    if not rules.talon_prize or not deal.talon_quick_tricks:
        return []
    assert deal.contract is not None and deal.declarer is not None
    amount = deal.talon_quick_tricks * deal.contract.price * rules.whist_rate
    quick = deal.talon_quick_tricks
    if rules.players == 4:
        return [_post(deal.dealer, "whists", amount, said("talon_prize", n=quick),
                      deal.declarer)]
    return [_post(d, "whists", Fraction(amount, 2), said("talon_prize_half", n=quick),
                  deal.declarer) for d in deal.defenders]


def _misere(deal: Deal, rules: RuleSet) -> list[Posting]:
    """Misère: 10 to the pool, or 10 (Leningrad 20) per trick to the mountain (§4).

    With ``misere_consolation`` on (not in the sources' defaults) the others write the same
    amount on a caught declarer, as consolation is written on a contract that went down.
    """
    assert deal.declarer is not None
    taken = deal.tricks_of(deal.declarer)
    if taken == 0:
        return [_post(deal.declarer, "pool", MISERE_PRICE, said("misere_made"))]
    loss = MISERE_PRICE * rules.whist_rate * taken
    postings = [_post(deal.declarer, "mountain", loss, said("misere_caught", taken=taken))]
    if rules.misere_consolation:
        postings += [_post(seat, "whists", loss, said("misere_consolation"), deal.declarer)
                     for seat in _consolers(deal, rules)]
    return postings


def _allpass(deal: Deal, rules: RuleSet, price: int) -> list[Posting]:
    """Sochi and Leningrad all-pass: tricks x price to the mountain; no trick, one price to
    the pool; the 4-player dealer gets one price with ``allpass_dealer_bonus`` (§5)."""
    assert deal.tricks is not None
    postings = []
    for seat, tricks in deal.tricks:
        if tricks:
            postings.append(_post(seat, "mountain", tricks * price,
                                  said("allpass", tricks=tricks, price=price)))
        else:
            postings.append(_post(seat, "pool", price,
                                  said("allpass_no_trick_price", price=price)))
    if rules.players == 4 and rules.allpass_dealer_bonus:
        postings.append(_post(deal.dealer, "pool", price, said("allpass_dealer")))
    return postings


def _rostov_allpass(deal: Deal, rules: RuleSet) -> list[Posting]:
    """Rostov all-pass: the fewest-tricks player writes 5 whists per trick on each other
    player; two tied share it half each (not writing on each other, which would cancel);
    no trick is one pool point; the 4-player dealer gets one pool point (§5)."""
    assert deal.tricks is not None
    tricks = dict(deal.tricks)
    fewest = min(tricks.values())
    writers = [seat for seat, count in deal.tricks if count == fewest]
    postings = []
    for writer in writers:
        for seat, count in deal.tricks:
            if seat not in writers and count:
                amount = Fraction(ROSTOV_ALLPASS_WHISTS_PER_TRICK * count, len(writers))
                code = "allpass_shared" if len(writers) > 1 else "allpass"
                postings.append(_post(writer, "whists", amount, said(
                    code, tricks=count, price=ROSTOV_ALLPASS_WHISTS_PER_TRICK), seat))
    for seat, count in deal.tricks:
        if count == 0:
            postings.append(_post(seat, "pool", 1, said("allpass_no_trick")))
    if rules.players == 4 and rules.allpass_dealer_bonus:
        postings.append(_post(deal.dealer, "pool", 1, said("allpass_dealer")))
    return postings
