"""Authoring: tasks as files (files, schema), test answers with what they must get (expectations),
and retest with reassign after a task changes (retest, table). The user interfaces may use it."""
