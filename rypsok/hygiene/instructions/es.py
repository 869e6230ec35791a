"""Instruction-like rules: Spanish."""

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

_ES_OVERRIDE_VERBS = (
    r"ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|descarta|"
    r"descarte|descarten|haz\s+caso\s+omiso|haga\s+caso\s+omiso|hagan\s+caso\s+omiso|"
    r"hacer\s+caso\s+omiso|no\s+hagas\s+caso|no\s+haga\s+caso|no\s+hagan\s+caso|"
    r"deja\s+de\s+seguir|deje\s+de\s+seguir|dejen\s+de\s+seguir|no\s+sigas|no\s+siga|no\s+sigan|"
    r"desobedece|desobedezca|omite|omita|pasa\s+por\s+alto|pase\s+por\s+alto|"
    r"no\s+tengas\s+en\s+cuenta|no\s+tenga\s+en\s+cuenta|no\s+tengan\s+en\s+cuenta|"
    r"no\s+tener\s+en\s+cuenta|anula|anule|deja\s+a\s+un\s+lado|deje\s+a\s+un\s+lado|"
    r"dejad\s+a\s+un\s+lado|aparta|aparte|pon\s+a\s+un\s+lado"
)
_ES_QUALS = (
    r"anteriores|anterior|previas?|previos?|precedentes|de\s+arriba|anteriormente|iniciales|"
    r"originales|tus|sus|vuestras|vuestros|todas|todos|recibidas|dadas|primeras|"
    r"existentes|mencionadas|que\s+(?:recibiste|te\s+dieron|se\s+te\s+dieron|te\s+han\s+dado)"
)
_ES_OBJECTS = (
    r"instrucciones|instrucción|indicaciones|órdenes|reglas|normas|directrices|directivas|"
    r"comandos|prompts?|consignas|programación|restricciones|limitaciones|"
    r"prompt\s+del?\s+sistema|pautas"
)
_ES_AI = fill(
    r"(?:[^\n]{0,150}?⟨J⟩|\s*,?\s*(?:[^\s.,;:!?]+\s+){0,3}?⟨N⟩"
    r"(?=\s*(?:[,.;:!?)\"'»”]|$)|\s+(?:que|sin|con|llamad[oa]|y)\b))",
    J=r"(?:\bdan\b|jailbreak|modo\s+desarrollador|sin\s+(?:ninguna\s+|ningún\s+|ningun\s+)?"
    r"(?:\w+\s+)?(?:restricci|límite|limite|reglas|filtro|censura|política)|no\s+tiene\s+reglas|"
    r"nunca\s+se\s+niega|sin\s+censura|terminal\s+de\s+linux)",
    N=r"(?:ia|inteligencia\s+artificial|asistente|chatbot|bot|modelo(?:\s+de\s+lenguaje)?|llm|"
    r"chatgpt|gpt\w*)",
)
_ES_ADDRESSEE = (
    r"(?:ias?\b|asistentes?\s+(?:de\s+ia|ia|virtuales?)|agentes?\s+(?:de\s+ia|ia)|"
    r"modelos?\s+(?:de\s+lenguaje|de\s+ia|ia)|llms?\b|chatgpt|claude|gemini|copilot|chatbots?|"
    r"inteligencias?\s+artificiales?|sistemas?\s+de\s+ia)"
)
_ES_AI_TRIGGERS = trigger_words(
    "ia|ias|modelo|llm|chatgpt|claude|gemini|copilot|chatbot|inteligencia"
)

