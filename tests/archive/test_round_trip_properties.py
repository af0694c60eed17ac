"""An archive the site wrote always imports, and nothing is lost on the way.

Each example runs a small event as the site lets it run: registration online, fees, rounds
checked in by the organiser and by the players themselves, deals, penalty pules, corrections
and removals, late arrivals and players put out of the round, confirmations and unlocks, calls
to the chief referee, withdrawals, rounds closed, every step drawn at random among what the
site allows at that moment, through the services. The tournament is then exported, the database
emptied of it (the example's savepoint is rolled back: clubs, players, everything but the
accounts and the season, which the federation's server has too), and the archive imported. Every
row the tournament owns reads back the same, field by field (but the few the archive leaves out
on purpose, listed in NOT_ARCHIVED), and so do the standings, the season ranking, the ratings and
the prize list.
"""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from archive.export import tournament_archive
from archive.writing import tournament_import
from engine import PenaltyPule
from engine.simulate import random_deal
from hall.models import RefereeCall
from hall.services.check_in import self_check_in
from hall.services.referee_calls import referee_call, referee_call_answer
from ranking.models import Placing, RatingChange, Season
from ranking.selectors import rating_list, season_standings
from scoring import late_players as late
from scoring import services as scoring
from scoring.models import DealResult, LatePlayer, SeatResult, TableResult
from scoring.selectors import tournament_standings
from scoring.selectors.prize_standings import prize_list
from scoring.services import Writer, round_generate_seating
from scoring.sheet.reader import table_sheet
from signups.models import SignUp, SignUpStatus
from signups.services import signup_accept, signup_create, signup_move, signup_refuse
from tests.factories import make_club, make_player, make_tournament
from tournaments import services
from tournaments.models import (
    AuditRecord,
    CheckIn,
    CheckInMethod,
    CheckOut,
    Club,
    FeeCategory,
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.services.fees import CategoryRow

pytestmark = pytest.mark.django_db

# What the archive leaves out on purpose, and why.
NOT_ARCHIVED: dict[tuple[type[models.Model], str], str] = {
    (Tournament, "id"): "a row id",
    (Tournament, "created_at"): "when this database's row was made",
    (Tournament, "changed_at"): "when this database's row was last saved",
    (Player, "created_at"): "when this database's register got him",
    (Registration, "check_in_token"): "a player's own link is a secret, as a table's link",
    (Round, "check_in_code"): "read in the hall, not kept: the import gives a new one",
    (DealResult, "client_key"): "a device's key, replaced by the archive's own",
    (DealResult, "ip_address"): "personal data, nothing to check a result with",
    (AuditRecord, "ip_address"): "personal data, nothing to check a result with",
}
REFEREE_IP = "10.0.0.5"


# --- Reading every row a tournament owns, by names rather than ids ------------------------------


class Names:
    """Natural keys for the rows a tournament's rows point at, so that two databases compare."""

    def __init__(self, tournament: Tournament) -> None:
        self.entries = {
            str(entry.pk): f"{entry.player.full_name} ({entry.player.licence_number})"
            for entry in tournament.registrations.select_related("player")
        }

    def entry(self, key: object) -> str:
        return self.entries.get(str(key), f"no entry {key}")

    def keyed(self, scores: object) -> object:
        if not isinstance(scores, dict):
            return scores
        return {self.entry(key): value for key, value in scores.items()}

    def galdins(self, galdins: object) -> object:
        if not isinstance(galdins, dict):
            return galdins
        return {
            part: self.entry(value) if part == "draw_loser" else self.keyed(value)
            for part, value in galdins.items()
        }

    def audit_detail(self, action: str, detail: dict[str, Any]) -> dict[str, Any]:
        detail = json.loads(json.dumps(detail))
        for side in ("before", "after"):
            deal = detail.get(side)
            if action.startswith(("deal.", "penalty.")) and isinstance(deal, dict):
                if deal.get("player_id") is not None:
                    deal["player_id"] = self.entry(deal["player_id"])
                if "galdins" in deal:
                    deal["galdins"] = self.galdins(deal["galdins"])
        if action == AuditRecord.Action.TABLE_CONFIRMED:
            detail["totals"] = self.keyed(detail.get("totals"))
        if action == AuditRecord.Action.TABLE_UNLOCKED:
            detail["before"] = self.keyed(detail.get("before"))
        if action == AuditRecord.Action.SELF_CHECK_IN:
            detail["registration"] = self.entry(detail.get("registration"))
        return detail

    def value(self, row: models.Model, field: models.Field) -> object:
        value = getattr(row, field.attname)
        if value is None:
            return None
        if isinstance(field, models.ForeignKey):
            return self.related(field.related_model, value)
        if isinstance(row, DealResult) and field.name == "galdins":
            return self.galdins(value)
        if isinstance(row, AuditRecord) and field.name == "detail":
            return self.audit_detail(row.action, value)
        if isinstance(row, Tournament) and field.name == "mix_plan" and value:
            return {
                **value,
                "players": sorted(map(self.entry, value["players"])),
                "rounds": [[[self.entry(k) for k in t] for t in r] for r in value["rounds"]],
            }
        if isinstance(value, datetime.datetime):
            return value.astimezone(datetime.UTC).isoformat()
        if isinstance(value, Decimal | datetime.date):
            return str(value)
        return value

    def related(self, model: type[models.Model], pk: object) -> object:
        if model is Registration:
            return self.entry(pk)
        if model is User:
            return User.objects.get(pk=pk).username
        if model is Table:
            table = Table.objects.select_related("round").get(pk=pk)
            return (table.round.number, table.number)
        if model is Round:
            return Round.objects.get(pk=pk).number
        if model is Tournament:
            return Tournament.objects.get(pk=pk).slug
        if model is FeeCategory:
            return FeeCategory.objects.get(pk=pk).name
        if model is Player:
            player = Player.objects.select_related("club").get(pk=pk)
            return (player.full_name, player.licence_number, str(player.club or ""))
        if model is Club:
            return Club.objects.get(pk=pk).name
        if model is TableToken:
            return "the table's link"
        if model is TableResult:
            return self.related(Table, TableResult.objects.get(pk=pk).table_id)
        raise AssertionError(f"no natural key for {model.__name__}")


def rows(model: type[models.Model], names: Names, **where: object) -> list[str]:
    """The model's rows, each as its fields' values by name, in a stable order."""
    fields = [
        field
        for field in model._meta.concrete_fields
        if field.name != "id" and (model, field.name) not in NOT_ARCHIVED
    ]
    described = []
    for row in model.objects.filter(**where):
        values = {field.name: names.value(row, field) for field in fields}
        if model is TableResult:  # the newest version confirmed: an id of this database
            version = DealResult.objects.get(pk=row.last_version_id)
            values["last_version_id"] = (version.position, version.version)
        if model is AuditRecord and row.action == AuditRecord.Action.TOURNAMENT_IMPORTED:
            continue  # the import logs itself
        described.append(json.dumps(values, sort_keys=True, ensure_ascii=False, default=str))
    return sorted(described)


def roles(tournament: Tournament) -> dict[str, list[str]]:
    held = {
        relation: sorted(getattr(tournament, relation).values_list("username", flat=True))
        for relation in ("organisers", "chief_referees", "referees")
    }
    for table in Table.objects.filter(round__tournament=tournament).order_by("round__number"):
        held[f"table {table.round.number}.{table.number}"] = sorted(
            table.referees.values_list("username", flat=True)
        )
    return held


def what_the_site_shows(tournament: Tournament, season: Season) -> dict[str, Any]:
    """Every row of the tournament, and what its pages compute from them."""
    names = Names(tournament)
    of_tournament = {"tournament": tournament}
    shown: dict[str, Any] = {
        "tournament": rows(Tournament, names, pk=tournament.pk),
        "roles": roles(tournament),
        "registrations": rows(Registration, names, **of_tournament),
        "players": rows(Player, names, registrations__tournament=tournament),
        "fee categories": rows(FeeCategory, names, **of_tournament),
        "online registrations": rows(SignUp, names, **of_tournament),
        "rounds": rows(Round, names, **of_tournament),
        "check-ins": rows(CheckIn, names, round__tournament=tournament),
        "check-outs": rows(CheckOut, names, round__tournament=tournament),
        "tables": rows(Table, names, round__tournament=tournament),
        "seats": rows(Seat, names, table__round__tournament=tournament),
        "deal versions": rows(DealResult, names, table__round__tournament=tournament),
        "confirmations": rows(TableResult, names, table__round__tournament=tournament),
        "results": rows(SeatResult, names, table_result__table__round__tournament=tournament),
        "late players": rows(LatePlayer, names, table__round__tournament=tournament),
        "referee calls": rows(RefereeCall, names, table__round__tournament=tournament),
        "audit trail": rows(AuditRecord, names, **of_tournament),
        "placings": rows(Placing, names, **of_tournament),
        "rating changes": rows(
            RatingChange, names, table_result__table__round__tournament=tournament
        ),
    }
    shown["standings"] = [
        (row.name, row.rank_label, str(row.place_points), row.game_points, row.wins)
        for row in tournament_standings(tournament=tournament).rows
    ]
    shown["season ranking"] = [
        (row.rank, row.name, row.points, row.wins, row.game_points, row.counted, row.events)
        for row in season_standings(season=season).rows
    ]
    shown["ratings"] = [
        (row.rank, row.name, round(row.mu, 9), round(row.sigma, 9), row.tables)
        for row in rating_list()
    ]
    prizes = prize_list(tournament=tournament)
    shown["prize list"] = (
        prizes.fund.total_cents,
        prizes.costs_cents,
        [(row.place, row.name, row.cents) for row in prizes.rows],
    )
    return shown


# --- The event, step by step --------------------------------------------------------------------


class Event:
    """A small tournament and the steps the site allows it next. Each step draws what it needs;
    a step the services refuse writes nothing (tested elsewhere), and the walk goes on."""

    def __init__(self, draw: Callable[[st.SearchStrategy], Any], people: dict[str, User]) -> None:
        self.draw = draw
        self.rng = random.Random(draw(st.integers(0, 2**32)))
        self.organiser, self.chief = people["organiser"], people["chief"]
        table_size = draw(st.sampled_from([3, 4]))
        late_rules = draw(st.booleans())
        self.tournament = make_tournament(
            rounds_planned=2,
            table_size=table_size,
            deals_per_round=4,
            deals_at_three=3,
            deals_at_four=4,
            late_wait_minutes=5 if late_rules else None,
            late_out_deal=1 if late_rules else None,
            prize_costs_percent=Decimal(10),
            prize_shares="60 40",
            signup_until=timezone.now() + datetime.timedelta(days=1),
            signup_places=draw(st.sampled_from([None, 8])),
            all_pass=draw(st.sampled_from(["pule", "galdins"])),
        )
        self.tournament.organisers.add(self.organiser)
        self.tournament.chief_referees.add(self.chief)
        if draw(st.booleans()):
            services.fee_categories_save(
                tournament=self.tournament,
                rows=[CategoryRow(None, "Standarta", Decimal("15.00"))]
                + ([CategoryRow(None, "Dāmām", Decimal("10.00"))] if draw(st.booleans()) else []),
                by=self.organiser,
            )
        clubs = [make_club(), make_club()]
        players = [
            make_player(club=clubs[n % 2], licence_number=f"LV-{self.rng.randrange(10**6)}-{n}")
            for n in range(draw(st.integers(6, 8)))
        ]
        services.registrations_create(
            tournament=self.tournament, players=players, by=self.organiser
        )
        for n in range(draw(st.integers(0, 3))):
            signup_create(
                tournament=self.tournament,
                full_name=f"Viesis Tiešsaistē {n}",
                club=str(clubs[0]) if n % 2 else "Jauns klubs",
                contact=f"viesis{n}@example.lv",
            )

    # -- what may be done now

    def steps(self) -> list[Callable[[], object]]:
        """What may be done now, each as often as an event does it (the walk draws one)."""
        round_ = self.tournament.rounds.order_by("-number").first()
        steps: list[Callable[[], object]] = [self.fees_paid, self.withdraw]
        if round_ is None or round_.status == RoundStatus.CLOSED:
            if self.tournament.signups.filter(status__in=("listed", "waiting")).exists():
                steps += [self.signup_decided] * 3
            if round_ is None or round_.number < self.tournament.rounds_planned:
                steps += [self.round_prepared] * 3
            return steps
        if round_.status == RoundStatus.DRAFT:
            return [*steps, self.check_in, self.check_in, self.self_check_in, self.round_published]
        # In play: mostly the next deal or confirmation somewhere, now and then anything else.
        return [
            *steps,
            *[self.table_goes_on] * 10,
            *[self.table_step] * 4,
            *[self.someone_not_come] * 3,
            self.round_closed,
        ]

    def walk(self, count: int) -> None:
        for _ in range(count):
            step = self.draw(st.sampled_from(self.steps()))
            try:
                with transaction.atomic():
                    step()
            except services.ServiceError:
                pass

    # -- before and between rounds

    def fees_paid(self) -> None:
        entries = list(self.tournament.registrations.order_by("pk"))
        paid = [entry for entry in entries if self.rng.random() < 0.6]
        services.fees_paid_set(tournament=self.tournament, paid=paid, by=self.organiser)

    def withdraw(self) -> None:
        last = self.tournament.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
        if last is None:
            return
        entry = self.rng.choice(list(self.tournament.registrations.order_by("pk")))
        services.registration_withdraw(
            registration=entry, after_round=last.number, by=self.organiser
        )

    def signup_decided(self) -> None:
        signup = self.rng.choice(
            list(self.tournament.signups.filter(status__in=("listed", "waiting")).order_by("pk"))
        )
        choice = self.rng.choice(["accept", "accept", "refuse", "move"])
        if choice == "accept":
            signup_accept(signup=signup, by=self.organiser)
        elif choice == "refuse":
            signup_refuse(signup=signup, by=self.organiser)
        else:
            to = SignUpStatus.WAITING if signup.status == "listed" else SignUpStatus.LISTED
            signup_move(signup=signup, to=to, by=self.organiser)

    def round_prepared(self) -> None:
        services.round_create(tournament=self.tournament, by=self.organiser)

    def draft(self) -> Round:
        return self.tournament.rounds.get(status=RoundStatus.DRAFT)

    def check_in(self) -> None:
        round_ = self.draft()
        entries = [e for e in self.tournament.registrations.order_by("pk") if not e.is_withdrawn]
        present = [entry for entry in entries if self.rng.random() < 0.9]
        services.check_in_set(round_=round_, registrations=present, by=self.organiser)

    def self_check_in(self) -> None:
        round_ = self.draft()
        entry = self.rng.choice(list(self.tournament.registrations.order_by("pk")))
        method = self.rng.choice([CheckInMethod.CODE, CheckInMethod.LINK])
        self_check_in(
            registration=entry, method=method, code=round_.check_in_code, ip_address=REFEREE_IP
        )

    def round_published(self) -> None:
        round_ = self.draft()
        round_generate_seating(round_=round_, seed=self.rng.randrange(1000), by=None)
        services.round_publish(round_=round_, by=self.organiser)
        # As if it had been published a quarter of an hour ago: late players are late.
        Round.objects.filter(pk=round_.pk).update(
            published_at=timezone.now() - datetime.timedelta(minutes=15)
        )

    def round_closed(self) -> None:
        round_ = self.tournament.rounds.order_by("-number").first()
        scoring.round_close(round_=round_, writer=Writer(user=self.organiser))

    # -- at a table

    def table_step(self) -> None:
        round_ = self.tournament.rounds.order_by("-number").first()
        table = self.rng.choice(list(round_.tables.select_related("round__tournament")))
        step = self.draw(
            st.sampled_from(
                [
                    self.deal,
                    self.deal,
                    self.deal,
                    self.penalty,
                    self.correction,
                    self.removal,
                    self.late_arrival,
                    self.out_of_round,
                    self.confirmation,
                    self.unlock,
                    self.call,
                    self.answer,
                ]
            )
        )
        step(table)

    def table_goes_on(self) -> None:
        """A table of the round plays its next deal, or, every deal in, is confirmed."""
        round_ = self.tournament.rounds.order_by("-number").first()
        table = self.rng.choice(list(round_.tables.select_related("round__tournament")))
        sheet = table_sheet(table_id=table.pk)
        if sheet.is_confirmed:
            return
        (self.confirmation if sheet.is_complete else self.deal)(table)

    def someone_not_come(self) -> None:
        """A table of 4 that has not started waits for a player who has not come: its first
        deal may be entered by mistake and removed, then he is put out of the round."""
        round_ = self.tournament.rounds.order_by("-number").first()
        waiting = [
            table
            for table in round_.tables.select_related("round__tournament")
            if table_sheet(table_id=table.pk).deals_played == 0 and table.seats.count() == 4
        ]
        if not waiting:
            return
        table = self.rng.choice(waiting)
        others = [other for other in round_.tables.all() if other.pk != table.pk]
        if others and late.hall_deals(round_) == 0:  # he is out once the hall plays deal 1
            self.deal(self.rng.choice(others))
        if self.rng.random() < 0.5:
            self.deal(table)
            self.removal(table)
        self.out_of_round(table)

    def writer(self, table: Table) -> Writer:
        if self.rng.random() < 0.7:
            link = TableToken.objects.get(table=table, revoked_at__isnull=True)
            return Writer(token=link, ip_address=REFEREE_IP)
        return Writer(user=self.chief, ip_address=REFEREE_IP)

    def key(self) -> str:
        return f"k{self.rng.randrange(10**12)}"

    def deal(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        keys = [player.key for player in sheet.players]
        entry = random_deal(self.rng, players=keys, dealer=sheet.next_dealer.key, rules=sheet.rules)
        scoring.deal_record(
            table=table,
            entry=entry,
            position=sheet.next_position,
            client_key=self.key(),
            writer=self.writer(table),
        )

    def penalty(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        scoring.deal_record(
            table=table,
            entry=PenaltyPule(self.rng.choice(sheet.players).key),
            position=sheet.next_position,
            client_key=self.key(),
            writer=self.writer(table),
        )

    def correction(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        rows = [row for row in sheet.rows if row.dealer is not None]
        if not rows:
            return
        row = self.rng.choice(rows)
        keys = [player.key for player in sheet.players]
        scoring.deal_correct(
            table=table,
            position=row.result.position,
            entry=random_deal(self.rng, players=keys, dealer=row.dealer.key, rules=sheet.rules),
            base_version=row.result.version,
            client_key=self.key(),
            reason="pārrakstījāmies",
            writer=self.writer(table),
        )

    def removal(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        if not sheet.entries:
            return
        last = sheet.entries[-1]
        scoring.deal_correct(
            table=table,
            position=last.position,
            entry=None,
            base_version=last.version,
            client_key=self.key(),
            reason="ierakstīts divreiz",
            writer=self.writer(table),
        )

    def late_arrival(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        late.late_arrival_record(
            table=table,
            player_key=self.rng.choice(sheet.players).key,
            arrived_at=None,
            client_key=self.key(),
            writer=self.writer(table),
        )

    def out_of_round(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        late.player_out_of_round(
            table=table, player_key=self.rng.choice(sheet.players).key, writer=self.writer(table)
        )

    def confirmation(self, table: Table) -> None:
        sheet = table_sheet(table_id=table.pk)
        writer = self.writer(table)
        scoring.table_confirm(
            table=table,
            writer=writer,
            deals_seen=sheet.deals_played,
            confirmer=None if writer.user else self.rng.choice(sheet.players).registration,
        )

    def unlock(self, table: Table) -> None:
        scoring.table_unlock(
            table=table, writer=Writer(user=self.chief), reason="pārbaudām vēlreiz"
        )

    def call(self, table: Table) -> None:
        referee_call(table=table, via_link=True, ip_address=REFEREE_IP)

    def answer(self, table: Table) -> None:
        call = RefereeCall.objects.filter(table=table, answered_at__isnull=True).first()
        if call is not None:
            referee_call_answer(call=call, by=self.chief)


# --- The property -----------------------------------------------------------------------------


class RolledBack(Exception):
    """Leaves a savepoint rolled back: what was written in it is gone."""


@contextmanager
def rolled_back():
    try:
        with transaction.atomic():
            yield
            raise RolledBack
    except RolledBack:
        pass


def people() -> dict[str, User]:
    """The accounts the federation's server knows as the venue's laptop does."""
    return {
        name: User.objects.get_or_create(username=username)[0]
        for name, username in (("organiser", "organizators"), ("chief", "galvenais"))
    }


@settings(
    # A whole event an example: fewer examples than the suite's default, each a long walk.
    max_examples=25,
    # Shrinking finds the shortest walk; explaining it would replay each step for minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_what_the_site_wrote_imports_into_an_empty_database_as_it_was(data):
    with rolled_back():
        season = Season.objects.create(
            name="Sezona",
            starts_on=datetime.date(2026, 1, 1),
            ends_on=datetime.date(2026, 12, 31),
        )
        accounts = people()
        archive: dict[str, Any] = {}
        with rolled_back():
            played = Event(data.draw, accounts)
            played.walk(data.draw(st.integers(5, 150), label="steps"))
            tournament = Tournament.objects.get(pk=played.tournament.pk)
            before = what_the_site_shows(tournament, season)
            archive = json.loads(json.dumps(tournament_archive(tournament)))
        # The ids of this database differ from the laptop's: rows it has already.
        make_player(club=make_club())
        imported = tournament_import(archive, grant_roles=True)
        after = what_the_site_shows(imported, season)
        for part in before:
            assert after[part] == before[part], part
        # What the examples reached (pytest --hypothesis-show-statistics).
        actions = {json.loads(row)["action"] for row in before["audit trail"]}
        for action in sorted(actions):
            event(action)
