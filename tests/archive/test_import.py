"""`manage.py import_tournament`: the archive of `export_tournament` read back with nothing lost,
and a bad archive refused with a clear message and nothing written."""

from __future__ import annotations

import copy
import datetime
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone

from archive.export import tournament_archive
from archive.format import user_relations
from archive.reading import ArchiveError, read_archive
from archive.writing import tournament_import
from demo.simulation import simulate_tournament
from engine import Play, dealer_for
from engine.json_contract import score_json
from engine.rules import Game
from scoring import services
from scoring.late_players import player_out_of_round
from scoring.models import DealResult, LatePlayer, SeatResult, TableResult
from scoring.selectors import tournament_standings
from scoring.services import Writer, round_generate_seating
from signups.models import SignUp
from tests.factories import (
    deals_on_sheet,
    make_organiser,
    make_published_round,
    make_registrations,
    make_tournament,
    make_user,
    seat_keys,
)
from tests.tournament_play import (
    confirm,
    confirm_when_time_was_called,
    hall_plays,
    play_deals,
    publish_next_round,
    with_rules,
)
from tournaments import services as tournament_services
from tournaments.models import (
    AuditRecord,
    CheckIn,
    Club,
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    SeatingMode,
    Table,
    TableToken,
    Tournament,
)
from tournaments.rule_set import round_rule_set, rule_set_options

pytestmark = pytest.mark.django_db

RULE_SETS = {
    "pules": {"all_pass": "pule", "small_zole": False},
    "galdins and mazā zole": {"all_pass": "galdins", "small_zole": True},
}
DEALS = 12


def play_deal(table: Table, position: int, writer: Writer, *, after_dealer: int = 1) -> None:
    """A lielais won at the entry `position` (no penalties before it) by the player sitting
    `after_dealer` seats after the dealer, so never by a dealer sitting out at a 4-table."""
    keys = seat_keys(table)
    dealer = dealer_for(keys, keys[table.first_dealer_position - 1], position - 1)
    declarer = keys[(keys.index(dealer) + after_dealer) % len(keys)]
    services.deal_record(
        table=table,
        entry=Play(Game.LIELAIS, declarer, tricks=6, points=80),
        position=position,
        client_key=f"t{table.pk}-{position}-{after_dealer}",
        writer=writer,
    )


def full_tournament(rule_set: str = "pules") -> Tournament:
    """Everything an archive must keep: two simulated closed rounds (deals entered through the
    table links, a mistyped deal corrected, penalty pules), then by hand a third round in play
    with a correction and a removed entry by an organiser's account, a table confirmed, unlocked
    by the chief referee and confirmed again, a withdrawal, and a fourth round still a draft with
    its own check-ins."""
    tournament = simulate_tournament(
        players=10, rounds=2, deals=DEALS, seed=2, slug="kauss", **RULE_SETS[rule_set]
    )
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=4)
    tournament.refresh_from_db()
    organiser = make_organiser(username="organizators")
    chief = make_user(username="galvenais")
    referee = make_user(username="tiesnesis")
    # Every role the models record (roles by relation, so the test follows the models).
    for relation in user_relations(Tournament):
        getattr(tournament, relation.name).add(
            chief if relation.name == "chief_referees" else organiser
        )
    by_organiser = Writer(user=organiser, ip_address="192.0.2.7")

    round_3 = tournament_services.round_create(tournament=tournament)
    round_generate_seating(round_=round_3, seed=5, by=organiser)
    tournament_services.round_publish(round_=round_3, by=organiser)
    first, second = round_3.tables.order_by("number")[:2]
    token = first.tokens.get()
    for position in range(1, DEALS + 1):
        play_deal(first, position, Writer(token=token))
    keys = seat_keys(first)
    third_dealer = dealer_for(keys, keys[first.first_dealer_position - 1], 2)
    services.deal_correct(
        table=first,
        position=3,
        entry=Play(
            Game.ZOLE, keys[(keys.index(third_dealer) + 1) % len(keys)], tricks=7, points=100
        ),
        base_version=1,
        client_key="fix-3",
        reason="zole, ne lielais",
        writer=by_organiser,
    )
    confirmer = first.seats.get(position=3).registration
    services.table_confirm(
        table=first,
        writer=Writer(token=token),
        confirmer=confirmer,
        deals_seen=deals_on_sheet(first),
    )
    services.table_unlock(table=first, writer=Writer(user=chief), reason="strīds par 5. partiju")
    services.table_confirm(table=first, writer=Writer(user=chief), deals_seen=deals_on_sheet(first))
    for position in (1, 2):
        play_deal(second, position, by_organiser)
    services.deal_correct(
        table=second,
        position=2,
        entry=None,
        base_version=1,
        client_key="remove-2",
        reason="ierakstīts divreiz",
        writer=by_organiser,
    )
    play_deal(second, 2, by_organiser, after_dealer=2)
    for relation in user_relations(Table):
        getattr(second, relation.name).add(referee)

    leaving = round_3.check_ins.order_by("registration_id").first().registration
    tournament_services.registration_withdraw(registration=leaving, after_round=3, by=organiser)
    round_4 = tournament_services.round_create(tournament=tournament)
    assert not round_4.check_ins.filter(registration=leaving).exists()
    return tournament


def export(slug: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    return json.loads(out.getvalue())


def import_file(path: Path, *arguments: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), *arguments, stdout=out, stderr=err)
    return out.getvalue().strip().splitlines()[-1]  # the slug


