r"""The walk over a hand derivation: claims, steps, references, verdicts.

:func:`check_text` reads the text (:mod:`.lexer`, :mod:`.structure`), then
checks every claim of every chain against a :class:`Target`: one concrete
derivation, or the instances of a general one (:mod:`.general`).  A step
of a general derivation holds when it holds in every instance; the first
instance where it does not is reported with its sizes and index values.

A document may have several targets, one per section (the handout:
general forms and worked examples, where the same names mean different
things); a heading numbered like a target's key starts its stretch.

Values: a definition such as ``A = \begin{bmatrix}1&2\\3&4\end{bmatrix}``
gives the operand ``A`` those values for the rest of its stretch (or is
checked against values given up front), so that worked examples with
numbers check.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import weakref

import sympy

from ..errors import OptionError, ParseError
from ..reader import vocab as V
from ..reader.entries.gradients import LOSS_HEADS
from .report import Report, StepReport

__all__ = ["Target", "targets_for", "check_text", "MAX_ASSIGNMENTS"]

#: the most index combinations (i, j, ...) one step may need, per instance
MAX_ASSIGNMENTS = 4096


class Target:
    """A derivation to check against, with values for its operands.

    ``section`` is the number of the document's section it applies to
    (``"3.2"``), or None for the whole text.
    """

    def __init__(self, derivation, values: dict | None = None, section: str | None = None):
        from .general import is_general
        from .reference import _looks_like_derivation
        from ..steps import Derivation
        if not isinstance(derivation, Derivation) and not _looks_like_derivation(derivation):
            raise OptionError(f"against= must be a derivation such as symrow.combine(...) or "
                              f"symrow.attention(...); got {type(derivation).__name__}")
        self.derivation = derivation
        self.general = is_general(derivation)
        self.values = dict(values or {})
        self.section = section
        if self.general and self.values:
            raise OptionError("values need concrete sizes; this derivation has general sizes")
        self._instances = None

    def instances(self) -> list:
        """[(sizes or None, Reference)], built on first use (and kept with the
        derivation, so that later checks against it start at once)."""
        if self._instances is None:
            shared = references(self.derivation)
            if self.general:
                self._instances = [(sizes, ref.with_own_values()) for sizes, ref in shared]
            else:
                ref = shared[0][1].with_own_values()
                for name, matrix in self.values.items():
                    if name not in ref.quantities or ref.quantities[name].level != 0:
                        raise OptionError(f"values for {name}: it is not an operand of this "
                                          f"derivation (operands: "
                                          f"{', '.join(self.derivation.operands)})")
                    try:
                        ref.set_values(name, matrix)
                    except Exception as err:  # MathError: a shape clash
                        raise OptionError(f"values for {name}: {err}") from None
                self._instances = [(None, ref)]
        return self._instances

    def describe(self) -> str:
        from .reference import option_text
        if not self.general:
            return self.instances()[0][1].describe()
        from .general import size_names
        names = ", ".join("ℓ" if n == "ell" else n for n in size_names(self.derivation))
        extra = option_text(dict(self.derivation.options), set(size_names(self.derivation)))
        plan = self.instances()
        shown = "; ".join(", ".join(f"{'ℓ' if k == 'ell' else k}={v}" for k, v in s.items())
                          for s, _ in plan)
        extra = f", {extra}" if extra else ""
        return (f"{self.derivation.kind} (general: {names}{extra}; checked at {len(plan)} "
                f"size choices: {shown})")


_REFERENCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def references(derivation) -> list:
    """[(sizes or None, Reference)] for a derivation: its instances when it is general.

    Built once per derivation object and kept while it lives.  A variant's
    reference trusts the one-level definitions its base instance confirmed, and
    that its ground truths are in operand symbols when the base's were.
    """
    try:
        got = _REFERENCES.get(derivation)
    except TypeError:
        got = None
    if got is not None:
        return got
    from .general import instances, is_general
    from .reference import Reference
    if is_general(derivation):
        got = []
        for k, (sizes, d) in enumerate(instances(derivation)):
            # the variants are built like the base: trust what the base confirmed
            base = got[0][1] if got else None
            got.append((sizes, Reference(d, sizes=sizes, trusted=base is not None,
                                         grounded=base is not None and not base.regrounded)))
    else:
        got = [(None, Reference(derivation))]
    try:
        _REFERENCES[derivation] = got
    except TypeError:
        pass
    return got


def targets_for(against, values: dict | None = None) -> list[Target]:
    """The targets of ``symrow.check(..., against=...)``."""
    parts = getattr(against, "check_parts", None)
    if callable(parts):
        if values:
            raise OptionError("values= does not apply to the handout: its sections give "
                              "their own values")
        return [Target(d, vals, section) for section, d, vals in parts()]
    return [Target(against, values)]


# -- sections ------------------------------------------------------------------------

_HEADING = re.compile(r"(?:\\(?:sub)*section\*?\s*\{\s*|^#{1,6}[ \t]+)(\d+(?:\.\d+)*)",
                      re.MULTILINE)


def _section_map(text: str, targets: list[Target]):
    """A function from a position in the text to its target."""
    if len(targets) == 1:
        return lambda pos: targets[0]
    keyed = {t.section: t for t in targets}
    marks = []
    for m in _HEADING.finditer(text):
        number = m.group(1)
        while number and number not in keyed:
            number = number.rpartition(".")[0]
        if number:
            marks.append((m.start(), keyed[number]))

    def at(pos: int) -> Target:
        found = targets[0]
        for start, target in marks:
            if start > pos:
                break
            found = target
        return found
    return at


# -- outcomes -------------------------------------------------------------------------

@dataclasses.dataclass
class Outcome:
    status: str
    message: str = ""
    entry: tuple | None = None
    indices: dict | None = None
    detail: dict | None = None
    others: tuple = ()
    error: tuple | None = None      # (message, pos, end) for an unreadable step
    sizes: dict | None = None
    pending: "Outcome | None" = None   # the verdict if the page turns out to give no numbers
    vacuous: bool = False              # no assignment satisfied the notes
    shapes: tuple | None = None        # the sides' shapes, when they differ (None: a number)
    kind: str | None = None            # what made it wrong, as data (MathError.kind)


def _without_bar(parts) -> str | None:
    """The accent of a name as written, a gradient's bar taken off (``\\bar{b}_p``: none;
    ``\\bar{\\hat{b}}``: hat)."""
    accent = parts.accent
    if parts.grad is None and accent is not None and accent.split()[0] == "bar":
        accent = " ".join(accent.split()[1:]) or None
    return accent


def _formal(outcome) -> bool:
    """An outcome that a Jacobian of a matrix by a matrix left not checked."""
    return outcome.status == "unchecked" and \
        outcome.message.startswith("a Jacobian of a matrix by the matrix")


class _Unreadable(Exception):
    """A member that cannot be read (as TranslateError and ReadError say it)."""

    def __init__(self, message: str, pos: int, end: int):
        super().__init__(message)
        self.message, self.pos, self.end = message, pos, end


class _Context:
    """What one reference needs while checking: its translator, evaluator, parse cache."""

    def __init__(self, ref, sizes, src, cache):
        from ..formula.entries import Evaluator
        from ..reader.entries.translate import Translator
        self.ref = ref
        self.sizes = sizes
        self.translator = Translator(ref, src)
        self.evaluator = Evaluator(ref)
        self.cache = cache


class _PageSource:
    """The prepared page (:mod:`.document`) as a :class:`~.lexer.Source`: it is read
    from its prepared text, and shows the text as written."""

    def __new__(cls, page):
        from ..reader.lexer import Source

        class PageSource(Source):
            def near(self, pos: int, end: int | None = None) -> str:
                shown = Source(page.original)
                return shown.near(pos, end)
        src = PageSource(page.text)
        src.original = page.original
        return src


class _Run:
    def __init__(self, tex: str, targets: list[Target], parser: str = "auto", page=None):
        from .document import prepare
        self.parser = parser
        self.page = page if page is not None else prepare(tex)
        self.src = _PageSource(self.page)
        self.targets = targets
        self.cache: dict = {}
        self.contexts: dict = {}
        self.section_of = _section_map(self.page.text, targets)
        self.steps: list[StepReport] = []
        #: how many names the page has defined so far (see read_again)
        self.bound = 0
        #: the left sides of claims that held (D of D = WX), as written
        self.held: set = set()
        #: members of chains that are the chain rule written formally, by (member, target)
        self.formal_members: dict = {}
        self.notes: list[str] = []
        #: lines where '=' before a decimal was read as rounded (see rounded_equal)
        self.rounded_lines: set = set()
        #: unchecked steps (by id) and their verdict if the page gives no numbers
        self.pending: dict = {}
        #: conditions on sizes that hold over a stretch of the page: (start, end, conditions)
        self.scoped: list = []
        #: whether the page (or values=) gives an operand numbers
        self.numbers = any(t.values for t in targets)
        #: the members of the chain being checked (indices mean one thing along a chain)
        self.chain_members: list = []
        #: the chains that define the page's name for the upstream gradient (see
        #: page_upstream), by id, with what their step says
        self.upstream_named: dict = {}
        #: members (by (context, member) ids) that read in another notation than the
        #: page's batch forms (a one-index entry of a matrix the page gave by its entries)
        self.other_notation: set = set()
        #: a page of prose with no math markup at all (a copy that lost its delimiters,
        #: rendered glyph runs): what is read from it is never called wrong
        self.prose_page = self.page.markdown and _prose_without_math(self.page.original)
        #: the page writes the differential of its loss (dL = ... : dY): its dX, dW are
        #: then differentials, not CS231n's gradients (see judge)
        self.differentials = bool(_DIFFERENTIAL_OF_LOSS.search(self.page.text))
        #: units that did not read for an e_{x} where e^{x} is likely meant (by the key
        #: of :meth:`unit`): (e_{x} as written, e^{x})
        self.slips: dict = {}
        #: the vector convention, as the report states it; vectors read as columns?
        self.convention: str | None = None
        self.column = False
        #: how the page uses superscripts (indices up, S^{ij}), see run()
        from ..reader.entries.superscripts import NO_SCRIPTS
        self.scripts = NO_SCRIPTS
        #: the sizes the page's own letters were seen to stand for otherwise than this
        #: derivation's (``W \in \mathbb{R}^{m \times n}`` at other sizes): name -> the
        #: outcome said then, said again of every later claim of a space with that letter
        self.size_conflicts: dict = {}
        #: the summation convention: why it is read (the page's words), or None
        self.einstein: str | None = None
        #: whether a sum was read by the convention (the report says so)
        self.einstein_used = False
        #: each member's chain's left side (the free indices of a claim are its)
        self.left_of: dict = {}
        #: the page's own loss (L of L = -\\sum_i y_i \\log p_i), when it writes one out:
        #: its gradients are then particular, not symrow's for any upstream (see judge)
        self.page_loss: str | None = None

    # -- plumbing -----------------------------------------------------------------------
    def contexts_for(self, target: Target) -> list[_Context]:
        got = self.contexts.get(id(target))
        if got is None:
            got = [_Context(ref, sizes, self.src, self.cache)
                   for sizes, ref in target.instances()]
            for ctx in got:
                self.page_scripts(ctx)
                if getattr(self, "star_entrywise", False):
                    ctx.ref.star_entrywise = True     # the page's * (page_star)
            if self.column:
                for ctx in got:
                    ctx.evaluator = _evaluator(ctx.ref, True)
            self.contexts[id(target)] = got
        return got

    def page_scripts(self, ctx) -> None:
        """The page's use of superscripts, given to a context: its translator reads
        indices written up, and the size letters the page uses only as indices (m, n of
        V^{mn}) are free to be indices in its reference."""
        ctx.translator.scripts = self.scripts
        if self.scripts.upper:
            letters = self.scripts.only_indices(ctx.ref.sizes)
            if letters:
                ctx.ref.index_only(letters)

    def read_scripts(self, chains: list) -> None:
        """Decide how the page uses superscripts and whether it sums repeated indices
        (:mod:`symrow.reader.entries.superscripts`), before anything is read."""
        from ..reader.entries.superscripts import page_scripts, summation_stated
        from ..reader.notation import NameParts
        translators = [_Context(ref, sizes, self.src, {}).translator
                       for target in self.targets for sizes, ref in target.instances()[:1]]

        def known(head: str, sup: str) -> bool:
            return any(tr._known_as_written(NameParts(head, sup=sup)) for tr in translators)
        self.scripts = page_scripts([m.nodes for c in chains if c.problem is None
                                     for m in c.members], known)
        for chain in chains:
            for member in chain.members:
                self.left_of[id(member)] = chain.members[0]
        stated = summation_stated(self.page.text)
        if stated is not None:
            self.einstein = f"as the text states: '{stated}'"
        elif self.scripts.first_upper is not None:
            line = self.src.line_col(self.scripts.first_upper)[0]
            self.einstein = (f"the page writes its indices as superscripts, as tensor "
                             f"notation does (line {line})")

    def einstein_sums(self, ctx, member, unit):
        """The unit read with the summation convention, when the page reads so."""
        from ..formula.summation import ConventionError, free_of, summed
        left = self.left_of.get(id(member))
        free = None
        if left is not None and left is not member:
            lu = self.unit(ctx, left)
            if isinstance(lu, tuple):
                # a left side not read yet (the name a definition gives, A^{ij}): its
                # free indices are the index letters it writes
                from ..reader.entries.superscripts import page_scripts
                free = set(page_scripts([left.nodes]).index_letters)
            else:
                free = free_of(lu)
        try:
            new, names = summed(unit, free, ctx.ref)
        except ConventionError as err:
            raise _Unreadable(str(err), member.pos, member.end) from None
        if names:
            self.einstein_used = True
        return new

    def read_unread_again(self) -> None:
        """Forget what could not be read: a name the page has just bound (its own, its
        upstream's, its input's) may make it readable now."""
        for key in [k for k, v in self.cache.items() if isinstance(v, tuple)]:
            del self.cache[key]

    def value_with_names(self, ctx, names: list, shapes, member) -> tuple:
        """``member``'s value with the page's ``names`` bound at ``shapes`` (free entries,
        :func:`_bind_all`) in a copy of ``ctx``'s reference: (value, None, the copy), or
        (None, the next unknown name or None, the copy) when it does not read."""
        from ..reader.entries.translate import TranslateError
        from ..reader.entries.parse import ReadError
        from ..formula.values import MathError
        trial = ctx.ref.with_own_values(ctx.ref.values)
        trial.__dict__["_owns_tables"] = False
        _bind_all(trial, names, shapes)
        try:
            return self.value_in(ctx, trial, member), None, trial
        except TranslateError as err:
            return None, getattr(err, "unknown", None), trial
        except (ReadError, MathError):
            return None, None, trial

    def value_in(self, ctx, trial, member):
        """``member``'s value read in ``trial``, a copy of ``ctx``'s reference with names
        bound on trial (raises what reading or evaluating raises)."""
        from ..reader.entries.parse import parse_unit
        tctx = _Context(trial, ctx.sizes, self.src, {})
        tctx.translator.scripts = self.scripts
        tctx.evaluator = _evaluator(trial, self.column)
        unit = tctx.translator.unit(member.nodes, member.pos, member.end)
        parse_unit(unit, {}, self.parser)
        return tctx.evaluator.value(unit, {})

    def error(self, message: str, pos: int, end: int) -> dict:
        line, column = self.src.line_col(pos)
        return {"message": message, "line": line, "column": column,
                "near": self.src.near(pos, end)}

    def text_of(self, member) -> str:
        text = self.src.original[member.pos:member.end].strip()
        return _LEADING_SPACE.sub("", text)

    def unit(self, ctx: _Context, member):
        """The member translated and parsed for one reference, or an error tuple."""
        from ..reader.entries.parse import ReadError, parse_unit
        from ..reader.entries.translate import TranslateError
        key = (id(ctx), id(member))
        got = self.cache.get(key)
        if got is not None:
            return got
        try:
            unit = ctx.translator.unit(member.nodes, member.pos, member.end)
            parse_unit(unit, self.cache, self.parser)
            if self.einstein is not None:
                unit = self.einstein_sums(ctx, member, unit)
            got = unit
        except (TranslateError, ReadError, _Unreadable) as err:
            got = (err.message, err.pos, err.end)
            if getattr(err, "another_notation", False):
                self.other_notation.add(key)
            if getattr(err, "subscripted_e", None) is not None:
                self.slips[key] = err.subscripted_e
        except RecursionError:
            got = ("this is nested too deeply to read", member.pos, member.end)
        except Exception as err:  # noqa: BLE001 - a bug must not cost the report
            got = (f"internal error while reading this: {type(err).__name__}: "
                   f"{' '.join(str(err).split())[:200]} (a bug in symrow; please report it)",
                   member.pos, member.end)
        self.cache[key] = got
        return got

    # -- the walk -----------------------------------------------------------------------------
    def run(self) -> list[StepReport]:
        from .structure import split
        tree = self.read_tree()
        chains = split(tree, self.src)
        self.read_scripts(chains)
        if not chains:
            raise ParseError("there is no claim to check: write steps such as C = AB, one "
                             "per line or in an align* environment", line=1, column=1,
                             near=self.src.near(0))
        self.page_star()
        self.page_example_sizes(chains)
        self.page_inputs(chains)
        self.page_accents(chains)
        self.page_upstream(chains)
        self.page_index_sizes(chains)
        self.page_lengths(chains)
        # notes such as (1 \le i \le m) restrict the claim before them
        claims: list = []
        notes: dict = {}
        ahead = None            # (note chain, conditions): 当 $i \neq d$ 时, the claim next
        for chain in chains:
            target = self.section_of(chain.pos)
            if self.specializes(chain, target):
                continue
            note = self.as_note(chain, target)
            if note is not None:
                if claims and note and (chain.before == "sep" or
                                        self.conditional(claims[-1], chain)):
                    notes.setdefault(id(claims[-1]), []).extend(note)
                    ahead = None
                elif note:
                    ahead = (chain, note)
                continue
            if chain.note_only:
                continue
            chain = self.without_heading(chain, target)
            remark = self.notation(chain, target)
            if remark is not None:
                if remark:
                    self.notes.append(remark)
                continue
            if ahead is not None and self.preconditional(ahead[0], chain):
                notes.setdefault(id(chain), []).extend(ahead[1])
            ahead = None
            claims.append(chain)
        self.choose_convention(claims)
        k = 0
        done = []                   # (group, first step, last step, definitions bound before)
        while k < len(claims):
            group = [claims[k]]
            while k + len(group) < len(claims) and claims[k + len(group)].joinable:
                group.append(claims[k + len(group)])
            start = len(self.steps)
            self.check_group(group, notes)
            done.append((group, start, len(self.steps), self.bound))
            k += len(group)
        self.read_again(done, notes)
        return self.steps

    def page_star(self) -> None:
        """``Here $*$ denote element-wise product between matrices``: a page that says its
        ``*`` is the element-wise product is read so (``*`` is otherwise a product, as
        ``\\cdot`` is), in every context, made now or later (:meth:`contexts_for`), before
        any claim is read; a note says so."""
        found = _STAR_ENTRYWISE.search(self.src.text)
        if found is None:
            return
        self.star_entrywise = True
        for contexts in self.contexts.values():
            for ctx in contexts:
                ctx.ref.star_entrywise = True
        line = self.src.line_col(found.start())[0]
        self.notes.append(f"line {line}: * is read as the element-wise product, as the page "
                          f"says")

    def page_example_sizes(self, chains: list) -> None:
        """A worked example against general sizes (``Y = XW + B`` with no ``--shape``):
        the page's numbers for the operands (``X = [[1, 0], [0, 1], [1, 1]]``, ``W = ...``)
        fix the sizes, and the target is checked at those sizes, where the numbers are
        the operands' values; otherwise every line of numbers was "not checked" and a
        matrix of numbers against a size choice (2 x 5 against the page's 1 x 3) was
        called wrong.  An operand written as one row where its shape has a size of rows
        (the bias B = (7, 8, 9) of XW + B) is read as that row, added to every row, when
        the target's formula can be read again with that shape.  Only when every size is
        fixed; the first numbers for a size are the example's (an operand that
        contradicts them is then wrong on its line); said in a note.  A page that also
        writes in the general sizes (a size letter, ``\\cdots``) is a general derivation
        with an example: it stays checked at the size choices, which tell m from n where
        an example with m = n could not."""
        from .general import instantiate, size_names
        for target in self.targets:
            if not target.general:
                self._page_bias_rows(chains, target)
                continue
            d = target.derivation
            operands = dict(getattr(d, "operands", None) or {})
            names = size_names(d)
            shapes, first = self._page_numbers(chains, target)
            if not shapes or self._general_notation(chains, target, names):
                continue             # no numbers, or a general derivation with an example
            def values_of_sizes(rows_only) -> dict:
                """size name -> the values the page's numbers give it, in page order"""
                fixed: dict = {}
                for name, (rows, cols) in shapes.items():
                    seq = operands[name]
                    for dim, n in (((seq.cols, cols),) if name in rows_only else
                                   ((seq.rows, rows), (seq.cols, cols))):
                        if str(dim) in names and n not in fixed.setdefault(str(dim), []):
                            fixed[str(dim)].append(n)
                return fixed

            fixed = values_of_sizes(())
            # operands the page writes as one row where another operand fixes the rows
            rows_only = {name for name, (rows, _) in shapes.items()
                         if rows == 1 and len(fixed.get(str(operands[name].rows), ())) > 1}
            if rows_only:
                fixed = values_of_sizes(rows_only)
            if set(fixed) != set(names):
                continue                 # a size the numbers leave open
            # two values for a size (X 3 x 2, then W 3 x 3 for XW): the first numbers are
            # the example's, and the operand that contradicts them is wrong on its line
            sizes = {k: v[0] for k, v in fixed.items()}
            try:
                concrete = self._rebuilt(d, sizes, rows_only) if rows_only else \
                    instantiate(d, sizes)
            except Exception:  # noqa: BLE001 - a derivation that cannot be rebuilt so
                continue
            self._retarget(target, concrete)
            line = self.src.line_col(first.pos)[0]
            said = ", ".join(f"{'ℓ' if k == 'ell' else k} = {v}" for k, v in sizes.items())
            note = (f"line {line}: the page's numbers for {', '.join(sorted(shapes))} fix "
                    f"the sizes ({said}): checked at those sizes")
            if rows_only:
                note += (f"; {', '.join(sorted(rows_only))} as one row, added to every row "
                         f"(as the page writes it)")
            self.notes.append(note)

    def _page_numbers(self, chains: list, target) -> tuple:
        """The shapes of the matrices of numbers the page gives the target's operands
        (``X = [[1, 0], [0, 1]]``: {X: (2, 2)}) and the first line that gives one; ({},
        None) when it gives none, (None, None) when it gives an operand two shapes."""
        from ..formula.values import is_matrix
        operands = dict(getattr(target.derivation, "operands", None) or {})
        ctx = self.contexts_for(target)[0]
        shapes, first = {}, None
        for chain in chains:
            if chain.problem is not None or self.section_of(chain.pos) is not target or \
                    len(chain.members) != 2 or chain.relations[0].kind != "eq":
                continue
            lu, ru = (self.unit(ctx, m) for m in chain.members)
            if isinstance(lu, tuple) or isinstance(ru, tuple) or len(lu.atoms) != 1:
                continue
            (atom,) = lu.atoms.values()
            if atom.kind != "whole" or atom.name not in operands:
                continue
            try:
                value = ctx.evaluator.value(ru, {})
            except Exception:  # noqa: BLE001 - not read here: read (or refused) later
                continue
            if not is_matrix(value) or value.free_symbols or \
                    shapes.setdefault(atom.name, value.shape) != value.shape:
                return None, None       # an operand given two shapes: not guessed
            first = chain if first is None else first
        return shapes, first

    def _page_bias_rows(self, chains: list, target) -> None:
        """``Y = XW + B`` with ``--shape`` for X and W only: B's shape is inferred, that
        of XW.  A page that gives B's numbers as one row of that width means the row
        added to every row (the bias of a layer), so the formula is read again with B one
        row, as the page writes it; said in a note.  Not where the shape of B was given,
        or where the formula cannot take a row there."""
        d = target.derivation
        written = getattr(getattr(d, "forward", None) or d, "shapes_written", None)
        if written is None:
            return
        operands = dict(getattr(d, "operands", None) or {})
        if set(operands) <= written:
            return           # every shape given: nothing the page's numbers could reshape
        shapes, first = self._page_numbers(chains, target)
        if not shapes:
            return
        rows_only = {name for name, (rows, cols) in shapes.items()
                     if rows == 1 and name not in written and
                     (operands[name].rows, operands[name].cols) != (1, cols) and
                     operands[name].cols == cols}
        if not rows_only:
            return
        try:
            concrete = self._rebuilt(d, {}, rows_only)
        except Exception:  # noqa: BLE001 - a formula that cannot take the row: as it is
            return
        self._retarget(target, concrete)
        line = self.src.line_col(first.pos)[0]
        shown = ", ".join(sorted(rows_only))
        self.notes.append(f"line {line}: the page writes {shown} as one row, added to every "
                          f"row (its shape was not given): checked so")

    def _retarget(self, target, concrete) -> None:
        """Check ``target`` against the derivation ``concrete`` from here on: the contexts
        and the units read in them are made again."""
        old = self.contexts.pop(id(target), [])
        self._retired = getattr(self, "_retired", []) + old   # their ids stay unique
        for key in [k for k in self.cache if isinstance(k, tuple) and len(k) == 2 and
                    any(k[0] == id(c) for c in old)]:
            del self.cache[key]
        target.derivation, target.general, target._instances = concrete, False, None

    def _general_notation(self, chains, target, names) -> bool:
        """Does the target's part of the page write a general size (``m``, ``\\ell``, in
        ``W_{m \\times n}`` or ``\\sum_{k=1}^{n}``) or elide with dots?"""
        letters = [r"\\ell" if n == "ell" else re.escape(n) for n in names]
        pattern = re.compile(r"\\[cvdl]?dots\b|(?<![A-Za-z\\])(?:%s)(?![A-Za-z])"
                             % "|".join(letters))
        return any(self.section_of(c.pos) is target and
                   pattern.search(self.src.text[c.pos:c.end]) for c in chains)

    @staticmethod
    def _rebuilt(d, sizes: dict, rows_only: set):
        """The target's formula read again at ``sizes``, the operands ``rows_only`` one
        row each (a bias row): ``explain``/``backward`` with those shapes and options."""
        from ..derive.backward import backward
        from ..derive.explain import explain
        forward = getattr(d, "forward", None) if d.kind == "backward" else d
        formula = getattr(forward, "formula", None)
        if forward is None or not isinstance(formula, str) or forward.kind != "explain":
            raise OptionError("not a formula to read again")
        shapes = {}
        for name, seq in forward.operands.items():
            rows, cols = (sizes.get(str(x), x) for x in (seq.rows, seq.cols))
            shapes[name] = (1 if name in rows_only else int(rows), int(cols))
        keep = ("causal", "scale", "diagonal", "heads", "convention")
        options = {k: v for k, v in forward.options.items() if k in keep}
        if d.kind != "backward":
            return explain(formula, shapes, **options)
        return backward(formula, shapes, wrt=d.options.get("wrt"),
                        notation=d.options.get("notation", "bar"), **options)

    def page_inputs(self, chains: list) -> None:
        """``softmax(x)_i = e^{x_i} / \\sum_{j=1}^{n} e^{x_j}`` against ``P =
        \\mathrm{softmax}(S)``: a name the page uses only as the whole argument of a
        function the target applies to one of its operands is the page's name for that
        operand (x for S), and its entries x_i are the operand's (S a single row, 1 x n);
        a sum up to a letter of the page's own over an index that subscripts it
        (\\sum_{j=1}^{n} e^{x_j}) makes that letter its length.  Said in a note.  Nothing
        is bound when the name is used otherwise too (bare, outside the function), when
        the function applies to more than one operand or to a matrix of several rows, when
        the name is one the derivation knows, or when its sums run to a size of the
        derivation's that is not its length (the page's n where the target's n is
        another size)."""
        from ..reader.entries.uses import name_uses, sum_limits
        from ..reader.notation import lookup_function
        from .engine import plans
        for target in self.targets:
            mine = [c for c in chains if c.problem is None and self.section_of(c.pos) is target]
            uses = [u for c in mine for m in c.members for u in name_uses(m.nodes, self.src)]
            sums = [s for c in mine for m in c.members for s in sum_limits(m.nodes, self.src)]
            contexts = self.contexts_for(target)
            ref = contexts[0].ref
            known = set(self.contexts_for(target)[0].translator._canonical_names())
            heads = dict.fromkeys(
                u.parts.head for u in uses
                if u.function is not None and u.parts.sub is None and u.parts.sup is None
                and u.parts.accent is None and u.parts.grad is None
                and len(u.parts.head) == 1 and u.parts.head.isalpha()
                and u.parts.head.islower())
            for head in heads:
                if head == "e" or head in known or (head, "") in ref.by_letter or \
                        head in ref.sizes or head in getattr(ref, "page_scalars", {}):
                    continue
                mine_uses = [u for u in uses if u.parts.head == head]
                if any(u.parts.sub is None and (u.function is None or u.parts.sup is not None
                                                or u.parts.accent is not None)
                       for u in mine_uses):
                    continue            # x used bare elsewhere: not only an argument
                words = {u.function for u in mine_uses if u.function is not None}
                operands = set()
                for word in words:
                    fn = lookup_function(word)
                    for plan in plans(ref.derivation):
                        for node in plan.nodes:
                            if node.reading != fn.reading or len(node.inputs) != 1 or \
                                    (fn.reading == "apply" and
                                     getattr(node.expr, "func", None) != fn.key):
                                continue
                            (arg,) = node.inputs
                            if arg is not None and arg.reading == "operand":
                                operands.add(arg.name)
                if len(operands) != 1:
                    continue            # applied to none of the operands, or to several
                (name,) = operands
                if any(ctx.ref.quantities[name].rows != 1 or
                       ctx.ref.quantities[name].cols < 2 for ctx in contexts):
                    continue            # x_i of a matrix: a row or an entry? not guessed
                lengths = {s.upper for s in sums
                           if any(p.head == head for p in s.indexed)}
                if any(ctx.ref.sizes.get(u, ctx.ref.quantities[name].cols) !=
                       ctx.ref.quantities[name].cols for u in lengths for ctx in contexts):
                    continue            # its sums run to a size of the target's, not its length
                lengths = {u for u in lengths
                           if u not in ref.sizes and u not in known and
                           (u, "") not in ref.by_letter and u != head and
                           all(p.head == head for s in sums if s.upper == u
                               for p in s.indexed)}
                for ctx in contexts:
                    ctx.ref.name_input(head, head, name)
                    for u in lengths:
                        ctx.ref.own_size(u, ctx.ref.quantities[name].cols)
                first = next(u for u in mine_uses if u.function is not None)
                word = lookup_function(first.function).text
                line = self.src.line_col(first.pos)[0]
                q = ref.quantities[name]
                said = (f"line {line}: {head} is read as {name}, the operand the target "
                        f"applies {word} to (the page's {word}({head})); its entries "
                        f"{head}_i as those of {name}'s one row")
                if lengths:
                    shown = ", ".join(sorted(lengths))
                    size = "" if target.general else f" ({q.cols})"
                    said += f", and {shown} as its length{size}"
                self.notes.append(said)
        self.read_unread_again()

    def page_accents(self, chains: list) -> None:
        """``Y = XA^T + \\hat{b}`` then ``y_{ij} = x_{ik} c_{kj} + \\mathbf{1}_i b_j``: a page
        whose accent marks a vector (robotchinwag's "the hat over \\hat{b} indicates it's
        a vector") writes the vector whole with its accent and its entries without it.
        ``b_j`` is read as an entry of ``\\hat{b}`` only when nothing else could be meant:
        the target is a vector (1 x n or n x 1) whose letter carries one accent, the
        target knows no name of the bare letter, the page writes the bare letter only
        with an index and never whole, and writes the accented vector never with an index
        (a page that writes ``\\hat{y}_j`` beside ``y_j`` means two things).  Said in a
        note."""
        from ..reader.entries.uses import name_uses
        from ..reader.notation import NameError_, parse_name
        for target in self.targets:
            mine = [c for c in chains if c.problem is None and self.section_of(c.pos) is target]
            uses = [u for c in mine for m in c.members for u in name_uses(m.nodes, self.src)]
            contexts = self.contexts_for(target)
            ref = contexts[0].ref
            known = set(contexts[0].translator._canonical_names())
            for q in list(ref.quantities.values()):
                if q.level != 0 or not (q.rows == 1 or q.cols == 1) or q.rows == q.cols:
                    continue
                try:
                    parts = parse_name(q.name)
                except (NameError_, ValueError):
                    continue
                if parts.accent is None or " " in parts.accent or parts.grad is not None \
                        or not parts.lowercase:
                    continue
                bare = dataclasses.replace(parts, accent=None)
                if bare.canonical in known or (bare.head, q.tag) in ref.by_letter or \
                        bare.head in ref.sizes:
                    continue
                # the uses of the letter, a gradient's bar taken off (\bar{b}_p is the
                # page's \partial l / \partial b_p, rewritten before)
                written = [(u, _without_bar(u.parts)) for u in uses
                           if u.parts.head == parts.head and u.parts.sup == parts.sup]
                accented = [u for u, a in written if a == parts.accent]
                plain_uses = [u for u, a in written if a is None]
                if not plain_uses or any(u.parts.sub is None for u in plain_uses) or \
                        any(u.parts.sub is not None for u in accented) or \
                        any(a not in (None, parts.accent) for _, a in written):
                    continue
                grad = f"\\bar{{{q.name}}}"
                for ctx in contexts:
                    ctx.ref.by_letter[(bare.head, q.tag)] = ctx.ref.quantities[q.name]
                    if grad in ctx.ref.quantities:
                        ctx.ref.by_letter[(f"\\bar{{{bare.head}}}", q.tag)] = \
                            ctx.ref.quantities[grad]
                    ctx.ref.__dict__.pop("_canonical_names", None)
                first = plain_uses[0]
                line = self.src.line_col(first.pos)[0]
                shown = self.src.original[first.pos:first.end]
                self.notes.append(f"line {line}: {shown} is read as an entry of {q.name}: the "
                                  f"page writes {q.name} only whole and {bare.head} only with "
                                  f"an index")
        self.read_unread_again()

    def page_upstream(self, chains: list) -> None:
        """``\\Delta = \\left(\\begin{array}{ccc} \\delta_{11} & \\ldots & \\delta_{1n} \\\\
        \\vdots & \\ddots & \\vdots \\\\ \\delta_{h1} & \\ldots & \\delta_{hn}
        \\end{array}\\right)`` against a backward pass: a name the derivation does not know
        (a capital: Δ, whose entries are δ by the naming table), defined as the matrix of
        its own entries, is a matrix of free entries; in a backward pass the upstream
        gradient is the one free matrix, so one of exactly its shape is the page's name
        for it (the prose's "first we find δ").  Its entry indices that are letters (h, n)
        are the page's sizes, read off the places they index.  Bound, and said in a note,
        only when the page has one such definition, of the upstream's shape, and defines
        the name nowhere else; a one-index δ_j of it is then another notation (one
        sample's), read but not checked: the page gave Δ by its entries only."""
        from .own import bind, defined_name
        for target in self.targets:
            contexts = self.contexts_for(target)
            ref0 = contexts[0].ref
            upstream = getattr(ref0.derivation, "upstream", None)
            if getattr(ref0.derivation, "kind", None) != "backward" or upstream is None:
                continue
            mine = [c for c in chains if c.problem is None and self.section_of(c.pos) is target]
            found, lefts = [], {}
            for chain in mine:
                if not chain.relations or chain.relations[0].kind != "eq":
                    continue
                named = defined_name(chain.members[0].nodes, self.src, ref0, self.scripts)
                if named is None:
                    continue
                parts, indices, power = named
                key = dataclasses.replace(parts, font=None).canonical
                lefts[key] = lefts.get(key, 0) + 1
                if indices or power != 1 or parts.lowercase or parts.sub is not None or \
                        parts.sup is not None or parts.accent is not None or \
                        len(chain.members) != 2:
                    continue
                got = [self._own_entries(chain, parts, ctx) for ctx in contexts]
                if all(g is not None for g in got):
                    found.append((chain, parts, key, got))
                elif any(g is not None for g in got):
                    found.append(None)          # a reading in some instances only
            if len(found) != 1 or found[0] is None or lefts.get(found[0][2], 0) != 1:
                continue       # none, or more than one thing the upstream could be
            chain, parts, key, got = found[0]
            for ctx, (up, sizes) in zip(contexts, got):
                for letter, size in sizes.items():
                    ctx.ref.own_size(letter, size)
                bind(ctx.ref, parts, (), up.symbols)
                ctx.ref.entries_only = getattr(ctx.ref, "entries_only", frozenset()) | {key}
                ctx.ref.__dict__.pop("_canonical_names", None)
            up, sizes = got[0]
            shown = " ".join(self.text_of(chain.members[0]).split())
            line = self.src.line_col(chain.pos)[0]
            said = f"{shown} = {up.name}"
            if sizes and not target.general:
                said += " (" + ", ".join(f"{k} = {v}" for k, v in sizes.items()) + ")"
            self.upstream_named[id(chain)] = (
                f"the page's name for the upstream gradient: {said}, the one matrix of free "
                f"entries of its shape; followed in what comes after")
            self.notes.append(f"line {line}: {shown}, a matrix of free entries of the shape "
                              f"of the upstream gradient {up.name}, is read as the page's "
                              f"name for it ({said})")
            self.bound += 1
        self.read_unread_again()

    def _own_entries(self, chain, parts, ctx):
        """(the upstream's quantity, the page's sizes) when the chain's right side is the
        matrix of the entries of ``parts`` (a name of the upstream gradient's shape), read
        in a copy of ``ctx``'s reference; else None."""
        from .own import bind
        from ..reader.entries.uses import name_uses
        from ..reader.entries.translate import TranslateError
        from ..reader.entries.parse import ReadError
        from ..reader.notation import GREEK_CAPITALS
        from ..formula.values import MathError, is_matrix
        ref = ctx.ref
        upstream = sympy.ImmutableMatrix(ref.derivation.upstream)
        up = next((q for q in ref.quantities.values() if q.symbols == upstream), None)
        if up is None or (up.rows, up.cols) == (1, 1):
            return None
        letter = GREEK_CAPITALS.get(parts.head) or \
            (parts.head.lower() if len(parts.head) == 1 else None)
        if letter is None:
            return None
        right = chain.members[1]
        dims = _index_dims([u for u in name_uses(right.nodes, self.src)
                            if u.parts.head == letter], (up.rows, up.cols))
        if dims is None:
            return None
        sizes = {}
        for name, dim in dims.items():
            if name in ref.sizes or name in getattr(ref, "renamed_sizes", {}):
                if ref.sizes.get(name, getattr(ref, "renamed_sizes", {}).get(name)) != dim:
                    return None      # the page's n is not the upstream's size: not guessed
            else:
                sizes[name] = dim
        trial = ref.with_own_values(ref.values)
        trial.__dict__["_owns_tables"] = False
        for name, dim in sizes.items():
            trial.own_size(name, dim)
        try:
            q = bind(trial, parts, (), up.symbols)
        except MathError:
            return None
        try:
            value = self.value_in(ctx, trial, right)
        except (TranslateError, ReadError, MathError):
            return None
        if not is_matrix(value) or value.shape != (q.rows, q.cols) or \
                sympy.ImmutableMatrix(value) != q.symbols:
            return None
        return up, sizes

    def page_index_sizes(self, chains: list) -> None:
        """``x_{1m}``, ``x_{hm}``, ``w_{m1}`` where the derivation's m (3) is more than the
        places it indexes (X's 2 columns, W's 2 rows): a size letter written as an entry's
        index past the matrix's end is the page's own name for a size, not the
        derivation's.  When every such use indexes places of one count, that count is the
        page's size of that name for the page (said in a note); when they disagree,
        nothing is bound (the lines say what they say)."""
        from ..reader.entries.uses import name_uses
        for target in self.targets:
            contexts = self.contexts_for(target)
            mine = [c for c in chains if c.problem is None and self.section_of(c.pos) is target]
            uses = [u for c in mine for m in c.members for u in name_uses(m.nodes, self.src)]
            for ctx in contexts:
                ref = ctx.ref
                places: dict = {}
                for use in uses:
                    q = ref.by_letter.get((use.parts.head, use.parts.sup or ""))
                    if q is None or use.parts.accent is not None or q.rows == 1 or \
                            q.cols == 1:
                        continue
                    for name, dims in (_index_dims([use], (q.rows, q.cols), one=False)
                                       or {}).items():
                        places.setdefault(name, set()).update(dims)
                own = getattr(ref, "page_size_names", frozenset())
                for name, dims in places.items():
                    value = ref.sizes.get(name, getattr(ref, "renamed_sizes", {}).get(name))
                    if value is None or name in own or len(dims) != 1:
                        continue
                    (dim,) = dims
                    if value <= dim:
                        continue
                    ref.own_size(name, dim)
                    ref.__dict__.pop("_canonical_names", None)
                    if ctx is contexts[0]:
                        shown = "\\ell" if name == "ell" else name
                        self.notes.append(
                            f"the page's {shown} is {dim}, the count of the places it "
                            f"indexes (written as an entry's index past this derivation's "
                            f"{shown}): the page's own size")
        self.read_unread_again()

    def page_lengths(self, chains: list) -> None:
        """``\\sum_{j=1}^{n} e^{x_j}`` against ``softmax(X)`` with X of one row: a sum up
        to a letter the derivation does not know, over an index that subscripts the
        entries of one of its vectors (x_j of X, 1 x ℓ), makes that letter the vector's
        length for the page (n = ℓ), said in a note.  Only when the letter is nothing the
        derivation or the page names already, and every such sum gives it one length; a
        sum whose term does not use its index (the slip \\sum_{j=1}^{n} e^{x_i}) says
        nothing of it."""
        from ..reader.entries.uses import sum_limits
        for target in self.targets:
            contexts = self.contexts_for(target)
            mine = [c for c in chains if c.problem is None and self.section_of(c.pos) is target]
            sums = [s for c in mine for m in c.members for s in sum_limits(m.nodes, self.src)]
            if not sums:
                continue
            known = set(contexts[0].translator._canonical_names())
            found = []                   # per context: {letter: (length, the vector, sum)}
            for ctx in contexts:
                ref = ctx.ref
                taken = set(ref.sizes) | known | set(getattr(ref, "page_size_names", ())) | \
                    set(getattr(ref, "page_scalars", {}))
                lengths: dict = {}
                bad: set = set()
                for s in sums:
                    u = s.upper
                    if u in taken or (u, "") in ref.by_letter:
                        bad.add(u)
                        continue
                    for p in s.indexed:
                        key = dataclasses.replace(p, font=None, sub=None, sup=None).canonical
                        q = ref.by_letter.get((key, p.sup or ""))
                        if q is None:
                            continue     # the page's own name (its labels y_i): no length
                        if p.grad is not None:
                            bad.add(u)
                            continue
                        n = q.cols if q.rows == 1 else q.rows if q.cols == 1 else None
                        if n is None or n < 2:
                            bad.add(u)
                            continue
                        lengths.setdefault(u, set()).add((n, q.name, key, s))
                found.append({u: got for u, got in lengths.items()
                              if u not in bad and len({n for n, *_ in got}) == 1})
            letters = set.intersection(*(set(f) for f in found)) if found else set()
            for u in sorted(letters):
                for ctx, got in zip(contexts, found):
                    ctx.ref.own_size(u, next(iter(got[u]))[0])    # one length, seen above
                    ctx.ref.__dict__.pop("_canonical_names", None)
                n, name, key, s = min(found[0][u], key=lambda g: g[3].pos)
                line = self.src.line_col(s.pos)[0]
                size = "" if target.general else f" ({n})"
                self.notes.append(f"line {line}: the page's {u} is the length of {name}"
                                  f"{size}, the end of its sums over the entries "
                                  f"{key}_{s.index}: the page's own size")
        self.read_unread_again()

    def read_again(self, done: list, notes: dict) -> None:
        """A line that uses a name the page defines only after it (``LayerNorm(x_i) =
        (x_i - \\mu_i)/..., \\mu_i = ...``) is read again once every definition is known;
        its new reports replace the old where they read more of it."""
        for group, start, end, bound in reversed(done):
            if bound == self.bound or not any(r.status == "unreadable"
                                              for r in self.steps[start:end]):
                continue
            self.cache.clear()      # a unit read before the names were known
            steps, self.steps = self.steps, []
            try:
                self.check_group(group, notes)
                again = self.steps
            finally:
                self.steps = steps
            def unread(reports):
                return sum(r.status == "unreadable" for r in reports)
            if unread(again) < unread(steps[start:end]):
                self.steps[start:end] = again

    _IF = re.compile(r"(?:if|when|whenever|where|for|provided(?: that)?|as long as)",
                     re.IGNORECASE)

    def conditional(self, claim, chain) -> bool:
        """``$... = 0$ if $i \\neq d$``: a condition in the prose right after a claim,
        joined to it by if, when, where or for, restricts the claim as a note does."""
        between = _FRAME.sub(" ", self.src.text[claim.end:chain.pos])
        between = re.sub(r"[$\\()\[\]\s]+", " ", between).strip()
        if not (len(between) <= 30 and self._IF.fullmatch(between)):
            return False
        # ``\]If $i = k$, \[ ... \]``: a sentence that opens with the condition and goes on
        # after a comma is about the claim after it (see preconditional), not this one
        after = re.match(r"[$\\)\s]*(?:[,，]|then\b)", self.src.text[chain.end:])
        return not (between[0].isupper() and after)

    #: what ends a condition written before its claim: 当 $i \neq d$ 时, $i \ne j$ のとき
    _WHEN_AFTER = re.compile(r"(?:时|时候|的时候|のとき|の時|の場合|ならば|では)")
    #: what opens one, the claim after it in the same sentence: if $i \ne d$, then ...
    _WHEN_BEFORE = re.compile(r"(?:\b(?:if|when|whenever|for)|当|若|如果)\s*$", re.IGNORECASE)

    def preconditional(self, note, claim) -> bool:
        """``而当 $i \\neq d$ 时，$$\\frac{\\partial Y_{ij}}{\\partial W_{dc}} = 0$$``: a
        condition in the prose right before a claim, closed by 时 / のとき (or opened by
        if, when, for and followed by nothing but a comma or 'then'), restricts that claim
        as a note after it does (the claim was checked for every index and called wrong)."""
        between = _FRAME.sub(" ", self.src.text[note.end:claim.pos])
        if len(between) > 30:
            return False
        after = re.sub(r"[$\\()\[\]\s,，、:：]+", "", between)
        if self._WHEN_AFTER.fullmatch(after):
            return True
        if after not in ("", "then"):
            return False
        before = self.src.text[max(0, note.pos - 20):note.pos]
        before = re.sub(r"[$\\()\[\]]+", " ", before).rstrip()
        return bool(self._WHEN_BEFORE.search(before))

    def gradients(self, tree):
        """Against a backward derivation, gradients as students write them (∂L/∂X, ∇_X L,
        G_X) are read as its quantities X̄ (see :mod:`symrow.reader.entries.gradients`)."""
        from ..reader.entries.gradients import rewrite
        from .hints import is_backward
        backward = [t.derivation for t in self.targets if is_backward(t.derivation)]
        if not backward:
            return tree
        names = {name for d in backward for name in d.forward.quantities}
        return rewrite(tree, names)

    def read_tree(self):
        """The page as a tree.  In Markdown, a paragraph whose braces or environments do
        not balance is listed as not read, and the rest of the page is read."""
        from ..reader.lexer import build_tree, tokenize
        first = None
        for _ in range(50):
            try:
                return self.gradients(build_tree(tokenize(self.src.text), self.src))
            except ParseError as err:
                if first is None:
                    first = err
                if not self.page.markdown:
                    raise
                pos = self._offset(err.line, err.column)
                text = self.page.text
                start = text.rfind("\n\n", 0, pos)
                start = 0 if start == -1 else start + 2
                end = text.find("\n\n", pos)
                end = len(text) if end == -1 else end
                if start == 0 and end == len(text) or not text[start:end].strip():
                    raise first from None
                self.page.unread.append((pos, pos + 1, f"{err.reason}: this paragraph was not read"))
                self.page.text = "".join(ch if ch == "\n" else " " for ch in text[start:end]
                                         ).join((text[:start], text[end:]))
                self.src = _PageSource(self.page)
        raise first

    def _offset(self, line: int, column: int) -> int:
        starts = [0] + [k + 1 for k, ch in enumerate(self.page.text) if ch == "\n"]
        return starts[max(0, min(line, len(starts)) - 1)] + max(column, 1) - 1

    def check_group(self, group: list, notes: dict) -> None:
        """A chain and the chains that may continue it (an ambiguous layout)."""
        current = group[0]
        reports = self.check_chain(current, notes.get(id(current), []))
        for nxt in group[1:]:
            mine = self.check_chain(nxt, notes.get(id(nxt), []))
            boundary = reports[-1:] + mine[:1]
            if all(r.status == "holds" for r in boundary) or not current.members or \
                    not nxt.members:
                self.steps.extend(reports)
                current, reports = nxt, mine
                continue
            joined = _join(current, nxt)
            theirs = self.check_chain(joined, notes.get(id(nxt), []))
            cut = len(current.relations)
            near = theirs[max(cut - 1, 0):cut + 1]
            if near and all(r.status == "holds" for r in near):
                current, reports = joined, theirs
                continue
            reason = ("the layout is ambiguous here: the line after the break may start a "
                      "new equation or continue the one above; write \\\\ between equations, "
                      "or keep one expression on one line")
            fixed = []
            for r in reports[:-1]:
                fixed.append(r)
            for r in reports[-1:] + mine[:1]:
                if r.status == "wrong":
                    r = dataclasses.replace(r, status="unreadable", message=reason,
                                            error={**self.error_at(r), "message": reason},
                                            entry=None, detail=None, others=(), indices=None,
                                            sizes=None)
                fixed.append(r)
            self.steps.extend(fixed[:len(reports)])
            current, reports = nxt, fixed[len(reports):] + mine[1:]
        self.steps.extend(reports)

    def error_at(self, r: StepReport) -> dict:
        return {"line": r.line, "column": r.column, "near": r.left[:30]}

    # -- the vector convention ---------------------------------------------------------------
    def choose_convention(self, claims: list) -> None:
        """Rows (symrow's reading) or columns: as the page states it in words, else as the
        first claim with vectors that only one reading makes sense of."""
        import re
        prose = self.page.text
        said = {name for name, pattern in _CONVENTION_WORDS if re.search(pattern, prose)}
        if len(said) == 1:
            (name,) = said
            self.set_convention(name == "column",
                                f"{name} vectors (as the text states)")
            return
        used = False
        for chain in claims:
            if chain.problem is not None:
                continue
            target = self.section_of(chain.pos)
            ctx = self.contexts_for(target)[0]
            for k, rel in enumerate(chain.relations):
                if rel.kind not in ("eq", "approx"):
                    continue
                lu, ru = self.unit(ctx, chain.members[k]), self.unit(ctx, chain.members[k + 1])
                if isinstance(lu, tuple) or isinstance(ru, tuple):
                    continue
                if not (_has_vector(lu, ctx.ref) or _has_vector(ru, ctx.ref)):
                    continue
                used = True
                rows = _sensible(ctx.ref, lu, ru, column=False)
                cols = _sensible(ctx.ref, lu, ru, column=True)
                if rows != cols:
                    line = self.src.line_col(rel.pos)[0]
                    which = "row" if rows else "column"
                    self.set_convention(cols, f"{which} vectors (inferred from line {line}, "
                                              f"which only makes sense with {which} vectors)")
                    return
        if used:
            self.convention = "row vectors (symrow's reading; nothing on the page says "\
                              "otherwise)"

    def set_convention(self, column: bool, text: str) -> None:
        self.convention = text
        self.column = column
        for contexts in self.contexts.values():
            for ctx in contexts:
                ctx.evaluator = _evaluator(ctx.ref, column)

    # -- notes -------------------------------------------------------------------------------
    def as_note(self, chain, target: Target):
        """A range note (``1 \\le i \\le m``, ``j > i``, ``i = 1, \\dots, m``): its
        conditions (a list, empty for one that restricts nothing); None for a claim."""
        from ..reader.entries.indices import NotIndex, index_names, read_expr
        if chain.problem is not None or not chain.relations:
            return None
        if len(chain.relations) == 1 and chain.relations[0].kind == "in":
            return self.range_note(chain, target)
        if any(r.kind not in ("le", "lt", "ge", "gt", "eq", "ne") for r in chain.relations):
            return None
        items = []
        for member in chain.members:
            try:
                items.append(read_expr(member.nodes, subscripts=False))
            except NotIndex:
                return None
        sizes = target.instances()[0][1].sizes
        names = {n for item in items for n in index_names(item)}
        if any(not n[0].islower() for n in names):
            return None          # capitals name matrices: Q = K = V is a claim
        if not names or names <= set(sizes):
            return None          # only sizes and numbers: a claim such as d = 2
        if chain.listed or (len(items) == 2 and chain.relations[0].kind == "eq"
                            and not isinstance(items[0], str)):
            return []
        return [(r.kind, items[k], items[k + 1]) for k, r in enumerate(chain.relations)]

    def specializes(self, chain, target: Target) -> bool:
        """``\\ell = 3 のとき``, ``for $n = 4$``: against general sizes, a size set to a number
        is not a claim but a case; the claims after it in its paragraph are checked at the
        size choices where it holds."""
        from ..reader.entries.indices import NotIndex, read_expr
        if chain.problem is not None or len(chain.members) != 2 or \
                chain.relations[0].kind != "eq":
            return False
        if not target.general:
            return self.size_case(chain, target)
        try:
            a, b = (read_expr(m.nodes, subscripts=False) for m in chain.members)
        except NotIndex:
            return False
        from .general import size_names
        sizes = set(size_names(target.derivation))
        if isinstance(a, int) and isinstance(b, str):
            a, b = b, a
        if not (isinstance(a, str) and a in sizes and isinstance(b, int)):
            return False
        text = self.page.text
        end = text.find("\n\n", chain.end)
        end = len(text) if end == -1 else end
        self.scoped.append((chain.end, end, [("eq", a, b)]))
        shown = "\\ell" if a == "ell" else a
        line = self.src.line_col(chain.pos)[0]
        self.notes.append(f"line {line}: {shown} = {b} is a case, not a claim: what follows "
                          f"in its paragraph is checked where {shown} = {b}")
        return True

    def size_case(self, chain, target: Target) -> bool:
        """``m = 1 を代入すればOK``, ``for n = 1``: a size of a concrete derivation set to a
        number is a case the page considers, not a claim about this derivation's sizes."""
        from ..reader.entries.indices import NotIndex, read_expr
        try:
            a, b = (read_expr(m.nodes, subscripts=False) for m in chain.members)
        except NotIndex:
            return False
        if isinstance(a, int) and isinstance(b, str):
            a, b = b, a
        sizes = target.instances()[0][1].sizes
        if not (isinstance(a, str) and a in sizes and isinstance(b, int)) or sizes[a] == b:
            return False            # d = 2 where d is 2: a claim, and it holds
        shown = "\\ell" if a == "ell" else a
        line = self.src.line_col(chain.pos)[0]
        self.notes.append(f"line {line}: {shown} = {b} is a case the page considers, not a "
                          f"claim checked here (this derivation has {shown} = {sizes[a]})")
        return True

    def range_note(self, chain, target: Target):
        """``i \\in \\{1, 2\\}``, ``j \\in \\{1, \\dots, n\\}``, ``i \\in [m]``,
        ``k \\in \\mathbb{N}``: the range an index runs over (its conditions), or
        None when the left side is not an index (``A \\in \\mathbb{R}^{m \\times n}``
        is a claim)."""
        from ..reader.entries.indices import NotIndex, read_expr
        from ..reader.entries.units import is_token
        left, right = chain.members
        try:
            name = read_expr(left.nodes, subscripts=False)
        except NotIndex:
            return None
        if not isinstance(name, str) or not name[0].islower():
            return None
        sizes = target.instances()[0][1].sizes
        if name in sizes:
            return None
        from .relations import space_names
        if space_names(right.nodes) is not None:
            return None            # h \in \mathbb{R}^{1 \times 30}: a vector's space, a claim
        nodes = right.nodes
        if len(nodes) >= 2 and is_token(nodes[0], "\\{", "[", "\\lbrace") and \
                is_token(nodes[-1], "\\}", "]", "\\rbrace"):
            inner = nodes[1:-1]
            parts: list = [[]]
            for node in inner:
                if is_token(node, ","):
                    parts.append([])
                else:
                    parts[-1].append(node)
            dots = ("\\dots", "\\ldots", "\\cdots")
            items = [p for p in parts if p and not (len(p) == 1 and is_token(p[0], *dots))]
            try:
                values = [read_expr(p, subscripts=False) for p in items]
            except NotIndex:
                return []
            if is_token(nodes[0], "[") and len(values) == 1:
                values = [1, values[0]]            # [n] = {1, ..., n}
            if len(values) >= 2:
                listed = [v for v in values if isinstance(v, int)]
                if len(listed) == len(values) and listed != list(range(listed[0],
                                                                        listed[-1] + 1)):
                    return []                      # a set with gaps: no range to restrict
                return [("ge", name, values[0]), ("le", name, values[-1])]
        return []

    def notation(self, chain, target: Target) -> str | None:
        """A line that introduces notation rather than claiming something: a gradient's
        name (``\\bar{Z} = \\partial L / \\partial Z``), or a function-style heading
        (``\\mathrm{Attention}(Q, K, V) = ...``) that is not this derivation's.  The
        note to make, or None."""
        from ..reader.lexer import walk_tokens
        if chain.problem is not None:
            return None
        words = {t.text for m in chain.members for t in walk_tokens(m.nodes)}
        line = self.src.line_col(chain.pos)[0]
        if words & {"\\partial", "\\nabla"}:
            if len(chain.members) == 2 and chain.relations[0].kind == "eq" and \
                    any(_is_gradient(m.nodes) for m in chain.members) and \
                    any(_is_short_name(m.nodes) for m in chain.members) and \
                    not (self.local_derivative(chain, target) or
                         self.entry_derivative(chain, target)):
                return (f"line {line}: a notation for a gradient "
                        f"({' '.join(self.text_of(chain.members[0]).split())}): not a claim "
                        f"checked here")
            from .hints import is_backward
            generic = self.generic_chain_rule(chain, target)
            if generic is not None:
                return f"line {line}: {generic}"
            if is_backward(target.derivation):
                return None      # gradients and derivatives by entries: claims to check
            ctx = self.contexts_for(target)[0]
            if not any(isinstance(self.unit(ctx, m), tuple) for m in chain.members):
                return None      # derivatives by entries (the chain rule in indices): read
            # a claim about gradients: the derivation has none to compare with
            self.page.unread.append((chain.pos, chain.end,
                                     "a claim about gradients, which this derivation does "
                                     "not derive: not read"))
            return ""
        if len(chain.members) != 2 or chain.relations[0].kind != "eq":
            return None
        from .hints import is_backward
        if is_backward(target.derivation) and _is_loss(chain.members[0].nodes):
            if _is_specific_loss(chain.members[1].nodes):
                bound = self.loss_upstream(chain, target)
                if bound is not None:
                    return f"line {line}: {bound}"
                self.page_loss = (f"{' '.join(self.text_of(chain.members[0]).split())} = "
                                  f"{' '.join(self.text_of(chain.members[1]).split())}")
            return (f"line {line}: the loss, "
                    f"{' '.join(self.text_of(chain.members[0]).split())} = "
                    f"{' '.join(self.text_of(chain.members[1]).split())}: the backward pass "
                    f"starts from its gradient; not a claim checked here")
        ctx = self.contexts_for(target)[0]
        unit = self.unit(ctx, chain.members[0])
        if isinstance(unit, tuple) and unit[0].startswith("a function-style heading"):
            return f"line {line}: {unit[0]}"
        return None

    def without_heading(self, chain, target: Target):
        """``f(x_i) = softmax(x_i) = \\frac{...}{...}``: a first member that is a
        function-style heading of the page's own names what follows it; the claim is the
        chain from its second member, and a note says so.  The chain as it is otherwise."""
        if chain.problem is not None or len(chain.members) < 3 or \
                chain.relations[0].kind != "eq":
            return chain
        unit = self.unit(self.contexts_for(target)[0], chain.members[0])
        if not (isinstance(unit, tuple) and unit[0].startswith("a function-style heading")):
            return chain
        self.notes.append(f"line {self.src.line_col(chain.pos)[0]}: {unit[0]}")
        return dataclasses.replace(chain, members=chain.members[1:],
                                   relations=chain.relations[1:])

    def loss_upstream(self, chain, target: Target) -> str | None:
        """``L = -\\sum_k y_k \\log a_k`` against the backward pass of ``A =
        \\mathrm{softmax}(Z)``: the page's own loss, written in the entries of the
        derivation's result and labels of the page's own (y, of the result's shape), gives
        the upstream gradient its value, \\bar{a}_k = \\partial L / \\partial a_k (here
        -y_k / a_k), in every line after; the labels are free.  The labels of a
        cross-entropy (a loss -c \\sum y \\log a, c > 0) are a distribution, one-hot or
        any: each row of them sums to 1, which \\partial L / \\partial z_i = a_i - y_i
        uses, and its last entry is 1 minus the others.  The note to make, or None when
        the line is not such a loss (it reads in no way, names more than one name of its
        own, or the upstream has a value already)."""
        from .own import bind
        from ..formula.values import is_matrix
        if chain.problem is not None or len(chain.members) != 2 or self.upstream_named:
            return None
        contexts = self.contexts_for(target)
        found = []
        for ctx in contexts:
            derivation = ctx.ref.derivation
            upstream = getattr(derivation, "upstream", None)
            result = getattr(getattr(derivation, "forward", None), "result_name", None)
            if upstream is None or result not in ctx.ref.quantities:
                return None
            upstream = sympy.ImmutableMatrix(upstream)
            up = next((q for q in ctx.ref.quantities.values() if q.symbols == upstream), None)
            out = ctx.ref.quantities[result]
            if up is None or (up.rows, up.cols) != (out.rows, out.cols) or \
                    any(s in ctx.ref.values for s in up.symbols):
                return None
            found.append((up, out))
        right = chain.members[1]

        def attempt(ctx, out, names):
            return self.value_with_names(ctx, names, [(out.rows, out.cols)] * len(names),
                                         right)

        names: list = []
        while True:
            value, unknown, _ = attempt(contexts[0], found[0][1], names)
            if unknown is None or len(names) == 1:
                break
            # y_k: an entry of the labels y; y alone is the name bound
            names.append(dataclasses.replace(unknown, font=None, sub=None))
        if value is None or len(names) != 1 or names[0].accent is not None or \
                names[0].grad is not None:
            return None
        label = names[0]
        crosses, made = [], []
        for ctx, (up, out) in zip(contexts, found):
            loss, _, trial = attempt(ctx, out, names)
            if loss is None:
                return None
            if is_matrix(loss):
                if loss.shape != (1, 1):
                    return None
                loss = loss[0, 0]
            mine = list(trial.quantities[label.canonical].symbols)
            outs = list(out.symbols)
            if not loss.free_symbols or not loss.free_symbols <= set(mine) | set(outs):
                return None          # not a loss of the result and the labels alone
            # a cross-entropy: -c y log a in every label, one c > 0 for all
            scales = {sympy.simplify(-sympy.diff(loss, y) / sympy.log(a))
                      for y, a in zip(mine, outs)}
            scale = next(iter(scales)) if len(scales) == 1 else None
            cross = scale is not None and scale.is_number and scale.is_positive is True and \
                sympy.expand(loss + scale * sympy.Add(*[y * sympy.log(a) for y, a in
                                                        zip(mine, outs)])) == 0
            # the labels' free entries, shown as the page writes them (t_1, t_{12}; the
            # quantity's own entries are other symbols)
            head = label.head if len(label.head) == 1 else label.head + " "
            fresh = sympy.Matrix(out.rows, out.cols, lambda i, j: sympy.Symbol(
                f"{head}_{j + 1}" if out.rows == 1 and j < 9 else
                f"{head}_{{{i + 1}{j + 1}}}"))
            if set(fresh) & set(mine):
                fresh = sympy.Matrix(out.rows, out.cols, lambda i, j: sympy.Symbol(
                    f"{head}_{{{i + 1},{j + 1}}}"))
            if cross:        # each row a distribution: its last label 1 minus the others
                for i in range(out.rows):
                    fresh[i, out.cols - 1] = 1 - sympy.Add(*fresh[i, :out.cols - 1])
            labels = list(fresh)
            given = dict(zip(mine, labels))
            gradient = [sympy.diff(loss, a).xreplace(given) for a in outs]
            crosses.append(cross)
            made.append((ctx, up, out, gradient, labels))
        for ctx, up, out, gradient, labels in made:
            ctx.ref.values.update({u: ctx.ref.ground(g) for u, g in
                                   zip(ctx.ref.quantities[up.name].symbols, gradient)})
            bind(ctx.ref, label, (), sympy.ImmutableMatrix(out.rows, out.cols, labels))
            ctx.ref.loss_labels = (label.canonical, frozenset().union(
                *(getattr(v, "free_symbols", ()) for v in labels)))
        self.read_unread_again()
        self.bound += 1
        up, out = found[0]
        shown = " ".join(self.text_of(chain.members[1]).split())
        written = " ".join(self.text_of(chain.members[0]).split())
        said = (f"the page's loss {written} = {shown} gives the upstream gradient {up.name} "
                f"its value (\\partial {written} / \\partial {out.name}), in the page's own "
                f"labels {label.canonical}")
        if all(crosses):
            said += (", a distribution (one-hot or any): they sum to 1, as the labels of a "
                     "cross-entropy do")
        return said

    def local_derivative(self, chain, target: Target) -> bool:
        """``\\partial y_i / \\partial W_{i,j} = x_j``: a derivative of something that is
        not the loss, equal to a quantity the derivation knows, is a claim (the page's
        Jacobian entry), not a name given to a gradient."""
        from ..reader.lexer import walk_tokens
        grad = next(m for m in chain.members if _is_gradient(m.nodes))
        texts = [t.text for t in walk_tokens(grad.nodes)]
        if "\\nabla" in texts or len(texts) < 2:
            return False
        first = texts.index("\\partial")
        if texts[first + 1] in _LOSS_WORDS:
            return False
        other = chain.members[1] if grad is chain.members[0] else chain.members[0]
        return not isinstance(self.unit(self.contexts_for(target)[0], other), tuple)

    def entry_derivative(self, chain, target: Target) -> bool:
        """``\\partial O^{ib} / \\partial V^{mb} = P^{im}``: a derivative of something that is
        not the loss, by an entry, equal to a name the derivation has (an entry of P): a
        claim about a Jacobian's entry, not a notation for it."""
        from ..reader.entries.gradients import derivative_by_entry
        ctx = self.contexts_for(target)[0]
        for m in chain.members:
            if _is_gradient(m.nodes):
                if not derivative_by_entry(m.nodes):
                    return False
            elif _is_short_name(m.nodes) and isinstance(self.unit(ctx, m), tuple):
                return False
        return True

    def generic_chain_rule(self, chain, target: Target) -> str | None:
        """``\\partial L / \\partial x^j = \\partial L / \\partial y^i \\; \\partial y^i /
        \\partial x^j``: the chain rule stated for names this derivation does not have (any
        x and y): what the note says, or None when the chain is not one."""
        from ..reader.entries.gradients import chain_rule_letters
        if len(chain.members) < 2 or any(r.kind != "eq" for r in chain.relations):
            return None
        letters = chain_rule_letters([m.nodes for m in chain.members])
        letters = [x for x in letters or () if x not in ("L", "E", "J")]    # the loss
        if not letters:
            return None
        ctx = self.contexts_for(target)[0]
        if not all(isinstance(self.unit(ctx, m), tuple) for m in chain.members):
            return None
        known = {q.letter for q in ctx.ref.quantities.values()} | \
            {name[:1] for name in ctx.ref.quantities}
        if set(letters) & known:
            return None
        names = ", ".join(letters)
        return (f"the chain rule for {names} in general (names this derivation does not "
                f"have): a statement of the rule, not a claim checked here")

    # -- one chain -----------------------------------------------------------------------
    def check_chain(self, chain, conditions: list) -> list[StepReport]:
        conditions = conditions + [c for start, end, conds in self.scoped
                                   if start <= chain.pos < end for c in conds]
        if chain.problem is not None:
            message, pos, end = chain.problem
            line, column = self.src.line_col(pos)
            return [StepReport(0, line, column, self.src.original[pos:end], "", "unreadable",
                               message, error=self.error(message, pos, end))]
        target = self.section_of(chain.pos)
        chain = self.corrected(chain, target)
        dummies = self.function_definition(chain, target)
        if dummies:
            contexts = self.contexts_for(target)
            for ctx in contexts:
                ctx.translator.dummies = dummies
                for m in chain.members:          # read before as the matrix X
                    self.cache.pop((id(ctx), id(m)), None)
            try:
                return self._check_chain(chain, target, conditions)
            finally:
                for ctx in contexts:
                    ctx.translator.dummies = {}
        return self._check_chain(chain, target, conditions)

    _FUNCTION_OF = re.compile(r"^(?:\\operatorname\{(\w+)\}|\\mathrm\{(\w+)\}|\\(\w+))\s*"
                              r"(?:\\left\s*)?\(\s*([A-Za-z](?:\s*,\s*[A-Za-z])*)\s*"
                              r"(?:\\right\s*)?\)$")

    def function_definition(self, chain, target: Target) -> dict:
        """A function defined on variables of its own: ``\\operatorname{ReLU}(x) =
        \\max(0, x)`` or ``\\sigma(x) = 1/(1 + e^{-x})`` (applied entry by entry, on a
        number x, not the matrix X), ``\\mathrm{Attention}(Q, K, V) = ...`` where the
        derivation applies attention to other matrices (each head of multi-head attention
        to its projections: Q, K and V stand for any queries, keys and values, of d_k
        columns).  Its variables and their shapes
        (None for a number); empty when the line is no such definition."""
        if chain.problem is not None or len(chain.members) < 2 or \
                chain.relations[0].kind != "eq":
            return {}
        from ..reader.notation import lookup_function
        found = self._FUNCTION_OF.match(" ".join(self.text_of(chain.members[0]).split()))
        if not found:
            return {}
        word = found.group(1) or found.group(2) or found.group(3)
        args = [a.strip() for a in found.group(4).split(",")]
        fn = lookup_function(word)
        if fn is not None and fn.reading == "apply" and len(args) == 1 and args[0].islower():
            return {args[0]: None}
        ref = self.contexts_for(target)[0].ref
        operands = {q.name for q in ref.quantities.values() if q.level == 0}
        heads = any(name.startswith("\\mathrm{head}") for name in ref.quantities)
        if word == "Attention" and len(args) == 3 and len(set(args)) == 3 and \
                all(a.isupper() for a in args) and ref.result not in (
                    "\\mathrm{Attention}", "Attention") and \
                (heads or not set(args) <= operands):
            sizes = ref.sizes
            dk = sizes.get("d_k", sizes.get("d", 2))
            dk = dk if isinstance(dk, int) else 2
            return {args[0]: (2, dk), args[1]: (3, dk), args[2]: (3, 2)}
        return {}

    def _check_chain(self, chain, target, conditions: list) -> list[StepReport]:
        self.chain_members = chain.members
        out = []
        defining = self.definition_chain(chain, target)
        own = self.shape_statement(chain, target)
        if own is None and id(chain) in self.upstream_named:
            own = Outcome("defines", self.upstream_named[id(chain)])
        if own is None and not defining:
            own = self.page_definition(chain, target)
        if own is None and not defining:
            own = self.upstream_definition(chain, target)
        for k, rel in enumerate(chain.relations):
            lm, rm = chain.members[k], chain.members[k + 1]
            # Q = K = [numbers]: each name is given the values on the far right
            self.defining = defining
            try:
                if k == 0 and own is not None:
                    outcome = own
                else:
                    outcome = self.check_step(target, rel, lm,
                                              chain.members[-1] if defining else rm,
                                              conditions)
                    if k == 0 and outcome.status == "wrong" and not defining:
                        outcome = self.page_convention(chain, target) or outcome
                    if not defining and _formal(outcome):
                        outcome = self.across_formal(chain, k, target, conditions, outcome)
            finally:
                self.defining = False
            left_text = " ".join(self.text_of(lm).split())
            if k == 0 and outcome.status == "holds":
                self.held.add(left_text)
            elif k == 0 and outcome.status == "wrong" and left_text in self.held and \
                    outcome.kind == "undefined product":
                # D = WX held above, and now an inline D = XW, undefined at these shapes:
                # the page speaks of another convention ("others may use D = XW")
                outcome = Outcome("unchecked", f"{left_text} was given above, and this "
                                               f"product is undefined at its shapes: read as "
                                               f"a remark about another convention; not "
                                               f"checked")
            if outcome.status == "wrong" and not chain.display and self.prose_page:
                # text with no math markup (a copy that lost its delimiters, rendered
                # glyphs): read, but never called wrong on a reading that is not sure
                message = ("this line is plain text, with no math markup: it is not judged "
                           "wrong on a guess at what it says; mark the mathematics ($...$, "
                           "\\[...\\]) to have it checked")
                outcome = Outcome("unreadable", message, error=(message, rel.pos, rel.end))
            line, column = self.src.line_col(rel.pos)
            err = None
            if outcome.error is not None:
                err = self.error(*outcome.error)
            def report(o: Outcome) -> StepReport:
                return StepReport(
                    0, line, column, self.text_of(lm), self.text_of(rm), o.status,
                    o.message, entry=o.entry, indices=o.indices,
                    detail=o.detail, others=tuple(o.others), error=err,
                    relation=rel.kind, sizes=o.sizes,
                    section=target.section, symbol=rel.token.text, shapes=o.shapes)
            out.append(report(outcome))
            if outcome.pending is not None:
                outcome.pending.sizes = outcome.sizes
                self.pending[id(out[-1])] = report(outcome.pending)
        return out

    #: the loss in a derivative: \partial L, \partial \mathcal{L}, dL, \partial E
    _LOSS = re.compile(r"(?:\\partial|(?<![A-Za-z\\])d)\s*\{?\s*(?:L|\\mathcal\s*\{?\s*L|\\ell|E|J)"
                       r"(?![A-Za-z])")

    def is_formal(self, target, rel, member) -> bool:
        """Is ``member`` the chain rule written formally (``\\frac{\\partial L}{\\partial Y}
        \\frac{\\partial Y}{\\partial X}``): a Jacobian of a matrix by a matrix in it?"""
        key = (id(member), id(target))
        if key not in self.formal_members:
            self.formal_members[key] = _formal(self.check_step(target, rel, member, member, []))
        return self.formal_members[key]

    def across_formal(self, chain, k, target, conditions, outcome) -> Outcome:
        """``\\frac{\\partial L}{\\partial X} = \\frac{\\partial L}{\\partial Y}
        \\frac{\\partial Y}{\\partial X} = \\frac{\\partial L}{\\partial Y} W``: a step
        with the chain rule written formally on one side.  The members on either side of
        the formal ones are compared with each other, at the step that reaches the second
        (it was not checked at all, and a slip after the formal chain left the page
        'holds').  A formal member with a value on one side only (``\\frac{\\partial Y}
        {\\partial W} = X^T``, the shorthand) is not read: a slip in it could not be told."""
        members = chain.members
        rel = chain.relations[k]
        formal = [self.is_formal(target, rel, m) for m in members]
        if formal[k] and formal[k + 1]:
            return outcome                  # the formal chain rewritten: notation
        values = [j for j, f in enumerate(formal) if not f]
        if not formal[k + 1]:
            before = [j for j in values if j < k + 1]
            if before:
                j = before[-1]
                found = self.check_step(target, rel, members[j], members[k + 1], conditions)
                anchor = " ".join(self.text_of(members[j]).split())
                if found.status == "wrong" and found.kind == "undefined product" and \
                        anchor in self.held:
                    # ∂L/∂W held above, and now ∂L/∂Y ∂Y/∂W = ∂L/∂Y X, undefined: the
                    # page shows what a naive chain rule gives (as for D = XW below)
                    return Outcome("unchecked", f"{anchor} was given above, and this product "
                                                f"is undefined at its shapes: read as the "
                                                f"page's remark on a wrong reading of the "
                                                f"chain rule; not checked")
                if found.status in ("holds", "wrong"):
                    shown = anchor
                    if len(shown) > 40:
                        shown = shown[:37] + "..."
                    return dataclasses.replace(
                        found, message=f"across the chain rule written formally, against "
                                       f"{shown}" + (f": {found.message}" if found.message
                                                     else ""))
                return found if found.status == "unreadable" else outcome
        elif [j for j in values if j > k + 1]:
            return outcome                  # compared at the step that reaches the value
        if any(f and self._LOSS.search(self.text_of(m)) for f, m in zip(formal, members)):
            return outcome      # ∂L/∂X = ∂L/∂F ∂F/∂X: the chain rule itself, as before
        message = ("a Jacobian of a matrix by a matrix, set equal to a value with nothing "
                   "to compare across it: the chain rule's shorthand, not a matrix; a slip "
                   "in it could not be told, so it is not read")
        return Outcome("unreadable", message, error=(message, rel.pos, rel.end))

    # two size letters: a pair of numbers, x = (1, 2), is a vector's values, not a shape
    _PAIR = re.compile(r"\(\s*([A-Za-z])\s*,\s*([A-Za-z])\s*\)")

    def shape_statement(self, chain, target: Target):
        """``X = (m, n)``: a matrix said to have m rows and n columns, the shape written
        as a pair of size letters (as some pages write it, after numpy).  The sizes it
        names are the page's own for what follows.  None when the chain is not one (a pair
        of numbers is a vector's values, not a shape)."""
        if chain.problem is not None or len(chain.members) != 2 or \
                chain.relations[0].kind != "eq":
            return None
        found = self._PAIR.fullmatch(" ".join(self.text_of(chain.members[1]).split()))
        if not found:
            return None
        ctx = self.contexts_for(target)[0]
        atom = self.operand_atom(ctx, chain.members[0])
        if atom is None:
            unit = self.unit(ctx, chain.members[0])
            if isinstance(unit, tuple) or len(unit.atoms) != 1:
                return None
            (key, atom), = unit.atoms.items()
            if atom.kind != "whole" or unit.text.strip() != key:
                return None
        if not self.text_of(chain.members[0]).strip()[:1].isupper():
            return None          # a matrix's name; x = (a, b) may be a vector's entries
        named = []
        for ctx in self.contexts_for(target):
            q = ctx.ref.quantities[atom.name]
            for text, size, what in zip(found.groups(), (q.rows, q.cols),
                                        ("rows", "columns")):
                if text.isdigit():
                    if int(text) != size:
                        return Outcome("wrong", f"{q.name} has {size} {what}, not {text}")
                    continue
                mine = getattr(ctx.ref, "page_size_names", frozenset())
                if text in mine and ctx.ref.sizes.get(text) != size:
                    return Outcome("unchecked", f"not checked: the page's {text} stands for "
                                                f"two sizes here ({ctx.ref.sizes[text]} and "
                                                f"{size})")
                if ctx.ref.sizes.get(text) != size:
                    ctx.ref.own_size(text, size)
                named.append(f"{text} = {size}")
        self.read_unread_again()
        return Outcome("defines", f"the shape of {atom.name} as the page writes it (rows, "
                                  f"columns)" + (f": {', '.join(dict.fromkeys(named))}, the "
                                                 f"page's sizes for what follows"
                                                 if named else ""))

    def page_definition(self, chain, target: Target):
        """``Z = XW + b``, ``\\alpha_{ij} = ...``, ``z_i = x_i W``: a name the derivation
        does not know, defined by the page (:mod:`.own`).  It is bound to its right side
        in every reference of the target, so that the lines after it may use it; the
        step is the page's definition, not a claim.  None when the chain is not one."""
        from .own import bind, defined_name, defined_value, same_value
        from ..formula.values import MathError
        if chain.problem is not None or not chain.relations or \
                chain.relations[0].kind != "eq" or len(chain.members) < 2:
            return None
        contexts = self.contexts_for(target)
        named = defined_name(chain.members[0].nodes, self.src, contexts[0].ref,
                             self.scripts)
        if named is None:
            return None
        parts, indices, power = named
        values = []
        for ctx in contexts:
            unit = self.unit(ctx, chain.members[1])
            if isinstance(unit, tuple) and len(chain.members) == 2:
                # J_w = [an elided matrix that cannot be read]: the obstacle is the right
                # side, and the lines that use the name say so
                shown = " ".join(self.text_of(chain.members[0]).split())
                line = self.src.line_col(chain.members[0].pos)[0]
                for each in contexts:
                    each.ref.unread_definitions = {
                        **getattr(each.ref, "unread_definitions", {}), parts.canonical: line}
                self.read_unread_again()
                message = f"the page's definition of {shown}: {unit[0]}"
                return Outcome("unreadable", message, error=(message, unit[1], unit[2]))
            value = None if isinstance(unit, tuple) else \
                defined_value(ctx.evaluator, unit, ctx.ref, indices)
            if value is None:
                return None
            if power != 1:     # \sigma_i^2 = v: sigma_i is the root of v
                value = value.applyfunc(lambda v: sympy.root(v, power))
            values.append(value)
        name = dataclasses.replace(parts, sub=None if indices else parts.sub,
                                   font=None).canonical
        existing = contexts[0].ref.quantities.get(name)
        if existing is not None:
            # a name symrow chose itself (H, G): the page's own only where it means
            # something else; where it means the same, the line is a claim like any other
            ref = contexts[0].ref
            mine = ref.ground(values[0])
            if existing.ground.shape == mine.shape and (
                    existing.ground == mine or values[0].free_symbols & set(existing.symbols)
                    or (existing.ground - mine).expand() == sympy.zeros(*mine.shape)):
                return None
        same = None
        for ctx, value in zip(contexts, values):
            try:
                q = bind(ctx.ref, parts, indices, value)
            except MathError:
                return None
            if same is None:
                same = same_value(ctx.ref, q)
        # what was read before the name was known is read again
        self.read_unread_again()
        self.bound += 1
        shown = " ".join(self.text_of(chain.members[0]).split())
        message = f"the page's own name {shown}, followed in what comes after"
        if same:
            message += f" (it is {same})"
        return Outcome("defines", message)

    def upstream_definition(self, chain, target: Target):
        """``\\frac{\\partial L}{\\partial z_2} = \\frac{1}{B}(\\hat{Y} - Y)``: the page gives the
        upstream gradient of a backward pass (which the derivation leaves free) in names
        of its own, the labels ``Y`` and the batch size ``B`` of a softmax with
        cross-entropy.  Each such name is a new quantity with free entries, a matrix of
        the upstream's shape or a number, whichever is the one way the line reads; the
        upstream gradient is then that value in every line after.  None when the line is
        not one (or reads in no way, or in more than one)."""
        import itertools
        from .own import bind
        from ..formula.values import is_matrix
        if chain.problem is not None or len(chain.relations) != 1 or \
                chain.relations[0].kind != "eq":
            return None
        contexts = self.contexts_for(target)
        ref0 = contexts[0].ref
        upstream = getattr(ref0.derivation, "upstream", None)
        if getattr(ref0.derivation, "kind", None) != "backward" or upstream is None:
            return None
        left = self.unit(contexts[0], chain.members[0])
        if isinstance(left, tuple) or len(left.atoms) != 1:
            return None
        (atom,) = left.atoms.values()
        q = ref0.quantities.get(atom.name)
        if atom.kind != "whole" or q is None or \
                q.symbols != sympy.ImmutableMatrix(upstream):
            return None
        right = chain.members[1]
        if not isinstance(self.unit(contexts[0], right), tuple):
            return None                    # a claim about the upstream, read as one

        def attempt(ctx, names: list, shapes: tuple):
            return self.value_with_names(ctx, names, shapes, right)

        names: list = []
        while len(names) < 3:
            _, unknown, _ = attempt(contexts[0], names, ((q.rows, q.cols),) * len(names))
            if unknown is None:
                break
            unknown = dataclasses.replace(unknown, font=None)
            if unknown in names:
                return None
            names.append(unknown)
        if not names:
            return None
        readings = []
        # the upstream as the page writes it: a column, on a page read with column vectors
        # against a formula that writes its points so
        flip = self.column and ref0.column_point(q)
        upstream_value = sympy.ImmutableMatrix(q.symbols.T) if flip else q.symbols

        def choices(name):
            """The shapes a new name may have: the gradient of a name the page defined
            (\\bar{a} of its a = \\sigma(z)) has that name's shape; any other the upstream's,
            or a number's."""
            if name.accent == "bar" or name.grad is not None:
                base = dataclasses.replace(name, accent=None if name.accent == "bar"
                                           else name.accent, grad=None).canonical
                own = ref0.quantities.get(base)
                if own is not None:
                    return ((own.rows, own.cols),)
            return (upstream_value.shape, (1, 1))

        for shapes in itertools.product(*(choices(name) for name in names)):
            value, _, _ = attempt(contexts[0], names, shapes)
            if value is not None and is_matrix(value) and \
                    value.shape == upstream_value.shape:
                readings.append(shapes)
        if len(readings) != 1:
            return None
        (shapes,) = readings
        matrices = [k for k, shape in enumerate(shapes) if shape != (1, 1)]
        if len(matrices) != 1:
            return None                # nothing to solve for, or more than one unknown
        (k,) = matrices
        solved = []
        for ctx in contexts:
            # the page's line, solved for its one matrix: Y = Ŷ - B Ḡ (Y's entries in those
            # of Ŷ and of the upstream, which stays free as the derivation has it)
            value, _, trial = attempt(ctx, names, shapes)
            if value is None:
                return None
            fresh = list(trial.quantities[names[k].canonical].symbols)
            own = trial.quantities[names[k].canonical]
            # the value is in Y's own entries; their definitions are the fresh symbols
            unknowns = [own.definition[i, j] for i in range(own.rows) for j in range(own.cols)]
            value = value.xreplace(dict(zip(fresh, unknowns)))
            got = sympy.solve(list(value - upstream_value), unknowns, dict=True)
            if len(got) != 1 or set(got[0]) != set(unknowns):
                return None
            solved.append(sympy.ImmutableMatrix(own.rows, own.cols,
                                                lambda i, j: got[0][unknowns[i * own.cols + j]]))
        for ctx, value in zip(contexts, solved):
            _bind_all(ctx.ref, [p for j, p in enumerate(names) if j != k],
                      [sh for j, sh in enumerate(shapes) if j != k])
            bind(ctx.ref, names[k], (), value)
        self.read_unread_again()
        self.bound += 1
        # in mathematics, which reads the same in every language of the report
        said = ", ".join(f"{p.canonical} \\in \\mathbb{{R}}^{{{r} \\times {c}}}"
                         if (r, c) != (1, 1) else f"{p.canonical} > 0"
                         for p, (r, c) in zip(names, shapes))
        shown = " ".join(self.text_of(chain.members[0]).split())
        return Outcome("defines", f"the page's upstream gradient {shown}, in names of its "
                                  f"own: {said}; followed in what comes after")

    def corrected(self, chain, target: Target):
        """``C = WX \\to XW``: an arrow after an equation, between two expressions (not
        from a point, as in a_i \\to c_i), is the writer's correction of the side before
        it; the chain is read with the corrected side."""
        rels = chain.relations
        if len(rels) < 2 or rels[-1].kind != "map" or rels[-2].kind != "eq" or \
                rels[-1].token.text not in ("\\to", "\\rightarrow", "\\longrightarrow"):
            return chain
        ctx = self.contexts_for(target)[0]
        before = self.unit(ctx, chain.members[-2])
        if isinstance(before, tuple) or any(a.kind == "row" for a in before.atoms.values()):
            return chain
        line = self.src.line_col(rels[-1].pos)[0]
        said = " ".join(f"{self.text_of(chain.members[-2])} {rels[-1].token.text} "
                        f"{self.text_of(chain.members[-1])}".split())   # one line of a note
        self.notes.append(f"line {line}: {said} is read as the page's correction of the side "
                          f"before the arrow")
        members = chain.members[:-2] + [chain.members[-1]]
        return dataclasses.replace(chain, members=members, relations=rels[:-1])

    def page_convention(self, chain, target: Target):
        """``S = QK^T/\\sqrt{d}`` against a derivation whose S is unscaled: the page's own
        convention (:func:`.own.convention`), read as its definition of S for what
        follows, when the value is the derivation's S rescaled or masked; else None."""
        from ..reader.notation import NameError_, read_name
        from ..reader.lexer import Cursor
        from .own import convention
        if chain.relations[0].kind != "eq":
            return None
        nodes = [n for n in chain.members[0].nodes if not _is_spacing(n)]
        if not nodes:
            return None
        cur = Cursor(nodes, nodes[0].pos, nodes[-1].end)
        try:
            parts, _, _ = read_name(cur, self.src)
        except (NameError_, AttributeError):
            return None
        if not cur.at_end() or parts.grad is not None:
            return None
        from ..reader.entries.superscripts import as_subscript
        parts = as_subscript(parts, self.scripts)
        from .own import defined_value, known_quantity
        contexts = self.contexts_for(target)
        found = []
        for ctx in contexts:
            got = known_quantity(parts, ctx.ref)
            if got is None:
                return None
            name, indices = got
            unit = self.unit(ctx, chain.members[1])
            if isinstance(unit, tuple):
                return None
            value = defined_value(ctx.evaluator, unit, ctx.ref, indices)
            if value is None or value.shape != (ctx.ref.quantities[name].rows,
                                                ctx.ref.quantities[name].cols):
                return None
            shown = convention(ctx.ref, name, value)
            if shown is None:
                return None
            found.append((ctx, value, shown))
        from ..reader.notation import parse_name
        from .engine import gradient_of_value
        for ctx, value, _ in found:
            # against a backward pass, the page's S̄ is the gradient of the page's S (the
            # scaled scores), not of the derivation's: taken before S is redefined
            grad = gradient_of_value(ctx.ref, value)
            ctx.ref.define(name, value)
            owner = _quantity_of(ctx.ref, grad, value.shape)
            if owner is not None:
                try:
                    bar = parse_name(name).gradient().canonical
                except (NameError_, ValueError):
                    bar = None
                if bar is not None and bar in ctx.ref.quantities and owner[0] != bar:
                    # the page's S̄ names the derivation's gradient of S/√d
                    ctx.ref.aliases = {**getattr(ctx.ref, "aliases", {}), bar: owner[0]}
                    ctx.ref.__dict__.pop("_canonical_names", None)
                    self.cache.clear()      # units read with the derivation's S̄
        self.read_unread_again()
        for ctx in contexts:
            ctx.evaluator = _evaluator(ctx.ref, self.column)
        theirs, mine = found[0][2]
        return Outcome("defines", f"the page's {name} is {theirs} of this derivation, whose "
                                  f"{name} is {mine}: the page's convention, followed in "
                                  f"what comes after")

    def page_sizes(self, ctx, lu, rm):
        """``Q, K \\in \\mathbb{R}^{T \\times d}``: sizes the page names itself (T) take the
        sizes of the matrix they are said of, for the rest of the page; an Outcome when
        that cannot be (the page's T would stand for two sizes of this derivation)."""
        from .relations import space_names
        from ..formula.values import is_matrix
        names = space_names(rm.nodes)
        if names is None:
            return None
        try:
            value = ctx.evaluator.value(lu, {})
        except Exception:  # noqa: BLE001 - not a matrix: the claim says why
            return None
        if not is_matrix(value):
            return None
        dims = value.shape if len(names) == 2 else (value.cols,)
        if len(names) == 1 and value.rows != 1:
            return None
        ref = ctx.ref
        for name, size in zip(names, dims):
            if not isinstance(name, str):
                continue
            known = ref.sizes.get(name)
            if known is None:
                ref.own_size(name, size)
            elif known != size:
                shown = "\\ell" if name == "ell" else name
                outcome = Outcome("unchecked", f"not checked: the page's {shown} stands for "
                                               f"two sizes of this derivation here ({known} "
                                               f"and {size}); check it at sizes where they "
                                               f"agree")
                self.size_conflicts[name] = outcome
                return outcome
        return None

    def definition_chain(self, chain, target: Target) -> bool:
        """``Q = K = [numbers]``, ``Q = K = I`` or ``Q = K = V``: operand names, then
        what they all are."""
        if len(chain.members) < 3 or any(r.kind != "eq" for r in chain.relations):
            return False
        ctx = self.contexts_for(target)[0]
        for member in chain.members[:-1]:
            if self.operand_atom(ctx, member) is None:
                return False
        last = self.unit(ctx, chain.members[-1])
        if isinstance(last, tuple):
            return False
        if self.operand_atom(ctx, chain.members[-1]) is not None:
            return True
        from ..formula.values import Unsized, is_matrix
        try:
            value = ctx.evaluator.value(last, {})
        except Exception:  # noqa: BLE001 - not a definition; the steps say why
            return False
        if isinstance(value, Unsized):
            return True
        return is_matrix(value) and not value.free_symbols

    def operand_atom(self, ctx, member):
        """The operand a member names, alone (``Q``, ``\\mathbf{K}``), or None."""
        unit = self.unit(ctx, member)
        if isinstance(unit, tuple) or len(unit.atoms) != 1:
            return None
        (key, atom), = unit.atoms.items()
        if atom.kind != "whole" or unit.text.strip() != key:
            return None
        q = ctx.ref.quantities.get(atom.name)
        return atom if q is not None and q.level == 0 else None

    def check_step(self, target: Target, rel, lm, rm, conditions) -> Outcome:
        result = None
        vacuous = None
        for ctx in self.contexts_for(target):
            outcome = self.judge(ctx, rel, lm, rm, conditions)
            if outcome.vacuous and ctx.sizes is not None:
                vacuous = outcome      # no index values (or sizes) here: the next choice
                continue
            if (outcome.status == "wrong" or outcome.pending is not None) and \
                    ctx.sizes is not None:
                outcome.sizes = dict(ctx.sizes)
            if outcome.status != "holds":
                return outcome
            result = outcome
        return result if result is not None else vacuous

    # -- one step, one reference --------------------------------------------------------------
    def judge(self, ctx: _Context, rel, lm, rm, conditions) -> Outcome:
        from ..formula.entries import MathError, step_ranges
        from ..formula.values import NeedsValues, Undecided
        lu = self.unit(ctx, lm)
        ru = None if rel.kind == "in" else self.unit(ctx, rm)
        for u, m in ((lu, lm), (ru, rm)):
            if isinstance(u, tuple) and (id(ctx), id(m)) in self.other_notation:
                # a one-index \delta_j of the page's Δ (given by its entries): a line in
                # the notation of one sample, read as far as that and not judged
                return Outcome("unchecked", f"not checked: {u[0]}")
        for u in (lu, ru):
            if isinstance(u, tuple):
                slip = self.slipped_e(ctx, rel, lm, rm, conditions)
                return slip or Outcome("unreadable", u[0], error=u)
        ref = ctx.ref
        try:
            bounds = step_ranges(lu, ru if ru is not None else lu, ref)
        except MathError as err:
            bounds = self.chain_ranges(ctx, lu, ru if ru is not None else lu)
            if bounds is None:
                return Outcome("unreadable", str(err), error=(str(err), rel.pos, rel.end))
        names = sorted(bounds)
        ranges = [range(1, bounds[n] + 1) for n in names]
        total = math.prod(len(r) for r in ranges)
        if total > MAX_ASSIGNMENTS:
            message = (f"the free indices {', '.join(names)} take {total} combinations, "
                       f"more than {MAX_ASSIGNMENTS}")
            return Outcome("unreadable", message, error=(message, rel.pos, rel.end))
        shape = None
        if rel.kind == "in":
            from .relations import space_names, space_shape
            said = next((self.size_conflicts[n] for n in space_names(rm.nodes) or ()
                         if isinstance(n, str) and n in self.size_conflicts), None)
            if said is not None:
                return said          # the page's letter was seen to mean another size
            shape = space_shape(rm.nodes, ref.sizes)
            if shape is None:
                named = self.page_sizes(ctx, lu, rm)
                if isinstance(named, Outcome):
                    return named
                shape = space_shape(rm.nodes, ref.sizes)
        checked = 0
        defined = []
        pending = None
        for values in itertools.product(*ranges):
            env = dict(zip(names, values))
            if not self.admits(conditions, env, ref):
                continue
            checked += 1
            try:
                result = self.claim(ctx, rel, lu, ru, lm, rm, env, shape, defined)
            except NeedsValues as err:
                # a number against symbols: false as an identity, unless the page gives
                # numbers somewhere (decided at the end); a definite finding elsewhere wins
                if pending is None:
                    pending = (err, env)
                continue
            except Undecided as err:
                return Outcome("unchecked", str(err), indices=env or None)
            except MathError as err:
                return Outcome("wrong", str(err), indices=env or None,
                               kind=getattr(err, "kind", None))
            except RecursionError:
                message = "this step is nested too deeply to check"
                return Outcome("unreadable", message, error=(message, rel.pos, rel.end))
            except Exception as err:  # noqa: BLE001 - a bug must not cost the report
                message = (f"internal error while checking this step: {type(err).__name__}: "
                           f"{' '.join(str(err).split())[:200]} (a bug in symrow; please "
                           f"report it)")
                return Outcome("unreadable", message, error=(message, rel.pos, rel.end))
            if result is not None and env and result.shapes is not None and \
                    None in result.shapes and result.shapes != (None, None):
                # c_{mn}-style indices on one side, a whole matrix on the other (XW^T =
                # \sum_p X_{mp} W_{np}): the matrix is most likely written where its entry
                # is meant; a reader cannot tell, so the claim is not judged
                message = (f"one side is a matrix and the other a number, in a claim about "
                           f"entries (indices {', '.join(sorted(env))}): if an entry of the "
                           f"matrix is meant, write it as one, as in (XW^T)_{{mn}}; not "
                           f"checked")
                return Outcome("unchecked", message, indices=env or None)
            if result is not None and self.differentials and any(
                    _D_NAME.search(self.text_of(m)) for m in (lm, rm) if m is not None):
                # dY = dX W + X dW on a page that writes dL: differentials, which read as
                # gradients (dX for \bar{X}) would be judged as what they are not; their
                # shapes are the gradients' (an undefined product is still wrong)
                # not read (the page's verdict is then not "holds"): a slip in a
                # differential must not pass as a page that holds
                return _not_read("not read: on this page d marks a differential (it writes "
                                 "dL, the differential of the loss), not the gradient dX = "
                                 "\\partial L / \\partial X, which symrow checks", env, rel)
            if result is not None and self._labels_on_one_side(ctx):
                # \partial L / \partial o_k = p_k - 1 under the page's cross-entropy: true
                # for the labels one-hot at k (the true class) only, which it does not name
                return _not_read(f"not read: one side has the labels {ctx.ref.loss_labels[0]} "
                                 f"of the page's own loss in it, the other none: it holds "
                                 f"only for particular labels (one-hot at one class, say), "
                                 f"which the page does not name here", env, rel)
            if result is not None and self.page_loss is not None and \
                    self._uses_page_loss(ctx):
                # \partial L / \partial o_k = p_k - 1 under the page's cross-entropy: one side
                # holds symrow's gradient for any upstream, the other no upstream at all
                # not read, as above: p_k + 1 for p_k - 1 must not pass as "holds"
                return _not_read(f"not read: one side is the gradient for any upstream "
                                 f"gradient, the other has none in it: it follows from the "
                                 f"page's own loss {self.page_loss}, which symrow's backward "
                                 f"pass leaves general", env, rel)
            if result is not None:
                detail = result.detail.to_dict() if result.detail else None
                found = self.hints(ctx, lu, ru, env, result.entry)
                if found:
                    detail = {**(detail or {"missing": [], "extra": [], "coefficients": []}),
                              "hints": found}
                return Outcome("wrong", result.message, entry=result.entry,
                               indices=env or None, detail=detail,
                               others=tuple(result.others), shapes=result.shapes)
        if pending is not None:
            err, env = pending
            return Outcome("unchecked", str(err), indices=env or None,
                           pending=self.identity_wrong(ctx, lu, ru, env, err.difference))
        if defined and isinstance(defined[0], tuple):
            _, name, other = defined[0]
            return Outcome("defines", f"takes {name} equal to {other} for what follows "
                                      f"(an assumption, not a claim)")
        if defined:
            return Outcome("defines", "gives " + ", ".join(defined) + " "
                           + ("its values" if len(defined) == 1 else "their values")
                           + " for what follows")
        if not checked:
            return Outcome("unchecked", "not checked: no index values (or sizes) satisfy "
                                        "the note that restricts this claim", vacuous=True)
        return Outcome("holds")

    def _labels_on_one_side(self, ctx) -> bool:
        """Whether the claim just compared (``self._last``) has the labels of the page's
        own loss (:meth:`loss_upstream`) on exactly one side, with the upstream's values."""
        labels = getattr(ctx.ref, "loss_labels", None)
        if self._last is None or not labels:
            return False
        sides = [bool(set(getattr(ctx.ref.with_values(ctx.ref.ground(v)), "free_symbols",
                                  ())) & labels[1]) for v in self._last]
        return sides[0] != sides[1]

    def _uses_page_loss(self, ctx) -> bool:
        """Whether the claim just compared (``self._last``) has the upstream gradient's
        entries on exactly one side: a gradient of the page's particular loss, which a
        backward pass for any upstream cannot decide."""
        upstream = getattr(ctx.ref.derivation, "upstream", None)
        if self._last is None or upstream is None:
            return False
        marks = set(getattr(upstream, "free_symbols", ()))
        if not marks:
            return False
        sides = []
        for value in self._last:
            ground = ctx.ref.ground(value)
            sides.append(bool(set(getattr(ground, "free_symbols", ())) & marks))
        return sides[0] != sides[1]

    def slipped_e(self, ctx, rel, lm, rm, conditions):
        """``\\frac{e^{x_i}}{\\sum_j e_{x_j}}``: a side that does not read for an ``e_{x_j}``
        (a name nobody defines, headed by Euler's e) in a claim that writes its powers
        ``e^{...}`` elsewhere is the page's slip: e^{x_j} is meant, and as written the
        step is wrong.  The step is read again with e_{...} as the power; the verdict is
        wrong, with what it would be with the power.  None (unreadable, as before) when
        the claim writes no e^{...} as a power, or does not read even so."""
        members = [m for m in (lm, rm) if m is not None]
        keys = [(id(ctx), id(m)) for m in members]
        slips = [self.slips[k] for k in keys if k in self.slips]
        if not slips or rel.kind == "in" or getattr(self, "_reading_slips", False):
            return None
        saved = {k: self.cache.pop(k) for k in keys if k in self.cache}
        ctx.translator.subscript_e = True
        self._reading_slips = True
        try:
            units = [self.unit(ctx, m) for m in members]
            if any(isinstance(u, tuple) for u in units) or \
                    not sum(u.e_powers for u in units):
                return None            # no power e^{...} written as one besides the slips
            again = self.judge(ctx, rel, lm, rm, conditions)
        finally:
            ctx.translator.subscript_e = False
            self._reading_slips = False
            for k in keys:
                self.cache.pop(k, None)
            self.cache.update(saved)
        if again.status not in ("holds", "wrong"):
            return None
        written = ", ".join(dict.fromkeys(shown for shown, _ in slips))
        meant = ", ".join(dict.fromkeys(power for _, power in slips))
        one = len(set(slips)) == 1
        message = (f"{written}: e with a subscript; {'its power' if one else 'the powers'} "
                   f"{meant} {'is' if one else 'are'} meant")
        if again.status == "holds":
            return Outcome("wrong", f"{message} (with {'it' if one else 'them'} the step "
                                    f"holds)", indices=again.indices)
        return Outcome("wrong", f"{message}; with {'it' if one else 'them'} the step is "
                                f"still wrong: {again.message}", entry=again.entry,
                       indices=again.indices, detail=again.detail, others=again.others)

    def chain_ranges(self, ctx, lu, ru):
        """The ranges of a step's free indices read from its whole chain, where the step
        alone does not tell (``= X_{ai} \\delta_{bj}``: j runs over W's columns, as in
        ``\\partial W_{ij}`` the chain starts with); None when the chain does not tell
        either."""
        from ..formula.entries import MathError, free_indices, index_range
        units = [u for u in (self.unit(ctx, m) for m in self.chain_members)
                 if not isinstance(u, tuple)]
        mine = free_indices([lu, ru], ctx.ref)
        every = free_indices(units, ctx.ref)
        out = {}
        for name in mine:
            uses = {**every, name: mine[name] | every.get(name, set())}
            try:
                out[name] = index_range(name, uses)
            except MathError:
                return None
        return out

    def sum_hints(self, ctx, lu, ru, env: dict) -> list[str]:
        """Sums that add nothing, or copies of one term: said in plain words."""
        from ..formula.entries import empty_sums, unused_bounds
        if ru is None:
            return []
        ev = ctx.evaluator
        where = ", ".join(f"{k} = {v}" for k, v in env.items())
        out = []
        for side, unit in (("left", lu), ("right", ru)):
            if empty_sums(ev, unit, env):
                out.append((f"for {where} " if where else "") + f"the sum on the {side} is "
                           f"empty: it adds no terms, so it is 0")
            for name, count in unused_bounds(ev, unit, env):
                out.append(f"the sum over {name} on the {side} does not use {name}: it adds "
                           f"{count} copies of the same term")
        return out

    def hints(self, ctx, lu, ru, env: dict, entry) -> list[str]:
        """Plain-word hints for a wrong step (:mod:`.hints`, and sums)."""
        from .hints import hints
        from ..formula.values import is_matrix
        out = self.sum_hints(ctx, lu, ru, env)
        last = getattr(self, "_last", None)
        if last is None:
            return out
        left, right = last
        if entry is not None:
            i, j = entry
            left = left[i - 1, j - 1] if is_matrix(left) else left
            right = right[i - 1, j - 1] if is_matrix(right) else right
        if is_matrix(left) or is_matrix(right):
            return out
        try:
            out += hints(left, right, ctx.ref)
        except Exception:  # noqa: BLE001 - a hint must never cost the verdict
            pass
        return out

    def identity_wrong(self, ctx, lu, ru, env: dict, difference) -> Outcome:
        """The verdict on a number claimed equal to symbols when the page gives no numbers:
        the claim is an identity in the entries, and it is false."""
        from ..formula.values import is_matrix
        ev = ctx.evaluator
        reasons = self.sum_hints(ctx, lu, ru, env)
        numbers = []
        for side, unit in (("left", lu), ("right", ru)):
            value = ev.value(unit, env)
            if not is_matrix(value) and not getattr(value, "free_symbols", True):
                numbers.append(f"the {side} side is the number {value}")
        head = (", ".join(numbers) or "one side is a number") + (
            ", the other is not that number for every value of the entries (no numbers are "
            "given on this page, so the step claims an identity)")
        message = "; ".join(reasons[:1] + [head])
        if difference is not None and difference.entry is not None:
            message = f"entry {difference.entry}: " + message
        detail = difference.detail.to_dict() if difference is not None and \
            difference.detail is not None else None
        return Outcome("wrong", message,
                       entry=difference.entry if difference is not None else None,
                       indices=env or None, detail=detail)

    @staticmethod
    def admits(conditions, env, ref) -> bool:
        from ..reader.entries.indices import index_value
        for kind, a, b in conditions:
            try:
                x, y = index_value(a, env, ref.sizes), index_value(b, env, ref.sizes)
            except KeyError:
                continue
            ok = {"le": x <= y, "lt": x < y, "ge": x >= y, "gt": x > y, "eq": x == y,
                  "ne": x != y}[kind]
            if not ok:
                return False
        return True

    def claim(self, ctx, rel, lu, ru, lm, rm, env, shape, defined):
        """Check one claim at one assignment of its free indices; a Difference or None."""
        from . import relations as R
        from .verify import IN_SYMBOLS, compare
        ev = ctx.evaluator
        ref = ctx.ref
        left = ev.value(lu, env)
        self._last = None
        if rel.kind == "in":
            return R.membership(left, shape, self.text_of(rm))
        right = ev.value(ru, env)
        self._last = (left, right)
        if rel.kind == "eq":
            if self.define(ctx, lu, left, right, env, defined):
                return None
            if ctx.sizes is not None:
                self.numbers_at_general_sizes(left, right)
            token = IN_SYMBOLS.set((_in_entries(lu), _in_entries(ru)))
            try:
                diff = compare(left, right, ref)
            finally:
                IN_SYMBOLS.reset(token)
            if diff is not None and self.rounded_equal(ref, rel, left, right, lm, rm):
                return None
            return diff
        if rel.kind == "approx":
            if ctx.sizes is not None:
                self.numbers_at_general_sizes(left, right)
            return R.approx(left, right, ref, R.rounding([self.text_of(lm), self.text_of(rm)]))
        if rel.kind in ("le", "ge", "lt", "gt"):
            return R.inequality(rel.kind, left, right, ref)
        if rel.kind == "map":
            return R.mapping(left, right, ref, self.text_of(lm), self.text_of(rm))
        raise R.unchecked(rel.kind)

    def rounded_equal(self, ref, rel, left, right, lm, rm) -> bool:
        """``y_1 = \\frac{e}{e + e^2} = 0.269``: a decimal written after ``=`` is the value
        rounded to the places written, as a worked example means it; the step holds when
        the two sides agree to that rounding (half a unit in the last place), and a note
        says how it was read.  Numbers only: symbols compared with a decimal stay wrong."""
        from . import relations as R
        from ..formula.values import Undecided
        texts = [self.text_of(lm), self.text_of(rm)]
        if not R.has_decimal(texts):
            return False
        try:
            if R.approx(left, right, ref, R.rounding(texts)) is not None:
                return False
        except Undecided:
            return False
        line = self.src.line_col(rel.pos)[0]
        if line not in self.rounded_lines:
            self.rounded_lines.add(line)
            self.notes.append(f"line {line}: '=' before a decimal is read as equal to the "
                              f"places written ({' = '.join(' '.join(t.split()) for t in texts)})")
        return True

    @staticmethod
    def numbers_at_general_sizes(left, right) -> None:
        """A matrix of numbers against general sizes: its shape is the page's, and a size
        choice of the check's is not (the page's 3 x 3 against 2 x 5 for m = 2, n = 5):
        not checked, as numbers for an operand are (:meth:`define`; and see
        :meth:`page_example_sizes`)."""
        from ..formula.values import Undecided, is_matrix
        for side, other in ((left, right), (right, left)):
            if is_matrix(side) and not side.free_symbols and is_matrix(other) and \
                    side.shape != other.shape:
                raise Undecided("not checked: a matrix of numbers against general sizes; "
                                "check a worked example against a concrete derivation")

    def assume(self, ctx, lu, left, right, defined: list) -> bool:
        """``Q = K = V`` (all operands, no numbers): take them equal for what follows."""
        ref = ctx.ref
        mine, theirs = _operand_of(ref, left), _operand_of(ref, right)
        if mine is None or theirs is None or (mine.rows, mine.cols) != (theirs.rows, theirs.cols):
            return False
        if mine.name == theirs.name:
            return False
        for s, r in zip(mine.symbols, theirs.symbols):
            ref.values[s] = ref.values.get(r, r)
        defined.append(("assumed", self.src.original[lu.pos:lu.end].strip(), theirs.name))
        return True

    def define(self, ctx, lu, left, right, env, defined: list) -> bool:
        """``A = [numbers]``: give the operand A these values (True), unless it has some."""
        from ..formula.values import Undecided, is_matrix
        ref = ctx.ref
        if env:
            return False
        if len(lu.atoms) != 1:
            return False
        if getattr(self, "defining", False) and self.assume(ctx, lu, left, right, defined):
            return True
        (atom,) = lu.atoms.values()
        if atom.kind not in ("whole", "row", "entry"):
            return False
        q = ref.quantities.get(atom.name)
        if q is None or q.level != 0:
            return False
        from ..formula.values import Unsized
        if isinstance(right, Unsized):
            right = right.fill(q.rows, q.cols) if atom.kind == "whole" else \
                right.fill(*((1, q.cols) if atom.kind == "row" else (1, 1)))
        lefts = list(left) if is_matrix(left) else [left]
        rights = list(right) if is_matrix(right) else [right]
        if any(getattr(r, "free_symbols", True) for r in rights):
            return False
        if ctx.sizes is not None:
            raise Undecided("not checked: numbers for an operand of a derivation with general "
                            "sizes; check a worked example against a concrete derivation")
        if (is_matrix(left) != is_matrix(right)) or (is_matrix(left) and
                                                      left.shape != right.shape):
            return False
        if not all(isinstance(s, sympy.Symbol) for s in lefts):
            return False
        if all(s in ref.values for s in lefts):
            return False        # values known: compare them
        for s, r in zip(lefts, rights):
            if s in ref.values and ref.values[s] != r:
                return False
        for s, r in zip(lefts, rights):
            ref.values[s] = r
        self.numbers = True
        name = self.src.text[lu.pos:lu.end].strip()
        defined.append(name)
        return True


