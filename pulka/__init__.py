"""pulka: the application that wires scoring, forms and scanner (command line, store, reports)."""
