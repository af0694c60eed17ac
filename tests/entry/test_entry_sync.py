"""The phone's sync (entry.sync) and the table state it starts from (entry.state):
entries kept on the phone are sent in order, each written as its plain form would be and stored
once, the first one not stored stops the rest; the answer is what became of each, the state after
the writes and the page's parts. Every sync records when the table was last heard from."""

import json
import logging
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import entry.sync
from engine import Pass, PenaltyPule, dealer_for
from engine.json_contract import score_json
from scoring.late_players import player_out_of_round
from scoring.models import DealResult, TableHeard, TableResult
from scoring.services import round_generate_seating
from tests.clock import fix_the_clock
from tests.entry.test_entry_pages import lielais, link_of, play_deals, record, url_of
from tests.factories import (
    make_organiser,
    make_published_round,
    make_tournament,
    make_user,
    play_round_with,
    seat_keys,
)
from tests.tournament_play import hall_plays, with_rules
from tournaments import services as tournament_services
from tournaments.models import AuditRecord, TableToken

pytestmark = pytest.mark.django_db


def reseat(round_):
    return round_generate_seating(
        round_=round_,
        seed=(round_.seed or 0) + 1,
        by=None,
        confirmation=tournament_services.regenerate_confirmation(round_),
    )


def sync_url(table):
    return reverse("entry:token_sync", args=[link_of(table).token])


def deal(table, position, key, *, declarer=None, **fields):
    """A won lielais at `position` as the phone sends it (the deal form's fields)."""
    players = seat_keys(table)
    if declarer is None:
        declarer = players[position % len(players)]
    values = {"game": "lielais", "declarer": declarer, "points": "75", "tricks": "5", **fields}
    sent = {"deal-position": str(position), "deal-client_key": key}
    sent |= {f"deal-{name}": str(value) for name, value in values.items()}
    return {"key": key, "action": "deal", "fields": sent, "scores": None}


def deals(table, first, last, prefix="k"):
    return [deal(table, position, f"{prefix}-{position}") for position in range(first, last + 1)]


def confirm_entry(table, deals_seen, key="confirm-1"):
    fields = {"confirm-confirmer": seat_keys(table)[0], "confirm-deals": str(deals_seen)}
    return {"key": key, "action": "confirm", "fields": fields, "scores": None}


def send(client, url, entries, *, waiting=None, refused=0, **extra):
    body = {"entries": entries, "waiting": len(entries) if waiting is None else waiting}
    body["refused"] = refused
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def statuses(response):
    return [result["status"] for result in response.json()["results"]]


