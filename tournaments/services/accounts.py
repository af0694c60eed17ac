"""The demonstration data and the organisers' accounts (commands call these)."""

import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.name_fields import name_problem
from engine.names import clean_name
from tournaments.models import (
    Club,
    Player,
)
from tournaments.services.audit_and_locks import ServiceError

# (club name, city)
DEMO_CLUBS: list[tuple[str, str]] = [
    ("Rīgas Zoles klubs", "Rīga"),
    ("Liepājas Dūzis", "Liepāja"),
    ("Daugavpils Kārtis", "Daugavpils"),
    ("Cēsu Pule", "Cēsis"),
]

# (full name, club name): three players per club, with every Latvian diacritic somewhere.
DEMO_PLAYERS: list[tuple[str, str]] = [
    ("Jānis Bērziņš", "Rīgas Zoles klubs"),
    ("Anna Ozoliņa", "Rīgas Zoles klubs"),
    ("Pēteris Kalniņš", "Rīgas Zoles klubs"),
    ("Līga Liepiņa", "Liepājas Dūzis"),
    ("Ģirts Šteins", "Liepājas Dūzis"),
    ("Ērika Žagare", "Liepājas Dūzis"),
    ("Kārlis Čakste", "Daugavpils Kārtis"),
    ("Ieva Ķikute", "Daugavpils Kārtis"),
    ("Ņikita Ļebedevs", "Daugavpils Kārtis"),
    ("Dace Krūmiņa", "Cēsu Pule"),
    ("Edgars Vītols", "Cēsu Pule"),
    ("Māra Zariņa", "Cēsu Pule"),
]


@transaction.atomic
def demo_load() -> dict[str, int]:
    """Create the demo clubs and players if missing; safe to run any number of times.

    Returns how many clubs and players this call created (zero on a repeat run).
    """
    clubs: dict[str, Club] = {}
    clubs_created = 0
    for name, city in DEMO_CLUBS:
        club, created = Club.objects.get_or_create(name=name, defaults={"city": city})
        clubs[name] = club
        clubs_created += int(created)

    players_created = 0
    for full_name, club_name in DEMO_PLAYERS:
        # Keyed on name and club: demo players have no licence number to identify them by.
        _player, created = Player.objects.get_or_create(full_name=full_name, club=clubs[club_name])
        players_created += int(created)

    return {"clubs": clubs_created, "players": players_created}


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
