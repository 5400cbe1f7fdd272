"""The sheet identity's QR code as a module matrix, encoded by segno.

Error correction M (ISO/IEC 18004: about 15 % of the codewords may be lost), the smallest
version that holds the payload, the payload's UTF-8 bytes in byte mode (Cyrillic names) and no
ECI header; the mask is segno's standard choice. :mod:`forms.render.sheet` draws the modules
with their quiet zone into the layout's QR region.

>>> modules = qr_modules("pulka")
>>> len(modules), len(modules[0])
(21, 21)
"""

from __future__ import annotations

import segno

ERROR_LEVEL = "m"
"""The error-correction level every sheet's code is printed with."""


def qr_modules(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules, row by row (True = dark), without a quiet zone."""
    code = segno.make_qr(payload, error=ERROR_LEVEL, boost_error=False, encoding="utf-8")
    return tuple(tuple(bool(module) for module in row) for row in code.matrix_iter(border=0))
