"""Shared helpers of the ranking tests: snapshots of everything the ranking derives (the season
of their own is tests/conftest.py's `season`)."""

from __future__ import annotations

from ranking.models import Placing, PlayerRating, RatingChange


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
