"""The review page: a local web server where a person settles every doubtful cell by keyboard.

:mod:`pulka.review.server` serves the page (``static/``: one HTML file, one script, one style
sheet, no build step and nothing fetched from elsewhere) and its JSON API over the tournament
store; the store's side is :mod:`pulka.store.review`. Started by ``pulka review``.
"""

from pulka.review.server import ReviewServer, make_server

__all__ = ["ReviewServer", "make_server"]
