"""Numbers from a request, read the same way on every page.

Only ASCII digits count: `str.isdigit` accepts "²" (which `int` refuses) and `int` accepts
"٣", "1_000" and " 7 ". At most 18 digits: a number a database integer holds (SQLite refuses a
larger one with OverflowError) and well below the length `int` refuses to read."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig, Table

MAX_DIGITS = 18  # below 2**63, the largest database integer
# The most rows a page lists when asked (?per_page=): a page of django-tables2 cells takes
# longer to render the more rows it has.
MAX_ROWS_PER_PAGE = 500


def whole_number(text: str | None) -> int | None:
    """`text` as a whole number (0 or more), or None when it is anything else."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        return None
    return int(text)


def positive_number(text: str | None) -> int | None:
    """`text` as a whole number of 1 or more, or None."""
    number = whole_number(text)
    return number if number else None


def id_param(request: HttpRequest, name: str) -> int | None:
    """An id from the query string: absent or empty is None; anything but a whole number > 0 is
    a page that does not exist (404)."""
    text = request.GET.get(name, "").strip()
    if not text:
        return None
    number = positive_number(text)
    if number is None:
        raise Http404(_("No such %(name)s.") % {"name": name})
    return number


def paginate(request: HttpRequest, table: Table, *, per_page: int, exporting: bool = False) -> None:
    """Sort and page `table` as the query string asks (django-tables2); an export has every row.

    ?per_page= is 1 to MAX_ROWS_PER_PAGE, anything else a page that does not exist (django-tables2
    passes a negative count to the paginator, a 500); a ?page= past the end shows the last."""
    asked = request.GET.get(table.prefixed_per_page_field)
    if asked is not None and not 1 <= (whole_number(asked) or 0) <= MAX_ROWS_PER_PAGE:
        raise Http404(_("Rows per page are 1–%(max)s.") % {"max": MAX_ROWS_PER_PAGE})
    RequestConfig(request, paginate=False if exporting else {"per_page": per_page}).configure(table)
