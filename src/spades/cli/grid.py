"""Tables for the terminal that fit its width with no word broken: as they are when every
column fits its longest word (wrapped between words if need be), else turned a quarter."""

from __future__ import annotations

from rich import box
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text


def words_width(text: str) -> int:
    """The cells of the longest word of ``text``: the narrowest its column may be."""
    return max((cell_len(word) for word in text.split()), default=1)


def grid(title: str, headings: list[str], rows: list[list[str]], width: int,
         left: int = 1) -> list[Table]:
    """``rows`` under ``headings`` as tables that fit ``width`` with no word broken: one
    table when every column fits its longest word; else turned a quarter (one row a
    heading, one column a row), as many rows to a table as fit (a row alone always gets
    its table). The first ``left`` columns are text (left-aligned), the others figures."""
    widths = _widths(_columns(headings, rows), width, left)
    if widths is not None or not rows:
        return [_table(title, headings, rows, left, widths)]
    tables: list[Table] = []
    chunk: list[list[str]] = []
    for row in rows:
        turned = _turn(headings, [*chunk, row])
        if chunk and _widths(_columns(*turned), width) is None:
            tables.append(_turned(title if not tables else "", headings, chunk, width))
            chunk = []
        chunk.append(row)
    return [*tables, _turned(title if not tables else "", headings, chunk, width)]


def _columns(headings: list[str], rows: list[list[str]]) -> list[list[str]]:
    return [[heading, *(row[i] for row in rows)] for i, heading in enumerate(headings)]


def _turn(headings: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """``rows`` as columns, the first cell of each row heading its column."""
    turned = _columns(headings, rows)
    return [turned[0][0], *(row[0] for row in rows)], turned[1:]


def _widths(columns: list[list[str]], width: int, left: int = 1) -> list[int] | None:
    """Each column's width for a table of ``width`` cells: its longest text if all fit;
    else its longest word, the room left going to the text columns (the first ``left``)
    and then the others, up to their longest text; None if the words do not fit."""
    room = width - (3 * len(columns) - 1)  # padding each side, a divider between columns
    natural = [max(cell_len(t) for t in column) for column in columns]
    if sum(natural) <= room:
        return natural
    widths = [max(words_width(t) for t in column) for column in columns]
    spare = room - sum(widths)
    if spare < 0:
        return None
    for i in sorted(range(len(columns)), key=lambda i: i >= left):
        more = min(spare, natural[i] - widths[i])
        widths[i] += more
        spare -= more
    return widths


def _table(title: str, headings: list[str], rows: list[list[str]], left: int,
           widths: list[int] | None) -> Table:
    """The table, its columns ``widths`` wide (None: as wide as rich makes them)."""
    table = Table(title=title or None, title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for i, heading in enumerate(headings):
        table.add_column(heading, justify="left" if i < left else "right",
                         width=None if widths is None else widths[i])
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    return table


def _turned(title: str, headings: list[str], rows: list[list[str]], width: int) -> Table:
    """``rows`` turned a quarter (``_turn``), fitted to ``width`` if they can be."""
    heads, body = _turn(headings, rows)
    return _table(title, heads, body, 1, _widths(_columns(heads, body), width))
