"""The checks of one table of an archived round: its seats, every version of its deals re-scored
by the engine, and its confirmation. A part of `Checker` (archive.checking), through the round
checks (archive.round_checks); the checker holds the entries, the archive's version and the roles
these checks read."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.db import models

from archive.format import (
    OPEN_STATUSES,
)
from archive.plan import (
    PlannedCall,
    PlannedConfirmation,
    PlannedLatePlayer,
    PlannedRound,
    PlannedTable,
)
from archive.reading import (
    SMALL,
    ArchiveError,
    as_list,
    as_object,
    is_id,
    moment_field,
    renamed_entry,
    required,
    shown,
    text_field,
    username_field,
    whole_field,
)
from engine import SheetError, score_sheet
from engine.deals import SheetLine
from engine.json_contract import rules_to_json, sheet_from_json
from engine.rules import TOTAL_POINTS, TRICKS_PER_DEAL, Game
from engine.sheet import ScoredSheet
from engine.standings import round_results
from engine.statistics import seat_tallies
from scoring.models import DealResult, EntryKind
from scoring.sheet.lines import (
    current_results,
    result_fields,
    sheet_line,
)
from tournaments.models import Registration, RoundStatus, Table


class TableChecks:
    """The table checks of `Checker`; it provides `registrations`, `version`, `_added_in`
    and `_roles`."""

    registrations: dict[int, Registration]
    version: int

    if TYPE_CHECKING:  # Checker's, declared for the type checker

        def _added_in(
            self,
            version: int,
            key: str,
            default: object,
            data: Mapping[str, Any] | None = None,
            where: str = "the archive",
        ) -> Any: ...

        @staticmethod
        def _roles(
            value: object, model: type[models.Model], where: str
        ) -> dict[str, list[str]]: ...

    def _table(self, data: dict[str, Any], round_: PlannedRound, index: int) -> PlannedTable:
        number = whole_field(
            data, "number", f"round {round_.number}, table {index}", low=1, high=SMALL
        )
        where = f"round {round_.number}, table {number}"
        names: dict[str, int] = {}  # the sheet's name: the archive's entry id
        for seat_index, item in enumerate(
            as_list(required(data, "players", where), f"{where}: players")
        ):
            seat = as_object(item, f"{where}: player {seat_index + 1}")
            registration_id = required(seat, "entry", where)
            if not is_id(registration_id) or registration_id not in self.registrations:
                raise ArchiveError(f"{where}: {shown(registration_id)} is not an entry")
            name = text_field(seat, "name", where, max_length=200)
            if name in names or registration_id in names.values():
                raise ArchiveError(f"{where}: {shown(name)} is seated twice")
            names[name] = registration_id
        try:
            sheet = sheet_from_json(required(data, "sheet", where))
            scored = score_sheet(sheet)
        except SheetError as error:
            raise ArchiveError(f"{where}: the sheet does not score: {error}") from None
        if list(sheet.players) != list(names):
            raise ArchiveError(f"{where}: the sheet's players are not the table's players")
        first_dealer = sheet.first_dealer or sheet.players[0]
        if required(data, "first_dealer", where) != first_dealer:
            raise ArchiveError(f"{where}: first_dealer is not the sheet's first dealer")
        # Compared as the contract writes rules: what the sheet is scored with.
        if rules_to_json(sheet.rules) != rules_to_json(round_.rule_set.rules):
            raise ArchiveError(
                f"{where}: the sheet's rules are not the rules round {round_.number} is played with"
            )
        confirmed = required(data, "confirmed", where)
        if not isinstance(confirmed, bool) or sheet.closed != confirmed:
            raise ArchiveError(f"{where}: a confirmed table's sheet is closed, an open one's not")
        time_called = self._added_in(3, "time_called", False, data, where)
        if not isinstance(time_called, bool):
            raise ArchiveError(f"{where}: time_called must be true or false")
        if time_called and not confirmed:
            raise ArchiveError(f"{where}: only a confirmed table has time_called")
        if time_called and round_.clock_started_at is None:
            raise ArchiveError(f"{where}: time_called, but the round had no clock")

        def key(name: str) -> str:
            return str(names[name])

        entries = [renamed_entry(entry, key) for entry in sheet.entries]
        deals_per_round = round_.rule_set.deals_at(len(names))
        if scored.deals_played > deals_per_round:
            raise ArchiveError(
                f"{where}: {scored.deals_played} deals, more than the {deals_per_round} of "
                f"round {round_.number}"
            )
        if entries and round_.status not in (*OPEN_STATUSES, RoundStatus.CLOSED):
            raise ArchiveError(f"{where}: round {round_.number} is a draft, but has deals")
        if round_.status == RoundStatus.CLOSED and not confirmed:
            raise ArchiveError(f"{where}: round {round_.number} is closed, the table not confirmed")
        table = PlannedTable(
            number=number,
            first_dealer_position=sheet.players.index(first_dealer) + 1,
            flags=as_list(self._added_in(2, "flags", [], data, where), f"{where}: flags"),
            roles=self._roles(
                self._added_in(2, "roles", {}, data, where), Table, f"{where}: roles"
            ),
            seats=list(names.values()),
            versions=[],
            entered_by=[],
            via_link=[],
            entered_at=[],
            confirmation=None,
            time_called=time_called,
            deals_allowed_after_time=whole_field(
                data, "deals_allowed_after_time", where, low=0, high=SMALL
            )
            if self.version >= 4
            else 0,
        )
        if self.version >= 4:
            table.late_players = self._late_players(data, table, where)
            table.referee_calls = self._referee_calls(data, where)
        self._versions(data, table, entries, where)
        self._check_late_pules(table, where)
        # The first entry puts a published round in play: a published round has no deal
        # versions (regenerating its seating deletes its tables, which deals would keep).
        if table.versions and round_.status == RoundStatus.PUBLISHED:
            raise ArchiveError(
                f"{where}: round {round_.number} is published, but has deals (the first entry "
                "puts a round in play)"
            )
        if confirmed:
            table.confirmation = self._confirmation(data, table, scored, key, round_, where)
            # Time called: the deals played, at least one; otherwise every deal of the round.
            if scored.deals_played != deals_per_round and not (
                time_called and scored.deals_played >= 1
            ):
                raise ArchiveError(
                    f"{where}: confirmed with {scored.deals_played} of {deals_per_round} deals"
                    + ("" if time_called else " and time not called")
                )
        elif (
            required(data, "totals", where) is not None
            or required(data, "results", where) is not None
        ):
            raise ArchiveError(f"{where}: an unconfirmed table has totals")
        return table

    def _versions(
        self, data: dict[str, Any], table: PlannedTable, entries: list[SheetLine], where: str
    ) -> None:
        """Every stored version of the sheet's entries; the newest of each must be the sheet. An
        older version may name a player out of the round (a deal of his removed before he was
        put out): he sat at the table then."""
        seated = {str(registration_id) for registration_id in table.seats}
        seated.update(str(late.entry) for late in table.late_players if late.arrived_at is None)
        if self.version == 1:  # only the sheet: each entry as its first version
            for position, entry in enumerate(entries, 1):
                table.versions.append(
                    DealResult(position=position, version=1, **result_fields(entry))
                )
                table.entered_by.append(None)
                table.via_link.append(False)
                table.entered_at.append(None)
            return
        items = as_list(required(data, "versions", where), f"{where}: versions")
        last_version: dict[int, int] = {}
        for item in items:
            version = self._version(as_object(item, f"{where}: a version"), seated, where)
            if version.version != last_version.get(version.position, 0) + 1:
                raise ArchiveError(
                    f"{where}: entry {version.position} version {version.version} is out of order"
                )
            last_version[version.position] = version.version
            table.versions.append(version)
            table.entered_by.append(username_field(item.get("entered_by"), where))
            via = item.get("via")
            if via not in ("link", "account"):
                raise ArchiveError(f'{where}: via must be "link" or "account", got {shown(via)}')
            table.via_link.append(via == "link")
            table.entered_at.append(moment_field(item, "entered_at", where))
        current = [sheet_line(result) for result in current_results(table.versions)]
        if current != entries:
            raise ArchiveError(f"{where}: the newest deal versions are not the sheet")

    def _late_players(
        self, data: dict[str, Any], table: PlannedTable, where: str
    ) -> list[PlannedLatePlayer]:
        """The table's late arrivals (seated players) and players out of the round (whose
        seats are gone: the table plays on as a table of 3)."""
        late_players: list[PlannedLatePlayer] = []
        for item in as_list(required(data, "late_players", where), f"{where}: late_players"):
            row = as_object(item, f"{where}: a late player")
            entry = required(row, "entry", where)
            if not is_id(entry) or entry not in self.registrations:
                raise ArchiveError(f"{where}: late player {shown(entry)} is not an entry")
            late = PlannedLatePlayer(
                entry=entry,
                seat=whole_field(row, "seat", where, low=1, high=4),
                arrived_at=moment_field(row, "arrived_at", where),
                minutes_late=whole_field(row, "minutes_late", where, low=0, high=SMALL, null=True),
                penalty_position=whole_field(
                    row, "penalty_position", where, low=1, high=SMALL, null=True
                ),
                recorded_by=username_field(required(row, "recorded_by", where), where),
                recorded_at=moment_field(row, "recorded_at", where),
            )
            if entry in {other.entry for other in late_players}:
                raise ArchiveError(f"{where}: late player {entry} is listed twice")
            is_out = late.arrived_at is None
            if is_out == (entry in table.seats):
                raise ArchiveError(
                    f"{where}: late player {entry}: "
                    + ("out of the round, but seated" if is_out else "came late, but is not seated")
                )
            if is_out and (late.minutes_late is not None or late.penalty_position is not None):
                raise ArchiveError(f"{where}: late player {entry} is out: he has no lateness")
            late_players.append(late)
        if len(table.seats) + sum(late.arrived_at is None for late in late_players) > 4:
            raise ArchiveError(f"{where}: more than 4 players sat at the table")
        return late_players

    @staticmethod
    def _check_late_pules(table: PlannedTable, where: str) -> None:
        """A late arrival's pule is a penalty entry of his on the sheet's versions."""
        penalties = {
            (version.position, version.player_id)
            for version in table.versions
            if version.kind == EntryKind.PENALTY
        }
        for late in table.late_players:
            if late.penalty_position is not None and (
                (late.penalty_position, late.entry) not in penalties
            ):
                raise ArchiveError(
                    f"{where}: late player {late.entry}'s pule is no penalty entry of his"
                )

    @staticmethod
    def _referee_calls(data: dict[str, Any], where: str) -> list[PlannedCall]:
        calls: list[PlannedCall] = []
        for item in as_list(required(data, "referee_calls", where), f"{where}: referee_calls"):
            row = as_object(item, f"{where}: a referee call")
            called_at = moment_field(row, "called_at", where)
            if called_at is None:
                raise ArchiveError(f"{where}: a referee call has no called_at")
            call = PlannedCall(
                called_at=called_at,
                reminded_at=moment_field(row, "reminded_at", where),
                answered_at=moment_field(row, "answered_at", where),
                answered_by=username_field(required(row, "answered_by", where), where),
            )
            if call.answered_by is not None and call.answered_at is None:
                raise ArchiveError(f"{where}: a call answered by someone has its answer's moment")
            calls.append(call)
        if sum(call.answered_at is None for call in calls) > 1:
            raise ArchiveError(f"{where}: a table has at most one open call")
        return calls

    def _version(self, data: dict[str, Any], seated: set[str], where: str) -> DealResult:
        position = whole_field(data, "position", where, low=1, high=SMALL)
        where = f"{where}, entry {position}"
        kind = required(data, "kind", where)
        if kind not in EntryKind.values:
            raise ArchiveError(f"{where}: unknown kind {shown(kind)}")
        player = required(data, "entry", where)
        if player is not None and (not is_id(player) or str(player) not in seated):
            raise ArchiveError(f"{where}: {shown(player)} is not seated at the table")
        if (player is None) != (kind not in (EntryKind.PLAY, EntryKind.PENALTY)):
            raise ArchiveError(
                f"{where}: a {kind} entry {'has no' if player is None else 'has a'} player"
            )
        game = text_field(data, "game", where, max_length=10)
        if (kind == EntryKind.PLAY) != bool(game) or (
            game and game not in (Game.LIELAIS, Game.ZOLE, Game.MAZA_ZOLE)
        ):
            raise ArchiveError(f"{where}: game {shown(game)} does not fit a {kind} entry")
        result = DealResult(
            position=position,
            version=whole_field(data, "version", where, low=1, high=SMALL),
            kind=kind,
            game=game,
            player_id=player,
            points=whole_field(data, "points", where, low=0, high=TOTAL_POINTS, null=True),
            tricks=whole_field(data, "tricks", where, low=0, high=TRICKS_PER_DEAL, null=True),
            galdins=required(data, "galdins", where),
            reason=text_field(data, "reason", where, max_length=200),
        )
        if kind == EntryKind.GALDINS:
            self._check_galdins(result.galdins, seated, where)
        elif result.galdins is not None:
            raise ArchiveError(f"{where}: only a galdiņš has galdins")
        if kind == EntryKind.PLAY and result.tricks is None:
            raise ArchiveError(f"{where}: tricks is missing")
        return result

    @staticmethod
    def _check_galdins(galdins: object, seated: set[str], where: str) -> None:
        if not isinstance(galdins, dict) or set(galdins) - {"draw_loser"} != {"tricks", "points"}:
            raise ArchiveError(f"{where}: galdins must have tricks and points")
        if "draw_loser" in galdins and galdins["draw_loser"] not in seated:
            raise ArchiveError(f"{where}: galdins draw_loser must be a player at the table")
        for part, high in (("tricks", TRICKS_PER_DEAL), ("points", TOTAL_POINTS)):
            scores = galdins[part]
            if not isinstance(scores, dict) or not set(scores) <= seated:
                raise ArchiveError(f"{where}: galdins {part} must be by players at the table")
            for value in scores.values():
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                    raise ArchiveError(f"{where}: galdins {part} must be 0-{high}")

    def _confirmation(
        self,
        data: dict[str, Any],
        table: PlannedTable,
        scored: ScoredSheet,
        key: Callable[[str], str],
        round_: PlannedRound,
        where: str,
    ) -> PlannedConfirmation:
        totals = scored.totals
        stored = required(data, "totals", where)
        if stored != totals:
            raise ArchiveError(
                f"{where}: the sheet re-scores to {shown(totals)}, but the archive's totals "
                f"are {shown(stored)}"
            )
        by_entry = {key(name): points for name, points in totals.items()}
        engine_results = round_results(round_.number, by_entry, round_.rule_set.place_scheme)
        expected = {
            int(row.player): (row.game_points, row.place_points, row.place)
            for row in engine_results
        }
        results = as_list(required(data, "results", where), f"{where}: results")
        given: dict[int, tuple[Any, Any, Any]] = {}
        for item in results:
            row = as_object(item, f"{where}: a result")
            place_points = required(row, "place_points", where)
            try:
                fraction = Fraction(place_points) if isinstance(place_points, str) else None
            except (ValueError, ZeroDivisionError):
                fraction = None
            registration_id = required(row, "entry", where)
            if not is_id(registration_id):
                raise ArchiveError(f"{where}: a result's entry is {shown(registration_id)}")
            given[registration_id] = (
                required(row, "game_points", where),
                fraction,
                required(row, "place", where),
            )
        if given != expected:
            raise ArchiveError(f"{where}: the results are not the engine's results of the totals")
        by_entry_id = required(data, "confirmed_by_entry", where) if self.version > 1 else None
        if by_entry_id is not None and (not is_id(by_entry_id) or by_entry_id not in table.seats):
            raise ArchiveError(f"{where}: confirmed_by_entry is not a player at the table")
        return PlannedConfirmation(
            confirmed_at=moment_field(data, "confirmed_at", where),
            confirmed_by=username_field(data.get("confirmed_by"), where),
            confirmed_by_registration=by_entry_id,
            results=engine_results,
            tallies={key(name): tally for name, tally in seat_tallies(scored).items()},
        )
