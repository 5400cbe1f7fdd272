"""Keep the memory a scan frees for the next page, instead of handing it back to the system.

A sheet's pages are decoded, warped and cut into many large arrays (a 200 dpi colour page is
11 MB, a 300 dpi one 26 MB), freed when the sheet is done and made again for the next one. By
default glibc gives blocks above its mmap threshold back to the system when they are freed,
and trims the top of its heap, so the next sheet's arrays are fresh memory whose pages the
kernel must fault in and zero again. On the virtual machines this project runs on that cost is
high: loading a sheet's three 200 dpi JPEG pages took 223 ms against 197 ms to decode them
one at a time (the bare decode reuses the block it just freed), and 175 ms with freed memory
kept (``python -m bench.scan_bench`` on the 12 sample sheets, glibc 2.36).

:func:`reuse_freed_memory` raises both thresholds so freed blocks stay in the heap. A
scanning process then holds on to the most memory one sheet needed (a few hundred MB at
most) until it exits. It does nothing where the C library is not glibc.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""``mallopt`` parameters (glibc ``malloc.h``)."""

KEPT_BLOCK_BYTES = 128 * 1024 * 1024
"""Blocks up to this size come from the heap and are kept when freed (a 12 megapixel colour
photo is 36 MB)."""
KEPT_FREE_BYTES = 1024 * 1024 * 1024
"""Free memory at the top of the heap up to this size is not handed back."""

_done = False


def reuse_freed_memory() -> bool:
    """Tell glibc's ``malloc`` to keep freed memory for reuse (once a process); return
    whether it took the settings (False on another C library)."""
    global _done
    if _done:
        return True
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        log.debug("no mallopt in this C library: freed memory goes back to the system")
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _done = bool(mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK_BYTES)
                 and mallopt(M_TRIM_THRESHOLD, KEPT_FREE_BYTES))
    return _done
