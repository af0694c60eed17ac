"""The season ranking's and the rating list's lean rows (core.lean_tables.LeanRowsTable) are the
HTML django-tables2's own template renders, cell for cell: the same columns, classes, links,
defaults, number formats and escaping, on any page and in any order."""

from __future__ import annotations

import pytest
from django.utils import translation

from ranking.ranking_tables import RatingTable, SeasonRankingTable
from ranking.selectors import RankingRow, RatingRow
from tests.lean_tables import rendered_both_ways


def ranking_row(position: int, name: str, **changes) -> RankingRow:
    values = {
        "position": position,
        "rank": position,
        "rank_label": str(position),
        "shared": False,
        "player_id": 200 + position,
        "name": name,
        "club_id": 1,
        "club": "Rīgas Zolītes",
        "points": 40 - position,
        "wins": 2,
        "game_points": 30 - 4 * position,
        "counted": 3,
        "events": 4,
        "has_page": True,
    }
    values.update(changes)
    return RankingRow(**values)


RANKING = [
    ranking_row(1, "Anna Bērziņa"),
    ranking_row(2, "<b>Ojārs</b> & Co", rank=2, rank_label="2–3", shared=True, club=""),
    ranking_row(3, "Jānis Ozols", rank=2, rank_label="2–3", shared=True, has_page=False),
    ranking_row(4, "=SUM(A1)", club="<i>Ventspils</i>", game_points=0, wins=0),
    ranking_row(5, "Līga Liepa", points=0, game_points=-12, counted=1, events=1),
]


def rating_row(position: int, name: str, **changes) -> RatingRow:
    values = {
        "position": position,
        "rank": position,
        "player_id": 300 + position,
        "name": name,
        "club": "Rīgas Zolītes",
        "mu": 31.2345 - position,
        "sigma": 2.5 + position / 7,
        "ordinal": 23.7345 - 2 * position,
        "tables": 40 * position,
        "has_page": True,
    }
    values.update(changes)
    return RatingRow(**values)


RATINGS = [
    rating_row(1, "Anna Bērziņa", mu=1234.5678),
    rating_row(2, "<b>Ojārs</b> & Co", club="", has_page=False),
    rating_row(3, "Jānis Ozols", ordinal=-3.005),
    rating_row(4, "Pēteris Kalns", sigma=8.333333),
]

QUERIES = ["", "?page=2", "?sort=-name", "?sort=club&page=2", "?sort=-game_points", "?sort=mu"]


@pytest.mark.parametrize("language", ["lv", "en"])
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize(
    ("table", "rows"),
    [(SeasonRankingTable, RANKING), (RatingTable, RATINGS)],
    ids=["season", "rating"],
)
def test_the_lean_rows_are_django_tables2s(rf, table, rows, query, language):
    with translation.override(language):
        lean, plain = rendered_both_ways(lambda: table.for_rows(rows), rf, query)

    assert "<tbody" in lean and "<td" in lean
    assert lean == plain


def test_the_lean_rows_mark_shared_ranks_link_players_with_a_page_and_escape_names(rf):
    lean, plain = rendered_both_ways(lambda: SeasonRankingTable.for_rows(RANKING), rf, "")

    assert lean == plain
    assert lean.count('class="shared-rankodd"') + lean.count('class="shared-rankeven"') == 2
    assert "&lt;b&gt;Ojārs&lt;/b&gt;&amp;Co" in lean  # whitespace removed by rendered_both_ways
    assert "/players/203/" not in lean and "/players/201/" in lean


def test_a_rating_is_rounded_to_two_places_in_the_readers_number_format(rf):
    # As the export rounds it (DecimalColumn.value): 1234.5678 is 1234,57, not cut to 1234,56.
    with translation.override("lv"):
        lean, _plain = rendered_both_ways(lambda: RatingTable.for_rows(RATINGS[:1]), rf, "")

    assert "<td>1234,57</td>" in lean


@pytest.mark.parametrize("table", [SeasonRankingTable, RatingTable])
def test_no_rows_shows_the_empty_text(rf, table):
    lean, plain = rendered_both_ways(lambda: table.for_rows([]), rf, "")

    assert lean == plain
    assert "colspan" in lean
