"""The catalogues against the code: every string Babel extracts is translated in ru and uk,
placeholders survive translation, plural forms are right, and the glossary is followed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from pulka import i18n
from pulka.cli.main import build_parser, main

PULKA = Path(i18n.__file__).parent
TRANSLATED = ("ru", "uk")
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None, "tn": (1, 2)}
PLACEHOLDER = re.compile(r"\{(\w*)\}")
OUTSIDE = ("scanner/words.py", "scoring/reasons.py")
"""Templates pulka says from outside its package: the scanner's sentences and the rules
engine's reasons, by code."""


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use_language("en")


def extracted() -> dict[str, list[str]]:
    """Every msgid in the code (Python and the review page's JavaScript), as Babel sees it,
    with the files that use it."""
    with (PULKA / "locale" / "babel.cfg").open() as stream:
        method_map, options_map = parse_mapping_cfg(stream)
    found: dict[str, list[str]] = {}
    for filename, line, message, _comments, _context in extract_from_dir(
            str(PULKA), method_map, options_map, keywords=KEYWORDS):
        msgid = message if isinstance(message, str) else message[0]
        found.setdefault(msgid, []).append(f"{filename}:{line}")
    for path in OUTSIDE:
        for line, message, _comments, _context in extract_from_file(
                "python", PULKA.parent / path, keywords=KEYWORDS):
            found.setdefault(str(message), []).append(f"{path}:{line}")
    return found


def catalogue(language: str) -> Catalog:
    with i18n.catalogue_path(language).open("rb") as stream:
        return read_po(stream, locale=language)


def messages(language: str) -> Iterator[Message]:
    return (m for m in catalogue(language) if m.id)


def forms(message: Message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, tuple | list) else (str(string),)


def singular(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple | list) else message.id)


def test_babel_finds_the_python_and_the_javascript_strings() -> None:
    found = extracted()
    assert any(f.startswith("report/html.py") for f in found["Audit report · {name}"])
    assert found["Nothing left to check"][0].startswith("review/static/review.js")
    assert found["in {n} sheet"][0].startswith("review/static/review.js")  # in a template
    assert len(found) > 150


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_in_the_code_is_translated(language: str) -> None:
    known = {singular(m): m for m in messages(language)}
    missing = [f"{msgid!r} ({where[0]})" for msgid, where in extracted().items()
               if msgid not in known]
    untranslated = [singular(m) for m in known.values()
                    if m.fuzzy or not all(text.strip() for text in forms(m))]
    assert not missing, f"not in {language}/pulka.po (run pulka/locale/update.sh): {missing}"
    assert not untranslated, f"untranslated in {language}/pulka.po: {untranslated}"


def test_the_scanners_sentences_are_extracted_by_update_sh() -> None:
    script = (PULKA / "locale" / "update.sh").read_text(encoding="utf-8")
    assert all(f" {path}" in script for path in OUTSIDE)
    found = extracted()
    assert found["{where} is only {dpi} dpi: check its readings"][0].startswith("scanner/")
    assert "the ink does not read as a legal deal; this is the nearest one" in found


def test_english_has_every_string_too() -> None:
    known = {singular(m) for m in messages("en")}
    assert not set(extracted()) - known


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_their_placeholders(language: str) -> None:
    wrong = [(singular(m), text) for m in messages(language) for text in forms(m)
             if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(singular(m)))]
    assert not wrong


@pytest.mark.parametrize(("language", "msgid", "expected"), [
    ("ru", "talon {n} quick trick", {1: "1 быстрая взятка", 2: "2 быстрые взятки",
                                     5: "5 быстрых взяток", 11: "11 быстрых взяток",
                                     21: "21 быстрая взятка", 22: "22 быстрые взятки",
                                     25: "25 быстрых взяток"}),
    ("uk", "talon {n} quick trick", {1: "1 швидка взятка", 2: "2 швидкі взятки",
                                     5: "5 швидких взяток", 11: "11 швидких взяток",
                                     21: "21 швидка взятка", 22: "22 швидкі взятки",
                                     25: "25 швидких взяток"}),
    ("ru", "each other player writes {n} whist on {seat}.", {
        1: "1 вист ", 2: "2 виста ", 5: "5 вистов ", 11: "11 вистов ", 21: "21 вист ",
        22: "22 виста ", 25: "25 вистов "}),
    ("uk", "each other player writes {n} whist on {seat}.", {
        1: "1 віст ", 2: "2 вісти ", 5: "5 вістів ", 11: "11 вістів ", 21: "21 віст ",
        22: "22 вісти ", 25: "25 вістів "}),
    ("en", "talon {n} quick trick", {1: "1 quick trick", 2: "2 quick tricks",
                                     11: "11 quick tricks", 21: "21 quick tricks"}),
])
def test_plural_forms(language: str, msgid: str, expected: dict[int, str]) -> None:
    i18n.use_language(language)
    plural = next(singular(m) for m in messages("en") if singular(m) == msgid)
    plural_id = next(m.id[1] for m in messages("en") if singular(m) == plural)
    for n, text in expected.items():
        assert text in i18n.ngettext(msgid, plural_id, n).format(n=n, seat="A"), n


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_page_catalogue_names_plural_forms_by_cldr_category(language: str) -> None:
    page = i18n.page_catalogue(language)
    assert page["lang"] == language
    assert page["plurals"]["in {n} sheet"]["one"].startswith("на {n} ")
    assert set(page["plurals"]["in {n} sheet"]) == {"one", "few", "many"}
    assert page["messages"]["Queue"] in ("Очередь", "Черга")


