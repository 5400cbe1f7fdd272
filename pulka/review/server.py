"""The review page's web server: the page's own files, its JSON API and the scan images.

Routes (everything else is 404, other methods 405):

* ``GET /``, ``/review.js``, ``/sheet.js``, ``/decide.js``, ``/review.css``: the page
  (:mod:`pulka.review.files`); the HTML carries this server's token;
* ``GET /api/queue``: the doubtful cells, worst first, grouped by sheet
  (:func:`pulka.store.review.queue`);
* ``GET /api/sheet/<sheet id>``: one sheet's cells with their state, findings, settlement;
* ``GET /api/standings[?tournament=NAME]``: the standings of each tournament (or of one);
* ``GET /api/missing[?tournament=NAME]``: per round, the tables without a sheet and the
  games held for a page or sheet not scanned (:mod:`pulka.store.missing`);
* ``POST /api/decide`` ``{"sheet", "key", "action", "candidate" | "value"}``: ``action`` is
  ``accept`` (candidate number, from 1), ``type`` (a value: an entry's number, a row's deal
  object), ``illegible`` or ``skip``; answers the sheet's new state, findings and settlement,
  the queue and the standings, so the page needs one round trip per decision;
* ``POST /api/undo``: takes back this reviewer's last decision (answers as decide);
* ``GET /api/sheets``, ``GET /api/row/<sheet id>/<row key>``, ``POST /api/row-check``: the
  sheet list and the deal-row grid (:mod:`pulka.review.desk`);
* ``POST /api/rule``, ``/api/signoff``, ``GET /report/<sheet id>``: the judge's rulings, the
  sign-off and the sheet's current report (:mod:`pulka.review.judging`; answered as decide);
* ``GET /img/<sheet id>/page/<n>``, ``/img/<sheet id>/crop/<cell key>``: the straightened
  page or the ink crop, only at the path the store recorded for it, inside the sheet's scan
  folder (:func:`pulka.review.files.safe_file`); a crop that names a rectangle of its page's
  field sheet is cut out of it and sent as JPEG (:func:`pulka.report.crops.crop_jpeg`).

Every request is checked first (:mod:`pulka.review.checks`: Host; for a POST, Origin, the
token, ``application/json`` of at most :data:`MAX_BODY_BYTES`); a malformed one is answered
4xx with ``{"error": one line}`` and nothing in the log but a debug line, and a client that
hangs up mid-request is dropped quietly. Each request opens the store afresh (SQLite in WAL
mode: reads never wait for an import).
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pulka.i18n import current_language, page_catalogue, speaking
from pulka.report.crops import crop_jpeg
from pulka.report.standings import standings
from pulka.review import desk, judging
from pulka.review.checks import (
    LANGUAGE_HEADER,
    TOKEN_HEADER,
    Decision,
    RequestError,
    asked_language,
    check_host,
    check_origin,
    check_token,
    parse_body,
)
from pulka.review.files import IMAGE_TYPES, STATIC_FILES, safe_file, scan_root, static_file
from pulka.store import review as review_store
from pulka.store.database import Store
from pulka.store.errors import StoreError
from pulka.store.missing import missing_document
from scanner.results import split_crop

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
"""Largest request body (a decision is well under 1 KiB)."""
REQUEST_TIMEOUT_S = 30
"""How long a connection may stay silent before the server drops it."""
CLIENT_GONE = (ConnectionError, TimeoutError)
"""What a client that hangs up or goes silent raises on its socket."""
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
}


class ReviewServer(ThreadingHTTPServer):
    """The server: the store file, who decides, its token, and the cells skipped so far."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], db: Path, who: str) -> None:
        super().__init__(address, ReviewHandler)
        self.db = Path(db)
        self.who = who
        self.token = secrets.token_urlsafe(24)
        """Issued with the page; every state-changing request must send it back."""
        self.skipped: list[tuple[str, str]] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        """Where the page is."""
        host, port = self.server_address[:2]
        host = str(host)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"

    def skip(self, sheet: str, key: str) -> None:
        """Put a cell off to the end of the queue (for this session)."""
        with self.lock:
            if (sheet, key) in self.skipped:
                self.skipped.remove((sheet, key))
            self.skipped.append((sheet, key))

    def skipped_now(self) -> set[tuple[str, str]]:
        """The cells put off so far."""
        with self.lock:
            return set(self.skipped)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection's failure is one log line, never a traceback on stderr."""
        error = sys.exc_info()[1]
        if isinstance(error, CLIENT_GONE):
            log.debug("review: %s hung up (%s)", client_address, type(error).__name__)
        else:
            log.error("review: connection from %s failed: %r", client_address, error)


def make_server(db: Path, host: str = "127.0.0.1", port: int = 0,
                who: str = "reviewer") -> ReviewServer:
    """A review server bound to ``host:port`` (0: any free port); creates the store if new."""
    with Store(db):
        pass
    return ReviewServer((host, port), db, who)


