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
    "numbers.exact": "With the numbers given, {C} works out to:",
    "numbers.approx": "With the numbers given, {C} works out to (rounded to three decimals):",
    "operand.symbols": ("{X} is a vector sequence: its points {x_i}, {m} in all, each in "
                        "{ell}-dimensional space, stacked one per row:"),
    "operand.values": ("{X} is a vector sequence: its points {x_i}, {m} in all, each in "
                       "{ell}-dimensional space, here given as numbers:"),
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
        "rather than the points of {A}. "
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
    "apply_definition.gelu": ("{f} is taken in its exact form, {=x} times the standard normal "
                              "distribution function at {=x} (not the tanh approximation):"),
    "apply_definition.leakyrelu": ("{f} keeps a positive entry and multiplies a negative "
                                   "one by its slope {p}; the formula does not write the "
                                   "slope, so it stays the symbol {p} (give it as the "
                                   "subscript of {f}, as in GAT's slope 0.2):"),
    "apply_definition.leakyrelu.given": ("{f} keeps a positive entry and multiplies a "
                                         "negative one by the slope {p} written in the "
                                         "formula:"),
    "apply_row": ("Each point {x_i} is sent to the point {f_i}, which has as many "
                  "coordinates:"),

    # -- sums ----------------------------------------------------------------------------
    "heading.sum": "The sum {S}",
    "sum": ("A sum of vector sequences of one shape adds them point by point: row {i} "
            "of the sum is the sum of the rows {i}."),
    "sum_entries": "Entry by entry:",

    # -- matrices side by side ------------------------------------------------------------
    "heading.concat": "Side by side: {blocks}",
    "concat.general": ("Placing {count} vector sequences side by side strings their points "
                       "together: point {c_i} is the points with the same index, one after "
                       "another, so it has as many coordinates as they have together:"),
    "concat.concrete": ("Placing {count} vector sequences side by side strings their points "
                        "together: point {c_i} is the points with the same index, one after "
                        "another:"),

    # -- diagonal matrices ------------------------------------------------------------------
    "heading.degree": "The degree matrix {D}",
    "degree.general": ("{D} is diagonal: entry {d_ii} adds up row {i} of {A}, the weight "
                       "that point {i} receives in all; every other entry is 0:"),
    "degree.concrete": ("{D} is diagonal: each diagonal entry adds up one row of {A}, the "
                        "weight that point receives in all; every other entry is 0:"),
    "heading.diag": "The diagonal matrix {S}",
    "diag": "{S} has the entries of {s} on its diagonal and 0 everywhere else:",
    "heading.power": "A power of a diagonal matrix: {P}",
    "power": ("{D} is diagonal, so its power {P} is diagonal too, each diagonal entry "
              "raised on its own:"),
    "heading.expdiag": "The exponential of a diagonal matrix: {E}",
    "expdiag.general": ("{D} is diagonal, so its exponential {E} is diagonal too: each "
                        "diagonal entry is exponentiated on its own, and the entries off "
                        "the diagonal stay 0 (exp of every entry would put 1 there):"),
    "expdiag.concrete": ("{D} is diagonal, so its exponential {E} is diagonal too: each "
                         "diagonal entry is exponentiated on its own, and the entries off "
                         "the diagonal stay 0 (exp of every entry would put 1 there):"),
    "heading.rowscale": "Each point scaled: {DX}",
    "rowscale": ("A diagonal matrix on the left does not mix points: it scales each point "
                 "of {X} by its own number, point {x_i} by {d_ii}:"),
    "rowscale_entries": "Entry by entry:",
    "heading.colscale": "Each coordinate scaled: {XD}",
    "colscale": ("A diagonal matrix on the right does not mix points either: every point "
                 "keeps its place, and coordinate {j} of every point is scaled by "
                 "{d_jj}:"),
    "colscale_entries": "Entry by entry:",

    # -- a bias row, the Hadamard product, LayerNorm -------------------------------------------
    "heading.bias": "A bias row: {S}",
    "bias": ("The row {b} is added to every row: every point moves by the same vector "
             "{b}, so the point cloud is shifted as a whole and keeps its shape:"),
    "bias_entry": "Entry by entry, coordinate {=j} of every point gets {b_j}:",
    "heading.hadamard": "Entry by entry: {S}",
    "hadamard": ("The Hadamard product multiplies entry by entry: point {i} of {L} and "
                 "point {i} of {R} make point {i} of the result, coordinate by coordinate, "
                 "so one gates the other:"),
    "hadamard_entries": "Written out entry by entry:",
    "hadamard_diagonal": ("The Hadamard product of two diagonal matrices is diagonal: entry "
                          "({i}, {i}) of the result is the product of entry ({i}, {i}) of "
                          "{L} and entry ({i}, {i}) of {R}, and every other entry is 0:"),
    "heading.layernorm": "LayerNorm: {Y}",
    "layernorm.plain": ("LayerNorm works on each point on its own, like the softmax: it "
                        "subtracts the mean of the coordinates of {x_i} and divides by "
                        "their standard deviation (with a small {eps} added under the "
                        "root):"),
    "layernorm.affine": ("LayerNorm works on each point on its own, like the softmax: it "
                         "subtracts the mean of the coordinates of {x_i}, divides by their "
                         "standard deviation (with a small {eps} added under the root), "
                         "then scales the coordinates by {gamma} and adds {beta}:"),
    "layernorm_read.plain": ("So every point is moved to mean 0 and variance 1 over its "
                             "{d} coordinates; no point sees another."),
    "layernorm_read.affine": ("So every point is moved to mean 0 and variance 1 over its "
                              "{d} coordinates, then stretched by {gamma} and shifted by "
                              "{beta}; no point sees another."),
    "heading.normalize": "Each point onto the unit sphere: {Y}",
    "normalize": ("The L2 normalisation works on each point on its own: it divides {x_i} by "
                  "its length, the root of the sum of its squared coordinates:"),
    "normalize_read": ("So every point keeps its direction and gets length 1: the points "
                       "move onto the unit sphere, and no point sees another."),

    # -- how the text was read ------------------------------------------------------------------
    "note_scalar": ("{x} is read as a scalar: it multiplies every entry. If it is a vector, "
                    "give it a shape, and it is read as one."),
    "note_degree": ("{D} is not defined here and is raised to a power, so it is read as "
                    "the degree matrix of {A}, with these diagonal entries:"),
    "note_attention": ("Attention is the scaled dot-product attention of the Transformer "
                       "paper: match, then a distribution, then combine."),
    "note_undefined": ("{f} is not a function symrow knows: it is read as a function "
                       "applied to every entry on its own, left undefined."),
    "note_columns_right": ("{x} stands to the right of a matrix: it is a column vector, and "
                           "the formula writes its points as columns."),
    "note_columns_left": ("{x} is transposed on the left of a product: it is a column "
                          "vector, and the formula writes its points as columns."),
    "note_columns_shape": ("{x} is one column: the formula writes its points as columns."),
    "note_columns_softmax": ("The softmax stands to the right of a product: the formula "
                             "writes its points as columns, and normalises along them."),
    "note_columns_given": "The formula writes its points as columns, as given.",
    "note_columns": ("Here it is read in the row view, one point per row: each column vector "
                     "is read as a row, its one point, and the formula as its transpose, "
                     "its products in reverse order and each matrix transposed, so that a softmax "
                     "along the paper's columns is the row-wise softmax of the transposed "
                     "scores, and every value below is the paper's transposed."),
    "note_blocks": "There are {count} heads here.",
    "note_function": ("The formula is the function {F} applied to its own arguments, "
                      "which are read as the operands."),
    "family": ("The other heads, {others}, are read in exactly the same way, each with "
               "its own matrices:"),

    # -- the backward pass -------------------------------------------------------------------------
    "heading.backward_forward": "The forward pass",
    "backward_forward": ("The formula computes these values in turn; the last, {C}, is its "
                         "result:"),
    "heading.backward_loss": "The loss and its gradient",
    "backward_loss.bar": 'Let {=L} be a number computed from {C}, a loss. Write {G} for {dLdC}: the matrix of how {=L} changes with each entry of {C}, the upstream gradient. Every gradient has the shape of its variable, so {G} is a vector sequence like {C}, one point {g_i} per row; a bar over a name means its gradient throughout:',
    "backward_loss.partial": ("Let {=L} be a number computed from {C}, a loss. Its gradient "
                              "{G} is the matrix of how {=L} changes with each entry of {C}, the "
                              "upstream gradient. Every gradient has the shape of its "
                              "variable, so {G} is a vector sequence like {C}, one point "
                              "{g_i} per row:"),
    "heading.backward_grad": "The gradient {Zbar}",
    "backward_uses.many": ("{Z} is used {count} times, here; each use sends back a share of "
                           "its gradient (⟵ below), and {Zbar} is the sum of the shares:"),
    "backward_name": ("Write {G} for the gradient of {X}, which has no name of its own: a "
                      "matrix of the shape of {X}, with rows {g_i}."),
    "backward_again": "Back through {use}, by the same rule as above:",
    "backward_same.read": "{Zbar} comes back through {use}, by the rule shown above.",
    "backward_same.shown": "{Zbar} comes back through {use}, by the rule shown above:",
    "backward_read_again": ("{Zbar} is a product of the same kind as {Ybar} above, read in "
                            "the same way:"),
    "backward_rule.combine": ("Back through the combine {use}: the gradient of each factor is "
                              "{Cbar} multiplied by the other factor, transposed. {Lbar} "
                              "matches each point of {Cbar} against the points of {R}, "
                              "and {Rbar} gathers the points of {Cbar}, weighted by "
                              "the columns of {L} (a combine over the points):"),
    "backward_rule.match": ("Back through the match {use}: {Lbar} combines the points of {R} "
                            "with the weights in the rows of {Cbar}, and {Rbar} "
                            "combines the points of {L} with the weights in the columns of "
                            "{Cbar} (a combine over the points):"),
    "backward_rule.tcombine": ("Back through the combine over the points {use}: {Lbar} "
                               "matches each point of {R} against the points of {Cbar} (a "
                               "match), and {Rbar} combines the points of {Cbar} with the "
                               "weights in the rows of {L} (a combine):"),
    "backward_rule.transpose": ("Back through the transpose {use}, the gradient is "
                                "transposed back."),
    "backward_rule.scale": ("Back through the scaling {use}: every entry of {X} was "
                            "multiplied by {c}, so each entry of {Xbar} is the same entry of "
                            "{Cbar} multiplied by {c}."),
    "backward_rule.mask": ("Back through the mask {use}: the gradient passes unchanged; the "
                           "mask {M} itself is not differentiated."),
    "backward_rule.softmax": ("Back through the softmax {use}: each row of {P} is made from "
                              "the same row of {X} alone, so {Xbar} is found row by row, each "
                              "row of {Pbar} multiplied by the Jacobian of the softmax of that "
                              "row."),
    "backward_rule.apply": ("Back through {use}, a function of each entry on its own: each "
                            "entry of {Cbar} is multiplied by the derivative of {f} at the "
                            "same entry of {X} (the derivative of ReLU is the step function, "
                            "the sigmoid's is itself times one minus itself, tanh's is one "
                            "minus its square, exp's is exp)."),
    "backward_rule.sum": "Back through the sum {use}: each term receives {Cbar}, with its sign:",
    "backward_rule.bias": ("Back through the bias row in {use}: the matrix receives {Cbar}, "
                           "and the row, which moved every point, gathers the gradients of "
                           "all the points:"),
    "backward_rule.hadamard": ("Back through the entry-by-entry product {use}: each factor's "
                               "gradient is {Cbar} times the other factor, entry by entry:"),
    "backward_rule.layernorm": ("Back through {use}, each point on its own, with the "
                                "normalised point and the gradient times the gain."),
    "backward_rule.normalize": ("Back through the L2 normalisation {use}, each point on its "
                                "own: the part of the gradient along the normalised point is "
                                "taken out, and the rest is divided by the point's length."),
    "backward_rule.expdiag": ("Back through the exponential {use} of a diagonal matrix: each "
                              "diagonal entry of {Cbar} is multiplied by the same entry of "
                              "{C}, since exp is its own derivative."),
    "backward_rule.rowscale": ("Back through {use}, where the diagonal matrix {L} scaled each "
                               "point of {R}: the points of {Cbar} are scaled back by {L}, "
                               "and each diagonal entry of {Lbar} is the inner product of a "
                               "point of {Cbar} with the same point of {R}:"),
    "backward_rule.colscale": ("Back through {use}, where the diagonal matrix {R} scaled each "
                               "coordinate of {L}: {Lbar} is {Cbar} with its coordinates "
                               "scaled by {R}, and each diagonal entry of {Rbar} adds up, over "
                               "the points, a coordinate of {Cbar} times the same coordinate "
                               "of {L}:"),
    "backward_rule.power": ("Back through the power {use} of a diagonal matrix, each "
                            "diagonal entry on its own."),
    "backward_rule.degree": ("Back through the degree matrix {use}: every entry of row {=i} "
                             "of {X} was counted in {=d_ii}, so each gets that entry's "
                             "gradient."),
    "backward_rule.diag": ("Back through {use}: each entry of {X} gets the diagonal entry of "
                           "{Cbar} it was put in."),
    "backward_rule.concat": ("Back through {use}, matrices side by side: each block gets the "
                             "columns of {Cbar} that it filled."),
    "backward_flash": 'Since {Pbar} = {ObarVT} and {O} = {PV}, each row sum of {PbarP} is the inner product of a row of {Obar} with the same row of {O}, so it can be computed from the output alone (FlashAttention does so):',
    "backward_result": "So {Zbar}, the sum of its shares, is:",
    "heading.backward_gradients": "The gradients",
    "backward_gradients": "Together, the gradients of the loss with respect to the operands:",
    "softmax_vjp": ("Row {=i} of {Y} is the row {g_i} multiplied by the Jacobian {jac} of "
                    "the softmax of row {=i}; multiplied out, each entry is the weight times "
                    "the difference between its gradient and the weighted mean of the "
                    "gradients:"),
    "softmax_vjp_matrix": ("All rows at once. Here rowsum adds up each row, so rowsum({GP}) "
                           "is a column with one number per row, and subtracting it from {G} "
                           "takes each row's number from every entry of that row:"),
    "pointsum": "A sum over the {n} points: every point's gradient {g_i} is added up:",
    "rowdot": "Entry {=(i, i)} is one inner product, of the point {g_i} with the point {x_i}:",
    "coldot": "Entry {=(j, j)} adds up coordinate {j} of the gradient times the same coordinate:",
    "block": "The columns {first} to {last} of {G}:",
    "diagrow": "The diagonal of {G}, as a row:",
    "rowspread": "Every entry of row {=i} gets the diagonal entry of row {=i}:",
    "normalize_vjp": ("Each point on its own: with {y_i} the normalised point, the part of "
                      "{g_i} along {y_i} is taken out, and the rest is divided by the length "
                      "of {x_i}:"),
    "layernorm_vjp": 'Each point on its own, with {eps} as in the forward pass:',

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
