"""Formulas: matrix expressions as a lecturer writes them, read from LaTeX or SymPy.

:mod:`.expr` holds the tree, :mod:`.read` reads it, :mod:`.shapes` infers
the sizes of every matrix in it, :mod:`.evaluate` gives its value by the
readings.  :mod:`.entries` evaluates the entries a hand derivation writes (as
:mod:`symrow.reader.entries` reads them), with the helpers of :mod:`.values`.
"""
