"""Signing up online: a player signs up on the public page (on the list while places are left,
else on the waiting list); the organiser accepts (the sign-up becomes the tournament's
registration), moves between the two lists, or refuses."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.page_cache import tournament_changed
from signups import signup_reactions
from signups.models import SignUp, SignUpStatus
from signups.selectors import (
    register_match,
    registered_entry,
    same_person_signup,
    signup_lists,
    signup_open,
)
from tournaments import selectors
from tournaments.models import AuditRecord, Club, Player, Registration, Tournament
from tournaments.services.audit import audit
from tournaments.services.refusal import ServiceError
from tournaments.services.register import club_create, player_save
from tournaments.services.registrations import registrations_create


class SignUpRefusedError(ServiceError):
    """The sign-up is refused; `field` names the form's field the message is about (None:
    the whole form)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _where(tournament: Tournament, signup: SignUp) -> str:
    """Where the player is already, in words: "number 3 on the list of players"."""
    place = signup_lists(tournament=tournament).place_of(signup)
    if signup.status == SignUpStatus.ACCEPTED or place is None:
        return _("the organiser has accepted the sign-up: you are on the list of players")
    status, number = place
    if status == SignUpStatus.WAITING:
        return _("number %(number)d on the waiting list") % {"number": number}
    return _("number %(number)d on the list of players") % {"number": number}


@transaction.atomic
def signup_create(
    *,
    tournament: Tournament,
    full_name: str,
    club: str = "",
    licence_number: str = "",
    contact: str = "",
    by: User | AnonymousUser | None = None,
    ip_address: str | None = None,
) -> SignUp:
    """Sign up online: on the list while it has places, else on the waiting list. The same
    person twice (the same register player, licence, or name and club) is refused with where he
    already is; so is a licence that belongs to a player of another name (without his name)."""
    # The tournament's row: two sign-ups for the last place are decided one after the other.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not signup_open(tournament):
        raise SignUpRefusedError(_("Signing up online is closed for this tournament."))
    match = register_match(full_name=full_name, club=club, licence_number=licence_number)
    if match.licence_taken_by is not None:
        # Never whose: the register is not public (a visitor would learn a name from it).
        licence, _name = match.licence_taken_by
        raise SignUpRefusedError(
            _(
                "licence %(licence)s belongs to another player: check the number, or ask the "
                "organiser"
            )
            % {"licence": licence},
            field="licence_number",
        )
    registered = registered_entry(tournament=tournament, player=match.player)
    if registered is not None:
        raise SignUpRefusedError(
            _("%(name)s is already registered in this tournament: you are on the list of players.")
            % {"name": registered.player.full_name}
        )
    earlier = same_person_signup(
        tournament=tournament,
        player=match.player,
        full_name=full_name,
        club=club,
        licence_number=licence_number,
    )
    if earlier is not None:
        raise SignUpRefusedError(
            _("%(name)s has signed up already: %(where)s.")
            % {"name": earlier.full_name, "where": _where(tournament, earlier)}
        )
    full = signup_lists(tournament=tournament).full
    signup = SignUp.objects.create(
        tournament=tournament,
        player=match.player,
        full_name=full_name,
        club=club,
        licence_number=licence_number,
        contact=contact,
        status=SignUpStatus.WAITING if full else SignUpStatus.LISTED,
        queued_at=timezone.now(),
        language=translation.get_language() or settings.LANGUAGE_CODE,
    )
    signup_reactions.signup_created.send(SignUp, signup=signup)
    audit(
        action=AuditRecord.Action.SIGNUP_CREATED,
        by=by,  # a visitor: nobody; someone signed in registering a player: him
        tournament=tournament,
        ip_address=ip_address,
        player=full_name,
        club=club,
        status=signup.status,
    )
    tournament_changed(tournament.pk)
    return signup


def _locked(signup: SignUp, *allowed: str) -> SignUp:
    # Its row alone: a bare FOR UPDATE would lock the joined tournament row too.
    signup = (
        SignUp.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=signup.pk)
    )
    if signup.status not in allowed:
        raise ServiceError(
            _("%(name)s is %(status)s: nothing was changed.")
            % {"name": signup.full_name, "status": signup.get_status_display()}
        )
    return signup


