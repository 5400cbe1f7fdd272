"""Names for the numpy arrays the scanner passes between its stages, so that a signature says
what an array holds: 8-bit pixels, a mask, the network's float32 tensors, geometry in float64.

OpenCV's stubs type every result as ``cv2.typing.MatLike`` (an array of any integer or
floating dtype), whatever the input; numpy's stubs type many reductions (``argmax`` along an
axis, ``percentile``) as ``Any``, and promote ``float32`` times or over a Python number to
``float64``, which numpy (NEP 50) keeps ``float32``. Where the dtype is known from the input,
the caller says so with :func:`typing.cast` (no conversion, nothing changes at run time) or a
typed local name.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

Image: TypeAlias = npt.NDArray[np.uint8]
"""8-bit pixels, grey ``(H, W)`` or colour ``(H, W, 3)`` (BGR as OpenCV reads it; RGB for
the sample pages made here): a page, a warped region, a cell crop."""

GreyImage: TypeAlias = npt.NDArray[np.uint8]
"""8-bit grey levels ``(H, W)`` (or a stack ``(N, H, W)``): 0 is black ink, 255 white paper."""

Mask: TypeAlias = npt.NDArray[np.bool_]
"""True where a condition holds: inked pixels, live cells, rows that pass a test."""

Floats: TypeAlias = npt.NDArray[np.float32]
"""float32 values: the network's inputs, probabilities and embeddings, contrast maps."""

Doubles: TypeAlias = npt.NDArray[np.float64]
"""float64 values: geometry (homographies, affine matrices, points in mm or pixels) and
measurements derived from pixels."""

Ints: TypeAlias = npt.NDArray[np.intp]
"""Integers (numpy's ``intp``, or ``int64``, the same on a 64-bit machine): indices, ranks,
labels, positions and sizes in pixels."""
