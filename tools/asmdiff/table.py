"""table.py — the one printer of the CLI's result tables (check's verdict, premerge's summary,
soak's table): rows of cells as aligned text for people, as Markdown for a pull request, and
the same rows as JSON records for programs.

A column's width is fixed (an int: the cell padded to it, a longer one overflows, as
f"{x:<10}" does) or, for None, the longest cell of the column (the heading's included) plus
`pad`.  The last column is never padded; `rstrip` strips each line's end."""
import json


class Table:
    def __init__(self, columns, rows=(), widths=None, pad=0, sep=" ", rstrip=False):
        self.columns = tuple(columns)
        self.rows = [tuple(r) for r in rows]
        self.widths = list(widths) if widths is not None else [None] * len(self.columns)
        self.pad, self.sep, self.rstrip = pad, sep, rstrip

    def add(self, *cells):
        self.rows.append(tuple(cells))

    def _width(self, i):
        if self.widths[i] is not None:
            return self.widths[i]
        return max(len(str(r[i])) for r in [self.columns] + self.rows) + self.pad

    def lines(self):
        """The heading and every row, aligned."""
        ws = [self._width(i) for i in range(len(self.columns) - 1)]
        out = []
        for r in [self.columns] + self.rows:
            cells = [str(c).ljust(w) for c, w in zip(r, ws)] + [str(r[-1])]
            line = self.sep.join(cells)
            out.append(line.rstrip() if self.rstrip else line)
        return out

    def text(self):
        return "\n".join(self.lines())

    def print(self):
        for line in self.lines():
            print(line)

    def markdown(self):
        """The table as Markdown lines: the heading, its rule, each row ('|' in a cell
        escaped)."""
        out = ["| " + " | ".join(self.columns) + " |", "|" + "---|" * len(self.columns)]
        for r in self.rows:
            out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
        return out

    def records(self, keys=None, **extra):
        """Each row as a dict, the cells under keys (default: the column names), extra added
        to every record."""
        keys = keys or self.columns
        return [dict(extra, **dict(zip(keys, r))) for r in self.rows]

    def json_lines(self, keys=None, **extra):
        return [json.dumps(r) for r in self.records(keys, **extra)]
