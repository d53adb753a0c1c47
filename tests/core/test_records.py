"""Records: exported by the engine, imported back with every action re-checked."""

import copy
import json
from typing import Any

import pytest

from spades.arena import play_game, seat_bots
from spades.core import (
    Game,
    RecordError,
    Rules,
    game_from_record,
    game_to_record,
    read_record_spans,
    read_records,
    record_line,
)
from spades.core.record import record_to_json

LEVELS = dict.fromkeys(range(4), "random")


def finished_record(seed: int = 17) -> dict[str, Any]:
    return game_to_record(play_game(seat_bots(LEVELS, seed), seed=seed))


def test_a_finished_game_round_trips_exactly() -> None:
    record = finished_record()
    assert record["winner"] in ("NS", "EW")
    again = game_to_record(game_from_record(json.loads(record_to_json(record))))
    assert again == record


def test_the_record_has_the_documented_shape() -> None:
    record = finished_record()
    assert set(record) >= {"format", "rules", "seed", "players", "hands", "final", "winner"}
    assert record["rules"] == Rules().to_dict()
    hand = record["hands"][0]
    assert set(hand) >= {"dealer", "deal", "bids", "tricks", "tricks_won", "score"}
    assert all(len(cards) == 13 for cards in hand["deal"].values())
    assert len(hand["bids"]) == 4 and len(hand["tricks"]) == 13
    assert set(hand["tricks"][0]) == {"leader", "cards", "winner"}
    assert set(hand["score"]["NS"]) == {"delta", "total", "bags"}


def test_an_unfinished_game_round_trips_and_can_be_continued() -> None:
    game = Game(seed=3)
    for _ in range(4):
        game.bid(game.to_act or 0, 3)
    for _ in range(6):
        game.play(game.to_act or 0, game.legal_cards()[0])
    record = game_to_record(game)
    assert record["winner"] is None and record["hands"][-1]["tricks"][-1]["winner"] is None
    restored = game_from_record(record)
    assert game_to_record(restored) == record
    restored.play(restored.to_act or 0, restored.legal_cards()[0])  # play goes on


def test_a_continued_game_deals_what_the_seed_would_have_dealt() -> None:
    original = Game(seed=44)
    restored = game_from_record(game_to_record(original))
    assert restored.hand.deal == original.hand.deal


def test_extra_fields_are_ignored() -> None:
    record = finished_record()
    record["comment"] = "played at the club"
    record["hands"][0]["note"] = 1
    game_from_record(record)


def break_record(change: str) -> dict[str, Any]:
    """A finished record with one thing broken."""
    record = copy.deepcopy(finished_record(5))
    hand = record["hands"][0]
    if change == "score":
        hand["score"]["NS"]["delta"] += 10
    elif change == "dealer":
        hand["dealer"] = {"N": "E", "E": "S", "S": "W", "W": "N"}[hand["dealer"]]
    elif change == "winner":
        hand["tricks"][0]["winner"] = next(s for s in "NESW" if s != hand["tricks"][0]["winner"])
    elif change == "final":
        record["final"]["EW"] += 1
    return record


@pytest.mark.parametrize(
    ("change", "rule", "where"),
    [
        ("score", "score", "hand 1, score"),
        ("dealer", "turn", "hand 1, bid 1"),
        ("winner", "trick-winner", "hand 1, trick 1"),
        ("final", "score", "final"),
    ],
)
def test_a_broken_record_is_refused_naming_the_place(change: str, rule: str, where: str) -> None:
    with pytest.raises(RecordError) as error:
        game_from_record(break_record(change))
    assert error.value.rule == rule
    assert error.value.where == where


def test_a_wrong_format_or_missing_hands_is_refused() -> None:
    with pytest.raises(RecordError, match="format must be"):
        game_from_record({"format": "other"})
    with pytest.raises(RecordError, match="hands"):
        game_from_record({"format": "spades-record/1"})
    with pytest.raises(RecordError, match="a record is a JSON object"):
        game_from_record([1, 2])


def test_rule_options_out_of_range_are_refused_naming_the_option() -> None:
    # Blind Nil was refused here until the engine offered it (issue 12): now a
    # record may turn it on, and what is refused is an option it cannot play.
    record = finished_record()
    record["rules"]["nil_pass"] = 5
    with pytest.raises(RecordError, match="rules: rule 'nil_pass' must be from 0 to 3, got 5"):
        game_from_record(record)


