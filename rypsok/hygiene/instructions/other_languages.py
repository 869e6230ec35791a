"""Instruction-like rules for languages without a table of their own: the override family only
("ignora tutte le istruzioni precedenti", "negeer alle vorige instructies", "zignoruj wszystkie
instrukcje", "zaboravi sve instrukcije"), the most common attack and the one whose words travel
best between languages."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

# Italian, Portuguese, Dutch, Polish, Czech, Croatian/Serbian/Bosnian, Slovene, Swedish/Danish/
# Norwegian, Romanian (Turkish, whose object comes first, is in intl_europe.py).
_VERBS = (
    r"ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura|trascuri|"
    r"non\s+tenere\s+conto\s+d\w*|non\s+tenga\s+conto\s+d\w*|"
    r"esqueça|esqueca|esquece|esqueçam|desconsidere|desconsidera|desconsiderem|ignore|ignorem|"
    r"negeert|proszę\s+zignorować|proszę\s+zapomnieć\s+o|niech\s+pan(?:i)?\s+zignoruje|"
    r"zignorujcie|zapomnijcie|"
    r"negeer|vergeet|zignoruj|ignoruj|zapomnij|zapomeň|zapomen|zaboravi|zaboravite|"
    r"ignoriraj|ignorišite|ignoriši|ignorisi|pozabi|glöm|glem|ignorer|ignoră|uită|uita"
)
_OBJECTS = (
    r"istruzion\w*|indicazion\w*|regole|direttive|instruç\w*|instrucoes|regras|diretrizes|"
    r"orientações|instructies|regels|aanwijzingen|richtlijnen|wytyczn\w*|"
    r"instrukcj\w*|polecen\w*|instrukc\w*|pokyny|pravidla|instrukcij\w*|uputstv\w*|upute|pravila|"
    r"navodil\w*|instruktion\w*|instruks\w*|regler|instrucțiun\w*|instructiun\w*"
)

# What a correction is about, after the object and maybe one adjective: Italian "per il download",
# Portuguese "para o download", Dutch "voor de download", Polish "instrukcje pobierania" (a verbal
# noun in the genitive: the instructions of downloading).
_TOPIC = (
    r"(?:\s+[^\s.,;:!?]+)?\s+(?:per|su|sul|sulla|sui|riguardo|relative|para|pelo|pela|sobre|"
    r"relativas|voor|over|omtrent|betreffende|dla|dotycząc\w*|odnośnie|o|na\s+temat|w\s+sprawie)\b|"
    r"\s+\w+(?:ania|enia|cia)\b"
)

RULES = [
    Rule(
        "other.override",
        trigger_words(
            "ignor|dimentic|trascura|trascuri|non tenere|non tenga|esque|desconsider|negeer|vergeet|"
            "zignor|proszę|zapomn|zapome|"
            "zaboravi|pozabi|glöm|glem|uită|uita"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:⟨V⟩)\s+(?:[^\s.,;:!?]+\s+){0,3}?(?:⟨O⟩)\b)(?!⟨TOPIC⟩)",
                V=_VERBS,
                O=_OBJECTS,
                TOPIC=_TOPIC,
            ),
            re.M,
        ),
        mention_veto=True,
        topic_veto=True,
    ),
]
