"""A stored choice as people read it."""

from django.db.models import TextChoices


def choice_label(choices: type[TextChoices], value: object) -> str:
    """The choice's label in the reader's language, or the value as it is stored when it is not
    one of the choices (any more: a level or a status a later version dropped)."""
    if isinstance(value, str) and value in choices.values:
        return str(choices(value).label)
    return str(value)
