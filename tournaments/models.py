"""Tournament models. Only clubs and players so far; tournaments, rounds and tables come later.

Meta options are tuples: immutable class attributes (ruff RUF012), the same to Django.
"""

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
