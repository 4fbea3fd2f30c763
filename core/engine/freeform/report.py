"""The feedback items a learner reads, built from an assessment; every sentence from the catalogue.

Hints never give the solution away: a missing concept is named by its topic (the aspect's group or
the task's title) unless the author wrote a message for it, and a missing key idea only by count.
"""

from __future__ import annotations

from collections.abc import Callable

from core.api import AspectType, Correctness, FeedbackItem, FreeformTextTask, TextSpan
from core.engine.base import to_aspect, topic_for
from core.engine.freeform.assessment import Assessment, Basis, text_spans
from core.engine.messages import Catalogue
from core.engine.text.phrases import Found
from core.engine.text.tokens import Analysis

Item = FeedbackItem[TextSpan]
Say = Callable[..., str]
"""The catalogue's sentence for a key of the task's language, with its parameters."""


def feedback_items(
    task: FreeformTextTask, assessment: Assessment, answer: Analysis, catalogue: Catalogue
) -> list[Item]:
    def say(key: str, **params: object) -> str:
        return catalogue.text(task.language, f"freeform.{key}", **params)

    topic = topic_for(None, task.display_title)
    if assessment.basis is Basis.EMPTY:
        # "?!" or "🔋💡" is not empty, and a learner told so would look for a bug
        empty = "no_words" if answer.text.strip() else "empty"
        return [Item(message=say(empty), correctness=Correctness.WRONG, topic=topic)]
    if assessment.basis is Basis.NOTHING:
        return [Item(message=say("no_reference"), correctness=Correctness.UNKNOWN, topic=topic)]
    items = (
        _aspect_items(task, assessment, answer, say)
        if assessment.basis is Basis.ASPECTS
        else _coverage_items(task, assessment, answer, say)
    )
    if assessment.similar is not None and assessment.similar.feedback:
        items.append(
            Item(
                message=say("similar_answer", feedback=assessment.similar.feedback),
                correctness=assessment.similar.correctness,
                topic=topic,
            )
        )
    return items


def _aspect_items(task: FreeformTextTask, assessment: Assessment, answer: Analysis, say: Say) -> list[Item]:
    items: list[Item] = []
    concepts = [f for f in assessment.aspects if f.definition.type is AspectType.CONCEPT]
    found_any = any(f.found is Found.PRESENT for f in concepts)
    for finding in assessment.aspects:
        definition = finding.definition
        topic = topic_for(definition, task.display_title)
        aspects = [to_aspect(definition)]
        context = text_spans(answer.text, finding.spans)
        if definition.type is AspectType.MISCONCEPTION and finding.found is Found.PRESENT:
            message = definition.message or say("misconception", topic=topic.name)
            items.append(
                Item(
                    message=message,
                    aspects=aspects,
                    correctness=Correctness.WRONG,
                    topic=topic,
                    context=context,
                )
            )
        elif definition.type is AspectType.CONCEPT and finding.found is Found.CONTRADICTED:
            items.append(
                Item(
                    message=say("contradiction"),
                    aspects=aspects,
                    correctness=Correctness.WRONG,
                    topic=topic,
                    context=context,
                )
            )
        elif definition.type is AspectType.CONCEPT and finding.found is Found.ABSENT:
            message = definition.message or say("missing_concept", topic=topic.name)
            correctness = Correctness.PARTIAL if found_any else Correctness.WRONG
            items.append(Item(message=message, aspects=aspects, correctness=correctness, topic=topic))
    if assessment.verdict is Correctness.CORRECT:
        present = [f for f in concepts if f.found is Found.PRESENT]
        spans = sorted({s for f in present for s in f.spans}, key=lambda s: s.start)
        items.insert(
            0,
            Item(
                message=say("all_concepts"),
                aspects=[to_aspect(f.definition) for f in present],
                correctness=Correctness.CORRECT,
                topic=topic_for(None, task.display_title),
                context=text_spans(answer.text, spans),
            ),
        )
    return items


def _coverage_items(task: FreeformTextTask, assessment: Assessment, answer: Analysis, say: Say) -> list[Item]:
    topic = topic_for(None, task.display_title)
    evidence = text_spans(answer.text, assessment.evidence)
    items: list[Item] = []
    if assessment.contradictions:
        items.append(
            Item(
                message=say("contradiction"),
                correctness=Correctness.WRONG,
                topic=topic,
                context=text_spans(answer.text, assessment.contradictions),
            )
        )
    verdict = assessment.verdict
    covered = [detected.aspect for detected in assessment.detected]
    if verdict is Correctness.CORRECT:
        items.insert(
            0,
            Item(message=say("correct"), aspects=covered, correctness=verdict, topic=topic, context=evidence),
        )
    elif verdict is Correctness.PARTIAL:
        stated, asked, total = assessment.covered_ideas, assessment.asked_ideas, assessment.total_ideas
        if asked and 0 < stated < asked:
            message = say("partial_asked", covered=stated, asked=asked)
        elif not asked and total > 1 and 0 < stated < total:
            message = say("partial_ideas", covered=stated, total=total)
        else:
            message = say("partial")
        items.insert(
            0, Item(message=message, aspects=covered, correctness=verdict, topic=topic, context=evidence)
        )
    else:
        items.insert(0, Item(message=say("wrong"), correctness=Correctness.WRONG, topic=topic))
    return items
