"""The engine's fast paths give what the general ones give (engine/hit_me.py, simulate)."""

from __future__ import annotations

import random

import pytest

from engine.bots import Decision, make_bot, own_hit_me_state
from engine.errors import IllegalActionError
from engine.events import Event
from engine.hit_me import Hit, HitMeConfig, HitMeObservation, HitMeRound, Hold


@pytest.mark.parametrize("ace_eleven", [False, True])
def test_seat_to_play_view_turn_actions_and_own_state_agree(ace_eleven: bool) -> None:
    config = HitMeConfig(players=4, ace_eleven=ace_eleven)
    bot = make_bot("threshold:3", "hit-me", random.Random(0))
    checked = 0
    for seed in range(30):
        rnd = HitMeRound.deal(config, random.Random(seed), dealer=seed % 4)
        while (seat := rnd.current) is not None:
            fast = HitMeObservation.for_seat_to_play(rnd, seat)
            slow = rnd.observation(seat, False, False)
            assert fast.to_dict() == slow.to_dict()
            assert fast.own_state() == slow.own_state() == own_hit_me_state(slow.to_dict())
            fixed = rnd.turn_actions()
            if ace_eleven:
                assert fixed is None
            else:
                assert list(fixed) == rnd.legal_actions(seat) == [Hit(), Hold()]
            rnd.apply_action(bot.choose(fast, rnd.legal_actions(seat)).action, seat)
            checked += 1
            with pytest.raises(RuntimeError):  # a view of the state before the move
                fast.own_state()
    assert checked > 100


def test_the_event_log_is_made_once_and_stays_the_same_objects() -> None:
    rnd = HitMeRound.deal(HitMeConfig(players=3), random.Random(4), dealer=0)
    first = rnd.events
    assert len(first) == 3 and all(type(e) is Event for e in first)
    rnd.apply_action(Hit(), rnd.current)
    again = rnd.events
    assert again[:3] == first[:3] and again[0] is first[0] and len(again) == 4
    assert all(type(e) is Event for e in again)


def test_an_illegal_hit_or_hold_changes_nothing() -> None:
    rnd = HitMeRound.deal(HitMeConfig(players=3), random.Random(4), dealer=0)
    before = rnd.to_json()
    other = (rnd.current + 1) % 3
    for action, seat in [(Hit(), other), (Hold(), other), (Hit(), True), (Hold(), 7),
                         (Hit(), float(rnd.current)), ("hit", rnd.current)]:
        with pytest.raises(IllegalActionError):
            rnd.apply_action(action, seat)  # type: ignore[arg-type]
        assert rnd.to_json() == before


def test_shuffle_is_random_shuffle() -> None:
    """engine.cards.shuffle gives Random.shuffle's order and leaves the same generator state
    (the seeded games depend on it), and a subclass of Random still shuffles itself."""
    from engine.cards import shuffle

    for seed in range(200):
        for n in (0, 1, 2, 3, 7, 28, 52, 104, 416):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(b, r2)
            assert a == b and r1.getstate() == r2.getstate()

    class Fixed(random.Random):
        def random(self) -> float:
            return 0.0

    items = list(range(10))
    shuffle(items, Fixed(1))
    expected = list(range(10))
    Fixed(1).shuffle(expected)
    assert items == expected


def test_a_loaded_or_cloned_round_plays_on_like_the_original() -> None:
    """The running sums and the seats still in are worked out again after a load."""
    config = HitMeConfig(players=4)
    for seed in range(20):
        rnd = HitMeRound.deal(config, random.Random(seed), dealer=1)
        for _ in range(seed % 6):
            rnd.apply_action(Hit(), rnd.current)
        copies = [HitMeRound.from_json(rnd.to_json()), rnd.clone()]
        for moves in range(40):
            if rnd.current is None:
                break
            action = Hit() if moves % 3 else Hold()
            seat = rnd.current
            for r in (rnd, *copies):
                r.apply_action(action, seat)
        assert all(c.to_json() == rnd.to_json() for c in copies)
        assert all(c.current == rnd.current for c in copies)


def _asker(rnd: HitMeRound, bots: list, asked: list, seat: int):  # type: ignore[no-untyped-def]
    """A bot's choose for `seat` that records what it was given and checks its observation."""
    def ask(obs, legal):  # type: ignore[no-untyped-def]
        asked.append((seat, obs.viewer, legal))
        assert obs.to_dict() == rnd.observation(seat, False, False).to_dict()
        assert obs.seat((seat + 1) % 4)["face_down"] == {"hidden": True}
        return bots[seat].choose(obs, legal)
    return ask