def page_state(response):
    found = re.search(
        r'<script id="table-state" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    return json.loads(found[1])


class TestTheTableState:
    """The entry page embeds the table's state (`table-state`): the sheet in the engine's JSON,
    which the engine scores to exactly what the page shows."""

    def check_scores_as_the_page(self, response):
        state = page_state(response)
        sheet = response.context["sheet"]
        scored = score_json(state["sheet"])
        assert [row.position for row in sheet.rows] == [e["position"] for e in state["entries"]]
        for row, scored_deal in zip(sheet.rows, scored["deals"], strict=True):
            assert {cell.player.key: cell.score for cell in row.cells} == scored_deal["scores"]
        if sheet.totals is not None:
            keys = [player.key for player in sheet.players]
            assert [scored["totals"][key] for key in keys] == list(sheet.totals)
            assert [scored["settlement"][key] for key in keys] == list(sheet.settlement)
        elif sheet.rows:
            last = sheet.rows[-1]
            assert {cell.player.key: cell.total for cell in last.cells} == scored["totals"]
        return state

    def test_an_open_sheet_with_pules_a_penalty_and_a_correction(self, client, table_of_four):
        players = seat_keys(table_of_four)
        record(table_of_four, Pass(), 1)
        record(table_of_four, PenaltyPule(players[2]), 2)
        first = players[table_of_four.first_dealer_position - 1]
        dealer = dealer_for(players, first, 1)
        declarer = next(player for player in players if player != dealer)
        record(table_of_four, lielais(declarer, points=40, tricks=3), 3)
        state = self.check_scores_as_the_page(client.get(url_of(table_of_four)))
        assert state["link"] == url_of(table_of_four)
        assert state["sync"] == sync_url(table_of_four)
        assert state["entries"] == [
            {"position": 1, "version": 1, "number": 1, "kind": "deal"},
            {"position": 2, "version": 1, "number": None, "kind": "penalty"},
            {"position": 3, "version": 1, "number": 2, "kind": "deal"},
        ]
        assert state["next_position"] == 4
        assert state["mark"] == DealResult.objects.latest("pk").pk
        assert (state["accepts_entries"], state["confirmed"], state["deal_limit"]) == (
            True,
            False,
            None,
        )
        assert [player["key"] for player in state["players"]] == players
        assert state["sheet"]["closed"] is False
        assert state["heard"].endswith("Z")

    def test_a_complete_sheet_is_closed_with_its_settlement_as_on_the_page(
        self, client, short_round
    ):
        play_deals(short_round, 3)
        state = self.check_scores_as_the_page(client.get(url_of(short_round)))
        assert state["sheet"]["closed"] is True
        assert state["deals_per_round"] == 3

    def test_a_table_confirmed_when_time_was_up_is_closed_and_settled(self, client, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        tournament = make_tournament(deals_per_round=6, round_time_limit=50, slug="laiks")
        table = make_published_round(tournament, players=6).tables.get(number=1)
        play_deals(table, 2)
        organiser = make_organiser()
        tournament_services.round_clock_start(round_=table.round, by=organiser)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=1)
        send(client, sync_url(table), [confirm_entry(table, 2)])
        assert TableResult.objects.get(table=table).time_called
        state = self.check_scores_as_the_page(client.get(url_of(table)))
        assert state["sheet"]["closed"] is True and len(state["sheet"]["deals"]) == 2
        assert (state["confirmed"], state["accepts_entries"], state["deal_limit"]) == (
            True,
            False,
            3,
        )

    def test_the_signed_in_door_syncs_at_its_own_address(self, client, table_of_three):
        client.force_login(make_organiser())
        response = client.get(reverse("entry:table_sheet", args=[table_of_three.pk]))
        state = self.check_scores_as_the_page(response)
        assert state["sync"] == reverse("entry:table_sync", args=[table_of_three.pk])
        assert state["link"] == reverse("entry:table_sheet", args=[table_of_three.pk])

    def test_an_empty_sheet(self, client, table_of_three):
        state = page_state(client.get(url_of(table_of_three)))
        assert (state["mark"], state["entries"], state["next_position"]) == (0, [], 1)
        assert score_json(state["sheet"])["deals"] == []


class TestSentOnce:
    def test_a_batch_is_stored_in_order_and_answered_with_the_state(self, client, table_of_three):
        response = send(client, sync_url(table_of_three), deals(table_of_three, 1, 3))
        assert response.status_code == 200
        answer = response.json()
        assert [r["key"] for r in answer["results"]] == ["k-1", "k-2", "k-3"]
        assert statuses(response) == ["stored"] * 3
        assert answer["results"][0]["message"] == "Deal saved."
        stored = DealResult.objects.order_by("position")
        assert [(r.position, r.client_key) for r in stored] == [(1, "k-1"), (2, "k-2"), (3, "k-3")]
        state = answer["state"]
        assert state["next_position"] == 4 and len(state["sheet"]["deals"]) == 3
        assert state["mark"] == stored.last().pk
        html = answer["html"]
        assert html["sheet"].startswith('<div class="table-scroll entry-sheet-wrap"')
        assert html["sheet"].count('class="entry-row') == 3
        assert "Deal 4 of 24" in html["progress"]
        # The next entry is an ordinary deal: the phone fills its own forms in (entry.phone).
        assert html["forms"] is None
        assert AuditRecord.objects.filter(action="deal.entered").count() == 3

    def test_the_forms_the_phone_cannot_fill_in_come_with_the_answer(self, client, short_round):
        url = sync_url(short_round)
        assert send(client, url, deals(short_round, 1, 2)).json()["html"]["forms"] is None
        # Every deal in: the confirmation, as the page renders it.
        forms = send(client, url, deals(short_round, 3, 3)).json()["html"]["forms"]
        assert forms.startswith('<section id="entry-form"')
        assert 'name="confirm-deals" value="3"' in forms
        # Confirmed: the locked table's words, no form.
        forms = send(client, url, [confirm_entry(short_round, 3)]).json()["html"]["forms"]
        assert "The table is locked." in forms and "<form" not in forms

    def test_after_time_is_up_the_answer_carries_the_forms(self, client, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        tournament = make_tournament(deals_per_round=6, round_time_limit=50, slug="laiks")
        table = make_published_round(tournament, players=6).tables.get(number=1)
        organiser = make_organiser()
        url = sync_url(table)
        send(client, url, deals(table, 1, 2))
        tournament_services.round_clock_start(round_=table.round, by=organiser)
        clock.advance(minutes=10)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        forms = send(client, url, []).json()["html"]["forms"]
        assert "Time is up: enter only the deal that was under way (deal 3)" in forms
        assert 'name="deal-position" value="3"' in forms

    def test_resent_entries_are_stored_once(self, client, table_of_three):
        url = sync_url(table_of_three)
        send(client, url, deals(table_of_three, 1, 2))
        # The answer was lost: the phone sends them again, with the next ones.
        response = send(client, url, deals(table_of_three, 1, 4))
        assert statuses(response) == ["stored"] * 4
        assert DealResult.objects.count() == 4
        assert send(client, url, deals(table_of_three, 3, 4)).json()["state"]["next_position"] == 5
        assert DealResult.objects.count() == 4

    def test_the_first_entry_not_stored_stops_the_rest(self, client, table_of_three):
        entries = deals(table_of_three, 1, 3)
        entries[1]["fields"]["deal-tricks"] = "9"
        response = send(client, sync_url(table_of_three), entries)
        assert statuses(response) == ["stored", "refused"]
        refused = response.json()["results"][1]
        assert refused["errors"] == {"tricks": ["Ensure this value is less than or equal to 8."]}
        assert "Tricks (stiķi)" in refused["message"]
        assert DealResult.objects.count() == 1

    def test_the_services_refusal_is_the_message(self, client, short_round):
        play_deals(short_round, 3)
        response = send(client, sync_url(short_round), [deal(short_round, 4, "one-more")])
        [result] = response.json()["results"]
        assert result["status"] == "refused"
        assert result["message"] == "all 3 deals of the round are already entered"
        assert result["errors"] == {}
        assert DealResult.objects.count() == 3

    def test_penalty_correction_and_removal(self, client, table_of_three):
        a, b, _c = seat_keys(table_of_three)
        url = sync_url(table_of_three)
        penalty = {
            "key": "p",
            "action": "penalty",
            "fields": {"penalty-position": "2", "penalty-client_key": "p", "penalty-player": a},
            "scores": None,
        }
        correct = {
            "key": "fix",
            "action": "correct",
            "fields": {
                "fix-position": "1",
                "fix-base_version": "1",
                "fix-client_key": "fix",
                "fix-game": "lielais",
                "fix-declarer": b,
                "fix-points": "31",
                "fix-tricks": "2",
                "fix-reason": "typed wrong",
            },
            "scores": None,
        }
        remove = {
            "key": "rm",
            "action": "remove",
            "fields": {
                "remove-position": "2",
                "remove-base_version": "1",
                "remove-client_key": "rm",
                "remove-reason": "not given",
            },
            "scores": None,
        }
        response = send(client, url, [deal(table_of_three, 1, "d1"), penalty, correct, remove])
        assert statuses(response) == ["stored"] * 4
        state = response.json()["state"]
        assert state["entries"] == [{"position": 1, "version": 2, "number": 1, "kind": "deal"}]
        assert state["sheet"]["deals"][0]["points"] == 31

    def test_an_empty_batch_is_answered_with_the_state(self, client, table_of_three):
        play_deals(table_of_three, 2)
        response = send(client, sync_url(table_of_three), [])
        assert response.status_code == 200
        assert response.json()["results"] == []
        assert response.json()["state"]["next_position"] == 3


class TestConflicts:
    def test_two_devices_send_the_same_position(self, client, table_of_three):
        url = sync_url(table_of_three)
        assert statuses(send(client, url, [deal(table_of_three, 1, "phone-a")])) == ["stored"]
        other = deal(table_of_three, 1, "phone-b", points="90", tricks="6")
        response = send(Client(), url, [other, deal(table_of_three, 2, "phone-b-2")])
        [result] = response.json()["results"]
        assert result["status"] == "conflict"
        assert result["message"] == "Another device entered deal 1: here is the sheet now."
        assert [r.client_key for r in DealResult.objects.all()] == ["phone-a"]
        assert response.json()["state"]["sheet"]["deals"][0]["points"] == 75

    def test_another_deal_under_a_key_the_table_has_used_is_a_conflict(
        self, client, table_of_three
    ):
        url = sync_url(table_of_three)
        assert statuses(send(client, url, [deal(table_of_three, 1, "phone-a")])) == ["stored"]
        # The same key again: for the next deal, and for deal 1 with other points.
        for other in (
            deal(table_of_three, 2, "phone-a"),
            deal(table_of_three, 1, "phone-a", points="90", tricks="6"),
        ):
            response = send(client, url, [other])
            [result] = response.json()["results"]
            assert result["status"] == "conflict"
            assert result["message"] == (
                "Another entry was sent under the key of deal 1, which is stored as it was "
                "sent first: here is the sheet now."
            )
        assert [(r.position, r.points) for r in DealResult.objects.all()] == [(1, 75)]
        # The same deal under its key is a resend: stored once, and answered as stored.
        assert statuses(send(client, url, [deal(table_of_three, 1, "phone-a")])) == ["stored"]
        assert DealResult.objects.count() == 1

    def test_a_deal_after_a_gap_is_refused_as_a_gap(self, client, table_of_three):
        url = sync_url(table_of_three)
        send(client, url, deals(table_of_three, 1, 2))
        response = send(client, url, [deal(table_of_three, 5, "k-5")])
        [result] = response.json()["results"]
        assert result["status"] == "refused"
        assert result["message"] == (
            "entry 5 was sent, but entry 3 is the next on the sheet of table 1: entries 3-4 are "
            "missing."
        )
        assert DealResult.objects.count() == 2

    def test_a_correction_of_a_version_corrected_meanwhile(self, client, table_of_three):
        play_deals(table_of_three, 1)
        _a, b, _c = seat_keys(table_of_three)
        fix = {
            "fix-position": "1",
            "fix-base_version": "1",
            "fix-game": "lielais",
            "fix-declarer": b,
            "fix-points": "61",
            "fix-tricks": "4",
            "fix-reason": "r",
        }
        url = sync_url(table_of_three)
        first = {"key": "f1", "action": "correct", "fields": {**fix, "fix-client_key": "f1"}}
        second = {"key": "f2", "action": "correct", "fields": {**fix, "fix-client_key": "f2"}}
        assert statuses(send(client, url, [{**first, "scores": None}])) == ["stored"]
        response = send(client, url, [{**second, "scores": None}])
        [result] = response.json()["results"]
        assert result["status"] == "conflict"
        assert "corrected deal 1 meanwhile" in result["message"]

    def test_time_called_refuses_the_deal_after_the_one_under_way(self, client, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        tournament = make_tournament(deals_per_round=6, round_time_limit=50, slug="laiks")
        table = make_published_round(tournament, players=6).tables.get(number=1)
        organiser = make_organiser()
        url = sync_url(table)
        assert statuses(send(client, url, deals(table, 1, 3))) == ["stored"] * 3
        tournament_services.round_clock_start(round_=table.round, by=organiser)
        clock.advance(minutes=10)
        tournament_services.round_time_call(round_=table.round, by=organiser)
        clock.advance(minutes=2)
        response = send(client, url, deals(table, 4, 6))
        assert statuses(response) == ["stored", "refused"]
        assert (
            "may enter only the deal that was under way" in response.json()["results"][1]["message"]
        )
        assert response.json()["state"]["deal_limit"] == 4
        assert DealResult.objects.count() == 4

    def test_a_confirmed_table_is_closed_to_the_entries_after_it(self, client, short_round):
        url = sync_url(short_round)
        entries = [*deals(short_round, 1, 3), confirm_entry(short_round, 3)]
        correction = deal(short_round, 4, "late")
        response = send(client, url, [*entries, correction])
        assert statuses(response) == ["stored", "stored", "stored", "stored", "closed"]
        assert "confirmed and locked" in response.json()["results"][-1]["message"]
        state = response.json()["state"]
        assert (state["confirmed"], state["accepts_entries"]) == (True, False)
        assert TableResult.objects.filter(table=short_round).exists()
        # The confirmation sent again (its answer lost) is the same confirmation.
        assert statuses(send(client, url, [confirm_entry(short_round, 3)])) == ["stored"]
        other = send(client, url, [confirm_entry(short_round, 2, key="c2")])
        assert statuses(other) == ["closed"]

    def test_a_confirmation_of_another_count_is_a_conflict(self, client, short_round):
        play_deals(short_round, 3)
        response = send(client, sync_url(short_round), [confirm_entry(short_round, 2)])
        [result] = response.json()["results"]
        assert result["status"] == "conflict"
        assert "has 3 deals now, not the 2 you checked" in result["message"]
        assert not TableResult.objects.exists()

    def test_a_confirmation_needs_the_confirmer(self, client, short_round):
        play_deals(short_round, 3)
        entry = confirm_entry(short_round, 3)
        del entry["fields"]["confirm-confirmer"]
        [result] = send(client, sync_url(short_round), [entry]).json()["results"]
        assert result["status"] == "refused" and "confirmer" in result["errors"]
        assert not TableResult.objects.exists()

    def test_a_draft_round_is_closed(self, client):
        tournament = make_tournament()
        make_published_round(tournament, players=6)
        round_two = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_two, seed=1, by=None)
        table = round_two.tables.get(number=1)
        client.force_login(make_organiser())
        url = reverse("entry:table_sync", args=[table.pk])
        response = send(client, url, deals(table, 1, 1))
        [result] = response.json()["results"]
        assert result["status"] == "closed" and "not published yet" in result["message"]


class TestTheLinksChecks:
    def test_a_replaced_link_is_gone(self, client, table_of_three):
        url = sync_url(table_of_three)
        tournament_services.table_token_revoke(table=table_of_three, by=make_organiser())
        response = send(client, url, deals(table_of_three, 1, 1))
        assert response.status_code == 410
        assert response.json() == {
            "gone": True,
            "message": "This link was replaced: ask the organiser for the new one.",
        }
        assert not DealResult.objects.exists()

    def test_a_reseated_round_is_gone(self, client, table_of_three):
        url = sync_url(table_of_three)
        entries = deals(table_of_three, 1, 1)
        reseat(table_of_three.round)
        response = send(client, url, entries)
        assert response.status_code == 410 and response.json()["gone"] is True

    def test_an_unknown_link(self, client, table_of_three):
        response = send(client, "/r/not-a-link/entries/", [])
        assert response.status_code == 404 and "error" in response.json()

    def test_unknown_links_count_against_the_address_as_on_the_page(
        self, client, table_of_three, settings
    ):
        settings.RATE_LIMITS = {
            **settings.RATE_LIMITS,
            "table-link": {"failures": 3, "seconds": 60},
        }
        for number in range(3):
            assert send(client, f"/r/guess-{number}/entries/", []).status_code == 404
        assert client.get("/r/guess-page/").status_code == 429  # one count, both doors
        assert send(client, "/r/guess-next/entries/", []).status_code == 429
        # A valid link is served whatever the other phones at the venue did.
        assert send(client, sync_url(table_of_three), []).status_code == 200

    def test_csrf_is_enforced_as_for_the_forms(self, table_of_three):
        browser = Client(enforce_csrf_checks=True)
        url = sync_url(table_of_three)
        assert send(browser, url, deals(table_of_three, 1, 1)).status_code == 403
        assert not DealResult.objects.exists()
        token = browser.get(url_of(table_of_three)).cookies["csrftoken"].value
        response = send(browser, url, deals(table_of_three, 1, 1), headers={"X-CSRFToken": token})
        assert response.status_code == 200 and statuses(response) == ["stored"]

    def test_a_get_is_not_allowed(self, client, table_of_three):
        assert client.get(sync_url(table_of_three)).status_code == 405

    def test_the_signed_in_door(self, client, table_of_three):
        url = reverse("entry:table_sync", args=[table_of_three.pk])
        response = send(client, url, deals(table_of_three, 1, 1))
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
        client.force_login(make_user())
        assert send(client, url, deals(table_of_three, 1, 1)).status_code == 403
        organiser = make_organiser()
        client.force_login(organiser)
        response = send(client, url, deals(table_of_three, 1, 1))
        assert statuses(response) == ["stored"]
        stored = DealResult.objects.get()
        assert (stored.entered_by, stored.entered_via_token) == (organiser, None)
        assert TableHeard.objects.get(table=table_of_three).waiting == 0  # stored: not waiting


HOSTILE_BODIES = {
    "not JSON": b"entries=1",
    "not UTF-8": b'{"entries": ["\xff"]}',
    "a list": b"[]",
    "no entries": b"{}",
    "entries not a list": b'{"entries": {}}',
    "an entry not an object": b'{"entries": [1]}',
    "no key": b'{"entries": [{"action": "deal", "fields": {}}]}',
    "a number as key": b'{"entries": [{"key": 7, "action": "deal", "fields": {}}]}',
    "unknown action": b'{"entries": [{"key": "k", "action": "unlock", "fields": {}}]}',
    "fields missing": b'{"entries": [{"key": "k", "action": "deal"}]}',
    "a field not text": b'{"entries": [{"key": "k", "action": "deal", "fields": {"a": 1}}]}',
    "scores not numbers": (
        b'{"entries": [{"key": "k", "action": "deal", "fields": {}, "scores": {"1": "x"}}]}'
    ),
    "waiting negative": b'{"entries": [], "waiting": -1}',
    "waiting a boolean": b'{"entries": [], "waiting": true}',
    "too deep": b'{"entries": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a huge number": b'{"entries": [], "waiting": 1' + b"0" * 5000 + b"}",
    "huge": b'{"entries": [], "x": "' + b"a" * 300_000 + b'"}',
}


class TestHostileBodies:
    @pytest.mark.parametrize("body", HOSTILE_BODIES.values(), ids=HOSTILE_BODIES.keys())
    def test_a_body_that_is_not_the_protocol_is_400_and_changes_nothing(self, table_of_three, body):
        client = Client(raise_request_exception=False)
        response = client.post(sync_url(table_of_three), body, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["error"]
        assert not DealResult.objects.exists()
        assert not TableHeard.objects.exists()

    def test_a_forms_body_is_400(self, table_of_three):
        """A form's body (multipart, read by the CSRF check before the view) is no JSON."""
        client = Client(raise_request_exception=False)
        response = client.post(sync_url(table_of_three), {"entries": "[]"})
        assert response.status_code == 400
        assert response.json() == {"error": "The request is not JSON: reload the page."}
        assert not TableHeard.objects.exists()

    def test_31_entries_are_too_many(self, client, table_of_three):
        play_round_with(table_of_three.round, deals_per_round=40)
        response = send(client, sync_url(table_of_three), deals(table_of_three, 1, 31))
        assert response.status_code == 400
        assert response.json()["error"] == "31 entries sent at once: send at most 30 at a time."
        assert not DealResult.objects.exists()

    def test_odd_fields_are_the_forms_refusal(self, client, table_of_three):
        entry = deal(table_of_three, 1, "k")
        entry["fields"] = {"deal-position": "\x00", "deal-client_key": "k" * 65}
        response = send(client, sync_url(table_of_three), [entry])
        [result] = response.json()["results"]
        assert result["status"] == "refused"
        assert set(result["errors"]) >= {"position", "client_key", "game"}


class TestDisagreement:
    def test_scores_that_differ_from_the_servers_are_logged(self, client, table_of_three, caplog):
        entry = deal(table_of_three, 1, "k")
        a, b, c = seat_keys(table_of_three)
        declarer = entry["fields"]["deal-declarer"]
        right = {key: (2 if key == declarer else -1) for key in (a, b, c)}  # a won lielais
        entry["scores"] = {key: -value for key, value in right.items()}
        agreed = deal(table_of_three, 2, "k2")
        with caplog.at_level(logging.WARNING, logger="entry"):
            response = send(client, sync_url(table_of_three), [entry])
        [result] = response.json()["results"]
        assert result["status"] == "stored" and result["disagreed"] is True
        [warning] = [r for r in caplog.records if r.name == "entry"]
        assert warning.levelno == logging.WARNING
        assert "entry 1" in warning.getMessage()
        assert json.dumps(right, sort_keys=True) in warning.getMessage()
        caplog.clear()
        players = (a, b, c)
        agreed["scores"] = {
            key: (2 if key == agreed["fields"]["deal-declarer"] else -1) for key in players
        }
        with caplog.at_level(logging.WARNING, logger="entry"):
            response = send(client, sync_url(table_of_three), [agreed])
        assert response.json()["results"][0]["disagreed"] is False
        assert not [r for r in caplog.records if r.name == "entry"]


class TestCost:
    def test_a_batch_of_28_deals_uses_a_bounded_number_of_queries(
        self, client, table_of_three, django_assert_max_num_queries
    ):
        play_round_with(table_of_three.round, deals_per_round=28)
        url = sync_url(table_of_three)
        send(client, url, [], waiting=28)  # heard from once, as a phone's page is
        entries = deals(table_of_three, 1, 28)
        # Each deal: its transaction's savepoint and release (in the test's transaction), the
        # round and table locked (on PostgreSQL the round's shared lock first), whether it is
        # confirmed, the seats again under the lock (a player may have been put out since),
        # its entries, the insert, its audit record; the first also marks the round in play.
        # Before them the link and the seats, after them the entries read once.
        with django_assert_max_num_queries(28 * 9 + 6):
            response = send(client, url, entries)
        assert statuses(response) == ["stored"] * 28

    def test_one_deal_uses_a_few_queries(
        self, client, table_of_three, django_assert_max_num_queries
    ):
        url = sync_url(table_of_three)
        play_deals(table_of_three, 2)
        # Heard from just now with nothing waiting, as a phone sending deal after deal is: the
        # deal it sends next is stored, so nothing waits after it either (no write of that).
        send(client, url, [], waiting=0)
        entry = deal(table_of_three, 3, "k3")
        # The link, the seats; the deal's write (9 at most, as above). The answer is built from
        # the entries the write read under the lock, with the new one: nothing is read twice
        # but the seats, which a write reads again under the lock.
        with django_assert_max_num_queries(11):
            response = send(client, url, [entry], waiting=1)
        assert statuses(response) == ["stored"]

    @pytest.mark.parametrize("action", ["penalty", "correct", "remove", "confirm"])
    def test_every_write_answers_with_the_sheet_it_read_under_the_lock(
        self, client, short_round, action
    ):
        url = sync_url(short_round)
        play_deals(short_round, 3)
        send(client, url, [], waiting=1)
        a = seat_keys(short_round)[0]
        fields = {
            "penalty": {"penalty-position": "4", "penalty-client_key": "w", "penalty-player": a},
            "correct": {
                "fix-position": "3",
                "fix-base_version": "1",
                "fix-client_key": "w",
                "fix-game": "lielais",
                "fix-declarer": a,
                "fix-points": "91",
                "fix-tricks": "6",
                "fix-reason": "misheard",
            },
            "remove": {
                "remove-position": "3",
                "remove-base_version": "1",
                "remove-client_key": "w",
                "remove-reason": "not played",
            },
        }.get(action)
        entry = (
            confirm_entry(short_round, 3)
            if action == "confirm"
            else {"key": "w", "action": action, "fields": fields, "scores": None}
        )
        with CaptureQueriesContext(connection) as queries:
            response = send(client, url, [entry], waiting=1)
        assert statuses(response) == ["stored"]
        # The entries are read under the table's lock, and the answer is that sheet. A
        # correction reads them once before too: its form is checked against the row it
        # corrects (who sat out of that deal).
        reads = [q for q in queries if q["sql"].startswith("SELECT") and "dealresult" in q["sql"]]
        assert len(reads) == (2 if action == "correct" else 1)
        state = response.json()["state"]
        assert state["mark"] == DealResult.objects.order_by("pk").last().pk
        assert state["confirmed"] is (action == "confirm")


class TestLastHeard:
    def test_a_sync_records_the_counts_the_phone_reported(self, client, table_of_three):
        send(client, sync_url(table_of_three), [], waiting=3, refused=1)
        heard = TableHeard.objects.get(table=table_of_three)
        assert (heard.waiting, heard.refused) == (3, 1)

    def test_the_entries_a_sync_stored_wait_no_longer(self, client, table_of_three):
        """The phone counts the entries it sends among those waiting: once the server has
        stored them, none of them waits."""
        url = sync_url(table_of_three)
        response = send(client, url, deals(table_of_three, 1, 3), waiting=5, refused=0)
        assert statuses(response) == ["stored"] * 3
        heard = TableHeard.objects.get(table=table_of_three)
        assert (heard.waiting, heard.refused) == (2, 0)
        send(client, url, deals(table_of_three, 4, 5), waiting=2, refused=0)
        assert TableHeard.objects.get(table=table_of_three).waiting == 0

    def test_the_entry_a_sync_refused_is_counted_refused(self, client, table_of_three):
        """The first entry not stored stays on the phone, refused; those behind it wait."""
        sent = [*deals(table_of_three, 1, 1), deal(table_of_three, 2, "k-2", points="121")]
        sent.append(deal(table_of_three, 3, "k-3"))
        response = send(client, sync_url(table_of_three), sent, waiting=3, refused=0)
        assert statuses(response) == ["stored", "refused"]
        heard = TableHeard.objects.get(table=table_of_three)
        assert (heard.waiting, heard.refused) == (1, 1)

    def test_a_confirmed_table_has_nothing_waiting(self, client, short_round):
        play_deals(short_round, 3)
        response = send(client, sync_url(short_round), [confirm_entry(short_round, 3)])
        assert statuses(response) == ["stored"]
        assert TableHeard.objects.get(table=short_round).waiting == 0

    def test_a_view_through_the_link_records_it_once_in_a_while(
        self, client, table_of_three, monkeypatch, django_assert_max_num_queries
    ):
        clock = fix_the_clock(monkeypatch)
        url = url_of(table_of_three)
        client.get(url)
        heard = TableHeard.objects.get(table=table_of_three)
        assert heard.heard_at == clock.now and heard.waiting is None
        clock.advance(seconds=10)
        # The page's own reads (the sheet's three, the table's call to the chief referee):
        # nothing written.
        with django_assert_max_num_queries(4):
            client.get(url)
        assert TableHeard.objects.get(table=table_of_three).heard_at == heard.heard_at
        clock.advance(seconds=10)
        client.get(url)
        assert TableHeard.objects.get(table=table_of_three).heard_at == clock.now

    def test_changed_counts_are_written_at_once(self, client, table_of_three, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        url = sync_url(table_of_three)
        send(client, url, [], waiting=2, refused=0)
        clock.advance(seconds=1)
        send(client, url, [], waiting=0, refused=0)
        heard = TableHeard.objects.get(table=table_of_three)
        assert (heard.heard_at, heard.waiting) == (clock.now, 0)
        clock.advance(seconds=1)
        client.get(url_of(table_of_three))  # a view does not say: the counts stay
        assert TableHeard.objects.get(table=table_of_three).waiting == 0

    def test_the_signed_in_doors_page_records_nothing(self, client, table_of_three):
        client.force_login(make_organiser())
        client.get(reverse("entry:table_sheet", args=[table_of_three.pk]))
        assert not TableHeard.objects.exists()

    def test_a_reseated_rounds_tables_go_with_what_was_heard(self, client, table_of_three):
        send(client, sync_url(table_of_three), [], waiting=1)
        reseat(table_of_three.round)
        assert not TableHeard.objects.filter(table_id=table_of_three.pk).exists()
        assert TableToken.objects.filter(table__isnull=True).exists()


class TestTheRoundPageSaysWhenEachTableWasHeardFrom:
    """The organiser's round page: under each table's status, while the round is open, when its
    phone was last heard from and what it said was waiting or refused on it, marked when the
    chief referee should look (refused entries, or entries waiting on a phone silent for
    minutes)."""

    def round_page(self, client, round_):
        url = reverse("organise:round", args=[round_.tournament.slug, round_.number])
        return client.get(url).content.decode()

    def link_cell(self, page, number):
        """The table's link cell: in view on a phone, where the status column is not."""
        row = re.search(rf'<tr id="table-link-{number}">.*?</tr>', page, re.S)[0]
        cell = re.search(r'<td class="entry-link-url">(.*?)</td>', row, re.S)[1]
        return re.sub(r"\s+", " ", cell)

    def test_each_table_heard_from_waiting_and_refused(self, client, monkeypatch):
        clock = fix_the_clock(monkeypatch)
        round_ = make_published_round(players=9)  # three tables of 3
        one, two, three = round_.tables.order_by("number")
        send(client, sync_url(one), [], waiting=0, refused=0)
        send(client, sync_url(two), [], waiting=3, refused=0)
        clock.advance(minutes=4)
        send(client, sync_url(three), [], waiting=1, refused=1)
        clock.advance(minutes=2)
        client.force_login(make_organiser())
        page = self.round_page(client, round_)
        first, second, third = (self.link_cell(page, n) for n in (1, 2, 3))
        assert "last heard from 6 min ago" in first and "waiting" not in first
        assert "table-heard-alert" not in first
        # Three entries waiting on a phone silent for six minutes.
        assert "3 entries waiting" in second and "table-heard-alert" in second
        assert "last heard from 2 min ago" in third
        assert "1 entry waiting" in third and "1 refused" in third
        assert "table-heard-alert" in third  # refused: at once

    def test_the_chief_referee_sees_it_on_his_dashboard(self, client, monkeypatch):
        """A chief referee who is no organiser of the tournament does not open its round page:
        his dashboard lists the round's tables, each with its phone's last word."""
        clock = fix_the_clock(monkeypatch)
        round_ = make_published_round(players=6)
        chief = make_user(username="galvenais")
        round_.tournament.chief_referees.add(chief)
        _, two = round_.tables.order_by("number")
        send(client, sync_url(two), [], waiting=0, refused=1)
        clock.advance(minutes=3)
        client.force_login(chief)
        dashboard = client.get(reverse("organise:dashboard")).content.decode()
        tables = re.search(r'<ul class="chief-tables">(.*?)</ul>', dashboard, re.S)[1]
        first, second = (re.sub(r"\s+", " ", item) for item in tables.split("</li>")[:2])
        assert "Table 1" in first and "last heard" not in first
        assert "Table 2" in second and "last heard from 3 min ago" in second
        assert "1 refused" in second and "table-heard-alert" in second

    def test_just_now_and_an_hour_ago(self, client, monkeypatch):
        clock = fix_the_clock(monkeypatch)  # 10:00 UTC, 12:00 in Riga
        round_ = make_published_round(players=6)
        one, two = round_.tables.order_by("number")
        send(client, sync_url(one), [])
        clock.advance(minutes=75)
        send(client, sync_url(two), [])
        clock.advance(seconds=30)
        client.force_login(make_organiser())
        page = self.round_page(client, round_)
        assert "last heard from at 12:00" in self.link_cell(page, 1)
        assert "last heard from just now" in self.link_cell(page, 2)

    def test_a_table_never_heard_from_and_a_closed_round_say_nothing(self, client):
        round_ = make_published_round(players=6)
        client.force_login(make_organiser())
        assert "last heard from" not in self.round_page(client, round_)
        one = round_.tables.get(number=1)
        send(client, sync_url(one), [], waiting=2)
        assert "2 entries waiting" in self.round_page(client, round_)
        round_.status = "closed"
        round_.save(update_fields=["status"])
        assert "last heard from" not in self.round_page(client, round_)

    def test_in_latvian(self, client):
        round_ = make_published_round(players=6)
        send(client, sync_url(round_.tables.get(number=1)), [], waiting=2, refused=1)
        client.force_login(make_organiser())
        url = reverse("organise:round", args=[round_.tournament.slug, round_.number])
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="lv").content.decode()
        assert "2 ieraksti gaida" in page and "1 noraidīts" in page

    def test_the_pages_queries_do_not_grow_with_its_tables(self, client):
        client.force_login(make_organiser())
        counts = []
        for players in (6, 18):  # 2 and 6 tables, each heard from
            round_ = make_published_round(make_tournament(), players=players)
            for table in round_.tables.all():
                send(Client(), sync_url(table), [], waiting=1, refused=1)
            self.round_page(client, round_)
            with CaptureQueriesContext(connection) as queries:
                page = self.round_page(client, round_)
            assert page.count("1 refused") == players // 3
            counts.append(len(queries))
        assert counts[0] == counts[1]


def penalty(table, position, key, player):
    fields = {
        "penalty-position": str(position),
        "penalty-client_key": key,
        "penalty-player": player,
    }
    return {"key": key, "action": "penalty", "fields": fields, "scores": None}


class TestAPlayerPutOutWhileABatchIsSent:
    """A phone's batch reads the table's seats when it arrives; a second phone may put a player
    out of the round (his seat goes) before the batch's writes. Each write checks the seats it
    reads under the table's lock: no deal of a player who no longer sits at the table."""

    def test_his_deal_is_refused_and_the_table_plays_on_as_three(
        self, client, table_of_four, monkeypatch
    ):
        table = with_rules(table_of_four, late_wait_minutes=5, late_out_deal=1)
        hall_plays(table, 1)
        players = seat_keys(table)
        # X declares the first deal (he does not deal it); B and C are given penalty pules.
        dealer = players[table.first_dealer_position - 1]
        x, b, c = (player for player in players if player != dealer)
        read_seats = entry.sync.sheet_frame

        def seats_read_then_x_put_out(*args, **kwargs):
            frame = read_seats(*args, **kwargs)
            player_out_of_round(table=table, player_key=x, writer=entry.sync.services.Writer())
            return frame

        monkeypatch.setattr(entry.sync, "sheet_frame", seats_read_then_x_put_out)
        batch = [penalty(table, 1, "p-1", b), penalty(table, 2, "p-2", c)]
        batch.append(deal(table, 3, "x-deal", declarer=x))
        response = send(client, sync_url(table), batch)
        assert statuses(response) == ["stored", "stored", "refused"]
        assert response.json()["results"][2]["message"] == (
            "The entry was not saved: Declarer: That player does not sit at this table."
        )
        assert list(DealResult.objects.filter(table=table).values_list("kind", "player_id")) == [
            ("penalty", int(b)),
            ("penalty", int(c)),
        ]
        monkeypatch.undo()
        # The table plays on as three: the next deal is taken.
        response = send(client, sync_url(table), [deal(table, 3, "b-deal", declarer=b)])
        assert statuses(response) == ["stored"]
