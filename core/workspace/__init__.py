"""Authoring formats, pure: tasks as files (files, schema), test answers with what they must get
(expectations), and the comparison of a retest (retest, table). No service here: core.client does
import, export, retest and reassign over a Service."""
