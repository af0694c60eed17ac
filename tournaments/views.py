"""Organiser pages. Views stay thin: forms check input, services write, selectors read."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.functional import Promise, SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.query import paginate
from core.security import client_ip
from engine.presets import PRESETS
from tournaments import permissions, roles, selectors, services
from tournaments.clock import RoundClock, round_clock
from tournaments.forms import (
    CheckInForm,
    ClubForm,
    EntryForm,
    GenerateSeatingForm,
    PlayerForm,
    PlayerImportForm,
    RegisterPlayersForm,
    SwapForm,
    TournamentForm,
    WithdrawForm,
)
from tournaments.models import Entry, Player, Role, Round, RoundStatus, Table, Tournament
from tournaments.role_forms import (
    AuditFilterForm,
    RefereeAccountForm,
    RoleAddForm,
    RoleRemoveForm,
    TableRefereesForm,
)
from tournaments.rule_set import preset_options, rule_set_options, rule_set_words
from tournaments.tables import PlayerTable


def lazy_tournament(slug: str) -> Tournament:
    """The URL's tournament, loaded only if a check needs it (staff pass without a query);
    an unknown address is a 404."""
    return SimpleLazyObject(lambda: get_object_or_404(Tournament, slug=slug))


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Pages of one tournament (a slug in the URL): federation staff and its organisers. Pages
    of no tournament (the player register, a new tournament): federation staff. Visitors are
    sent to sign in; other accounts get 403. The check runs before the method check, so every
    refusal is the same whatever the request."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        slug = kwargs.get("slug")
        if slug is None:
            allowed = permissions.is_federation_staff(request.user)
        else:
            allowed = permissions.is_organiser(request.user, lazy_tournament(slug))
        if not allowed:
            raise PermissionDenied(_("Only organisers may do this."))
        return view(request, *args, **kwargs)

    return wrapped


def role_manager_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A tournament's people page: whoever gives or takes away one of its roles (federation
    staff, its organisers, its chief referees: tournaments.permissions.manageable_roles)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not permissions.manageable_roles(request.user, lazy_tournament(kwargs["slug"])):
            raise PermissionDenied(
                _("Only the tournament's organisers and chief referees may do this.")
            )
        return view(request, *args, **kwargs)

    return wrapped


def role_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Any account with a role somewhere (organiser, chief referee, table referee, staff)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not permissions.has_any_role(request.user):
            raise PermissionDenied(
                _("This account has no role in any tournament yet: ask the organiser.")
            )
        return view(request, *args, **kwargs)

    return wrapped


@dataclass(frozen=True)
class RefereeRound:
    """A round in play with the tables the account may referee, and its clock: a chief
    referee (or an organiser) starts it, calls time and resets it from the dashboard."""

    round: Round
    tables: list[Table]
    clock: RoundClock
    keeps_clock: bool


def referee_rounds(user: object, tables: list[Table]) -> list[RefereeRound]:
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
def dashboard(request: HttpRequest) -> HttpResponse:
    """The signed-in start page: the tournaments one organises, the tables one referees."""
    is_staff = permissions.is_federation_staff(request.user)
    tables = selectors.refereed_tables(user=request.user)
    return render(
        request,
        "tournaments/dashboard.html",
        {
            "is_staff": is_staff,
            "tournaments": selectors.tournament_list()
            if is_staff
            else selectors.organised_tournaments(user=request.user),
            "tables": tables,
            "referee_rounds": referee_rounds(request.user, tables),
            # Chief referees appoint chief referees: the people page of their tournaments.
            "chief_tournaments": []
            if is_staff
            else selectors.chief_refereed_tournaments(user=request.user),
        },
    )


def _tournament_form(request: HttpRequest, tournament: Tournament | None) -> HttpResponse:
    """The settings form of a new or an existing tournament. "Fill in" (the preset list's button
    without JavaScript) shows the preset's options filled in, unsaved."""
    data = request.POST or None
    # The form writes what it reads into its instance, valid or not: it gets a copy, so the
    # page's links and heading stay on the saved tournament (a form with no name and no slug
    # made them link to a tournament without a slug).
    edited = copy.copy(tournament) if tournament is not None else None
    if data is not None and data.get("fill_preset") and data.get("preset") in PRESETS:
        data = data.copy()
        for name, value in preset_options(data["preset"]).items():
            if isinstance(value, bool):
                data.setlist(name, ["on"] if value else [])
            else:
                data[name] = str(value)
        form = TournamentForm(data, instance=edited)
        messages.info(request, _("The preset is filled in: check the options, then save."))
    else:
        form = TournamentForm(data, instance=edited)
        if data is not None and form.is_valid():
            # The form's instance holds the values, with an option left out of the request
            # kept as it was (Django's ModelForm).
            values = {name: getattr(form.instance, name) for name in form._meta.fields}
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
                return redirect("tournaments:detail", slug=saved.slug)
    return render(
        request,
        "tournaments/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "locked_round": selectors.playing_round(tournament=tournament) if tournament else None,
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    return _tournament_form(request, None)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    return _tournament_form(request, get_object_or_404(Tournament, slug=slug))


@organiser_required
@require_safe
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": selectors.round_list(tournament=tournament),
            "entry_count": tournament.entries.count(),
            "rules_in_words": rule_set_words(
                rule_set_options(tournament), table_size=4, place_points=False
            ),
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = RegisterPlayersForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        first_round = selectors.next_round_number(tournament=tournament)
        created = services.entries_register(
            tournament=tournament,
            players=form.cleaned_data["players"],
            first_round=first_round,
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(
            request,
            ngettext("%(count)d player registered.", "%(count)d players registered.", len(created))
            % {"count": len(created)},
        )
        return redirect("tournaments:entries", slug=slug)
    return render(
        request,
        "tournaments/entries.html",
        {
            "tournament": tournament,
            "entries": selectors.entry_list(tournament=tournament),
            "form": form,
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_edit(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "tournament"), pk=entry_id, tournament__slug=slug
    )
    form = EntryForm(request.POST or None, instance=entry, prefix="entry")
    withdraw = WithdrawForm(
        prefix="withdraw",
        initial={"after_round": selectors.last_round_number(tournament=entry.tournament)},
    )
    if request.method == "POST" and "withdraw-after_round" in request.POST:
        withdraw = WithdrawForm(request.POST, prefix="withdraw")
        if withdraw.is_valid():
            services.entry_withdraw(
                entry=entry,
                after_round=withdraw.cleaned_data["after_round"],
                by=request.user,
                ip_address=client_ip(request),
            )
            messages.success(request, _("%(name)s withdrawn.") % {"name": entry.player.full_name})
            return redirect("tournaments:entries", slug=slug)
    elif request.method == "POST" and form.is_valid():
        services.entry_update(
            entry=entry,
            values={name: form.cleaned_data[name] for name in form._meta.fields},
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Entry saved."))
        return redirect("tournaments:entries", slug=slug)
    return render(
        request,
        "tournaments/entry_form.html",
        {"entry": entry, "tournament": entry.tournament, "form": form, "withdraw": withdraw},
    )


@organiser_required
@require_POST
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        new_round = services.round_create(
            tournament=tournament, by=request.user, ip_address=client_ip(request)
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("tournaments:detail", slug=slug)
    return redirect("tournaments:round", slug=slug, number=new_round.number)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )


@organiser_required
@require_safe
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _round_page(request, _round(slug, number))


def _round_page(
    request: HttpRequest,
    round_: Round,
    *,
    check_in_form: CheckInForm | None = None,
    generate_form: GenerateSeatingForm | None = None,
) -> HttpResponse:
    """The round page; after a refused generation or publication, with the forms as they were
    sent (the ticks on screen stay, and the differences are those of the ticks)."""
    clock = round_clock(round_)
    tables = selectors.round_tables(round_=round_)
    if check_in_form is None:
        present = selectors.checked_in(round_=round_)
        check_in_form = CheckInForm(round_=round_, initial={"entries": present})
    elif check_in_form.is_valid():
        present = [entry.pk for entry in check_in_form.cleaned_data["entries"]]
    else:
        present = None  # the saved check-in
    attendance = selectors.attendance_difference(
        round_=round_,
        present=present,
        seated=[seat.entry_id for view in tables for seat in view.seats],
    )
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "tables": tables,
            "check_in_form": check_in_form,
            "attendance": attendance,
            "generate_form": generate_form
            or GenerateSeatingForm(initial={"mode": round_.seating_mode}),
            "swap_form": SwapForm(round_=round_),
            "confirmation": services.regenerate_confirmation(round_),
            "is_draft": round_.status == RoundStatus.DRAFT,
            "is_published": round_.status == RoundStatus.PUBLISHED,
            "clock": clock,
            # A clock started by mistake is reset, unless a table was confirmed short by it.
            "clock_can_reset": clock.can_reset
            and not selectors.tables_confirmed_short(round_=round_),
        },
    )


# --- The round clock -----------------------------------------------------------------------------

CLOCK_ACTIONS: dict[str, tuple[Callable[..., Round], Promise]] = {
    "start": (
        services.round_clock_start,
        gettext_lazy("The clock of round %(number)d is running."),
    ),
    "call": (
        services.round_time_call,
        gettext_lazy(
            "Time is called in round %(number)d: each table finishes the deal under way and "
            "confirms."
        ),
    ),
    "reset": (
        services.round_clock_reset,
        gettext_lazy("The clock of round %(number)d is stopped and back to not started."),
    ),
}


def clock_keeper_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Views of a round's clock: its tournament's organisers and chief referees
    (tournaments.permissions.can_run_clock). Visitors are sent to sign in, other accounts get 403,
    before the method is looked at. The view receives the round, with its tournament."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        round_ = _round(slug, number)
        if not permissions.can_run_clock(request.user, round_.tournament):
            raise PermissionDenied(
                _("Only the tournament's organisers and chief referees keep the round clock.")
            )
        return view(request, round_=round_)

    return wrapped


@clock_keeper_required
@require_POST
def round_clock_action(request: HttpRequest, round_: Round) -> HttpResponse:
    """Start the round's clock, call time or reset it (the form's `action`); back to the round
    page (an organiser) or the dashboard (a chief referee) with what happened."""
    action = CLOCK_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, _("That request is not understood: reload the page."))
    else:
        service, done = action
        try:
            service(round_=round_, by=request.user, ip_address=client_ip(request))
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, str(done) % {"number": round_.number})
    tournament = round_.tournament
    if permissions.is_organiser(request.user, tournament):
        url = reverse("tournaments:round", args=[tournament.slug, round_.number])
        return redirect(f"{url}#round-clock")
    return redirect(f"{reverse('tournaments:dashboard')}#round-{round_.pk}")


