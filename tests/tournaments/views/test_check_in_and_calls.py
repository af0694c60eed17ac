"""The organiser's side of self check-in (the round page, the entries page) and of the tables'
calls (the round page, the chief referee's dashboard, the answer)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_published_round, make_registrations, make_tournament, make_user
from tournaments import services
from tournaments.models import AuditEntry, CheckInMethod, RefereeCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client):
    tournament = make_tournament(slug="kauss")
    organiser = make_user()
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    return tournament, client


def test_the_round_page_shows_the_code_and_who_checked_himself_in(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 6)
    round_ = services.round_create(tournament=tournament)
    services.self_check_in(registration=entries[2], method=CheckInMethod.LINK)

    page = client.get(reverse("tournaments:round", args=["kauss", 1])).content.decode()

    assert round_.check_in_code in page
    assert "1 player checked himself in" in page
    assert entries[2].player.full_name in page.split('id="self-check-in"')[1]


def test_the_entries_page_gives_each_player_his_link(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 3)
    round_ = services.round_create(tournament=tournament)
    page = client.get(reverse("tournaments:registrations", args=["kauss"])).content.decode()
    assert round_.check_in_code in page
    for entry in entries:
        assert reverse("public:my_check_in", args=["kauss", entry.check_in_token]) in page


def test_calls_show_on_the_round_page_and_are_answered_there(organiser_client):
    tournament, client = organiser_client
    round_ = make_published_round(tournament)
    table = round_.tables.order_by("number").last()
    call = services.referee_call(table=table)
    url = reverse("tournaments:round", args=["kauss", 1])
    page = client.get(url).content.decode()
    assert "Tables calling the chief referee" in page and f"Answered: table {table.number}" in page

    answer = reverse("tournaments:referee_call_answer", args=["kauss", call.pk])
    response = client.post(answer, {"back": "round"})

    assert response.status_code == 302 and response.url == f"{url}#referee-calls"
    call.refresh_from_db()
    assert call.answered_at is not None
    assert "Tables calling the chief referee" not in client.get(url).content.decode()


def test_the_chief_referees_dashboard_lists_the_calls_of_his_tournaments_only(client):
    round_ = make_published_round(make_tournament(slug="kauss"))
    elsewhere = make_published_round(make_tournament(slug="cits"))
    chief = make_user()
    round_.tournament.chief_referees.add(chief)
    mine = services.referee_call(table=round_.tables.first())
    services.referee_call(table=elsewhere.tables.first())
    client.force_login(chief)

    page = client.get(reverse("tournaments:dashboard"))

    assert [call.pk for call in page.context["referee_calls"]] == [mine.pk]
    answer = reverse("tournaments:referee_call_answer", args=["kauss", mine.pk])
    assert client.post(answer).url.endswith(reverse("tournaments:dashboard") + "#referee-calls")
    assert AuditEntry.objects.get(action=AuditEntry.Action.REFEREE_CALL_ANSWERED).user == chief


def test_a_call_of_another_tournament_is_not_answered_through_this_one(organiser_client):
    tournament, client = organiser_client
    make_published_round(tournament)
    elsewhere = make_published_round(make_tournament(slug="cits"))
    call = services.referee_call(table=elsewhere.tables.first())
    answer = reverse("tournaments:referee_call_answer", args=["kauss", call.pk])
    assert client.post(answer).status_code == 404
    assert RefereeCall.objects.get(pk=call.pk).answered_at is None


def test_saving_a_check_in_list_shown_before_a_self_check_in_keeps_it(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 6)
    services.round_create(tournament=tournament)
    page = client.get(reverse("tournaments:round", args=["kauss", 1]))
    shown = page.context["check_ins_shown"]
    assert f'name="check_ins_shown" value="{shown}"' in page.content.decode()
    late = make_registrations(tournament, 1)[0]
    services.self_check_in(registration=late, method=CheckInMethod.CODE, code=_code(tournament))

    client.post(
        reverse("tournaments:check_in", args=["kauss", 1]),
        {"entries": [entry.pk for entry in entries], "check_ins_shown": shown},
    )

    assert late.check_ins.get().method == CheckInMethod.CODE


def _code(tournament) -> str:
    return tournament.rounds.get(number=1).check_in_code
