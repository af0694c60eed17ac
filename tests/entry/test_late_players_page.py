"""The referee's part of the table page on late and absent players: the late arrival with its
pule on the sheet, the player out of the round, and what a hostile form gets."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from engine import Play, dealer_for
from engine.rules import Game
from scoring import services
from scoring.models import DealResult, LatePlayer
from scoring.services import Writer
from tests.clock import fix_the_clock
from tests.factories import make_published_round, play_round_with, seat_keys
from tournaments.models import AuditRecord, Round, TableToken, Tournament

pytestmark = pytest.mark.django_db


def table_with_rules(players, **options):
    round_ = make_published_round(players=players)
    Tournament.objects.filter(pk=round_.tournament_id).update(**options)
    # A whole minute: the form takes hours and minutes.
    start = (timezone.now() - datetime.timedelta(minutes=20)).replace(second=0, microsecond=0)
    Round.objects.filter(pk=round_.pk).update(published_at=start, clock_started_at=start)
    size = 4 if players == 7 else 3
    return next(t for t in round_.tables.all() if t.seats.count() == size), start


def hall_plays(table, deals, start=0):
    """The round's other table plays `deals` more deals."""
    other = table.round.tables.exclude(pk=table.pk).get()
    players = seat_keys(other)
    for index in range(start, start + deals):
        dealer = dealer_for(players, players[other.first_dealer_position - 1], index)
        services.deal_record(
            table=other,
            entry=Play(Game.LIELAIS, next(p for p in players if p != dealer), 5, 75),
            position=index + 1,
            client_key=f"hall-{index}",
            writer=Writer(),
        )


def url_of(table):
    token = TableToken.objects.get(table=table, revoked_at__isnull=True).token
    return reverse("entry:token_sheet", args=[token])


def local_time(moment):
    return timezone.localtime(moment).strftime("%H:%M")


class TestTheLatePart:
    def test_it_is_not_there_when_the_tournament_has_no_rule_for_late_players(self, client):
        table, _start = table_with_rules(6)
        page = client.get(url_of(table)).content.decode()
        assert 'id="late-players"' not in page

    def test_it_says_the_rule_and_offers_the_arrival_form(self, client):
        table, _start = table_with_rules(6, late_wait_minutes=3, late_out_deal=4)
        page = client.get(url_of(table)).content.decode()
        assert "waits 3 minutes" in page
        assert "Not here by deal 4" in page
        assert 'value="late"' in page
        assert 'value="out"' not in page  # a table of 3 cannot play on with two

    def test_a_late_arrival_gives_the_pule_and_the_sheet_says_why(self, client):
        table, start = table_with_rules(6, late_wait_minutes=3)
        a = seat_keys(table)[0]
        arrived = start + datetime.timedelta(minutes=6, seconds=10)
        response = client.post(
            url_of(table),
            {"action": "late", "late-player": a, "late-arrived_at": local_time(arrived)},
        )
        assert response.status_code == 302
        penalty = DealResult.objects.get(table=table)
        assert (penalty.kind, str(penalty.player_id)) == ("penalty", a)
        page = client.get(url_of(table)).content.decode()
        assert "late: 6 min" in page
        assert "penalty pule, entry 1" in page
        assert AuditRecord.objects.filter(action=AuditRecord.Action.LATE_ARRIVAL).exists()

    def test_the_public_sheet_says_why_the_pule_is_there(self, client):
        table, _start = table_with_rules(6, late_wait_minutes=3)
        play_round_with(table.round, deals_per_round=3)
        players = seat_keys(table)
        client.post(url_of(table), {"action": "late", "late-player": players[1]})
        for index in range(3):
            dealer = dealer_for(players, players[0], index)
            services.deal_record(
                table=table,
                entry=Play(Game.LIELAIS, next(p for p in players if p != dealer), 5, 75),
                position=index + 2,
                client_key=f"public-{index}",
                writer=Writer(),
            )
        services.table_confirm(
            table=table,
            writer=Writer(),
            deals_seen=3,
            confirmer=table.seats.get(position=1).registration,
        )
        page = client.get(
            reverse(
                "public:table",
                args=[table.round.tournament.slug, table.round.number, table.number],
            )
        ).content.decode()
        assert "late: 20 min" in page
        assert "penalty pule, entry 1" in page

    def test_a_player_out_of_the_round_leaves_a_table_of_3_and_the_round_page_says_so(self, client):
        table, _start = table_with_rules(7, late_wait_minutes=3, late_out_deal=4)
        a = seat_keys(table)[0]
        hall_plays(table, 2)
        page = client.get(url_of(table)).content.decode()
        assert "furthest table: 2." in page
        assert 'value="out"' not in page  # deal 4 is not under way in the hall yet
        hall_plays(table, 1, start=2)
        page = client.get(url_of(table)).content.decode()
        assert 'value="out"' in page
        response = client.post(url_of(table), {"action": "out", "out-player": a})
        assert response.status_code == 302
        assert len(seat_keys(table)) == 3
        page = client.get(url_of(table)).content.decode()
        assert "out of the round: did not come" in page
        assert 'value="out"' not in page
        round_page = client.get(
            reverse("public:round", args=[table.round.tournament.slug, table.round.number])
        ).content.decode()
        assert "Out of the round:" in round_page


