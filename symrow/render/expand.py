"""How much of a written-out expansion a rendering shows: ``expand=``.

Some displays repeat one pattern over many indices: the full expansion of
attention (``o_1``, ``o_2``, ... and ``o_11``, ``o_12``, ...), and a matrix
of named entries too wide for the line, which is shown entry by entry
(``p_11 = ...``, ``p_12 = ...``).  A reader needs one of them written out;
the rest only says the same thing again with other indices.

* ``"all"``: every equation, as the derivation holds them;
* ``"one"``: the first equation of each such display in full, then a
  sentence that names the others and says they follow the same pattern;
  and a matrix whose entries all follow one rule, where the derivation
  gives that rule as a general row or entry (a step's ``params["short"]``:
  row ``i`` of ``S / sqrt(d)``, ``s_ij = q_i1 k_j1 + q_i2 k_j2``), shows the
  rule instead of the matrix;
* ``"none"``: as ``"one"``, but the full expansion and the entry-by-entry
  displays are left out;
* ``None`` (the default): ``"one"`` when some display would write out more
  than :data:`AUTO_EQUATIONS` equations of one pattern, else ``"all"``.

A shortened rendering makes no claim the derivation does not: every
equation it shows is one the full rendering shows too, or a general row or
entry that holds for every index (the checker reads and checks these like
any other line).  ``.result`` and ``.quantities`` are the derivation's and
do not depend on it.

>>> import symrow
>>> d = symrow.attention(3, 3, 2)
>>> short = d.to_markdown(expand="one")
>>> "o_{12} &=" in short, "o_{11} &=" in short
(False, True)
>>> "o_{12} &=" in d.to_markdown(expand="all")
True
"""

from __future__ import annotations

from .. import nodes as N
from ..errors import OptionError
from ..steps import Step

__all__ = ["EXPANDS", "AUTO_EQUATIONS", "LISTED", "check_expand", "resolve", "expanded_steps",
           "blocks"]

#: the values of ``expand=`` (``None`` chooses, see :func:`resolve`)
EXPANDS = ("all", "one", "none")
#: by default, a derivation with a display of more equations of one pattern
#: than this is shown with ``expand="one"``
AUTO_EQUATIONS = 4
#: a list of the other equations longer than this is cut with an ellipsis
LISTED = 8

#: the steps of a full expansion (and the heading topic of its section)
_EXPANSION = ("expand_rows", "expand_entries")


def check_expand(expand) -> str | None:
    """Validate ``expand=``: one of :data:`EXPANDS`, or None for the default."""
    if expand is None or expand in EXPANDS:
        return expand
    raise OptionError(f"expand= must be one of {', '.join(map(repr, EXPANDS))} (or None for "
                      f"the default); got {expand!r}")


def blocks(steps, walls) -> list:
    """(step index, number of equations) of each display that repeats a pattern:
    a full expansion, or a matrix written entry by entry (``walls(node)`` gives
    those of a display, as the renderer lays it out)."""
    out = []
    for k, step in enumerate(steps):
        node = step.display
        if node is None:
            continue
        if isinstance(node, N.SoftmaxExpansion):
            out.append((k, len(node.eqs)))
            continue
        for wall in walls(node):
            out.append((k, len(_pairs(wall))))
    return out


def resolve(expand, steps, walls) -> str:
    """``expand=`` as it applies to these steps: None becomes ``"one"`` when some
    display has more than :data:`AUTO_EQUATIONS` equations of one pattern."""
    expand = check_expand(expand)
    if expand is not None:
        return expand
    return "one" if any(size > AUTO_EQUATIONS for _, size in blocks(steps, walls)) else "all"


def expanded_steps(steps, expand, walls) -> list:
    """The steps a rendering shows for ``expand=`` (see the module's doc)."""
    expand = resolve(expand, steps, walls)
    if expand == "all":
        return list(steps)
    out: list = []
    for step in steps:
        if expand == "none" and _in_expansion(step):
            continue
        short = step.params.get("short")
        if short is not None:
            out.append(_with_display(step, short))
            continue
        node = step.display
        if node is None:
            out.append(step)
            continue
        if isinstance(node, N.SoftmaxExpansion):
            if len(node.eqs) > 1:
                first = N.SoftmaxExpansion(node.eqs[:1], node.keys, node.scale)
                out.append(_with_display(step, first))
                out.append(_others(step, [eq[0] for eq in node.eqs[1:]], "points"
                                   if isinstance(node.eqs[0][0], N.RowVec) else "entries"))
            else:
                out.append(step)
            continue
        found = walls(node)
        if not found:
            out.append(step)
            continue
        if expand == "none":
            continue
        ids = {id(w) for w in found}
        out.append(_with_display(step, _abridged(node, ids)))
        others = [name for w in found for name, _ in _pairs(w)[1:]]
        if others:
            out.append(_others(step, others, "points" if all(
                isinstance(n, N.RowVec) for n in others) else "entries"))
    return out


def _in_expansion(step) -> bool:
    if step.kind in _EXPANSION:
        return True
    return step.kind == "heading" and step.params.get("topic") == "expansion"


def _pairs(node: N.Entrywise) -> list:
    from .layout import entry_pairs
    return entry_pairs(node)


def _abridged(node, ids: set):
    """The display with each of its walls (by id) showing its first entry only."""
    from .layout import Abridged
    if isinstance(node, N.Entrywise) and id(node) in ids:
        return Abridged(node.names, node.values, 1)
    if isinstance(node, N.Chain):
        items = node.items
        if len(items) == 3 and isinstance(items[2], N.Entrywise) and id(items[2]) in ids \
                and items[1] == items[2].names:
            # X = [names] = [values], shortened: its first entry says it all
            return _abridged(items[2], ids)
        return N.Chain([_abridged(i, ids) for i in items])
    if isinstance(node, N.Group):
        return N.Group([_abridged(i, ids) for i in node.items])
    if isinstance(node, N.Rel):
        return N.Rel(_abridged(node.lhs, ids), node.rel, node.rhs)
    return node


def _with_display(step: Step, display) -> Step:
    return Step(step.kind, dict(step.params), display, part=step.part)


def _others(step: Step, names: list, variant: str) -> Step:
    """The sentence after a shortened display: the others follow the same pattern."""
    shown = names if len(names) <= LISTED else names[:3] + [N.Dots("l"), names[-1]]
    params = {"others": N.Items(shown), "count": len(names),
              "variant": variant + ("_one" if len(names) == 1 else "")}
    if step.params.get("style"):
        params["style"] = step.params["style"]
    return Step("expand_others", params, None, part=step.part)
