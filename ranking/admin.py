"""Admin: the federation edits seasons (points table, best K, qualifiers) and invitations; the
placings and ratings are derived (read only: `manage.py recompute_ranking` rebuilds them)."""

from django.contrib import admin

from ranking.models import Invitation, Placing, PlayerRating, Season


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 1
    autocomplete_fields = ("player",)
    raw_id_fields = ("tournament",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "starts_on", "ends_on", "best_k", "qualifiers")
    inlines = (InvitationInline,)


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
