"""Seat views for people (``envs/<game>/view.py``): hidden information, typed moves, explanations."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers the env ids)
from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.gostop import cards as C
from envs.registration import game_class
from envs.yacht import CATEGORY_NAMES

GAMES = ("yacht", "rainbow_dice", "gostop")


def walk(game, seed: int, steps: int = 400):
    """Yield the state of one random game after each of its moves (the start included)."""
    rng = np.random.default_rng(seed)
    state = game.init([seed])
    yield state
    for _ in range(steps):
        if state.done[0]:
            return
        game.step(state, sample_legal(game.legal_mask(state), rng))
        yield state


def reshuffle_hidden(state, seat: int, rng) -> None:
    """Deal the cards ``seat`` cannot see (the other hand and the stock) anew, in place."""
    opp = 1 - seat
    top, end = int(state.stock_top[0]), int(state.stock_end[0])
    hidden = C.ids_of(state.hands[0, opp]) + [int(c) for c in state.stock[0, top:end]]
    rng.shuffle(hidden)
    n = int(C.popcount(state.hands[0, opp]))
    state.hands[0, opp] = np.uint64(C.mask_of(hidden[:n]))
    state.stock[0, top:end] = hidden[n:]


# --------------------------------------------------------------- hidden information
@pytest.mark.parametrize("seed", range(6))
def test_gostop_seat_view_depends_only_on_what_the_seat_sees(seed):
    """Re-dealing the other hand and the stock changes nothing a seat is shown: view, moves, text."""
    game, rng = GoStop(), np.random.default_rng(100 + seed)
    for state in walk(game, seed):
        for seat in (0, 1):
            other = state.copy()
            reshuffle_hidden(other, seat, rng)
            if other.equals(state) and not state.done[0]:
                continue  # nothing hidden left to move around
            view = game.seat_view(state, 0, seat)
            assert game.seat_view(other, 0, seat) == view
            assert game.render_text(other, 0, seat) == game.render_text(state, 0, seat)
            if state.to_move[0] == seat and not state.done[0]:
                assert game.legal_moves(other, 0) == game.legal_moves(state, 0)
            hidden = set(C.ids_of(state.hands[0, 1 - seat])) | {
                int(c) for c in state.stock[0, state.stock_top[0]:state.stock_end[0]]}
            shown = set(view["hand"]) | set(view["layout"]) | set(sum(view["captured"], []))
            shown |= {c for c in (view["played"], view["flipped"]) if c is not None}
            assert not shown & hidden
            assert view["hand"] == C.ids_of(state.hands[0, seat])


def test_gostop_explanations_use_public_cards_only():
    """Explaining a move from one seat's views before and after gives the same text for any
    re-deal of that seat's hidden cards (the flip is public once made)."""
    game, rng = GoStop(), np.random.default_rng(5)
    for seed in range(4):
        states = [s.copy() for s in walk(game, seed)]
        for before, after in zip(states, states[1:]):
            action = _action_between(game, before, after)
            for seat in (0, 1):
                text = game.view_module.explain(game.seat_view(before, 0, seat), action,
                                                game.seat_view(after, 0, seat))
                json.dumps(text)  # JSON-compatible
                assert set(text) == {"text", "played", "flipped", "captured"}


def _action_between(game, before, after) -> int:
    for a in np.flatnonzero(game.legal_mask(before)[0]):
        trial = before.copy()
        game.step(trial, np.array([a]))
        if trial.equals(after):
            return int(a)
    raise AssertionError("no action leads from one state to the next")


def test_ansi_render_shows_only_the_learner_or_the_mover():
    env = gym.make("madang/GoStop-v0", render_mode="ansi", learner_seat=1).unwrapped
    env.reset(seed=3)
    text = env.render()
    hand = C.ids_of(env.state.hands[0, 1])
    assert ("your hand: " + ", ".join(f"{c} " for c in hand[:1])) in text
    for c in C.ids_of(env.state.hands[0, 0]):
        assert f" {c} {C.CARD_NAMES[c].split(' ', 1)[0]}" not in text.split("your hand:")[1]
    other = env.state.copy()
    reshuffle_hidden(other, 1, np.random.default_rng(0))
    assert env.game.render_text(other, 0, seat=1) == text
    aec = envs.gostop.env(render_mode="ansi")
    aec.reset(seed=4)
    mover = aec.unwrapped.agent_name_mapping[aec.agent_selection]
    assert aec.render() == aec.unwrapped.game.render_text(aec.unwrapped.state, 0, seat=mover)
    assert "moves:" in aec.render()


