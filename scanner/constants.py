"""Every threshold of the scan front end, with its unit in the name or the comment.

``_MM`` is millimetres on the paper, ``_PX`` pixels of the image named, ``_FRACTION`` a share
of the named area, ``_S`` seconds. Levels are 8-bit grey levels (0 black, 255 white).
"""

from __future__ import annotations

# --- loading --------------------------------------------------------------------------------
PDF_RENDER_DPI = 300.0
"""Resolution at which PDF pages are rasterised."""

# --- registration ----------------------------------------------------------------------------
DETECT_MAX_SIDE_PX = 1000
"""Markers are searched in the image halved until its longer side is at most this (an 11 mm
marker on an A4 page is then 15-30 px); corners are then refined at full resolution."""
DETECT_MIN_SIDE_PX = 200
"""The image is not halved for the marker search below this shorter side."""
DETECT_QUICK_WINDOW_PX = 15
"""The marker detector's first try uses this one adaptive-threshold window ..."""
DETECT_CORNER_SHARE = 1 / 3
"""The markers are first looked for in the corners of the image this share of its sides (a
ninth of its area each), where a scan's always lie; failing four of them, in the whole
image."""
DETECT_QUICK_MIN_PERIMETER_SHARE = 0.06
"""... and looks only at outlines longer than this share of the image's longer side (OpenCV's
default is 0.03): a marker's outline (4 x 11 mm) is 0.15 of a page's longer side, so this
takes any page that spans 40 % of the image and skips the contours of writing and print. A
page smaller in its image is found by the second try ..."""
DETECT_THRESHOLD_WINDOWS_PX = (5, 21)
"""... and its second, when the first finds fewer than four, these two: the smallest and the
largest adaptive-threshold window."""
CORNER_REFINE_WINDOW_PX = 4
"""Half-size of the sub-pixel corner search window at full resolution."""
MARKER_EDGE_SPAN = (0.2, 0.8)
"""A marker's edge is measured along this middle part of each side (the corners left out) ..."""
MARKER_EDGE_SAMPLES_PER_PX = 0.5
"""... at one point every two pixels of it ..."""
MARKER_EDGE_REACH_MODULES = 0.5
"""... across it this far each way, in modules (a sixth of the marker: its quiet zone is at
least one) ..."""
MARKER_EDGE_OUTLIER_PX = 1.0
"""... and its line fitted again without the points farther than this from the first fit."""
CORNER_OUTLIER_FACTOR = 4.0
"""A marker corner is left out of the page's fit when it is off by more than this many times
the corners' median error ..."""
CORNER_OUTLIER_MIN_PX = 1.5
"""... and more than this many image pixels ..."""
CORNER_OUTLIER_MIN_KEPT = 10
"""... while this many corners are left (a homography needs four; the lens term more)."""
MIN_MARKERS_FOR_HOMOGRAPHY = 3
"""With this many markers (12 corners) the homography comes from markers alone."""
MAX_FIT_ERROR_MM = 1.0
"""A registration whose marker corners miss their printed place by more (RMS) is refused."""
WARN_FIT_ERROR_MM = 0.5
"""Above this RMS error the page is read but flagged."""
OUTLINE_MAX_SIDE_PX = 800
"""The paper outline is looked for in a copy at most this long."""
OUTLINE_MIN_AREA_FRACTION = 0.2
"""The page outline fallback needs a quadrilateral covering at least this share of the image."""

AFFINE_MAX_ERROR_PX = 0.25
"""A page (or a block of it, :meth:`scanner.image.register.RegisteredPage.warp_many`) is warped
as an affine map when the affine map closest to its homography puts no point of it more than
this many image pixels off: less than the registration's own uncertainty (a scan's marker
corners fit to 0.1-0.4 px)."""

