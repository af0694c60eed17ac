"""Hostile input against the table's sheet: deals, penalties, corrections, removal, confirmation,
the chief referee's unlock and Galdiņš' fields. Each is refused with a clear error and
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from hall.services import referee_calls
from scoring.models import TableResult
from scoring.services import round_generate_seating
from tests import hostile
from tests.factories import make_player, make_tournament, seat_keys
from tests.hostile import (
    BAD_NUMBERS,
    DEALS,
    HUGE,
    LONG_TEXT,
    NUL_TEXT,
    SCRIPT,
    assert_escaped,
    assert_refused,
    database_state,
    hostile_client,
)
from tournaments import services as tournament_services
from tournaments.models import Registration, Round

pytestmark = pytest.mark.django_db

world = hostile.world  # a fixture: the tournament full of hostile names
staff = hostile.staff  # a fixture: an organiser signed in


class TestSheetForms:
    def post_all(self, client: Client, url: str, cases: list[dict[str, Any]]) -> None:
        for data in cases:
            before = database_state()
            assert_refused(client.post(url, data), before, f"{url} {str(data)[:100]}")

    def test_deals(self, world):
        url = reverse("entry:token_sheet", args=[world.token.token])
        keys = seat_keys(world.table)
        other_table = world.round_2.tables.get(number=2)
        stranger = seat_keys(other_table)[0]
        valid = {
            "action": "deal",
            "deal-position": str(world.next_position),
            "deal-client_key": "hostile-deal",
            "deal-game": "lielais",
            "deal-declarer": keys[1],
            "deal-points": "80",
            "deal-tricks": "6",
        }
        cases = [
            *[{**valid, "deal-points": value} for value in (*BAD_NUMBERS, "121", "1")],
            *[{**valid, "deal-tricks": value} for value in (*BAD_NUMBERS, "9", "-8")],
            *[{**valid, "deal-game": value} for value in ("", "grand", SCRIPT, "LIELAIS")],
            *[
                {**valid, "deal-declarer": value}
                for value in ("", stranger, str(HUGE), "-1", SCRIPT, "'; DROP TABLE x; --")
            ],
            *[{**valid, "deal-position": value} for value in ("", "abc", "0", "-1", "1e309")],
            *[
                {**valid, "deal-client_key": value}
                for value in ("", "x" * 65, "ā" * 10, SCRIPT, "a b", NUL_TEXT)
            ],
            {**valid, "deal-game": "maza_zole"},  # not played under these rules
            {**valid, "deal-game": "galdins"},
            {"action": SCRIPT},
            {"action": ""},
            {},
        ]
        client = hostile_client()
        self.post_all(client, url, cases)
        assert client.post(url, valid).status_code == 302  # the deal itself is fine
        stored = world.table.deal_results.get(client_key="hostile-deal")
        assert stored.position == int(valid["deal-position"])

    def test_penalties_corrections_removal_confirmation(self, world):
        url = reverse("entry:token_sheet", args=[world.token.token])
        keys = seat_keys(world.table)
        penalty = {
            "action": "penalty",
            "penalty-position": str(world.next_position),
            "penalty-client_key": "hostile-penalty",
            "penalty-player": keys[0],
        }
        fix = {
            "action": "correct",
            "fix-position": "1",
            "fix-base_version": "1",
            "fix-client_key": "hostile-fix",
            "fix-game": "pass",
            "fix-reason": "kļūda",
        }
        remove = {
            "action": "remove",
            "remove-position": "2",
            "remove-base_version": "1",
            "remove-client_key": "hostile-remove",
            "remove-reason": "divreiz",
        }
        cases = [
            *[{**penalty, "penalty-player": v} for v in ("", "999999", str(HUGE), SCRIPT)],
            *[{**fix, "fix-position": value} for value in ("abc", str(HUGE), "-1", "99")],
            *[{**fix, "fix-base_version": value} for value in (*BAD_NUMBERS, "0")],
            *[{**fix, "fix-reason": value} for value in ("", "  ", LONG_TEXT, NUL_TEXT)],
            *[{**remove, "remove-position": value} for value in ("1", str(HUGE), "abc")],
            *[{**remove, "remove-reason": value} for value in ("", LONG_TEXT, NUL_TEXT)],
            {**remove, "remove-base_version": str(HUGE)},
            {"action": "confirm", "confirm-confirmer": keys[0]},  # 2 of 12 deals
            *[
                {"action": "confirm", "confirm-confirmer": keys[0], "confirm-deals": value}
                for value in ("abc", "-1", str(HUGE), "2", NUL_TEXT)
            ],
            {"action": "confirm", "confirm-confirmer": SCRIPT},
            {"action": "unlock", "unlock-reason": SCRIPT},  # not the chief referee
        ]
        client = hostile_client()
        self.post_all(client, url, cases)
        assert client.post(url, penalty).status_code == 302  # the penalty itself is fine
        show = hostile_client()
        for value in ("abc", str(HUGE), "-1", "0", "1e309", SCRIPT, "99", "²", "9" * 5000):
            response = show.get(url, {"correct": value})
            assert response.status_code < 500, value
            assert "This entry cannot be corrected now." in response.content.decode(), value

    def test_the_chief_referees_unlock(self, world):
        table = world.round_1.tables.first()
        Round.objects.filter(pk=world.round_1.pk).update(status="in_play")  # open again
        client = hostile_client()
        client.force_login(world.chief)
        url = reverse("entry:table_sheet", args=[table.pk])
        cases = [
            {"action": "unlock", "unlock-reason": value} for value in ("", "   ", LONG_TEXT)
        ] + [{"action": "unlock", "unlock-reason": NUL_TEXT}]
        self.post_all(client, url, cases)
        response = client.post(url, {"action": "unlock", "unlock-reason": SCRIPT})
        assert response.status_code == 302
        assert not TableResult.objects.filter(table=table).exists()
        audit_log = reverse("organise:audit", args=[world.tournament.slug])
        assert_escaped(world.staff().get(audit_log), "audit log")

    def test_galdins_fields(self):
        tournament = make_tournament(all_pass="galdins", deals_per_round=DEALS)
        for _ in range(3):
            Registration.objects.create(tournament=tournament, player=make_player())
        round_ = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_, seed=1, by=None)
        tournament_services.round_publish(round_=round_, by=None)
        table = round_.tables.get()
        keys = seat_keys(table)
        url = reverse("entry:token_sheet", args=[table.tokens.get().token])
        base = {
            "action": "deal",
            "deal-position": "1",
            "deal-client_key": "galdins-1",
            "deal-game": "galdins",
            **{f"deal-tricks_{key}": "3" for key in keys[:2]},
            **{f"deal-points_{key}": "40" for key in keys[:2]},
            f"deal-tricks_{keys[2]}": "2",
            f"deal-points_{keys[2]}": "40",
        }
        cases = [
            *[{**base, f"deal-tricks_{keys[0]}": value} for value in BAD_NUMBERS],
            *[{**base, f"deal-points_{keys[1]}": value} for value in (*BAD_NUMBERS, "121")],
            {**base, f"deal-tricks_{keys[2]}": "7"},  # 13 tricks in a deal of 8
            {**base, "deal-tricks_999999": "1"},  # an unknown player's box is ignored
        ]
        client = hostile_client()
        for data in cases[:-1]:
            before = database_state()
            assert_refused(client.post(url, data), before, str(data)[:100])
        assert client.post(url, cases[-1]).status_code == 302  # the stranger's box ignored
        assert table.deal_results.get().galdins == {
            "tricks": {keys[0]: 3, keys[1]: 3, keys[2]: 2},
            "points": {keys[0]: 40, keys[1]: 40, keys[2]: 40},
        }


class TestRefereeCall:
    def test_odd_fields_beside_a_call_make_one_call_and_no_error(self, world):
        from hall.models import RefereeCall

        url = reverse("entry:token_sheet", args=[world.token.token])
        odd = {"action": "call_referee", "table": HUGE, "back": SCRIPT, "note": LONG_TEXT}
        assert hostile_client().post(url, odd).status_code == 302
        again = hostile_client().post(url, odd, follow=True)
        assert again.status_code == 200 and SCRIPT not in again.content.decode()
        assert RefereeCall.objects.filter(table=world.table).count() == 1

    @pytest.mark.parametrize("action", ["call_referee ", "CALL_REFEREE", SCRIPT, NUL_TEXT])
    def test_odd_actions_are_refused(self, world, action):
        url = reverse("entry:token_sheet", args=[world.token.token])
        before = database_state()
        assert_refused(hostile_client().post(url, {"action": action}), before, repr(action))

    @pytest.mark.parametrize("back", ["", SCRIPT, "https://evil.example/", "//evil.example"])
    def test_the_answer_never_sends_anywhere_else(self, world, back):
        call = referee_calls.referee_call(table=world.table)
        url = reverse("organise:referee_call_answer", args=[world.tournament.slug, call.pk])
        response = world.staff().post(url, {"back": back})
        assert response.status_code == 302 and response.url.startswith("/organise/")

    @pytest.mark.parametrize("call_id", [0, 999_999, 2**31])
    def test_unknown_calls_are_not_found(self, world, call_id):
        url = reverse("organise:referee_call_answer", args=[world.tournament.slug, call_id])
        assert world.staff().post(url).status_code == 404
