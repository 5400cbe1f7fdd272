"""Constants of the handwritten-digit recognizer, in one place, with units in their names.

Sizes are in pixels (``_PX``) of the image they refer to, fractions are of the
cell's interior unless the name says otherwise.
"""

from __future__ import annotations

#: Side of the square model input (MNIST convention).
MODEL_INPUT_SIDE_PX = 28
#: Longer side of the ink bounding box once scaled into the model input.
MODEL_DIGIT_BOX_PX = 20
#: Number of output classes: digits 0-9 and EMPTY.
NUM_CLASSES = 11
#: Index of the EMPTY class in probability rows.
EMPTY_CLASS = 10
#: Cells per network pass (every cell's output is the same in any batch; 64 a pass: 12 % less
#: network time than 16 on a sheet's cells and their views).
NETWORK_BATCH = 64
#: Cells of one size normalised in one stacked pass.
NORMALIZE_BATCH = 256

#: Nominal cell interior at 300 dpi (4.5 mm x 6 mm): width and height.
CELL_WIDTH_300DPI_PX = 53
CELL_HEIGHT_300DPI_PX = 71

#: Background (paper) estimate: closing kernel as a fraction of the cell's shorter side.
BACKGROUND_KERNEL_FRACTION = 0.35
#: Ink darker than the local paper by less than this fraction of the paper's
#: brightness never counts as ink (paper grain, JPEG noise, faint smudges).
MIN_INK_CONTRAST_FRACTION = 0.22
#: A pixel is ink when its contrast exceeds this fraction of the cell's peak contrast.
INK_RELATIVE_THRESHOLD = 0.38
#: A component lying wholly in this outer band of the cell is a border remnant.
EDGE_BAND_FRACTION = 0.08
#: A component touching the edge thinner than this fraction across, but longer
#: than LINE_MIN_LENGTH_FRACTION along the edge, is a printed-border remnant.
LINE_MAX_THICKNESS_FRACTION = 0.12
LINE_MIN_LENGTH_FRACTION = 0.35
#: Components smaller than this fraction of the largest one, and farther than
#: SPECK_MAX_GAP_FRACTION of the cell height from it, are specks.
SPECK_RELATIVE_AREA = 0.08
SPECK_MAX_GAP_FRACTION = 0.12
#: Kept ink smaller than this fraction of the cell area, or with a bounding box
#: shorter than MIN_DIGIT_HEIGHT_FRACTION of the cell height, is not a digit.
MIN_INK_AREA_FRACTION = 0.004
MIN_DIGIT_HEIGHT_FRACTION = 0.2

#: Writer adaptation: temperature of the cosine-similarity vote (unitless).
ADAPT_TEMPERATURE = 0.05
#: Weight of the writer's own-sample vote against the general model (log-linear).
ADAPT_WEIGHT = 1.0
#: Softmax temperature of the adapted digit probabilities (the writer's vote sharpens them),
#: fitted by ``training/train_digits.py`` on the calibration split of the training data.
ADAPT_OUTPUT_TEMPERATURE = 2.39
#: Transductive writer adaptation: a cell the general model reads with at least this
#: probability (and the adapted model reads alike) joins the writer's references.
ADAPT_TRANSDUCTIVE_MIN_PROBABILITY = 0.9
#: Rounds of adding confidently read cells to the references.
ADAPT_TRANSDUCTIVE_ROUNDS = 2
#: Calibration samples the general model assigns less than this probability
#: of their stated digit are read against the model: the writer's own way of writing the
#: digit (:data:`ADAPT_SAME_GLYPH_COSINE`), or a box written wrong.
ADAPT_MIN_MODEL_PROBABILITY = 0.05
#: Two glyphs whose embeddings' cosine is at least this are one digit of one writer: on the
#: TRAINING sheets two digits of one writer's strip reach 0.63 (99th percentile, at most
#: 0.73), two samples of one digit of one writer 0.73 (1st percentile; 5th 0.85, median
#: 0.96). A strip's sample read against the model is the writer's own style of its digit
#: when it is not one glyph with the writer's sample of the digit it reads as, and a cell
#: is taken for that style when it is one glyph with it.
ADAPT_SAME_GLYPH_COSINE = 0.8
#: At most this many samples of a strip are kept against the model: more say the strip was
#: written out of order (each digit a box off), and none of them is kept.
ADAPT_OWN_STYLE_MAX_DIGITS = 2
#: Fewer usable calibration digits than this: fall back to the general model.
ADAPT_MIN_DIGITS = 3
