"""Fixtures shared by the whole test suite (pytest-django provides `db`, `client`, ...)."""
