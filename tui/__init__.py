"""Feedback Studio's terminal app: author tasks, try answers, read feedback, chat with the tutor.

It speaks only to :class:`core.service.Service` (embedded or remote), never to the store or engines.
"""
