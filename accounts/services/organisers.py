"""The organisers' accounts (commands call these)."""

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.name_fields import name_problem
from engine.names import clean_name
from tournaments.services.refusal import ServiceError


@dataclass(frozen=True)
class OrganiserAccount:
    username: str
    password: str | None  # the new password, shown once; None when an account was kept as it is


def account_username(username: str) -> str:
    """A new account's username as stored: cleaned as names are (nothing invisible, `clean_name`),
    a valid username, its letters of one alphabet. A ServiceError says what is wrong."""
    username = clean_name(username)
    if not username:
        raise ServiceError(_("the account needs a name"))
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as error:
        raise ServiceError(" ".join(error.messages)) from None
    if problem := name_problem(username, _("Username")):
        raise ServiceError(problem)
    return username


@transaction.atomic
def organiser_account_create(*, username: str, reset: bool = False) -> OrganiserAccount:
    """A staff account (federation staff organise every tournament) with a random password;
    an existing one keeps its password unless `reset`."""
    username = account_username(username)
    user = User.objects.filter(username=username).first()
    if user is not None and not reset:
        return OrganiserAccount(username=username, password=None)
    password = secrets.token_urlsafe(12)
    if user is None:
        user = User(username=username)
    user.is_staff = True
    user.is_active = True
    user.set_password(password)
    user.save()
    return OrganiserAccount(username=username, password=password)
