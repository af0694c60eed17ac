"""Forms of the roles pages (a tournament's people, its table referees) and of the audit log's
filter."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from core.form_fields import field_of
from core.name_fields import NameField
from engine.names import clean_name
from tournaments.models import AuditRecord, Role, Table

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

DATETIME_INPUT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
# The database keeps moments in UTC: a moment on the first or the last day of the calendar can
# fall outside it there (OverflowError), so the range leaves those days out in any time zone.
FIRST_DAY, LAST_DAY = datetime.date(1, 1, 2), datetime.date(9999, 12, 30)


class MomentField(forms.DateTimeField):
    """A date and time the database can compare with its moments."""

    def to_python(
        self, value: str | datetime.datetime | datetime.date | None
    ) -> datetime.datetime | None:
        moment = super().to_python(value)
        if moment is not None and not FIRST_DAY <= moment.date() <= LAST_DAY:
            raise forms.ValidationError(
                _("Enter a date from %(first)s to %(last)s."),
                code="invalid",
                params={"first": FIRST_DAY.isoformat(), "last": LAST_DAY.isoformat()},
            )
        return moment


def role_choices(roles: Sequence[str]) -> list[tuple[str, StrOrPromise]]:
    return [(role, Role(role).label) for role in roles]


class RoleAddForm(forms.Form):
    """Give an existing account a role in the tournament, by its username."""

    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(label=_("Role"))

    def __init__(self, *args: Any, roles: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "role", forms.ChoiceField).choices = role_choices(roles)

    def clean_username(self) -> User:
        username = clean_name(self.cleaned_data["username"])
        # Usernames are case-sensitive; a different case still finds the one account it names.
        user = User.objects.filter(username=username).first()
        if user is None:
            matches = list(User.objects.filter(username__iexact=username)[:2])
            user = matches[0] if len(matches) == 1 else None
        if user is None or not user.is_active:
            raise forms.ValidationError(
                _("No active account is called “%(username)s”: the person signs up first."),
                params={"username": username},
            )
        return user


class RefereeAccountForm(forms.Form):
    """A new account for a table referee (no admin needed): a username and, optionally, the
    person's name; the password is made up and shown once."""

    # Cleaned as names are: a hidden or look-alike letter makes no second "organiser".
    username = NameField(
        max_length=150,
        label=_("Username"),
        validators=[UnicodeUsernameValidator()],
        help_text=_("Letters, digits and . @ + - _ only."),
    )
    full_name = NameField(max_length=150, required=False, label=_("Name"))

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("The username “%(username)s” is already taken."), params={"username": username}
            )
        return username


class RoleRemoveForm(forms.Form):
    user = forms.ModelChoiceField(queryset=User.objects.all(), widget=forms.HiddenInput)
    role = forms.ChoiceField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, roles: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "role", forms.ChoiceField).choices = role_choices(roles)


class TableRefereesForm(forms.Form):
    """One set of ticks per table: the tournament's referees assigned to it."""

    def __init__(
        self,
        *args: Any,
        assignments: Sequence[tuple[Table, list[int]]],
        referees: Sequence[User],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tables = {table.pk: table for table, _assigned in assignments}
        self.referees = {user.pk: user for user in referees}
        choices = [(user.pk, user.get_full_name() or user.username) for user in referees]
        for table, assigned in assignments:
            self.fields[f"table_{table.pk}"] = forms.TypedMultipleChoiceField(
                choices=choices,
                coerce=int,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                label=_("Table %(number)s") % {"number": table.number},
                initial=assigned,
            )

    def changed_assignments(self) -> list[tuple[Table, list[User]]]:
        """The tables whose ticks the organiser changed, with the accounts now ticked (after
        is_valid). Tables left alone are not written, so two organisers assigning different
        tables at once do not undo each other."""
        changed = set(self.changed_data)
        return [
            (table, [self.referees[pk] for pk in self.cleaned_data[name]])
            for pk, table in self.tables.items()
            for name in [f"table_{pk}"]
            if name in changed
        ]


class AuditFilters(TypedDict):
    """The audit log's filters as its selector takes them (tournaments.selectors.audit_records)."""

    table: int | None
    round_number: int | None
    player: str
    action: str
    since: datetime.datetime | None
    until: datetime.datetime | None


class AuditFilterForm(forms.Form):
    """The audit log's filters; each one left empty filters nothing."""

    table = forms.IntegerField(required=False, min_value=1, max_value=9999, label=_("Table"))
    round = forms.IntegerField(required=False, min_value=1, max_value=999, label=_("Round"))
    player = forms.CharField(required=False, max_length=120, label=_("Player"))
    action = forms.ChoiceField(
        required=False,
        choices=[("", _("every action")), *AuditRecord.Action.choices],
        label=_("Action"),
    )
    since = MomentField(required=False, widget=DATETIME_INPUT, label=_("From"))
    until = MomentField(required=False, widget=DATETIME_INPUT, label=_("Until"))

    def clean(self) -> dict[str, object]:
        super().clean()
        cleaned = self.cleaned_data
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and until < since:
            self.add_error("until", _("The end of the time range is before its start."))
        return cleaned

    def filters(self) -> AuditFilters:
        """The selector's keyword arguments from the fields that are valid (after is_valid, a
        bad field is reported and left out, the others still filter; unbound: no filter)."""
        cleaned = getattr(self, "cleaned_data", {})
        return AuditFilters(
            table=cleaned.get("table"),
            round_number=cleaned.get("round"),
            player=cleaned.get("player") or "",
            action=cleaned.get("action") or "",
            since=cleaned.get("since"),
            until=cleaned.get("until"),
        )