@pytest.mark.parametrize("name", ["yacht", "rainbow_dice"])
def test_dice_views_are_the_public_position(name):
    game = game_class(name)(num_players=3)
    for state in walk(game, 1, steps=60):
        pos = game.to_position(state, 0)
        view = game.seat_view(state, 0, 2)
        json.dumps(view)
        assert view["dice"] == pos["dice"] and view["to_move"] == pos["to_move"] and view["seat"] == 2
        for move in game.legal_moves(state, 0):
            assert move["text"] and move["kind"]


def test_seat_view_rejects_a_bad_seat():
    game = GoStop()
    state = game.init([0])
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="seat must be"):
            game.seat_view(state, 0, seat)


# ------------------------------------------------------------------- typed moves
def typed_names(name: str, move: dict) -> list[str]:
    """Ways a person types ``move`` (besides its id)."""
    colours = "ROYGBP"
    k = move["kind"]
    if name == "yacht":
        if k == "reroll":
            return ["keep " + " ".join(str(i + 1) for i in move["keep"]) if move["keep"] else "reroll",
                    "reroll " + " ".join(str(i + 1) for i in reversed(move["reroll"]))]
        return [f"score {CATEGORY_NAMES[move['category']]}", f"s {CATEGORY_NAMES[move['category']].lower()}"]
    if name == "rainbow_dice":
        from envs.rainbow_dice import HAND_NAMES
        if k == "reroll":
            return ["reroll " + "".join(colours[i] for i in move["reroll"]),
                    "keep " + " ".join(colours[i].lower() for i in move["keep"])]
        if k == "adjust":
            sign = "+" if move["delta"] > 0 else "-"
            return [f"{sign}{colours[move['die']]}", f"{colours[move['die']]} {sign}1"]
        if k == "token_reroll":
            return [f"token {colours[move['die']]}"]
        if k in ("buy", "second"):
            return [f"buy {HAND_NAMES[move['hand']]}"]
        return {"stop": ["stop"], "take": ["take"], "decline": ["decline"]}[k]
    if k in ("play", "choose"):
        return [f"{'play' if k == 'play' else 'take'} {move['card']}"]
    return [k]


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_can_be_typed(name):
    game = game_class(name)(num_players=2)
    text = game.view_module
    for seed in range(3):
        for state in walk(game, seed, steps=80):
            if state.done[0]:
                break
            view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
            for m in moves:
                assert text.parse(str(m["id"]), view, moves) == m["id"]
                for typed in typed_names(name, m):
                    assert text.parse(typed, view, moves) == m["id"], typed


BAD_INPUT = {
    "yacht": [("", "type a move"), ("keep 7", "numbered 1..5"), ("keep 1 2 3 4 5", "score a category"),
              ("score nothing", "no category called"), ("fly", "unknown move"), ("99", "not legal now"),
              ("score f", "did you mean Fives or Four of a Kind or Fours or Full House"),
              ("score cho", "did you mean Choice"), ("-1", "unknown move"), ("y", "unknown move"),
              ("c", "unknown move"), ("b", "unknown move"), ("choice", "you can score .*Choice \\("),
              ("keep", "say which dice to keep"), ("k", "say which dice to keep"),
              ("keep 3 3 3", "die 3 is named twice"), ("reroll 1 1", "die 1 is named twice"),
              ("keep values", "name the values"), ("keep values 7", "values 1..6"),
              ("keep values 6 6 6 6 6 6", "not 6")],
    "rainbow_dice": [("+Q", "dice are named"), ("buy rainbow", "could mean several"),
                     ("buy six of a kind", "do not satisfy"), ("token R", "after the free rerolls"),
                     ("decline", "no second card"), ("+", "name exactly one die"), ("500", "not legal now")],
    "gostop": [("go", "only when you are asked"), ("play 47", "not in your hand"),
               ("play zebra", "no card called"), ("", "type a move")],
}


