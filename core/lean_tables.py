"""django-tables2's tables made lean and safe to export: any app's lists use them.

`LeanRowsTable` writes a page of rows in one pass (the standings, the season ranking);
`export_response` sends a table as CSV or XLSX with formulas disarmed in typed-in names."""

from __future__ import annotations

import html
import inspect
from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.export import TableExport

EXPORT_FORMATS = ("csv", "xlsx")
# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: Any) -> Any:
    """A text cell a spreadsheet shows as text: a leading apostrophe disarms a formula.

    Numbers stay numbers (a negative score is not text and is never run)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SpreadsheetSafeExport(TableExport):
    """django-tables2's export with every text cell passed through `spreadsheet_text`: player
    and club names are typed by people, and an export is opened in Excel or LibreOffice."""

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        for index, row in enumerate(dataset):
            dataset[index] = tuple(spreadsheet_text(cell) for cell in row)
        return dataset


def export_response(
    table: tables.Table, *, export_format: str, title: str, filename: str
) -> HttpResponse:
    """The table as a CSV or XLSX download (`export_format` one of EXPORT_FORMATS)."""
    exporter = SpreadsheetSafeExport(export_format, table, dataset_kwargs={"title": title[:31]})
    return exporter.response(filename=f"{filename}.{export_format}")


def player_url(record: dict[str, Any]) -> str | None:
    """The player's page, if he has one (a public result): otherwise his name is not a link."""
    if not record["has_page"]:
        return None
    return reverse("public:player", args=[record["player_id"]])


def player_link(record: dict[str, Any]) -> SafeString | str:
    """The player's name, a link to his page if he has one (as `linkify=player_url` renders)."""
    url = player_url(record)
    return format_html('<a href="{}">{}</a>', url, record["name"]) if url else record["name"]


# What a lean row's cell is made from: the table's record dict, to the cell's value.
CellRenderer = Callable[[dict[str, Any]], Any]


class LeanRowsTable(tables.Table):
    """A django-tables2 table whose page of rows is written in one pass (`body_html`, used by
    templates/_lean_table.html in place of the template's row loop). It replaces the body of
    django-tables2's own template (django_tables2/table.html: a bound cell per cell and a
    signature inspected per call), which no public API of the library avoids: bench/pages.py's
    standings miss (600 players, 10 rounds, 100 rows a page) takes 109 ms with these rows and
    836 ms with django-tables2's (CPU 109 ms against 552 ms), over a target of 150 ms. Everything
    else (columns, sorting, pagination, the header, the export) is django-tables2's. The HTML
    is django-tables2's own, cell for cell (tests/public/test_standings_tables.py and
    tests/ranking/test_ranking_tables.py render both).

    How each cell is made is worked out once per column (`cell_renderer`): the record's value,
    the column's default when it is empty, through the column's own `render(value)` if it has
    one; the player's name as `linkify=player_url` links it. A row's classes come from
    Meta.row_attrs, as django-tables2 takes them. Any other column (another link, a render
    taking more than the value, a table's render_ method) is rendered by django-tables2."""

    def cell_renderer(self, bound: tables.columns.BoundColumn) -> CellRenderer | None:
        column = bound.column
        accessor = str(bound.accessor)
        if bound.name == "name" and column.link is not None:
            return player_link  # every lean table links its players' names with player_url
        if (
            column.link is not None
            or hasattr(self, f"render_{bound.name}")
            or "." in accessor
            or "__" in accessor
        ):
            return None
        render = None
        if type(column).render is not tables.Column.render:
            if list(inspect.signature(column.render).parameters) != ["value"]:
                return None
            render = column.render
        empty, default = column.empty_values, bound.default

        def cell(record: dict[str, Any]) -> Any:
            value = record[accessor]
            if value in empty:
                return default
            return value if render is None else render(value)

        return cell

    def _row_class(self) -> Callable[[dict[str, Any]], str]:
        """The classes Meta.row_attrs gives a row (a function of its record, or a text)."""
        row_class = self.row_attrs.get("class", "")
        if callable(row_class):
            return lambda record: row_class(record=record) or ""
        return lambda record: row_class

    def body_html(self) -> SafeString:
        columns = [
            (column.name, column.attrs["td"].as_html(), self.cell_renderer(column))
            for column in self.columns
        ]
        row_class = self._row_class()
        rows = []
        for index, row in enumerate(self.paginated_rows):
            record = row.record
            classes = " ".join(filter(None, (row_class(record), "odd" if index % 2 else "even")))
            cells = []
            for name, attrs, render in columns:
                value = render(record) if render is not None else row.get_cell(name)
                # What conditional_escape(localize(value)) gives, without its lazy-text checks
                # for the common cases: a rendered cell, a name.
                if isinstance(value, SafeString):
                    cells.append(f"<td {attrs}>{value}</td>")
                elif type(value) is str:
                    cells.append(f"<td {attrs}>{html.escape(value)}</td>")
                else:
                    if value is None:
                        value = ""
                    cells.append(f"<td {attrs}>{conditional_escape(localize(value))}</td>")
            rows.append(f'<tr class="{conditional_escape(classes)}">{"".join(cells)}</tr>')
        if not rows and self.empty_text:
            rows.append(
                f'<tr><td colspan="{len(columns)}">{conditional_escape(self.empty_text)}</td></tr>'
            )
        return mark_safe("\n".join(rows))  # every value escaped above
