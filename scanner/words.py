"""The scanner's sentences for people, by code: page warnings, scan problems, cell notes and
refusals, each an English template whose ``{placeholders}`` are its parameters.

A producer says :func:`said` ``(code, **params)`` and gets a :class:`scoring.said.Said`: the
English sentence for logs and ``--json``, with the code and parameters a catalogue says in
another language (``pulka/report/said_text.py``; ``pulka/locale/update.sh`` extracts these
templates, marked ``N_``, into the catalogues). A parameter that is itself words is a nested
sentence (``where``, ``advice``, ``who``), so no English reaches a translation.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.said import N_, Param, Said, say

WORDS: dict[str, str] = {
    # where, and how a sentence is put together
    "file_page": N_("{file}, page {page}"),
    "at": N_("{where}: {text}"),
    "advice": N_("{text}; {advice}"),
    "and": N_("{first} and {second}"),
    "comma": N_("{first}, {second}"),
    "both": N_("{first}; {second}"),
    "nothing": N_("nothing"),
    "none": N_("none"),
    # page warnings
    "low_dpi": N_("{where} is only {dpi} dpi: check its readings"),
    "loose_fit": N_("{where}: the markers fit to {fit} mm only (a curled page?): check its "
                    "readings"),
    "marker_covered": N_("{where}: a corner marker is covered; the page was placed by its "
                         "outline"),
    "slightly_blurred": N_("{where} is slightly blurred: check its readings"),
    "glare": N_("{where} has glare near {x} mm from the left, {y} mm from the top: retake the "
                "photo without a direct light"),
    # scan problems
    "page_twice": N_("sheet {sheet}: page {page} given twice ({first} and {second}); reading "
                     "the first"),
    "page_missing": N_("sheet {sheet}: page {page} of {pages} is missing; scan it too"),
    "kept_beside": N_("sheet {sheet} is in {out} already; this reading of it is kept beside it "
                      "in {name} (if it is the same page scanned twice, delete one of the two "
                      "folders)"),
    "faint_seats": N_("{who} calibration digits are nearly blank in the image: if they were "
                      "written, the ink is too faint for this capture (pencil on a "
                      "black-and-white scan, or a photo); scan the sheet again in grey or "
                      "colour. Their fields are marked doubtful"),
    "all_strips_lost": N_("every seat's calibration digits are nearly blank in the image: the "
                          "writing is too faint for this capture (pencil on a black-and-white "
                          "scan), so nothing on the sheet can be read"),
    "no_deal_read": N_("not one deal row reads as a deal, though the rows hold writing: the "
                       "scorer's hand is too small or faint for this capture, so no deal log "
                       "checks the running totals and the sheet cannot be read"),
    "rows_unreadable": N_("the deal rows' digits are nearly blank in the image: the scorer's "
                          "ink is too faint for this capture (pencil or a thin ballpoint on a "
                          "black-and-white scan or a far photo), so no deal log checks the "
                          "running totals and the sheet cannot be read"),
    "rows_blank": N_("deal {which} read blank, but the running totals hold their deals: if "
                     "they were written, the ink is too faint for this capture; scan the sheet "
                     "again in grey or colour, or check them"),
    "rows_span": N_("rows {first}-{last}"),
    "row_one": N_("row {row}"),
    "seat_of": N_("seat {seat}'s"),
    "every_seat": N_("every seat's"),
    # cell notes
    "lost_ink": N_("nothing read, but {who} calibration digits are missing from the image too: "
                   "the ink may be too faint for this scan"),
    "read_lost": N_("read so, but {who} calibration digits are missing from the image: strokes "
                    "may be lost too (the ink is too faint for this scan)"),
    "expected_unread": N_("nothing read, but the rules expected {value}"),
    "unwritten": N_("nothing written here, where the rules expect {value}: the writer left it "
                    "out"),
    "ink_no_number": N_("ink here, but it reads as no number"),
    "ink_no_deal": N_("ink here, but it reads as no deal"),
    "later_row_ink": N_("nothing read here, but a later row holds ink"),
    "totals_hold": N_("nothing read here, but the running totals hold more deals than the deal "
                      "log ({n})"),
    "later_entry": N_("nothing read here, but a later entry of the column holds a value"),
    "later_row": N_("nothing read here, but a later row holds a deal"),
    "after_lost_rows": N_("nothing read here, but rows before it among the deals read blank "
                          "too: check that no deal was written here"),
    "slips_alike": N_("read against the rules as another entry of this writer is, by the "
                      "same digits ({confusion}): one misread repeated rather than two slips"),
    "misread_repeated": N_("differs from its right total as the entries next to it do "
                           "({confusion}): a misread repeated, or a slip the writer carried on "
                           "from"),
    "read_as": N_("{ink} read as {value}"),
    "expected_above_pool": N_("the totals written before it lead to {expected}, above the "
                              "pool of {pool}; read {value}: check it"),
    "above_pool": N_("the ink says {ink}, above the pool of {pool}; the rules make it {value}"),
    "after_overruled": N_("nothing read here, but the rules overruled the ink of the entry "
                          "before it: if the deal log is misread, a total whose ink was lost "
                          "may stand here"),
    "before_above_pool": N_("the ink says {ink}; the rules make it {value}, but a later entry's "
                            "ink passes the pool: a slip the writer carried on may start here"),
    "slip_before_above_pool": N_("read {value} as the writer's slip (the rules expected "
                                 "{expected}), but a later entry's ink passes the pool: the "
                                 "slip carried on there may be another value, a digit lost"),
    "read_in_pair": N_("the running totals fit this reading only together with another "
                       "reading of row {row}: check both rows"),
    "read_as_overturned": N_("this is how the ink reads deal row {row}, which the running "
                             "totals read otherwise: the two rows may be swapped, check both"),
    "same_as_next": N_("the next entry holds {value} too: this may be a wrong value, "
                       "corrected there, whose digit the reader lost"),
    "beside_unexplained": N_("the ink says {ink}; the rules make it {value}, but another "
                             "entry of this column holds ink no deal of the log explains: "
                             "the deal log may be short of a deal here"),
    "slip_may_start": N_("read {value}, but the ink finds {ink} too, and the next entry's "
                         "ink is off the rules by as much: a slip the writer carried on may "
                         "start here"),
    "chained_from_overruled": N_("read {value}, but the ink finds {ink} too, which the "
                                 "entry before it makes by its ink: the deal log that "
                                 "overruled that entry may be misread"),
    "carried_from_slip": N_("read {value}, but the ink finds {ink} too, which carrying on "
                            "from the entry before it makes: that entry, read against the "
                            "rules, may be a slip carried on, or its deal log misread"),
    "carried_on_unseen": N_("read {value} as a slip carried on from the {slip} before it, "
                            "but the ink of that {slip} does not show the slip: both may "
                            "have lost a digit"),
    "unsure_after_doubtful": N_("read {value} on the rules' word, its ink unsure, right "
                                "after an entry in doubt that the rules make it from"),
    "unsure_after_overruled": N_("read {value} on the rules' word, its ink unsure, right "
                                 "after an entry the rules made against its own ink: the deal "
                                 "log that overruled it may be misread"),
    "below_above_pool": N_("read {value}, below the {before} an earlier entry's ink holds past "
                           "the pool: a slip the writer carried on past the pool may have "
                           "lost a digit here"),
    "after_above_pool": N_("the ink says {ink}; the rules make it {value}, but an earlier "
                           "entry's ink passes the pool: the writer's totals may have passed "
                           "it"),
    "ink_clearly": N_("the ink clearly says {ink}; the rules expected {expected}"),
    "ink_clearly_short": N_("the ink clearly says {ink}; the rules expected {expected}: a "
                            "digit the reader may have lost (two digits in one box)"),
    "ink_short_of_before": N_("the ink clearly says {ink}; the rules expected {expected}, "
                              "but a total written after {before} has no fewer digits "
                              "(these totals only rise): a digit the reader may have lost"),
    "next_from_rules": N_("the ink clearly says {ink}; the rules expected {expected}, but "
                          "the next total, {next}, goes on from {expected}, not from {ink}: a "
                          "digit the reader may have misread"),
    "carried_from_short": N_("read {value} as carried on from the {slip} before it, a total "
                             "the rules make {expected}: a digit the reader lost there would "
                             "be lost here too"),
    "falls_past_deal": N_("the ink clearly says {ink}; the rules expected {expected}, but "
                          "the total before it is {before}, and a slip does not drop these "
                          "totals by more than the deal adds: a digit the reader may have "
                          "lost"),
    "unsettled_otherwise": N_("read {value}, but with the other reading of deal row {row}, "
                              "itself doubtful, the rules do not settle it"),
    "digit_may_be_lost": N_("the ink says {ink}; the rules expected {expected}, but {value}, "
                            "with a digit the reader may have missed, fits the ink too"),
    "ink_overruled": N_("the ink says {ink}; the rules make it {value}"),
    "empty_expected": N_("empty, but the rules expected {expected}"),
    "ink_unspelled": N_("the ink hardly spells {value} (a digit lost, or another value "
                        "written); the rules make it {value}"),
    "from_doubtful_row": N_("the ink says {ink}; the rules make it {value} from deal row "
                            "{row}, itself doubtful"),
    "more_from_doubtful_row": N_("nothing read here, but another reading of deal row {row}, "
                                 "itself doubtful, writes one more total in this column"),
    "unsure_from_doubtful_row": N_("the ink is unsure of {value}, and deal row {row} that "
                                   "makes it so is itself doubtful"),
    "ink_expected": N_("the ink says {ink}; the rules expected {expected}"),
    "blank_between": N_("nothing read, but a later entry of the column is written: a total "
                        "the reader missed, or one the writer skipped"),
    "room_for_correction": N_("nothing read, but this column's ink is lost in places and its "
                              "last totals stand where the rules put them, not the ink: a "
                              "correction may have written one total more, here"),
    "ink_unsure": N_("ink unsure; the rules expect {value}"),
    "entry_unsure": N_("read {value} at only {share}, or {other}: check it"),
    "row_overturned": N_("the ink reads this row otherwise; the running totals make it this"),
    "row_overturned_on": N_("the ink reads this row otherwise ({fields}); the running totals "
                            "make it this"),
    "row_unconfirmed": N_("the ink reads this row so at only {share}, and the running totals "
                          "it writes are read otherwise"),
    "row_totals_against": N_("{count} of the running totals this row writes read otherwise, "
                             "one of them another number: check this row and those totals"),
    "totals_fit_other": N_("the running totals fit another reading of this row far better than "
                           "the ink's"),
    "steps_fit_other": N_("the amount the running totals add at this deal fits another reading "
                          "of this row far better than the ink's (a total before it may hold "
                          "the writer's slip): check the row"),
    "unchecked_digits": N_("no running total checks {fields}: the ink alone reads it so at "
                           "{share}"),
    "tricks_of": N_("{owners} tricks ({these}, or {those})"),
    "owner": N_("{seat}'s"),
    "talon_quick": N_("the talon's quick tricks ({this}, or {that})"),
    "talon_unwitnessed": N_("the ink reads no talon, but a faint seat's whists that a "
                            "talon prize would write hold ink the deal log does not explain: "
                            "check the talon"),
    "talon_witness_faint": N_("the ink reads no talon, and the totals a talon prize would "
                              "change are a faint seat's, none of them read: check the talon"),
    "talon_entry_against": N_("the talon's quick tricks are checked only by the whists on "
                              "the declarer this deal writes, and the ink reads that entry "
                              "as another talon would make it: check the talon and that "
                              "entry"),
    "suits_crossed": N_("two suit boxes read as crossed ({this} and {that}), and no running "
                        "total checks the suit: check it"),
    "talon_moved": N_("the ink reads no talon; the deal log gives row {row} a talon prize its "
                      "ink does not show, and the running totals fit the prize here as well: "
                      "check the talon"),
    "talon_taken": N_("the deal log gives this row a talon prize; row {row}'s ink reads one "
                      "the log does not show, and the running totals fit it there as well: "
                      "check the talon"),
    "talon_overruled": N_("the ink reads the talon's quick tricks otherwise; only the talon "
                          "prize's whists make them {n}: check it"),
    "row_unsure": N_("the ink and the running totals read this row so at only {share}: check "
                     "it"),
    "row_unsure_on": N_("the ink and the running totals read this row so at only {share} "
                        "({fields}): check it"),
    "not_legal": N_("the ink does not read as a legal deal; this is the nearest one"),
    # refusals: the problem
    "too_coarse": N_("page {page} of the sheet is only {dpi} dpi, too coarse to read (its "
                     "handwriting needs {need})"),
    "folded": N_("the corner markers do not fit the printed sheet (off by {off} mm): the paper "
                 "is folded or curled"),
    "blurred": N_("page {page} of the sheet is blurred (sharpness {sharpness})"),
    "corners_hidden": N_("only {n} of the 4 corner markers are visible and the paper's edge "
                         "cannot be seen"),
    "no_markers": N_("no pulka corner markers found: not a pulka sheet, or a blank or cut-off "
                     "photo"),
    "unknown_page": N_("markers say page {page}, which no known layout has"),
    "not_identity": N_("its QR code is not a pulka sheet identity ({error})"),
    "layout_unknown": N_("sheet {sheet} has layout {layout}, which this version of pulka does "
                         "not print"),
    "id_not_tried": N_("its QR code cannot be read, and the printed sheet id cannot be tried: "
                       "{problem}"),
    "id_unreadable": N_("neither its QR code nor its printed sheet id can be read (the page is "
                        "at {dpi} dpi)"),
    "no_qr": N_("sheet {sheet}: no page's QR code could be read, so its layout and rules are "
                "unknown"),
    "not_pulka_id": N_("the sheet id {sheet} read from the page is not one pulka prints"),
    "outside_out": N_("{path} lies outside the output folder {out}"),
    "cannot_write": N_("cannot write {path}"),
    "not_registered": N_("the page cannot be registered ({error})"),
    "internal_error": N_("pulka failed while reading this sheet ({error}): an error in pulka "
                         "itself, not in the sheet"),
    "dangling_link": N_("is a link to a file that does not exist"),
    "no_such_file": N_("does not exist"),
    "cannot_read": N_("cannot read the file ({error})"),
    "folder": N_("is a folder named like an image"),
    "not_regular": N_("is not a regular file (a pipe or a device)"),
    "empty_file": N_("the file is empty (0 bytes)"),
    "file_too_big": N_("the file is {size} bytes, more than {limit}"),
    "not_image": N_("is not a JPEG, PNG, TIFF or PDF file"),
    "page_too_big": N_("the page is {width} x {height} pixels, more than {limit} pixels"),
    "page_too_small": N_("the page is {width} x {height} pixels, too small to hold a sheet "
                         "(under {limit} pixels a side)"),
    "image_too_big": N_("the image has more than {limit} pixels"),
    "bad_header": N_("the image header cannot be read ({error})"),
    "jpeg_truncated": N_("the JPEG file is truncated (no end-of-image marker)"),
    "png_truncated": N_("the PNG file is truncated (no IEND chunk)"),
    "corrupt": N_("the image cannot be decoded (corrupt file)"),
    "tiff_page": N_("the TIFF page cannot be decoded ({error})"),
    "too_many_pages": N_("the file has {count} pages, more than {limit}"),
    "no_pages": N_("the file has no pages"),
    "pdf_unopened": N_("the PDF cannot be opened ({error})"),
    "page_unread": N_("the page cannot be read ({error})"),
    "page_unrendered": N_("the page cannot be rendered ({error})"),
    "no_pytesseract": N_("the Python package pytesseract is not installed"),
    "no_tesseract": N_("the tesseract program is not installed"),
    "tesseract_fails": N_("tesseract does not run ({error})"),
    "tesseract_old": N_("tesseract {version} is older than {minimum}"),
    # refusals: the advice
    "check_file": N_("check the file and scan it again"),
    "give_image": N_("give a JPEG, PNG, TIFF or PDF file"),
    "copy_again": N_("the file is damaged or incomplete: copy it again or retake the photo"),
    "whole_sheet": N_("photograph the whole sheet with its four corner squares visible, or "
                      "leave this file out"),
    "same_version": N_("scan it with the pulka version that printed the sheet, or print it "
                       "again"),
    "retake": N_("retake the photo"),
    "report_bug": N_("report it with the sheet's image files; the other sheets are read"),
    "install_tesseract": N_("install it (Debian/Ubuntu: apt-get install tesseract-ocr; macOS: "
                            "brew install tesseract) or scan sheets whose QR codes are "
                            "readable"),
    "pip_pytesseract": N_("pip install pytesseract"),
    "closer": N_("take the photo closer, the sheet filling the frame, or scan it at 300 dpi"),
    "rescan_grey": N_("scan the sheet again in grey or colour"),
    "flatten": N_("flatten the sheet and retake the photo"),
    "hold_still": N_("retake the photo, holding the camera still and focused"),
    "uncover": N_("uncover the corner squares (a finger, a shadow, a fold) and retake the "
                  "photo"),
    "closer_filling": N_("scan it at 300 dpi or take the photo closer, the sheet filling the "
                         "frame"),
    "clean_qr": N_("rescan a page of it with a clean QR code"),
    "printed_only": N_("scan only sheets printed by pulka print"),
    "no_links": N_("give an output folder without links leading out of it"),
    "writable": N_("check the output folder is writable"),
    "fix_link": N_("leave it out or fix the link"),
    "check_path": N_("check the path"),
    "rename": N_("its images are read; rename it or leave it out"),
    "leave_out": N_("leave it out"),
    "split": N_("split it into smaller files"),
    "at_300": N_("scan at 300 dpi"),
    "whole_at_300": N_("scan the whole sheet at 300 dpi"),
}
"""Each code's English template (``N_`` marks it for the catalogues)."""


def said(code: str, /, **params: Param) -> Said:
    """The sentence of ``code`` with ``params``, in English, knowing its code.

    >>> s = said("low_dpi", where=said("file_page", file="a.jpg", page=1), dpi=149)
    >>> str(s), s.code
    ('a.jpg, page 1 is only 149 dpi: check its readings', 'low_dpi')
    """
    return say(WORDS, code, **params)


def and_list(parts: Sequence[Param], code: str = "and") -> Param:
    """``a``, ``a and b``, ``a and b and c``: parts joined by the sentence ``code``."""
    joined = parts[0]
    for part in parts[1:]:
        joined = said(code, first=joined, second=part)
    return joined


def comma_list(parts: Sequence[Param]) -> Param:
    """``a, b, c``: parts joined by the sentence ``comma``."""
    return and_list(parts, "comma")


def value_said(value: int | None) -> Param:
    """A value as a note shows it to a person: an empty entry is "nothing"."""
    return said("nothing") if value is None else value
