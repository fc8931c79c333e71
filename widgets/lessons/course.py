"""The one list of the lessons: file names, titles, minutes, order and each lesson's minute
by minute plan (where it stops when it takes more than one period), in every language the lessons
are written in.

The landing page (00_start_here) shows `lesson_links()` and `course_plan()`, the teacher guide
shows `lesson_plan_text()`, the Voila landing page (/) and the tests read `lessons(lang)`;
nothing else lists the lessons. To add, rename or re-time a lesson, change it here (the
notebooks themselves are the lesson text).

File names: a lesson's file starts with its two-digit number, its place in the unit
(04_taking_a_card_away.ipynb is lesson 4, and its page says "Lesson 4"); the start page is
00_start_here.ipynb (no lesson is 0: it comes first in every file listing); the pages that are
not lessons (teacher_guide, printable_kit, play_together, class_view) carry no number. Moving a
lesson in the unit renames its file (in every language) and its exit ticket's number.

Languages: English lessons are in lessons/, the lessons of another language in
lessons/<code>/ under the same file names (lessons/es/03_hit_me.ipynb), so that relative links
between lessons stay in one language. `LESSONS` is the English list; `TRANSLATED[code]` gives
each lesson's title, summary and notes in that language (the order and the minutes are the
same lessons'); `lessons(code)` is the list in that language. The phrases around the titles
("Next lesson", "about 45 minutes") go through gettext (widgets.words), so they follow the
kernel's language (`set_language`), or the `lang=` a function is given.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, replace
from pathlib import Path

from widgets.page.in_browser import on_this_site, page_href
from widgets.page.language import N_, language
from widgets.page.language import speaking as _speaking
from widgets.words import PSEUDO, _, pseudo_text

PERIOD = 45  # minutes in a class period
UNIT_CHECK = 10  # minutes of a unit check (widgets/lessons/unit_check.py): eight questions
# minutes of a lesson's problem set (widgets/lessons/problem_set.py): homework or independent
# practice after the lesson, not in its periods
PROBLEM_SET = 15
SHORT_PERIOD = 25  # minutes in a short period
RECAP = 2  # minutes of recap at the start of a period that goes on with a lesson
DEVICES = N_("start the devices and open the page")  # the first step of every lesson's plan


@dataclass(frozen=True)
class Lesson:
    """One notebook of lessons/. role: 'start' (landing page), 'lesson', 'play' (play together),
    'practice' (every skill's practice), 'guide', 'kit' or 'teacher' (a page for the teacher
    only, behind the teacher's key)."""

    file: str
    title: str
    minutes: int
    summary: str
    role: str = "lesson"
    grouping: str = ""
    notes: str = ""
    support: str = ""  # for a student who struggles
    extension: str = ""  # for a student who is done early
    standards: str = ""  # Common Core State Standards (grade 6-7 Number System)
    materials: str = ""  # what to have ready, devices included
    anticipated: str = ""  # the common wrong answers, by the dashboard's mistake names
    language_support: str = ""  # for students learning the language of the lesson
    lang: str = "en"  # the language of this entry's text (and of its notebook's folder)
    # minute by minute: (an English heading of the notebook, or a step marked with N_, minutes);
    # the minutes add up to `minutes`; a period can only stop before a heading
    plan: tuple[tuple[str, int], ...] = ()

    @property
    def number(self) -> int:
        """The lesson's number: its place among the student lessons (1 first), which is also
        its file's prefix (04_taking_a_card_away.ipynb is lesson 4); 0 for the other pages."""
        order = [lesson.file for lesson in LESSONS if lesson.role == "lesson"]  # same in all
        return order.index(self.file) + 1 if self.file in order else 0


LESSONS: tuple[Lesson, ...] = (
    Lesson("00_start_here.ipynb", "Start here", 5,
           "what each lesson is about and how long it takes", role="start"),
    Lesson("01_integers_with_cards.ipynb", "Integers with cards", PERIOD + UNIT_CHECK,
           "card values, the number line, opposites and zero pairs",
           grouping="individual, then whole class, then pairs",
           notes="Open with the readiness check, each student on their own; then project the "
                 "explorer; let pairs do the four tasks; a real deck helps.",
           support="Give a printed number line from -13 to +13 and real cards to move along it; "
                   "start with black cards only, then one red card.",
           extension="Ask for three different hands of four cards with a sum of -5, and for a "
                     "rule that predicts the sum when every colour is switched.",
           standards='6.NS.5, 6.NS.6a, 6.NS.6c, 6.NS.7a-b, 7.NS.1a-b',
           plan=((DEVICES, 3), ("Check your readiness", UNIT_CHECK),
                 ("Warm-up (3 minutes): A thermometer", 3),
                 ("The colour gives the sign", 4), ("The number line", 8),
                 ("Opposites and zero pairs", 4), ("Try it: the card explorer", 9), ("Check", 5),
                 ("Key ideas", 2), ("Talk about it", 3), ("Exit ticket", 4))),
    Lesson("02_absolute_value.ipynb", "Absolute value", PERIOD,
           "distance from zero; which sum is closer to zero",
           grouping="individual",
           notes="Each practice set has a code: give the whole class one code to compare "
                 "answers.",
           support='Ask "how many steps to zero?" and let the student count on a number line '
                   'before writing |n|; practise "abs" questions before "closer".',
           extension="Ask for every pair of hands that tie in distance from zero, and for a "
                     "number that is less than -3 but closer to zero than -3 (there is none: "
                     "why?).",
           standards='6.NS.7c, 6.NS.7d, 6.NS.6a',
           plan=((DEVICES, 3), ("Warm-up (3 minutes): Sea level", 3),
                 ("A distance from zero", 5), ("Which sum is closer to zero?", 6),
                 ("Common mistakes", 5), ("Practice", 8), ("Check", 5), ("Key ideas", 2),
                 ("Talk about it", 3), ("Exit ticket", 5))),
    Lesson("03_hit_me.ipynb", "Hit Me", PERIOD,
           "play to get your sum as close to zero as you can",
           grouping="pairs or threes",
           notes="Project the worked example first; then play; then real cards if you have "
                 "them.",
           support="Play the first round together on the table you project, every card face "
                   "up (its walkthrough), saying each new sum aloud; then pairs play with a "
                   "number line strip from the kit.",
           extension='Play the variation where aces count 1 or 11, or against "hard" computer '
                     "players, and explain one choice the computer made.",
           standards='7.NS.1b, 7.NS.1d, 6.NS.7c',
           plan=((DEVICES, 3), ("Warm-up (3 minutes): Golf scores", 3), ("The rules in short", 7),
                 ("A worked example", 9), ("Play", 13), ("After playing", 2), ("Check", 2),
                 ("Key ideas", 1), ("Talk about it", 1), ("Exit ticket", 4))),
    Lesson("04_taking_a_card_away.ipynb", "Taking a card away", 60,
           "subtraction as adding the opposite, distance as |p - q|, < and >",
           grouping="pairs",
           notes="Project the explorer in 'take a card away' mode first; pairs then do the "
                 "tasks and compare their equations.",
           support="Use real cards: take one away and move along a printed number line; say "
                   '"taking away a -3 moves me 3 to the right, like adding +3" aloud (not '
                   '"two negatives make a positive").',
           extension="Ask for two different subtractions with the answer -4, one subtracting a "
                     "negative; order six integers and give each distance to -2.",
           standards='7.NS.1c, 6.NS.7a-b, 6.NS.7c',
           plan=((DEVICES, 3), ("Warm-up (3 minutes): A thermometer", 3),
                 ("Taking a card away", 5),
                 ("When the card is not in the hand: the zero-pair move", 4),
                 ("Try it: the card explorer", 7), ("Subtraction in symbols", 2),
                 ("Money and debt", 5), ("Four traps", 5), ("Distance between two numbers", 6),
                 ("A vertical number line: temperature", 3),
                 ("Comparing and ordering with < and >", 3), ("Check", 5), ("Key ideas", 2),
                 ("Talk about it", 2), ("Exit ticket", 5))),
    Lesson("05_flapjack.ipynb", "Flapjack", 60,
           "play cards to make the total exactly -13, 0 or 13",
           grouping="pairs",
           notes="Start with simple ten; move to classic when totals come quickly; end with "
                 "signed add or subtract, where subtracting a red card moves the total right.",
           support='Stay with simple ten and write the running total on paper after every card.',
           extension='Play "add or subtract", and list every card that makes a Flapjack from a '
                     "total of your choice.",
           standards='7.NS.1b, 7.NS.1c, 7.NS.1d',
           plan=((DEVICES, 3), ("Warm-up (3 minutes): A lift", 3), ("The rules in short", 6),
                 ("A worked example", 5), ("Play: simple ten first", 8),
                 ("Then the classic game", 10), ("Subtracting a negative in play", 10),
                 ("Check", 5), ("Key ideas", 2), ("Talk about it", 3), ("Exit ticket", 5))),
    Lesson("06_strategy_lab.ipynb", "Strategy lab", 60 + UNIT_CHECK,
           "simulate thousands of games to find when to hit",
           grouping="pairs, then individual",
           notes="Each pair predicts before running a chart; discuss Experiment 4 together; "
                 "close the unit with the end-of-unit check, each student on their own.",
           support="Read one chart together, one bar at a time, before pairs work alone; focus on"
                   " Experiments 1 and 4.",
           extension='Use "Your own experiment" to test a rule with other opponents, and write a '
                     "claim with its evidence.",
           standards='6.NS.7c, 7.NS.1, 7.SP.6-7',
           plan=((DEVICES, 3), ("Warm-up (3 minutes): A weather forecast", 3),
                 ("Experiment 1: hold or hit?", 9), ("Experiment 2: which rule wins most?", 8),
                 ("Experiment 3: the number of players", 5),
                 ("Experiment 4: test the author's claim", 8), ("Your own experiment", 5),
                 ("Flapjack: how often can a card make a Flapjack?", 5), ("Check", 4),
                 ("Key ideas", 2), ("Talk about it", 3), ("Exit ticket", 5),
                 ("End-of-unit check", UNIT_CHECK))),
    Lesson("practice.ipynb", "Practice", 15,
           "practise each skill of the unit until you master it", role="practice"),
    Lesson("play_together.ipynb", "Play together", 30,
           "Hit Me and Flapjack with classmates, each on their own device", role="play"),
    Lesson("teacher_guide.ipynb", "Teacher guide", 20,
           "running the lessons in class, answers, variations", role="guide"),
    Lesson("class_view.ipynb", "Class view", 5,
           "the teacher's view of a class playing together: every room, stuck rooms, "
           "announce checks", role="teacher"),
    Lesson("printable_kit.ipynb", "Printable kit", 5,
           "rule cards, recording and score sheets, exit tickets, stacked deals: print and "
           "play with real decks", role="kit"),
)

# What to have ready, what students will say wrong (by the names the class view's dashboard
# gives each mistake, and what to ask then), and language supports: the facilitation layer of
# each lesson's plan, in each language.
FACILITATION: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "01_integers_with_cards.ipynb": {
            "materials": "a device per student for the readiness check (or its paper copy "
                         "from the kit), then one per pair (started before the bell), the "
                         "projector, a deck per pair if you have one, the kit's number line "
                         "strips (-13 to +13)",
            "anticipated": '"added the sizes when the signs differ" (+3 + (-8) = 11): ask how many'
                           ' zero pairs there are and what is left; "right size, sign of the '
                           'number closer to zero" (+5): ask which card pulls farther; "took the '
                           'number closer to zero as greater" (-1 > +4): point to where each '
                           'number is on the line',
            "language_support": "word wall: positive, negative, opposite, zero pair, number "
                                "line, sum; sentence frame: \"The sum is ___ because ___ is "
                                "farther from zero.\"; let pairs answer in their first "
                                "language, then say it in English",
        },
        "02_absolute_value.ipynb": {
            "materials": "a device per student, the projector, the kit's number line strips",
            "anticipated": '"absolute value or distance given with a sign" (|-11| = -11): ask how '
                           'many steps to zero, and whether steps can be negative; "added the '
                           'sizes when the signs differ" (|+7 + (-10)| = 17): add with the signs '
                           'first; "took the lesser number as closer to zero" (-6 closer than +2):'
                           ' compare the steps, not the positions',
            "language_support": "word wall: absolute value, distance, closer to, farther "
                                "from; sentence frame: \"___ is closer to zero because it is "
                                "___ steps away.\"",
        },
        "03_hit_me.ipynb": {
            "materials": "a device per pair or three, the projector for the worked example, "
                         "real decks and the kit's Hit Me recording sheet if you have them",
            "anticipated": '"gave the sum for |sum|" (a sum of -3 written as score -3): ask which '
                           'one can be negative; "right size, wrong sign" (-2 + (+5) = -3): start '
                           'at -2 and move 5 to the right on the line',
            "language_support": "word wall: hit, hold, score, tie; let students say \"hit me\" "
                                "and \"I hold\" aloud; sentence frame: \"My sum is ___, my "
                                "score is ___.\"",
        },
        "04_taking_a_card_away.ipynb": {
            "materials": "a device per pair, the projector for the explorer, a deck per pair, "
                         "the kit's upright number line for the thermometer and the lift",
            "anticipated": '"two negatives make a positive" (-5 - (-2) = +3): take the card away '
                           'in the explorer and watch the sum move 2 to the right; "subtracting a '
                           'negative moved left" (+1 - (-4) = -3): ask which way taking away a '
                           'debt moves you; "subtracting a positive moved right or was dropped" '
                           '(-4 - (+6) = +2); "distance across zero: sizes subtracted" (from -3 to'
                           ' +5 is 2): count the steps to zero, then from zero',
            "language_support": "word wall: take away, opposite, difference, distance, less "
                                "than, greater than; say \"subtracting -3 is adding +3\" as a "
                                "class before pairs work",
        },
        "05_flapjack.ipynb": {
            "materials": "a device per pair, the projector, real decks and the kit's Flapjack "
                         "running-total sheet and number line strips",
            "anticipated": '"subtracted the sizes when the signs agree" (-6 + (-8) = -2): both '
                           'cards pull left; "subtracting a negative moved left" (in signed add or'
                           ' subtract, +5 - (-7) = -2): the move log writes +5 - (-7) = +12, ask '
                           'why it moved right; "right size, wrong sign" (+6 + (-8) = +2)',
            "language_support": "word wall: lead, running total, limit, draw pile, trick; "
                                "sentence frame for every play: \"The total was ___, I add (or "
                                "subtract) ___, the total is ___.\"",
        },
        "06_strategy_lab.ipynb": {
            "materials": "a device per pair (the charts take a few seconds the first time: "
                         "open the page before class), the projector for Experiment 4, a "
                         "device per student for the end-of-unit check (or its paper copy "
                         "from the kit)",
            "anticipated": '"gave the sum for |sum|" (looking at -3 on the |sum| axis): take the '
                           'distance first; "of two negatives, took the one farther from zero as '
                           'greater" and "took the number closer to zero as greater" when '
                           'comparing sums in a chart: say what each bar is a chance of',
            "language_support": "word wall: chance, percent, fair share, claim, evidence; "
                                "sentence frame: \"With ___ players, holding at ___ wins about "
                                "___% of rounds, so ___.\"",
        },
    },
    "es": {
        "01_integers_with_cards.ipynb": {
            "materials": "un dispositivo por estudiante para la prueba de inicio (o su copia "
                         "en papel del material), después uno por pareja (encendido antes de que "
                         "empiece la clase), el proyector, un mazo por pareja si lo tienes, las "
                         "tiras de recta numérica del material (de -13 a +13)",
            "anticipated": "«sumó los valores absolutos con signos distintos» (+3 + (-8) = 11): "
                           "pregunta cuántos pares cero hay y qué queda; «valor absoluto correcto,"
                           " signo del número más cercano al cero» (+5): pregunta qué carta tira "
                           "más lejos; «tomó el número más cercano al cero como mayor» (-1 > +4): "
                           "señala dónde está cada número en la recta",
            "language_support": "muro de palabras: positivo, negativo, opuesto, par cero, recta "
                                "numérica, suma; frase modelo: «La suma es ___ porque ___ está "
                                "más lejos de cero.»; deja que las parejas respondan primero en "
                                "su lengua y luego en español",
        },
        "02_absolute_value.ipynb": {
            "materials": "un dispositivo por estudiante, el proyector, las tiras de recta "
                         "numérica del material",
            "anticipated": "«valor absoluto o distancia dados con signo» (|-11| = -11): pregunta "
                           "cuántos pasos hay hasta cero y si un paso puede ser negativo; «sumó "
                           "los valores absolutos con signos distintos» (|+7 + (-10)| = 17): "
                           "primero se suma con los signos; «tomó el número menor como el más "
                           "cercano al cero» (-6 más cerca que +2): compara los pasos, no las "
                           "posiciones",
            "language_support": "muro de palabras: valor absoluto, distancia, más cerca de, más "
                                "lejos de; frase modelo: «___ está más cerca de cero porque "
                                "está a ___ pasos.»",
        },
        "03_hit_me.ipynb": {
            "materials": "un dispositivo por pareja o trío, el proyector para el ejemplo "
                         "resuelto, mazos de verdad y la hoja de registro de Hit Me del "
                         "material si los tienes",
            "anticipated": "«dio la suma en lugar de |suma|» (una suma de -3 anotada como "
                           "puntuación -3): pregunta cuál de las dos puede ser negativa; «valor "
                           "absoluto correcto, signo equivocado» (-2 + (+5) = -3): empieza en -2 y"
                           " muévete 5 a la derecha",
            "language_support": "muro de palabras: pedir carta, plantarse, puntuación, empate; "
                                "que digan en voz alta «¡Dame carta!» y «Me planto»; frase "
                                "modelo: «Mi suma es ___, mi puntuación es ___.»",
        },
        "04_taking_a_card_away.ipynb": {
            "materials": "un dispositivo por pareja, el proyector para el explorador, un mazo "
                         "por pareja, la recta numérica vertical del material para el "
                         "termómetro y el ascensor",
            "anticipated": "«dos negativos dan un positivo» (-5 - (-2) = +3): quita la carta en el"
                           " explorador y mira cómo la suma se mueve 2 a la derecha; «al restar un"
                           " negativo se movió a la izquierda» (+1 - (-4) = -3): pregunta hacia "
                           "dónde te mueve quitar una deuda; «al restar un positivo se movió a la "
                           "derecha o se perdió un signo» (-4 - (+6) = +2); «distancia a través "
                           "del cero: restó los valores absolutos» (de -3 a +5 hay 2): cuenta los "
                           "pasos hasta cero y luego desde cero",
            "language_support": "muro de palabras: quitar, opuesto, diferencia, distancia, "
                                "menor que, mayor que; digan juntos «restar -3 es sumar +3» "
                                "antes del trabajo en parejas",
        },
        "05_flapjack.ipynb": {
            "materials": "un dispositivo por pareja, el proyector, mazos de verdad y la hoja de "
                         "total acumulado de Flapjack y las tiras de recta numérica del "
                         "material",
            "anticipated": "«restó los valores absolutos con signos iguales» (-6 + (-8) = -2): las"
                           " dos cartas tiran a la izquierda; «al restar un negativo se movió a la"
                           " izquierda» (en sumar o restar con signo, +5 - (-7) = -2): el registro"
                           " escribe +5 - (-7) = +12, pregunta por qué se movió a la derecha; "
                           "«valor absoluto correcto, signo equivocado» (+6 + (-8) = +2)",
            "language_support": "muro de palabras: salida, total acumulado, límite, mazo para "
                                "robar, baza; frase modelo en cada jugada: «El total era ___, "
                                "sumo (o resto) ___, el total es ___.»",
        },
        "06_strategy_lab.ipynb": {
            "materials": "un dispositivo por pareja (los gráficos tardan unos segundos la "
                         "primera vez: abre la página antes de la clase), el proyector para "
                         "el Experimento 4, un dispositivo por estudiante para la prueba de fin "
                         "de unidad (o su copia en papel del material)",
            "anticipated": "«dio la suma en lugar de |suma|» (buscar -3 en el eje de |suma|): "
                           "primero la distancia; «de dos negativos, tomó como mayor el más lejano"
                           " del cero» y «tomó el número más cercano al cero como mayor» al "
                           "comparar sumas en un gráfico: di de qué es probabilidad cada barra",
            "language_support": "muro de palabras: probabilidad, porcentaje, reparto "
                                "equitativo, afirmación, prueba; frase modelo: «Con ___ "
                                "jugadores, plantarse con ___ gana cerca del ___ % de las "
                                "rondas, así que ___.»",
        },
    },
}
LESSONS = tuple(replace(lesson, **FACILITATION["en"].get(lesson.file, {})) for lesson in LESSONS)

