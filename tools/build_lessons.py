"""Build lessons/*.ipynb from the text below, so that every lesson keeps the same shape.

    .venv/bin/python tools/build_lessons.py          # write the notebooks, run checked cells
    .venv/bin/python tools/build_lessons.py --check  # exit 1 if a notebook differs from the build

Each lesson is a list of cells: md(...) for teaching text, code(...) for a cell that imports
and displays, checked(...) for a cell whose printed output is stored and compared by nbval
(its first line is the `# NBVAL_CHECK_OUTPUT` marker). Only checked cells keep their outputs.
"""

# The lesson text holds Markdown tables whose rows cannot be wrapped.
# ruff: noqa: E501
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
LESSONS_DIR = ROOT / "lessons"
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"

CREDIT_HIT_ME = (
    "*Hit Me* is a game by **Denise Gaskins**, from her book *Prealgebra & Geometry: Math Games "
    "for Middle School* (Let's Play Math, denisegaskins.com). The rules here are told "
    "in our own words."
)
CREDIT_FLAPJACK = (
    "*Flapjack* was made up by **\u201cLisa in AZ\u201d** and shared on Denise Gaskins' blog "
    "*Let's Play Math* (denisegaskins.com). The rules here are told in our own words."
)


def md(text: str) -> dict:
    return new_markdown_cell(text.strip("\n"))


def _tidy(src: str) -> str:
    """One blank line between the imports and the code (as ruff's isort wants)."""
    lines = src.strip("\n").splitlines()
    last = max((i for i, ln in enumerate(lines) if ln.startswith(("from ", "import "))),
               default=None)
    if last is not None and last + 1 < len(lines) and lines[last + 1].strip():
        lines.insert(last + 1, "")
    return "\n".join(lines)


def code(src: str) -> dict:
    return new_code_cell(_tidy(src))


def checked(src: str) -> dict:
    return new_code_cell(f"{CHECK_MARK}\n{_tidy(src)}")


def opening(title: str, minutes: str, objectives: list[str], intro: str = "") -> dict:
    items = "\n".join(f"- {o}" for o in objectives)
    text = f"# {title}\n\n**Time:** {minutes}\n\n### Objectives\nBy the end you can:\n{items}\n"
    if intro:
        text += f"\n{intro.strip()}\n"
    return md(text)


def qa(pairs: list[tuple[str, str]]) -> str:
    """Numbered questions, each with its answer folded in a <details> element."""
    out = []
    for i, (q, a) in enumerate(pairs, start=1):
        out.append(f"{i}. {q}\n\n   <details><summary>Answer</summary>\n\n   {a}\n\n   </details>\n")
    return "\n".join(out)


# ----- 00 start here ------------------------------------------------------------------------
START = [
    opening(
        "Integer Card Games: start here", "5 minutes to read; about 4 class periods for all "
        "the lessons",
        ["say what each lesson is about and how long it takes",
         "open a lesson and find its objectives, its activity and its check"],
        "These lessons teach adding positive and negative numbers (integers) and absolute "
        "value with two card games. The colour of a card gives its sign, so every hand of "
        "cards is a little sum to work out.",
    ),
    md("""
## Who the lessons are for
Students in grades 6 to 8 (ages about 11 to 14) who are meeting negative numbers, and anyone
who wants more practice adding them. A student can work alone; a teacher can project a lesson
and play with the class. Teachers: start with the **Teacher guide**.

## The lessons
| Lesson | What you do | Time |
|---|---|---|
| [1. Integers with cards](01_integers_with_cards.ipynb) | card values, the number line, opposites and zero pairs | 25 min |
| [2. Absolute value](02_absolute_value.ipynb) | distance from zero; which sum is closer to zero | 25 min |
| [3. Hit Me](03_hit_me.ipynb) | play to get your sum as close to zero as you can | 35 min |
| [4. Flapjack](04_flapjack.ipynb) | play cards to make the total exactly -13, 0 or 13 | 35 min |
| [5. Strategy lab](05_strategy_lab.ipynb) | simulate thousands of games to find when to hit | 40 min |
| [Teacher guide](06_teacher_guide.ipynb) | running the lessons in class, answers, variations | 15 min |

Take the lessons in order: each one uses what the one before it taught.

## How each lesson works
Every lesson opens with its **objectives** and the time it needs, teaches in short steps with
something to click or play, and ends with a short **check**. Answers are hidden under
**Answer**: try first, then click to see.
"""),
    checked("""
from widgets.lesson_tools import course_plan
print(course_plan())
"""),
    md(f"""
## Credits
{CREDIT_HIT_ME}

{CREDIT_FLAPJACK}
"""),
    md("""
## Check
""" + qa([
    ("Which lesson would you open to learn what |-5| means?",
     "Lesson 2, Absolute value."),
    ("In which game do you want your sum as close to zero as possible?", "Hit Me."),
    ("In the card games, what tells you whether a card is positive or negative?",
     "Its colour. Usually black cards are positive and red cards are negative."),
]) + """
"""),
]

