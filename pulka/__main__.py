"""``python -m pulka`` runs the command line."""

import sys

from pulka.cli import main

sys.exit(main())
