"""Handwriting fonts as glyph sources: fetching them into a cache and drawing their digits.

Two kinds: Debian packages (files under ``/usr/share/fonts``, installed by scripts/setup.sh)
and the npm registry's ``@fontsource/<name>`` families, whose ``latin-400-normal.woff``
:func:`fetch_fonts` takes out of ``npm pack`` into :func:`cache_dir` (outside git). Which
part of the split each belongs to is :mod:`samplegen.split`'s; a reserved font
(:func:`samplegen.split.is_forbidden`) is refused before anything is fetched or drawn.

Run ``python -m samplegen.fonts`` to fetch the missing npm fonts (scripts/setup.sh does).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import cast

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from samplegen.split import DIGIT_SETS, GLYPH_SOURCES, Part, is_forbidden, names
from scanner.arrays import Floats, GreyImage

SYSTEM_FONTS = Path("/usr/share/fonts")
DEBIAN_FONTS = {
    "humor-sans": "truetype/humor-sans/*.ttf",
    "dkg-handwriting": "truetype/fifthhorseman/*.ttf",
    "comic-neue": "opentype/comic-neue/*.otf",
    "breip": "truetype/breip/*.ttf",
    "femkeklaver": "truetype/femkeklaver/*.ttf",
    "klee": "truetype/klee/*.ttf",
    "kristi": "truetype/kristi/*.ttf",
}
"""Debian handwriting fonts by source name: their files under :data:`SYSTEM_FONTS` (packages
fonts-humor-sans, fonts-dkg-handwriting, fonts-comic-neue, fonts-breip, fonts-femkeklaver,
fonts-klee, fonts-kristi)."""
NPM_FONTS = tuple(n for n in GLYPH_SOURCES if n not in DEBIAN_FONTS
                  and n not in DIGIT_SETS and not n.startswith("strokes-"))
"""The ``@fontsource`` families the split names."""
RENDER_PX = 96
"""Font size digits are drawn at, pixels."""
JITTER_SHEAR = 0.12
"""Largest shear of one specimen (a font writes every digit alike; a hand does not)."""
JITTER_SCALE = 0.08
"""Largest change of one specimen's width and height."""


class FontError(RuntimeError):
    """A font that is reserved, unknown, or not fetched."""


def cache_dir() -> Path:
    """Where fetched fonts live: ``$PULKA_FONT_CACHE`` or ``~/.cache/pulka/fonts``."""
    env = os.environ.get("PULKA_FONT_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "pulka" / "fonts"


def _check(name: str) -> None:
    if is_forbidden(name):
        raise FontError(f"font {name} is reserved for an independent evaluation; never use it")
    if name not in DEBIAN_FONTS and name not in NPM_FONTS:
        raise FontError(f"unknown font source {name}; name one in samplegen.split")


def font_files(name: str) -> list[Path]:
    """Every file of font source ``name`` here (a Debian family may have several styles)."""
    _check(name)
    if name in DEBIAN_FONTS:
        return sorted(SYSTEM_FONTS.glob(DEBIAN_FONTS[name]))
    path = cache_dir() / f"{name}.woff"
    return [path] if path.is_file() else []


def font_path(name: str) -> Path:
    """The (first) font file of source ``name``; :class:`FontError` says what to do when it is
    absent."""
    files = font_files(name)
    if not files:
        hint = "run scripts/setup.sh (it installs the Debian font packages)" \
            if name in DEBIAN_FONTS else "run python -m samplegen.fonts to fetch it"
        raise FontError(f"font {name} is missing; {hint}")
    return files[0]


def part_files(part: Part) -> list[Path]:
    """The files of every font of ``part`` that is here (what training may draw from)."""
    return [f for n in names("glyphs", part) if n in DEBIAN_FONTS or n in NPM_FONTS
            for f in font_files(n)]


def available(names: tuple[str, ...]) -> tuple[str, ...]:
    """The fonts of ``names`` whose file is here."""
    found = []
    for name in names:
        try:
            font_path(name)
        except FontError:
            continue
        found.append(name)
    return tuple(found)


def fetch_fonts(names: tuple[str, ...] = NPM_FONTS, folder: Path | None = None) -> list[Path]:
    """``npm pack @fontsource/<name>`` for each missing font; keep its latin 400 woff."""
    folder = folder or cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    fetched = []
    for name in names:
        _check(name)
        target = folder / f"{name}.woff"
        if target.is_file():
            continue
        with tempfile.TemporaryDirectory() as temp:
            subprocess.run(["npm", "pack", f"@fontsource/{name}", "--silent"], cwd=temp,
                           check=True, capture_output=True)
            (tgz,) = Path(temp).glob("*.tgz")
            member = f"package/files/{name}-latin-400-normal.woff"
            with tarfile.open(tgz) as archive:
                data = archive.extractfile(member)
                if data is None:
                    raise FontError(f"@fontsource/{name} has no {member}")
                target.write_bytes(data.read())
        fetched.append(target)
    return fetched


def _render(font: ImageFont.FreeTypeFont, digit: int) -> Floats:
    """The digit's darkness (0..1), cropped to its ink."""
    image = Image.new("L", (RENDER_PX * 3, RENDER_PX * 3), 0)
    ImageDraw.Draw(image).text((RENDER_PX, RENDER_PX // 2), str(digit), font=font, fill=255)
    dark = np.asarray(image, np.float32) / 255.0
    ys, xs = np.nonzero(dark > 0.1)
    return dark[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def _jitter(dark: Floats, rng: random.Random) -> Floats:
    """One specimen: the font's digit sheared and stretched a little."""
    h, w = dark.shape
    sx, sy = (1 + rng.uniform(-JITTER_SCALE, JITTER_SCALE) for _ in range(2))
    shear = rng.uniform(-JITTER_SHEAR, JITTER_SHEAR)
    pad = h // 3
    out_w, out_h = int(w * sx + 2 * pad + abs(shear) * h), int(h * sy + 2 * pad)
    matrix = np.array([[sx, shear * sy, pad + max(0.0, -shear) * h * sy], [0, sy, pad]])
    return cast(Floats, cv2.warpAffine(dark, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR))


def font_glyphs(name: str, rng: random.Random, specimens: int = 4) -> dict[int, list[GreyImage]]:
    """``specimens`` images of each digit in font ``name``, dark ink on light paper."""
    font = ImageFont.truetype(str(font_path(name)), RENDER_PX)
    glyphs: dict[int, list[GreyImage]] = {}
    for digit in range(10):
        dark = _render(font, digit)
        glyphs[digit] = [np.clip(255 - 255 * _jitter(dark, rng), 0, 255).astype(np.uint8)
                         for _ in range(specimens)]
    return glyphs


def main() -> int:
    """Fetch the missing npm fonts; print where they are."""
    try:
        for path in fetch_fonts():
            print(f"fetched {path}")
    except (OSError, subprocess.CalledProcessError, FontError) as error:
        print(f"cannot fetch the handwriting fonts: {error}; is npm installed and the npm "
              "registry reachable?", file=sys.stderr)
        return 1
    print(f"fonts in {cache_dir()}: {len(available(NPM_FONTS))} of {len(NPM_FONTS)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
