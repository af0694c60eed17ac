"""Hostile input against the organiser's forms and pages: wrong types, huge numbers, unknown
players and registrations, long and odd text, malformed uploads. Each is refused with a clear
error and changes nothing, or is stored as typed and shown escaped."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from engine.names import clean_name
from scoring.services import round_generate_seating
from tests import hostile
from tests.factories import make_organiser, make_player, make_tournament, make_user
from tests.hostile import (
    BAD_NUMBERS,
    HOSTILE_NAMES,
    HUGE,
    IMG,
    LONG_TEXT,
    NUL_TEXT,
    SCRIPT,
    assert_escaped,
    assert_refused,
    database_state,
    error_shown,
    hostile_client,
)
from tournaments import services as tournament_services
from tournaments.models import Club, Player, Registration, Tournament

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names
staff = hostile.staff  # a fixture: an organiser signed in


class TestNamesAreHarmless:
    @pytest.mark.parametrize("name", HOSTILE_NAMES)
    def test_the_forms_store_them_cleaned(self, name):
        """As typed, but for the invisible characters and the composed letters (`clean_name`):
        a hidden override or joiner is no part of a name."""
        organiser = make_organiser()
        client = hostile_client()
        client.force_login(organiser)
        response = client.post(reverse("organise:clubs"), {"name": name, "city": name[:120]})
        assert response.status_code == 302
        club = Club.objects.get(name=clean_name(name))
        response = client.post(
            reverse("organise:player_create"),
            {"full_name": name, "club": club.pk, "licence_number": "", "is_active": "on"},
        )
        assert response.status_code == 302
        assert Player.objects.get(full_name=clean_name(name)).club == club
        for url in (reverse("organise:clubs"), reverse("organise:players")):
            assert_escaped(client.get(url), url)


TOURNAMENT_FORM = {
    "name": "Cēsu kauss",
    "slug": "cesu-kauss",
    "venue": "Cēsis",
    "starts_on": "2026-12-05",
    "ends_on": "",
    "level": "club",
    "rounds_planned": "5",
    "deals_per_round": "24",
    "all_pass": "pule",
    "personal_pule_payment": "N-1",
    "place_points_three": "6,4,2",
    "place_points_four": "6,4,2,0",
    "standings_order": "place_points,game_points,last_round_game_points",
    "first_round_seating": "random",
    "later_rounds_seating": "swiss",
}

BAD_TOURNAMENT_FIELDS: list[tuple[str, object]] = [
    *[("name", value) for value in ("", "   ", LONG_TEXT, NUL_TEXT)],
    *[("venue", value) for value in (LONG_TEXT, NUL_TEXT)],
    *[("slug", value) for value in ("ā b", "<script>", "x" * 81, "'; DROP TABLE x; --", "\x00")],
    *[("starts_on", value) for value in ("", "2026-02-30", "99999-01-01", "abc", "-1", "0")],
    ("ends_on", "2026-12-01"),  # before it starts
    *[("level", value) for value in ("world", "", SCRIPT)],
    *[("rounds_planned", value) for value in (*BAD_NUMBERS, "0", "31", "999999")],
    *[("deals_per_round", value) for value in (*BAD_NUMBERS, "0", "61", "32760", "120000")],
    *[("round_time_limit", value) for value in (*BAD_NUMBERS[1:], "0", "601", "99999999")],
    *[("table_size", value) for value in ("5", "2", "three", SCRIPT)],
    *[("galdins_scoring", value) for value in ("points", SCRIPT)],
    *[("small_zole_loss", value) for value in ("8", "-7", "six")],
    *[("four_table_pass_pules", value) for value in ("3", "0", "two")],
    *[("all_pass", value) for value in ("both", "", "galdins_pules", ["galdins", "both"])],
    *[("personal_pule_payment", value) for value in ("N+1", "")],
    *[
        ("place_points_three", value)
        for value in ("", "6,4", "6,4,2,0", "a,b,c", "1e309,0,0", "9" * 40, "6;4;2", "-1e9,0,0")
    ],
    *[("place_points_four", value) for value in ("6,4,2", "NaN,1,2,3", "1000000000,0,0,0")],
    *[("standings_order", value) for value in ("wins", "game_points;drop", "")],
    *[("first_round_seating", value) for value in ("best", "")],
    # Late and absent players
    *[("late_wait_minutes", value) for value in (*BAD_NUMBERS[1:], "601", "99999999")],
    *[("late_out_deal", value) for value in (*BAD_NUMBERS[1:], "0", "61", "99999999")],
]


class TestOrganiserForms:
    @pytest.mark.parametrize("editing", [False, True], ids=["create", "edit"])
    def test_tournament_settings(self, staff, editing):
        tournament = make_tournament(slug="esosais") if editing else None
        url = reverse("organise:edit", args=["esosais"]) if editing else reverse("organise:create")
        for name, value in BAD_TOURNAMENT_FIELDS:
            before = database_state()
            response = staff.post(url, {**TOURNAMENT_FORM, name: value})
            assert_refused(response, before, f"{name}={str(value)[:40]!r}")
        # The form itself is fine: only the one bad field was refused each time.
        assert staff.post(url, TOURNAMENT_FORM).status_code == 302
        assert Tournament.objects.filter(slug="cesu-kauss").exists()
        if tournament is not None:
            assert not Tournament.objects.filter(slug="esosais").exists()  # renamed

    @pytest.mark.parametrize("name", ["", "   "])
    @pytest.mark.parametrize("slug", ["", "   ", "jauns"])
    def test_no_name_keeps_the_page_on_the_saved_tournament(self, staff, name, slug):
        """The refused form's values never reach the page's links and headings: with no name
        and no address, the page linked to a tournament without a slug (NoReverseMatch)."""
        make_tournament(slug="esosais", name="Esošais kauss")
        url = reverse("organise:edit", args=["esosais"])
        before = database_state()
        response = staff.post(url, {**TOURNAMENT_FORM, "name": name, "slug": slug})
        assert_refused(response, before, f"name {name!r}, slug {slug!r}")
        content = response.content.decode()
        assert reverse("organise:detail", args=["esosais"]) in content
        assert "Esošais kauss" in content

    def test_a_taken_slug_is_refused(self, staff):
        make_tournament(slug="cesu-kauss")
        before = database_state()
        assert_refused(
            staff.post(reverse("organise:create"), TOURNAMENT_FORM), before, "taken slug"
        )

    def test_player(self, staff):
        existing = make_player(licence_number="LV-1")
        make_player(licence_number="LV-2")
        valid = {"full_name": "Anna Ozoliņa", "club": "", "licence_number": "", "is_active": "on"}
        cases = [
            *[("full_name", value) for value in ("", "   ", LONG_TEXT, NUL_TEXT, "x" * 121)],
            *[("club", value) for value in ("abc", str(HUGE), "-1", "999999", "1.5", SCRIPT)],
            *[("licence_number", value) for value in ("LV-2", "x" * 21, NUL_TEXT)],
        ]
        for url in (
            reverse("organise:player_create"),
            reverse("organise:player_edit", args=[existing.pk]),
        ):
            for name, value in cases:
                before = database_state()
                response = staff.post(url, {**valid, name: value})
                assert_refused(response, before, f"{url} {name}={value[:40]!r}")
            assert staff.post(url, valid).status_code == 302  # the rest of the form is fine

    def test_club(self, staff):
        Club.objects.create(name="Cēsu Pule")
        for data in (
            {"name": ""},
            {"name": LONG_TEXT},
            {"name": NUL_TEXT},
            {"name": "Cēsu Pule"},
            {"name": "Jauns", "city": LONG_TEXT},
        ):
            before = database_state()
            assert_refused(staff.post(reverse("organise:clubs"), data), before, str(data)[:60])

    @pytest.mark.parametrize(
        "content",
        [
            pytest.param(bytes(range(256)) * 40, id="binary garbage"),
            pytest.param(b"\x00" * 1000, id="NUL bytes"),
            pytest.param(b"name,club\n" + b"A" * 2_000_000 + b",x\n", id="a huge line"),
            pytest.param(b"Anna,Klubs\n" * 6000, id="too many lines"),
            pytest.param(b"name|club|licence\nAnna|Klubs|1|2|3|4\n", id="wrong delimiter"),
            pytest.param(b"a,b,c,d,e,f\n" * 3, id="too many fields"),
            pytest.param("Jānis\x00 Bērziņš,Klubs,LV-9\n".encode(), id="NUL in a name"),
            pytest.param(("x" * 121 + ",Klubs\n").encode(), id="a long name"),
            pytest.param(b'"Anna,Klubs\n', id="an open quote"),
            pytest.param(b"\n\n  \n", id="no players"),
            pytest.param("name,club,licence\nAnna,K,LV-1\nJānis,K,LV-1\n".encode(), id="twice"),
            pytest.param(b"\xef\xbb\xbf\xff\xfe", id="a byte order mark then garbage"),
            pytest.param(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n", id="a PDF"),
        ],
    )
    def test_player_import_upload(self, staff, content):
        url = reverse("organise:player_import")
        for step in ({}, {"confirm": "1"}):
            before = database_state()
            upload = io.BytesIO(content)
            upload.name = "players.csv"
            response = staff.post(url, {"file": upload, **step})
            assert response.status_code < 500
            if step:  # importing it: refused and nothing written, or written harmlessly
                if database_state() != before:  # what the preview showed, nothing binary
                    stored = Player.objects.values_list("full_name", "licence_number")
                    assert not any(
                        character < " " for name, licence in stored for character in name + licence
                    )
                    assert_escaped(staff.get(reverse("organise:players")), "players")
                else:
                    assert error_shown(response)
            else:
                assert database_state() == before  # a preview writes nothing

    def test_player_import_pasted_text(self, staff):
        url = reverse("organise:player_import")
        for text in ("", "   ", NUL_TEXT, "a;b;c;d;e\n", f"{SCRIPT},{IMG},<b>1</b>\n"):
            before = database_state()
            response = staff.post(url, {"text": text})
            assert response.status_code < 500
            assert database_state() == before
            if text == NUL_TEXT:
                assert response.status_code == 400  # refused before the import reads it
            else:
                assert_escaped(response, f"preview of {text[:20]!r}")
        before = database_state()
        response = staff.post(url, {"text": "Anna,Klubs\n" * 300_000})  # 3.3 MB of form
        assert 400 <= response.status_code < 500  # the request size limit
        assert database_state() == before
        response = staff.post(url, {"text": f"{SCRIPT},{IMG},<b>1</b>\n", "confirm": "1"})
        assert response.status_code == 302
        player = Player.objects.get(full_name=SCRIPT)
        assert (player.club.name, player.licence_number) == (IMG, "<b>1</b>")

    def test_registrations_create_unknown_players(self, staff):
        tournament = make_tournament()
        make_player()  # someone to register: the form is shown
        url = reverse("organise:registrations", args=[tournament.slug])
        for value in (*BAD_NUMBERS, "999999", SCRIPT, ["1", "abc"]):
            before = database_state()
            response = staff.post(url, {"players": value})
            assert_refused(response, before, f"players={str(value)[:40]!r}")

    def test_entry_and_withdrawal(self, staff):
        tournament = make_tournament()
        entry = Registration.objects.create(tournament=tournament, player=make_player())
        url = reverse("organise:registration_edit", args=[tournament.slug, entry.pk])
        valid = {
            "registration-team": "",
            "registration-fixed_table": "",
            "registration-first_round": "1",
        }
        cases = [
            *[{**valid, "registration-team": value} for value in (LONG_TEXT, NUL_TEXT, "x" * 81)],
            *[{**valid, "registration-fixed_table": value} for value in BAD_NUMBERS if value],
            *[{**valid, "registration-first_round": value} for value in BAD_NUMBERS],
            *[{"withdraw-after_round": value} for value in (*BAD_NUMBERS, "40000")],
        ]
        for data in cases:
            before = database_state()
            assert_refused(staff.post(url, data), before, str(data)[:80])
        assert staff.post(url, {**valid, "registration-team": SCRIPT}).status_code == 302
        entry.refresh_from_db()
        assert entry.team == SCRIPT

    def test_rounds(self, staff):
        tournament = make_tournament()
        for _ in range(7):
            Registration.objects.create(tournament=tournament, player=make_player())
        other = Registration.objects.create(tournament=make_tournament(), player=make_player())
        round_ = tournament_services.round_create(tournament=tournament)
        slug = tournament.slug
        check_in = reverse("organise:check_in", args=[slug, 1])
        generate = reverse("organise:generate", args=[slug, 1])
        swap = reverse("organise:swap", args=[slug, 1])
        for url, data in [
            *[(check_in, {"registrations": value}) for value in ("abc", str(HUGE), "-1", "999999")],
            (check_in, {"registrations": str(other.pk)}),  # another tournament's player
            *[(generate, {"mode": value}) for value in ("best", "", SCRIPT, ["mix", "x"])],
            *[(generate, {"mode": "random", "seed": value}) for value in BAD_NUMBERS if value],
            (generate, {"mode": "random", "seed": str(2**31)}),
            (swap, {"first": "abc", "second": str(HUGE)}),
        ]:
            before = database_state()
            response = staff.post(url, data, follow=True)
            assert_refused(response, before, f"{url} {str(data)[:60]}")
        round_generate_seating(round_=round_, seed=1, by=None)
        seated = list(
            Registration.objects.filter(seats__table__round=round_).values_list("pk", flat=True)
        )
        for data in (
            {"first": seated[0], "second": seated[0]},
            {"first": seated[0], "second": other.pk},
            {"first": seated[0], "second": "-1"},
            {"first": "", "second": ""},
        ):
            before = database_state()
            assert_refused(staff.post(swap, data, follow=True), before, f"swap {data}")
        tournament_services.round_publish(round_=round_, by=None)
        for confirmation in ("", LONG_TEXT, NUL_TEXT, "regenerate round 2"):
            before = database_state()
            response = staff.post(
                generate, {"mode": "random", "confirmation": confirmation}, follow=True
            )
            assert_refused(response, before, f"confirmation {confirmation[:20]!r}")

    def test_roles_and_the_audit_filter(self, staff):
        tournament = make_tournament()
        people = reverse("organise:roles", args=[tournament.slug])
        for username in ("", LONG_TEXT, NUL_TEXT, SCRIPT, "nav-tada", "'; DROP TABLE auth_user"):
            before = database_state()
            response = staff.post(people, {"username": username, "role": "referee"})
            assert_refused(response, before, f"username {username[:20]!r}")
        before = database_state()
        response = staff.post(people, {"username": "x", "role": "emperor"})
        assert_refused(response, before, "unknown role")
        audit = reverse("organise:audit", args=[tournament.slug])
        for query in (
            "table=abc&round=-1",
            f"table={HUGE}&round={HUGE}",
            "since=2026-99-99&until=yesterday",
            "action=%3Cscript%3E",
            f"player={'x' * 5000}",
            "page=abc",
            f"page={HUGE}",
            "page=-1",
        ):
            assert staff.get(f"{audit}?{query}").status_code < 500, query
        # Moments that exist here but not in UTC (the database's), at either end of the years.
        for query in (
            "since=0001-01-01T00:00",
            "until=0001-01-01T00:00",
            "since=9999-12-31T23:59&until=9999-12-31T23:59",
        ):
            response = staff.get(f"{audit}?{query}")
            assert response.status_code == 200, query
            assert 'class="errorlist' in response.content.decode(), query

    def test_table_referees_and_taking_roles_away(self, world):
        staff = world.staff()
        slug = world.tournament.slug
        world.tournament.referees.add(make_user())  # someone to assign: the form is shown
        referees = reverse("organise:referees", args=[slug, 2])
        remove = reverse("organise:role_remove", args=[slug])
        field = f"table_{world.table.pk}"
        for url, data in (
            *[
                (referees, {field: value})
                for value in ("abc", str(HUGE), "-1", str(world.chief.pk))
            ],
            (referees, {f"table_{HUGE}": "1", field: SCRIPT}),
            *[(remove, {"user": value, "role": "chief_referee"}) for value in ("x", str(HUGE))],
            (remove, {"user": str(world.chief.pk), "role": SCRIPT}),
        ):
            before = database_state()
            response = staff.post(url, data, follow=True)
            assert_refused(response, before, f"{url} {str(data)[:60]}")


class TestPublicQueries:
    @pytest.mark.parametrize("page", ["abc", str(HUGE), "-1"])
    def test_a_bad_page_of_the_player_list(self, staff, page):
        make_player()
        response = staff.get(reverse("organise:players"), {"page": page})
        assert response.status_code < 500