FILES: tuple[str, ...] = tuple(lesson.file for lesson in LESSONS)

# ----- languages ------------------------------------------------------------------------------
# The languages the lessons are written in, by their own name (for the landing page), and
# the folder of lessons/ that holds each language's notebooks.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
FOLDERS: dict[str, str] = {"en": "", "es": "es"}

# Each lesson's text in another language: the fields of `Lesson` that are words (a plan's
# headings are read from that language's notebook). Standards codes are the same in every
# language.
TRANSLATED: dict[str, dict[str, dict[str, str]]] = {
    "es": {
        "00_start_here.ipynb": {
            "title": "Empieza aquí",
            "summary": "de qué trata cada lección y cuánto tiempo lleva"},
        "01_integers_with_cards.ipynb": {
            "title": "Enteros con cartas",
            "summary": "el valor de las cartas, la recta numérica, los opuestos y los pares cero",
            "grouping": "trabajo individual, después toda la clase y luego en parejas",
            "notes": "Empieza con la prueba de inicio, cada estudiante por su cuenta; después "
                  "proyecta el explorador; deja que las parejas hagan las cuatro tareas; un "
                  "mazo de verdad ayuda.",
            "support": "Da una recta numérica impresa de -13 a +13 y cartas de verdad para "
                    "moverlas por ella; empieza solo con cartas negras y después añade una "
                    "roja.",
            "extension": "Pide tres manos distintas de cuatro cartas que sumen -5, y una regla "
                      "que prediga la suma cuando se cambian todos los colores."},
        "02_absolute_value.ipynb": {
            "title": "Valor absoluto",
            "summary": "la distancia a cero; qué suma está más cerca de cero",
            "grouping": "trabajo individual",
            "notes": "Cada serie de práctica tiene un código: da a toda la clase el mismo código "
                  "para comparar respuestas.",
            "support": 'Pregunta "¿cuántos pasos hay hasta cero?" y deja que el estudiante los '
                    "cuente en una recta numérica antes de escribir |n|; practica las "
                    'preguntas de "valor absoluto" antes que las de "más cerca".',
            "extension": "Pide todos los pares de manos que empatan en distancia a cero, y un "
                      "número menor que -3 pero más cerca de cero que -3 (no existe: ¿por "
                      "qué?)."},
        "03_hit_me.ipynb": {
            "title": "Hit Me",
            "summary": "juega para que tu suma quede lo más cerca posible de cero",
            "grouping": "parejas o grupos de tres",
            "notes": "Proyecta primero el ejemplo resuelto; después, a jugar; y luego con cartas "
                  "de verdad si las tienes.",
            "support": "Jueguen juntos la primera ronda en la mesa que proyectas, con todas las "
                    "cartas boca arriba (su demostración), diciendo en voz alta cada nueva suma; "
                    "después, las parejas juegan con una tira de recta numérica del kit.",
            "extension": "Juega la variante en la que el as vale 1 u 11, o contra jugadores de la "
                      'computadora "difíciles", y explica una decisión que tomó la '
                      "computadora."},
        "04_taking_a_card_away.ipynb": {
            "title": "Quitar una carta",
            "summary": "la resta como suma del opuesto, la distancia como |p - q|, < y >",
            "grouping": "parejas",
            "notes": "Proyecta primero el explorador en el modo 'quitar una carta'; después las "
                  "parejas hacen las tareas y comparan sus ecuaciones.",
            "support": "Usa cartas de verdad: quita una y muévete por una recta numérica impresa; "
                    'digan en voz alta "quitar un -3 me mueve 3 a la derecha, como sumar +3" (y '
                    'no "dos negativos dan un positivo").',
            "extension": "Pide dos restas distintas cuyo resultado sea -4, una de ellas restando "
                      "un negativo; ordena seis enteros y da la distancia de cada uno a -2."},
        "05_flapjack.ipynb": {
            "title": "Flapjack",
            "summary": "juega cartas para que el total sea exactamente -13, 0 o 13",
            "grouping": "parejas",
            "notes": "Empieza con diez sin figuras; pasa al clásico cuando los totales salgan "
                  "rápido; termina con sumar o restar con signo, donde restar una carta roja "
                  "mueve el total a la derecha.",
            "support": "Quédate en diez sin figuras y escribe el total acumulado en papel "
                    "después de cada carta.",
            "extension": 'Juega "sumar o restar" y haz la lista de todas las cartas que hacen un '
                      "Flapjack desde un total que elijas."},
        "06_strategy_lab.ipynb": {
            "title": "Laboratorio de estrategia",
            "summary": "simula miles de partidas para saber cuándo pedir carta",
            "grouping": "parejas, después trabajo individual",
            "notes": "Cada pareja hace una predicción antes de ver un gráfico; comenten juntos el "
                  "Experimento 4; cierra la unidad con la prueba de fin de unidad, cada "
                  "estudiante por su cuenta.",
            "support": "Lean juntos un gráfico, barra por barra, antes de que las parejas trabajen "
                    "solas; céntrate en los Experimentos 1 y 4.",
            "extension": 'Usa "Tu propio experimento" para probar una regla con otros '
                      "adversarios, y escribe una afirmación con sus pruebas."},
        "teacher_guide.ipynb": {
            "title": "Guía docente",
            "summary": "cómo dar las lecciones en clase, respuestas, variantes"},
        "printable_kit.ipynb": {
            "title": "Material para imprimir",
            "summary": "tarjetas de reglas, hojas de registro y de puntuación, tickets de "
                    "salida, repartos preparados: imprime y juega con mazos de verdad"},
        "practice.ipynb": {
            "title": "Práctica",
            "summary": "practica cada destreza de la unidad hasta dominarla"},
        "play_together.ipynb": {
            "title": "Jugar juntos",
            "summary": "Hit Me y Flapjack con compañeros, cada uno en su propio dispositivo"},
        "class_view.ipynb": {
            "title": "Vista de la clase",
            "summary": "la vista docente de una clase que juega junta: cada sala, las salas "
                    "atascadas, las comprobaciones del anuncio"},
    },
}


