"""Reads for the tournaments app (HackSoft style: views call these, never the ORM directly)."""

from django.db.models import Prefetch, QuerySet

from tournaments.models import Club, Player


def club_list_with_players() -> QuerySet[Club]:
    """All clubs by name, each with its active players prefetched as `active_players`.

    Two queries whatever the number of clubs (no N+1 when a page lists every club's players).
    """
    active_players = Player.objects.filter(is_active=True).order_by("full_name")
    return Club.objects.order_by("name").prefetch_related(
        Prefetch("players", queryset=active_players, to_attr="active_players")
    )
