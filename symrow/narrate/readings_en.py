"""English narration of the readings of any formula (see :mod:`symrow.derive.sections`).

Fields in braces are shown as inline math.  The attention preset's own
words are in :mod:`.attention_en`, under the same kinds with the style
``attention``.
"""

TEMPLATES: dict[str, str] = {
    # -- an excerpt: some parts of a derivation --------------------------------------
    "excerpt": "The parts below are taken from the derivation of this formula:",
    # -- the formula, its operands, its definitions ----------------------------
    "heading.formula": "The formula",
    "formula.one": ("The formula to read is the one below; its result is called {C}. "
                    "Every product in it will be read row by row, as a map between "
                    "point clouds."),
    "formula.defs": ("The formula to read is a list of definitions; the last one, {C}, "
                     "is the result. Every product in it will be read row by row, as a "
                     "map between point clouds."),
    "heading.operands": "The operands as vector sequences",
    "operand.symbols": ("{X} is a vector sequence: {m} points {x_i}, each with {ell} "
                        "coordinates, stacked one per row:"),
    "operand.values": ("{X} is a vector sequence of {m} points {x_i}, each with {ell} "
                       "coordinates, here given as numbers:"),
    "plan": ("Read from the inside out, the formula computes these matrices in turn; "
             "the last one, {C}, is the result:"),

    # -- combine ------------------------------------------------------------------
    "combine_product": ("{LR} is a combine: point by point, the result takes the "
                        "components of a point of {L} as weights and combines all the "
                        "points of {R} with them."),
    "combine_row": ("Row {i} on its own: the weights are the components of {l_i}, and "
                    "the points combined are the rows of {R}:"),
    "combine_causal.square": ("With the mask, the weights after position {i} are 0, so "
                              "row {i} combines only {r_1} to {r_i}:"),
    "combine_causal.offset": ("With the mask, the weights of the positions row {i} may "
                              "not see are 0, so it combines only {r_1} to {r_i}:"),
    "combine_entry.general": "Entry by entry, this is the familiar rule:",
    "combine_entry.concrete": "Written out entry by entry:",
    "combine_read.match": ("The weights are non-negative and add up to 1, so {c_i} is a "
                           "weighted average of the points of {R}, pulled towards those "
                           "whose partners match {q_i} best."),
    "combine_read.plain": ("The weights are non-negative and add up to 1, so {c_i} is a "
                           "weighted average of the points of {R}."),

    # -- match --------------------------------------------------------------------
    "match_product": ("{LRT} is a match: every point of {L} is compared with every "
                      "point of {R} by an inner product."),
    "match_row": ("Row {i} of {C} matches the single point {l_i} against all the points "
                  "of {R}, one inner product each:"),
    "match_entry.general": ("Each entry {c_ij} is one inner product, a sum of {dim} "
                            "products of components:"),
    "match_entry.concrete": "Written out entry by entry:",

    # -- A^T B --------------------------------------------------------------------
    "heading.tcombine": "The product {ATB}: a combine over the data points",
    "tcombine_outer": (
        "In {ATB} the left factor is transposed, so its rows are the columns of {A} "
        "rather than the points of {A}; the reference article does not name this case. "
        "Read it along the {data} data points instead: each point contributes one "
        "outer product {outer}, and the result adds them up."),
    "tcombine_row": ("Row {j} of {C} is a combine again: it combines the points of {B}, "
                     "weighted by the entries of column {j} of {A}:"),
    "tcombine_entry.general": "Entry by entry, each is a sum over the data points:",
    "tcombine_entry.concrete": "Written out entry by entry:",

    # -- a transposed result -----------------------------------------------------
    "heading.transpose": "The transpose {XT}",
    "transpose.concrete": ("Transposing swaps rows and columns: the points of {C} are "
                           "the columns of {X}, so no point of {X} survives as it was:"),
    "transpose.general": ("Transposing swaps rows and columns: the points of {C} are "
                          "the columns of {X}. Entry by entry:"),

    # -- scaling --------------------------------------------------------------------
    "heading.scale": "Scaling: {scaled}",
    "scale.symbolic": ("Every entry is scaled by the same factor, so every point moves "
                       "along its own direction and nothing is mixed:"),
    "scale.constant": ("Every entry is scaled by the same number, so every point moves "
                       "along its own direction and nothing is mixed:"),
    "scale.number": ("Every entry is scaled by the same factor; here the number is "
                     "substituted, {sqrt_d_value}:"),
    "scale.one": "The formula scales by {sqrt_d}, which is 1 here, so nothing changes.",

    # -- masks ----------------------------------------------------------------------
    "heading.mask": "The mask",
    "mask.additive": ("The mask {M} is added entry by entry before the softmax; where "
                      "it is minus infinity, that entry is switched off:"),
    "mask.square": ("A causal mask forbids row {i} to look ahead: it may use positions "
                    "1 to {i} only. The mask {M} is 0 on and below the diagonal and minus "
                    "infinity above it:"),
    "mask.offset": ("A causal mask forbids a row to look ahead. With {m} rows and {n} "
                    "columns, the rows are the last {m} positions, so row {i} may use "
                    "the positions up to {last}. The mask {M} is 0 there and minus "
                    "infinity elsewhere:"),
    "mask_result": "After adding {M}, the entries a row may not use are minus infinity:",

    # -- softmax ----------------------------------------------------------------------
    "heading.softmax": "Row-wise softmax: each row becomes a distribution",
    "softmax.plain": ("The softmax works on each row on its own: it exponentiates every "
                      "entry and divides by the sum of its row."),
    "softmax.causal": ("The softmax works on each row on its own: it exponentiates every "
                       "entry and divides by the sum of its row; the mask enters through "
                       "the exponential."),
    "softmax_entry.general": "Entry by entry:",
    "softmax_entry.concrete": "Entry by entry:",
    "softmax_mask_zero": ("The exponential of minus infinity is 0, so a masked entry gets "
                          "weight exactly 0:"),
    "softmax_distribution.plain": ("Every {p_ij} is positive and each row adds up to 1, "
                                   "since the numerators add up to the shared "
                                   "denominator:"),
    "softmax_distribution.causal": ("Every {p_ij} is non-negative and each row adds up to "
                                    "1, since the numerators add up to the shared "
                                    "denominator:"),
    "softmax_read.match": ("So each row {p_i} is a distribution over {n} columns: "
                           "it shares out one unit among them, the largest shares going "
                           "to the points that match {q_i} best."),
    "softmax_read.plain": ("So each row {p_i} is a distribution over {n} columns: "
                           "it shares out one unit among them."),

    # -- element-wise functions --------------------------------------------------------
    "heading.apply": "Element-wise: {fX}",
    "apply": ("{f} acts on every entry on its own, so nothing is mixed between points or "
              "between coordinates:"),
    "apply_row": ("Each point {x_i} is sent to the point {f_i}, which has as many "
                  "coordinates:"),

    # -- sums ----------------------------------------------------------------------------
    "heading.sum": "The sum {S}",
    "sum": ("A sum of vector sequences of one shape adds them point by point: row {i} "
            "of the sum is the sum of the rows {i}."),
    "sum_entries": "Entry by entry:",

    # -- the full expansion ---------------------------------------------------------------
    "heading.expansion": "Everything substituted",
    "expand_rows.general": ("Substituting the softmax and the match into the combine "
                            "writes every point of the result in the entries of {Q}, {K} "
                            "and {V} alone:"),
    "expand_rows.concrete": ("Substituting the softmax and the match into the combine "
                             "writes every point of the result in the entries of {Q}, {K} "
                             "and {V} alone. Point by point:"),
    "expand_entries.general": "and each entry {o_il}, with the inner products written out:",
    "expand_entries.concrete": "Entry by entry:",
    # -- a display shortened to its first equation (expand="one") -----------------------
    "expand_others.points": "The other points, {others}, follow the same pattern.",
    "expand_others.points_one": "The other point, {others}, follows the same pattern.",
    "expand_others.entries": "The other entries, {others}, follow the same pattern.",
    "expand_others.entries_one": "The other entry, {others}, follows the same pattern.",

    # -- the summary ------------------------------------------------------------------------
    "summary.row": ("In short, no single point of an operand is followed through here "
                    "(one of them is used more than once); row {i} of the result is made "
                    "from rows of the operands like this:"),
    "summary": ("In short, follow one point {x_i} through the formula: each reading sends "
                "it to the next vector sequence, until it becomes the point {c_i} of the "
                "result:"),
}
