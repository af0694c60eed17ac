"""The organiser's side of self check-in (the round page, the registrations page) and of the tables'
calls (the round page, the chief referee's dashboard, the answer)."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.urls import reverse

from hall.models import DisplayLink, RefereeCall
from hall.services.check_in import self_check_in
from hall.services.referee_calls import referee_call
from scoring.services import round_generate_seating
from tests.clock import fix_the_clock
from tests.factories import make_published_round, make_registrations, make_tournament, make_user
from tournaments import services
from tournaments.models import AuditRecord, CheckInMethod

pytestmark = pytest.mark.django_db


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def organiser_client(client):
    tournament = make_tournament(slug="kauss")
    organiser = make_user(username="organiser-1")
    tournament.organisers.add(organiser)
    client.force_login(organiser)
    return tournament, client


def test_the_round_page_shows_the_code_and_who_checked_in_how_and_when(
    organiser_client, monkeypatch
):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 6)
    round_ = services.round_create(tournament=tournament)
    clock = fix_the_clock(monkeypatch)
    clock.now = datetime.datetime(2026, 12, 5, 8, 5, tzinfo=datetime.UTC)  # 10:05 in Riga
    self_check_in(registration=entries[2], method=CheckInMethod.LINK)
    clock.advance(minutes=3)
    self_check_in(registration=entries[4], method=CheckInMethod.CODE, code=round_.check_in_code)
    url = reverse("organise:round", args=["kauss", 1])

    page = client.get(url).content.decode()
    round_generate_seating(round_=round_, mode="random", seed=1, by=None)
    seated = client.get(url).content.decode()

    assert round_.check_in_code in page
    assert "2 players checked themselves in" in page
    listed = text_of(page.split('id="self-check-in"')[1].split("</section>")[0])
    assert f"{entries[4].player.full_name} 10:08 by the player, with the round's code" in listed
    assert f"{entries[2].player.full_name} 10:05 by the player, with his own link" in listed
    assert listed.index(entries[4].player.full_name) < listed.index(entries[2].player.full_name)
    # Once seated the code is gone; who checked in how stays to be looked at.
    assert round_.check_in_code not in seated
    assert "10:08 by the player, with the round's code" in text_of(seated)


def test_the_organisers_own_ticks_are_listed_as_his(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 3)
    round_ = services.round_create(tournament=tournament)
    services.check_in_set(round_=round_, registrations=entries[:2])
    services.check_in_set(round_=round_, registrations=entries)  # the third comes back: ticked

    page = client.get(reverse("organise:round", args=["kauss", 1])).content.decode()

    listed = text_of(page.split('id="self-check-in"')[1].split("</section>")[0])
    assert f"{entries[2].player.full_name}" in listed and "by the organiser" in listed
    assert entries[0].player.full_name not in listed  # ticked by the round's preparation


def test_the_round_and_tournament_pages_give_the_hall_display_its_private_link(
    organiser_client,
):
    tournament, client = organiser_client
    make_registrations(tournament, 3)
    services.round_create(tournament=tournament)
    round_page = reverse("organise:round", args=["kauss", 1])
    tournament_page = reverse("organise:detail", args=["kauss"])
    assert "Make the hall display's private link" in client.get(round_page).content.decode()

    made = client.post(reverse("organise:display_link_new", args=["kauss"]), {"back": "1"})
    link = DisplayLink.objects.get(revoked_at__isnull=True)
    address = reverse("public:private_display", args=["kauss", link.token])

    assert made.status_code == 302 and made.url == f"{round_page}#hall-display"
    assert address in client.get(round_page).content.decode()
    assert address in client.get(tournament_page).content.decode()
    renewed = client.post(reverse("organise:display_link_new", args=["kauss"]))
    assert renewed.url == f"{tournament_page}#hall-display"
    assert DisplayLink.objects.filter(revoked_at__isnull=True).exclude(pk=link.pk).count() == 1
    revoked = client.post(reverse("organise:display_link_revoke", args=["kauss"]), {"back": "1"})
    assert revoked.url == f"{round_page}#hall-display"
    assert not DisplayLink.objects.filter(revoked_at__isnull=True).exists()
    assert list(
        AuditRecord.objects.filter(action__startswith="display_link.")
        .order_by("pk")
        .values_list("action", "user__username")
    ) == [
        (AuditRecord.Action.DISPLAY_LINK_ISSUED, "organiser-1"),
        (AuditRecord.Action.DISPLAY_LINK_ISSUED, "organiser-1"),
        (AuditRecord.Action.DISPLAY_LINK_REVOKED, "organiser-1"),
    ]


def test_the_registrations_page_gives_each_player_his_link(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 3)
    round_ = services.round_create(tournament=tournament)
    page = client.get(reverse("organise:registrations", args=["kauss"])).content.decode()
    assert round_.check_in_code in page
    for entry in entries:
        assert reverse("public:my_check_in", args=["kauss", entry.check_in_token]) in page


def test_calls_show_on_the_round_page_and_are_answered_there(organiser_client):
    tournament, client = organiser_client
    round_ = make_published_round(tournament)
    table = round_.tables.order_by("number").last()
    call = referee_call(table=table)
    url = reverse("organise:round", args=["kauss", 1])
    page = client.get(url).content.decode()
    assert "Tables calling the chief referee" in page and f"Answered: table {table.number}" in page

    answer = reverse("organise:referee_call_answer", args=["kauss", call.pk])
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
    mine = referee_call(table=round_.tables.first())
    referee_call(table=elsewhere.tables.first())
    client.force_login(chief)

    page = client.get(reverse("organise:dashboard"))

    assert [call.pk for call in page.context["referee_calls"]] == [mine.pk]
    answer = reverse("organise:referee_call_answer", args=["kauss", mine.pk])
    assert client.post(answer).url.endswith(reverse("organise:dashboard") + "#referee-calls")
    assert AuditRecord.objects.get(action=AuditRecord.Action.REFEREE_CALL_ANSWERED).user == chief


def test_a_call_of_another_tournament_is_not_answered_through_this_one(organiser_client):
    tournament, client = organiser_client
    make_published_round(tournament)
    elsewhere = make_published_round(make_tournament(slug="cits"))
    call = referee_call(table=elsewhere.tables.first())
    answer = reverse("organise:referee_call_answer", args=["kauss", call.pk])
    assert client.post(answer).status_code == 404
    assert RefereeCall.objects.get(pk=call.pk).answered_at is None


def test_saving_a_check_in_list_shown_before_a_self_check_in_keeps_it(organiser_client):
    tournament, client = organiser_client
    entries = make_registrations(tournament, 6)
    services.round_create(tournament=tournament)
    page = client.get(reverse("organise:round", args=["kauss", 1]))
    shown = page.context["check_ins_shown"]
    assert f'name="check_ins_shown" value="{shown}"' in page.content.decode()
    late = make_registrations(tournament, 1)[0]
    self_check_in(registration=late, method=CheckInMethod.CODE, code=_code(tournament))

    client.post(
        reverse("organise:check_in", args=["kauss", 1]),
        {"registrations": [entry.pk for entry in entries], "check_ins_shown": shown},
    )

    assert late.check_ins.get().method == CheckInMethod.CODE


def _code(tournament) -> str:
    return tournament.rounds.get(number=1).check_in_code
