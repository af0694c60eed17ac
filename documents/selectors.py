"""Reads for the printed documents: a round's score sheets, its seating list and the standings
protocol, each in a fixed number of queries whatever the size of the round.

Every score, total, settlement, place and standing comes from the engine (through
`scoring.sheet.lines` and `engine.standings`); this module loads the rows, hands them to the
engine and puts the answers in the shape the drawing code prints.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from django.utils import dateformat, timezone
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext as _

from core.engine_text import display_name_key, error_text
from documents.layout import EventInfo, variant_for
from documents.prize_list import FundLine, PrizeDocument, PrizeLine
from documents.protocol import ControlTotal, Protocol, ProtocolRow, RoundCell
from documents.score_sheet_rows import (
    RowWords,
    deal_row,
    deals_before,
    pule_tallies,
    row_words,
    unscored_rows,
)
from documents.seating_list import (
    CheckInNotice,
    SeatingList,
    SeatingPlayer,
    SeatingSeat,
    SeatingTable,
)
from documents.sheet_data import RoundSheets, ScoreSheet, SheetDeal, SheetPlayer
from engine import SheetError, dealer_for, round_results, score_sheet
from engine.rules import TABLE_SIZES
from engine.standings import PlaceScheme, RoundResult, place_spans, place_text, rank_standings
from scoring.models import TWELFTHS, DealResult, SeatResult, TableResult
from scoring.selectors import (
    PUBLIC_STATUSES,
    PrizeList,
    points_text,
    prize_list,
    rank_label,
    standings_order,
)
from scoring.sheet.lines import (
    current_results,
    deals_played,
    engine_sheet,
    seat_keys,
    sheet_is_closed,
    sheet_line,
)
from scoring.sheet.shape import column_names
from tournaments.models import (
    Player,
    Registration,
    Round,
    RoundStatus,
    Seat,
    Table,
    TableToken,
    Tournament,
)
from tournaments.rule_set import (
    RuleSet,
    absent_rule,
    round_options,
    round_rule_set,
    rule_set_from_options,
    rule_set_words,
)

EntryUrl = Callable[[str], str]  # a table token → the absolute address of its entry page


def event_info(tournament: Tournament) -> EventInfo:
    dates = date_format(tournament.starts_on, "DATE_FORMAT")
    if tournament.ends_on and tournament.ends_on != tournament.starts_on:
        dates = f"{dates} – {date_format(tournament.ends_on, 'DATE_FORMAT')}"
    return EventInfo(
        name=tournament.name,
        venue=tournament.venue,
        dates=dates,
        printed_at=date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT"),
        variant=variant_for(tournament.level),
    )


# -- Score sheets --------------------------------------------------------------------------------


class _PlayerRow(NamedTuple):
    full_name: str
    club: str
    licence_number: str


class _RegistrationRow(NamedTuple):
    player: _PlayerRow


class _SeatRow(NamedTuple):
    """A seat as the sheet reads it: what `seat_keys`, `column_names` and `engine_sheet` use of a
    `Seat`, read as a row rather than built as three model instances (seat, registration,
    player)."""

    position: int
    registration_id: int
    registration: _RegistrationRow


# What `current_results`, `sheet_line` and the sheet print of a stored deal: read as rows (a
# round holds thousands of them), not built as model instances.
DEAL_FIELDS = ("table_id", "position", "kind", "game", "player_id", "points", "tricks", "galdins")


def round_score_sheets(*, round_: Round, entry_url: EntryUrl, blank: bool = False) -> RoundSheets:
    """Every table of the round, in number order: filled from its current deals when it has any,
    blank otherwise or when `blank` asks for it. Four queries (three when blank), whatever the
    size of the round; the seats, links and deals are read as rows, not model instances."""
    tournament = round_.tournament
    tables = list(
        round_.tables.select_related(
            "result__confirmed_by", "result__confirmed_by_registration__player"
        ).order_by("number")
    )
    seats: dict[int, list[_SeatRow]] = defaultdict(list)
    for table_id, position, registration_id, name, club, licence in (
        Seat.objects.filter(table__round=round_)
        .values_list(
            "table_id",
            "position",
            "registration_id",
            "registration__player__full_name",
            "registration__player__club__name",
            "registration__player__licence_number",
        )
        .order_by("table_id", "position")
    ):
        seats[table_id].append(
            _SeatRow(
                position, registration_id, _RegistrationRow(_PlayerRow(name, club or "", licence))
            )
        )
    tokens: dict[int, str] = {}
    for table_id, token in (
        TableToken.objects.filter(table__round=round_, revoked_at__isnull=True)
        .values_list("table_id", "token")
        .order_by("-created_at", "-id")
    ):
        tokens.setdefault(table_id, token)  # the newest link of the table
    versions: dict[int, list] = defaultdict(list)
    if not blank:
        # Only what the sheet prints: who entered what, and when, is the audit log's business.
        for result in (
            DealResult.objects.filter(table__round=round_)
            .values_list(*DEAL_FIELDS, named=True)
            .order_by("table_id", "position", "version")
        ):
            versions[result.table_id].append(result)
    context = _sheets_context(round_, entry_url)
    rule_set = context.rule_set
    sheets = tuple(
        _score_sheet(table, seats[table.pk], tokens.get(table.pk), versions[table.pk], context)
        for table in tables
    )
    return RoundSheets(
        event=event_info(tournament),
        round_number=round_.number,
        deals_per_round=rule_set.deals_per_round,
        pules=rule_set.rules.pules,
        sheets=sheets,
    )


@dataclass
class _SheetsContext:
    """What every table's sheet of a round shares, worked out once for the round."""

    round_number: int
    rule_set: RuleSet
    entry_url: EntryUrl
    rules: dict[int, tuple[str, ...]]  # the round's rules in words, by table size
    words: RowWords
    time_format: str  # a confirmation's date and time as printed (a Django format)
    # (table size, first dealer's seat) → the rows of a sheet with no deal entered
    blank: dict[tuple[int, int], tuple[SheetDeal, ...]] = field(default_factory=dict)

    def blank_rows(self, size: int, first_dealer: int) -> tuple[SheetDeal, ...]:
        """Every deal's row with its dealer only: the same rows (immutable, shared) for every
        table of the size whose first dealer sits in the same seat."""
        rows = self.blank.get((size, first_dealer))
        if rows is None:
            # The engine's rotation, over seats named by their numbers.
            seats = tuple(str(seat) for seat in range(1, size + 1))
            first = seats[first_dealer - 1]
            rows = self.blank[size, first_dealer] = tuple(
                SheetDeal(number=index + 1, dealer_seat=int(dealer_for(seats, first, index)))
                for index in range(self.rule_set.deals_at(size))
            )
        return rows


