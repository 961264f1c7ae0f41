r"""Elided middles: ``a_{i1} b_1 + a_{i2} b_2 + \cdots + a_{i\ell} b_\ell`` and ⋯ ⋮ ⋱ matrices.

The terms written around the dots show a pattern: they agree everywhere
except in some indices, which count up from the first term (1, 2, ...) to
the last one (ℓ).  The checker reads the pattern as a *template* (the first
term with those indices replaced by a counter κ) and its range, and
evaluates the sum, or the matrix, at the sizes being checked:

* the terms written out are taken as written, at the place their indices
  give them (a wrong one makes the step wrong);
* the template fills every place in between.

A general matrix is read the same way in two directions: rows before and
after ``\vdots``, columns before and after ``\cdots``.  When the terms do
not follow one pattern (the indices do not count up, or the last term does
not fit), the dots cannot be read, and the step is unreadable with the
reason.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.entries.translate import translate_text
>>> from symrow.reader.entries.parse import parse_unit
>>> from symrow.formula.entries import Evaluator
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)))
>>> unit = translate_text(r"a_{11} b_{11} + a_{12} b_{21} + \cdots + a_{1\ell} b_{\ell 1}", ref)
>>> parse_unit(unit, {})
>>> Evaluator(ref).value(unit, {})
a_{11}*b_{11} + a_{12}*b_{21} + a_{13}*b_{31}
"""

from __future__ import annotations

import dataclasses

from .. import vocab as V
from .indices import IndexExpr
from ..lexer import Token
from .units import NESTED, Atom, Cursor, Emitter, TranslateError, is_token, plain

__all__ = ["PatternReader", "is_dots", "DOTS"]

DOTS = {"\\cdots", "\\dots", "\\ldots", "\\dotsb", "\\dotsc", "\\dotsm", "\\dotsi"}
VDOTS = {"\\vdots"}
DDOTS = {"\\ddots", "\\iddots", "\\adots"}
ALL_DOTS = DOTS | VDOTS | DDOTS


def is_dots(nodes: list, kinds=ALL_DOTS) -> bool:
    """Is this cell (or term) just an ellipsis?"""
    content = [n for n in nodes if not is_token(n, *V.SPACING)]
    return len(content) == 1 and is_token(content[0], *kinds)


# -- index arithmetic in canonical form -----------------------------------------------

def _canon(item) -> tuple:
    if isinstance(item, int):
        return (item, ())
    if isinstance(item, str):
        return (0, ((item, 1),))
    return (item.const, tuple(sorted(item.terms)))


def _item(const: int, terms) -> object:
    terms = tuple((n, c) for n, c in terms if c)
    if not terms:
        return const
    if const == 0 and len(terms) == 1 and terms[0][1] == 1:
        return terms[0][0]
    return IndexExpr(terms, const)


def _plus(item, by: int):
    const, terms = _canon(item)
    return _item(const + by, terms)


class Mismatch(Exception):
    pass


_VARYING = ("entry", "row")


def _align(u, v, path: tuple, out: list) -> None:
    """Walk two units in parallel; record where their index items differ."""
    if u.text != v.text or set(u.atoms) != set(v.atoms):
        raise Mismatch
    for letter in sorted(u.atoms):
        a, b = u.atoms[letter], v.atoms[letter]
        if a.kind != b.kind or a.name != b.name or len(a.items) != len(b.items):
            raise Mismatch
        here = path + (letter,)
        if a.kind in _VARYING or (a.kind == "marker" and a.name in _VARYING):
            for k, (x, y) in enumerate(zip(a.items, b.items)):
                if _canon(x) != _canon(y):
                    out.append((here, k, x, y))
        elif a.items != b.items:
            raise Mismatch
        if a.kind in NESTED:
            if len(a.cells) != len(b.cells):
                raise Mismatch
            for r, (ra, rb) in enumerate(zip(a.cells, b.cells)):
                if len(ra) != len(rb):
                    raise Mismatch
                for c, (ca, cb) in enumerate(zip(ra, rb)):
                    if (ca is None) != (cb is None):
                        raise Mismatch
                    if ca is not None:
                        _align(ca, cb, here + (r, c), out)


