"""The dashboard, a tournament's set-up and settings, its entries and who met whom."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from accounts.access import organiser_required, role_required
from accounts.selectors import chief_refereed_tournaments, organised_tournaments, refereed_tables
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from engine.presets import PRESETS
from hall.selectors import display_link, open_check_in_round, referee_calls_for
from organise.embed_snippets import site_snippets, tournament_snippets
from organise.forms.fees import FeeCategorySetForm
from organise.forms.register import PlayerImportForm
from organise.forms.registrations import RegisterPlayersForm, RegistrationForm, WithdrawForm
from organise.forms.tournament import TournamentForm
from organise.views.register import LAST_IMPORT
from signups.selectors import signups_to_decide
from tournaments import permissions, selectors, services
from tournaments.models import Registration, Round, Table, Tournament
from tournaments.namesakes import namesake_marks
from tournaments.round_clock import RoundClock, round_clock
from tournaments.rule_set import preset_options, rule_set_options, rule_set_words


@dataclass(frozen=True)
class RefereeRound:
    """A round in play with the tables the account may referee, and its clock: a chief
    referee (or an organiser) starts it, calls time and resets it from the dashboard."""

    round: Round
    tables: list[Table]
    clock: RoundClock
    keeps_clock: bool


def referee_rounds(user: User, tables: list[Table]) -> list[RefereeRound]:
    """The tables grouped by round, in the order given; the role check runs once a tournament."""
    grouped: dict[int, list[Table]] = {}
    for table in tables:
        grouped.setdefault(table.round_id, []).append(table)
    keepers: dict[int, bool] = {}
    rounds = []
    for round_tables in grouped.values():
        round_ = round_tables[0].round
        tournament = round_.tournament
        if tournament.pk not in keepers:
            keepers[tournament.pk] = permissions.can_run_clock(user, tournament)
        rounds.append(
            RefereeRound(round_, round_tables, round_clock(round_), keepers[tournament.pk])
        )
    return rounds


@role_required
@require_safe
def dashboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The signed-in start page: the tournaments one organises, the tables one referees."""
    is_staff = permissions.is_federation_staff(request.user)
    tables = refereed_tables(user=request.user)
    return render(
        request,
        "organise/dashboard.html",
        {
            "is_staff": is_staff,
            "tournaments": selectors.tournament_list()
            if is_staff
            else organised_tournaments(user=request.user),
            "tables": tables,
            "referee_rounds": referee_rounds(request.user, tables),
            # Chief referees appoint chief referees: the people page of their tournaments.
            "chief_tournaments": [] if is_staff else chief_refereed_tournaments(user=request.user),
            "referee_calls": referee_calls_for(user=request.user, is_staff=is_staff),
            "embeds": site_snippets(request),
            "embeds_allowed": bool(settings.EMBED_FRAME_ANCESTORS),
        },
    )


