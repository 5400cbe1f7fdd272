"""Small helpers of the scanner tests: render sheets, write into boxes, take 'photos'."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from forms.identity import SheetIdentity
from forms.layout import build_layout
from forms.model import Box
from forms.render.raster import render_pages
from forms.render.sheet import SheetRequest, render_pdf_bytes
from samplegen import degrade
from samplegen.glyphs import default_glyphs, glyph_to_cell
from scoring.rules import RuleSet

DPI = 300
PX_PER_MM = DPI / 25.4
INK_BGR = (140, 25, 13)


def identity_for(players: int = 3, layout_id: str | None = None) -> SheetIdentity:
    layout = build_layout(players)
    rules = RuleSet.preset("sochi", players, 20)
    return SheetIdentity(
        sheet_id=f"R2-T07-ABC{players}EF", tournament="Kyiv Open", round=2, table=7, page=0,
        continuation=0, layout_id=layout_id or layout.id, rules_id=rules.id,
        rules=rules.settings(), seats=layout.seats,
        names=("Иванова", "Петренко", "Sidorov", "Ковальчук")[:players], date="2026-11-29")


@lru_cache(maxsize=8)
def sheet_pdf(players: int = 3, layout_id: str | None = None) -> bytes:
    identity = identity_for(players, layout_id)
    return render_pdf_bytes([SheetRequest(build_layout(players), identity, "ru")])


@lru_cache(maxsize=8)
def _page(players: int, page: int) -> np.ndarray:
    rgb = next(render_pages(sheet_pdf(players), DPI, pages=[page]))
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def page_bgr(players: int = 3, page: int = 0) -> np.ndarray:
    return _page(players, page).copy()


def _rect(box: Box) -> tuple[int, int, int, int]:
    x0, y0 = round(box.x_mm * PX_PER_MM), round(box.y_mm * PX_PER_MM)
    return x0, y0, round(box.w_mm * PX_PER_MM), round(box.h_mm * PX_PER_MM)


def write_digit(image: np.ndarray, box: Box, glyph: np.ndarray) -> None:
    """Write a glyph into a box, upright for the box's writer."""
    x0, y0, w, h = _rect(box)
    turns = (box.rotation_deg // 90) % 4
    uw, uh = (h, w) if turns % 2 else (w, h)
    cell = glyph_to_cell(glyph, uw, uh, height_fraction=0.7, paper=255, ink=0)
    cell = np.rot90(cell, -turns)
    dark = (255 - cell.astype(np.float32)) / 255.0
    region = image[y0:y0 + h, x0:x0 + w].astype(np.float32)
    ink = np.array(INK_BGR, np.float32)
    image[y0:y0 + h, x0:x0 + w] = (region * (1 - dark[..., None]) + ink * dark[..., None]
                                   ).astype(np.uint8)


def write_mark(image: np.ndarray, box: Box, state: str) -> None:
    """Cross a mark box, or cross it and fill it solid (cancelled)."""
    x0, y0, w, h = _rect(box)
    m, t = round(0.7 * PX_PER_MM), max(2, round(0.35 * PX_PER_MM))
    cv2.line(image, (x0 + m, y0 + m), (x0 + w - m, y0 + h - m), INK_BGR, t)
    cv2.line(image, (x0 + m, y0 + h - m), (x0 + w - m, y0 + m), INK_BGR, t)
    if state == "cancelled":
        q = round(0.3 * PX_PER_MM)
        cv2.rectangle(image, (x0 + q, y0 + q), (x0 + w - q, y0 + h - q), INK_BGR, -1)


def glyphs(seed: int = 0) -> dict[int, list[np.ndarray]]:
    g = default_glyphs()
    rng = np.random.default_rng(seed)
    return {d: [g[d][i] for i in rng.permutation(len(g[d]))] for d in g}


def photo(image: np.ndarray, turns: int = 0, tilt: float = 0.05, seed: int = 0,
          background: int = 70, noise: float = 3.0) -> np.ndarray:
    """Turn the page by ``turns`` quarter turns and view it in perspective on a dark table."""
    rng = np.random.default_rng(seed)
    im = np.rot90(image, turns).copy()
    h, w = im.shape[:2]
    pad = round(0.06 * max(h, w))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.uniform(0, tilt * min(w, h), (4, 2)).astype(np.float32)
    dst = src + pad + np.float32([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * jitter
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(im, m, (w + 2 * pad, h + 2 * pad),
                              borderValue=(background,) * 3)
    if noise:
        out = np.clip(out + rng.normal(0, noise, out.shape), 0, 255).astype(np.uint8)
    return out


def layout_with(players: int = 3):  # type: ignore[no-untyped-def]
    return replace(build_layout(players))


def coarse_photo(players: int, page: int, seed: int, dpi: int = 120) -> np.ndarray:
    """A phone photo (``samplegen.degrade``, BGR) of a page printed and captured at ``dpi``."""
    rgb = next(render_pages(sheet_pdf(players), dpi, pages=[page]))
    shot = degrade.photo(rgb, dpi, random.Random(seed))
    _, jpeg = cv2.imencode(".jpg", cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality or 90])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
