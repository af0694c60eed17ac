"""Public pages (no login): tournaments, a tournament, a round, live standings, a player."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from engine import Pass, PenaltyPule, dealer_for
from scoring import services
from scoring.models import SeatResult, TableResult
from scoring.services import round_generate_seating
from tests.clock import fix_the_clock
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_player,
    make_published_round,
    make_registrations,
    make_tournament,
    play_round_with,
    seat_keys,
)
from tests.tournament_play import (
    confirm_with_totals,
    lielais,
    played_tournament,
    publish_next_round,
)
from tournaments import services as tournament_services
from tournaments.models import Player, Round, RoundStatus

pytestmark = pytest.mark.django_db

# The most queries the standings page and the round page may run, whatever the size. Each
# first reads the tournament's id (all a page from the cache needs), then renders.
# Standings: tournament, rounds with their table counts, entries with players and clubs,
# confirmed results; provisional adds the unconfirmed tables, their seats and their deals.
STANDINGS_QUERIES = 5
STANDINGS_PROVISIONAL_QUERIES = 8
# Round: tournament, round, rounds for the progress line, tables, seats with players, results,
# the deals of the tables confirmed when time was up (timed rounds).
ROUND_QUERIES = 8
# A confirmed table's sheet: the tournament's id, the tournament, the table (confirmed, in a
# public round), the table with its round, tournament and confirmation, its seats with the
# players, every version of its deals.
TABLE_QUERIES = 6
# Statistics: the tournament's id, the tournament, the rounds for the tabs, the rounds with
# their rules, the sum of the seat results' counts, the seat results, the deals of the confirmed
# tables, the players of the tables with the longest run of passes.
STATISTICS_QUERIES = 8


def standings_url(tournament, **params) -> str:
    url = reverse("public:standings", args=[tournament.slug])
    if params:
        url += "?" + "&".join(f"{key}={value}" for key, value in params.items())
    return url


def round_url(tournament, number: int) -> str:
    return reverse("public:round", args=[tournament.slug, number])


@pytest.fixture
def small_tournament():
    return played_tournament(players=9, rounds=2, name="Rīgas kauss", slug="rigas-kauss")


def rename_a_player(tournament, full_name: str) -> Player:
    player = tournament.registrations.order_by("pk").first().player
    player.full_name = full_name
    player.save()
    return player


class TestTournamentPages:
    def test_the_home_page_lists_tournaments_by_phase(self, client: Client, small_tournament):
        live = played_tournament(players=6, rounds=1, close=False, name="Ziemas zole")

        response = client.get("/")

        assert response.status_code == 200
        listing = response.context["listing"]
        assert live in [listed.tournament for listed in listing.in_progress]
        assert small_tournament in [listed.tournament for listed in listing.finished]
        html = response.content.decode()
        assert "Ziemas zole" in html and "Rīgas kauss" in html
        assert reverse("public:tournament", args=[live.slug]) in html

    def test_a_tournament_page_shows_its_rounds_and_progress(
        self, client: Client, small_tournament
    ):
        response = client.get(reverse("public:tournament", args=["rigas-kauss"]))

        assert response.status_code == 200
        progress = response.context["progress"]
        assert [round_.number for round_ in progress.public_rounds] == [1, 2]
        assert progress.current.confirmed_count == progress.current.table_count == 3
        html = response.content.decode()
        assert round_url(small_tournament, 2) in html
        assert standings_url(small_tournament) in html

    def test_an_unknown_tournament_is_404(self, client: Client):
        assert client.get("/t/nav-tada/").status_code == 404


class TestRoundPage:
    def test_seating_in_seat_order_with_confirmed_results(self, client: Client, small_tournament):
        round_ = small_tournament.rounds.get(number=1)

        response = client.get(round_url(small_tournament, 1))

        assert response.status_code == 200
        tables = response.context["round_tables"].tables
        assert [table.number for table in tables] == [1, 2, 3]
        for line, table in zip(tables, round_.tables.order_by("number"), strict=True):
            assert [str(seat.registration_id) for seat in line.seats] == seat_keys(table)
            assert line.confirmed
            stored = {
                row.registration_id: row.game_points
                for row in SeatResult.objects.filter(table_result__table=table)
            }
            assert {seat.registration_id: seat.game_points for seat in line.seats} == stored

    def test_a_table_in_play_shows_no_results(self, client: Client):
        tournament = make_tournament(slug="ziemas-zole")
        make_registrations(tournament, 6)
        round_ = publish_next_round(tournament)
        first = round_.tables.order_by("number").first()
        confirm_with_totals(first, dict.fromkeys(seat_keys(first), 0))

        response = client.get(round_url(tournament, 1))

        lines = response.context["round_tables"].tables
        assert [line.confirmed for line in lines] == [True, False]
        assert all(seat.game_points is None for seat in lines[1].seats)
        assert response.context["round_tables"].confirmed_count == 1

    @pytest.mark.parametrize("query", ["Ķēniņš", "kenins", "KĒN", "ojārs ķēniņš", "ojars kenins"])
    def test_search_finds_a_player_with_or_without_diacritics(
        self, client: Client, small_tournament, query
    ):
        # Not a factory name: nobody else matches.
        player = rename_a_player(small_tournament, "Ojārs Ķēniņš")

        response = client.get(round_url(small_tournament, 1), {"q": query})

        matches = response.context["round_tables"].matches
        assert len(matches) == 1
        found = [seat for seat in matches[0].seats if seat.is_match]
        assert [seat.player_id for seat in found] == [player.pk]
        html = response.content.decode()
        assert "<mark>" in html and "Ojārs Ķēniņš" in html
        # Only the player's table is shown.
        assert html.count('class="seating-table round-table') == 1

    @pytest.mark.parametrize(
        ("query", "name"),
        [
            ("ivanov", "Иван Иванов"),
            ("Ivanovs", "Иван Иванов"),
            ("IVANOV", "Иван Иванов"),
            ("Иванов", "Ivans Ivanovs"),
            ("ščerbakovs", "Пётр Щербаков"),
        ],
    )
    def test_search_finds_a_name_in_the_other_script(
        self, client: Client, small_tournament, query, name
    ):
        """Search finds "Bērziņš" for "berzins" and "Иванов" for "ivanov"."""
        player = rename_a_player(small_tournament, name)

        response = client.get(round_url(small_tournament, 1), {"q": query})

        matches = response.context["round_tables"].matches
        assert [seat.player_id for m in matches for seat in m.seats if seat.is_match] == [player.pk]

    def test_a_search_that_finds_nobody_says_so_and_shows_every_table(
        self, client: Client, small_tournament
    ):
        response = client.get(round_url(small_tournament, 1), {"q": "Ņikita Nekāds"})

        assert response.status_code == 200
        assert response.context["round_tables"].matches == []
        assert response.content.decode().count('class="seating-table round-table') == 3

    def test_a_draft_round_is_not_public(self, client: Client):
        tournament = make_tournament(slug="melnraksts")
        make_registrations(tournament, 6)
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        assert round_.tables.exists()

        assert client.get(round_url(tournament, 1)).status_code == 404
        assert client.get(round_url(tournament, 7)).status_code == 404
        assert client.get(standings_url(tournament, round=1)).status_code == 404


def table_url(tournament, round_number: int, table_number: int) -> str:
    return reverse("public:table", args=[tournament.slug, round_number, table_number])


def play_and_confirm(table, deals: int) -> None:
    """`deals` won lielais through the services (a penalty pule after the first), then a player
    at the table confirms; the round plays `deals` deals."""
    play_round_with(table.round, deals_per_round=deals)
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    position = 0
    for index in range(deals):
        dealer = dealer_for(players, first_dealer, index)
        declarer = next(player for player in players if player != dealer)
        position += 1
        services.deal_record(
            table=table,
            entry=lielais(declarer),
            position=position,
            client_key=f"public-{table.pk}-{position}",
            writer=services.Writer(),
        )
        if index == 0:
            position += 1
            services.deal_record(
                table=table,
                entry=PenaltyPule(players[0]),
                position=position,
                client_key=f"public-{table.pk}-{position}",
                writer=services.Writer(),
            )
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=services.Writer(), confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


@pytest.fixture
def confirmed_table():
    """Table 1 of round 1 (two tables of 3), its 6 deals entered and confirmed; table 2 in play."""
    tournament = make_tournament(slug="galda-kauss", name="Galda kauss")
    make_registrations(tournament, 6)
    round_ = publish_next_round(tournament)
    table = round_.tables.get(number=1)
    play_and_confirm(table, 6)
    return table


class TestTablePage:
    """A confirmed table's sheet, deal by deal, for everyone: the referee's sheet without its
    forms and its private link."""

    def test_a_confirmed_table_shows_every_deal_read_only(self, client: Client, confirmed_table):
        tournament = confirmed_table.round.tournament
        link = confirmed_table.tokens.filter(revoked_at__isnull=True).get().token

        response = client.get(table_url(tournament, 1, 1))

        assert response.status_code == 200
        sheet = response.context["sheet"]
        assert sheet.table == confirmed_table and sheet.is_confirmed
        assert [row.number for row in sheet.rows] == [1, None, 2, 3, 4, 5, 6]
        html = response.content.decode()
        assert html.count('class="entry-row') == 7
        assert 'class="entry-settlement"' in html and 'class="entry-totals"' in html
        for seat in confirmed_table.seats.select_related("registration__player"):
            assert seat.registration.player.full_name in html
        # Read-only: no form, no correction link, never the table's private link.
        assert "<form" not in html.split('<main class="site-main">')[1]
        assert "?correct=" not in html and link not in html
        assert reverse("entry:token_sheet", args=[link]) not in html

    def test_the_round_page_links_each_confirmed_table_to_its_sheet(
        self, client: Client, confirmed_table
    ):
        tournament = confirmed_table.round.tournament
        html = client.get(round_url(tournament, 1)).content.decode()
        assert f'href="{table_url(tournament, 1, 1)}"' in html
        assert table_url(tournament, 1, 2) not in html  # table 2 is still in play

    def test_a_table_in_play_a_draft_round_or_no_such_table_is_the_plain_404(
        self, client: Client, confirmed_table
    ):
        tournament = confirmed_table.round.tournament
        draft = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=draft, seed=2, by=None)
        other = make_tournament(slug="cits-kauss")
        # The same page as any unknown address (but for its own address, in the language links).
        not_found = client.get("/no-such-page/").content.decode().replace("/no-such-page/", "URL")
        for url in (
            table_url(tournament, 1, 2),  # in play
            table_url(tournament, 2, 1),  # a draft round's table
            table_url(tournament, 1, 3),
            table_url(tournament, 9, 1),
            table_url(other, 1, 1),
            "/t/no-such-tournament/rounds/1/tables/1/",
        ):
            response = client.get(url)
            assert response.status_code == 404, url
            assert response.content.decode().replace(url, "URL") == not_found, url

    def test_a_table_re_seated_between_the_lookup_and_the_sheet_is_the_plain_404(
        self, client: Client, confirmed_table, monkeypatch
    ):
        tournament = confirmed_table.round.tournament
        monkeypatch.setattr(
            "scoring.selectors.public_table_id", lambda **_lookup: confirmed_table.pk + 1000
        )
        assert client.get(table_url(tournament, 1, 1)).status_code == 404

    def test_a_table_confirmed_when_time_was_called_says_after_which_deal(
        self, client: Client, monkeypatch
    ):
        clock = fix_the_clock(monkeypatch)
        tournament = make_tournament(slug="laika-galds", round_time_limit=50)
        make_registrations(tournament, 6)
        table = publish_next_round(tournament).tables.get(number=1)
        players = seat_keys(table)
        for position in (1, 2):
            services.deal_record(
                table=table,
                entry=lielais(players[position]),
                position=position,
                client_key=f"short-{position}",
                writer=services.Writer(),
            )
        tournament_services.round_clock_start(round_=table.round, by=make_organiser())
        clock.advance(minutes=50)
        confirmer = table.seats.order_by("position").first().registration
        services.table_confirm(
            table=table,
            writer=services.Writer(),
            confirmer=confirmer,
            deals_seen=deals_on_sheet(table),
        )

        response = client.get(table_url(tournament, 1, 1))

        assert response.context["sheet"].time_called_after == 2
        assert "time called after deal 2" in response.content.decode()

    def test_the_same_queries_for_1_and_24_deals(self, client: Client):
        counts = []
        for deals in (1, 24):
            tournament = make_tournament(slug=f"galds-{deals}")
            make_registrations(tournament, 6)
            table = publish_next_round(tournament).tables.get(number=1)
            play_and_confirm(table, deals)
            with CaptureQueriesContext(connection) as queries:
                response = client.get(table_url(tournament, 1, 1))
            assert len(response.context["sheet"].rows) == deals + 1
            counts.append(len(queries))
        assert counts == [TABLE_QUERIES, TABLE_QUERIES]


class TestStandingsPage:
    def test_standings_in_the_engines_order(self, client: Client, small_tournament):
        response = client.get(standings_url(small_tournament))

        assert response.status_code == 200
        rows = response.context["standings"].rows
        assert len(rows) == 9
        html = response.content.decode()
        # The page lists the players in the standings order.
        positions = [html.index(row.name) for row in rows]
        assert positions == sorted(positions)
        assert 'class="provisional' not in html

    def test_sorting_by_a_column(self, client: Client, small_tournament):
        response = client.get(standings_url(small_tournament, sort="-game_points"))

        table = response.context["table"]
        points = [row.record["game_points"] for row in table.rows]
        assert points == sorted(points, reverse=True)

    def test_provisional_only_when_asked_and_marked(self, client: Client):
        tournament = played_tournament(players=9, rounds=1, slug="provizoriski")
        round_two = publish_next_round(tournament, seed=3)
        table = round_two.tables.order_by("number").first()
        players = seat_keys(table)
        declarer = players[1] if table.first_dealer_position == 1 else players[0]
        services.deal_record(
            table=table,
            entry=lielais(declarer),
            position=1,
            client_key="provisional-1",
            writer=services.Writer(),
        )

        plain = client.get(standings_url(tournament)).content.decode()
        marked = client.get(standings_url(tournament, provisional=1))

        assert "provisional-note" not in plain
        html = marked.content.decode()
        assert "provisional-note" in html
        assert html.count('<span class="provisional"') == len(players)
        assert marked.context["standings"].provisional_tables == 1

    def test_htmx_gets_the_live_partial_only(self, client: Client):
        tournament = played_tournament(players=9, rounds=1, close=False, slug="tiesraide")

        full = client.get(standings_url(tournament))
        partial = client.get(standings_url(tournament), HTTP_HX_REQUEST="true")

        assert "<html" in full.content.decode()
        assert 'hx-trigger="every 30s"' in full.content.decode()
        assert "js/htmx.min.js" in full.content.decode()
        body = partial.content.decode()
        assert "<html" not in body
        assert body.lstrip().startswith('<div id="standings-live"')
        assert 'hx-get="/t/tiesraide/standings/"' in body
        assert "HX-Request" in partial["Vary"]

    def test_no_refresh_once_every_round_is_closed(self, client: Client, small_tournament):
        html = client.get(standings_url(small_tournament)).content.decode()

        assert "hx-trigger" not in html
        assert "htmx.min.js" not in html

    def test_csv_export_with_latvian_letters(self, client: Client, small_tournament):
        rename_a_player(small_tournament, "Ģirts Šteins-Ļaudiņš")

        response = client.get(standings_url(small_tournament, _export="csv"))

        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert 'filename="rigas-kauss-standings.csv"' in response["Content-Disposition"]
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
        header, body = rows[0], rows[1:]
        assert len(header) == 5 + 2 * 2  # rank, player, club, place and game points, 2 rounds
        assert len(body) == 9
        standings = client.get(standings_url(small_tournament)).context["standings"]
        assert [row[1] for row in body] == [row.name for row in standings.rows]
        assert "Ģirts Šteins-Ļaudiņš" in [row[1] for row in body]
        first = standings.rows[0]
        assert body[0][0] == first.rank_label
        assert int(body[0][4]) == first.game_points
        assert int(body[0][5]) == first.rounds[1].game_points

    def test_xlsx_export_is_a_workbook(self, client: Client, small_tournament):
        openpyxl = pytest.importorskip("openpyxl")
        rename_a_player(small_tournament, "Ērika Žagare")

        response = client.get(standings_url(small_tournament, _export="xlsx"))

        assert response.status_code == 200
        assert 'filename="rigas-kauss-standings.xlsx"' in response["Content-Disposition"]
        workbook = openpyxl.load_workbook(io.BytesIO(response.content))
        rows = list(workbook.active.iter_rows(values_only=True))
        assert len(rows) == 1 + 9
        assert "Ērika Žagare" in [row[1] for row in rows[1:]]
        assert all(isinstance(row[4], int) for row in rows[1:])

    @pytest.mark.parametrize("export_format", ["csv", "xlsx"])
    def test_a_name_that_looks_like_a_formula_is_exported_as_text(
        self, client: Client, small_tournament, export_format
    ):
        rename_a_player(small_tournament, '=HYPERLINK("http://evil.example","x")')

        response = client.get(standings_url(small_tournament, _export=export_format))

        if export_format == "csv":
            rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
        else:
            openpyxl = pytest.importorskip("openpyxl")
            workbook = openpyxl.load_workbook(io.BytesIO(response.content))
            rows = [list(row) for row in workbook.active.iter_rows(values_only=True)]
        names = [row[1] for row in rows[1:]]
        assert '\'=HYPERLINK("http://evil.example","x")' in names
        assert not any(str(name).startswith("=") for name in names)
        # Negative game points stay numbers: only text is disarmed.
        assert all(not str(row[4]).startswith("'") for row in rows[1:])

    def test_an_unknown_export_format_shows_the_page(self, client: Client, small_tournament):
        response = client.get(standings_url(small_tournament, _export="pdf"))

        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")

    def test_team_standings_when_teams_are_on(self, client: Client):
        tournament = played_tournament(players=9, rounds=1, slug="komandas", teams_enabled=True)
        for index, entry in enumerate(tournament.registrations.order_by("pk")):
            entry.team = "Kurzeme" if index % 2 else "Vidzeme"
            entry.save()

        response = client.get(standings_url(tournament))

        teams = response.context["standings"].teams
        assert sorted(team.team for team in teams) == ["Kurzeme", "Vidzeme"]
        assert sum(team.game_points for team in teams) == 0  # every table sums to zero
        assert "Vidzeme" in response.content.decode()


class TestPlayerPage:
    def test_history_and_a_chart_with_one_point_per_round(self, client: Client, small_tournament):
        player = rename_a_player(small_tournament, "Līga Liepiņa")
        entry = player.registrations.get()
        results = list(SeatResult.objects.filter(registration=entry).order_by("round_number"))

        response = client.get(reverse("public:player", args=[player.pk]))

        assert response.status_code == 200
        html = response.content.decode()
        assert "<svg" in html and "<title" in html
        assert html.count('class="chart-point"') == 2
        (item,) = response.context["tournaments"]
        cumulative = [results[0].game_points, results[0].game_points + results[1].game_points]
        assert [round_.cumulative_game_points for round_ in item["history"].rounds] == cumulative
        assert [point.value for point in item["chart"].points] == cumulative
        # Coordinates in the SVG are plain decimals, never the Latvian decimal comma.
        point = item["chart"].points[0]
        assert f'cx="{point.x}"' in html

    def test_a_round_in_play_has_no_point_yet(self, client: Client):
        tournament = played_tournament(players=6, rounds=1, close=True, slug="turpinas")
        publish_next_round(tournament, seed=9)
        player = tournament.registrations.order_by("pk").first().player

        response = client.get(reverse("public:player", args=[player.pk]))

        (item,) = response.context["tournaments"]
        assert [round_.confirmed for round_ in item["history"].rounds] == [True, False]
        assert response.content.decode().count('class="chart-point"') == 1

    def test_an_unknown_player_is_404(self, client: Client):
        assert client.get(reverse("public:player", args=[999_999])).status_code == 404


class TestPlayerPrivacy:
    """A player's page exists only once he has a public result: a confirmed table in a
    published, in-play or closed round. The register (ids are sequential) is not public: a
    player who never played, an inactive one, one only registered or seated at a table not yet
    confirmed gets the same plain 404 as an id that does not exist."""

    def assert_plain_404(self, client: Client, player: Player) -> None:
        url, unknown_url = (reverse("public:player", args=[pk]) for pk in (player.pk, 999_999))
        response, unknown = client.get(url), client.get(unknown_url)
        assert response.status_code == unknown.status_code == 404
        # Nothing tells them apart (but the address itself, in the language links).
        html = response.content.decode()
        assert html.replace(url, "") == unknown.content.decode().replace(unknown_url, "")
        assert "Page not found" in html and player.full_name not in html

    def test_players_without_a_public_result_are_not_found(self, client: Client, settings):
        settings.DEBUG = False
        never_played = make_player(full_name="Reģistrā Vienīgi")
        inactive = make_player(full_name="Neaktīvs Spēlētājs", is_active=False)
        tournament = make_tournament(slug="nakamais")
        registered = make_registrations(tournament, 1)[0].player
        seated_round = make_published_round(players=6)
        seated = seated_round.tables.first().seats.first().registration.player

        for player in (never_played, inactive, registered, seated):
            self.assert_plain_404(client, player)

    def test_a_confirmed_table_in_a_round_in_play_makes_the_page(self, client: Client):
        round_ = make_published_round(players=6)
        table, other = round_.tables.order_by("number")
        confirm_with_totals(table, dict.fromkeys(seat_keys(table), 0))

        for seat in table.seats.all():
            assert (
                client.get(reverse("public:player", args=[seat.registration.player_id])).status_code
                == 200
            )
        for seat in other.seats.all():
            assert (
                client.get(reverse("public:player", args=[seat.registration.player_id])).status_code
                == 404
            )

    def test_an_inactive_player_with_results_keeps_his_page(self, client: Client, small_tournament):
        player = rename_a_player(small_tournament, "Bijušais Spēlētājs")
        Player.objects.filter(pk=player.pk).update(is_active=False)

        assert client.get(reverse("public:player", args=[player.pk])).status_code == 200

    def test_every_public_link_to_a_player_opens(self, client: Client, small_tournament):
        # A round in play: one table confirmed, the others not; some players only registered.
        live = played_tournament(players=9, rounds=1, slug="dzivais")
        make_registrations(live, 3)
        round_two = publish_next_round(live, seed=5)
        confirmed = round_two.tables.order_by("number").first()
        confirm_with_totals(confirmed, dict.fromkeys(seat_keys(confirmed), 0))
        fresh = make_tournament(slug="svaigs")
        make_registrations(fresh, 6)
        fresh_round = publish_next_round(fresh, seed=3)
        pages = [
            reverse("home"),
            reverse("ranking:season"),
            reverse("ranking:rating"),
        ]
        for tournament in (small_tournament, live, fresh):
            pages += [
                reverse("public:tournament", args=[tournament.slug]),
                standings_url(tournament),
                standings_url(tournament, provisional=1),
                *(round_url(tournament, r.number) for r in tournament.rounds.all()),
            ]
        linked: set[str] = set()
        for page in pages:
            html = client.get(page).content.decode()
            linked |= set(re.findall(r'href="(/players/\d+/)"', html))

        assert linked  # the pages do link players
        for url in sorted(linked):
            assert client.get(url).status_code == 200, url
        # The players of the fresh round and of round 2's unconfirmed tables are named, unlinked.
        fresh_names = client.get(round_url(fresh, fresh_round.number)).content.decode()
        fresh_player = fresh_round.tables.first().seats.first().registration.player
        assert fresh_player.full_name in fresh_names
        assert reverse("public:player", args=[fresh_player.pk]) not in fresh_names


class TestQueryCounts:
    """The standings page and the round page run a fixed number of queries, whatever the size
    of the tournament (9 or 30 players, 2 rounds with confirmed results)."""

    @pytest.fixture(params=[9, 30], ids=["9-players", "30-players"])
    def tournament(self, request):
        return played_tournament(players=request.param, rounds=2, slug=f"t{request.param}")

    def test_standings_page(self, client: Client, tournament, django_assert_max_num_queries):
        with django_assert_max_num_queries(STANDINGS_QUERIES):
            response = client.get(standings_url(tournament))
        assert len(response.context["standings"].rows) == tournament.registrations.count()

    def test_standings_page_with_provisional_results(
        self, client: Client, tournament, django_assert_max_num_queries
    ):
        # Round 2 reopened: its tables unconfirmed, each with one deal entered.
        round_two = tournament.rounds.get(number=2)
        TableResult.objects.filter(table__round=round_two).delete()
        Round.objects.filter(pk=round_two.pk).update(status=RoundStatus.IN_PLAY)
        tables = list(round_two.tables.all())
        for table in tables:
            players = seat_keys(table)
            declarer = players[table.first_dealer_position % len(players)]
            services.deal_record(
                table=table,
                entry=lielais(declarer),
                position=1,
                client_key=f"count-{table.pk}",
                writer=services.Writer(),
            )

        with django_assert_max_num_queries(STANDINGS_PROVISIONAL_QUERIES):
            response = client.get(standings_url(tournament, provisional=1))

        assert response.context["standings"].provisional_tables == len(tables)

    def test_standings_exports(self, client: Client, tournament, django_assert_max_num_queries):
        for export_format in ("csv", "xlsx"):
            with django_assert_max_num_queries(STANDINGS_QUERIES):
                assert (
                    client.get(standings_url(tournament, _export=export_format)).status_code == 200
                )

    def test_round_page(self, client: Client, tournament, django_assert_max_num_queries):
        with django_assert_max_num_queries(ROUND_QUERIES):
            response = client.get(round_url(tournament, 2), {"q": "berzins"})
        assert response.context["round_tables"].player_count == tournament.registrations.count()

    def test_the_same_count_for_9_and_30_players(self, client: Client):
        counts = []
        for players in (9, 30):
            tournament = played_tournament(players=players, rounds=2, slug=f"salidzina-{players}")
            with CaptureQueriesContext(connection) as standings_queries:
                client.get(standings_url(tournament))
            with CaptureQueriesContext(connection) as round_queries:
                client.get(round_url(tournament, 2))
            counts.append((len(standings_queries), len(round_queries)))
        assert counts[0] == counts[1]


def statistics_url(tournament) -> str:
    return reverse("public:statistics", args=[tournament.slug])


def play_with_a_pass_and_confirm(table, deals: int = 6) -> None:
    """Everyone passes the first deal, then `deals` - 1 won lielais; a player confirms."""
    play_round_with(table.round, deals_per_round=deals)
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    for index in range(deals):
        dealer = dealer_for(players, first_dealer, index)
        declarer = next(player for player in players if player != dealer)
        services.deal_record(
            table=table,
            entry=Pass() if index == 0 else lielais(declarer),
            position=index + 1,
            client_key=f"statistics-{table.pk}-{index}",
            writer=services.Writer(),
        )
    confirmer = table.seats.order_by("position").first().registration
    services.table_confirm(
        table=table, writer=services.Writer(), confirmer=confirmer, deals_seen=deals_on_sheet(table)
    )


def tournament_of_rounds(rounds: int, slug: str):
    """Two tables of 3 a round, each with a deal passed by all, every table confirmed."""
    tournament = make_tournament(slug=slug, rounds_planned=rounds)
    make_registrations(tournament, 6)
    for _round in range(rounds):
        for table in publish_next_round(tournament).tables.all():
            play_with_a_pass_and_confirm(table)
    return tournament


class TestStatisticsPage:
    def test_the_standings_and_the_tournament_page_link_to_it(
        self, client: Client, small_tournament
    ):
        link = f'href="{statistics_url(small_tournament)}"'
        assert link in client.get(standings_url(small_tournament)).content.decode()
        tournament_page = reverse("public:tournament", args=[small_tournament.slug])
        assert link in client.get(tournament_page).content.decode()

    def test_the_deals_and_the_records_in_latvian(self, client: Client):
        tournament = tournament_of_rounds(1, "statistika")

        page = client.get(statistics_url(tournament), HTTP_ACCEPT_LANGUAGE="lv").content.decode()

        for words in (
            "Statistika",
            "Partijas pēc spēles un iznākuma",
            "Visi garām",
            "Labākais kārtas rezultāts",
            "Zoles ar visiem stiķiem",
            "Garākā kopējo puļu virkne",
            "Kārtas labākais spēlētājs",
        ):
            assert words in page
        assert response_statistics(client, tournament).passed == 2  # a pass at each table

    def test_a_tournament_with_no_confirmed_table_says_so(self, client: Client):
        tournament = make_tournament(slug="bez-galdiem")

        response = client.get(statistics_url(tournament), HTTP_ACCEPT_LANGUAGE="en")

        assert "No table is confirmed yet" in response.content.decode()

    def test_the_same_queries_for_1_and_3_rounds(self, client: Client):
        counts = []
        for rounds in (1, 3):
            tournament = tournament_of_rounds(rounds, f"statistika-{rounds}")
            with CaptureQueriesContext(connection) as queries:
                response = client.get(statistics_url(tournament))
            assert len(response.context["statistics"].round_best) == rounds
            counts.append(len(queries))
        assert counts == [STATISTICS_QUERIES, STATISTICS_QUERIES]

    @pytest.mark.parametrize(
        "query", ["?round=-1", "?round=1&round=2", "?x=%3Cscript%3E", "?q=" + "9" * 400]
    )
    def test_a_query_string_it_does_not_read_is_redirected_away(self, client: Client, query):
        tournament = tournament_of_rounds(1, "svesi-parametri")

        response = client.get(statistics_url(tournament) + query)

        assert (response.status_code, response["Location"]) == (302, statistics_url(tournament))


def response_statistics(client: Client, tournament):
    return client.get(statistics_url(tournament)).context["statistics"]


class TestHead:
    """Link checkers, uptime monitors and some phones ask HEAD first: it answers like GET,
    without the body."""

    def test_every_public_page_answers_head_like_get(self, client: Client, small_tournament):
        player_id = small_tournament.registrations.order_by("pk").first().player_id
        urls = [
            reverse("home"),
            reverse("healthz"),
            reverse("public:tournament", args=[small_tournament.slug]),
            round_url(small_tournament, 1),
            table_url(small_tournament, 1, 1),
            standings_url(small_tournament),
            reverse("public:player", args=[player_id]),
            reverse("documents:round_seating_pdf", args=[small_tournament.slug, 1]),
            reverse("documents:standings_pdf", args=[small_tournament.slug]),
        ]
        for url in urls:
            head = client.head(url)
            get = client.get(url)
            assert (url, head.status_code) == (url, 200)
            assert head["Content-Type"] == get["Content-Type"]
            assert head.content == b""


class TestLanguages:
    """The public pages speak the visitor's language; their dates are written his way."""

    @pytest.mark.parametrize(
        ("language", "date"),
        [("lv", "5.12.2026"), ("ru", "05.12.2026"), ("en", "5 Dec 2026")],
    )
    def test_dates_are_written_the_visitors_way(self, client: Client, language, date):
        tournament = played_tournament(players=6, rounds=1, slug="datumi")
        player_id = tournament.registrations.order_by("pk").first().player_id
        urls = [
            reverse("public:tournaments"),
            reverse("public:tournament", args=[tournament.slug]),
            reverse("public:player", args=[player_id]),
        ]
        for url in urls:
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert date in page, url

    def test_a_cached_page_is_kept_apart_for_each_language(self, client: Client):
        tournament = played_tournament(players=6, rounds=1, slug="kesatne")
        url = reverse("public:tournament", args=[tournament.slug])

        latvian = client.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

        assert "5.12.2026" in latvian and "5 Dec 2026" not in latvian
        assert "5 Dec 2026" in english and "5.12.2026" not in english
