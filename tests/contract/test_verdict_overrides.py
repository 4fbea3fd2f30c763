"""Contract: a teacher's verdict on an interaction (extension), set, changed, shown and removed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from core.api import Correctness, NotFound, VerdictOverride
from core.service.base import Service
from tests.contract.builders import compute, mc_task

pytestmark = pytest.mark.contract


async def judged(service: Service, index: int = 1) -> str:
    """The id of an interaction whose answer the engine judged (index 1: WRONG)."""
    feedback = await service.compute_feedback(compute(mc_task(), {"selectedIndex": index}))
    return feedback.metaData.interactionId


async def test_an_override_is_kept_beside_the_engines_verdict_with_who_and_when(service: Service) -> None:
    interaction_id = await judged(service)
    record = await service.override_verdict(
        interaction_id, VerdictOverride(verdict=Correctness.CORRECT, note="Bern is the federal city")
    )
    assert record.verdict is Correctness.WRONG  # the engine's stays as it was
    assert record.feedback.result.points.verdict is Correctness.WRONG
    override = record.override
    assert override is not None
    assert (override.verdict, override.note) == (Correctness.CORRECT, "Bern is the federal city")
    assert override.author == (await service.info()).principal
    assert override.createdAt == override.updatedAt
    assert (await service.get_interaction(interaction_id)).override == override
    [listed] = await service.list_interactions("default", "mc-1")
    assert listed.override == override


async def test_an_override_is_changed_in_place_then_removed(service: Service) -> None:
    interaction_id = await judged(service)
    first = (
        await service.override_verdict(interaction_id, VerdictOverride(verdict=Correctness.CORRECT))
    ).override
    changed = (
        await service.override_verdict(interaction_id, VerdictOverride(verdict=Correctness.PARTIAL))
    ).override
    assert first is not None and changed is not None
    assert (changed.verdict, changed.note, changed.createdAt) == (Correctness.PARTIAL, None, first.createdAt)
    assert changed.updatedAt >= first.updatedAt
    removed = await service.remove_verdict_override(interaction_id)
    assert (removed.override, removed.verdict) == (None, Correctness.WRONG)
    again = await service.remove_verdict_override(interaction_id)  # nothing to remove: no error
    assert again.override is None


async def test_only_other_interactions_keep_theirs(service: Service) -> None:
    overridden, plain = await judged(service), await judged(service, 0)
    await service.override_verdict(overridden, VerdictOverride(verdict=Correctness.PARTIAL))
    by_id = {r.interactionId: r for r in await service.list_interactions("default", "mc-1")}
    assert by_id[overridden].override is not None
    assert by_id[plain].override is None


async def test_unknown_interactions_and_unjudged_verdicts_are_refused(service: Service) -> None:
    with pytest.raises(NotFound):
        await service.override_verdict("no-such-interaction", VerdictOverride(verdict=Correctness.CORRECT))
    with pytest.raises(NotFound):
        await service.remove_verdict_override("no-such-interaction")
    with pytest.raises(ValidationError):
        VerdictOverride(verdict=Correctness.UNKNOWN)


async def test_a_deleted_task_takes_the_overrides_along(service: Service) -> None:
    interaction_id = await judged(service)
    await service.override_verdict(interaction_id, VerdictOverride(verdict=Correctness.CORRECT))
    await service.delete_task("default", "mc-1")
    with pytest.raises(NotFound):
        await service.get_interaction(interaction_id)
