"""The Content-Security-Policy breaks nothing in a real browser: htmx (from /static/js) refreshes
the live standings, the organiser's player filter (static/js/filter-list.js) filters, the table
sheet works, and Chromium reports no violation on any of them."""

import pytest

from tests.factories import make_organiser, make_published_round, make_tournament
from tests.tournament_play import confirm_with_totals
from tournaments.models import TableToken

pytestmark = pytest.mark.django_db(transaction=True)

# Collects every violation the page reports (an init script runs outside the page's policy).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


def violations(page) -> list[str]:
    return page.evaluate("window.__violations")


def test_htmx_filter_and_sheet_work_under_the_policy(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="lv-LV")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    try:
        tournament = make_tournament(slug="politika", deals_per_round=12)
        round_one = make_published_round(tournament, players=7)  # tables of 4 and 3
        first, second = round_one.tables.order_by("number")
        confirm_with_totals(
            first, dict.fromkeys(map(str, first.seats.values_list("registration_id", flat=True)), 0)
        )

        # Live standings (a table still in play): htmx loads and refreshes the live part.
        page.goto(f"{live_server.url}/t/politika/standings/")
        assert page.evaluate("typeof window.htmx") == "object"
        with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true") as hx:
            page.evaluate(
                "htmx.ajax('GET', location.pathname, "
                "{target: '#standings-live', swap: 'outerHTML'})"
            )
        assert hx.value.status == 200
        page.wait_for_selector("#standings-live table")
        assert violations(page) == []

        # The table's sheet, through its private link.
        token = TableToken.objects.get(table=second, revoked_at__isnull=True).token
        page.goto(f"{live_server.url}/r/{token}/")
        assert page.locator("form.entry-deal-form").count() == 1
        assert violations(page) == []

        # The organiser's filter over the players not yet registered.
        make_organiser(username="rita")
        make_tournament(slug="filtrs")  # nobody registered: every player is offered
        page.goto(f"{live_server.url}/accounts/login/?next=/organise/t/filtrs/registrations/")
        page.fill("#id_username", "rita")
        page.fill("#id_password", "zole-pass-123")
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(f"{live_server.url}/organise/t/filtrs/registrations/")
        labels = page.locator("#id_players label")
        total = labels.count()
        assert total >= 7
        name = labels.first.inner_text().strip()
        page.fill("[data-filter-list]", name)
        visible = [label.inner_text().strip() for label in labels.all() if label.is_visible()]
        assert name in visible and len(visible) < total
        assert all(name.lower() in text.lower() for text in visible)
        assert violations(page) == []

        assert not [text for text in console_errors if "Content Security Policy" in text]
    finally:
        context.close()
