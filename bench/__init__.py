"""Benchmarks: run each as ``python -m bench.NAME``; figures are ratios to a same-run baseline.

Each benchmark measures one core: numpy's BLAS is held to one thread here, before any
benchmark loads numpy (OpenCV's threads are set by each benchmark); two BLAS threads cost the
digit reader's small matrix products more than they saved (1.8 ms a sheet on one thread, 3.1
in the calling thread and 5.9 in all with two).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
