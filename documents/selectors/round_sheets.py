"""Reads for a round's score sheets, in a fixed number of queries whatever the size of the round.

Every score, total and settlement comes from the engine (through `scoring.sheet.lines`); this
module loads the rows, hands them to the engine and puts the answers in the shape
`documents.score_sheets` prints.
"""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.utils import dateformat, timezone
from django.utils.formats import get_format
from django.utils.translation import gettext as _

from core.engine_text import error_text
from documents.score_sheet_rows import (
    RowWords,
    deal_row,
    deals_before,
    pule_tallies,
    row_words,
    unscored_rows,
)
from documents.selectors.heading import event_info
from documents.sheet_data import RoundSheets, ScoreSheet, SheetDeal, SheetPlayer
from engine import SheetError, dealer_for, round_results, score_sheet
from engine.rules import TABLE_SIZES
from engine.standings import place_spans, place_text
from scoring.models import DealResult, TableResult
from scoring.selectors import (
    points_text,
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
from tournaments.models import Round, Seat, Table, TableToken
from tournaments.rule_set import (
    RuleSet,
    round_options,
    rule_set_from_options,
    rule_set_words,
)

EntryUrl = Callable[[str], str]  # a table token → the absolute address of its entry page


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
