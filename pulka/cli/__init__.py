"""The command line: one module per command, the progress line, start-up."""