def _club_named(name: str, *, by: User | None, ip_address: str | None) -> Club | None:
    """The register's club of that name (as it reads: `selectors.club_named`), added when there
    is none."""
    if not name:
        return None
    return selectors.club_named(name) or club_create(
        name=name, city="", by=by, ip_address=ip_address
    )


def _register_player(signup: SignUp, *, by: User | None, ip_address: str | None) -> Player:
    """The register's player a sign-up names: the one found when he signed up, the one
    added to the register since, or a new one as he typed himself."""
    if signup.player is not None:
        return signup.player
    match = register_match(
        full_name=signup.full_name, club=signup.club, licence_number=signup.licence_number
    )
    if match.player is not None:
        return match.player
    return player_save(
        player=Player(),
        values={
            "full_name": signup.full_name,
            "club": _club_named(signup.club, by=by, ip_address=ip_address),
            # A licence another player holds stays out of the register (it is unique).
            "licence_number": "" if match.licence_taken_by else signup.licence_number,
            "is_active": True,
        },
        by=by,
        ip_address=ip_address,
    )


def _first_round_to_join(tournament: Tournament, name: str | None = None) -> int:
    """The round an accepted player plays from; refused when no round is left to play."""
    first_round = selectors.round_to_join(tournament=tournament)
    if first_round is None:
        if name is None:
            raise ServiceError(
                _("Nobody can be accepted: the tournament has no round left to play.")
            )
        raise ServiceError(
            _("%(name)s cannot be accepted: the tournament has no round left to play.")
            % {"name": name}
        )
    return first_round


def _accepted(
    tournament: Tournament,
    signups: list[SignUp],
    *,
    first_round: int,
    by: User | None,
    ip_address: str | None,
) -> list[Player]:
    """Register the sign-ups' players (those not registered yet, in one step) and mark the
    sign-ups accepted; their players, sign-up by sign-up."""
    players = [_register_player(signup, by=by, ip_address=ip_address) for signup in signups]
    registrations_create(
        tournament=tournament,
        players=list({player.pk: player for player in players}.values()),
        first_round=first_round,
        by=by,
        ip_address=ip_address,
    )
    registrations = {
        registration.player_id: registration
        for registration in Registration.objects.filter(tournament=tournament, player__in=players)
    }
    for signup, player in zip(signups, players, strict=True):
        signup.player = player
        signup.registration = registrations[player.pk]
        signup.status = SignUpStatus.ACCEPTED
        signup.save(update_fields=["player", "registration", "status"])
    return players


@transaction.atomic
def signup_accept(*, signup: SignUp, by: User | None, ip_address: str | None = None) -> SignUp:
    """Accept a sign-up from either list: its player (the register's, or added to the
    register as typed) is registered in the tournament as the organiser registers players,
    from the next round not yet published."""
    signup = _locked(signup, SignUpStatus.LISTED, SignUpStatus.WAITING)
    tournament = signup.tournament
    first_round = _first_round_to_join(tournament, signup.full_name)
    was = signup.status
    (player,) = _accepted(
        tournament, [signup], first_round=first_round, by=by, ip_address=ip_address
    )
    signup_reactions.signups_accepted.send(SignUp, signups=[signup])
    audit(
        action=AuditRecord.Action.SIGNUP_ACCEPTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        player=player.full_name,
        before=was,
        after=signup.status,
    )
    tournament_changed(tournament.pk)
    return signup


