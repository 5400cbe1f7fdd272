"""The standings as a printable PDF for the wall (ReportLab, A4, DejaVu for Cyrillic names).

One table: rank, player, each round's and the total Codex 4.2.12 integer whists, the exact sum
beside it, the sheets counted and whether the result is final; players with no sheet yet are
listed under the ranked ones, without a rank. A note says why an integer total differs from
the exact sum (RULES.md §8, 4.2.12).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from forms.render.sheet import register_fonts
from pulka.i18n import N_, _
from pulka.report.player_card import mixed
from pulka.report.standings import NO_SHEET, Standing, Standings
from pulka.report.text import states_text

FONT, BOLD = "DejaVuSans", "DejaVuSans-Bold"
MARGIN_MM = 14
GREY = colors.Color(0.36, 0.39, 0.44)
LINE = colors.Color(0.84, 0.85, 0.87)
PROVISIONAL = N_("provisional")
ROUNDING_NOTE = N_(
    "Whists are each sheet's Codex 4.2.12 integer result, summed: a mountain that does not "
    "divide by the number of players gets a point added or written off, and the others "
    "compensate in whole whists (3 each with 3 players, 2 with 4). A total may therefore "
    "differ from the exact sum of fractions, shown beside it. Ties stay ties unless a "
    "tie-break is named. Provisional: a sheet of the player is not final yet.")


def status_text(row: Standing) -> str:
    """``final``, ``provisional`` or ``no sheet yet``, in the language pulka speaks."""
    if row.rank is None:
        return _(NO_SHEET)
    return _("final") if row.final else _(PROVISIONAL)


def _cells(result: Standings, row: Standing, rounds: tuple[int, ...]) -> list[str]:
    if row.rank is None:
        return ["–", row.player, *("" for _ in rounds), "", "",
                *("" for _t in result.tiebreaks), "0", _(NO_SHEET)]
    exact = "" if row.total == row.integer else mixed(row.total)
    breaks = [str(row.remises) if t == "remises" else mixed(row.allpass)
              for t in result.tiebreaks]
    return [str(row.rank), row.player,
            *(f"{row.by_round_integer[r]:+d}" if r in row.by_round_integer else "–"
              for r in rounds),
            f"{row.integer:+d}", exact, *breaks, str(row.sheets), status_text(row)]


def write_pdf(result: Standings, path: Path) -> None:
    """Write the standings to ``path``."""
    register_fonts()
    base = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12)
    title = ParagraphStyle("h1", parent=base, fontName=BOLD, fontSize=18, leading=22)
    small = ParagraphStyle("small", parent=base, fontSize=8, leading=10, textColor=GREY)
    rounds = result.rounds if result.round is None and len(result.rounds) > 1 else ()
    breaks = [_("remises") if t == "remises" else _("all-pass") for t in result.tiebreaks]
    head = ["#", _("player"), *(_("R{n}").format(n=r) for r in rounds), _("whists"), _("exact"),
            *breaks, _("sheets"), _("result")]
    data = [head, *(_cells(result, row, rounds) for row in result.rows)]
    widths = [10 * mm, 44 * mm, *(15 * mm for _ in rounds), 18 * mm, 20 * mm,
              *(17 * mm for _b in breaks), 14 * mm, 24 * mm]
    whists = 2 + len(rounds)
    table = Table(data, colWidths=widths, repeatRows=1)
    style = [("FONT", (0, 0), (-1, -1), FONT, 10), ("FONT", (0, 0), (-1, 0), BOLD, 9),
             ("FONT", (whists, 1), (whists, -1), BOLD, 11),
             ("TEXTCOLOR", (whists + 1, 1), (whists + 1, -1), GREY),
             ("ALIGN", (2, 0), (-2, -1), "RIGHT"), ("ALIGN", (0, 0), (0, -1), "RIGHT"),
             ("LINEBELOW", (0, 0), (-1, -1), 0.4, LINE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    for i, row in enumerate(result.rows, start=1):
        if not row.final:
            style.append(("TEXTCOLOR", (-1, i), (-1, i), colors.Color(0.6, 0.35, 0)))
    table.setStyle(TableStyle(style))
    where = _("round {n}").format(n=result.round) if result.round is not None else _("overall")
    order = ", ".join(breaks) or _("none")
    heading = _("{tournament} · {where}").format(
        tournament=result.tournament or _("Standings"), where=where)
    story = [Paragraph(escape(heading), title),
             Paragraph(escape(_("Standings by total whists (Codex 4.1.3) · tie-breaks: {order} · "
                                "sheets: {states}").format(
                 order=order, states=states_text(result.states) or _("none"))), small),
             Spacer(1, 5 * mm), table, Spacer(1, 5 * mm), Paragraph(_(ROUNDING_NOTE), small)]
    document = _("{tournament} standings").format(tournament=result.tournament)
    SimpleDocTemplate(str(path), pagesize=A4, leftMargin=MARGIN_MM * mm,
                      rightMargin=MARGIN_MM * mm, topMargin=MARGIN_MM * mm,
                      bottomMargin=MARGIN_MM * mm, title=document).build(story)
