"""The table entry app: the referee's sheet page (the private link and the signed-in door) and the
phone's sync; registered with Django."""

from django.apps import AppConfig


class EntryConfig(AppConfig):
    name = "entry"
