"""What the names in a hand derivation mean: the reference a derivation gives.

A :class:`Reference` is built from a concrete :class:`symrow.Derivation`,
using only its ``kind``, ``options``, ``operands`` and ``quantities``, its
``definitions`` (each derived quantity one level down, in the entry symbols
of the quantities it is made from) and its ``sizes`` (size name -> int):
nothing here is specific to one kind of derivation.
It lists the quantities the user may name (operands such as ``A`` and
``Q``, results such as ``C``, ``S``, ``P``, ``O``, the mask ``M``), the sizes
(``m``, ``n``, ``d``, ``\\ell``), and for every quantity:

* ``symbols``: a matrix of symbols standing for its entries.  An operand's
  are its own entry symbols (``a_{11}``); a derived quantity gets opaque
  symbols of the same name (``c_{11}``), so a step can be compared at the
  level the user wrote it;
* ``definition``: its entries one level down, in the symbols of the
  quantities it is made from (``p_{11}`` in terms of ``s_{11}, s_{12}``);
* ``ground``: its entries in operand symbols only, *taken from the
  derivation*: this is what a step is finally judged by.

Definitions that symrow writes itself (``S = QK^T``, ``P = softmax(S/√d +
M)``, ``O = PV``) are checked against the derivation's own ground truth when
the reference is built; one that does not agree is replaced by the ground
truth, so the meaning always comes from the derivation.

>>> import symrow
>>> from symrow.checker.reference import Reference
>>> ref = Reference(symrow.combine(symrow.vecseq("A", 2, 3), symrow.vecseq("B", 3, 2)))
>>> ref.sizes
{'m': 2, 'ell': 3, 'n': 2}
>>> ref.quantities["C"].symbols[0, 1], ref.quantities["C"].definition[0, 1]
(c_{12}, a_{11}*b_{12} + a_{12}*b_{22} + a_{13}*b_{32})
"""

from __future__ import annotations

import copy
import dataclasses

import sympy

from ..errors import OptionError, UnsafeNameError
from ..limits import get_limits
from ..seq import VecSeq, size_symbol
from . import numeric
from ..formula.substitute import Replacer
from ..formula.values import MathError

__all__ = ["Quantity", "Reference", "free_symbols_of"]

#: id -> (matrix, its free symbols): SymPy walks a whole expression tree for every
#: ``free_symbols``, and the grounds of a backward pass are large and asked again
#: each time the page defines a name (a check of Phuong & Hutter's backward pass
#: took 11 s, nine tenths of it there).  The matrix is kept, so an id is not reused.
_FREE: dict[int, tuple] = {}


def free_symbols_of(matrix) -> frozenset:
    """The free symbols of an immutable matrix (or expression), found once per object.

    >>> import sympy
    >>> m = sympy.ImmutableMatrix([[sympy.Symbol("a") + 1, sympy.Symbol("b")]])
    >>> sorted(map(str, free_symbols_of(m)))
    ['a', 'b']
    >>> free_symbols_of(m) is free_symbols_of(m)
    True
    """
    got = _FREE.get(id(matrix))
    if got is not None and got[0] is matrix:
        return got[1]
    found = frozenset(getattr(matrix, "free_symbols", ()))
    if len(_FREE) > 20_000:
        _FREE.clear()
    _FREE[id(matrix)] = (matrix, found)
    return found


@dataclasses.dataclass
class Quantity:
    name: str
    letter: str
    tag: str
    rows: int
    cols: int
    level: int
    symbols: sympy.ImmutableMatrix
    definition: sympy.ImmutableMatrix | None
    ground: sympy.ImmutableMatrix

    @property
    def derived(self) -> bool:
        return self.definition is not None

    def entry(self, i: int, j: int):
        """The symbol of entry (i, j), 0-based (faster than indexing the matrix)."""
        table = self.__dict__.get("_table")
        if table is None:
            table = self.__dict__["_table"] = self.symbols.tolist()
        return table[i][j]

    def row(self, i: int):
        """Row i (0-based) as a 1 x cols matrix, built once."""
        rows = self.__dict__.setdefault("_rows", {})
        got = rows.get(i)
        if got is None:
            got = rows[i] = self.symbols[i, :]
        return got


def _matrix(value) -> sympy.ImmutableMatrix:
    return sympy.ImmutableMatrix(value)


