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

The backward pass (:mod:`symrow.derive.backward`) adds the readings of
:mod:`.gradients`: the softmax backwards, a sum over the points, and the
gradients of diagonal matrices and of blocks.

The planner (:mod:`symrow.derive.plan`) only picks classes; see
:class:`~symrow.derive.readings.base.Reading` for what each one owns.

>>> from symrow.derive.readings import READINGS
>>> sorted(READINGS)[:6]
['apply', 'bias', 'block', 'coldot', 'colscale', 'combine']
"""

from .base import READINGS, Ctx, Reading, register
from .diagonal import (ColScale, Degree, Diag, DiagonalOperand, DiagPower, Identity, RowScale,
                       is_diagonal)
from .entrywise import Apply, Scale, Sum
from .gradients import (Block, ColDot, DiagRow, LayerNormVJP, PointSum, RowDot, RowSpread,
                        SoftmaxVJP)
from .layers import Bias, Hadamard, LayerNorm
from .products import Combine, Match, TCombine
from .rowwise import Mask, Softmax
from .structure import Concat, Operand, Transpose

__all__ = ["READINGS", "Reading", "Ctx", "register", "Operand", "Combine", "Match",
           "TCombine", "Transpose", "Scale", "Mask", "Softmax", "Apply", "Sum", "Concat",
           "Bias", "Hadamard", "LayerNorm", "RowScale", "ColScale", "DiagPower", "Degree",
           "Diag", "Identity", "DiagonalOperand", "is_diagonal", "SoftmaxVJP", "PointSum",
           "RowDot", "ColDot", "Block", "DiagRow", "RowSpread", "LayerNormVJP"]
