"""A referee on a 360 px phone in Latvian records a late player: the pule the waiting time says
is on the sheet, with why; a player not there by the tournament's deal is out of the round, and
his table of 4 plays on as a table of 3."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from engine import Play, dealer_for
from engine.rules import Game
from scoring import services
from scoring.services import Writer
from tests.factories import make_published_round, make_user, play_round_with
from tournaments.models import Round, TableToken, Tournament

from .conftest import assert_fits_the_phone, no_violations, sign_in, t
from .table_phone import enter_deal, enter_deals, opened, wait_until_sent

pytestmark = pytest.mark.django_db(transaction=True)


def late_round():
    """Round 1 of 7 players (a table of 4 and one of 3), started 20 whole minutes ago, under a
    waiting time of 3 minutes and out by deal 4."""
    round_ = make_published_round(players=7)
    Tournament.objects.filter(pk=round_.tournament_id).update(late_wait_minutes=3, late_out_deal=4)
    start = (timezone.now() - datetime.timedelta(minutes=20)).replace(second=0, microsecond=0)
    Round.objects.filter(pk=round_.pk).update(published_at=start)
    tables = {table.seats.count(): table for table in round_.tables.all()}
    return round_, start, tables[3], tables[4]


def test_a_late_player_gets_his_pule_and_an_absent_one_is_out_of_the_round(
    live_server, open_page, shots
):
    round_, start, three, four = late_round()
    page = open_page(360)

    # The table of 3's referee, through its link: Anna came 6 minutes after the start.
    token = TableToken.objects.get(table=three, revoked_at=None).token
    page.goto(f"{live_server.url}/r/{token}/")
    late = page.locator("#late-players")
    late.scroll_into_view_if_needed()
    assert t("Late and absent players") in late.inner_text()
    assert not late.locator("input[name='out-player']").count()  # a table of 3 plays on never
    first = three.seats.get(position=1).registration
    late.locator(f"input[name='late-player'][value='{first.pk}']").check()
    arrived = timezone.localtime(start + datetime.timedelta(minutes=6)).strftime("%H:%M")
    late.locator("input[name='late-arrived_at']").fill(arrived)
    late.locator("button", has_text=t("Record the late arrival")).click()
    page.wait_for_load_state()

    penalty = page.locator(".entry-sheet tr.entry-penalty")
    assert penalty.count() == 1
    why = page.locator("#late-players .late-list").inner_text()
    assert first.player.full_name in why
    assert t("late: %(minutes)s min", minutes=6) in why
    assert t("penalty pule, entry %(position)s", position=1) in why
    assert_fits_the_phone(page)
    page.screenshot(path=str(shots / "late-player-pule-360.png"), full_page=True)
    no_violations(page)

    # The hall plays on: the table of 3 has played 3 deals, so deal 4 is under way (written
    # here with its phone's page closed, whose sync would write to the database meanwhile).
    page.goto("about:blank")
    players = [str(seat.registration_id) for seat in three.seats.order_by("position")]
    for index in range(3):
        dealer = dealer_for(players, players[three.first_dealer_position - 1], index)
        services.deal_record(
            table=three,
            entry=Play(Game.LIELAIS, next(p for p in players if p != dealer), 5, 75),
            position=index + 2,
            client_key=f"e2e-hall-{index}",
            writer=Writer(),
        )

    # The table of 4's referee, signed in: the first dealer never came and is out.
    referee = make_user(username="tiesnesis")
    round_.tournament.referees.add(referee)
    four.referees.add(referee)
    absent = four.seats.get(position=four.first_dealer_position).registration
    sheet_url = f"/organise/tables/{four.pk}/sheet/"
    sign_in(page, live_server, "tiesnesis", sheet_url)
    columns = page.locator(".entry-sheet thead th").count()
    out = page.locator("form.out-of-round-form")
    out.scroll_into_view_if_needed()
    hall = t(
        "Deals played at the round's furthest table: %(count)s. A late player is out of the "
        "round from deal %(deal)s."
    ) % {"count": 3, "deal": 4}
    assert hall in page.locator("#late-players").inner_text()
    page.locator("#late-players").screenshot(path=str(shots / "late-player-before-out-360.png"))
    out.locator(f"input[name='out-player'][value='{absent.pk}']").check()
    out.locator("button").click()
    page.wait_for_load_state()

    assert four.seats.count() == 3
    assert page.locator(".entry-sheet thead th").count() == columns - 1  # one player less
    assert absent.player.full_name in page.locator("#late-players .late-list").inner_text()
    assert t("out of the round: did not come") in page.locator("#late-players").inner_text()
    assert not page.locator("form.out-of-round-form").count()
    assert_fits_the_phone(page)
    page.screenshot(path=str(shots / "late-player-out-360.png"), full_page=True)
    no_violations(page)

    # The round page, as the public sees it, names him.
    page.goto(f"{live_server.url}/t/{round_.tournament.slug}/rounds/1/")
    note = page.locator(".out-of-round")
    assert t("Out of the round:") in note.inner_text()
    assert absent.player.full_name in note.inner_text()
    assert_fits_the_phone(page)
    page.screenshot(path=str(shots / "late-player-round-360.png"), full_page=True)
    no_violations(page)

    # At a desktop's width the referee's part reads the same.
    wide = open_page(1366, 900)
    wide.goto(f"{live_server.url}/r/{token}/")
    wide.locator("#late-players").screenshot(path=str(shots / "late-player-1366.png"))
    no_violations(wide)


def test_the_phone_stops_offering_the_late_forms_once_they_no_longer_apply(
    live_server, open_page, shots
):
    """A player is out of the round only before the table's first deal, and a locked table
    takes nothing: the phone drops those forms as its sheet moves on, with no reload (the
    first deal entered offline, the confirmation sent)."""
    round_, _start, three, four = late_round()
    play_round_with(round_, deals_per_round=12)
    players = [str(seat.registration_id) for seat in three.seats.order_by("position")]
    for index in range(3):  # the hall has reached deal 4: the absent are out from then on
        dealer = dealer_for(players, players[three.first_dealer_position - 1], index)
        services.deal_record(
            table=three,
            entry=Play(Game.LIELAIS, next(p for p in players if p != dealer), 5, 75),
            position=index + 1,
            client_key=f"e2e-hall-{index}",
            writer=Writer(),
        )
    token = TableToken.objects.get(table=four, revoked_at=None).token
    page = open_page(360)
    page.goto(f"{live_server.url}/r/{token}/")
    opened(page)
    arrival, out = page.locator("form.late-arrival-form"), page.locator("form.out-of-round-form")
    expect(arrival).to_be_visible()
    expect(out).to_be_visible()

    page.context.set_offline(True)
    enter_deal(page, 1)
    expect(out).to_be_hidden()
    expect(arrival).to_be_visible()  # a late player still comes, with his pule

    page.context.set_offline(False)
    enter_deals(page, range(2, 13))
    wait_until_sent(page)
    expect(out).to_be_hidden()
    confirm = page.locator(".entry-confirm-form")
    confirm.locator("input[name='confirm-confirmer']").first.check()
    confirm.locator("button.entry-submit").click()
    expect(page.locator(".entry-locked-badge")).to_be_visible()
    expect(arrival).to_be_hidden()
    expect(out).to_be_hidden()
    expect(page.locator("#late-players .late-hall-deals")).to_be_hidden()
    page.screenshot(path=str(shots / "phone-confirmed-360.png"), full_page=True)
    no_violations(page)
