"""The tournament form's preset list on a slow phone: a preset chosen before the page's script
has arrived still fills in the rule options once it does."""

from __future__ import annotations

import pytest

from tests.factories import make_organiser
from tournaments.rule_set import preset_options

from .conftest import sign_in

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
    assert page.input_value("#id_table_size") == str(lzf["table_size"])
    assert page.input_value("#id_deals_per_round") == str(lzf["deals_per_round"])
