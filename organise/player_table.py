"""django-tables2 tables of the organiser pages (sortable, exportable)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player


class PlayerTable(tables.Table):
    # Rows come sorted in Python (selectors.player_list): by their keys in the reader's order.
    full_name = tables.LinkColumn(
        "organise:player_edit",
        args=[tables.A("pk")],
        verbose_name=_("Player"),
        order_by=("name_key",),
    )
    club = tables.Column(verbose_name=_("Club"), order_by=("club_key",))
    licence_number = tables.Column(verbose_name=_("Licence"))
    is_active = tables.BooleanColumn(verbose_name=_("Active"))

    class Meta:
        model = Player
        fields = ("full_name", "club", "licence_number", "is_active")
        attrs = {"class": "list"}
        empty_text = _("No players yet.")
        template_name = "organise/_table.html"  # pagination words in our catalogue
