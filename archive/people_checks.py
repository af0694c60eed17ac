"""The checks of an archive's people: its clubs, players, registrations with their fees, fee
categories and sign-ups online. A part of `Checker` (archive.checking), which holds the
archive, its version and the settings these checks read."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.db import models

from archive.plan import (
    PlannedEntryFee,
)
from archive.reading import (
    SMALL,
    ArchiveError,
    as_list,
    as_object,
    clean_row,
    cleaned,
    is_id,
    moment_field,
    name_field,
    required,
    shown,
    text_field,
    username_field,
    whole_field,
)
from core.model_columns import concrete_field
from signups.models import SignUp, SignUpStatus
from tournaments.models import FeeCategory, Player, Registration


class PeopleChecks:
    """The checks of the clubs, players and entries of `Checker`; it provides `archive`,
    `version`, `registrations`, `_added_in` and `_setting`."""

    archive: dict[str, Any]
    version: int
    registrations: dict[int, Registration]

    if TYPE_CHECKING:  # Checker's, declared for the type checker

        def _added_in(
            self,
            version: int,
            key: str,
            default: object,
            data: Mapping[str, Any] | None = None,
            where: str = "the archive",
        ) -> Any: ...

        @staticmethod
        def _setting(model_field: models.Field, value: object, where: str) -> object: ...

    def _clubs(self) -> dict[str, str]:
        clubs: dict[str, str] = {}
        for index, item in enumerate(
            as_list(required(self.archive, "clubs", "the archive"), "clubs"), 1
        ):
            where = f"club {index}"
            club = as_object(item, where)
            name = name_field(club, "name", where, max_length=120)
            city = text_field(club, "city", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            if name in clubs:
                raise ArchiveError(f"{where}: club {shown(name)} is listed twice")
            clubs[name] = city
        return clubs

    def _players(self, clubs: dict[str, str]) -> dict[int, tuple[str, str | None, str]]:
        players: dict[int, tuple[str, str | None, str]] = {}
        licences: set[str] = set()
        items = as_list(required(self.archive, "players", "the archive"), "players")
        for index, item in enumerate(items, 1):
            where = f"player {index}"
            data = as_object(item, where)
            player_id = whole_field(data, "id", where, low=1, high=2**63 - 1)
            name = name_field(data, "name", where, max_length=120)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            club = cleaned(required(data, "club", where))
            if club is not None and (not isinstance(club, str) or club not in clubs):
                raise ArchiveError(f"{where}: club {shown(club)} is not among the clubs")
            licence = required(data, "licence", where) or ""
            if not isinstance(licence, str) or len(licence) > 20:
                raise ArchiveError(f"{where}: licence must be a text of at most 20 characters")
            if licence and licence in licences:
                raise ArchiveError(f"{where}: licence {licence} belongs to two players")
            if player_id in players:
                raise ArchiveError(f"{where}: player id {player_id} is used twice")
            clean_row(Player(full_name=name, licence_number=licence), where, exclude=("club",))
            licences.add(licence)
            players[player_id] = (name, club, licence)
        return players

    def _registrations(
        self, players: dict[int, tuple[str, str | None, str]]
    ) -> dict[int, Registration]:
        entries: dict[int, Registration] = {}
        seen_players: set[int] = set()
        items = as_list(required(self.archive, "entries", "the archive"), "entries")
        for index, item in enumerate(items, 1):
            where = f"entry {index}"
            data = as_object(item, where)
            registration_id = whole_field(data, "id", where, low=1, high=2**63 - 1)
            player_id = required(data, "player", where)
            if not is_id(player_id) or player_id not in players:
                raise ArchiveError(f"{where}: player {shown(player_id)} is not among the players")
            if player_id in seen_players:
                raise ArchiveError(f"{where}: player {player_id} is entered twice")
            if cleaned(required(data, "name", where)) != players[player_id][0]:
                raise ArchiveError(f"{where}: the name is not the player's name")
            if registration_id in entries:
                raise ArchiveError(f"{where}: entry id {registration_id} is used twice")
            entry = Registration(
                player_id=player_id,
                team=name_field(data, "team", where, max_length=80),
                first_round=whole_field(data, "first_round", where, low=0, high=SMALL),
                withdrawn_after_round=whole_field(
                    data, "withdrawn_after_round", where, low=0, high=SMALL, null=True
                ),
                fixed_table=whole_field(data, "fixed_table", where, low=0, high=SMALL, null=True),
            )
            clean_row(entry, where, exclude=("tournament", "player"))
            seen_players.add(player_id)
            entries[registration_id] = entry
        return entries

    def _fee_categories(self) -> list[FeeCategory]:
        categories: list[FeeCategory] = []
        items = as_list(self._added_in(4, "fee_categories", []), "fee_categories")
        for index, item in enumerate(items, 1):
            where = f"fee category {index}"
            data = as_object(item, where)
            name = name_field(data, "name", where, max_length=60)
            if not name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            if name in {category.name for category in categories}:
                raise ArchiveError(f"{where}: {shown(name)} is listed twice")
            category = FeeCategory(
                name=name,
                # A decimal column without null: _setting gives a Decimal or refuses.
                amount=cast(
                    Decimal,
                    self._setting(
                        concrete_field(FeeCategory, "amount"),
                        required(data, "amount", where),
                        where,
                    ),
                ),
                order=whole_field(data, "order", where, low=0, high=SMALL),
            )
            clean_row(category, where, exclude=("tournament",))
            categories.append(category)
        return categories

    def _entry_fees(
        self, categories: set[str]
    ) -> tuple[dict[int, PlannedEntryFee], dict[int, datetime.datetime]]:
        """Each entry's fee (its category by name, when it was paid and to whom) and when it
        registered: archive 4 on; an older archive has none (unpaid, registered now)."""
        fees: dict[int, PlannedEntryFee] = {}
        registered_at: dict[int, datetime.datetime] = {}
        if self.version < 4:
            return fees, registered_at
        items = as_list(required(self.archive, "entries", "the archive"), "entries")
        for index, (registration_id, entry) in enumerate(self.registrations.items(), 1):
            where = f"entry {index}"
            data = items[index - 1]
            given = cleaned(required(data, "fee_category", where))
            category = given if isinstance(given, str) else None
            if given is not None and category not in categories:
                raise ArchiveError(f"{where}: fee_category {shown(given)} is no fee category")
            entry.fee_paid_at = moment_field(data, "fee_paid_at", where)
            paid_to = username_field(required(data, "fee_paid_to", where), where)
            if paid_to is not None and entry.fee_paid_at is None:
                raise ArchiveError(f"{where}: a fee paid to someone has the moment it was paid")
            fees[registration_id] = PlannedEntryFee(category, paid_to)
            moment = moment_field(data, "registered_at", where)
            if moment is not None:
                registered_at[registration_id] = moment
        return fees, registered_at

    def _signups(self, players: dict[int, tuple[str, str | None, str]]) -> list[SignUp]:
        signups: list[SignUp] = []
        linked: set[int] = set()
        items = as_list(self._added_in(4, "signups", []), "signups")
        for index, item in enumerate(items, 1):
            where = f"online registration {index}"
            data = as_object(item, where)
            status = required(data, "status", where)
            if status not in SignUpStatus.values:
                raise ArchiveError(f"{where}: unknown status {shown(status)}")
            player = required(data, "player", where)
            if player is not None and (not is_id(player) or player not in players):
                raise ArchiveError(f"{where}: player {shown(player)} is not among the players")
            entry = required(data, "entry", where)
            if entry is not None and (not is_id(entry) or entry not in self.registrations):
                raise ArchiveError(f"{where}: {shown(entry)} is not an entry")
            if entry is not None and entry in linked:
                raise ArchiveError(f"{where}: entry {entry} comes from two online registrations")
            if (entry is not None) != (status == SignUpStatus.ACCEPTED):
                raise ArchiveError(f"{where}: an accepted registration, and only it, has its entry")
            queued_at = moment_field(data, "queued_at", where)
            if queued_at is None:
                raise ArchiveError(f"{where}: queued_at is missing")
            # Archives written before sign-ups kept their language: the site's own.
            language = data.get("language", settings.LANGUAGE_CODE)
            if language not in dict(settings.LANGUAGES):
                raise ArchiveError(f"{where}: unknown language {shown(language)}")
            signup = SignUp(
                full_name=name_field(data, "name", where, max_length=120),
                club=name_field(data, "club", where, max_length=120),
                licence_number=text_field(data, "licence", where, max_length=20),
                contact=text_field(data, "contact", where, max_length=120),
                language=language,
                status=status,
                queued_at=queued_at,
                player_id=player,
                registration_id=entry,
            )
            created_at = moment_field(data, "created_at", where)
            if created_at is not None:  # otherwise left to bulk_create, which stamps "now"
                signup.created_at = created_at
            if not signup.full_name.strip():
                raise ArchiveError(f"{where}: the name is empty")
            clean_row(signup, where, exclude=("tournament", "player", "registration"))
            if entry is not None:
                linked.add(entry)
            signups.append(signup)
        return signups
