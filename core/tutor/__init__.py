"""Tutor engines: the grounded offline tutor, the simulation persona and the OpenAI-compatible LLM.

:mod:`core.tutor.base` says what an engine receives and yields; :mod:`core.tutor.leak_guard` sits
between every engine and the learner; :func:`core.tutor.engines.engine_for` picks the engine.
Engines do no storage I/O: the service reads and records the conversation around them.
"""