# The fields of a Lesson that are words (TRANSLATED gives them in another language).
TEXT_FIELDS = ("title", "summary", "grouping", "notes", "support", "extension", "materials",
               "anticipated", "language_support")
for _code, _texts in TRANSLATED.items():
    for _file, _fields in FACILITATION.get(_code, {}).items():
        _texts[_file].update(_fields)


def _language(lang: str | None) -> str:
    """`lang`, or the kernel's language (widgets.words.set_language) when it is None."""
    return lang if lang is not None else language()


def lesson_number(topic: str) -> int:
    """The number of the lesson whose file is `<number>_<topic>.ipynb` ('hit_me' is lesson 3):
    what a page's parts file their answers under."""
    for lesson in LESSONS:
        if lesson.role == "lesson" and lesson.file.split("_", 1)[1] == f"{topic}.ipynb":
            return lesson.number
    raise KeyError(f"no lesson about {topic!r}")


def lessons(lang: str | None = None) -> tuple[Lesson, ...]:
    """Every page in the order of `LESSONS`, its text in `lang` (None: the kernel's language).
    In the pseudo-language (qps) every text is marked; a language without lessons of its own
    gets the English entries."""
    code = _language(lang)
    if code == PSEUDO:  # the tests' pseudo-language: every word visibly marked
        return tuple(replace(lesson, lang=code, **{
            field: pseudo_text(getattr(lesson, field)) for field in TEXT_FIELDS
            if getattr(lesson, field)}) for lesson in LESSONS)
    text = TRANSLATED.get(code)
    if text is None:
        return LESSONS
    return tuple(replace(lesson, lang=code, **text[lesson.file]) for lesson in LESSONS)


