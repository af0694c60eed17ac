"""The archive app: a tournament exported as one JSON file and imported into another database
(`manage.py export_tournament`, `manage.py import_tournament`), registered with Django."""

from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "archive"
