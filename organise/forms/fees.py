"""Fees: the fee categories, a category given to players, the fees paid."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from core.form_fields import field_of
from core.name_fields import NameField
from organise.forms.fields import (
    IdChoiceField,
    RegistrationChoiceField,
    _labelled,
    latvian_choices,
)
from tournaments.models import FeeCategory, Registration, Tournament
from tournaments.namesakes import namesake_marks

MAX_FEE = Decimal("99999.99")


class FeeCategoryForm(forms.Form):
    """One fee category on the fees page; `category` is its id (empty: a new one)."""

    category = forms.IntegerField(required=False, widget=forms.HiddenInput, min_value=1)
    name = NameField(label=_("Category"), max_length=60, required=False)
    amount = forms.DecimalField(
        label=_("Fee (€)"),
        min_value=Decimal(0),
        max_value=MAX_FEE,
        decimal_places=2,
        required=False,
        localize=True,
    )
    remove = forms.BooleanField(label=_("Remove"), required=False)

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        name = (data.get("name") or "").strip()
        filled = data.get("category") or name or data.get("amount") is not None
        if not self.errors and not data.get("remove") and filled:
            if not name:
                self.add_error("name", _("Name the category."))
            if data.get("amount") is None:
                self.add_error("amount", _("Give the fee, e.g. 15."))
        data["name"] = name
        return data


class FeeCategorySetForm(forms.Form):
    """The entries page's ticks: these players pay the fee of this category."""

    registrations = RegistrationChoiceField(
        queryset=Registration.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    category = IdChoiceField(
        queryset=FeeCategory.objects.none(), label=_("Fee of the ticked players")
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        ticked = field_of(self, "registrations", RegistrationChoiceField)
        ticked.queryset = tournament.registrations.all()
        categories = list(tournament.fee_categories.all())
        category = field_of(self, "category", IdChoiceField)
        category.queryset = tournament.fee_categories.all()
        category.empty_label = None
        # The first category is everyone's already: the one players are given is another.
        if len(categories) > 1:
            category.initial = categories[1].pk


class FeesPaidForm(forms.Form):
    """The check-in's fee ticks: exactly the players ticked have paid."""

    paid = RegistrationChoiceField(
        queryset=Registration.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Fee paid"),
    )

    def __init__(self, *args, tournament, fee_labels: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = field_of(self, "paid", RegistrationChoiceField)
        registered = tournament.registrations.select_related("player")
        field.queryset = registered
        registrations = list(registered)
        marks = namesake_marks(registration.player for registration in registrations)

        def label(registration: Registration) -> str:
            name = _labelled(registration.player.full_name, marks.get(registration.player_id))
            fee = fee_labels.get(registration.pk)
            return f"{name} · {fee}" if fee else name

        field.choices = latvian_choices(
            registrations, name=lambda registration: registration.player.full_name, label=label
        )


FeeCategoryFormSet = forms.formset_factory(
    FeeCategoryForm, extra=2, max_num=20, validate_max=True, absolute_max=20
)
