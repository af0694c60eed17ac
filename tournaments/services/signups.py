"""Registration online: a player registers on the public page (on the list while places are
left, else on the waiting list); the organiser accepts (the registration becomes the
tournament's entry), moves between the two lists, or refuses."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.page_cache import tournament_changed
from engine.names import search_key
from tournaments import selectors
from tournaments.models import AuditEntry, Club, Player, SignUp, SignUpStatus, Tournament
from tournaments.selectors.signups import (
    register_match,
    registered_entry,
    same_person_signup,
    signup_lists,
    signup_open,
)
from tournaments.services.audit_and_locks import ServiceError, audit
from tournaments.services.tournaments import club_create, player_save, registrations_create


class SignUpRefusedError(ServiceError):
    """The registration is refused; `field` names the form's field the message is about (None:
    the whole form)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _where(tournament: Tournament, signup: SignUp) -> str:
    """Where he already is, in words: "number 3 on the list of registered players"."""
    place = signup_lists(tournament=tournament).place_of(signup)
    if signup.status == SignUpStatus.ACCEPTED or place is None:
        return _("the organiser has accepted the registration: you are on the list of players")
    status, number = place
    if status == SignUpStatus.WAITING:
        return _("number %(number)d on the waiting list") % {"number": number}
    return _("number %(number)d on the list of registered players") % {"number": number}


@transaction.atomic
def signup_create(
    *,
    tournament: Tournament,
    full_name: str,
    club: str = "",
    licence_number: str = "",
    contact: str = "",
    by: User | None = None,
    ip_address: str | None = None,
) -> SignUp:
    """Register online: on the list while it has places, else on the waiting list. The same
    person twice (the same register player, licence, or name and club) is refused with where he
    already is; so is a licence that belongs to a player of another name."""
    # The tournament's row: two registrations for the last place are decided one after the other.
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not signup_open(tournament):
        raise SignUpRefusedError(_("Registration online is closed for this tournament."))
    match = register_match(full_name=full_name, club=club, licence_number=licence_number)
    if match.licence_taken_by is not None:
        licence, name = match.licence_taken_by
        raise SignUpRefusedError(
            _("licence %(licence)s already belongs to %(name)s")
            % {"licence": licence, "name": name},
            field="licence_number",
        )
    if registered_entry(tournament=tournament, player=match.player) is not None:
        raise SignUpRefusedError(
            _("%(name)s is already registered in this tournament: you are on the list of players.")
            % {"name": match.player.full_name}
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
            _("%(name)s is already registered online: %(where)s.")
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
    )
    audit(
        action=AuditEntry.Action.SIGNUP_CREATED,
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
    """The register's club of that name (as a search reads it), added when there is none."""
    if not name:
        return None
    wanted = search_key(name)
    for club in Club.objects.all():
        if search_key(club.name) == wanted:
            return club
    return club_create(name=name, city="", by=by, ip_address=ip_address)


@transaction.atomic
def signup_accept(*, signup: SignUp, by: User | None, ip_address: str | None = None) -> SignUp:
    """Accept a registration from either list: its player (the register's, or added to the
    register as typed) is registered in the tournament as the organiser registers players."""
    signup = _locked(signup, SignUpStatus.LISTED, SignUpStatus.WAITING)
    tournament = signup.tournament
    first_round = selectors.round_to_join(tournament=tournament)
    if first_round is None:
        raise ServiceError(
            _("%(name)s cannot be accepted: the tournament has no round left to play.")
            % {"name": signup.full_name}
        )
    player = signup.player
    if player is None:  # he may have been added to the register since he registered
        match = register_match(
            full_name=signup.full_name, club=signup.club, licence_number=signup.licence_number
        )
        player = match.player
        if player is None:
            player = player_save(
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
    entry = registered_entry(tournament=tournament, player=player)
    if entry is None:
        (entry,) = registrations_create(
            tournament=tournament,
            players=[player],
            first_round=first_round,
            by=by,
            ip_address=ip_address,
        )
    signup.player = player
    signup.registration = entry
    was = signup.status
    signup.status = SignUpStatus.ACCEPTED
    signup.save(update_fields=["player", "registration", "status"])
    audit(
        action=AuditEntry.Action.SIGNUP_ACCEPTED,
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
def signup_move(
    *, signup: SignUp, to: str, by: User | None, ip_address: str | None = None
) -> SignUp:
    """Move a registration to the end of the other list (the list of registered players or the
    waiting list). The organiser decides: the list may then hold more than the places."""
    other = {SignUpStatus.LISTED: SignUpStatus.WAITING, SignUpStatus.WAITING: SignUpStatus.LISTED}
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
    audit(
        action=AuditEntry.Action.SIGNUP_MOVED,
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
    """Refuse a registration on either list. The place it frees is not given to the waiting
    list here: the organiser sees the first one waiting and moves him."""
    signup = _locked(signup, SignUpStatus.LISTED, SignUpStatus.WAITING)
    was = signup.status
    signup.status = SignUpStatus.REFUSED
    signup.save(update_fields=["status"])
    audit(
        action=AuditEntry.Action.SIGNUP_REFUSED,
        by=by,
        tournament=signup.tournament,
        ip_address=ip_address,
        player=signup.full_name,
        before=was,
        after=signup.status,
    )
    tournament_changed(signup.tournament_id)
    return signup
