"""Entry fees and prizes in the browser, in Latvian: the organiser sets the split and the fee
categories, ticks the fees at check-in, a round is played with tied players, and the prize page
and its PDF list prizes that add up to the fund, the tied players sharing theirs."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from playwright.sync_api import expect

from tests.factories import make_organiser, make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm_with_totals
from tournaments.models import Registration, Round, RoundStatus
from tournaments.services import round_create

from .conftest import assert_fits_the_phone, no_violations, pdf_text, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/event-prizes")


def test_fees_ticked_at_check_in_pay_a_prize_list_that_adds_up_to_the_fund(live_server, open_page):
    SHOTS.mkdir(exist_ok=True)
    make_organiser(username="rita")
    tournament = make_tournament(slug="gulbene", name="Gulbenes kauss", rounds_planned=1)
    make_registrations(tournament, 6, clubs=2)
    round_create(tournament=tournament)
    lady = Registration.objects.filter(tournament=tournament).order_by("pk").first()
    base = f"{live_server.url}/organise/t/gulbene"

    page = open_page(360, 740)
    sign_in(page, live_server, "rita", "/organise/t/gulbene/settings/")

    # The split: 20 % for costs, 50 30 20 to places 1-3.
    page.fill("#id_prize_costs_percent", "20")
    page.fill("#id_prize_shares", "50 30 20")
    page.click(f"form.stacked button:has-text('{t('Save')}')")
    expect(page.locator(f"text={t('Settings saved.')}")).to_be_visible()

    # The fee categories: the standard fee and a reduced one for ladies.
    page.goto(f"{base}/fees/")
    page.fill("#id_fees-0-name", "Standarta")
    page.fill("#id_fees-0-amount", "15")
    page.fill("#id_fees-1-name", "Dāmām")
    page.fill("#id_fees-1-amount", "10,00")
    page.click(f"form.fee-categories button:has-text('{t('Save')}')")
    expect(page.locator(f"text={t('Fee categories saved.')}")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "fees-360.png"), full_page=True)

    page.goto(f"{base}/registrations/{lady.pk}/")
    page.select_option("#id_registration-fee_category", label="Dāmām")
    page.click(f"form.stacked button:has-text('{t('Save')}')")
    expect(page.locator(f"text={t('Registration saved.')}")).to_be_visible()

    # Check-in: everyone present, everyone pays; the ticks go with the seating.
    page.goto(f"{base}/rounds/1/")
    page.click(f"[data-select-all=id_registrations]:has-text('{t('Tick all')}')")
    expect(page.locator("#id_paid").get_by_text("Dāmām 10,00 €")).to_be_visible()
    for tick in page.locator("#id_paid input[type=checkbox]").all():
        tick.check()
    assert page.locator("#id_paid input:checked").count() == 6
    assert_fits_the_phone(page)
    page.screenshot(path=str(SHOTS / "check-in-360.png"), full_page=True)
    page.click(f"button:has-text('{t('Generate')}')")
    paid = t("%(count)d fee paid.", "%(count)d fees paid.", 6) % {"count": 6}
    expect(page.locator(f"text={paid}")).to_be_visible()
    page.click(f"button:has-text('{t('Publish round %(number)s', number=1)}')")
    expect(page.locator(f"text={t('Round %(number)d published.', number=1)}")).to_be_visible()
    assert Registration.objects.filter(fee_paid_at__isnull=False).count() == 6

    # The round is played: both tables end 10, 0, -10, so places 1-2, 3-4 and 5-6 are shared.
    round_ = Round.objects.get(tournament=tournament, number=1)
    for table in round_.tables.all():
        confirm_with_totals(table, dict(zip(seat_keys(table), [10, 0, -10], strict=True)))
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)

    # The fund is 5 × 15 € + 10 € = 85 €; 17 € for costs; 68 € of prizes: 34 €, 20,40 €, 13,60 €.
    page.goto(f"{base}/prizes/")
    rows = page.locator("table.prize-list tbody tr")
    expect(rows).to_have_count(4)
    texts = [rows.nth(index).inner_text().replace("\u00a0", " ") for index in range(4)]
    assert [text.split()[0] for text in texts] == ["1–2", "1–2", "3–4", "3–4"]
    assert [text.split()[-2] for text in texts] == ["27,20", "27,20", "6,80", "6,80"]
    body = page.locator("main").inner_text().replace("\u00a0", " ")
    for amount in ("85,00 €", "17,00 €", "68,00 €"):
        assert amount in body, amount
    assert_fits_the_phone(page)
    no_violations(page)
    page.screenshot(path=str(SHOTS / "prizes-360.png"), full_page=True)

    desk = open_page(1366, 900)
    sign_in(desk, live_server, "rita", "/organise/t/gulbene/prizes/")
    desk.screenshot(path=str(SHOTS / "prizes-1366.png"), full_page=True)

    # The printed list reads the same, signed like the protocol.
    response = page.request.get(f"{base}/prizes.pdf")
    assert response.headers["content-type"] == "application/pdf"
    text = pdf_text(response.body())
    for expected in ("85,00 €", "17,00 €", "68,00 €", "27,20 €", "6,80 €", "1–2", "3–4"):
        assert expected in text, expected
    assert text.count("27,20 €") == 2
    assert t("Secretary") in text
    assert t("Prizes paid by") in text
    pdf = pypdfium2.PdfDocument(response.body())
    pdf[0].render(scale=1.5).to_pil().save(SHOTS / "prizes-pdf.png")