class ReviewHandler(BaseHTTPRequestHandler):
    """One request: routed by path, answered as JSON, an image, or one of the page's files."""

    server: ReviewServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as two writes
    server_version = "pulka-review"
    default_request_version = "HTTP/1.0"  # a broken request line still gets a status line
    timeout = REQUEST_TIMEOUT_S

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Requests go to the debug log, not to stderr."""
        log.debug("%s " + format, self.address_string(), *args)

    # -- answers ---------------------------------------------------------------------------

    def _send(self, status: HTTPStatus, body: bytes, content_type: str,
              cache: str = "no-store", csp: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, csp if csp and name == "Content-Security-Policy" else value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, doc: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(doc, ensure_ascii=False).encode(),
                   "application/json; charset=utf-8")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self.close_connection = status >= 500 or status in (HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                                            HTTPStatus.LENGTH_REQUIRED)
        self._json({"error": message}, status)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The base class's own refusals (a bad request line, headers too long) as JSON; an
        unknown method or HTTP version is the client's error (4xx), not the server's."""
        status = {HTTPStatus.NOT_IMPLEMENTED: HTTPStatus.METHOD_NOT_ALLOWED,
                  HTTPStatus.HTTP_VERSION_NOT_SUPPORTED: HTTPStatus.BAD_REQUEST
                  }.get(HTTPStatus(code), HTTPStatus(code))
        with contextlib.suppress(*CLIENT_GONE):
            self._error(status, (message or status.phrase)[:200])
        self.close_connection = True

    def _guarded(self, handle: Callable[[], None]) -> None:
        try:
            try:
                check_host(self.headers.get("Host"), str(self.server.server_address[0]))
                with speaking(asked_language(self.headers.get(LANGUAGE_HEADER))):
                    handle()
            except RequestError as error:
                log.debug("review: %s %.200s: %s", self.command, self.path, error)
                self._error(error.status, str(error))
            except StoreError as error:
                self._error(HTTPStatus.BAD_REQUEST, str(error))
            except CLIENT_GONE:
                raise
            except Exception:  # noqa: BLE001 - one request's bug must not stop the server
                log.exception("review: %s %.200s failed", self.command, self.path)
                self._error(HTTPStatus.INTERNAL_SERVER_ERROR,
                            "internal error; see the server's log")
        except CLIENT_GONE as gone:
            log.debug("review: the client hung up (%s)", type(gone).__name__)
            self.close_connection = True

    # -- methods ---------------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        """Page files, the API's reads, images."""
        self._guarded(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        """As GET, without the body."""
        self._guarded(self._get)

    def do_POST(self) -> None:  # noqa: N802
        """Decisions and undo."""
        self._guarded(self._post)

    def _refuse(self) -> None:
        def refuse() -> None:
            raise RequestError(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} is not served "
                                                              f"here")
        self._guarded(refuse)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    def _get(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        if path in STATIC_FILES:
            self._send(HTTPStatus.OK, *static_file(path, self.server.token), "no-cache")
            return
        if path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon", "max-age=86400")
            return
        if path == "/api/catalogue":
            asked = parse_qs(parts.query).get("lang")
            self._json(page_catalogue((asked and asked_language(asked[0])) or current_language()))
            return
        segments = [unquote(s) for s in path.split("/")[1:]]
        with Store(self.server.db) as store:
            if segments == ["api", "queue"]:
                self._json(self._queue(store))
            elif len(segments) == 3 and segments[:2] == ["api", "sheet"]:
                self._json(review_store.sheet_view(store, self._sheet(store, segments[2])))
            elif segments == ["api", "standings"]:
                names = parse_qs(parts.query).get("tournament")
                self._json(self._standings(store, names[0] if names else None))
            elif segments == ["api", "missing"]:
                names = parse_qs(parts.query).get("tournament")
                self._json(self._missing(store, names[0] if names else None))
            elif len(segments) == 4 and segments[0] == "img":
                self._image(store, *segments[1:])
            elif len(segments) == 2 and segments[0] == "report":
                body = judging.report_page(store, self._sheet(store, segments[1]),
                                           self.server.db)
                self._send(HTTPStatus.OK, body, "text/html; charset=utf-8",
                           csp=judging.REPORT_CSP)
            elif (answer := desk.get(store, segments)) is not None:
                self._json(answer)
            else:
                raise RequestError(HTTPStatus.NOT_FOUND, f"nothing at {path:.200}")

    @staticmethod
    def _sheet(store: Store, sheet_id: str) -> str:
        if sheet_id not in store.sheet_ids():
            raise RequestError(HTTPStatus.NOT_FOUND, f"no sheet {sheet_id!r:.200} in the store")
        return sheet_id

    @staticmethod
    def _standings(store: Store, tournament: str | None) -> dict[str, Any]:
        names = store.tournament_names() if tournament is None else [tournament]
        out = []
        for name in names:
            try:
                out.append(standings(store, name).to_json())
            except StoreError as error:
                raise RequestError(HTTPStatus.NOT_FOUND, str(error)) from None
        return {"tournaments": out}

    @staticmethod
    def _missing(store: Store, tournament: str | None) -> dict[str, Any]:
        names = store.tournament_names() if tournament is None else [tournament]
        try:
            return missing_document(store.conn, {n: store.tournament_id(n) for n in names})
        except StoreError as error:
            raise RequestError(HTTPStatus.NOT_FOUND, str(error)) from None

    def _image(self, store: Store, sheet_id: str, kind: str, which: str) -> None:
        ref = store.image_ref(sheet_id, kind, which)
        relative = ref.relative
        missing = RequestError(HTTPStatus.NOT_FOUND, f"no {kind:.20} image {which!r:.200} of "
                                                    f"sheet {sheet_id!r:.200}")
        rect = None
        if kind == "crop" and relative:
            try:
                relative, rect = split_crop(relative)
            except ValueError:
                raise missing from None
        root = scan_root(ref.scan_path, self.server.db)
        target = safe_file(root, relative) if root is not None and relative else None
        if target is None:
            raise missing
        if rect is None:
            self._send(HTTPStatus.OK, target.read_bytes(), IMAGE_TYPES[target.suffix.lower()],
                       "private, max-age=60")
            return
        try:
            body = crop_jpeg(target, rect)
        except (OSError, ValueError) as error:
            log.warning("crop %s of sheet %s: %s", which, sheet_id, error)
            raise missing from None
        self._send(HTTPStatus.OK, body, "image/jpeg", "private, max-age=60")

    # -- decisions -------------------------------------------------------------------------

    def _body(self) -> dict[str, Any]:
        """The checked body of a state-changing request: its origin, token, type and size."""
        check_origin(self.headers.get("Origin"), self.headers.get("Host"))
        check_token(self.headers.get(TOKEN_HEADER), self.server.token)
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send application/json")
        length_text = self.headers.get("Content-Length") or ""
        if not length_text.isdigit() or len(length_text) > 12:
            raise RequestError(HTTPStatus.LENGTH_REQUIRED, "a Content-Length is needed")
        length = int(length_text)
        if length > MAX_BODY_BYTES:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                               f"a request body may have up to {MAX_BODY_BYTES} bytes, "
                               f"this one has {length}")
        body = self.rfile.read(length)
        if len(body) < length:
            raise ConnectionResetError("the body ended early")
        return parse_body(body)

    def _post(self) -> None:
        path = urlsplit(self.path).path
        judge = {"/api/rule": judging.rule_request, "/api/signoff": judging.signoff_request}
        if path not in ("/api/decide", "/api/undo", *desk.POST_PATHS, *judge):
            raise RequestError(HTTPStatus.NOT_FOUND, f"nothing to post at {path:.200}")
        doc = self._body()
        with Store(self.server.db) as store:
            if path in desk.POST_PATHS:
                self._json(desk.post(store, doc))
                return
            if path in judge:
                done = judge[path](store, doc, self.server.who)
                self._json(self._after(store, done["sheet"], {"ruled": done}))
                return
            if path == "/api/undo":
                undone = review_store.undo_last(store, self.server.who)
                sheet = undone["sheet"] if undone else None
                self._json(self._after(store, sheet, {"undone": undone}))
                return
            decision = Decision.from_json(doc)
            self._decide(store, decision)
            self._json(self._after(store, decision.sheet, {"decided": {
                "sheet": decision.sheet, "key": decision.key, "action": decision.action}}))

    def _decide(self, store: Store, decision: Decision) -> None:
        sheet, key = self._sheet(store, decision.sheet), decision.key
        try:
            cell = store.cell(sheet, key)
        except StoreError as error:
            raise RequestError(HTTPStatus.NOT_FOUND, str(error)) from None
        if decision.action == "skip":
            self.server.skip(sheet, key)
        elif decision.action == "illegible":
            review_store.decide(store, sheet, key, None, self.server.who, illegible=True)
        else:
            value = decision.value if decision.action == "type" else \
                self._candidate(key, cell.candidates, decision.candidate)
            review_store.decide(store, sheet, key, value, self.server.who)

    @staticmethod
    def _candidate(key: str, candidates: list[Any], number: int | None) -> Any:
        if number is None or not 1 <= number <= len(candidates):
            raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: candidates are 1 to "
                                                       f"{len(candidates)}, not {number!r}")
        return candidates[number - 1][0]

    def _queue(self, store: Store) -> dict[str, Any]:
        return {**review_store.queue(store, self.server.skipped_now()), "who": self.server.who}

    def _after(self, store: Store, sheet: str | None, extra: dict[str, Any]) -> dict[str, Any]:
        """What the page redraws after a decision: the sheet, the queue, the standings."""
        doc = {**extra, "queue": self._queue(store)}
        if sheet is not None:
            doc["panel"] = review_store.panel(store, sheet)
            doc["standings"] = self._standings(store, doc["panel"]["tournament"])
        return doc