def _tournament_form(
    request: AuthenticatedHttpRequest, tournament: Tournament | None
) -> HttpResponse:
    """The settings form of a new or an existing tournament. "Fill in" (the preset list's button
    without JavaScript) shows the preset's options filled in, unsaved."""
    data = request.POST or None
    # The form writes what it reads into its instance, valid or not: it gets a copy, so the
    # page's links and heading stay on the saved tournament (a form with no name and no slug
    # made them link to a tournament without a slug).
    edited = copy.copy(tournament) if tournament is not None else None
    preset = data.get("preset") if data is not None else None
    if data is not None and data.get("fill_preset") and preset is not None and preset in PRESETS:
        filled = data.copy()
        for name, value in preset_options(preset).items():
            if isinstance(value, bool):
                filled.setlist(name, ["on"] if value else [])
            elif value is None:
                filled[name] = ""
            else:
                filled[name] = str(value)
        form = TournamentForm(filled, instance=edited)
        messages.info(request, _("The preset is filled in: check the options, then save."))
    else:
        form = TournamentForm(data, instance=edited)
        if data is not None and form.is_valid():
            # The form's instance holds the values, with an option left out of the request
            # kept as it was (Django's ModelForm).
            values = {name: getattr(form.instance, name) for name in TournamentForm.Meta.fields}
            try:
                saved = services.tournament_settings_save(
                    tournament=form.instance if tournament is None else tournament,
                    values=values,
                    by=request.user,
                    ip_address=client_ip(request),
                )
            except services.ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    _("Tournament created.") if tournament is None else _("Settings saved."),
                )
                if warning := form.deals_warning():
                    messages.warning(request, warning)
                return redirect("organise:detail", slug=saved.slug)
    return render(
        request,
        "organise/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "locked_round": selectors.playing_round(tournament=tournament) if tournament else None,
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _tournament_form(request, None)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_edit(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _tournament_form(request, get_object_or_404(Tournament, slug=slug))


@organiser_required
@require_safe
def tournament_detail(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "organise/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": selectors.round_list(tournament=tournament),
            "registration_count": tournament.registrations.count(),
            "display_link": display_link(tournament),
            "signups_waiting": signups_to_decide(tournament=tournament),
            "rules_in_words": rule_set_words(
                rule_set_options(tournament), table_size=4, place_points=False
            ),
            "embeds": tournament_snippets(request, tournament),
            "embeds_allowed": bool(settings.EMBED_FRAME_ANCESTORS),
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def registrations(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    # The players of the account's last import (the register's import page) not yet registered here.
    last_import = selectors.unregistered_players(
        tournament=tournament, pks=request.session.get(LAST_IMPORT, ())
    )
    form = RegisterPlayersForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and ("last_import" in request.POST or form.is_valid()):
        first_round = selectors.next_round_number(tournament=tournament)
        created = services.registrations_create(
            tournament=tournament,
            players=last_import if "last_import" in request.POST else form.cleaned_data["players"],
            first_round=first_round,
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(
            request,
            ngettext("%(count)d player registered.", "%(count)d players registered.", len(created))
            % {"count": len(created)},
        )
        return redirect("organise:registrations", slug=slug)
    listed = selectors.registration_list(tournament=tournament)
    marks = namesake_marks(registration.player for registration in listed)
    fees = selectors.registration_fees(tournament=tournament)
    # Each registration beside its player's namesake mark and its fee category.
    rows = [
        (registration, marks.get(registration.player_id, ""), fees.get(registration.pk))
        for registration in listed
    ]
    return render(
        request,
        "organise/registrations.html",
        {
            "tournament": tournament,
            "registrations": listed,
            "rows": rows,
            "form": form,
            "last_import": last_import,
            "import_form": PlayerImportForm(),
            # The fee of several players at once: the ticks of the list and a category.
            "fee_form": FeeCategorySetForm(tournament=tournament) if any(fees.values()) else None,
            "check_in_round": open_check_in_round(tournament),
            # Registration online: the link to its page, while it is open or has registrations.
            "signups_waiting": signups_to_decide(tournament=tournament),
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def registration_edit(
    request: AuthenticatedHttpRequest, slug: str, registration_id: int
) -> HttpResponse:
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"),
        pk=registration_id,
        tournament__slug=slug,
    )
    form = RegistrationForm(request.POST or None, instance=registration, prefix="registration")
    withdraw = WithdrawForm(
        prefix="withdraw",
        initial={"after_round": selectors.last_round_number(tournament=registration.tournament)},
    )
    if request.method == "POST" and "withdraw-after_round" in request.POST:
        withdraw = WithdrawForm(request.POST, prefix="withdraw")
        if withdraw.is_valid():
            services.registration_withdraw(
                registration=registration,
                after_round=withdraw.cleaned_data["after_round"],
                by=request.user,
                ip_address=client_ip(request),
            )
            messages.success(
                request, _("%(name)s withdrawn.") % {"name": registration.player.full_name}
            )
            return redirect("organise:registrations", slug=slug)
    elif request.method == "POST" and form.is_valid():
        services.registration_update(
            registration=registration,
            values={name: form.cleaned_data[name] for name in RegistrationForm.Meta.fields},
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Registration saved."))
        return redirect("organise:registrations", slug=slug)
    return render(
        request,
        "organise/registration_form.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            "form": form,
            "withdraw": withdraw,
        },
    )


@organiser_required
@require_safe
def meetings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "organise/meetings.html",
        {"tournament": tournament, **selectors.meeting_matrix(tournament=tournament)},
    )
