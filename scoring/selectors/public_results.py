"""What the public pages share: which rounds the public sees, points and ranks as text."""

from __future__ import annotations

from fractions import Fraction

from django.db.models import BooleanField, Count, ExpressionWrapper, OuterRef, Q, Subquery
from django.utils.formats import number_format

from engine.standings import place_text, rank_text
from scoring.models import SeatResult
from tournaments.models import RoundStatus
from tournaments.rule_set import standings_order as standings_order

# Draft rounds are the organiser's work in progress: the public never sees them.
PUBLIC_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY, RoundStatus.CLOSED)


def has_public_result(player: str = "pk") -> ExpressionWrapper:
    """Whether the player (the outer query's field `player`, a Player id) has a public result:
    a confirmed table in a published, in-play or closed round. Only such a player has a public
    page: the register itself (every player, ids in sequence) is not public. An IN over one
    subquery, which the database reads once (PostgreSQL hashes it), not an EXISTS per row: on
    tables without statistics yet, the correlated form ran for minutes over 600 players."""
    players_with_results = SeatResult.objects.filter(
        table_result__table__round__status__in=PUBLIC_STATUSES
    ).values("registration__player_id")
    return ExpressionWrapper(
        Q(**{f"{player}__in": players_with_results}), output_field=BooleanField()
    )


# Rounds whose tables may still change: live pages refresh while one exists.
LIVE_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)

_FRACTION_GLYPHS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
}


def points_text(value: Fraction | int | None) -> str:
    """Place points as a reader expects them: 5, 4⅓, 2½; other fractions (sums of twelfths)
    as a localised decimal with two places (4,58 in Latvian)."""
    if value is None:
        return ""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "−" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if part in _FRACTION_GLYPHS:
        return f"{sign}{whole or ''}{_FRACTION_GLYPHS[part]}"
    return sign + number_format(round(float(abs(value)), 2), decimal_pos=2)


def points_exact(value: Fraction | int | None) -> str | None:
    """Place points exact, as the engine's `places` writes them: "6", "9/2" (for programs: no
    reader rounds a third)."""
    return None if value is None else str(Fraction(value))


def points_number(value: Fraction | int | None) -> int | float | None:
    """Place points for a spreadsheet: a whole number, or a decimal rounded to 2 places."""
    if value is None:
        return None
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else round(float(value), 2)


def tied_at_table() -> Subquery:
    """A SeatResult annotation: how many at its table ended the round with its game points (1
    when nobody tied), so that its place is shown as the span they share (`place_text`)."""
    return Subquery(
        SeatResult.objects.filter(
            table_result=OuterRef("table_result"), game_points=OuterRef("game_points")
        )
        .order_by()
        .values("table_result")
        .annotate(tied=Count("pk"))
        .values("tied")
    )


def seat_place_text(place: int, tied: int) -> str:
    """A seat's place at its table as shown: "2–3" for two tied at place 2."""
    return place_text(place, place + tied - 1)


# A shared rank as the span of places it covers: "2–3" for two players tied at 2.
rank_label = rank_text
