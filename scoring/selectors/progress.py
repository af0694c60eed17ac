"""A tournament's progress: rounds, tables confirmed, deals entered; each table of a round
with its entry link and when its phone was last heard from (the organiser's round page)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Prefetch
from django.utils import timezone

from scoring.models import DealResult, TableHeard, TableResult
from scoring.selectors.public_results import LIVE_STATUSES, PUBLIC_STATUSES
from scoring.sheet.lines import current_results, deals_played
from tournaments.models import Round, RoundStatus, Table, TableToken, Tournament
from tournaments.rule_set import round_rule_set


@dataclass(frozen=True)
class RoundProgress:
    """A planned round and how far it is: its status and tables confirmed of all."""

    number: int
    status: str  # a RoundStatus, or "" for a round not created yet
    status_display: str
    table_count: int = 0
    confirmed_count: int = 0

    @property
    def is_public(self) -> bool:
        return self.status in PUBLIC_STATUSES

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


@dataclass(frozen=True)
class TournamentProgress:
    rounds_planned: int
    rounds: list[RoundProgress]

    @property
    def public_rounds(self) -> list[RoundProgress]:
        return [round_ for round_ in self.rounds if round_.is_public]

    @property
    def current(self) -> RoundProgress | None:
        """The latest public round: the one people follow."""
        public = self.public_rounds
        return public[-1] if public else None

    @property
    def is_live(self) -> bool:
        return any(round_.is_live for round_ in self.rounds)

    @property
    def is_finished(self) -> bool:
        closed = sum(round_.status == RoundStatus.CLOSED for round_ in self.rounds)
        return self.rounds_planned > 0 and closed >= self.rounds_planned


def tournament_progress(*, tournament: Tournament) -> TournamentProgress:
    """Every planned round with its status and confirmed tables, in one query."""
    rounds = {
        round_.number: round_
        for round_ in Round.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            confirmed_count=Count("tables__result", distinct=True),
        )
        .order_by("number")
    }
    progress = []
    for number in range(1, max(tournament.rounds_planned, max(rounds, default=0)) + 1):
        round_ = rounds.get(number)
        if round_ is None or round_.status == RoundStatus.DRAFT:
            # A draft's seating may still change: to the public it is simply not out yet.
            progress.append(RoundProgress(number=number, status="", status_display=""))
        else:
            progress.append(
                RoundProgress(
                    number=number,
                    status=round_.status,
                    status_display=round_.get_status_display(),
                    table_count=round_.table_count,
                    confirmed_count=round_.confirmed_count,
                )
            )
    return TournamentProgress(rounds_planned=tournament.rounds_planned, rounds=progress)


# --- The organiser's round page: each table's entry link and progress ---------------------------


# A phone with entries waiting that has not been heard from for this long is shown to the
# chief referee (its connection may be down, or the page closed).
SILENT_FOR = timedelta(minutes=5)


@dataclass(frozen=True)
class TableLink:
    table: Table
    token: str | None  # the current (unrevoked) link's token
    deals_entered: int
    deals_per_round: int
    is_confirmed: bool
    time_called: bool = False  # confirmed with fewer deals because time was up
    # When its phone was last heard from and what it said was on it (scoring.models.TableHeard),
    # while the round is open: None otherwise, or never heard from.
    heard: TableHeard | None = None
    now: datetime | None = None  # when the list was read

    @property
    def time_called_after(self) -> int | None:
        return self.deals_entered if self.time_called else None

    @property
    def waiting(self) -> int:
        return (self.heard.waiting or 0) if self.heard is not None else 0

    @property
    def refused(self) -> int:
        return (self.heard.refused or 0) if self.heard is not None else 0

    @property
    def heard_minutes_ago(self) -> int | None:
        """Whole minutes since its phone was last heard from (None: never)."""
        if self.heard is None or self.now is None:
            return None
        return max(0, int((self.now - self.heard.heard_at).total_seconds() // 60))

    @property
    def needs_attention(self) -> bool:
        """Entries refused on the phone, or waiting on a phone silent for minutes."""
        if self.heard is None:
            return False
        silent = self.now is not None and self.now - self.heard.heard_at > SILENT_FOR
        return self.refused > 0 or (self.waiting > 0 and silent)


def tables_confirmed_short(*, round_: Round) -> list[int]:
    """The numbers of the round's tables confirmed with fewer deals because time was up: their
    results depend on the clock, which can then no longer be reset."""
    return list(
        TableResult.objects.filter(table__round=round_, time_called=True)
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )


def round_table_links(*, round_: Round) -> list[TableLink]:
    """Each table of the round with its current entry link, deals entered, confirmation and
    (while the round is open) when its phone was last heard from, in three queries whatever the
    size of the round."""
    tables = list(
        round_.tables.select_related("result", "heard")
        .annotate(seat_count=Count("seats"))
        .prefetch_related(
            Prefetch(
                "tokens",
                queryset=TableToken.objects.filter(revoked_at__isnull=True).order_by(
                    "-created_at", "-id"
                ),
                to_attr="active_tokens",
            )
        )
        .order_by("number")
    )
    versions: dict[int, list[DealResult]] = defaultdict(list)
    for result in (
        DealResult.objects.filter(table__round=round_)
        .only("id", "table_id", "position", "version", "kind")
        .order_by("table_id", "position", "version")
    ):
        versions[result.table_id].append(result)
    rule_set = round_rule_set(round_)
    is_open = round_.status in (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)
    now = timezone.now()
    links = []
    for table in tables:
        current = current_results(versions[table.pk])
        # Loaded by select_related: an unconfirmed table has none (the lookup raises).
        confirmation: TableResult | None = getattr(table, "result", None)
        links.append(
            TableLink(
                table=table,
                token=table.active_tokens[0].token if table.active_tokens else None,
                deals_entered=deals_played(current),
                deals_per_round=rule_set.deals_at(table.seat_count),
                is_confirmed=confirmation is not None,
                time_called=confirmation is not None and confirmation.time_called,
                heard=getattr(table, "heard", None) if is_open else None,
                now=now,
            )
        )
    return links