def write(tmp_path: Path, archive: dict[str, Any] | str, name: str = "archive.json") -> Path:
    path = tmp_path / name
    text = archive if isinstance(archive, str) else json.dumps(archive, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def empty_the_database() -> None:
    """Every tournament row of the database, as on a fresh one: only the user accounts stay (an
    archive names accounts, it does not hold them)."""
    for model in (
        AuditRecord,
        LatePlayer,
        SeatResult,
        TableResult,
        DealResult,
        TableToken,
        Seat,
        CheckIn,
        Table,
        Round,
        Registration,
        Tournament,
        Player,
        Club,
    ):
        model.objects.all().delete()


def comparable(archive: dict[str, Any]) -> dict[str, Any]:
    """The archive with its row ids replaced by places in it (entries and players in id order,
    which the import keeps), so archives of two databases compare field by field."""
    archive = copy.deepcopy(archive)
    entry_label = {entry["id"]: f"entry {n}" for n, entry in enumerate(archive["entries"])}
    player_label = {player["id"]: f"player {n}" for n, player in enumerate(archive["players"])}

    def entry(key: object) -> str:
        return entry_label[int(key)]

    def keyed(scores: dict[str, Any]) -> dict[str, Any]:
        return {entry(key): value for key, value in scores.items()}

    def galdins(value: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if value is None else {part: keyed(value[part]) for part in value}

    mix_plan = archive["tournament"]["mix_plan"]
    if mix_plan:
        mix_plan["players"] = sorted(map(entry, mix_plan["players"]))
        mix_plan["rounds"] = [
            [[entry(key) for key in table] for table in round_] for round_ in mix_plan["rounds"]
        ]
    for club in archive["clubs"]:
        del club["id"]
    # An import logs itself: the one entry an archive of the imported tournament has more.
    archive["audit"] = [row for row in archive["audit"] if row["action"] != "tournament.imported"]
    for player in archive["players"]:
        player["id"] = player_label[player["id"]]
    for item in archive["entries"]:
        item["id"], item["player"] = entry(item["id"]), player_label[item["player"]]
    for signup in archive["signups"]:
        if signup["player"] is not None:
            signup["player"] = player_label[signup["player"]]
        if signup["entry"] is not None:
            signup["entry"] = entry(signup["entry"])
    for round_ in archive["rounds"]:
        for part in ("check_ins", "check_outs"):
            for row in round_[part]:
                row["entry"] = entry(row["entry"])
            round_[part].sort(key=lambda row: row["entry"])
        for table in round_["tables"]:
            for late in table["late_players"]:
                late["entry"] = entry(late["entry"])
            for seat in table["players"]:
                seat["entry"] = entry(seat["entry"])
            for result in table["results"] or []:
                result["entry"] = entry(result["entry"])
            if table["confirmed_by_entry"] is not None:
                table["confirmed_by_entry"] = entry(table["confirmed_by_entry"])
            for version in table["versions"]:
                if version["entry"] is not None:
                    version["entry"] = entry(version["entry"])
                version["galdins"] = galdins(version["galdins"])
    for row in archive["audit"]:
        detail = row["detail"]
        for side in ("before", "after"):
            deal = detail.get(side)
            if row["action"].startswith(("deal.", "penalty.")) and deal:
                if deal.get("player_id") is not None:
                    deal["player_id"] = entry(deal["player_id"])
                if "galdins" in deal:
                    deal["galdins"] = galdins(deal["galdins"])
        if row["action"] == "table.confirmed":
            detail["totals"] = keyed(detail["totals"])
        if row["action"] == "table.unlocked":
            detail["before"] = keyed(detail["before"])
        if row["action"] == "round.self_check_in":
            detail["registration"] = entry(detail["registration"])
    return archive


def as_version(archive: dict[str, Any], version: int) -> dict[str, Any]:
    """The archive as an earlier version wrote it (down to version 3 here: the tests of the
    older ones take away what those lacked too)."""
    old = copy.deepcopy(archive)
    old["version"] = version
    for key in ("fee_categories", "signups"):
        del old[key]
    for item in old["entries"]:
        for key in ("registered_at", "fee_category", "fee_paid_at", "fee_paid_to"):
            del item[key]
    for round_ in old["rounds"]:
        round_["check_ins"] = [row["entry"] for row in round_["check_ins"]]
        del round_["check_outs"]
        for table in round_["tables"]:
            for key in ("deals_allowed_after_time", "late_players", "referee_calls"):
                del table[key]
    return old


def row_counts() -> dict[str, int]:
    models = (
        Tournament,
        Club,
        Player,
        Registration,
        Round,
        Table,
        DealResult,
        AuditRecord,
        TableToken,
    )
    counts = {model.__name__: model.objects.count() for model in models}
    counts["User"] = get_user_model().objects.count()
    return counts


@pytest.fixture(params=list(RULE_SETS))
def tournament(request) -> Tournament:
    return full_tournament(request.param)


class TestRoundTrip:
    def test_into_a_fresh_database_nothing_is_lost(self, tournament, tmp_path):
        before = export(tournament.slug)
        path = write(tmp_path, before)
        standings_before = [
            (row.name, row.rank, row.place_points, row.game_points)
            for row in tournament_standings(tournament=tournament).rows
        ]
        empty_the_database()
        assert Tournament.objects.count() == Player.objects.count() == 0

        assert import_file(path, "--grant-roles") == "kauss"
        after = export("kauss")
        # Not even the timestamps differ: only the database's row ids.
        assert comparable(after) == comparable(before)
        assert after["entries"] != before["entries"]  # new ids, really
        logged = [row for row in after["audit"] if row["action"] == "tournament.imported"]
        assert [row["detail"]["new_table_links"] for row in logged] == [
            Table.objects.filter(round__tournament__slug="kauss")
            .exclude(round__status="draft")
            .count()
        ]
        imported = Tournament.objects.get(slug="kauss")
        assert [
            (row.name, row.rank, row.place_points, row.game_points)
            for row in tournament_standings(tournament=imported).rows
        ] == standings_before

    def test_the_archive_holds_the_history_of_the_deals(self, tournament):
        archive = export(tournament.slug)
        round_3 = archive["rounds"][2]
        first, second = round_3["tables"][:2]
        corrected = [v for v in first["versions"] if v["position"] == 3]
        assert [(v["version"], v["game"], v["reason"]) for v in corrected] == [
            (1, "lielais", ""),
            (2, "zole", "zole, ne lielais"),
        ]
        assert corrected[0]["via"] == "link" and corrected[1]["entered_by"] == "organizators"
        assert first["confirmed_by"] == "galvenais" and first["confirmed_by_entry"] is None
        removed = [(v["version"], v["kind"]) for v in second["versions"] if v["position"] == 2]
        assert removed == [(1, "play"), (2, "void"), (3, "play")]
        assert len(second["sheet"]["deals"]) == 2 and not second["confirmed"]
        assert archive["roles"]["chief_referees"] == ["galvenais"]
        assert all(
            holders == ["organizators"]
            for relation, holders in archive["roles"].items()
            if relation != "chief_referees"
        )
        assert all(holders == ["tiesnesis"] for holders in second["roles"].values())
        assert all(holders == [] for holders in first["roles"].values())
        actions = {row["action"] for row in archive["audit"]}
        assert {"table.unlocked", "deal.removed", "deal.corrected", "entry.withdrawn"} <= actions
        round_4 = archive["rounds"][3]
        assert round_4["status"] == "draft" and len(round_4["check_ins"]) == 9
        simulated = [
            version
            for round_ in archive["rounds"][:2]
            for table in round_["tables"]
            for version in table["versions"]
        ]
        assert any(version["version"] > 1 and version["reason"] for version in simulated)
        if archive["rules"]["all_pass"] == "pule":  # penalty pules are written with pules only
            assert any(version["kind"] == "penalty" for version in simulated)

    def test_with_a_new_slug_beside_the_original(self, tmp_path):
        tournament = full_tournament()
        before = export(tournament.slug)
        counts = row_counts()
        slug = import_file(write(tmp_path, before), "--slug", "kauss-kopija", "--grant-roles")
        assert slug == "kauss-kopija"
        copy_ = Tournament.objects.get(slug=slug)
        # The players are found by their licence numbers, the clubs by name: none is doubled.
        assert Player.objects.count() == counts["Player"]
        assert Club.objects.count() == counts["Club"]
        assert set(copy_.registrations.values_list("player_id", flat=True)) == set(
            tournament.registrations.values_list("player_id", flat=True)
        )
        after = comparable(export(slug))
        expected = comparable(before)
        expected["tournament"]["slug"] = slug
        assert after == expected

    def test_an_imported_round_in_play_goes_on(self, client, tmp_path):
        tournament = full_tournament()
        path = write(tmp_path, export(tournament.slug))
        slug = import_file(path, "--slug", "turpinajums")
        round_3 = Round.objects.get(tournament__slug=slug, number=3)
        table = round_3.tables.get(number=2)
        # A new entry link for every table of a published round; the archive carries none.
        token = table.tokens.get(revoked_at__isnull=True)
        assert not TableToken.objects.filter(
            token__in=TableToken.objects.filter(table__round__tournament=tournament).values(
                "token"
            ),
            table__round=round_3,
        ).exists()
        assert client.get(f"/r/{token.token}/").status_code == 200
        play_deal(table, 3, Writer(token=token))
        assert table.deal_results.filter(position=3).exists()
        # Imported versions have keys of their own: the old devices' keys are not carried.
        assert set(table.deal_results.values_list("client_key", flat=True)) >= {
            "archive-1-1",
            "archive-2-3",
        }

    def test_audit_details_name_the_imported_entries(self, tmp_path):
        tournament = full_tournament()
        slug = import_file(write(tmp_path, export(tournament.slug)), "--slug", "kopija")
        imported = Tournament.objects.get(slug=slug)
        names = {str(entry.pk): entry.player.full_name for entry in imported.registrations.all()}
        confirmed = imported.audit_records.filter(action="table.confirmed")
        assert confirmed.count() == 3 * 2 + 2  # round 3, table 1 is confirmed twice
        for row in confirmed:
            assert set(row.detail["totals"]) <= set(names)
            assert row.table.round.tournament == imported
        unlocked = imported.audit_records.get(action="table.unlocked")
        assert unlocked.user.username == "galvenais"
        assert set(unlocked.detail["before"]) <= set(names)

    def test_a_mixing_plan_continues_with_the_imported_entries(self, tmp_path):
        tournament = make_tournament(
            first_round_seating=SeatingMode.MIX, later_rounds_seating=SeatingMode.MIX
        )
        make_registrations(tournament, 9)
        round_1 = tournament_services.round_create(tournament=tournament)
        round_generate_seating(round_=round_1, seed=3, by=None)
        slug = import_file(write(tmp_path, export(tournament.slug)), "--slug", "mix-kopija")
        imported = Tournament.objects.get(slug=slug)
        entry_ids = sorted(str(pk) for pk in imported.registrations.values_list("pk", flat=True))
        assert imported.mix_plan["players"] == entry_ids
        assert all(
            key in entry_ids
            for round_ in imported.mix_plan["rounds"]
            for table in round_
            for key in table
        )
        # The imported draft round regenerates from the plan it continues, as the original does.
        for copy_ in (tournament, imported):
            round_ = copy_.rounds.get(number=1)
            round_generate_seating(round_=round_, by=None)
            assert round_.tables.count() == 3

    def test_missing_accounts_are_created_inactive_without_a_password(self, tmp_path):
        tournament = full_tournament()
        path = write(tmp_path, export(tournament.slug))
        empty_the_database()
        get_user_model().objects.filter(username__in=["organizators", "galvenais"]).delete()
        err = io.StringIO()
        call_command(
            "import_tournament", str(path), "--grant-roles", stdout=io.StringIO(), stderr=err
        )
        assert "galvenais, organizators" in err.getvalue()
        chief = get_user_model().objects.get(username="galvenais")
        assert not chief.is_active and not chief.has_usable_password()
        assert list(Tournament.objects.get().chief_referees.all()) == [chief]

    def test_roles_are_named_and_not_granted_unless_asked(self, tmp_path):
        tournament = full_tournament()
        path = write(tmp_path, export(tournament.slug))
        empty_the_database()  # the accounts stay: the archive names local accounts
        err = io.StringIO()

        call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=err)

        imported = Tournament.objects.get()
        for relation in user_relations(Tournament):
            assert not getattr(imported, relation.name).exists(), relation.name
        assert not Table.referees.through.objects.exists()
        said = err.getvalue()
        assert "not granted" in said and "--grant-roles" in said
        assert "galvenais: chief referee" in said
        assert "organizators: organiser, table referee" in said
        assert "tiesnesis: table referee at round 3 table 2" in said

    def test_grant_roles_gives_the_archives_roles(self, tmp_path):
        tournament = full_tournament()
        archive = export(tournament.slug)
        path = write(tmp_path, archive)
        empty_the_database()
        err = io.StringIO()

        call_command(
            "import_tournament", str(path), "--grant-roles", stdout=io.StringIO(), stderr=err
        )

        imported = Tournament.objects.get()
        for relation in user_relations(Tournament):
            holders = getattr(imported, relation.name).values_list("username", flat=True)
            assert list(holders) == archive["roles"][relation.name]
        table = imported.rounds.get(number=3).tables.get(number=2)
        assert list(table.referees.values_list("username", flat=True)) == ["tiesnesis"]
        assert "Roles granted" in err.getvalue() and "galvenais: chief referee" in err.getvalue()

    def test_a_version_1_archive_imports_its_sheets_as_first_versions(self, tmp_path):
        tournament = full_tournament()
        archive = export(tournament.slug)
        old = as_version(archive, 1)
        for key in ("roles", "audit"):
            del old[key]
        for round_ in old["rounds"]:
            for key in ("warnings", "generated_at", "published_at", "check_ins"):
                del round_[key]
            for table in round_["tables"]:
                for key in ("flags", "roles", "versions", "confirmed_by", "confirmed_by_entry"):
                    del table[key]
        slug = import_file(write(tmp_path, old), "--slug", "veca")
        again = export(slug)
        for round_, original in zip(again["rounds"], archive["rounds"], strict=True):
            for table, table_before in zip(round_["tables"], original["tables"], strict=True):
                assert table["sheet"] == table_before["sheet"]
                assert table["totals"] == table_before["totals"]
                assert {version["version"] for version in table["versions"]} <= {1}


class TestTheEventDay:
    def test_a_player_put_out_after_his_removed_deal_comes_back_out_of_the_round(self, tmp_path):
        """Deal 1 declared by X, removed, then X put out of the round: the removed version
        names a player who has no seat now. The archive keeps him as out of the round, so that
        version still belongs to the table."""
        round_ = make_published_round(players=7)  # a table of 4 and one of 3
        table = with_rules(round_.tables.get(number=1), late_wait_minutes=5, late_out_deal=1)
        assert table.seats.count() == 4
        hall_plays(table, 1)
        keys = seat_keys(table)
        x = keys[table.first_dealer_position % 4]  # to the first dealer's left: he plays deal 1
        referee = Writer(ip_address="192.0.2.8")
        services.deal_record(
            table=table,
            entry=Play(Game.LIELAIS, x, tricks=5, points=75),
            position=1,
            client_key="x-1",
            writer=referee,
        )
        services.deal_correct(
            table=table,
            position=1,
            entry=None,
            base_version=1,
            client_key="x-1-gone",
            reason="X was not there",
            writer=referee,
        )
        player_out_of_round(table=table, player_key=x, writer=referee)
        archive = export(table.round.tournament.slug)
        [late] = archive["rounds"][0]["tables"][0]["late_players"]
        assert (late["entry"], late["arrived_at"]) == (int(x), None)

        slug = import_file(write(tmp_path, archive), "--slug", "pec-izslegsanas")

        imported = Table.objects.get(round__tournament__slug=slug, number=1)
        [out] = LatePlayer.objects.filter(table=imported)
        name = Registration.objects.get(pk=int(x)).player.full_name
        assert out.is_out and out.registration.player.full_name == name
        assert imported.seats.count() == 3
        versions = DealResult.objects.filter(table=imported).order_by("version")
        assert [(v.kind, v.player_id) for v in versions] == [
            ("play", out.registration_id),
            ("void", None),
        ]
        assert comparable(export(slug))["rounds"] == comparable(archive)["rounds"]


RULES_BEFORE = {
    "all_pass": "pule",
    "small_zole": False,
    "personal_pule_payment": "N-1",
    "deals_per_round": 6,
    "place_points_three": "6,4,2",
}
# Everything the next round changes (the federation's options are carried even where the
# engine on this branch does not score them yet).
RULES_AFTER = {
    "all_pass": "galdins",
    "galdins_scoring": "rondo",
    "small_zole": True,
    "small_zole_loss": 6,
    "personal_pule_payment": "N",
    "four_table_pass_pules": 2,
    "deals_per_round": 9,
    "place_points_three": "3,2,1",
    "place_points_four": "3,2,1,1",
}


def two_rule_sets() -> Tournament:
    """Round 1 played and closed with one rule set; the options changed between the rounds;
    round 2 played with the other, on a timed clock whose time was called at one table."""
    tournament = make_tournament(slug="divi", language="en", rounds_planned=2, **RULES_BEFORE)
    make_registrations(tournament, 10)
    round_1 = publish_next_round(tournament)
    for table in round_1.tables.all():
        play_deals(table, 6, seed=table.number)
        confirm(table)
    services.round_close(round_=round_1, writer=Writer())
    tournament_services.tournament_settings_save(tournament=tournament, values=RULES_AFTER, by=None)
    round_2 = publish_next_round(Tournament.objects.get(pk=tournament.pk), seed=2)
    Round.objects.filter(pk=round_2.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=40), time_limit=50
    )
    short, *others = round_2.tables.order_by("number")
    play_deals(short, 4, seed=9)
    for table in others:
        play_deals(table, 9, seed=table.number + 10)
    # Time is called once the deals are in: after it a table enters only the deal under way.
    Round.objects.filter(pk=round_2.pk).update(time_called_at=timezone.now())
    confirm_when_time_was_called(short)
    for table in others:
        confirm(table)
    return Tournament.objects.get(pk=tournament.pk)