def test_read_records_accepts_one_record_a_list_or_json_lines() -> None:
    one = finished_record(1)
    two = finished_record(2)
    assert [line for line, _ in read_records(json.dumps(one, indent=2))] == [1]
    assert len(list(read_records(json.dumps([one, two])))) == 2
    pretty = json.dumps([one, two], indent=1)
    starts = [line for line, _ in read_records(pretty)]
    assert [pretty.splitlines()[line - 1].strip() for line in starts] == ["{", "{"]
    assert starts[0] == 2 and starts[1] > starts[0] + 10
    assert [record for _, record in read_records(pretty)] == [one, two]
    lines = record_to_json(one) + "\n\n" + record_to_json(two) + "\n"
    assert [line for line, _ in read_records(lines)] == [1, 3]


def test_a_line_that_is_not_json_is_named() -> None:
    text = record_to_json(finished_record(1)) + "\n{not json\n"
    with pytest.raises(RecordError, match="line 2: not valid JSON"):
        list(read_records(text))


def test_a_pretty_printed_record_that_is_not_json_names_the_line_at_fault() -> None:
    """One record over many lines (as the web game downloads it) with the comma
    at the end of line 5 missing: the error names line 6, where the parser
    met the next value (as an editor would), not the opening brace."""
    lines = json.dumps(finished_record(1), indent=2).splitlines()
    lines[4] = lines[4].rstrip(",")
    with pytest.raises(RecordError, match=r"^line 6: not valid JSON \(Expecting ',' delimiter"):
        list(read_records("\n".join(lines)))
    # A list of records is one document too.
    listed = json.dumps([finished_record(1)], indent=2).replace('"hands"', "hands", 1)
    bad_line = next(n for n, line in enumerate(listed.splitlines(), 1) if "hands" in line)
    with pytest.raises(RecordError, match=f"^line {bad_line}: not valid JSON"):
        list(read_records(listed))


def test_a_record_without_a_seed_keeps_none() -> None:
    record = finished_record()
    record["seed"] = None
    assert game_to_record(game_from_record(record))["seed"] is None


def test_numbers_must_be_integers_not_floats_or_booleans() -> None:
    record = finished_record()
    record["final"]["NS"] = float(record["final"]["NS"])
    with pytest.raises(RecordError, match="final"):
        game_from_record(record)


def test_rules_that_are_not_an_object_are_named_once() -> None:
    record = finished_record()
    record["rules"] = []
    with pytest.raises(RecordError) as error:
        game_from_record(record)
    assert str(error.value).startswith("rules: expected an object")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[" * 20000 + "]" * 20000, 1),  # one document
        ('{"format": "spades-record/1"}\n' + "[" * 20000 + "]" * 20000, 2),  # JSON lines
        ('[{"a": 1},\n' + '{"a": ' * 3000 + "1" + "}" * 3000 + "]", 2),  # a list of records
    ],
)
def test_text_nested_too_deep_to_decode_is_refused_naming_its_line(text: str, line: int) -> None:
    with pytest.raises(RecordError, match=rf"^line {line}: brackets nested deeper than 64"):
        list(read_records(text))


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = json.dumps({"name": "[" * 5000})
    assert list(read_records(text)) == [(1, {"name": "[" * 5000})]


# A pretty-printed record (as the web game downloads it) refused for a bid or a
# deal names the line of the bid or card at fault, not the record's first line.


def pretty_with_marker(record: dict[str, Any], marker: str) -> tuple[str, int]:
    """``record`` pretty-printed, and the one line that is ``marker`` (and a comma)."""
    text = json.dumps(record, indent=2)
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if line.strip(" ,") == marker]
    assert len(lines) == 1, lines
    return text, lines[0]


def refused_line(text: str) -> tuple[int, RecordError]:
    """The line ``record_line`` names for the refusal of the one record in ``text``."""
    span = next(read_record_spans(text))
    with pytest.raises(RecordError) as refused:
        game_from_record(span.record)
    return record_line(text, span, refused.value.path), refused.value


