"""The ranking app, and where it connects its receivers to scoring's signals (a confirmed table
rates its players) without scoring importing it."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ranking"
    verbose_name = _("Season ranking and ratings")

    def ready(self) -> None:
        # The ranking follows scoring's writes; scoring, below it, sends its signals inside its
        # own transaction (scoring/reactions.py).
        from ranking import receivers
        from scoring import reactions

        reactions.table_confirmed.connect(receivers.table_confirmed)
        reactions.table_unlocked.connect(receivers.table_unlocked)
        reactions.round_closed.connect(receivers.round_closed)
        reactions.tournament_imported.connect(receivers.tournament_imported)