# ----- 01 integers with cards ----------------------------------------------------------------
INTEGERS = [
    opening(
        "Integers with cards", "25 minutes",
        ["give the signed value of any card",
         "place a sum on the number line and say which of two integers is greater",
         "use opposites and zero pairs to add quickly",
         "add integers by moving right (positive) or left (negative) along the line"],
    ),
    md("""
## The colour gives the sign
**Integers** are the whole numbers, their opposites and zero: ..., -3, -2, -1, 0, +1, +2, +3, ...
In our card games a black card counts **positive** and a red card counts **negative**
(some families use the opposite; a table just has to agree). The rank gives the size: an
ace is 1, a 7 is 7. Jacks, queens and kings depend on the game:
"""),
    checked("""
from widgets.lesson_tools import card_values_table
print(card_values_table())
"""),
    md("""
## The number line
On a number line, numbers grow to the right. A number to the right of another is
**greater**; a number to the left is **less**. So -2 is greater than -9, even though 9 is
greater than 2: -2 is to the right of -9.

To add a card, start at the sum so far and move:
- a positive card moves you **right** by its size;
- a negative card moves you **left** by its size.

So `+5 + (-8)`: start at +5, move 8 to the left, land on -3.

## Opposites and zero pairs
Two cards of the same rank and different colours, such as 7♠ (+7) and 7♥ (-7), are
**opposites**. Together they make **zero**: `+7 + (-7) = 0`. We call them a **zero pair**.
Taking a zero pair out of a hand never changes the sum, which is a handy shortcut.

## Try it: the card explorer
Click cards to add them. The explorer writes the sum as an equation, shows each step on the
number line, and points out zero pairs. Try these:
1. Make a sum of exactly 0 with three cards.
2. Find two different hands whose sum is -4.
3. Add a card, then press **Add the opposite**. Where do you land? Why?
4. Switch the colours (red +, black -). What happens to every value, and to the sum?
"""),
    code("""
from widgets.explorer import CardExplorer
CardExplorer(game="hit-me")
"""),
    md("""
## Check
""" + qa([
    ("What is the value of a red 9 (black positive, red negative)?", "-9"),
    ("Which is greater, -3 or -8?",
     "-3 is greater: it is to the right of -8 on the number line."),
    ("Work out +6 + (-4) + (-6).",
     "+6 and -6 are a zero pair, so the sum is -4."),
    ("A hand holds K♣ and J♦ in Flapjack. What is the sum?",
     "+13 + (-11) = +2."),
]) + """
"""),
]

