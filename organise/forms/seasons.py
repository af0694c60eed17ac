"""The federation's forms: a season's rules (its points table typed one level per line of text)
and a player invited to a final. Forms check input; ranking.services writes."""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, TypedDict

from django import forms
from django.utils.translation import gettext_lazy as _

from core.choices import choice_label
from core.form_fields import field_of
from engine.errors import SheetError
from engine.ranking import DEFAULT_POINTS_TABLE, MAX_PLACES, PointsTable
from organise.forms.fields import DATE_INPUT, ID_MAX_DIGITS
from ranking.models import Season
from tournaments.models import Level, Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# The levels a season's table gives points for, the most valuable first.
LEVELS = (Level.NATIONAL, Level.DISTRICT, Level.CLUB)
# More points than any table needs for one place: a typing mistake.
MAX_POINTS = 100_000
SEPARATORS = re.compile(r"[\s,;]+")


def level_label(level: str) -> str:
    return choice_label(Level, level)


def points_text(points: list[int] | tuple[int, ...]) -> str:
    return ", ".join(str(value) for value in points)


class PointsField(forms.CharField):
    """A level's ranking points for places 1, 2, 3, … as typed ("100, 85, 75, 68"): a list of
    whole numbers, checked by the engine (engine.ranking.PointsTable); an error names the level
    and the place. Empty: the level earns no points (None)."""

    def __init__(self, *, level: str, **kwargs) -> None:
        self.level = level
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", MAX_PLACES * 8)
        kwargs.setdefault(
            "label", _("Ranking points of %(level)s tournaments") % {"level": level_label(level)}
        )
        kwargs.setdefault(
            "help_text",
            _(
                "Places 1, 2, 3, … separated by commas, e.g. 100, 85, 75, 68. Places after the "
                "last earn 0; leave it empty if tournaments of this level earn no points."
            ),
        )
        super().__init__(**kwargs)

    def _error(self, message, **params: object) -> forms.ValidationError:
        return forms.ValidationError(message, params={"level": level_label(self.level), **params})

    def clean(self, value: object) -> list[int] | None:
        text = super().clean(value).strip(" \t\r\n,;")
        if not text:
            return None
        tokens = SEPARATORS.split(text)
        if len(tokens) > MAX_PLACES:
            raise self._error(
                _("Level “%(level)s”: at most %(most)s places, got %(count)s."),
                most=MAX_PLACES,
                count=len(tokens),
            )
        points = []
        for place, token in enumerate(tokens, start=1):
            if not (token.isascii() and token.isdigit()):
                raise self._error(
                    _(
                        "Level “%(level)s”, place %(place)s: “%(value)s” is not a whole number "
                        "of 0 or more."
                    ),
                    place=place,
                    value=token[:20],
                )
            if int(token) > MAX_POINTS:
                raise self._error(
                    _("Level “%(level)s”, place %(place)s: at most %(most)s points."),
                    place=place,
                    most=MAX_POINTS,
                )
            points.append(int(token))
        # The engine decides; what it refuses is then found place by place to say where.
        try:
            PointsTable.from_mapping({self.level: points})
        except SheetError as error:
            for place in range(2, len(points) + 1):
                if points[place - 1] > points[place - 2]:
                    raise self._error(
                        _(
                            "Level “%(level)s”, place %(place)s: %(points)s points are more "
                            "than place %(previous_place)s gets (%(previous)s); the points must "
                            "not grow with the place."
                        ),
                        place=place,
                        points=points[place - 1],
                        previous_place=place - 1,
                        previous=points[place - 2],
                    ) from None
            raise self._error(_("Level “%(level)s”: %(error)s"), error=error.message) from None
        return points


def points_field_name(level: str) -> str:
    return f"points_{level}"


class SeasonValues(TypedDict):
    """A season's rules as the services take them (ranking.services.season_create)."""

    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    best_k: int
    qualifiers: int
    points_table: dict[str, list[int]]


