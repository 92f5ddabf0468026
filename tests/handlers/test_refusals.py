"""Where a refusal is said in a group the bot may not delete in."""

from handlers.telegram.messages import Edit, Send
from handlers.telegram.refusals import REFUSAL_REF, REFUSAL_SAID, refusal, said


def test_a_refusal_scrolled_out_of_sight_is_posted_anew_not_rewritten() -> None:
    kept = {REFUSAL_REF: 100, REFUSAL_SAID: said("No.")}
    outs = refusal(-5, kept, False, "No.", typed=107)
    assert outs == [Send(-5, "No.", remember=REFUSAL_REF)]


def test_a_refusal_among_the_last_few_messages_is_rewritten_in_place() -> None:
    kept = {REFUSAL_REF: 100, REFUSAL_SAID: said("No.")}
    outs = refusal(-5, kept, False, "Not now.", typed=102)
    assert outs == [Edit(-5, "Not now.", msg=100, ref=REFUSAL_REF)]
