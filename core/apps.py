"""The core app: Django's registration of the plumbing (its models: the rate limits' failure
count)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The plumbing every app uses: query parameters read safely, access and size checks, rate
    limits (and their failure count), retries after a dropped database connection, the public
    pages' cache, and the engine's words and messages in the reader's language."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Zole core"
