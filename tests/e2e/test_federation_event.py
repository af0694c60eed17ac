"""The federation's formats in the browser, in Latvian.

An organiser creates an `lzf` tournament of 26 players with a round time limit: the preset fills
tables of 4 seated by rank, 28 deals (27 at a table of 3) and the federation's pules; round 1
seats 5 tables of 4 and 2 of 3, the clock runs, time is called, one table is confirmed short
after the deal under way, the round closes, and round 2 is seated by rank (table 1 = the best
four). At an `lzf-rondo` table a galdiņš with two players tied for the most card points asks the
referee who drew the card.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import expect

from engine import Play, dealer_for
from engine.rules import Game
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import DealResult, TableResult
from scoring.services import Writer, round_generate_seating
from scoring.sheet.reader import table_sheet
from tests.factories import (
    deals_on_sheet,
    make_club,
    make_organiser,
    make_player,
    make_tournament,
    seat_keys,
)
from tournaments import services as tournament_services
from tournaments.models import Registration, Round, RoundStatus, TableToken, Tournament
from tournaments.rule_set import preset_options

from .conftest import assert_fits_the_phone, no_violations, send_entry, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 26
DESKTOP = {"width": 1280, "height": 900}
SHORT_AFTER = 11  # the short table's deals when time is called, the deal under way included


CLIENT_KEYS = itertools.count()


def play(table, deals: int) -> None:
    """`deals` deals of lielais at a table through the referee's service: the player after the
    dealer declares, winning and losing in turn (the sitting-out dealer never declares)."""
    players = seat_keys(table)
    first = players[table.first_dealer_position - 1]
    token = TableToken.objects.get(table=table, revoked_at__isnull=True)
    played = DealResult.objects.filter(table=table).count()
    for index in range(played, played + deals):
        dealer = dealer_for(players, first, index)
        declarer = players[(players.index(dealer) + 1) % len(players)]
        scoring_services.deal_record(
            table=table,
            entry=Play(
                Game.LIELAIS,
                declarer,
                tricks=5 if index % 3 else 2,
                points=75 if index % 3 else 40,
            ),
            position=index + 1,
            client_key=f"e2e-{next(CLIENT_KEYS)}",
            writer=Writer(token=token),
        )


def confirm(table) -> None:
    scoring_services.table_confirm(
        table=table,
        writer=Writer(),
        confirmer=Registration.objects.get(pk=seat_keys(table)[0]),
        deals_seen=deals_on_sheet(table),
    )


def test_an_lzf_event_timed_round_one_with_a_short_table_then_round_two_by_rank(
    live_server, open_page, shots
):
    make_organiser(username="rita")
    clubs = [make_club(name=f"Klubs {letter}") for letter in "ABCDEFG"]
    for number in range(PLAYERS):
        make_player(club=clubs[number % len(clubs)])

    # The organiser creates the tournament with the lzf preset (the list fills every option).
    desk = open_page(**DESKTOP)
    sign_in(desk, live_server, "rita", "/organise/new/")
    desk.select_option("#id_preset", "lzf")
    assert desk.is_checked("#id_table_size input[value='4']")
    assert desk.input_value("#id_deals_per_round") == "28"
    assert desk.is_checked("#id_later_rounds_seating input[value='ranked']")
    assert desk.input_value("#id_place_points_four") == "6,4,2,0; 1-4=2"
    desk.fill("#id_name", "LZF reitinga turnīrs")
    desk.fill("#id_starts_on", "2026-12-12")
    desk.fill("#id_round_time_limit", "50")
    desk.screenshot(path=str(shots / "settings-lzf-lv.png"), full_page=True)
    desk.click(f"form.stacked button:has-text('{t('Save')}')")
    desk.wait_for_url(f"{live_server.url}/organise/t/lzf-reitinga-turnirs/")
    tournament = Tournament.objects.get(slug="lzf-reitinga-turnirs")
    options = preset_options("lzf")
    assert {name: getattr(tournament, name) for name in options} == options
    assert tournament.round_time_limit == 50
    no_violations(desk)

    # Every player registered, round 1 seated: 5 tables of 4 and 2 of 3.
    desk.goto(f"{live_server.url}/organise/t/lzf-reitinga-turnirs/registrations/")
    for checkbox in desk.locator("input[name=players]").all():
        checkbox.check()
    desk.click("form button[type=submit]:visible >> nth=-1")
    desk.wait_for_load_state()
    assert tournament.registrations.count() == PLAYERS
    desk.goto(f"{live_server.url}/organise/t/lzf-reitinga-turnirs/")
    desk.click(f"button:has-text('{t('Prepare round %(number)s', number=1)}')")
    round_url = "/organise/t/lzf-reitinga-turnirs/rounds/1/"
    desk.wait_for_url(f"{live_server.url}{round_url}")
    desk.fill("#id_seed", "2026")
    desk.click(f"button:has-text('{t('Generate')}')")
    expect(desk.locator(".seating-table")).to_have_count(7)
    round_one = Round.objects.get(tournament=tournament, number=1)
    sizes = [table.seats.count() for table in round_one.tables.order_by("number")]
    assert sizes == [4, 4, 4, 4, 4, 3, 3]
    desk.click(f"button:has-text('{t('Publish round %(number)s', number=1)}')")
    desk.wait_for_load_state()
    round_one.refresh_from_db()
    assert round_one.status == RoundStatus.PUBLISHED
    assert round_one.rule_set["deals_per_round"] == 28

    # The clock starts; six tables play all their deals (28 at a table of 4, 27 at a table of
    # 3, as the preset sets them), the seventh is still playing.
    start = t(
        "Start the clock: %(minutes)s minute",
        "Start the clock: %(minutes)s minutes",
        50,
        minutes=50,
    )
    desk.click(f"button:has-text('{start}')")
    desk.wait_for_load_state()
    assert Round.objects.get(pk=round_one.pk).clock_started_at is not None
    tables = list(round_one.tables.order_by("number"))
    short = tables[1]  # a table of 4
    for table in tables:
        if table != short:
            play(table, 28 if table.seats.count() == 4 else 27)
            confirm(table)
    play(short, SHORT_AFTER - 1)

    # Time is called; the referee's phone says so, the deal under way is entered, the table is
    # confirmed short.
    desk.goto(f"{live_server.url}{round_url}")
    desk.click(f"summary:has-text('{t('Call time now')}')")
    desk.click(f"button:has-text('{t('Call time')}')")
    desk.wait_for_load_state()
    assert Round.objects.get(pk=round_one.pk).time_called_at is not None
    referee = open_page()
    token = TableToken.objects.get(table=short, revoked_at__isnull=True).token
    referee.goto(f"{live_server.url}/r/{token}/")
    under_way = t(
        "Time is up: enter only the deal that was under way (deal %(number)s), then confirm "
        "the table.",
        number=SHORT_AFTER,
    )
    assert referee.get_by_text(under_way).is_visible()
    players = seat_keys(short)
    dealer = dealer_for(players, players[short.first_dealer_position - 1], SHORT_AFTER - 1)
    declarer = players[(players.index(dealer) + 1) % 4]
    referee.check("input[name='deal-game'][value='lielais']")
    referee.check(f"input[name='deal-declarer'][value='{declarer}']")
    referee.fill("input[name='deal-points']", "91")
    referee.fill("input[name='deal-tricks']", "6")
    send_entry(referee, f"button:has-text('{t('Save the deal')}')")
    assert referee.get_by_role(
        "heading",
        name=t("Time is up: the table's round ends after deal %(number)s", number=SHORT_AFTER),
    ).is_visible()
    referee.check(f"input[name='confirm-confirmer'][value='{players[0]}']")
    send_entry(
        referee, f"button:has-text('{t('Confirm after deal %(number)s', number=SHORT_AFTER)}')"
    )
    result = TableResult.objects.get(table=short)
    assert result.time_called
    assert referee.get_by_text(
        t("time called after deal %(number)s", number=SHORT_AFTER)
    ).is_visible()
    assert_fits_the_phone(referee)
    referee.screenshot(path=str(shots / "short-table-lv.png"), full_page=True)
    no_violations(referee)

    # Every table is in the standings, the short one counted like the others; the round closes.
    standings = scoring_selectors.tournament_standings(tournament=tournament)
    assert sum(row.game_points for row in standings.rows) == 0
    assert all(1 in row.rounds and not row.provisional for row in standings.rows)
    desk.goto(f"{live_server.url}{round_url}")
    desk.click(f"button:has-text('{t('Close round %(number)s', number=1)}')")
    desk.wait_for_load_state()
    assert Round.objects.get(pk=round_one.pk).status == RoundStatus.CLOSED

    # Round 2 is seated by rank: the best four at table 1, the next four at table 2, ...
    desk.goto(f"{live_server.url}/organise/t/lzf-reitinga-turnirs/")
    desk.click(f"button:has-text('{t('Prepare round %(number)s', number=2)}')")
    desk.wait_for_url(f"{live_server.url}/organise/t/lzf-reitinga-turnirs/rounds/2/")
    desk.click(f"button:has-text('{t('Generate')}')")
    round_two = Round.objects.get(tournament=tournament, number=2)
    assert round_two.seating_mode == "ranked"
    rank = {
        row.registration_id: row.rank
        for row in scoring_selectors.tournament_standings(tournament=tournament).rows
    }
    by_table = [
        [rank[int(key)] for key in seat_keys(table)]
        for table in round_two.tables.order_by("number")
    ]
    assert [len(ranks) for ranks in by_table] == [4, 4, 4, 4, 4, 3, 3]
    for better, worse in itertools.pairwise(by_table):
        assert max(better) <= min(worse), by_table
    assert desk.locator(".seating-table").count() == 7
    desk.screenshot(path=str(shots / "round-two-ranked-lv.png"), full_page=True)
    no_violations(desk)


def test_an_lzf_rondo_galdins_tied_for_the_most_points_asks_who_drew_the_card(
    live_server, open_page, shots
):
    tournament = make_tournament(slug="rondo", **preset_options("lzf-rondo"))
    for _ in range(4):
        Registration.objects.create(tournament=tournament, player=make_player())
    round_ = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_, seed=3, by=None)
    round_ = tournament_services.round_publish(round_=round_, by=None)
    table = round_.tables.get()
    players = seat_keys(table)
    dealer = players[table.first_dealer_position - 1]
    a, b, c = (key for key in players if key != dealer)  # the three who play
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token

    referee = open_page()
    referee.goto(f"{live_server.url}/r/{token}/")
    referee.check("input[name='deal-game'][value='galdins']")
    # Worked example 7: A and B tie on 44 card points, C (32, more than 30) wins 1: odd.
    for key, tricks, points in ((a, 3, 44), (b, 3, 44), (c, 2, 32)):
        referee.fill(f"input[name='deal-tricks_{key}']", str(tricks))
        referee.fill(f"input[name='deal-points_{key}']", str(points))
    send_entry(referee, f"button:has-text('{t('Save the deal')}')")
    assert not DealResult.objects.filter(table=table).exists()
    draw = referee.locator("input[name='deal-draw_loser']")
    assert draw.count() == 2  # only the two tied players
    assert referee.get_by_text(t("Who drew the card (pays the larger half)?")).is_visible()
    assert_fits_the_phone(referee)
    referee.screenshot(path=str(shots / "rondo-draw-lv.png"), full_page=True)

    referee.check(f"input[name='deal-draw_loser'][value='{b}']")
    send_entry(referee, f"button:has-text('{t('Save the deal')}')")
    stored = DealResult.objects.get(table=table)
    assert stored.galdins["draw_loser"] == b
    sheet = table_sheet(table_id=table.pk)
    assert {cell.player.key: cell.score for cell in sheet.rows[0].cells} == {
        a: 0,
        b: -1,
        c: 1,
        dealer: 0,  # the sitting-out dealer neither pays nor receives in a rondo galdiņš
    }
    # Galdiņš writes the common pules too (two at an empty table of 4).
    assert sheet.rows[0].common_pules == 2
    no_violations(referee)
