r"""The writer's convention: points stacked as rows (the article's) or as columns.

Papers write vectors as columns as often as rows: ``h = W_0 x + BAx`` (LoRA),
``X\,\mathrm{softmax}(\beta X^\top \xi)`` (the Hopfield update), ``V
\mathrm{softmax}(K^\top Q)``.  In the column convention a point is a column,
and a softmax normalises along the columns.  symrow reads the convention from
the formula's own evidence (or takes it from ``convention=``), and narrates a
column formula in the row view of the article: the whole formula transposed,
each operand read as its transpose (the paper's columns are its rows), so that
``W x`` is read as ``x Wᵀ``, and the softmax along the paper's columns is the
row-wise softmax of the transposed scores.

Evidence, from the products as written:

* a vector name to the right of a matrix (``W x``; a weight vector ``w``, ``\beta``,
  ``\theta`` to the right of data, ``X w``, is how rows write a linear model, and
  says nothing), a transposed vector on the
  left (``x^T W``), a softmax on the right of a product (``V softmax(...)``), a
  vector given a shape of one column: the column convention;
* a vector name on the left of a matrix (``x W``), a softmax on the left of a
  product (``softmax(...) V``), a vector of one row: the row convention.

Evidence for both is refused, with what to give; no evidence is the row view.

>>> from symrow.formula.read import read_latex
>>> f = read_latex(r"h = W_0 x + BAx")
>>> convention_of(f, {})
('column', 'x stands to the right of a matrix (W_0x)', ('right', 'x'))
>>> from symrow.formula.expr import text
>>> [(n, text(e)) for n, e in to_row_view(f).definitions]
[('h', 'xW_0^T + xA^TB^T')]
"""

from __future__ import annotations

import dataclasses
from typing import Mapping

from ..errors import NotSupportedError, OptionError
from ..formula import expr as E
from ..reader import notation as NT

__all__ = ["convention_of", "to_row_view", "CONVENTIONS"]

CONVENTIONS = ("row", "column")


def _lowercase(name: str) -> bool:
    try:
        return NT.parse_name(name).lowercase
    except Exception:          # a name the notation cannot take apart is no vector
        return False


#: the letters of weight vectors: a weight column to the right of a data matrix (X w,
#: X^T X \beta) is how the row convention writes a linear model, no evidence of columns
WEIGHTS = ("w", "\\beta", "\\theta", "\\omega")


def _weight(name: str) -> bool:
    try:
        return NT.parse_name(name).head in WEIGHTS
    except Exception:
        return False


def _edge(expr: E.Expr, side: str) -> E.Expr:
    """The factor at the left (or right) end of a product."""
    while isinstance(expr, E.Product):
        expr = expr.left if side == "left" else expr.right
    while isinstance(expr, E.Scaled):
        expr = expr.arg
    return expr


def convention_of(formula: E.Formula, shapes: Mapping | None) -> tuple:
    """``("column" | "row" | None, why, evidence)``: the convention the formula's products
    show, with the first piece of evidence in words and as ``(kind, name)``.    Evidence for both is an
    :class:`~symrow.errors.OptionError` that says what to give."""
    defined = {n for n, _ in formula.definitions if n}
    vectors = set()
    for _n, e in formula.definitions:
        for node in E.walk(e):
            if isinstance(node, E.Name) and node.name not in defined and _lowercase(node.name):
                vectors.add(node.name)
    found: dict[str, str] = {}
    codes: dict[str, tuple] = {}

    def say(conv: str, why: str, code: str = "", name: str | None = None) -> None:
        found.setdefault(conv, why)
        codes.setdefault(conv, (code, name))

    for name, shape in (shapes or {}).items():
        key = next((v for v in vectors if _loose(v) == _loose(name)), None)
        if key is None or len(shape) != 2:
            continue
        rows, cols = shape
        if cols == 1 and rows != 1 and not _weight(key):
            say("column", f"{key} is given one column ({rows} x 1)", "shape", key)
        elif rows == 1 and cols != 1:
            say("row", f"{key} is given one row (1 x {cols})")
    for _n, e in formula.definitions:
        for node in E.walk(e):
            if not isinstance(node, E.Product):
                continue
            left, right = _edge(node.left, "right"), _edge(node.right, "left")
            shown = E.text(node)
            rv = right.arg if isinstance(right, E.Transpose) else right
            if isinstance(left, E.Ones) and isinstance(right, E.Name) and right.name in vectors:
                # 1 b: the row b repeated once for each point
                say("row", f"{right.name} is a row repeated by a column of ones ({shown})")
                continue
            if isinstance(right, E.Transpose) and isinstance(rv, E.Ones):
                if isinstance(left, E.Name) and left.name in vectors:
                    # b 1^T: the column b repeated once for each point
                    say("column", f"{left.name} is a column repeated by a row of ones "
                        f"({shown})", "right", left.name)
                continue
            if isinstance(right, E.Name) and right.name in vectors and not _weight(right.name):
                say("column", f"{right.name} stands to the right of a matrix ({shown})",
                    "right", right.name)
            if isinstance(left, E.Transpose) and isinstance(left.arg, E.Name) and \
                    left.arg.name in vectors:
                say("column", f"{left.arg.name} is transposed on the left ({shown})",
                    "left", left.arg.name)
            if isinstance(left, E.Name) and left.name in vectors and not (
                    isinstance(rv, E.Name) and rv.name in vectors):
                say("row", f"{left.name} stands to the left of a matrix ({shown})")
            if isinstance(node.right, E.Softmax):
                say("column", f"a softmax is the right factor of {shown}", "softmax")
            if isinstance(node.left, E.Softmax):
                say("row", f"a softmax is the left factor of {shown}")
    if len(found) > 1:
        raise OptionError(f"the formula shows both conventions: {found['column']} (points "
                          f"as columns), but {found['row']} (points as rows); say which it "
                          f"is written in with convention='row' or 'column' (--convention)")
    if not found:
        return None, "", ("", None)
    (conv, why), = found.items()
    return conv, why, codes[conv]


