"""Admin: seasons (points table, best K, qualifiers) and invitations, also edited on the
federation's pages (/ranking/seasons/, a final's qualification page), which keep an audit log;
the placings and ratings are derived (read only: `manage.py recompute_ranking` rebuilds them)."""

from django.contrib import admin

from ranking.models import Invitation, Placing, PlayerRating, Season
from ranking.ranking_page_cache import season_ranking_changed


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 1
    autocomplete_fields = ("player",)
    raw_id_fields = ("tournament",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "starts_on", "ends_on", "best_k", "qualifiers")
    inlines = (InvitationInline,)

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        season_ranking_changed()  # the season ranking shows the new rules at once


@admin.register(Placing)
class PlacingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "place", "player", "game_points")
    list_select_related = ("tournament", "player")
    search_fields = ("player__full_name", "tournament__name")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("player", "mu", "sigma", "ordinal", "tables")
    list_select_related = ("player",)
    search_fields = ("player__full_name",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