def _sheets_context(round_: Round, entry_url: EntryUrl) -> _SheetsContext:
    options = round_options(round_)
    return _SheetsContext(
        round_number=round_.number,
        rule_set=rule_set_from_options(options),
        entry_url=entry_url,
        # The rules in words depend on the table's size only (a table of 4 has its pass pules).
        rules={size: rule_set_words(options, table_size=size) for size in TABLE_SIZES},
        words=row_words(),
        time_format=get_format("SHORT_DATETIME_FORMAT"),
    )


def _score_sheet(
    table: Table,
    seats: list[_SeatRow],
    token: str | None,
    results: list,
    context: _SheetsContext,
) -> ScoreSheet:
    rule_set, words = context.rule_set, context.words
    rules = context.rules.get(len(seats), ())
    # Short names told apart when two look alike; the engine's keys are the registrations' ids.
    names = column_names([seat.registration.player.full_name for seat in seats])
    column_keys = [str(seat.registration_id) for seat in seats]
    players = tuple(
        SheetPlayer(
            seat=seat.position,
            name=named.name,
            short_name=named.short_name,
            club=seat.registration.player.club,
            licence=seat.registration.player.licence_number,
            deals_first=seat.position == table.first_dealer_position,
        )
        for seat, named in zip(seats, names, strict=True)
    )
    keys = seat_keys(seats)
    seat_of = {key: index + 1 for index, key in enumerate(keys)}
    deals_per_round = rule_set.deals_at(len(keys))
    url = context.entry_url(token) if token else None
    blank_rows = context.blank_rows(len(keys), table.first_dealer_position)
    current = current_results(results)
    if not current:
        return ScoreSheet(
            table_number=table.number,
            players=players,
            deals=blank_rows,
            entry_url=url,
            filled=False,
            status=_("Blank sheet: write each deal on its row."),
            rules=rules,
        )

    deals_entered = deals_played(current)
    by_key = {key: named.short_name for key, named in zip(column_keys, names, strict=True)}
    confirmation: TableResult | None = getattr(table, "result", None)
    # Settled once every deal is in, or once confirmed with fewer when time was up.
    complete = sheet_is_closed(
        deals_played=deals_entered, deals_per_round=deals_per_round, confirmation=confirmation
    )
    time_called = complete and deals_entered < deals_per_round
    status = _confirmation_status(confirmation, deals_entered, deals_per_round, context.time_format)
    try:
        scored = score_sheet(
            engine_sheet(table, seats=seats, results=results, rules=rule_set.rules, closed=complete)
        )
    except SheetError as error:
        # Stored deals always passed the engine; should the rules have changed since, the sheet
        # still prints what was entered, without scores, and says why.
        return ScoreSheet(
            table_number=table.number,
            players=players,
            deals=unscored_rows(
                [sheet_line(result) for result in current], blank_rows, by_key, words
            ),
            entry_url=url,
            filled=True,
            status=status,
            error=error_text(
                error,
                names={key: named.name for key, named in zip(column_keys, names, strict=True)},
                entries=[sheet_line(result) for result in current],
            ),
            time_called_after=deals_entered if time_called else None,
            rules=rules,
        )

    rows = list(blank_rows)
    penalties = []
    for deal in scored.deals:
        if deal.number is None:  # a penalty pule uses no deal
            before = deals_before(deal, scored.deals) + 1
            penalties.append(
                _("%(player)s (before deal %(number)d)")
                % {"player": by_key.get(deal.pule_owner or "", "?"), "number": before}
            )
        elif deal.number <= len(rows):
            rows[deal.number - 1] = deal_row(deal, seat_of, by_key, words)
    totals = settlement = places = place_points = None
    zero_sum = totals_sum = None
    if complete:
        settlement = tuple(scored.settlement[key] for key in keys)
        totals = tuple(scored.totals[key] for key in keys)
        results_by_player = {
            result.player: result
            for result in round_results(context.round_number, scored.totals, rule_set.place_scheme)
        }
        spans = place_spans(scored.totals)
        places = tuple(place_text(*spans[key]) for key in keys)
        place_points = tuple(points_text(results_by_player[key].place_points) for key in keys)
        zero_sum = scored.zero_sum
        totals_sum = sum(scored.totals.values())
    common, personal = pule_tallies(
        scored.deals, keys, scored.open_common_pules, scored.open_personal_pules
    )
    return ScoreSheet(
        table_number=table.number,
        players=players,
        deals=tuple(rows),
        entry_url=url,
        filled=True,
        status=status,
        penalties=tuple(penalties),
        common_pules=common,
        personal_pules=personal,
        settlement=settlement,
        totals=totals,
        places=places,
        place_points=place_points,
        zero_sum=zero_sum,
        totals_sum=totals_sum,
        time_called_after=deals_entered if time_called else None,
        rules=rules,
    )


