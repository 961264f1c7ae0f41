r"""The page's own names: what a writer defines, followed on the lines after it.

Writers name their own intermediates (``Z = XW + b``, ``G = \partial L /
\partial Y``, ``\alpha_{ij} = ...``, ``\text{Score}_{ij} = ...``) and use them
later.  A line that defines a name the derivation does not know is not a
claim to check but a definition to follow: :func:`defined_name` finds the
name (and, for ``\alpha_{ij} = ...`` or ``z_i = ...``, the indices it is
defined over), :func:`defined_value` evaluates its right side in one
reference (entry by entry for an indexed definition), and :func:`bind`
gives the reference a quantity of that name
(:meth:`~symrow.checker.reference.Reference.define`), with its gradient too
when it equals a quantity of the derivation's forward pass (``\bar{Z}`` is
``\bar{Y}`` when Z is Y).

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> from symrow.reader.lexer import Source, build_tree, tokenize
>>> ref = Reference(symrow.explain("XW", {"X": (2, 2), "W": (2, 2)}))
>>> src = Source(r"\alpha_{ij}")
>>> parts, indices, power = defined_name(build_tree(tokenize(src.text), src), src, ref)
>>> parts.canonical, indices, power
('\\alpha_{ij}', ('i', 'j'), 1)
"""

from __future__ import annotations

import dataclasses

import sympy

from ..reader.notation import GREEK_CAPITALS, NameError_, NameParts, is_name_start, \
    parse_name, read_name
from ..reader import vocab as V
from ..reader.lexer import Cursor, Group, Token
from ..reader.entries.superscripts import as_subscript
from ..reader.entries.units import is_token
from .engine import equal_quantity, gradient_of, node_value, plans, unnamed_node
from ..formula.values import MathError, is_matrix

__all__ = ["defined_name", "defined_value", "bind", "equal_quantity", "same_value",
           "free_names", "convention"]


def _canon(name: str) -> str:
    try:
        return parse_name(name).canonical
    except (NameError_, ValueError):
        return name


def defined_name(nodes: list, src, ref, scripts=None):
    """The name a page defines on the left of ``=``: its :class:`NameParts`, the index
    letters of an entry or row definition such as ``\\alpha_{ij}``, and the power it is
    defined by (2 for ``\\sigma_i^2 = ...``, else 1); or None when the left side is not
    one name, or is one the derivation already knows.  ``scripts`` is how the page uses
    superscripts (:mod:`symrow.reader.entries.superscripts`): ``A^{ij}`` is the entry
    ``A_{ij}`` on a page that writes its indices up."""
    nodes = [n for n in nodes if not (isinstance(n, Token) and n.text in V.SPACING)]
    if not nodes or not is_name_start(nodes[0]):
        return None
    cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
    try:
        parts, _, _ = read_name(cur, src)
    except NameError_:
        return None
    if scripts is not None:
        parts = as_subscript(parts, scripts)
    power = _power_after(cur)
    if power is None or not cur.at_end() or parts.grad is not None:
        return None
    if power != 1:
        # \sigma_i^2 = ...: the page defines sigma_i by its square
        got = defined_name(nodes[:cur.i - 2], src, ref)
        return None if got is None else (got[0], got[1], power)
    if parts.accent == "bar" and getattr(ref.derivation, "kind", None) == "backward":
        return None                # a gradient, written \bar{Z}: a claim, never a name
    known = {_canon(n) for n in ref.quantities} - free_names(ref)
    sub = (parts.sub or "").replace(",", "")
    if parts.sub is not None and 1 <= len(sub) <= 2 and sub.isalpha() and sub.islower() \
            and sub not in ref.sizes:
        bare = dataclasses.replace(parts, sub=None, font=None)
        letter = dataclasses.replace(bare, sup=None).canonical
        if bare.canonical in known or (letter, parts.sup or "") in ref.by_letter:
            return None            # an entry or row of a matrix the derivation has
        if len(letter) == 1 and dataclasses.replace(bare, head=letter.upper()).canonical \
                in known:
            return None
        return parts, tuple(sub), 1
    name = dataclasses.replace(parts, font=None).canonical
    if name in known or (parts.lowercase and parts.sub is None and parts.head in ref.sizes):
        return None
    if parts.lowercase and parts.sub is None and parts.font in V.BOLD:
        q = ref.by_letter.get((dataclasses.replace(parts, font=None, sup=None).canonical,
                               parts.sup or ""))
        if q is not None and q.rows == 1:
            return None            # \boldsymbol{x} = (1, 2) of a 1 x n X: its one row
    if parts.sub is not None and parts.sub.isascii() and \
            dataclasses.replace(parts, sub=None, font=None).canonical in known:
        return None                # P_{12}, Q_1: an entry or row of a known matrix
    if parts.lowercase and parts.sub is not None and (
            dataclasses.replace(parts, sub=None, sup=None, font=None).canonical,
            parts.sup or "") in ref.by_letter:
        return None                # q_{12}, b_1: an entry or row of a known matrix
    if parts.head == "I" and parts.accent is None:
        return None                # the identity
    if parts.head == "e" and parts.sub is None and parts.sup is None:
        return None                # Euler's number
    return parts, (), 1