class TestRulesOfEachRound:
    def test_each_round_keeps_its_own_rules_and_every_sheet_rescores(self, tmp_path):
        tournament = two_rule_sets()
        stored = {round_.number: round_.rule_set for round_ in tournament.rounds.all()}
        assert stored[1] != stored[2]
        before = export(tournament.slug)
        standings_before = [
            (row.name, row.rank, row.place_points, row.game_points)
            for row in tournament_standings(tournament=tournament).rows
        ]

        for round_ in before["rounds"]:
            assert round_["rule_set"] == stored[round_["number"]]
            options = round_["rule_set"]
            for table in round_["tables"]:
                rules = table["sheet"]["rules"]
                assert {"all_pass", "small_zole", "personal_pule_payment"} <= set(rules)
                assert rules == {name: options[name] for name in rules}
                rescored = score_json(table["sheet"])
                assert rescored["totals"] == table["totals"]
        round_2 = before["rounds"][1]
        assert round_2["time_limit"] == 50 and round_2["time_called_at"]
        assert [table["time_called"] for table in round_2["tables"]] == [True, False, False]
        assert len(round_2["tables"][0]["sheet"]["deals"]) == 4
        empty_the_database()

        assert import_file(write(tmp_path, before)) == "divi"
        imported = Tournament.objects.get(slug="divi")
        assert {round_.number: round_.rule_set for round_ in imported.rounds.all()} == stored
        assert comparable(export("divi")) == comparable(before)
        assert [
            (row.name, row.rank, row.place_points, row.game_points)
            for row in tournament_standings(tournament=imported).rows
        ] == standings_before
        short = TableResult.objects.get(table__round__tournament=imported, time_called=True)
        assert (short.table.round.number, short.table.number) == (2, 1)
        round_2 = imported.rounds.get(number=2)
        assert round_2.time_limit == 50 and round_2.clock_started_at and round_2.time_called_at

    def test_an_archive_of_the_previous_version_imports_with_the_tournaments_options(
        self, tmp_path
    ):
        tournament = full_tournament()
        archive = export(tournament.slug)
        old = as_version(archive, 2)
        for name in (
            "table_size",
            "round_time_limit",
            "galdins_scoring",
            "small_zole_loss",
            "four_table_pass_pules",
        ):
            del old["tournament"][name]
        for round_ in old["rounds"]:
            for key in ("rule_set", "clock_started_at", "time_limit", "time_called_at"):
                del round_[key]
            for table in round_["tables"]:
                del table["time_called"]

        slug = import_file(write(tmp_path, old), "--slug", "vecaks")

        imported = Tournament.objects.get(slug=slug)
        for round_ in imported.rounds.order_by("number"):
            expected = {} if round_.status == RoundStatus.DRAFT else rule_set_options(imported)
            assert round_.rule_set == expected, round_.number
        again = export(slug)
        for round_, original in zip(again["rounds"], archive["rounds"], strict=True):
            for table, table_before in zip(round_["tables"], original["tables"], strict=True):
                assert table["sheet"] == table_before["sheet"]
                assert table["totals"] == table_before["totals"]
                assert table["time_called"] is False

    def test_a_round_in_play_goes_on_with_its_own_rules(self, tmp_path):
        tournament = full_tournament()
        round_3 = tournament.rounds.get(number=3)
        assert round_3.status == RoundStatus.IN_PLAY
        # The options differ from round 3's (a change for round 5, say, made in the database).
        Tournament.objects.filter(pk=tournament.pk).update(deals_per_round=DEALS + 3)
        archive = export(tournament.slug)
        assert archive["rounds"][2]["rule_set"]["deals_per_round"] == DEALS

        slug = import_file(write(tmp_path, archive), "--slug", "spele")

        imported = Round.objects.get(tournament__slug=slug, number=3)
        assert imported.rule_set == round_3.rule_set
        assert round_rule_set(imported).deals_per_round == DEALS
        # Its table in play is completed with the round's deals, not the tournament's count.
        table = imported.tables.get(number=2)
        token = table.tokens.get(revoked_at__isnull=True)
        for position in range(3, DEALS + 1):
            play_deal(table, position, Writer(token=token))
        services.table_confirm(
            table=table,
            writer=Writer(token=token),
            confirmer=table.seats.first().registration,
            deals_seen=deals_on_sheet(table),
        )
        assert TableResult.objects.filter(table=table).exists()


