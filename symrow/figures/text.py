"""A scene in characters, for a terminal: the still picture, coarsely.

A plot becomes a grid of characters: the axes through the origin, each point as
the mark of its shape (● ■ ▲ ◆ ▼ ⬟ ✚, hollow ○ □ △ ◇ for the points before a
map), its name beside it where there is room, and arrows and lines as dots;
a heat map becomes a table of its numbers, masked cells as ``·``; bars become
columns of blocks with their values.  The numbers are the scene's own.
"""

from __future__ import annotations

import unicodedata

from .scene import Arrow, Cell, Mark, Path, Scene

__all__ = ["to_text"]

_FILLED = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "down": "▼",
           "pentagon": "⬟", "cross": "✚"}
_HOLLOW = {"circle": "○", "square": "□", "triangle": "△", "diamond": "◇", "down": "▽",
           "pentagon": "⬠", "cross": "+"}


def _plain(text: str) -> str:
    """A label without its bold letters (a terminal has them as plain letters)."""
    out = []
    for ch in text:
        code = ord(ch)
        if 0x1D41A <= code <= 0x1D433:
            ch = chr(ord("a") + code - 0x1D41A)
        elif 0x1D6C2 <= code <= 0x1D6DB:
            ch = chr(0x3B1 + code - 0x1D6C2)
        out.append(ch)
    return "".join(out)


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else
               (2 if unicodedata.east_asian_width(ch) in "WF" else 1) for ch in text)


class _Canvas:
    def __init__(self, cols: int, rows: int):
        self.cols, self.rows = cols, rows
        self.cells = [[" "] * cols for _ in range(rows)]
        self.taken = [[False] * cols for _ in range(rows)]

    def put(self, c: int, r: int, ch: str, strong: bool = False) -> None:
        if 0 <= c < self.cols and 0 <= r < self.rows and (strong or not self.taken[r][c]):
            self.cells[r][c] = ch
            if strong:
                self.taken[r][c] = True

    def write(self, c: int, r: int, text: str) -> bool:
        chars = [ch for ch in text if not unicodedata.combining(ch)]
        if r < 0 or r >= self.rows or c < 0 or c + len(chars) > self.cols:
            return False
        if any(self.taken[r][c + k] for k in range(len(chars))):
            return False
        k = 0
        for ch in text:
            if unicodedata.combining(ch) and k:
                self.cells[r][c + k - 1] += ch
                continue
            self.cells[r][c + k] = ch
            self.taken[r][c + k] = True
            k += 1
        return True

    def line(self, a, b, ch: str = "·") -> None:
        (c0, r0), (c1, r1) = a, b
        steps = max(abs(c1 - c0), abs(r1 - r0), 1)
        for k in range(1, steps):
            self.put(round(c0 + (c1 - c0) * k / steps), round(r0 + (r1 - r0) * k / steps), ch)

    def lines(self) -> list:
        return ["".join(row).rstrip() for row in self.cells]


def _plot(panel, cols: int = 44, rows: int = 15) -> list:
    x0, x1, y0, y1 = panel.limits
    # a character is about twice as tall as it is wide
    aspect = (y1 - y0) / (x1 - x0)
    rows = max(7, min(rows, round(cols * aspect / 2.1)))
    canvas = _Canvas(cols, rows)

    def at(x, y):
        return (round((x - x0) / (x1 - x0) * (cols - 1)),
                round((y1 - y) / (y1 - y0) * (rows - 1)))
    ox, oy = at(0, 0)
    for c in range(cols):
        canvas.put(c, oy, "─")
    for r in range(rows):
        canvas.put(ox, r, "│")
    canvas.put(ox, oy, "┼")
    for item in panel.items:
        if not item.still:
            continue
        if isinstance(item, Path) and not item.figure and item.width > 0 and \
                item.role not in ("region", "grid", "link", "ray", "proj"):
            pts = [at(*p) for p in item.points]
            if item.closed:
                pts.append(pts[0])
            for a, b in zip(pts, pts[1:]):
                canvas.line(a, b, "·" if item.role != "edge" else "-")
        elif isinstance(item, Arrow):
            canvas.line(at(item.x0, item.y0), at(item.x1, item.y1), "·")
    marks = [m for m in panel.items if isinstance(m, Mark) and m.still]
    for m in marks:
        c, r = at(m.x, m.y)
        table = _FILLED if m.filled else _HOLLOW
        canvas.put(c, r, table.get(m.shape, "●"), strong=True)
    for m in marks:
        if m.label is None:
            continue
        c, r = at(m.x, m.y)
        name = _plain(m.label.text)
        for dc, dr in ((1, 0), (1, -1), (-_width(name), 0), (1, 1), (-_width(name), -1),
                       (-_width(name), 1), (0, -1), (0, 1)):
            if canvas.write(c + dc, r + dr, name):
                break
    return canvas.lines()


def _grid(panel) -> list:
    cells = [c for c in panel.items if isinstance(c, Cell) and c.still]
    if not cells:
        return []
    rows = max(c.row for c in cells)
    cols = max(c.col for c in cells)
    by = {(c.row, c.col): c for c in cells}
    row_names = [_plain(n.label.text) for n in panel.notes if n.role == "row"]
    col_names = [_plain(n.label.text) for n in panel.notes if n.role == "col"]
    width = max([_width(_plain(c.label.text)) for c in cells if c.label] +
                [_width(n) for n in col_names] + [3]) + 1
    left = max([_width(n) for n in row_names] + [0]) + 1
    out = [" " * left + "".join(n.rjust(width) for n in col_names)]
    for r in range(1, rows + 1):
        line = (row_names[r - 1] if r - 1 < len(row_names) else "").ljust(left)
        for c in range(1, cols + 1):
            cell = by.get((r, c))
            text = "·" if cell is None or cell.masked else _plain(cell.label.text)
            if cell is not None and cell.role == "sum":
                text = "│" + text
            line += text.rjust(width)
        out.append(line.rstrip())
    return out


def _bars(panel, height: int = 8) -> list:
    bars = [p for p in panel.items if isinstance(p, Path) and p.role == "bar" and p.still]
    if not bars:
        return []
    top = panel.limits[3]
    out = []
    groups: dict = {}
    for b in bars:
        groups.setdefault(round(b.points[0][0] - 0.5 + 1e-9), []).append(b)
    legend = [_plain(n.label.text) for n in panel.notes if n.role == "legend"]
    for g in sorted(groups):
        for k, b in enumerate(groups[g]):
            value = b.points[2][1]
            length = max(0, round(value / top * 30))
            mark = "█" if k == 0 else "▒"
            out.append(f"{g + 1} {mark * length} {value:.2f}".rstrip())
    if legend:
        out.append("   ".join(f"{'█▒'[k] if k < 2 else '?'} {name}"
                                for k, name in enumerate(legend)))
    return out


def to_text(scene: Scene) -> str:
    """The still picture of ``scene`` in characters (lines joined by newlines)."""
    blocks = []
    for panel in scene.panels:
        title = _plain(panel.title.text) if panel.title else ""
        if panel.kind == "plot":
            body = _plot(panel)
        elif panel.kind == "grid":
            body = _grid(panel)
        else:
            body = _bars(panel)
        notes = [_plain(n.label.text) for n in panel.notes if n.role == "note"]
        blocks.append(([title] if title else []) + body + notes)
    return "\n\n".join("\n".join(b) for b in blocks if b) + "\n"