def _loose(name: str) -> str:
    try:
        return NT.parse_name(name).canonical
    except Exception:
        return name


def _t(expr: E.Expr, flip=frozenset()) -> E.Expr:
    """``expr`` transposed: ``(AB)ᵀ = BᵀAᵀ``, a column softmax the row softmax of the
    transposed scores; a name in ``flip`` (a column vector, or a value the formula
    defines, itself read transposed) stands for its own transpose, its row view."""
    pos = expr.pos
    if isinstance(expr, E.Name):
        return expr if expr.name in flip else E.Transpose(expr, pos=pos)
    if isinstance(expr, E.Identity):
        return expr
    if isinstance(expr, E.Ones):      # a column of ones is, in the row view, a row
        return E.Transpose(expr, pos=pos)
    if isinstance(expr, E.Transpose):
        inner = _t(expr.arg, flip)
        return inner.arg if isinstance(inner, E.Transpose) else E.Transpose(inner, pos=pos)
    if isinstance(expr, E.Product):
        # A B x is read x Bᵀ... from the left: the point first, as the row view reads it
        factors = []

        def flat(e):
            if isinstance(e, E.Product):
                flat(e.left)
                flat(e.right)
            else:
                factors.append(e)
        flat(expr)
        out = None
        for f in reversed(factors):
            f = _t(f, flip)
            out = f if out is None else E.Product(out, f, pos=pos)
        return out
    if isinstance(expr, E.Scaled):
        return dataclasses.replace(expr, arg=_t(expr.arg, flip))
    if isinstance(expr, E.Sum):
        return dataclasses.replace(expr, terms=tuple(_t(t, flip) for t in expr.terms))
    if isinstance(expr, E.Hadamard):
        return E.Hadamard(_t(expr.left, flip), _t(expr.right, flip), pos=pos)
    if isinstance(expr, (E.Softmax, E.Apply, E.Power)):
        return dataclasses.replace(expr, arg=_t(expr.arg, flip))
    if isinstance(expr, E.Concat):
        # a paper's concatenation joins the coordinates of its points, whichever way
        # they are stacked: in the row view the blocks stand side by side
        # ([s; h], the paper's columns one on top of the other, is the same concatenation)
        return dataclasses.replace(expr, parts=tuple(_t(p, flip) for p in expr.parts),
                                   stacked=False)
    if isinstance(expr, E.Call):
        from .readings import READINGS
        from .readings.base import ROWWISE
        cls = READINGS.get(expr.func)
        if cls is not None and cls.kind == ROWWISE:
            return dataclasses.replace(expr, args=tuple(_t(a, flip) for a in expr.args))
        raise NotSupportedError(f"{E.text(expr)} in a formula whose points are columns is "
                                f"not supported yet; write the formula with its points as "
                                f"rows (convention='row')")
    raise NotSupportedError(f"{type(expr).__name__} in the column convention is not "
                            f"supported yet")


def to_row_view(formula: E.Formula, shapes: Mapping | None = None) -> E.Formula:
    """The formula transposed, definition by definition: each value ``S`` of the
    paper's is read as ``Sᵀ``, each operand as its row view."""
    defined = {n for n, _ in formula.definitions if n}
    vectors = column_vectors(formula, shapes)
    flip = frozenset(defined | set(vectors))
    defs = tuple((name, _t(e, flip)) for name, e in formula.definitions)
    return dataclasses.replace(formula, definitions=defs, vectors=vectors)


def column_vectors(formula: E.Formula, shapes: Mapping | None = None) -> tuple:
    """The operands a column formula writes as vectors (lowercase names, and any name
    given one column, such as an SSM's B_t): each one point, read as a row."""
    defined = {n for n, _ in formula.definitions if n}
    columns = {_loose(n) for n, shape in (shapes or {}).items()
               if len(shape) == 2 and shape[1] == 1 and shape[0] != 1}
    return tuple(sorted({e.name for _n, x in formula.definitions for e in E.walk(x)
                         if isinstance(e, E.Name) and e.name not in defined
                         and (_lowercase(e.name) or _loose(e.name) in columns)}))