# --- quality -------------------------------------------------------------------------------
MIN_PX_PER_MM = 2.9
"""Below about 74 dpi (a 6 mm box under 18 px high) a digit's strokes run together: refuse
(chosen on the TRAINING part: its far photos are 75-120 dpi; the seven of twenty refused at
79 dpi, from 76 dpi up, read 93-100 % right, no field silently wrong, once their borders are
divided out where they lie).
Above it the page is read, warned about below :data:`WARN_PX_PER_MM`; a page whose QR code
cannot be read at that resolution is refused by identification."""
WARN_PX_PER_MM = 7.0
"""Below about 180 dpi: read, but warn."""
QUALITY_PX_PER_MM = 8.0
"""Marker patches are resampled at this resolution to measure sharpness independently of it."""
BLUR_MIN_SHARPNESS = 0.12
"""Sharpness of the marker edges (mean gradient at the edges over the black-white contrast,
per pixel at QUALITY_PX_PER_MM) below which a page is blurred; sharp renders give about 0.4."""
BLUR_WARN_SHARPNESS = 0.18
"""Below this sharpness a page is read but flagged as slightly blurred."""
GLARE_LEVEL = 250
"""A pixel with every channel at least this is saturated."""
GLARE_PAPER_MAX_LEVEL = 235
"""Glare is only looked for when the paper itself is darker than this (a photo, not a scan)."""
GLARE_MIN_AREA_MM2 = 60.0
"""A saturated blob larger than this over the writing area is glare."""

# --- cells -------------------------------------------------------------------------------
WORK_PX_PER_MM = 8.0
"""Working resolution of the warped page (203 dpi: a 4.5 x 6 mm cell is 36 x 48 px, well
above the 20 px a digit is scaled into for the 28 px model)."""
INK_TEST_MIN_PX_PER_MM = 1.8
"""Boxes that may hold ink are told from the page's smallest halving with at least this
resolution (a 200-dpi image halved twice, 2 px/mm: a 4x4 mean of its pixels) ..."""
INK_TEST_INSET_MM = 0.5
"""... looking at each box this far inside its edges (clear of its border, which shows in a
photo's red channel and in a black-and-white page) ..."""
INK_TEST_MIN_DARKNESS = 20
"""... for a point at least this many grey levels below the paper around it (a box with ink
is far darker; paper grain and JPEG noise stay below; a grey page's borders reach 20 inside
a box) ..."""
INK_TEST_MIN_DARKNESS_DROPOUT = 16
"""... or this many on a colour page, whose borders the red channel drops: a pencil stroke
0.15 mm wide 40 levels under the paper darkens a coarse pixel 16-20 levels. TRAINING part
(seed 51, 36 sheets): at 20 the coarse look skipped 28 of the 161 written boxes of a phone
photo in pencil (their entries read a digit fewer, or nothing), at 16 four; empty boxes
looked at 6410 -> 7504 of 29542 over all captures (at 16 on grey pages too: 8518, and
a grey page's borders taken for ink in 80 boxes of 20 written)."""
INK_TEST_PAPER_MM = 2.5
"""The paper's level at a point is the brightest within a square of this side around it."""
BOX_SEARCH_MM = 0.6
"""Each box is looked for on its own printed border within this distance of its place."""
BOX_INSET_MM = 0.35
"""A box's interior (where its fill and cover are measured) lies this far inside its border
(0.25 mm wide, centred on the box edge)."""
BORDER_MIN_RESPONSE = 12.0
"""Mean border-map level (0..255) the best border position must reach to move the box."""
COLOUR_MIN_CHROMA = 40
"""Drop-out pixels are redder than green by this many levels in a colour image."""
COLOUR_MIN_FRACTION = 0.002
"""A page is in colour (drop-out works) when this share of its pixels is that red."""
PAPER_FIELD_PX_PER_MM = 1.8
"""A colour page's paper level (:func:`scanner.image.pixels.paper_field`) is measured on its
smallest halving with at least this resolution ..."""
PAPER_FIELD_MM = 4.0
"""... as the brightest level within a square of this side (ink and lines are narrower) ..."""
PAPER_FIELD_LEVEL = 235
"""... and the paper is brought to this level (below white: the paper's grain and noise keep
their levels, so a box's paper and its ink's contrast are measured as they are)."""
PAPER_PERCENTILE = 90.0
"""Percentile of the grey levels taken as the paper's (ink covers less than 10 %)."""
EMPTY_MAX_INK_FRACTION = 0.006
"""Cells with less quick ink than this share are EMPTY without running the classifier."""
EMPTY_PROBABILITY = 0.9999
"""Probability of EMPTY given to a cell skipped as blank, when it has no ink at all ..."""
EMPTY_PROBABILITY_AT_LIMIT = 0.99
"""... falling to this for a cell just under :data:`EMPTY_MAX_INK_FRACTION` (a speck)."""
SIGN_INK_SURE_FRACTION = 0.02
"""A sign cell with this share of ink holds a minus beyond doubt (a written dash is 4-10 %),
when its ink is shaped like one (:mod:`scanner.image.minus`): ..."""
MINUS_CORE_ROWS = (0.25, 0.75)
"""... its widest stroke among these rows of the box (shares of its height from the top: a
border's remnant lies along the box's edge, within 0.25 of it on the training part's far
photos) ..."""
MINUS_CORE_COLUMNS = (0.12, 0.88)
"""... and these columns (clear of the side borders' remnants) ..."""
MINUS_WIDTH = (0.3, 0.45)
"""... spanning this share of the box's width (a minus from the first, surely from the second;
training part: written minuses 0.56-0.78, remnants and noise at most 0.25) ..."""
MINUS_HEIGHT = (0.3, 0.45)
"""... and no taller than this share of its height (thin from the first, a vertical stroke
through the middle rows from the second; written minuses 0.08-0.25)."""

