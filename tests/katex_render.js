// Render TeX strings with KaTeX, errors fatal.
// stdin: JSON [{"tex": "...", "display": true}, ...]; stdout: JSON [null | "error message", ...]
const katex = require("katex");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) => {
    try {
      katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error" });
      return null;
    } catch (err) {
      return String(err.message || err);
    }
  });
  process.stdout.write(JSON.stringify(out));
});