@pytest.mark.parametrize("name", GAMES)
def test_bad_typed_moves_say_why(name):
    game = game_class(name)(num_players=2)
    if name == "rainbow_dice":
        state = game.from_position({"round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 1, 2, 3, 4, 5],
                                    "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [0, 0],
                                    "cards": [[0] * 30] * 2, "supply": [10] * 30}, seed=0)
    elif name == "gostop":
        state = game.from_position({"to_move": 0, "hands": [[2, 6], [47]], "layout": [0], "ppuk_owner": {},
                                    "stock": [24, 5], "captured": [[], []], "go_count": [0, 0],
                                    "go_score": [0, 0], "ppuk_count": [0, 0]}, seed=0)
    else:
        state = game.init([0])
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    for typed, reason in BAD_INPUT[name]:
        with pytest.raises(ValueError, match=reason):
            game.view_module.parse(typed, view, moves)


def test_yacht_scored_category_and_no_rerolls_left():
    game = game_class("yacht")(num_players=1)
    state = game.from_position({"round": 2, "to_move": 0, "dice": [2, 2, 3, 3, 3], "rolls_left": 0,
                                "sheets": [[None] * 6 + [14] + [None] * 5]}, seed=0)
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    with pytest.raises(ValueError, match="Choice is already scored"):
        game.view_module.parse("score choice", view, moves)
    with pytest.raises(ValueError, match="no rerolls left"):
        game.view_module.parse("keep 1", view, moves)
    assert game.view_module.parse("score fh", view, moves) == 32 + 8
    with pytest.raises(ValueError, match="unknown move 'fh'.*no rerolls left"):
        game.view_module.parse("fh", view, moves)


def test_gostop_two_identical_junk_cards_take_the_lower_id():
    game = GoStop()
    state = game.from_position({"to_move": 0, "hands": [[10, 11, 8], [47]], "layout": [], "ppuk_owner": {},
                                "stock": [24, 5], "captured": [[], []], "go_count": [0, 0],
                                "go_score": [0, 0], "ppuk_count": [0, 0]}, seed=0)
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    parse = game.view_module.parse
    assert parse("mar junk", view, moves) == 10
    assert parse("play mar bright", view, moves) == parse("Mar curtain", view, moves) == 8
    assert parse("벚꽃 bright", view, moves) == 8
    with pytest.raises(ValueError, match="could mean several"):
        parse("mar", view, moves)


# ------------------------------------------------------------------ explanations
def test_gostop_explanation_of_a_capture():
    game = GoStop()
    state = game.from_position({"to_move": 0, "hands": [[2, 6], [47]], "layout": [0], "ppuk_owner": {},
                                "stock": [24, 5], "captured": [[], []], "go_count": [0, 0],
                                "go_score": [0, 0], "ppuk_count": [0, 0]}, seed=0)
    before = game.seat_view(state, 0, 1)
    game.step(state, np.array([2]))
    info = game.view_module.explain(before, 2, game.seat_view(state, 0, 1))
    assert info["text"] == "plays Jan junk; flips Jul animal (boar); captures Jan ★ bright, Jan junk"
    assert (info["played"], info["flipped"], info["captured"]) == (2, 24, [0, 2])


