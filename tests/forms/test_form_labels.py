"""Every label in every language."""

from __future__ import annotations

import pytest

from forms.labels import LABELS, LANGUAGES, text
from forms.layout import build_layout
from forms.render.sheet import DYNAMIC_LABELS


def test_languages_have_the_same_keys() -> None:
    keys = set(LABELS["en"])
    for lang in LANGUAGES:
        assert set(LABELS[lang]) == keys, lang


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", [3, 4])
def test_every_layout_label_resolves(lang: str, players: int) -> None:
    for label in build_layout(players, talon=True).labels:
        if label.literal or label.key.partition(":")[0] in DYNAMIC_LABELS + ("legend",):
            continue
        assert isinstance(text(lang, label.key), str)


def test_suits_and_cyrillic() -> None:
    assert [text("ru", f"opt:{s}") for s in "SCDH"] == ["♠", "♣", "♦", "♥"]
    assert text("ru", "opt:NT") == "БК" and text("en", "opt:NT") == "NT"
    assert text("uk", "whists_on:C") == "вісти на C"
