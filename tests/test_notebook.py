"""The example notebook runs from top to bottom, and what it shows renders.

The kernel is this interpreter (``sys.executable``), through a kernel spec
written into a temporary folder: a fresh clone where ``make test`` installed
the test extras needs nothing else, and no kernel installed elsewhere on the
machine is used by mistake.
"""

from __future__ import annotations

import gc
import json
import sys
import warnings
from pathlib import Path

import pytest

import harness

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "tour.ipynb"


def _modules_present() -> bool:
    try:
        import ipykernel  # noqa: F401
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    harness.require(_modules_present(), "nbclient, nbformat and ipykernel",
                    "pip install -e '.[test]', which `make test` does")
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    tmp = tmp_path_factory.mktemp("notebook")
    spec = tmp / "kernels" / "symrow-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "symrow tests", "language": "python"}))
    km = KernelManager(kernel_name="symrow-test",
                       kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    with warnings.catch_warnings():
        # jupyter_client leaves zmq sockets for the garbage collector; collect
        # them here, where their ResourceWarning is not a test failure
        warnings.simplefilter("ignore", ResourceWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            NotebookClient(nb, km=km, timeout=600,
                           resources={"metadata": {"path": str(tmp)}}).execute()
        finally:
            if km.has_kernel:
                km.shutdown_kernel(now=True)
            del km
            gc.collect()
    return nb


@pytest.mark.slow
def test_notebook_runs_without_errors(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code)
    for cell in code:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", (cell.source, out.get("evalue"))


def _markdown_outputs(nb) -> list[str]:
    return [out["data"]["text/markdown"] for cell in nb.cells if cell.cell_type == "code"
            for out in cell.get("outputs", [])
            if out.output_type == "execute_result" and "text/markdown" in out.get("data", {})]


def test_notebook_shows_derivations_as_markdown_and_latex(executed):
    shown = _markdown_outputs(executed)
    # the vector sequence, combine and attention display themselves
    assert len(shown) >= 3
    assert any("Matrices as vector sequences" in md for md in shown)
    results = [out for cell in executed.cells if cell.cell_type == "code"
               for out in cell.get("outputs", []) if out.output_type == "execute_result"]
    assert any("text/latex" in out["data"] for out in results)


@pytest.mark.renderer
def test_notebook_math_renders_in_mathjax_and_katex(executed):
    formulas = [f for md in _markdown_outputs(executed) for f in harness.markdown_math(md)]
    harness.assert_renders(formulas, harness.mathjax)
    harness.assert_renders(formulas, harness.katex)
