"""django-tables2 tables of the public standings: sortable, exportable as CSV and XLSX.

Rows are plain dicts built from the selectors' rows (the engine has already ranked them); the
HTML shows readable cells (4⅓, a round as "game points · place points"), the export gets plain
numbers in separate columns so a spreadsheet can add them up."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from core.engine_text import display_name_key
from core.lean_tables import LeanRowsTable, player_url
from scoring.selectors import RoundCell, StandingRow, TeamRow, points_number, points_text


class PlacePointsColumn(tables.Column):
    """Place points: 4⅓ on the page, 4.33 in the export."""

    def render(self, value: Any) -> str:
        return points_text(value)

    # django-tables2 passes a value() only the arguments it names: the base's **kwargs is
    # its way of saying "any of them".
    def value(self, value: Any) -> int | float | None:  # type: ignore[override]
        return points_number(value)


class RoundColumn(tables.Column):
    """One round's result on the page: game points · place points, marked when provisional."""

    def __init__(self, number: int, **kwargs: Any) -> None:
        kwargs.setdefault("verbose_name", _("R%(number)s") % {"number": number})
        kwargs.setdefault("accessor", f"round_{number}")
        kwargs.setdefault("order_by", (f"round_{number}_game_points",))
        kwargs.setdefault("exclude_from_export", True)  # the export has two number columns
        kwargs.setdefault("attrs", {"td": {"class": "round-cell"}, "th": {"class": "round-cell"}})
        kwargs.setdefault("default", "–")
        super().__init__(**kwargs)

    def render(self, value: RoundCell) -> SafeString:
        if value.provisional:
            return format_html(
                '<span class="provisional" title="{}">{} · {}<sup>*</sup></span>',
                _("provisional: the table is not confirmed yet"),
                value.game_points,
                value.place_points_text,
            )
        # format_html("{} · {}", ...) built directly (django's escape and mark_safe are
        # html.escape and SafeString behind a lazy-text check): a page has a thousand such
        # cells; game points are a whole number.
        return SafeString(f"{int(value.game_points)} · {html.escape(value.place_points_text)}")


ASIDE_CELL = {"td": {"class": "aside-cell"}, "th": {"class": "aside-cell"}}


def _standings_row_class(record: dict[str, Any]) -> str:
    classes = []
    if record["provisional"]:
        classes.append("provisional")
    if record["shared"]:
        classes.append("shared-rank")
    return " ".join(classes)


class StandingsTable(LeanRowsTable):
    rank = tables.Column(
        verbose_name=_("Rank"), accessor="rank_label", order_by=("position",), orderable=True
    )
    name = tables.Column(verbose_name=_("Player"), order_by=("name_key",), linkify=player_url)
    # On a phone the club and the team give way to the points (site.css: .aside-cell).
    club = tables.Column(
        verbose_name=_("Club"), order_by=("club_key",), default="", attrs=ASIDE_CELL
    )
    team = tables.Column(
        verbose_name=_("Team"), order_by=("team_key",), default="", attrs=ASIDE_CELL
    )
    place_points = PlacePointsColumn(
        verbose_name=_("Place points"), order_by=("place_points", "-position")
    )
    game_points = tables.Column(
        verbose_name=_("Game points"), order_by=("game_points", "-position")
    )
    provisional = tables.BooleanColumn(verbose_name=_("Provisional"), visible=False)

    class Meta:
        attrs = {"class": "list standings-table"}
        row_attrs = {"class": _standings_row_class}
        empty_text = _("No results yet.")
        order_by = ("rank",)
        orderable = True
        template_name = "_lean_table.html"

    def value_provisional(self, value: bool) -> str:
        return "*" if value else ""

    @classmethod
    def for_standings(
        cls,
        rows: Iterable[StandingRow],
        *,
        round_numbers: Iterable[int],
        with_team: bool,
        with_provisional: bool,
        **kwargs: Any,
    ) -> StandingsTable:
        round_numbers = list(round_numbers)
        extra_columns: list[tuple[str, tables.Column]] = []
        for number in round_numbers:
            extra_columns.append((f"round_{number}", RoundColumn(number)))
        # Export-only: each round's numbers in their own columns.
        for number in round_numbers:
            extra_columns += [
                (
                    f"round_{number}_game_points",
                    tables.Column(
                        verbose_name=_("R%(number)s game points") % {"number": number},
                        visible=False,
                    ),
                ),
                (
                    f"round_{number}_place_points",
                    PlacePointsColumn(
                        verbose_name=_("R%(number)s place points") % {"number": number},
                        visible=False,
                    ),
                ),
            ]
        fields = round_fields(round_numbers)
        exclude = []
        if not with_team:
            exclude.append("team")
        if not with_provisional:
            exclude.append("provisional")
        return cls(
            [standing_record(row, round_numbers, fields) for row in rows],
            extra_columns=extra_columns,
            exclude=exclude,
            **kwargs,
        )


