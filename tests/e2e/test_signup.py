"""Registration online in Latvian: players register on their phones (one twice, refused the
second time; one beyond the places lands on the waiting list), then the organiser accepts them
and they are the tournament's players. Every page fits a 360 px phone and breaks no
Content-Security-Policy rule.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from signups.models import SignUp, SignUpStatus
from tests.factories import make_club, make_player, make_tournament, make_user
from tournaments.models import Player

from .conftest import (
    assert_does_not_scroll_sideways,
    assert_fits_the_phone,
    no_violations,
    register,
    sign_in,
    t,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_players_register_on_their_phones_and_the_organiser_accepts(live_server, open_page, shots):
    tournament = make_tournament(slug="ogres-kauss", name="Ogres kauss")
    club = make_club(name="Rīgas Zoles klubs")
    janis = make_player(full_name="Jānis Bērziņš", club=club, licence_number="LV-101")
    organiser = make_user(username="rita")
    tournament.organisers.add(organiser)
    register_url = f"{live_server.url}/t/ogres-kauss/register/"

    # The organiser opens registration online from his phone: two places, for five days.
    settings = open_page()
    sign_in(settings, live_server, "rita", "/organise/t/ogres-kauss/settings/")
    closes = timezone.localtime() + datetime.timedelta(days=5)
    settings.fill("#id_signup_until", closes.strftime("%Y-%m-%dT%H:%M"))
    settings.fill("#id_signup_places", "2")
    assert_fits_the_phone(settings)
    settings.locator("#id_signup_places").scroll_into_view_if_needed()
    settings.screenshot(path=shots / "signup-settings-360.png")
    settings.click(f"form.tournament-settings > button:has-text('{t('Save')}')")
    settings.wait_for_url(f"{live_server.url}/organise/t/ogres-kauss/")
    tournament.refresh_from_db()
    assert tournament.signup_places == 2
    assert timezone.localtime(tournament.signup_until).strftime("%Y-%m-%dT%H:%M") == (
        closes.strftime("%Y-%m-%dT%H:%M")
    )

    phone = open_page()
    phone.goto(f"{live_server.url}/t/ogres-kauss/")
    # Before round 1 the rounds' table, "Apstiprinātie galdi" and all, fits the phone.
    assert_does_not_scroll_sideways(phone, ".table-scroll:has(table.rounds-table)")
    phone.click(f"a:has-text('{t('Sign up for this tournament')}')")
    phone.wait_for_url(register_url)
    assert_fits_the_phone(phone)
    phone.screenshot(path=shots / "signup-form-360.png", full_page=True)

    # Jānis types his name without its marks: the register finds him, no second player is made.
    register(phone, "Janis Berzins", "rigas zoles klubs", contact="+371 2911 1111")
    placed = t("You are signed up: number %(number)d on the list of players.", number=1)
    assert phone.get_by_text(placed).is_visible()
    register(phone, "Anna Ozoliņa", "Ogres Zole", contact="anna@example.lv")
    assert phone.get_by_text(
        t("You are signed up: number %(number)d on the list of players.", number=2)
    ).is_visible()

    # Jānis again, with his licence: refused, told where he is.
    register(phone, "Jānis Bērziņš", "Rīgas Zoles klubs", licence="lv-101")
    where = t("number %(number)d on the list of players", number=1)
    refusal = t("%(name)s has signed up already: %(where)s.") % {
        "name": "Janis Berzins",
        "where": where,
    }
    assert phone.locator(".errorlist").get_by_text(refusal).is_visible()
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=shots / "signup-twice-360.png", full_page=True)

    # The places are taken: Līga waits.
    register(phone, "Līga Liepa", "Ogres Zole")
    waiting = t(
        "Every place is taken: you are number %(number)d on the waiting list. The organiser "
        "moves you to the list when a place frees.",
        number=1,
    )
    assert phone.get_by_text(waiting).is_visible()
    assert phone.locator(".signup-lists ol").first.inner_text().splitlines() == [
        "Janis Berzins (rigas zoles klubs)",
        "Anna Ozoliņa (Ogres Zole)",
    ]
    assert "2911" not in phone.content() and "anna@example.lv" not in phone.content()
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=shots / "signup-waiting-360.png", full_page=True)

    organiser_phone = open_page()
    sign_in(organiser_phone, live_server, "rita", "/organise/t/ogres-kauss/sign-ups/")
    assert_fits_the_phone(organiser_phone)
    organiser_phone.screenshot(path=shots / "signup-organiser-360.png", full_page=True)

    desktop = open_page(1366, 900)
    sign_in(desktop, live_server, "rita", "/organise/t/ogres-kauss/registrations/")
    desktop.click(f"a:has-text('{t('Online sign-up')}')")
    desktop.wait_for_url(f"{live_server.url}/organise/t/ogres-kauss/sign-ups/")
    assert desktop.get_by_text("anna@example.lv").is_visible()  # the organiser sees contacts
    # Every column, the moment of signing up the last, is on a desktop screen without scrolling.
    for scroller in desktop.locator(".table-scroll:has(table.signups)").all():
        held, box = scroller.evaluate("box => [box.scrollWidth, box.clientWidth]")
        assert held <= box + 1, f"the online list holds {held}px in {box}px"
    desktop.screenshot(path=shots / "signup-organiser-1366.png", full_page=True)
    for name in ("Janis Berzins", "Anna Ozoliņa"):
        row = desktop.locator("table.signups tr", has_text=name)
        row.locator(f"button:has-text('{t('Accept')}')").click()
        desktop.wait_for_load_state()
        accepted = t("%(name)s: sign-up accepted, registered in the tournament.") % {"name": name}
        expect(desktop.get_by_text(accepted)).to_be_visible()
    no_violations(desktop)
    desktop.screenshot(path=shots / "signup-accepted-1366.png", full_page=True)

    entries = tournament.registrations.select_related("player")
    assert sorted(entry.player.full_name for entry in entries) == ["Anna Ozoliņa", "Jānis Bērziņš"]
    assert entries.get(player=janis)  # the register's Jānis, not a new one
    assert Player.objects.filter(full_name__in=["Jānis Bērziņš", "Janis Berzins"]).count() == 1
    statuses = dict(SignUp.objects.values_list("full_name", "status"))
    assert statuses == {
        "Janis Berzins": SignUpStatus.ACCEPTED,
        "Anna Ozoliņa": SignUpStatus.ACCEPTED,
        "Līga Liepa": SignUpStatus.WAITING,
    }