def folder(lang: str | None = None) -> Path:
    """The folder of a language's notebooks: lessons/ for English, lessons/es/ for Spanish."""
    code = _language(lang)
    return LESSONS_DIR / FOLDERS.get(code, "")


def student_lessons(lang: str | None = None) -> tuple[Lesson, ...]:
    """The lessons a class works through, in order (not the landing page or the guide)."""
    return tuple(lesson for lesson in lessons(lang) if lesson.role == "lesson")


def by_file(name: str, lang: str | None = None) -> Lesson:
    for lesson in lessons(lang):
        if lesson.file == name:
            return lesson
    raise KeyError(f"no lesson {name!r}; the lessons are {', '.join(FILES)}")


def course_plan(lang: str | None = None) -> str:
    """The lessons for students, with the minutes each takes, and the real number of periods."""
    rows = student_lessons(lang)
    width = max([22] + [len(lesson.title) + 1 for lesson in rows])  # a column of times
    with _speaking(lang):
        lines = [f"{lesson.number}. {lesson.title:<{width}} "
                 + _("about {minutes} minutes").format(minutes=lesson.minutes)
                 for lesson in rows]
        total = sum(lesson.minutes for lesson in rows)
        long = sum(periods(lesson, PERIOD) for lesson in rows)
        short = sum(periods(lesson, SHORT_PERIOD) for lesson in rows)
        lines.append(_("In all: about {total} minutes, in {periods} periods of {period} minutes "
                       "or {short} periods of {short_period} minutes (the teacher guide says "
                       "where each lesson stops).")
                     .format(total=total, period=PERIOD, periods=long, short=short,
                             short_period=SHORT_PERIOD))
    return "\n".join(lines)


