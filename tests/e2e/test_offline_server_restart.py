"""The server is killed in the middle of a round while a referee's phone (360x740) enters deals,
and started again: the phone goes on entering meanwhile (a reload too, served by its worker),
then sends what waits once the server is back; the server holds each deal once, in order, and
the phone's sheet is the server's. The server runs in a process of its own (as in
tests/test_crash.py) so that the test can kill it."""

from __future__ import annotations

import json
import os
import re
import signal

from tests.test_crash import free_port, manage, server_env, start_server  # noqa: F401

from .conftest import PHONE, RECORD_VIOLATIONS, no_violations
from .table_phone import (
    DEALS,
    enter_deals,
    planned_entry,
    scores,
    sheet_shown,
    wait_until_sent,
    waiting_on_the_phone,
)

SETUP = """
from tests.factories import make_published_round, make_tournament
from tournaments.models import TableToken
tournament = make_tournament(slug="restarted", table_size=4, deals_per_round={deals})
table = make_published_round(tournament, players=4).tables.get()
print("TOKEN", TableToken.objects.get(table=table, revoked_at__isnull=True).token)
"""

STORED = """
import json
from scoring.models import DealResult
rows = DealResult.objects.filter(table__round__tournament__slug="restarted")
print("ROWS", json.dumps(list(rows.order_by("position", "version").values_list(
    "position", "version", "kind", "game", "client_key"))))
"""


def stored(env: dict[str, str]) -> list[list[object]]:
    return json.loads(re.search(r"ROWS (.*)", manage(env, "shell", stdin=STORED)).group(1))


def test_a_server_restarted_mid_round_gets_every_deal_once(server_env, browser, tmp_path):  # noqa: F811
    manage(server_env, "migrate", "--noinput")
    token = re.search(
        r"TOKEN (\S+)", manage(server_env, "shell", stdin=SETUP.format(deals=DEALS))
    ).group(1)
    port = free_port()
    # localhost: a service worker needs a secure origin, which loopback by name is.
    link = f"http://localhost:{port}/r/{token}/"
    server = start_server(server_env, port)
    context = browser.new_context(viewport=PHONE, locale="lv-LV")
    context.add_init_script(RECORD_VIOLATIONS)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(link)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        enter_deals(page, range(1, 11))
        wait_until_sent(page)

        os.kill(server.pid, signal.SIGKILL)  # in the middle of the round
        server.wait(timeout=10)
        enter_deals(page, range(11, 15))
        page.reload()  # no server: the worker's copy, the phone's entries laid on it
        enter_deals(page, range(15, 17))
        assert waiting_on_the_phone(page) == 6
        assert len(stored(server_env)) == 10

        server = start_server(server_env, port)
        wait_until_sent(page)  # by itself, once the server answers again
        enter_deals(page, range(17, DEALS + 1))
        wait_until_sent(page)
        no_violations(page)
        phone_sheet = sheet_shown(page)

        other = browser.new_context(viewport=PHONE, locale="lv-LV", service_workers="block")
        fresh = other.new_page()
        fresh.goto(link)
        servers_sheet = sheet_shown(fresh)
        other.close()
    finally:
        context.close()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)

    rows = stored(server_env)
    assert [row[0] for row in rows] == list(range(1, DEALS + 1))  # each position once
    assert {row[1] for row in rows} == {1}
    assert len({row[4] for row in rows}) == DEALS  # each submission once
    planned = [list(planned_entry(number)) for number in range(1, DEALS + 1)]
    assert [row[2:4] for row in rows] == planned  # in the order entered
    assert not [row for row in phone_sheet["rows"] if row["phone"]]
    assert len(servers_sheet["rows"]) == DEALS and servers_sheet["totals"]
    assert scores(phone_sheet) == scores(servers_sheet)
