"""When a table's phone was last heard from, and the entries it said were waiting on it and
refused: for the chief referee's round page."""

from __future__ import annotations

import datetime

from django.db import IntegrityError
from django.utils import timezone

from scoring.models import (
    TableHeard,
)

# A table's phone is heard from on every sync and every view of its sheet through the link: its
# row is written again only when the counts it reports change or the last write is this old, so
# a phone sending deal after deal costs no write each time.
HEARD_REFRESH = datetime.timedelta(seconds=15)


def table_heard(
    *,
    table_id: int,
    last: TableHeard | None,
    waiting: int | None = None,
    refused: int | None = None,
) -> bool:
    """Record that the table's phone was heard from now, with the entries it said were waiting
    on it and refused (None: it did not say; the last counts it gave stay). `last`: the row as
    the request read it (None: there is none). Whether anything was written.

    No audit record and no transaction of its own: it changes nothing of the tournament, and a
    lost write is made good by the phone's next request."""
    now = timezone.now()
    if last is not None:
        unchanged = (waiting is None or waiting == last.waiting) and (
            refused is None or refused == last.refused
        )
        if unchanged and now - last.heard_at < HEARD_REFRESH:
            return False
    said = {"waiting": waiting, "refused": refused}
    updated = ["heard_at", *(name for name, value in said.items() if value is not None)]
    # One statement, inserted or updated (INSERT ... ON CONFLICT), with no savepoint around it:
    # it runs on a view of the sheet, which reads it in the same statement as the link.
    try:
        TableHeard.objects.bulk_create(
            [TableHeard(table_id=table_id, heard_at=now, **said)],
            update_conflicts=True,
            unique_fields=["table"],
            update_fields=updated,
        )
    except IntegrityError:  # the table went meanwhile (seated again): nothing to record
        return False
    return True
