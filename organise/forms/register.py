"""The register: a player, a club, a list of players imported."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.form_fields import field_of
from core.name_fields import NameField
from organise.forms.fields import (
    latvian_choices,
)
from tournaments.models import Club, Player, Tournament
from tournaments.selectors import club_named


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("full_name", "club", "licence_number", "is_active")
        field_classes = {"full_name": NameField, "licence_number": NameField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = field_of(self, "club", forms.ModelChoiceField)
        field.choices = [
            ("", field.empty_label),
            *latvian_choices(Club.objects.all(), name=lambda club: club.name),
        ]


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_("One player a line: name, club, licence. Commas or semicolons."),
    )
    text = forms.CharField(
        label=_("…or paste the lines"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.order_by("-starts_on", "name"),
        to_field_name="slug",
        required=False,
        label=_("Register them in the tournament"),
        empty_label=_("(only add them to the register)"),
        help_text=_("Every player of the list, new or already in the register, is registered."),
    )

    def raw(self) -> bytes:
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read()
        return self.cleaned_data.get("text", "").encode()

    def clean(self) -> dict:
        super().clean()
        cleaned = self.cleaned_data
        if not cleaned.get("file") and not cleaned.get("text", "").strip():
            raise forms.ValidationError(_("choose a CSV file or paste the lines"))
        return cleaned


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "city")
        labels = {"name": _("Club")}
        field_classes = {"name": NameField}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        known = club_named(name)
        if known is not None:
            raise forms.ValidationError(
                _("The register already has the club “%(name)s”: it reads the same."),
                params={"name": known.name},
            )
        return name
