"""Records as people and programs break them: fuzzed and hostile documents are refused with
one line naming the field; any seat letters RECORD.md allows work in every command."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forms.layout import build_layout
from forms.render.fill import fill_from_record
from pulka.cli.main import main
from scoring import ScoringError, parse_record, record_problems
from scoring.random_games import random_record
from scoring.record import load_json, relabel_seats
from scoring.rules import RuleSet

EXAMPLE = Path(__file__).parents[2] / "samples" / "records" / "record_md_example.json"
SEAT_SETS: dict[int, list[tuple[str, ...]]] = {
    3: [("X", "Y", "Z"), ("N", "E", "S"), ("А", "Б", "В")],
    4: [("N", "E", "S", "W"), ("X", "Y", "Z", "Q"), ("Пн", "Вт", "Ср", "Чт")]}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=20)


def _example() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return doc


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document (keys and list indices)."""
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found += _paths(value, (*prefix, index))
    return found


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_mutated_record_is_read_or_refused_never_crashes(data: st.DataObject) -> None:
    doc = _example()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc)[1:]))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = data.draw(json_values)
    try:
        parse_record(copy.deepcopy(doc))
    except ScoringError as error:
        assert "\n" not in str(error)
    assert all(isinstance(p, str) for p in record_problems(doc))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_text_is_json_or_refused(text: str) -> None:
    try:
        doc = load_json(text)
    except ScoringError:
        return
    with contextlib.suppress(ScoringError):
        parse_record(doc)


def _hostile(name: str) -> bytes:
    doc = _example()
    if name == "deep":
        return b'{"format": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    if name == "digits":
        return json.dumps(doc).replace('"pool": 20', '"pool": ' + "9" * 5000).encode()
    if name == "latin1":
        doc["names"]["A"] = "Ivanova\xe9"
        return json.dumps(doc, ensure_ascii=False).encode("latin-1")
    changes = {"list-name": ("names", "A", ["x"]), "nul-name": ("names", "A", "Iv\x00anova"),
               "long-name": ("names", "A", "Я" * 5000), "stake": ("rules", "stake", 10**18),
               "pool": ("rules", "pool", 10**15), "total": ("written", "C", None)}
    top, key, value = changes[name]
    if name == "total":
        doc["written"]["C"]["pool"] = [4, 10**12]
    else:
        doc[top][key] = value
    return json.dumps(doc).encode()


@pytest.mark.parametrize(("name", "field"), [
    ("deep", "nested deeper than 32"), ("digits", "a number of 5000 digits"),
    ("latin1", "UTF-8"),
    ("list-name", "names.A"), ("nul-name", "names.A"), ("long-name", "names.A"),
    ("stake", "rules.stake"), ("pool", "rules.pool"), ("total", "written.C.pool[1]")])
@pytest.mark.parametrize("command", ["settle", "audit", "print"])
def test_a_hostile_record_is_one_line_naming_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, field: str,
        command: str) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(_hostile(name))
    args = [command, str(path)] if command != "print" else \
        ["print", "--record", str(path), "-o", str(tmp_path / "x.pdf")]
    assert main(args) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and field in err and str(path) in err, err
    assert len(err) < 400


def test_a_pipe_named_as_the_record_is_refused_without_waiting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    pipe = tmp_path / "game.json"
    os.mkfifo(pipe)
    assert main(["settle", str(pipe)]) == 3
    assert "not a regular file" in capsys.readouterr().err


def _game(players: int) -> dict[str, Any]:
    rules = RuleSet.preset("sochi", players, 10)
    doc = random_record(rules, random.Random(players), deals=12)
    doc["names"] = dict(zip(doc["seats"], ("Іванов", "Petrenko", "Сидоров", "Kovalchuk"),
                            strict=False))
    return doc


@pytest.mark.parametrize("players", [3, 4])
def test_any_seat_letters_fill_the_same_sheet(players: int) -> None:
    doc = _game(players)
    layout = build_layout(players)
    reference = fill_from_record(parse_record(doc), layout)
    for seats in SEAT_SETS[players]:
        renamed = parse_record(relabel_seats(doc, seats))
        assert renamed.seats == seats
        assert fill_from_record(renamed, layout) == reference


@pytest.mark.parametrize("players", [3, 4])
def test_print_and_samples_take_any_seat_letters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], players: int) -> None:
    for number, seats in enumerate(SEAT_SETS[players]):
        path = tmp_path / f"game-{number}.json"
        path.write_text(json.dumps(relabel_seats(_game(players), seats), ensure_ascii=False),
                        encoding="utf-8")
        assert main(["print", "--record", str(path), "-o", str(tmp_path / "s.pdf")]) == 0
        assert main(["settle", str(path)]) == 0
        assert (tmp_path / "s.pdf").stat().st_size > 1000
    assert main(["samples", "--record", str(path), "--out", str(tmp_path / "sample")]) == 0
    truth = json.loads((tmp_path / "sample" / "truth.json").read_text(encoding="utf-8"))
    assert truth["record"]["names"] == dict(zip("ABCD", _game(players)["names"].values(),
                                                strict=False))
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize(("option", "value"), [
    ("--names", ",".join(["Ж" * 3000] * 3)), ("--names", "Ann,B\x00b,Cid"),
    ("--tournament", "Open" * 500), ("--date", "2026\x0012")])
def test_printed_texts_are_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   option: str, value: str) -> None:
    assert main(["print", "--players", "3", option, value, "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"pulka print: {option}: ")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("name", ["Open" * 500, "Kyiv\x00Open"])
def test_a_tournament_name_is_bounded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      name: str) -> None:
    db = tmp_path / "t.sqlite"
    assert main(["tournament", "new", name, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not db.exists()
