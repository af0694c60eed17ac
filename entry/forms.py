"""Forms of the table entry page.

They check the shape of the input (whole numbers in range, a choice from the list, what each game
needs) and build the engine's entry; whether the deal could have happened at this table is the
engine's call, made by the services against the whole sheet.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.engine_text import GAME_WORDS
from core.form_fields import field_of
from engine import Galdins, Pass, PenaltyPule, Play, Rules
from engine.deals import SheetLine, galdins_draw_needed
from engine.rules import TOTAL_POINTS, TRICKS_PER_DEAL, Game
from scoring.models import EntryKind
from scoring.sheet.shape import SheetPlayer, SheetRow

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CLIENT_KEY_PATTERN = r"[A-Za-z0-9-]{1,64}"
REASON_MAX_LENGTH = 200  # DealResult.reason
# The browser never fills an entry form from its memory: back after saving a deal, Chromium would
# restore the radio buttons by their position in the page, so the next deal's form came up with
# another declarer chosen (the templates put autocomplete="off" on the <form> tags too).
NO_BROWSER_MEMORY = {"autocomplete": "off"}
NUMBER_ATTRS = {"inputmode": "numeric", **NO_BROWSER_MEMORY}


def game_choices(rules: Rules) -> list[tuple[str, Promise]]:
    """The games this tournament's rule set allows, in the sheet's order."""
    return [(game.value, GAME_WORDS[game.value]) for game in Game if rules.allows(game)]


def choice_buttons() -> forms.RadioSelect:
    return forms.RadioSelect(attrs=NO_BROWSER_MEMORY)


def reason_field(label: StrOrPromise) -> forms.CharField:
    """Why an entry is corrected or removed, a table unlocked: required, stripped."""
    return forms.CharField(
        max_length=REASON_MAX_LENGTH, label=label, widget=forms.TextInput(attrs=NO_BROWSER_MEMORY)
    )


def player_field(label: StrOrPromise, *, required: bool = True) -> forms.ChoiceField:
    """A player at the table, chosen by a button; one who is not (put out of the round on
    another phone meanwhile, say) is refused in words, not by his registration id."""
    return forms.ChoiceField(
        required=required,
        widget=choice_buttons(),
        label=label,
        error_messages={"invalid_choice": _("That player does not sit at this table.")},
    )


def player_choices(players: Sequence[SheetPlayer]) -> list[tuple[str, str]]:
    return [(player.key, player.name) for player in players]


def points_field(**kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        min_value=0,
        max_value=TOTAL_POINTS,
        widget=forms.NumberInput(attrs=NUMBER_ATTRS),
        **kwargs,
    )


def tricks_field(**kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        min_value=0,
        max_value=TRICKS_PER_DEAL,
        widget=forms.NumberInput(attrs=NUMBER_ATTRS),
        **kwargs,
    )


class SubmissionForm(forms.Form):
    """A write to the sheet: the position the page showed, and the device's key for this
    submission (a double tap or a resent request records once)."""

    position = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    client_key = forms.RegexField(
        regex=rf"^{CLIENT_KEY_PATTERN}$", max_length=64, widget=forms.HiddenInput
    )

    def __init__(
        self,
        *args: Any,
        correction: bool = False,
        client_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.is_correction = correction
        self.given_client_key = client_key
        if correction:
            self.fields["base_version"] = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
            self.fields["reason"] = reason_field(_("Why is it corrected?"))

    @cached_property
    def client_key_value(self) -> str:
        """The key to render: the one posted when this same submission comes back with an error
        (nothing was stored under it), otherwise the one given, or a new uuid4."""
        if self.given_client_key is not None:
            return self.given_client_key
        if self.is_bound:
            posted = str(self.data.get(self.add_prefix("client_key"), ""))
            if re.fullmatch(CLIENT_KEY_PATTERN, posted):
                return posted
        return str(uuid.uuid4())


class DealForm(SubmissionForm):
    """A deal: the game, and the declarer's tricks and points (galdiņš: every playing player's)."""

    # At a table of four the form says who sits its deal out (the dealer): the page sends it
    # back, and the deal's players are read by it before the sheet is (see
    # entry.deal_posts.posted_sitting_out).
    SITS_OUT = "sits_out"

    game = forms.ChoiceField(widget=choice_buttons(), label=_("Game"))
    declarer = player_field(_("Declarer"), required=False)
    points = points_field(label=_("Points (acis)"))
    tricks = tricks_field(label=_("Tricks (stiķi)"))

    def __init__(
        self,
        *args: Any,
        players: Sequence[SheetPlayer],
        sitting_out: SheetPlayer | None,
        rules: Rules,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "game", forms.ChoiceField).choices = game_choices(rules)
        # Any seated player validates, so a page that went stale gets the engine's clear
        # message; the buttons offer only the players who may declare this deal.
        declarer = field_of(self, "declarer", forms.ChoiceField)
        declarer.choices = player_choices(players)
        self.playing = [player for player in players if player != sitting_out]
        declarer.widget.choices = player_choices(self.playing)
        self.sitting_out = sitting_out
        if len(players) == 4:
            self.fields[self.SITS_OUT] = forms.CharField(
                required=False,
                widget=forms.HiddenInput,
                initial=sitting_out.key if sitting_out is not None else "",
            )
        self.rules = rules
        self.has_galdins = rules.allows(Game.GALDINS)
        if self.has_galdins:
            for player in self.playing:
                self.fields[f"tricks_{player.key}"] = tricks_field(label=player.name)
                self.fields[f"points_{player.key}"] = points_field(label=player.name)
            # A rondo galdiņš where two tie for the most card points: who drew the card.
            self.fields["draw_loser"] = forms.ChoiceField(
                required=False,
                widget=choice_buttons(),
                label=_("Who drew the card (pays the larger half)?"),
                choices=player_choices(self.playing),
            )
        self.draw_between: tuple[SheetPlayer, SheetPlayer] | None = None

    @property
    def fields_key(self) -> str:
        """What the markup of the next deal's choices and numbers is decided by, when the form
        shows no values (entry/_deal_form.html keeps it rendered under this key, `{% cache %}`);
        "" for a form refused with its values and errors, or a correction: rendered each time."""
        if self.is_bound or self.is_correction:
            return ""
        named = tuple(
            (player.key, player.name, player.short_name, player.initials) for player in self.playing
        )
        sitting_out = self.sitting_out.short_name if self.sitting_out is not None else None
        return repr((get_language(), self.prefix, self.rules, named, sitting_out))

    @property
    def galdins_fields(self) -> list[tuple[SheetPlayer, forms.BoundField, forms.BoundField]]:
        if not self.has_galdins:
            return []
        return [
            (player, self[f"tricks_{player.key}"], self[f"points_{player.key}"])
            for player in self.playing
        ]

    def _galdins(self, tricks: dict[str, int], points: dict[str, int]) -> Galdins | None:
        """The galdiņš entry; when the engine says a card draw decides who pays the larger half,
        the referee is asked who drew (a choice left from an earlier attempt is dropped when no
        draw is needed)."""
        played = Galdins(tricks=tricks, points=points)
        try:
            tied = galdins_draw_needed(played, self.rules)
        except (TypeError, ValueError):  # numbers the engine will refuse with its own message
            return played
        if tied is None:
            return played
        by_key = {player.key: player for player in self.playing}
        self.draw_between = (by_key[tied[0]], by_key[tied[1]])
        field_of(self, "draw_loser", forms.ChoiceField).widget.choices = player_choices(
            self.draw_between
        )
        drawn = self.cleaned_data.get("draw_loser")
        if drawn not in tied:
            self.add_error(
                "draw_loser",
                _(
                    "%(first)s and %(second)s tie for the most card points: they draw a card. "
                    "Choose who drew it; he pays the larger half."
                )
                % {"first": self.draw_between[0].name, "second": self.draw_between[1].name},
            )
            return None
        return Galdins(tricks=tricks, points=points, draw_loser=str(drawn))

    @property
    def draw_loser_field(self) -> forms.BoundField | None:
        """Shown when the last attempt needed the card draw, or a correction has one."""
        if not self.has_galdins:
            return None
        return self["draw_loser"] if self.draw_between or self["draw_loser"].value() else None

    def _require(self, name: str, message: StrOrPromise) -> object:
        value = self.cleaned_data.get(name)
        if value in (None, "") and name not in self.errors:
            self.add_error(name, message)
        return value

    def _required_number(self, name: str, message: StrOrPromise) -> int | None:
        """A number field's whole number; None (and the form has an error) when it is missing."""
        value = self._require(name, message)
        return value if isinstance(value, int) else None

    def _required_numbers(self, prefix: str, message: StrOrPromise) -> dict[str, int]:
        """Each playing player's number (the field `prefix`_key): one missing is left out, and
        the form has an error."""
        numbers = {}
        for player in self.playing:
            number = self._required_number(f"{prefix}_{player.key}", message)
            if number is not None:
                numbers[player.key] = number
        return numbers

    def clean(self) -> dict[str, object]:
        super().clean()
        cleaned = self.cleaned_data
        game = cleaned.get("game")
        if not game:
            return cleaned
        entry: SheetLine | None = None
        if game == Game.PASS:
            entry = Pass()
        elif game == Game.GALDINS:
            all_tricks = self._required_numbers("tricks", _("Enter his tricks (0-8)."))
            all_points = self._required_numbers("points", _("Enter his card points (0-120)."))
            if not self.errors:
                entry = self._galdins(all_tricks, all_points)
        else:
            declarer = self._require("declarer", _("Choose the declarer."))
            declarer_tricks = self._required_number(
                "tricks", _("Enter the declarer's tricks (0-8).")
            )
            declarer_points: int | None = cleaned.get("points")
            if game != Game.MAZA_ZOLE:  # mazā zole is decided by tricks alone
                declarer_points = self._required_number(
                    "points", _("Enter the declarer's card points (0-120).")
                )
            if not self.errors and declarer_tricks is not None:
                entry = Play(
                    Game(game), str(declarer), tricks=declarer_tricks, points=declarer_points
                )
        cleaned["entry"] = entry
        return cleaned


