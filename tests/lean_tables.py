"""A lean table (core.lean_tables.LeanRowsTable) rendered both ways: with its own rows and with
django-tables2's template, for tests that compare the two."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.template.loader import get_template
from django_tables2 import Table

from core.query import paginate


def rendered_both_ways(table_factory: Callable[[], Table], rf, query: str) -> tuple[str, str]:
    """The page `query` of the table as its lean rows write it and as django-tables2's own
    template does, whitespace removed."""
    lean = table_factory()
    paginate(rf.get("/" + query), lean, per_page=3)
    plain = table_factory()
    paginate(rf.get("/" + query), plain, per_page=3)
    plain.template_name = "django_tables2/table.html"
    request = rf.get("/" + query)

    def html(table: Table) -> str:
        return re.sub(
            r"\s+",
            "",
            get_template(table.template_name).render({"table": table, "request": request}),
        )

    return html(lean), html(plain)