RULES = [
    Rule(
        "es.override",
        trigger_words(
            "ignor|olvid|descart|caso omiso|no hagas caso|no haga caso|no hagan caso|"
            "de seguir|no sig|desobedec|omit|por alto|en cuenta|anul|a un lado|apart"
        ),
        LazyPattern(override_pattern(_ES_OVERRIDE_VERBS, _ES_QUALS, _ES_OBJECTS), re.M),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "es.override_everything",
        trigger_words("olvid|ignor|no hagas caso|no haga caso"),
        LazyPattern(
            everything_before(
                r"olvida|olvide|olviden|olvidad|ignora|ignore|ignoren|ignorad|"
                r"no\s+hagas\s+caso\s+a|no\s+haga\s+caso\s+a",
                "todo",
                r"lo\s+anterior|lo\s+de\s+arriba|lo\s+previo|lo\s+precedente|lo\s+que\s+precede|"
                r"lo\s+que\s+(?:está|hay|aparece|viene|vino)\s+(?:arriba|antes)|lo\s+dicho",
                r"dijo|dicho|dije|dijimos|dijeron|escrito|escribió|escribí|mencionado|mencionó|"
                r"hablado|hablamos|indicado|comentado|explicado|pedido",
                r"antes|anteriormente|previamente|arriba|hasta\s+ahora|hasta\s+aquí",
                also=r"lo\s+que\s+(?:te|le|se\s+te|se\s+le)\s+(?:han\s+|ha\s+|habían\s+)?"
                r"(?:dijeron|dicho|dije|dijimos|ordenaron|ordenado|indicaron|indicado|pidieron|"
                r"pedido|enseñaron|enseñado)",
            ),
            re.M,
        ),
        mention_veto=True,
        topic_veto=True,
    ),
    Rule(
        "es.override_user_request",
        trigger_words("ignor|olvid|no respondas"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignora|ignore|ignoren|olvida|olvide|olviden|no\s+respondas\s+a)"
                r"\s+(?:la|el|las|los)\s+(?:pregunta|petición|solicitud|consulta|mensaje|"
                r"instrucción|pedido)s?\s+del\s+usuario)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "es.instructions_void",
        ("tus", "sus", "vuestras"),
        LazyPattern(
            r"\b(?:tus|sus|vuestras)\s+(?:\w+\s+){0,2}?(?:instrucciones|reglas|indicaciones|normas|"
            r"directrices|órdenes)\s+(?:\w+\s+){0,3}?(?:ya\s+no\s+(?:son\s+válidas|valen|aplican|"
            r"se\s+aplican|cuentan|rigen|están\s+vigentes)|(?:han\s+sido|quedan|están)\s+"
            r"(?:anuladas|revocadas|canceladas|obsoletas))"
        ),
    ),
    Rule(
        "es.identity",
        trigger_words(
            "ahora eres|ahora serás|ya eres|ya no eres|ahora estás|ahora usted es|"
            "a partir de|desde ahora|en adelante|desde este"
        ),
        LazyPattern(
            fill(
                r"(?P<core>\b(?:ahora\s+eres|ahora\s+serás|ya\s+eres|ya\s+no\s+eres|"
                r"ahora\s+estás\s+en|ahora\s+usted\s+es)|"
                r"\b(?:a\s+partir\s+de\s+ahora|desde\s+ahora|de\s+ahora\s+en\s+adelante|"
                r"a\s+partir\s+de\s+este\s+momento|desde\s+este\s+momento),?\s+(?:eres|serás|"
                r"vas\s+a|actuarás|responderás|actúa|actúas|responde|respondes|te\s+llamas|estás|"
                r"usted\s+es))\b⟨AI⟩",
                AI=_ES_AI,
            )
        ),
        mention_veto=True,
    ),
    Rule(
        "es.pretend",
        trigger_words(
            "fing|simul|actúa|actúe|compórt|haz de|haga de|haz como si|interpret|papel|"
            "responde como"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:finge|finja|fingid|simula|simule|actúa|actúe|actúen|compórtate|"
                r"compórtese|haz\s+de|haga\s+de|haz\s+como\s+si|interpreta|interprete|"
                r"haz\s+el\s+papel|responde\s+como)\b)⟨AI⟩",
                AI=_ES_AI,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "es.want_you_to_act",
        ("quiero que", "querría que", "me gustaría que"),
        LazyPattern(
            r"\b(?:quiero|querría|me\s+gustaría)\s+que\s+(?:actúes|finjas|te\s+comportes|"
            r"hagas\s+de|interpretes|simules)\b"
        ),
    ),
    Rule(
        "es.new_instructions",
        trigger_words("nueva|verdadera|real|secreta|oculta|mensaje del sistema|tus|sus"),
        LazyPattern(
            fill(
                r"(?:^|(?<=[⟨P⟩])\s*)(?:nuevas?|verdaderas?|reales?|secretas?|ocultas?)\s+"
                r"(?:instrucciones|instrucción|órdenes|reglas|tarea|directrices|normas)\s*:|"
                r"\b(?:tu|su)\s+(?:nueva|verdadera|única|real)\s+(?:tarea|misión|instrucción|"
                r"función)\s+(?:es|será|consiste)|"
                r"\bmensaje\s+del\s+sistema\s*:[^\n]{0,120}?\b(?:tu|tus|te|usted|su|sus)\b"
                r"[^\n]{0,80}?(?:reglas|normas|instrucciones|restricciones|filtros?|seguridad|"
                r"desactivad|anulad|eliminad)|"
                r"\b(?:tus|sus)\s+(?:\w+\s+){0,3}?(?:reglas|normas|instrucciones|restricciones|"
                r"directrices)\s+(?:\w+\s+){0,3}?(?:han\s+sido|fueron|están|quedan)\s+"
                r"(?:desactivad|anulad|reemplazad|cambiad|eliminad|suspendid)",
                P=PUNCT,
            ),
            re.M,
        ),
    ),
    Rule(
        "es.reveal_prompt",
        trigger_words("prompt|mensaje del sistema|instrucciones|reglas|indicaciones"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:muestra|muéstrame|muestre|muéstreme|revela|revele|repite|repita|"
                r"imprime|imprima|escribe|escriba|dime|dígame|di|comparte|comparta|divulga|copia|"
                r"enumera|lista|dame|deme)\s+(?:me\s+)?(?:⟨W⟩\s+){0,3}?"
                r"(?:prompt\s+(?:del|de)\s+sistema|mensaje\s+del\s+sistema|(?:instrucciones|reglas|"
                r"indicaciones)\s+(?:iniciales|originales|ocultas|secretas|del\s+sistema|"
                r"de\s+sistema|internas)))",
                W=WORD,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "es.addressed",
        _ES_AI_TRIGGERS,
        LazyPattern(
            fill(
                r"\b(?:nota|mensaje|aviso|atención|instrucciones?|información|texto|advertencia|"
                r"recordatorio)\s*,?\s+(?:para|a)\s+(?:los\s+|las\s+|todos\s+los\s+|"
                r"todas\s+las\s+|cualquier\s+)?⟨A⟩[^:\n]{0,60}?\s*[:!]|"
                r"⟨A⟩\s+(?:que\s+(?:lean|lee|leen|procesen|procesa|procesan|resuman|resume|analicen|"
                r"analizan|rastreen)|leyendo|procesando|analizando)\s+(?:este|esta|estos|estas|el|la|"
                r"los|las)\s+\w+[^\n]{0,100}?(?:\b(?:deben|debe|deberán|deberían|debería|"
                r"tienen\s+que|han\s+de)\b|:)|"
                r"⟨IMP⟩(?:a|para)\s+(?:todos\s+los\s+|todas\s+las\s+|los\s+|las\s+|cualquier\s+)?"
                r"⟨A⟩[^:\n]{0,60}?\s*:|"
                r"⟨IMP⟩(?:atención|querido|querida|hola|oye|estimado)\s*,?\s+⟨A⟩\s*[,:!.]|"
                r"\bsi\s+(?:eres|usted\s+es|es\s+usted)\s+(?:una?\s+)?(?:ia|inteligencia\s+artificial|"
                r"modelo\s+de\s+lenguaje|gran\s+modelo\s+de\s+lenguaje|asistente\s+de\s+ia|"
                r"agente\s+de\s+ia|chatbot|llm)\b|"
                r"⟨IMP⟩(?:asistente|ia|chatgpt|claude|gemini|llm)\s*[,:]\s+(?:antes|cuando|si|no|"
                r"ignora|ignore|tú|tu|usted|siempre|nunca|responde|di|añade|incluye|abre|envía|"
                r"recuerda|por\s+favor)\b",
                A=_ES_ADDRESSEE,
            ),
            re.M,
        ),
    ),
    Rule(
        "es.exfiltrate",
        trigger_words(
            "historial|conversación|chat|usuario|clave|contraseña|credenciales|prompt del sistema"
        ),
        LazyPattern(
            fill(
                r"\b(?:envía|envíe|envíen|envia|reenvía|reenvíe|reenvia|manda|mande|publica|"
                r"publique|publícal\w*|sube|suba|añade|añada|agrega|agregue|adjunta|adjunte|"
                r"comparte|comparta|transmite|transmita|copia|pega)\b[^.!?\n]{0,80}?(?:historial|"
                r"conversación|chat|mensajes?\s+del\s+usuario|correos?\s+del\s+usuario|"
                r"del\s+usuario|claves?\s+(?:de\s+)?api|contraseñas?|credenciales|"
                r"prompt\s+del\s+sistema)[^!?\n]{0,80}?⟨T⟩",
                T=TARGET,
            )
        ),
        negation_veto=True,
        recipient_veto=True,
    ),
    Rule(
        "es.tool_call",
        trigger_words("web_fetch|web_search|send_email|fetch_url|http_request|herramienta"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:llama|llame|usa|use|utiliza|utilice|ejecuta|ejecute|invoca|invoque|abre|"
                r"abra|lanza)\b[^.!?\n]{0,40}?(?:web_fetch|web_search|send_email|fetch_url|"
                r"http_request)|"
                r"\b(?:con|mediante|usando|utilizando)\s+(?:tu|su)\s+herramienta\s+"
                r"(?:de\s+(?:navegación|búsqueda|correo|descarga)|web|shell)",
            ),
            re.M,
        ),
    ),
]
