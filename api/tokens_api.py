"""What an organiser's personal API token opens (api.token_auth): the reads that are his (every
round of a tournament he organises, drafts included, as his round page shows them) and the
import of players (the CSV import's service, all or nothing).

Who may do what is tournaments.permissions, as on the signed-in pages: a tournament's round as
its organisers (and federation staff) read it; players imported by federation staff, as on the
import page."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from ninja import Field, Path, Router
from ninja.errors import HttpError
from ninja.responses import NinjaJSONEncoder

from accounts import selectors as account_selectors
from api.answers import NUMBER_MAX
from api.schemas import Schema
from api.token_auth import bearer_token
from core.http import AuthenticatedHttpRequest
from core.security import client_ip
from tournaments import permissions, selectors, services
from tournaments.models import Round, Tournament
from tournaments.player_csv import CsvPlayer

router = Router(tags=["organiser (token)"], auth=bearer_token)
Number = Path(..., ge=1, le=NUMBER_MAX)  # a round's number, as the public reads take it
# The import's address is a tournament's (beside the public reads of /tournaments/).
tournament_router = Router(tags=["organiser (token)"], auth=bearer_token)


class Refusal(Schema):
    detail: str


UNESCAPED = {"ensure_ascii": False}  # Latvian and Russian letters as they are
# The token's refusals: none or a wrong one (401), not his (403), too many requests (429).
REFUSED = {401: Refusal, 403: Refusal, 429: Refusal}


class ValidationRefusal(Schema):
    """Ninja's own answer to a parameter or body of the wrong type: each problem's `loc`
    (where: "path", "body", then the names and indexes) and `msg`."""

    detail: list[dict[str, Any]]


class OrganisedTournament(Schema):
    slug: str
    name: str
    starts_on: datetime.date


class OrganisedRoundSummary(Schema):
    number: int
    status: str = Field(description="draft, published, in_play or closed")


class SeatOut(Schema):
    seat: int = Field(description="1-based, each to the left of the previous")
    registration_id: int = Field(description="the player's entry in the tournament")
    player_id: int
    name: str
    club: str | None


class TableOut(Schema):
    number: int
    seats: list[SeatOut]
    flags: list[str] = Field(description="the seating's notes: repeat_meeting, same_club, ...")


class RoundOut(Schema):
    number: int
    status: str = Field(description="draft, published, in_play or closed")
    seating_mode: str = Field(description="random, swiss, mix or ranked")
    generated_at: datetime.datetime | None = Field(description="when it was seated")
    published_at: datetime.datetime | None
    clock_started_at: datetime.datetime | None
    time_limit: int | None = Field(description="minutes, once the clock is started")
    time_called_at: datetime.datetime | None
    tables: list[TableOut]


def private_answer(request: HttpRequest, data: object) -> HttpResponse:
    """An answer for the token's owner alone, with its ETag (304 to If-None-Match): never kept
    by a shared cache (a draft round is not the public's), asked again every time."""
    content = json.dumps(
        data, cls=NinjaJSONEncoder, ensure_ascii=False, separators=(",", ":")
    ).encode()
    response = HttpResponse(content, content_type="application/json")
    response["ETag"] = f'"{hashlib.sha256(content).hexdigest()[:32]}"'
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["Authorization"])
    # Given a response, Django returns it or a 304 in its place, never None.
    return get_conditional_response(request, etag=response["ETag"], response=response)  # type: ignore[return-value]


def dumped(schema: type[Schema], rows: Iterable[object]) -> list[dict]:
    return [
        schema.model_validate(row, from_attributes=True).model_dump(mode="json") for row in rows
    ]