def test_yacht_and_rainbow_explanations():
    yacht = game_class("yacht")(num_players=1)
    s = yacht.from_position({"round": 1, "to_move": 0, "dice": [1, 2, 3, 4, 5], "rolls_left": 0,
                             "sheets": [[None] * 12]}, seed=0)
    before = yacht.seat_view(s, 0, 0)
    yacht.step(s, np.array([32 + 9]))
    assert yacht.view_module.explain(before, 41, yacht.seat_view(s, 0, 0))["text"] == \
        "scores 30 in Little Straight (total 30)"
    rd = game_class("rainbow_dice")(num_players=1)
    s = rd.from_position({"round": 1, "to_move": 0, "phase": "final", "dice": [1, 1, 2, 3, 4, 5],
                          "free_rerolls_left": 0, "die_actions_used": 0, "tokens": [0],
                          "cards": [[0] * 30], "supply": [10] * 30}, seed=0)
    before = rd.seat_view(s, 0, 0)
    rd.step(s, np.array([83]))  # buy Pair
    info = rd.view_module.explain(before, 83, rd.seat_view(s, 0, 0))
    assert info["text"] == "buys Pair with R1 O1 Y2 G3 B4 P5, and 1 token for ending the turn (score 0 -> 6)"
    assert info["hand"] == 0


# ------------------------------------------------------------------ typed moves that must not surprise
def yacht_at(dice, rolls_left=2):
    game = game_class("yacht")(num_players=1)
    state = game.from_position({"round": 1, "to_move": 0, "dice": dice, "rolls_left": rolls_left,
                                "sheets": [[None] * 12]}, seed=0)
    return game, state, game.seat_view(state, 0), game.legal_moves(state, 0)


def test_yacht_keeps_dice_by_number_once_or_by_value():
    game, state, view, moves = yacht_at([1, 2, 3, 3, 3])
    parse = game.view_module.parse
    keep_threes = parse("keep 3 4 5", view, moves)
    assert keep_threes == 0b00011  # dice 1 and 2 are rerolled
    assert parse("keep values 3 3 3", view, moves) == keep_threes
    assert parse("keep value 3 3 3", view, moves) == parse("k v 3 3 3", view, moves) == keep_threes
    assert parse("reroll values 1 2", view, moves) == keep_threes
    assert parse("keep values 3", view, moves) == 0b11011  # one die showing 3 stays
    with pytest.raises(ValueError, match="die 3 is named twice.*keep values 3 3 3"):
        parse("keep 3 3 3", view, moves)
    with pytest.raises(ValueError, match="the dice show 1 2 3 3 3: 3 dice with 3, not 4"):
        parse("keep values 3 3 3 3", view, moves)
    with pytest.raises(ValueError, match="the dice show 1 2 3 3 3: 0 dice with 6, not 1"):
        parse("keep values 6", view, moves)
    game.step(state, np.array([keep_threes]))
    after = game.seat_view(state, 0)
    assert after["dice"].count(3) >= 3


def test_yacht_never_scores_without_score_or_an_id():
    game, state, view, moves = yacht_at([6, 6, 6, 6, 6], rolls_left=0)
    parse = game.view_module.parse
    for typed in ("-1", "y", "c", "b", "yacht", "choice", "6s", "f", "s", "score", "score y", "score ya"):
        with pytest.raises(ValueError):
            parse(typed, view, moves)
    assert parse("score yacht", view, moves) == 32 + 11 == parse("43", view, moves)
    assert parse("score 6s", view, moves) == 32 + 5
    with pytest.raises(ValueError) as e:
        parse("y", view, moves)
    assert "you can score" in str(e.value) and "Yacht (50)" in str(e.value)


def test_yacht_bare_keep_is_refused_and_reroll_rerolls_all():
    game, state, view, moves = yacht_at([1, 2, 3, 3, 3])
    with pytest.raises(ValueError, match="say which dice to keep"):
        game.view_module.parse("keep", view, moves)
    assert game.view_module.parse("reroll", view, moves) == 31


def gostop_choice():
    """A Go-Stop deal at seat 0's hand choice: Dec animal played on Dec bright + Dec ribbon."""
    game = GoStop()
    state = game.from_position({"to_move": 0, "hands": [[45, 2], [47, 3]], "layout": [44, 46, 0],
                                "ppuk_owner": {}, "stock": [24, 5, 6, 7], "captured": [[], []],
                                "go_count": [0, 0], "go_score": [0, 0], "ppuk_count": [0, 0]}, seed=0)
    return game, state


