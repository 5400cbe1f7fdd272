"""Stages 1-5 of reading a page image: load, register, quality, identify, cut cells, marks."""
