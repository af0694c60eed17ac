"""Calling the chief referee from the table's page: a plain form on the link's page and the
signed-in door, the call shown to the players, one open call a table, a limit per table (a
press refused as too soon costs nothing)."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from hall.models import RefereeCall
from hall.services.referee_calls import CALL_AGAIN_AFTER
from tests.factories import make_organiser, make_published_round, make_user
from tournaments.models import AuditRecord, TableToken

pytestmark = pytest.mark.django_db

CALL = {"action": "call_referee"}


@pytest.fixture
def table():
    return make_published_round().tables.order_by("number").first()


def link_url(table) -> str:
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return reverse("entry:token_sheet", args=[token])


def test_the_link_page_calls_the_chief_referee_and_shows_it_waits(table, client):
    page = client.get(link_url(table)).content.decode()
    assert "Call the chief referee" in page and 'value="call_referee"' in page

    response = client.post(link_url(table), CALL, REMOTE_ADDR="10.2.2.2")

    assert response.status_code == 302 and response.url.endswith("#referee-call")
    call = RefereeCall.objects.get(table=table)
    assert call.answered_at is None
    audit = AuditRecord.objects.get(action=AuditRecord.Action.REFEREE_CALLED)
    assert audit.detail["via_link"] and audit.ip_address == "10.2.2.2"
    shown = client.get(link_url(table)).content.decode()
    assert "The chief referee is called, just now." in shown


def test_a_second_press_is_told_to_wait_and_makes_no_new_call(table, client):
    client.post(link_url(table), CALL)
    response = client.post(link_url(table), CALL, follow=True)
    assert "called already" in response.content.decode()
    assert RefereeCall.objects.count() == 1


def test_the_signed_in_door_calls_too(table, client):
    organiser = make_organiser()
    table.round.tournament.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("entry:table_sheet", args=[table.pk])
    assert client.post(url, CALL).status_code == 302
    assert AuditRecord.objects.get(action=AuditRecord.Action.REFEREE_CALLED).user == organiser


def a_minute_passes() -> None:
    earlier = timezone.now() - CALL_AGAIN_AFTER - datetime.timedelta(seconds=1)
    RefereeCall.objects.update(called_at=earlier, reminded_at=None)


def test_calls_are_limited_per_table_link(table, settings):
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "referee-call": {"failures": 2, "seconds": 600},
    }
    answers = []
    for phone in ("10.3.3.3", "10.3.3.4", "10.3.3.5"):  # the table's phones, or a script
        answers.append(Client(REMOTE_ADDR=phone).post(link_url(table), CALL).status_code)
        a_minute_passes()
    assert answers == [302, 302, 429]
    assert RefereeCall.objects.get().reminded_at is None  # the third press reminded nobody


def test_presses_refused_as_too_soon_cost_nothing_and_other_tables_still_call(table, settings):
    """A venue's phones share one address: one table pressing again and again stops neither
    its own next call nor any other table's."""
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "referee-call": {"failures": 2, "seconds": 600},
    }
    venue = Client(REMOTE_ADDR="10.3.3.3")
    table_two = table.round.tables.get(number=2)

    first = [venue.post(link_url(table), CALL).status_code for _ in range(60)]
    other = venue.post(link_url(table_two), CALL)
    a_minute_passes()
    reminder = venue.post(link_url(table), CALL)

    assert set(first) == {302} and RefereeCall.objects.filter(table=table).count() == 1
    assert other.status_code == 302 and RefereeCall.objects.filter(table=table_two).exists()
    assert reminder.status_code == 302
    assert RefereeCall.objects.get(table=table).reminded_at is not None


def test_a_closed_round_offers_no_call_and_refuses_one(table, client):
    from tournaments.models import Round, RoundStatus

    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    assert "Call the chief referee" not in client.get(link_url(table)).content.decode()
    response = client.post(link_url(table), CALL)
    assert response.status_code == 409 and "not in play" in response.content.decode()
    assert not RefereeCall.objects.exists()


def test_the_chief_referee_is_not_offered_to_call_himself(table, client):
    chief = make_user(username="galvenais")
    table.round.tournament.chief_referees.add(chief)
    client.force_login(chief)
    for url in (reverse("entry:table_sheet", args=[table.pk]), link_url(table)):
        page = client.get(url).content.decode()
        assert 'value="call_referee"' not in page, url
        assert "Call the chief referee" not in page, url
    # The table's referee, through the link, still calls him.
    assert 'value="call_referee"' in Client().get(link_url(table)).content.decode()
