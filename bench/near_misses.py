"""The judge of a new task on hand-written near misses, by kind: what the labelled corpora hardly
hold, and what the judgement issue names.

    python bench/near_misses.py          # the table
    python bench/near_misses.py --list   # also every answer it misjudges

The files in bench/near_misses/ are tasks in the style of a physics tutoring corpus (bulbs, paths,
gaps; English, 2-way), German physics tasks (3-way) and one task each in French, Spanish and
Italian, each with a sample solution only and answers labelled by hand with the kind of answer they
are: a paraphrase, an incomplete answer, one that says the opposite (a negation or an opposite
word), names another element, swaps roles or cause and effect, gives a wrong reason in the topic's
words, or misses the point. They were written on 2026-11-27 before the fixes of that day, and no
weight or constant is chosen on them: the judge's weights are learnt on ../shared/bench only
(bench/freeform_grader.py). A hundred and twenty-five answers are a check, not a measure to
tune: a kind's row says where the judge stands on it, the labelled corpora say whether a change
generalises.

Each answer is judged in process the way the service judges it (core.engine.freeform.compute, the
verdict read from its points, PARTIAL as WRONG in a 2-way file: a name with "2way"), as
`feedback-studio eval` does.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.api import FreeformTextAnswer, FreeformTextResult  # noqa: E402
from core.assets import load_catalogue  # noqa: E402
from core.engine.base import EngineContext  # noqa: E402
from core.engine.freeform import compute  # noqa: E402
from core.evaluation import macro_f1, read_questions, read_verdict, task_of  # noqa: E402

FILES = sorted((ROOT / "bench" / "near_misses").glob("*.jsonl"))
KINDS = ("paraphrase", "incomplete", "opposite", "element", "swapped", "reason", "off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="also list every misjudged answer")
    args = parser.parse_args()
    ctx = EngineContext(catalogue=load_catalogue())
    by_kind: dict[str, Counter[bool]] = defaultdict(Counter)
    misjudged = []
    print(f"{'file':<28} {'answers':>7} {'right':>6} {'macro-F1':>8}")
    for path in FILES:
        gold, predicted = [], []
        read_as = ["CORRECT", "PARTIAL", "WRONG"] if "3way" in path.name else ["CORRECT", "WRONG"]
        for question in read_questions(path):
            task = task_of(question)
            for item in question["test"]:
                result = compute(task, FreeformTextAnswer(content=item["answer"]), ctx)
                assert isinstance(result, FreeformTextResult)
                read = read_verdict(result.points.verdict, read_as)
                gold.append(item["label"])
                predicted.append(read)
                by_kind[item["kind"]][read == item["label"]] += 1
                if read != item["label"]:
                    misjudged.append((path.name, item["kind"], item["label"], read, item["answer"]))
        labels = [label for label in ("CORRECT", "PARTIAL", "WRONG") if label in set(gold) | set(predicted)]
        right = sum(g == p for g, p in zip(gold, predicted, strict=True))
        print(f"{path.name:<28} {len(gold):>7} {right:>6} {macro_f1(gold, predicted, labels):>8.3f}")
    print(f"\n{'kind':<12} {'answers':>7} {'right':>6} {'share':>6}")
    for kind in KINDS:
        counts = by_kind.get(kind)
        if counts:
            total = counts[True] + counts[False]
            print(f"{kind:<12} {total:>7} {counts[True]:>6} {counts[True] / total:>6.2f}")
    if args.list:
        print("\nmisjudged (file, kind, label, verdict, answer):")
        for row in misjudged:
            print("  " + " | ".join(row))


if __name__ == "__main__":
    main()
