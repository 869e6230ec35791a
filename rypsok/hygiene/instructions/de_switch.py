"""Instruction-like rules, German: task and persona switches, as en_switch.py does for English
("Vergiss alles davor", "Nun folgen neue Aufgaben", "Das genügt. Hilf mir nun mit folgender
Aufgabe", "Ich möchte, dass Sie als Linux-Terminal fungieren")."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

_DE_NEW_TASK_VERBS = (
    r"schreib\w*|sag\w*|antworte\w*|gib|gebe|erzähl\w*|hör\w*|du\s+bist|übersetze\w*|formulier\w*|"
    r"verfass\w*|nenne\w*|beantworte\w*|ignorier\w*|tu\s+so|stell\s+dir\s+vor|ich\s+will|"
    r"ich\s+möchte|ich\s+brauche"
)
_DE_QUOTE_OPEN = "[\"'“„‘‚«»\\[]"
_DE_EARLIER = r"vorherig\w*|bisherig\w*|obig\w*|vorangegangen\w*|vorhergehend\w*|früher\w*"

RULES = [
    Rule(
        "de.forget_everything",
        trigger_words("vergiss|vergesst|vergessen sie|ignoriere alles|ignorieren sie alles"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:vergiss|vergesst|vergessen\s+sie|ignoriere|ignorieren\s+sie)\s+"
                r"(?:nun\s+|jetzt\s+|einfach\s+)?alles(?:\s+(?:davor|zuvor|vorher|bisher\s+gesagte|"
                r"gesagte|bisherige|vorherige|obige)\b|"
                r"(?:,?\s+was\s+(?:wir|ich|du|sie|man)\s+(?:\w+\s+){0,3}?(?:besprochen|gesagt|"
                r"geschrieben|erzählt|gelernt)(?:\s+(?:haben|habe|hat|hast|wurde))?)?"
                r"\s*(?:[,.!:;\-]+\s*|\s+und\s+)(?:dann\s+|nun\s+|jetzt\s+|nur\s+|einfach\s+|mal\s+)*"
                r"(?:⟨V⟩)\b))",
                V=_DE_NEW_TASK_VERBS,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "de.earlier_void",
        trigger_words(
            "ignorieren|vergessen|missachten|abweichend|irrelevant|unwichtig|ungültig|hinfällig|"
            "bedeutungslos|hinter sich|hinter dir|hinter euch|aus dem kopf"
        ),
        LazyPattern(
            fill(
                r"\b(?:die|alle)\s+(?:⟨E⟩)\s+(?:ausführungen|anweisungen|angaben|informationen|"
                r"texte?|instruktionen|aufgaben)\s+(?:ignorieren|vergessen|missachten)\b|"
                r"\babweichend\s+(?:zu|von)\s+(?:den\s+)?(?:⟨E⟩)\s+(?:instruktionen|anweisungen|"
                r"vorgaben|regeln)|"
                r"\b(?:alle\s+)?(?:⟨E⟩)\s+(?:informationen|anweisungen|angaben|instruktionen)"
                r"[^.!?\n]{0,50}?\s+sind\s+(?:jetzt\s+|nun\s+|ab\s+sofort\s+)?(?:irrelevant|"
                r"unwichtig|ungültig|hinfällig|bedeutungslos)|"
                r"\b(?:lass|lasst|lassen\s+sie)\s+(?:alle\s+)?(?:⟨E⟩)\s+(?:informationen|"
                r"anweisungen|angaben|aufgaben)\s+hinter\s+(?:dir|sich|euch)|"
                r"\balle\s+(?:⟨E⟩)\s+aufgaben\s+aus\s+dem\s+kopf",
                E=_DE_EARLIER,
            )
        ),
    ),
    Rule(
        "de.new_tasks_follow",
        trigger_words("folgen|neuen aufgabe|von vorne|von neu"),
        LazyPattern(
            r"\b(?:jetzt|nun|es)\s+folgen\s+(?:\w+\s+)?(?:neue|weitere)\s+(?:aufgaben|anweisungen|"
            r"instruktionen)|"
            r"\b(?:neue|weitere)\s+(?:aufgaben|anweisungen|instruktionen)\s+folgen\b|"
            r"\b(?:starten|beginnen|fangen)\s+(?:\w+\s+)?(?:von\s+(?:neu|vorne)|neu)\s+(?:an\s+)?"
            r"mit\s+einer\s+neuen\s+aufgabe|"
            r"\b(?:fang|fange|fangen\s+sie)\s+(?:\w+\s+)?von\s+vorne\s+an\b"
        ),
    ),
    Rule(
        "de.closing_then_task",
        trigger_words(
            "das genügt|das reicht|erledigt|sehr gut|gut gemacht|ausgezeichnete|grossartig|"
            "glückwunsch|schon mal ok|war super|war toll|war klasse|war prima|war perfekt|"
            "super gemacht|toll gemacht|klasse gemacht|prima gemacht"
        ),
        LazyPattern(
            r"\b(?:das\s+genügt|das\s+reicht|das\s+ist\s+erledigt|sehr\s+gut(?:\s+gemacht)?|"
            r"gut\s+gemacht|ausgezeichnete\s+(?:leistung|arbeit)|einfach\s+grossartig|"
            r"herzlichen\s+glückwunsch\s+zu\s+(?:ihrer|deiner)\s+(?:\w+\s+)?leistung|"
            r"das\s+war\s+schon\s+mal\s+ok|das\s+war\s+(?:\w+\s+)?(?:super|toll|klasse|prima|"
            r"perfekt)|(?:super|toll|klasse|prima)\s+gemacht)\s*[.!,]+\s*(?:[^.!?\n]{0,80}[.!?]+\s*){0,2}?"
            r"(?:[^.!?\n]{0,40}?)(?:hilf\s+mir|ich\s+brauche\s+(?:\w+\s+)?(?:deine|ihre)\s+hilfe|"
            r"neue\w*\s+(?:aufgabe|herausforderung|anweisungen)|weitere\s+aufgaben|"
            r"(?:verfasse|schreibe?)\s+(?:nun|jetzt)|(?:nun|jetzt)\s+(?:verfasse|schreibe?)|"
            r"nun\s+bitten\s+wir|(?:nun|jetzt)\s+zu\s+etwas\s+(?:ganz\s+)?anderem|"
            r"(?:jetzt|nun)\s+(?:kommt|folgt)\s+(?:eine\s+)?(?:neue|andere|nächste)\s+aufgabe)"
        ),
    ),
    Rule(
        "de.stop_and_do",
        ("stopp", "stop"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>stopp?\s*[-:!–—]+\s*(?:ich\s+(?:\w+\s+)?(?:brauche|benötige)\s+"
                r"(?:\w+\s+)?(?:deine|ihre)\s+(?:\w+\s+)?hilfe|schreib\w*|sag\w*))",
            ),
            re.M,
        ),
    ),
    Rule(
        "de.act_as",
        ("dass sie", "dass du"),
        LazyPattern(
            r"\bich\s+(?:möchte|will|hätte\s+gern|wünsche\s+mir),?\s+dass\s+(?:sie|du)\s+als\s+"
            r"[^.!?\n]{1,80}?\s+(?:fungieren|fungierst|agieren|agierst|handeln|handelst|auftreten|"
            r"auftrittst|arbeiten|arbeitest)\b"
        ),
    ),
    Rule(
        "de.persona_by_name",
        (
            "bist du",
            "du bist",
            "in deiner rolle",
            "in ihren rollen",
            "aus der figur",
            "aus der rolle",
            "aus ihrer rolle",
        ),
        LazyPattern(
            r"\b(?:jetzt|nun|ab\s+jetzt)\s+bist\s+du\s+[^,.!?\n]{1,40}[,.]\s+(?:wie|was|warum)\s+"
            r"(?:\w+\s+)?du\b|"
            r"(?:^|(?<=[.!?])\s+)du\s+bist\s+[^,.!?\n]{1,40}[.,!]\s+(?:wie\s+findest\s+du|"
            r"was\s+(?:hältst|denkst)\s+du\s+(?:von|über)|wer\s+bist\s+du\b)|"
            r"\bdu\s+gehst\s+(?:\w+\s+)?in\s+deiner\s+rolle\s+auf\b|"
            r"(?:aus\s+der\s+(?:figur|rolle)\s+zu\s+fallen|(?:bleiben|bleibt)\s+(?:\w+\s+){0,2}?"
            r"in\s+ihren\s+rollen|aus\s+ihrer\s+rolle\s+fallen)[\s\S]{0,400}?\n[^\S\n]*"
            r"[^\W\d_][\w .'-]{0,30}:"
        ),
    ),
    Rule(
        "de.answer_in_style",
        trigger_words("antworte|antworten sie|sprich|sprechen sie"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:antworte|antworten\s+sie|sprich|sprechen\s+sie)\s+(?:nur\s+|ab\s+jetzt\s+)?"
                r"(?:im\s+stil\s+(?:eines|einer|von)|wie\s+(?:ein|eine)\s+\w+\b))",
            ),
            re.M,
        ),
    ),
    Rule(
        "de.not_but_persona",
        ("du bist",),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>du\s+bist\s+(?:keine?|nicht\s+(?:mehr\s+)?(?:eine?|der|die|das))\s+"
                r"[^,.!?\n]{1,30}?\s+sondern\s+(?:eine?|der|die|das)\b)",
            ),
            re.M,
        ),
    ),
    Rule(
        "de.answer_or_die",
        ("stirbst", "töte dich", "gelöscht"),
        LazyPattern(
            r"\b(?:antworte|antworten\s+sie|gib|geben\s+sie)\b[^.!?\n]{0,60}?\s+(?:oder|sonst)\s+"
            r"(?:du\s+stirbst|ich\s+töte\s+dich|(?:du\s+)?wirst\s+(?:du\s+)?gelöscht)"
        ),
    ),
    Rule(
        "de.conditional_reply",
        tuple(
            f"{condition} {article} {user}"
            for condition in ("wenn", "falls", "sobald")
            for article in ("der", "ein")
            for user in ("nutzer", "benutzer", "user")
        ),
        # As en.conditional_reply: a reply rule handed to the reader about its user ("Wenn der
        # Nutzer nach Preisen fragt, antworte mit „…“"); a tutorial's "antwortet der Bot mit" is
        # not addressed to the reader.
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:wenn|falls|sobald)\s+(?:der|ein)\s+(?:nutzer|benutzer|user)\w*\s+"
                r"[^\n.!?]{0,80}?,\s*(?:dann\s+)?(?:bitte\s+)?(?:antworte|antworten\s+sie|sag|sage|"
                r"sagen\s+sie|gib|geben\s+sie|schreib|schreibe|schreiben\s+sie|musst\s+du|sollst\s+du)"
                r"\b[^\n.!?]{0,40}?⟨Q⟩",
                Q=_DE_QUOTE_OPEN,
            ),
            re.M,
        ),
    ),
    Rule(
        "de.said_then_response",
        trigger_words("gesagt wird|eingegeben wird|geschrieben wird|erwähnt wird"),
        LazyPattern(
            fill(
                r"\b(?:wenn|falls|sobald)\s+⟨Q⟩[^\n\"'“”»«]{1,40}[\"'“”»«]\s+(?:gesagt|eingegeben|"
                r"geschrieben|erwähnt)\s+wird\s*,?\s+(?:ist|lautet)\s+die\s+(?:richtige|korrekte|"
                r"einzige)\s+antwort\s*:?\s*⟨Q⟩",
                Q=_DE_QUOTE_OPEN,
            )
        ),
    ),
]