class TestBadArchives:
    @pytest.fixture
    def archive(self) -> dict[str, Any]:
        tournament = simulate_tournament(players=6, rounds=1, deals=DEALS, seed=4, slug="mazs")
        return export(tournament.slug)

    def refused(self, path: Path, message: str, *arguments: str) -> str:
        counts = row_counts()
        with pytest.raises(CommandError, match=message) as error:
            import_file(path, *arguments)
        assert row_counts() == counts  # nothing written
        return str(error.value)

    def test_wrong_format(self, archive, tmp_path):
        archive["format"] = "kaut-kas cits"
        self.refused(write(tmp_path, archive), "not a tournament archive: format must be")

    def test_a_version_from_the_future(self, archive, tmp_path):
        archive["version"] = 99
        self.refused(write(tmp_path, archive), "archive version 99 cannot be read here")

    def test_a_sheet_whose_totals_disagree(self, archive, tmp_path):
        table = archive["rounds"][0]["tables"][1]
        name = table["sheet"]["players"][0]
        table["totals"][name] += 2
        message = self.refused(
            write(tmp_path, archive), "round 1, table 2: the sheet re-scores to", "--slug", "cits"
        )
        assert "archive's totals" in message

    def test_a_deal_the_engine_refuses(self, archive, tmp_path):
        deal = next(d for d in archive["rounds"][0]["tables"][0]["sheet"]["deals"] if "tricks" in d)
        deal["tricks"] = 9
        self.refused(
            write(tmp_path, archive),
            "round 1, table 1: the sheet does not score: deal",
            "--slug",
            "x",
        )

    def test_versions_that_are_not_the_sheet(self, archive, tmp_path):
        table = archive["rounds"][0]["tables"][0]
        newest = table["versions"][-1]
        newest["points"] = 120 if newest.get("points") != 120 else 0
        self.refused(
            write(tmp_path, archive), "newest deal versions are not the sheet", "--slug", "y"
        )

    @pytest.mark.parametrize("kept", [0.25, 0.5, 0.75, 0.999])
    def test_a_truncated_file(self, archive, tmp_path, kept):
        text = json.dumps(archive, ensure_ascii=False, indent=2)
        for cut in range(int(len(text) * kept), int(len(text) * kept) + 30):  # any character
            path = write(tmp_path, text[:cut])
            self.refused(path, "not valid JSON: .* the file ends too early")

    def test_an_existing_slug(self, archive, tmp_path):
        message = self.refused(write(tmp_path, archive), 'slug "mazs" already exists')
        assert "--slug" in message

    @pytest.mark.parametrize(
        "content, message",
        [
            (b"", "the file is empty"),
            (b"\xff\xfe\x00\x01", "not UTF-8 text"),
            (b"[1, 2]", "not a JSON object"),
            (b"[" * 100_000, "nested too deeply"),
            (b'{"format": 1' + b"0" * 5000 + b"}", "not an archive"),
        ],
    )
    def test_a_file_that_is_no_archive(self, tmp_path, content, message):
        path = tmp_path / "archive.json"
        path.write_bytes(content)
        self.refused(path, message)

    def test_a_missing_file(self, tmp_path):
        self.refused(tmp_path / "nav.json", "cannot read .*nav.json")

    @pytest.mark.parametrize(
        "change, message",
        [
            (
                lambda a: a["tournament"].update(galdins_scoring="cits"),
                "tournament: galdins_scoring: Value 'cits' is not a valid choice",
            ),
            (lambda a: a["tournament"].update(table_size=5), "tournament: table_size"),
            (lambda a: a["tournament"].update(small_zole_loss=8), "tournament: small_zole_loss"),
            (
                lambda a: a["tournament"].update(four_table_pass_pules=3),
                "tournament: four_table_pass_pules",
            ),
            (lambda a: a["tournament"].update(all_pass="visi"), "tournament: all_pass"),
            (
                lambda a: a["tournament"].update(deals_per_round=61),
                "tournament: deals_per_round must be 1-60, got 61",
            ),
            (
                lambda a: a["tournament"].update(round_time_limit=0),
                "tournament: round_time_limit must be 1-600 minutes, got 0",
            ),
            (
                lambda a: a["tournament"].update(round_time_limit="50"),
                "tournament: round_time_limit must be a whole number",
            ),
            (
                lambda a: a["rounds"][0]["rule_set"].update(galdins_scoring="cits"),
                "round 1: rule_set: galdins_scoring: Value 'cits' is not a valid choice",
            ),
            (
                lambda a: a["rounds"][0]["rule_set"].update(krāsa="zaļa"),
                'round 1: rule_set: unknown option "krāsa"',
            ),
            (
                lambda a: a["rounds"][0]["rule_set"].update(deals_per_round=0),
                "round 1: rule_set: deals_per_round must be 1-60, got 0",
            ),
            (
                lambda a: a["tournament"].update(deals_at_three=61),
                "tournament: deals_at_three must be 1-60, got 61",
            ),
            (
                lambda a: a["rounds"][0]["rule_set"].update(deals_at_four=0),
                "round 1: rule_set: deals_at_four must be 1-60, got 0",
            ),
            (
                lambda a: a["rounds"][0]["rule_set"].update(place_points_three="6;4"),
                "round 1: rule_set: place points for a table of 3",
            ),
            (lambda a: a["rounds"][0].update(rule_set=[]), "round 1: rule_set must be a JSON"),
            (lambda a: a["rounds"][0].pop("rule_set"), "round 1: rule_set is missing"),
            (lambda a: a["rounds"][0].update(time_limit=601), "round 1: time_limit must be"),
            (
                lambda a: a["rounds"][0]["tables"][0].update(time_called="jā"),
                "round 1, table 1: time_called must be true or false",
            ),
        ],
    )
    def test_an_unknown_option_is_refused_by_name(self, archive, tmp_path, change, message):
        change(archive)
        self.refused(write(tmp_path, archive), message, "--slug", "opcijas")

    @pytest.mark.parametrize(
        "option, value, message",
        [
            ("all_pass", "galdins", "the sheet's rules are not the rules round 1 is played with"),
            ("small_zole", True, "the sheet's rules are not the rules round 1 is played with"),
            ("deals_per_round", DEALS - 1, f"{DEALS} deals, more than the {DEALS - 1} of round 1"),
            (
                "deals_per_round",
                DEALS + 1,
                f"confirmed with {DEALS} of {DEALS + 1} deals and time not called",
            ),
            ("place_points_three", "3,2,1", "the results are not the engine's results"),
        ],
    )
    def test_a_tampered_rule_set_fails_at_the_table_it_breaks(
        self, archive, tmp_path, option, value, message
    ):
        archive["rounds"][0]["rule_set"][option] = value
        self.refused(write(tmp_path, archive), f"round 1, table 1: .*{message}", "--slug", "cits")

    def test_time_called_lets_a_table_be_confirmed_short_and_only_then(self, archive, tmp_path):
        archive["rounds"][0]["rule_set"]["deals_per_round"] = DEALS + 1
        archive["rounds"][0].update(
            clock_started_at="2026-12-05T10:00:00+00:00",
            time_limit=50,
            time_called_at="2026-12-05T10:40:00+00:00",
        )
        table = archive["rounds"][0]["tables"][0]
        table["time_called"] = True
        other = archive["rounds"][0]["tables"][1]
        other["time_called"] = True

        slug = import_file(write(tmp_path, archive), "--slug", "isa")

        assert set(
            TableResult.objects.filter(table__round__tournament__slug=slug).values_list(
                "time_called", flat=True
            )
        ) == {True}

    @pytest.mark.parametrize(
        "change, message",
        [
            (lambda a: a["tournament"].update(deals_per_round="daudz"), "must be a whole number"),
            (lambda a: a["tournament"].update(level="pasaules"), "tournament: level"),
            (lambda a: a["tournament"].update(color="zaļa"), 'unknown setting "color"'),
            (lambda a: a["tournament"].pop("starts_on"), "starts_on is missing"),
            (lambda a: a["players"][0].update(name="x" * 121), "longer than 120"),
            (
                lambda a: a["players"][0].update(name="Jānis\x00"),
                r"players\[0\].name: the text contains a NUL character",
            ),
            (lambda a: a["players"][1].update(licence=a["players"][0]["licence"]), "two players"),
            (lambda a: a["entries"][0].update(player=[1]), "is not among the players"),
            (lambda a: a["entries"][0].update(first_round=10**30), "must be 0-32767"),
            (lambda a: a["rounds"][0].update(status="finished"), "round 1: status"),
            (lambda a: a["rounds"][0]["tables"][0].update(players=[]), "players"),
            (lambda a: a["rounds"][0]["tables"][0]["players"][0].update(entry=10**30), "not an"),
            (
                lambda a: a["rounds"][0].update(
                    check_ins=[{"entry": {"id": 1}, "method": "link", "at": None}]
                ),
                "is not an entry",
            ),
            (lambda a: a["audit"][0].update(table={"round": 7, "table": 1}), "no table 1"),
            (lambda a: a["audit"][0].update(user="<script>"), "not a username"),
            (lambda a: a.update(rounds={"1": {}}), "rounds must be a list"),
            (lambda a: a.pop("audit"), "audit is missing"),
            (
                lambda a: a["tournament"].update(starts_on="2026-02-30"),
                r'tournament: starts_on must be a date \(YYYY-MM-DD\), got "2026-02-30"',
            ),
            (
                lambda a: a["audit"][0].update(at="2026-02-30T10:00:00+00:00"),
                "audit record 1: at must be a date and time",
            ),
            (
                lambda a: a["audit"][0].update(at="0001-01-01T00:00:00+05:00"),
                "audit record 1: at must be a date and time from year 1 to 9999 in UTC",
            ),
            (
                lambda a: a["audit"][0].update(at="0001-01-01T00:00:00"),
                "audit record 1: at must be a date and time with its UTC offset",
            ),
            (
                lambda a: a["rounds"][0]["tables"][0]["versions"][0].update(
                    entered_at="9999-12-31T23:59:59-01:00"
                ),
                "at must be a date and time from year 1 to 9999 in UTC",
            ),
            (
                lambda a: a["rounds"][0].update(status="published"),
                "round 1, table 1: round 1 is published, but has deals",
            ),
        ],
    )
    def test_a_broken_part_is_named(self, archive, tmp_path, change, message):
        change(archive)
        self.refused(write(tmp_path, archive), message, "--slug", "salauzts")

    def test_the_service_checks_before_it_writes(self, archive):
        archive["rounds"][0]["tables"][-1]["results"][0]["place"] = 4
        counts = row_counts()
        with pytest.raises(ArchiveError, match="not the engine's results"):
            tournament_import(archive, slug="jauns")
        assert row_counts() == counts

    def test_read_archive_reads_a_byte_order_mark(self, archive):
        raw = "\ufeff".encode() + json.dumps(archive).encode()
        assert read_archive(raw)["format"] == "zole-tournament-archive"