def _looks_like_derivation(obj) -> bool:
    """What a reference needs of a derivation: kind, options, operands, quantities."""
    return all(hasattr(obj, name) for name in ("kind", "options", "operands", "quantities"))


#: options a report header leaves out: names, and values that mean "off"
_QUIET = {"name"}


def option_text(options: dict, sizes: dict) -> str:
    """Every option in force, for a report header: ``causal, heads=2, projections``."""
    out = []
    for key, value in options.items():
        if key in _QUIET or key in sizes or value is None or value is False:
            continue
        if isinstance(value, bool):
            out.append(key)
        elif key == "heads" and value == 1:
            continue
        elif key == "scale" and value == "symbolic":
            continue
        elif key == "cross" and not options.get("projections"):
            continue
        elif key == "d_model" and not (options.get("projections") or
                                       (options.get("heads") or 1) > 1):
            continue
        elif isinstance(value, (int, str)) or isinstance(value, sympy.Basic):
            if isinstance(value, sympy.Basic) and value.is_Symbol:
                continue    # a size tied to another (d_v = d): shown with the sizes
            out.append(f"{key}={value}")
    return ", ".join(out)


class Reference:
    """The names a hand derivation may use, and what they mean."""

    def __init__(self, derivation, *, sizes: dict | None = None, trusted: bool = False,
                 grounded: bool = False):
        from ..steps import Derivation
        if not isinstance(derivation, Derivation) and not _looks_like_derivation(derivation):
            raise OptionError(f"against= must be a derivation such as symrow.combine(...) or "
                              f"symrow.attention(...); got {type(derivation).__name__}")
        if not all(seq.concrete for seq in derivation.operands.values()):
            raise OptionError("this reference needs concrete sizes: a general derivation is "
                              "checked through its instances (symrow.check does that)")
        self.kind = derivation.kind
        #: the derivation itself: the engine a page's own names are read against
        self.derivation = derivation
        self.options = dict(derivation.options)
        #: the name of the derivation's result (O of attention), for Attention(Q, K, V)
        self.result = getattr(derivation, "result_name", None)
        self.max_dim = max(get_limits().max_dim, 64)
        quantities = {name: _matrix(value) for name, value in derivation.quantities.items()
                      if isinstance(value, sympy.MatrixBase)}
        operands = dict(derivation.operands)
        if sizes is None:   # a derivation names its own sizes
            sizes = getattr(derivation, "sizes", None) or {}
        self.sizes = {name: value for name, value in dict(sizes).items()
                      if isinstance(value, int)}
        size_values = {size_symbol(name): value for name, value in self.sizes.items()}
        size_values.setdefault(size_symbol("d_k"), self.sizes.get("d", 0))
        #: values given for the entries of operands (symbol -> number), see set_values
        self.values: dict = {}
        self.quantities: dict[str, Quantity] = {}
        # sizes kept as symbols (sqrt(d) with scale="symbolic") become their values; a
        # derivation that wrote every size as a number has none, and is not walked
        # (one replacer for all of them: the quantities share most of their parts)
        sizes_in = Replacer(size_values)
        if derivation.options.get("scale") != "number":
            quantities = {name: sizes_in.matrix(value) for name, value in quantities.items()}
        # operands and constants first: they are level 0
        for name, value in quantities.items():
            seq = operands.get(name)
            if seq is not None and seq.concrete and value == _matrix(seq.matrix):
                # an operand: its entries are free symbols (with projections, Q, K, V
                # are listed as operands too, but their value is X W_Q: derived)
                self._add(name, seq, 0, _matrix(seq.matrix), None, _matrix(seq.matrix))
            elif all(not entry.free_symbols for entry in value):
                seq = self._seq(name, value)
                self._add(name, seq, 0, value, None, value)
        grounds = quantities
        for name in quantities:
            if name not in self.quantities:
                seq = operands.get(name) or self._seq(name, grounds[name])
                symbols = sympy.ImmutableMatrix(seq.rows, seq.cols,
                                                lambda i, j: seq.symbol(i + 1, j + 1))
                # a quantity whose value is its own entries is given, not computed:
                # the upstream gradient Ō of a backward pass
                given = symbols == _matrix(grounds[name])
                self._add(name, seq, 0 if given else None, symbols, None, grounds[name])
        #: whether a ground truth had to be taken down to operand symbols
        self.regrounded = False if grounded else self._ground_fixpoint()
        definitions = getattr(derivation, "definitions", None)
        self._trusted = trusted
        self._define(None if definitions is None else
                     {k: sizes_in.matrix(_matrix(v)) for k, v in definitions.items()})
        #: the quantities by the letter (and tag) of their rows and entries; a vector w
        #: beside a matrix W (Goodfellow's w^T max{0, W^T x + c}) shares W's letter: the
        #: letter is W's (its rows \\boldsymbol{w}_i, entries w_{ij}), and w's entries w_j,
        #: written with one index, are found in ``vectors_by_letter``
        self.by_letter, self.vectors_by_letter = {}, {}
        for q in self.quantities.values():
            key = (q.letter, q.tag)
            other = self.by_letter.get(key)
            if other is not None and 1 in (q.rows, other.rows) and (q.rows, other.rows) != (1, 1):
                vector, matrix = (q, other) if q.rows == 1 else (other, q)
                self.vectors_by_letter[key] = vector
                self.by_letter[key] = matrix
                continue
            self.by_letter[key] = q
        #: how to order the factors of a term in a report: operands in their order
        #: (q before k before v), then derived quantities
        self.rank = {}
        pipeline = list(quantities)   # the derivation's own order: operands, then results
        order = sorted(self.quantities.values(),
                       key=lambda q: (pipeline.index(q.name) if q.name in pipeline
                                      else len(pipeline), q.level))
        for r, q in enumerate(order):
            for sym in free_symbols_of(q.symbols):
                self.rank[sym] = r
        self.matrices = dict(self.quantities)
        self.ground_map = {}
        self.level_of: dict[sympy.Symbol, int] = {}
        self.owner: dict[sympy.Symbol, tuple] = {}
        self.unfold_maps: dict[int, dict] = {}
        for q in self.quantities.values():
            for i in range(q.rows):
                for j in range(q.cols):
                    sym = q.symbols[i, j]
                    if not isinstance(sym, sympy.Symbol):
                        continue
                    self.level_of[sym] = q.level
                    self.owner.setdefault(sym, (q.name, i + 1, j + 1))
                    if q.derived:
                        self.ground_map[sym] = q.ground[i, j]
                        self.unfold_maps.setdefault(q.level, {})[sym] = q.definition[i, j]
        self._levels: dict = {}
        #: entries that only rename entries of other quantities (C = [O^(1) O^(2)],
        #: W_O = [W_O^(1); W_O^(2)]): a report explains a difference in the originals
        self.aliases = {}
        for q in self.quantities.values():
            if q.derived and all(isinstance(e, sympy.Symbol) for e in q.definition):
                for sym, target in zip(q.symbols, q.definition):
                    self.aliases[sym] = target
        for _ in range(len(self.aliases)):
            changed = {k: self.aliases.get(v, v) for k, v in self.aliases.items()}
            if changed == self.aliases:
                break
            self.aliases = changed

    # -- construction ---------------------------------------------------------
    def _seq(self, name: str, value) -> VecSeq:
        plan = getattr(self.derivation, "plan", None)
        own = plan.named.get(name) if plan is not None and hasattr(plan, "named") else None
        if own is not None and own.seq is not None and own.reading == "ones":
            return own.seq            # the all-ones vector 1_n: its name is no letter's
        return VecSeq(name, value.rows, value.cols, max_dim=self.max_dim)

    def _add(self, name, seq, level, symbols, definition, ground) -> None:
        self.quantities[name] = Quantity(name, seq.entry_letter, seq.tag, seq.rows, seq.cols,
                                         level if level is not None else -1, symbols,
                                         definition, ground)

    def _symbols_of(self, name: str):
        q = self.quantities.get(name)
        return None if q is None else q.symbols

    def _define(self, given: dict | None) -> None:
        """One-level definitions, checked against the ground truth; then levels.

        ``given`` is the derivation's own ``definitions`` (name -> matrix in the
        entry symbols of the quantities it is made from); a quantity without one
        is judged by its ground truth alone.
        """
        mine: dict[str, sympy.ImmutableMatrix] = dict(given or {})
        grounds = self._ground_mapping()  # the grounds are final: map them once
        for q in self.quantities.values():
            if q.level >= 0:
                continue
            definition = mine.get(q.name)
            if definition is None or definition.shape != q.ground.shape or (
                    not self._trusted and not self._agrees(definition, q.ground, grounds)):
                definition = q.ground
            q.definition = definition
        # levels: one above the highest quantity a definition uses
        level_by_symbol = {}
        for q in self.quantities.values():
            if q.level == 0:
                for sym in free_symbols_of(q.symbols):
                    level_by_symbol[sym] = 0
        pending = [q for q in self.quantities.values() if q.level < 0]
        for _ in range(len(pending)):
            for q in pending:
                used = free_symbols_of(q.definition)
                if q.level < 0 and all(sym in level_by_symbol for sym in used):
                    q.level = 1 + max((level_by_symbol[sym] for sym in used), default=0)
                    for sym in free_symbols_of(q.symbols):
                        level_by_symbol[sym] = q.level
        for q in pending:
            if q.level < 0:  # a cycle or an unknown symbol: judge by the ground truth alone
                q.definition = q.ground
                q.level = 1 + max((level_by_symbol.get(sym, 0)
                                   for sym in free_symbols_of(q.ground)), default=0)

    def _ground_fixpoint(self) -> bool:
        """Ground truths in operand symbols only (a derivation may state S in q and k
        while Q is itself derived from X and W_Q).  The free symbols of each ground are
        found once, and again only after a substitution.  True if one was needed."""
        derived = {sym for q in self.quantities.values() if q.level != 0 for sym in q.symbols}
        found: dict = {}
        substituted = False
        for _ in range(len(self.quantities)):
            mapping = None
            for q in self.quantities.values():
                if q.level == 0:
                    continue
                symbols = found.get(q.name)
                if symbols is None:
                    symbols = found[q.name] = free_symbols_of(q.ground)
                if symbols & derived:
                    if mapping is None:
                        mapping = Replacer(self._ground_mapping())
                    q.ground = _matrix(mapping.matrix(q.ground))
                    del found[q.name]
                    substituted = True
            if mapping is None:
                return substituted
        return substituted

    def _ground_mapping(self) -> dict:
        """Each entry symbol of a derived quantity -> its ground truth."""
        mapping = {}
        for q in self.quantities.values():
            if q.level != 0:
                for i in range(q.rows):
                    for j in range(q.cols):
                        mapping[q.symbols[i, j]] = q.ground[i, j]
        return mapping

    @staticmethod
    def _agrees(definition, ground, mapping: dict) -> bool:
        """Does a one-level definition, taken down to operand symbols (``mapping``,
        from :meth:`_ground_mapping`), equal the ground truth?

        Checked numerically at one sample point, on the first, a middle and
        the last entry: enough to catch a definition of the wrong kind, and
        cheap (no expression is taken down symbolically).
        """
        cells = len(definition)
        for k in sorted({0, cells // 2, cells - 1}):
            entry, truth = definition[k], ground[k]
            if entry == truth:
                continue
            derived = [s for s in entry.free_symbols if s in mapping]
            base = set(truth.free_symbols) - set(mapping)
            base |= set(entry.free_symbols) - set(derived)
            for s in derived:
                base |= mapping[s].free_symbols
            point = numeric.sample_points(base, 1)[0]
            at_point: dict = {}   # what the grounds share is evaluated once
            try:
                values = dict(point)
                for s in derived:
                    values[s] = numeric.evaluate(mapping[s], point, at_point)
                if not numeric.close(numeric.evaluate(entry, values),
                                     numeric.evaluate(truth, point, at_point)):
                    return False
            except numeric.NumericError:
                return False
        return True

    # -- use ----------------------------------------------------------------------
    def known_names(self) -> str:
        names = ", ".join(self.quantities)
        # a number the page names (its Y = \sum_j e^{x_j}) has no rows or entries
        tagged = list(dict.fromkeys((q.letter, "^{%s}" % q.tag if q.tag else "")
                                    for q in self.quantities.values()
                                    if (q.letter, q.tag) in self.by_letter))
        rows = ", ".join("\\boldsymbol{%s}%s_i" % pair for pair in tagged)
        entries = ", ".join("%s%s_{ij}" % pair for pair in tagged)
        sizes = ", ".join("\\ell" if s == "ell" else s for s in self.sizes)
        return (f"the matrices {names}, their rows {rows}, their entries {entries}, "
                f"and the sizes {sizes}")

    def describe(self) -> str:
        """``attention (m=2, n=2, d=2, d_v=2, causal, heads=2)``: the kind, sizes and options."""
        own = getattr(self, "page_size_names", frozenset())
        # the derivation's sizes: a name the page took for a size of its own (its m, X's
        # columns) is shown with the derivation's value, kept with the renamed ones
        every = {**{k: v for k, v in self.sizes.items() if k not in own},
                 **getattr(self, "renamed_sizes", {})}
        order = getattr(self, "size_order", None)
        if not order and getattr(self, "renamed_sizes", None):
            order = list(getattr(self.derivation, "sizes", None) or {})
        if order:       # sizes the page uses as indices are shown where they were
            every = dict(sorted(every.items(), key=lambda kv: order.index(kv[0])
                                if kv[0] in order else len(order)))
        sizes = ", ".join(f"{'ℓ' if k == 'ell' else k}={v}" for k, v in every.items())
        extra = option_text(self.options, self.sizes)
        inside = ", ".join(x for x in (sizes, extra) if x)
        return f"{self.kind} ({inside})" if inside else self.kind

    # -- values ---------------------------------------------------------------------
    def with_own_values(self, values: dict | None = None) -> "Reference":
        """A copy that shares everything but the values (one per check: a reference
        may be reused by several checks, even at once)."""
        view = copy.copy(self)
        view.values = dict(values or {})
        return view

    # -- the page's own names ----------------------------------------------------------
    def _own(self) -> None:
        """Copy the tables a definition changes, once per view: the base reference is
        shared by every check against the same derivation."""
        if getattr(self, "_owns_tables", False):
            return
        self.quantities = dict(self.quantities)
        self.sizes = dict(self.sizes)
        self.matrices = dict(self.matrices)
        self.by_letter = dict(self.by_letter)
        self.rank = dict(self.rank)
        self.ground_map = dict(self.ground_map)
        self.level_of = dict(self.level_of)
        self.owner = dict(self.owner)
        self.unfold_maps = {k: dict(v) for k, v in self.unfold_maps.items()}
        self._levels = {}
        self.__dict__.pop("_replacers", None)
        self.__dict__.pop("_canonical_names", None)
        self._owns_tables = True

    @property
    def column_formula(self) -> bool:
        """Whether the derivation was read from a formula that writes its points as
        columns (``z = Wx + b``, read in the row view): a page in the column convention
        then writes its vectors x, z, b as the columns the formula has."""
        notes = getattr(self.derivation, "notes", ()) or ()
        return any(kind == "convention" and (info or {}).get("vectors")
                   for kind, info in notes if isinstance(info, dict))

    def own_size(self, name: str, value: int) -> None:
        """A size the page names itself (``T`` of ``Q \\in \\mathbb{R}^{T \\times d}``)."""
        self._own()
        # the page names this size itself: the derivation's own name for it (the only one
        # of that value) is then free for the page to use as an index (m of X_{mp})
        same = [k for k, v in self.sizes.items() if v == value and
                k not in getattr(self, "page_size_names", ())]
        if len(same) == 1 and same[0] != name:
            self.renamed_sizes = {**getattr(self, "renamed_sizes", {}), same[0]: value}
            del self.sizes[same[0]]
        self.sizes[name] = value
        self.page_size_names = getattr(self, "page_size_names", frozenset()) | {name}

    def column_point(self, q) -> bool:
        """Whether the quantity ``q`` is one point that the formula writes as a column
        (x, z, b of ``z = Wx + b``, a row in the row view symrow reads it in)."""
        return q.rows == 1 and q.cols > 1 and self.column_formula

    def name_input(self, name: str, letter: str, quantity: str) -> None:
        """The page's own name for an operand (``x`` for S, read from its
        ``softmax(x)``): ``name`` stands for the whole of it and ``letter`` heads its
        entries (``x_i``), as the operand's own name and letter do."""
        self._own()
        q = self.quantities[quantity]
        self.input_names = {**getattr(self, "input_names", {}), name: quantity}
        self.by_letter[(letter, "")] = q
        self.__dict__.pop("_canonical_names", None)

    def index_only(self, names) -> None:
        """Size letters the page writes only as indices (m and n of ``V^{mn}``, on a page
        that never names a size m or n): free to be indices here.  The sizes keep their
        values in the description of the derivation."""
        self._own()
        self.size_order = getattr(self, "size_order", None) or list(self.sizes)
        for name in names:
            if name in self.sizes:
                self.renamed_sizes = {**getattr(self, "renamed_sizes", {}),
                                      name: self.sizes.pop(name)}

    def define(self, name: str, value, *, letter: str | None = None, tag: str = "",
               seq: VecSeq | None = None) -> Quantity:
        """Add a quantity the page defines (``Z = XW + b``, ``\\alpha_{ij} = ...``): its
        entries are symbols of its own (z_{ij}) whose one-level definition is ``value``,
        a matrix in the symbols of the quantities it is made from; it is judged by its
        ground truth like any other.  ``letter`` and ``tag`` name its entries when it is
        defined by them (``\\alpha`` of ``\\alpha_{ij}``)."""
        self._own()
        for cached in ("_canonical_names", "_free_names", "_constants", "_replacers"):
            self.__dict__.pop(cached, None)
        value = _matrix(value)
        if seq is None:
            try:
                seq = VecSeq(name, value.rows, value.cols, max_dim=self.max_dim)
            except UnsafeNameError:
                # a name in the page's own words (Y_{\text{出力}}): its entries get symbols
                # of a plain stand-in; the quantity keeps the page's name
                stand_in = "P_{%d}" % (len(self.quantities) + 1)
                seq = VecSeq(stand_in, value.rows, value.cols, max_dim=self.max_dim)
        symbols = sympy.ImmutableMatrix(value.rows, value.cols,
                                        lambda i, j: seq.symbol(i + 1, j + 1))
        old = self.quantities.get(name)
        if old is not None:
            self._forget(old, set(symbols) | set(old.symbols), value)
        level = 1 + max((self.level_of.get(sym, 0) for sym in value.free_symbols),
                        default=0)
        ground = self.ground(value)
        q = Quantity(name, letter if letter is not None else seq.entry_letter,
                     tag if letter is not None else seq.tag, value.rows, value.cols, level,
                     symbols, value, ground)
        self.quantities[name] = q
        self.matrices[name] = q
        self.by_letter[(q.letter, q.tag)] = q
        rank = len(self.rank)
        for i in range(q.rows):
            for j in range(q.cols):
                sym = symbols[i, j]
                self.level_of[sym] = level
                self.owner.setdefault(sym, (name, i + 1, j + 1))
                self.ground_map[sym] = ground[i, j]
                self.unfold_maps.setdefault(level, {})[sym] = value[i, j]
                self.rank.setdefault(sym, rank)
        self.__dict__.pop("_replacers", None)   # the tables changed in place
        return q

    def _forget(self, old: Quantity, symbols: set, value) -> None:
        """A quantity the page defines anew (its own G, the scaled S of its convention):
        its old one-level definition goes, and every quantity defined in its entries is
        judged by its ground truth from now on (the ground truths do not change: they
        are in the operands' entries)."""
        if value.free_symbols & symbols:
            raise MathError(f"{old.name} is defined in terms of itself")
        for table in self.unfold_maps.values():
            for sym in symbols:
                table.pop(sym, None)
        for other in list(self.quantities.values()):
            if other is old or other.definition is None or \
                    not free_symbols_of(other.definition) & symbols:
                continue
            level = 1 + max((self.level_of.get(sym, 0) for sym in free_symbols_of(other.ground)
                             if sym not in symbols), default=0)
            new = dataclasses.replace(other, definition=other.ground, level=level)
            self.quantities[other.name] = new
            self.matrices[other.name] = new
            if self.by_letter.get((new.letter, new.tag)) is other:
                self.by_letter[(new.letter, new.tag)] = new
            for table in self.unfold_maps.values():
                for sym in other.symbols:
                    table.pop(sym, None)
            for sym, entry in zip(other.symbols, other.ground):
                if isinstance(sym, sympy.Symbol):
                    self.level_of[sym] = level
                    self.unfold_maps.setdefault(level, {})[sym] = entry
        self._levels = {}
        self.__dict__.pop("_replacers", None)   # the tables changed in place

    def operand_symbols(self, name: str) -> list:
        q = self.quantities.get(name)
        if q is None or q.level != 0:
            return []
        return [s for s in q.symbols if isinstance(s, sympy.Symbol)]

    def set_values(self, name: str, matrix) -> None:
        """Give the entries of operand ``name`` values (a matrix of its shape)."""
        q = self.quantities[name]
        matrix = _matrix(matrix)
        if matrix.shape != (q.rows, q.cols):
            raise MathError(f"{name} is {q.rows} x {q.cols}; the values are "
                            f"{matrix.rows} x {matrix.cols}")
        for sym, value in zip(q.symbols, matrix):
            if isinstance(sym, sympy.Symbol):
                self.values[sym] = sympy.nsimplify(value) if isinstance(value, float) else value

    def with_values(self, expr):
        return expr.xreplace(self.values) if self.values else expr

    def missing_values(self, expr) -> list:
        """Operands some of whose entries in ``expr`` have no value, by name."""
        names = []
        for sym in expr.free_symbols:
            owner = self.owner.get(sym)
            if owner is not None and self.level_of.get(sym) == 0 and sym not in self.values:
                if owner[0] not in names:
                    names.append(owner[0])
        return sorted(names)

    def level(self, expr) -> int:
        """The highest level of a quantity whose entries ``expr`` uses (0: operands only).

        Remembered per subexpression: the expressions of one check share most of
        their parts, and SymPy builds equal parts as one object.
        """
        if expr.is_Symbol:
            return self.level_of.get(expr, 0)
        if not expr.args:
            return 0
        memo = self._levels
        got = memo.get(expr)
        if got is None:
            got = max(self.level(arg) for arg in expr.args)
            if len(memo) > 200_000:
                memo.clear()
            memo[expr] = got
        return got

    def _replacer(self, key, rule: dict) -> Replacer:
        """A :class:`Replacer` of one of the tables, kept while the table is unchanged
        (the expressions of one check share most of their parts).  What changes a
        table in place (:meth:`define`, :meth:`_forget`) drops them all."""
        kept = self.__dict__.setdefault("_replacers", {})
        got = kept.get(key)
        if got is None or got.rule is not rule:
            got = kept[key] = Replacer(rule)
        return got

    def held_pairs(self) -> set:
        """The pairs of expressions already found equal under the tables (see
        :func:`.verify.compare_scalar`): kept while the tables are unchanged, like the
        replacers (the aliases may be replaced as a whole: then it starts again)."""
        kept = self.__dict__.setdefault("_replacers", {})
        got = kept.get("held")
        if got is None or got[0] is not self.aliases:
            got = kept["held"] = (self.aliases, set())
        return got[1]

    def unfold(self, expr, level: int):
        mapping = self.unfold_maps.get(level)
        return self.unalias(self._replacer(level, mapping)(expr)) if mapping else expr

    def unalias(self, expr):
        """Renamed entries (``c_{11}`` of C = [O^(1) O^(2)]) as the entries they rename."""
        return self._replacer("aliases", self.aliases)(expr) if self.aliases else expr

    def constants(self) -> dict:
        """The named constants of the derivation's readings (LayerNorm's epsilon), by
        their symbol's name: the free symbols of its values that are no entry of a
        quantity and no size."""
        got = self.__dict__.get("_constants")
        if got is None:
            entries = {s for q in self.quantities.values() for s in q.symbols}
            sizes = {str(s) for s in self.sizes} | {str(v) for v in self.sizes.values()}
            got = {}
            for q in self.quantities.values():
                for sym in free_symbols_of(q.ground):
                    if sym not in entries and str(sym) not in sizes and \
                            str(sym).isalpha() and len(str(sym)) > 1:
                        got[str(sym)] = sym
            self.__dict__["_constants"] = got
        return got

    def ground(self, expr):
        return self._replacer("ground", self.ground_map)(expr) if self.ground_map else expr

    def gradient_of_value(self, value):
        """The gradient of the value an expression computes (``\\partial L / \\partial
        (X W)``), against a backward derivation; None when there is none (see
        :func:`.engine.gradient_of_value`)."""
        from .engine import gradient_of_value
        return gradient_of_value(self, value)
