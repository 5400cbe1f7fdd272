"""What the store adds to a sheet's report: the fields nobody verified yet, the judge's rulings
and the sign-off (:func:`pulka.report.model.build_report` takes it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pulka.i18n import N_, _
from scoring.audit import Finding
from scoring.rulings import Doubts, finding_key, rests_on

RULING_WORDS = {"apply": N_("penalty applied by {who} at {at}"),
                "waive": N_("penalty waived by {who} at {at}")}


@dataclass(frozen=True)
class Judged:
    """What the store adds to a sheet's audit: the doubtful fields nobody verified, the
    judge's rulings by finding key (``(action, who, at)``) and the sign-off."""

    doubts: Doubts = Doubts()
    rulings: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    signed_off: str = ""


def applied_penalty(judged: Judged, finding: Finding) -> bool:
    """Whether the judge applied the finding's 4.2.7 penalty (and it does not wait)."""
    return not rests_on(finding, judged.doubts) \
        and judged.rulings.get(finding_key(finding), ("",))[0] == "apply"


def ruling_text(judged: Judged, finding: Finding) -> str:
    """The judge's ruling on a finding in words, or ``""``."""
    ruling = judged.rulings.get(finding_key(finding))
    if ruling is None:
        return ""
    action, who, at = ruling
    return _(RULING_WORDS.get(action, action)).format(who=who, at=at)