def _confirmation_status(
    confirmation: TableResult | None, deals_entered: int, deals_per_round: int, time_format: str
) -> str:
    if confirmation is not None:
        if confirmation.confirmed_by_registration is not None:
            who = confirmation.confirmed_by_registration.player.full_name
        elif confirmation.confirmed_by is not None:
            user = confirmation.confirmed_by
            who = user.get_full_name() or user.get_username()
        else:
            who = _("the table")
        confirmed = _("Confirmed by %(who)s, %(when)s.") % {
            "who": who,
            # date_format's own work with the format looked up once for the round
            "when": dateformat.format(timezone.localtime(confirmation.confirmed_at), time_format),
        }
        if confirmation.time_called:
            ended = _("Time was up: the table's round ended after deal %(number)d.") % {
                "number": deals_entered
            }
            return f"{confirmed} {ended}"
        return confirmed
    if deals_entered >= deals_per_round:
        return _("All %(count)d deals entered; not confirmed yet.") % {"count": deals_per_round}
    return _("In play: %(entered)d of %(count)d deals entered.") % {
        "entered": deals_entered,
        "count": deals_per_round,
    }


# -- Seating list --------------------------------------------------------------------------------


def round_seating_list(*, round_: Round, check_in: CheckInNotice | None = None) -> SeatingList:
    """The round's tables with their players in seat order, and every player alphabetically
    (Latvian order) with his table and seat (and the organiser's `check_in`). Two queries."""
    tables = round_.tables.order_by("number").values_list("id", "number", "first_dealer_position")
    seated: dict[int, list[tuple[int, str, str, str]]] = defaultdict(list)
    for table_id, position, name, club, licence in (
        Seat.objects.filter(table__round=round_)
        .values_list(
            "table_id",
            "position",
            "registration__player__full_name",
            "registration__player__club__name",
            "registration__player__licence_number",
        )
        .order_by("table_id", "position")
    ):
        seated[table_id].append((position, name, club or "", licence))  # "": no club
    seating_tables = []
    players = []
    for table_id, number, first_dealer_position in tables:
        seats = []
        for position, name, club, licence in seated[table_id]:
            seats.append(
                SeatingSeat(
                    position=position,
                    name=name,
                    club=club,
                    licence=licence,
                    deals_first=position == first_dealer_position,
                )
            )
            players.append(
                SeatingPlayer(name=name, club=club, licence=licence, table=number, seat=position)
            )
        seating_tables.append(SeatingTable(number=number, seats=tuple(seats)))
    players.sort(key=lambda player: display_name_key(player.name))
    return SeatingList(
        event=event_info(round_.tournament),
        round_number=round_.number,
        tables=tuple(seating_tables),
        players=tuple(players),
        check_in=check_in,
    )


