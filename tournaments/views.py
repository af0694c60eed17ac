"""Organiser pages. Views stay thin: forms check input, services write, selectors read."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.sheet_view import round_table_links
from tournaments import selectors, services
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
from tournaments.models import Entry, Player, Round, RoundStatus, Tournament
from tournaments.tables import PlayerTable


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Organisers are staff accounts (roles per tournament come with the roles issue)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied(_("Only organisers may do this."))
        return view(request, *args, **kwargs)

    return wrapped


def client_ip(request: HttpRequest) -> str | None:
    return request.META.get("REMOTE_ADDR")


@organiser_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/dashboard.html", {"tournaments": selectors.tournament_list()}
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _("Tournament created."))
        return redirect("tournaments:detail", slug=tournament.slug)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _("Settings saved."))
        return redirect("tournaments:detail", slug=tournament.slug)
    return render(
        request, "tournaments/tournament_form.html", {"form": form, "tournament": tournament}
    )


@organiser_required
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": selectors.round_list(tournament=tournament),
            "entry_count": tournament.entries.count(),
        },
    )


@organiser_required
@require_http_methods(["GET", "POST"])
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    form = RegisterPlayersForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        first_round = selectors.next_round_number(tournament=tournament)
        created = services.entries_register(
            tournament=tournament, players=form.cleaned_data["players"], first_round=first_round
        )
        messages.success(request, _("%(count)d players registered.") % {"count": len(created)})
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
@require_http_methods(["GET", "POST"])
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
                entry=entry, after_round=withdraw.cleaned_data["after_round"], by=request.user
            )
            messages.success(request, _("%(name)s withdrawn.") % {"name": entry.player.full_name})
            return redirect("tournaments:entries", slug=slug)
    elif request.method == "POST" and form.is_valid():
        form.save()
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
        new_round = services.round_create(tournament=tournament)
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("tournaments:detail", slug=slug)
    return redirect("tournaments:round", slug=slug, number=new_round.number)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )


@organiser_required
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "tables": selectors.round_tables(round_=round_),
            "check_in_form": CheckInForm(
                round_=round_, initial={"entries": selectors.checked_in(round_=round_)}
            ),
            "generate_form": GenerateSeatingForm(initial={"mode": round_.seating_mode}),
            "swap_form": SwapForm(round_=round_),
            "confirmation": services.regenerate_confirmation(round_),
            "is_draft": round_.status == RoundStatus.DRAFT,
            "is_published": round_.status == RoundStatus.PUBLISHED,
            "table_links": round_table_links(round_=round_),
        },
    )


@organiser_required
@require_POST
def round_check_in(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    form = CheckInForm(request.POST, round_=round_)
    if form.is_valid():
        try:
            count = services.check_in_set(round_=round_, entries=form.cleaned_data["entries"])
        except services.ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("%(count)d players checked in.") % {"count": count})
    else:
        messages.error(request, _("Choose the players who are present."))
    return redirect("tournaments:round", slug=slug, number=number)


@organiser_required
@require_POST
def round_generate(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round(slug, number)
    form = GenerateSeatingForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a seating mode and a whole-number seed."))
        return redirect("tournaments:round", slug=slug, number=number)
    try:
        round_ = services.round_generate_seating(
            round_=round_,
            mode=form.cleaned_data["mode"],
            seed=form.cleaned_data["seed"],
            confirmation=form.cleaned_data["confirmation"],
            by=request.user,
            ip_address=client_ip(request),
        )
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("Seating generated with seed %(seed)s.") % {"seed": round_.seed}
        )
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
    round_ = _round(slug, number)
    try:
        services.round_publish(round_=round_, by=request.user, ip_address=client_ip(request))
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Round %(number)d published.") % {"number": number})
    return redirect("tournaments:round", slug=slug, number=number)


@organiser_required
def meetings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        "tournaments/meetings.html",
        {"tournament": tournament, **selectors.meeting_matrix(tournament=tournament)},
    )


@organiser_required
def player_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    table = PlayerTable(selectors.player_list(query=query), request=request)
    table.paginate(page=request.GET.get("page", 1), per_page=50)
    return render(request, "tournaments/player_list.html", {"table": table, "query": query})


@organiser_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, player_id: int | None = None) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id) if player_id else None
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Player saved."))
        return redirect("tournaments:players")
    return render(request, "tournaments/player_form.html", {"form": form, "player": player})


@organiser_required
@require_http_methods(["GET", "POST"])
def player_import(request: HttpRequest) -> HttpResponse:
    """Step 1 uploads and previews; step 2 (confirm) imports the same text, all or nothing."""
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        raw = form.raw()
        if "confirm" in request.POST:
            try:
                imported = services.players_import(
                    raw=raw, by=request.user, ip_address=client_ip(request)
                )
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request, _("%(count)d players imported.") % {"count": len(imported)}
                )
                return redirect("tournaments:players")
        preview = services.players_import_preview(raw)
        # The confirm step re-sends the same lines as text and they are checked again.
        form = PlayerImportForm(initial={"text": services.decode_upload(raw)})
    return render(request, "tournaments/player_import.html", {"form": form, "preview": preview})


@organiser_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = form.save()
        messages.success(request, _("Club %(name)s added.") % {"name": club.name})
        return redirect("tournaments:clubs")
    return render(
        request, "tournaments/club_list.html", {"clubs": selectors.club_list(), "form": form}
    )
