"""A tournament's audit log: its entries filtered (organise.audit_log shows them in words), and
the names its entries' registration ids stand for."""

import datetime
from collections.abc import Iterator

from django.db.models import Q, QuerySet

from engine.names import search_key
from tournaments.models import AuditRecord, Seat, Tournament

AUDIT_PAGE_SIZE = 50


def _strings(value: object) -> Iterator[str]:
    """Every string inside an audit record's detail (names sit in lists of tables, pairs ...)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _concerning_players(tournament: Tournament, query: str) -> Q:
    """Audit records about the players whose name contains `query`: everything written at a
    table where one of them sat, and the entries without a table that name one of them
    (a withdrawal, a swap, a regenerated seating). Those name players as they were written,
    so they are matched here, in Python; there are a handful per round."""
    needle = search_key(query)
    matched = {
        registration_id: search_key(name)
        for registration_id, name in tournament.registrations.values_list("pk", "player__full_name")
        if needle in search_key(name)
    }
    if not matched:
        return Q(pk__in=[])
    names = set(matched.values())
    without_table = AuditRecord.objects.filter(tournament=tournament, table__isnull=True)
    mentioned = [
        pk
        for pk, detail in without_table.values_list("pk", "detail")
        if any(search_key(text) in names for text in _strings(detail))
    ]
    seated_at = Seat.objects.filter(registration_id__in=matched).values("table_id")
    return Q(table_id__in=seated_at) | Q(pk__in=mentioned)


def audit_records(
    *,
    tournament: Tournament,
    table: int | None = None,
    round_number: int | None = None,
    player: str = "",
    action: str = "",
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
) -> QuerySet[AuditRecord]:
    """The tournament's audit log, newest first, filtered by table number, round number, player
    (a part of the name, case and diacritics ignored), action code and time (both ends
    included). The page count and the page itself are one query each."""
    entries = AuditRecord.objects.filter(tournament=tournament)
    if table is not None:
        entries = entries.filter(table__number=table)
    if round_number is not None:
        entries = entries.filter(
            Q(table__round__number=round_number) | Q(table__isnull=True, detail__round=round_number)
        )
    if action:
        entries = entries.filter(action=action)
    if since is not None:
        entries = entries.filter(at__gte=since)
    if until is not None:
        entries = entries.filter(at__lte=until)
    if player.strip():
        entries = entries.filter(_concerning_players(tournament, player.strip()))
    return entries.select_related("user", "table__round").order_by("-at", "-id")


def registration_names(*, tournament: Tournament) -> dict[str, str]:
    """Each registration's player by name, keyed as the audit log's details keep registration ids
    (text): one query, whatever the page."""
    return {
        str(registration_id): name
        for registration_id, name in tournament.registrations.values_list("pk", "player__full_name")
    }
