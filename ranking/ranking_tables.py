"""django-tables2 tables of the season ranking and the rating list, exportable as CSV and XLSX
(through core.lean_tables.export_response, which disarms spreadsheet formulas in names)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from core.engine_text import display_name_key
from core.lean_tables import LeanRowsTable, player_url
from ranking.selectors import RankingRow, RatingRow


def _row_class(record: dict[str, Any]) -> str:
    return "shared-rank" if record.get("shared") else ""


def rating_text(value: float) -> str:
    """A rating as every page shows it: the player's page says the number the list shows."""
    # Rounded first, as the export is: number_format cuts the digits after the second.
    return number_format(round(value, 2), decimal_pos=2)


class DecimalColumn(tables.Column):
    """A rating: 27,43 on the page (localised, two places), 27.43 in the export."""

    def render(self, value: float) -> str:
        return rating_text(value)

    # django-tables2 calls it with keywords and each column takes those it reads.
    def value(self, value: float) -> float:  # type: ignore[override]
        return round(value, 2)


class SeasonRankingTable(LeanRowsTable):
    rank = tables.Column(verbose_name=_("Rank"), accessor="rank_label", order_by=("position",))
    name = tables.Column(verbose_name=_("Player"), order_by=("name_key",), linkify=player_url)
    club = tables.Column(verbose_name=_("Club"), order_by=("club_key",), default="")
    points = tables.Column(verbose_name=_("Ranking points"), order_by=("points", "-position"))
    wins = tables.Column(verbose_name=_("Wins"), order_by=("wins", "-position"))
    game_points = tables.Column(
        verbose_name=_("Game points"), order_by=("game_points", "-position")
    )
    counted = tables.Column(
        verbose_name=_("Counted"), order_by=("counted", "-position"), attrs={"td": {"class": "num"}}
    )
    events = tables.Column(verbose_name=_("Tournaments"), order_by=("events", "-position"))

    class Meta:
        attrs = {"class": "list standings-table ranking-table"}
        row_attrs = {"class": _row_class}
        empty_text = _("No finished tournaments in this season yet.")
        order_by = ("rank",)
        template_name = "_lean_table.html"

    @classmethod
    def for_rows(cls, rows: Iterable[RankingRow], **kwargs: Any) -> SeasonRankingTable:
        return cls(
            [
                {
                    "position": row.position,
                    "rank_label": row.rank_label,
                    "shared": row.shared,
                    "player_id": row.player_id,
                    "has_page": row.has_page,
                    "name": row.name,
                    "name_key": display_name_key(row.name),
                    "club": row.club,
                    "club_key": display_name_key(row.club),
                    "points": row.points,
                    "wins": row.wins,
                    "game_points": row.game_points,
                    "counted": row.counted,
                    "events": row.events,
                }
                for row in rows
            ],
            **kwargs,
        )


class RatingTable(LeanRowsTable):
    rank = tables.Column(verbose_name=_("Rank"), order_by=("position",))
    name = tables.Column(verbose_name=_("Player"), order_by=("name_key",), linkify=player_url)
    club = tables.Column(verbose_name=_("Club"), order_by=("club_key",), default="")
    ordinal = DecimalColumn(verbose_name=_("Rating (μ − 3σ)"), order_by=("ordinal", "-position"))
    mu = DecimalColumn(verbose_name=_("Skill μ"), order_by=("mu", "-position"))
    sigma = DecimalColumn(verbose_name=_("Uncertainty σ"), order_by=("sigma", "-position"))
    played = tables.Column(verbose_name=_("Tables"), order_by=("played", "-position"))

    class Meta:
        attrs = {"class": "list standings-table rating-table"}
        empty_text = _("No rated tables yet.")
        order_by = ("rank",)
        template_name = "_lean_table.html"

    @classmethod
    def for_rows(cls, rows: Iterable[RatingRow], **kwargs: Any) -> RatingTable:
        return cls(
            [
                {
                    "position": row.position,
                    "rank": row.rank,
                    "player_id": row.player_id,
                    "has_page": row.has_page,
                    "name": row.name,
                    "name_key": display_name_key(row.name),
                    "club": row.club,
                    "club_key": display_name_key(row.club),
                    "ordinal": row.ordinal,
                    "mu": row.mu,
                    "sigma": row.sigma,
                    "played": row.tables,
                }
                for row in rows
            ],
            **kwargs,
        )
