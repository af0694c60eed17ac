"""Hostile input against every form, page and the engine's command line: wrong types, huge
numbers, negative tricks, unknown players and entries, very long and odd unicode, HTML and SQL in
names, malformed uploads and malformed JSON.

Each gets a clear error (a 4xx, or the form again with its message, or exit status 2 with one
line on stderr) and changes nothing, or it is stored as typed and shown escaped on every page and
printed as plain text in every PDF. Nothing ever answers 500: the clients here do not re-raise a
view's exception, they answer 500 like a server would, and every answer is checked."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from archive.export import tournament_archive
from archive.writing import tournament_import
from engine.cli import score_lines, score_one, seat_one
from engine.seating import seat_json
from scoring import services
from scoring.models import TableResult
from scoring.services import Writer
from scoring.sheet.lines import sheet_line
from scoring.simulation import table_plan
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_player,
    make_tournament,
    make_user,
    seat_keys,
)
from tournaments import services as tournament_services
from tournaments.models import Club, Entry, Player, Round, Table, TableToken, Tournament
from tournaments.rule_set import round_rule_set

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("zole")</script>'
IMG = "<img src=x onerror=alert(1)>"
# Names a person could type or paste, each at most 120 characters (Player.full_name).
HOSTILE_NAMES = (
    f"{SCRIPT} Bērziņš",
    f'"{IMG} Ozoliņa',
    "Robert'); DROP TABLE tournaments_player; -- Kalniņš",
    "\u202eņšiņzreB sināJ\u202c Anna",  # a right-to-left override and its end
    "Jā\u200dnis\u200b Zar\u200ciņš\u2060",  # zero-width joiner, space, non-joiner, word joiner
    "Z\u0336\u0321a\u0327\u035dl\u0337g\u0338o\u0336 K\u0327i\u0335k\u0334u\u0335t\u0334e\u0337",
    "Pēteris 🂡🃏 👨\u200d👩\u200d👧 Līcis",  # emoji and a joined family
    "Līga & <b>Co</b> &amp; ]]> {{ x }} {% y %}",
    "Ā" * 120,
)
# Markup that must never reach a page as markup.
RAW_MARKERS = (SCRIPT, IMG, "<b>Co</b>")
ESCAPED_SCRIPT = "&lt;script&gt;alert(&quot;zole&quot;)&lt;/script&gt;"
LONG_TEXT = "Ā" * 10_000
NUL_TEXT = "Jānis\x00Bērziņš"
HUGE = 10**30
# Wrong values for a whole number, as a form posts them.
BAD_NUMBERS = ("", "abc", "-1", str(HUGE), "1e309", "NaN", "inf", "1.5", "0x10", "9" * 5000)
DEALS = 12


def hostile_client() -> Client:
    """A client that gets a server's 500 answer instead of the view's exception."""
    return Client(raise_request_exception=False)


def database_state() -> dict[str, list[dict[str, Any]]]:
    """Every row of the project's tables and the accounts: what a refused request must leave."""
    models = [
        *apps.get_app_config("tournaments").get_models(include_auto_created=True),
        *apps.get_app_config("scoring").get_models(include_auto_created=True),
        *apps.get_app_config("ranking").get_models(include_auto_created=True),
        get_user_model(),
    ]
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in models}


def error_shown(response) -> bool:
    """The answer says what is wrong: an error status, a form's error list, an error message."""
    if 400 <= response.status_code < 500:
        return True
    content = response.content.decode(errors="replace")
    return any(sign in content for sign in ('class="errorlist', "message error", 'role="alert"'))


def assert_refused(response, before: dict[str, Any], what: str) -> None:
    assert response.status_code < 500, f"{what}: server error"
    assert error_shown(response), f"{what}: no error shown (status {response.status_code})"
    assert database_state() == before, f"{what}: something was written"


def assert_escaped(response, what: str) -> None:
    assert response.status_code == 200, f"{what}: status {response.status_code}"
    content = response.content.decode()
    for marker in RAW_MARKERS:
        assert marker not in content, f"{what}: {marker!r} reaches the page as markup"


# --- A tournament full of hostile names ---------------------------------------------------------


@dataclass
class World:
    tournament: Tournament
    players: list[Player]
    entries: list[Entry]
    round_1: Round
    round_2: Round
    table: Table  # round 2, table 1: in play
    token: TableToken
    chief: Any
    organiser: Any

    def staff(self) -> Client:
        client = hostile_client()
        client.force_login(self.organiser)
        return client


client_keys = (f"hostile-{number}" for number in itertools.count())


def play(table: Table, writer: Writer, deals: int) -> None:
    """`deals` random valid deals (penalty pules now and then) through the service."""
    keys = seat_keys(table)
    plan = table_plan(
        random.Random(table.pk),
        players=keys,
        first_dealer=keys[table.first_dealer_position - 1],
        deals=deals,
        rules=round_rule_set(table.round).rules,
    )
    for position, planned in enumerate(plan.entries, 1):
        services.deal_record(
            table=table,
            entry=planned.entry,
            position=position,
            client_key=next(client_keys),
            writer=writer,
        )


