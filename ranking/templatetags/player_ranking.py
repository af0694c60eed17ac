"""The public player page (a scoring page) shows his rating and ranking points: they are the
ranking's, so the page's template asks this tag for them and scoring never imports ranking."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.rating import RatingSpan
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
def player_ranking(
    player: Player, seasons: list[selectors.PlayerSeason] | None = None
) -> dict[str, object]:
    """His ranking points per tournament, season by season (`seasons` when the page has read
    them already), and his rating with its history as a chart."""
    history = selectors.player_rating(player=player)
    return {
        "player": player,
        "ranking_seasons": selectors.player_ranking(player=player) if seasons is None else seasons,
        "rating": history,
        "rating_shown": rating_text(history.current.ordinal) if history.current else "",
        "rating_chart": rating_chart(history.points, _marker_label),
    }


def _place_text(place: float) -> str:
    return number_format(round(place, 1), decimal_pos=1)


def _places_compared(span: RatingSpan) -> int:
    """1: better than expected, -1: worse, 0: as expected. Compared as shown: "2.4 expected,
    2.4 taken" reads as expected, whatever the decimals."""
    expected, actual = round(span.expected_place, 1), round(span.actual_place, 1)
    return (actual < expected) - (actual > expected)


def _places_said(span: RatingSpan) -> str:
    """The places the ratings expected of him and those he took, as the page rounds them."""
    expected, taken = _place_text(span.expected_place), _place_text(span.actual_place)
    if span.tables == 1:
        said = _(
            "At the table the ratings expected place %(expected)s; the place taken was %(taken)s."
        )
    else:
        said = ngettext(
            "At %(count)s table the ratings expected place %(expected)s on average; "
            "the places taken averaged %(taken)s.",
            "At %(count)s tables the ratings expected place %(expected)s on average; "
            "the places taken averaged %(taken)s.",
            span.tables,
        )
    said = said % {"count": span.tables, "expected": expected, "taken": taken}
    verdict = {
        1: _("Better than expected."),
        -1: _("Worse than expected."),
        0: _("As expected."),
    }[_places_compared(span)]
    return f"{said} {verdict}"


def _shown_change(before: float, after: float) -> float:
    # From the figures as shown, so that the change is their difference to the last digit.
    return round(round(after, 2) - round(before, 2), 2)


def _change_said(before: float, after: float, rose: str, fell: str, same: str) -> str:
    change = _shown_change(before, after)
    if change > 0:
        return rose % {"change": rating_text(change)}
    if change < 0:
        return fell % {"change": rating_text(-change)}
    return same


def rating_change_said(span: RatingSpan) -> list[str]:
    """Why his rating moved over the span, in plain sentences from its figures: his places
    beside those expected, then what became of μ, of σ and so of the rating μ − 3σ."""
    mu = _change_said(
        span.before.mu,
        span.after.mu,
        _("The skill estimate μ rose by %(change)s."),
        _("The skill estimate μ fell by %(change)s."),
        _("The skill estimate μ did not change."),
    )
    # The model moves μ by whom a player finished ahead of and behind at each table, not by the
    # mean place: a place below the expected one ahead of a much stronger player can still
    # raise μ. Said when it happened, so that the sentences do not seem to contradict.
    mu_moved = _shown_change(span.before.mu, span.after.mu)
    compared = _places_compared(span)
    weighed = (
        _(
            "μ moves by whom the places were taken ahead of and behind, not by the mean place "
            "alone: finishing ahead of a stronger player counts for more."
        )
        if compared * mu_moved < 0
        else ""
    )
    sigma = _change_said(
        span.before.sigma,
        span.after.sigma,
        _("Its uncertainty σ grew by %(change)s."),
        _("Its uncertainty σ shrank by %(change)s with the tables played."),
        "",
    )
    ordinal = _change_said(
        span.before.ordinal,
        span.after.ordinal,
        _("So the rating μ − 3σ rose by %(change)s."),
        _("So the rating μ − 3σ fell by %(change)s."),
        _("So the rating μ − 3σ did not change."),
    )
    sentences = (_places_said(span), mu, weighed, sigma, ordinal)
    return [sentence for sentence in sentences if sentence]


@register.inclusion_tag("ranking/_rating_change.html")
def rating_change(span: RatingSpan | None) -> dict[str, object]:
    """His rating before and after one tournament, and why it moved."""
    if span is None:
        return {"span": None}
    return {
        "span": span,
        "before": rating_text(span.before.ordinal),
        "after": rating_text(span.after.ordinal),
        "mu_before": rating_text(span.before.mu),
        "sigma_before": rating_text(span.before.sigma),
        "mu_after": rating_text(span.after.mu),
        "sigma_after": rating_text(span.after.sigma),
        "said": " ".join(rating_change_said(span)),
    }
