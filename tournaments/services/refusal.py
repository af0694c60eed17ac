"""The refusal every write of the tournament domain raises: what the rules of the tournament refuse,
said in the language of the request."""


class ServiceError(Exception):
    """A request the rules of the tournament refuse; the message says what is wrong, in the
    language of the request (it is shown to the person, never stored)."""