@transaction.atomic
def signups_accept(
    *, tournament: Tournament, count: int, by: User | None, ip_address: str | None = None
) -> list[SignUp]:
    """Accept the first `count` sign-ups of the list, in its order,
    in one step (one audit record). Refused, with nothing written, when the list holds fewer or
    when they would fill more than the places."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    first_round = _first_round_to_join(tournament)
    listed = list(
        SignUp.objects.filter(tournament=tournament, status=SignUpStatus.LISTED).order_by(
            "queued_at", "pk"
        )
    )
    if not listed:
        raise ServiceError(_("Nobody is on the list to accept."))
    if not 1 <= count <= len(listed):
        raise ServiceError(
            ngettext(
                "%(listed)d player is on the list: accept 1 to %(listed)d.",
                "%(listed)d players are on the list: accept 1 to %(listed)d.",
                len(listed),
            )
            % {"listed": len(listed)}
        )
    places = tournament.signup_places
    if places is not None:
        registered = Registration.objects.filter(
            tournament=tournament, withdrawn_after_round__isnull=True
        ).count()
        if registered + count > places:
            raise ServiceError(_places_full(places, registered))
    chosen = listed[:count]
    players = _accepted(tournament, chosen, first_round=first_round, by=by, ip_address=ip_address)
    signup_reactions.signups_accepted.send(SignUp, signups=chosen)
    audit(
        action=AuditRecord.Action.SIGNUP_ACCEPTED,
        by=by,
        tournament=tournament,
        ip_address=ip_address,
        players=[player.full_name for player in players],
        before=SignUpStatus.LISTED,
        after=SignUpStatus.ACCEPTED,
    )
    tournament_changed(tournament.pk)
    return chosen


def _places_full(places: int, registered: int) -> str:
    """Why no more (or only so many more) registrations can be accepted, in words."""
    counted = {
        "places": ngettext("%(count)d place", "%(count)d places", places) % {"count": places},
        "registered": ngettext(
            "%(count)d player registered", "%(count)d players registered", registered
        )
        % {"count": registered},
    }
    free = places - registered
    if free <= 0:
        return (
            _(
                "%(places)s and %(registered)s: no more can be accepted. Raise the places in the "
                "settings first."
            )
            % counted
        )
    return _(
        "%(places)s and %(registered)s: at most %(free)d more can be accepted. Accept fewer, "
        "or raise the places in the settings."
    ) % {**counted, "free": free}


@transaction.atomic
def signup_move(
    *, signup: SignUp, to: str, by: User | None, ip_address: str | None = None
) -> SignUp:
    """Move a sign-up to the end of the other list (the list or the waiting list). The
    organiser decides: the list may then hold more than the places."""
    other: dict[str, SignUpStatus] = {
        SignUpStatus.LISTED: SignUpStatus.WAITING,
        SignUpStatus.WAITING: SignUpStatus.LISTED,
    }
    signup = _locked(signup, *other)
    if to != other[signup.status]:
        raise ServiceError(
            _("%(name)s is %(status)s: nothing was changed.")
            % {"name": signup.full_name, "status": signup.get_status_display()}
        )
    was = signup.status
    signup.status = to
    signup.queued_at = timezone.now()
    signup.save(update_fields=["status", "queued_at"])
    signup_reactions.signup_moved.send(SignUp, signup=signup)
    audit(
        action=AuditRecord.Action.SIGNUP_MOVED,
        by=by,
        tournament=signup.tournament,
        ip_address=ip_address,
        player=signup.full_name,
        before=was,
        after=to,
    )
    tournament_changed(signup.tournament_id)
    return signup


@transaction.atomic
def signup_refuse(*, signup: SignUp, by: User | None, ip_address: str | None = None) -> SignUp:
    """Refuse a sign-up on either list. The place it frees is not given to the waiting
    list here: the organiser sees the first one waiting and moves him."""
    signup = _locked(signup, SignUpStatus.LISTED, SignUpStatus.WAITING)
    was = signup.status
    signup.status = SignUpStatus.REFUSED
    signup.save(update_fields=["status"])
    signup_reactions.signup_refused.send(SignUp, signup=signup)
    audit(
        action=AuditRecord.Action.SIGNUP_REFUSED,
        by=by,
        tournament=signup.tournament,
        ip_address=ip_address,
        player=signup.full_name,
        before=was,
        after=signup.status,
    )
    tournament_changed(signup.tournament_id)
    return signup
