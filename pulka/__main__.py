"""``python -m pulka`` runs the command line."""

import sys

from pulka.cli.main import main

sys.exit(main())