# --- marks -------------------------------------------------------------------------------
MARKED_MIN_FILL_FRACTION = (0.03, 0.5)
"""Bounds of the per-page empty/marked threshold on the fill share: a clean scan's empty
boxes hold no ink, a far photo's up to 0.45 of the print's remnant (TRAINING part,
phone-distant), where its marks fill 0.5 and more."""
CANCELLED_MIN_FILL_FRACTION = (0.40, 0.90)
"""Bounds of the per-page marked/cancelled threshold on the cover (a cancelled box is filled
solid): felt-tip scribbles, loops and crosses cover up to 0.83 of their box, the cancels
over them 0.98 and more (TRAINING part)."""
CANCELLED_DEFAULT_FILL_FRACTION = 0.55
"""The marked/cancelled threshold when a page's covers do not show two groups."""

# --- identification --------------------------------------------------------------------------
QR_GRID_PX_PER_MM = 10.0
"""The QR region is warped at this resolution for zxing-cpp and to read its modules on their
grid (a 0.35-0.45 mm module is 3.5-4.5 px)."""
QR_GRID_MIN_INK_FRACTION = 0.08
"""Rows and columns of the QR region with at least this share of ink belong to the code (the
quiet zone has none; every row of a code has finder or data modules)."""
QR_GRID_MAX_TIMING_ERRORS_FRACTION = 0.15
"""A version is taken when at most this share of its timing-pattern modules read wrong."""
QR_GRID_LOCAL_MODULES = 7
"""A module is dark when darker than the mean of this square of modules around it (a local
level, which uneven light in a photo needs)."""
QR_SHARPEN_AMOUNT = 1.5
"""Unsharp mask for the QR region: image + amount x (image - blurred image) ..."""
QR_SHARPEN_SIGMA_PX = 1.5
"""... blurred with a Gaussian of this sigma, in pixels of the warped region."""
SHEET_ID_PX_PER_MM = 12.0
"""Resolution of the sheet id text handed to Tesseract."""

# --- output ----------------------------------------------------------------------------------
OUTPUT_JPEG_QUALITY = 90
"""JPEG quality (0-100) of the straightened pages and field sheets a scan writes: people and
reports look at them, the scanner never reads them back."""
STRAIGHT_PAGE_MIN_SHARE = 0.9
"""The straightened page is warped from the smallest halving of the image that has at least
this share of its resolution (a 200-dpi image halved is 99 dpi for a 100-dpi page)."""
CROP_MARGIN_MM = 1.0
"""Paper kept around a field's boxes in its crop."""
CROP_PX_PER_MM = 8.0
"""Resolution of the field crops kept for reports and review (about 200 dpi)."""
BLOCK_MAX_BLANK_SHARE = 1.0
"""A field joins its neighbour's block of a field sheet while the block's area grows by at
most the field's own area times (1 + this): about one empty entry between two written ones."""
ALIGN_PX = 16
"""Blocks start on this grid in a field sheet (a JPEG 4:2:0 macroblock is 16 x 16 pixels)."""