def test_gostop_verbs_must_fit_the_decision():
    game, state = gostop_choice()
    parse = game.view_module.parse
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    assert view["decision"] == "play"
    for typed in ("take jan junk", "take 2", "t jan junk", "choose 45"):
        with pytest.raises(ValueError, match="now you play a card from your hand: type 'play CARD'"):
            parse(typed, view, moves)
    assert parse("play jan junk", view, moves) == parse("jan junk", view, moves) == parse("2", view, moves) == 2
    game.step(state, np.array([45]))
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    assert view["decision"] == "hand_choice" and [m["id"] for m in moves] == [92, 94]
    for typed in ("play 44", "play dec bright", "p dec ribbon"):
        with pytest.raises(ValueError, match="now you choose a card of the table: type 'take CARD'"):
            parse(typed, view, moves)
    assert parse("take 44", view, moves) == parse("take dec bright", view, moves) == parse("92", view, moves) == 92


def test_gostop_hints_say_what_may_be_typed():
    game, state = gostop_choice()
    text = game.view_module
    game.step(state, np.array([45]))
    view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
    with pytest.raises(ValueError) as e:
        text.parse("44", view, moves)
    assert str(e.value) == "44 is a card number, not a move id: type 'take 44' or the move id 92"
    hint = text.hint(view, moves)
    assert "'take 44' (Dec ★ bright, move id 92)" in hint and "'take 46' (Dec ribbon, move id 94)" in hint
    for typed in ("take 44", "92", "take 46", "94"):  # what the hint offers works
        text.parse(typed, view, moves)
    with pytest.raises(ValueError, match="move 99 is not legal now; type 'take CARD'"):
        text.parse("99", view, moves)
    play_view = GoStop().seat_view(gostop_choice()[1], 0)
    play_moves = GoStop().legal_moves(gostop_choice()[1], 0)
    assert text.hint(play_view, play_moves).startswith("'play CARD'")
    with pytest.raises(ValueError, match="card 44 is not in your hand; your hand: 2 Jan junk, 45 Dec animal"):
        text.parse("44", play_view, play_moves)


# ------------------------------------------------------------------ wording
def test_yacht_lines_show_the_first_roll_of_a_turn():
    game, state, before, _ = yacht_at([1, 2, 3, 3, 3])
    game.step(state, np.array([0b00011]))
    mid = game.seat_view(state, 0)
    text = game.view_module.explain(before, 0b00011, mid)["text"]
    assert text.startswith("rolls 1 2 3 3 3; keeps 3 3 3, rerolls 2: ")
    game.step(state, np.array([32 + 6]))
    assert game.view_module.explain(mid, 32 + 6, game.seat_view(state, 0))["text"].startswith("scores ")


def test_counts_are_singular_or_plural():
    rd = game_class("rainbow_dice")(num_players=2)
    s = rd.from_position({"round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 1, 2, 3, 4, 5],
                          "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [1, 0],
                          "cards": [[0] * 30] * 2, "supply": [10] * 30}, seed=0)
    text = rd.render_text(s, 0, 0)
    assert "3 points (cards 0 + duplicates 0 + same rank 0 + tokens 3), 1 token;" in text
    assert "1 tokens" not in text and "1 points" not in text


def test_rainbow_lines_count_every_token():
    rd = game_class("rainbow_dice")(num_players=2)
    s = rd.from_position({"round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 1, 2, 3, 4, 5],
                          "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [1, 0],
                          "cards": [[0] * 30] * 2, "supply": [10] * 30}, seed=0)
    explain = rd.view_module.explain
    before = rd.seat_view(s, 0, 0)
    up = next(m["id"] for m in rd.legal_moves(s, 0) if m["kind"] == "adjust")
    rd.step(s, np.array([up]))
    assert " for 1 token: " in explain(before, up, rd.seat_view(s, 0, 0))["text"]
    before = rd.seat_view(s, 0, 0)
    rd.step(s, np.array([113]))
    assert explain(before, 113, rd.seat_view(s, 0, 0))["text"] == \
        "takes 1 token, and 1 token for ending the turn (score 0 -> 6)"


