"""An event day in Latvian, from registration to the prize list. The organiser opens registration
online with its places, sets the fee categories, the prize split and the late rule; players
register on their phones (one twice, refused; one beyond the places waits) and are accepted; at
the round's check-in the fees are ticked and one player checks himself in by the round's code; in
play a late player gets his personal pule on the sheet and a table calls the chief referee, whom
the organiser's round page shows until the call is answered; the round is played with tied players
and the prize page and its PDF share the fund exactly.

Screenshots go to /tmp/event-day/."""

from __future__ import annotations

import datetime
from pathlib import Path

import pypdfium2
import pytest
from django.utils import timezone
from playwright.sync_api import expect

from hall.models import RefereeCall
from scoring.models import SeatResult
from scoring.selectors.prize_standings import prize_list
from signups.models import SignUp, SignUpStatus
from tests.factories import make_organiser, make_registrations, make_tournament, seat_keys
from tests.tournament_play import confirm, confirm_with_totals, favourite_first, play_round_at
from tournaments.models import CheckIn, CheckInMethod, Registration, Round, RoundStatus, TableToken
from tournaments.services import round_create

from .conftest import assert_fits_the_phone, no_violations, pdf_text, register, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/event-day")


def seat_name(table, index: int) -> str:
    return table.seats.order_by("position")[index].registration.player.full_name


