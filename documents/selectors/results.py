"""Reads for the printed results: the standings protocol, ranked by the engine over the confirmed
results with each table's control totals, and the prize list. Each in a fixed number of queries."""

from collections import Counter, defaultdict
from fractions import Fraction

from django.utils.translation import gettext as _

from core.engine_text import display_name_key
from documents.prize_list import FundLine, PrizeDocument, PrizeLine
from documents.protocol import ControlTotal, Protocol, ProtocolRow, RoundCell
from documents.selectors.heading import event_info
from engine import round_results
from engine.rules import TABLE_SIZES
from engine.standings import PlaceScheme, RoundResult, rank_standings
from scoring.models import TWELFTHS, SeatResult
from scoring.selectors import (
    PUBLIC_STATUSES,
    PrizeList,
    points_text,
    prize_list,
    rank_label,
    standings_order,
)
from tournaments.models import Player, Registration, RoundStatus, Tournament
from tournaments.rule_set import (
    absent_rule,
    round_rule_set,
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