# -- Standings protocol --------------------------------------------------------------------------


def _control_total(
    round_number: int,
    table_number: int,
    stored: dict[str, tuple[int, int, int]],
    scheme: PlaceScheme,
) -> ControlTotal:
    """A table's sums, and whether what is stored is what the engine gives: the game points
    add up to 0, and each player's place and place points are the engine's from the stored game
    points under the round's scheme. (A scheme's shared values do not keep the sum: four players
    tied under "1-4=2" get 8 in all, not 12; only the engine's answer is right for every scheme.)"""
    game_points = {player: row[0] for player, row in stored.items()}
    expected = {
        result.player: (result.place_points, result.place)
        for result in round_results(round_number, game_points, scheme)
    }
    return ControlTotal(
        round_number=round_number,
        table_number=table_number,
        game_points=sum(game_points.values()),
        place_points=points_text(
            Fraction(sum(twelfths for _points, twelfths, _place in stored.values()), TWELFTHS)
        ),
        balanced=sum(game_points.values()) == 0
        and all(
            expected[player] == (Fraction(twelfths, TWELFTHS), place)
            for player, (_points, twelfths, place) in stored.items()
        ),
    )


def _club_name(player: Player) -> str:
    return player.club.name if player.club else ""


def standings_protocol(*, tournament: Tournament, after_round: int | None = None) -> Protocol:
    """The standings after `after_round` (default: the latest public round), ranked by the engine
    in the tournament's standings order over the confirmed results of rounds 1..n, with each
    round's result, the signatories and, for a national event, each table's control totals.
    Five queries."""
    public_rounds = list(
        tournament.rounds.filter(status__in=PUBLIC_STATUSES)
        .order_by("number")
        .prefetch_related("tables")
    )
    last = (
        after_round
        if after_round is not None
        else max((round_.number for round_ in public_rounds), default=0)
    )
    covered = [round_ for round_ in public_rounds if round_.number <= last]
    entries = {
        str(entry.pk): entry
        for entry in Registration.objects.filter(tournament=tournament).select_related(
            "player__club"
        )
    }
    seat_results = list(
        SeatResult.objects.filter(registration__tournament=tournament, round_number__lte=last)
        .values_list(
            "registration_id",
            "round_number",
            "game_points",
            "place_points_twelfths",
            "place",
            "table_result__table__number",
        )
        .order_by()
    )
    results = [
        RoundResult(
            player=str(registration_id),
            round_number=round_number,
            game_points=game_points,
            place_points=Fraction(twelfths, TWELFTHS),
            place=place,
        )
        for registration_id, round_number, game_points, twelfths, place, _table in seat_results
        if str(registration_id) in entries
    ]
    names = {key: entry.player.full_name for key, entry in entries.items()}
    standings = rank_standings(
        results,
        players=entries.keys(),
        names=names,
        order=standings_order(tournament),
        absent=absent_rule(tournament),
    )
    shared = Counter(standing.rank for standing in standings)
    rows = tuple(
        ProtocolRow(
            rank=rank_label(standing.rank, shared[standing.rank]),
            name=standing.name,
            club=_club_name(entries[standing.player].player),
            licence=entries[standing.player].player.licence_number,
            place_points=points_text(standing.place_points),
            game_points=standing.game_points,
            rounds={
                result.round_number: RoundCell(
                    game_points=result.game_points,
                    place_points=points_text(result.place_points),
                )
                for result in standing.rounds
            },
        )
        for standing in standings
    )

    schemes = {round_.number: round_rule_set(round_).place_scheme for round_ in covered}
    seated: dict[tuple[int, int], dict[str, tuple[int, int, int]]] = defaultdict(dict)
    for registration_id, round_number, game_points, twelfths, place, table_number in seat_results:
        if round_number in schemes:
            seated[round_number, table_number][str(registration_id)] = (
                game_points,
                twelfths,
                place,
            )
    controls = tuple(
        _control_total(round_number, table_number, stored, schemes[round_number])
        for (round_number, table_number), stored in sorted(seated.items())
        if len(stored) in TABLE_SIZES
    )
    last_round = covered[-1] if covered else None
    # Printed in the document's language, in its alphabetical order.
    chief_referees = sorted(
        (user.get_full_name() or user.get_username() for user in tournament.chief_referees.all()),
        key=display_name_key,
    )
    return Protocol(
        event=event_info(tournament),
        after_round=last,
        scored_round=max((result[1] for result in seat_results), default=0),
        rounds_planned=tournament.rounds_planned,
        round_numbers=tuple(round_.number for round_ in covered),
        final=bool(covered)
        and last >= tournament.rounds_planned
        and all(round_.status == RoundStatus.CLOSED for round_ in covered),
        open_rounds=tuple(
            round_.number for round_ in covered if round_.status != RoundStatus.CLOSED
        ),
        rows=rows,
        chief_referees=tuple(chief_referees),
        referee_tables=tuple(
            sorted(table.number for table in last_round.tables.all()) if last_round else ()
        ),
        controls=controls,
    )


