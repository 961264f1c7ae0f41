"""Formulas: matrix expressions as a lecturer writes them, read from LaTeX or SymPy.

:mod:`.expr` holds the tree, :mod:`.read` reads it, :mod:`.shapes` infers
the sizes of every matrix in it.
"""
