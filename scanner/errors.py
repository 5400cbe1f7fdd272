"""Typed errors of the scan pipeline: each names the file and page, says what to do next, and
carries its :class:`scoring.exitcode.ExitCode`; :class:`ScanFailure` is one such error as a
value a batch reports and goes on. Its sentence is a :class:`scoring.said.Said` (the problem
and the advice by code, :mod:`scanner.words`), so it is said in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scanner.words import said
from scoring.exitcode import ExitCode, PulkaError
from scoring.said import Said


@dataclass(frozen=True)
class ScanFailure:
    """A file (or page) that could not be read: the one-line reason (a
    :class:`~scoring.said.Said`, English as it stands) and its exit code."""

    source: str
    message: str
    exit_code: ExitCode = ExitCode.BAD_INPUT

    @classmethod
    def of(cls, error: PulkaError, source: str | Path) -> ScanFailure:
        """The failure an error makes of a file."""
        message = error.said() if isinstance(error, ScanError) else str(error)
        return cls(source if isinstance(source, str) else str(source), message, error.exit_code)


class ScanError(PulkaError):
    """Base of every scan error: ``str(error)`` is one plain sentence with the advice."""

    default_advice = said("check_file")

    def __init__(self, problem: str, source: str | Path | None = None, page: int | None = None,
                 advice: str | None = None) -> None:
        self.problem = problem
        self.source = None if source is None else Path(source)
        self._shown = source if isinstance(source, Said) else None
        self.page = page
        self.advice = self.default_advice if advice is None else advice
        super().__init__(self._message())

    def where(self) -> str:
        """Return ``file`` or ``file, page N`` (pages counted from 1 as people do)."""
        if self.source is None:
            return ""
        if self.page is None:
            return self._shown or str(self.source)
        return said("file_page", file=str(self.source), page=self.page + 1)

    def said(self) -> Said:
        """The whole sentence: where, the problem, the advice."""
        where = self.where()
        text = said("at", where=where, text=self.problem) if where else self.problem
        text = said("advice", text=text, advice=self.advice) if self.advice else text
        return text if isinstance(text, Said) else Said("text", text)

    def _message(self) -> str:
        return str(self.said())


class NotAnImage(ScanError):
    """The file is neither JPEG, PNG, TIFF nor PDF."""

    default_advice = said("give_image")


class UnreadableImage(ScanError):
    """The file claims to be an image but cannot be decoded (truncated, corrupt)."""

    default_advice = said("copy_again")


class NoSheetFound(ScanError):
    """No pulka markers on the image: a photo of something else, a blank page."""

    default_advice = said("whole_sheet")


class UnknownLayout(ScanError):
    """The sheet's identity names a layout this version of pulka does not print."""

    default_advice = said("same_version")


class PoorQuality(ScanError):
    """Blurred, glared or too-low-resolution image: reading it would guess."""

    default_advice = said("retake")


class InternalError(ScanError):
    """A bug in pulka met while reading one sheet: that sheet is reported (the traceback
    logged) and the batch goes on with the others."""

    exit_code = ExitCode.INTERNAL
    default_advice = said("report_bug")


class TesseractMissing(ScanError):
    """The tesseract binary is not installed (or too old)."""

    exit_code = ExitCode.MISSING_DEPENDENCY
    default_advice = said("install_tesseract")
