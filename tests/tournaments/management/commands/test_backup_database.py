"""`manage.py backup_database`: a timestamped copy that opens with the same rows (SQLite), a
pg_dump archive (PostgreSQL), and a clear message when pg_dump is missing."""

from __future__ import annotations

import io
import re
import shutil
import sqlite3

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.factories import make_registrations, make_tournament
from tournaments.management.commands import backup_database
from tournaments.models import Player, Registration, Tournament

# Committed rows: the backup reads the database as other connections see it.
pytestmark = pytest.mark.django_db(transaction=True)

on_sqlite = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite backup: this run is on PostgreSQL"
)
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="pg_dump: this run is on SQLite"
)


def backup(directory) -> str:
    out = io.StringIO()
    call_command("backup_database", directory=str(directory), stdout=out)
    return out.getvalue()


@on_sqlite
def test_the_sqlite_backup_opens_with_the_same_rows(tmp_path):
    tournament = make_tournament(name="Ziemassvētku kauss")
    make_registrations(tournament, 9, clubs=2)

    printed = backup(tmp_path)

    (path,) = tmp_path.iterdir()
    assert re.fullmatch(r"zole-\d{8}-\d{6}\.sqlite3", path.name)
    assert str(path) in printed
    copy = sqlite3.connect(path)
    try:
        # One self-contained file, no -wal beside it, and SQLite finds nothing wrong with it.
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for model in (Tournament, Player, Registration):
            table = model._meta.db_table
            (count,) = copy.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert count == model.objects.count(), table
        names = copy.execute("SELECT name FROM tournaments_tournament").fetchall()
        assert names == [("Ziemassvētku kauss",)]
    finally:
        copy.close()


@on_sqlite
def test_two_backups_in_the_same_second_are_two_files(tmp_path):
    make_tournament()

    backup(tmp_path)
    backup(tmp_path)

    files = sorted(path.name for path in tmp_path.iterdir())
    assert len(files) == 2
    assert not any(name.endswith(".partial") for name in files)


@on_postgresql
@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
def test_the_postgresql_backup_is_a_pg_dump_archive(tmp_path):
    make_tournament(name="Ziemassvētku kauss")

    backup(tmp_path)

    (path,) = tmp_path.iterdir()
    assert re.fullmatch(r"zole-\d{8}-\d{6}\.dump", path.name)
    assert path.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format, for pg_restore


def test_without_pg_dump_the_message_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(backup_database.shutil, "which", lambda name: None)

    with pytest.raises(CommandError, match=r"pg_dump is not installed.*postgresql-client"):
        backup_database.backup_postgresql(connection, tmp_path / "zole.dump")
    assert list(tmp_path.iterdir()) == []
