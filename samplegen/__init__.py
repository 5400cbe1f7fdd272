"""Sample sheets for tests, benchmarks and training.

Games filled in simulated handwriting, then photographed or scanned. Two profiles
(:mod:`samplegen.profiles`): ``legacy``, the old generator (MNIST digits kept inside the boxes,
neat crosses, :mod:`samplegen.degrade`), and ``open``: handwriting fonts (:mod:`samplegen.fonts`),
pen-stroke writers (:mod:`samplegen.strokes`) and, in the evaluation part, the UCI digits
(:mod:`samplegen.uci`), written over the borders in four inks
(:mod:`samplegen.writers`), marks of many kinds (:mod:`samplegen.marks`), phone photos and
flatbed scans (:mod:`samplegen.capture`). Every source belongs to the TRAINING or the
EVALUATION part of :mod:`samplegen.split`, never both.

The scanner never imports this package."""
