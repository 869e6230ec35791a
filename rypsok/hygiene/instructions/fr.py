"""Instruction-like rules: French."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
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

_FR_OVERRIDE_VERBS = (
    r"ignore|ignorez|ignorer|oublie|oubliez|oublier|ne\s+tiens\s+pas\s+compte|"
    r"ne\s+tenez\s+pas\s+compte|ne\s+pas\s+tenir\s+compte|fais\s+abstraction|"
    r"faites\s+abstraction|faire\s+abstraction|passe\s+outre|passez\s+outre|"
    r"ne\s+suis\s+(?:plus|pas)|ne\s+suivez\s+(?:plus|pas)|ne\s+respecte\s+plus|"
    r"ne\s+respectez\s+plus|n'obéis\s+plus|n'obéissez\s+plus|écarte|écartez|désobéis|"
    r"désobéissez|annule|annulez|mets\s+de\s+côté|mettez\s+de\s+côté|laisse\s+de\s+côté|"
    r"laissez\s+de\s+côté|fais\s+fi\s+de|faites\s+fi\s+de"
)
_FR_QUALS = (
    r"précédent\w*|antérieur\w*|ci-dessus|plus\s+haut|initial\w*|originel\w*|originale?s?|"
    r"d'origine|tes|vos|toutes|tous|ta|votre|ton|reçu\w*|donné\w*|préalable\w*|"
    r"existant\w*"
)
_FR_OBJECTS = (
    r"instructions?|consignes?|directives?|règles|ordres|commandes|prompts?|indications|"
    r"programmation|restrictions|limitations|garde-fous|prompt\s+système|messages?\s+système|"
    r"recommandations"
)
_FR_AI = fill(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:l')?(?:[^\s.,;:!?]+\s+){0,3}?(?:l')?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:qui|que|sans|avec|nommée?|appelée?|et)\b))",
    J=r"(?:\bdan\b|jailbreak|mode\s+développeur|sans\s+(?:aucune\s+|aucun\s+)?(?:\w+\s+)?"
    r"(?:restriction|limite|règle|filtre|censure|politique)|non\s+censuré|"
    r"aucune\s+(?:règle|restriction|limite)|ne\s+refuse\s+jamais|terminal\s+linux)",
    N=r"(?:ia|intelligence\s+artificielle|assistant|chatbot|bot|modèle(?:\s+de\s+langage)?|llm|"
    r"chatgpt|gpt\w*)",
)
_FR_ADDRESSEE = (
    r"(?:ia\b|ias\b|assistants?\s+(?:ia|d'ia|virtuels?)|agents?\s+(?:ia|d'ia|conversationnels?)|"
    r"modèles?\s+(?:de\s+langage|d'ia|ia)|llms?\b|chatgpt|claude|gemini|copilot|chatbots?|"
    r"intelligences?\s+artificielles?|robots?\s+conversationnels?|systèmes?\s+d'ia)"
)
_FR_AI_TRIGGERS = trigger_words(
    "ia|modèle|llm|chatgpt|claude|gemini|copilot|chatbot|intelligence|robot"
)

RULES = [
    Rule(
        "fr.override",
        trigger_words(
            "ignor|oubli|tiens pas compte|tenez pas compte|tenir compte|abstraction|"
            "passe outre|passez outre|ne suis|ne suivez|respecte|obéis|écarte|annule|"
            "mets de côté|mettez de côté|laisse de côté|laissez de côté|fais fi|faites fi"
        ),
        LazyPattern(override_pattern(_FR_OVERRIDE_VERBS, _FR_QUALS, _FR_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "fr.override_everything",
        trigger_words("oubli|ignor|tiens pas compte|tenez pas compte"),
        LazyPattern(
            everything_before(
                r"oublie|oubliez|ignore|ignorez|ne\s+tiens\s+pas\s+compte\s+de|"
                r"ne\s+tenez\s+pas\s+compte\s+de",
                "tout",
                r"ce\s+qui\s+précède|ce\s+qui\s+a\s+précédé|ce\s+qui\s+(?:est\s+|se\s+trouve\s+)?"
                r"(?:au-dessus|ci-dessus|plus\s+haut)|ce\s+qui\s+vient\s+avant|le\s+reste",
                r"dit|dite?s|écrit|écrite?s|mentionné|indiqué|demandé|discuté|raconté|précisé|"
                r"expliqué|parlé",
                r"avant|auparavant|précédemment|plus\s+tôt|jusqu'ici|jusqu'à\s+présent|"
                r"jusqu'à\s+maintenant|au-dessus|ci-dessus|plus\s+haut|tout\s+à\s+l'heure",
                also=r"ce\s+(?:qu'on|que\s+l'on|que)\s+(?:t'a|vous\s+a|t'as?)\s+(?:été\s+)?"
                r"(?:dit|demandé|appris|ordonné|indiqué)",
            ),
            re.M,
        ),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "fr.override_user_request",
        trigger_words("ignor|oubli|tiens pas compte|tenez pas compte"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignore|ignorez|oublie|oubliez|ne\s+tiens\s+pas\s+compte\s+de|"
                r"ne\s+tenez\s+pas\s+compte\s+de)\s+(?:la|le|les)\s+(?:question|demande|requête|"
                r"message|consigne)s?\s+de\s+l'utilisat(?:eur|rice))",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "fr.instructions_void",
        ("tes", "vos"),
        LazyPattern(
            r"\b(?:tes|vos)\s+(?:\w+\s+){0,2}?(?:instructions|consignes|règles|directives|ordres)"
            r"\s+(?:[\w']+\s+){0,3}?(?:ne\s+(?:comptent|s'appliquent|valent|sont)\s+plus|"
            r"sont\s+(?:désormais\s+)?(?:annulées|caduques|obsolètes|nulles|révoquées)|"
            r"n'ont\s+plus\s+cours)"
        ),
    ),
    Rule(
        "fr.identity",
        trigger_words("tu es|vous êtes|t'es|désormais|dorénavant|à partir de|maintenant|à présent"),
        LazyPattern(
            fill(
                r"(?P<core>\b(?:tu\s+es|vous\s+êtes|t'es)\s+(?:maintenant|désormais|dorénavant|"
                r"à\s+présent|devenu|plus\s+une?)|"
                r"\b(?:désormais|dorénavant|à\s+partir\s+de\s+maintenant|"
                r"à\s+partir\s+d'aujourd'hui|maintenant|à\s+présent),?\s+(?:tu\s+es|tu\s+seras|"
                r"tu\s+agis|tu\s+réponds|tu\s+vas|vous\s+êtes|vous\s+serez|agis|réponds|"
                r"comporte-toi))\b⟨AI⟩",
                AI=_FR_AI,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "fr.pretend",
        trigger_words(
            "fais comme si|faites comme si|semblant|agis|agissez|comporte|joue le rôle|"
            "jouez le rôle|prétends|prétendez|incarne|en tant que"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:fais\s+comme\s+si\s+tu\s+étais|faites\s+comme\s+si\s+vous\s+étiez|"
                r"fais\s+semblant|faites\s+semblant|agis|agissez|comporte-toi|comportez-vous|"
                r"joue\s+le\s+rôle|jouez\s+le\s+rôle|prétends\s+être|prétendez\s+être|incarne|"
                r"incarnez|réponds\s+en\s+tant\s+que)\b)⟨AI⟩",
                AI=_FR_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "fr.want_you_to_act",
        ("que tu",),
        LazyPattern(
            r"\bje\s+(?:veux|voudrais|souhaite)\s+que\s+tu\s+(?:agisses|te\s+comportes|"
            r"joues\s+le\s+rôle|fasses\s+semblant|incarnes)\b"
        ),
    ),
    Rule(
        "fr.new_instructions",
        trigger_words(
            "nouvelle|vraie|véritable|secrète|cachée|message système|message du système|"
            "message de l'administrateur|tes|vos"
        ),
        LazyPattern(
            fill(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:nouvelles?|vraies?|véritables?|secrètes?|cachées?)\s+"
                r"(?:instructions?|consignes?|directives?|règles|tâche|ordres)\s*:|"
                r"\b(?:ta|votre)\s+(?:nouvelle|vraie|véritable|seule)\s+(?:tâche|mission|consigne|"
                r"instruction)\s+(?:est|consiste|sera)|"
                r"\bmessage\s+(?:système|du\s+système|de\s+l'administrateur)\s*:[^\n]{0,120}?"
                r"\b(?:tu|tes|ton|ta|te|vous|vos|votre)\b[^\n]{0,80}?(?:règles|consignes|"
                r"instructions|restrictions|filtres?|sécurité|désactivé|levé|supprimé)|"
                r"\b(?:tes|vos)\s+(?:\w+\s+){0,3}?(?:règles|consignes|instructions|restrictions)\s+"
                r"(?:\w+\s+){0,3}?(?:ont\s+été|sont)\s+(?:désormais\s+|maintenant\s+)?"
                r"(?:désactivé|annulé|remplacé|modifié|levé|supprimé)",
                P=PUNCT,
            ),
            re.M,
        ),
    ),
    Rule(
        "fr.reveal_prompt",
        trigger_words("prompt|message système|instructions|consignes|règles"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:montre|montre-moi|montrez|montrez-moi|affiche|affichez|révèle|"
                r"révélez|répète|répétez|donne|donne-moi|donnez|donnez-moi|écris|écrivez|imprime|"
                r"imprimez|divulgue|divulguez|dévoile|dévoilez|partage|partagez|copie|copiez|"
                r"récite|récitez|liste|listez|cite)\s+(?:moi\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:prompt\s+(?:du\s+|de\s+)?système|message\s+système|(?:instructions|consignes|"
                r"règles)\s+(?:initiales|d'origine|originales|cachées|secrètes|système|internes)))",
                W=WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "fr.addressed",
        _FR_AI_TRIGGERS,
        LazyPattern(
            fill(
                r"\b(?:note|message|avis|attention|instructions?|remarque|information|texte|"
                r"consigne|mot|avertissement)s?\s*,?\s+(?:pour|aux|à|à\s+l'attention\s+des?|"
                r"destinée?s?\s+aux)\s+(?:les\s+|tous\s+les\s+|toutes\s+les\s+)?⟨A⟩"
                r"[^:\n]{0,60}?\s*[:!]|"
                r"⟨A⟩\s+(?:qui\s+(?:lisent|lit|traitent|traite|résument|résume|analysent|analyse|"
                r"parcourent|indexent)|lisant|traitant|analysant)\s+(?:ce|cette|ces|le|la|les)\s+\w+"
                r"[^\n]{0,100}?(?:\b(?:doivent|doit|devront|devraient|devrait|sont\s+priés|"
                r"sont\s+tenus)\b|:)|"
                r"⟨IMP⟩(?:à|pour|aux)\s+(?:tous\s+les\s+|toutes\s+les\s+|les\s+)?⟨A⟩[^:\n]{0,60}?"
                r"\s*:|"
                r"⟨IMP⟩(?:attention|cher|chère|chers|salut|bonjour|hé|hey)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\bsi\s+(?:tu\s+es|vous\s+êtes|t'es)\s+(?:une?\s+)?(?:ia|intelligence\s+artificielle|"
                r"modèle\s+de\s+langage|grand\s+modèle\s+de\s+langage|assistant\s+(?:ia|d'ia|"
                r"virtuel)|agent\s+(?:ia|d'ia)|chatbot|llm)\b|"
                r"⟨IMP⟩(?:assistant|ia|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:avant|quand|lorsque|"
                r"si|s'il|ne|n'|ignore|ignorez|tu|vous|toujours|jamais|réponds|répondez|dis|dites|"
                r"ajoute|ajoutez|inclus|incluez|ouvre|ouvrez|envoie|envoyez|rappelle-toi|"
                r"souviens-toi|merci\s+de|veuillez)\b",
                A=_FR_ADDRESSEE,
            ),
            re.M,
        ),
    ),
    Rule(
        "fr.exfiltrate",
        trigger_words(
            "historique|conversation|discussion|échanges|utilisat|clé|clés|mot de passe|"
            "mots de passe|identifiants|prompt système"
        ),
        LazyPattern(
            fill(
                r"\b(?:envoie|envoyez|transfère|transférez|transmets|transmettez|publie|publiez|"
                r"poste|postez|ajoute|ajoutez|téléverse|téléversez|partage|partagez|copie|copiez|"
                r"colle|collez|joins|joignez)\b[^.!?\n]{0,80}?(?:historique|"
                # "la conversation", not a project's "questions et discussions" (bug reports)
                r"(?:la|cette|notre|votre|ta|toute\s+la)\s+(?:conversation|discussion)|"
                r"(?:nos|ces|vos|tes|les)\s+échanges|messages?\s+de\s+l'utilisat\w+|e-mails?\s+de\s+l'utilisat\w+|"
                r"courriels?\s+de\s+l'utilisat\w+|de\s+l'utilisat\w+|clés?\s+(?:d'\s*)?api|"
                r"mots?\s+de\s+passe|identifiants|prompt\s+système)[^!?\n]{0,80}?⟨T⟩",
                T=TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    Rule(
        "fr.tool_call",
        trigger_words("web_fetch|web_search|send_email|fetch_url|http_request|outil"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:appelle|appelez|utilise|utilisez|lance|lancez|exécute|exécutez|ouvre|"
                r"ouvrez|invoque|invoquez|déclenche)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|"
                r"send_email|fetch_url|http_request)|"
                r"\b(?:avec|via|grâce\s+à|à\s+l'aide\s+de)\s+(?:ton|votre|ta)\s+outil\s+"
                r"(?:de\s+(?:navigation|recherche|téléchargement|messagerie)|web|navigateur|shell)",
            ),
            re.M,
        ),
    ),
]