class TestHostileForms:
    @pytest.mark.parametrize(
        "fields",
        [
            {"late-player": "999999"},
            {"late-player": "'; DROP TABLE"},
            {"late-player": ""},
            {"late-arrived_at": "25:99"},
            {"late-arrived_at": "x" * 5000},
            {"late-arrived_at": "\x00"},
        ],
    )
    def test_a_bad_arrival_is_refused_with_the_form_and_nothing_changes(self, client, fields):
        table, _start = table_with_rules(6, late_wait_minutes=3)
        data = {"action": "late", "late-player": seat_keys(table)[0], **fields}
        response = client.post(url_of(table), data)
        page = response.content.decode()
        # A NUL byte is refused by the site before the page (400); the rest by the form.
        assert response.status_code == 400 or "errorlist" in page or 'class="errors"' in page
        assert response.status_code in (200, 400)
        assert not LatePlayer.objects.exists()
        assert not DealResult.objects.exists()

    def test_an_arrival_still_to_come_is_refused(self, client):
        table, _start = table_with_rules(6, late_wait_minutes=3)
        later = local_time(timezone.now() + datetime.timedelta(minutes=30))
        if later < local_time(timezone.now()):
            pytest.skip("midnight is near: the time would be read as today's")
        response = client.post(
            url_of(table),
            {"action": "late", "late-player": seat_keys(table)[0], "late-arrived_at": later},
        )
        assert "still to come" in response.content.decode()
        assert not LatePlayer.objects.exists()

    def test_an_arrival_typed_after_midnight_is_the_evening_before(self, client, monkeypatch):
        """The round started at 23:50 and it is 00:05 now: "23:56" is six minutes after the
        start, not a time still to come today."""
        clock = fix_the_clock(monkeypatch)
        clock.now = datetime.datetime(2026, 12, 5, 22, 5, tzinfo=datetime.UTC)  # 00:05 in Rīga
        table, _start = table_with_rules(6, late_wait_minutes=3)
        start = datetime.datetime(2026, 12, 5, 21, 50, tzinfo=datetime.UTC)  # 23:50 in Rīga
        Round.objects.filter(pk=table.round_id).update(published_at=start, clock_started_at=start)
        a = seat_keys(table)[0]
        response = client.post(
            url_of(table), {"action": "late", "late-player": a, "late-arrived_at": "23:56"}
        )
        assert response.status_code == 302
        late = LatePlayer.objects.get()
        assert late.arrived_at == start + datetime.timedelta(minutes=6)
        assert late.minutes_late == 6

    @pytest.mark.parametrize("player", ["", "0", "abc", "-1"])
    def test_a_bad_out_of_the_round_is_refused_and_the_table_keeps_its_seats(self, client, player):
        table, _start = table_with_rules(7, late_out_deal=4)
        response = client.post(url_of(table), {"action": "out", "out-player": player})
        assert response.status_code == 200
        assert table.seats.count() == 4

    def test_out_of_the_round_without_the_tournaments_deal_is_refused(self, client):
        table, _start = table_with_rules(7, late_wait_minutes=3)
        response = client.post(url_of(table), {"action": "out", "out-player": seat_keys(table)[0]})
        assert "sets no deal" in response.content.decode()
        assert table.seats.count() == 4

    def test_a_closed_round_takes_no_late_arrival(self, client):
        table, _start = table_with_rules(6, late_wait_minutes=3)
        Round.objects.filter(pk=table.round_id).update(status="closed")
        response = client.post(
            url_of(table), {"action": "late", "late-player": seat_keys(table)[0]}
        )
        assert response.status_code == 409
        assert not LatePlayer.objects.exists()
