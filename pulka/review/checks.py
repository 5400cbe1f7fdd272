"""What the review server checks before it acts: who is asking (Host, Origin, token) and what.

Every refusal is a :class:`RequestError`: an HTTP status and one line for the page.

* ``Host`` must name this server: a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``),
  the address it is bound to, or, bound to every interface, an IP address (a DNS name could be
  rebound to this computer by a web site: DNS rebinding);
* a state-changing request (a POST) with an ``Origin`` must come from this server's own
  origin, and must carry the token the page was served with (:data:`TOKEN_HEADER`), so no
  other web site can make decisions through a reviewer's browser;
* a decision is a JSON object whose fields have the types :class:`Decision` names.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

from pulka.i18n import LanguageError, check_language
from scanner.jsoncheck import DocumentError, plain

ACTIONS = ("accept", "type", "illegible", "skip")
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
ANY_ADDRESS = ("", "0.0.0.0", "::")
TOKEN_HEADER = "X-Pulka-Token"
"""The request header that carries the page's token."""
LANGUAGE_HEADER = "X-Pulka-Lang"
"""The request header that names the page's language (``?lang=`` of the page)."""
MAX_NAME = 200
"""Longest sheet id or cell key accepted, in characters."""


class RequestError(Exception):
    """A request the server refuses: HTTP status and one line for the page."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


def host_name(host: str) -> str:
    """The name part of a ``Host`` header or an origin's netloc, brackets off an IPv6 address.

    >>> host_name("127.0.0.1:8765"), host_name("[::1]:80"), host_name("localhost")
    ('127.0.0.1', '::1', 'localhost')
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def check_host(header: str | None, bound: str) -> None:
    """Refuse a ``Host`` that does not name this server (421)."""
    name = host_name(header or "")
    if name in LOCAL_HOSTS or name == host_name(bound) or (bound in ANY_ADDRESS and _is_ip(name)):
        return
    raise RequestError(HTTPStatus.MISDIRECTED_REQUEST,
                       f"host {header!r} is not this server; open it at a loopback address")


def check_origin(origin: str | None, host: str | None) -> None:
    """Refuse a state-changing request from another web site's page (403).

    No ``Origin`` (a program, not a browser) passes: the token still has to match.
    """
    if origin is None:
        return
    parts = urlsplit(origin)
    if parts.scheme != "http" or (parts.netloc or "").lower() != (host or "").strip().lower():
        raise RequestError(HTTPStatus.FORBIDDEN,
                           f"a request from {origin!r} is not accepted; use the review page")


def asked_language(header: str | None) -> str | None:
    """The language a page asks its answers in (:data:`LANGUAGE_HEADER`), ``None`` for the
    server's own; one pulka does not speak is refused."""
    if not header:
        return None
    try:
        return check_language(header[:40])
    except LanguageError as error:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(error)) from None


def check_token(given: str | None, token: str) -> None:
    """Refuse a state-changing request without the page's token (403)."""
    if given is None or not hmac.compare_digest(given.encode(), token.encode()):
        raise RequestError(HTTPStatus.FORBIDDEN, "the request lacks this page's token; "
                                                 "reload the review page")


def parse_body(body: bytes) -> dict[str, Any]:
    """A request body as a JSON object (400 otherwise)."""
    try:
        doc = json.loads(body or b"{}")
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        problem = "nested too deep" if isinstance(error, RecursionError) else str(error)
        raise RequestError(HTTPStatus.BAD_REQUEST, f"not JSON: {problem}") from None
    if not isinstance(doc, dict):
        raise RequestError(HTTPStatus.BAD_REQUEST, "send a JSON object")
    return doc


@dataclass(frozen=True)
class Decision:
    """A person's decision on a cell, as the page sends it."""

    sheet: str
    key: str
    action: str
    candidate: int | None
    value: Any

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Decision:
        """The decision, every field checked (400 naming the field otherwise)."""
        sheet, key = _name(doc, "sheet"), _name(doc, "key")
        action = doc.get("action")
        if action not in ACTIONS:
            raise RequestError(HTTPStatus.BAD_REQUEST,
                               f"action {action!r}: use one of {', '.join(ACTIONS)}")
        candidate = doc.get("candidate")
        if action == "accept" and (isinstance(candidate, bool) or not isinstance(candidate, int)):
            raise RequestError(HTTPStatus.BAD_REQUEST,
                               f"cell {key}: accept takes a candidate number, not {candidate!r}")
        try:
            value = plain(doc.get("value"), "value")
        except DocumentError as error:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: {error}") from None
        return cls(sheet, key, action, candidate if action == "accept" else None,
                   typed_value(key, value) if action == "type" else None)


def _name(doc: dict[str, Any], field: str) -> str:
    value = doc.get(field)
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"field {field}: expected a sheet id or "
                                                   f"cell key as a string, got {value!r:.60}")
    return value


def typed_value(key: str, value: Any) -> Any:
    """A typed value for a cell: an entry's text becomes a number, a row's text a deal object.

    >>> typed_value("entry:A:pool:2", " 20 "), typed_value("entry:A:pool:2", "")
    (20, None)
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text or text == "-":
        return None
    if key.startswith("row:"):
        try:
            return plain(json.loads(text), "value")
        except (ValueError, RecursionError) as error:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: a deal row takes a deal "
                                                       f"as JSON ({error})") from None
    if len(text) > 12:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: {text[:20]!r}... is too long "
                                                   f"for an entry")
    try:
        return int(text)
    except ValueError:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: {text!r} is not a whole "
                                                   f"number") from None
