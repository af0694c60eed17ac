"""The sign-ups online: one decided, the first ones accepted."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from organise.forms.fields import (
    ID_MAX_DIGITS,
)
from tournaments.bounds import (
    MAX_ROUND_NUMBER,
)

# Registration online: the organiser's buttons on a registration (accept, move, refuse).
SIGNUP_ACTIONS = (
    ("accept", _("Accept")),
    ("listed", _("Move to the list")),
    ("waiting", _("Move to the waiting list")),
    ("refuse", _("Refuse")),
)


class SignUpActionForm(forms.Form):
    signup = forms.IntegerField(min_value=1, max_value=10**ID_MAX_DIGITS - 1)
    action = forms.ChoiceField(choices=SIGNUP_ACTIONS)


class SignUpsAcceptForm(forms.Form):
    """Accept the first `count` registrations of the online list in one step."""

    count = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUND_NUMBER,
        label=_("How many, from the top of the list"),
    )