@pytest.mark.parametrize("turn_order", ["round-robin", "all-at-once"])
def test_play_turns_plays_as_the_general_api_does(turn_order: str) -> None:
    """HitMeRound.play_turns (what simulations use) makes the same moves, events and state as
    asking each seat through observation(), legal_actions() and apply_action(); each bot is
    asked with an observation of its own seat only, and a fresh list of its legal actions."""
    config = HitMeConfig(players=4, turn_order=turn_order)
    for seed in range(25):
        fast, slow = (HitMeRound.deal(config, random.Random(seed), dealer=seed % 4)
                      for _ in range(2))
        bots = [make_bot(f"threshold:{2 + seed % 4}", "hit-me", random.Random(s))
                for s in range(4)]
        asked: list[tuple[int, int | None, list[object]]] = []
        fast.play_turns([_asker(fast, bots, asked, s) for s in range(4)])
        while (seat := slow.current) is not None:
            view = slow.observation(seat, False, False)
            slow.apply_action(bots[seat].choose(view, slow.legal_actions(seat)).action, seat)
        assert fast.to_json() == slow.to_json() and fast.events == slow.events
        assert fast.current is None and not fast.revealed
        assert all(seat == viewer and legal == [Hit(), Hold()] for seat, viewer, legal in asked)
        assert len({id(legal) for _, _, legal in asked}) == len(asked)  # a fresh list each


def test_play_turns_refuses_an_illegal_move_and_changes_nothing() -> None:
    from engine.hit_me import ChooseAce, Reveal

    rnd = HitMeRound.deal(HitMeConfig(players=3), random.Random(2), dealer=0)
    before = rnd.to_json()
    for bad in (Reveal(), ChooseAce(rnd.cards(rnd.current)[0], True), "hit", None):
        with pytest.raises(IllegalActionError):
            rnd.play_turns([lambda obs, legal, a=bad: Decision(a, "bad")] * 3)
        assert rnd.to_json() == before


def test_a_seat_to_play_observation_stays_read_only() -> None:
    rnd = HitMeRound.deal(HitMeConfig(players=4), random.Random(3), dealer=2)
    obs = HitMeObservation.for_seat_to_play(rnd, rnd.current)
    assert obs.viewer == rnd.current == obs["viewer"]
    for name in ("viewer", "_state", "_stamp"):
        with pytest.raises(AttributeError):
            setattr(obs, name, 0)
    assert obs.viewer == rnd.current


def test_the_threshold_bot_answers_only_with_an_action_it_was_given() -> None:
    """The bot reuses a decision for a sum it has seen only while the legal actions hold
    that very action at the same place; otherwise it picks from the list it is given."""
    rnd = HitMeRound.deal(HitMeConfig(players=4), random.Random(1), dealer=0)
    bot = make_bot("threshold:0", "hit-me", random.Random(0))  # always hits
    seat = rnd.current
    obs = HitMeObservation.for_seat_to_play(rnd, seat)
    first = bot.choose(obs, rnd.legal_actions(seat))
    assert type(first.action) is Hit and bot.choose(obs, rnd.legal_actions(seat)) is first
    mine = [Hit(), Hold()]  # equal actions, other objects
    assert bot.choose(obs, mine).action is mine[0]
    swapped = [Hold(), Hit()]
    assert bot.choose(obs, swapped).action is swapped[1]
    assert bot.choose(obs, rnd.legal_actions(seat)).action in rnd.legal_actions(seat)


def test_a_lazy_flapjack_view_equals_the_one_from_the_plain_dict() -> None:
    from engine.bots import FlapjackView
    from engine.flapjack import FlapjackConfig, FlapjackState

    checked = 0
    for variant in ("classic", "simple-ten", "add-or-subtract"):
        for seed in range(4):
            st = FlapjackState.deal(FlapjackConfig(players=3, variant=variant),
                                    random.Random(seed))
            bot = make_bot("random", "flapjack", random.Random(seed))
            while not st.is_over:
                seat = st.current
                lazy = FlapjackView.from_observation(st.observation(seat, False, False))
                plain = FlapjackView.from_observation(
                    st.observation(seat, False, False).to_dict())
                assert lazy == plain
                assert lazy.unseen == plain.unseen and lazy.hand_counts == plain.hand_counts
                assert lazy.hand_counts == tuple(len(h) for h in st.hands)
                # _can_move agrees with listing the moves, for every seat
                assert [st._can_move(p, st.total) for p in range(3)] == \
                    [bool(st._moves(p)) for p in range(3)]
                st.apply_action(bot.choose(st.observation(seat, False, False),
                                           st.legal_actions(seat)).action, seat)
                checked += 1
    assert checked > 300
