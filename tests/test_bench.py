"""The engine benchmark runs and reports sane figures. No timed assertion: speed is not tested."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM

REPO_ROOT = Path(__file__).resolve().parent.parent
BENCH_SCRIPT = REPO_ROOT / "bench" / "engine.py"


def test_engine_benchmark_quick_run_reports_every_measurement():
    completed = subprocess.run(
        [sys.executable, str(BENCH_SCRIPT), "--quick", "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["sheets"] > 0
    assert figures["deals"] == 24 * figures["sheets"]
    for name in ("floor", "api", "api_json", "jsonl"):
        measurement = figures["measurements"][name]
        assert measurement["deals"] == figures["deals"], name
        assert measurement["seconds"] > 0, name
        assert measurement["deals_per_second"] > 0, name
        assert measurement["ratio_to_floor"] > 0, name
    assert figures["jsonl_lines"] == figures["sheets"]
    assert figures["jsonl_errors"] == 0
    assert figures["jsonl_startup_seconds"] > 0
    assert figures["zero_sum"] is True
    assert isinstance(figures["target_met"], bool)


def test_entry_benchmark_quick_run_reports_every_measurement():
    arguments = ("--tables", "1", "--deals", "2", "--json")
    completed = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "entry.py"), *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["failures"] == 0
    for name in ("trivial_ms", "post_ms", "get_ms", "cold_ms", "deal_ms"):
        assert figures[name] > 0, name
    assert isinstance(figures["target_met"], bool)


def test_offline_entry_benchmark_quick_run_reports_every_measurement():
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    completed = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "offline.py"), "--quick", "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr[-3000:]
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["failures"] == 0
    for name in (
        "save_online_ms",
        "save_offline_ms",
        "save_plain_ms",
        "first_load_ms",
        "first_load_bytes",
        "plain_load_ms",
        "plain_load_bytes",
        "offline_start_ms",
        "queued_ms",
        "queued_plain_ms",
    ):
        assert figures[name] > 0, name
    for name in ("save_target_met", "offline_start_target_met", "queued_target_met"):
        assert isinstance(figures[name], bool), name


@pytest.mark.parametrize("where", [(), ("--push-process",)], ids=["thread", "process"])
def test_notices_benchmark_quick_run_delivers_each_message_once(where):
    players, repeat = 12, 2
    arguments = ("--players", str(players), "--repeat", str(repeat), *where, "--json")
    completed = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "notices.py"), *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )

    assert completed.returncode == 0, completed.stderr[-3000:]
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["failures"] == 0
    assert figures["push_process"] is bool(where)
    assert figures["messages_expected"] == players * repeat
    assert figures["messages_delivered"] == players * repeat
    for name in ("missing", "duplicates", "wrong_text", "stray"):
        assert figures[name] == 0, name
    # The request writes one notice whoever listens: the phones are the sender's work.
    assert figures["queries_with"] == figures["queries_none"] > 0
    for name in (
        "trivial_ms",
        "publish_with_ms",
        "publish_none_ms",
        "publish_with_thread_cpu_ms",
        "publish_none_thread_cpu_ms",
        "ratio",
        "ratio_thread_cpu",
        "round_page_with_ms",
        "round_page_none_ms",
    ):
        assert figures[name] > 0, name
    # Each message's wait is counted from the request's start and from its end: the first longer.
    assert 0 < figures["after_start_p50_s"] <= figures["after_start_p95_s"]
    assert figures["after_start_p95_s"] <= figures["after_start_max_s"]
    assert figures["after_response_max_s"] < figures["after_start_max_s"]
    for name in ("ratio_target_met", "latency_target_met"):
        assert isinstance(figures[name], bool), name


def test_statistics_benchmark_quick_run_serves_every_page():
    completed = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "statistics_pages.py"), "--quick", "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    figures = json.loads(completed.stdout.strip().splitlines()[-1])
    assert figures["deals"] > 0
    pages = figures["pages"]
    assert pages["standings (baseline)"]["miss_ratio"] == 1
    for name, page in pages.items():
        assert page["queries"] > 0, name
        assert page["miss_ms"] > 0 and page["cached_ms"] > 0, name
