"""A referee enters a whole round at a 4-player table on a phone, through the table's link:
an all-pass, a collected pule, a lost lielais that gets a personal pule and one correction; a
second player confirms; the public standings page shows the totals the engine gives."""

import pytest

from engine import Pass, Play, Sheet, dealer_for, score_sheet
from engine.rules import Game
from scoring.models import DealResult, TableResult
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
from tournaments.rule_set import round_rule_set

from .conftest import assert_fits_the_phone, send_entry

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = 12  # a whole round at a tournament that plays 12 deals (a multiple of 3 and 4)


def lielais(declarer, points, tricks):
    return Play(Game.LIELAIS, declarer, tricks=tricks, points=points)


def round_of_deals(players):
    """The round as the referee enters it: seat order p1..p4, p1 deals first and sits out."""
    p1, p2, p3, p4 = players
    deals = [
        lielais(p2, 75, 5),  # p1 deals
        Pass(),  # p2 deals: everyone passes, a common pule is written
        lielais(p4, 95, 6),  # p3 deals: p4 wins and collects the common pule
        Pass(),  # p4 deals: another common pule
        lielais(p2, 40, 3),  # p1 deals: p2 loses while a pule is open, a personal pule
        Play(Game.ZOLE, p3, tricks=5, points=70),  # p2 deals (corrected below to 95 points)
    ]
    for index in range(len(deals), DEALS):
        dealer = dealer_for(players, p1, index)
        declarer = players[(players.index(dealer) + 1) % 4]
        deals.append(lielais(declarer, 61 + index, 4))
    return deals


def enter(page, deal, prefix="deal"):
    game = "pass" if isinstance(deal, Pass) else deal.game.value
    page.check(f"input[name='{prefix}-game'][value='{game}']")
    if isinstance(deal, Play):
        page.check(f"input[name='{prefix}-declarer'][value='{deal.declarer}']")
        page.fill(f"input[name='{prefix}-points']", str(deal.points))
        page.fill(f"input[name='{prefix}-tricks']", str(deal.tricks))


def test_referee_enters_a_round_a_player_confirms_and_the_standings_show_it(
    live_server, phone, tmp_path
):
    tournament = make_tournament(slug="kauss", deals_per_round=DEALS)
    round_one = make_published_round(tournament, players=4)
    table = round_one.tables.get()
    players = [
        str(registration_id)
        for registration_id in table.seats.values_list("registration_id", flat=True)
    ]
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    deals = round_of_deals(players)
    page = phone

    page.goto(f"{live_server.url}/r/{token}/")
    assert_fits_the_phone(page)
    for number, deal in enumerate(deals, start=1):
        enter(page, deal)
        send_entry(page, "button:has-text('Save the deal')")
        assert DealResult.objects.filter(table=table).count() == number, f"deal {number}"
    assert page.locator("text=Zole").count() >= 1
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "sheet.png"), full_page=True)

    # Deal 6 was 95 points, not 70: a correction is a new version, the old one is kept.
    corrected = Play(Game.ZOLE, players[2], tricks=6, points=95)
    page.goto(f"{live_server.url}/r/{token}/?correct=6")
    enter(page, corrected, prefix="fix")
    page.fill("[name='fix-reason']", "95 acis, ne 70")
    send_entry(page, "button:has-text('Save the correction')")
    assert list(
        DealResult.objects.filter(table=table, position=6).values_list("version", "points")
    ) == [(1, 70), (2, 95)]
    deals[5] = corrected

    # Another player at the table checks the sheet and confirms it.
    page.check(f"input[name='confirm-confirmer'][value='{players[3]}']")
    send_entry(page, "button:has-text('Confirm the table')")
    assert TableResult.objects.filter(table=table).exists()
    assert page.locator(".entry-locked-badge").is_visible()

    expected = score_sheet(
        Sheet(
            players=tuple(players),
            entries=tuple(deals),
            rules=round_rule_set(table.round).rules,
            first_dealer=players[0],
            closed=True,
        )
    ).totals
    assert sum(expected.values()) == 0
    assert expected[players[1]] != 0  # the round really moved points

    page.goto(f"{live_server.url}/t/kauss/standings/")
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
    names = {
        str(seat.registration_id): seat.registration.player.full_name
        for seat in table.seats.select_related("registration__player")
    }
    rows = page.locator("table.standings-table tbody tr")
    assert rows.count() == 4
    round_one_cells = {}  # each player's round 1 cell: "game points · place points"
    for index in range(4):
        row = rows.nth(index)
        text = row.inner_text()
        key = next(key for key, name in names.items() if name in text)
        round_one_cells[key] = row.locator("td.round-cell").first.inner_text()
    for key, total in expected.items():
        game_points = round_one_cells[key].split("·")[0].strip().replace("−", "-")
        assert int(game_points) == total, (names[key], round_one_cells[key], total)
