"""An organiser's API tokens in Latvian: on his phone he finds the page from his dashboard,
makes a token and sees its secret once, which then opens the API; on a desktop he revokes it.
Both pages fit the screen and break no Content-Security-Policy rule.

Screenshots go to $E2E_SCREENSHOTS (a directory) when set, else to the test's tmp_path."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from tests.factories import make_tournament, make_user

from .conftest import assert_fits_the_phone, no_violations, sign_in, t

pytestmark = pytest.mark.django_db(transaction=True)


def api_status(live_server, secret: str) -> int:
    request = urllib.request.Request(
        f"{live_server.url}/api/v1/organise/tournaments",
        headers={"Authorization": f"Bearer {secret}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status if json.load(answer) else 0
    except urllib.error.HTTPError as refusal:
        return refusal.code


def test_an_organiser_makes_a_token_on_his_phone_and_revokes_it_on_a_desktop(
    live_server, open_page, shots
):
    make_tournament(slug="ogres-kauss", name="Ogres kauss").organisers.add(
        make_user(username="rita")
    )
    page_url = "/organise/api-tokens/"

    phone = open_page()
    sign_in(phone, live_server, "rita", "/organise/")
    phone.click(f"a:has-text('{t('API tokens')}')")
    phone.wait_for_url(f"{live_server.url}{page_url}")
    phone.fill("#id_name", "Federācijas vietne ar ļoti garu nosaukumu, kas neietilpst rindā")
    phone.click(f"button:has-text('{t('Make the token')}')")
    phone.wait_for_url(f"{live_server.url}{page_url}")
    secret = phone.locator("#new-token-secret").inner_text().strip()
    assert secret.startswith("zole_")
    assert phone.get_by_text(t("Your new token")).is_visible()
    assert_fits_the_phone(phone)
    no_violations(phone)
    phone.screenshot(path=shots / "api-tokens-new-360.png", full_page=True)
    assert api_status(live_server, secret) == 200

    phone.reload()
    assert phone.locator("#new-token-secret").count() == 0  # shown once

    desktop = open_page(1366, 900)
    sign_in(desktop, live_server, "rita", page_url)
    desktop.click(f"button:has-text('{t('Revoke')}')")
    desktop.wait_for_url(f"{live_server.url}{page_url}")
    assert desktop.locator("table.api-tokens button").count() == 0
    no_violations(desktop)
    desktop.screenshot(path=shots / "api-tokens-revoked-1366.png", full_page=True)
    assert api_status(live_server, secret) == 401
