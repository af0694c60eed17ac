"""Tournament models: clubs, players, tournaments and their options, entries, rounds, tables.

Meta options are tuples: immutable class attributes (ruff RUF012), the same to Django.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    full_name = models.CharField(max_length=120)
    # PROTECT: deleting a club must not silently delete its players' history.
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
    )
    # Blank (not NULL) when unknown, per Django's convention for text fields; so uniqueness
    # has to exclude the blank value explicitly.
    licence_number = models.CharField(max_length=20, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("full_name",)
        constraints = (
            models.UniqueConstraint(
                fields=["licence_number"],
                condition=~Q(licence_number=""),
                name="player_licence_number_unique_when_set",
            ),
        )

    def __str__(self) -> str:
        return self.full_name


class Level(models.TextChoices):
    CLUB = "club", "club"
    DISTRICT = "district", "district"
    NATIONAL = "national", "national"


class AllPass(models.TextChoices):
    PULE = "pule", "a common pule is written"
    GALDINS = "galdins", "galdiņš is played"


class PersonalPulePayment(models.TextChoices):
    N_MINUS_1 = "N-1", "N − 1 points"
    N = "N", "N points"


class SeatingMode(models.TextChoices):
    RANDOM = "random", "random draw"
    SWISS = "swiss", "by standings (swiss)"
    MIX = "mix", "maximal mixing"


class StandingsOrder(models.TextChoices):
    PLACE_POINTS = (
        "place_points,game_points,last_round_game_points",
        "place points, then game points, then the last round's game points",
    )
    PLACE_POINTS_WINS = (
        "place_points,wins,game_points",
        "place points, then table wins, then game points",
    )
    GAME_POINTS = "game_points", "game points alone"


class Role(models.TextChoices):
    """What an account does in a tournament (tournaments/roles.py says what each may do)."""

    ORGANISER = "organiser", "organiser"
    CHIEF_REFEREE = "chief_referee", "chief referee"
    REFEREE = "referee", "table referee"


class Tournament(models.Model):
    """A tournament and its options: each option is stored once, here, and read by the engine."""

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    venue = models.CharField(max_length=160, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    level = models.CharField(max_length=10, choices=Level.choices, default=Level.CLUB)
    # The rule-set options of RULES.md.
    all_pass = models.CharField(max_length=8, choices=AllPass.choices, default=AllPass.PULE)
    small_zole = models.BooleanField(default=False)
    personal_pule_payment = models.CharField(
        max_length=3, choices=PersonalPulePayment.choices, default=PersonalPulePayment.N_MINUS_1
    )
    rounds_planned = models.PositiveSmallIntegerField(default=5)
    deals_per_round = models.PositiveSmallIntegerField(default=24)
    place_points_three = models.CharField(max_length=40, default="6,4,2")
    place_points_four = models.CharField(max_length=40, default="6,4,2,0")
    standings_order = models.CharField(
        max_length=80, choices=StandingsOrder.choices, default=StandingsOrder.PLACE_POINTS
    )
    first_round_seating = models.CharField(
        max_length=8, choices=SeatingMode.choices, default=SeatingMode.RANDOM
    )
    later_rounds_seating = models.CharField(
        max_length=8, choices=SeatingMode.choices, default=SeatingMode.SWISS
    )
    avoid_same_club = models.BooleanField(default=True)
    teams_enabled = models.BooleanField(default=False)
    # The language its documents (score sheets, seating lists, protocols) are printed in.
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="lv")
    # Who may do what is decided in tournaments/roles.py; these relations only record it.
    # Organisers run this tournament (federation staff organise every tournament anyway).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments"
    )
    # The galvenais tiesnesis: confirms any table, and alone unlocks a confirmed one.
    chief_referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tournaments"
    )
    # Table referees' accounts: the organiser assigns them to tables (Table.referees).
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="table_referee_tournaments"
    )
    # Maximal mixing plans the remaining rounds at once; later rounds continue this plan.
    mix_plan = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-starts_on", "name")

    def __str__(self) -> str:
        return self.name

    def is_chief_referee(self, user) -> bool:
        """Kept for the callers in scoring.services; the rule lives in tournaments.roles."""
        from tournaments import roles  # roles imports this module

        return roles.is_chief_referee(user, self)

    def seating_mode_for(self, round_number: int) -> str:
        return self.first_round_seating if round_number == 1 else self.later_rounds_seating


class Entry(models.Model):
    """A player's registration in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    team = models.CharField(max_length=80, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    # A late entry joins from a later round; earlier rounds count as not played.
    first_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # A player who needs a particular table (accessibility) sits there every round.
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ("player__full_name",)
        constraints = (
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once_per_player"),
        )

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None