def _power_after(cur) -> int | None:
    """A whole power written after a defined name (``^2``, ``^{2}``): its exponent; 1
    when nothing follows; None when something else does."""
    if cur.at_end():
        return 1
    if not is_token(cur.peek(), "^"):
        return None
    cur.take()
    node = cur.take()
    if isinstance(node, Group) and len(node.children) == 1:
        node = node.children[0]
    if isinstance(node, Token) and node.kind == "num" and node.text.isdigit() and \
            int(node.text) >= 2 and cur.at_end():
        return int(node.text)
    return None


def free_names(ref) -> set:
    """The names the derivation chose itself for values nobody named (``G`` for a
    softmax's backward pass, ``H`` for an unnamed product): a page that defines one
    means a quantity of its own, not symrow's.  Names the formula writes (its operands,
    definitions and result) and gradients are never free."""
    got = ref.__dict__.get("_free_names")
    if got is not None:
        return got
    from ..derive.plan import FREE_LETTERS
    written: set = set()
    named: set = set()
    for plan in plans(getattr(ref, "derivation", None)):
        written |= {name for name, _ in plan.formula.definitions if name}
        written.add(plan.result.name)
        for node in plan.nodes:
            if node.reading == "operand":
                written.add(node.name)
            elif node.named:
                named.add(node.name)
    got = {n for n in named - written if n in FREE_LETTERS and n in ref.quantities}
    ref.__dict__["_free_names"] = got
    return got


def known_quantity(parts: NameParts, ref):
    """The quantity of the derivation a left side names, and the index letters it is
    written with: ``S`` -> ("S", ()), ``S_{ij}`` or ``s_{ij}`` -> ("S", ("i", "j")),
    ``\\boldsymbol{s}_i`` -> ("S", ("i",)); None for anything else."""
    plain = dataclasses.replace(parts, font=None)
    if plain.canonical in ref.quantities:
        return plain.canonical, ()
    sub = (parts.sub or "").replace(",", "")
    if parts.sub is None or not (1 <= len(sub) <= 2 and sub.isalpha() and sub.islower()) \
            or sub in ref.sizes:
        return None
    bare = dataclasses.replace(parts, sub=None, font=None)
    if bare.canonical in ref.quantities and not parts.lowercase:
        return bare.canonical, tuple(sub)
    q = ref.by_letter.get((dataclasses.replace(bare, sup=None).canonical, parts.sup or ""))
    if q is not None and parts.lowercase:
        return q.name, tuple(sub)
    return None


def defined_value(evaluator, unit, ref, indices: tuple):
    """The value a definition gives: a matrix; for ``z_{ij} = ...`` its entries over the
    ranges of i and j, for ``z_i = ...`` its rows.  None when the right side does not
    give one (it uses other free indices, or cannot be evaluated)."""
    from ..formula.entries import step_ranges
    try:
        if not indices:
            value = evaluator.value(unit, {})
            if not is_matrix(value):
                if not isinstance(value, sympy.Expr):
                    return None
                value = sympy.ImmutableMatrix([[value]])
            return sympy.ImmutableMatrix(value)
        bounds = step_ranges(unit, unit, ref)
        if set(bounds) != set(indices):
            return None
        if len(indices) == 1:
            rows = []
            for i in range(1, bounds[indices[0]] + 1):
                row = evaluator.value(unit, {indices[0]: i})
                row = row if is_matrix(row) else sympy.ImmutableMatrix([[row]])
                if row.rows != 1 and row.cols == 1:
                    row = row.T
                rows.append(row)
            if len({r.shape for r in rows}) != 1 or rows[0].rows != 1:
                return None
            return sympy.ImmutableMatrix.vstack(*rows)
        a, b = indices
        cells = [[evaluator.value(unit, {a: i, b: j}) for j in range(1, bounds[b] + 1)]
                 for i in range(1, bounds[a] + 1)]
        if any(is_matrix(c) for row in cells for c in row):
            return None
        return sympy.ImmutableMatrix(cells)
    except (MathError, ArithmeticError, ValueError, TypeError):
        return None