def test_an_event_day_from_registration_to_the_prize_list(live_server, open_page):
    SHOTS.mkdir(exist_ok=True)
    organiser = make_organiser(username="rita")
    tournament = make_tournament(
        slug="gulbene", name="Gulbenes kauss", rounds_planned=1, deals_per_round=6
    )
    tournament.organisers.add(organiser)
    make_registrations(tournament, 3, clubs=2)  # registered by hand before registration opens
    base = f"{live_server.url}/organise/t/gulbene"

    # 1. Settings, on the organiser's phone: 6 places online for five days, 20 % for costs and
    # 50 30 20 to places 1-3, a late player waits 3 minutes and is out by deal 4.
    desk = open_page(360, 740)
    sign_in(desk, live_server, "rita", "/organise/t/gulbene/settings/")
    closes = timezone.localtime() + datetime.timedelta(days=5)
    desk.fill("#id_signup_until", closes.strftime("%Y-%m-%dT%H:%M"))
    desk.fill("#id_signup_places", "6")
    desk.fill("#id_prize_costs_percent", "20")
    desk.fill("#id_prize_shares", "50 30 20")
    desk.fill("#id_late_wait_minutes", "3")
    desk.fill("#id_late_out_deal", "4")
    desk.click(f"form.tournament-settings > button:has-text('{t('Save')}')")
    expect(desk.locator(f"text={t('Settings saved.')}")).to_be_visible()
    tournament.refresh_from_db()
    assert (tournament.signup_places, tournament.prize_shares) == (6, "50 30 20")
    assert (tournament.late_wait_minutes, tournament.late_out_deal) == (3, 4)

    desk.goto(f"{base}/fees/")
    desk.fill("#id_fees-0-name", "Standarta")
    desk.fill("#id_fees-0-amount", "15")
    desk.fill("#id_fees-1-name", "Dāmām")
    desk.fill("#id_fees-1-amount", "10,00")
    desk.click(f"form.fee-categories button:has-text('{t('Save')}')")
    expect(desk.locator(f"text={t('Fee categories saved.')}")).to_be_visible()

    # 2. Players register on their phones; the three already registered hold places 1-3.
    phone = open_page()
    phone.goto(f"{live_server.url}/t/gulbene/")
    phone.click(f"a:has-text('{t('Sign up for this tournament')}')")
    phone.wait_for_url(f"{live_server.url}/t/gulbene/register/")
    for number, (name, club) in enumerate(
        [("Anna Ozoliņa", "Ogres Zole"), ("Jānis Bērziņš", "Rīgas Zoles klubs")], start=4
    ):
        register(phone, name, club)
        placed = t(
            "You are signed up: number %(number)d on the list of players.",
            number=number,
        )
        assert phone.get_by_text(placed).is_visible()
    register(phone, "Jānis Bērziņš", "Rīgas Zoles klubs")  # twice: refused, told where he is
    refusal = t("%(name)s has signed up already: %(where)s.") % {
        "name": "Jānis Bērziņš",
        "where": t("number %(number)d on the list of players", number=5),
    }
    assert phone.locator(".errorlist").get_by_text(refusal).is_visible()
    register(phone, "Pēteris Vītols", "Ogres Zole")
    register(phone, "Līga Liepa", "Ogres Zole")  # the places are taken
    waiting = t(
        "Every place is taken: you are number %(number)d on the waiting list. The organiser "
        "moves you to the list when a place frees.",
        number=1,
    )
    assert phone.get_by_text(waiting).is_visible()
    assert phone.locator(".signup-lists ol").nth(1).inner_text().splitlines() == [
        "Līga Liepa (Ogres Zole)"
    ]
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=str(SHOTS / "waiting-list-360.png"), full_page=True)
    assert SignUp.objects.filter(full_name="Jānis Bērziņš").count() == 1

    desk.goto(f"{base}/registrations/")
    desk.click(f"a:has-text('{t('Online sign-up')}')")
    desk.wait_for_url(f"{base}/sign-ups/")
    for name in ("Anna Ozoliņa", "Jānis Bērziņš", "Pēteris Vītols"):
        row = desk.locator("table.signups tr", has_text=name)
        row.locator(f"button:has-text('{t('Accept')}')").click()
        accepted = t("%(name)s: sign-up accepted, registered in the tournament.") % {"name": name}
        expect(desk.get_by_text(accepted)).to_be_visible()
    assert_fits_the_phone(desk)
    desk.screenshot(path=str(SHOTS / "accepted-360.png"), full_page=True)
    assert dict(SignUp.objects.values_list("full_name", "status")) == {
        "Anna Ozoliņa": SignUpStatus.ACCEPTED,
        "Jānis Bērziņš": SignUpStatus.ACCEPTED,
        "Pēteris Vītols": SignUpStatus.ACCEPTED,
        "Līga Liepa": SignUpStatus.WAITING,
    }
    entries = Registration.objects.filter(tournament=tournament)
    assert entries.count() == 6
    anna = entries.get(player__full_name="Anna Ozoliņa")
    janis = entries.get(player__full_name="Jānis Bērziņš")
    desk.goto(f"{base}/registrations/{anna.pk}/")
    desk.select_option("#id_registration-fee_category", label="Dāmām")
    desk.click(f"form.stacked button:has-text('{t('Save')}')")
    expect(desk.locator(f"text={t('Registration saved.')}")).to_be_visible()

    # 3. Round 1's check-in: Jānis checks himself in by the round's code from his phone.
    round_ = round_create(tournament=tournament)
    phone.goto(f"{live_server.url}/t/gulbene/check-in/")
    phone.fill("input[name=q]", "berzins")
    phone.click(f"form.search button:has-text('{t('Find')}')")
    # His own name exactly: the factory's players may be namesakes with a number ("… 64").
    match = phone.locator(".check-in-match").filter(
        has=phone.locator(".check-in-name strong").get_by_text("Jānis Bērziņš", exact=True)
    )
    match.locator("input[name=code]").fill(round_.check_in_code.lower())
    match.locator(f"button:has-text('{t('I am here')}')").click()
    thanks = t(
        "%(name)s is checked in for round %(number)d. Thank you!", name="Jānis Bērziņš", number=1
    )
    assert phone.get_by_text(thanks).is_visible()
    assert CheckIn.objects.get(registration=janis).method == CheckInMethod.CODE

    # The organiser's check-in list shows him; everyone is present and pays.
    desk.goto(f"{base}/rounds/1/")
    section = desk.locator("#self-check-in")
    listed = section.locator(".self-check-in-list tbody td:first-child").all_inner_texts()
    assert listed == ["Jānis Bērziņš"]
    desk.click(f"[data-select-all=id_registrations]:has-text('{t('Tick all')}')")
    expect(desk.locator("#id_paid").get_by_text("Dāmām 10,00 €")).to_be_visible()
    desk.click(f"button:has-text('{t('Everyone present has paid')}')")
    paid = t(
        "Everyone present has paid: %(count)d fee paid in all.",
        "Everyone present has paid: %(count)d fees paid in all.",
        6,
    ) % {"count": 6}
    expect(desk.locator(".messages")).to_contain_text(paid)
    assert desk.locator("#id_paid input:checked").count() == 6
    assert_fits_the_phone(desk)
    section.scroll_into_view_if_needed()
    desk.screenshot(path=str(SHOTS / "check-in-list-360.png"), full_page=True)
    desk.click(f"button:has-text('{t('Generate')}')")
    expect(desk.locator(".seating-table")).to_have_count(2)

    # 4. The round is published; it started 20 minutes ago (its clock set back for the test).
    desk.click(f"button:has-text('{t('Publish round %(number)s', number=1)}')")
    expect(desk.locator(f"text={t('Round %(number)d published.', number=1)}")).to_be_visible()
    assert entries.filter(fee_paid_at__isnull=False).count() == 6
    start = (timezone.now() - datetime.timedelta(minutes=20)).replace(second=0, microsecond=0)
    Round.objects.filter(pk=round_.pk).update(published_at=start)
    one, two = round_.tables.order_by("number")

    # Table 1's referee records a player who came 6 minutes late: his personal pule is on the
    # sheet, with why.
    table_one = open_page()
    token = TableToken.objects.get(table=one, revoked_at=None).token
    table_one.goto(f"{live_server.url}/r/{token}/")
    late = table_one.locator("#late-players")
    latecomer = one.seats.get(position=1).registration
    late.locator(f"input[name='late-player'][value='{latecomer.pk}']").check()
    arrived = timezone.localtime(start + datetime.timedelta(minutes=6)).strftime("%H:%M")
    late.locator("input[name='late-arrived_at']").fill(arrived)
    late.locator("button", has_text=t("Record the late arrival")).click()
    table_one.wait_for_load_state()
    expect(table_one.locator(".entry-sheet tr.entry-penalty")).to_have_count(1)
    why = table_one.locator("#late-players .late-list").inner_text()
    assert latecomer.player.full_name in why
    assert t("late: %(minutes)s min", minutes=6) in why
    assert t("penalty pule, entry %(position)s", position=1) in why
    assert_fits_the_phone(table_one)
    no_violations(table_one)
    table_one.screenshot(path=str(SHOTS / "late-pule-360.png"), full_page=True)

    # 5. Table 2 calls the chief referee; the organiser's dashboard and round page show it; he
    # answers it there.
    table_two = open_page()
    table_two.goto(f"{live_server.url}/r/{TableToken.objects.get(table=two).token}/")
    table_two.click(f"button:has-text('{t('Call the chief referee')}')")
    expect(table_two.locator(".referee-called")).to_be_visible()
    desk.goto(f"{live_server.url}/organise/")  # his dashboard names the tournament too
    assert "Gulbenes kauss" in desk.locator("#referee-calls").inner_text()
    desk.goto(f"{base}/rounds/1/")
    calls = desk.locator("#referee-calls")
    assert t("Table %(number)s", number=2) in calls.inner_text()
    assert_fits_the_phone(desk)
    no_violations(desk)
    calls.scroll_into_view_if_needed()
    desk.screenshot(path=str(SHOTS / "call-on-round-page-360.png"))
    calls.locator(f"button:has-text('{t('Answered: table %(number)s', number=2)}')").click()
    expect(desk.locator("#referee-calls")).to_have_count(0)
    call = RefereeCall.objects.get(table=two)
    assert call.answered_by == organiser and call.answered_at is not None

    # 6. The round is played (the tables' phones closed, whose sync would write meanwhile).
    # Table 1 plays its 6 deals after the pule, and its result, the pule settled by the sheet,
    # is mirrored at table 2: the two tables' winners tie, and so do their seconds and thirds.
    table_one.goto("about:blank")
    table_two.goto("about:blank")
    play_round_at(one, favourite_first, entries_before=1)
    confirm(one)
    result = dict(
        SeatResult.objects.filter(table_result__table=one).values_list(
            "registration_id", "game_points"
        )
    )
    order = sorted(result, key=result.get, reverse=True)
    totals = [result[key] for key in order]
    assert len(set(totals)) == 3, totals  # three places at each table
    confirm_with_totals(two, dict(zip(seat_keys(two), totals, strict=True)))
    winners = {entries.get(pk=order[0]).player.full_name, seat_name(two, 0)}
    seconds = {entries.get(pk=order[1]).player.full_name, seat_name(two, 1)}
    desk.goto(f"{base}/rounds/1/")  # both tables confirmed: the organiser closes the round
    desk.click(f"button:has-text('{t('Close round %(number)s', number=1)}')")
    expect(
        desk.locator(f"button:has-text('{t('Close round %(number)s', number=1)}')")
    ).to_have_count(0)
    round_.refresh_from_db()
    assert round_.status == RoundStatus.CLOSED

    # The fund is 5 × 15 € + 10 € = 85 €; 17 € for costs; 68 € of prizes: 34 €, 20,40 €, 13,60 €,
    # places 1-2 sharing 54,40 € and 3-4 sharing 13,60 €.
    desk.goto(f"{base}/prizes/")
    rows = desk.locator("table.prize-list tbody tr")
    expect(rows).to_have_count(4)
    texts = [rows.nth(index).inner_text().replace("\u00a0", " ") for index in range(4)]
    assert [text.split()[0] for text in texts] == ["1–2", "1–2", "3–4", "3–4"]
    assert [text.split()[-2] for text in texts] == ["27,20", "27,20", "6,80", "6,80"]
    names = desk.locator("table.prize-list tbody tr td:nth-child(2)").all_inner_texts()
    assert {name.splitlines()[0] for name in names[:2]} == winners
    assert {name.splitlines()[0] for name in names[2:]} == seconds
    prizes = prize_list(tournament=tournament)
    assert (prizes.fund.total_cents, prizes.costs_cents, prizes.prizes_cents) == (8500, 1700, 6800)
    assert prizes.costs_cents + prizes.prizes_cents == prizes.fund.total_cents
    assert prizes.finished  # the round closed: the list is final
    body = desk.locator("main").inner_text().replace("\u00a0", " ")
    for amount in ("85,00 €", "17,00 €", "68,00 €"):
        assert amount in body, amount
    assert_fits_the_phone(desk)
    no_violations(desk)
    desk.screenshot(path=str(SHOTS / "prizes-360.png"), full_page=True)

    response = desk.request.get(f"{base}/prizes.pdf")
    assert response.headers["content-type"] == "application/pdf"
    text = pdf_text(response.body())
    for expected in ("85,00 €", "17,00 €", "68,00 €", "6,80 €", "1–2", "3–4"):
        assert expected in text, expected
    assert text.count("27,20 €") == 2 and text.count("6,80 €") == 2
    assert t("Prizes paid by") in text
    pdf = pypdfium2.PdfDocument(response.body())
    pdf[0].render(scale=1.5).to_pil().save(SHOTS / "prize-list-pdf.png")