class RoundStatus(models.TextChoices):
    DRAFT = "draft", "draft"
    PUBLISHED = "published", "published"
    IN_PLAY = "in_play", "in play"
    CLOSED = "closed", "closed"


class Round(models.Model):
    """A round (kārta): draft → published → in play → closed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    seating_mode = models.CharField(max_length=8, choices=SeatingMode.choices)
    seed = models.PositiveIntegerField(null=True, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    generated_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class CheckIn(models.Model):
    """An entry is present for a round; only checked-in players are seated."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["round", "entry"], name="check_in_once_per_round"),
        )

    def __str__(self) -> str:
        return f"{self.entry} · round {self.round.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    first_dealer_position = models.PositiveSmallIntegerField(default=1)
    # Why the table is as it is, from the engine: [{"code": "repeat_meeting", "detail": "..."}].
    flags = models.JSONField(default=list, blank=True)
    # Referee accounts assigned to this table: they enter its deals signed in, without the link.
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_tables"
    )

    class Meta:
        ordering = ("round", "number")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


def new_table_token() -> str:
    # 32 bytes from the OS's CSPRNG: unguessable, and short enough for a QR code.
    return secrets.token_urlsafe(32)


class TableToken(models.Model):
    """The private entry link of a table (/r/<token>/), revocable by the organiser."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tokens")
    token = models.CharField(max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.table} token"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()  # 1-based, each to the left of the previous
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ("table", "position")
        constraints = (
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "entry"], name="seat_once_per_table"),
        )

    def __str__(self) -> str:
        return f"{self.table} · seat {self.position}"


class AuditEntry(models.Model):
    """One organiser or referee action, with a typed code (who, when, from where, what)."""

    class Action(models.TextChoices):
        ROUND_GENERATED = "round.generated", "seating generated"
        ROUND_REGENERATED = "round.regenerated", "published seating regenerated"
        ROUND_SWAP = "round.swap", "players swapped"
        ROUND_PUBLISHED = "round.published", "round published"
        PLAYERS_IMPORTED = "players.imported", "players imported"
        ENTRY_WITHDRAWN = "entry.withdrawn", "entry withdrawn"
        DEAL_ENTERED = "deal.entered", "deal entered"
        DEAL_CORRECTED = "deal.corrected", "deal corrected"
        DEAL_REMOVED = "deal.removed", "deal removed"
        PENALTY_GIVEN = "penalty.given", "penalty pule given"
        TABLE_CONFIRMED = "table.confirmed", "table confirmed"
        TABLE_UNLOCKED = "table.unlocked", "table unlocked"
        TOKEN_ISSUED = "token.issued", "table link issued"
        TOKEN_REVOKED = "token.revoked", "table link revoked"
        ROUND_CLOSED = "round.closed", "round closed"
        ROLE_GRANTED = "role.granted", "role given"
        ROLE_REVOKED = "role.revoked", "role taken away"
        TABLE_REFEREES = "table.referees", "table referees assigned"
        TOURNAMENT_IMPORTED = "tournament.imported", "tournament imported from an archive"

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    table = models.ForeignKey(
        "Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    action = models.CharField(max_length=40, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-id")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"
