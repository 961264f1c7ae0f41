// Render TeX strings with MathJax 3 (npm mathjax-full), errors fatal.
// stdin: JSON [{"tex": "...", "display": true}, ...]; stdout: JSON [null | "error message", ...]
//
// Errors are made fatal as MathJax's own docs describe: the `noerrors` and
// `noundefined` packages are left out (so an unknown macro is an error, not
// red text), and `formatError` throws.  Definitions (\def, \newcommand) carry
// over between equations of one MathJax document, so every equation gets a
// fresh document: no formula can pass because an earlier one defined a macro.
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);
const packages = AllPackages.filter((p) => p !== "noerrors" && p !== "noundefined");

function render(tex, display) {
  const input = new TeX({
    packages,
    formatError: (_jax, err) => {
      throw err;
    },
  });
  const output = new SVG({ fontCache: "none" });
  const doc = mathjax.document("", { InputJax: input, OutputJax: output });
  doc.convert(tex, { display });
}

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) => {
    try {
      render(tex, display);
      return null;
    } catch (err) {
      return String((err && err.message) || err);
    }
  });
  process.stdout.write(JSON.stringify(out));
});
