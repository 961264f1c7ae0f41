// Parse a GIFT file with gift-pegjs (the PEG grammar of Moodle's GIFT format).
// argv[2]: the file; stdout: JSON, the parser's questions; on a syntax error: exit 1 and
// a JSON {"error", "line", "column"} on stdout.
const fs = require("fs");
const gift = require("gift-pegjs");
const text = fs.readFileSync(process.argv[2], "utf8");
try {
  process.stdout.write(JSON.stringify(gift.parse(text)));
} catch (err) {
  const at = err.location ? err.location.start : {};
  process.stdout.write(JSON.stringify({ error: String(err.message || err), line: at.line,
                                        column: at.column }));
  process.exitCode = 1;
}
