"""Drawing a layout's labels: titles, names, the header, the terms and the marks legend."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from forms.geometry import constants as g
from forms.identity import SheetIdentity
from forms.labels import text
from forms.model import Label
from forms.render.canvas import PageCanvas, cross


def label_lines(label: Label, lang: str, identity: SheetIdentity) -> list[str]:
    """The lines a label prints in ``lang`` on the sheet ``identity`` names."""
    if label.literal:
        return [label.key]
    key, _, arg = label.key.partition(":")
    names = dict(zip(identity.seats, identity.names, strict=False))
    blank = "_" * 12
    if key == "seat_name":
        return [text(lang, "seat_name", seat=arg, name=names.get(arg) or "_" * 18)]
    if key == "seat_names":
        return ["   ".join(text(lang, "seat_name", seat=s, name=names.get(s) or "_" * 12)
                          for s in identity.seats)]
    if key == "header_fields":
        page = str(identity.page + 1)
        if identity.continuation:
            page += " · " + text(lang, "continuation", n=identity.continuation)
        return [text(lang, "header_fields", tournament=identity.tournament or blank * 2,
                     round=identity.round if identity.round is not None else "____",
                     table=identity.table if identity.table is not None else "____",
                     date=identity.date or blank, page=page)]
    if key == "terms":
        return _terms(lang, identity)
    if key == "signatures":
        seats = "   ".join(f"{s} {'_' * 22}" for s in identity.seats)
        return [f"{text(lang, 'signatures')}   {seats}"]
    if key == "legend":
        return []
    return [text(lang, label.key)]


def wrap(line: str, font: str, size_pt: float, width_mm: float) -> list[str]:
    """Split ``line`` at its newlines, then at spaces, into lines no wider than ``width_mm``
    (a word longer than the width stands alone)."""
    out: list[str] = []
    for paragraph in line.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if current and stringWidth(candidate, font, size_pt) > width_mm * mm:
                out.append(current)
                current = word
            else:
                current = candidate
        out.append(current)
    return out


def _terms(lang: str, identity: SheetIdentity) -> list[str]:
    """The agreed terms: variant, pool and stake, then the settings changed from the preset."""
    rules = identity.rule_set()
    pool = (text(lang, "by_time") if rules.pool is None
            else text(lang, "pool_size", n=rules.pool))
    stake = rules.settings()["stake"]
    stake_text = text(lang, "no_stake") if stake is None else text(lang, "stake", stake=stake)
    lines = [text(lang, "terms", variant=text(lang, f"variant:{rules.variant}"), pool=pool,
                  stake=stake_text)]
    changed = {k: v for k, v in rules.changed_settings().items() if k != "stake"}
    items = [f"{k}={_short(v)}" for k, v in sorted(changed.items())]
    while items:
        line = items.pop(0)
        while items and len(line) + len(items[0]) < 34:
            line += ", " + items.pop(0)
        lines.append(line)
    return lines[:5]


def _short(value: object) -> str:
    """A setting's value in a few characters."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) + "…"
    return str(value)


def draw_label(p: PageCanvas, label: Label, lang: str, identity: SheetIdentity) -> None:
    """Draw one label: its lines in its size, turned and anchored as the layout says."""
    c = p.c
    if label.key == "legend":
        _draw_legend(p, label, lang)
        return
    bold = label.key.startswith(("seat_name", "title_"))
    font = "DejaVuSans-Bold" if bold else "DejaVuSans"
    lines = label_lines(label, lang, identity)
    if label.width_mm:
        lines = [part for line in lines for part in wrap(line, font, label.size_pt,
                                                          label.width_mm)]
    c.setFont(font, label.size_pt)
    c.setFillColorRGB(*(g.INK_RGB if bold else g.LABEL_RGB))
    c.saveState()
    c.translate(*p.pt(label.x_mm, label.y_mm))
    c.rotate(-label.rotation_deg)
    step = label.size_pt * 1.15
    offset = step * (len(lines) - 1) if label.key == "terms" else 0.0
    for i, line in enumerate(lines):
        y = offset - i * step
        if label.anchor == "middle":
            c.drawCentredString(0, y, line)
        elif label.anchor == "end":
            c.drawRightString(0, y, line)
        else:
            c.drawString(0, y, line)
    c.restoreState()


def _draw_legend(p: PageCanvas, label: Label, lang: str) -> None:
    """Draw a valid mark (a cross) and a cancelled one (a filled box), each with its words."""
    c = p.c
    words = text(lang, "legend").replace("☒", "").split("■")
    s = g.MARK_MM
    for i, word in enumerate(words):
        x, y = label.x_mm, label.y_mm + i * (s + 1.5)
        c.setStrokeColorRGB(*g.DROPOUT_RGB)
        c.setLineWidth(g.CELL_BORDER_MM * mm)
        c.rect(*p.rect(x, y, s, s), stroke=1, fill=0)
        c.setStrokeColorRGB(*g.FILL_INK_RGB)
        c.setFillColorRGB(*g.FILL_INK_RGB)
        c.setLineWidth(0.45 * mm)
        cross(c, *p.rect(x, y, s, s), 0.6 * mm)
        if i:  # the cancelled mark: a cross filled in
            c.rect(*p.rect(x + 0.4, y + 0.4, s - 0.8, s - 0.8), stroke=0, fill=1)
        c.setFillColorRGB(*g.LABEL_RGB)
        c.setFont("DejaVuSans", label.size_pt)
        c.drawString(*p.pt(x + s + 1.2, y + s - 1.0), word.strip())
