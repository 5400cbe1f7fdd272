"""The sub-commands of ``pulka``; each module is one command (see :mod:`pulka.cli`)."""