#: the frame of a display (``\begin{equation}\begin{split}``, ``\end{aligned}``): between a
#: condition in the prose and its claim it is layout, as ``$$`` or ``\[`` is
_FRAME = re.compile(r"\\(?:begin|end)\s*\{(?:equation|split|align|aligned|alignat|gather|"
                    r"gathered|multline|eqnarray)\*?\}(?:\{\d+\})?")
_MARKUP = re.compile(r"\$|\\\[|\\\(|```\s*math|\\begin\s*\{(?:equation|align|gather|multline|"
                     r"eqnarray|displaymath|math)\*?\}")
_PROSE_LINE = re.compile(r"(?:\b[A-Za-z][a-z]+\b[ ,]+){5}|[\u3040-\u30ff\u4e00-\u9fff]{6}")


def _index_dims(uses: list, shape: tuple, one: bool = True):
    """{letter: the count of places it indexes} over entries written with two indices of
    one character each (``\\delta_{h1}``: h indexes the rows); with ``one``, None when a
    letter indexes places of two counts or a use is not such an entry, else {letter: set
    of counts} and the uses that are not entries are passed over."""
    out: dict = {}
    for use in uses:
        sub = (use.parts.sub or "").replace(",", "").replace(" ", "")
        if len(sub) != 2 or use.parts.sup is not None:
            if one:
                return None
            continue
        for item, dim in zip(sub, shape):
            if item.isalpha():
                out.setdefault(item, set()).add(dim)
    if not one:
        return out
    if any(len(d) != 1 for d in out.values()):
        return None
    return {k: next(iter(d)) for k, d in out.items()}


