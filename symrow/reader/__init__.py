"""The one LaTeX reader: tokens with positions, nested into groups and environments.

Both the formula reader (:mod:`symrow.formula.read`) and the checker
(:mod:`symrow.checker`) start here, so an error in either points at the same
line and column, and both know the same spellings of transposes, fonts and
spacing (:mod:`.vocab`).  :mod:`.entries` reads the entry level a hand
derivation writes (indices, sums, cases, elisions) for the checker.
"""