class PenaltyForm(SubmissionForm):
    """A personal pule given by the referee as a penalty (a late player)."""

    player = player_field(_("Player"))

    def __init__(self, *args: Any, players: Sequence[SheetPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "player", forms.ChoiceField).choices = player_choices(players)

    def clean(self) -> dict[str, object]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("player"):
            cleaned["entry"] = PenaltyPule(str(cleaned["player"]))
        return cleaned


class RemoveForm(SubmissionForm):
    """Remove the last entry (typed twice, or a deal that was never played)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, correction=True, **kwargs)
        self.fields["reason"].label = _("Why is it removed?")


class ConfirmForm(forms.Form):
    """A second person confirms the table: a player at the table picks his own name; the chief
    referee, signed in, confirms as himself."""

    confirmer = player_field(_("Who confirms?"))
    # The deals on the sheet the confirmer checked: a deal entered or removed meanwhile from
    # another device makes the confirmation a conflict (above all when time is up and the table
    # is confirmed with the deals it has played).
    deals = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(
        self, *args: Any, players: Sequence[SheetPlayer], needs_confirmer: bool, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if needs_confirmer:
            field_of(self, "confirmer", forms.ChoiceField).choices = player_choices(players)
        else:
            del self.fields["confirmer"]


class AllowDealsForm(forms.Form):
    """The chief referee lets a table play more deals after time, saying why."""

    more = forms.IntegerField(label=_("How many more deals?"), min_value=1, max_value=99, initial=1)
    reason = reason_field(_("Why may the table play more?"))


class UnlockForm(forms.Form):
    # Required, and stripped by the field: a blank reason is refused before the service.
    reason = reason_field(_("Why is it unlocked?"))


def correction_initial(row: SheetRow) -> dict[str, object]:
    """The correction form of an entry, filled in as the entry stands now."""
    result = row.result
    initial: dict[str, object] = {"position": result.position, "base_version": result.version}
    if result.kind == EntryKind.PENALTY:
        initial["player"] = str(result.player_id)
        return initial
    initial["game"] = result.game if result.kind == EntryKind.PLAY else result.kind
    if result.player_id is not None:
        initial["declarer"] = str(result.player_id)
    initial["points"] = result.points
    initial["tricks"] = result.tricks
    for player, tricks, points in row.galdins:
        initial[f"tricks_{player.key}"] = tricks
        initial[f"points_{player.key}"] = points
    if result.galdins and result.galdins.get("draw_loser"):
        initial["draw_loser"] = result.galdins["draw_loser"]
    return initial


# --- Late and absent players ----------------------------------------------------------------------


class LateArrivalForm(forms.Form):
    """A late player came: when (empty: now). The service gives the pule the rules say."""

    player = player_field(_("Who came late?"))
    arrived_at = forms.TimeField(
        label=_("When did he come?"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_("Leave empty for now."),
    )

    def __init__(self, *args: Any, players: Sequence[SheetPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "player", forms.ChoiceField).choices = player_choices(players)


class OutOfRoundForm(forms.Form):
    """A late player did not come by the tournament's deal: he is out of the round."""

    player = player_field(_("Who did not come?"))

    def __init__(self, *args: Any, players: Sequence[SheetPlayer], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "player", forms.ChoiceField).choices = player_choices(players)