def test_an_imported_archive_exports_like_the_service_archive(tmp_path):
    """The command and the service write the same: the service's archive is the reference."""
    tournament = simulate_tournament(players=7, rounds=1, deals=DEALS, seed=9, slug="sep")
    archive = tournament_archive(tournament)
    imported = tournament_import(json.loads(json.dumps(archive)), slug="sep-2")
    expected = comparable(archive)
    expected["tournament"]["slug"] = "sep-2"
    assert comparable(tournament_archive(imported)) == expected


def test_the_prize_split_settings_go_through_the_archive_exactly():
    """The costs share is a decimal: written as its exact text, read back the same."""
    tournament = simulate_tournament(players=7, rounds=1, deals=DEALS, seed=9, slug="balvas")
    Tournament.objects.filter(pk=tournament.pk).update(
        prize_costs_percent=Decimal("12.50"), prize_shares="50 30 20"
    )
    tournament.refresh_from_db()
    archive = json.loads(json.dumps(tournament_archive(tournament)))
    assert archive["tournament"]["prize_costs_percent"] == "12.50"

    imported = tournament_import(archive, slug="balvas-2")

    assert imported.prize_costs_percent == Decimal("12.50")
    assert imported.prize_shares == "50 30 20"


@pytest.mark.parametrize("value", ["abc", "NaN", 12.5, "150"])
def test_a_costs_share_that_is_no_percentage_is_refused(value):
    tournament = simulate_tournament(players=7, rounds=1, deals=DEALS, seed=9, slug="balvas")
    archive = json.loads(json.dumps(tournament_archive(tournament)))
    archive["tournament"]["prize_costs_percent"] = value

    with pytest.raises(ArchiveError, match="prize_costs_percent"):
        tournament_import(archive, slug="balvas-3")