@pytest.fixture
def world() -> World:
    """Clubs, a tournament, venue, teams and nine players with hostile names; round 1 played,
    a deal corrected with a hostile reason, confirmed and closed; round 2 in play."""
    clubs = [
        Club.objects.create(name=f"{SCRIPT} klubs", city=IMG),
        Club.objects.create(name=f"{IMG} Dūzis"),
        Club.objects.create(name="Kārtis'; DROP TABLE tournaments_club; --"),
    ]
    tournament = make_tournament(
        name=f"{SCRIPT} kauss", venue=f"{IMG} zāle", teams_enabled=True, deals_per_round=DEALS
    )
    players = [
        Player.objects.create(
            full_name=name, club=clubs[index % 3], licence_number=f"<i>{index}</i>"
        )
        for index, name in enumerate(HOSTILE_NAMES)
    ]
    entries = [
        Entry.objects.create(
            tournament=tournament, player=player, team=(SCRIPT, "Komanda & <b>Co</b>")[index % 2]
        )
        for index, player in enumerate(players)
    ]
    organiser = make_organiser()
    chief = make_user()
    tournament.chief_referees.add(chief)
    round_1 = tournament_services.round_create(tournament=tournament)
    tournament_services.round_generate_seating(round_=round_1, seed=1, by=organiser)
    tournament_services.round_publish(round_=round_1, by=organiser)
    for table in round_1.tables.all():
        play(table, Writer(user=organiser), DEALS)
        first = table.deal_results.get(position=1)
        services.deal_correct(
            table=table,
            position=1,
            entry=sheet_line(first),
            base_version=1,
            client_key=next(client_keys),
            reason=f"{SCRIPT} {IMG}",
            writer=Writer(user=chief),
        )
        services.table_confirm(
            table=table, writer=Writer(user=chief), deals_seen=deals_on_sheet(table)
        )
    services.round_close(round_=round_1, writer=Writer(user=organiser))
    round_2 = tournament_services.round_create(tournament=tournament)
    tournament_services.round_generate_seating(round_=round_2, seed=2, by=organiser)
    tournament_services.round_publish(round_=round_2, by=organiser)
    table = round_2.tables.get(number=1)
    play(table, Writer(user=organiser), 2)
    return World(
        tournament=tournament,
        players=players,
        entries=entries,
        round_1=round_1,
        round_2=round_2,
        table=table,
        token=table.tokens.get(revoked_at__isnull=True),
        chief=chief,
        organiser=organiser,
    )


# --- Names are shown escaped everywhere and printed as text --------------------------------------


def organiser_pages(world: World) -> list[str]:
    slug = world.tournament.slug
    return [
        reverse("tournaments:dashboard"),
        reverse("tournaments:players"),
        reverse("tournaments:players") + "?q=%3Cscript%3E",
        reverse("tournaments:clubs"),
        reverse("tournaments:player_edit", args=[world.players[0].pk]),
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:edit", args=[slug]),
        reverse("tournaments:entries", args=[slug]),
        reverse("tournaments:entry_edit", args=[slug, world.entries[0].pk]),
        reverse("tournaments:meetings", args=[slug]),
        reverse("tournaments:round", args=[slug, 1]),
        reverse("tournaments:round", args=[slug, 2]),
        reverse("tournaments:roles", args=[slug]),
        reverse("tournaments:referees", args=[slug, 2]),
        reverse("tournaments:audit", args=[slug]),
        reverse("tournaments:audit", args=[slug]) + "?player=%3Cscript%3E",
        reverse("entry:table_sheet", args=[world.table.pk]),
        reverse("entry:table_sheet", args=[world.round_1.tables.first().pk]),
        reverse("entry:table_sheet", args=[world.table.pk]) + "?correct=1",
    ]


def public_pages(world: World) -> list[str]:
    slug = world.tournament.slug
    return [
        reverse("home"),
        reverse("public:tournament", args=[slug]),
        reverse("public:round", args=[slug, 1]),
        reverse("public:round", args=[slug, 2]),
        reverse("public:round", args=[slug, 1]) + "?q=%3Cscript%3E",
        reverse("public:table", args=[slug, 1, 1]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings", args=[slug]) + "?round=1",
        reverse("public:standings", args=[slug]) + "?provisional=1",
        reverse("public:player", args=[world.players[0].pk]),
        reverse("public:player", args=[world.players[7].pk]),
        reverse("entry:token_sheet", args=[world.token.token]),
        reverse("public:display", args=[slug]),
    ]


class TestNamesAreHarmless:
    def test_every_page_shows_them_escaped(self, world):
        staff, public = world.staff(), hostile_client()
        for client, urls in ((staff, organiser_pages(world)), (public, public_pages(world))):
            for url in urls:
                response = client.get(url)
                assert_escaped(response, url)
                # Shown, not dropped: every page names the tournament, a player or a club.
                assert ESCAPED_SCRIPT in response.content.decode(), url

    def test_the_htmx_part_of_the_standings_is_escaped(self, world):
        response = hostile_client().get(
            reverse("public:standings", args=[world.tournament.slug]), HTTP_HX_REQUEST="true"
        )
        assert_escaped(response, "standings (htmx)")
        assert ESCAPED_SCRIPT in response.content.decode()

    def test_the_htmx_part_of_the_hall_display_is_escaped(self, world):
        response = hostile_client().get(
            reverse("public:display", args=[world.tournament.slug]), HTTP_HX_REQUEST="true"
        )
        assert_escaped(response, "display (htmx)")
        assert ESCAPED_SCRIPT in response.content.decode()

    def test_the_pdfs_print_them_as_plain_text(self, world):
        slug = world.tournament.slug
        staff, public = world.staff(), hostile_client()
        documents = {
            "sheets": staff.get(reverse("documents:round_sheets_pdf", args=[slug, 2])),
            "blank sheets": staff.get(
                reverse("documents:round_sheets_pdf", args=[slug, 1]) + "?blank=1"
            ),
            "seating": public.get(reverse("documents:round_seating_pdf", args=[slug, 2])),
            "standings": public.get(reverse("documents:standings_pdf", args=[slug])),
            "standings after round 1": public.get(
                reverse("documents:standings_pdf", args=[slug]) + "?round=1"
            ),
        }
        for name, response in documents.items():
            assert response.status_code == 200, name
            assert response["Content-Type"] == "application/pdf", name
            text = "\n".join(
                page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages
            )
            # The markup is printed as the characters typed (the tournament's name and venue
            # head every page), never interpreted.
            assert f"{SCRIPT} kauss" in text and f"{IMG} zāle" in text, name
            assert "DROP TABLE" in text, name

    def test_the_standings_exports_carry_them_as_data(self, world):
        url = reverse("public:standings", args=[world.tournament.slug])
        response = hostile_client().get(url + "?_export=csv")
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert any(f"{SCRIPT} Bērziņš" in cell for row in rows for cell in row)
        assert hostile_client().get(url + "?_export=xlsx").status_code == 200

    def test_the_archive_keeps_them_exactly(self, world):
        archive = tournament_archive(world.tournament)
        copy_ = tournament_import(json.loads(json.dumps(archive)), slug="kopija")
        again = tournament_archive(copy_)
        assert [player["name"] for player in again["players"]] == list(HOSTILE_NAMES)
        assert [table["sheet"] for round_ in again["rounds"] for table in round_["tables"]] == [
            table["sheet"] for round_ in archive["rounds"] for table in round_["tables"]
        ]

    @pytest.mark.parametrize("name", HOSTILE_NAMES)
    def test_the_forms_store_them_as_typed(self, name):
        organiser = make_organiser()
        client = hostile_client()
        client.force_login(organiser)
        response = client.post(reverse("tournaments:clubs"), {"name": name, "city": name[:120]})
        assert response.status_code == 302
        club = Club.objects.get(name=name)
        response = client.post(
            reverse("tournaments:player_create"),
            {"full_name": name, "club": club.pk, "licence_number": "", "is_active": "on"},
        )
        assert response.status_code == 302
        assert Player.objects.get(full_name=name).club == club
        for url in (reverse("tournaments:clubs"), reverse("tournaments:players")):
            assert_escaped(client.get(url), url)


# --- Organiser forms ------------------------------------------------------------------------


@pytest.fixture
def staff() -> Client:
    client = hostile_client()
    client.force_login(make_organiser())
    return client


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
]