@organiser_required
@require_POST
def round_check_in(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    form = CheckInForm(request.POST, round_=round_)
    if form.is_valid():
        try:
            count = services.check_in_set(
                round_=round_,
                entries=form.cleaned_data["entries"],
                by=request.user,
                ip_address=client_ip(request),
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                ngettext("%(count)d player checked in.", "%(count)d players checked in.", count)
                % {"count": count},
            )
    else:
        messages.error(request, _("Choose the players who are present."))
    return redirect("tournaments:round", slug=slug, number=number)


def _attendance_on_screen(request: HttpRequest, round_: Round) -> CheckInForm | None:
    """The check-in list as sent with the round's form (its `attendance` marker says the list
    was on screen: no tick at all then means nobody is present); None without it."""
    if "attendance" not in request.POST:
        return None
    return CheckInForm(request.POST, round_=round_)


@organiser_required
@require_POST
def round_generate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat the players ticked on screen: the check-in is saved with the seating."""
    round_ = _round(slug, number)
    form = GenerateSeatingForm(request.POST)
    attendance = _attendance_on_screen(request, round_)
    if not form.is_valid():
        messages.error(request, _("Choose a seating mode and a whole-number seed."))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    if attendance is not None and not attendance.is_valid():
        messages.error(request, _("Choose the players who are present."))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    try:
        round_ = services.round_generate_seating(
            round_=round_,
            mode=form.cleaned_data["mode"],
            seed=form.cleaned_data["seed"],
            confirmation=form.cleaned_data["confirmation"],
            by=request.user,
            ip_address=client_ip(request),
            present=attendance.cleaned_data["entries"] if attendance is not None else None,
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        return _round_page(request, round_, check_in_form=attendance, generate_form=form)
    messages.success(request, _("Seating generated with seed %(seed)s.") % {"seed": round_.seed})
    return redirect("tournaments:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    form = SwapForm(request.POST, round_=round_)
    if not form.is_valid():
        messages.error(request, _("Choose two seated players to swap."))
        return redirect("tournaments:round", slug=slug, number=number)
    try:
        warnings = services.round_swap_players(
            round_=round_,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
            by=request.user,
            ip_address=client_ip(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Players swapped."))
        for warning in warnings:
            messages.warning(request, warning)
    return redirect("tournaments:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Publish with the check-in on screen (saved with it); refused while the seated players
    are not the present ones, unless the organiser ticks that it is published as it is."""
    round_ = _round(slug, number)
    attendance = _attendance_on_screen(request, round_)
    if attendance is not None and not attendance.is_valid():
        messages.error(request, _("Choose the players who are present."))
        return _round_page(request, round_, check_in_form=attendance)
    try:
        services.round_publish(
            round_=round_,
            by=request.user,
            ip_address=client_ip(request),
            present=attendance.cleaned_data["entries"] if attendance is not None else None,
            attendance_confirmed=bool(request.POST.get("attendance_confirmed")),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
        if attendance is not None:
            return _round_page(request, round_, check_in_form=attendance)
    else:
        messages.success(request, _("Round %(number)d published.") % {"number": number})
    return redirect("tournaments:round", slug=slug, number=number)


@organiser_required
@require_safe
def meetings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "tournaments/meetings.html",
        {"tournament": tournament, **selectors.meeting_matrix(tournament=tournament)},
    )


@organiser_required
@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    # PostgreSQL text cannot hold a NUL: a search for one simply has no such character.
    query = request.GET.get("q", "").replace("\x00", "").strip()
    table = PlayerTable(selectors.player_list(query=query))
    # A bad ?page= shows the nearest real page instead of an error.
    paginate(request, table, per_page=50)
    return render(request, "tournaments/player_list.html", {"table": table, "query": query})


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, player_id: int | None = None) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id) if player_id else None
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        services.player_save(
            player=player or Player(),
            values={name: form.cleaned_data[name] for name in form._meta.fields},
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Player saved."))
        return redirect("tournaments:players")
    return render(request, "tournaments/player_form.html", {"form": form, "player": player})


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_import(request: HttpRequest) -> HttpResponse:
    """Step 1 uploads and previews; step 2 (confirm) imports the same text, all or nothing."""
    form = PlayerImportForm(
        request.POST or None,
        request.FILES or None,
        initial={"tournament": request.GET.get("tournament")},
    )
    preview = None
    if request.method == "POST" and form.is_valid():
        raw = form.raw()
        tournament = form.cleaned_data["tournament"]
        if "confirm" in request.POST:
            try:
                imported = services.players_import(
                    raw=raw, by=request.user, ip_address=client_ip(request), tournament=tournament
                )
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player imported.", "%(count)d players imported.", len(imported)
                    )
                    % {"count": len(imported)},
                )
                if tournament is not None:
                    return redirect("tournaments:entries", slug=tournament.slug)
                return redirect("tournaments:players")
        preview = services.players_import_preview(raw)
        # The confirm step re-sends the same lines (and tournament) and they are checked again.
        form = PlayerImportForm(
            initial={"text": services.decode_upload(raw), "tournament": tournament}
        )
    return render(
        request,
        "tournaments/player_import.html",
        {"form": form, "preview": preview, "tournament": form.initial.get("tournament")},
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(
            name=form.cleaned_data["name"],
            city=form.cleaned_data["city"],
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Club %(name)s added.") % {"name": club.name})
        return redirect("tournaments:clubs")
    return render(
        request, "tournaments/club_list.html", {"clubs": selectors.club_list(), "form": form}
    )


# --- Roles: a tournament's people and its table referees -------------------------------------


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


def _role_message(role: str, outcome: str, user) -> str:
    return str(ROLE_MESSAGES[role][outcome]) % {"name": user.username}


@role_manager_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_roles(request: HttpRequest, slug: str) -> HttpResponse:
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
            added = roles.role_grant(
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
            return redirect("tournaments:roles", slug=slug)
    return _roles_page(request, tournament, manageable, form=form)


def _roles_page(
    request: HttpRequest,
    tournament: Tournament,
    manageable: list[str],
    *,
    form: RoleAddForm | None = None,
    account_form: RefereeAccountForm | None = None,
    new_account: roles.NewAccount | None = None,
) -> HttpResponse:
    return render(
        request,
        "tournaments/roles.html",
        {
            "tournament": tournament,
            "form": form or RoleAddForm(roles=manageable, initial={"role": Role.REFEREE}),
            "is_organiser": permissions.is_organiser(request.user, tournament),
            "account_form": account_form or RefereeAccountForm(prefix="account"),
            "can_create_accounts": Role.REFEREE in manageable,
            "new_account": new_account,
            "people": [
                (Role(role), holders, role in manageable)
                for role, holders in selectors.tournament_people(tournament=tournament).items()
            ],
        },
    )


def _referee_account_create(
    request: HttpRequest, tournament: Tournament, manageable: list[str]
) -> HttpResponse:
    """A new referee account: the page answers directly (never stored, never cached) with the
    password to hand over, shown this once."""
    account_form = RefereeAccountForm(request.POST, prefix="account")
    new_account = None
    if account_form.is_valid():
        try:
            new_account = roles.referee_account_create(
                tournament=tournament,
                username=account_form.cleaned_data["username"],
                full_name=account_form.cleaned_data["full_name"],
                by=request.user,
                ip_address=client_ip(request),
            )
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            account_form = None
    response = _roles_page(
        request, tournament, manageable, account_form=account_form, new_account=new_account
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
def tournament_role_remove(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = RoleRemoveForm(request.POST, roles=Role.values)
    if not form.is_valid():
        messages.error(request, _("Choose whose role to take away."))
        return redirect("tournaments:roles", slug=slug)
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    if not permissions.can_manage_role(request.user, tournament, role):
        raise PermissionDenied(ROLE_REMOVAL_REFUSALS[role])
    removed = roles.role_revoke(
        tournament=tournament, user=user, role=role, by=request.user, ip_address=client_ip(request)
    )
    if removed:
        messages.success(request, _role_message(role, "revoked", user))
    else:
        messages.info(request, _role_message(role, "absent", user))
    if not permissions.manageable_roles(request.user, tournament):  # a chief referee stepped down
        return redirect(
            "tournaments:dashboard" if permissions.has_any_role(request.user) else "home"
        )
    return redirect("tournaments:roles", slug=slug)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def round_referees(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Assign the tournament's referee accounts to the round's tables."""
    round_ = _round(slug, number)
    referees = selectors.role_holders(tournament=round_.tournament, role=Role.REFEREE)
    assignments = selectors.round_referee_assignments(round_=round_)
    form = TableRefereesForm(request.POST or None, assignments=assignments, referees=referees)
    if request.method == "POST" and form.is_valid():
        try:
            changed = roles.tables_referees_set(
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
            return redirect("tournaments:referees", slug=slug, number=number)
    return render(
        request,
        "tournaments/round_referees.html",
        {"tournament": round_.tournament, "round": round_, "form": form, "referees": referees},
    )


# --- The audit log ------------------------------------------------------------------------------


@organiser_required
@require_safe
def audit_log(request: HttpRequest, slug: str) -> HttpResponse:
    """Every organiser and referee action of the tournament, filtered, a page at a time."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = AuditFilterForm(request.GET or None)
    if form.is_bound:
        form.is_valid()  # a bad field is reported on the form; the valid ones still filter
    entries = selectors.audit_entries(tournament=tournament, **form.filters())
    page = Paginator(entries, selectors.AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "tournaments/audit_log.html",
        {
            "tournament": tournament,
            "form": form,
            "page": page,
            "rows": selectors.audit_rows(page.object_list, tournament=tournament),
            "query": query.urlencode(),
        },
    )
