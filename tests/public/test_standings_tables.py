"""The standings table's lean rows (StandingsTable.body_html) are the HTML django-tables2's own
template renders, cell for cell: the same columns, classes, links, defaults and escaping."""

from __future__ import annotations

from fractions import Fraction

import pytest

from public.standings_tables import StandingsTable
from scoring.selectors import RoundCell, StandingRow
from tests.lean_tables import rendered_both_ways


def row(position: int, name: str, **changes) -> StandingRow:
    values = {
        "position": position,
        "rank": position,
        "rank_label": str(position),
        "shared": False,
        "registration_id": position,
        "player_id": 100 + position,
        "name": name,
        "club": "Rīgas Zolītes",
        "team": "",
        "place_points": Fraction(13, 3),
        "game_points": 12 - position,
        "wins": 1,
        "rounds": {
            1: RoundCell(game_points=7, place_points=Fraction(2), place=2),
            2: RoundCell(game_points=-3, place_points=Fraction(7, 3), place=1),
        },
        "has_page": True,
    }
    values.update(changes)
    return StandingRow(**values)


ROWS = [
    row(1, "Anna Bērziņa"),
    row(2, "<b>Ojārs</b> & Co", rank=2, rank_label="2–3", shared=True, club=""),
    row(3, "Jānis Ozols", rank=2, rank_label="2–3", shared=True, has_page=False),
    row(
        4,
        "Pēteris Kalns",
        team="=SUM(A1)",
        rounds={
            2: RoundCell(game_points=0, place_points=Fraction(1, 12), place=3, provisional=True)
        },
    ),
    row(5, "Līga Liepa", game_points=0, place_points=Fraction(0), rounds={}),
]


@pytest.mark.parametrize(
    "query", ["", "?page=2", "?sort=-name", "?sort=round_2", "?sort=club&page=2"]
)
@pytest.mark.parametrize("with_team", [False, True])
@pytest.mark.parametrize("with_provisional", [False, True])
def test_the_lean_rows_are_django_tables2s(rf, query, with_team, with_provisional):
    def table():
        return StandingsTable.for_standings(
            ROWS, round_numbers=[1, 2], with_team=with_team, with_provisional=with_provisional
        )

    lean, plain = rendered_both_ways(table, rf, query)

    assert "<tbody" in lean and "<td" in lean
    assert lean == plain


def test_no_rows_shows_the_empty_text(rf):
    def table():
        return StandingsTable.for_standings(
            [], round_numbers=[], with_team=False, with_provisional=False
        )

    lean, plain = rendered_both_ways(table, rf, "")

    assert lean == plain
    assert "colspan" in lean
