// The geometry KaTeX gives a formula: rows of arrays, and the style of fractions.
// stdin: JSON [{"tex": "...", "display": true}, ...]; stdout: JSON, one entry per formula:
//   {"arrays": [{"matrix": bool, "rows": n, "cols": n, "gap": em, "tall": bool}],
//    "fractions": [{"in_cell": bool, "shrunk": bool, "bins": n, "spaced_bins": n}],
//    "height": em (the whole formula, height plus depth), "error": null | "message"}
//
// KaTeX lays out in ems and keeps the layout in its build tree (each box has a
// height and a depth; a vertical list places its boxes with `top` offsets over
// a `pstrut`), so the vertical geometry below is KaTeX's own, not a guess:
//
// * an array (a bmatrix, or the rows of an `aligned`): for each column, the
//   smallest vertical gap between the ink of two cells one above the other
//   (the lower edge of the upper cell's content minus the upper edge of the
//   lower's), in ems; `tall` when a row holds a box taller than a letter with
//   a fraction (1.2 em from top to bottom);
// * a fraction: whether it sits in a matrix cell (not inside another
//   fraction), whether its numerator is set smaller than the fraction itself
//   (text-style: yes; display-style: no), and how many binary operators in its
//   numerator and denominator have KaTeX's medium space (0.2222 em) on both
//   sides, of how many there are (script style drops that space; operators
//   in sub- and superscripts, such as the limits of a sum, are not counted).
const katex = require("katex");

function cls(n) {
  return n.classes || [];
}

function has(n, c) {
  return cls(n).includes(c);
}

function sizeOf(n, current) {
  for (const c of cls(n)) {
    const m = /^size(\d+)$/.exec(c);
    if (m && cls(n).some((x) => x.startsWith("reset-size"))) return Number(m[1]);
  }
  return current;
}

function em(value) {
  return value ? parseFloat(value) : 0;
}

// the positioned boxes of a vlist: [{base, h, d, node}] with base the height of
// their baseline above the vlist's, and h, d their content's height and depth
function vlistBoxes(vlist) {
  const out = [];
  for (const child of vlist.children || []) {
    if (!child.style || child.style.top === undefined) continue;
    const kids = child.children || [];
    const pstrut = kids.find((k) => has(k, "pstrut"));
    const box = kids.find((k) => !has(k, "pstrut"));
    if (!box) continue;
    const base = -em(child.style.top) - em(pstrut && pstrut.style.height);
    const content = box.children && box.children.length ? box.children : [box];
    let h = 0, d = 0, ink = false;
    for (const c of content) {
      const [ch, cd] = inkOf(c);
      if (ch > 0 || cd > 0) ink = true;
      h = Math.max(h, ch);
      d = Math.max(d, cd);
    }
    out.push({ base, h, d, ink, node: box });
  }
  return out;
}

// an invisible strut (\vphantom) has a size but no ink
function isPhantom(n) {
  return has(n, "rlap") && (n.children || []).some((c) => has(c, "katex-inner") || has(c, "inner"));
}

// the height and depth of what a box shows: its own for anything set
// vertically (a fraction, a matrix), the largest of its parts for a row
function inkOf(n) {
  if (isPhantom(n)) return [0, 0];
  const kids = n.children || [];
  const vertical = cls(n).some((c) => c.startsWith("vlist") || c === "mfrac" || c === "mtable"
    || c === "minner" || c === "sqrt" || c === "delimsizing" || c.startsWith("delim"));
  if (vertical || !kids.length) return [n.height || 0, n.depth || 0];
  let h = 0, d = 0;
  for (const c of kids) {
    const [ch, cd] = inkOf(c);
    h = Math.max(h, ch);
    d = Math.max(d, cd);
  }
  return [h, d];
}

function containsFrac(n) {
  if (has(n, "mfrac")) return true;
  return (n.children || []).some(containsFrac);
}

function analyse(tree) {
  const arrays = [];
  const fractions = [];

  function walk(n, size, inCell, matrix) {
    size = sizeOf(n, size);
    if (has(n, "mtable")) {
      const columns = (n.children || []).filter((c) => cls(c).some((x) => x.startsWith("col-align")));
      let gap = Infinity, rows = 0, tall = false;
      for (const col of columns) {
        const vlist = col.children[0].children[0].children[0];
        const boxes = vlistBoxes(vlist).filter((b) => b.ink);
        rows = Math.max(rows, vlistBoxes(vlist).length);
        boxes.sort((a, b) => b.base - a.base);
        for (let k = 0; k + 1 < boxes.length; k++) {
          gap = Math.min(gap, (boxes[k].base - boxes[k].d) - (boxes[k + 1].base + boxes[k + 1].h));
        }
        for (const b of boxes) {
          if (b.h + b.d > 1.2 && containsFrac(b.node)) tall = true;
        }
        for (const b of vlistBoxes(vlist)) walk(b.node, size, matrix, matrix);
      }
      arrays.push({ matrix, rows, cols: columns.length, gap: gap === Infinity ? null : gap, tall });
      return;
    }
    if (has(n, "mfrac")) {
      const vlist = n.children[0].children[0].children[0];
      const boxes = vlistBoxes(vlist);
      boxes.sort((a, b) => b.base - a.base);
      const num = boxes[0], den = boxes[boxes.length - 1];
      const numSize = sizeOf(num.node, size);
      let bins = 0, spaced = 0;
      for (const part of [num.node, den.node]) {
        (function scan(m) {
          const kids = m.children || [];
          kids.forEach((k, i) => {
            if (has(k, "msupsub") || has(k, "op-limits")) return;  // scripts: no spaces
            if (has(k, "mbin")) {
              bins += 1;
              const before = kids[i - 1], after = kids[i + 1];
              if (before && after && has(before, "mspace") && has(after, "mspace")) spaced += 1;
            } else if (!has(k, "mfrac")) {
              scan(k);
            }
          });
        })(part);
      }
      fractions.push({ in_cell: inCell, shrunk: numSize < size, bins, spaced_bins: spaced });
      for (const b of boxes) walk(b.node, size, false, matrix);
      return;
    }
    // a bracketed array is a matrix; aligned and gathered are rows of a display
    const isMatrix = has(n, "minner") && (n.children || []).some((c) => has(c, "mopen") && !has(c, "nulldelimiter"));
    for (const c of n.children || []) walk(c, size, inCell, matrix || isMatrix);
  }

  walk(tree, 6, false, false);
  return { arrays, fractions };
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) => {
    try {
      const tree = katex.__renderToHTMLTree(tex, { displayMode: display, throwOnError: true, strict: "error" });
      return { ...analyse(tree), height: (tree.height || 0) + (tree.depth || 0), error: null };
    } catch (err) {
      return { arrays: [], fractions: [], height: 0, error: String(err.message || err) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
