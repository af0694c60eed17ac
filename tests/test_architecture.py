"""The import contracts of pyproject.toml (README, "Architecture") cover the whole project."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "engine",
    "core",
    "tournaments",
    "accounts",
    "signups",
    "hall",
    "scoring",
    "notices",
    "ranking",
    "archive",
    "documents",
    "entry",
    "organise",
    "public",
    "api",
    "demo",
    "zole_site",
)


def contract(contract_id: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(each for each in contracts if each["id"] == contract_id)


def project_packages() -> set[str]:
    return {
        ".".join(init.parent.relative_to(ROOT).parts)
        for app in APPS
        for init in (ROOT / app).rglob("__init__.py")
        if "migrations" not in init.parts
    }


def test_no_circle_is_checked_in_every_package_of_the_project():
    assert set(contract("no-circles")["ancestors"]) == project_packages()
