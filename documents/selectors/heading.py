"""The heading every printed document opens with: the event's name, venue and dates, when it was
printed, and the variant its level prints in."""

from django.utils import timezone
from django.utils.formats import date_format

from documents.layout import EventInfo, variant_for
from tournaments.models import Tournament


def event_info(tournament: Tournament) -> EventInfo:
    dates = date_format(tournament.starts_on, "DATE_FORMAT")
    if tournament.ends_on and tournament.ends_on != tournament.starts_on:
        dates = f"{dates} – {date_format(tournament.ends_on, 'DATE_FORMAT')}"
    return EventInfo(
        name=tournament.name,
        venue=tournament.venue,
        dates=dates,
        printed_at=date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT"),
        variant=variant_for(tournament.level),
    )