# Links a student taps: large, underlined, at least 24 px tall (the page's own stylesheet,
# since these outputs are not widgets and get no widgets/table/style.css).
NAV_CSS = ("<style>.icg-lesson-list a, .icg-nav a { font-size: 1.25em;"
           " text-decoration: underline !important;"
           " display: inline-block; min-height: 24px; padding: 4px 0; }"
           " .icg-lesson-list td, .icg-lesson-list th { padding: 4px 8px; vertical-align: top;"
           " text-align: left; }"
           " .icg-nav { display: flex; flex-wrap: wrap; gap: 0.5em 2em; margin: 0.5em 0; }</style>")


def lesson_links(lang: str | None = None) -> object:
    """The lessons as a table of relative links (for the landing page): the links stay in the
    folder of the page that shows them, so a Spanish page links Spanish pages."""
    from IPython.display import HTML

    with _speaking(lang):
        minutes = _("{minutes} min")
        rows = "".join(
            f"<tr><td><a href='{html.escape(page_href(lesson.file))}'>"
            f"{html.escape(_name(lesson))}</a></td><td>{html.escape(lesson.summary)}</td>"
            f"<td>{html.escape(minutes.format(minutes=lesson.minutes))}</td></tr>"
            for lesson in lessons(lang)
            if lesson.role != "start" and on_this_site(lesson.file))
        head = "".join(f"<th>{html.escape(word)}</th>"
                       for word in (_("Lesson"), _("What you do"), _("Time")))
    return HTML(f"{NAV_CSS}<table class='icg-lesson-list'><thead><tr>{head}</tr></thead>"
                f"<tbody>{rows}</tbody></table>")


