"""An organiser, on a phone, prepares round 1: import players, create the tournament, register,
seat and publish."""

import pytest

from tests.factories import make_organiser
from tournaments.models import Round, Seat

from .conftest import assert_fits_the_phone

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = """Jānis Bērziņš;Rīgas Zoles klubs;LV-101
Anna Ozoliņa;Rīgas Zoles klubs;LV-102
Pēteris Kalniņš;Liepājas Dūzis;LV-103
Līga Liepiņa;Liepājas Dūzis;
Ģirts Šteins;Cēsu Pule;
Ērika Žagare;Cēsu Pule;
Kārlis Čakste;Daugavpils Kārtis;
Ieva Ķikute;Daugavpils Kārtis;
Ņikita Ļebedevs;Daugavpils Kārtis;
"""


def test_organiser_prepares_and_publishes_round_one_on_a_phone(live_server, phone, tmp_path):
    make_organiser(username="rita")
    page = phone
    page.goto(f"{live_server.url}/organise/")
    page.fill("#id_username", "rita")
    page.fill("#id_password", "zole-pass-123")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/organise/")

    page.click("text=Import players")
    page.fill("#id_text", PLAYERS)
    page.click("button:has-text('Preview')")
    assert page.locator("text=Ņikita Ļebedevs").count() >= 1
    assert_fits_the_phone(page)
    page.click("button[name=confirm]")
    page.wait_for_url(f"{live_server.url}/organise/players/")
    assert page.locator("text=9 players imported.").is_visible()

    page.goto(f"{live_server.url}/organise/new/")
    page.fill("#id_name", "Ziemassvētku kauss")
    page.fill("#id_starts_on", "2026-12-20")
    page.fill("#id_venue", "Cēsis")
    page.select_option("#id_level", "district")
    page.click("form.stacked button:has-text('Save')")
    page.wait_for_url(f"{live_server.url}/organise/t/ziemassvetku-kauss/")
    assert_fits_the_phone(page)

    page.click("text=Players and entries")
    page.click("button:has-text('Tick all')")  # 9 players, one click
    assert page.locator("input[name=players]:checked").count() == 9
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "entries.png"), full_page=True)
    page.click("button:has-text('Register the chosen players')")
    assert page.locator("text=9 players registered.").first.is_visible()

    page.goto(f"{live_server.url}/organise/t/ziemassvetku-kauss/")
    page.click("button:has-text('Prepare round 1')")
    page.wait_for_url(f"{live_server.url}/organise/t/ziemassvetku-kauss/rounds/1/")
    page.fill("#id_seed", "2026")
    page.click("button:has-text('Generate')")
    assert page.locator("text=Seating generated with seed 2026.").is_visible()
    assert page.locator(".seating-table").count() == 3
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "round.png"), full_page=True)

    # The check-in trap: a player unticked on screen (not saved) is not published unnoticed.
    late = page.locator("#id_entries input[type=checkbox]").first
    late.uncheck()
    page.click("button:has-text('Publish round 1')")
    assert page.locator(".attendance-difference").is_visible()
    assert page.locator("text=Seated but not checked in").first.is_visible()
    assert Round.objects.get(number=1).status == "draft"
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "attendance.png"), full_page=True)
    # He was there after all: ticked again, the round publishes.
    page.locator("#id_entries input[type=checkbox]").first.check()
    page.click("button:has-text('Publish round 1')")
    assert page.locator("text=Round 1 published.").is_visible()
    round_one = Round.objects.get(number=1)
    assert round_one.status == "published"
    assert Seat.objects.filter(table__round=round_one).count() == 9

    # A referee account, made on the tournament's people page.
    page.goto(f"{live_server.url}/organise/t/ziemassvetku-kauss/people/")
    page.fill("#id_account-username", "ilze")
    page.fill("#id_account-full_name", "Ilze Kalniņa")
    page.click("button:has-text('Create the account')")
    # The new password is hashed before the page answers: slow on a loaded machine, so wait for
    # the answer rather than look at the page the click left.
    page.locator(".new-account code.password").wait_for(state="visible")
    assert page.locator(".new-account code.password").is_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=str(tmp_path / "people.png"), full_page=True)
