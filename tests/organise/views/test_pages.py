"""Organiser pages: who may open them, and the whole flow of preparing a round in the browser's
requests (create a tournament, import and register players, check in, seat, swap, publish)."""

import pytest
from django.urls import reverse

from scoring.services import round_generate_seating
from tests.factories import (
    make_organiser,
    make_player,
    make_registrations,
    make_tournament,
    make_user,
)
from tournaments import services
from tournaments.models import AuditRecord, Club, Player, Registration, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client):
    client.force_login(make_organiser())
    return client


@pytest.fixture
def seated_round():
    tournament = make_tournament(slug="kauss")
    make_registrations(tournament, 10, clubs=3)
    round_ = services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=11, by=None)
    return round_


def organiser_pages(tournament, entry, player):
    return [
        reverse("organise:dashboard"),
        reverse("organise:create"),
        reverse("organise:players"),
        reverse("organise:clubs"),
        reverse("organise:player_create"),
        reverse("organise:player_import"),
        reverse("organise:player_edit", args=[player.pk]),
        reverse("organise:detail", args=[tournament.slug]),
        reverse("organise:edit", args=[tournament.slug]),
        reverse("organise:registrations", args=[tournament.slug]),
        reverse("organise:registration_edit", args=[tournament.slug, entry.pk]),
        reverse("organise:meetings", args=[tournament.slug]),
        reverse("organise:round", args=[tournament.slug, 1]),
    ]


def test_every_organiser_page_opens_for_an_organiser(organiser_client, seated_round):
    tournament = seated_round.tournament
    entry = tournament.registrations.first()
    for url in organiser_pages(tournament, entry, entry.player):
        response = organiser_client.get(url)
        assert response.status_code == 200, url


def test_organiser_pages_send_strangers_to_sign_in_and_refuse_other_users(client, seated_round):
    tournament = seated_round.tournament
    entry = tournament.registrations.first()
    pages = organiser_pages(tournament, entry, entry.player)
    for url in pages:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    client.force_login(make_user())
    for url in pages:
        assert client.get(url).status_code == 403, url


def test_writes_refuse_a_non_organiser_and_change_nothing(client, seated_round):
    client.force_login(make_user())
    slug = seated_round.tournament.slug
    response = client.post(reverse("organise:publish", args=[slug, 1]))
    assert response.status_code == 403
    seated_round.refresh_from_db()
    assert seated_round.status == "draft"


