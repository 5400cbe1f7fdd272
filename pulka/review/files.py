"""The files the review server sends: the page's own, and scan images confined to the
sheet's scan folder (no ``..``, no absolute path, no symbolic link out of it)."""

from __future__ import annotations

import html
import logging
from importlib import resources
from pathlib import Path, PurePosixPath

log = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 32 * 1024 * 1024
"""Largest image served (a straightened page at 100 dpi is under 2 MiB)."""
STATIC_FILES = {"/": ("index.html", "text/html; charset=utf-8"),
                "/index.html": ("index.html", "text/html; charset=utf-8"),
                "/words.js": ("words.js", "text/javascript; charset=utf-8"),
                "/review.js": ("review.js", "text/javascript; charset=utf-8"),
                "/sheet.js": ("sheet.js", "text/javascript; charset=utf-8"),
                "/decide.js": ("decide.js", "text/javascript; charset=utf-8"),
                "/grid.js": ("grid.js", "text/javascript; charset=utf-8"),
                "/sheets.js": ("sheets.js", "text/javascript; charset=utf-8"),
                "/findings.js": ("findings.js", "text/javascript; charset=utf-8"),
                "/review.css": ("review.css", "text/css; charset=utf-8")}
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
TOKEN_META = "pulka-token"
"""The name of the page's ``<meta>`` that carries the token (review.js sends it back)."""


def static_file(path: str, token: str) -> tuple[bytes, str]:
    """One of the page's files and its content type; the HTML page carries the token."""
    name, content_type = STATIC_FILES[path]
    body = resources.files("pulka.review").joinpath("static", name).read_bytes()
    if name == "index.html":
        meta = f'<meta name="{TOKEN_META}" content="{html.escape(token)}">\n</head>'
        body = body.replace(b"</head>", meta.encode(), 1)
    return body, content_type


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
