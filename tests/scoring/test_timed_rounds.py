"""Timed rounds at the table (docs/rules.md, "Seats, dealers and who plays": when time is called, a
table's round ends with the deals it has played; its sheet is closed and settled as usual, and it
counts like any other).

The clock is fixed (tests/clock.py): `django.utils.timezone.now` is patched, so the clock runs
out when a test moves it on."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.urls import reverse

from documents.selectors import round_score_sheets
from engine import Pass, PenaltyPule, Play, Sheet, score_sheet
from engine.rules import Game
from scoring import services
from scoring.models import DealResult, SeatResult, TableResult
from scoring.selectors import round_tables, tournament_standings
from scoring.services import ConflictError, Writer
from tests.clock import fix_the_clock
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_published_round,
    make_tournament,
    seat_keys,
)
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, Round, Table, TableToken
from tournaments.rule_set import round_rule_set
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db

keys = (f"timed-key-{number}" for number in itertools.count())
REFEREE = Writer(ip_address="10.0.0.5")
DEALS = 6


@pytest.fixture
def clock(monkeypatch):
    return fix_the_clock(monkeypatch)


@pytest.fixture
def organiser():
    return make_organiser()


@pytest.fixture
def table(clock):
    """Table 1 (of two tables of 3) of round 1 of a tournament of 6 deals a round, 50 minutes."""
    tournament = make_tournament(deals_per_round=DEALS, round_time_limit=50, slug="laiks")
    round_ = make_published_round(tournament, players=6)
    return round_.tables.get(number=1)


def lielais(declarer: str, points: int = 75, tricks: int = 5) -> Play:
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def record(table, entry, position: int) -> None:
    services.deal_record(
        table=table, entry=entry, position=position, client_key=next(keys), writer=REFEREE
    )


def three_deals(table) -> list:
    """Everyone passes (a common pule), then the second seat loses a lielais while it is open
    (a personal pule), then the third seat wins one and collects the common pule: the second
    seat's personal pule is still open after deal 3, so the settlement moves points."""
    _a, b, c = seat_keys(table)
    deals = [Pass(), lielais(b, points=40, tricks=3), lielais(c)]
    for position, deal in enumerate(deals, start=1):
        record(table, deal, position)
    return deals


def engine_totals(table, deals, *, closed: bool) -> dict[str, int]:
    players = seat_keys(table)
    return score_sheet(
        Sheet(
            players=tuple(players),
            entries=tuple(deals),
            rules=round_rule_set(table.round).rules,
            first_dealer=players[table.first_dealer_position - 1],
            closed=closed,
        )
    ).totals


def confirm(table, **kwargs) -> TableResult:
    confirmer = table.seats.order_by("position").first().registration
    kwargs.setdefault("deals_seen", deals_on_sheet(table))
    return services.table_confirm(table=table, writer=REFEREE, confirmer=confirmer, **kwargs)


def start_clock(table, organiser) -> None:
    tournament_services.round_clock_start(round_=table.round, by=organiser)


