"""Shared fixtures of the forms tests: identities and rendered sheets (cached per session)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from forms.identity import SheetIdentity
from forms.layout import build_layout
from forms.render.raster import render_pages
from forms.render.sheet import SheetRequest, render_pdf_bytes
from scoring.rules import RuleSet

NAMES = ("Иванова", "Петренко", "Sidorov", "Ковальчук")


def identity_for(players: int, paper: str = "A4", talon: bool | None = None,
                 variant: str = "sochi") -> SheetIdentity:
    layout = build_layout(players, paper, talon)
    rules = RuleSet.preset(variant, players, 20)
    return SheetIdentity(
        sheet_id=f"R2-T07-ABC{players}EF", tournament="Kyiv Open", round=2, table=7, page=0,
        continuation=0, layout_id=layout.id, rules_id=rules.id, rules=rules.settings(),
        seats=layout.seats, names=NAMES[:players], date="2026-11-29")


@lru_cache(maxsize=16)
def rendered(players: int, lang: str, paper: str = "A4", dpi: int = 300,
             pages: tuple[int, ...] = (0, 1)) -> tuple[bytes, tuple[np.ndarray, ...]]:
    layout = build_layout(players, paper)
    pdf = render_pdf_bytes([SheetRequest(layout, identity_for(players, paper), lang)])
    return pdf, tuple(render_pages(pdf, dpi, pages=list(pages)))


def dropout_mask(rgb: np.ndarray) -> np.ndarray:
    """Pixels of the drop-out colour (light red): red high, green and blue clearly lower."""
    r, gr, b = (rgb[:, :, i].astype(np.int16) for i in range(3))
    return (r > 200) & (r - gr > 45) & (r - b > 45)


def aruco_ids(gray: np.ndarray) -> dict[int, np.ndarray]:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def gray_of(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
