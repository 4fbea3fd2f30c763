"""The client layer: what the apps and the command do over any Service, embedded or remote, with
no user interface (import/export of task files, retest and reassign). Below it the pure authoring
formats (core.workspace); above it the two apps and the command."""
