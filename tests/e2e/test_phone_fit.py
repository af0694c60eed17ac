"""The pages people read on a 360 px phone, in Latvian, with a lot on them: a table of four whose
sheet has most of its deals, pules and a penalty (the referee sees every column, and after saving
lands on the saved deal and the message); the back button after saving never brings back a filled
form; the public standings of a long tournament, the rating list and a player's page (wide
tables scroll inside, the names stay in view); the confirmed table's deals, public.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import itertools

import pytest

from demo.simulation import simulate_tournament
from engine import Pass, PenaltyPule, Play, dealer_for
from engine.rules import Game
from ranking import services as ranking_services
from scoring import services
from scoring.models import DealResult, TableResult
from scoring.services import Writer
from tests.factories import make_published_round, make_tournament, seat_keys
from tournaments.models import Player, Table, TableToken

from .conftest import (
    PHONE,
    assert_does_not_scroll_sideways,
    assert_fits_the_phone,
    enter_lielais,
    no_violations,
    send_entry,
    t,
)

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = 24
# Long Latvian names: the sheet shows "Konstantīns Š." on a phone.
NAMES = (
    "Konstantīns Šķēle-Vītoliņš",
    "Aleksandrs Jaunzemis",
    "Kristiāna Pētersone",
    "Mstislavs Ķeniņš",
)
keys = (f"phone-key-{number}" for number in itertools.count())


def table_of_four_with_deals(deals: int) -> Table:
    """A published round of one table of four, long names, `deals` deals entered."""
    tournament = make_tournament(
        slug="garais-galds", name="Rīgas rudens kauss", deals_per_round=DEALS, table_size=4
    )
    round_ = make_published_round(tournament, players=4)
    table = round_.tables.get()
    seats = table.seats.select_related("registration__player").order_by("position")
    for seat, name in zip(seats, NAMES, strict=True):
        Player.objects.filter(pk=seat.registration.player_id).update(full_name=name)
    add_deals(table, deals)
    return table


def add_deals(table: Table, count: int) -> None:
    """The table's next `count` deals: lielais won and lost, everyone passing (common pules),
    a penalty pule after deal 6."""
    players = seat_keys(table)
    first_dealer = players[table.first_dealer_position - 1]
    writer = Writer(ip_address="10.0.0.9")
    position = DealResult.objects.filter(table=table).values("position").distinct().count()
    played = DealResult.objects.filter(table=table).exclude(kind="penalty").count()
    for index in range(played, played + count):
        dealer = dealer_for(players, first_dealer, index)
        playing = [player for player in players if player != dealer]
        declarer = playing[index % 3]
        if index % 7 == 3:
            entry = Pass()
        elif index % 5 == 4:
            entry = Play(Game.LIELAIS, declarer, tricks=2, points=40)
        else:
            entry = Play(Game.LIELAIS, declarer, tricks=5, points=61 + index)
        position += 1
        services.deal_record(
            table=table, entry=entry, position=position, client_key=next(keys), writer=writer
        )
        if index == 5:
            position += 1
            services.deal_record(
                table=table,
                entry=PenaltyPule(players[2]),
                position=position,
                client_key=next(keys),
                writer=writer,
            )


def in_view(page, selector: str) -> bool:
    """The element is on the screen as the page stands now (not scrolled off)."""
    box = page.locator(selector).first.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= PHONE["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= PHONE["width"]
    )


# Whether an input shows its placeholder whole: the same text typed in is measured in the box.
PLACEHOLDER_AND_ROOM = """
(input) => {
  const typed = input.value;
  input.value = input.placeholder;
  const sizes = [input.scrollWidth, input.clientWidth];
  input.value = typed;
  return sizes;
}
"""


def test_a_table_of_four_with_many_deals_on_the_phone_then_public(live_server, open_page, shots):
    table = table_of_four_with_deals(DEALS - 4)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    players = seat_keys(table)
    page = open_page()
    page.goto(f"{live_server.url}/r/{token}/")
    page.screenshot(path=str(shots / "sheet-4-360-lv.png"), full_page=True)
    assert_fits_the_phone(page)
    # Every column on screen without a swipe: the four players, the open common pules (deal 4
    # was passed), each row's correction link.
    assert_does_not_scroll_sideways(page, ".entry-sheet-wrap")
    for shown in (
        ".entry-sheet thead .entry-player >> nth=3",
        "#entry-4 .entry-pules-inline",
        "#entry-3 a.entry-no-link[href*='correct=3']",
    ):
        assert page.locator(shown).is_visible(), shown
        box = page.locator(shown).bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], shown
    headings = page.locator(".entry-sheet thead .entry-player").all_inner_texts()
    assert headings == ["KŠ", "AJ", "KP", "MĶ"]
    no_violations(page)

    # Saving the next deal: the saved deal and, beside the next Save button, the word that
    # every entry is on the server, in view.
    saved_position = DealResult.objects.filter(table=table).count() + 1
    dealer = page.locator(".entry-next").inner_text()
    assert dealer
    declarer = next(
        key
        for key in players
        if page.locator(f"input[name='deal-declarer'][value='{key}']").count()
    )
    enter_lielais(page, declarer, points=88, tricks=6)
    assert DealResult.objects.filter(table=table).count() == saved_position
    page.screenshot(path=str(shots / "sheet-4-saved-360-lv.png"))
    assert in_view(page, f"#entry-{saved_position}")
    assert in_view(page, "#entry-form .entry-deal-form [data-queue-status][data-waiting='0']")
    assert in_view(page, "#entry-form .entry-deal-form .entry-submit")
    assert_fits_the_phone(page)
    no_violations(page)

    # The last deals, then a player at the table confirms it: its sheet is public, deal by deal,
    # linked from the round page; read-only, and it fits the phone too.
    add_deals(table, DEALS - DealResult.objects.filter(table=table).exclude(kind="penalty").count())
    page.goto(f"{live_server.url}/r/{token}/")
    page.check(f"input[name='confirm-confirmer'][value='{players[1]}']")
    send_entry(page, f"button:has-text('{t('Confirm the table')}')")
    assert TableResult.objects.filter(table=table).exists()
    assert in_view(page, ".entry-locked")
    assert_fits_the_phone(page)
    page.goto(f"{live_server.url}/t/garais-galds/rounds/1/")
    # The player search says in full what it searches for.
    shown, room = page.locator("form.search input[name=q]").evaluate(PLACEHOLDER_AND_ROOM)
    assert shown <= room, f"the search's placeholder needs {shown}px, has {room}px"
    page.click(f"a:has-text('{t('The score sheet, deal by deal')}')")
    page.wait_for_url(f"{live_server.url}/t/garais-galds/rounds/1/tables/1/")
    page.screenshot(path=str(shots / "public-sheet-360-lv.png"), full_page=True)
    assert page.locator(".entry-sheet tbody tr").count() == DEALS + 1  # and the penalty
    assert page.locator(".entry-settlement").is_visible()
    assert page.locator("main form").count() == 0
    assert page.locator(".entry-no-pencil").count() == 0
    assert_fits_the_phone(page)
    assert_does_not_scroll_sideways(page, ".entry-sheet-wrap")
    no_violations(page)


def test_the_page_read_again_after_saving_a_deal_brings_the_next_deal_with_an_empty_form(
    live_server, open_page
):
    table = table_of_four_with_deals(2)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    page = open_page()
    page.goto(f"{live_server.url}/r/{token}/")
    declarer = page.locator("input[name='deal-declarer']").last.get_attribute("value")
    enter_lielais(page, declarer, points=88, tricks=6)
    assert DealResult.objects.filter(table=table).count() == 3

    # The page loaded again: the browser must not fill the next deal's form with what was typed
    # for the last one (it restores radio buttons by their position).
    page.reload()
    heading = t("Deal %(number)s of %(total)s", number=4, total=DEALS)
    page.get_by_role("heading", name=heading).wait_for()
    form = page.locator("form.entry-deal-form")
    assert form.locator("input[name='deal-position']").input_value() == "4"
    assert form.locator("input[type=radio]:checked").count() == 0
    assert form.locator("input[name='deal-points']").input_value() == ""
    assert form.locator("input[name='deal-tricks']").input_value() == ""

    # A browser that keeps the page in its back-forward cache all the same: the page is read
    # again, its form empty (as Chromium signals such a restore: pageshow, event.persisted).
    page.check("input[name='deal-game'][value='lielais']")
    page.locator("input[name='deal-declarer']").first.check()
    page.fill("input[name='deal-points']", "70")
    with page.expect_navigation():
        page.evaluate(
            "window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
        )
    form = page.locator("form.entry-deal-form")
    assert form.locator("input[type=radio]:checked").count() == 0
    assert form.locator("input[name='deal-points']").input_value() == ""
    no_violations(page)


NAME_STAYS_IN_VIEW = """
scroller => {
  scroller.scrollIntoView();
  scroller.scrollLeft = scroller.scrollWidth;
  const box = scroller.getBoundingClientRect();
  const link = scroller.querySelector("tbody tr a");
  const name = link.getClientRects()[0];  // its first line
  const seen = document.elementFromPoint(name.left + 2, name.top + name.height / 2);
  const result = {
    scrolled: scroller.scrollLeft > 0,
    inside: name.left >= box.left - 1 && name.right <= box.right + 1,
    onTop: seen !== null && link.closest("td, th").contains(seen),
    name: link.innerText,
    seen: seen && seen.outerHTML.slice(0, 80),
  };
  scroller.scrollLeft = 0;
  return result;
}
"""


def assert_the_names_stay_in_view(page, scroller: str) -> None:
    """Swiped to the table's last column, the player's name (the row's first link) is still on
    screen, not covered by the cells that scrolled under it."""
    seen = page.locator(scroller).first.evaluate(NAME_STAYS_IN_VIEW)
    assert seen["inside"] and seen["onTop"], f"{page.url}: {seen}"


def test_the_public_standings_rating_and_a_players_page_fit_the_phone(
    live_server, open_page, shots
):
    tournament = simulate_tournament(
        players=27, rounds=5, deals=12, seed=3, slug="piecas-kartas", fast=True
    )
    ranking_services.ranking_recompute()
    page = open_page()

    page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    page.screenshot(path=str(shots / "standings-360-lv.png"), full_page=True)
    assert_fits_the_phone(page)
    # Five rounds do not fit: the table scrolls, the name stays.
    assert_the_names_stay_in_view(page, ".standings-live .table-scroll")
    no_violations(page)

    page.goto(f"{live_server.url}/ranking/rating/")
    page.screenshot(path=str(shots / "rating-360-lv.png"), full_page=True)
    assert_fits_the_phone(page)
    assert_the_names_stay_in_view(page, ".table-scroll")
    no_violations(page)

    player = Player.objects.filter(registrations__tournament=tournament).order_by("pk").first()
    page.goto(f"{live_server.url}/players/{player.pk}/")
    page.screenshot(path=str(shots / "player-360-lv.png"), full_page=True)
    assert page.locator("table.player-rounds tbody tr").count() == 5
    assert_fits_the_phone(page)
    # His rounds fit without a swipe; a table that does not keeps the tournament's name in view.
    assert_does_not_scroll_sideways(page, ".table-scroll:has(table.player-rounds)")
    no_violations(page)
