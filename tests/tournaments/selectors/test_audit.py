"""The audit log page: every organiser and referee action in words (who, when, from where,
what, before → after), filtered by table, round, player, action and time, a page at a time."""

from __future__ import annotations

import datetime
import itertools
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from accounts.services.roles import role_grant
from engine import PenaltyPule, Play
from engine.names import search_key
from engine.rules import Game
from scoring import services as scoring_services
from scoring.services import Writer, round_generate_seating
from signups.services import signup_create, signups_accept
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_player,
    make_published_round,
    make_tournament,
    play_round_with,
    seat_keys,
)
from tournaments import selectors, services
from tournaments.models import AuditRecord, Registration, Role, Table

pytestmark = pytest.mark.django_db

keys = (f"audit-key-{number}" for number in itertools.count())
# The page: session, user, tournament, the count, the page of entries, the players' names;
# with a player filter, the entries' names and the entries without a table too.
AUDIT_QUERIES = 8


def lielais(declarer: str, points: int = 75) -> Play:
    return Play(Game.LIELAIS, declarer, tricks=5, points=points)


@pytest.fixture
def chief() -> User:
    return User.objects.create(username="galvenais", first_name="Ilze", last_name="Tiesnese")


@pytest.fixture
def played(chief):
    """Round 1 of two tables of three, three deals a round: table 1 played, corrected,
    confirmed and unlocked; a penalty at table 2; a withdrawal; a referee given his role."""
    round_ = make_published_round(players=6)
    tournament = round_.tournament
    play_round_with(round_, deals_per_round=3)
    tournament.chief_referees.add(chief)
    first, second = round_.tables.order_by("number")
    link = first.tokens.get(revoked_at__isnull=True)
    by_link = Writer(token=link, ip_address="10.1.1.1")
    players = seat_keys(first)
    for position in (1, 2, 3):
        scoring_services.deal_record(
            table=first,
            entry=lielais(players[0]),
            position=position,
            client_key=next(keys),
            writer=by_link,
        )
    signed_in = Writer(user=chief, ip_address="10.2.2.2")
    scoring_services.deal_correct(
        table=first,
        position=2,
        entry=lielais(players[1], points=95),
        base_version=1,
        client_key=next(keys),
        reason="95, not 75",
        writer=signed_in,
    )
    scoring_services.table_confirm(table=first, writer=signed_in, deals_seen=deals_on_sheet(first))
    scoring_services.table_unlock(table=first, writer=signed_in, reason="deal 3 was wrong")
    scoring_services.deal_record(
        table=second,
        entry=PenaltyPule(seat_keys(second)[0]),
        position=1,
        client_key=next(keys),
        writer=Writer(ip_address="10.3.3.3"),
    )
    services.registration_withdraw(
        registration=Registration.objects.get(pk=players[2]), after_round=1, by=chief
    )
    role_grant(
        tournament=tournament,
        user=User.objects.create(username="tiesnesis"),
        role=Role.REFEREE,
        by=chief,
    )
    return round_


def name_of(entry_key: str) -> str:
    return Registration.objects.select_related("player").get(pk=entry_key).player.full_name


def audit_url(tournament, **filters: object) -> str:
    url = reverse("organise:audit", args=[tournament.slug])
    query = "&".join(f"{key}={value}" for key, value in filters.items())
    return f"{url}?{query}" if query else url


@pytest.fixture
def organiser_client(client, played):
    organiser = User.objects.create(username="organiser")
    played.tournament.organisers.add(organiser)
    client.force_login(organiser)
    return client