def test_create_a_tournament(organiser_client):
    response = organiser_client.post(
        reverse("organise:create"),
        {
            "name": "Latvijas čempionāts 2026",
            "slug": "",
            "venue": "Rīga",
            "starts_on": "2026-12-12",
            "level": "national",
            "rounds_planned": 6,
            "deals_per_round": 24,
            "all_pass": "pule",
            "personal_pule_payment": "N-1",
            "place_points_three": "6, 4, 2",
            "place_points_four": "6,4,2,0",
            "standings_order": "place_points,game_points,last_round_game_points",
            "first_round_seating": "random",
            "later_rounds_seating": "swiss",
            "avoid_same_club": "on",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("organise:detail", args=["latvijas-cempionats-2026"])
    assert tournament.place_points_three == "6,4,2"
    assert tournament.level == "national"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("deals_per_round", 61, "1 to 60 deals"),
        ("deals_per_round", 0, "1 to 60 deals"),
        ("round_time_limit", 0, "1 to 600 minutes"),
        ("table_size", 5, "Select a valid choice"),
        ("place_points_three", "6,4", "3 whole numbers"),
        ("place_points_four", "0,2,4,6", "must not grow"),
        ("rounds_planned", 0, "1 to 30 rounds"),
        ("absent_players", "early", "Select a valid choice"),
    ],
)
def test_a_bad_setting_is_explained_and_nothing_is_saved(organiser_client, field, value, message):
    data = {
        "name": "Kauss",
        "slug": "kauss",
        "starts_on": "2026-12-12",
        "level": "club",
        "rounds_planned": 5,
        "deals_per_round": 24,
        "all_pass": "pule",
        "personal_pule_payment": "N-1",
        "place_points_three": "6,4,2",
        "place_points_four": "6,4,2,0",
        "standings_order": "game_points",
        "first_round_seating": "random",
        "later_rounds_seating": "swiss",
        field: value,
    }
    response = organiser_client.post(reverse("organise:create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_import_players_with_a_preview_then_confirm(organiser_client):
    url = reverse("organise:player_import")
    lines = "Jānis Bērziņš;Rīgas Zoles klubs;LV-1\nĻena Ščukina;Daugavpils Kārtis;\n"
    preview = organiser_client.post(url, {"text": lines})
    html = preview.content.decode()
    assert "Ļena Ščukina" in html
    assert "Import 2 players" in html
    assert not Player.objects.exists()  # the preview writes nothing
    confirm = organiser_client.post(url, {"text": lines, "confirm": "1"})
    assert confirm.status_code == 302
    assert Player.objects.count() == 2


def test_import_with_a_bad_line_lists_it_and_offers_no_import(organiser_client):
    response = organiser_client.post(
        reverse("organise:player_import"), {"text": "Anna,,\n,Rīga,\n"}
    )
    html = response.content.decode()
    assert "line 2: the name is empty" in html
    assert 'name="confirm"' not in html
    forced = organiser_client.post(
        reverse("organise:player_import"), {"text": "Anna,,\n,Rīga,\n", "confirm": "1"}
    )
    assert forced.status_code == 200
    assert not Player.objects.exists()


def test_register_check_in_seat_swap_and_publish_round_one(organiser_client):
    tournament = make_tournament(slug="vakars", avoid_same_club=False)
    players = [make_player() for _ in range(10)]
    organiser_client.post(
        reverse("organise:registrations", args=["vakars"]), {"players": [p.pk for p in players]}
    )
    assert tournament.registrations.count() == 10

    organiser_client.post(reverse("organise:round_create", args=["vakars"]))
    round_ = Round.objects.get(tournament=tournament, number=1)
    absent = Registration.objects.get(player=players[0])
    present = [e.pk for e in tournament.registrations.exclude(pk=absent.pk)]
    organiser_client.post(
        reverse("organise:check_in", args=["vakars", 1]), {"registrations": present}
    )
    organiser_client.post(
        reverse("organise:generate", args=["vakars", 1]), {"mode": "random", "seed": "2026"}
    )
    page = organiser_client.get(reverse("organise:round", args=["vakars", 1]))
    html = page.content.decode()
    assert "seed 2026" in html
    assert round_.tables.count() == 3  # 9 present: three tables of 3
    assert absent.player.full_name not in html.split("Check-in")[0]

    seats = list(Seat.objects.filter(table__round=round_).select_related("table"))
    first = seats[0]
    second = next(seat for seat in seats if seat.table_id != first.table_id)
    response = organiser_client.post(
        reverse("organise:swap", args=["vakars", 1]),
        {"first": first.registration_id, "second": second.registration_id},
        follow=True,
    )
    assert "Players swapped." in response.content.decode()
    assert (
        Seat.objects.get(registration_id=first.registration_id, table__round=round_).table_id
        == second.table_id
    )

    organiser_client.post(reverse("organise:publish", args=["vakars", 1]))
    round_.refresh_from_db()
    assert round_.status == "published"
    assert AuditRecord.objects.filter(action="round.published").exists()


def test_regenerating_a_published_round_without_confirmation_is_refused_on_the_page(
    organiser_client, seated_round
):
    services.round_publish(round_=seated_round, by=None)
    slug = seated_round.tournament.slug
    response = organiser_client.post(
        reverse("organise:generate", args=[slug, 1]),
        {"mode": "random", "seed": "5", "confirmation": ""},
        follow=True,
    )
    assert "regenerate round 1" in response.content.decode()
    seated_round.refresh_from_db()
    assert seated_round.seed == 11


def test_who_met_whom_lists_each_pair_with_its_count(organiser_client, seated_round):
    response = organiser_client.get(
        reverse("organise:meetings", args=[seated_round.tournament.slug])
    )
    # 10 players: tables 4 + 3 + 3 give 6 + 3 + 3 = 12 pairs, each met once.
    assert len(response.context["pairs"]) == 12
    assert response.context["repeated_pairs"] == []


def test_withdraw_a_player(organiser_client, seated_round):
    entry = seated_round.tournament.registrations.first()
    organiser_client.post(
        reverse("organise:registration_edit", args=[seated_round.tournament.slug, entry.pk]),
        {"withdraw-after_round": 1},
    )
    entry.refresh_from_db()
    assert entry.withdrawn_after_round == 1


def test_round_page_uses_a_fixed_number_of_queries(
    organiser_client, seated_round, django_assert_max_num_queries
):
    url = reverse("organise:round", args=[seated_round.tournament.slug, 1])
    organiser_client.get(url)
    # The round, its tables and seats, check-in with the fees, the calls to the chief referee,
    # the players out of the round, the hall display's private link: a fixed number, whatever
    # the size.
    with django_assert_max_num_queries(14):
        organiser_client.get(url)


def test_add_a_club(organiser_client):
    response = organiser_client.post(
        reverse("organise:clubs"), {"name": "Ogres Kārts", "city": "Ogre"}, follow=True
    )
    assert "Ogres Kārts" in response.content.decode()
    duplicate = organiser_client.post(reverse("organise:clubs"), {"name": "Ogres Kārts"})
    assert duplicate.status_code == 200
    assert duplicate.context["form"].errors["name"]  # Django's own unique message
    assert Club.objects.filter(name="Ogres Kārts").count() == 1


def test_check_in_lists_players_in_latvian_alphabetical_order(organiser_client):
    tournament = make_tournament(slug="abc")
    for name in ["Ērika Žagare", "Gatis Ozols", "Edgars Vītols", "Čaba Kiss", "Cēzars Ābols"]:
        Registration.objects.create(tournament=tournament, player=make_player(full_name=name))
    services.round_create(tournament=tournament)
    response = organiser_client.get(
        reverse("organise:round", args=["abc", 1]), HTTP_ACCEPT_LANGUAGE="lv"
    )
    labels = [
        label for _, label in response.context["check_in_form"].fields["registrations"].choices
    ]
    assert labels == ["Cēzars Ābols", "Čaba Kiss", "Edgars Vītols", "Ērika Žagare", "Gatis Ozols"]


def test_organiser_pages_link_to_the_public_standings(organiser_client, seated_round):
    """The organiser pages lead to the public standings."""
    tournament = seated_round.tournament
    standings = reverse("public:standings", args=[tournament.slug])
    detail = organiser_client.get(reverse("organise:detail", args=[tournament.slug]))
    assert f'href="{standings}"' in detail.content.decode()
    services.round_publish(round_=seated_round, by=None)
    round_page = organiser_client.get(reverse("organise:round", args=[tournament.slug, 1]))
    html = round_page.content.decode()
    assert f'href="{standings}"' in html
    assert f'href="{reverse("public:round", args=[tournament.slug, 1])}"' in html


def test_the_registration_list_can_be_ticked_all_at_once(organiser_client):
    tournament = make_tournament(slug="visi")
    for _ in range(3):
        make_player()
    html = organiser_client.get(reverse("organise:registrations", args=["visi"])).content.decode()
    assert 'data-select-all="id_players"' in html
    assert "js/select-all.js" in html
    assert f'name="tournament" value="{tournament.slug}"' in html  # a list straight into it


def test_an_imported_list_is_registered_straight_into_a_tournament(organiser_client):
    tournament = make_tournament(slug="vakars")
    known = make_player(full_name="Anna Ozoliņa", licence_number="LV-7")
    lines = "Jānis Bērziņš;Rīgas Zoles klubs;LV-1\nAnna Ozoliņa;;lv-7\nĻena Ščukina;;\n"
    url = reverse("organise:player_import")
    preview = organiser_client.post(url, {"text": lines, "tournament": "vakars"})
    html = preview.content.decode()
    assert 'name="tournament" value="vakars"' in html
    assert "3 players of the list are registered in" in html
    assert not tournament.registrations.exists()  # the preview writes nothing
    confirm = organiser_client.post(url, {"text": lines, "tournament": "vakars", "confirm": "1"})
    assert confirm.status_code == 302
    assert confirm.url == reverse("organise:registrations", args=["vakars"])
    registered = set(tournament.registrations.values_list("player__full_name", flat=True))
    assert registered == {"Jānis Bērziņš", "Anna Ozoliņa", "Ļena Ščukina"}
    assert tournament.registrations.filter(player=known).exists()  # already in the register
    entry = AuditRecord.objects.get(action=AuditRecord.Action.PLAYERS_IMPORTED)
    assert entry.tournament == tournament
    assert entry.detail["registered"] == 3 and entry.detail["imported"] == 2


class TestImportOfALikelyDuplicate:
    """The preview names the register's player a line likely stands for and offers, per line,
    to update him (the choice ticked) or to add a new player."""

    LINES = "Jānis Bērziņš;Rīgas Zoles klubs;LV-101\nĻena Ščukina;;\n"

    @pytest.fixture
    def janis(self):
        club = Club.objects.create(name="Rīgas Zoles klubs")
        return make_player(full_name="Jānis Bērziņš", club=club)

    def test_the_preview_names_him_and_ticks_updating_him(self, organiser_client, janis):
        html = organiser_client.post(
            reverse("organise:player_import"), {"text": self.LINES}
        ).content.decode()
        assert "likely already in the register" in html
        assert f'name="match-1" value="{janis.pk}" checked' in html
        assert 'name="match-1" value="new"' in html
        assert "add licence LV-101" in html

    def test_confirmed_as_a_new_player(self, organiser_client, janis):
        url = reverse("organise:player_import")
        organiser_client.post(url, {"text": self.LINES, "match-1": "new", "confirm": "1"})
        assert Player.objects.filter(full_name="Jānis Bērziņš").count() == 2

    def test_confirmed_as_him(self, organiser_client, janis):
        url = reverse("organise:player_import")
        response = organiser_client.post(
            url, {"text": self.LINES, "match-1": str(janis.pk), "confirm": "1"}
        )
        assert response.status_code == 302
        janis.refresh_from_db()
        assert janis.licence_number == "LV-101"
        assert Player.objects.count() == 2

    @pytest.mark.parametrize("value", ["abc", "99999999999999999999999", "", "-1"])
    def test_an_odd_choice_is_a_message_that_changes_nothing(self, organiser_client, janis, value):
        url = reverse("organise:player_import")
        response = organiser_client.post(
            url, {"text": self.LINES, "match-1": value, "confirm": "1"}
        )
        assert response.status_code == 200
        assert "line 1: choose a player the preview offers" in response.content.decode()
        assert Player.objects.count() == 1
        janis.refresh_from_db()
        assert janis.licence_number == ""

    def test_a_nul_in_the_choice_is_refused_before_the_import(self, organiser_client, janis):
        url = reverse("organise:player_import")
        response = organiser_client.post(
            url, {"text": self.LINES, "match-1": "\x00", "confirm": "1"}
        )
        assert response.status_code == 400
        assert "match-1" in response.content.decode()
        assert Player.objects.count() == 1
        janis.refresh_from_db()
        assert janis.licence_number == ""


def test_namesakes_on_the_registrations_page_are_told_apart(organiser_client):
    tournament = make_tournament(slug="vakars")
    club = Club.objects.create(name="Rīgas Zoles klubs")
    registered = make_player(full_name="Jānis Bērziņš", club=club, licence_number="LV-1")
    make_player(full_name="Anna Ozoliņa", club=club)
    services.registrations_create(tournament=tournament, players=[registered])
    namesake = make_player(full_name="Janis Berzins", club=club)
    other = make_player(full_name="Jānis Bērziņš", club=club)
    tournament_two = make_tournament(slug="otrais")
    services.registrations_create(tournament=tournament_two, players=[registered, other])
    html = organiser_client.get(reverse("organise:registrations", args=["vakars"])).content.decode()
    # The unregistered namesakes in the checklist, by their number in the register.
    assert f"Janis Berzins (Rīgas Zoles klubs, #{namesake.pk})" in html
    assert f"Jānis Bērziņš (Rīgas Zoles klubs, #{other.pk})" in html
    assert "Anna Ozoliņa (Rīgas Zoles klubs)" in html  # no namesake: no mark
    listed = organiser_client.get(
        reverse("organise:registrations", args=["otrais"])
    ).content.decode()
    assert "LV-1" in listed and f"#{other.pk}" in listed


class TestImportFromTheRegistrationsPage:
    """The registrations page pastes or uploads a list straight into the tournament; after an import
    into the register, one click registers that list."""

    def test_the_registrations_page_has_the_import_form_of_the_tournament(self, organiser_client):
        make_tournament(slug="vakars")
        url = reverse("organise:registrations", args=["vakars"])
        html = organiser_client.get(url).content.decode()
        form = html[html.index('class="stacked registrations-import"') :]
        form = form[: form.index("</form>")]
        assert f'action="{reverse("organise:player_import")}"' in html
        assert 'name="tournament" value="vakars"' in form
        assert 'name="text"' in form and 'name="file"' in form

    def test_after_a_register_import_one_click_registers_the_list(self, organiser_client):
        tournament = make_tournament(slug="vakars")
        known = make_player(full_name="Anna Ozoliņa", licence_number="LV-7")
        make_player(full_name="Pēteris Kalniņš")  # not on the list
        lines = "Jānis Bērziņš;Rīgas Zoles klubs;LV-1\nAnna Ozoliņa;;LV-7\n"
        organiser_client.post(reverse("organise:player_import"), {"text": lines, "confirm": "1"})
        url = reverse("organise:registrations", args=["vakars"])
        html = organiser_client.get(url).content.decode()
        assert "Register the 2 players of your last import" in html
        response = organiser_client.post(url, {"last_import": "1"})
        assert response.status_code == 302
        registered = set(tournament.registrations.values_list("player__full_name", flat=True))
        assert registered == {"Jānis Bērziņš", "Anna Ozoliņa"}
        assert tournament.registrations.filter(player=known).exists()
        html = organiser_client.get(url).content.decode()
        assert "of your last import" not in html  # all of them registered

    def test_without_an_import_there_is_nothing_to_register(self, organiser_client):
        tournament = make_tournament(slug="vakars")
        make_player()
        url = reverse("organise:registrations", args=["vakars"])
        assert "of your last import" not in organiser_client.get(url).content.decode()
        response = organiser_client.post(url, {"last_import": "1"})
        assert response.status_code == 302
        assert not tournament.registrations.exists()


def test_namesakes_in_the_check_in_list_are_told_apart(organiser_client):
    tournament = make_tournament(slug="vakars")
    licensed = make_player(full_name="Jānis Bērziņš", licence_number="LV-1")
    unlicensed = make_player(full_name="Janis Berzins")
    others = [make_player() for _ in range(4)]
    services.registrations_create(tournament=tournament, players=[licensed, unlicensed, *others])
    services.round_create(tournament=tournament)
    html = organiser_client.get(reverse("organise:round", args=["vakars", 1])).content.decode()
    assert "Jānis Bērziņš (LV-1)" in html
    assert f"Janis Berzins (#{unlicensed.pk})" in html
    assert f"{others[0].full_name} (" not in html


@pytest.mark.parametrize(
    ("query", "crumb"),
    [
        ("vakars", "/organise/t/vakars/registrations/"),
        ("nav-tada", "/organise/players/"),
        ("a%20b", "/organise/players/"),
    ],
)
def test_the_import_page_leads_back_to_the_tournament_it_was_opened_from(
    organiser_client, query, crumb
):
    make_tournament(slug="vakars")
    response = organiser_client.get(reverse("organise:player_import") + f"?tournament={query}")
    assert response.status_code == 200
    html = response.content.decode()
    breadcrumbs = html[html.index('class="breadcrumbs"') :]
    assert f'href="{crumb}"' in breadcrumbs[: breadcrumbs.index("</p>")]


def test_after_a_register_import_the_players_page_registers_it_in_a_coming_tournament(
    organiser_client,
):
    import datetime

    from django.utils import timezone

    today = timezone.localdate()
    coming = make_tournament(slug="nakamais", starts_on=today + datetime.timedelta(days=3))
    make_tournament(slug="pagajis", starts_on=today - datetime.timedelta(days=30))
    lines = "Jānis Bērziņš;Rīgas Zoles klubs;LV-1\nAnna Ozoliņa;;\n"
    response = organiser_client.post(
        reverse("organise:player_import"), {"text": lines, "confirm": "1"}, follow=True
    )
    html = response.content.decode()
    registrations_url = reverse("organise:registrations", args=["nakamais"])
    assert f'action="{registrations_url}"' in html
    assert f"Register these 2 players in {coming.name}" in html
    assert reverse("organise:registrations", args=["pagajis"]) not in html  # over
    organiser_client.post(registrations_url, {"last_import": "1"})
    assert coming.registrations.count() == 2
    html = organiser_client.get(reverse("organise:players")).content.decode()
    assert "Register these" not in html  # all of them registered there


def test_the_rule_for_absent_players_is_set_in_the_settings_and_shown(organiser_client):
    data = {
        "name": "Kauss",
        "slug": "kauss",
        "starts_on": "2026-12-12",
        "level": "club",
        "rounds_planned": 5,
        "deals_per_round": 24,
        "all_pass": "pule",
        "personal_pule_payment": "N-1",
        "place_points_three": "6,4,2",
        "place_points_four": "6,4,2,0",
        "standings_order": "game_points",
        "first_round_seating": "random",
        "later_rounds_seating": "ranked",
        "absent_players": "last",
    }
    organiser_client.post(reverse("organise:create"), data)

    assert Tournament.objects.get().absent_players == "last"
    page = organiser_client.get(reverse("organise:detail", args=["kauss"])).content.decode()
    assert "below every player who played more rounds" in page


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({}, "no rule"),
        (
            {"late_wait_minutes": 3, "late_out_deal": 4},
            "a pule after 3 min · out of the round by deal 4",
        ),
        ({"late_out_deal": 4}, "out of the round by deal 4"),
    ],
)
def test_the_tournament_page_says_its_rules_for_late_players(organiser_client, options, said):
    tournament = make_tournament(slug="nereta", **options)
    page = organiser_client.get(
        reverse("organise:detail", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert f"<dt>Late and absent players</dt><dd>{said}</dd>" in page


def test_the_settings_take_the_rules_for_late_players(organiser_client):
    tournament = make_tournament(slug="nereta")
    form = organiser_client.get(reverse("organise:edit", args=["nereta"])).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("organisers", "chief_referees", "referees")
    }
    data |= {"late_wait_minutes": "3", "late_out_deal": "4"}
    response = organiser_client.post(reverse("organise:edit", args=["nereta"]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.late_wait_minutes, tournament.late_out_deal) == (3, 4)
