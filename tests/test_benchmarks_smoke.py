"""The benchmark script runs: ``benchmarks/run.py --quick`` exits 0 and prints every section.

No timing is asserted: the numbers of a quick run on a busy machine mean nothing.
"""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SECTIONS = [
    "# minigrad benchmarks",
    "## (a) MLP training step",
    "## (a2) micrograd's demo step",
    "## (b) Per-op overhead on tiny tensors",
    "## (c) Long chain",
    "## (d) Memory",
    "## (e) Rendering a 1,000-node graph",
    "## (e2) A 2,000-node stepper and a 20,000-node draw",
    "## Goals",
]


def test_quick_run_prints_every_section(tmp_path):
    report = tmp_path / "RESULTS.md"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", "--markdown", str(report)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for section in SECTIONS:
        assert section in done.stdout, f"missing {section!r} in:\n{done.stdout}"
        assert section in report.read_text()
    assert "FAILED" not in done.stdout
    # (a) checked that all contenders compute the same losses before timing them.
    assert "agree to 1e-4" in done.stdout
