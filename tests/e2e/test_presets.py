"""The tournament form's preset list on a slow phone: a preset chosen before the page's script
has arrived still fills in the rule options once it does."""

from __future__ import annotations

import pytest

from tests.factories import make_organiser
from tournaments.rule_set import preset_options

from .conftest import assert_fits_the_phone, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_preset_chosen_before_the_script_arrives_is_filled_in_when_it_does(
    live_server, open_page
):
    make_organiser(username="rita")
    page = open_page(360, 740)
    sign_in(page, live_server, "rita", "/organise/")
    held = []
    page.route("**/js/presets*.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/organise/new/", wait_until="commit")
    page.wait_for_selector("#id_preset")
    page.select_option("#id_preset", "lzf")
    assert held, "the preset script was requested"
    held[0].continue_()
    page.wait_for_load_state("load")
    lzf = preset_options("lzf")
    assert page.is_checked(f"#id_table_size input[value='{lzf['table_size']}']")
    assert page.input_value("#id_deals_per_round") == str(lzf["deals_per_round"])


@pytest.mark.parametrize("locale", ["lv-LV", "ru-RU", "en-GB"])
def test_the_settings_fit_the_phone_and_a_preset_checks_its_radios(live_server, phone_in, locale):
    """Every choice reads whole on a 360 px phone in each language (a closed list would clip
    a sentence-long answer), and the preset list checks the radios as it fills the lists."""
    make_organiser(username="rita")
    page = phone_in(locale)
    sign_in(page, live_server, "rita", "/organise/new/")
    assert_fits_the_phone(page)
    page.select_option("#id_preset", "lzf")
    lzf = preset_options("lzf")
    radios = ("table_size", "later_rounds_seating", "all_pass", "four_table_pass_pules")
    for name in radios:
        assert page.is_checked(f"#id_{name} input[value='{lzf[name]}']"), name