class TestConfirmingShort:
    def test_refused_while_the_clock_runs(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=49, seconds=59)
        with pytest.raises(ServiceError, match="has 3 of 6 deals: enter them all"):
            confirm(table)
        assert not TableResult.objects.exists()

    def test_refused_before_the_clock_starts_and_in_an_untimed_round(self, table, clock):
        three_deals(table)
        clock.advance(hours=5)  # no clock: time is never up
        with pytest.raises(ServiceError, match="enter them all"):
            confirm(table)
        assert not TableResult.objects.exists()

    def test_allowed_once_the_clock_runs_out_and_settled_as_usual(self, table, organiser, clock):
        deals = three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)

        result = confirm(table)

        assert (result.time_called, result.last_position) == (True, 3)
        closed = engine_totals(table, deals, closed=True)
        assert closed != engine_totals(table, deals, closed=False)  # the settlement counts
        stored = dict(
            SeatResult.objects.filter(table_result=result).values_list(
                "registration_id", "game_points"
            )
        )
        assert {
            str(registration_id): points for registration_id, points in stored.items()
        } == closed
        audit = AuditRecord.objects.get(action=AuditRecord.Action.TABLE_CONFIRMED)
        assert (audit.detail["time_called"], audit.detail["deals"]) == (True, 3)
        assert audit.detail["totals"] == closed

    def test_allowed_once_time_is_called(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=12)
        with pytest.raises(ServiceError, match="enter them all"):
            confirm(table)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        assert confirm(table).time_called

    def test_never_without_a_deal(self, table, organiser, clock):
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        with pytest.raises(ServiceError, match="has no deal yet"):
            confirm(table)
        assert not TableResult.objects.exists()

    def test_a_table_with_every_deal_is_a_normal_confirmation_in_a_timed_round(
        self, table, organiser, clock
    ):
        start_clock(table, organiser)
        _a, b, c = seat_keys(table)
        for position in range(1, DEALS + 1):
            record(table, lielais(b if position % 2 else c), position)
        clock.advance(hours=1)
        result = confirm(table)
        assert result.time_called is False
        assert "time_called" not in AuditRecord.objects.get(action="table.confirmed").detail

    def test_a_sheet_changed_since_the_confirmer_checked_it_is_a_conflict(
        self, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=51)
        with pytest.raises(ConflictError, match="has 3 deals now, not the 2 you checked"):
            confirm(table, deals_seen=2)
        assert not TableResult.objects.exists()
        assert confirm(table, deals_seen=3).time_called

    def test_deals_are_still_entered_after_time_is_up(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=55)
        _a, b, _c = seat_keys(table)
        record(table, lielais(b), 4)  # the deal that was under way at the signal
        assert confirm(table).last_position == 4

    def test_the_clock_is_not_reset_once_a_table_confirmed_short(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        confirm(table)
        with pytest.raises(ServiceError, match="table 1 was confirmed when time was up"):
            services.round_clock_reset(round_=table.round, by=organiser)
        assert Round.objects.get(pk=table.round_id).clock_started_at is not None

    def test_an_unlocked_short_table_is_open_again(self, table, organiser, clock):
        chief = make_organiser(is_superuser=True)  # a superuser stands in for the chief referee
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        confirm(table)
        services.table_unlock(table=table, writer=Writer(user=chief), reason="deal 3 was wrong")
        assert not TableResult.objects.exists()
        assert confirm(table).time_called


class TestAShortTableCounts:
    def test_in_the_standings_like_any_other(self, table, organiser, clock):
        deals = three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        confirm(table)
        standings = tournament_standings(tournament=table.round.tournament)
        closed = engine_totals(table, deals, closed=True)
        shown = {
            str(row.registration_id): row.rounds[1].game_points
            for row in standings.rows
            if row.rounds
        }
        assert shown == closed
        # place points too: 6, 4, 2 by the settled totals
        assert sorted(row.place_points for row in standings.rows if row.rounds) == [2, 4, 6]

    def test_its_sheet_is_closed_with_the_settlement_on_every_page(
        self, client, table, organiser, clock
    ):
        deals = three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        confirm(table)
        closed = engine_totals(table, deals, closed=True)

        link = TableToken.objects.get(table=table, revoked_at__isnull=True).token
        referee_page = client.get(reverse("entry:token_sheet", args=[link]))
        sheet = referee_page.context["sheet"]
        assert sheet.is_closed and not sheet.is_complete
        assert sheet.time_called_after == 3
        assert dict(zip(seat_keys(table), sheet.totals, strict=True)) == closed
        assert any(sheet.settlement)
        html = referee_page.content.decode()
        assert "time called after deal 3" in html
        assert "round ended after deal 3" in html
        assert 'class="entry-settlement"' in html

        public = client.get(reverse("public:round", args=[table.round.tournament.slug, 1]))
        assert "time called after deal 3" in public.content.decode()
        line = round_tables(round_=table.round).tables[0]
        assert (line.number, line.time_called_after) == (1, 3)

        client.force_login(organiser)
        round_page = client.get(
            reverse("organise:round", args=[table.round.tournament.slug, 1])
        ).content.decode()
        assert "time called after deal 3" in round_page

    def test_the_printed_sheet_is_settled_and_says_when_it_ended(self, table, organiser, clock):
        deals = three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        confirm(table)
        round_ = Round.objects.select_related("tournament").get(pk=table.round_id)
        printed = round_score_sheets(round_=round_, entry_url=lambda token: token).sheets[0]
        assert "Time was up: the table's round ended after deal 3." in printed.status
        closed = engine_totals(table, deals, closed=True)
        assert dict(zip(seat_keys(table), printed.totals, strict=True)) == closed


class TestTheRefereesPage:
    def url(self, table) -> str:
        token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
        return reverse("entry:token_sheet", args=[token])

    def test_it_counts_down_from_the_servers_seconds(self, client, table, organiser, clock):
        start_clock(table, organiser)
        clock.advance(minutes=7, seconds=30)
        response = client.get(self.url(table))
        html = response.content.decode()
        assert 'data-remaining="2550"' in html and "42:30" in html  # the text without JS
        assert "round-clock.js" in html and "htmx.min.js" in html
        clock_url = reverse("public:round_clock", args=[table.round.tournament.slug, 1])
        assert f'hx-get="{clock_url}"' in html
        assert response.context["offered"].deal_form is not None
        assert response.context["offered"].confirm_form is None

    def test_a_round_without_a_limit_shows_no_clock(self, client, clock):
        round_ = make_published_round(make_tournament(), players=6)
        table = round_.tables.get(number=1)
        html = client.get(self.url(table)).content.decode()
        assert "data-round-clock" not in html and "round-clock.js" not in html

    def test_before_the_start_it_says_the_clock_has_not_started(self, client, table):
        html = client.get(self.url(table)).content.decode()
        assert "Round clock: 50 minutes, not started yet." in html

    def test_when_time_is_up_it_says_so_and_offers_to_confirm_short(
        self, client, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        url = self.url(table)
        response = client.get(url)
        html = response.content.decode()
        assert "finish the deal under way" not in html  # the clock says time is up, no more
        assert "Time is up: enter only the deal that was under way (deal 4)" in html
        assert "Time is up: confirm after deal 3?" in html
        assert "Confirm after deal 3" in html
        assert response.context["offered"].deal_form is not None  # the deal under way is entered
        assert 'name="confirm-deals" value="3"' in html

        confirmer = table.seats.order_by("position").last().registration
        stale = client.post(
            url, {"action": "confirm", "confirm-confirmer": confirmer.pk, "confirm-deals": 2}
        )
        assert stale.status_code == 409 and not TableResult.objects.exists()
        assert "not the 2 you checked" in stale.content.decode()

        done = client.post(
            url, {"action": "confirm", "confirm-confirmer": confirmer.pk, "confirm-deals": 3}
        )
        assert done.status_code == 302
        assert TableResult.objects.get(table=table).time_called
        page = client.get(url).content.decode()
        assert "time called after deal 3" in page
        assert "data-round-clock" not in page  # a confirmed table needs the clock no more

    def test_a_deal_entered_after_time_is_up_moves_the_offer_on(
        self, client, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        _a, b, _c = seat_keys(table)
        url = self.url(table)
        response = client.post(
            url,
            {
                "action": "deal",
                "deal-position": 4,
                "deal-client_key": "under-way",
                "deal-game": "lielais",
                "deal-declarer": b,
                "deal-points": 70,
                "deal-tricks": 4,
            },
        )
        assert response.status_code == 302 and DealResult.objects.count() == 4
        assert "Time is up: confirm after deal 4?" in client.get(url).content.decode()


def deal_data(position: int, declarer: str, key: str) -> dict:
    return {
        "action": "deal",
        "deal-position": position,
        "deal-client_key": key,
        "deal-game": "lielais",
        "deal-declarer": declarer,
        "deal-points": 70,
        "deal-tricks": 4,
    }


class TestTimeStopsATable:
    """docs/rules.md: after the signal the deal under way is finished; the table's round then ends
    with the deals it has played. It enters that deal and no other."""

    def test_after_time_is_called_only_the_deal_under_way_is_entered(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=12)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=2)
        _a, b, c = seat_keys(table)
        record(table, lielais(b), 4)  # under way at the signal
        with pytest.raises(ServiceError, match="may enter only the deal that was under way"):
            record(table, lielais(c), 5)
        assert DealResult.objects.filter(table=table).count() == 4
        assert AuditRecord.objects.filter(action="deal.entered").count() == 4
        assert confirm(table).last_position == 4

    def test_when_the_clock_runs_out_the_deals_entered_before_count(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=30)
        _a, b, c = seat_keys(table)
        record(table, lielais(b), 4)  # before the clock ran out
        clock.advance(minutes=25)
        record(table, lielais(c), 5)
        with pytest.raises(ServiceError, match=r"has it \(5 deals\)\. Deal 6 is not played"):
            record(table, lielais(b), 6)
        assert DealResult.objects.filter(table=table).count() == 5

    def test_a_penalty_pule_is_still_given(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        a, b, _c = seat_keys(table)
        record(table, lielais(b), 4)
        record(table, PenaltyPule(a), 5)
        assert DealResult.objects.filter(table=table, kind="penalty").count() == 1

    def test_a_deal_removed_after_time_is_entered_again_but_no_other(self, table, organiser, clock):
        three_deals(table)
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        _a, b, c = seat_keys(table)
        record(table, lielais(b), 4)
        services.deal_correct(
            table=table,
            position=4,
            entry=None,
            base_version=1,
            client_key=next(keys),
            reason="wrong declarer",
            writer=REFEREE,
        )
        record(table, lielais(c), 4)
        with pytest.raises(ServiceError, match="may enter only the deal that was under way"):
            record(table, lielais(b), 5)

    def test_time_called_while_a_deal_was_on_its_way_is_seen_by_its_write(
        self, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        # The page read the table (and its round's clock) before time was called.
        stale = Table.objects.select_related("round__tournament").get(pk=table.pk)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        _a, b, c = seat_keys(table)
        record(stale, lielais(b), 4)
        with pytest.raises(ServiceError, match="may enter only the deal that was under way"):
            record(stale, lielais(c), 5)

    def test_the_chief_referee_may_allow_a_table_more_deals(self, table, organiser, clock):
        chief = make_organiser(is_superuser=True)
        three_deals(table)
        start_clock(table, organiser)
        with pytest.raises(ServiceError, match="time is not up"):
            allow(table, chief, 1)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        with pytest.raises(ServiceError, match="only the chief referee"):
            services.table_deals_allow(
                table=table, writer=Writer(user=organiser), more=1, reason="x"
            )
        with pytest.raises(ServiceError, match="say why"):
            allow(table, chief, 1, reason="  ")
        with pytest.raises(ServiceError, match="1 to 2 more deals, not 3"):
            allow(table, chief, 3)
        assert not AuditRecord.objects.filter(action="table.deals_allowed").exists()

        allow(table, chief, 1)

        audit = AuditRecord.objects.get(action="table.deals_allowed")
        assert audit.user == chief and audit.table_id == table.pk
        assert (audit.detail["more"], audit.detail["before"], audit.detail["after"]) == (1, 4, 5)
        _a, b, c = seat_keys(table)
        record(table, lielais(b), 4)
        record(table, lielais(c), 5)
        with pytest.raises(ServiceError, match="may enter only the deal that was under way"):
            record(table, lielais(b), 6)


def allow(table, chief, more: int, reason: str = "dealt before the signal") -> None:
    services.table_deals_allow(table=table, writer=Writer(user=chief), more=more, reason=reason)


class TestTheRefereesPageAfterTime:
    def url(self, table) -> str:
        token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
        return reverse("entry:token_sheet", args=[token])

    def test_once_the_deal_under_way_is_in_it_offers_only_the_confirmation(
        self, client, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        _a, b, c = seat_keys(table)
        url = self.url(table)
        assert client.post(url, deal_data(4, b, "under-way")).status_code == 302

        response = client.get(url)
        html = response.content.decode()
        # What the page shows: the phone's words and messages in its JSON are not on screen.
        shown = re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S)
        assert response.context["offered"].deal_form is None
        assert "finish the deal under way" not in shown and "enter only the deal" not in shown
        assert "deals." not in html.split('id="entry-form"')[1].split("<h2>")[0]  # no dealer
        assert "Time is up: the table's round ends after deal 4" in html
        assert "Confirm after deal 4" in html
        assert "confirm after deal 5" not in html.lower()
        assert "Deal 5 of" not in html  # the progress under the heading says it too

        refused = client.post(url, deal_data(5, c, "one-too-many"))
        assert refused.status_code == 200
        assert "may enter only the deal that was under way" in refused.content.decode()
        assert DealResult.objects.filter(table=table).count() == 4

    def test_the_chief_referee_allows_more_from_the_tables_page(
        self, client, table, organiser, clock
    ):
        chief = make_organiser(is_superuser=True)
        three_deals(table)
        start_clock(table, organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        url = reverse("entry:table_sheet", args=[table.pk])
        assert client.get(self.url(table)).context["offered"].allow_form is None  # the link
        client.force_login(organiser)
        assert (
            client.post(url, {"action": "allow", "allow-more": 1, "allow-reason": "x"}).status_code
            == 403
        )
        client.force_login(chief)
        assert client.get(url).context["offered"].allow_form is not None
        blank = client.post(url, {"action": "allow", "allow-more": 1, "allow-reason": " "})
        assert blank.status_code == 200
        assert Table.objects.get(pk=table.pk).deals_allowed_after_time == 0
        done = client.post(url, {"action": "allow", "allow-more": 2, "allow-reason": "dispute"})
        assert done.status_code == 302
        page = client.get(url).content.decode()
        assert "allowed this table to play up to deal 6" in page


class TestTheClockFragment:
    def test_it_is_fresh_on_every_request(self, client, table, organiser, clock):
        url = reverse("public:round_clock", args=[table.round.tournament.slug, 1])
        first = client.get(url)
        assert first.status_code == 200
        assert "no-cache" in first["Cache-Control"] and "no-store" in first["Cache-Control"]
        assert "not started yet" in first.content.decode()
        start_clock(table, organiser)
        clock.advance(seconds=10)
        running = client.get(url).content.decode()
        assert 'data-remaining="2990"' in running and "49:50" in running
        assert f'hx-get="{url}"' in running
        tournament_services.round_time_call(round_=table.round, by=organiser)
        called = client.get(url).content.decode()
        assert "Time is up" in called and "finish the deal under way" not in called
        assert "data-running" not in called

    def test_a_draft_or_unknown_round_is_not_found(self, client, table):
        slug = table.round.tournament.slug
        tournament_services.round_create(tournament=table.round.tournament)  # round 2, a draft
        assert client.get(reverse("public:round_clock", args=[slug, 2])).status_code == 404
        assert client.get(reverse("public:round_clock", args=[slug, 9])).status_code == 404
        assert client.get(reverse("public:round_clock", args=["nav", 1])).status_code == 404


class TestTheOrganisersTableLinks:
    def test_they_say_which_tables_wait_for_confirmation_and_which_ended_short(
        self, client, table, organiser, clock
    ):
        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=50)
        client.force_login(organiser)
        url = reverse("organise:round", args=[table.round.tournament.slug, 1])
        assert "time is up: waiting for confirmation" in client.get(url).content.decode()
        confirm(table)
        html = client.get(url).content.decode()
        assert "time called after deal 3" in html
        assert "Reset the clock" not in html  # a table confirmed short keeps the clock


class TestTheArchive:
    """A timed tournament moves to another database with its clock and its short tables."""

    def played(self, table, organiser, clock) -> dict:
        from archive.export import tournament_archive

        three_deals(table)
        start_clock(table, organiser)
        clock.advance(minutes=30)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        confirm(table)
        return json.loads(json.dumps(tournament_archive(table.round.tournament)))

    def test_it_keeps_the_clock_and_the_short_confirmation(self, table, organiser, clock):
        from archive.writing import tournament_import

        archive = self.played(table, organiser, clock)
        round_one = archive["rounds"][0]
        assert round_one["time_limit"] == 50 and round_one["time_called_at"] is not None
        exported = {t["number"]: t["time_called"] for t in round_one["tables"]}
        assert exported == {1: True, 2: False}

        imported = tournament_import(archive, slug="laiks-2")

        round_ = imported.rounds.get(number=1)
        original = Round.objects.get(pk=table.round_id)
        assert (round_.clock_started_at, round_.time_limit, round_.time_called_at) == (
            original.clock_started_at,
            original.time_limit,
            original.time_called_at,
        )
        short = TableResult.objects.get(table__round=round_, table__number=1)
        assert short.time_called and short.last_position == 3
        assert tournament_standings(tournament=imported).rows[0].game_points == (
            tournament_standings(tournament=table.round.tournament).rows[0].game_points
        )

    def test_a_short_table_without_time_called_is_refused(self, table, organiser, clock):
        from archive.reading import ArchiveError
        from archive.writing import tournament_import

        archive = self.played(table, organiser, clock)
        archive["rounds"][0]["tables"][0]["time_called"] = False
        with pytest.raises(ArchiveError, match="confirmed with 3 of 6 deals"):
            tournament_import(archive, slug="laiks-3")
        del archive["rounds"][0]["tables"][0]["time_called"]  # version 3 archives carry it
        with pytest.raises(ArchiveError, match="time_called is missing"):
            tournament_import(archive, slug="laiks-3")
        assert not Round.objects.filter(tournament__slug="laiks-3").exists()

    def test_time_called_on_a_round_without_a_clock_is_refused(self, table, organiser, clock):
        from archive.reading import ArchiveError
        from archive.writing import tournament_import

        archive = self.played(table, organiser, clock)
        archive["rounds"][0].update(clock_started_at=None, time_limit=None, time_called_at=None)
        with pytest.raises(ArchiveError, match="the round had no clock"):
            tournament_import(archive, slug="laiks-4")