class SeasonForm(forms.ModelForm):
    """A season's dates, best K, qualifiers and points table (one text field per level). Levels
    of the stored table that no tournament can have (added in the admin) are kept as they are."""

    class Meta:
        model = Season
        fields = ("name", "starts_on", "ends_on", "best_k", "qualifiers")
        widgets = {"starts_on": DATE_INPUT, "ends_on": DATE_INPUT}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        table = (
            self.instance.points_table
            if self.instance.pk is not None and isinstance(self.instance.points_table, dict)
            else DEFAULT_POINTS_TABLE.as_mapping()
        )
        self.other_levels = {
            level: points for level, points in table.items() if level not in Level.values
        }
        field_of(self, "best_k", forms.IntegerField).min_value = 1
        self.fields["best_k"].widget.attrs["min"] = 1
        for level in LEVELS:
            name = points_field_name(level)
            self.fields[name] = PointsField(level=level)
            if isinstance(table.get(level), list):
                self.initial.setdefault(name, points_text(table[level]))

    def points_fields(self) -> list[forms.BoundField]:
        return [self[points_field_name(level)] for level in LEVELS]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.Meta.fields]

    def clean(self) -> dict[str, object]:
        super().clean()
        cleaned = self.cleaned_data
        names = [points_field_name(level) for level in LEVELS]
        if any(name in self.errors for name in names):
            return cleaned
        table = dict(self.other_levels)
        for level in LEVELS:
            points = cleaned.get(points_field_name(level))
            if points:
                table[level] = points
        if not table:
            raise forms.ValidationError(_("Give the ranking points of at least one level."))
        try:
            table = PointsTable.from_mapping(table).as_mapping()
        except SheetError as error:  # a level kept from the admin that the engine refuses
            raise forms.ValidationError(str(error)) from None
        cleaned["points_table"] = table
        # The model checks its table too (Season.clean), when the form validates the instance.
        self.instance.points_table = table
        return cleaned

    def season_values(self) -> SeasonValues:
        """The keyword arguments of services.season_create / season_update."""
        data = self.cleaned_data
        return SeasonValues(
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            best_k=data["best_k"],
            qualifiers=data["qualifiers"],
            points_table=data["points_table"],
        )


class PlayerField(forms.ModelChoiceField):
    """A player by id; an id too long for any key is unknown like any other (SQLite would
    overflow on it)."""

    def to_python(self, value):
        digits = str(value or "").strip().lstrip("+-")
        if len(digits) > ID_MAX_DIGITS:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


SCOPE_FINAL = "final"
SCOPE_SEASON = "season"


class InvitationForm(forms.Form):
    """Invite a player found by a search. Only federation staff invite to every final of the
    season (a final's organisers invite to their final)."""

    player = PlayerField(
        queryset=Player.objects.all(),
        label=_("Player"),
        empty_label=_("– choose –"),
        error_messages={
            "required": _("Find the player by name, then choose him in the list."),
            "invalid_choice": _("Unknown player: choose one in the list."),
        },
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=120,
        required=False,
        help_text=_("e.g. title holder 2025, wild card"),
    )
    scope = forms.ChoiceField(label=_("Invited to"), widget=forms.RadioSelect, initial=SCOPE_FINAL)

    def __init__(
        self, *args, players: list[Player], season: Season, whole_season: bool, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.found = len(players)  # the players the search found, offered in the choice
        field = field_of(self, "player", PlayerField)
        field.choices = [
            ("", field.empty_label),
            *(
                (
                    player.pk,
                    f"{player.full_name} ({player.club})" if player.club else player.full_name,
                )
                for player in players
            ),
        ]
        scopes: list[tuple[str, StrOrPromise]] = [(SCOPE_FINAL, _("this final only"))]
        if whole_season:
            scopes.append(
                (
                    SCOPE_SEASON,
                    _("every final of season %(season)s") % {"season": season.name},
                )
            )
        field_of(self, "scope", forms.ChoiceField).choices = scopes

    @property
    def whole_season(self) -> bool:
        return self.cleaned_data["scope"] == SCOPE_SEASON
