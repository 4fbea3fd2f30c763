"""Language tools of the freeform engine, for en, de, fr, it and es (DE_CH through casefolding).

segment (sentences, clause breaks) · normalise (NFKC, casefold, accents) · languages (stemmers,
stop words, negation words, connectives) · tokens (words with offsets, stems and negation scope)
· matching (typo tolerance) · coverage (key terms of a reference and how much an answer covers)
· phrases (an aspect's cue in an answer, with evidence spans). Offsets always index the original
text: nothing here rewrites what a learner wrote.
"""
