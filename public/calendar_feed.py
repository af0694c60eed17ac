"""The calendar feed (iCalendar, RFC 5545): the upcoming tournaments for a calendar app to
subscribe to (all, a level's, a club's), and one tournament's event to add to a calendar.

- Why the UID is the tournament's primary key at the site's host: a calendar recognises the
  event it holds by its UID alone, so a renamed or moved tournament must keep it, and two sites
  (a club's test copy) must not share it.
- Why SEQUENCE and LAST-MODIFIED: a subscribed calendar replaces its copy of an event when these
  grow. They come from the tournament's changed_at (every save): SEQUENCE counts the seconds
  from its creation, so it only grows. DTSTAMP is the same moment, not the time of the request:
  one feed is the same bytes until something in it changes, as the cache serves it.
- Why cached under EVERY_TOURNAMENT (core.page_cache): the feed reads every tournament, and a
  write to any of them renews it; a tournament that ends drops out within the cache's period.
- A tournament has dates, not times: its events are all-day ones (DTEND the day after its last,
  as RFC 5545 counts an all-day event's end), and it has no cancelled state to say STATUS.
"""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from icalendar import Calendar, Event

from accounts.access import cached_tournament_page
from core.page_cache import EVERY_TOURNAMENT, cached_public_page
from core.query import id_param
from scoring.selectors.calendar import calendar_tournaments, club_by_id
from tournaments.models import Level, Tournament

CALENDAR_PARAMS = frozenset({"club", "level"})
CONTENT_TYPE = "text/calendar; charset=utf-8"
# How often a subscribed calendar is asked to fetch the feed again (most take it as a hint).
REFRESH_INTERVAL = datetime.timedelta(hours=1)


def site_address(request: HttpRequest) -> str:
    """The site's own address (settings.SITE_URL, else the request's), without a final "/":
    one site gives one UID and one link whatever name it was reached by, when it is set."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def subscription_address(request: HttpRequest) -> str:
    """The feed's address for a calendar app to subscribe to: webcal:, which phones and desktop
    calendars open as a subscription (an https: link would only download the file once)."""
    address = site_address(request) + reverse("public:calendar")
    return "webcal:" + address.split(":", 1)[1]


def _event(tournament: Tournament, *, site: str) -> Event:
    page = site + reverse("public:tournament", args=[tournament.slug])
    event = Event()
    event.add("uid", f"tournament-{tournament.pk}@{urlsplit(site).hostname}")
    event.add("sequence", int((tournament.changed_at - tournament.created_at).total_seconds()))
    event.add("dtstamp", tournament.changed_at)
    event.add("last-modified", tournament.changed_at)
    event.add("summary", tournament.name)
    event.add("dtstart", tournament.starts_on)
    last_day = tournament.ends_on or tournament.starts_on
    event.add("dtend", last_day + datetime.timedelta(days=1))
    if tournament.venue:
        event.add("location", tournament.venue)
    event.add("url", page)
    event.add("description", f"{_('Level')}: {tournament.get_level_display()}\n{page}")
    return event


def _calendar(name: str, tournaments: list[Tournament], *, site: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", f"-//Zole//{urlsplit(site).hostname}//")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT1H")  # REFRESH-INTERVAL as Outlook reads it
    for tournament in tournaments:
        calendar.add_component(_event(tournament, site=site))
    return calendar


def _ics_response(calendar: Calendar, *, filename: str | None = None) -> HttpResponse:
    response = HttpResponse(calendar.to_ical(), content_type=CONTENT_TYPE)
    if filename is not None:
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _level(request: HttpRequest) -> str | None:
    """?level= as a Level's value; absent or empty is None, anything else no page (404)."""
    text = request.GET.get("level", "").strip()
    if not text:
        return None
    if text not in Level.values:
        raise Http404(_("No such %(name)s.") % {"name": "level"})
    return text


@require_safe
def calendar_feed(request: HttpRequest) -> HttpResponse:
    """The upcoming tournaments (scoring.selectors.calendar), ?level= a level's, ?club= (an id)
    those a club's players are registered for."""
    return cached_public_page(
        request,
        tournament_id=EVERY_TOURNAMENT,
        params=CALENDAR_PARAMS,
        render=lambda: _calendar_feed(request),
    )


def _calendar_feed(request: HttpRequest) -> HttpResponse:
    level = _level(request)
    club_id = id_param(request, "club")
    club = None if club_id is None else club_by_id(club_id)
    if club_id is not None and club is None:
        raise Http404(_("No such club."))
    # The calendar's name in the reader's language says which tournaments it holds.
    name = [_("Zole tournaments")]
    if level is not None:
        name.append(f"{_('Level')}: {Level(level).label}")
    if club is not None:
        name.append(club.name)
    tournaments = calendar_tournaments(level=level, club_id=club_id)
    site = site_address(request)
    return _ics_response(_calendar(" · ".join(name), tournaments, site=site))


@require_safe
def tournament_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """One tournament's event, to add to a calendar (whatever its phase)."""
    return cached_tournament_page(
        request,
        slug,
        params=frozenset(),
        render=lambda tournament: _ics_response(
            _calendar(tournament.name, [tournament], site=site_address(request)),
            filename=f"{tournament.slug}.ics",
        ),
    )