#: a page's word that its * is the element-wise product: "$*$ denotes element-wise
#: product", "* is the Hadamard product", "* は要素ごとの積", "* 表示逐元素相乘"
_STAR = r"(?:\$\s*(?:\*|\\ast)\s*\$|(?<![*\w])\*(?![*\w]))\s*"      # $*$, $\ast$ or a lone *
_STAR_ENTRYWISE = re.compile(
    _STAR + r"(?:denotes?|is|means|represents|stands\s+for|here\s+is)\s+(?:an?\s+|the\s+)?"
            r"(?:element[- ]?wise|entry[- ]?wise|point[- ]?wise|Hadamard|component[- ]?wise)"
    r"|" + _STAR + r"(?:は|が|を)\s*(?:要素ごと|要素毎|成分ごと|アダマール)"
    r"|" + _STAR + r"(?:表示|为|是)\s*(?:逐元素|按元素|对应元素|哈达玛)", re.IGNORECASE)


def _not_read(message: str, env, rel) -> Outcome:
    """An unreadable step at the relation ``rel``, with ``message`` (a claim read and not
    judged, so that a slip in it cannot pass as "holds")."""
    return Outcome("unreadable", message, indices=env or None,
                   error=(message, rel.pos, rel.end))


def _in_entries(unit) -> bool:
    """Is one side of a claim written in the entries, rows or wholes of quantities (not
    in numbers and sizes alone)?  The parts a unit holds (a fraction's top and bottom, a
    bracket, an explicit matrix's cells) are looked into."""
    from ..reader.entries.units import NESTED
    for atom in unit.atoms.values():
        if atom.kind in ("whole", "row", "entry"):
            return True
        if atom.kind in NESTED and any(_in_entries(cell) for row in atom.cells
                                       for cell in row if hasattr(cell, "atoms")):
            return True
    return False