# ----- 02 absolute value ---------------------------------------------------------------------
ABSOLUTE = [
    opening(
        "Absolute value", "25 minutes",
        ["explain absolute value as a distance from zero",
         "find the absolute value of a number and of a sum of cards",
         "decide which of two sums is closer to zero",
         "avoid the common mistakes (|-8| is 8, not -8)"],
    ),
    md("""
## A distance from zero
The **absolute value** of a number is how far it is from zero on the number line. We write it
between two bars: |-8| = 8 because -8 is 8 steps from zero; |+8| = 8 too.

A distance is never negative, so an absolute value is **never negative**: it is positive, or
zero for |0| = 0. The sign tells you which side of zero a number is on; the absolute value
tells you only how far away it is.

## Which sum is closer to zero?
Compare the absolute values: the shorter distance is **closer to zero**. Watch out: a number can
be **less** than another and still be **farther** from zero.
"""),
    checked("""
from widgets.lesson_tools import worked_comparisons
print(worked_comparisons([(-6, 2), (-5, 5), (4, -3), (-1, -9)]))
"""),
    md("""
## Common mistakes
- **|-8| = -8.** No: the bars give a distance, and a distance is never negative. |-8| = 8.
- **"-9 is closer to zero than +2 because it is less."** Less means farther *left*; closer to
  zero means a shorter distance. |-9| = 9 and |+2| = 2, so +2 is closer to zero.
- **Taking absolute values before adding.** The absolute value of a hand's sum is not the sum of
  the card sizes: for +5 and -3, the sum is +2 and |+2| = 2, not 8.

## Practice
Type an answer and press **Check**. After a miss, press **Try again**, or **Show me** to see the
worked answer on the number line. The practice code lets you repeat a set.
"""),
    code("""
from widgets.practice import AbsoluteValuePractice
AbsoluteValuePractice(kinds=["abs", "sum-abs"], seed=2024)
"""),
    md("""
## Check
Answer five "closer to zero" questions. Pick a number, or **Same distance**.
"""),
    code("""
from widgets.practice import AbsoluteValuePractice
AbsoluteValuePractice(kinds=["closer"], questions=5, seed=7)
"""),
    md("""
""" + qa([
    ("What is |-13|?", "13"),
    ("Ana's sum is -4 and Ben's sum is +3. Whose sum is closer to zero?",
     "Ben's: |+3| = 3 is less than |-4| = 4."),
    ("Can an absolute value be negative? Why?",
     "No. It is a distance from zero, and distances are never negative."),
]) + """
"""),
]

# ----- 03 Hit Me -----------------------------------------------------------------------------
HIT_ME = [
    opening(
        "Hit Me", "35 minutes",
        ["play Hit Me by its rules",
         "keep a running sum of positive and negative cards",
         "decide whether to hit or hold by looking at your sum's distance from zero"],
    ),
    md(f"""
## The rules in short
The goal: finish a round with the sum of your cards **as close to zero as possible**.
1. Card values: ace 1, number cards their number, jack, queen and king 10. Black +, red -.
2. The dealer gives everyone one card **face down** (only you may look at yours) and one card
   **face up**.
3. Then, going round the table (the dealer last), each player says **"Hit me!"** to get one more
   card face up, or **holds**. Holding is final. Nobody may have more than 7 cards (5 hits).
4. When everyone has held or has 7 cards, the face-down cards are turned up.
   Your score is |sum|. The lowest score wins the round and deals next. Equal lowest scores are
   a tie.

{CREDIT_HIT_ME}

## A worked example
Three players, Ana deals. We show every card here, even the face-down ones, to follow the math.
"""),
    checked("""
from widgets.lesson_tools import hit_me_example
print(hit_me_example())
"""),
    md("""
The same round as a picture: every hand face up, and each sum's distance from zero.
"""),
    code("""
from widgets.lesson_tools import example_view
example_view("hit-me")
"""),
    md("""
""" + qa([
    ("Cam held at once with a sum of -1. Was that wise?",
     "Yes: |-1| = 1 is very close to zero, and most cards would move Cam farther away."),
    ("Ana's second hit (5♥, -5) moved her from -1 to -6. Why was hitting at -1 risky?",
     "From -1 only a black ace (+1) brings her closer to zero, and a black two (+2) keeps "
     "her at the same distance; every other card takes her farther away."),
    ("Ben ended at -2. Whose sum was closer to zero, Ben's or Ana's?",
     "Ben's: |-2| = 2 and |+4| = 4."),
]) + """

## Play
You play against computer players. Press **Peek at my face-down card** to see it, then choose
**Hit me!** or **Hold**. At the end of the round, type your sum and its absolute value before
the cards turn up. Then the table shows the round's deal code: share it, so a friend can play the
same cards (Settings, Deal code) and you can compare choices.
"""),
    code("""
from widgets import HitMeTable
HitMeTable(players=3, opponents="medium")
"""),
    md("""
## After playing: think about it
- When your sum was +1 or -1, did you hit? What happened?
- Which cards help you when your sum is -6? Which cards hurt?
- The computer players can see the face-up cards too. Can the face-up cards help you guess
  what is still in the deck?

Want a harder table? Open **Settings**, choose stronger **Computer players**, and press
**Apply and deal**. There you can also try the variation where aces count 1 or 11.
"""),
    md("""
## Check
""" + qa([
    ("Your cards are 8♠ (face down) and 5♥ (face up). What is your sum?", "+8 + (-5) = +3"),
    ("With the sum +3, which cards bring you closer to zero?",
     "Red cards from -1 to -5: they take you to +2, +1, 0, -1 or -2. (-6 lands on -3, the same "
     "distance as +3.)"),
    ("Final sums: Ana -2, Ben +2, Cam +5. Who wins?",
     "Ana and Ben tie: |-2| = |+2| = 2, and both are closer to zero than Cam (5)."),
]) + """
"""),
]

