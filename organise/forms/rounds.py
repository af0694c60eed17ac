"""A round: who is present, the seating generated, two players swapped."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.form_fields import field_of
from organise.forms.fields import (
    RegistrationChoiceField,
    _labelled,
    latvian_choices,
)
from tournaments.models import Registration, SeatingMode
from tournaments.namesakes import namesake_marks


class CheckInForm(forms.Form):
    registrations = RegistrationChoiceField(
        queryset=Registration.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Present"),
    )

    def __init__(self, *args, round_, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = field_of(self, "registrations", forms.ModelMultipleChoiceField)
        registered = round_.tournament.registrations.select_related("player")
        field.queryset = registered
        registrations = list(registered)
        marks = namesake_marks(registration.player for registration in registrations)
        field.choices = latvian_choices(
            registrations,
            name=lambda registration: registration.player.full_name,
            label=lambda registration: _labelled(
                registration.player.full_name, marks.get(registration.player_id)
            ),
        )


class GenerateSeatingForm(forms.Form):
    mode = forms.ChoiceField(choices=SeatingMode.choices, label=_("Seating"))
    seed = forms.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        label=_("Seed"),
        help_text=_("Empty: a new random seed. The same seed gives the same seating."),
    )
    confirmation = forms.CharField(required=False, label=_("Confirmation"))


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("Swap"))
    second = forms.ModelChoiceField(queryset=Registration.objects.none(), label=_("with"))

    def __init__(self, *args, round_, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        seated = Registration.objects.filter(seats__table__round=round_).select_related("player")
        names = latvian_choices(seated, name=lambda registration: registration.player.full_name)
        choices = [("", "---------"), *names]
        for name in ("first", "second"):
            field = field_of(self, name, forms.ModelChoiceField)
            field.queryset = seated
            field.choices = choices