def _bind_all(ref, names: list, shapes) -> None:
    """Bring in the page's own names: a matrix with free entries (its labels Y, entries
    y^{page}_{ij}) or a positive number (a batch size B), by ``shapes``."""
    from .own import bind
    for parts, shape in zip(names, shapes):
        if shape == (1, 1):
            ref.page_scalars = {**getattr(ref, "page_scalars", {}),
                                parts.canonical: sympy.Symbol(parts.canonical, positive=True)}
            continue
        letter = parts.head.lstrip("\\").lower() if len(parts.head) <= 2 else "u"
        bind(ref, parts, (), sympy.ImmutableMatrix(*shape, lambda i, j: sympy.Symbol(
            f"{letter}^{{page}}_{{{i + 1}{j + 1}}}")))


def _prose_without_math(text: str) -> bool:
    """Text with sentences in it (five words running, or Japanese) and no math markup."""
    return not _MARKUP.search(text) and bool(_PROSE_LINE.search(text))


def _is_loss(nodes: list) -> bool:
    """``L``, ``\\mathcal{L}``, ``\\ell``, ``E``: the loss alone."""
    from ..reader.lexer import Group, Token
    nodes = [n for n in nodes if not _is_spacing(n)]
    if len(nodes) == 1 and isinstance(nodes[0], Token):
        return nodes[0].text in ("L", "\\ell", "J", "E")
    return len(nodes) == 2 and isinstance(nodes[0], Token) and nodes[0].text in (
        "\\mathcal", "\\mathscr") and isinstance(nodes[1], Group) and \
        [getattr(c, "text", "") for c in nodes[1].children] == ["L"]


