"""Fees and the prize fund: a tournament's fee categories."""

from decimal import Decimal

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class FeeCategory(models.Model):
    """One entry fee of a tournament ("Standard" 15,00 €, "Dāmām" 10,00 €); the first in order
    is the fee of a registration without a category."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="fee_categories",
        verbose_name=_("tournament"),
    )
    name = models.CharField(_("name"), max_length=60)
    amount = models.DecimalField(
        _("fee (€)"),
        max_digits=8,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0))],
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ("order", "pk")
        verbose_name = _("fee category")
        verbose_name_plural = _("fee categories")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "name"], name="fee_category_name_once_per_tournament"
            ),
        )

    def __str__(self) -> str:
        return self.name
