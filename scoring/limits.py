"""Every limit on what pulka accepts as input, in one place, with its unit in the name.

Each boundary (image and PDF files, records, draws, rules, names) checks against these and
refuses what exceeds them with one sentence naming the file, page or field. The values are
far above any real game or scan, and far below what would exhaust memory or time.

``scoring`` holds them because every package may import it (``scoring`` <- ``forms`` <-
``scanner`` <- ``pulka``); this module imports nothing.
"""

from __future__ import annotations

# --- image and PDF files --------------------------------------------------------------------
MAX_FILE_BYTES = 2 * 1024**3
"""A scanned file larger than this (2 GiB) is refused before it is opened."""
MAX_PAGE_PIXELS = 120_000_000
"""A page of more pixels is refused from its header, before decoding (a 600-dpi A3 scan is
70 Mpx)."""
MIN_PAGE_SIDE_PX = 64
"""A page whose shorter side has fewer pixels cannot hold a sheet's corner markers."""
MAX_PAGES_PER_FILE = 2000
"""A PDF or TIFF with more pages is refused (a feeder's round of 150 sheets is 450 pages)."""

# --- text files: records and draws -----------------------------------------------------------
MAX_TEXT_FILE_BYTES = 16 * 1024**2
"""A record or draw file larger than this (16 MiB) is refused before it is read."""
MAX_JSON_DEPTH = 32
"""Nesting of JSON arrays and objects (a record needs 5)."""
MAX_NUMBER_DIGITS = 24
"""Digits of one JSON number (a total or stake of a real game has at most 7)."""

# --- record fields -------------------------------------------------------------------------
MAX_NAME_CHARS = 60
"""A player's or tournament's name, in characters (it is printed and goes into the QR)."""
MAX_SEAT_CHARS = 3
"""A seat letter, in characters (``A``, ``N``, ``Ю``)."""
MAX_DEALS_PER_GAME = 1000
"""Deals in one game record (a pool of 100 is some 300 deals)."""
MAX_POOL = 10_000
"""The largest agreed pool size, in points."""
MAX_STAKE = 1_000_000
"""The largest stake, money per whist."""
MAX_TOTAL = 10**9
"""The largest running total (absolute value) in a record's ``written`` part."""

# --- draws ---------------------------------------------------------------------------------
MAX_DRAW_LINES = 20_000
"""Lines of a draw CSV."""
MAX_ROUND = 1000
"""The largest round number of a draw."""
MAX_TABLE = 10_000
"""The largest table number of a draw."""
