"""The HTML page of ``wayfarers analyze``: one self-contained file, readable from disk with no
server and no network. Plots are embedded as base64 PNGs, every table sorts by any column on a
click (a few lines of inline script; numbers sort as numbers, empty cells last), and each figure
and table carries the name of its PNG or CSV beside the report (``data-file``), so a test or a
reader can match the page to the files.
"""

from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field
from typing import Any

import polars as pl

PERCENT = ("rate", "share", "taken_by", "chance")  # column-name parts shown as percentages


@dataclass
class Plot:
    name: str  # file stem: plots/NAME.png
    caption: str
    png: bytes


@dataclass
class Table:
    name: str  # file stem: tables/NAME.csv
    caption: str
    df: pl.DataFrame


@dataclass
class Section:
    id: str
    title: str
    text: str  # how to read it (HTML allowed: the text is ours)
    plots: list[Plot] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


SCRIPT = """
(function () {
  function key(cell, numeric) {
    var v = cell.getAttribute('data-v');
    if (v === null || v === '') return null;
    return numeric ? parseFloat(v) : v.toLowerCase();
  }
  function sortBy(table, index, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = th.getAttribute('data-type') === 'num';
    var ascending = th.getAttribute('aria-sort') !== 'ascending';
    rows.sort(function (a, b) {
      var x = key(a.cells[index], numeric), y = key(b.cells[index], numeric);
      if (x === null && y === null) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      var order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.addEventListener('click', function () { sortBy(table, index, th); });
    });
  });
})();
"""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
nav ul { columns: 2; } figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption, caption { font-size: 0.9em; color: #555; text-align: left; padding: 0.3em 0; }
.scroll { max-height: 32em; overflow: auto; margin: 1em 0; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; cursor: pointer; position: sticky; top: 0; }
th[aria-sort=ascending]::after { content: " \\25B2"; } th[aria-sort=descending]::after { content: " \\25BC"; }
td.text, th.text { text-align: left; } code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _cell(column: str, value: Any) -> tuple[str, str]:
    """(shown text, sort key) of one cell."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—", ""
    if isinstance(value, bool):
        return ("yes" if value else "no"), str(int(value))
    if isinstance(value, int):
        return f"{value:,}", str(value)
    if isinstance(value, float):
        if any(p in column for p in PERCENT):
            return f"{100 * value:.1f}%", repr(value)
        return (f"{value:.2f}" if abs(value) < 1000 else f"{value:,.0f}"), repr(value)
    if isinstance(value, list):
        return ", ".join(map(str, value)), ", ".join(map(str, value))
    return str(value), str(value)


def table_html(t: Table) -> str:
    numeric = {c: dtype.is_numeric() for c, dtype in t.df.schema.items()}
    head = "".join(
        f'<th data-type="{"num" if numeric[c] else "text"}" class="{"" if numeric[c] else "text"}">{html.escape(c.replace("_", " "))}</th>'
        for c in t.df.columns
    )
    body = []
    for row in t.df.iter_rows(named=True):
        cells = []
        for c in t.df.columns:
            shown, key = _cell(c, row[c])
            cls = "" if numeric[c] else ' class="text"'
            cells.append(f'<td data-v="{html.escape(key)}"{cls}>{html.escape(shown)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    caption = html.escape(t.caption) + f" <code>tables/{t.name}.csv</code>"
    return (
        f'<div class="scroll"><table class="sortable" id="table-{t.name}" data-file="tables/{t.name}.csv" data-rows="{t.df.height}">'
        f"<caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def plot_html(p: Plot) -> str:
    data = base64.b64encode(p.png).decode("ascii")
    alt = html.escape(p.caption)
    return (
        f'<figure id="plot-{p.name}"><img src="data:image/png;base64,{data}" alt="{alt}" data-file="plots/{p.name}.png">'
        f"<figcaption>{alt} <code>plots/{p.name}.png</code></figcaption></figure>"
    )


def page(title: str, intro: str, sections: list[Section]) -> str:
    """The whole report as one HTML string."""
    nav = "".join(f'<li><a href="#{s.id}">{html.escape(s.title)}</a></li>' for s in sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>{intro}<nav><ul>{nav}</ul></nav>",
    ]
    for s in sections:
        parts.append(f'<section id="{s.id}"><h2>{html.escape(s.title)}</h2><p>{s.text}</p>')
        parts += [plot_html(p) for p in s.plots]
        parts += [table_html(t) for t in s.tables]
        parts.append("</section>")
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)