#: dL standing alone (dL = ..., dL = \\frac{\\partial L}{\\partial Y} : dY), not in a
#: derivative (\\frac{dL}{dX}, dL/dX)
_DIFFERENTIAL_OF_LOSS = re.compile(r"(?<![\\\w{])d(?:L|\\ell|\\mathcal\{L\})(?![\w}])(?!\s*/)")
#: a d written against a capital (dX, dW): a gradient in CS231n's spelling, or a differential
_D_NAME = re.compile(r"(?<![\\\w])d[A-Z]")


def _is_specific_loss(nodes: list) -> bool:
    """The right side of ``L = ...`` that writes a particular loss out (a sum, a log, a
    power, a norm: -\\sum_i y_i \\log p_i), not a name for it (``L = f(Y)``,
    ``L = \\ell(Y)``)."""
    from ..reader.lexer import walk_tokens
    texts = [t.text for t in walk_tokens(nodes)]
    if not texts:
        return False
    words = "".join(t for t in texts if len(t) == 1 and t.isalpha())
    return bool({"\\sum", "\\log", "\\ln", "^", "\\|", "\\lVert", "\\frac",
                 "\\dfrac"} & set(texts)) or "log" in words or "ln" in words


def _is_spacing(node) -> bool:
    return getattr(node, "text", None) in V.SPACING and not hasattr(node, "children")


