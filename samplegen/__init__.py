"""Sample sheets for tests, benchmarks and training.

Games filled in simulated handwriting, then photographed or scanned.

The scanner never imports this package."""
