"""English narration.  Fields in braces are shown as inline math."""

TEMPLATES = {
    # -- headings ----------------------------------------------------------
    "heading.vecseq": "Matrices as vector sequences",
    "heading.maps": "Matrix products as maps",
    "heading.combine": "The product {AB}: combine",
    "heading.match": "The product {ABT}: match",

    # -- sections 1 and 2: the vector sequence, the product as a map -------
    "entries": "Start from a matrix {A} of shape {shape}.",
    "stack": ("Read each row of {A} as the coordinates of one point in "
              "{ell}-dimensional space. Then {A} is a stack of points, one "
              "per row and {m} in all, read from top to bottom. A matrix "
              "read this way is a vector sequence."),
    "points": "In other words, {A} stacks these row vectors:",
    "row": ("The row vector {a_i} is point number {i}: its components, "
            "{ell} in all, are that point's coordinates."),
    "shapes": ("We work with three vector sequences {A}, {B} and {C}. The "
               "shapes of {A} and {C} are fixed as below; the shape of {B} "
               "follows from the product we form."),
    "products.combine": ("Two kinds of product are worth telling apart: {AB}, "
                         "which we read as combine, and {ABT}, which we read as "
                         "match. This derivation follows the first."),
    "products.match": ("Two kinds of product are worth telling apart: {AB}, "
                       "which we read as combine, and {ABT}, which we read as "
                       "match. This derivation follows the second."),
    "map": ("In both cases the product is a map between point clouds. It "
            "sends the points of {A}, which live in {ell}-dimensional space, "
            "to the points of {C}, which live in {n}-dimensional space; both "
            "clouds have the same number of points, {m}."),
    "point_map": ("The correspondence is row by row: point {i} of {A} is sent "
                  "to point {i} of {C}."),

    # -- section 3: combine ------------------------------------------------
    "operands_combine": "For {AB}, the three vector sequences are",
    "components": "Writing every row of {A} out in components gives",
    "product_combine": "With that, the product {AB} works out row by row:",
    "extract_row_combine": "Take out row {i} of {C}:",
    "weights": "So {c_i} is made by taking the components of {a_i},",
    "combined_points": ("as weights, and combining all the points of {B} "
                        "with them:"),
    "entries_combine.general": "Entry by entry, this is the familiar rule:",
    "entries_combine.concrete": "Written out entry by entry:",
    "summary_combine": ("In short, {AB} combines: each point {a_i} of {A} is "
                        "sent to a weighted combination of all the points of "
                        "{B}, and the results, stacked, form the vector "
                        "sequence {C}."),

    # -- section 4: match --------------------------------------------------
    "operands_match": "For {ABT}, the three vector sequences are",
    "transpose_points": ("Transposing {B} stands its points, each {ell:a}-dimensional "
                         "vector, side by side as columns:"),
    "product_match": ("With that, the product {ABT} pairs every row of {A} "
                      "with every column of {BT} in an inner product:"),
    "extract_row_match": "Take out row {i} of {C}:",
    "matched_points": ("So {c_i} is made by matching {a_i} against every "
                       "point of {B}, one inner product each:"),
    "entries_match.general": "Each entry is a single inner product:",
    "entries_match.concrete": "Written out entry by entry:",
    "summary_match": ("In short, {ABT} matches: each point {a_i} of {A} is "
                      "sent to the list of its inner products with all the "
                      "points of {B}, and the results, stacked, form the "
                      "vector sequence {C}."),

    # -- document titles (LaTeX; literal braces doubled) --------------------
    "title.combine": "Reading the matrix product $AB$ as combine",
    "title.match": "Reading the matrix product $AB^{{T}}$ as match",
    "title.linear": "A linear layer $XW$, read row by row",
    "title.gcn": "A graph convolution $\\hat{{A}}XW$, read row by row",
    "title.attention": "Attention: match, distribute, combine",
    "title.explain": "Reading ${f}$ row by row",
    "title.backward": "The backward pass: {f}",
}