def glossary() -> list[tuple[list[str], str, str]]:
    """``(English terms, Russian stem, Ukrainian stem)`` rows of GLOSSARY.md's first table."""
    text = (PULKA / "locale" / "GLOSSARY.md").read_text(encoding="utf-8")
    table = text.split("| English | Russian | Ukrainian | Russian stem | Ukrainian stem |")[1]
    rows = []
    for line in table.split("\n\n")[0].strip().splitlines()[1:]:
        english, _ru, _uk, ru_stem, uk_stem = (c.strip() for c in line.strip("|").split("|"))
        terms = [t.strip() for t in english.split("(")[0].split(",") if t.strip()]
        rows.append((terms, ru_stem, uk_stem))
    return rows


def test_the_glossary_is_read_whole() -> None:
    rows = glossary()
    assert (["pool"], "пул", "кул") in rows
    assert len(rows) >= 15


def term_pattern(term: str) -> re.Pattern[str]:
    plural = term[:-1] + "ies" if term.endswith("y") else term + "s"
    return re.compile(rf"(?<![\w-])(?:{re.escape(term)}|{re.escape(plural)})(?![\w-])",
                      re.IGNORECASE)


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_follows_the_glossary(language: str) -> None:
    wrong = []
    rows = glossary()
    for message in messages(language):
        msgid = PLACEHOLDER.sub("", singular(message))
        for terms, ru_stem, uk_stem in rows:
            stem = ru_stem if language == "ru" else uk_stem
            if any(term_pattern(t).search(msgid) for t in terms):
                wrong += [(terms[0], text) for text in forms(message)
                          if stem.lower() not in PLACEHOLDER.sub("", text).lower()]
    assert not wrong


def test_half_whist_is_its_own_term() -> None:
    assert term_pattern("whist").search("half-whist") is None
    assert term_pattern("half-whist").search("half-whist")
    assert term_pattern("penalty").search("Penalties are proposed")


@pytest.mark.parametrize(("option", "stored", "env", "expected"), [
    ("uk", "ru", {"LANG": "ru_RU.UTF-8"}, "uk"),
    (None, "uk", {"LANG": "ru_RU.UTF-8"}, "uk"),
    (None, None, {"LANG": "ru_RU.UTF-8"}, "ru"),
    (None, None, {"LC_ALL": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"}, "uk"),
    (None, None, {"LANGUAGE": "ru:en", "LANG": "en_GB.UTF-8"}, "ru"),
    (None, None, {"LANG": "C.UTF-8"}, "en"),
    (None, None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, None, {}, "en"),
    ("RU", None, {}, "ru"),
])
def test_the_language_is_chosen_in_order(option: str | None, stored: str | None,
                                         env: dict[str, str], expected: str) -> None:
    assert i18n.choose_language(option, stored, env) == expected


def test_a_language_pulka_does_not_speak_is_one_line(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["--lang", "de", "settle", "x.json"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "'de' is not a language pulka speaks; choose one of en, ru, uk" in err
    assert "Traceback" not in err


def test_numbers_follow_the_language() -> None:
    i18n.use_language("ru")
    assert i18n.decimal_text(1234.5, "#,##0.00") == "1\N{NO-BREAK SPACE}234,50"
    i18n.use_language("en")
    assert i18n.decimal_text(1234.5, "#,##0.00") == "1,234.50"


def test_a_missing_mo_is_compiled_from_its_po(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    source = i18n.catalogue_path("uk")
    folder = tmp_path / "uk" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "pulka.po").write_bytes(source.read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("uk").gettext("Queue") == "Черга"
        assert not (folder / "pulka.mo").exists()
    finally:
        i18n.translations.cache_clear()


def test_main_sets_the_language_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    main(["settle", str(tmp_path / "missing.json")])
    assert i18n.current_language() == "uk"
    main(["--lang", "ru", "settle", str(tmp_path / "missing.json")])
    assert i18n.current_language() == "ru"