# ----- 04 Flapjack ---------------------------------------------------------------------------
FLAPJACK = [
    opening(
        "Flapjack", "35 minutes",
        ["play Flapjack by its rules and its variations",
         "add a card to a running total in your head and announce the new total",
         "spot a card that makes -13, 0 or +13 (a Flapjack)"],
    ),
    md(f"""
## The rules in short
1. Card values: ace 1, number cards their number, jack 11, queen 12, king 13. Black +, red -.
2. Everyone gets 7 cards; the rest is the draw pile.
3. The player left of the dealer **leads** any card. Then each player in turn adds one card to
   the cards in play, says the new total, and draws a card to replace it.
4. The total must stay between -13 and +13. If you have no card that keeps it there, you pass.
5. Make the total exactly **-13, 0 or +13** and you shout **"Flapjack!"**: you win every card on
   the table as your trick, and you lead next.
6. When nobody can play, or every card is played, the player who won the most cards wins.

**Simple ten** (a good start): no face cards; the total stays between -10 and +10; Flapjack at
-10, 0 or +10. **Add or subtract**: every card counts positive and you choose to add or subtract
it; the total stays between 0 and 13; Flapjack at 0 or 13.

{CREDIT_FLAPJACK}

## A worked example
Three players, classic rules, Ana deals so Ben leads.
"""),
    checked("""
from widgets.lesson_tools import flapjack_example
print(flapjack_example())
"""),
    md("""
The first trick on the number line: the diamonds mark the targets -13, 0 and +13, and the
grey ends lie beyond the limits.
"""),
    code("""
from widgets.lesson_tools import example_view
example_view("flapjack")
"""),
    md("""
## Play: simple ten first
Cards that would take the total past the limit are switched off, and their label says why.
"""),
    code("""
from widgets import FlapjackTable
FlapjackTable(players=2, variant="simple-ten", teacher_controls=False)
"""),
    md("""
## Then the classic game
Three players now, and the practice is on: you type the new total before it is shown. Press
the button when you are ready to deal.
"""),
    code("""
from widgets import FlapjackTable
from widgets.lesson_tools import deal_later
deal_later(FlapjackTable, "Deal the classic game", players=3, variant="classic",
           say_total=True, teacher_controls=False)
"""),
    md("""
When totals come quickly, open **Settings** and try the other variants, "Classic" or
"Add or subtract", and more players.

## After playing: think about it
- The total is +9. Which cards make a Flapjack? (Two ranks work.)
- Why might you keep a king in your hand instead of leading with it?
- In "add or subtract", which is easier to keep track of, and why?
"""),
    md("""
## Check
""" + qa([
    ("The total is -4. You play 9♠. What is the new total?", "-4 + (+9) = +5"),
    ("The total is +7. Which cards make a Flapjack?",
     "Red sevens (-7) make 0; black sixes (+6) make +13."),
    ("The total is +10. Can you play the queen of clubs (+12)?",
     "No: +10 + (+12) = +22, greater than the limit +13."),
]) + """
"""),
]