# --- ink: each box's own strokes (scanner.image.ink) -------------------------------------------
INK_SPILL_MM = 2.0
"""A box is read over a window this much wider on every side: writers go 10-30 % of a 6 mm
box over its border, and a tick 130 % of a 4.2 mm mark box reaches 1.5 mm beyond it."""
LINE_BAND_MM = 0.4
"""A printed border (0.25 mm wide) is divided out over this distance on each side of where the
layout puts it (its width and a pixel or two of misplacement)."""
LINE_LEVEL_PERCENTILE = 85.0
"""A border's level at each row across it is this percentile of its grey levels along it:
its light parts, so ink lying on up to four fifths of it is not taken for the line."""
LINE_MIN_TRANSMITTANCE_SHARE = 0.6
"""A border is never taken for darker than this share of the page's typical one (ink lying
along nearly all of it would otherwise be divided out as line)."""
LINE_OPAQUE_TRANSMITTANCE = 0.3
"""Borders letting through less light than this (black on a black-and-white print) cannot be
divided out: their band is ink only where ink meets it from both sides."""
INK_PEAK_PERCENTILE = 99.5
"""A box's own darkest ink: this percentile of its interior's darkness (a share of paper) ..."""
INK_PEAK_SHARE = 0.45
"""... and a pixel is ink when darker than this share of it (contrast normalised per box) ..."""
INK_MIN_CONTRAST = 0.12
"""... and than this share of the paper (paper grain, JPEG noise, a shadow's edge) ..."""
INK_MIN_PEAK_CONTRAST = 0.2
"""... in a window whose darkest ink reaches this share of its paper where the page's printed
borders leave remnants beside their bands (a border's remnant is about that dark) ..."""
INK_MIN_PEAK_CONTRAST_CLEAN = 0.15
"""... or this share where the borders drop out or lie inside their bands: there nothing but
writing is that dark, and a faint pencil reaches only 0.15-0.2 in a photo or a grey scan
(chosen on the TRAINING part) ..."""
INK_MIN_LOCAL_CONTRAST = 0.15
"""... and this share of the paper right around it (within :data:`INK_LOCAL_PAPER_MM`);
a lighter window holds no ink. Against the paper around each stroke a shadow's edge or a
vignette across the window is no ink, however dark, while a stroke keeps its contrast."""
INK_FINE_PAGE_PX_PER_MM = 5.5
"""On a page image this fine (140 dpi; flatbed scans, near and steep photos) ..."""
INK_MIN_PEAK_CONTRAST_FINE = 0.12
"""... the floors where the borders drop out are this, for the window's darkest ink ..."""
INK_MIN_LOCAL_CONTRAST_FINE = 0.12
"""... and for the paper right around it: a faint pencil "1" there reaches only 0.12-0.15, and a
speck or a border's remnant on a fine image is cut away as one. TRAINING part (right / silent
/ doubtful): 0.12 on every page took seed 51 (36 sheets) from 97.7 / 1 / 5.8 % to 98.0 / 1 /
5.0 % but far photos (phone-distant seed 41, pages 3-4.7 px/mm) from 97.3 / 1 / 6.7 % to
96.9 / 1 / 8.3 %: there noise reaches the faint ink's level, so a coarse page keeps 0.15.
So: seed 51 97.9 / 1 / 5.1 % (flatbed-mono 20.5 -> 17.8 %, phone-near 6.4 -> 4.9 %), seed 41
unchanged, seeds 7, 61 (thresholded), 71 (phone-near), 81 (flatbed-mono) unchanged."""
QUIET_PAGE_NOISE = 0.07
"""A page whose noise (:func:`scanner.image.ink.page_noise`: the median darkest ink of its
column boxes, most of them empty) is under this is quiet: a box its floors above leave
without ink is cut again at the fine page's floors, wherever its borders lie. A far pencil
photo's digits reach only 0.14-0.2 of the paper, under the floor a coarse page (0.15) or one
whose borders leave remnants (0.2) needs against noise, and its empty boxes 0.05-0.06.
TRAINING part, phone-distant seeds 183, 186, 187, 196, 199 and phone-steep 190 (92
sheets), column and calibration boxes of pages with noise under 0.07: 138 written digits
of 174 lost kept, no box without writing given ink that the light-ink rules
(:mod:`scanner.image.light_ink`) leave; under 0.08, 163 kept and 31 such boxes (two
ballpoint pages), under 0.1, 193 and 38. A deal page (no column boxes) is judged by its
mark boxes instead (:data:`QUIET_DEAL_PAGE_NOISE`)."""
QUIET_DEAL_PAGE_NOISE = 0.1
"""A deal page is quiet where the median darkest ink of its mark boxes, most of them empty
(0 where the coarse look found them blank), is under this: its boxes the floors left without
ink are cut again at the fine page's floors, as a quiet page's column boxes are. A far
pencil photo's marks reach 0.13-0.22 of the paper there and its empty mark boxes 0.0-0.11
at the median: the coarse page's floors lost whole deal pages of ticks, loops and filled
boxes, and the deal log with them (TRAINING part, phone-distant seed 211 sheet 015: 122
marks of 122 on its first deal page; seeds 183, 211 and 219: 41-69 on one page), so the
rules had no log to check the running totals against and asked about nearly every field.
Chosen on 23 TRAINING sets (phone-distant and phone-steep, seeds 183-247, 372 sheets):
fields right 97.80 -> 98.12 %, doubtful 1,671 -> 1,517, silent 115 -> 112."""
INK_LOCAL_PAPER_MM = 1.5
"""The paper right around a stroke: the lightest level within this square (a closing wider
than any pen or pencil stroke, narrower than a shadow's edge)."""
INK_STRETCH_TARGET = 0.85
"""A box's crop is stretched so its darkest ink reaches this darkness (a pencil as a pen) ..."""
INK_STRETCH_MAX = 4.0
"""... by at most this factor."""
INK_SPECK_MM2 = 0.04
"""Strokes smaller than this (two or three pixels) are specks, not ink (the dots of a broken
stroke in a thresholded scan are larger)."""
INK_LINE_REMNANT_SHARE = 0.9
"""A thin stroke with this share of its pixels in a border's band is what is left of the line."""
INK_SPLIT_SHARE = 0.6
"""A stroke goes whole to the box holding at least this share of it; else (two digits run
together) each box keeps its own part."""
INK_UNSEEN_SHARE = 0.1
"""... or when this share of its pixels inside boxes lies out of that box's window (its crop
cannot show them): two digits joined over the border between their boxes, the second
reaching past the first's window (TRAINING part, a phone photo of a 1600 px frame: a "37"
whose 7 held 0.4 of the stroke went with the 3, its own box read empty). A digit's flag
just past the window is no such part (a 5 30 % over its border: 0.03 of it). 23 TRAINING
sets (seeds 271-291 and two of phone photos of 1600-2000 px frames, 368 sheets): doubtful
fields 1,019 -> 994, silent 6 -> 6, sheets with no person 124 -> 125; 0.05 and 0.2 read
them the same."""
INK_MIN_INSIDE_SHARE = 0.15
"""A stroke with less of it inside any box is print or a stray line beside the boxes, not
writing."""
LINE_EDGE_PERCENTILE = 25.0
LINE_EDGE_CLEAN_TRANSMITTANCE = 0.95
"""A page's borders lie inside their bands when the paper rows just beside the bands let
through this much light at :data:`LINE_EDGE_PERCENTILE` of its lines (TRAINING part: 0.98 to
1.00 on every page but a steep photo whose borders lie a pixel off, 0.90)."""
LINE_SETTLE_MM = 0.25
"""On a page coarser than a fine one (:data:`INK_FINE_PAGE_PX_PER_MM`) each border is divided
out centred on its own darkest row within this distance of where the layout (and the boxes'
drift) puts it: a far photo's border lies a pixel or two off, more at one end of a box's edge
than at the other (chosen on the TRAINING part's far photos: blank boxes read as a 1 fall by
half). Until the forty-ninth round only pages under 102 dpi were settled, each border alone;
a page of 102-140 dpi kept its faint borders in place (:data:`LINE_SHOWS_UNDER`), and its
pencil was cut away with their remnants. TRAINING part, distant and steep photos, read with
the round's first main and with every page under 140 dpi settled, borders in line moving as
one (:data:`LINE_SETTLE_SPAN_MM`): ten sets and nine fresh ones (247 sheets; seeds 440-449,
474-482) right 17,074 -> 17,075, wrong 62 -> 60, doubtful 652 -> 623, blank boxes asked
221 -> 186, sheets with no person 103 -> 105; eight sets made after the first choice (190
sheets; seeds 483-490) right 12,807 -> 12,864, wrong 151 -> 97, doubtful 681 -> 622, asked
279 -> 212, no person 71 -> 72, silent 2 -> 1; finer pages and the old generator's sets as
they were. That first choice settled each border alone, and those eight sets read a silent
row more with it (a trick split misread, seed 485 sheet 012). Four sets made after the final
choice (seeds 491-494, 94 sheets): right 6,449 -> 6,445, doubtful 314 -> 311, asked 119 ->
143 (one distant pencil sheet 24 of them), none silent either way."""
LINE_SETTLE_SPAN_MM = 12.0
"""... and the borders in line with one another over this stretch of it (about three boxes)
move as one: by the median of their darkest rows (:func:`scanner.image.lines.profiles`)."""
DRIFT_REACH_MM = 0.6
"""Where a page's borders lie off their bands, each border is looked for this far either side
of its place (:mod:`scanner.image.drift`; the training part's far photos: up to 0.4 mm) ..."""
DRIFT_TILE_MM = 10.0
"""... and the boxes move by the median offset of the borders in their square of this side
(two or three boxes: the drift changes over a page, a few millimetres of it alike) ..."""
DRIFT_ROUNDS = 4
"""... and beyond a smooth surface fitted to the offsets, looked for again around it at most
this many times, until it settles (:mod:`scanner.image.drift`; the training part's far photos
seen through a lens their markers do not show, drift up to 2 mm: two to four rounds; at
most two left 6 doubtful fields on a phone-distant sheet, seed 41's 003, where four leave 1)."""
LINE_SHOWS_UNDER = 0.97
"""A border letting through less light than this is divided out
(:func:`scanner.image.lines.clear_lines`); one letting through more (the drop-out print in a
clean image's red channel) is left as it is. In a photo's or a colour scan's red channel the
drop-out print lets through 0.89-0.94 (TRAINING part: the colour's resolution a JPEG halves),
as dark as a faint pencil, and a box's floors cut the pencil away with the border's
remnants: a steep photo's ballpoint 76 read 92, 68 read 64 (TRAINING seed 475 sheet 016).
Left as they were from 0.9 on a fine page, a coin flip per page, such borders are divided out
up to 0.97 since the forty-eighth round; on a coarse page they blur into the darker column
lines beside the boxes (left in place, they read as crosses in blank mark boxes). TRAINING
part, read again with the round's first main and this: five fresh sets (seeds 474-478, 115
sheets) doubtful 239 -> 218, sheets with no person 48 -> 50, right 7,753 -> 7,759 (with the
faint seats' cut); ten sets (seeds 440-449, 224 sheets) doubtful 583 -> 561, no person 101 ->
105, right 15,571 -> 15,573; no silent field more; 0.95 and 0.99 read the five sets alike.
A page of 102-140 dpi, whose borders were not settled (:data:`LINE_SETTLE_MM`), kept 0.9
until the forty-ninth round."""
LINE_FAINT_TRANSMITTANCE = 0.9
"""A border letting through less light than this shows: the boxes follow it where it lies
(:mod:`scanner.image.drift`; followed up to :data:`LINE_SHOWS_UNDER`, four fresh far-photo
sets lost two right fields)."""
LINE_DROPOUT_TRANSMITTANCE = 0.85
"""On a fine page whose borders let through this much of the light or more (the drop-out
print's red channel), nothing left of them once divided out passes for writing: a stroke
along a border, or in the gap between two entries, is writing (:mod:`scanner.image.lying`).
At 0.9 (:data:`LINE_FAINT_TRANSMITTANCE`, until the fifty-fourth round) the colour flatbed
scans and phone photos whose red print lets through 0.85-0.9 kept a "1" on the line
between two boxes from its box (TRAINING part, 744 sheets of seeds 440-449 and 474-494:
leading 1s of 12 entries found, such as a pool's 14 read 4 on a colour scan of felt-tip,
one lost digit's stroke given to an empty leading box, a 5 read 45 and still read 5 by
the rules; doubtful 1,104 -> 1,101, no other field changed; 0.8 reads the same: no page
lies between)."""
DOTS_JOIN_MM = 0.15
"""A black-and-white capture on which a seat's calibration strip is lost (its strokes broken
into dots by the threshold: :func:`scanner.decode.faint.faint_seats`) is read again with its
grey levels smoothed over this distance (a Gaussian's sigma, about a pen stroke's width):
the dots of a stroke join into a grey stroke, as an eye sees them. What the first reading
found lost stays so (its fields doubtful unless the rules and the joined ink agree).
TRAINING part, the five thresholded sheets with a lost strip of seeds 7, 51 and 61 (none of
seed 62's 24 but those refused): 214 of their 328 fields right -> 255, doubtful 162 -> 156,
none silent; at 0.22 mm a 4 read 6 that the rules confirm passed silent; with the seats no
longer kept lost, at 0.1 mm a 4 read 14."""
DOTS_GROW_MM = 0.125
"""... after each dark dot is grown by this much every way (a grey erosion over a square of
``2 * round(DOTS_GROW_MM * px_per_mm) + 1`` raster pixels: at the working resolution one
pixel, a 3 x 3 square). A light ballpoint thresholded keeps a dot every 0.2-0.5 mm of its
strokes, most of them a pixel or two; smoothed alone they stay apart, each too light beside
the stroke's few solid parts to pass for ink, and the network reads the box blank at 0.99 or
a fragment of the digit. Chosen on TRAINING seeds 287 and 321, their eight blue-ballpoint
sheets thresholded (four read joined): written digit cells (calibration strips left out)
read right 905 -> 932 of 1,074, wrong at 0.9 or more 105 -> 78; the bench's fields right
519 -> 530 of 542, doubtful 118 -> 106, silent 2 -> 2 (rows of sheets not read joined).
Grown two pixels (5 x 5) the strokes thicken past the pen's: 902 cells right; one pixel with
the smoothing at 0.1 mm, 933 but a lost "1" of a 14 passed silent; at 0.2 mm 925; with no
smoothing 936 cells, 168 of 597 fields doubtful against 160. Fresh TRAINING sets made after
the choice (seeds 330-333, 64 thresholded sheets, 16 blue-ballpoint, 3 refused): blue
ballpoint right 899 of 926 both, doubtful 173 -> 155, blank boxes asked 119 -> 106, none
silent; every other sheet's tallies the same (only sheets read joined change)."""
FLAT_INK_FLOOR_SHARE = 0.75
"""On a flat view in grey (a flatbed scan, :attr:`RegisteredPage.affine`, whose borders do
not drop out), every floor of ink (the window's darkest ink, the paper right around it, a
pixel's contrast, and the coarse look's darkness) is this share of a photo's: a scan's
paper is evenly lit, with no shadow edge, vignette or table texture to pass for ink, and a
light pencil stroke lies only 0.1-0.12 of the paper below it. TRAINING part, seed 51: a grey
scan at 240 dpi in pencil pressed lightly, whose entries a person reads, had 37 fields wrong
or doubtful at the photo's floors, 1 at 0.75 and at 0.5; at 0.5 a speck far down a column
of other grey scans (flatbed-mono, seed 81) read as a later total and made the blanks before
it doubtful (2.8 -> 4.3 %, 1 silent). A colour scan keeps its own floors (those of pages
whose borders drop out, set just above what is left of the drop-out print in the red
channel): at 0.75 of them that residue joins a pen stroke drawn down a border line, which is
then dropped with it as the line's remnant (half the "1"s of
``test_a_one_on_the_line_between_two_boxes_is_the_empty_boxs_digit`` lost), and JPEG noise
made two ballpoint entries unsure (seed 7). On a photo the same floors read noise as writing
(phone-near in pencil: 20 fields wrong or doubtful, 61 and 9 silent at 0.5)."""
INK_FAINT_SEAT_FLOORS = (0.09, 0.09, 0.06)
"""A seat whose calibration strip a grey or colour capture lost (a faint pencil,
:func:`scanner.decode.faint.faint_seats`) has its digit boxes cut again with these floors
for the window's darkest ink, the paper right around it and a pixel (else
:data:`INK_MIN_PEAK_CONTRAST_FINE`, :data:`INK_MIN_LOCAL_CONTRAST_FINE`,
:data:`INK_MIN_CONTRAST`): a writer's pencil at 0.07-0.14 of the paper, legible to a person,
read as dots or nothing (TRAINING seed 477 sheet 004: outlined digits in pencil on a steep
photo, a whists column of 100, 124, 138, 140 read blank). Lower floors on every box of such
pages find phantom ink in the paper's grain and in other seats' empty boxes (the
forty-sixth round: doubtful 825 -> 866-911 on 15 sets); only a seat whose own strip says
its ink is lost is cut so, on a fine page only, its entries then confirmed only by ink that
reads the rules' value surely (:data:`scanner.decode.faint.CONFIRMED_CUT_FAINT_SHARE`).
TRAINING part, read again: the 37 photos with a faint seat right 2,480 -> 2,516, doubtful
835 -> 758; 339 other sheets right 23,329 -> 23,335, doubtful 770 -> 762; no silent field
more. EVALUATION part, read after: right 6,245 -> 6,251 of 6,282, doubtful 274 -> 253."""
INK_FAINT_PEAK_SHARE = 0.25
"""A stroke is the ink darker than this share of its window's darkest, joined, around ink
darker than :data:`INK_PEAK_SHARE` of it (a thin stroke's light parts stay in it)."""
INK_JOINED_MIN_SPECKS = 4
"""The part inside a box of a stroke joined to print beside the boxes (a pen run over the
column's line) is that box's ink when it is this many specks (:data:`INK_SPECK_MM2`) or
more."""
INK_SPLIT_MIN_SHARE = 0.25
"""... a box keeps its part of a split stroke when it holds this share of it; a smaller part
(a digit's tail over the border) goes with the rest."""
INK_BORDER_FRAMED_SHARE = 0.6
"""A stroke no box took, with under :data:`INK_MIN_INSIDE_SHARE` of it inside any box's
interior but this share of it within the boxes' rectangles (grown by :data:`LINE_BAND_MM`)
or the gaps between entries, lies on their border lines or between them: a writer's "1"
drawn along the line between two boxes (training tr11: whists, pool and mountain entries of
writers who spill over the lines) or spilled out of its entry, not print beside the
boxes ..."""
INK_BORDER_MIN_CONTRAST = 0.4
"""... and is writing when a speck of it is darker than this share of the paper: twice a
border's remnant (:data:`INK_MIN_PEAK_CONTRAST`), above a shadow's edge or paper grain
(training part: 0.3 reads the same; 0.25 finds ink past the columns' ends of far photos and
misreads three of their fields silently) ..."""
INK_BORDER_NEIGHBOUR_SHARE = 0.2
"""... and a box nearest at least this share of its pixels is one of the two boxes it lies
between (a share of the two, at least, is near either; less is a box further off)."""