# -- Prize list ----------------------------------------------------------------------------------


def prize_subtitle(prizes: PrizeList, rounds_planned: int) -> str:
    if not prizes.scored_rounds:
        return _("No round has been published yet")
    if prizes.finished:
        return _("Final standings after round %(number)d") % {"number": prizes.scored_rounds}
    return _("Standings after round %(number)d of %(planned)d") % {
        "number": prizes.scored_rounds,
        "planned": rounds_planned,
    }


def prize_note(prizes: PrizeList) -> str:
    """What the reader must know before trusting the list: why there is none, or that the
    standings may still change."""
    if prizes.problem:
        return prizes.problem
    if not prizes.shares:
        return _("No prizes are set: give the places' percentages in the tournament's settings.")
    if not prizes.finished:
        return _(
            "Provisional: the tournament is not finished; the prizes follow the standings so far."
        )
    return ""


def prize_document(*, tournament: Tournament) -> PrizeDocument:
    """The prize list as printed: the fund by fee category, the costs share and the prizes."""
    prizes = prize_list(tournament=tournament)
    return PrizeDocument(
        event=event_info(tournament),
        subtitle=prize_subtitle(prizes, tournament.rounds_planned),
        note=prize_note(prizes),
        fund_lines=tuple(
            FundLine(category=row.name, fee=row.amount_text, paid=row.paid, amount=row.paid_text)
            for row in prizes.fund.categories
        ),
        fund=prizes.fund.total_text,
        costs=f"{prizes.costs_percent_text}: {prizes.costs_text}",
        pool=prizes.pool_text,
        prizes=tuple(
            PrizeLine(place=row.place, name=row.name, club=row.club, amount=row.amount_text)
            for row in prizes.rows
        ),
        prizes_total=prizes.prizes_text,
        chief_referees=tuple(
            sorted(
                (
                    user.get_full_name() or user.get_username()
                    for user in tournament.chief_referees.all()
                ),
                key=display_name_key,
            )
        ),
    )
