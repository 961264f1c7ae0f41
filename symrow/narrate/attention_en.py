"""Narration templates: attention (en).  Fields in braces are shown as inline math.

The words of the attention preset: keys are the readings' kinds with the
style ``attention`` (``match_product.attention``), and ``attn_...`` for the
steps only attention has (projections, several heads).
"""

TEMPLATES: dict[str, str] = {
    # -- headings ----------------------------------------------------------
    "heading.formula.attention": "Attention in one line",
    "heading.attn_projections": "Where the queries, keys and values come from",
    "heading.match.attention": "Stage 1, match: {ABT}",
    "heading.scale.attention": "Stage 2, scale: {scaled}",
    "heading.mask.attention": "The causal mask",
    "heading.softmax.attention": "Stage 3, distribute: {softmax}",
    "heading.combine.attention": "Stage 4, combine: {AB}",
    "heading.expansion.attention": "Everything substituted",
    "heading.attn_head_one": "Head {h}, step by step",
    "heading.attn_heads": "Putting the heads together",

    # -- the formula and its operands ---------------------------------------
    "attn_formula_heads.two": ("With {H} heads, attention runs twice side by side, once per "
                               "head, and each head has its own queries, keys and values. "
                               "The outputs {O_1} and {O_H} are then placed next to each "
                               "other and multiplied by an output projection {W_O}:"),
    "attn_formula_heads.many": ("With {H} heads, attention runs {H} times side by side, once "
                                "per head, and each head has its own queries, keys and "
                                "values. The outputs {outs} are then placed next to each "
                                "other and multiplied by an output projection {W_O}:"),
    "formula.attention.plain_head": (
        "Each head is scaled dot-product attention: head {h} sends {m} query points to {m} "
        "output points, consulting {n} key points and {n} value points on the way."),
    "formula.attention.causal_head": (
        "Each head is scaled dot-product attention: head {h} sends {m} query points to {m} "
        "output points, consulting {n} key points and {n} value points on the way. With a "
        "causal mask {M}, a query may only look at the keys up to its own position."),
    "attn_head_one": ("From here on, the derivation follows head {h}. Every other head goes "
                      "through the same stages with its own vector sequences, as head 2 "
                      "does with {Q_2}, {K_2} and {V_2}."),
    "formula.attention.plain": ("Scaled dot-product attention sends {m} query points to {m} "
                           "output points, consulting {n} key points and {n} value "
                           "points on the way:"),
    "formula.attention.causal": ("Scaled dot-product attention sends {m} query points to {m} "
                            "output points, consulting {n} key points and {n} value "
                            "points on the way. With a causal mask {M}, a query may "
                            "only look at the keys up to its own position:"),
    "operands.attention.general": (
        "All three operands are vector sequences. {Q} stacks {m} query points "
        "{q_i} and {K} stacks {n} key points {k_j}, both {d}-dimensional, so that "
        "inner products can compare them. {V} stacks {n} value points {v_j} of "
        "dimension {d_v}; key {k_j} and value {v_j} describe the same item {j}. "
        "The numbers {m} and {n} need not be equal; when the queries come from a "
        "different sequence than the keys and values, this is cross-attention."),
    "operands.attention.self": (
        "All three operands are vector sequences. {Q} stacks {m} query points "
        "{q_i} and {K} stacks {n} key points {k_j}, both {d}-dimensional, so that "
        "inner products can compare them. {V} stacks {n} value points {v_j} of "
        "dimension {d_v}; key {k_j} and value {v_j} describe the same item {j}."),
    "operands.attention.cross": (
        "All three operands are vector sequences. {Q} stacks {m} query points "
        "{q_i} and {K} stacks {n} key points {k_j}, both {d}-dimensional, so that "
        "inner products can compare them. {V} stacks {n} value points {v_j} of "
        "dimension {d_v}; key {k_j} and value {v_j} describe the same item {j}. "
        "Here there are {m} queries but {n} keys: the queries come from another "
        "sequence than the keys and values, which is cross-attention. Nothing "
        "below needs the two numbers to agree."),
    "plan.attention.plain": ("Read from the inside out, the formula has three stages: "
                        "match the queries against the keys, turn each row of "
                        "scores into a distribution, and combine the values with "
                        "it:"),
    "plan.attention.causal": ("Read from the inside out, the formula has three stages: "
                         "match the queries against the keys, turn each row of "
                         "masked scores into a distribution, and combine the values "
                         "with it:"),

    # -- projections -------------------------------------------------------
    "attn_inputs.self": ("In a transformer, the queries, keys and values are not "
                         "given: they are computed from one input vector sequence "
                         "{X}, whose {m} rows {x_i} are tokens described by {D} "
                         "numbers each:"),
    "attn_inputs.cross": ("In a transformer, the queries, keys and values are not "
                          "given: they are computed from input vector sequences. "
                          "In cross-attention the queries come from {X} ({m} "
                          "tokens), while the keys and values come from a second "
                          "sequence {Y} ({n} tokens, rows {y_j}):"),
    "attn_projection_defs.one": "Three weight matrices turn the inputs into the operands:",
    "attn_projection_defs.heads": ("Every one of the {H} heads has its own three "
                                   "weight matrices:"),
    "attn_projection_shapes": ("The weight matrices have {D} rows, one per input "
                               "feature, and as many columns as the operand they "
                               "produce:"),
    "attn_projection_rows": (
        "Each projection is a combine. The query point {q_i} takes the {D} "
        "components of the input point {x_i} as weights and combines the rows of "
        "{W_Q} with them; keys and values are made the same way:"),
    "attn_projection_entries": "Written out entry by entry, {Q}, {K} and {V} are",

    # -- stage 1: match ----------------------------------------------------
    "match_product.attention": ("The first product, {LRT}, is a match: every query point is "
                   "compared with every key point by an inner product."),
    "match_row.attention": ("Row {i} of {C} matches the single query {l_i} against all "
                       "the keys, one inner product per key:"),
    "match_entry.attention.general": (
        "Each score {c_ij} is one inner product, a sum of {dim} products of "
        "components. The larger it is, the better key {r_j} matches query {l_i}:"),
    "match_entry.attention.concrete": (
        "Each score is one inner product, a sum of {dim} products of components. "
        "The larger it is, the better the key matches the query. Written out:"),

    # -- stage 2: scale ----------------------------------------------------
    "scale.attention.symbolic": (
        "Every score is divided by {sqrt_d} before the exponential. A score adds "
        "up {d} products, so it grows with the dimension: with independent "
        "components of mean 0 and variance 1, its variance is {d}. Dividing by {sqrt_d} "
        "brings it back to 1 and keeps the softmax from becoming too sharp:"),
    "scale.attention.number": (
        "Before the exponential, every score is divided by {sqrt_d}. An inner "
        "product adds up {d} products, so its size grows with the dimension; "
        "dividing by the square root of the dimension keeps it moderate. Here "
        "the number is substituted, {sqrt_d_value}:"),
    "scale.attention.one": (
        "The formula divides every score by {sqrt_d}, to keep the scores moderate "
        "as the dimension grows. Here {d} = 1, so the scores stay as they are."),

    # -- the causal mask ---------------------------------------------------
    "mask.attention.square": (
        "A causal mask forbids a query to look ahead: query {i} may use the keys "
        "1 to {i} only. The mask {M} has 0 on and below the diagonal and minus "
        "infinity above it, and it is added to the scaled scores:"),
    "mask.attention.offset": (
        "A causal mask forbids a query to look ahead. With {m} queries and {n} "
        "keys, the queries are taken to be the last {m} positions of the {n}, so "
        "query {i} may use the keys up to position {last}, and the last "
        "query sees every key. The mask {M} has 0 where the query may look and "
        "minus infinity elsewhere, and it is added to the scaled scores:"),
    "mask_result.attention": "After adding {M}, the scores a query may not use are minus infinity:",

    # -- stage 3: distribution ---------------------------------------------
    "softmax.attention.plain": (
        "The softmax works row by row: it exponentiates the entries and divides "
        "by their sum."),
    "softmax.attention.causal": (
        "The softmax works row by row: it exponentiates the entries and divides "
        "by their sum. The mask enters through the exponential."),
    "softmax_entry.attention.general": "Entry by entry:",
    "softmax_entry.attention.concrete": "Entry by entry:",
    "softmax_mask_zero.attention": ("Since the exponential of minus infinity is 0, a masked key "
                       "gets weight exactly 0, and each sum runs only over the keys "
                       "the query may see:"),
    "softmax_distribution.attention.plain": (
        "Every {p_ij} is positive, because an exponential never vanishes, and "
        "each row sums to 1, because the numerators add up to the common "
        "denominator:"),
    "softmax_distribution.attention.causal": (
        "Every {p_ij} is non-negative (positive where the query may look, 0 where "
        "it may not), and each row sums to 1, because the numerators add up to "
        "the common denominator:"),
    "softmax_read.attention.plain": (
        "So each row {p_i} is a distribution over the {n} keys: the keys with the largest "
        "scores get the largest shares."),
    "softmax_read.attention": (
        "So each row {p_i} is a distribution over the {n} keys: it hands out weights "
        "that add up to 1 among them, and the keys that match {q_i} best get "
        "the largest shares."),

    # -- stage 4: combine --------------------------------------------------
    "combine_product.attention": ("The last product, {LR}, is a combine: each output point mixes "
                     "all the value points."),
    "combine_row.attention": ("Row {i} of {C} takes the distribution {l_i} as weights and "
                              "combines the rows of {R} with them:"),
    "combine_causal.attention.square": (
        "With the mask, the weights of the keys after position {i} are 0, so row "
        "{i} combines only {r_1} to {r_i}:"),
    "combine_causal.attention.offset": (
        "With the mask, the weights of the keys the query may not see are 0, so "
        "row {i} combines only {r_1} to {r_i}:"),
    "combine_entry.attention": "Component {k} of the output combines component {k} of the values with the same weights:",
    "combine_read.attention.plain": (
        "With non-negative weights that sum to 1, {c_i} is a weighted average of "
        "the value points, pulled towards the values whose keys have the largest scores."),
    "combine_read.attention": (
        "With non-negative weights that sum to 1, {c_i} is a weighted average of "
        "the value points: it lies in their convex hull and leans towards the "
        "values whose keys match {q_i} best."),

    # -- the full expansion ------------------------------------------------
    "expand_rows.attention.general": (
        "Substituting the distribution and the match into the combine writes "
        "each output point in the entries of {Q}, {K} and {V} alone; the weights "
        "share one denominator, written once:"),
    "expand_rows.attention.concrete": (
        "Substituting the distribution and the match into the combine writes "
        "each output point in the entries of {Q}, {K} and {V} alone; the weights "
        "share one denominator, written once:"),
    "expand_entries.attention.general": "and each entry {o_il}, with the inner products written out:",
    "expand_entries.attention.concrete": ("Entry by entry, the same weights combine the "
                                          "components of the values:"),
    "summary.attention": (
        "In short, each query point {q_i} goes through three maps: matching the "
        "keys gives scores {s_i}, the softmax makes them a distribution {p_i}, "
        "and combining the values with it gives {o_i}."),

    # -- several heads -----------------------------------------------------
    "attn_concat": ("Each head computes its output as derived for head 1. The {H} outputs "
                    "are concatenated side by side: row {i} of {C} places the output points "
                    "of all the heads for query {i} next to each other. The output "
                    "projection {W_O} is cut to match, into one block of {d_v} rows per "
                    "head:"),
    "attn_output": ("Multiplying by {W_O} is one more combine, and in these blocks it is the "
                    "same as letting every head combine its own block and adding the "
                    "results:"),
    "attn_output_row": ("Row by row: {o_i} combines the rows of {W_O}, weighted by "
                        "the components of the concatenated row {c_i}:"),
    "attn_output_entries": "Entry by entry, in the entries of the head outputs:",
}
