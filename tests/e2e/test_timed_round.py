"""A timed round in Latvian, as federation events play them: the organiser starts the round clock on
a phone, the referee's sheet counts down in the browser, the chief referee calls time from his
dashboard, the referee's clock says so, the table enters the deal under way and is confirmed short;
the hall display fits a 1920×1080 screen (its long list scrolling by itself) and a 360 px phone. No
Content-Security-Policy violation on any page.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import pytest

from scoring.models import DealResult, TableResult
from tests.factories import make_organiser, make_published_round, make_tournament, make_user
from tournaments.models import Round, TableToken

from .conftest import (
    assert_fits_the_phone,
    enter_lielais,
    no_violations,
    send_entry,
    sign_in,
    t,
)

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 60  # twenty tables of three: the display's list of names is longer than the screen
HALL = {"width": 1920, "height": 1080}


def test_a_timed_round_from_the_clock_to_a_short_table_and_the_hall_display(
    live_server, open_page, shots
):
    tournament = make_tournament(
        slug="laika-kauss", name="Laika kauss", deals_per_round=12, round_time_limit=50
    )
    round_one = make_published_round(tournament, players=PLAYERS)
    make_organiser(username="rita")
    chief = make_user(username="galvenais")
    tournament.chief_referees.add(chief)
    table = round_one.tables.get(number=1)
    seats = [
        str(registration_id)
        for registration_id in table.seats.order_by("position").values_list(
            "registration_id", flat=True
        )
    ]
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    round_url = "/organise/t/laika-kauss/rounds/1/"

    # The organiser starts the clock on his phone.
    organiser = open_page()
    sign_in(organiser, live_server, "rita", round_url)
    start = t(
        "Start the clock: %(minutes)s minute",
        "Start the clock: %(minutes)s minutes",
        50,
        minutes=50,
    )
    organiser.click(f"button:has-text('{start}')")
    organiser.wait_for_url(f"{live_server.url}{round_url}#round-clock")
    assert organiser.get_by_text(
        t("The clock of round %(number)d is running.", number=1)
    ).is_visible()
    assert Round.objects.get(pk=round_one.pk).clock_started_at is not None
    clock = organiser.locator("#round-clock-organiser [data-clock-time]")
    assert clock.is_visible()
    assert_fits_the_phone(organiser)
    organiser.evaluate("window.scrollTo(0, 0)")  # the page came back at its #round-clock
    organiser.screenshot(path=str(shots / "organiser-round-lv.png"))
    no_violations(organiser)

    # The referee's sheet: the time left ticks in the browser.
    referee = open_page()
    referee.goto(f"{live_server.url}/r/{token}/")
    time_left = referee.locator("#round-clock-sheet [data-clock-time]")
    first = time_left.inner_text()
    assert first.startswith(("49:", "50:"))
    referee.wait_for_function(
        "shown => document.querySelector('#round-clock-sheet [data-clock-time]')"
        ".textContent !== shown",
        arg=first,
    )
    assert referee.get_by_text(t("Time left")).first.is_visible()
    enter_lielais(referee, seats[1])
    enter_lielais(referee, seats[2])
    assert DealResult.objects.filter(table=table).count() == 2
    assert_fits_the_phone(referee)
    referee.screenshot(path=str(shots / "referee-clock-lv.png"), full_page=True)
    no_violations(referee)

    # The chief referee calls time from his dashboard.
    chief_page = open_page()
    sign_in(chief_page, live_server, "galvenais", "/organise/")
    chief_page.click(f"summary:has-text('{t('Call time now')}')")
    chief_page.click(f"button:has-text('{t('Call time')}')")
    chief_page.wait_for_load_state()
    assert Round.objects.get(pk=round_one.pk).time_called_at is not None
    assert chief_page.get_by_text(t("Time is up")).first.is_visible()
    no_violations(chief_page)

    # The referee's clock learns it from the server (htmx fetches it every 20 s: at once here).
    referee.evaluate(
        "clock => htmx.ajax('GET', clock.getAttribute('hx-get'),"
        " {target: '#round-clock-sheet', swap: 'outerHTML'})",
        referee.locator("#round-clock-sheet").element_handle(),
    )
    referee.locator("#round-clock-sheet.is-up").wait_for()
    assert referee.locator("#round-clock-sheet [data-clock-time]").count() == 0
    # Read again, the sheet says what the table still enters: the deal under way, no other.
    referee.goto(f"{live_server.url}/r/{token}/")
    under_way = t(
        "Time is up: enter only the deal that was under way (deal %(number)s), then confirm "
        "the table.",
        number=3,
    )
    assert referee.get_by_text(under_way).is_visible()
    referee.screenshot(path=str(shots / "referee-time-up-lv.png"), full_page=True)

    # The deal under way is entered; then the sheet offers no other deal, only to confirm.
    enter_lielais(referee, seats[0], points=40, tricks=3)
    assert referee.get_by_text(
        t("Time is up: the table's round ends after deal %(number)s", number=3)
    ).is_visible()
    assert referee.locator("input[name='deal-game']").count() == 0
    assert referee.get_by_text(under_way).count() == 0
    referee.screenshot(path=str(shots / "referee-deal-under-way-entered-lv.png"), full_page=True)
    referee.check(f"input[name='confirm-confirmer'][value='{seats[2]}']")
    send_entry(referee, f"button:has-text('{t('Confirm after deal %(number)s', number=3)}')")
    result = TableResult.objects.get(table=table)
    assert (result.time_called, result.last_position) == (True, 3)
    assert referee.get_by_text(t("time called after deal %(number)s", number=3)).is_visible()
    assert referee.locator("tr.entry-settlement").is_visible()
    assert_fits_the_phone(referee)
    referee.screenshot(path=str(shots / "referee-confirmed-short-lv.png"), full_page=True)
    no_violations(referee)

    # The organiser's page says it too.
    organiser.goto(f"{live_server.url}{round_url}")
    assert organiser.get_by_text(
        t("time called after deal %(number)s", number=3)
    ).first.is_visible()

    # The hall display on a 1920×1080 screen: exactly the screen, the clock says time is up,
    # every player is listed and the list of names scrolls by itself.
    hall = open_page(**HALL)
    hall.goto(f"{live_server.url}/t/laika-kauss/display/")
    hall.get_by_text(t("Time is up")).first.wait_for()
    size = hall.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size == [HALL["width"], HALL["height"]], size
    names = hall.locator(".display-player-list tbody tr")
    assert names.count() == PLAYERS
    players = hall.locator("#display-scroll-players")
    assert players.evaluate("list => list.scrollHeight > list.clientHeight")
    hall.wait_for_function(
        "() => document.querySelector('#display-scroll-players').scrollTop > 0", timeout=15_000
    )
    assert hall.get_by_role("heading", name=t("Find your table")).is_visible()
    assert not hall.locator(".display-jump").is_visible()  # the phone's links to each list
    hall.screenshot(path=str(shots / "display-1920-lv.png"))
    no_violations(hall)

    # ... and on a phone: an ordinary page, no wider than the phone, nothing scrolling by itself.
    phone = open_page()
    phone.goto(f"{live_server.url}/t/laika-kauss/display/")
    assert_fits_the_phone(phone)
    assert phone.evaluate("document.querySelector('#display-scroll-players').scrollTop") == 0
    assert phone.get_by_role("heading", name=t("Seating by table")).is_visible()
    assert phone.locator(".display-jump").is_visible()
    phone.screenshot(path=str(shots / "display-360-lv.png"))
    no_violations(phone)


def in_view(page, selector: str) -> dict:
    """The element's box and the screen's height, as the phone shows them now."""
    return page.evaluate(
        "selector => { const box = document.querySelector(selector).getBoundingClientRect();"
        " return {top: box.top, bottom: box.bottom, height: window.innerHeight}; }",
        selector,
    )


def test_on_a_phone_after_a_save_the_next_save_button_is_in_view_and_d_stands_apart(
    live_server, open_page, shots
):
    """A referee saves deal after deal on a 360×740 phone: after each save the next deal's Save
    button is on the screen, and the dealer's "D" does not touch a negative total."""
    tournament = make_tournament(slug="telefons", name="Telefona kauss", deals_per_round=12)
    round_one = make_published_round(tournament, players=8)  # two tables of four
    table = round_one.tables.get(number=1)
    seats = [
        str(registration_id)
        for registration_id in table.seats.order_by("position").values_list(
            "registration_id", flat=True
        )
    ]
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    referee = open_page()
    referee.goto(f"{live_server.url}/r/{token}/")
    save = "#entry-form form.entry-deal-form button.entry-submit"
    for number in range(1, 6):
        sitting_out = referee.locator("input[name='deal-sits_out']").get_attribute("value")
        declarer = next(key for key in seats if key != sitting_out)
        # A lost lielais: negative totals beside the dealer's mark.
        enter_lielais(referee, declarer, points=40, tricks=3)
        assert DealResult.objects.filter(table=table).count() == number
        box = in_view(referee, save)
        if number == 1:
            referee.screenshot(path=str(shots / "referee-after-first-save-360-lv.png"))
        assert box["top"] >= 0 and box["bottom"] <= box["height"], (number, box)
    referee.screenshot(path=str(shots / "referee-after-save-360-lv.png"))
    gaps = referee.evaluate(
        "() => Array.from(document.querySelectorAll('.entry-cell.is-dealer')).map(cell => {"
        " const mark = cell.querySelector('.entry-dealer-mark').getBoundingClientRect();"
        " const text = document.createRange();"
        " text.selectNodeContents(cell.querySelector('.total'));"
        " return text.getBoundingClientRect().left - mark.right; })"
    )
    assert gaps and min(gaps) >= 4, gaps
    assert_fits_the_phone(referee)
    no_violations(referee)
