"""The `feedback-studio` command (argparse: the standard library does all that is needed here)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from core.config import Settings

COMMON_OPTIONS = {
    "--database": ("database_url", "database URL (default: SQLite in the user data directory)"),
    "--host": ("host", "address to listen on (default 127.0.0.1)"),
    "--port": ("port", "port to listen on (default 8000)"),
    "--remote": ("remote_url", "base URL of a remote service of this API"),
    "--token": ("token", "bearer token for the remote service"),
}


def _settings(args: argparse.Namespace) -> Settings:
    """Settings from the environment, overridden by the options given; exported for worker processes."""
    for option, (field, _) in COMMON_OPTIONS.items():
        value = getattr(args, option.lstrip("-"), None)
        if value is not None:
            os.environ[f"FEEDBACK_STUDIO_{field.upper()}"] = str(value)
    return Settings()


def _run(coro: Coroutine[Any, Any, int | None]) -> int:
    return asyncio.run(coro) or 0


# --- commands ---------------------------------------------------------------------------------


KEEP_ALIVE_SECONDS = 75
"""How long an idle keep-alive connection stays open. Uvicorn's default, 5 s, equals the idle expiry
of httpx's pool: a client reusing a connection just as the server closed it lost its request
(about one in a thousand under a mixed load benchmark). Longer than common clients' and load balancers'
(60 s) idle timeouts, so that the client always gives up first."""


def server_options(settings: Settings, *, log_level: str | None = None) -> dict[str, Any]:
    """uvicorn.run's options for our servers; the access log is the app's (core.server.access_log)."""
    return dict(
        host=settings.host,
        port=settings.port,
        log_level=(log_level or settings.log_level).lower(),
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = _settings(args)  # exported to the environment, where each worker's factory reads them
    uvicorn.run(
        "core.server.process:serving_app", factory=True, workers=args.workers, **server_options(settings)
    )
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    import uvicorn

    from webui.login import startup_lines, use_private_storage

    use_private_storage()  # before NiceGUI is imported: its storage is made where it points
    from webui.main import create_web_app

    settings = _settings(args)
    if args.learners:
        settings = settings.model_copy(update={"learner_tasks": args.learners})
    app = create_web_app(settings)
    for line in startup_lines(settings, app.state.login_secret):  # one line per address of the machine
        print(line)
    # One user's own studio: its requests are not a server's traffic worth a line each.
    logging.getLogger("feedback_studio.access").setLevel(logging.WARNING)
    uvicorn.run(app, **server_options(settings, log_level="warning"))
    return 0


def cmd_tui(args: argparse.Namespace) -> int:
    # Start-up allocates the objects of hundreds of modules, all kept for the life of the process:
    # each full collection on the way walked all of them (a fifth of the time to the first screen).
    # The app collects again, with what start-up made frozen, once it is connected (tui.app).
    gc.disable()
    from tui.app import run

    return run(_settings(args)) or 0


async def _token_create(args: argparse.Namespace) -> int:
    from core.auth import parse_permissions
    from core.service.runtime import Runtime
    from core.service.tokens import create_token

    runtime = await Runtime.open(_settings(args).model_copy(update={"seed_demo": False}))
    try:
        print(await create_token(runtime, args.name, args.tenant, parse_permissions(args.permission)))
    finally:
        await runtime.aclose()
    return 0


async def _webhook_create(args: argparse.Namespace) -> int:
    from core.service.runtime import Runtime
    from core.service.tokens import create_webhook_token

    runtime = await Runtime.open(_settings(args).model_copy(update={"seed_demo": False}))
    try:
        print(await create_webhook_token(runtime, args.tenant))
    finally:
        await runtime.aclose()
    return 0


async def _seed_demo(args: argparse.Namespace) -> int:
    from core.service.runtime import Runtime

    runtime = await Runtime.open(_settings(args).model_copy(update={"seed_demo": False}))
    try:
        added = await runtime.seed_demo(args.tenant or runtime.settings.default_tenant)
        print(f"seeded {added} demo tasks and their tutors")
    finally:
        await runtime.aclose()
    return 0


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar for a long run, told (done, total): on standard error, only when that is a
    terminal, and cleared at the end, so the report on standard output stays plain."""
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress

    console = Console(stderr=True)
    columns = (*Progress.get_default_columns(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        bar = progress.add_task(label, total=None)
        yield lambda done, total: progress.update(bar, completed=done, total=total)


async def _eval(args: argparse.Namespace) -> int:
    from core.evaluation import evaluate_file, format_report
    from core.service import connect

    settings = _settings(args)
    with tempfile.TemporaryDirectory(prefix="feedback-studio-eval-") as scratch:
        if not settings.remote_url and args.database is None:
            # A scratch database file, not the user's; a file rather than :memory: so that the
            # feedback takes the same path as in a served studio (core.store.writer).
            scratch_url = f"sqlite+aiosqlite:///{Path(scratch) / 'eval.sqlite3'}"
            settings = settings.model_copy(update={"database_url": scratch_url, "seed_demo": False})
        service = await connect(settings)
        try:
            tenant = args.tenant or (await service.info()).defaultTenantId
            reports = []
            for path in args.files:
                with _progress(Path(path).name) as progress:
                    reports.append(await evaluate_file(service, path, tenant, progress))
        finally:
            await service.aclose()
    print(format_report(reports))
    return 0


def _reporting_errors(
    handler: Callable[[argparse.Namespace], Coroutine[Any, Any, int]],
) -> Callable[[argparse.Namespace], Coroutine[Any, Any, int]]:
    """A refused request or an unreadable file is the user's to fix: its message, and exit status 2."""

    async def run(args: argparse.Namespace) -> int:
        from core.api import ServiceError

        try:
            return await handler(args)
        except (ServiceError, ValueError, OSError) as exc:
            print(f"feedback-studio: {getattr(exc, 'message', exc)}", file=sys.stderr)
            return 2

    return run


@asynccontextmanager
async def _service(args: argparse.Namespace) -> AsyncIterator[tuple[Any, str]]:
    """The service the options choose, and the tenant: --tenant, else the principal's default."""
    from core.service import connect

    service = await connect(_settings(args))
    try:
        yield service, args.tenant or (await service.info()).defaultTenantId
    finally:
        await service.aclose()


async def _tasks_import(args: argparse.Namespace) -> int:
    """A task that would replace a different stored one is refused (nothing is imported) unless
    --overwrite is given; then it is saved only on top of the version that was compared."""
    from core.client.files import Replacement, WouldReplace, import_files, replacements
    from core.workspace.files import Workspace, read_task

    paths = [Path(p) for p in args.paths]
    async with _service(args) as (service, tenant):
        agreed: list[Replacement] = []
        if args.overwrite:
            tasks = [read_task(path) for path in Workspace.find(paths).task_files]
            agreed = await replacements(service, tenant, tasks)
        try:
            with _progress("importing") as progress:
                imported = await import_files(service, tenant, paths, progress, agreed=agreed)
        except WouldReplace as refused:
            for replacing in refused.replacements:
                fields = ", ".join(replacing.fields)
                print(f"{'REPLACES':<10} {replacing.taskId}  (version {replacing.version}: {fields})")
            raise ValueError(
                "nothing was imported: these tasks exist with other content; pass --overwrite to replace them"
            ) from None
        for item in imported:
            print(f"{item.action:<10} {item.taskId}  ({item.path})")
    return 0


async def _tasks_export(args: argparse.Namespace) -> int:
    from core.client.files import export_files

    async with _service(args) as (service, tenant):
        written = await export_files(service, tenant, Path(args.directory), args.format)
    print(f"wrote {len(written)} files to {args.directory}")
    return 0


async def _retest(args: argparse.Namespace) -> int:
    """Exit 1 when an expectation fails, so that authors can run it in their own CI."""
    from core.client.retest import reassign, retest
    from core.workspace.table import format_report

    async with _service(args) as (service, tenant):
        with _progress("retesting") as progress:
            report = await retest(
                service, tenant, args.tasks, Path(args.files) if args.files else None, progress
            )
        print(format_report(report))
        if args.reassign:
            for task in report.tasks:
                if accepted := await reassign(service, tenant, task):
                    print(f"{task.taskId}: {accepted.added} answers accepted into the graded answers")
    return 0 if report.passed else 1


async def _tutor_create(args: argparse.Namespace) -> int:
    """Locally the principal acts on --tenant; a remote decides by its token."""
    from core.api import TutorUpsert
    from core.service import connect

    settings = _settings(args)
    if not settings.remote_url:
        settings = settings.model_copy(update={"default_tenant": args.tenant, "seed_demo": False})
    body = TutorUpsert(name=args.name, taskId=args.task, language=args.language, engine=args.engine)
    service = await connect(settings)
    try:
        tutor = await service.put_tutor(args.tenant, args.id, body)
    finally:
        await service.aclose()
    print(json.dumps(tutor.to_wire(), indent=2, ensure_ascii=False))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from core.workspace.schema import DEFAULT_OUTPUT, write_schema

    print(write_schema(Path(args.out) if args.out else DEFAULT_OUTPUT))
    return 0


# --- parser -----------------------------------------------------------------------------------


def _add_common(parser: argparse.ArgumentParser) -> None:
    for option, (_, help_text) in COMMON_OPTIONS.items():
        parser.add_argument(
            option, dest=option.lstrip("-"), help=help_text, type=int if option == "--port" else str
        )


def _async(
    handler: Callable[[argparse.Namespace], Coroutine[Any, Any, int]],
) -> Callable[[argparse.Namespace], int]:
    return lambda args: _run(handler(args))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="feedback-studio", description="Feedback Studio: feedback and tutoring."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help_text: str, parent: Any = commands
    ) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = parent.add_parser(name, help=help_text, description=help_text)
        _add_common(sub)
        sub.set_defaults(handler=handler)
        return sub

    serve = command("serve", cmd_serve, "serve the API")
    serve.add_argument(
        "--workers", type=int, default=1, help="server processes (share one PostgreSQL database)"
    )
    web = command("web", cmd_web, "serve the web app and the API")
    web.add_argument(
        "--learners",
        nargs="+",
        metavar="TASK",
        help="learner mode: only these tasks, to answer, with their tutor (no authoring, no settings)",
    )
    command("tui", cmd_tui, "open the terminal app")

    token = commands.add_parser("token", help="bearer tokens").add_subparsers(dest="action", required=True)
    create = command("create", _async(_token_create), "create a principal and print its token alone", token)
    create.add_argument("--name", required=True)
    create.add_argument("--tenant", required=True)
    create.add_argument(
        "--permission",
        action="append",
        choices=["access", "write", "delete"],
        help="repeatable; access is implied (default: access only)",
    )

    webhook = commands.add_parser("webhook", help="webhook tokens").add_subparsers(
        dest="action", required=True
    )
    command("create", _async(_webhook_create), "create a webhook token and print it", webhook).add_argument(
        "--tenant", required=True
    )

    seed = command("seed-demo", _async(_seed_demo), "add the demo tasks to a tenant")
    seed.add_argument("--tenant")

    evaluate = command(
        "eval", _async(_reporting_errors(_eval)), "judge the test answers of JSONL benchmark files"
    )
    evaluate.add_argument("files", nargs="+")
    evaluate.add_argument("--tenant")

    task_files = commands.add_parser("tasks", help="task files: import and export").add_subparsers(
        dest="action", required=True
    )
    imports = command(
        "import",
        _async(_reporting_errors(_tasks_import)),
        "upsert the tasks (and test answers) of JSON or YAML files and folders",
        task_files,
    )
    imports.add_argument("paths", nargs="+", metavar="PATH")
    imports.add_argument("--tenant")
    imports.add_argument(
        "--overwrite", action="store_true", help="replace stored tasks of the same ids that differ"
    )
    exports = command(
        "export",
        _async(_reporting_errors(_tasks_export)),
        "write each task of a tenant to a file, with its test answers and the JSON Schema",
        task_files,
    )
    exports.add_argument("directory", metavar="DIR")
    exports.add_argument("--tenant")
    exports.add_argument("--format", choices=["json", "yaml"], default="json")

    retest = command(
        "retest",
        _async(_reporting_errors(_retest)),
        "recompute the feedback of test answers and earlier answers; exit 1 when an expectation fails",
    )
    retest.add_argument("tasks", nargs="*", metavar="TASK", help="task ids (default: every task)")
    retest.add_argument("--tenant")
    retest.add_argument("--files", metavar="DIR", help="take the tasks and test answers from these files")
    retest.add_argument(
        "--reassign", action="store_true", help="accept the changed feedback into the graded answers"
    )

    tutor = commands.add_parser("tutor", help="tutor configurations").add_subparsers(
        dest="action", required=True
    )
    tutor_create = command(
        "create", _async(_reporting_errors(_tutor_create)), "create or replace a tutor and print it", tutor
    )
    tutor_create.add_argument("--tenant", required=True)
    tutor_create.add_argument("--id", required=True)
    tutor_create.add_argument("--name", required=True)
    tutor_create.add_argument("--task", help="the task the tutor is grounded in")
    tutor_create.add_argument(
        "--language", choices=["DE_CH", "DE_DE", "EN_US", "EN_UK", "FR_FR", "IT_IT", "ES_ES"]
    )
    tutor_create.add_argument("--engine", choices=["grounded", "llm"])

    schema = command("schema", cmd_schema, "write the JSON Schema of task files")
    schema.add_argument("out", nargs="?", metavar="OUT", help="default: docs/task.schema.json")
    return parser


def main(argv: list[str] | None = None) -> int:
    from core.api import ServiceError

    logging.getLogger("stamina").setLevel(logging.ERROR)  # retries are reported by their outcome
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
        return code
    except ServiceError as exc:
        print(f"feedback-studio: error: {exc.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
