"""The event day in Latvian on 360 px phones: a player finds himself on the check-in page and
checks himself in by the code the hall's screen shows (the display's private link; the public
display never shows it), another with his own link; the organiser sees both on the round page.
In play, a table calls the chief referee from its sheet, the table sees that he is called, and
the chief referee answers the call from his dashboard. No Content-Security-Policy violation on
any page.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import re

import pytest

from hall.models import RefereeCall
from hall.services.display_links import display_link_issue
from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_player, make_tournament, make_user
from tournaments import services
from tournaments.models import CheckIn, CheckInMethod, Registration, TableToken

from .conftest import assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = (
    "Jānis Bērziņš",
    "Kristīne Ozoliņa",
    "Konstantīns Vasiļjevskis",
    "Līga Kalniņa",
    "Pēteris Vītols",
    "Ērika Zariņa",
)


def test_a_player_checks_himself_in_and_a_table_calls_the_referee(live_server, open_page, shots):
    from playwright.sync_api import expect

    tournament = make_tournament(slug="gulbenes-kauss", name="Gulbenes kauss", deals_per_round=3)
    entries = [
        Registration.objects.create(tournament=tournament, player=make_player(full_name=name))
        for name in NAMES
    ]
    make_organiser(username="rita")
    tournament.organisers.add(make_user(username="organizators"))
    chief = make_user(username="galvenais")
    tournament.chief_referees.add(chief)
    round_one = services.round_create(tournament=tournament)
    code = round_one.check_in_code
    round_url = "/organise/t/gulbenes-kauss/rounds/1/"

    # The hall's screen, by the organiser's private link, shows the round's code in large
    # type, on a phone too; the public display says where to check in, never the code.
    private = display_link_issue(tournament=tournament, by=None).token
    display = open_page()
    display.goto(f"{live_server.url}/t/gulbenes-kauss/display/{private}/")
    assert display.locator(".display-check-in-code").inner_text() == code
    assert_fits_the_phone(display)
    display.screenshot(path=str(shots / "display-check-in-code-360-lv.png"))
    no_violations(display)
    hall = open_page(1366, 900)
    hall.goto(f"{live_server.url}/t/gulbenes-kauss/display/{private}/")
    assert hall.locator(".display-check-in-code").is_visible()
    hall.screenshot(path=str(shots / "display-check-in-code-1366-lv.png"))
    public = open_page(1366, 900)
    public.goto(f"{live_server.url}/t/gulbenes-kauss/display/")
    assert public.locator(".display-check-in").is_visible()
    assert code not in public.content()
    no_violations(public)

    # Jānis finds himself without his name's marks and types the code in lower case.
    player = open_page()
    player.goto(f"{live_server.url}/t/gulbenes-kauss/check-in/")
    player.fill("input[name=q]", "berzins")
    player.click(f"form.search button:has-text('{t('Find')}')")
    match = player.locator(".check-in-match", has_text="Jānis Bērziņš")
    assert match.count() == 1
    match.locator("input[name=code]").fill("AAAA")  # a typo first
    match.locator(f"button:has-text('{t('I am here')}')").click()
    assert player.locator("#check-in-error").is_visible()
    assert_fits_the_phone(player)
    player.screenshot(path=str(shots / "check-in-wrong-code-360-lv.png"), full_page=True)
    assert CheckIn.objects.get(registration=entries[0]).method == CheckInMethod.ROUND

    player.fill("input[name=q]", "berzins")
    player.click(f"form.search button:has-text('{t('Find')}')")
    match = player.locator(".check-in-match", has_text="Jānis Bērziņš")
    match.locator("input[name=code]").fill(code.lower())
    match.locator(f"button:has-text('{t('I am here')}')").click()
    thanks = t("%(name)s is checked in for round %(number)d. Thank you!", name=NAMES[0], number=1)
    assert player.get_by_text(thanks).is_visible()
    assert_fits_the_phone(player)
    player.screenshot(path=str(shots / "check-in-done-360-lv.png"), full_page=True)
    no_violations(player)
    assert CheckIn.objects.get(registration=entries[0]).method == CheckInMethod.CODE

    # Kristīne taps once on her own link.
    own = open_page()
    own.goto(f"{live_server.url}/t/gulbenes-kauss/me/{entries[1].check_in_token}/")
    own.click(f"button:has-text('{t('I am here')}')")
    expect(
        own.get_by_text(t("You are checked in for round %(number)d. Thank you!", number=1))
    ).to_be_visible()
    assert_fits_the_phone(own)
    own.screenshot(path=str(shots / "my-check-in-360-lv.png"), full_page=True)
    no_violations(own)

    # The organiser sees both on the round page, with the code, on his phone.
    organiser = open_page()
    sign_in(organiser, live_server, "rita", round_url)
    section = organiser.locator("#self-check-in")
    assert section.locator(".check-in-code").inner_text() == code
    listed = section.locator(".self-check-in-list tbody td:first-child").all_inner_texts()
    assert listed == [NAMES[1], NAMES[0]]
    assert organiser.locator(f"#hall-display a[href$='/display/{private}/']").count() == 1
    assert_fits_the_phone(organiser)
    section.scroll_into_view_if_needed()
    organiser.screenshot(path=str(shots / "organiser-self-check-in-360-lv.png"))
    no_violations(organiser)
    desk = open_page(1366, 900)
    sign_in(desk, live_server, "rita", "/organise/t/gulbenes-kauss/registrations/")
    assert desk.locator("#self-check-in .check-in-code").inner_text() == code
    desk.locator(".check-in-links summary").click()
    assert desk.locator(".check-in-link-list .check-in-link").count() == len(NAMES)
    desk.locator("#self-check-in").scroll_into_view_if_needed()
    desk.screenshot(path=str(shots / "organiser-entries-links-1366-lv.png"))
    no_violations(desk)

    # The round is seated and published: check-in is closed, the table's sheet calls.
    round_generate_seating(round_=round_one, mode="random", seed=3, by=None)
    services.round_publish(round_=round_one, by=None)
    table = round_one.tables.get(number=2)
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    # The chief referee's dashboard is open before any call.
    chief_page = open_page()
    sign_in(chief_page, live_server, "galvenais", "/organise/")
    assert chief_page.locator("#referee-calls").count() == 0
    referee = open_page()
    referee.goto(f"{live_server.url}/r/{token}/")
    referee.click(f"button:has-text('{t('Call the chief referee')}')")
    referee.wait_for_url(re.compile(r".*#referee-call$"))
    assert referee.locator(".referee-called").is_visible()
    assert (
        t("The chief referee is called, just now.")
        in referee.locator(".referee-called").inner_text()
    )
    assert_fits_the_phone(referee)
    referee.locator("#referee-call").scroll_into_view_if_needed()
    referee.screenshot(path=str(shots / "table-called-360-lv.png"))
    no_violations(referee)

    # The call appears on his dashboard by itself (it polls every 20 s); he answers it.
    calls = chief_page.locator("#referee-calls")
    expect(calls).to_be_visible(timeout=40_000)
    assert t("Table %(number)s", number=2) in calls.inner_text()
    assert_fits_the_phone(chief_page)
    chief_page.screenshot(path=str(shots / "chief-dashboard-call-360-lv.png"))
    calls.locator(f"button:has-text('{t('Answered: table %(number)s', number=2)}')").click()
    chief_page.wait_for_url(re.compile(r".*/organise/#referee-calls$"))
    assert chief_page.locator("#referee-calls").count() == 0
    no_violations(chief_page)
    call = RefereeCall.objects.get(table=table)
    assert call.answered_by == chief and call.answered_at is not None

    # The table's page no longer says he is called.
    referee.goto(f"{live_server.url}/r/{token}/")
    assert referee.locator(".referee-called").count() == 0
