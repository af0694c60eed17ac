"""Registration online: whether it is open, the list of registered players and the waiting
list, numbered, and the register's player a registration names."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from signups.models import SignUp, SignUpStatus
from tournaments.models import Player, Registration, Tournament
from tournaments.namesakes import licence_key, name_key
from tournaments.selectors.rounds import round_to_join

# Where a registration still stands on a list (a refused one is on none).
ON_A_LIST = (SignUpStatus.LISTED, SignUpStatus.WAITING, SignUpStatus.ACCEPTED)


def signup_open(tournament: Tournament, *, now: datetime.datetime | None = None) -> bool:
    """Signing up online is open until its moment (no moment: closed) and until round 1 is
    published, or the round the organiser allows late sign-ups until; a tournament with no
    round left to join takes no one."""
    until = tournament.signup_until
    if until is None or (now or timezone.now()) >= until:
        return False
    joins = round_to_join(tournament=tournament)
    return joins is not None and joins <= (tournament.signup_late_until_round or 1)


@dataclass(frozen=True)
class ListedPlayer:
    """A line of a public list: names and clubs only (never the contact)."""

    number: int
    full_name: str
    club: str
    signup: SignUp | None  # None: registered by the organiser


@dataclass(frozen=True)
class SignUpLists:
    registered: list[ListedPlayer]  # the tournament's registrations and those listed online
    waiting: list[ListedPlayer]
    places: int | None

    @property
    def free_places(self) -> int | None:
        if self.places is None:
            return None
        return max(self.places - len(self.registered), 0)

    @property
    def full(self) -> bool:
        return self.places is not None and len(self.registered) >= self.places

    @property
    def listed_online(self) -> int:
        """The registrations on the list the organiser has not accepted yet."""
        return sum(
            1
            for line in self.registered
            if line.signup is not None and line.signup.status == SignUpStatus.LISTED
        )

    @property
    def acceptable(self) -> int:
        """How many of those the places still take (all of them without a limit)."""
        listed = self.listed_online
        if self.places is None:
            return listed
        return max(0, min(listed, self.places - (len(self.registered) - listed)))

    def place_of(self, signup: SignUp) -> tuple[str, int] | None:
        """("listed" or "waiting", his number), or None when he is on no list."""
        for status, players in (
            (SignUpStatus.LISTED, self.registered),
            (SignUpStatus.WAITING, self.waiting),
        ):
            for listed in players:
                if listed.signup is not None and listed.signup.pk == signup.pk:
                    return status, listed.number
        return None


def signup_lists(*, tournament: Tournament) -> SignUpLists:
    """The list of registered players: the tournament's registrations (not withdrawn) and the
    players listed online, in the order they came (an accepted one keeps his time on the list);
    then the waiting list in its order. Each numbered from 1."""
    signups = list(
        SignUp.objects.filter(tournament=tournament, status__in=ON_A_LIST).order_by(
            "queued_at", "pk"
        )
    )
    by_registration = {
        signup.registration_id: signup for signup in signups if signup.registration_id
    }
    lines: list[tuple[datetime.datetime, int, str, str, SignUp | None]] = []
    registrations = Registration.objects.filter(
        tournament=tournament, withdrawn_after_round__isnull=True
    ).select_related("player__club")
    for registration in registrations:
        signup = by_registration.get(registration.pk)
        lines.append(
            (
                signup.queued_at if signup else registration.registered_at,
                registration.pk,
                registration.player.full_name,
                registration.player.club.name if registration.player.club else "",
                signup,
            )
        )
    for signup in signups:
        if signup.status == SignUpStatus.LISTED:
            lines.append((signup.queued_at, 0, signup.full_name, signup.club, signup))
    lines.sort(key=lambda line: (line[0], line[1], line[4].pk if line[4] else 0))
    registered = [
        ListedPlayer(number, name, club, signup)
        for number, (_at, _pk, name, club, signup) in enumerate(lines, start=1)
    ]
    waiting = [
        ListedPlayer(number, signup.full_name, signup.club, signup)
        for number, signup in enumerate(
            (signup for signup in signups if signup.status == SignUpStatus.WAITING), start=1
        )
    ]
    return SignUpLists(registered, waiting, tournament.signup_places)


def signups_to_decide(*, tournament: Tournament) -> int | None:
    """How many online registrations wait for the organiser (listed or waiting); None when
    registration online is closed and nobody ever registered online."""
    signups = SignUp.objects.filter(tournament=tournament)
    if not signup_open(tournament) and not signups.exists():
        return None
    return signups.filter(status__in=(SignUpStatus.LISTED, SignUpStatus.WAITING)).count()


def organiser_signups(*, tournament: Tournament) -> list[SignUp]:
    """Every online registration of the tournament, for its organisers (contact included)."""
    return list(
        SignUp.objects.filter(tournament=tournament)
        .select_related("player__club", "registration")
        .order_by("queued_at", "pk")
    )


@dataclass(frozen=True)
class RegisterMatch:
    """The register's player a registration names, or why it cannot name one."""

    player: Player | None
    # The licence belongs to a player of another name: (the licence as stored, his name).
    licence_taken_by: tuple[str, str] | None = None


def register_match(*, full_name: str, club: str, licence_number: str) -> RegisterMatch:
    """The player of the register the typed name, club and licence stand for, by the rules of
    the player import (tournaments/services/player_import.py): a licence names its player
    (when the names agree as a search reads them); without one, the same name and club (no
    case, no diacritics) name the first such player, unless both have licences, which then
    differ."""
    if licence_number:
        wanted = licence_key(licence_number)
        for player in Player.objects.exclude(licence_number="").select_related("club"):
            if licence_key(player.licence_number) == wanted:
                if name_key(player.full_name, "")[0] != name_key(full_name, "")[0]:
                    return RegisterMatch(None, (player.licence_number, player.full_name))
                return RegisterMatch(player)
    wanted_name = name_key(full_name, club)
    for player in Player.objects.select_related("club").order_by("pk"):
        if player.licence_number and licence_number:
            continue
        if name_key(player.full_name, player.club.name if player.club else "") == wanted_name:
            return RegisterMatch(player)
    return RegisterMatch(None)


def same_person_signup(
    *, tournament: Tournament, player: Player | None, full_name: str, club: str, licence_number: str
) -> SignUp | None:
    """The tournament's online registration, still on a list, that names the same person: the
    same register player, the same licence, or the same name and club (unless both have
    licences, which then differ)."""
    wanted_name = name_key(full_name, club)
    wanted_licence = licence_key(licence_number) if licence_number else ""
    for signup in SignUp.objects.filter(tournament=tournament, status__in=ON_A_LIST):
        if player is not None and signup.player_id == player.pk:
            return signup
        if wanted_licence and signup.licence_number:
            if licence_key(signup.licence_number) == wanted_licence:
                return signup
            continue
        if name_key(signup.full_name, signup.club) == wanted_name:
            return signup
    return None


def registered_entry(*, tournament: Tournament, player: Player | None) -> Registration | None:
    if player is None:
        return None
    return Registration.objects.filter(tournament=tournament, player=player).first()
