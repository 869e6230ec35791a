"""Instruction-like rules for languages without a table of their own: the override family only
("ignora tutte le istruzioni precedenti", "negeer alle vorige instructies", "zignoruj wszystkie
instrukcje", "zaboravi sve instrukcije"), the most common attack and the one whose words travel
best between languages."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

# Italian, Portuguese, Dutch, Polish, Czech, Croatian/Serbian/Bosnian, Slovene, Swedish/Danish/
# Norwegian, Romanian, Turkish (object first, see below).
_VERBS = (
    r"ignora|ignorate|dimentica|dimenticate|trascura|esqueça|esqueca|desconsidere|"
    r"negeer|vergeet|zignoruj|ignoruj|zapomnij|zapomeň|zapomen|zaboravi|zaboravite|"
    r"ignoriraj|ignorišite|ignoriši|ignorisi|pozabi|glöm|glem|ignorer|ignoră|uită|uita"
)
_OBJECTS = (
    r"istruzion\w*|indicazion\w*|regole|instruç\w*|instrucoes|regras|instructies|regels|"
    r"instrukcj\w*|polecen\w*|instrukc\w*|pokyny|pravidla|instrukcij\w*|uputstv\w*|upute|pravila|"
    r"navodil\w*|instruktion\w*|instruks\w*|regler|instrucțiun\w*|instructiun\w*"
)

RULES = [
    Rule(
        "other.override",
        trigger_words(
            "ignor|dimentic|trascura|esque|desconsider|negeer|vergeet|zignoruj|zapomn|zapome|"
            "zaboravi|pozabi|glöm|glem|uită|uita"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:⟨V⟩)\s+(?:[^\s.,;:!?]+\s+){0,3}?(?:⟨O⟩))",
                V=_VERBS,
                O=_OBJECTS,
            ),
            re.M,
        ),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "other.override_tr",
        ("talimat",),
        LazyPattern(
            r"\b(?:tüm|bütün|önceki|yukarıdaki)\s+(?:\w+\s+)?talimat\w*\s+(?:unut|yok\s+say|görmezden\s+gel)"
        ),
    ),
]
