"""Message catalogues: the language a person reads, and ``gettext``/``ngettext`` in it.

One gettext domain, ``pulka``, holds every string a person reads, the Python code's and the
review page's (its JavaScript gets them as JSON, :func:`page_catalogue`). Sources are
``pulka/locale/<lang>/LC_MESSAGES/pulka.po``; ``scripts/setup.sh`` compiles them to ``.mo``
(``pybabel compile``), and a missing or stale ``.mo`` is compiled from its ``.po`` on load.
The words follow ``pulka/locale/GLOSSARY.md``.

The language is chosen once, by the command line (:func:`choose_language`): ``--lang``, else
the tournament's language stored with it, else the environment's locale, else English.
Machine output (``--json``, records) never goes through here: it keeps codes.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

LANGUAGES = ("en", "ru", "uk")
"""The languages pulka speaks, as ISO 639-1 codes (the printed sheet's ``--lang`` too)."""
DEFAULT_LANGUAGE = "en"
DOMAIN = "pulka"
ARGPARSE_DOMAIN = "argparse"
"""Python's own domain for argparse's words ("usage:", "error:"); pulka ships ru and uk."""
LOCALE_DIR = Path(__file__).parent / "locale"
ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the environment names its locale, in the order GNU gettext reads them."""
PLURAL_SAMPLES = range(200)
"""Numbers tried to tie a catalogue's plural index to its CLDR category (one, few, many)."""

_chosen = {"language": DEFAULT_LANGUAGE}
_speaking: ContextVar[str | None] = ContextVar("pulka_speaking", default=None)


class LanguageError(ValueError):
    """A language pulka has no catalogue for."""


def normalise_language(value: str | None) -> str | None:
    """``ru_RU.UTF-8`` -> ``ru``, ``uk`` -> ``uk``; ``C``, ``POSIX``, unknown or empty: None.

    >>> normalise_language("uk_UA.UTF-8"), normalise_language("C.UTF-8")
    ('uk', None)
    """
    if not value:
        return None
    code = value.split(":")[0].split(".")[0].split("@")[0].replace("-", "_").split("_")[0]
    code = code.lower()
    return code if code in LANGUAGES else None


def check_language(value: str) -> str:
    """A ``--lang`` value as its code; :class:`LanguageError` names the choices."""
    code = normalise_language(value)
    if code is None:
        raise LanguageError(f"{value!r} is not a language pulka speaks; "
                            f"choose one of {', '.join(LANGUAGES)}")
    return code


def choose_language(option: str | None, tournament: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), else ``tournament`` (the language
    stored with the tournament; the store passes it), else the environment's locale, else
    English.

    >>> choose_language(None, "uk", {"LANG": "ru_RU.UTF-8"})
    'uk'
    >>> choose_language(None, None, {"LANG": "ru_RU.UTF-8"})
    'ru'
    """
    if option:
        return check_language(option)
    stored = normalise_language(tournament)
    if stored:
        return stored
    env = environ if environ is not None else os.environ
    for name in ENVIRONMENT_VARIABLES:
        if env.get(name):
            return normalise_language(env[name]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def use_language(language: str) -> None:
    """Speak ``language`` from now on in this process (set once by the command line)."""
    _chosen["language"] = check_language(language)


def current_language() -> str:
    """The language of the block being run (:func:`speaking`), else the one chosen by
    :func:`use_language` (English until then)."""
    return _speaking.get() or _chosen["language"]


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Speak ``language`` in this thread until the block ends (``None``: the process's own);
    the review server answers each request in the language of the page that asks."""
    token = _speaking.set(None if language is None else check_language(language))
    try:
        yield
    finally:
        _speaking.reset(token)


def catalogue_path(language: str, suffix: str = ".po", domain: str = DOMAIN) -> Path:
    """``pulka/locale/<language>/LC_MESSAGES/pulka.po`` (or ``.mo``, or another domain)."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}{suffix}"


@cache
def translations(language: str, domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language``: its ``.mo``, or its ``.po`` compiled now
    (no catalogue of that domain: the messages as they are)."""
    po, mo = catalogue_path(language, domain=domain), catalogue_path(language, ".mo", domain)
    if not po.exists():
        return _gettext.NullTranslations()
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as stream:
            return _gettext.GNUTranslations(stream)
    buffer = io.BytesIO()
    with po.open("rb") as stream:
        write_mo(buffer, read_po(stream, locale=language, domain=domain))
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str) -> str:
    """``message`` in the chosen language."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for ``n`` in the chosen language (three forms in ru and uk)."""
    return translations(current_language()).ngettext(singular, plural, n)


_ = gettext


def N_(message: str) -> str:  # noqa: N802 - gettext's name for the marker
    """Mark ``message`` for extraction where it is defined; :func:`gettext` translates it
    where it is shown (a table of texts built at import time)."""
    return message


def decimal_text(value: float | Decimal, pattern: str = "#,##0.##") -> str:
    """A number in the chosen language's digits and separators (Babel): ``1 234,5`` in ru."""
    return str(format_decimal(value, format=pattern, locale=current_language()))


def page_catalogue(language: str) -> dict[str, Any]:
    """The catalogue as the review page reads it: ``messages`` (id -> text) and ``plurals``
    (singular id -> CLDR category -> text, the category the browser's ``Intl.PluralRules``
    gives)."""
    with catalogue_path(language).open("rb") as stream:
        catalog = read_po(stream, locale=language, domain=DOMAIN)
    plural_index = _gettext.c2py(catalog.plural_expr)
    locale = Locale.parse(language)
    index_category: dict[int, str] = {}
    for n in PLURAL_SAMPLES:
        index_category.setdefault(plural_index(n), locale.plural_form(n))
    messages: dict[str, str] = {}
    plurals: dict[str, dict[str, str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = message.string if isinstance(message.string, tuple) else ()
            plurals[message.id[0]] = {index_category[i]: text or message.id[min(i, 1)]
                                      for i, text in enumerate(forms)
                                      if i in index_category}
        else:
            messages[str(message.id)] = str(message.string) or str(message.id)
    return {"lang": language, "messages": messages, "plurals": plurals}