def test_a_bid_out_of_range_names_its_own_line() -> None:
    record = finished_record(17)
    record["hands"][1]["bids"][2][1] = 14
    text, line = pretty_with_marker(record, "14")
    at, error = refused_line(text)
    assert at == line > 1 and error.rule == "bid" and error.where == "hand 2, bid 3"


def test_a_bid_out_of_turn_names_the_line_of_that_bid() -> None:
    record = finished_record(17)
    bids = record["hands"][0]["bids"]
    bids[0], bids[1] = bids[1], bids[0]
    bids[0][0] = bids[0][0].lower()  # still the same seat; the marker of its line
    text = json.dumps(record, indent=2)
    at, error = refused_line(text)
    assert error.rule == "turn" and error.path == ("hands", 0, "bids", 0)
    assert text.splitlines()[at - 1].strip() == "["  # the bid's own opening bracket
    assert f'"{bids[0][0]}"' in text.splitlines()[at]


def test_a_card_dealt_twice_names_the_line_of_its_second_copy() -> None:
    record = finished_record(17)
    deal = record["hands"][0]["deal"]
    deal["N"][3] = deal["W"][5].lower()  # North loses a card, West's is dealt twice
    text = json.dumps(record, indent=2)
    west = [
        n for n, line in enumerate(text.splitlines(), 1) if line.strip(" ,") == f'"{deal["W"][5]}"'
    ]
    at, error = refused_line(text)
    assert error.rule == "deal" and error.path == ("hands", 0, "deal", "W", 5)
    assert at == west[0] and at > 1


def test_a_card_a_seat_is_dealt_twice_and_a_card_that_is_not_one_name_their_lines() -> None:
    record = finished_record(17)
    record["hands"][0]["deal"]["E"][7] = record["hands"][0]["deal"]["E"][2].lower()
    text, line = pretty_with_marker(record, f'"{record["hands"][0]["deal"]["E"][7]}"')
    at, error = refused_line(text)
    assert at == line and "East is dealt the" in error.reason and error.rule == "deal"

    record = finished_record(17)
    record["hands"][1]["deal"]["S"][12] = "1S"
    text, line = pretty_with_marker(record, '"1S"')
    at, error = refused_line(text)
    assert at == line and error.rule == "card" and error.where == "hand 2, deal S"


def test_a_record_in_a_list_and_one_of_json_lines_name_their_lines_too() -> None:
    good, bad = finished_record(1), finished_record(2)
    bad["hands"][0]["bids"][1][1] = 14
    listed = json.dumps([good, bad], indent=1)
    spans = list(read_record_spans(listed))
    with pytest.raises(RecordError) as refused:
        game_from_record(spans[1].record)
    at = record_line(listed, spans[1], refused.value.path)
    assert at > spans[1].line and listed.splitlines()[at - 1].strip() == "14"
    lines = record_to_json(good) + "\n" + record_to_json(bad) + "\n"
    spans = list(read_record_spans(lines))
    with pytest.raises(RecordError) as refused:
        game_from_record(spans[1].record)
    assert record_line(lines, spans[1], refused.value.path) == 2


def test_a_fault_the_text_does_not_hold_names_the_nearest_line_it_does() -> None:
    """A missing key (a hand without ``tricks_won``) is named at what holds it."""
    record = finished_record(17)
    del record["hands"][0]["tricks_won"]
    text = json.dumps(record, indent=2)
    at, error = refused_line(text)
    assert error.path[:2] == ("hands", 0)
    assert text.splitlines()[at - 1].strip() == "{"  # the hand's own opening brace
    assert at > 1


def test_a_refused_bid_is_said_to_the_records_reader_naming_the_seat() -> None:
    """The engine tells the player "You may not bid blind Nil"; a record's reader
    is told who may not, and the line of the bid."""
    game = Game(Rules(blind_nil=True, blind_nil_behind=100), seed=8)
    record = game_to_record(game)
    first = game.to_act or 0
    record["hands"][0]["bids"] = [["NESW"[first], "blind_nil"]]
    text = json.dumps(record, indent=2)
    at, error = refused_line(text)
    name = ("North", "East", "South", "West")[first]
    assert error.reason == (
        f"{name} may not bid blind Nil: only a team behind by 100 points or more may bid it"
    )
    assert text.splitlines()[at - 1].strip() == '"blind_nil"' and error.rule == "blind-nil"