def _is_gradient(nodes: list) -> bool:
    """``\\partial L / \\partial Z``, ``\\frac{\\partial L}{\\partial Z}``, ``\\nabla_Z L``:
    a gradient and nothing else (no sums, products or matrices around it)."""
    from ..reader.lexer import Env, Group, Token, walk_tokens
    tokens = list(walk_tokens(nodes))
    if any(isinstance(n, Env) for n in nodes) or len(tokens) > 24:
        return False
    texts = [t.text for t in tokens]
    if "\\nabla" in texts:
        return not any(t in texts for t in ("+", "-", "\\cdot", "\\sum"))
    if texts.count("\\partial") != 2 or any(t in texts for t in ("+", "-", "\\sum")):
        return False
    return texts[0] == "\\partial" or texts[0] in V.FRACTIONS


#: what follows the first \\partial of a gradient of the loss
_LOSS_WORDS = LOSS_HEADS | {"\\mathrm", "\\text"}


def _is_short_name(nodes: list) -> bool:
    """A name alone: ``\\bar{Z}``, ``\\delta_i``, ``G^{(l)}``, ``dS``."""
    from ..reader.lexer import Group, Token
    k = 0
    if not nodes or not isinstance(nodes[0], Token) or nodes[0].kind not in ("letter", "cmd"):
        return False
    k = 1
    if nodes[0].kind == "cmd" and k < len(nodes) and isinstance(nodes[k], Group):
        k += 1                                     # \bar{Z}, \mathbf{g}
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, Token) and node.text == "'":
            k += 1
        elif isinstance(node, Token) and node.text in ("_", "^") and k + 1 < len(nodes):
            k += 2
        else:
            return False
    return True


