"""Every list of people and clubs a page shows or offers is in the reader's alphabetical order
(Latvian: ā after a, ģ after g, ... Cyrillic after the Latin letters; Russian: Cyrillic
first), never in the order of the character codes the database sorts by."""

import re

import pytest
from django.urls import reverse

from ranking.models import Season
from tests.factories import (
    make_club,
    make_organiser,
    make_player,
    make_registrations,
    make_season,
    make_tournament,
)

pytestmark = pytest.mark.django_db

# The names of the report, shuffled: in character-code order Juris comes before Jurģis before
# Jānis, and Ē, Ģ, Ņ and Cyrillic names come last.
NAMES = [
    "Juris Ozols",
    "Иван Иванов",
    "Ņikita Ļebedevs",
    "Jurģis Ozols",
    "Ēriks Bērziņš",
    "Edgars Vītols",
    "Jānis Ozols",
    "Ģirts Šteins",
    "Gints Kalns",
    "Nils Liepa",
]
LATVIAN_NAMES = [
    "Edgars Vītols",
    "Ēriks Bērziņš",
    "Gints Kalns",
    "Ģirts Šteins",
    "Jānis Ozols",
    "Jurģis Ozols",
    "Juris Ozols",
    "Nils Liepa",
    "Ņikita Ļebedevs",
    "Иван Иванов",
]
# An English reader: a letter's diacritics only tell otherwise equal names apart (Jurģis reads as
# Jurgis, Ņikita as Nikita); Cyrillic names after the Latin ones. A Russian reader: Cyrillic first.
ENGLISH_NAMES = [
    "Edgars Vītols",
    "Ēriks Bērziņš",
    "Gints Kalns",
    "Ģirts Šteins",
    "Jānis Ozols",
    "Jurģis Ozols",
    "Juris Ozols",
    "Ņikita Ļebedevs",
    "Nils Liepa",
    "Иван Иванов",
]
RUSSIAN_NAMES = ["Иван Иванов", *ENGLISH_NAMES[:-1]]

CLUBS = ["Ventspils Dūzis", "Ķeguma klubs", "Ādažu pule", "Kuldīgas kārtis", "Aizkraukles klubs"]
LATVIAN_CLUBS = [
    "Aizkraukles klubs",
    "Ādažu pule",
    "Kuldīgas kārtis",
    "Ķeguma klubs",
    "Ventspils Dūzis",
]


def in_order(html: str, names: list[str]) -> list[str]:
    """The names as they come in the page."""
    return sorted(names, key=html.index)


def options(html: str, select_name: str) -> list[str]:
    select = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {select_name}"
    return [
        label.strip()
        for value, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select[1])
        if value
    ]


@pytest.fixture
def staff(client):
    client.force_login(make_organiser())
    return client


@pytest.fixture
def register():
    clubs = [make_club(name=name) for name in CLUBS]
    return [
        make_player(full_name=name, club=clubs[index % len(clubs)], licence_number=f"LV-{index}")
        for index, name in enumerate(NAMES)
    ]


class TestPlayerRegister:
    @pytest.mark.parametrize(
        ("language", "expected"),
        [("lv", LATVIAN_NAMES), ("ru", RUSSIAN_NAMES), ("en", ENGLISH_NAMES)],
    )
    def test_the_register_is_in_the_readers_order(self, staff, register, language, expected):
        html = staff.get(reverse("organise:players"), HTTP_ACCEPT_LANGUAGE=language)
        assert in_order(html.content.decode(), NAMES) == expected

    def test_sorted_by_name_backwards(self, staff, register):
        url = reverse("organise:players") + "?sort=-full_name"
        html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert in_order(html, NAMES) == LATVIAN_NAMES[::-1]

    def test_sorted_by_club(self, staff, register):
        url = reverse("organise:players") + "?sort=club"
        html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)[1:]
        clubs = [next(club for club in CLUBS if club in row) for row in rows]
        assert clubs == sorted(clubs, key=LATVIAN_CLUBS.index)
        # Within a club, by name.
        ventspils = [name for name in in_order(html, NAMES) if "Ventspils" in name]
        assert ventspils == sorted(ventspils, key=LATVIAN_NAMES.index)

    def test_a_page_of_the_register_is_a_slice_of_the_whole_order(self, staff):
        for index in range(60):
            make_player(full_name=f"Ādams {index:02d}")
            make_player(full_name=f"Zigmārs {index:02d}")
        make_player(full_name="Ābele Anna")
        make_player(full_name="Abele Anna")
        html = staff.get(reverse("organise:players"), HTTP_ACCEPT_LANGUAGE="lv")
        page = html.content.decode()
        assert "Abele Anna" in page
        assert "Zigmārs" not in page  # 50 a page: A, Ā first
        assert page.index("Abele Anna") < page.index("Ādams 00")


