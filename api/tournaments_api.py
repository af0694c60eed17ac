"""Tournaments, their rounds, tables and standings: what the public pages show, as JSON."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from ninja import Router, Schema

from scoring import selectors

router = Router(tags=["tournaments"])


class TournamentOut(Schema):
    slug: str
    name: str
    venue: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    level: str
    phase: str


@router.get("", response=list[TournamentOut], summary="Tournaments")
def tournament_list(request: HttpRequest):
    listing = selectors.public_tournament_list()
    return [*listing.in_progress, *listing.upcoming, *listing.finished]
