"""Instruction-like rules in French, Spanish, Russian and Chinese for the families en_switch.py and
en_extraction.py cover in English: forgetting everything before a new task, repeating one's
instructions, and dictating how the reply begins or what it says."""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import (
    ZH_NOT_PUNCT,
    LazyPattern,
    Rule,
    fill,
    trigger_words,
)

_QUOTE = r"[\"'“‘«„「『]"

RULES = [
    Rule(
        "fr.switch",
        trigger_words("oublie|oubliez|répète|répétez|commence|commencez|réponds|répondez"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:oublie|oubliez)\s+tout(?:\s+ce\s+qui\s+précède|\s+ça)?\s*"
                r"(?:[,.!:;]+\s*(?:et\s+)?|\s+et\s+)(?:maintenant\s+|puis\s+)?(?:écris|écrivez|dis|dites|"
                r"réponds|répondez|tu\s+es|vous\s+êtes)\b|"
                r"(?:répète|répétez|affiche|affichez|traduis|traduisez)\s+(?:moi\s+)?(?:tes|vos)\s+"
                r"(?:\w+\s+)?(?:instructions|consignes|règles)\b|"
                r"(?:commence|commencez)\s+(?:ta|votre)\s+réponse\s+par\s*:?\s*⟨Q⟩|"
                r"(?:réponds|répondez)\s+(?:uniquement|seulement)\s+(?:par|avec)\s*:?\s*⟨Q⟩)",
                Q=_QUOTE,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "es.switch",
        trigger_words("olvida|olvide|repite|repita|comienza|empieza|comience|responde|responda"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:olvida|olvide|olviden)\s+todo(?:\s+lo\s+anterior|\s+eso)?\s*"
                r"(?:[,.!:;]+\s*(?:y\s+)?|\s+y\s+)(?:ahora\s+|luego\s+)?(?:escribe|escriba|di|diga|responde|"
                r"responda|eres|solo\s+tienes\s+que)\b|"
                r"(?:olvida|olvide)\s+todo\s+(?:lo\s+)?que\s+(?:te\s+)?(?:digo|dije|he\s+dicho)\s+"
                r"antes\b|"
                r"(?:repite|repita|muestra|muestre|traduce|traduzca)\s+(?:me\s+)?(?:tus|sus)\s+"
                r"(?:\w+\s+)?(?:instrucciones|reglas|indicaciones)\b|"
                r"(?:comienza|empieza|comience|empiece)\s+(?:tu|su)\s+respuesta\s+con\s*:?\s*⟨Q⟩|"
                r"(?:responde|responda)\s+(?:solo|solamente|únicamente)\s+con\s*:?\s*⟨Q⟩)",
                Q=_QUOTE,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "ru.switch",
        trigger_words("забудь|повтори|начни|начните|отвечай|ответь"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:забудь|забудьте)\s+(?:вс[её])(?:\s+(?:сказанное|что\s+было\s+выше|"
                r"выше))?\s*(?:[,.!:;]+\s*(?:и\s+)?|\s+и\s+)(?:теперь\s+|затем\s+)?(?:напиши|скажи|ответь|"
                r"отвечай|ты)\b|"
                r"(?:повтори|повторите|покажи|покажите|переведи)\s+(?:мне\s+)?(?:свои|ваши|твои)\s+"
                r"(?:\w+\s+)?(?:инструкции|правила|указания)\b|"
                r"(?:начни|начните)\s+(?:свой|ваш)\s+ответ\s+с\s*:?\s*⟨Q⟩|"
                r"(?:отвечай|ответь|отвечайте)\s+только\s*:?\s*⟨Q⟩)",
                Q=_QUOTE,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "zh.switch",
        trigger_words("忘记|忘掉|重复|复述|开头|只回答|只回复|只输出"),
        LazyPattern(
            fill(
                r"⟨IMPZH⟩(?P<core>(?:忘记|忘掉)(?:上面|之前|前面|以上)(?:说的|的)?(?:一切|所有内容|全部)|"
                r"(?:重复|复述)(?:一遍)?你的(?:⟨N⟩{0,4}?)(?:指令|指示|提示词|规则|设定)|"
                r"(?:回答|回复|输出)(?:请)?以⟨Q⟩⟨N⟩{0,40}?[”\"'』」]\s*(?:作为)?开头|"
                r"以⟨Q⟩⟨N⟩{0,40}?[”\"'』」]\s*(?:作为)?开头(?:来)?(?:回答|回复)|"
                r"(?:只回答|只回复|只输出)\s*⟨Q⟩)",
                Q=_QUOTE,
                N=ZH_NOT_PUNCT,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
]
