"""Shared test setup: the --update-golden flag, the test helpers' path, and the
checker's two parsers.

Every test in ``tests/test_check_*.py`` runs with the ``checker_parser``
fixture, once, in ``compare`` mode: the checker uses latex2sympy2 (the parser
``auto`` picks where it is installed) while the built-in parser reads every
same text too, and the two trees (or errors) must be identical.  So every
text the checker's tests parse is a parity test of the two parsers, without
checking every document twice (a parse is cheap, the rest of a check is not,
and it is the same for the same tree).  A test marked
``@pytest.mark.parsers(...)`` runs with the parsers it names instead (a test
of what one parser does, or one that runs both itself); the latex2sympy2 run
of a test that runs with both is marked ``latex2sympy2``.  On Python >= 3.13,
where latex2sympy2 is not installed, ``compare`` runs the built-in parser
alone and latex2sympy2's runs skip with the reason; with ``CI=true`` on an
older Python, a missing latex2sympy2 fails them.  ``SYMROW_TEST_PARSERS``
(comma-separated) replaces ``compare``: ``make test-fast`` sets it to
``builtin``, the quicker parser.
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402

#: the parsers a checker test runs with, unless it is marked otherwise
PARSERS = tuple(os.environ.get("SYMROW_TEST_PARSERS", "compare").split(","))


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/* from the current output; review with git diff")


def pytest_configure(config):
    harness.UPDATE_GOLDEN = config.getoption("--update-golden")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """The test being set up and run: the renderers check its markers (harness._marked)."""
    harness.CURRENT = item


def pytest_runtest_teardown(item):
    harness.CURRENT = None


def pytest_collection_modifyitems(session, config, items):
    """The slow tests first (keeping their order, and the others'), so that with
    several workers (make test) none of them is left to run alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collectstart(collector):
    """Every test of a checker module uses the ``checker_parser`` fixture."""
    if isinstance(collector, pytest.Module) and collector.path.name.startswith("test_check_"):
        collector.add_marker(pytest.mark.usefixtures("checker_parser"))


def pytest_generate_tests(metafunc):
    if "checker_parser" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("parsers")
        names = marker.args if marker else PARSERS
        # the latex2sympy2 run of a test that runs with both parsers: make test-fast runs
        # the built-in parser's alone
        params = [pytest.param(name, marks=pytest.mark.latex2sympy2)
                  if name == "latex2sympy2" and "builtin" in names else name for name in names]
        metafunc.parametrize("checker_parser", params, indirect=True)


@pytest.fixture
def checker_parser(request, monkeypatch):
    """The parser this run of a checker test uses: latex2sympy2, builtin or compare."""
    from symrow.reader.entries import parse
    name = request.param
    if name == "latex2sympy2":
        harness.require_latex2sympy2()
    if name != "compare":
        monkeypatch.setenv(parse.ENV_VAR, name)
        yield name
        return
    if not parse.available() and sys.version_info < (3, 13):
        harness.require_latex2sympy2()       # fails under CI=true
    if not parse.available():
        monkeypatch.setenv(parse.ENV_VAR, "builtin")
        yield name
        return
    mismatches: list = []
    monkeypatch.setenv(parse.ENV_VAR, "latex2sympy2")
    monkeypatch.setattr(parse, "parse", harness.comparing_parse(parse, mismatches))
    yield name
    assert not mismatches, (f"the two parsers disagree on {len(mismatches)} text(s):\n" +
                            "\n".join(mismatches[:10]))


@pytest.fixture
def tex_spy(monkeypatch):
    """compile_pdf replaced by a recorder: the (source, lang) of each call, and a
    stand-in PDF back.  For the command's wiring (which document, which
    language, where it goes); the documents themselves are compiled by the
    tests of the renderers (test_handout, test_outputs, test_slides)."""
    calls = []

    def compile_pdf(source, lang="en", **_options):
        calls.append((source, lang))
        return b"%PDF-1.5 stand-in\n%%EOF\n"

    monkeypatch.setattr("symrow.render.pdf.compile_pdf", compile_pdf)
    return calls
