"""A planned reply streams a piece a sentence: fewer events, each released whole by the leak guard."""

from __future__ import annotations

from core.tutor.base import Boundary, Piece, messages_as_outputs, sentences_of


def test_a_message_is_cut_after_each_sentence_and_keeps_every_character():
    for text in [
        "Hello there. How are you? Fine!",
        "No end mark",
        "",
        "Line one\nLine two",
        "Look at this: the bulb; then the wire.  Next…  ",
    ]:
        assert "".join(sentences_of(text)) == text
    assert sentences_of("Hello there. How are you? Fine!") == ["Hello there. ", "How are you? ", "Fine!"]
    assert sentences_of("The answer: a closed path; and more.") == ["The answer: a closed path; and more."]


def test_messages_become_a_piece_a_sentence_and_a_boundary_between_messages():
    outputs = messages_as_outputs(["Good question! Think of the path.", "What closes it?"])
    assert outputs == [
        Piece("Good question! "),
        Piece("Think of the path."),
        Boundary(),
        Piece("What closes it?"),
    ]
