"""The review page's web server: the page's own files, its JSON API and the scan images.

Routes (everything else is 404, other methods 405):

* ``GET /``, ``/review.js``, ``/sheet.js``, ``/decide.js``, ``/review.css``: the page
  (``static/``, a fixed list of files);
* ``GET /api/queue``: the doubtful cells, worst first, grouped by sheet
  (:func:`pulka.store.review.queue`);
* ``GET /api/sheet/<sheet id>``: one sheet's cells with their state, findings, settlement;
* ``GET /api/standings[?tournament=NAME]``: the standings of each tournament (or of one);
* ``POST /api/decide`` ``{"sheet", "key", "action", "candidate" | "value"}``: ``action`` is
  ``accept`` (candidate number, from 1), ``type`` (a value: an entry's number, a row's deal
  object), ``illegible`` or ``skip``; answers the sheet's new state, findings and settlement,
  the queue and the standings, so the page needs one round trip per decision;
* ``POST /api/undo``: takes back this reviewer's last decision (answers as decide);
* ``GET /img/<sheet id>/page/<n>``, ``/img/<sheet id>/crop/<cell key>``: the straightened
  page or the ink crop, only at the path the store recorded for it, resolved inside the
  sheet's scan folder (no ``..``, no absolute path, no symbolic link out of it); a crop
  that names a rectangle of its page's field sheet (``crops/page-1.jpg#xywh=...``,
  :func:`scanner.results.split_crop`) is cut out of it and sent as JPEG
  (:func:`pulka.report.crops.crop_jpeg`), one without (an older scan's own file) as it is.

A POST must be ``application/json`` (which also keeps other web sites from posting to it:
a cross-site JSON post needs a CORS pre-flight this server never grants), at most
:data:`MAX_BODY_BYTES` (413 otherwise); a request naming a host other than the one the server
is bound to is refused (421), against DNS rebinding. Each request opens the store afresh
(SQLite in WAL mode: reads never wait for an import).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pulka.report.crops import crop_jpeg
from pulka.store import review as review_store
from pulka.store.database import Store, StoreError
from scanner.results import split_crop

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
"""Largest request body (a decision is well under 1 KiB)."""
MAX_IMAGE_BYTES = 32 * 1024 * 1024
"""Largest image served (a straightened page at 100 dpi is under 2 MiB)."""
STATIC_FILES = {"/": ("index.html", "text/html; charset=utf-8"),
                "/index.html": ("index.html", "text/html; charset=utf-8"),
                "/review.js": ("review.js", "text/javascript; charset=utf-8"),
                "/sheet.js": ("sheet.js", "text/javascript; charset=utf-8"),
                "/decide.js": ("decide.js", "text/javascript; charset=utf-8"),
                "/review.css": ("review.css", "text/css; charset=utf-8")}
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
ACTIONS = ("accept", "type", "illegible", "skip")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
}


class RequestError(Exception):
    """A request the server refuses: HTTP status and one line for the page."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


def scan_root(scan_path: str | None, db: Path) -> Path | None:
    """The folder a sheet's image paths are relative to: the one above its ``scan.json``.

    A relative scan path is tried from the current folder, then from the store's folder.
    """
    if not scan_path:
        return None
    path = Path(scan_path)
    for candidate in [path] if path.is_absolute() else [Path.cwd() / path, db.parent / path]:
        if candidate.parent.is_dir():
            return candidate.parent.parent
    return None


def safe_file(root: Path, relative: str) -> Path | None:
    """``root/relative`` when it is an image file inside ``root``; ``None`` otherwise.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "a.png").write_bytes(b"x")
    ...     [safe_file(Path(folder), p) is not None for p in ("a.png", "../a.png", "/etc/passwd")]
    [True, False, False]
    """
    if not relative or "\\" in relative or "\0" in relative:
        return None
    rel = PurePosixPath(relative)
    if rel.is_absolute() or ".." in rel.parts or rel.suffix.lower() not in IMAGE_TYPES:
        return None
    try:
        base = root.resolve(strict=True)
        target = (base / rel).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(base) or not target.is_file():
        return None
    if target.stat().st_size > MAX_IMAGE_BYTES:
        log.warning("%s: larger than %d bytes, not served", target, MAX_IMAGE_BYTES)
        return None
    return target


