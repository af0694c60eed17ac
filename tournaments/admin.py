"""Admin for clubs and players (options are tuples: immutable class attributes)."""

from django.contrib import admin

from tournaments.models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "city")
    search_fields = ("name", "city")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("full_name", "club", "licence_number", "is_active", "created_at")
    list_filter = ("is_active", "club")
    search_fields = ("full_name", "licence_number", "club__name")
    list_select_related = ("club",)
    autocomplete_fields = ("club",)