class TestOrganiserForms:
    @pytest.mark.parametrize("editing", [False, True], ids=["create", "edit"])
    def test_tournament_settings(self, staff, editing):
        tournament = make_tournament(slug="esosais") if editing else None
        url = (
            reverse("tournaments:edit", args=["esosais"])
            if editing
            else reverse("tournaments:create")
        )
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
        url = reverse("tournaments:edit", args=["esosais"])
        before = database_state()
        response = staff.post(url, {**TOURNAMENT_FORM, "name": name, "slug": slug})
        assert_refused(response, before, f"name {name!r}, slug {slug!r}")
        content = response.content.decode()
        assert reverse("tournaments:detail", args=["esosais"]) in content
        assert "Esošais kauss" in content

    def test_a_taken_slug_is_refused(self, staff):
        make_tournament(slug="cesu-kauss")
        before = database_state()
        assert_refused(
            staff.post(reverse("tournaments:create"), TOURNAMENT_FORM), before, "taken slug"
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
            reverse("tournaments:player_create"),
            reverse("tournaments:player_edit", args=[existing.pk]),
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
            assert_refused(staff.post(reverse("tournaments:clubs"), data), before, str(data)[:60])

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
        url = reverse("tournaments:player_import")
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
                    assert_escaped(staff.get(reverse("tournaments:players")), "players")
                else:
                    assert error_shown(response)
            else:
                assert database_state() == before  # a preview writes nothing

    def test_player_import_pasted_text(self, staff):
        url = reverse("tournaments:player_import")
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

    def test_entries_register_unknown_players(self, staff):
        tournament = make_tournament()
        make_player()  # someone to register: the form is shown
        url = reverse("tournaments:entries", args=[tournament.slug])
        for value in (*BAD_NUMBERS, "999999", SCRIPT, ["1", "abc"]):
            before = database_state()
            response = staff.post(url, {"players": value})
            assert_refused(response, before, f"players={str(value)[:40]!r}")

    def test_entry_and_withdrawal(self, staff):
        tournament = make_tournament()
        entry = Entry.objects.create(tournament=tournament, player=make_player())
        url = reverse("tournaments:entry_edit", args=[tournament.slug, entry.pk])
        valid = {"entry-team": "", "entry-fixed_table": "", "entry-first_round": "1"}
        cases = [
            *[{**valid, "entry-team": value} for value in (LONG_TEXT, NUL_TEXT, "x" * 81)],
            *[{**valid, "entry-fixed_table": value} for value in BAD_NUMBERS if value],
            *[{**valid, "entry-first_round": value} for value in BAD_NUMBERS],
            *[{"withdraw-after_round": value} for value in (*BAD_NUMBERS, "40000")],
        ]
        for data in cases:
            before = database_state()
            assert_refused(staff.post(url, data), before, str(data)[:80])
        assert staff.post(url, {**valid, "entry-team": SCRIPT}).status_code == 302
        entry.refresh_from_db()
        assert entry.team == SCRIPT

    def test_rounds(self, staff):
        tournament = make_tournament()
        for _ in range(7):
            Entry.objects.create(tournament=tournament, player=make_player())
        other = Entry.objects.create(tournament=make_tournament(), player=make_player())
        round_ = tournament_services.round_create(tournament=tournament)
        slug = tournament.slug
        check_in = reverse("tournaments:check_in", args=[slug, 1])
        generate = reverse("tournaments:generate", args=[slug, 1])
        swap = reverse("tournaments:swap", args=[slug, 1])
        for url, data in [
            *[(check_in, {"entries": value}) for value in ("abc", str(HUGE), "-1", "999999")],
            (check_in, {"entries": str(other.pk)}),  # another tournament's player
            *[(generate, {"mode": value}) for value in ("best", "", SCRIPT, ["mix", "x"])],
            *[(generate, {"mode": "random", "seed": value}) for value in BAD_NUMBERS if value],
            (generate, {"mode": "random", "seed": str(2**31)}),
            (swap, {"first": "abc", "second": str(HUGE)}),
        ]:
            before = database_state()
            response = staff.post(url, data, follow=True)
            assert_refused(response, before, f"{url} {str(data)[:60]}")
        tournament_services.round_generate_seating(round_=round_, seed=1, by=None)
        seated = list(Entry.objects.filter(seats__table__round=round_).values_list("pk", flat=True))
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
        people = reverse("tournaments:roles", args=[tournament.slug])
        for username in ("", LONG_TEXT, NUL_TEXT, SCRIPT, "nav-tada", "'; DROP TABLE auth_user"):
            before = database_state()
            response = staff.post(people, {"username": username, "role": "referee"})
            assert_refused(response, before, f"username {username[:20]!r}")
        before = database_state()
        response = staff.post(people, {"username": "x", "role": "emperor"})
        assert_refused(response, before, "unknown role")
        audit = reverse("tournaments:audit", args=[tournament.slug])
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
        referees = reverse("tournaments:referees", args=[slug, 2])
        remove = reverse("tournaments:role_remove", args=[slug])
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

    def test_addresses_with_huge_or_odd_numbers_are_not_found(self, staff):
        tournament = make_tournament()
        for url in (
            f"/organise/players/{HUGE}/",
            f"/organise/t/{tournament.slug}/entries/{HUGE}/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/",
            f"/organise/tables/{HUGE}/sheet/",
            f"/players/{HUGE}/",
            f"/t/{tournament.slug}/rounds/{HUGE}/",
            f"/t/{tournament.slug}/rounds/1/tables/{HUGE}/",
            f"/t/{tournament.slug}/rounds/{HUGE}/seating.pdf",
            f"/t/{tournament.slug}/rounds/{HUGE}/sheets.pdf",
            "/t/%3Cscript%3E/",
            "/r/%3Cscript%3E/",
            f"/r/{'x' * 5000}/",
            "/r/'%3B%20DROP%20TABLE%20tournaments_tabletoken%3B--/",
        ):
            assert staff.get(url).status_code == 404, url
        for url in (
            f"/organise/tables/{HUGE}/link/new/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/publish/",
            f"/organise/t/{tournament.slug}/rounds/{HUGE}/close/",
        ):
            assert staff.post(url).status_code == 404, url


# --- The table's sheet --------------------------------------------------------------------------


class TestSheetForms:
    def post_all(self, client: Client, url: str, cases: list[dict[str, Any]]) -> None:
        for data in cases:
            before = database_state()
            assert_refused(client.post(url, data), before, f"{url} {str(data)[:100]}")

    def test_deals(self, world):
        url = reverse("entry:token_sheet", args=[world.token.token])
        keys = seat_keys(world.table)
        other_table = world.round_2.tables.get(number=2)
        stranger = seat_keys(other_table)[0]
        valid = {
            "action": "deal",
            "deal-position": "3",
            "deal-client_key": "hostile-deal",
            "deal-game": "lielais",
            "deal-declarer": keys[1],
            "deal-points": "80",
            "deal-tricks": "6",
        }
        cases = [
            *[{**valid, "deal-points": value} for value in (*BAD_NUMBERS, "121", "1")],
            *[{**valid, "deal-tricks": value} for value in (*BAD_NUMBERS, "9", "-8")],
            *[{**valid, "deal-game": value} for value in ("", "grand", SCRIPT, "LIELAIS")],
            *[
                {**valid, "deal-declarer": value}
                for value in ("", stranger, str(HUGE), "-1", SCRIPT, "'; DROP TABLE x; --")
            ],
            *[{**valid, "deal-position": value} for value in ("", "abc", "0", "-1", "1e309")],
            *[
                {**valid, "deal-client_key": value}
                for value in ("", "x" * 65, "ā" * 10, SCRIPT, "a b", NUL_TEXT)
            ],
            {**valid, "deal-game": "maza_zole"},  # not played under these rules
            {**valid, "deal-game": "galdins"},
            {"action": SCRIPT},
            {"action": ""},
            {},
        ]
        client = hostile_client()
        self.post_all(client, url, cases)
        assert client.post(url, valid).status_code == 302  # the deal itself is fine
        assert world.table.deal_results.filter(position=3, client_key="hostile-deal").exists()

    def test_penalties_corrections_removal_confirmation(self, world):
        url = reverse("entry:token_sheet", args=[world.token.token])
        keys = seat_keys(world.table)
        penalty = {
            "action": "penalty",
            "penalty-position": "3",
            "penalty-client_key": "hostile-penalty",
            "penalty-player": keys[0],
        }
        fix = {
            "action": "correct",
            "fix-position": "1",
            "fix-base_version": "1",
            "fix-client_key": "hostile-fix",
            "fix-game": "pass",
            "fix-reason": "kļūda",
        }
        remove = {
            "action": "remove",
            "remove-position": "2",
            "remove-base_version": "1",
            "remove-client_key": "hostile-remove",
            "remove-reason": "divreiz",
        }
        cases = [
            *[{**penalty, "penalty-player": v} for v in ("", "999999", str(HUGE), SCRIPT)],
            *[{**fix, "fix-position": value} for value in ("abc", str(HUGE), "-1", "99")],
            *[{**fix, "fix-base_version": value} for value in (*BAD_NUMBERS, "0")],
            *[{**fix, "fix-reason": value} for value in ("", "  ", LONG_TEXT, NUL_TEXT)],
            *[{**remove, "remove-position": value} for value in ("1", str(HUGE), "abc")],
            *[{**remove, "remove-reason": value} for value in ("", LONG_TEXT, NUL_TEXT)],
            {**remove, "remove-base_version": str(HUGE)},
            {"action": "confirm", "confirm-confirmer": keys[0]},  # 2 of 12 deals
            *[
                {"action": "confirm", "confirm-confirmer": keys[0], "confirm-deals": value}
                for value in ("abc", "-1", str(HUGE), "2", NUL_TEXT)
            ],
            {"action": "confirm", "confirm-confirmer": SCRIPT},
            {"action": "unlock", "unlock-reason": SCRIPT},  # not the chief referee
        ]
        client = hostile_client()
        self.post_all(client, url, cases)
        assert client.post(url, penalty).status_code == 302  # the penalty itself is fine
        show = hostile_client()
        for value in ("abc", str(HUGE), "-1", "0", "1e309", SCRIPT, "99", "²", "9" * 5000):
            response = show.get(url, {"correct": value})
            assert response.status_code < 500, value
            assert "This entry cannot be corrected now." in response.content.decode(), value

    def test_the_chief_referees_unlock(self, world):
        table = world.round_1.tables.first()
        Round.objects.filter(pk=world.round_1.pk).update(status="in_play")  # open again
        client = hostile_client()
        client.force_login(world.chief)
        url = reverse("entry:table_sheet", args=[table.pk])
        cases = [
            {"action": "unlock", "unlock-reason": value} for value in ("", "   ", LONG_TEXT)
        ] + [{"action": "unlock", "unlock-reason": NUL_TEXT}]
        self.post_all(client, url, cases)
        response = client.post(url, {"action": "unlock", "unlock-reason": SCRIPT})
        assert response.status_code == 302
        assert not TableResult.objects.filter(table=table).exists()
        audit_log = reverse("tournaments:audit", args=[world.tournament.slug])
        assert_escaped(world.staff().get(audit_log), "audit log")

    def test_galdins_fields(self):
        tournament = make_tournament(all_pass="galdins", deals_per_round=DEALS)
        for _ in range(3):
            Entry.objects.create(tournament=tournament, player=make_player())
        round_ = tournament_services.round_create(tournament=tournament)
        tournament_services.round_generate_seating(round_=round_, seed=1, by=None)
        tournament_services.round_publish(round_=round_, by=None)
        table = round_.tables.get()
        keys = seat_keys(table)
        url = reverse("entry:token_sheet", args=[table.tokens.get().token])
        base = {
            "action": "deal",
            "deal-position": "1",
            "deal-client_key": "galdins-1",
            "deal-game": "galdins",
            **{f"deal-tricks_{key}": "3" for key in keys[:2]},
            **{f"deal-points_{key}": "40" for key in keys[:2]},
            f"deal-tricks_{keys[2]}": "2",
            f"deal-points_{keys[2]}": "40",
        }
        cases = [
            *[{**base, f"deal-tricks_{keys[0]}": value} for value in BAD_NUMBERS],
            *[{**base, f"deal-points_{keys[1]}": value} for value in (*BAD_NUMBERS, "121")],
            {**base, f"deal-tricks_{keys[2]}": "7"},  # 13 tricks in a deal of 8
            {**base, "deal-tricks_999999": "1"},  # an unknown player's box is ignored
        ]
        client = hostile_client()
        for data in cases[:-1]:
            before = database_state()
            assert_refused(client.post(url, data), before, str(data)[:100])
        assert client.post(url, cases[-1]).status_code == 302  # the stranger's box ignored
        assert table.deal_results.get().galdins == {
            "tricks": {keys[0]: 3, keys[1]: 3, keys[2]: 2},
            "points": {keys[0]: 40, keys[1]: 40, keys[2]: 40},
        }


# --- Public pages ---------------------------------------------------------------------------


class TestPublicQueries:
    def test_odd_query_strings(self, world):
        slug = world.tournament.slug
        client = hostile_client()
        long_text = "x" * 5000
        queries = {
            reverse("public:round", args=[slug, 1]): [
                f"q={long_text}",
                "q=%3Cscript%3E",
                "q=%27%3B%20DROP%20TABLE%20x%3B--",
                "q=%E2%80%AE%F0%9F%83%8F",
                "q=%25%5F%5C",
            ],
            reverse("public:standings", args=[slug]): [
                "round=abc",
                f"round={HUGE}",
                "round=-1",
                "round=1e309",
                "provisional=%3Cscript%3E",
                "page=abc",
                f"page={HUGE}",
                "page=-1",
                "sort=%3Cscript%3E",
                "sort=-nonexistent",
                f"sort={long_text}",
                "_export=exe",
                "_export=%3Cscript%3E",
                "team-sort=%27",
                "team-page=-1",
            ],
            reverse("documents:standings_pdf", args=[slug]): ["round=abc", "round=-1", "round=0"],
            reverse("documents:round_sheets_pdf", args=[slug, 1]): ["blank=%3Cscript%3E"],
            reverse("tournaments:players"): ["q=%3Cscript%3E", f"q={long_text}"],
        }
        staff = world.staff()
        for url, strings in queries.items():
            for query in strings:
                response = staff.get(f"{url}?{query}")
                assert response.status_code < 500, f"{url}?{query[:60]}"
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    assert_escaped(response, f"{url}?{query[:60]}")
        assert client.get(reverse("public:standings", args=[slug]) + "?round=1").status_code == 200

    @pytest.mark.parametrize("per_page", ["-1", "0", "-0", "²", "٣", str(HUGE), "9" * 5000])
    def test_rows_per_page(self, world, per_page):
        """Rows per page are a whole number from 1 to the page's most; anything else is a plain
        404, for the public (not signed in) and the organiser alike."""
        slug = world.tournament.slug
        pages = {
            reverse("public:standings", args=[slug]): hostile_client(),
            reverse("tournaments:players"): world.staff(),
            reverse("ranking:season"): hostile_client(),
        }
        for url, client in pages.items():
            response = client.get(url, {"per_page": per_page})
            assert response.status_code == 404, f"{url}?per_page={per_page[:20]}"
            assert client.get(url, {"per_page": "5"}).status_code == 200, url

    @pytest.mark.parametrize("page", ["abc", str(HUGE), "-1"])
    def test_a_bad_page_of_the_player_list(self, staff, page):
        make_player()
        response = staff.get(reverse("tournaments:players"), {"page": page})
        assert response.status_code < 500

    @pytest.mark.parametrize("page", ["public round", "organiser players"])
    def test_a_nul_in_a_search(self, world, page):
        """PostgreSQL cannot hold a NUL in text: a search for one is refused, never a 500."""
        url = {
            "public round": reverse("public:round", args=[world.tournament.slug, 1]),
            "organiser players": reverse("tournaments:players"),
        }[page]
        assert world.staff().get(url, {"q": "Jā\x00nis"}).status_code < 500

    def test_sign_in_with_garbage(self):
        make_user(username="tiesnesis")
        client = hostile_client()
        for username, password in (
            (LONG_TEXT, LONG_TEXT),
            (NUL_TEXT, "x"),
            (SCRIPT, SCRIPT),
            ("' OR '1'='1", "' OR '1'='1"),
            ("tiesnesis", ""),
            (["a", "b"], "x"),
        ):
            before = database_state()
            response = client.post(reverse("login"), {"username": username, "password": password})
            assert response.status_code < 500, str(username)[:20]
            assert database_state() == before
            if response.status_code == 200:
                assert_escaped(response, "sign-in page")


# --- The engine's command line --------------------------------------------------------------

SHEET = {"players": ["Anna", "Jānis", "Pēteris"]}


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def with_deal(deal: str) -> bytes:
    return ('{"players": ["a", "b", "c"], "deals": [' + deal + "]}").encode()


BAD_SHEETS: dict[str, bytes] = {
    "empty": b"",
    "binary": bytes(range(256)),
    "not JSON": b"{players: [a]}",
    "truncated": b'{"players": ["a", "b", "c"], "deals": [{"game": "pass"}',
    "a list": b"[1, 2, 3]",
    "a string": b'"sheet"',
    "null": b"null",
    "deep nesting": deep(100_000).encode(),
    "deep but parsable": ('{"players": ' + deep(900) + "}").encode(),
    "deep in a deal": with_deal('{"game": ' + deep(900) + "}"),
    "a number of 5000 digits": with_deal(
        '{"game": "zole", "declarer": "a", "points": ' + "9" * 5000 + ', "tricks": 5}'
    ),
    "a huge number": with_deal(
        f'{{"game": "zole", "declarer": "a", "points": {HUGE}, "tricks": 5}}'
    ),
    "NaN": with_deal('{"game": "zole", "declarer": "a", "points": NaN, "tricks": 5}'),
    "Infinity": with_deal('{"game": "zole", "declarer": "a", "points": 60, "tricks": Infinity}'),
    "1e309": with_deal('{"game": "zole", "declarer": "a", "points": 1e309, "tricks": 5}'),
    "negative tricks": with_deal(
        '{"game": "lielais", "declarer": "a", "points": 60, "tricks": -1}'
    ),
    "a fraction": with_deal('{"game": "lielais", "declarer": "a", "points": 60.5, "tricks": 5}'),
    "true as tricks": with_deal(
        '{"game": "lielais", "declarer": "a", "points": 60, "tricks": true}'
    ),
    "an unknown player": with_deal(
        '{"game": "lielais", "declarer": "x", "points": 60, "tricks": 5}'
    ),
    "a list as player": with_deal('{"penalty": "personal_pule", "player": ["a"]}'),
    "a lone surrogate": b'{"players": ["a\\ud800", "b", "c"]}',
    "a lone surrogate in an error": with_deal('{"game": "\\udfff"}'),
    "players an object": b'{"players": {"a": 1}}',
    "unknown field": b'{"players": ["a", "b", "c"], "drop": "table"}',
    "rules wrong": b'{"players": ["a", "b", "c"], "rules": {"all_pass": ["pule"]}}',
}


def seating(players: str = '[{"id": "a"}, {"id": "b"}, {"id": "c"}]', **fields: str) -> bytes:
    """A seating request with these players and fields, both as raw JSON text."""
    extra = "".join(f', "{name}": {value}' for name, value in fields.items())
    return f'{{"players": {players}{extra}}}'.encode()


BAD_SEATINGS: dict[str, bytes] = {
    "empty": b"",
    "binary": bytes(range(256)),
    "deep nesting": deep(100_000).encode(),
    "deep history": seating(history=deep(900)),
    "a number of 5000 digits": seating(seed="9" * 5000),
    "NaN seed": seating(seed="NaN"),
    "huge rounds": seating(mode='"mix"', rounds=str(HUGE)),
    "rounds 1e309": seating(rounds="1e309"),
    "negative rounds": seating(rounds="-1"),
    "score Infinity": seating('[{"id": "a", "score": Infinity}, {"id": "b"}, {"id": "c"}]'),
    "id a list": seating('[{"id": ["a"]}, {"id": "b"}, {"id": "c"}]'),
    "a lone surrogate id": seating('[{"id": "\\ud800"}, {"id": "\\ud800"}, {"id": "c"}]'),
    "fixed table huge": seating(
        f'[{{"id": "a", "fixed_table": {HUGE}}}, {{"id": "b"}}, {{"id": "c"}}]'
    ),
    "two players": seating('[{"id": "a"}, {"id": "b"}]'),
}


def run_cli(command: Callable[..., int], raw: bytes) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.BytesIO()
    status = command(raw, out, err)
    return status, out.getvalue(), err.getvalue().decode("utf-8", errors="replace")


class TestNulCharacters:
    """PostgreSQL text cannot hold a NUL character. A request that carries one anywhere (its
    address, a query parameter's name or value, a form field, a cookie) is refused with 400
    before any page reads it, says where the NUL is and changes nothing."""

    def test_it_is_refused_wherever_it_is(self, world):
        slug = world.tournament.slug
        token = world.token.token
        players = reverse("tournaments:players")
        upload = ("players.csv", b"Anna Liepa;Klubs;\n", "text/csv")

        def multipart(client: Client) -> Any:
            file = io.BytesIO(upload[1])
            file.name = upload[0]
            return client.post(reverse("tournaments:player_import"), {"file": file, "x": "\x00"})

        attempts: dict[str, tuple[str, Callable[[Client], Any]]] = {
            "a table link": ("The address", lambda c: c.get("/r/%00/")),
            "after a table link": ("The address", lambda c: c.get(f"/r/{token}%00/")),
            "a public search": (
                "“q”",
                lambda c: c.get(reverse("public:round", args=[slug, 1]), {"q": "Jā\x00nis"}),
            ),
            "an organiser search": ("“q”", lambda c: c.get(players + "?q=%00")),
            "a ranking filter": (
                "“club”",
                lambda c: c.get(reverse("ranking:season") + "?club=%00"),
            ),
            "a parameter's name": ("“␀”", lambda c: c.get(players + "?%00=1")),
            "a form field": (
                "“full_name”",
                lambda c: c.post(reverse("tournaments:player_create"), {"full_name": NUL_TEXT}),
            ),
            "a multipart field": ("“x”", multipart),
            "a deal at a table": ("“action”", lambda c: c.post(f"/r/{token}/", {"action": "\x00"})),
            "a sign-in": (
                "“username”",
                lambda c: c.post(reverse("login"), {"username": NUL_TEXT, "password": "x"}),
            ),
            "a session cookie": (
                "“sessionid”",
                lambda c: c.get("/", HTTP_COOKIE="sessionid=abcdefgh\x00ijk"),
            ),
        }
        client = world.staff()  # signed in (which writes) before the state is taken
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        before = database_state()
        for what, (where, attempt) in attempts.items():
            response = attempt(client)
            assert response.status_code == 400, f"{what}: {response.status_code}"
            content = response.content.decode()
            assert "NUL" in content and where in content, f"{what}: does not say where"
            assert database_state() == before, f"{what}: something was written"


class TestRankingAndLanguage:
    """The season pages, a final's invitations and qualifiers, the ranking lists' queries and
    the language switcher."""

    @pytest.fixture
    def season(self):
        from ranking.models import Season

        Season.objects.all().delete()
        return Season.objects.create(
            name="2026",
            starts_on="2026-01-01",
            ends_on="2026-12-31",
            points_table={"national": [100, 85, 75], "district": [50, 42], "club": [20, 16]},
        )

    def season_form(self, **changes: object) -> dict[str, object]:
        data: dict[str, object] = {
            "name": "2027",
            "starts_on": "2027-01-01",
            "ends_on": "2027-12-31",
            "best_k": 5,
            "qualifiers": 18,
            "points_national": "100, 85, 75",
            "points_district": "50, 42, 36",
            "points_club": "20, 16, 13",
        }
        data.update(changes)
        return data

    def test_season_forms(self, staff, season):
        bad_fields = [
            *(("best_k", value) for value in BAD_NUMBERS),
            *(("qualifiers", value) for value in BAD_NUMBERS),
            ("name", ""),
            ("name", LONG_TEXT),
            ("name", NUL_TEXT),
            ("starts_on", "2027-02-30"),
            ("starts_on", "<script>"),
            ("ends_on", "2026-01-01"),  # before the start
            *(
                ("points_national", value)
                for value in (
                    "abc",
                    "100, -5",
                    "100, 120",  # more for 2nd than for 1st
                    str(HUGE),
                    "1e309",
                    ", ".join(["1"] * 5000),
                    SCRIPT,
                    NUL_TEXT,
                )
            ),
        ]
        for url in (
            reverse("ranking:season_create"),
            reverse("ranking:season_edit", args=[season.pk]),
        ):
            for name, value in bad_fields:
                before = database_state()
                response = staff.post(url, self.season_form(**{name: value}))
                assert_refused(response, before, f"{url} {name}={str(value)[:40]!r}")
        assert staff.post(reverse("ranking:season_create"), self.season_form()).status_code == 302

    def test_invitations_and_qualifiers(self, staff, season):
        final = make_tournament(slug="finals", level="national")
        player = make_player(full_name="Titula Turētāja")
        query = f"?season={season.pk}"
        invite = reverse("ranking:invite", args=["finals"]) + query
        withdraw = reverse("ranking:withdraw", args=["finals"]) + query
        good = {"player": player.pk, "reason": "title holder", "scope": "final"}
        bad = [
            *({**good, "player": value} for value in BAD_NUMBERS),
            {**good, "player": "999999"},
            {**good, "reason": LONG_TEXT},
            {**good, "scope": "everything"},
            {**good, "scope": SCRIPT},
            {},
        ]
        for data in bad:
            before = database_state()
            response = staff.post(invite, data)
            assert_refused(response, before, f"invite {str(data)[:60]}")
        for value in (*BAD_NUMBERS, "999999"):
            before = database_state()
            # Refused with a message on the qualification page it goes back to.
            response = staff.post(withdraw, {"invitation": value}, follow=True)
            assert_refused(response, before, f"withdraw {value[:40]!r}")
        # A reason with markup is stored as typed and shown escaped.
        response = staff.post(invite, {**good, "reason": SCRIPT})
        assert response.status_code == 302
        page = staff.get(reverse("ranking:qualification", args=["finals"]) + query)
        assert_escaped(page, "qualification page")
        assert ESCAPED_SCRIPT in page.content.decode()
        for odd in ("season=abc", f"season={HUGE}", "season=-1", "q=%00", f"q={'x' * 5000}"):
            url = reverse("ranking:qualification", args=[final.slug]) + f"?{odd}"
            assert staff.get(url).status_code < 500, odd
            assert staff.post(url).status_code < 500, odd

    def test_the_ranking_lists_odd_queries(self, season):
        client = hostile_client()
        odd = (
            "season=abc",
            f"season={HUGE}",
            "season=-1",
            "club=abc",
            f"club={HUGE}",
            "club=%00",
            "page=abc",
            f"page={HUGE}",
            "per_page=0",
            f"per_page={HUGE}",
            "sort=%3Cscript%3E",
            f"sort={'x' * 5000}",
            "_export=exe",
            "_export=%3Cscript%3E",
        )
        for url in (reverse("ranking:season"), reverse("ranking:rating")):
            for query in odd:
                response = client.get(f"{url}?{query}")
                assert response.status_code < 500, f"{url}?{query[:60]}"
                if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
                    assert_escaped(response, f"{url}?{query[:60]}")

    def test_the_language_switcher(self):
        client = hostile_client()
        for code in ("de", "LV", "%3Cscript%3E", "lv-x", "x" * 5000):
            assert client.get(f"/language/{code}/").status_code == 404, code[:40]
        for next_url in (
            "https://evil.example/",
            "//evil.example",
            "/\\evil.example",
            "javascript:alert(1)",
            "x" * 5000,
        ):
            response = client.get(reverse("language", args=["ru"]), {"next": next_url})
            assert response.status_code == 302, next_url[:40]
            assert response.url.startswith("/") and not response.url.startswith("//")
            assert "evil" not in response.url


class TestEngineCommandLine:
    @pytest.mark.parametrize("name", BAD_SHEETS)
    def test_score_refuses_with_one_line(self, name):
        status, out, err = run_cli(score_one, BAD_SHEETS[name])
        assert (status, out) == (2, b""), name
        assert err.endswith("\n") and err.count("\n") == 1 and len(err) > 10, err

    @pytest.mark.parametrize("name", BAD_SHEETS)
    def test_score_jsonl_answers_an_error_line(self, name):
        raw = BAD_SHEETS[name].replace(b"\n", b" ") + b"\n" + json.dumps(SHEET).encode()
        status, out, _err = run_cli(score_lines, raw)
        assert status == 0
        lines = [json.loads(line) for line in out.decode().splitlines()]
        if BAD_SHEETS[name].strip():
            assert "error" in lines[0] and "totals" in lines[-1], name
        else:
            assert len(lines) == 1 and "totals" in lines[0]

    @pytest.mark.parametrize("name", BAD_SEATINGS)
    def test_seat_refuses_with_one_line(self, name):
        status, out, err = run_cli(seat_one, BAD_SEATINGS[name])
        assert (status, out) == (2, b""), name
        assert err.endswith("\n") and err.count("\n") == 1 and len(err) > 10, err

    def test_the_plan_of_a_mix_is_bounded(self):
        players = [{"id": f"p{n}"} for n in range(6)]
        with pytest.raises(ValueError, match="rounds"):
            seat_json({"players": players, "mode": "mix", "rounds": 10_000})

    @pytest.mark.parametrize(
        "command, raw",
        [
            (["score"], b"[" * 100_000),
            (["score"], with_deal('{"game": "zole", "points": ' + "9" * 5000 + "}")),
            (["score"], b'{"players": ["a\\ud800", "b", "c"]}'),
            (["score", "--jsonl"], b"\xff\xfe\n{}\n"),
            (["seat"], b'{"players": [{"id": "a"}], "mode": "mix", "rounds": 1e309}'),
        ],
    )
    def test_the_real_command_line(self, command, raw):
        finished = subprocess.run(
            [sys.executable, "-m", "engine", *command, "-"],
            input=raw,
            capture_output=True,
            cwd=settings.BASE_DIR,
            timeout=60,
        )
        stderr = finished.stderr.decode()
        assert "Traceback" not in stderr
        if "--jsonl" in command:
            assert finished.returncode == 0
            assert all("error" in json.loads(line) for line in finished.stdout.splitlines())
        else:
            assert finished.returncode == 2 and finished.stdout == b""
            assert stderr.count("\n") == 1, stderr
