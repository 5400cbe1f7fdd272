"""Printable pulka sheets: the geometry as data (:mod:`forms.layout`) and its rendering."""
