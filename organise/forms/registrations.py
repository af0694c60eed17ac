"""Registrations: players registered, a registration changed, a withdrawal."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from core.form_fields import field_of
from core.name_fields import NameField
from engine.names import same_name_key, search_key, search_spellings
from organise.forms.fields import (
    RegistrationChoiceField,
    SearchableCheckboxes,
    _labelled,
    latvian_choices,
)
from tournaments.bounds import (
    MAX_ROUND_NUMBER,
)
from tournaments.models import Player, Registration, Tournament
from tournaments.namesakes import namesake_marks


class RegisterPlayersForm(forms.Form):
    players = RegistrationChoiceField(
        queryset=Player.objects.none(), widget=SearchableCheckboxes, label=_("Players")
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = field_of(self, "players", RegistrationChoiceField)
        unregistered = (
            Player.objects.filter(is_active=True)
            .exclude(registrations__tournament=tournament)
            .select_related("club")
        )
        field.queryset = unregistered
        players = list(unregistered)
        marks = namesake_marks(players)
        field.choices = latvian_choices(
            players,
            name=lambda player: player.full_name,
            label=lambda player: _labelled(
                player.full_name, player.club.name if player.club else "", marks.get(player.pk)
            ),
        )
        field.widget.search_keys = {
            str(player.pk): search_key(f"{player.full_name} {player.club or ''}")
            for player in players
        }
        # What the page's filter needs to key what is typed as search_key does.
        self.search_spellings = json.dumps(search_spellings(), ensure_ascii=False)


class RegistrationForm(forms.ModelForm):
    class Meta:
        model = Registration
        fields = ("team", "fixed_table", "first_round", "fee_category")
        field_classes = {"team": NameField}
        help_texts = {
            "fixed_table": _("Leave empty unless the player needs a particular table."),
            "fee_category": _("Empty: the first fee category (the standard fee)."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only this tournament's fee categories.
        fee_category = field_of(self, "fee_category", forms.ModelChoiceField)
        fee_category.queryset = self.instance.tournament.fee_categories.all()

    def clean_team(self) -> str:
        """A team that reads as one of the tournament's (another case, a look-alike letter) is
        that team, spelt as it is: the team standings group the registrations by the team's text."""
        team = self.cleaned_data["team"]
        if not team:
            return team
        teams = (
            Registration.objects.filter(tournament=self.instance.tournament_id)
            .exclude(pk=self.instance.pk)
            .exclude(team="")
            .order_by("pk")
            .values_list("team", flat=True)
        )
        key = same_name_key(team)
        return next((known for known in teams if same_name_key(known) == key), team)


class WithdrawForm(forms.Form):
    after_round = forms.IntegerField(
        min_value=0,
        max_value=MAX_ROUND_NUMBER,
        label=_("Withdraws after round"),
        help_text=_("0: before round 1."),
    )