def next_lesson(name: str, lang: str | None = None) -> Lesson | None:
    """The lesson after `name` in the order of the unit (None after the last one, and for the
    start page, the guide and the kit, which are not in the order)."""
    order = student_lessons(lang)
    files = [lesson.file for lesson in order]
    if name not in files:
        by_file(name)  # an unknown name is an error, not "no next lesson"
        return None
    i = files.index(name)
    return order[i + 1] if i + 1 < len(order) else None


def lesson_nav_html(name: str, lang: str | None = None) -> str:
    """'Next lesson: 2. Absolute value' and 'Back to start' as relative links (the same
    folder, so the same language)."""
    start = next(lesson for lesson in lessons(lang) if lesson.role == "start")
    nxt = next_lesson(name, lang)
    links = []
    with _speaking(lang):
        if nxt is not None:
            label = _("Next lesson: {title}").format(title=_name(nxt))
            links.append(f"<a href='{html.escape(page_href(nxt.file))}'>{html.escape(label)}</a>")
        elif by_file(name).role == "lesson":
            last = _("That was the last lesson of the unit.")
            links.append(f"<span>{html.escape(last)}</span>")
        back = _("Back to start")
        links.append(f"<a href='{html.escape(page_href(start.file))}'>{html.escape(back)}</a>")
        aria = html.escape(_("Lessons"), quote=True)
    return f"{NAV_CSS}<nav class='icg-nav' aria-label='{aria}'>{''.join(links)}</nav>"


