"""An organiser revokes a table's entry link from a phone: the list's button asks first on a
page of its own, and the referee still holding the old link is told it was replaced; a
re-seated round tells its old links' holders to use the new link."""

import pytest

from scoring.services import round_generate_seating
from tests.factories import make_organiser, make_published_round
from tournaments import services as tournament_services
from tournaments.models import TableToken

from .conftest import assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)


def assert_revoking_is_the_quiet_action(row) -> None:
    """Beside a table's link, opening its sheet is the button that stands out; revoking the link
    (which stops the table's phone) is a smaller, plain link, after the others."""
    open_sheet = row.locator("a", has_text=t("Open the sheet"))
    revoke = row.locator("a", has_text=t("Revoke the link"))
    fill = "element => getComputedStyle(element).backgroundColor"
    assert revoke.evaluate(fill) == "rgba(0, 0, 0, 0)"  # no button's fill
    size = "element => parseFloat(getComputedStyle(element).fontSize)"
    assert revoke.evaluate(size) < open_sheet.evaluate(size)
    last = row.locator("td.actions > *").last
    assert last.evaluate("(element, revoke) => element.contains(revoke)", revoke.element_handle())


@pytest.mark.parametrize("width", [360, 1280])
def test_revoking_a_link_asks_first_and_its_holder_is_told(live_server, open_page, shots, width):
    make_organiser(username="rita")
    round_ = make_published_round(players=6)
    table = round_.tables.get(number=1)
    old = TableToken.objects.get(table=table, revoked_at=None).token
    round_url = f"/organise/t/{round_.tournament.slug}/rounds/1/"
    organiser, referee = open_page(width), open_page(width)
    referee.goto(f"{live_server.url}/r/{old}/")
    assert referee.locator("form").count() >= 1  # the sheet, before

    sign_in(organiser, live_server, "rita", round_url)
    organiser.locator("#entry-links").screenshot(path=str(shots / f"link-list-{width}.png"))
    assert_revoking_is_the_quiet_action(organiser.locator("#table-link-1"))
    organiser.locator("#table-link-1").get_by_text(t("Revoke the link")).click()
    question = t("Revoke the entry link of table %(number)s?", number=1)
    assert organiser.locator("h1").inner_text() == question
    if width == 360:
        assert_fits_the_phone(organiser)
    organiser.screenshot(path=str(shots / f"link-revoke-{width}.png"), full_page=True)
    assert TableToken.objects.filter(table=table, revoked_at=None).exists()  # not yet
    organiser.locator("form.actions button[type=submit]").click()
    organiser.wait_for_url(f"{live_server.url}{round_url}#entry-links")
    assert not TableToken.objects.filter(table=table, revoked_at=None).exists()
    no_violations(organiser)

    response = referee.goto(f"{live_server.url}/r/{old}/")
    assert response.status == 410
    assert referee.locator("h1").inner_text() == t("This link was replaced")
    if width == 360:
        assert_fits_the_phone(referee)
    referee.screenshot(path=str(shots / f"link-replaced-{width}.png"), full_page=True)
    no_violations(referee)

    # The round seated again: the other table's link now says so.
    other = TableToken.objects.get(table__round=round_, table__number=2, revoked_at=None).token
    round_generate_seating(
        round_=round_,
        seed=(round_.seed or 0) + 1,
        by=None,
        confirmation=tournament_services.regenerate_confirmation(round_),
    )
    response = referee.goto(f"{live_server.url}/r/{other}/")
    assert response.status == 410
    assert t("This round was re-seated: use the new link of your table.") in (referee.content())
    referee.screenshot(path=str(shots / f"link-reseated-{width}.png"), full_page=True)
    no_violations(referee)
