"""One class per reading: everything about one kind of value lives in its class.

======================= =========================================================
class                   what it reads
======================= =========================================================
:class:`Operand`        a matrix given by name, read as a vector sequence
:class:`Combine`        ``L R``: the points of R combined, weighted by l_i (結合)
:class:`Match`          ``L R^T``: l_i matched against every point of R (照合)
:class:`TCombine`       ``A^T B``: a combine over the data points, Σ_i a_i^T b_i
:class:`Transpose`      ``(AB)^T`` and other transposed results
:class:`Scale`          ``X / √d``, ``2X``, ``X / n``
:class:`Mask`           ``X + M`` inside a softmax: an additive (causal) mask
:class:`Softmax`        row-wise softmax: each row becomes a distribution (配分)
:class:`Apply`          an element-wise function: exp, ReLU, σ, tanh, φ
:class:`Sum`            terms of one shape, added or subtracted
:class:`Concat`         matrices side by side (multi-head attention)
:class:`Bias`           ``XW + b``: a row added to every row; every point moves by b
:class:`Hadamard`       ``A ⊙ B``: entry by entry; point i gates point i
:class:`LayerNorm`      each point centred and scaled on its own, then γ and β
:class:`RowScale`       ``D X``, D diagonal: each point scaled by its own number
:class:`ColScale`       ``X D``, D diagonal: each coordinate scaled
:class:`DiagPower`      ``D^{-1/2}``: a power of a diagonal matrix
:class:`Degree`         the degree matrix, d_ii = Σ_j a_ij
:class:`Diag`           ``diag(s)``: a row on the diagonal
:class:`Identity`       the identity matrix I
======================= =========================================================

The backward pass (:mod:`symrow.derive.backward`) adds readings of its own,
each in the module of the reading it runs backwards: the softmax backwards
(:class:`SoftmaxVJP`), a sum over the points (:class:`PointSum`, a bias row's
gradient), LayerNorm backwards (:class:`LayerNormVJP`), the gradients of
diagonal matrices (:class:`RowDot`, :class:`ColDot`, :class:`DiagRow`,
:class:`RowSpread`) and of blocks (:class:`Block`).

The planner (:mod:`symrow.derive.plan`) only picks classes; see
:class:`~symrow.derive.readings.base.Reading` for what each one owns.

>>> from symrow.derive.readings import READINGS
>>> sorted(READINGS)[:6]
['apply', 'bias', 'block', 'coldot', 'colscale', 'combine']
"""

from .base import (DIAGONAL, ELEMENTWISE, GIVEN, KINDS, MIXING, READINGS, ROWWISE, Ctx, Example,
                   Reading, register, unregister)
from .entrywise import (ENTRY_FUNCTIONS, Apply, EntryFunction, Scale, Sum, exp_of, function_of,
                        read_whole, register_entry_function)
from .rowwise import Mask, MaskedRow, Softmax, SoftmaxVJP, row_softmax
from .products import Combine, Match, TCombine, matrix_product
from .structure import Block, Concat, Operand, Transpose
from .diagonal import (ColDot, ColScale, Degree, Diag, DiagonalOperand, DiagPower, DiagRow,
                       Identity, RowDot, RowScale, RowSpread, is_diagonal)
from .layers import Bias, Hadamard, LayerNorm, LayerNormVJP, PointSum
from .normalize import Normalize, NormalizeVJP
from .expdiag import ExpDiag
from .ones import Ones
from . import gelu  # noqa: F401  (GELU, applied entry by entry)
from . import leakyrelu  # noqa: F401  (LeakyReLU and its slope, entry by entry)
from . import elu  # noqa: F401  (ELU, entry by entry)
from . import log  # noqa: F401  (the natural logarithm, entry by entry)

__all__ = ["READINGS", "Reading", "Ctx", "Example", "register", "unregister", "KINDS", "GIVEN",
           "ELEMENTWISE", "ROWWISE", "MIXING", "DIAGONAL", "Operand", "Combine", "Match",
           "TCombine", "Transpose", "Scale", "Mask", "Softmax", "Apply", "Sum", "Concat",
           "Bias", "Hadamard", "LayerNorm", "RowScale", "ColScale", "DiagPower", "Degree",
           "Diag", "Identity", "DiagonalOperand", "is_diagonal", "SoftmaxVJP", "PointSum",
           "RowDot", "ColDot", "Block", "DiagRow", "RowSpread", "LayerNormVJP", "Normalize",
           "NormalizeVJP", "ExpDiag", "Ones",
           "EntryFunction", "ENTRY_FUNCTIONS", "register_entry_function", "read_whole",
           "function_of", "exp_of", "row_softmax", "MaskedRow", "matrix_product"]