def test_rainbow_buys_explain_their_bonuses():
    rd = game_class("rainbow_dice")(num_players=1)
    cards = [0] * 30
    cards[0] = 2  # two Pairs held: a third one earns a duplicate bonus
    s = rd.from_position({"round": 3, "to_move": 0, "phase": "final", "dice": [1, 1, 2, 3, 4, 5],
                          "free_rerolls_left": 0, "die_actions_used": 0, "tokens": [0],
                          "cards": [cards], "supply": [8] + [10] * 29}, seed=0)
    buy = next(m for m in rd.legal_moves(s, 0) if m["kind"] == "buy" and m["hand"] == 0)
    assert buy["points"] == buy["card_points"] + buy["duplicate_bonus"] + buy["rank_bonus"]
    assert buy["duplicate_bonus"] > 0 and "duplicate bonus" in buy["text"]
    before = rd.seat_view(s, 0, 0)
    rd.step(s, np.array([buy["id"]]))
    line = rd.view_module.explain(before, buy["id"], rd.seat_view(s, 0, 0))["text"]
    assert f"(+{buy['points']} = card {buy['card_points']} + duplicate bonus {buy['duplicate_bonus']}" in line


def finished_gostop(seed, policy):
    from frontends.play.session import Session

    s = Session("gostop", ["gostop-greedy"], seat=0, seed=seed)
    while not s.over:
        s.play(policy([m["id"] for m in s.moves()]))
    return s


def test_gostop_names_the_winner_and_says_when_the_last_card_ended_the_deal():
    s = finished_gostop(0, lambda ids: 96 if 96 in ids else ids[0])  # always Go: the last card ends it
    result = s.view()["result"]
    assert result["reason"] == "stop" and result["last_card"] and s.log[-1]["kind"] != "stop"
    last = s.log[-1]["text"]
    assert "gostop-greedy wins" in last or "you win" in last
    assert "when the last card ended the deal" in last and "stops" not in last
    assert "seat 1 wins" not in s.render() and "seat 1 wins" not in last
    stopped = finished_gostop(1, lambda ids: 97 if 97 in ids else ids[0])  # Stop when asked
    assert stopped.log[-1]["kind"] == "stop" and not stopped.view()["result"]["last_card"]
    assert stopped.log[-1]["text"] == "stops at score 10; gostop-greedy wins 11 points (score 10, 1 Go -> 11)"


@pytest.mark.parametrize("seed", range(4))
def test_gostop_tallies_count_the_piles_as_they_score(seed):
    from envs.gostop.scoring import combination_score

    s = finished_gostop(seed, lambda ids: ids[0])
    view = s.view()
    for pile, t in zip(view["captured"], view["tallies"]):
        assert t["points"] == combination_score(pile)
        assert t["brights"] == len(set(pile) & C.BRIGHTS) and t["ribbons"] == len(set(pile) & C.RIBBONS)
        units = int(C.JUNK_UNITS[pile].sum()) if pile else 0
        if C.CUP in pile:
            assert t["cup"] in ("animal", "junk")
            assert t["junk"] == units + (2 if t["cup"] == "junk" else 0)
            assert t["animals"] == len(set(pile) & C.ANIMALS) - (t["cup"] == "junk")
        else:
            assert t["cup"] is None and t["junk"] == units and t["animals"] == len(set(pile) & C.ANIMALS)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_hints_what_may_be_typed(name):
    """The ``hint`` of the text protocol: a line at every decision, and the quoted examples of
    Go-Stop's hints (``'take 44'``, ``'play 8'``) are moves that parse."""
    import re

    game = game_class(name)(num_players=2)
    for state in walk(game, 1, steps=120):
        if state.done[0]:
            break
        view, moves = game.seat_view(state, 0), game.legal_moves(state, 0)
        hint = game.view_module.hint(view, moves)
        assert isinstance(hint, str) and hint
        if name == "gostop":
            for typed in re.findall(r"'((?:play|take) [^']+)'", hint):
                if "CARD" not in typed:
                    assert game.view_module.parse(typed, view, moves) in {m["id"] for m in moves}, typed
