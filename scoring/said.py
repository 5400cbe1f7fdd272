"""A sentence for people with its code: the English words and, beside them, what they say in
a language-neutral form (a code and its parameters), which a catalogue says in any language.

:class:`Said` is a ``str`` (the English sentence, for logs and for the ``message`` of machine
output), so code that joins or prints sentences keeps working; the code and the parameters
travel with it (:meth:`Said.to_json`, :meth:`Said.from_json`). A parameter is a number, a
plain string (a seat, a file name: never an English word) or another :class:`Said`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

Param = Union[str, int, float, None, "Said"]
"""A parameter: a number, a name, ``None`` (nothing written) or a nested sentence."""


class Said(str):
    """An English sentence that knows its code and parameters.

    >>> s = Said("page_blurred", "page 2 is slightly blurred", page=2)
    >>> str(s), s.code, s.params
    ('page 2 is slightly blurred', 'page_blurred', {'page': 2})
    >>> s
    Said('page_blurred', 'page 2 is slightly blurred', **{'page': 2})
    >>> Said.from_json(s.to_json()) == s and Said.from_json(s.to_json()).params == s.params
    True
    """

    code: str
    params: Mapping[str, Param]

    def __new__(cls, code: str, text: str, /, **params: Param) -> Said:
        """The sentence ``text`` that says ``code`` with ``params``."""
        said = super().__new__(cls, text)
        said.code, said.params = code, params
        return said

    def __repr__(self) -> str:
        return f"Said({self.code!r}, {str(self)!r}, **{dict(self.params)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _said, (self.code, str(self), dict(self.params))

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "message"}``, nested sentences the same way."""
        return {"code": self.code,
                "params": {k: v.to_json() if isinstance(v, Said) else v
                           for k, v in self.params.items()},
                "message": str(self)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Said:
        """The sentence :meth:`to_json` wrote (its types checked by the reader that calls it)."""
        params = {k: cls.from_json(v) if isinstance(v, Mapping) else v
                  for k, v in doc["params"].items()}
        return cls(doc["code"], doc["message"], **params)


def N_(message: str) -> str:  # noqa: N802 - gettext's name for the marker
    """Mark a template for extraction into the catalogues; it is the template itself."""
    return message


def say(templates: Mapping[str, str], code: str, /, **params: Param) -> Said:
    """The sentence of ``code``: its template in ``templates`` filled with ``params``."""
    said = str.__new__(Said, templates[code].format_map(params))
    said.code, said.params = code, params
    return said


def _said(code: str, text: str, params: dict[str, Param]) -> Said:
    return Said(code, text, **params)


def said_json(text: str) -> str | dict[str, Any]:
    """A sentence as JSON: an object when it has a code, else the string itself."""
    return text.to_json() if isinstance(text, Said) else text
