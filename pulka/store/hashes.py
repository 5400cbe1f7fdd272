"""Content hashes that recognise what was imported: an image file, and a page within it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scanner.results import ScannedPage

READ_BLOCK_BYTES = 1 << 20


@lru_cache(maxsize=4096)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as file:
        for block in iter(lambda: file.read(READ_BLOCK_BYTES), b""):
            digest.update(block)
    return digest.hexdigest()


def file_hash(path: Path) -> str:
    """SHA-256 of a file's content (cached by path, size and modification time)."""
    stat = path.stat()
    return _file_digest(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def file_hash_cache_clear() -> None:
    """Forget the hashes computed so far (a benchmark's re-run hashes as a new process)."""
    _file_digest.cache_clear()


@dataclass(frozen=True)
class PageHash:
    """A page's two hashes: of its place in its file's content, and of the file alone."""

    content: str
    """SHA-256 of the file's hash and the page within it (``#2`` of a PDF); when the file is
    gone, ``name:`` and a hash of the sheet id, page index and source name."""
    file: str | None
    """The file's :func:`file_hash` (what a re-run of an import compares); ``None`` when the
    file is gone."""


def page_hash(page: ScannedPage, sheet_id: str) -> PageHash:
    """The hashes that recognise a scanned page."""
    name, _, fragment = page.source.partition("#")
    path = Path(name)
    if path.is_file():
        whole = file_hash(path)
        return PageHash(hashlib.sha256(f"{whole}#{fragment}".encode()).hexdigest(), whole)
    basis = f"{sheet_id}#{page.index}#{page.source}"
    return PageHash("name:" + hashlib.sha256(basis.encode()).hexdigest(), None)