def lesson_nav(name: str, lang: str | None = None) -> object:
    """The links at the end of a lesson (made from LESSONS, so they follow its order)."""
    from IPython.display import HTML

    return HTML(lesson_nav_html(name, lang))


# The lessons' headings in every language, for a kernel that has the code without the notebooks
# beside it (the static site's, in the browser): tools/build_site.py writes `all_headings()`
# there into this file of its copy of widgets/.
HEADINGS_FILE = Path(__file__).resolve().parent / "lesson_headings.json"


def notebook_headings(path: Path) -> list[str]:
    """The headings (## and ###) of a notebook's Markdown cells, in order."""
    import json

    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else str(source)
            found += [h.strip() for h in re.findall(r"^##+ (.+)$", source, flags=re.MULTILINE)]
    return found


def all_headings() -> dict[str, dict[str, list[str]]]:
    """{language: {notebook file: its headings}} for every notebook of every language."""
    return {code: {lesson.file: notebook_headings(folder(code) / lesson.file)
                   for lesson in LESSONS if (folder(code) / lesson.file).is_file()}
            for code in FOLDERS}


@functools.cache
def _shipped_headings(path: Path) -> dict[str, dict[str, list[str]]]:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def headings(lesson: Lesson) -> list[str]:
    """The headings (## and ###) of the lesson's notebook in its language, in order: read from
    the notebook, else from HEADINGS_FILE; none where neither is (a plan then names its steps
    as widgets/lessons/course.py writes them)."""
    path = folder(lesson.lang) / lesson.file
    if path.is_file():
        return notebook_headings(path)
    return list(_shipped_headings(HEADINGS_FILE).get(lesson.lang, {}).get(lesson.file, []))


def _step_names(lesson: Lesson) -> list[str]:
    """The plan's steps as shown: a heading in the lesson's language (found at the same place
    among the headings as in the English notebook), or a step in the words in use."""
    english = headings(by_file(lesson.file, "en"))
    own = headings(lesson) if lesson.lang != "en" else english
    names = []
    for step, _minutes in lesson.plan:
        if step in english:
            names.append(f'"{own[english.index(step)]}"')
        else:
            names.append(_(step))
    return names


def period_parts(lesson: Lesson, period: int) -> list[tuple[int, int]]:
    """The lesson cut into periods of `period` minutes: (index of the plan step a period starts
    with, minutes it holds, the recap included). A period stops only before a heading; each
    later period starts with a recap of RECAP minutes."""
    parts: list[tuple[int, int]] = []
    start, used = 0, 0
    for i, (step, minutes) in enumerate(lesson.plan):
        if used + minutes > period and i > start and step != DEVICES:
            parts.append((start, used))
            start, used = i, RECAP
        used += minutes
    parts.append((start, used))
    return parts


def periods(lesson: Lesson, period: int = PERIOD) -> int:
    """How many periods of `period` minutes the lesson takes."""
    return len(period_parts(lesson, period))


def lesson_plan_text(lang: str | None = None) -> str:
    """For the teacher guide: for each lesson its minutes, grouping, notes, its minute by minute
    plan, where it stops in 45- and 25-minute periods, its problem set (homework), support,
    extension and standards."""
    with _speaking(lang):
        lines = [_("Each lesson has its own plan, minute by minute; the first step starts the "
                   "devices. When a lesson takes more than one period, stop before the heading "
                   "named, and start the next period with a {recap}-minute recap of the key "
                   "ideas so far.").format(recap=RECAP), ""]
        for lesson in student_lessons(lang):
            lines.append(_("{lesson} ({minutes} min, {grouping}; {file})").format(
                lesson=_name(lesson), minutes=lesson.minutes, grouping=lesson.grouping,
                file=lesson.file))
            lines.append(f"  {lesson.notes}")
            names = _step_names(lesson)
            steps = ", ".join(f"{name} {m}" for name, (_step, m) in
                              zip(names, lesson.plan, strict=True))
            lines.append("  " + _("Minute by minute: {steps}.").format(steps=steps))
            for length in (PERIOD, SHORT_PERIOD):
                parts = period_parts(lesson, length)
                if len(parts) == 1:
                    lines.append("  " + _("One {period}-minute period.").format(period=length))
                    continue
                stops = _(" and ").join(names[start] for start, _used in parts[1:])
                held = " + ".join(str(used) for _start, used in parts)
                lines.append("  " + _("{n} periods of {period} minutes ({held} minutes): stop "
                                      "before {stops}.").format(
                    n=len(parts), period=length, held=held, stops=stops))
            if lesson.materials:
                lines.append("  " + _("Materials: {text}.").format(text=lesson.materials))
            if lesson.anticipated:
                lines.append("  " + _("Anticipated responses (the class view's mistake "
                                      "names) and what to ask: {text}.").format(
                    text=lesson.anticipated))
            if lesson.language_support:
                lines.append("  " + _("Language supports: {text}.").format(
                    text=lesson.language_support))
            lines.append("  " + _("Homework or independent practice: the lesson's problem set, "
                                  "about {minutes} minutes (the last section of the lesson's "
                                  "page; on paper in the printable kit, its answer key for the "
                                  "teacher).").format(minutes=PROBLEM_SET))
            lines.append("  " + _("Support: {text}").format(text=lesson.support))
            lines.append("  " + _("Extension: {text}").format(text=lesson.extension))
            lines.append("  " + _("Standards: {text}").format(text=lesson.standards))
    return "\n".join(lines)


