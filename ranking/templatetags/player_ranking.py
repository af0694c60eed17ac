"""The public player page (a scoring page) shows his rating and ranking points: they are the
ranking's, so the page's template asks this tag for them and scoring never imports ranking."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ranking import selectors
from ranking.charts import rating_chart
from ranking.ranking_tables import rating_text
from tournaments.models import Player

register = template.Library()


def _marker_label(point: selectors.RatingPoint) -> str:
    return _(
        "%(tournament)s, round %(round)s, table %(table)s: place %(place)s, μ %(mu)s ± %(sigma)s"
    ) % {
        "tournament": point.tournament_name,
        "round": point.round_number,
        "table": point.table_number,
        "place": point.place_label,
        "mu": number_format(point.after.mu, decimal_pos=2),
        "sigma": number_format(point.after.sigma, decimal_pos=2),
    }


@register.inclusion_tag("ranking/_player_ranking.html")
def player_ranking(player: Player) -> dict[str, object]:
    """His ranking points per tournament, season by season, and his rating with its history as
    a chart."""
    history = selectors.player_rating(player=player)
    return {
        "player": player,
        "ranking_seasons": selectors.player_ranking(player=player),
        "rating": history,
        "rating_shown": rating_text(history.current.ordinal) if history.current else "",
        "rating_chart": rating_chart(history.points, _marker_label),
    }