class ReviewServer(ThreadingHTTPServer):
    """The server: the store file, who decides, and the cells skipped in this session."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], db: Path, who: str) -> None:
        super().__init__(address, ReviewHandler)
        self.db = Path(db)
        self.who = who
        self.skipped: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        host = address[0]
        self.hosts = None if host in ("", "0.0.0.0", "::") else {host, *LOCAL_HOSTS}

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
    disable_nagle_algorithm = True  # headers and body go out as two writes: no 40 ms stall
    server_version = "pulka-review"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Requests go to the debug log, not to stderr."""
        log.debug("%s " + format, self.address_string(), *args)

    # -- answers ---------------------------------------------------------------------------

    def _send(self, status: HTTPStatus, body: bytes, content_type: str,
              cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
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

    def _guarded(self, handle: Any) -> None:
        start = time.perf_counter()
        try:
            self._check_host()
            handle()
        except RequestError as error:
            self._error(error.status, str(error))
        except StoreError as error:
            self._error(HTTPStatus.BAD_REQUEST, str(error))
        except Exception:  # noqa: BLE001 - one request's bug must not stop the server
            log.exception("review: %s %s failed", self.command, self.path)
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error; see the server's log")
        log.debug("%s %s: %.1f ms", self.command, self.path, (time.perf_counter() - start) * 1e3)

    def _check_host(self) -> None:
        if self.server.hosts is None:
            return
        host = (self.headers.get("Host") or "").strip()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in self.server.hosts:
            raise RequestError(HTTPStatus.MISDIRECTED_REQUEST,
                               f"host {host!r} is not this server; open {self.server.url}")

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
        self._guarded(lambda: self._raise(RequestError(HTTPStatus.METHOD_NOT_ALLOWED,
                                                       f"{self.command} is not served here")))

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    @staticmethod
    def _raise(error: Exception) -> None:
        raise error

    def _get(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        if path in STATIC_FILES:
            name, content_type = STATIC_FILES[path]
            body = resources.files("pulka.review").joinpath("static", name).read_bytes()
            self._send(HTTPStatus.OK, body, content_type, "no-cache")
            return
        if path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon", "max-age=86400")
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
            elif len(segments) == 4 and segments[0] == "img":
                self._image(store, *segments[1:])
            else:
                raise RequestError(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    @staticmethod
    def _sheet(store: Store, sheet_id: str) -> str:
        if sheet_id not in store.sheet_ids():
            raise RequestError(HTTPStatus.NOT_FOUND, f"no sheet {sheet_id!r} in the store")
        return sheet_id

    @staticmethod
    def _standings(store: Store, tournament: str | None) -> dict[str, Any]:
        names = store.tournament_names() if tournament is None else [tournament]
        out = []
        for name in names:
            try:
                out.append(store.standings(name).to_json())
            except StoreError as error:
                raise RequestError(HTTPStatus.NOT_FOUND, str(error)) from None
        return {"tournaments": out}

    def _image(self, store: Store, sheet_id: str, kind: str, which: str) -> None:
        row = store.conn.execute("SELECT id, scan_path FROM sheets WHERE sheet_id = ?",
                                 (sheet_id,)).fetchone()
        relative = None
        if row is not None and kind == "page" and which.isdigit():
            found = store.conn.execute("SELECT image FROM pages WHERE sheet_id = ? AND "
                                       "page_index = ?", (row[0], int(which))).fetchone()
            relative = found and found[0]
        elif row is not None and kind == "crop":
            found = store.conn.execute("SELECT crop FROM cells WHERE sheet_id = ? AND key = ?",
                                       (row[0], which)).fetchone()
            relative = found and found[0]
        missing = RequestError(HTTPStatus.NOT_FOUND, f"no {kind} image {which!r} of sheet "
                                                    f"{sheet_id!r}")
        rect = None
        if kind == "crop" and relative:
            try:
                relative, rect = split_crop(relative)
            except ValueError:
                raise missing from None
        root = scan_root(row[1], self.server.db) if row is not None else None
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
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise RequestError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                               "send application/json")
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.isdigit():
            raise RequestError(HTTPStatus.LENGTH_REQUIRED, "a Content-Length is needed")
        length = int(length_text)
        if length > MAX_BODY_BYTES:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                               f"a request body may have up to {MAX_BODY_BYTES} bytes, "
                               f"this one has {length}")
        try:
            doc = json.loads(self.rfile.read(length) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"not JSON: {error}") from None
        if not isinstance(doc, dict):
            raise RequestError(HTTPStatus.BAD_REQUEST, "send a JSON object")
        return doc

    def _post(self) -> None:
        path = urlsplit(self.path).path
        if path not in ("/api/decide", "/api/undo"):
            raise RequestError(HTTPStatus.NOT_FOUND, f"nothing to post at {path}")
        doc = self._body()
        with Store(self.server.db) as store:
            if path == "/api/undo":
                undone = review_store.undo_last(store, self.server.who)
                sheet = undone["sheet"] if undone else None
                self._json(self._after(store, sheet, {"undone": undone}))
                return
            sheet, key, action = (str(doc.get("sheet") or ""), str(doc.get("key") or ""),
                                  doc.get("action"))
            if action not in ACTIONS:
                raise RequestError(HTTPStatus.BAD_REQUEST,
                                   f"action {action!r}: use one of {', '.join(ACTIONS)}")
            self._sheet(store, sheet)
            cell = store.conn.execute(
                "SELECT c.candidates_json FROM cells c JOIN sheets s ON s.id = c.sheet_id "
                "WHERE s.sheet_id = ? AND c.key = ?", (sheet, key)).fetchone()
            if cell is None:
                raise RequestError(HTTPStatus.NOT_FOUND, f"sheet {sheet} has no cell {key!r}")
            if action == "skip":
                self.server.skip(sheet, key)
            elif action == "illegible":
                review_store.decide(store, sheet, key, None, self.server.who, illegible=True)
            else:
                value = (self._candidate(key, json.loads(cell[0]), doc.get("candidate"))
                         if action == "accept" else typed_value(key, doc.get("value")))
                review_store.decide(store, sheet, key, value, self.server.who)
            self._json(self._after(store, sheet, {"decided": {"sheet": sheet, "key": key,
                                                              "action": action}}))

    @staticmethod
    def _candidate(key: str, candidates: list[Any], number: Any) -> Any:
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(candidates):
            raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key} has candidates 1 to "
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
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: a deal row takes a deal "
                                                       f"as JSON ({error})") from None
    try:
        return int(text)
    except ValueError:
        raise RequestError(HTTPStatus.BAD_REQUEST, f"cell {key}: {text!r} is not a whole "
                                                   f"number") from None
