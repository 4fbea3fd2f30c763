"""Task files in the browser: downloads and uploads in the workspace's formats (JSON or YAML).

core.workspace reads and writes task files on disk for the command line; an upload is written to
a scratch file and read by the same code, so the web app accepts and refuses exactly what
`feedback-studio tasks import` does, with the same messages (naming the uploaded file).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from core.api import TaskBase, TaskDefinition
from core.workspace.documents import Format, dump
from core.workspace.files import read_task, task_document, task_file_path
from webui.i18n import _

ACCEPTED = ".json,.yaml,.yml"


def task_file(task: TaskBase, fmt: Format) -> tuple[str, bytes]:
    """The file name and content of a task's file, as an export to a folder would write it."""
    return task_file_path(Path(), task.id, fmt).name, dump(task_document(task), fmt).encode()


MULTIPART_ROOM = 16 * 1024
"""What an upload's request carries besides the file (boundaries, headers): the server's body
limit (``max_body_bytes``) minus this is the largest file an import takes."""


def upload_limit(max_body_bytes: int) -> int:
    """The largest task file the server takes in an upload, in bytes."""
    return max(max_body_bytes - MULTIPART_ROOM, 1)


def task_from_upload(name: str, data: bytes) -> TaskDefinition:
    """The task of an uploaded file; ValueError says what does not fit, always naming the file."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / Path(name).name
        path.write_bytes(data)
        try:
            return read_task(path)
        except UnicodeDecodeError as exc:  # a picture, a zip, a Word file: no text at all
            raise ValueError(
                _(
                    "{file}: not a text file (byte {position} is not UTF-8); a task file is JSON or YAML text"
                ).format(file=name, position=exc.start)
            ) from None
        except ValueError as exc:
            message = str(exc).replace(str(path), name)
            raise ValueError(message if name in message else f"{name}: {message}") from None