# ----- 05 strategy lab -----------------------------------------------------------------------
STRATEGY = [
    opening(
        "Strategy lab", "40 minutes",
        ["use simulations of many games to answer a question about strategy",
         "read a bar chart and a line chart of win chances",
         "test a claim with data and say when it holds and when it does not"],
        "A computer can play thousands of rounds of Hit Me in a second. We give each computer "
        "player a simple rule, such as \"hold when my |sum| is 3 or less, otherwise hit\", and "
        "count who wins. The deal code (seed) makes a run repeatable: the same code gives the "
        "same chart.",
    ),
    md("""
## Experiment 1: how close to zero is close enough?
One player holds with the first two cards, whatever they are; the others follow the
"hold at 3 or less" rule. The chart shows the chance to win for each |sum| held. The dashed
line is a fair share: 1 round in 4 with 4 players.
"""),
    code("""
from widgets.strategy import hold_chart
hold_chart(players=4, rounds=100_000, seed=1)
"""),
    md("""
**Read the chart.** At which |sum| does the chance fall below the fair share? Why is holding at
|sum| 0 not a sure win?

## Experiment 2: which rule wins most?
Now you pick a rule, "hold when |sum| is H or less", and play it against three "hold at 3"
players. Each point is a different H.
"""),
    code("""
from widgets.strategy import threshold_chart
threshold_chart(players=4, rounds=20_000, seed=1)
"""),
    md("""
**Read the chart.** Which H wins most? Why does H = 0 (hit until you reach exactly zero) do
badly? Why do large H do badly?

## Experiment 3: the number of players
One line for each number of players: the chance to win when holding at each |sum|.
"""),
    code("""
from widgets.strategy import players_chart
players_chart(players=(2, 3, 4, 6, 8), rounds=50_000, seed=1)
"""),
    md("""
**Read the chart.** With 2 players, is a |sum| of 3 a good place to hold? With 8 players?

## Experiment 4: test the author's claim
Denise Gaskins, who wrote Hit Me, notes that in her games a sum of three or more almost always
loses unless she takes another card. Does it? The chart shows how often a player holding with
|sum| 3 or more still wins, for each number of players.
"""),
    code("""
from widgets.strategy import claim_chart
claim_chart(players=(2, 3, 4, 5, 6), rounds=50_000, seed=1)
"""),
    md("""
**Decide.** For which numbers of players is "almost always loses" true? What would you tell a
friend who plays with only one other person?

## Your own experiment
Choose the number of players, how the other players hold, and the number of rounds, then run.
"""),
    code("""
from widgets.strategy import SimulationPanel
SimulationPanel("hold", players=3)
"""),
    md("""
## Flapjack: how often can a card make a Flapjack?
From a running total, count the cards of a full deck that may be played and the ones that make a
Flapjack. For example, from +5 the red fives make 0 and the black eights make +13.
"""),
    checked("""
from widgets.strategy import flapjack_table_text
print(flapjack_table_text("classic", totals=range(-3, 6)))
"""),
    code("""
from widgets.strategy import flapjack_chart
flapjack_chart("classic", games=200, seed=1)
"""),
    md("""
**Read the chart.** From every total, exactly 4 cards make a Flapjack. Why does their share of
the legal cards grow as the total moves away from zero? Why does the player to move hold such
a card much more often than the bars suggest? (Hint: a hand has 7 cards.)
"""),
    md("""
## Check
""" + qa([
    ("Why do we run 100,000 rounds and not 10?",
     "With few rounds, luck decides the result; with many rounds the win rates settle down "
     "and the chart is the same from one run to the next."),
    ("In a 4-player game your |sum| is 3. Should you hit?",
     "Usually yes: holding at 3 wins rarely with 4 players (read the value from Experiment 1)."),
    ("Does the best rule depend on the number of players?",
     "Yes: the more players, the closer to zero you need to be to win, so you should hit more."),
]) + """
"""),
]