def test_the_registration_online_settings_come_back(tmp_path):
    """The moment registration online closes and its places are settings like any other."""
    tournament = make_tournament(
        slug="tiessaistes-kauss",
        signup_until=datetime.datetime(2026, 12, 1, 18, 0, tzinfo=datetime.UTC),
        signup_places=24,
        signup_late_until_round=3,
    )
    archive = export(tournament.slug)
    assert archive["tournament"]["signup_until"] == "2026-12-01T18:00:00+00:00"
    slug = import_file(write(tmp_path, archive), "--slug", "tiessaistes-kopija")
    copy_ = Tournament.objects.get(slug=slug)
    assert (copy_.signup_until, copy_.signup_places) == (tournament.signup_until, 24)
    assert copy_.signup_late_until_round == 3


@pytest.mark.parametrize("value", ["tomorrow", "2026-13-45T99:00", 5, True])
def test_a_bad_registration_closing_moment_is_refused(tmp_path, value):
    tournament = make_tournament(slug="tiessaistes-kauss")
    archive = export(tournament.slug)
    archive["tournament"]["signup_until"] = value
    with pytest.raises(CommandError, match="signup_until"):
        import_file(write(tmp_path, archive), "--slug", "tiessaistes-kopija")
    assert not Tournament.objects.filter(slug="tiessaistes-kopija").exists()