#: spacing a member's text may start with (``,\\ s_{12} = 0``): not shown
_LEADING_SPACE = re.compile(r"^(?:\\[,;:! ]\s*|\\q?quad\s*)+")

#: words that state the convention (English and Japanese)
#: the words by which a page states its vector convention ("read in the row view, one
#: point per row", as symrow's own derivation of a column formula says, is the row one)
_CONVENTION_WORDS = (("column", r"(?i)column[- ]vectors?|列ベクトル|縦ベクトル"),
                     ("row", r"(?i)row[- ]vectors?|行ベクトル|横ベクトル|row view|"
                             r"one point per row|行の見方|1行に1点"))


def _evaluator(ref, column: bool):
    from ..formula.entries import Evaluator
    return Evaluator(ref, column=column)


def _has_vector(unit, ref=None) -> bool:
    """Does the unit name a point: a row (\\boldsymbol{x}_i), or, against a formula that
    writes its points as columns, a vector whole (x of z = Wx + b)?"""
    from ..reader.entries.parse import sub_units
    for atom in unit.atoms.values():
        if atom.kind == "row":
            return True
        if atom.kind == "whole" and ref is not None:
            q = ref.quantities.get(atom.name)
            if q is not None and ref.column_point(q):
                return True
        if any(_has_vector(cell, ref) for cell in sub_units(atom)):
            return True
    return False


