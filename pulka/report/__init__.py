"""Audit reports for people: one self-contained HTML file and one PDF per sheet.

Use::

    from pulka.report import write_reports
    html, pdf = write_reports(record_doc, Path("reports"), scan, scan_dir)

The report shows the sheet (scanned, or as written) with every player error and every scan
doubt outlined, the reference copy filled by the computer beside it, each error with its ink,
the deal behind it, the Codex rule and the 4.2.7 penalty it would justify, and the settlement
step by step in both Codex variants (:mod:`pulka.report.model` gathers it all).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pulka.report.html import render_html
from pulka.report.model import SheetReport, build_report
from pulka.report.pdf import render_pdf, write_pdf
from scanner.results import SheetScan

__all__ = ["SheetReport", "build_report", "render_html", "render_pdf", "report_stem",
           "write_html", "write_pdf", "write_reports"]


def write_html(report: SheetReport, path: Path) -> Path:
    """Write the report's HTML (UTF-8); returns the path."""
    path.write_text(render_html(report), encoding="utf-8")
    return path


def report_stem(name: str) -> str:
    """A safe file name stem for a report: ``S-C48E3F``, ``game_7``."""
    return re.sub(r"[^\w.-]+", "_", name).strip("._") or "report"


def write_reports(record_doc: dict[str, Any], out_dir: Path, scan: SheetScan | None = None,
                  scan_dir: Path | None = None, name: str | None = None,
                  source: str = "") -> tuple[Path, Path]:
    """Build one sheet's report and write ``<name>.html`` and ``<name>.pdf`` into ``out_dir``.

    ``scan_dir`` is the folder the scan's image paths are relative to (where its
    ``scan.json`` lies).
    """
    report = build_report(record_doc, scan, scan_dir, name=name, source=source)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = report_stem(report.name)
    return (write_html(report, out_dir / f"{stem}.html"),
            write_pdf(report, out_dir / f"{stem}.pdf"))
