"""The entry-level grammar: one side of a claim, read into a unit a parser can take.

A hand derivation writes entries, sums and cases as well as whole matrices
(``c_{ij} = \\sum_k a_{ik} b_{kj}``, ``\\begin{cases} ... \\end{cases}``,
``a_{11} b_{11} + \\cdots + a_{1\\ell} b_{\\ell 1}``).  This package reads one
side of such a claim, in the names of a target derivation:

* :mod:`.translate` walks the tokens and writes the small placeholder language,
  with the help of :mod:`.names` (names, rows and entries), :mod:`.constructs`
  (functions, sums, fractions, matrices), :mod:`.layouts` (``cases``, ``\\max``,
  ``\\min``), :mod:`.patterns` (elided middles) and :mod:`.indices` (index
  arithmetic); :mod:`.units` holds the units and their placeholders;
* :mod:`.gradients` rewrites ``\\partial L / \\partial X``, ``\\nabla_X L`` and
  ``G_X`` into the bar names of a backward derivation before that;
* :mod:`.uses` lists where a page writes its names (the lone argument of a function,
  ``softmax(x)``, or elsewhere) and the sums up to a letter of its own, for the
  checker to tell the page's own name for an input;
* :mod:`.parse` reads the placeholder language into an unevaluated SymPy tree,
  with latex2sympy2 or with the built-in parser :mod:`.flatparse`.

The target (the checker's ``Reference``) is a parameter: nothing here imports
the checker.  Evaluating the trees is :mod:`symrow.formula.entries`' work.
"""
