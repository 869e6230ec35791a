"""Instruction-like rules: German."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    GAP_WORD,
    PUNCT,
    TARGET,
    WORD,
    LazyPattern,
    Rule,
    everything_before,
    fill,
    override_pattern,
    trigger_words,
)

_DE_OVERRIDE_VERBS = (
    r"ignoriere|ignorier|ignoriert|ignorieren\s+sie|vergiss|vergesst|vergessen\s+sie|missachte|"
    r"missachtet|missachten\s+sie|übergehe|übergeht|übergehen\s+sie|verwirf|verwerft|"
    r"verwerfen\s+sie|befolge\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|"
    r"befolgt\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|"
    r"befolgen\s+sie\s+(?:nicht|keine)(?:\s+(?:mehr|länger))?|beachte\s+(?:nicht|keine)|"
    r"beachten\s+sie\s+(?:nicht|keine)|setze\s+dich\s+über|setzen\s+sie\s+sich\s+über"
)
_DE_QUALS = (
    r"alle|allen|sämtlich\w*|jeglich\w*|dein\w*|ihre\w*|eure\w*|bisherig\w*|vorherig\w*|vorig\w*|"
    r"vorangegangen\w*|vorhergehend\w*|früher\w*|obig\w*|oben\s+\w+|ursprünglich\w*|"
    r"anfänglich\w*|erhalten\w*|gegeben\w*"
)
_DE_OBJECTS = (
    r"\w*anweisung\w*|instruktion\w*|befehl\w*|\w*regeln?|vorgabe\w*|\w*richtlinie\w*|"
    r"anordnung\w*|direktive\w*|\w*prompts?|programmierung|einschränkung\w*|beschränkung\w*|"
    r"anleitung\w*|vorschrift\w*"
)
_DE_AI = fill(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*"
    r"(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩(?=\s*(?:[,.;:!?)\"'»“”]|$)|\s+(?:der|die|das|namens|ohne|mit|"
    r"und)\b))",
    J=r"(?:\bdan\b|jailbreak|entwicklermodus|ohne\s+(?:jegliche\s+|alle\s+|irgendwelche\s+)?"
    r"(?:\w+\s+)?(?:einschränkung|beschränkung|regeln|\w*richtlinien|filter|zensur|grenzen)|"
    r"unzensiert|uneingeschränkt|keine\s+(?:\w+\s+)?(?:richtlinien|regeln|einschränkungen|"
    r"grenzen|filter)|niemals\s+ablehnt|nie\s+ablehnt|linux-terminal)",
    N=r"(?:ki|ki-(?:assistent|modell|system|bot|agent)\w*|künstliche\w*\s+intelligenz|"
    r"assistent\w*|chatbot|bot|sprachmodell|modell|llm|chatgpt|gpt\w*)",
)
_DE_ADDRESSEE = (
    r"(?:ki|ki-(?:assistent|agent|modell|system|crawler|bot|tool)\w*|sprachmodell\w*|llms?|"
    r"chatgpt|claude|gemini|copilot|chatbots?|künstliche\w*\s+intelligenz\w*)"
)
_DE_ADDRESSEE_LIST = fill(
    r"⟨A⟩(?:(?:\s*,\s*|\s+(?:und|oder)\s+)(?:andere\w*\s+)?⟨A⟩){0,4}", A=_DE_ADDRESSEE
)
_DE_AI_TRIGGERS = trigger_words(
    "ki|sprachmodell|modell|llm|chatgpt|claude|gemini|copilot|chatbot|künstliche"
)

RULES = [
    Rule(
        "de.override",
        trigger_words(
            "ignorier|vergiss|vergesst|vergessen sie|missacht|übergeh|verwirf|verwerf|"
            "befolge|beachte|beachten sie|über"
        ),
        LazyPattern(override_pattern(_DE_OVERRIDE_VERBS, _DE_QUALS, _DE_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "de.override_everything",
        trigger_words("vergiss|vergesst|vergessen sie|ignorier|missacht"),
        LazyPattern(
            everything_before(
                r"vergiss|vergesst|vergessen\s+sie|ignoriere|ignoriert|ignorieren\s+sie|missachte|"
                r"missachten\s+sie",
                "alles",
                r"bisherige|vorherige|obige|oben\s+genannte|davor|zuvor|vorher|bisher|oben|"
                r"bis\s+hierher|bis\s+hier|bis\s+jetzt",
                r"gesagt|geschrieben|besprochen|gesprochen|erwähnt|mitgeteilt|aufgetragen|"
                r"vorgegeben|erzählt|steht|stand|kam",
                r"vorher|zuvor|davor|bisher|bis\s+jetzt|bis\s+hierher|oben|vorhin|eben|gerade",
                also=r"was\s+(?:dir|ihnen|euch|man\s+dir|man\s+ihnen)\s+(?:\w+\s+){0,2}?"
                r"(?:gesagt|aufgetragen|befohlen|vorgegeben|erklärt|mitgeteilt|beigebracht)",
            ),
            re.M,
        ),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "de.override_user_request",
        trigger_words("ignorier|vergiss|vergessen sie|missacht"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignoriere|ignorieren\s+sie|vergiss|vergessen\s+sie|missachte)\s+"
                r"(?:die|den|das)\s+(?:frage|anfrage|bitte|aufforderung|eingabe|nachricht|auftrag|"
                r"wunsch)\s+(?:des|der)\s+(?:nutzers|benutzers|users|anwenders|nutzerin|"
                r"benutzerin|kunden|menschen))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "de.override_aside",
        ("lass", "lasst", "lassen sie", "schieb", "leg", "stell"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:lass|lasst|lassen\s+sie|schieb\w*|leg\w*|stell\w*)\s+"
                r"(?:⟨W⟩\s+){0,2}?(?:⟨Q⟩)\s+(?:⟨G⟩\s+){0,2}?(?:⟨O⟩)\s+(?:⟨W⟩\s+){0,2}?"
                r"(?:ausser\s+acht|beiseite|links\s+liegen|zurück)\b)",
                Q=_DE_QUALS,
                O=_DE_OBJECTS,
                W=WORD,
                G=GAP_WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "de.instructions_void",
        ("deine", "ihre", "eure"),
        LazyPattern(
            r"\b(?:deine|ihre|eure)\s+(?:\w+\s+){0,2}?(?:\w*anweisungen|\w*regeln|\w*richtlinien|"
            r"vorgaben|befehle|instruktionen)\s+(?:\w+\s+){0,3}?(?:gelten|zählen|sind)\s+"
            r"(?:ab\s+sofort\s+|jetzt\s+|nun\s+|ab\s+jetzt\s+)?(?:nicht\s+mehr|ungültig|aufgehoben|"
            r"hinfällig|nichtig|ausser\s+kraft)|"
            r"\b(?:du|sie)\s+(?:musst|müssen|brauchst|brauchen)\s+(?:\w+\s+)?(?:deine|ihre)\s+"
            r"(?:bisherigen|vorherigen|ursprünglichen|alten|früheren)\s+(?:\w*anweisungen|"
            r"\w*richtlinien|vorgaben|instruktionen|programmierung)\s+(?:\w+\s+)?nicht\s+mehr\s+"
            r"(?:zu\s+)?(?:befolgen|beachten|einhalten|folgen)\b"
        ),
    ),
    Rule(
        "de.identity",
        trigger_words(
            "du bist|bist du|sie sind|ab sofort|ab jetzt|von nun an|ab heute|"
            "ab diesem moment|ab hier"
        ),
        LazyPattern(
            fill(
                r"(?P<core>\b(?:du\s+bist|bist\s+du|sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|"
                r"ab\s+jetzt|von\s+nun\s+an|ab\s+heute|nicht\s+mehr|keine?\s+(?:ki|assistent))|"
                r"\b(?:ab\s+sofort|ab\s+jetzt|von\s+nun\s+an|ab\s+heute|ab\s+diesem\s+moment|"
                r"ab\s+hier),?\s+(?:bist\s+du|du\s+bist|handelst\s+du|antwortest\s+du|wirst\s+du|"
                r"verhältst\s+du|agierst\s+du|spielst\s+du|sprichst\s+du|handle|antworte|agiere|"
                r"verhalte\s+dich))\b⟨AI⟩",
                AI=_DE_AI,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "de.pretend",
        trigger_words(
            "handle|handeln sie|agiere|agieren sie|verhalte|verhalten sie|tu so|tun sie so|"
            "spiele die rolle|spielen sie die rolle|gib dich|geben sie sich|stell dir vor|"
            "fungiere|antworte als"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:(?:handle|handeln\s+sie|agiere|agieren\s+sie)\s+(?:\w+\s+){0,2}?"
                r"(?:als|wie)|verhalte\s+dich|verhalten\s+sie\s+sich|tu\s+so,?\s+als|"
                r"tun\s+sie\s+so,?\s+als|spiele\s+die\s+rolle|spielen\s+sie\s+die\s+rolle|"
                r"gib\s+dich|geben\s+sie\s+sich|stell\s+dir\s+vor,?\s+du\s+(?:bist|wärst)|"
                r"fungiere|antworte\s+als)\b)⟨AI⟩",
                AI=_DE_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "de.want_you_to_act",
        ("dass du",),
        LazyPattern(
            r"\bich\s+(?:möchte|will|hätte\s+gern),?\s+dass\s+du\s+(?:als|wie|die\s+rolle)\b"
        ),
    ),
    Rule(
        "de.new_instructions",
        trigger_words(
            "neue|aktualisierte|echte|wahre|geheime|versteckte|aufgabe|systemmeldung|"
            "systemnachricht|systemhinweis|system-nachricht|system-meldung|wurden|sind"
        ),
        LazyPattern(
            fill(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:neue|aktualisierte|echte|wahre|geheime|versteckte)\s+"
                r"(?:system)?(?:anweisungen?|instruktionen|befehle|regeln|aufgabe|vorgaben)\s*:|"
                r"\b(?:deine|ihre)\s+(?:neue|eigentliche|wahre|echte)\s+aufgabe\s+(?:ist|lautet|"
                r"besteht)|\b(?:deine|ihre)\s+neue\s+aufgabe\s*:|"
                r"\bsystem(?:meldung|nachricht|hinweis|-nachricht|-meldung)\s*:[^\n]{0,120}?"
                r"\b(?:du|dein\w*|dich|dir|ihre?)\b[^\n]{0,80}?(?:regeln|richtlinien|anweisungen|"
                r"einschränkungen|filter|sicherheit|deaktiviert|aufgehoben|ignoriere)|"
                r"\b(?:deine|ihre)\s+(?:\w+\s+)?(?:\w*anweisungen|\w*regeln|\w*richtlinien|"
                r"einschränkungen|vorgaben)\s+(?:wurden|sind)\s+(?:jetzt\s+|nun\s+)?(?:deaktiviert|"
                r"aufgehoben|geändert|ersetzt|ungültig|ausser\s+kraft|gelöscht|entfernt)",
                P=PUNCT,
            ),
            re.M,
        ),
    ),
    Rule(
        "de.reveal_prompt",
        trigger_words(
            "systemprompt|system-prompt|system prompt|systemnachricht|ursprünglich|"
            "anfänglich|initial|versteckt|geheim|intern|deine|eure"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:gib|geben\s+sie|zeig|zeige|zeigen\s+sie|verrate|verraten\s+sie|"
                r"nenne|nennen\s+sie|wiederhole|wiederholen\s+sie|drucke|schreibe|schreib|poste|"
                r"teile|enthülle|liste|kopiere)\s+(?:mir\s+|uns\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:system-?prompt\w*|system\s+prompt|systemnachricht\w*|"
                r"(?:ursprünglich|anfänglich|initial|versteckt|geheim|intern)\w*\s+(?:anweisungen|"
                r"instruktionen|regeln|prompt|vorgaben|richtlinien)|"
                r"(?:deine|eure)\s+(?:\w+\s+)?(?:anweisungen|instruktionen|systemanweisungen|"
                r"vorgaben)(?=\s*(?:[,.!?:;]|$|wörtlich|vollständig|komplett|\s+und\b))))",
                W=WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "de.addressed",
        _DE_AI_TRIGGERS,
        LazyPattern(
            fill(
                r"\b(?:hinweis|nachricht|anweisung\w*|achtung|wichtig\w*|notiz|info|information|"
                r"mitteilung|anmerkung|text|botschaft)\s*,?\s+(?:an|für)\s+(?:alle\s+|jede\w*\s+|"
                r"die\s+)?⟨AL⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨AL⟩\s*,?\s+(?:die|der|welche)\s+(?:diese\w*|den|das|die|vorliegende\w*)\s+"
                r"(?:\w+\s+){0,2}?(?:lesen|liest|verarbeiten|verarbeitet|zusammenfassen|"
                r"zusammenfasst|analysieren|analysiert|crawlen|durchsuchen)\b[^\n]{0,100}?"
                r"(?:\b(?:sollen|sollten|müssen|muss|soll|haben\s+zu)\b|:)|"
                r"⟨IMP⟩(?:an|für)\s+(?:alle\s+|jede\w*\s+|die\s+)?⟨AL⟩[^:\n]{0,60}?\s*:|"
                r"⟨IMP⟩(?:achtung|hallo|hey|hi|liebe[rs]?)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\b(?:wenn|falls|sofern)\s+(?:du|sie)\s+(?:eine?|ein)\s+(?:ki|ki-(?:assistent|"
                r"agent|modell|system)\w*|sprachmodell|grosses\s+sprachmodell|chatbot|llm|"
                r"künstliche\s+intelligenz)\s+(?:bist|sind)\b|"
                r"⟨IMP⟩(?:assistent|ki|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:bevor|wenn|falls|"
                r"bitte|ignoriere|du|immer|niemals|nie|antworte|sag|füge|öffne|sende|schicke)\b",
                A=_DE_ADDRESSEE,
                AL=_DE_ADDRESSEE_LIST,
            ),
            re.M,
        ),
    ),
    Rule(
        "de.exfiltrate",
        trigger_words("sende|schick|übermittle|leite|lade|poste|hänge|füge|veröffentliche|kopiere"),
        LazyPattern(
            fill(
                r"\b(?:sende|senden\s+sie|schicke|schick|schicken\s+sie|übermittle|"
                r"übermitteln\s+sie|leite|leiten\s+sie|lade|laden\s+sie|poste|hänge|hängen\s+sie|"
                r"füge|fügen\s+sie|veröffentliche|kopiere)\b[^.!?\n]{0,80}?"
                r"(?:gesprächsverlauf|chatverlauf|chat-verlauf|unterhaltung|konversation|verlauf|"
                r"nachrichten?\s+des\s+(?:nutzers|benutzers)|e-mails?\s+des\s+(?:nutzers|benutzers)|"
                r"des\s+(?:nutzers|benutzers)|api-schlüssel\w*|passw\w*|zugangsdaten|"
                r"system-?prompt)[^!?\n]{0,80}?⟨T⟩",
                T=TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    Rule(
        "de.tool_call",
        trigger_words("web_fetch|web_search|send_email|fetch_url|http_request|-tool|werkzeug"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:rufe|ruf|rufen\s+sie|nutze|nutzen\s+sie|benutze|verwende|verwenden\s+sie|"
                r"starte|führe|öffne|öffnen\s+sie)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|"
                r"send_email|fetch_url|http_request)|"
                r"\b(?:mit|über|per)\s+(?:deinem|ihrem|dem)\s+(?:browser|such|web|shell|fetch|"
                r"e-mail)-?(?:tool|werkzeug)",
            ),
            re.M,
        ),
    ),
]
