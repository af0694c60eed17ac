"""The ranking app, and where it registers its reactions to scoring's writes (a confirmed table
rates its players) without scoring importing it."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ranking"
    verbose_name = _("Season ranking and ratings")

    def ready(self) -> None:
        # The ranking follows scoring's writes; scoring, below it, calls what is registered here
        # inside its own transaction (scoring/reactions.py).
        from ranking import services
        from scoring import reactions

        reactions.on_table_confirmed(services.rating_apply_table)
        reactions.on_table_unlocked(services.rating_remove_table)
        reactions.on_round_closed(services.ranking_round_closed)
        reactions.on_tournament_imported(services.ranking_tournament_imported)