def _rewrite(unit, path: tuple, repl: dict):
    atoms = {}
    for letter, a in unit.atoms.items():
        here = path + (letter,)
        items = a.items
        if any((here, k) in repl for k in range(len(items))):
            items = tuple(repl.get((here, k), x) for k, x in enumerate(items))
        cells = a.cells
        if a.kind in NESTED:
            cells = tuple(tuple(None if c is None else _rewrite(c, here + (r, k), repl)
                                for k, c in enumerate(row)) for r, row in enumerate(cells))
        atoms[letter] = dataclasses.replace(a, items=items, cells=cells)
    return dataclasses.replace(unit, atoms=atoms, tree=None)


def _sites(first, last) -> list:
    out: list = []
    _align(first, last, (), out)
    return out


def _direction(first, last, kappa: str, what: str, pos: int, end: int):
    """How the index counts from ``first`` to ``last``: (replacements, start, end item)."""
    try:
        sites = _sites(first, last)
    except Mismatch:
        raise TranslateError(f"cannot tell what the dots stand for: the {what} before them "
                             f"and the {what} after them do not have the same form", pos,
                             end) from None
    if not sites:
        raise TranslateError(f"cannot tell what the dots stand for: the {what} before and "
                             f"after them are the same, no index counts up", pos, end)
    starts = [x for _, _, x, _ in sites]
    if not all(isinstance(x, int) for x in starts):
        raise TranslateError(f"cannot tell what the dots stand for: the first {what} should "
                             f"have numbers where the last has letters, as in a_1 + \\cdots "
                             f"+ a_n", pos, end)
    start = starts[0]
    ends = set()
    repl = {}
    for path, k, x, y in sites:
        offset = x - start
        repl[(path, k)] = _item(offset, ((kappa, 1),))
        ends.add(_canon(_plus(y, -offset)))
    if len(ends) != 1:
        raise TranslateError(f"cannot tell what the dots stand for: the indices of the last "
                             f"{what} do not end at one common value", pos, end)
    const, terms = ends.pop()
    return repl, start, _item(const, terms)


