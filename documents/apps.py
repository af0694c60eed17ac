"""The documents app: the printed score sheets, seating list and standings protocol (PDF),
registered with Django."""

from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "documents"
