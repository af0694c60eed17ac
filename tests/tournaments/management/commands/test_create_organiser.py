"""`make organiser` (manage.py create_organiser): a fresh installation gets an account to sign in
with, and the command says how."""

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("create_organiser", *args, stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str:
    match = re.search(r"as organiser with the password (\S+)", output)
    assert match, output
    return match.group(1)


def test_a_fresh_installation_gets_a_staff_account_that_signs_in(client):
    password = printed_password(run())
    assert User.objects.get(username="organiser").is_staff
    assert client.login(username="organiser", password=password)


def test_a_second_run_keeps_the_password(client):
    password = printed_password(run())
    assert "exists; its password is unchanged" in run()
    assert client.login(username="organiser", password=password)


def test_reset_gives_a_new_password(client):
    old = printed_password(run())
    new = printed_password(run("--reset"))
    assert new != old
    assert client.login(username="organiser", password=new)
    assert not client.login(username="organiser", password=old)


def test_a_blank_name_is_refused():
    with pytest.raises(CommandError, match="needs a name"):
        run("--username", "  ")
    assert not User.objects.exists()
