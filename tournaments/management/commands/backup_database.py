"""`manage.py backup_database`: a consistent copy of the whole database in a timestamped file,
taken while the site keeps running.

- SQLite: SQLite's online backup API (a snapshot, even while referees write), checked with
  PRAGMA quick_check, as a single self-contained file: zole-YYYYMMDD-HHMMSS.sqlite3.
- PostgreSQL: pg_dump in its custom format (restore with pg_restore): zole-YYYYMMDD-HHMMSS.dump.

The file appears under its final name only once complete: a backup cut short by a crash or a
full disk leaves a *.partial file, never a truncated backup that looks whole."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".dump"}


class Command(BaseCommand):
    help = (
        "Copy the database to a timestamped file in --directory (default BACKUP_DIR): SQLite "
        "through its online backup API, PostgreSQL through pg_dump. Prints the file's path."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--directory",
            metavar="DIR",
            default=str(settings.BACKUP_DIR),
            help="where the backup goes (created if missing); default: %(default)s",
        )
        parser.add_argument(
            "--database",
            default=DEFAULT_DB_ALIAS,
            help="the database alias to back up; default: %(default)s",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        suffix = SUFFIXES.get(connection.vendor)
        if suffix is None:
            raise CommandError(f"backups of {connection.vendor} databases are not supported")
        directory = Path(options["directory"])
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot create {directory}: {error.strerror}") from None
        target = unused_path(directory, timezone.localtime().strftime("zole-%Y%m%d-%H%M%S"), suffix)
        partial = target.with_name(target.name + ".partial")
        try:
            if connection.vendor == "sqlite":
                backup_sqlite(connection, partial)
            else:
                backup_postgresql(connection, partial)
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        size = target.stat().st_size
        self.stdout.write(f"{target} ({size // 1024} kB)")


def unused_path(directory: Path, stem: str, suffix: str) -> Path:
    """stem+suffix, or stem-2+suffix, ... if two backups start within the same second."""
    path = directory / f"{stem}{suffix}"
    number = 2
    while path.exists():
        path = directory / f"{stem}-{number}{suffix}"
        number += 1
    return path


def backup_sqlite(connection: BaseDatabaseWrapper, path: Path) -> None:
    connection.ensure_connection()
    source: sqlite3.Connection = connection.connection
    destination = sqlite3.connect(path)
    try:
        # The whole database in one step: with WAL, writers go on meanwhile.
        source.backup(destination)
        # One file to copy or restore, without a -wal file beside it.
        destination.execute("PRAGMA journal_mode=DELETE")
        (result,) = destination.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as error:
        raise CommandError(f"the SQLite backup failed: {error}") from None
    finally:
        destination.close()
    if result != "ok":
        raise CommandError(f"the backup copy fails SQLite's check: {result}")


def backup_postgresql(connection: BaseDatabaseWrapper, path: Path) -> None:
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise CommandError(
            "pg_dump is not installed, so PostgreSQL cannot be backed up from here: install "
            "PostgreSQL's client tools (Debian: apt-get install postgresql-client, of the "
            "server's major version or newer), or back up on the database server itself."
        )
    # Django's own psql arguments (user, host, port, password, SSL options) suit pg_dump too.
    arguments, environment = connection.client.settings_to_cmd_args_env(
        connection.settings_dict, ["--format=custom", f"--file={path}"]
    )
    arguments = [pg_dump, *arguments[1:]]
    completed = subprocess.run(
        arguments,
        env={**os.environ, **(environment or {})},
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise CommandError(f"pg_dump failed: {completed.stderr.strip()}")
