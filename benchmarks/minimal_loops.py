"""Minimal hand-written loops of both games: the yardstick for the engine's speed.

Plain ints and lists, no objects, no observations, no validation: the same rules as the engine
(../shared/RULES.md) and the same computer players as benchmarks/engine.py, written as
directly as Python allows. benchmarks/engine.py times these beside the engine in one run and
prints the ratio.
They are a yardstick, not a second engine: the rules tests check the engine, not these.
"""

from __future__ import annotations

import random

# A card is an int: rank 1..13 in the low bits, suit colour in bit 4 (0 black, 1 red).
_DECK = [rank | (red << 4) for red in (0, 1) for rank in range(1, 14) for _ in range(2)]


def minimal_hit_me(rounds: int, threshold: int = 3, players: int = 4, seed: int = 1) -> list[int]:
    """Hit Me, round robin, one deck, black positive, `players` threshold players (hit while
    |sum| >= threshold). Returns round wins per seat (ties counted for no one)."""
    rng = random.Random(seed)
    values = [0] * 32
    for card in _DECK:
        rank, red = card & 15, card >> 4
        values[card] = -min(rank, 10) if red else min(rank, 10)
    deck = list(_DECK)
    wins = [0] * players
    dealer = 0
    last_dealt = [0] * players  # round number each seat last dealt (0 = never)
    for r in range(1, rounds + 1):
        last_dealt[dealer] = r
        rng.shuffle(deck)
        order = [(dealer + 1 + i) % players for i in range(players)]
        sums = [0] * players
        count = [2] * players
        top = 0
        for seat in order:  # face down, then face up
            sums[seat] += values[deck[top]]
            top += 1
        for seat in order:
            sums[seat] += values[deck[top]]
            top += 1
        held = [False] * players
        for _ in range(5):
            anyone = False
            for seat in order:
                if held[seat] or count[seat] >= 7:
                    continue
                anyone = True
                if abs(sums[seat]) >= threshold:
                    sums[seat] += values[deck[top]]
                    top += 1
                    count[seat] += 1
                else:
                    held[seat] = True
            if not anyone:
                break
        scores = [abs(s) for s in sums]
        best = min(scores)
        winners = [p for p in range(players) if scores[p] == best]
        if len(winners) == 1:
            wins[winners[0]] += 1
            dealer = winners[0]
        else:
            dealer = min(((dealer + 1 + i) % players for i in range(players)),
                         key=lambda p: last_dealt[p])
    return wins


def minimal_flapjack(games: int, players: int = 4, seed: int = 1) -> list[int]:
    """Flapjack classic, one deck, black positive, `players` greedy players (a Flapjack when
    possible, else the play leaving a total the fewest unseen card values can finish; ties by
    the generator). Returns game wins per seat (ties counted for no one)."""
    rng = random.Random(seed)
    value_of = [0] * 32
    for card in _DECK:
        rank, red = card & 15, card >> 4
        value_of[card] = -rank if red else rank
    one_deck = list(_DECK)
    wins = [0] * players
    for _ in range(games):
        deck = list(one_deck)
        rng.shuffle(deck)
        hands: list[list[int]] = [[] for _ in range(players)]
        for i in range(7 * players):
            hands[(1 + i) % players].append(deck[i])
        pile = deck[7 * players:]
        pile.reverse()  # pop() takes the top
        tricks = [0] * players
        table = 0  # cards in play
        total = 0
        seat = 1 % players
        # unseen counts are per seat: values neither in its hand nor played
        played = [0] * 27  # index value + 13
        while True:
            can = [any(abs(total + value_of[c]) <= 13 for c in hands[p]) for p in range(players)]
            if not any(can):
                break
            if not can[seat]:
                seat = (seat + 1) % players
                continue
            hand = hands[seat]
            legal = [c for c in hand if abs(total + value_of[c]) <= 13]
            pick = -1
            for c in legal:
                if total + value_of[c] in (-13, 0, 13):
                    pick = c
                    break
            if pick < 0:
                seen = list(played)
                for c in hand:
                    seen[value_of[c] + 13] += 1
                live = [v - 13 for v in range(27) if v != 13 and seen[v] < 2]
                best_n = 99
                best: list[int] = []
                for c in legal:
                    after = total + value_of[c]
                    n = sum(1 for v in live if after + v in (-13, 0, 13))
                    if n < best_n:
                        best_n, best = n, [c]
                    elif n == best_n:
                        best.append(c)
                pick = rng.choice(best)
            hand.remove(pick)
            v = value_of[pick]
            played[v + 13] += 1
            total += v
            table += 1
            if pile:
                hand.append(pile.pop())
            if total in (-13, 0, 13):
                tricks[seat] += table
                table = total = 0
                if not hand:  # the next seat with cards leads
                    nxt = (seat + 1) % players
                    while not hands[nxt] and nxt != seat:
                        nxt = (nxt + 1) % players
                    seat = nxt
                continue
            seat = (seat + 1) % players
            if all(not h for h in hands):
                break
        best_t = max(tricks)
        top = [p for p in range(players) if tricks[p] == best_t]
        if len(top) == 1:
            wins[top[0]] += 1
    return wins
