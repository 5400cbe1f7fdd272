"""The sheet's QR code read module by module on a far photo (one or two image pixels a module).

The code's version fixes where its finder and alignment patterns lie (ISO/IEC 18004, 6.3):
each is found by template matching near where the page's registration puts it, and a
homography from module to region pixels is fitted through their centres (the registration
alone is off by a module on a far photo through a lens). Every module centre, and a ring of
the quiet zone, is sampled. The code's fixed modules (finders, separators, timing, alignment,
version information: segno's function patterns of that version) and its quiet zone are known;
a linear model of the blur (a module's grey level from its own state, its neighbours' states
and the light across the code), fitted on those, decides each data module from the states of
its neighbours, a few times over (a coarse image blurs each module into the next).
zxing-cpp decodes the modules drawn clean.

:func:`disagreement` compares the sampled modules with the code a known payload prints (a
sibling page's identity): a page whose own code will not decode is still that sheet's page
when its payload-dependent modules agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import cv2
import numpy as np
import segno
import zxingcpp

from forms.model import Region
from forms.qr import ERROR_LEVEL
from forms.render.sheet import QR_QUIET_MODULES
from scanner.arrays import Doubles, Floats, GreyImage, Mask

FIT_PX_PER_MM = 10.0
"""The region (and :data:`FIT_MARGIN_MM` around it) is warped at this resolution."""
FIT_MARGIN_MM = 3.0
"""Page millimetres warped around the region: a pattern found off its expected place by up
to :data:`FINDER_SEARCH_MODULES` still lies inside the crop."""
FINDER_SEARCH_MODULES = 2.5
"""A finder pattern is looked for this many modules either way of where the registration
puts it."""
ALIGNMENT_SEARCH_MODULES = 1.2
"""An alignment pattern is looked for this many modules either way of where the three
finders put it."""
ALIGNMENT_MIN_SCORE = 0.5
"""An alignment pattern whose template match (normalised correlation) is below this is not
used for the fit (covered by a blot, or lost in blur)."""
MIN_HOMOGRAPHY_POINTS = 5
"""Pattern centres a perspective fit needs (one more than its minimum, so that one pattern
found off its place shows); with fewer the three finders fix an affine map."""
FINDER_MIN_SCORE = 0.5
"""A finder pattern matching its template less than this is not there: no code of this
version at this place."""
TEMPLATE_BLUR_MODULES = 0.5
"""The patterns' templates are blurred by a Gaussian of this sigma, in modules (a far photo
spreads each module over its neighbours)."""
RING_MODULES = 3
"""Modules of the quiet zone sampled around the code (known light: they fit the blur model
at the code's edge)."""
EQUALIZE_ROUNDS = 10
"""Times each data module is decided again from its neighbours' latest states."""
EQUALIZE_KNOWN_ROUNDS = 2
"""Rounds in which the blur model is fitted on the known modules only; later rounds fit it on
every module as last decided."""
PERTURB_IDS = 4
"""Payloads made with the sheet id altered, to tell which modules depend on the id."""
HEX = "0123456789ABCDEF"
"""The characters of a sheet id altered (:func:`forms.identity.make_sheet_id`)."""
QR_FORMAT = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
"""zxing-cpp looks for QR codes (model 2) only."""
PURE_MODULE_PX = 4
"""Pixels a module when the decided modules are drawn as a clean code for zxing-cpp."""


@dataclass(frozen=True)
class CodeGrid:
    """The grey level sampled at each module centre of a code of one version, with
    :data:`RING_MODULES` of quiet zone around it."""

    version: int
    values: Doubles
    """``(n + 2 ring, n + 2 ring)``, ``n = 17 + 4 version``."""
    fit_score: float
    """The lowest of the three finders' template matches."""


def version_of(n: int) -> int:
    """The version of a code ``n`` modules a side (ISO/IEC 18004, 5.3.1)."""
    return (n - 17) // 4


@lru_cache(maxsize=64)
def function_modules(version: int) -> tuple[Mask, Mask]:
    """Where a code of ``version`` (error level :data:`forms.qr.ERROR_LEVEL`) has modules
    fixed by the standard (finder, separator, timing, alignment, version information, the
    dark module; not the format information, which depends on the mask), and their states
    (True = dark)."""
    code = segno.make_qr("", version=version, error=ERROR_LEVEL, boost_error=False)
    kinds = np.array([list(row) for row in code.matrix_iter(border=0, verbose=True)])
    data = (kinds == segno.consts.TYPE_DATA_DARK) | (kinds == segno.consts.TYPE_DATA_LIGHT)
    fmt = (kinds == segno.consts.TYPE_FORMAT_DARK) | (kinds == segno.consts.TYPE_FORMAT_LIGHT)
    dark = np.isin(kinds, (segno.consts.TYPE_FINDER_PATTERN_DARK,
                           segno.consts.TYPE_ALIGNMENT_PATTERN_DARK,
                           segno.consts.TYPE_TIMING_DARK, segno.consts.TYPE_DARKMODULE,
                           segno.consts.TYPE_VERSION_DARK))
    return ~(data | fmt), dark


def _alignment_centres(version: int) -> list[tuple[int, int]]:
    """(row, column) of each alignment pattern's centre module."""
    if version < 2:
        return []
    places = segno.consts.ALIGNMENT_POS[version - 2]
    last = 17 + 4 * version - 7
    corners = {(6, 6), (6, last), (last, 6)}
    return [(r, c) for r in places for c in places if (r, c) not in corners]


@lru_cache(maxsize=32)
def _template(finder: bool, px: float) -> Floats:
    """A finder (with its light ring) or alignment pattern drawn at ``px`` a module, blurred
    by :data:`TEMPLATE_BLUR_MODULES`."""
    rings = (1, 0, 1, 0, 0) if finder else (1, 0, 1, 0)  # light ring first, outside in
    side = 2 * len(rings) - 1
    pattern = np.zeros((side, side), np.float32)
    for depth, light in enumerate(rings):
        pattern[depth:side - depth, depth:side - depth] = 255.0 * light
    size = max(3, round(side * px))
    drawn = cv2.resize(pattern, (size, size), interpolation=cv2.INTER_NEAREST)
    return cast(Floats, cv2.GaussianBlur(drawn, (0, 0), TEMPLATE_BLUR_MODULES * px))


def _peak(at: int, scores: Floats) -> float:
    """The sub-pixel place of the maximum ``scores[at]`` from a parabola through it and its
    neighbours."""
    if 0 < at < len(scores) - 1:
        left, mid, right = (float(v) for v in scores[at - 1:at + 2])
        curve = left - 2 * mid + right
        if curve < 0:
            return at + 0.5 * (left - right) / curve
    return float(at)


def _locate(gray: Floats, finder: bool, centre: tuple[float, float], px: float,
            radius_px: float) -> tuple[tuple[float, float], float] | None:
    """The centre of the pattern best matching its template within ``radius_px`` of
    ``centre`` (region pixels) and its match score, or None when the window leaves the
    region."""
    template = _template(finder, px)
    side, reach = template.shape[0], int(np.ceil(radius_px))
    x0 = int(round(centre[0] - (side - 1) / 2)) - reach
    y0 = int(round(centre[1] - (side - 1) / 2)) - reach
    x1, y1 = x0 + side + 2 * reach, y0 + side + 2 * reach
    if x0 < 0 or y0 < 0 or x1 > gray.shape[1] or y1 > gray.shape[0]:
        return None
    match = cast(Floats, cv2.matchTemplate(gray[y0:y1, x0:x1], template,
                                           cv2.TM_CCOEFF_NORMED))
    _, score, _, (mx, my) = cv2.minMaxLoc(match)
    x, y = _peak(mx, match[my, :]), _peak(my, match[:, mx])
    return (x0 + x + (side - 1) / 2, y0 + y + (side - 1) / 2), float(score)


def fit_grid(gray: GreyImage, region: Region, version: int) -> CodeGrid | None:
    """The modules of a code of ``version`` sampled in ``gray`` (``region`` and
    :data:`FIT_MARGIN_MM` around it warped upright at :data:`FIT_PX_PER_MM`), or None when
    its three finder patterns are not there."""
    n = 17 + 4 * version
    px = region.w_mm / (n + 2 * QR_QUIET_MODULES) * FIT_PX_PER_MM
    origin = FIT_MARGIN_MM * FIT_PX_PER_MM + QR_QUIET_MODULES * px
    image = gray.astype(np.float32)
    module_at: list[tuple[float, float]] = []
    pixel_at: list[tuple[float, float]] = []
    scores = []
    for col, row in ((3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)):
        found = _locate(image, True, (origin + col * px - 0.5, origin + row * px - 0.5), px,
                        FINDER_SEARCH_MODULES * px)
        if found is None or found[1] < FINDER_MIN_SCORE:
            return None
        module_at.append((col, row))
        pixel_at.append(found[0])
        scores.append(found[1])
    affine = cv2.getAffineTransform(np.array(module_at, np.float32),
                                    np.array(pixel_at, np.float32))
    for row, col in _alignment_centres(version):
        guess = affine @ np.array([col + 0.5, row + 0.5, 1.0])
        found = _locate(image, False, (float(guess[0]), float(guess[1])), px,
                        ALIGNMENT_SEARCH_MODULES * px)
        if found is not None and found[1] >= ALIGNMENT_MIN_SCORE:
            module_at.append((col + 0.5, row + 0.5))
            pixel_at.append(found[0])
    to_pixels: Doubles = np.vstack([affine, [0.0, 0.0, 1.0]])
    if len(module_at) >= MIN_HOMOGRAPHY_POINTS:
        fitted, _ = cv2.findHomography(np.array(module_at), np.array(pixel_at), 0)
        if fitted is not None:
            to_pixels = cast(Doubles, fitted)
    return CodeGrid(version, _sample(image, to_pixels, n), min(scores))


def _sample(image: Floats, homography: Doubles, n: int) -> Doubles:
    """The image at each module centre, :data:`RING_MODULES` of quiet zone included."""
    centres = np.arange(-RING_MODULES, n + RING_MODULES) + 0.5
    mx, my = np.meshgrid(centres, centres)
    points = homography @ np.stack([mx.ravel(), my.ravel(), np.ones(mx.size)])
    side = n + 2 * RING_MODULES
    xs = (points[0] / points[2]).reshape(side, side).astype(np.float32)
    ys = (points[1] / points[2]).reshape(side, side).astype(np.float32)
    return cv2.remap(image, xs, ys, cv2.INTER_LINEAR).astype(np.float64)


def _features(states: Doubles, own: Doubles) -> Doubles:
    """Per module: a constant, the light's slope across the code, the module's own state
    (also across the code), and its neighbours' states: left and right, up and down,
    diagonal, two away left and right, two away up and down."""
    side = states.shape[0]
    yy, xx = np.mgrid[0:side, 0:side] / (side - 1) - 0.5
    p = np.pad(states, 2)

    def shifted(dy: int, dx: int) -> Doubles:
        return p[2 + dy:side + 2 + dy, 2 + dx:side + 2 + dx]

    return np.stack([np.ones_like(xx), xx, yy, xx * yy, own, own * xx, own * yy,
                     shifted(0, -1) + shifted(0, 1), shifted(-1, 0) + shifted(1, 0),
                     shifted(-1, -1) + shifted(-1, 1) + shifted(1, -1) + shifted(1, 1),
                     shifted(0, -2) + shifted(0, 2), shifted(-2, 0) + shifted(2, 0)], -1)


def _least_squares(features: Doubles, values: Doubles) -> Doubles:
    """The coefficients fitting ``features @ coef`` to ``values``, from the normal equations
    (a dozen unknowns: far cheaper than a factorisation of the thousands of rows)."""
    gram = features.T @ features
    _, coef = cv2.solve(gram, features.T @ values, flags=cv2.DECOMP_SVD)
    return cast(Doubles, coef.ravel())


def decide_modules(grid: CodeGrid) -> Mask:
    """Each module's state (True = dark), the fixed ones as the standard draws them."""
    n = 17 + 4 * grid.version
    ring = RING_MODULES
    fixed, fixed_dark = function_modules(grid.version)
    known = np.ones(grid.values.shape, bool)
    known[ring:ring + n, ring:ring + n] = fixed
    truth = np.zeros(grid.values.shape, np.float64)
    truth[ring:ring + n, ring:ring + n] = fixed_dark
    values = grid.values
    local = cv2.blur(values, (7, 7), borderType=cv2.BORDER_REFLECT)
    states = np.where(known, truth, (values < local).astype(np.float64))
    fit_on = known
    for round_ in range(EQUALIZE_ROUNDS):
        coef = _least_squares(_features(states, states)[fit_on], values[fit_on])
        light = _features(states, np.zeros_like(states)) @ coef
        dark = _features(states, np.ones_like(states)) @ coef
        decided = np.where(known, truth, np.abs(values - dark) < np.abs(values - light))
        if np.array_equal(decided, states) and round_ >= EQUALIZE_KNOWN_ROUNDS:
            break
        states = decided.astype(np.float64)
        if round_ + 1 >= EQUALIZE_KNOWN_ROUNDS:
            fit_on = np.ones_like(known)
    return states[ring:ring + n, ring:ring + n] > 0.5


def text_of_modules(dark: Mask) -> str | None:
    """zxing-cpp's reading of modules drawn as a clean code with its quiet zone (the bytes
    as UTF-8), or None."""
    pure = np.pad(np.where(dark, 0, 255).astype(np.uint8), QR_QUIET_MODULES,
                  constant_values=255)
    pure = np.repeat(np.repeat(pure, PURE_MODULE_PX, axis=0), PURE_MODULE_PX, axis=1)
    return utf8_text(zxingcpp.read_barcodes(pure, formats=QR_FORMAT, is_pure=True,
                                            try_rotate=False, try_invert=False,
                                            try_downscale=False))


def utf8_text(barcodes: list[zxingcpp.Barcode]) -> str | None:
    """The bytes of the first valid code that holds UTF-8 text, decoded; None when none does
    (a pulka payload is UTF-8 with no ECI header, which zxing-cpp's own text would guess at)."""
    for barcode in barcodes:
        if not barcode.valid or not barcode.bytes:
            continue
        try:
            return barcode.bytes.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None


def read_fitted(gray: GreyImage, region: Region, versions: tuple[int, ...]) -> str | None:
    """The QR text read on the fitted grid of the first of ``versions`` whose finders are
    there and whose modules decode, or None."""
    for version in versions:
        grid = fit_grid(gray, region, version)
        if grid is not None:
            text = text_of_modules(decide_modules(grid))
            if text is not None:
                return text
    return None


@lru_cache(maxsize=64)
def payload_code(payload: str, sheet_id: str) -> tuple[int, Mask, Mask]:
    """The version of the code printed for ``payload``, its modules (True = dark), and
    which of them depend on ``sheet_id`` (they differ in codes with the id altered, the
    mask kept)."""
    code = segno.make_qr(payload, error=ERROR_LEVEL, boost_error=False, encoding="utf-8")
    dark = np.array([[bool(v) for v in row] for row in code.matrix_iter(border=0)])
    depends = np.zeros_like(dark)
    for k in range(1, PERTURB_IDS + 1):
        other = "".join(HEX[(HEX.index(c) + k) % len(HEX)] if c in HEX else c
                        for c in sheet_id)
        altered = segno.make_qr(payload.replace(sheet_id, other), version=code.version,
                                mask=code.mask, error=ERROR_LEVEL, boost_error=False,
                                encoding="utf-8")
        depends |= dark != np.array([[bool(v) for v in row]
                                     for row in altered.matrix_iter(border=0)])
    return cast(int, code.version), dark, depends


def disagreement(read: Mask, payload: str, sheet_id: str) -> float:
    """The share of the id-dependent modules of ``payload``'s code (:func:`payload_code`)
    that the modules ``read`` (:func:`decide_modules`) have otherwise; 1.0 when they are a
    code of another version."""
    _, dark, depends = payload_code(payload, sheet_id)
    if read.shape != dark.shape or not depends.any():
        return 1.0
    return float(np.count_nonzero((read != dark) & depends) / np.count_nonzero(depends))
