"""Benchmarks: run each as ``python -m bench.NAME``; figures are ratios to a same-run baseline."""