class StandingRecord(dict[str, Any]):
    """A standings row's cells by name, as django-tables2 reads a record. The cells a page of
    100 rows does not show are computed when first read (only a table sorted by that column, or
    an export, reads them for every row): the sort keys of the texts ("name_key" for "name",
    ...), each round's cell and its two numbers ("round_2", "round_2_game_points",
    "round_2_place_points"), and whether a result is provisional."""

    __slots__ = ("_round_fields", "_row")
    SORT_KEYS = {"name_key": "name", "club_key": "club", "team_key": "team"}

    def __init__(
        self,
        row: StandingRow,
        round_fields: dict[str, tuple[int, str | None]],
        values: dict[str, Any],
    ) -> None:
        super().__init__(values)
        self._row = row
        self._round_fields = round_fields  # shared by the table's records: see round_fields

    def __missing__(self, key: str) -> Any:
        value: object
        if key in self.SORT_KEYS:
            value = display_name_key(self[self.SORT_KEYS[key]])
        elif key == "provisional":
            value = self._row.provisional
        elif key in self._round_fields:
            number, part = self._round_fields[key]
            cell = self._row.rounds.get(number)
            value = cell if part is None or cell is None else getattr(cell, part)
        else:
            raise KeyError(key)
        self[key] = value
        return value


def round_fields(round_numbers: Iterable[int]) -> dict[str, tuple[int, str | None]]:
    """A standings record's round cells by name: the round's number and the cell's attribute
    (None: the cell itself)."""
    fields: dict[str, tuple[int, str | None]] = {}
    for number in round_numbers:
        fields[f"round_{number}"] = (number, None)
        fields[f"round_{number}_game_points"] = (number, "game_points")
        fields[f"round_{number}_place_points"] = (number, "place_points")
    return fields


def standing_record(
    row: StandingRow,
    round_numbers: Iterable[int],
    fields: dict[str, tuple[int, str | None]] | None = None,
) -> StandingRecord:
    """The record of one row; `fields` is `round_fields(round_numbers)`, computed once for the
    table's rows when given."""
    return StandingRecord(
        row,
        round_fields(round_numbers) if fields is None else fields,
        {
            "position": row.position,
            "rank_label": row.rank_label,
            "shared": row.shared,
            "name": row.name,
            "player_id": row.player_id,
            "has_page": row.has_page,
            "club": row.club,
            "team": row.team,
            "place_points": row.place_points,
            "game_points": row.game_points,
        },
    )


class TeamStandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), accessor="rank_label", order_by=("position",))
    team = tables.Column(verbose_name=_("Team"), order_by=("team_key",))
    members = tables.Column(
        verbose_name=_("Players"), orderable=False, attrs={"td": {"class": "team-members"}}
    )
    place_points = PlacePointsColumn(
        verbose_name=_("Place points"), order_by=("place_points", "-position")
    )
    game_points = tables.Column(
        verbose_name=_("Game points"), order_by=("game_points", "-position")
    )

    class Meta:
        attrs = {"class": "list standings-table"}
        empty_text = _("No teams.")
        order_by = ("rank",)

    def render_members(self, value: list[str]) -> str:
        return ", ".join(value)

    @classmethod
    def for_teams(cls, rows: Iterable[TeamRow], **kwargs: Any) -> TeamStandingsTable:
        return cls(
            [
                {
                    "position": position,
                    "rank_label": row.rank_label,
                    "team": row.team,
                    "team_key": display_name_key(row.team),
                    "members": row.members,
                    "place_points": row.place_points,
                    "game_points": row.game_points,
                }
                for position, row in enumerate(rows, start=1)
            ],
            **kwargs,
        )