# ----- 06 teacher guide ----------------------------------------------------------------------
TEACHER = [
    opening(
        "Teacher guide", "15 minutes to read",
        ["plan each lesson (timing, grouping, what to project)",
         "lead the discussions, with answers",
         "spot the common misconceptions and choose variations",
         "serve the lessons to a class"],
        "The lessons are for grades 6 to 8. Each takes one part of a 45-minute period; the "
        "whole set fits in about four periods. Students can work alone or in pairs on laptops "
        "or tablets; the tables also work on one projected screen.",
    ),
    md("""
## Running each lesson
| Lesson | Time | Grouping | Notes |
|---|---|---|---|
| 1. Integers with cards | 25 min | whole class, then pairs | Project the explorer; let pairs do the four tasks; a real deck helps. |
| 2. Absolute value | 25 min | individual | Practice sets are seeded: give the whole class one code to compare answers. |
| 3. Hit Me | 35 min | pairs or threes | Project the worked example first; then play; then real cards if you have them. |
| 4. Flapjack | 35 min | pairs | Start with simple ten; move to classic when totals come quickly. |
| 5. Strategy lab | 40 min | pairs | Each pair predicts before running a chart; discuss Experiment 4 together. |

## Projector walkthrough with deal codes
Every table has a **deal code** (the seed). The same code deals the same cards, so the whole
class can play the same deal: type it under **Settings** (Deal code) and press **Apply and
deal**; in the Hit Me walkthrough panel, type it in **Deal code** and press **Deal this code**.
**Restart this deal** replays it so the class can try a different choice. In teacher
walkthrough mode every hand is revealed, each computer player's reason is shown, and moves go
one at a time with **Next move**. Large print helps at the back of the room.
Outside walkthrough mode, students see the deal code only when the round (Hit Me) or the game
(Flapjack) is over, or when they typed it themselves: with the code and the open-source rules,
the hidden cards could be worked out. There, each later Hit Me round is a fresh shuffle, so the
code replays the first round.
"""),
    code("""
from widgets import HitMeTable
from widgets.teacher_key import teacher_only
teacher_only(HitMeTable, players=3, seed=7, walkthrough=True, large_print=True)
"""),
    md("""
To replay the Hit Me worked example of lesson 3 with real cards, stack a deck like this:
"""),
    checked("""
from widgets.lesson_tools import stacking_instructions
print(stacking_instructions())
"""),
    md("""
## Discussion questions, with answers
1. *Why does a zero pair not change a sum?* Adding a number and then its opposite moves you
   right and then back left by the same distance.
2. *Is -10 less than -2 or greater?* Less: it is to the left. But it is farther from zero, so
   in Hit Me -2 scores better (2) than -10 (10).
3. *Why can a player with |sum| 0 still lose at Hit Me?* They cannot lose to a lower score, but
   another player may also reach 0: then they tie.
4. *In Flapjack, why is a total of +12 good for the next player?* From +12, a black ace makes
   +13 and a red queen makes 0, and few other cards may be played, so a random legal card is
   more likely to make a Flapjack (lesson 5).
5. *Is the author's claim about Hit Me true?* With 4 or more players, holding with |sum| 3 or
   more almost always loses; with 2 players it still wins about 30% of the time. A claim can be
   true for the games someone usually plays and false for others.

## What the strategy lab charts show (lesson 5)
The numbers come from simulations against players who hold at |sum| 3 or less; a run with
another deal code gives almost the same values.
- *Experiment 1:* with 4 players the chance to win falls below the fair share (25%) from
  |sum| 3 on. Holding at 0 is not a sure win because another player may also reach 0 (a tie).
- *Experiment 2:* with 4 players the best rules are "hold at |sum| 2 or less" and, nearly as
  good, "1 or less"; both beat the fair share. Hitting until
  you reach exactly 0 (H = 0) wastes good hands like ±1, and often ends far away after 5 hits;
  a large H holds too far from zero.
- *Experiment 3:* holding at |sum| 3 wins close to half the time with 2 players and almost
  never with 8: the more players, the closer to zero the winning sum.
- *Flapjack:* from any total exactly 4 cards of the deck make a Flapjack (2 for 0, 2 for the
  limit on that side), but near the limits fewer cards may be played, so a larger share of the
  legal cards makes a Flapjack. A hand of 7 holds at least one of 4 given cards about 45% of
  the time.

## Misconceptions to watch for
- Reading "less" as "closer to zero" (-9 < +2, but +2 is closer to zero).
- Writing |-8| = -8, or thinking absolute value "makes a number positive" by flipping signs
  inside a sum before adding (|+5 + (-3)| is 2, not 8).
- Subtracting the sizes without deciding the sign: +3 + (-8) is -5, not +5.
- "Bigger" and "smaller" for negative numbers: ask for "greater", "less" or "closer to zero".
- In Hit Me, hitting at |sum| 1 "to reach zero": most cards move you away.

## Variations
- **Colours:** some families count red as positive (the electrician's colours). Switch the
  explorer's colour buttons, or the tables' settings.
- **Hit Me:** aces count 1 or 11 (more strategy); "all at once" turn order (each player takes
  all their hits before the next player); more players need a second deck (automatic).
- **Flapjack:** simple ten (younger students), classic, add or subtract (practises
  subtraction; keep a written running total).
- **Pass the device:** several students share one screen (`HitMeTable(players=3,
  mode="pass-device")` in JupyterLab); each face-down card stays hidden until its owner peeks.

## Serving the lessons to a class
- On one computer: run `make serve` in the project folder. Voila serves the lessons as web apps
  at http://127.0.0.1:8866/ with the code hidden; open **Start here** from the list.
- To present or change a lesson: `make lab` opens JupyterLab on the lessons folder.
- For a whole class (JupyterHub or Binder), follow `docs/deploy.md` in the project folder.
- The pages need no internet connection.

## Credits
""" + CREDIT_HIT_ME + "\n\n" + CREDIT_FLAPJACK + "\n"),
    md("""
## Check
""" + qa([
    ("A student says -7 is closer to zero than +3 because it is less. What do you ask?",
     "\"How far is each from zero?\" |-7| = 7 and |+3| = 3, so +3 is closer."),
    ("How do you let the whole class play the same Hit Me deal?",
     "Give everyone the same deal code (seed), e.g. HitMeTable(seed=7)."),
    ("Which Flapjack variation do you start younger students with?", "Simple ten."),
]) + """
"""),
]