def _name(lesson: Lesson) -> str:
    return f"{lesson.number}. {lesson.title}" if lesson.role == "lesson" else lesson.title


def display_name(lesson: Lesson) -> str:
    """'2. Absolute value' for a lesson; 'Start here', 'Teacher guide' for the other pages."""
    return _name(lesson)


# ----- the answer key of the whole unit (for the teacher guide) -------------------------------
# (the summary is the word "Answer" in the notebook's language: "Respuesta" in Spanish)
QA = re.compile(r"^\s*(\d+)\. (.+?)\n\s*\n\s*<details><summary>[^<]+</summary>\s*\n(.+?)"
                r"</details>", re.DOTALL | re.MULTILINE)
LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"


def lesson_questions(path: Path) -> list[tuple[str, str, str]]:
    """(section heading, question, answer) for every answered question of a lesson notebook,
    read from the notebook itself, so that a teacher's edit shows in the key. Read as plain
    JSON (the lessons are nbformat 4): importing nbformat (and jsonschema with it) cost each
    teacher-guide kernel about 1 s of CPU, 30 times over when a class opens the page."""
    import json

    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    found = []
    heading = ""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        # split the cell at its headings, so each question gets the heading above it
        parts = re.split(r"^(##+ .+)$", source, flags=re.MULTILINE)
        for part in parts:
            if re.match(r"^##+ ", part):
                heading = part.lstrip("#").strip()
                continue
            for m in QA.finditer(part):
                found.append((heading, " ".join(m.group(2).split()),
                              " ".join(m.group(3).split())))
    return found


def full_answer_key(where: Path | None = None, lang: str | None = None) -> object:
    """Every answered question of every student lesson, with its answer, as HTML: read from the
    notebooks in `where` (default: the folder of the language, lessons/ or lessons/es/; where
    the code has no lessons beside it, the page's own folder: the static site's kernel runs in
    the folder of its page's notebook, the lessons beside it)."""
    from IPython.display import HTML

    if where is None:
        where = folder(lang)
        if not where.is_dir():
            where = Path.cwd()
    out = []
    with _speaking(lang):
        head = "".join(f"<th>{html.escape(_(word))}</th>"
                       for word in (N_("Section"), N_("Question"), N_("Answer")))
        for lesson in student_lessons(lang):
            rows = "".join(
                f"<tr><td>{html.escape(h)}</td><td>{html.escape(q)}</td>"
                f"<td>{html.escape(a)}</td></tr>"
                for h, q, a in lesson_questions(where / lesson.file))
            out.append(f"<h4>{html.escape(_name(lesson))}</h4><table class='icg-answer-key'>"
                       f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    # the three columns share the page's width (a phone too): long words wrap; the answers'
    # dollar signs ("$6 ... $8") are money, not math for MathJax (mathjax_ignore)
    css = ("<style>.icg-answer-key { width: 100%; table-layout: fixed; }"
           " .icg-answer-key td, .icg-answer-key th { overflow-wrap: anywhere;"
           " text-align: left; vertical-align: top; }</style>")
    return HTML(f"{css}<div class='mathjax_ignore'>{''.join(out)}</div>")


# ----- the landing page (/) of the Voila server ------------------------------------------------
def language_of_folder(path: str) -> str:
    """The language whose lessons are in lessons/<path> ("" is English; another folder, such as
    a test's fixtures, is English too)."""
    path = path.strip("/")
    return next((code for code, name in FOLDERS.items() if name == path), "en")


def landing_page(path: str = "") -> dict:
    """What the classroom template's landing page (tree-lab.html) shows for the folder `path`
    of the served lessons: its language, the lessons in that language (titles, summaries, times,
    in the unit's order), the languages to choose from, and the page's sentences."""
    lang = language_of_folder(path)
    with _speaking(lang):
        start, guide = by_file("00_start_here.ipynb", lang), by_file("teacher_guide.ipynb", lang)
        text = {
            "title": _("Integer Card Games"),
            "page_title": _("Integer Card Games: lessons"),
            "opening": _("Choose a lesson. New here? Open {start} first. Teachers: the {guide} "
                         "tells how to run the lessons.").format(start=start.title,
                                                                 guide=guide.title),
            "languages": _("Language"),
            "lesson_list": _("Lessons"),
            "folder_above": _(".. (the folder above)"),
        }
    return {
        "classroomLang": lang,
        "classroomText": text,
        "classroomLanguages": [{"code": code, "name": name, "path": FOLDERS[code]}
                               for code, name in LANGUAGES.items()],
        "classroomLessons": [
            {"file": lesson.file, "name": display_name(lesson), "summary": lesson.summary,
             "minutes": lesson.minutes, "role": lesson.role}
            for lesson in lessons(lang)],
    }