def _sensible(ref, lu, ru, column: bool) -> bool:
    """Do both sides evaluate, to values of one shape, with vectors read this way?"""
    from ..formula.entries import step_ranges
    from ..formula.values import MathError, Unsized, shape_of
    try:
        env = {name: 1 for name in step_ranges(lu, ru, ref)}
        ev = _evaluator(ref.with_own_values(dict(ref.values)), column)
        left, right = ev.value(lu, env), ev.value(ru, env)
    except MathError:
        return False
    except Exception:  # noqa: BLE001 - the walk reports it
        return False
    if isinstance(left, Unsized) or isinstance(right, Unsized):
        return True
    return shape_of(left) == shape_of(right)


def _operand_of(ref, value):
    """The operand whose entry symbols ``value`` is (a matrix), or None."""
    from ..formula.values import is_matrix
    if not is_matrix(value):
        return None
    for q in ref.quantities.values():
        if q.level == 0 and q.symbols.shape == value.shape and q.symbols == value:
            return q
    return None


def _join(first, second):
    """``first`` with ``second`` read as its continuation (juxtaposed)."""
    from .structure import Chain, Member
    last = first.members[-1]
    head = second.members[0]
    joined = Member(last.nodes + head.nodes, last.pos, head.end)
    return Chain(first.members[:-1] + [joined] + second.members[1:],
                 first.relations + second.relations, display=first.display,
                 before=first.before)


def _quantity_of(ref, value, shape) -> tuple | None:
    """(name,) of the derivation's quantity whose value is ``value`` (a gradient the engine
    derived for a value the formula leaves unnamed, such as that of S/√d), or None.
    Compared in numbers, at one choice of every entry."""
    from ..seq import size_symbol
    from ..formula.values import is_matrix
    if value is None or not is_matrix(value) or tuple(value.shape) != tuple(shape):
        return None
    if value[0, 0] in ref.owner:
        return (ref.owner[value[0, 0]][0],)
    sizes = {size_symbol(n): v for n, v in ref.sizes.items()}
    sizes.setdefault(size_symbol("d_k"), ref.sizes.get("d", 0))
    mine = ref.ground(sympy.ImmutableMatrix(value).xreplace(sizes))
    free = sorted(mine.free_symbols, key=str)
    point = {sym: sympy.Rational(k % 7 + 2, 5 + k % 3) * (-1) ** k for k, sym in enumerate(free)}
    want = [complex(sympy.N(x.xreplace(point), 15)) for x in mine]
    for q in ref.quantities.values():
        if (q.rows, q.cols) != tuple(shape) or q.level == 0 or not q.ground.free_symbols or \
                not q.ground.free_symbols <= set(free):
            continue
        got = [complex(sympy.N(x.xreplace(point), 15)) for x in q.ground]
        if all(abs(a - b) <= 1e-9 * (1 + abs(b)) for a, b in zip(got, want)):
            return (q.name,)
    return None


def _bias_axis_hint(step, derivation) -> list[str]:
    """A bias gradient summed along the wrong axis: the gradient of a bias row b (1 x n)
    is a row, the sum of the gradient over the points (down each column); a column of
    m row sums (or the matrix unsummed) is the usual mistake."""
    from ..reader.entries.gradients import as_bars
    if step.shapes is None or None in step.shapes or step.shapes[0][0] != 1:
        return []
    names = set(derivation.forward.quantities)
    left = " ".join(as_bars(step.left, names).split())
    bold = r"(?:\\(?:mathbf|boldsymbol|bm)\s*\{\s*)?"
    if not (re.match(r"\\bar\{\s*" + bold + r"b", left) or
            re.search(r"\{\s*(?:\\partial|d)\s*" + bold + r"b(?![a-zA-Z])", left)):
        return []
    (_, n), (rows, cols) = step.shapes
    if cols == 1 and rows > 1:
        return [f"the gradient of a bias row sums the gradient over the points, down each "
                f"column (1^T times it: a 1 x {n} row); this sums along each row instead "
                f"(a {rows} x 1 column)"]
    if cols == n and rows > 1:
        return [f"the gradient of a bias row is summed over the points (down each column, "
                f"a 1 x {n} row): the bias is added to every one of the {rows} points, so "
                f"its gradient adds up all their shares"]
    return []


def _gradient_hints(steps: list, targets: list[Target], column: bool = False) -> list:
    """Against a backward derivation, a wrong gradient gets a sentence for the usual
    mistakes (:func:`.hints.gradient_hints`), in place of the general hints.  A page read
    with column vectors gets none: the sentences compare with the formula's row view
    (z̄W for the page's W^T z̄), and would call the right order wrong."""
    from .hints import gradient_hints, is_backward
    backward = [t.derivation for t in targets if is_backward(t.derivation)]
    if not backward or column:
        return steps
    out = []
    for step in steps:
        if step.status == "wrong" and step.relation == "eq":
            found = gradient_hints(step.left, step.right, backward[0]) or \
                _bias_axis_hint(step, backward[0])
            if found:
                detail = dict(step.detail or {})
                # it names the right gradient: the general guesses about the
                # terms (indices swapped, combine for match) would only distract
                detail["hints"] = found
                step = dataclasses.replace(step, detail=detail)
        out.append(step)
    return out


def check_text(tex: str, targets: list[Target], parser: str = "auto") -> Report:
    """Check ``tex`` against ``targets`` (one per section, or one for the whole text),
    reading formulas with ``parser`` (see :func:`symrow.reader.entries.parse.parse`)."""
    run = _Run(tex, targets, parser)
    steps = run.run()
    if not run.numbers:
        # no numbers anywhere on the page: a number claimed equal to symbols is an
        # identity in the entries, and a false one
        steps = [run.pending.get(id(s), s) for s in steps]
    numbered = [dataclasses.replace(s, index=k) for k, s in enumerate(steps, start=1)]
    numbered = _gradient_hints(numbered, targets, column=run.column)
    unread = []
    for pos, end, reason in sorted(run.page.unread):
        line, column = run.src.line_col(pos)
        unread.append({"line": line, "column": column, "near": run.src.near(pos, end),
                       "reason": reason})
    notes = [f"line {run.src.line_col(pos)[0]}: {message}"
             for pos, message in sorted(run.page.notes)] + run.notes
    if run.einstein_used:
        notes.append(f"read with the summation convention ({run.einstein}): an index "
                     f"repeated in a product and not free on the left side is summed over "
                     f"its range")
    read_as = sorted({pair for contexts in run.contexts.values() for ctx in contexts
                      for pair in ctx.translator.lowercase_wholes})
    notes += [f"{letter} (no index) is read as the matrix {name}, which the page writes in "
              f"lowercase" for letter, name in read_as]
    shorthands = {}
    for contexts in run.contexts.values():
        for ctx in contexts:
            for pos, entry, meant in ctx.translator.softmax_shorthands:
                line = run.src.line_col(pos)[0]
                shorthands.setdefault((entry, meant), set()).add(line)
    notes += [f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, sorted(lines)))}: "
              f"softmax({entry}) is read as {meant}, the page's shorthand (the softmax of "
              f"one number would be 1)" for (entry, meant), lines in sorted(shorthands.items())]
    if len(targets) == 1:
        against = targets[0].describe()
        numbered = [dataclasses.replace(s, section=None) for s in numbered]
    else:
        against = "the handout: " + "; ".join(
            f"{t.section} {t.derivation.kind}{' (general)' if t.general else ''}"
            for t in targets)
    return Report(against, numbered, notes=tuple(notes), unread=tuple(unread),
                  convention=run.convention)
