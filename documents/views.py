"""Printed documents as PDF: a round's table score sheets (organisers and chief referees), its
seating list and the standings protocol (public once the round is published)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts.access import cached_tournament_page, lazy_tournament, organiser_required
from core.query import positive_number
from documents import printing
from documents.seating_list import CheckInNotice
from documents.selectors import prize_note
from hall.selectors import open_check_in_round
from scoring import selectors
from tournaments import permissions
from tournaments.models import Round, Tournament

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    # Inline: the browser shows it and prints it; the name is used when it is saved.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def sheet_printers_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The score sheets carry the tables' private links: the tournament's organisers and chief
    referees (tournaments.permissions) print them; visitors sign in first, others get 403."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, **kwargs: object) -> HttpResponse:
        if not permissions.can_print_sheets(request.user, lazy_tournament(slug)):
            raise PermissionDenied(
                _("Only organisers and the chief referee print the score sheets.")
            )
        return view(request, slug=slug, **kwargs)

    return wrapped


@sheet_printers_only
@require_safe
def round_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table's score sheet of the round: filled where deals are entered, blank elsewhere,
    or all blank with ?blank=1."""
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
    if not round_.tables.exists():
        raise Http404(_("This round has no tables yet."))
    blank = request.GET.get("blank", "").strip().lower() in TRUE_WORDS

    def entry_url(token: str) -> str:
        return request.build_absolute_uri(reverse("entry:token_sheet", args=[token]))

    content = printing.round_sheets_pdf(round_=round_, entry_url=entry_url, blank=blank)
    kind = "blank-sheets" if blank else "sheets"
    return pdf_response(content, f"{slug}-round-{number}-{kind}.pdf")


@require_safe
def round_seating(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return cached_tournament_page(
        request,
        slug,
        params=frozenset(),
        render=lambda tournament: _round_seating(request, tournament, number),
    )


def _round_seating(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    slug = tournament.slug
    round_ = selectors.public_round(tournament=tournament, number=number)
    if round_ is None:  # not created yet, or a draft whose seating may still change
        raise Http404(_("This round is not published."))
    if not round_.tables.exists():
        raise Http404(_("This round has no tables yet."))
    return pdf_response(
        printing.round_seating_pdf(round_=round_, check_in=_check_in_notice(request, tournament)),
        f"{slug}-round-{number}-seating.pdf",
    )


def _check_in_notice(request: HttpRequest, tournament: Tournament) -> CheckInNotice | None:
    """The round being prepared, its code and check-in page, for the organiser's print (the
    list on the hall's wall) only: the public copy, anyone's, never carries the code. An
    organiser is signed in, so his copy is never the cache's."""
    if not permissions.is_organiser(request.user, tournament):
        return None
    prepared = open_check_in_round(tournament)
    if prepared is None:
        return None
    return CheckInNotice(
        round_number=prepared.number,
        code=prepared.check_in_code,
        address=request.build_absolute_uri(reverse("public:check_in", args=[tournament.slug])),
    )


@require_safe
def standings_protocol(request: HttpRequest, slug: str) -> HttpResponse:
    """The protocol after the latest published round, or after round n with ?round=n."""
    return cached_tournament_page(
        request,
        slug,
        params=frozenset({"round"}),
        render=lambda tournament: _standings_protocol(request, tournament),
    )


def _standings_protocol(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    slug = tournament.slug
    after_round = positive_number(request.GET.get("round"))
    name = f"{slug}-standings.pdf"
    if after_round is not None:
        if selectors.public_round(tournament=tournament, number=after_round) is None:
            raise Http404(_("This round is not published."))
        name = f"{slug}-standings-after-round-{after_round}.pdf"
    content = printing.standings_protocol_pdf(tournament=tournament, after_round=after_round)
    return pdf_response(content, name)


@organiser_required
@require_safe
def prizes(request: HttpRequest, slug: str) -> HttpResponse:
    """The fund, the costs share and the prizes from the current standings (organisers: the
    money of the event is theirs to show)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    prize_list = selectors.prize_list(tournament=tournament)
    return render(
        request,
        "documents/prizes.html",
        {
            "tournament": tournament,
            "prizes": prize_list,
            "fund": prize_list.fund,
            "note": prize_note(prize_list),
        },
    )


@organiser_required
@require_safe
def prizes_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return pdf_response(printing.prize_list_pdf(tournament=tournament), f"{slug}-prizes.pdf")
