"""`manage.py create_organiser`: a staff account that organises every tournament, with a new
random password printed once (the first step of a fresh installation: `make organiser`)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services.organisers import organiser_account_create
from tournaments.services import ServiceError


class Command(BaseCommand):
    help = (
        "Create the organiser account (federation staff) with a random password and print how "
        "to sign in; --reset gives an existing account a new password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="organiser", help="default: organiser")
        parser.add_argument(
            "--reset", action="store_true", help="an existing account gets a new password"
        )
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/accounts/login/",
            help="the sign-in page to print (default: the development server's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            account = organiser_account_create(username=options["username"], reset=options["reset"])
        except ServiceError as error:
            raise CommandError(str(error)) from None
        if account.password is None:
            self.stdout.write(
                f"The organiser account {account.username!r} exists; its password is unchanged "
                f"(`make organiser` gives it a new one). Sign in at {options['url']}."
            )
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Sign in at {options['url']} as {account.username} "
                f"with the password {account.password}"
            )
        )
        self.stdout.write("Change it on the admin's page once signed in (/admin/password_change/).")
