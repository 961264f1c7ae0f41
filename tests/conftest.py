"""Shared test setup: the --update-golden flag and the test helpers' path."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/* from the current output; review with git diff")


def pytest_configure(config):
    harness.UPDATE_GOLDEN = config.getoption("--update-golden")
