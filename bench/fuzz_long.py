"""The long schemathesis run: tests/hardening/test_fuzz.py with many cases and the coverage phase.

The suite's fuzz test is kept small; this runs the very same test (one property: no 5xx, every
4xx with {message, type}) with FEEDBACK_STUDIO_FUZZ_LONG set, which raises the number of random
cases per operation and adds schemathesis' coverage phase (boundary and just-invalid values of
every field). Prints one row per operation: outcome and time.

    .venv/bin/python bench/fuzz_long.py [--examples 200]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from harness import ROOT, machine

TEST = "tests/hardening/test_fuzz.py::test_no_5xx_and_every_4xx_has_the_error_body"


def outcomes(report: Path) -> list[tuple[str, str, float]]:
    """(operation, outcome, seconds) of each test case in a JUnit XML report."""
    rows = []
    for case in ET.parse(report).iter("testcase"):
        operation = re.search(r"\[(.*)\]$", case.get("name", "")).group(1)
        skipped = case.find("skipped")
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "FAILED"
        elif skipped is not None:
            outcome = "xfail" if skipped.get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "passed"
        rows.append((operation, outcome, float(case.get("time", 0))))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="random cases per operation (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "fuzz.xml"
        started = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", TEST, "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
            cwd=ROOT,
            env={**os.environ, "FEEDBACK_STUDIO_FUZZ_LONG": str(args.examples)},
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        rows = outcomes(report)
    print(f"Schemathesis, {args.examples} random cases per operation plus the coverage phase")
    print(f"Machine: {machine()}\n")
    width = max(len(operation) for operation, _, _ in rows)
    print(f"| {'operation':<{width}} | outcome | seconds |")
    print(f"|{'-' * (width + 2)}|---------|---------|")
    for operation, outcome, spent in rows:
        print(f"| {operation:<{width}} | {outcome:<7} | {spent:>7.1f} |")
    failed = [operation for operation, outcome, _ in rows if outcome == "FAILED"]
    print(f"\n{len(rows)} operations, {len(failed)} failed, {seconds:.0f} s in all")
    if run.returncode != 0:
        print(run.stdout[-5000:])
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
