"""A tournament's people: its organisers, chief referees and table referees, and referee
accounts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.access import organiser_required, role_manager_required, round_or_404
from accounts.selectors import role_holders, round_referee_assignments, tournament_people
from accounts.services.roles import (
    NewAccount,
    referee_account_create,
    role_grant,
    role_revoke,
    tables_referees_set,
)
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from organise.forms.people import (
    RefereeAccountForm,
    RoleAddForm,
    RoleRemoveForm,
    TableRefereesForm,
)
from tournaments import permissions, services
from tournaments.models import Role, Tournament

# What the roles page says after giving or taking a role: one sentence per role, so that each
# language can put the role's name in the form its sentence needs.
ROLE_MESSAGES = {
    Role.ORGANISER: {
        "granted": gettext_lazy("%(name)s is now an organiser of the tournament."),
        "already": gettext_lazy("%(name)s already was an organiser of the tournament."),
        "revoked": gettext_lazy("%(name)s is no longer an organiser of the tournament."),
        "absent": gettext_lazy("%(name)s was not an organiser of the tournament."),
    },
    Role.CHIEF_REFEREE: {
        "granted": gettext_lazy("%(name)s is now a chief referee of the tournament."),
        "already": gettext_lazy("%(name)s already was a chief referee of the tournament."),
        "revoked": gettext_lazy("%(name)s is no longer a chief referee of the tournament."),
        "absent": gettext_lazy("%(name)s was not a chief referee of the tournament."),
    },
    Role.REFEREE: {
        "granted": gettext_lazy("%(name)s is now a table referee of the tournament."),
        "already": gettext_lazy("%(name)s already was a table referee of the tournament."),
        "revoked": gettext_lazy("%(name)s is no longer a table referee of the tournament."),
        "absent": gettext_lazy("%(name)s was not a table referee of the tournament."),
    },
}


def _role_message(role: str, outcome: str, user: User) -> str:
    return str(ROLE_MESSAGES[Role(role)][outcome]) % {"name": user.username}


@role_manager_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_roles(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Who organises and referees the tournament; whoever may give a role adds people to it by
    username (tournaments.permissions.can_manage_role: organisers the table referees, staff and the
    chief referees the chief referees)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    manageable = permissions.manageable_roles(request.user, tournament)
    if request.method == "POST" and "account-username" in request.POST:
        if Role.REFEREE not in manageable:  # accounts are made for the referees one appoints
            raise PermissionDenied(ROLE_REMOVAL_REFUSALS[Role.REFEREE])
        return _referee_account_create(request, tournament, manageable)
    form = RoleAddForm(request.POST or None, roles=manageable, initial={"role": Role.REFEREE})
    if request.method == "POST" and form.is_valid():
        user, role = form.cleaned_data["username"], form.cleaned_data["role"]
        try:
            added = role_grant(
                tournament=tournament,
                user=user,
                role=role,
                by=request.user,
                ip_address=client_ip(request),
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            if added:
                messages.success(request, _role_message(role, "granted", user))
            else:
                messages.info(request, _role_message(role, "already", user))
            return redirect("organise:roles", slug=slug)
    return _roles_page(request, tournament, manageable, form=form)


def _roles_page(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    manageable: list[str],
    *,
    form: RoleAddForm | None = None,
    account_form: RefereeAccountForm | None = None,
    new_account: NewAccount | None = None,
) -> HttpResponse:
    return render(
        request,
        "organise/roles.html",
        {
            "tournament": tournament,
            "form": form or RoleAddForm(roles=manageable, initial={"role": Role.REFEREE}),
            "is_organiser": permissions.is_organiser(request.user, tournament),
            "account_form": account_form or RefereeAccountForm(prefix="account"),
            "can_create_accounts": Role.REFEREE in manageable,
            "new_account": new_account,
            "people": [
                (Role(role), holders, role in manageable)
                for role, holders in tournament_people(tournament=tournament).items()
            ],
        },
    )


def _referee_account_create(
    request: AuthenticatedHttpRequest, tournament: Tournament, manageable: list[str]
) -> HttpResponse:
    """A new referee account: the page answers directly (never stored, never cached) with the
    password to hand over, shown this once."""
    account_form = RefereeAccountForm(request.POST, prefix="account")
    shown_form: RefereeAccountForm | None = account_form  # None once the account is made
    new_account = None
    if account_form.is_valid():
        try:
            new_account = referee_account_create(
                tournament=tournament,
                username=account_form.cleaned_data["username"],
                full_name=account_form.cleaned_data["full_name"],
                by=request.user,
                ip_address=client_ip(request),
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            shown_form = None
    response = _roles_page(
        request, tournament, manageable, account_form=shown_form, new_account=new_account
    )
    add_never_cache_headers(response)
    return response


ROLE_REMOVAL_REFUSALS = {
    Role.ORGANISER: gettext_lazy("Only federation staff appoint and remove organisers."),
    Role.CHIEF_REFEREE: gettext_lazy(
        "Only federation staff and the chief referees appoint and remove chief referees."
    ),
    Role.REFEREE: gettext_lazy("Only the tournament's organisers appoint and remove referees."),
}


@role_manager_required
@require_POST
def tournament_role_remove(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = RoleRemoveForm(request.POST, roles=Role.values)
    if not form.is_valid():
        messages.error(request, _("Choose whose role to take away."))
        return redirect("organise:roles", slug=slug)
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    if not permissions.can_manage_role(request.user, tournament, role):
        raise PermissionDenied(ROLE_REMOVAL_REFUSALS[role])
    removed = role_revoke(
        tournament=tournament, user=user, role=role, by=request.user, ip_address=client_ip(request)
    )
    if removed:
        messages.success(request, _role_message(role, "revoked", user))
    else:
        messages.info(request, _role_message(role, "absent", user))
    if not permissions.manageable_roles(request.user, tournament):  # a chief referee stepped down
        return redirect("organise:dashboard" if permissions.has_any_role(request.user) else "home")
    return redirect("organise:roles", slug=slug)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def round_referees(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """Assign the tournament's referee accounts to the round's tables."""
    round_ = round_or_404(slug, number)
    referees = role_holders(tournament=round_.tournament, role=Role.REFEREE)
    assignments = round_referee_assignments(round_=round_)
    form = TableRefereesForm(request.POST or None, assignments=assignments, referees=referees)
    if request.method == "POST" and form.is_valid():
        try:
            changed = tables_referees_set(
                assignments=form.changed_assignments(),
                by=request.user,
                ip_address=client_ip(request),
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                ngettext(
                    "Referees assigned: %(count)d table changed.",
                    "Referees assigned: %(count)d tables changed.",
                    changed,
                )
                % {"count": changed},
            )
            return redirect("organise:referees", slug=slug, number=number)
    return render(
        request,
        "organise/round_referees.html",
        {"tournament": round_.tournament, "round": round_, "form": form, "referees": referees},
    )