class PatternReader:
    """Mixin of the translator: sums and matrices with an elided middle."""

    def _kappa(self, tag: str) -> str:
        return f"#{tag}{self._depth}"

    # -- sums --------------------------------------------------------------------------
    @staticmethod
    def _has_dots(cur: Cursor, stop) -> bool:
        """Dots at this level: those inside brackets ((x_1, \\cdots, x_n), a row) are read
        with what the brackets hold."""
        depth = 0
        for k in range(cur.i, len(cur.nodes)):
            node = cur.nodes[k]
            if stop is not None and isinstance(node, Token) and node.text in stop:
                return False
            if isinstance(node, Token) and node.text in ("(", "[", "\\left", "\\langle"):
                depth += 1
            elif isinstance(node, Token) and node.text in (")", "]", "\\right", "\\rangle"):
                depth -= 1
            elif depth == 0 and is_token(node, *DOTS):
                return True
        return False

    def _elided_sum(self, cur: Cursor, em: Emitter, stop) -> None:
        """``t_1 + t_2 + \\cdots + t_N`` (with other terms around it)."""
        nodes = []
        while not cur.at_end():
            node = cur.peek()
            if stop is not None and isinstance(node, Token) and node.text in stop:
                break
            nodes.append(cur.take())
        terms: list[tuple[str, list]] = []
        sign, current, depth = "+", [], 0
        for node in nodes:
            if isinstance(node, Token) and node.text in ("(", "[", "\\left", "\\langle"):
                depth += 1
            elif isinstance(node, Token) and node.text in (")", "]", "\\right", "\\rangle"):
                depth -= 1
            if depth == 0 and is_token(node, "+", "-"):
                if current:
                    terms.append((sign, current))
                elif terms or node.text == "+":
                    if not (not terms and node.text in "+-"):
                        raise TranslateError(f"'{node.text}' needs something on its left",
                                             node.pos, node.end)
                sign, current = node.text, []
                continue
            if not is_token(node, *V.SPACING):
                current.append(node)
        if not current:
            last = nodes[-1] if nodes else None
            if last is not None:
                raise TranslateError(f"'{last.text}' needs something on its right", last.pos,
                                     last.end)
        terms.append((sign, current))
        dots = [k for k, (_, t) in enumerate(terms) if is_dots(t, DOTS)]
        for k, (_, t) in enumerate(terms):
            if k not in dots and any(is_token(n, *ALL_DOTS) for n in t):
                bad = next(n for n in t if is_token(n, *ALL_DOTS))
                raise TranslateError("dots inside a term: write the sum as a_1 + a_2 + "
                                     "\\cdots + a_n", bad.pos, bad.end)
        units = {k: self._term_unit(t) for k, (_, t) in enumerate(terms) if k not in dots}
        used: set = set()
        first_piece = True
        k = 0
        while k < len(terms):
            if k + 1 < len(terms) and (k + 1) in dots:
                pass
            if k in dots:
                raise TranslateError("\\cdots needs a term before it, as in a_1 + \\cdots + "
                                     "a_n", terms[k][1][0].pos, terms[k][1][0].end)
            # a run of terms that ends right before a dots term?
            run_end = next((j for j in range(k, len(terms)) if j + 1 < len(terms) and
                            (j + 1) in dots), None)
            if run_end is None or any(j in dots for j in range(k, run_end + 1)):
                self._emit_term(terms[k][0], units[k], terms[k][1], em, first_piece)
                first_piece = False
                k += 1
                continue
            d = run_end + 1
            if d + 1 >= len(terms) or (d + 1) in dots:
                tok = terms[d][1][0]
                raise TranslateError("\\cdots needs a last term after it, as in a_1 + \\cdots "
                                     "+ a_n", tok.pos, tok.end)
            last = d + 1
            # the explicit terms of the pattern: the longest run before the dots, at most
            # three, whose terms have the form of the last one
            start = run_end
            while start - 1 >= k and run_end - (start - 1) < 3 and \
                    terms[start - 1][0] == "+" and self._same_form(units[start - 1],
                                                                   units[last]):
                start -= 1
            for j in range(k, start):
                self._emit_term(terms[j][0], units[j], terms[j][1], em, first_piece)
                first_piece = False
            if terms[last][0] != "+" or terms[d][0] != "+":
                tok = terms[d][1][0]
                raise TranslateError("write an elided sum with plus signs: a_1 + \\cdots + a_n",
                                     tok.pos, tok.end)
            samples = [units[j] for j in range(start, run_end + 1)]
            pos, end = terms[start][1][0].pos, terms[last][1][-1].end
            kappa = self._kappa("s")
            repl, begin, finish = _direction(samples[0], units[last], kappa, "term", pos, end)
            template = _rewrite(samples[0], (), repl)
            values = tuple(begin + n for n in range(len(samples))) + (finish,)
            atom = Atom("elided", kappa, ((kappa, values),),
                        cells=((template,),) + tuple((u,) for u in samples) +
                        ((units[last],),), ident=next(self._ids))
            if terms[start][0] == "-":
                em.put("-", pos, pos + 1)
            elif not first_piece:
                em.put("+", pos, pos + 1)
            em.atom(atom, pos, end)
            first_piece = False
            used.update(range(start, last + 1))
            k = last + 1

    def _term_unit(self, nodes: list):
        self._depth += 1
        try:
            sub = Emitter()
            self._expr(Cursor(nodes, nodes[0].pos, nodes[-1].end), sub, stop=None)
            return sub.unit(nodes[0].pos, nodes[-1].end)
        finally:
            self._depth -= 1

    @staticmethod
    def _same_form(u, v) -> bool:
        try:
            _sites(u, v)
            return True
        except Mismatch:
            return False

    def _emit_term(self, sign: str, unit, nodes: list, em: Emitter, first: bool) -> None:
        pos, end = nodes[0].pos, nodes[-1].end
        if sign == "-":
            em.put("-", pos, end)
        elif not first:
            em.put("+", pos, end)
        em.atom(Atom("sub", cells=((unit,),), ident=next(self._ids)), pos, end)

    # -- matrices ----------------------------------------------------------------------------
    def _pattern_matrix(self, env, rows: list, em: Emitter, cur: Cursor) -> bool:
        """A matrix with ⋯ ⋮ ⋱; False if it has none."""
        if not any(is_dots(cell) for row in rows for cell in row):
            return False
        width = len(rows[0])
        dot_rows = [r for r, row in enumerate(rows) if all(is_dots(c) for c in row)]
        if len(dot_rows) > 1:
            raise TranslateError("more than one row of \\vdots in this matrix", env.pos,
                                 env.begin.end)
        plain_rows = [r for r in range(len(rows)) if r not in dot_rows]
        dot_cols = [c for c in range(width) if all(len(rows[r]) > c and is_dots(rows[r][c])
                                                   for r in plain_rows)]
        if len(dot_cols) > 1:
            raise TranslateError("more than one column of \\cdots in this matrix", env.pos,
                                 env.begin.end)
        for r in plain_rows:
            for c in range(width):
                if c not in dot_cols and is_dots(rows[r][c]):
                    raise TranslateError(f"dots at entry ({r + 1}, {c + 1}) of this matrix, "
                                         f"outside a row of \\vdots or a column of \\cdots",
                                         env.pos, env.begin.end)
        cols = [c for c in range(width) if c not in dot_cols]
        grid = [[self._cell_unit(rows[r][c], env, r, c) for c in cols] for r in plain_rows]
        pos, end = env.pos, env.end
        rspec = cspec = None
        templates: list = []
        trailing = None          # the last row's place, when \vdots ends the matrix
        if dot_rows:
            cut = sum(1 for r in plain_rows if r < dot_rows[0])
            if cut == len(plain_rows) and cut >= 2:
                trailing = self._rows_under(cur)
            if trailing is None and (cut == 0 or cut == len(plain_rows)):
                raise TranslateError("\\vdots needs rows before and after it (at the end of "
                                     "a matrix, two rows before it and the shape under it, "
                                     "as in \\end{bmatrix}_{m \\times n})", pos,
                                     env.begin.end)
        if dot_cols:
            ccut = sum(1 for c in cols if c < dot_cols[0])
            if ccut == 0 or ccut == len(cols):
                raise TranslateError("\\cdots needs entries before and after it", pos,
                                     env.begin.end)
        if self._constant_run(rows, plain_rows, cols, dot_rows, dot_cols, env, em, cur):
            return True
        kr, kc = self._kappa("r"), self._kappa("c")
        below = 1 if trailing is not None else -1     # the row the pattern is read to
        if dot_rows and dot_cols:
            rrepl, r0, rend = _direction(grid[0][0], grid[below][0], kr, "row", pos, end)
            crepl, c0, cend = _direction(grid[0][0], grid[0][-1], kc, "column", pos, end)
            if set(rrepl) & set(crepl):
                raise TranslateError("cannot tell what the dots stand for: one index counts "
                                     "both down the rows and along the columns", pos, end)
            templates = [_rewrite(grid[0][0], (), {**rrepl, **crepl})]
            rspec = _row_spec(kr, r0, cut, len(plain_rows) - cut, rend, trailing, pos, end)
            cspec = (kc, _positions(c0, ccut, len(cols) - ccut, cend))
        elif dot_rows:
            starts, ends = set(), set()
            for c in range(len(cols)):
                repl, r0, rend = _direction(grid[0][c], grid[below][c], kr, "row", pos, end)
                templates.append(_rewrite(grid[0][c], (), repl))
                starts.add(r0)
                ends.add(_canon(rend))
            if len(starts) != 1 or len(ends) != 1:
                raise TranslateError("cannot tell what the dots stand for: the columns count "
                                     "their rows differently", pos, end)
            const, terms = ends.pop()
            rspec = _row_spec(kr, starts.pop(), cut, len(plain_rows) - cut,
                              _item(const, terms), trailing, pos, end)
        else:
            starts, ends = set(), set()
            for r in range(len(plain_rows)):
                repl, c0, cend = _direction(grid[r][0], grid[r][-1], kc, "column", pos, end)
                templates.append(_rewrite(grid[r][0], (), repl))
                starts.add(c0)
                ends.add(_canon(cend))
            if len(starts) != 1 or len(ends) != 1:
                raise TranslateError("cannot tell what the dots stand for: the rows count "
                                     "their columns differently", pos, end)
            const, terms = ends.pop()
            cspec = (kc, _positions(starts.pop(), ccut, len(cols) - ccut,
                                    _item(const, terms)))
        names = " ".join(spec[0] for spec in (rspec, cspec) if spec is not None)
        atom = Atom("grid", names, (rspec, cspec),
                    cells=(tuple(templates),) + tuple(tuple(row) for row in grid),
                    ident=next(self._ids))
        em.atom(atom, env.pos, env.end)
        self._postfix(cur, em, simple=False)
        return True

    def _constant_run(self, rows, plain_rows, cols, dot_rows, dot_cols, env, em,
                      cur: Cursor) -> bool:
        """``\\begin{pmatrix} 1 & \\cdots & 1 \\end{pmatrix}``: a row (or a column) of
        ones or of zeros, whose length the page leaves to the product it is in, read as
        ``\\mathbf{1}^T`` (``\\mathbf{1}``), sized by what it meets."""
        if dot_rows and dot_cols:
            return False
        if dot_cols and len(plain_rows) == 1:
            cells = [rows[plain_rows[0]][c] for c in cols]
        elif dot_rows and len(cols) == 1:
            cells = [rows[r][cols[0]] for r in plain_rows]
        else:
            return False
        texts = {plain([n for n in cell if not is_token(n, *V.SPACING)]) for cell in cells}
        if len(texts) != 1 or texts.pop() not in ("0", "1"):
            return False
        value = plain([n for n in cells[0] if not is_token(n, *V.SPACING)])
        em.atom(Atom("special", value), env.pos, env.end)
        if dot_cols:
            self._marker(em, "T", (), env.pos, env.end)
        self._postfix(cur, em, simple=False)
        return True

    def _rows_under(self, cur: Cursor):
        """The number of rows in the shape written under a matrix (``]_{m \\times n}``), as
        an index item, or None when no shape follows."""
        script, sub = cur.peek(), cur.peek(1)
        if not is_token(script, "_") or sub is None:
            return None
        nodes = getattr(sub, "children", [sub])
        if not any(is_token(n, "\\times") for n in nodes):
            return None
        (kind, rows), _cols = self._shape_items(nodes, script.pos, sub.end)
        return rows

    def _cell_unit(self, cell: list, env, r: int, c: int):
        content = [n for n in cell if not is_token(n, *V.SPACING)]
        if not content:
            raise TranslateError(f"entry ({r + 1}, {c + 1}) of this matrix is empty", env.pos,
                                 env.begin.end)
        self._depth += 1
        try:
            return self.unit(content, content[0].pos, content[-1].end)
        finally:
            self._depth -= 1


def _row_spec(kappa: str, start: int, before: int, after: int, end_item, trailing,
              pos: int, end: int) -> tuple:
    """The places of a matrix's written rows around its \\vdots (see :func:`_positions`);
    for one that ends in \\vdots (``trailing``, the rows the page writes under it), those
    written from ``start``, then the pattern of the first two (``end_item`` is then the
    second row's place) down to ``trailing``."""
    if trailing is None:
        return (kappa, _positions(start, before, after, end_item))
    if _canon(end_item) != (start + 1, ()):
        raise TranslateError("cannot tell what the dots stand for: the second row before "
                             "\\vdots does not count up by one from the first", pos, end)
    return (kappa, tuple(start + k for k in range(before)), trailing)


def _positions(start: int, before: int, after: int, end) -> tuple:
    """The places of the explicit rows (or columns): start, start+1, ..., then end-k .. end."""
    out = [start + k for k in range(before)]
    out += [_plus(end, -(after - 1 - k)) for k in range(after)]
    return tuple(out)
