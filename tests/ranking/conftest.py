"""Shared fixtures of the ranking tests: a season of our own (the migration's default season is
removed so nothing else covers the dates), and snapshots of everything the ranking derives."""

from __future__ import annotations

import pytest

from ranking.models import Placing, PlayerRating, RatingChange, Season
from tests.factories import make_season


@pytest.fixture
def season(db) -> Season:
    """Season 2026 (best 6, top 24 qualify), the only season."""
    Season.objects.all().delete()
    return make_season(2026)


def rating_snapshot() -> dict[str, object]:
    """Everything the ranking derived, keyed by names and slugs (not primary keys), exactly."""
    return {
        "ratings": sorted(
            PlayerRating.objects.values_list(
                "player__full_name", "mu", "sigma", "ordinal", "tables"
            )
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "player__full_name",
                "table_result__table__round__tournament__slug",
                "table_result__table__round__number",
                "table_result__table__number",
                "place",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            )
        ),
        "placings": sorted(
            Placing.objects.values_list(
                "tournament__slug", "player__full_name", "place", "game_points"
            )
        ),
    }