class TestReading:
    def test_every_entry_says_when_who_from_where_and_what(self, organiser_client, played):
        response = organiser_client.get(audit_url(played.tournament))
        assert response.status_code == 200
        rows = response.context["rows"]
        actions = [row.record.action for row in rows]
        assert actions.count("deal.entered") == 3
        assert {"deal.corrected", "table.confirmed", "table.unlocked", "penalty.given"} <= set(
            actions
        )
        by_action = {row.record.action: row for row in rows}
        first = played.tables.get(number=1)
        players = seat_keys(first)

        correction = by_action["deal.corrected"]
        assert correction.who == "Ilze Tiesnese" and correction.where == "10.2.2.2"
        assert correction.place == "round 1 · table 1 · entry 2"
        [change] = correction.changes
        assert change.before == f"lielais · {name_of(players[0])}: 75 points, 5 tricks"
        assert change.after == f"lielais · {name_of(players[1])}: 95 points, 5 tricks"
        assert ("Reason", "95, not 75") in correction.facts

        entered = [row for row in rows if row.record.action == "deal.entered"]
        assert {row.who for row in entered} == {"the table's private link"}
        assert {row.where for row in entered} == {"10.1.1.1"}

        unlock = by_action["table.unlocked"]
        assert unlock.changes[0].after == "unlocked"
        assert all(name_of(key) in unlock.changes[0].before for key in players)
        confirmed = dict(by_action["table.confirmed"].facts)
        assert all(name_of(key) in confirmed["Totals"] for key in players)

        penalty = by_action["penalty.given"]
        second = played.tables.get(number=2)
        assert penalty.changes[0].after == f"penalty pule · {name_of(seat_keys(second)[0])}"
        assert penalty.who == "the system"

        withdrawal = dict(by_action["entry.withdrawn"].facts)
        assert withdrawal["Player"] == name_of(players[2])
        assert dict(by_action["role.granted"].facts) == {
            "Role": "table referee",
            "Account": "tiesnesis",
        }

    def test_registrations_check_ins_and_entry_changes_read_in_words(self, organiser_client):
        """The organiser's own writes are in the log, named and readable."""
        tournament = make_tournament(slug="writes")
        organiser = User.objects.create(username="rita", first_name="Rita", last_name="Ozola")
        tournament.organisers.add(organiser)
        organiser_client.force_login(organiser)
        registered = services.registrations_create(
            tournament=tournament,
            players=[make_player() for _ in range(3)],
            by=organiser,
            ip_address="10.9.9.9",
        )
        round_ = services.round_create(tournament=tournament, by=organiser)
        services.check_in_set(round_=round_, registrations=registered[:2], by=organiser)
        services.registration_update(
            registration=registered[0], values={"team": "Ogre"}, by=organiser
        )

        rows = organiser_client.get(audit_url(tournament)).context["rows"]
        by_action = {row.record.action: row for row in rows}
        names = [entry.player.full_name for entry in registered]
        registration = by_action["entries.registered"]
        assert registration.who == "Rita Ozola" and registration.where == "10.9.9.9"
        assert dict(registration.facts)["Players registered"] == ", ".join(names)
        assert by_action["round.created"].place == "round 1"
        check_in = dict(by_action["round.check_in"].facts)
        assert check_in["No longer checked in"] == registered[2].player.full_name
        assert check_in["Players present"] == "2"
        [change] = by_action["entry.changed"].changes
        assert change.after == "team: Ogre"

    def test_bulk_acceptance_fee_categories_and_fees_read_in_words(self, organiser_client):
        """What the organiser does for many players at once is named, player by player."""
        tournament = make_tournament(
            slug="bulk", signup_until=timezone.now() + datetime.timedelta(days=1)
        )
        organiser_client.force_login(make_organiser())
        for name in ("Anna Ozoliņa", "Berta Kalniņa"):
            signup_create(tournament=tournament, full_name=name)
        signups_accept(tournament=tournament, count=2, by=None)
        _standard, ladies = services.fee_categories_save(
            tournament=tournament,
            rows=[
                services.CategoryRow(None, "Standarta", Decimal(15)),
                services.CategoryRow(None, "Dāmām", Decimal(10)),
            ],
            by=None,
        )
        entries = list(tournament.registrations.all())
        services.fee_category_set(
            tournament=tournament, registrations=entries, category=ladies, by=None
        )
        round_ = services.round_create(tournament=tournament)
        services.fees_paid_by_present(round_=round_, by=None)

        rows = organiser_client.get(audit_url(tournament)).context["rows"]
        by_action = {row.record.action: dict(row.facts) for row in rows}
        both = "Anna Ozoliņa, Berta Kalniņa"
        assert by_action["signup.accepted"]["Players accepted"] == both
        assert by_action["fees.category_set"] == {"Fee category": "Dāmām", "Players": both}
        assert by_action["fees.paid"]["Paid"] == both

    def test_the_page_shows_words_not_json(self, organiser_client, played):
        html = organiser_client.get(audit_url(played.tournament)).content.decode()
        log = html[html.index('class="audit-log"') :]
        for raw in ('{"', "player_id", "&quot;kind", "'kind'", "[["):
            assert raw not in log, raw
        assert "→" in log and "10.2.2.2" in log and "galvenais" not in log
        assert "Ilze Tiesnese" in log

    def test_a_regenerated_seating_lists_the_tables_that_changed(self, organiser_client):
        tournament = make_tournament(slug="regen")
        organiser_client.force_login(User.objects.create(username="staff", is_staff=True))
        round_ = make_published_round(tournament, players=7)
        before = selectors.round_seating(round_=round_)
        round_generate_seating(round_=round_, seed=5, by=None, confirmation="regenerate round 1")
        after = selectors.round_seating(round_=round_)
        response = organiser_client.get(audit_url(tournament, action="round.regenerated"))
        [row] = response.context["rows"]
        changed = [index for index in range(len(before)) if before[index] != after[index]]
        assert [change.label for change in row.changes] == [f"Table {i + 1}" for i in changed]
        assert row.changes[0].after == ", ".join(after[changed[0]])