LESSONS: dict[str, tuple[str, list[dict]]] = {
    "00_start_here.ipynb": ("Start here", START),
    "01_integers_with_cards.ipynb": ("Integers with cards", INTEGERS),
    "02_absolute_value.ipynb": ("Absolute value", ABSOLUTE),
    "03_hit_me.ipynb": ("Hit Me", HIT_ME),
    "04_flapjack.ipynb": ("Flapjack", FLAPJACK),
    "05_strategy_lab.ipynb": ("Strategy lab", STRATEGY),
    "06_teacher_guide.ipynb": ("Teacher guide", TEACHER),
}


def build(name: str) -> nbformat.NotebookNode:
    """The notebook `name` without outputs."""
    title, cells = LESSONS[name]
    nb = new_notebook(cells=[nbformat.from_dict(dict(c)) for c in cells])
    nb.metadata["title"] = f"Integer Card Games: {title}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{name[:2]}-{i:02d}"
    return nb


def run_checked(nb: nbformat.NotebookNode) -> None:
    """Execute the notebook in lessons/ and keep only the checked cells' outputs."""
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(LESSONS_DIR)}})
    client.execute()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.get("output_type") == "error"]
        if errors:
            print(f"  warning: cell {cell.id} failed: {errors[0].get('ename')}: "
                  f"{errors[0].get('evalue')}", file=sys.stderr)
        if cell.source.startswith(CHECK_MARK):
            cell.outputs = [o for o in cell.outputs if o.get("output_type") == "stream"
                            and o.get("name") == "stdout"]
        else:
            cell.outputs = []
            cell.execution_count = None
        cell.metadata = {}
    nb.metadata.pop("widgets", None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare sources with the committed notebooks; write nothing")
    parser.add_argument("names", nargs="*", help="notebooks to build (default: all)")
    args = parser.parse_args(argv)
    names = args.names or list(LESSONS)
    status = 0
    for name in names:
        nb = build(name)
        path = LESSONS_DIR / name
        if args.check:
            old = nbformat.read(path, as_version=4) if path.exists() else None
            same = old is not None and [c.source for c in old.cells] == [c.source for c in nb.cells]
            if not same:
                print(f"{name}: differs from tools/build_lessons.py")
                status = 1
            continue
        run_checked(nb)
        LESSONS_DIR.mkdir(exist_ok=True)
        nbformat.validate(nb)
        nbformat.write(nb, path)
        print(f"wrote {path.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
