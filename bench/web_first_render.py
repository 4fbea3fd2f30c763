"""First render of the web app's main page in Chromium: navigation start → the library visible.

`feedback-studio web`'s app (the demo tasks seeded into a fresh SQLite file) runs in its own
process under uvicorn on 127.0.0.1, with one extra route: a static hello page, the baseline that
shows what the browser and the server cost without NiceGUI, and the settings page, which shows
what NiceGUI itself costs (its scripts, one websocket) with no data to read. Debian's Chromium, driven by
Playwright, opens each page RUNS times in a fresh browser context (empty cache: what a first
visit costs) and again in one context that keeps its cache (a return visit). The time is the
page's own clock (performance.now(), zero at navigation start) when the element is visible:
the library's grid of cards, or the hello heading. Target: cold first render p50 ≤ 1.5 s.

    .venv/bin/python bench/web_first_render.py [--runs 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import free_port, machine, server_process

TARGET_P50_MS = 1500.0
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [  # the flags the end-to-end tests use (tests/webui/conftest.py)
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HELLO = "<!doctype html><html><head><title>hello</title></head><body><h1 id=hello>Hello</h1></body></html>"
PAGES = {
    "static hello page (baseline)": ("/bench/hello", "#hello"),
    "settings (NiceGUI, no data)": ("/settings", ".q-radio"),
    "library (/)": ("/", "[data-testid=library]"),
}
VISIBLE_AT = """selector => {
    const element = document.querySelector(selector);
    return element && element.getBoundingClientRect().height > 0 ? performance.now() : null;
}"""


def serve(port: int, database_url: str) -> None:
    """The server process: the web app as `feedback-studio web` builds it, plus the hello page."""
    import uvicorn
    from fastapi.responses import HTMLResponse

    from core.config import Settings
    from webui.main import create_web_app

    app = create_web_app(Settings(database_url=database_url, port=port, seed_demo=True))
    app.add_api_route("/bench/hello", lambda: HTMLResponse(HELLO), include_in_schema=False)
    app.router.routes.insert(0, app.router.routes.pop())  # before NiceGUI's mount at "/"
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def measure(base_url: str, runs: int) -> list[tuple[str, str, list[float]]]:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, (path, selector) in PAGES.items():
            cold = [
                _first_render(browser.new_context(), base_url + path, selector, close=True)
                for _ in range(runs)
            ]
            context = browser.new_context()
            _first_render(context, base_url + path, selector)  # fills the cache
            warm = [_first_render(context, base_url + path, selector) for _ in range(runs)]
            context.close()
            results += [(name, "cold", cold), (name, "warm", warm)]
        browser.close()
    return results


def _first_render(context, url: str, selector: str, close: bool = False) -> float:
    page = context.new_page()
    page.goto(url, wait_until="commit")
    elapsed = page.wait_for_function(VISIBLE_AT, arg=selector, polling="raf", timeout=30_000).json_value()
    page.close()
    if close:
        context.close()
    return float(elapsed)


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def table(results: list[tuple[str, str, list[float]]]) -> str:
    lines = [
        f"| {'page':<30} | {'cache':<5} | {'runs':>4} | {'p50 ms':>7} | {'p90 ms':>7} |",
        f"|{'-' * 32}|{'-' * 7}|{'-' * 6}|{'-' * 9}|{'-' * 9}|",
    ]
    lines += [
        f"| {name:<30} | {cache:<5} | {len(times):>4} | {percentile(times, 50):>7.0f} | {percentile(times, 90):>7.0f} |"
        for name, cache, times in results
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DATABASE_URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return 0
    if not CHROMIUM.exists():
        print("Debian's Chromium is not at /usr/bin/chromium (apt-get install chromium); nothing measured")
        return 1
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite+aiosqlite:///{tmp}/studio.sqlite3"
        command = [sys.executable, __file__, "--serve", str(port), database_url]
        with server_process(command, port) as base_url:
            results = measure(base_url, args.runs)
    print(f"First render in Chromium ({machine()})")
    print(table(results))
    library_cold = next(
        times for name, cache, times in results if name.startswith("library") and cache == "cold"
    )
    p50 = percentile(library_cold, 50)
    verdict = "met" if p50 <= TARGET_P50_MS else "MISSED"
    print(f"target: library, cold, p50 ≤ {TARGET_P50_MS:.0f} ms → {p50:.0f} ms, {verdict}")
    return 0 if p50 <= TARGET_P50_MS else 1


if __name__ == "__main__":
    sys.exit(main())
