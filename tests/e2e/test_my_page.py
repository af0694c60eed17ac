"""The player's own page on his phone: after two rounds it shows his table in the third with the
clock, his results and his place; it fits 360 px and, once opened online, opens again with no
network from its last copy, saying so and from when."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import make_organiser, make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals, publish_next_round
from tournaments import services
from tournaments.models import Round, RoundStatus
from tournaments.services import CategoryRow

from .conftest import assert_fits_the_phone, no_violations, t

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
KEPT = """
async () => {
  const cache = await caches.open("zole-my-pages");
  return (await cache.keys()).map((request) => new URL(request.url).pathname);
}
"""


def a_tournament_after_two_rounds():
    """Eight players, two rounds played and closed, the third seated with its clock running."""
    tournament = make_tournament(
        name="Gulbenes kauss", slug="gulbene", rounds_planned=4, round_time_limit=60
    )
    make_registrations(tournament, 8, clubs=2)
    services.fee_categories_save(
        tournament=tournament, rows=[CategoryRow(None, "Standarta", Decimal(15))], by=None
    )
    services.fees_paid_set(tournament=tournament, paid=tournament.registrations.all()[:4], by=None)
    for number in (1, 2):
        round_ = publish_next_round(tournament, seed=number)
        for table in round_.tables.all():
            confirm_with_totals(table, dict(zip(seat_keys(table), [12, 4, -4, -12], strict=True)))
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    organiser = make_organiser()
    tournament.organisers.add(organiser)
    services.round_clock_start(round_=publish_next_round(tournament, seed=3), by=organiser)
    return tournament.registrations.first()


def test_the_page_opens_offline_from_its_last_copy(live_server, open_page, shots):
    entry = a_tournament_after_two_rounds()
    path = reverse("public:my_check_in", args=["gulbene", entry.check_in_token])
    page = open_page()  # a Latvian phone, 360 px

    page.goto(live_server.url + path)
    page.wait_for_function(CONTROLLED)
    page.reload()  # under the worker now: this answer is kept
    assert page.locator("h1").inner_text() == entry.player.full_name
    assert page.locator("[data-clock-running]").is_visible()
    assert page.locator(".my-round").count() == 2
    assert page.locator("[data-offline-note]").is_hidden()
    assert_fits_the_phone(page)
    no_violations(page)
    page.screenshot(path=str(shots / "my-page-360.png"), full_page=True)
    for _attempt in range(50):
        if path in page.evaluate(KEPT):
            break
        page.wait_for_timeout(100)
    note = page.locator("[data-offline-note]").text_content()

    page.context.set_offline(True)
    page.reload()

    assert page.locator("[data-offline-note]").is_visible()
    assert page.locator("[data-offline-note]").text_content() == note
    before_time = t("No connection: the last copy of your page, from %(time)s.", time="|")
    assert note.startswith(before_time.split("|")[0])
    assert page.locator("h1").inner_text() == entry.player.full_name
    assert page.locator(".my-round").count() == 2
    assert page.locator("[data-round-clock]").is_hidden()  # its time left was the copy's
    no_violations(page)  # the kept copy keeps the page's strict policy
    page.screenshot(path=str(shots / "my-page-360-offline.png"), full_page=True)

    wide = open_page(1280, 900)
    wide.goto(live_server.url + path)
    wide.screenshot(path=str(shots / "my-page-1280.png"), full_page=True)
