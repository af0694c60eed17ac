"""The table entry app: the referee's sheet page (the private link and the signed-in door), the
phone's sync and the organiser's entry links; registered with Django."""

from django.apps import AppConfig


class EntryConfig(AppConfig):
    name = "entry"
