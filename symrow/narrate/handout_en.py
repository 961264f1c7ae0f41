"""Narration templates: handout (en).  Fields in braces are shown as inline math.

The handout's own sentences: its introduction, the worked examples and the
links between sections.  The general forms reuse the derivations' templates.
"""

TEMPLATES: dict[str, str] = {
    # -- the handout's title page (plain words: see symrow.narrate.phrase) ----
    "handout.title": "Reading attention through matrix products",
    "handout.subtitle": "A handout: matrices as vector sequences, products as combine and match",
    "handout.made_with": "Every derivation in this handout was produced by symrow.",

    # -- headings ----------------------------------------------------------
    "heading.h_vecseq": "Matrices as vector sequences",
    "heading.h_maps": "Matrix products as maps",
    "heading.h_combine": "The product {AB}: combine",
    "heading.h_match": "The product {ABT}: match",
    "heading.h_attention": "Attention: match, distribute, combine",
    "heading.h_beyond": "Two more formulas, read the same way",
    "heading.h_linear": "A linear layer {XW}",
    "heading.h_gcn": "A graph convolution {AXW}",
    "heading.h_backward": "Backpropagation through attention",
    "heading.h_backward_linear": "A linear layer {XW}, backwards",
    "heading.h_backward_attention": "Attention, backwards",
    "h_backward_lead": ("Training needs the gradient of a loss with respect to every "
                        "matrix of the formula. It flows back through the same products, "
                        "and each gradient product is again a combine or a match, read row "
                        "by row just as before. A linear layer first, then attention."),
    "h_backward_linear_lead": ("The simplest case shows the pattern: the gradient of {X} "
                               "is a match against the rows of {W}, and the gradient of "
                               "{W} gathers the points of the gradient, weighted by the "
                               "entries of {X}."),
    "h_backward_attention_lead": ("Attention backwards passes through its three stages in "
                                  "reverse: the combine with {V}, the softmax, and the "
                                  "match of {Q} with {K}."),
    "h_backward_read": ("So the backward pass of attention is two matches, two combines over "
                        "the points and one row-wise step: the same two readings as the "
                        "forward pass, and the softmax still works on each row alone."),
    "heading.h_example_linear": "Worked example: a linear layer",
    "heading.h_example_gcn": "Worked example: a graph convolution",
    "heading.h_example_backward_linear": "Worked example: the linear layer's gradients",
    "heading.h_example_backward_attention": "Worked example: attention's gradients",

    # -- the worked examples of section 6 ---------------------------------------
    "h_ex_linear_setup": ("Take the three points of section 1 as inputs and the {B} of "
                          "section 3 as weights: {X} holds {n} inputs with {d} features "
                          "each, and {W} has {d} rows and {f} columns:"),
    "h_ex_linear_rows": ("Each output is a combine of the rows of {W}, weighted by the "
                         "features of the input. The features {three} and {one} of "
                         "the input {x_2}, for instance, weigh {w_1} and {w_2}, which gives {y_2}:"),
    "h_ex_linear_result": ("Stacked, the rows give {XW}, the same numbers as the product "
                           "of section 3:"),
    "h_ex_gcn_graph": ("Take a graph of three nodes in a line, {one} to {two} to {three}. "
                       "Give every node an edge to itself and divide each row of the "
                       "adjacency matrix by its sum: each row of {A} then holds the weights "
                       "a node gives to itself and to its neighbours (the symmetric "
                       "normalisation that is often used reads the same way). {X} and {W} "
                       "are those of the linear layer:"),
    "h_ex_gcn_mix": ("In the first combine every node averages its own point and its "
                     "neighbours'. The point {h_1} averages {x_1} and its neighbour, and "
                     "{x_3} has no part in it; nor has {x_1} in {h_3}:"),
    "h_ex_gcn_map": ("The second combine is the linear layer: the averaged points are "
                     "mapped by {W}:"),

    # -- section 7: attention refers to the rules of 7.1 --------------------------
    "backward_loss.again": ("As in 7.1, {=L} is a loss computed from {C}, and the upstream "
                            "gradient {dLdC} is written {G}, with rows {g_i}:"),
    "h_bw_rule_again": ("The combine {use} goes back by the same rule as {first} in 7.1: "
                        "the gradient of each factor is the upstream gradient times the other "
                        "factor transposed, {Lbar} a match and {Rbar} a combine over the "
                        "points:"),
    "h_bw_outer_again": ("{ATB} is a product of the same kind as {first} in 7.1: each of "
                         "the {data} query points gives one outer product {outer}, and "
                         "they are added up:"),
    "h_bw_vbar_row": ("Row by row, the gradient of the value {v_j} gathers the output "
                      "gradients {o_i} of the queries, each weighted by the weight "
                      "{p_ij} that its query gave to {v_j}:"),
    "h_bw_pbar": ("{Pbar} is the other half of the same rule, a match like {first} in "
                  "7.1: row {=i} holds the inner products of the output gradient {o_i} "
                  "with the points of {V}:"),

    # -- the worked examples of section 7 ---------------------------------------
    "h_ex_bw_linear_setup": ("Keep the {X} and {W} of 6.2, and let the gradient {Ybar} "
                             "below reach {Y} from above (which loss it came from does not "
                             "matter for what follows):"),
    "h_ex_bw_linear_x": ("{rule} is a match: each row of {Xbar} holds the inner "
                         "products of the same row of {Ybar} with the rows of {W}:"),
    "h_ex_bw_linear_w": ("{rule} is a combine over the points: each of the three "
                         "data points gives one outer product:"),
    "h_ex_bw_linear_read": ("The two entries of {x_2}, for instance, are the inner "
                            "products of {ybar_2} with {w_1} and {w_2}: the gradient of an "
                            "input point is the gradient of its output point, held against "
                            "the rows of the weights and sent back."),
    "h_ex_bw_att_setup": ("Back to the example of 5.2. With the loss {L}, only the "
                          "diagonal of {O} counts, so the upstream gradient {Obar} is the "
                          "identity; {P} takes the values found in 5.2:"),
    "h_ex_bw_att_v": ("First {Vbar}. Its row {=j} gathers the output gradients with the "
                      "weights the queries gave to value {=j}, so the gradient of {v_1} "
                      "holds the first column of {P}:"),
    "h_ex_bw_att_p": "{Pbar} is a match; here it holds the columns of {V} as they are:",
    "h_ex_bw_att_rowsum": ("The softmax step first needs one number per row: the sum of "
                           "the entry-by-entry product of {Pbar} and {P} in that row:"),
    "h_ex_bw_att_g": ("That number is subtracted from every entry of the same row of "
                      "{Pbar}, and the result multiplied entry by entry by {P}, which "
                      "gives {G}. Each row of {G} sums to 0: adding the same number to "
                      "every score of a row does not change its softmax."),
    "h_ex_bw_att_zero": ("Row {i} of {G} is 0 because {v_1} and {v_2} agree in coordinate "
                         "{k}: however query {i} moves its weight between the two values, "
                         "{o_ik} stays the same."),
    "h_ex_bw_att_s": "Undoing the scaling divides every entry of {G} by {root}:",
    "h_ex_bw_att_qk": ("Last, the match {SQK} goes back: each row of {Qbar} combines the "
                       "points of {K} with a row of {Sbar} as weights, and {Kbar} combines "
                       "the points of {Q} with the columns of {Sbar} as weights:"),
    "h_ex_bw_att_check": ("To check by hand, move {q_11} by a small {eps} and compute {L} "
                          "again: it changes by about {value} times {eps}, and that is "
                          "{qbar_11}."),
    "heading.h_closing": "What carries over",
    "heading.h_general": "General form",
    "heading.h_example": "Worked example",

    # -- introduction ------------------------------------------------------
    "h_intro": ("Formulas for transformers are full of matrix products such as "
                "{QKT} and {PV}. Each one is easy to compute, yet it is often hard to "
                "say what a given product does to the data. This handout offers "
                "one way of reading them: treat every matrix as a list of points, "
                "one point per row, and sort matrix products into two kinds."),
    "h_intro_plan": ("The plan is short. Section 1 reads a matrix as a vector "
                     "sequence, and section 2 reads a product as a map from one "
                     "cloud of points to another. Sections 3 and 4 work out the two "
                     "kinds of product, combine and match. Section 5 shows that "
                     "attention is nothing but a match, a normalisation into a "
                     "distribution, and a combine, in that order, and section 6 "
                     "reads two more formulas, a linear layer and a graph "
                     "convolution, with the same two readings. Section 7 runs "
                     "them backwards: the gradients of training are combines and "
                     "matches too. Each section "
                     "gives the general form first and then one small example with "
                     "numbers or symbols you can check by hand. The names combine "
                     "and match are labels chosen for teaching, not standard terms."),

    # -- 1: vector sequences -----------------------------------------------
    "h_vecseq_lead": ("Before any product, fix how a single matrix is read. The "
                      "rows matter more than the columns here: each row will be "
                      "one point, one token, one object."),
    "h_ex_vecseq_matrix": ("Take {m} rows and {ell} columns of small integers:"),
    "h_ex_vecseq_points": ("Read row by row, this is a list of {m} points in the "
                           "plane:"),
    "h_ex_vecseq_stack": ("and {A} is those points stacked from top to bottom. "
                          "For instance {a_2} is the point with coordinates {x}."),

    # -- 2: products as maps -----------------------------------------------
    "products.handout": ("Two products will be told apart: {AB}, read as "
                         "combine, and {ABT}, read as match. The next two "
                         "sections take them one at a time."),
    "h_ex_maps": ("With the example {A} and a second factor that has {n} columns, "
                  "the product {C} is a map from {m} points in the plane to {m} "
                  "points in {n}-dimensional space, from {space_a} to {space_c}:"),
    "h_ex_maps_points": ("and every point keeps its row: the first point of {A} "
                         "becomes the first point of {C}, and so on."),

    # -- 3: combine --------------------------------------------------------
    "h_ex_combine_b": ("Keep the example {A} and let {B} hold {ell} points in "
                       "{n}-dimensional space:"),
    "h_ex_combine_rows": ("Each row of {A} is now a list of weights, one per "
                          "point of {B}. Row by row, {C} is built by scaling "
                          "those points and adding them up:"),
    "h_ex_combine_result": ("Stacked, the rows give the product {AB}, the same "
                            "numbers that the usual row-times-column rule yields:"),
    "h_ex_combine_read": ("Read the second row: the components {three} and {one} of "
                          "{a_2} are the weights of {b_1} and {b_2}, and {c_2} is "
                          "exactly that mixture. Nothing about the position of "
                          "{a_2} in the plane matters; only its components, "
                          "used as weights."),

    # -- 4: match ----------------------------------------------------------
    "h_ex_match_b": ("Keep the example {A} again, and let {B} hold {n} points in "
                     "the same {ell}-dimensional plane:"),
    "h_ex_match_rows": ("Each row of {C} holds the inner products of one point "
                        "of {A} with all points of {B}:"),
    "h_ex_match_result": ("Stacked, the rows give the product {ABT}:"),
    "h_ex_match_read": ("A larger inner product means a better match. In row 1, "
                        "{c_11} beats {c_12}, so {a_1} matches {b_1} "
                        "better than {b_2}. Picking the largest entry "
                        "of each row of {C} pairs every point of {A} with the "
                        "point of {B} it matches best:"),

    # -- 5: attention ------------------------------------------------------
    "h_attention_lead": ("Everything is now in place. Attention is a match, "
                         "followed by a step that turns each row of scores into "
                         "a distribution, followed by a combine. The general form "
                         "below is symrow's attention derivation; the example "
                         "reuses the numbers of sections 3 and 4."),
    "h_ex_attn_setup": ("Let the three points of {A} be the queries, so {Q} is "
                        "the example {A}. The two points of section 4 serve as keys "
                        "{K}, and the two points of section 3 as values {V}; the "
                        "dimension is {d_eq}."),
    "h_ex_attn_match": ("Stage 1, the match {QKT}, is exactly the product of "
                        "section 4:"),
    "h_ex_attn_scale": "Stage 2 divides every score by {root}:",
    "h_ex_attn_softmax": ("Stage 3 works row by row. In row 1, the exponentials "
                          "of the two scaled scores are divided by their sum:"),
    "h_ex_attn_distribution": ("Doing the same for every row gives {P}, to three "
                               "decimals. The entries of each row are non-negative "
                               "and sum to 1: each row is a distribution over the keys."),
    "h_ex_attn_combine": ("Stage 4 is the combine of section 3, with the rows of "
                          "{P} as weights on the value points:"),
    "h_ex_attn_read": ("Compare with section 4. There {q_1} matched {k_1} far "
                       "better than {k_2}; here {share} of {o_1} comes from "
                       "{v_1}. The query {q_2} matched both keys well, "
                       "and {o_2} is a genuine mixture of {v_1} and {v_2}. "
                       "Where section 4 picked one best point, the softmax hands "
                       "out soft weights instead, and the combine turns them "
                       "into new points."),

    # -- 6: two more formulas ----------------------------------------------
    "h_beyond_lead": ("Neither reading was ever tied to attention. As long as the rows "
                      "of a matrix stand for things, any product can be asked the same "
                      "question: does it compare points, or does it mix them? Two "
                      "formulas that every course on neural networks meets answer it "
                      "at once."),
    "h_linear_points": ("In a linear layer the {n} rows of {X} are inputs with {d} "
                        "features each, and {W} has one row per input feature:"),
    "h_linear_row": ("Row by row, the product is a combine: the output {y_i} mixes the "
                     "rows of {W}, and the features of the input {x_i} are the weights:"),
    "h_gcn_plan": ("In a graph convolution the {n} rows of {X} are the nodes of a graph, "
                   "and {A} is its normalised adjacency matrix. Read from the left, the "
                   "formula is two products in turn:"),
    "h_gcn_mix": ("The first is a combine of the node points: {h_i} mixes the points of "
                  "{X}, weighted by the row {a_i} of the adjacency matrix, so that only "
                  "the neighbours of node {=i} contribute:"),
    "h_gcn_map": ("The second is the linear layer again: each mixed point is sent "
                  "through {W}:"),
    "h_gcn_read": ("Followed point by point, a node first gathers its neighbourhood and "
                   "is then mapped to its output features:"),

    # -- 7: closing --------------------------------------------------------
    "h_closing_1": ("Nothing in sections 1 to 4 is special to attention. "
                    "Whenever the rows of a matrix stand for things (tokens, "
                    "image patches, time steps, cells, documents), a product of "
                    "the form {ABT} compares every thing on the left with every "
                    "thing on the right, and a product of the form {AB} builds "
                    "each new thing as a weighted mixture of the things on the "
                    "right."),
    "h_closing_2": ("Attention is simply the place where the two meet most "
                    "openly: it compares, it turns the comparisons into weights "
                    "that sum to one, and it mixes. Reading a formula as points "
                    "moving from one cloud to another makes it much easier to "
                    "say what each product in a model is for."),
}