class TestFilters:
    def actions(self, client, tournament, **filters) -> list[str]:
        response = client.get(audit_url(tournament, **filters))
        assert response.status_code == 200
        return [row.record.action for row in response.context["rows"]]

    def test_by_table_round_and_action(self, organiser_client, played):
        tournament = played.tournament
        table_2 = self.actions(organiser_client, tournament, table=2)
        assert table_2 == ["penalty.given"]
        assert self.actions(organiser_client, tournament, action="deal.corrected") == [
            "deal.corrected"
        ]
        round_1 = self.actions(organiser_client, tournament, round=1)
        assert "round.published" in round_1 and "entry.withdrawn" not in round_1
        assert self.actions(organiser_client, tournament, round=2) == []

    def test_by_player_name_without_case_or_diacritics(self, organiser_client, played):
        tournament = played.tournament
        first = played.tables.get(number=1)
        name = name_of(seat_keys(first)[2])  # "Ņikita Ļebedevs 5": sat at table 1, withdrew
        typed = search_key(name.split()[1]).upper()  # "LEBEDEVS"
        found = organiser_client.get(audit_url(tournament, player=typed)).context["rows"]
        assert {row.record.table_id for row in found} == {first.pk, None}
        assert "entry.withdrawn" in [row.record.action for row in found]
        assert "penalty.given" not in [row.record.action for row in found]
        nobody = self.actions(organiser_client, tournament, player="Nav Tāda")
        assert nobody == []

    def test_a_swap_is_found_by_either_players_name(self):
        tournament = make_published_round(players=6).tournament
        round_2 = services.round_create(tournament=tournament)
        round_generate_seating(round_=round_2, mode="random", seed=3, by=None)
        a, b = (table.seats.first().registration for table in round_2.tables.order_by("number"))
        services.round_swap_players(round_=round_2, first=a, second=b, by=None)
        for entry in (a, b):
            found = selectors.audit_records(tournament=tournament, player=entry.player.full_name)
            assert "round.swap" in [audit.action for audit in found]

    def test_by_time_both_ends_included(self, organiser_client, played):
        tournament = played.tournament
        noon = timezone.make_aware(datetime.datetime(2026, 12, 5, 12, 0))
        entries = list(AuditRecord.objects.filter(tournament=tournament).order_by("id"))
        for index, entry in enumerate(entries):
            AuditRecord.objects.filter(pk=entry.pk).update(
                at=noon + datetime.timedelta(minutes=index)
            )
        window = self.actions(
            organiser_client, tournament, since="2026-12-05T12:01", until="2026-12-05T12:03"
        )
        assert window == [entry.action for entry in reversed(entries[1:4])]

    def test_bad_filters_are_reported_and_the_good_ones_still_apply(self, organiser_client, played):
        tournament = played.tournament
        response = organiser_client.get(
            audit_url(tournament, table="abc", since="vakar", action="deal.corrected")
        )
        assert response.status_code == 200
        assert set(response.context["form"].errors) == {"table", "since"}
        assert [row.record.action for row in response.context["rows"]] == ["deal.corrected"]
        backwards = organiser_client.get(
            audit_url(tournament, since="2026-12-05T12:00", until="2026-12-04T12:00")
        )
        assert "until" in backwards.context["form"].errors
        huge = organiser_client.get(audit_url(tournament, table="9" * 30, page="x" * 50))
        assert huge.status_code == 200 and "table" in huge.context["form"].errors

    def test_another_tournaments_entries_never_show(self, organiser_client, played):
        other = make_published_round(make_tournament(), players=6)
        assert AuditRecord.objects.filter(tournament=other.tournament).exists()
        shown = organiser_client.get(audit_url(played.tournament)).context["page"].paginator
        assert shown.count == AuditRecord.objects.filter(tournament=played.tournament).count()


class TestPages:
    def fill(self, tournament, count: int) -> None:
        table = Table.objects.filter(round__tournament=tournament).first()
        AuditRecord.objects.bulk_create(
            AuditRecord(
                tournament=tournament,
                table=table,
                action=AuditRecord.Action.TOKEN_ISSUED,
                ip_address="10.0.0.1",
                detail={"round": 1},
            )
            for _ in range(count)
        )

    def test_fifty_a_page_newest_first(self, organiser_client, played):
        tournament = played.tournament
        self.fill(tournament, 120)
        total = AuditRecord.objects.filter(tournament=tournament).count()
        first = organiser_client.get(audit_url(tournament))
        assert len(first.context["rows"]) == 50
        ids = [row.record.pk for row in first.context["rows"]]
        assert ids == sorted(ids, reverse=True)
        last = organiser_client.get(audit_url(tournament, page=3, table=1))
        assert last.context["page"].number == 3
        assert "table=1" in last.context["query"]
        assert 100 < total <= 150
        beyond = organiser_client.get(audit_url(tournament, page=99))  # the last page
        assert beyond.context["page"].number == 3
        assert len(beyond.context["rows"]) == total - 100

    @pytest.mark.parametrize("filters", [{}, {"player": "a"}, {"table": 1, "action": "x"}])
    def test_the_page_reads_in_a_fixed_number_of_queries(
        self, organiser_client, played, django_assert_max_num_queries, filters
    ):
        tournament = played.tournament
        organiser_client.force_login(User.objects.create(username="staff", is_staff=True))
        url = audit_url(tournament, **filters)
        with django_assert_max_num_queries(AUDIT_QUERIES):
            organiser_client.get(url)
        self.fill(tournament, 200)
        with django_assert_max_num_queries(AUDIT_QUERIES):
            response = organiser_client.get(url)
        assert response.status_code == 200