# --- lens: a phone's barrel distortion (scanner.image.lens) -----------------------------------
LENS_BARREL_RANGE = (-0.04, 0.12)
"""Radial distortion searched, a share of the frame's half-diagonal at its corner (phones:
0-0.06 barrel; a little pincushion below 0)."""
LENS_BARREL_STEP = 0.016
"""The search's first step, halved :data:`LENS_REFINE_ROUNDS` times around the best (the fit
error is smooth in the distortion: on the 150 training-part pages of three sample sets this
finds the very distortion a first step of 0.004 does, with 23 fits in place of 49) ..."""
LENS_REFINE_ROUNDS = 6
"""... to a quarter of a thousandth."""
LENS_MIN_F = 10.0
"""The distortion is taken out when the F statistic of its term in the markers' fit reaches
this (with four markers, corners whose error is noise alone reach 10 once in about 230
pages: F with 1 and 23 degrees of freedom) ..."""
LENS_MIN_MOVE_PX = 1.6
"""... and it moves some point of the page by more than this many image pixels from where the
straight fit puts it (training part: flatbed scans' corners show terms that move 1.3 px at
most, the weakest phone lens seen moves 2 px; a scan is left as it is)."""
LENS_MAP_STEP_PX = 16
"""A warp through the lens solves its source pixels on a grid of this pitch (output pixels)
and interpolates between (the distortion and the perspective bend less than 0.01 px over
it)."""
LENS_SOLVE_ROUNDS = 4
"""Fixed-point rounds that invert the distortion (each gains a factor of b, under 0.12)."""
