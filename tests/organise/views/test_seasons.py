"""The federation's ranking pages: seasons (federation staff) and a final's invitations (its
organisers). Writes go through the services, in a transaction, with an audit record; a refused
request changes nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from demo.synthetic import build_played_tournaments
from ranking import services
from ranking.models import Invitation, Season
from ranking.selectors import qualification, season_standings
from tests.factories import make_organiser, make_player, make_tournament, make_user
from tournaments.models import AuditRecord, Player, Registration

pytestmark = pytest.mark.django_db

NATIONAL = "100, 85, 75, 68, 60, 55, 50, 45, 40, 36, 32, 29"
DISTRICT = "50, 42, 36, 32, 29, 26, 23, 20, 18, 16, 14, 12"
CLUB = "20, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1"


def season_form(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "2027",
        "starts_on": "2027-01-01",
        "ends_on": "2027-12-31",
        "best_k": 5,
        "qualifiers": 18,
        "points_national": NATIONAL,
        "points_district": DISTRICT,
        "points_club": CLUB,
    }
    data.update(changes)
    return data


@pytest.fixture
def staff(client):
    user = make_organiser(username="federacija")
    client.force_login(user)
    return user


def ranking_changes() -> list[AuditRecord]:
    return list(AuditRecord.objects.filter(action=AuditRecord.Action.RANKING_CHANGED).order_by("pk"))


# --- Seasons ------------------------------------------------------------------------------------


def test_staff_create_a_season_with_its_points_table(client, staff, season):
    page = client.get(reverse("organise:season_create"))
    assert page.status_code == 200
    assert page.context["form"]["points_national"].value().startswith("100, 85, 75")

    response = client.post(reverse("organise:season_create"), season_form())
    assert response.status_code == 302 and response.url == reverse("organise:seasons")
    created = Season.objects.get(name="2027")
    assert created.best_k == 5 and created.qualifiers == 18
    assert created.starts_on == datetime.date(2027, 1, 1)
    assert created.points_table["national"][:4] == [100, 85, 75, 68]
    assert created.points_table["club"] == [20, 16, 13, 11, 9, 7, 5, 4, 3, 2, 1]
    (entry,) = ranking_changes()
    assert entry.user == staff and entry.tournament is None
    assert entry.detail["season"] == "2027" and entry.detail["after"]["best_k"] == 5

    listing = client.get(reverse("organise:seasons")).content.decode()
    assert "2027" in listing and reverse("organise:season_edit", args=[created.pk]) in listing


def test_an_edited_points_table_changes_the_ranking_at_once(
    client, staff, season, django_capture_on_commit_callbacks
):
    build_played_tournaments(players=20, tournaments=2, per_tournament=9, rounds=2, seed=3)
    services.ranking_recompute()
    anonymous = client.__class__()
    cache.clear()
    anonymous.get(reverse("ranking:season"))  # now cached for visitors
    assert anonymous.get(reverse("ranking:season")).context is None  # from the cache
    top = season_standings(season=season).rows[0]
    table = season.points_table
    doubled = {level: [value * 2 for value in points] for level, points in table.items()}
    data = season_form(
        name=season.name,
        starts_on="2026-01-01",
        ends_on="2026-12-31",
        best_k=season.best_k,
        qualifiers=season.qualifiers,
        **{f"points_{level}": ", ".join(map(str, doubled[level])) for level in doubled},
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("organise:season_edit", args=[season.pk]), data)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.points_table == doubled
    assert season_standings(season=season).rows[0].points == top.points * 2
    page = anonymous.get(reverse("ranking:season"))
    assert page.context is not None, "the cached page was served after the change"
    assert page.context["table"].rows[0].record["points"] == top.points * 2
    (entry,) = ranking_changes()
    assert set(entry.detail["before"]) == {"points_table"}
    assert entry.detail["after"]["points_table"] == doubled


def test_saving_a_season_unchanged_writes_nothing(client, staff, season):
    data = season_form(
        name=season.name,
        starts_on="2026-01-01",
        ends_on="2026-12-31",
        best_k=season.best_k,
        qualifiers=season.qualifiers,
        **{
            f"points_{level}": ", ".join(map(str, points))
            for level, points in season.points_table.items()
        },
    )
    response = client.post(reverse("organise:season_edit", args=[season.pk]), data, follow=True)
    assert "Nothing changed." in response.content.decode()
    assert not ranking_changes()


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        (
            "points_national",
            "100, 85, 90, 60",
            "Level “national”, place 3: 90 points are more than place 2 gets (85)",
        ),
        (
            "points_district",
            "50, 42, x7, 30",
            "Level “district”, place 3: “x7” is not a whole number of 0 or more.",
        ),
        ("points_club", "20, -3", "Level “club”, place 2: “-3” is not a whole number"),
        ("points_club", "20, 10, 2.5", "Level “club”, place 3: “2.5” is not a whole number"),
        ("points_national", "100, 1000000", "Level “national”, place 2: at most 100000 points."),
        ("points_club", ", ".join(["1"] * 501), "Level “club”: at most 500 places, got 501."),
    ],
)
def test_a_bad_points_table_is_refused_naming_level_and_place(
    client, staff, season, field, text, message
):
    before = Season.objects.values().get(pk=season.pk)
    response = client.post(
        reverse("organise:season_edit", args=[season.pk]), season_form(**{field: text})
    )
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert message.split(":")[0] in response.content.decode()
    assert Season.objects.values().get(pk=season.pk) == before
    assert not ranking_changes()


def test_a_level_left_empty_earns_nothing_but_one_level_is_needed(client, staff, season):
    response = client.post(
        reverse("organise:season_create"), season_form(points_club="", points_district="")
    )
    assert response.status_code == 302
    assert Season.objects.get(name="2027").points_table == {
        "national": [int(value) for value in NATIONAL.split(", ")]
    }
    response = client.post(
        reverse("organise:season_create"),
        season_form(name="2028", points_national="", points_club=" ", points_district=""),
    )
    assert response.status_code == 200
    assert "Give the ranking points of at least one level." in response.content.decode()
    assert not Season.objects.filter(name="2028").exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"ends_on": "2026-12-31"}, "ends_on"),  # before it starts
        ({"best_k": 0}, "best_k"),
        ({"name": "2026"}, "name"),  # the fixture's season has that name
        ({"starts_on": "31.02.2027"}, "starts_on"),
    ],
)
def test_bad_season_fields_are_refused(client, staff, season, changes, field):
    response = client.post(reverse("organise:season_create"), season_form(**changes))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert Season.objects.count() == 1


def test_only_federation_staff_reach_the_season_pages(client, season):
    urls = [
        reverse("organise:seasons"),
        reverse("organise:season_create"),
        reverse("organise:season_edit", args=[season.pk]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    final = make_tournament(slug="finals")
    organiser = make_user()
    final.organisers.add(organiser)  # an organiser of a final is not federation staff
    client.force_login(organiser)
    for url in urls:
        assert client.get(url).status_code == 403
        assert client.post(url, season_form()).status_code == 403
    assert Season.objects.count() == 1 and not ranking_changes()


def test_an_unknown_season_is_a_404(client, staff, season):
    assert client.get(reverse("organise:season_edit", args=[424242])).status_code == 404


# --- Invitations to a final ---------------------------------------------------------------------


@pytest.fixture
def final(season):
    """Three finished tournaments of season 2026 (top 5 qualify) and its final, organised by an
    organiser who is not federation staff."""
    build_played_tournaments(players=30, tournaments=3, per_tournament=12, rounds=2, seed=4)
    services.ranking_recompute()
    season.qualifiers = 5
    season.save()
    tournament = make_tournament(slug="finals", name="Fināls", level="national")
    organiser = make_user(username="rīkotājs")
    tournament.organisers.add(organiser)
    return tournament, organiser


def qualification_url(final, season) -> str:
    return reverse("organise:qualification", args=[final.slug]) + f"?season={season.pk}"


def invite_url(final, season) -> str:
    return reverse("organise:invite", args=[final.slug]) + f"?season={season.pk}"


def withdraw_url(final, season) -> str:
    return reverse("organise:withdraw", args=[final.slug]) + f"?season={season.pk}"


def unranked_player(**fields) -> Player:
    fields.setdefault("full_name", "Titula Turētāja")
    return make_player(**fields)


def test_the_organiser_finds_and_invites_a_player_then_registers_him(client, season, final):
    tournament, organiser = final
    champion = unranked_player()
    client.force_login(organiser)
    page = client.get(qualification_url(tournament, season), {"q": "titula"})
    assert page.status_code == 200
    assert "Titula Turētāja" in page.content.decode()
    # An organiser of the final invites to his final only.
    assert [value for value, _label in page.context["form"].fields["scope"].choices] == ["final"]

    response = client.post(
        invite_url(tournament, season),
        {"q": "titula", "player": champion.pk, "reason": "title holder 2025", "scope": "final"},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(player=champion)
    assert invitation.tournament == tournament and invitation.reason == "title holder 2025"
    entry = AuditRecord.objects.get(action=AuditRecord.Action.RANKING_CHANGED)
    assert entry.tournament == tournament and entry.user == organiser
    assert entry.detail["player"] == "Titula Turētāja" and entry.detail["invited"] is True
    log = client.get(reverse("organise:audit", args=[tournament.slug])).content.decode()
    assert "season or final invitation changed" in log and "title holder 2025" in log

    page = client.get(response.url)
    assert "title holder 2025" in page.content.decode()
    rows = page.context["qualification"].rows
    assert rows[-1].player == champion and rows[-1].qualified_by == "invitation"

    client.post(qualification_url(tournament, season))
    registered = set(
        Registration.objects.filter(tournament=tournament).values_list("player", flat=True)
    )
    assert champion.pk in registered
    assert registered == {row.player.pk for row in rows}


def test_an_invited_player_who_never_played_is_named_not_linked(client, season, final):
    # His public page does not exist (scoring.selectors.has_public_result): no link to a 404.
    tournament, organiser = final
    champion = unranked_player()
    services.invitation_create(
        season=season, final=tournament, player=champion, whole_season=False, reason="", by=None
    )
    client.force_login(organiser)
    html = client.get(qualification_url(tournament, season)).content.decode()

    assert html.count("Titula Turētāja") >= 2  # the qualifiers and the invitations
    assert reverse("public:player", args=[champion.pk]) not in html
    linked = set(re.findall(r'href="(/players/\d+/)"', html))
    assert len(linked) == season.qualifiers
    for url in linked:
        assert client.get(url).status_code == 200, url


def test_a_withdrawn_invitation_leaves_the_qualification_list(client, season, final):
    tournament, organiser = final
    guest = unranked_player()
    invitation = Invitation.objects.create(season=season, player=guest, tournament=tournament)
    client.force_login(organiser)
    assert guest in [row.player for row in qualification(tournament=tournament, season=season).rows]

    response = client.post(withdraw_url(tournament, season), {"invitation": invitation.pk})
    assert response.status_code == 302
    assert not Invitation.objects.exists()
    assert guest not in [
        row.player for row in qualification(tournament=tournament, season=season).rows
    ]
    entry = AuditRecord.objects.get(action=AuditRecord.Action.RANKING_CHANGED)
    assert entry.detail["invited"] is False and entry.tournament == tournament

    again = client.post(
        withdraw_url(tournament, season), {"invitation": invitation.pk}, follow=True
    )
    assert "it may be withdrawn already" in again.content.decode()
    assert AuditRecord.objects.filter(action=AuditRecord.Action.RANKING_CHANGED).count() == 1


def test_withdrawing_the_invitation_of_a_registered_player_keeps_his_entry(client, season, final):
    tournament, organiser = final
    guest = unranked_player()
    invitation = Invitation.objects.create(season=season, player=guest, tournament=tournament)
    Registration.objects.create(tournament=tournament, player=guest)
    client.force_login(organiser)
    page = client.post(withdraw_url(tournament, season), {"invitation": invitation.pk}, follow=True)
    assert "stays registered for the final" in page.content.decode()
    assert Registration.objects.filter(tournament=tournament, player=guest).exists()


@pytest.mark.parametrize(
    ("who", "message"),
    [
        ("unknown", "Unknown player: choose one in the list."),
        ("nobody", "Find the player by name, then choose him in the list."),
        ("inactive", "is not an active player"),
        ("invited", "is already invited to this final."),
        ("invited_to_the_season", "is already invited to every final of season 2026."),
        ("ranked", "already qualifies by the season ranking (rank 1): no invitation is needed."),
    ],
)
def test_an_invitation_that_cannot_be_is_refused_and_says_why(client, season, final, who, message):
    tournament, organiser = final
    player = unranked_player()
    value: object = player.pk
    if who == "unknown":
        value = 987654321
    elif who == "nobody":
        value = ""
    elif who == "inactive":
        Player.objects.filter(pk=player.pk).update(is_active=False)
    elif who == "invited":
        Invitation.objects.create(season=season, player=player, tournament=tournament)
    elif who == "invited_to_the_season":
        Invitation.objects.create(season=season, player=player)
    elif who == "ranked":
        value = season_standings(season=season).rows[0].player_id
    invitations = Invitation.objects.count()
    client.force_login(organiser)
    response = client.post(invite_url(tournament, season), {"player": value, "scope": "final"})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Invitation.objects.count() == invitations
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.RANKING_CHANGED).exists()


def test_staff_invite_to_every_final_of_the_season(client, season, final):
    tournament, _organiser = final
    staff = make_organiser()
    client.force_login(staff)
    champion = unranked_player()
    response = client.post(
        invite_url(tournament, season),
        {"player": champion.pk, "reason": "Latvian champion", "scope": "season"},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(player=champion)
    assert invitation.tournament is None
    other_final = make_tournament(slug="finals-2", level="national")
    rows = qualification(tournament=other_final, season=season).rows
    assert champion in [row.player for row in rows]


def test_an_organiser_may_not_invite_to_or_withdraw_from_the_whole_season(client, season, final):
    tournament, organiser = final
    champion = unranked_player()
    client.force_login(organiser)
    response = client.post(
        invite_url(tournament, season), {"player": champion.pk, "scope": "season"}
    )
    assert response.status_code == 200 and "scope" in response.context["form"].errors
    assert not Invitation.objects.exists()
    invitation = Invitation.objects.create(season=season, player=champion)
    assert (
        client.post(withdraw_url(tournament, season), {"invitation": invitation.pk}).status_code
        == 403
    )
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_an_invitation_to_another_final_cannot_be_withdrawn_here(client, season, final):
    tournament, organiser = final
    other_final = make_tournament(slug="finals-2")
    invitation = Invitation.objects.create(
        season=season, player=unranked_player(), tournament=other_final
    )
    client.force_login(organiser)
    client.post(withdraw_url(tournament, season), {"invitation": invitation.pk})
    client.post(withdraw_url(tournament, season), {"invitation": "x" * 30})
    client.post(withdraw_url(tournament, season), {"invitation": "9" * 30})
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_visitors_and_other_accounts_cannot_invite_or_withdraw(client, season, final):
    tournament, _organiser = final
    player = unranked_player()
    invitation = Invitation.objects.create(
        season=season, player=make_player(), tournament=tournament
    )
    posts = [
        (invite_url(tournament, season), {"player": player.pk, "scope": "final"}),
        (withdraw_url(tournament, season), {"invitation": invitation.pk}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(make_user())
    for url, data in posts:
        assert client.post(url, data).status_code == 403
        assert client.get(url).status_code == 403
    assert list(Invitation.objects.values_list("pk", flat=True)) == [invitation.pk]
    assert not AuditRecord.objects.exists()


def test_the_invite_and_withdraw_addresses_only_take_posts(client, season, final):
    tournament, organiser = final
    client.force_login(organiser)
    assert client.get(invite_url(tournament, season)).status_code == 405
    assert client.get(withdraw_url(tournament, season)).status_code == 405


def test_the_search_lists_active_players_only(client, season, final):
    tournament, organiser = final
    unranked_player(full_name="Aktīvs Meklējamais")
    unranked_player(full_name="Neaktīvs Meklējamais", is_active=False)
    client.force_login(organiser)
    page = client.get(qualification_url(tournament, season), {"q": "meklējamais"})
    labels = [label for _value, label in page.context["form"].fields["player"].choices]
    assert "Aktīvs Meklējamais" in labels and "Neaktīvs Meklējamais" not in labels
    nothing = client.get(qualification_url(tournament, season), {"q": "zzz"})
    assert "No active player matches “zzz”." in nothing.content.decode()
