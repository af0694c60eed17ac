"""The failure count of the rate limits (core.ratelimit) when no shared cache is configured, so
that every gunicorn worker and server reads the same count."""

from __future__ import annotations

from django.db import models


class FailureCount(models.Model):
    """Failures of one kind (`scope`: bad sign-ins, unknown table links) from one client
    address, in the window that started at the first of them and ends at `expires_at`."""

    scope = models.CharField(max_length=32)
    address = models.CharField(max_length=64)  # an IPv4 address, an IPv6 /64, or "unknown"
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "zole_site_failurecount"  # created by zole_site's migration 0001, kept as it is
        constraints = (
            models.UniqueConstraint(fields=["scope", "address"], name="failure_count_unique"),
        )

    def __str__(self) -> str:
        return f"{self.scope} {self.address}: {self.count} until {self.expires_at}"