def _entry_seq(letter: str, tag: str, shape):
    """The vector sequence of a matrix the page defines by its entries (``\\alpha_{ij}``):
    a capital whose entries print as the page writes them, or None."""
    from ..seq import VecSeq
    capital = {v: k for k, v in GREEK_CAPITALS.items()}.get(letter)
    head = capital or (letter.upper() if len(letter) == 1 and letter.isalpha() else None)
    if head is None:
        return None
    seq = VecSeq(NameParts(head, sup=tag or None).canonical, shape[0], shape[1])
    return seq if seq.entry_letter == letter else None


def bind(ref, parts: NameParts, indices: tuple, value):
    """Give the page's name its value in ``ref`` (and its gradient, when it equals a
    quantity that has one); returns the new quantity."""
    bare = dataclasses.replace(parts, sub=None, font=None)
    if indices and not bare.lowercase:
        q = ref.define(bare.canonical, value)         # A_{ij} = ...: the matrix A
    elif indices:
        letter = dataclasses.replace(bare, sup=None).canonical
        seq = _entry_seq(letter, parts.sup or "", value.shape)
        name = seq.name if seq is not None else bare.canonical
        q = ref.define(name, value, letter=letter, tag=parts.sup or "", seq=seq)
    else:
        number = value.shape == (1, 1) and not bare.lowercase
        before = ref.by_letter.copy() if number else None
        q = ref.define(dataclasses.replace(parts, font=None).canonical, value)
        if number and ref.by_letter.get((q.letter, q.tag)) is q:
            # a number the page names (Y = \sum_j e^{x_j}) has no rows or entries: y_i is
            # not an entry of it (the page's y_i is something else, or nothing known)
            old = before.get((q.letter, q.tag))
            if old is None:
                del ref.by_letter[(q.letter, q.tag)]
            else:
                ref.by_letter[(q.letter, q.tag)] = old
    backward = getattr(ref.derivation, "kind", None) == "backward"
    mine = None
    if not indices and backward:
        mine = dataclasses.replace(parts, font=None).gradient().canonical
    elif indices and not bare.lowercase and backward:
        # A_{ij} = ...: the matrix A, whose gradient \bar{A} is the page's too
        try:
            mine = parse_name(q.name).gradient().canonical
        except (NameError_, ValueError):
            mine = None
    if mine is not None and mine not in ref.quantities:
        grad = gradient_of(ref, q)
        if grad is not None:
            ref.define(mine, grad)
    same = equal_quantity(ref, q)
    if same is not None:
        # the page's A is the derivation's P: a derivative by a_{mn} is one by the entry
        # the derivation writes p_{mn} (see symrow.formula.entries, _derivative)
        other = ref.quantities[same]
        ref.twins = {**getattr(ref, "twins", {}),
                     **{mine_: theirs for mine_, theirs in zip(q.symbols, other.symbols)
                        if isinstance(mine_, sympy.Symbol) and
                        isinstance(theirs, sympy.Symbol)}}
    return q


def same_value(ref, q) -> str:
    """What the page's quantity ``q`` is in the derivation: a quantity (``Y of the
    derivation``), or a value the formula computes without naming it (``the value XW_1 +
    b_1 in the formula``); '' when neither."""
    same = equal_quantity(ref, q)
    if same is not None:
        return f"{same} of the derivation"
    from ..formula.expr import text
    plan = getattr(getattr(ref.derivation, "forward", None), "plan", None) or \
        getattr(ref.derivation, "plan", None)
    if plan is None or not plan.concrete:
        return ""
    node = unnamed_node(ref, plan, q.ground)
    return "" if node is None else f"the value {text(node.expr)} in the formula"


def convention(ref, name: str, value):
    """The page defines a quantity the derivation has with another value: is it a
    convention of the page's (the scores S taken after their scaling, S = QK^T/√d, where
    symrow scales inside the softmax)?  When it is the value of a reading that only
    rescales or masks the quantity: that value's text, and the quantity's own (``S/√d``,
    ``QK^T``); else None."""
    from ..formula.expr import text
    target = ref.quantities.get(name)
    if target is None:
        return None
    ground = ref.ground(sympy.ImmutableMatrix(value))
    for plan in plans(ref.derivation):
        if not plan.concrete:
            continue
        node = next((n for n in plan.nodes if n.named and n.name == name), None)
        mine = text(node.expr) if node is not None and node.expr is not None else name
        cache: dict = {}
        while node is not None:
            consumers = [c for c in plan.nodes if any(i is node for i in c.inputs)]
            if len(consumers) != 1 or consumers[0].reading not in ("scale", "mask"):
                break
            node = consumers[0]
            got = node_value(ref, plan, node, cache)
            if got.shape == ground.shape and (got == ground or (got - ground).expand() ==
                                              sympy.zeros(*ground.shape)):
                return (text(node.expr) if node.expr is not None else node.label()), mine
    return None
