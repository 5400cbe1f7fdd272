"""Typed errors of the scan pipeline: each names the file and page, says what to do next, and
carries its :class:`scoring.exitcode.ExitCode`; :class:`ScanFailure` is one such error as a
value a batch reports and goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scoring.exitcode import ExitCode, PulkaError


@dataclass(frozen=True)
class ScanFailure:
    """A file (or page) that could not be read: the one-line reason and its exit code."""

    source: str
    message: str
    exit_code: ExitCode = ExitCode.BAD_INPUT

    @classmethod
    def of(cls, error: PulkaError, source: str | Path) -> ScanFailure:
        """The failure an error makes of a file."""
        return cls(str(source), str(error), error.exit_code)


class ScanError(PulkaError):
    """Base of every scan error: ``str(error)`` is one plain sentence with the advice."""

    default_advice = "check the file and scan it again"

    def __init__(self, problem: str, source: str | Path | None = None, page: int | None = None,
                 advice: str | None = None) -> None:
        self.problem = problem
        self.source = None if source is None else Path(source)
        self.page = page
        self.advice = self.default_advice if advice is None else advice
        super().__init__(self._message())

    def where(self) -> str:
        """Return ``file`` or ``file, page N`` (pages counted from 1 as people do)."""
        if self.source is None:
            return ""
        return f"{self.source}" + (f", page {self.page + 1}" if self.page is not None else "")

    def _message(self) -> str:
        where = self.where()
        text = f"{where}: {self.problem}" if where else self.problem
        return f"{text}; {self.advice}" if self.advice else text


class NotAnImage(ScanError):
    """The file is neither JPEG, PNG, TIFF nor PDF."""

    default_advice = "give a JPEG, PNG, TIFF or PDF file"


class UnreadableImage(ScanError):
    """The file claims to be an image but cannot be decoded (truncated, corrupt)."""

    default_advice = "the file is damaged or incomplete: copy it again or retake the photo"


class NoSheetFound(ScanError):
    """No pulka markers on the image: a photo of something else, a blank page."""

    default_advice = ("photograph the whole sheet with its four corner squares visible, "
                      "or leave this file out")


class UnknownLayout(ScanError):
    """The sheet's identity names a layout this version of pulka does not print."""

    default_advice = "scan it with the pulka version that printed the sheet, or print it again"


class PoorQuality(ScanError):
    """Blurred, glared or too-low-resolution image: reading it would guess."""

    default_advice = "retake the photo"


class TesseractMissing(ScanError):
    """The tesseract binary is not installed (or too old)."""

    exit_code = ExitCode.MISSING_DEPENDENCY
    default_advice = ("install it (Debian/Ubuntu: apt-get install tesseract-ocr; macOS: brew "
                      "install tesseract) or scan sheets whose QR codes are readable")