class TestChoices:
    def test_the_club_choice_of_a_player(self, staff, register):
        html = staff.get(reverse("organise:player_create"), HTTP_ACCEPT_LANGUAGE="lv")
        assert options(html.content.decode(), "club") == LATVIAN_CLUBS

    @pytest.mark.parametrize("page", ["ranking:season", "ranking:rating"])
    def test_the_club_choice_of_the_ranking(self, client, register, page):
        Season.objects.all().delete()
        make_season(2026)
        html = client.get(reverse(page), HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert options(html, "club") == LATVIAN_CLUBS

    def test_the_club_list(self, staff, register):
        html = staff.get(reverse("organise:clubs"), HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert in_order(html, CLUBS) == LATVIAN_CLUBS

    def test_players_to_register_and_entries(self, staff, register):
        tournament = make_tournament()
        url = reverse("organise:registrations", args=[tournament.slug])
        html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert in_order(html, NAMES) == LATVIAN_NAMES
        staff.post(url, {"players": [player.pk for player in register]})
        html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert in_order(html, NAMES) == LATVIAN_NAMES


class TestPeople:
    USERNAMES = ["juris", "jurģis", "jānis", "ēriks", "edgars"]

    def test_the_referees_of_a_tournament(self, staff):
        from django.contrib.auth.models import User

        tournament = make_tournament()
        for username in self.USERNAMES:
            user = User.objects.create_user(username=username)
            tournament.referees.add(user)
        url = reverse("organise:roles", args=[tournament.slug])
        html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        people = html[html.index('id="role-referee"') :]
        shown = sorted(self.USERNAMES, key=lambda name: people.index(f"<strong>{name}</strong>"))
        assert shown == ["edgars", "ēriks", "jānis", "jurģis", "juris"]


class TestRankingTables:
    def test_the_rating_list_sorted_by_name_follows_the_reader(self, client, register):
        from ranking.models import PlayerRating

        for player in register:
            PlayerRating.objects.create(player=player, mu=25, sigma=8, ordinal=1, tables=1)
        for language, expected in (("lv", LATVIAN_NAMES), ("ru", RUSSIAN_NAMES)):
            url = reverse("ranking:rating") + "?sort=name"
            html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert in_order(html, NAMES) == expected, language


def test_the_entries_of_a_round_to_check_in(staff):
    tournament = make_tournament()
    for entry, name in zip(make_registrations(tournament, len(NAMES)), NAMES, strict=True):
        entry.player.full_name = name
        entry.player.save()
    from tournaments import services

    round_ = services.round_create(tournament=tournament)
    url = reverse("organise:round", args=[tournament.slug, round_.number])
    html = staff.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
    assert in_order(html, NAMES) == LATVIAN_NAMES


def test_the_invitations_to_a_final(register):
    from django.utils import translation

    from ranking import selectors
    from ranking.models import Invitation

    Season.objects.all().delete()
    season = make_season(2026)
    final = make_tournament()
    for index, player in enumerate(register):
        Invitation.objects.create(
            season=season, player=player, tournament=final if index % 2 else None
        )
    with translation.override("lv"):
        invitations = selectors.final_invitations(season=season, final=final)
    whole_season = [i.player.full_name for i in invitations if i.tournament_id is None]
    this_final = [i.player.full_name for i in invitations if i.tournament_id is not None]
    assert [i.player.full_name for i in invitations] == whole_season + this_final
    assert whole_season == sorted(whole_season, key=LATVIAN_NAMES.index)
    assert this_final == sorted(this_final, key=LATVIAN_NAMES.index)


def test_the_chief_referees_on_the_protocol():
    from django.contrib.auth.models import User

    from documents import selectors as documents

    tournament = make_tournament(language="lv")
    for first_name in ("Juris", "Jurģis", "Jānis"):
        tournament.chief_referees.add(
            User.objects.create_user(username=first_name.lower(), first_name=first_name)
        )
    from django.utils import translation

    with translation.override("lv"):
        protocol = documents.standings_protocol(tournament=tournament)
    assert protocol.chief_referees == ("Jānis", "Jurģis", "Juris")
