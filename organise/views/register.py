"""The player register and the clubs: federation staff keep them."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from accounts.access import organiser_required
from core.http import AuthenticatedHttpRequest
from core.query import paginate
from core.security import client_ip
from organise.forms.fields import ID_MAX_DIGITS
from organise.forms.register import ClubForm, PlayerForm, PlayerImportForm
from organise.player_table import PlayerTable
from tournaments import selectors, services
from tournaments.models import Player
from tournaments.namesakes import namesake_mark

LAST_IMPORT = "last_player_import"  # the session's pks of the players of the last import


@organiser_required
@require_safe
def player_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    table = PlayerTable(selectors.player_list(query=query))
    if query:  # a search that finds nobody is not an empty register
        table.empty_text = _("Nothing matches “%(query)s”.") % {"query": query}
    # A bad ?page= shows the nearest real page instead of an error.
    paginate(request, table, per_page=50)
    # After an import: the list registered in a coming tournament in one click.
    last_import = selectors.coming_tournaments_for(
        pks=request.session.get(LAST_IMPORT, ()), today=timezone.localdate()
    )
    return render(
        request,
        "organise/player_list.html",
        {"table": table, "query": query, "last_import": last_import},
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: AuthenticatedHttpRequest, player_id: int | None = None) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id) if player_id else None
    form = PlayerForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        services.player_save(
            player=player or Player(),
            values={name: form.cleaned_data[name] for name in PlayerForm.Meta.fields},
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Player saved."))
        return redirect("organise:players")
    return render(request, "organise/player_form.html", {"form": form, "player": player})


MATCH_FIELD = "match-"  # "match-<line>": a likely duplicate's pk, or "new"
NEW_PLAYER = "new"


def _matches(data) -> dict[int, int | None]:
    """The organiser's choice for each line with likely duplicates: line → the register
    player's pk, or None for a new player. A value that is neither is kept as 0, no player's
    pk, so the import names the line instead of ignoring the choice."""
    matches: dict[int, int | None] = {}
    for name, value in data.items():
        line = name.removeprefix(MATCH_FIELD)
        if name.startswith(MATCH_FIELD) and line.isdigit() and len(line) <= ID_MAX_DIGITS:
            if value == NEW_PLAYER:
                matches[int(line)] = None
            else:
                digits = value.strip()
                valid = digits.isdecimal() and len(digits) <= ID_MAX_DIGITS
                matches[int(line)] = int(digits) if valid else 0
    return matches


def _preview_lines(preview, matches: dict[int, int | None]) -> list[dict]:
    """The preview's rows, each likely duplicate with its options and the one ticked (the
    organiser's choice, else the first register player)."""
    lines = []
    for row in preview.rows:
        options = []
        if row.duplicates:
            ticked = matches.get(row.line, row.duplicates[0].pk)
            options = [
                {
                    "value": str(player.pk),
                    "player": player,
                    "mark": namesake_mark(pk=player.pk, licence_number=player.licence_number),
                    "checked": ticked == player.pk,
                }
                for player in row.duplicates
            ]
            options.append({"value": NEW_PLAYER, "player": None, "checked": ticked is None})
        lines.append({"row": row, "options": options})
    return lines


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Step 1 uploads and previews; step 2 (confirm) imports the same text, all or nothing."""
    form = PlayerImportForm(
        request.POST or None,
        request.FILES or None,
        initial={"tournament": selectors.tournament_named(request.GET.get("tournament", ""))},
    )
    preview = None
    matches = _matches(request.POST)
    if request.method == "POST" and form.is_valid():
        raw = form.raw()
        tournament = form.cleaned_data["tournament"]
        if "confirm" in request.POST:
            try:
                result = services.players_import(
                    raw=raw,
                    by=request.user,
                    ip_address=client_ip(request),
                    tournament=tournament,
                    matches=matches,
                )
            except services.ServiceError as error:
                messages.error(request, str(error))
            else:
                # The list, for the one click that registers it in a tournament (its entries page).
                request.session[LAST_IMPORT] = [player.pk for player in result.players]
                imported = len(result.created)
                messages.success(
                    request,
                    ngettext("%(count)d player imported.", "%(count)d players imported.", imported)
                    % {"count": imported},
                )
                if result.updated:
                    messages.success(
                        request,
                        ngettext(
                            "%(count)d player of the register given the list's licence.",
                            "%(count)d players of the register given the list's licence.",
                            len(result.updated),
                        )
                        % {"count": len(result.updated)},
                    )
                if tournament is not None:
                    return redirect("organise:registrations", slug=tournament.slug)
                return redirect("organise:players")
        preview = services.players_import_preview(raw)
        # The confirm step re-sends the same lines (and tournament) and they are checked again.
        form = PlayerImportForm(
            initial={"text": services.decode_upload(raw), "tournament": tournament}
        )
    return render(
        request,
        "organise/player_import.html",
        {
            "form": form,
            "preview": preview,
            "lines": _preview_lines(preview, matches) if preview else [],
            "tournament": form.initial.get("tournament"),
        },
    )


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(
            name=form.cleaned_data["name"],
            city=form.cleaned_data["city"],
            by=request.user,
            ip_address=client_ip(request),
        )
        messages.success(request, _("Club %(name)s added.") % {"name": club.name})
        return redirect("organise:clubs")
    return render(
        request, "organise/club_list.html", {"clubs": selectors.club_list(), "form": form}
    )
