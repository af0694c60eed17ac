"""A Russian-speaking referee and a Latvian organiser each use the application in their own
language, on a phone. Every text the tests look for is the catalogue's translation
(checked to differ from the English), so an untranslated page fails here."""

import pytest
from django.utils import translation

from scoring.models import DealResult, TableResult
from tests.factories import (
    make_organiser,
    make_published_round,
    make_registrations,
    make_tournament,
)
from tournaments.models import Round, Seat, TableToken

from .conftest import assert_fits_the_phone, send_entry

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = 12


def in_language(language: str):
    """`t("Save the deal")`: the text in `language`, refused if the catalogue lacks it."""

    def t(message: str, **params: object) -> str:
        with translation.override(language):
            text = translation.gettext(message)
        assert text != message, f"{message!r} is not translated to {language}"
        return text % params if params else text

    return t


def test_a_russian_speaking_referee_enters_and_confirms_his_table_in_russian(live_server, phone_in):
    t = in_language("ru")
    tournament = make_tournament(slug="kauss", deals_per_round=DEALS)
    round_one = make_published_round(tournament, players=3)
    table = round_one.tables.get()
    seats = [
        str(registration_id)
        for registration_id in table.seats.values_list("registration_id", flat=True)
    ]
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    page = phone_in("ru-RU")

    page.goto(f"{live_server.url}/r/{token}/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator(f"legend:has-text('{t('Game')}')").first.is_visible()
    assert_fits_the_phone(page)

    # A deal the engine refuses: its message in Russian, nothing stored.
    page.check("input[name='deal-game'][value='lielais']")
    page.check(f"input[name='deal-declarer'][value='{seats[1]}']")
    page.fill("input[name='deal-points']", "1")
    page.fill("input[name='deal-tricks']", "0")
    send_entry(page, f"button:has-text('{t('Save the deal')}')")
    refusal = t("points cannot be %(value)s: no set of cards is worth 1 point", value=1)
    assert page.get_by_text(refusal).first.is_visible()
    assert not DealResult.objects.exists()

    for number in range(1, DEALS + 1):
        page.check("input[name='deal-game'][value='lielais']")
        page.check(f"input[name='deal-declarer'][value='{seats[number % 3]}']")
        page.fill("input[name='deal-points']", "75")
        page.fill("input[name='deal-tricks']", "5")
        send_entry(page, f"button:has-text('{t('Save the deal')}')")
        assert DealResult.objects.filter(table=table).count() == number

    page.check(f"input[name='confirm-confirmer'][value='{seats[2]}']")
    send_entry(page, f"button:has-text('{t('Confirm the table')}')")
    assert TableResult.objects.filter(table=table).exists()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert_fits_the_phone(page)

    # The public standings, still in Russian: the browser's language is remembered nowhere
    # else, it is simply asked for again.
    page.goto(f"{live_server.url}/t/kauss/standings/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator(f"th:has-text('{t('Place points')}')").first.is_visible()


def test_a_latvian_organiser_prepares_and_publishes_a_round_in_latvian(live_server, phone_in):
    t = in_language("lv")
    make_organiser(username="rita")
    tournament = make_tournament(slug="ziemas-kauss", name="Ziemas kauss")
    make_registrations(tournament, 9)
    page = phone_in("lv-LV")

    page.goto(f"{live_server.url}/organise/")
    assert page.locator("html").get_attribute("lang") == "lv"
    page.fill("#id_username", "rita")
    page.fill("#id_password", "zole-pass-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/organise/")

    page.goto(f"{live_server.url}/organise/t/ziemas-kauss/")
    page.click(f"button:has-text('{t('Prepare round %(number)s', number=1)}')")
    page.wait_for_url(f"{live_server.url}/organise/t/ziemas-kauss/rounds/1/")
    page.fill("#id_seed", "2026")
    page.click(f"button:has-text('{t('Generate')}')")
    assert page.get_by_text(t("Seating generated with seed %(seed)s.", seed=2026)).is_visible()
    assert page.locator(".seating-table").count() == 3
    assert_fits_the_phone(page)

    page.click(f"button:has-text('{t('Publish round %(number)s', number=1)}')")
    assert page.get_by_text(t("Round %(number)d published.", number=1)).is_visible()
    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.status == "published"
    assert Seat.objects.filter(table__round=round_one).count() == 9

    # The switcher: Russian for a moment, remembered on the next page, then Latvian again.
    page.click("nav.language-switch a[hreflang=ru]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ru"
    page.goto(f"{live_server.url}/organise/t/ziemas-kauss/")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.click("nav.language-switch a[hreflang=lv]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "lv"
    assert page.url == f"{live_server.url}/organise/t/ziemas-kauss/"
