"""The audit log as the organiser reads it: each record in words (players by name, games in the
sheet's words, seatings table by table) with what it changed, before and after. The records
are read by `tournaments.selectors.audit_records`; this is how they are shown."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.choices import choice_label
from core.engine_text import GAME_WORDS
from signups.models import SignUpStatus
from tournaments.models import AuditRecord, Role, SeatingMode, Tournament
from tournaments.selectors.audit import registration_names


@dataclass(frozen=True)
class AuditChange:
    """One thing an action changed, as people read it: what, before → after."""

    label: str
    before: str
    after: str


@dataclass(frozen=True)
class AuditRow:
    """An audit record ready to read: when, who, from where, what, and what changed."""

    record: AuditRecord
    who: str
    where: str
    what: str
    place: str
    facts: list[tuple[str, str]]
    changes: list[AuditChange]


def audit_rows(records: Iterable[AuditRecord], *, tournament: Tournament) -> list[AuditRow]:
    """The records in words: players by name (the log keeps registration ids), games in the sheet's
    words, seatings table by table. One query for the names, whatever the page."""
    names = registration_names(tournament=tournament)
    return [AuditPresenter(record, names).row() for record in records]


NOTHING = "—"


# The label of each key the services write into an audit record's detail (the keys are stored
# in English and never change; the labels are translated when the page is shown).
FACT_LABELS: dict[str, Promise] = {
    "mode": _("Seating"),
    "seed": _("Seed"),
    "players": _("Players seated"),
    "imported": _("Players imported"),
    "skipped": _("Lines skipped"),
    "player": _("Player"),
    "after_round": _("Withdraws after round"),
    "swapped": _("Swapped"),
    "warnings": _("Warnings"),
    "reason": _("Reason"),
    "confirmed_by": _("Confirmed by"),
    "totals": _("Totals"),
    "role": _("Role"),
    "username": _("Account"),
    "tables": _("Tables left"),
    "season": _("Season"),
    "history_entries": _("Earlier audit records"),
    "new_table_links": _("New table links"),
    "round": _("Round"),
    "position": _("Entry"),
    "via": _("Entered through"),
    "before": _("Before"),
    "after": _("After"),
    "detail": _("Detail"),
    "invited": _("Invited (no: invitation withdrawn)"),
    "whole_season": _("For every final of the season"),
    "time_limit": _("Time limit (minutes)"),
    "started_at": _("Clock started at"),
    "ends_at": _("Time runs out at"),
    "time_called_at": _("Time called at"),
    "seconds_left": _("Seconds left"),
    "time_was_up": _("Time was up"),
    "time_called": _("Confirmed when time was up"),
    "present_not_seated": _("Present but not seated"),
    "seated_not_present": _("Seated but not checked in"),
    "deals": _("Deals played"),
    "first_round": _("First round"),
    "checked_in": _("Checked in"),
    "checked_out": _("No longer checked in"),
    "present": _("Players present"),
    "club": _("Club"),
    "city": _("City"),
    "created": _("Created"),
    "status": _("List"),
    "category": _("Fee category"),
    "paid": _("Paid"),
    "unpaid": _("Not paid"),
    "paid_count": _("Fees paid in all"),
    "text": _("Text"),
}


# Keys whose value is a moment (ISO text in the log): shown in local time, the reader's way.
MOMENT_KEYS = frozenset({"started_at", "ends_at", "time_called_at"})


# A key whose label depends on the action: (action, key) → label.
ACTION_FACT_LABELS: dict[tuple[str, str], Promise] = {
    (AuditRecord.Action.QUALIFIERS_REGISTERED.value, "players"): _("Players registered"),
    (AuditRecord.Action.REGISTRATIONS_CREATED.value, "players"): _("Players registered"),
    (AuditRecord.Action.SIGNUP_ACCEPTED.value, "players"): _("Players accepted"),
    (AuditRecord.Action.FEE_CATEGORY_SET.value, "players"): _("Players"),
}


# How a writer reached the sheet ("via"), in words.
VIA_WORDS: dict[str, Promise] = {
    "link": _("the table's private link"),
    "account": _("a signed-in account"),
}


# Shown in the place and the "who" of a row rather than as facts.
PLACE_KEYS = frozenset({"round", "position", "via", "before", "after"})


@dataclass(frozen=True)
class AuditPresenter:
    record: AuditRecord
    names: dict[str, str]  # registration id (as text) → the player's name

    def row(self) -> AuditRow:
        record, detail = self.record, self.detail
        return AuditRow(
            record=record,
            who=self.who(),
            where=record.ip_address or NOTHING,
            what=record.get_action_display(),
            place=self.place(),
            facts=[
                (self.label(key), text)
                for key, value in detail.items()
                if key not in PLACE_KEYS
                for text in [self.fact(key, value)]
                if text
            ],
            changes=self.changes(),
        )

    @property
    def detail(self) -> dict[str, object]:
        detail = self.record.detail
        return detail if isinstance(detail, dict) else {"detail": detail}

    def label(self, key: str) -> str:
        """A detail key as people read it; a key no service writes today shows as it is."""
        label = ACTION_FACT_LABELS.get((self.record.action, key)) or FACT_LABELS.get(key)
        return str(label) if label is not None else key.replace("_", " ")

    def who(self) -> str:
        user = self.record.user
        via_link = self.detail.get("via") == "link"
        if user is not None:
            name = user.get_full_name() or user.username
            if via_link:
                return _("%(name)s, through the table's private link") % {"name": name}
            return name
        if via_link:
            return str(VIA_WORDS["link"])
        return str(_("the system"))

    def place(self) -> str:
        parts = []
        table = self.record.table
        round_number = table.round.number if table is not None else self.detail.get("round")
        if round_number is not None:
            parts.append(_("round %(number)s") % {"number": round_number})
        if table is not None:
            parts.append(_("table %(number)s") % {"number": table.number})
        if self.detail.get("position") is not None:
            parts.append(_("entry %(number)s") % {"number": self.detail["position"]})
        return " · ".join(str(part) for part in parts)

    def name(self, key: object) -> str:
        return self.names.get(str(key), str(key))

    def fact(self, key: str, value: object) -> str:
        if value is None or value == [] or value == {}:
            return ""
        if key == "mode":
            return choice_label(SeatingMode, value)
        if key == "role":
            return choice_label(Role, value)
        if key == "status":
            return signup_status(value)
        if key == "via" and isinstance(value, str) and value in VIA_WORDS:
            return str(VIA_WORDS[value])
        if key in MOMENT_KEYS and isinstance(value, str):
            moment = parse_datetime(value)
            if moment is not None and timezone.is_aware(moment):
                return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
            return value
        if key == "swapped" and isinstance(value, list):
            return " ↔ ".join(str(name) for name in value)
        if key == "totals" and isinstance(value, dict):
            return self.points(value)
        if key == "tables" and isinstance(value, list):
            return ", ".join(
                str(_("round %(round)s, table %(table)s") % {"round": pair[0], "table": pair[1]})
                for pair in value
                if isinstance(pair, list) and len(pair) == 2
            )
        return plain(value)

    def points(self, by_entry: dict[str, object]) -> str:
        return ", ".join(f"{self.name(key)} {signed(points)}" for key, points in by_entry.items())

    def changes(self) -> list[AuditChange]:
        detail = self.detail
        if "before" not in detail and "after" not in detail:
            return []
        before, after = detail.get("before"), detail.get("after")
        action = self.record.action
        if action.startswith(("deal.", "penalty.")):
            return [AuditChange(str(_("Entry")), self.deal(before), self.deal(after))]
        if action == AuditRecord.Action.TABLE_UNLOCKED:
            shown = self.points(before) if isinstance(before, dict) else plain(before)
            return [AuditChange(str(_("Confirmed result")), shown, str(_("unlocked")))]
        if action == AuditRecord.Action.ROUND_REGENERATED:
            return self.seating_changes(before, after)
        if action == AuditRecord.Action.TABLE_REFEREES:
            return [AuditChange(str(_("Referees")), plain(before), plain(after))]
        if action.startswith("signup."):
            return [AuditChange(str(_("List")), signup_status(before), signup_status(after))]
        return [AuditChange(str(_("Value")), plain(before), plain(after))]

    def seating_changes(self, before: object, after: object) -> list[AuditChange]:
        """Only the tables whose players changed, each as its seats in order."""
        old = before if isinstance(before, list) else []
        new = after if isinstance(after, list) else []
        changes = []
        for index in range(max(len(old), len(new))):
            was = old[index] if index < len(old) else []
            now = new[index] if index < len(new) else []
            if was != now:
                label = _("Table %(number)s") % {"number": index + 1}
                changes.append(AuditChange(str(label), plain(was), plain(now)))
        return changes

    def deal(self, deal: object) -> str:
        """A stored deal in the sheet's words: "lielais · Anna: 75 points, 5 tricks"."""
        if not isinstance(deal, dict) or not deal:
            return NOTHING
        kind = deal.get("kind")
        if kind == "void":
            return str(_("removed"))
        if kind == "pass":
            return str(GAME_WORDS["pass"])
        if kind == "penalty":
            return f"{GAME_WORDS['penalty']} · {self.name(deal.get('player_id'))}"
        if kind == "galdins":
            galdins = deal.get("galdins") or {}
            tricks, points = galdins.get("tricks", {}), galdins.get("points", {})
            players = ", ".join(
                str(
                    _("%(name)s: %(points)s points, %(tricks)s tricks")
                    % {"name": self.name(key), "points": points.get(key), "tricks": count}
                )
                for key, count in tricks.items()
            )
            return f"{GAME_WORDS['galdins']} · {players}"
        game = str(GAME_WORDS.get(str(deal.get("game")), deal.get("game")))
        declarer = self.name(deal.get("player_id"))
        if deal.get("points") is None:
            score = _("%(tricks)s tricks") % {"tricks": deal.get("tricks")}
        else:
            score = _("%(points)s points, %(tricks)s tricks") % {
                "points": deal.get("points"),
                "tricks": deal.get("tricks"),
            }
        return f"{game} · {declarer}: {score}"


def signup_status(value: object) -> str:
    """An online registration's status as people read it ("on the waiting list")."""
    return choice_label(SignUpStatus, value) if value in SignUpStatus.values else plain(value)


def signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def plain(value: object) -> str:
    """Any stored value as text people read, never JSON: lists joined, pairs as "key: value"."""
    if value is None or value == [] or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, dict):
        return "; ".join(f"{key}: {plain(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(item) for item in value)
    return str(value)
