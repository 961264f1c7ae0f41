"""Narration templates: the captions of the pictures (en).  Fields in braces are shown as
inline math; ``figure.word.*`` are plain words the pictures write (see
:func:`symrow.narrate.phrase`).

A caption is a step of kind ``figure`` whose ``style`` is the kind of picture
(:mod:`symrow.figures.kinds`) and whose ``variant`` says more (``masked``,
``flat``, or how a point cloud moves).
"""

TEMPLATES: dict[str, str] = {
    "figure.points": ("The rows of {A} drawn as points: each {a_i} is one point, and its "
                      "coordinates are the entries of its row."),
    "figure.map": ("The product as a map between point clouds: each point {a_i} of {A} "
                   "(left) is sent to the point {c_i} of {C} (right); one marker and one "
                   "colour for each row."),
    "figure.combine": ("Combine, drawn: from the origin, the points {b_j} of {B}, each scaled "
                       "by its weight from {a_i}, are added head to tail, and the last arrow "
                       "ends at {c_i}. The grey arrows are the points {b_j} themselves."),
    "figure.combine.transposed": ("A combine over the data points, drawn: each point of {C} "
                                  "is reached from the origin by adding the points {b_j} of "
                                  "{B}, scaled by the entries of one column of {A}, head to "
                                  "tail."),
    "figure.match": ("Match, drawn: the points {a_i} (circles) and {b_j} (triangles) in one "
                     "plane, with the line through each {b_j}. The dotted lines drop {a_f} "
                     "onto those lines, and the number at each foot is the inner product; the "
                     "heat map lists it for every pair, row {=i} holding {c_i}."),
    "figure.match.flat": ("Match, drawn: the points {a_i} (circles) and {b_j} (triangles), "
                          "and the heat map of every inner product {c_ij}."),
    "figure.attention": ("Attention with these numbers. Left, the scores {S}; middle, the "
                         "distribution {P}, each row summing to 1; right, each output {o_i} "
                         "inside the convex hull of the value points {v_j} (shaded), pulled "
                         "towards the values it weighs most: the wider the line to {v_j}, "
                         "the larger {p_ij}."),
    "figure.attention.masked": ("Attention with these numbers. Left, the scores {S}; middle, "
                                "the distribution {P}, each row summing to 1; right, each "
                                "output {o_i} inside the convex hull of the value points "
                                "{v_j} (shaded). Grey, hatched cells are masked: their weight "
                                "is 0, and each {o_i} lies in the hull of the values its "
                                "query may see."),
    "figure.distribution": ("The softmax, row by row: the scores {S} (left) become the "
                            "distribution {P} (right), every entry positive and every row "
                            "summing to 1 (the last column)."),
    "figure.distribution.masked": ("The softmax, row by row: the scores {S} (left) become "
                                   "the distribution {P} (right), every row summing to 1 (the "
                                   "last column); a masked score (grey) gets the weight 0."),
    "figure.scale": ("The weights of row {=i}, with the scale and without it: dividing the "
                     "scores by {root} makes the distribution {p_i} flatter, and without it "
                     "the largest score takes more of the weight."),
    "figure.hull": ("Each {o_i} is a weighted average of the points {v_j}, with weights that "
                    "are positive and sum to 1, so it lies inside their convex hull (shaded); "
                    "the wider the line to {v_j}, the larger the weight."),
    "figure.graph": ("The graph's mixing step: each node's new point {h_i} (a square) "
                     "combines the points {x_j} of its neighbours, joined by grey edges, and "
                     "its own, with the weights of {A}; an arrow leads from {x_i} to {h_i}."),
    "figure.shift.rowscale": ("Each point {x_i} is scaled along its own line through the "
                              "origin, by its diagonal entry; hollow markers before, filled "
                              "ones after."),
    "figure.shift.colscale": ("Each coordinate is stretched by its own factor, the same for "
                              "every point; hollow markers before, filled ones after."),
    "figure.shift.bias": ("Every point moves by the same vector {b} (dashed, from the "
                          "origin): the cloud is shifted as a whole and keeps its shape; "
                          "hollow markers before, filled ones after."),
    "figure.shift.layernorm": ("LayerNorm centres each point on its own mean and scales it "
                               "to unit variance; hollow markers before, filled ones after."),
    "figure.shift.relu": ("ReLU sets every negative coordinate to 0, so each point folds "
                          "onto the shaded quadrant; hollow markers before, filled ones "
                          "after."),
    "figure.shift.sigma": ("The sigmoid squeezes every coordinate between 0 and 1, into the "
                           "dashed square; hollow markers before, filled ones after."),
    "figure.shift.tanh": ("tanh squeezes every coordinate between −1 and 1, into the dashed "
                          "square; hollow markers before, filled ones after."),
    "figure.shift.apply": ("The function is applied to every coordinate; hollow markers "
                           "before, filled ones after."),
    "figure_example": ("The numbers in the pictures are an example; give your own with "
                       "--values (values= in Python)."),
    # -- words inside the pictures (plain text) ------------------------------------------
    "figure.word.axis": "coordinate {k}",
    "figure.word.note": "coordinates {a} and {b} of {n}",
    "figure.word.with": "divided by {root}",
    "figure.word.without": "not divided",
}