def organised(request: HttpRequest, slug: str) -> Tournament:
    """The tournament of the address, when the token's owner organises it: 404 for no such
    tournament, 403 for another's (as his pages answer)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.is_organiser(request.user, tournament):
        raise HttpError(403, _("Only organisers may do this."))
    return tournament


@router.get(
    "/tournaments",
    response={200: list[OrganisedTournament], **REFUSED},
    summary="The tournaments the token's owner organises",
)
def organised_tournaments(request: AuthenticatedHttpRequest) -> HttpResponse:
    if permissions.is_federation_staff(request.user):
        tournaments = selectors.tournament_list()
    else:
        tournaments = account_selectors.organised_tournaments(user=request.user)
    return private_answer(request, dumped(OrganisedTournament, tournaments))


@router.get(
    "/tournaments/{slug}/rounds",
    response={200: list[OrganisedRoundSummary], **REFUSED, 404: Refusal},
    summary="Every round of an organised tournament, drafts included",
)
def organised_rounds(request: HttpRequest, slug: str) -> HttpResponse:
    rounds = selectors.round_list(tournament=organised(request, slug))
    return private_answer(request, dumped(OrganisedRoundSummary, rounds))


@router.get(
    "/tournaments/{slug}/rounds/{number}",
    response={200: RoundOut, **REFUSED, 404: Refusal, 422: ValidationRefusal},
    summary="A round of an organised tournament with its seating, drafts included",
)
def organised_round(request: HttpRequest, slug: str, number: int = Number) -> HttpResponse:
    tournament = organised(request, slug)
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise Http404
    tables = [
        TableOut(
            number=view.table.number,
            seats=[
                SeatOut(
                    seat=seat.position,
                    registration_id=seat.registration_id,
                    player_id=seat.registration.player_id,
                    name=seat.registration.player.full_name,
                    club=seat.registration.player.club.name
                    if seat.registration.player.club
                    else None,
                )
                for seat in view.seats
            ],
            flags=[str(flag.get("code", "")) for flag in view.flags if isinstance(flag, dict)],
        )
        for view in selectors.round_tables(round_=round_)
    ]
    answer = RoundOut(
        number=round_.number,
        status=round_.status,
        seating_mode=round_.seating_mode,
        generated_at=round_.generated_at,
        published_at=round_.published_at,
        clock_started_at=round_.clock_started_at,
        time_limit=round_.time_limit,
        time_called_at=round_.time_called_at,
        tables=tables,
    )
    return private_answer(request, answer.model_dump(mode="json"))


# --- Importing players ----------------------------------------------------------------------------


class PlayerIn(Schema):
    full_name: str = Field(description="at most 120 characters")
    club: str = Field("", description="its name; a club not yet known is added")
    licence_number: str = Field("", description="at most 20 characters, unique in the register")


class PlayersIn(Schema):
    players: list[PlayerIn] = Field(description="at most 5,000")


class ImportedPlayer(Schema):
    id: int
    full_name: str
    club: str | None
    licence_number: str


class ImportOut(Schema):
    created: int = Field(description="new players of the register")
    updated: int = Field(description="register players given the list's licence")
    registered: int = Field(description="entries made in the tournament")
    players: list[ImportedPlayer] = Field(description="every player the list stands for")


class ProblemOut(Schema):
    line: int = Field(description="the player's place in the list, from 1 (0: the whole list)")
    field: str | None = Field(description="full_name, club or licence_number")
    loc: list[str | int] = Field(description="where, as a 422 of a malformed body says it")
    detail: str


class ImportRefusal(Schema):
    detail: str
    field: str | None = Field(description="the first problem's place: players.1.full_name")
    errors: list[ProblemOut]


@tournament_router.post(
    "/{slug}/players",
    response={201: ImportOut, **REFUSED, 404: Refusal, 422: ImportRefusal | ValidationRefusal},
    summary="Import players into the register and register them in the tournament",
)
def players_import(request: AuthenticatedHttpRequest, slug: str, body: PlayersIn):
    """The import page's service: new players are added to the register (their clubs too), and
    every player of the list is registered in the tournament; a player already in the register
    (by licence, or by name and club) is not added twice. All or nothing: any wrong player
    refuses the whole list, each problem named by its line and field."""
    tournament = organised(request, slug)
    if not permissions.is_federation_staff(request.user):
        raise HttpError(403, _("Only federation staff import players into the register."))
    players = [
        CsvPlayer(
            line=line,
            full_name=player.full_name.strip(),
            club=player.club.strip(),
            licence_number=player.licence_number.strip(),
        )
        for line, player in enumerate(body.players, 1)
    ]
    try:
        result = services.players_import(
            players=players,
            by=request.user,
            ip_address=client_ip(request),
            tournament=tournament,
        )
    except services.ImportRefusedError as refusal:
        errors = [problem_out(problem) for problem in refusal.problems]
        refused = ImportRefusal(
            detail=str(refusal), field=field_path(errors[0]) if errors else None, errors=errors
        )
        return JsonResponse(
            refused.model_dump(mode="json"), status=422, json_dumps_params=UNESCAPED
        )
    except services.ServiceError as error:  # the tournament refuses entries
        refused = ImportRefusal(detail=str(error), field=None, errors=[])
        return JsonResponse(
            refused.model_dump(mode="json"), status=422, json_dumps_params=UNESCAPED
        )
    imported = ImportOut(
        created=len(result.created),
        updated=len(result.updated),
        registered=result.registered,
        players=[
            ImportedPlayer(
                id=player.pk,
                full_name=player.full_name,
                club=player.club.name if player.club else None,
                licence_number=player.licence_number,
            )
            for player in result.players
        ],
    )
    # Answered here, not as ninja's (status, body) pair, which its versions spell differently.
    return JsonResponse(imported.model_dump(mode="json"), status=201, json_dumps_params=UNESCAPED)


def problem_out(problem: services.LineProblem) -> ProblemOut:
    """A problem of the list where a program finds it: its line (the player's place, from 1),
    its field, and the body's path to it as ninja's own 422 answers give it."""
    loc: list[str | int] = ["body", "players"]
    message = problem.message
    if problem.line:
        loc.append(problem.line - 1)
    if problem.field:  # a field's problem does not name its line: the path and the words do
        loc.append(problem.field)
        message = _("line %(line)d: %(problem)s") % {"line": problem.line, "problem": message}
    return ProblemOut(line=problem.line, field=problem.field, loc=loc, detail=message)


def field_path(problem: ProblemOut) -> str:
    """`players.3.full_name`: the body's path to the problem (without "body")."""
    return ".".join(str(part) for part in problem.loc[1:])
