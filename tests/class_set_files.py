"""Files of a class's answers that cannot be imported, shared by the core's and the terminal app's
tests (the web app's upload has limits of its own)."""

BAD_CLASS_FILES = [
    ("empty.txt", b"", "empty.txt holds no answers."),
    ("blank.csv", b"answer\n\n", "blank.csv holds no answers."),
    (
        "grades.csv",
        b"name,score\nAda,3\n",
        "grades.csv has no answer column: name one of its columns “answer” (its columns: name, score).",
    ),
    (
        "latin1.txt",
        "Réponse".encode("latin-1"),
        "latin1.txt is not UTF-8 text (byte 1): save it as UTF-8 and import it again.",
    ),
    (
        "huge.txt",
        b"x" * 50_000_001,
        "huge.txt is 50 MB; a file of a class's answers may be at most 10 MB.",
    ),
    (
        "long.txt",
        b"short\n" + b"y" * 100_000,
        "long.txt, line 2: the answer has 100,000 characters; an answer may have at most 5,000.",
    ),
    ("many.txt", b"a\n" * 5_001, "many.txt holds 5,001 answers; a class set holds at most 5,000."),
    (
        "bad.jsonl",
        b'"ok"\n{"score": 3}\n',
        "bad.jsonl, line 2: not an answer (a string, or an object with an “answer”).",
    ),
]
"""(file name, its bytes, what the author is told) for a class set read from a file; tests are
named by the file."""