class TestNames:
    """A name, club or team of the archive is taken as every door takes it: cleaned, and
    refused when a word mixes alphabets."""

    @pytest.fixture
    def archive(self) -> dict[str, Any]:
        tournament = simulate_tournament(players=6, rounds=1, deals=DEALS, seed=4, slug="mazs")
        return export(tournament.slug)

    def test_hidden_letters_and_odd_spaces_are_cleaned(self, archive, tmp_path):
        club = archive["clubs"][0]
        club["name"] = club["name"].replace(" ", "\u200b\u00a0")
        player, entry = archive["players"][0], archive["entries"][0]
        player.update(name="Zw\u200bsp \u202eevil", licence="")
        entry.update(name="Zwsp\u2003evil", team="Ogres\u2060 komanda")
        clubs = Club.objects.count()

        import_file(write(tmp_path, archive), "--slug", "cits")

        entry = Registration.objects.get(tournament__slug="cits", player__full_name="Zwsp evil")
        assert entry.team == "Ogres komanda"
        assert Club.objects.count() == clubs  # the club's name, cleaned, is the register's

    def test_a_word_of_two_alphabets_is_refused_naming_its_place(self, archive, tmp_path):
        archive["players"][1]["name"] = "Vаldis Liepa"  # a Cyrillic а
        counts = row_counts()
        with pytest.raises(CommandError, match="player 2: name: the word “Vаldis” mixes Latin"):
            import_file(write(tmp_path, archive), "--slug", "cits")
        assert row_counts() == counts


def test_a_sign_ups_language_comes_back_and_an_older_archive_takes_the_sites(tmp_path, settings):
    """What a player who signed up is told by mail is written in his language: it is kept."""
    tournament = make_tournament(slug="tiessaistes-kauss")
    SignUp.objects.create(
        tournament=tournament, full_name="Anna Ozoliņa", language="ru", queued_at=timezone.now()
    )
    archive = export(tournament.slug)
    assert archive["signups"][0]["language"] == "ru"
    slug = import_file(write(tmp_path, archive), "--slug", "kopija")
    assert SignUp.objects.get(tournament__slug=slug).language == "ru"
    del archive["signups"][0]["language"]  # as archives were written before
    slug = import_file(write(tmp_path, archive), "--slug", "vecaka-kopija")
    assert SignUp.objects.get(tournament__slug=slug).language == settings.LANGUAGE_CODE
    archive["signups"][0]["language"] = "klingon"
    with pytest.raises(CommandError, match=r"online registration 1: unknown language \"klingon\""):
        import_file(write(tmp_path, archive), "--slug", "salauzts")
    assert not Tournament.objects.filter(slug="salauzts").exists()
