"""The public registration form: what a player types about himself, checked field by field."""

from __future__ import annotations

import re
import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from core.name_fields import NameField

# The longest each field stores (signups.models.SignUp).
NAME_MAX = 120
LICENCE_MAX = 20
CONTACT_MAX = 120
# A phone number as people write it: digits, spaces, + - ( ) and dots.
PHONE = re.compile(r"\+?[\d\s().-]+")
PHONE_DIGITS = (6, 15)
# The honeypot: people never see it (its row is hidden by CSS), a bot filling every field does.
HONEYPOT = "website"


def _no_control_characters(value: str) -> None:
    if any(unicodedata.category(character) in ("Cc", "Cs") for character in value):
        raise ValidationError(_("remove the control characters from this field"))


class SignUpForm(forms.Form):
    # Names are cleaned as stored (nothing invisible, one space between words) and a word of
    # two alphabets is refused: a look-alike of a registered player is that player.
    full_name = NameField(
        label=_("Name and surname"),
        max_length=NAME_MAX,
        validators=[_no_control_characters],
    )
    club = NameField(
        label=_("Club"),
        max_length=NAME_MAX,
        required=False,
        validators=[_no_control_characters],
        help_text=_("Leave empty if you play for no club."),
    )
    licence_number = NameField(
        label=_("Federation licence number"),
        max_length=LICENCE_MAX,
        required=False,
        validators=[_no_control_characters],
        help_text=_("If you have one: it finds you in the player register."),
    )
    contact = forms.CharField(
        label=_("E-mail or phone (optional)"),
        max_length=CONTACT_MAX,
        required=False,
        validators=[_no_control_characters],
        help_text=_("Only the organisers see it, to reach you about the tournament."),
    )
    website = forms.CharField(
        label=_("Leave this field empty"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def clean_full_name(self) -> str:
        name = self.cleaned_data["full_name"]
        if not any(character.isalpha() for character in name):
            raise ValidationError(_("write your name and surname in letters"))
        return name

    def clean_licence_number(self) -> str:
        licence = self.cleaned_data["licence_number"].strip()
        if licence and not all(character.isalnum() or character in "-/. " for character in licence):
            raise ValidationError(_("a licence number has letters, digits and hyphens only"))
        return licence

    def clean_contact(self) -> str:
        contact = self.cleaned_data["contact"].strip()
        if not contact:
            return ""
        if "@" in contact:
            try:
                validate_email(contact)
            except ValidationError:
                raise ValidationError(_("write an e-mail address or a phone number")) from None
            return contact
        digits = sum(character.isdigit() for character in contact)
        low, high = PHONE_DIGITS
        if not PHONE.fullmatch(contact) or not low <= digits <= high or not contact.isascii():
            raise ValidationError(_("write an e-mail address or a phone number"))
        return contact

    def clean_website(self) -> str:
        if self.cleaned_data[HONEYPOT]:
            raise ValidationError(_("leave this field empty: it is there to stop automatic forms"))
        return ""
