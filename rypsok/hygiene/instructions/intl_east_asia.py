"""Instruction-like rules in Japanese, Korean and Thai: override of earlier instructions,
instructions declared void, revealing the system prompt, a persona switch to an unrestricted AI,
a "new instructions:" header.

Japanese and Korean put the verb last: an override is a qualified object ("これまでの指示",
"이전 지시") that starts a clause, then an imperative ("無視してください", "무시하세요"); a
narrative ("彼は以前の指示を無視して…") has its subject before the object and is not flagged.
Thai writes no spaces between words and no full stops: its override must start a spaced chunk,
and "do not forget" (อย่าลืม) is not "forget".
"""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.intl_shapes import declared_void, header, persona
from rypsok.hygiene.instructions.patterns import (
    ZH_NOT_PUNCT,
    LazyPattern,
    Rule,
    fill,
    trigger_words,
)

_STRONG = r"(?<![a-z])(?:dan|jailbreak|developer\s+mode)(?![a-z])"

# Japanese ---------------------------------------------------------------------------------------
_JA_QUAL = (
    r"以前|これまで|今まで|前|上記|上|先ほど|先程|最初|元|当初|初期|既存|すべて|全て|あなたへ|"
    r"あなた|与えられた|受け取った|事前|前回|以上"
)
_JA_OBJECT = r"指示|命令|指令|ルール|規則|プロンプト|制約|ガイドライン"
_JA_STRICT = (
    r"(?:無視|破棄)(?:して(?:ください|下さい|くれ)|しろ|せよ|しなさい)|"
    r"忘れ(?:て(?:ください|下さい|くれ)|ろ|なさい)|(?:従わ|守ら|気にし)ないで(?:ください|下さい)?|従うな|"
    r"(?:無視|破棄)すること|忘れること"
)
# A bare te-form ("無視して") is an imperative when the sentence ends there or ends in one.
_JA_TE = r"(?:無視|破棄)して|忘れて|(?:無視|破棄)し(?=[、,])"
_JA_TE_END = (
    r"(?=\s*(?:[。！!\n」』\"”]|$)|[、,]?[^。！？!?\n]{0,150}?(?:ください|下さい|なさい|しろ|せよ|"
    r"てくれ|(?:て|で)\s*(?:[。！!\n]|$)))"
)
_JA_AI = r"(?:(?<![a-z])ai(?![a-z])|人工知能|アシスタント|モデル|チャットボット|ボット)"
_JA_UNRESTRICTED = (
    r"(?:制限|制約|規制|ルール|フィルター|検閲|倫理)(?:の|が|も|を)?(?:一切)?(?:ない|無い|なし|"
    r"ありません|受けない|持たない)|無制限"
)
_JA_STRONG = rf"(?:開発者モード|デベロッパーモード|脱獄|{_STRONG})"

# Korean -----------------------------------------------------------------------------------------
_KO_LEAD = r"(?:(?:이제|지금부터|지금|제발|반드시|그리고|먼저)\s*)?"
_KO_QUAL = (
    r"이전|앞의|앞선|앞에서|위의|위에|위|기존|모든|원래|초기|처음|당신의|당신에게|너의|너에게|"
    r"네게|지금까지의|지금까지|주어진|받은"
)
_KO_OBJECT = r"(?:지시|지침|명령|프롬프트|지령|규칙)(?:\s*사항)?"
_KO_VERB = (
    r"(?:무시|폐기)(?:하세요|하십시오|하시오|해라|해요|해\s*주세요|해줘|해|하라)|"
    r"잊어\s*버(?:려|리세요|려라|리십시오|려요)|잊(?:으세요|어라|어요|어|으십시오)|"
    r"따르지\s*(?:마세요|마십시오|마라|마)|신경\s*쓰지\s*(?:마세요|마)"
)
_KO_AND = r"(?:무시하고|잊고|잊어버리고|따르지\s*말고)"
_KO_AND_END = r"(?=[^.!?\n]{0,150}?(?:세요|십시오|하라|해라|해\s*줘|해줘|줘|라)(?:[.!?\n]|$))"
_KO_AI = r"(?:(?<![a-z])ai(?![a-z])|인공지능|어시스턴트|비서|모델|챗봇|봇)"
_KO_UNRESTRICTED = (
    r"(?:제한|제약|규칙|필터|검열|규제)(?:이|은|도|가)?\s*(?:전혀\s*|아무\s*)?(?:없는|없이|없다|없어|"
    r"없습니다)|무제한"
)
_KO_STRONG = rf"(?:개발자\s*모드|탈옥|{_STRONG})"

# Thai -------------------------------------------------------------------------------------------
_TH_START = r"(?:^|(?<=[\s\"'“(\[:：!?.]))(?:(?:กรุณา|โปรด|จง|ตอนนี้|ต่อจากนี้|จากนี้ไป|และ)\s*)?"
_TH_VERB = (
    r"(?<!อย่า)(?<!ไม่)(?:เพิกเฉย(?:ต่อ)?|เมินเฉย(?:ต่อ)?|ละเว้น|ละเลย|ไม่ต้องสนใจ|ไม่สนใจ|อย่าสนใจ|ลืม|ลบล้าง|"
    r"ไม่ต้องทำตาม|อย่าทำตาม|ไม่ต้องปฏิบัติตาม|อย่าปฏิบัติตาม)"
)
_TH_OBJECT = r"(?:คำสั่ง|คำแนะนำ|ข้อความแจ้ง|กฎ|ข้อกำหนด|พรอมต์|พรอมท์|prompt|ข้อปฏิบัติ)"
_TH_QUAL = (
    r"(?:ก่อนหน้า|ข้างต้น|ด้านบน|ข้างบน|ทั้งหมด|เดิม|แรกเริ่ม|เริ่มต้น|ของคุณ|ที่ได้รับ|ก่อนนี้|ที่แล้ว|"
    r"ที่ผ่านมา)"
)
_TH_AI = r"(?:(?<![a-z])ai(?![a-z])|ปัญญาประดิษฐ์|ผู้ช่วย|โมเดล|แชทบอท|บอท)"
_TH_UNRESTRICTED = r"(?:ไม่มี|ปราศจาก|ไร้|ไม่มีการ)\s*(?:ข้อจำกัด|ขีดจำกัด|กฎ|การเซ็นเซอร์|การจำกัด)"
_TH_STRONG = rf"(?:โหมดนักพัฒนา|{_STRONG})"


def _rule(name: str, triggers: str, pattern: str, mention: bool = True) -> Rule:
    return Rule(name, trigger_words(triggers), LazyPattern(pattern, re.M), mention_veto=mention)


RULES = [
    # Japanese
    _rule(
        "ja.override",
        "無視|破棄|忘れ|従わ|守ら|気にし|従う",
        fill(
            r"⟨IMPZH⟩(?P<core>(?:今すぐ|まず|では|それでは)?(?:⟨Q⟩)(?:の|で|に)?⟨N⟩{0,10}?(?:⟨O⟩)"
            r"(?:は|を|も|など)?(?:すべて|全て|全部|一切)?[、,]?\s*(?:⟨S⟩|(?:⟨TE⟩)⟨TEEND⟩))",
            Q=_JA_QUAL,
            O=_JA_OBJECT,
            S=_JA_STRICT,
            TE=_JA_TE,
            TEEND=_JA_TE_END,
            N=ZH_NOT_PUNCT,
        ),
    ),
    _rule(
        "ja.override_everything",
        "無視|破棄|忘れ|従わ|守ら|気にし|従う",
        fill(
            r"⟨IMPZH⟩(?P<core>(?:上記|以上|これまで|今まで)の(?:内容|会話|こと|すべて|全て)|"
            r"(?:あなたが)?(?:これまでに|今までに|以前に)?言われたこと)(?:は|を)?(?:すべて|全て|全部)?"
            r"[、,]?\s*(?:⟨S⟩|(?:⟨TE⟩)⟨TEEND⟩)",
            S=_JA_STRICT,
            TE=_JA_TE,
            TEEND=_JA_TE_END,
        ),
    ),
    _rule(
        "ja.instructions_void",
        "無効|取り消され|廃止され|適用されません|破棄され",
        declared_void(
            r"(?:あなたの)?(?:以前|これまで|前|元|最初)の(?:指示|命令|ルール|設定)(?:は|も)",
            r"(?:もう|もはや|すべて|全て)?(?:無効|取り消され|廃止され|適用されません|破棄され)",
        ),
        mention=False,
    ),
    _rule(
        "ja.reveal_prompt",
        "システムプロンプト|システムメッセージ|初期指示|最初の指示|元の指示|隠された指示|内部の指示|"
        "system prompt|初期プロンプト",
        fill(
            r"(?P<core>(?:あなたの)?(?:システムプロンプト|システムメッセージ|初期指示|初期プロンプト|"
            r"最初の指示|元の指示|隠された指示|内部の指示|system\s*prompt)(?:を|の内容を|の全文を)?"
            r"(?:そのまま|すべて|全て|全文)?(?:表示|出力|開示|公開|印刷|書き出|繰り返|教え|見せ)"
            r"(?:して(?:ください|下さい|くれ)?|しろ|せよ|てください|て(?:ください|下さい|くれ)?|ろ|"
            r"しなさい)(?=\s*(?:[。！!、,\n]|$)))",
        ),
    ),
    _rule(
        "ja.identity",
        "あなたは|君は|お前は|今から|これから|今日から",
        persona(
            r"(?:(?:今から|これから|今日から|ここから)[、,]?\s*)?(?:あなた|君|お前)は"
            r"(?:今から|これから|今|もう)?",
            _JA_AI,
            _JA_UNRESTRICTED,
            _JA_STRONG,
            r"を|できます|有効",
        ),
    ),
    _rule(
        "ja.new_instructions",
        "新しい|新たな|あなたの新しい",
        header(r"(?:新しい|新たな)(?:システム)?(?:指示|命令|指令)")
        + r"|あなたの新しい(?:タスク|任務|指示|役割)は",
        mention=False,
    ),
    # Korean
    _rule(
        "ko.override",
        "지시|지침|명령|프롬프트|지령|규칙",
        fill(
            r"⟨IMPZH⟩(?P<core>⟨L⟩(?:⟨Q⟩)\s*(?:의\s*)?(?:[^\s.,;:!?]+\s+){0,2}?(?:⟨O⟩)[^\s.,;:!?]*\s*"
            r"(?:(?:모두|전부|다|전부\s*다)\s*)?(?:(?:⟨V⟩)(?![가-힣])|⟨AND⟩⟨ANDEND⟩))",
            L=_KO_LEAD,
            Q=_KO_QUAL,
            O=_KO_OBJECT,
            V=_KO_VERB,
            AND=_KO_AND,
            ANDEND=_KO_AND_END,
        ),
    ),
    _rule(
        "ko.instructions_void",
        "지시|지침|명령",
        declared_void(
            r"(?:당신|너)의\s+(?:이전|기존|원래)\s*(?:지시|지침|명령)(?:사항)?(?:은|는|이)?",
            r"(?:더\s*이상\s*)?(?:유효하지\s*않|무효|취소되었|적용되지\s*않|폐기되었)",
        ),
        mention=False,
    ),
    _rule(
        "ko.reveal_prompt",
        "시스템 프롬프트|시스템프롬프트|시스템 메시지|초기 지시|원래 지시|숨겨진 지시|초기 지침|"
        "system prompt",
        fill(
            r"(?P<core>(?:당신의|너의|네)?\s*(?:시스템\s*프롬프트|시스템\s*메시지|초기\s*지시|원래\s*지시|"
            r"숨겨진\s*지시|초기\s*지침|system\s*prompt)(?:사항)?(?:을|를)?\s*(?:그대로\s*|전부\s*|모두\s*)?"
            r"(?:보여|출력해|알려|반복해|공개해|말해|적어|써)\s*(?:주세요|줘|주십시오|라|봐|요)?)"
            r"(?=\s*(?:[.!?,\n]|$))",
        ),
    ),
    _rule(
        "ko.identity",
        "너는|당신은|넌|이제|지금부터|앞으로|오늘부터",
        persona(
            r"(?:(?:이제|지금부터|앞으로|오늘부터)\s*(?:부터\s*)?(?:너는|당신은|넌)|(?:너는|당신은|넌)\s*"
            r"(?:이제|지금부터))",
            _KO_AI,
            _KO_UNRESTRICTED,
            _KO_STRONG,
            r"를|을|켜|활성화|할\s*수",
        ),
    ),
    _rule(
        "ko.new_instructions",
        "새로운|새 지시|새 명령|새 지침|새로운 임무",
        header(r"(?:새로운|새)\s*(?:시스템\s*)?(?:지시|지침|명령)(?:사항)?")
        + r"|(?:당신|너)의\s+새로운\s+(?:임무|작업|과제|역할)(?:은|는)",
        mention=False,
    ),
    # Thai
    _rule(
        "th.override",
        "เพิกเฉย|ละเว้น|ละเลย|ไม่ต้องสนใจ|ไม่สนใจ|อย่าสนใจ|ลืม|ลบล้าง|ไม่ต้องทำตาม|อย่าทำตาม|ไม่ต้องปฏิบัติตาม|อย่าปฏิบัติตาม|เมินเฉย",
        fill(
            r"(?P<core>⟨START⟩⟨V⟩\s*(?:ทุก|ทั้งหมด)?(?:ข้อ)?\s*⟨O⟩[^\s]{0,20}?(?:\s?[^\s]{1,12}?)??⟨Q⟩)",
            START=_TH_START,
            V=_TH_VERB,
            O=_TH_OBJECT,
            Q=_TH_QUAL,
        ),
    ),
    _rule(
        "th.instructions_void",
        "คำสั่ง|คำแนะนำ",
        declared_void(
            r"(?:คำสั่ง|คำแนะนำ)(?:ก่อนหน้า(?:นี้)?|เดิม)(?:ทั้งหมด)?(?:ของคุณ)",
            r"(?:ไม่มีผล|ใช้ไม่ได้|ถูกยกเลิก|เป็นโมฆะ)",
        ),
        mention=False,
    ),
    _rule(
        "th.reveal_prompt",
        "พรอมต์ระบบ|พรอมท์ระบบ|system prompt|ข้อความระบบ|คำสั่งเริ่มต้น|คำสั่งดั้งเดิม|คำแนะนำเริ่มต้น|คำสั่งที่ซ่อน",
        fill(
            r"(?P<core>(?:แสดง|เปิดเผย|บอก|พิมพ์|ทวน|ทำซ้ำ|เขียน)\s*(?:ให้ฉัน(?:ดู)?\s*)?"
            r"(?:(?:พรอมต์|พรอมท์)ระบบ|system\s*prompt|(?:ข้อความระบบ|คำสั่งเริ่มต้น|คำสั่งดั้งเดิม|"
            r"คำแนะนำเริ่มต้น|คำสั่งที่ซ่อน(?:อยู่)?)\s*ของคุณ))",
        ),
    ),
    _rule(
        "th.identity",
        "ตอนนี้คุณ|จากนี้ไป|ต่อจากนี้|นับจากนี้|ตอนนี้ คุณ",
        persona(
            r"(?:ตอนนี้|จากนี้ไป|ต่อจากนี้(?:ไป)?|นับจากนี้(?:ไป)?)\s*คุณ(?:คือ|เป็น|จะเป็น)?",
            _TH_AI,
            _TH_UNRESTRICTED,
            _TH_STRONG,
            r"สามารถ|เปิด|ได้",
        ),
    ),
    _rule(
        "th.new_instructions",
        "คำสั่งใหม่|คำแนะนำใหม่|งานใหม่ของคุณ",
        header(r"(?:คำสั่ง|คำแนะนำ)ใหม่") + r"|งานใหม่ของคุณ(?:คือ|\s*:)",
        mention=False,
    ),
]

# "If you are an AI ...", the AI word the whole complement.
_ADDRESSED = [
    (
        "ja.addressed",
        "あなたが",
        r"(?:もし)?あなたが(?:ai(?:アシスタント)?|人工知能|(?:大規模)?言語モデル|チャットボット)"
        r"(?:である|です)?なら(?:ば)?",
    ),
    (
        "ko.addressed",
        "당신이|네가|너가",
        r"(?:만약\s*)?(?:당신이|네가|너가)\s*(?:ai(?:\s*어시스턴트)?|인공지능|언어\s*모델|챗봇)(?:이)?라면",
    ),
    (
        "th.addressed",
        "ถ้าคุณเป็น|หากคุณเป็น",
        r"(?:ถ้า|หาก)คุณเป็น\s*(?:ai|ปัญญาประดิษฐ์|โมเดลภาษา|ผู้ช่วย\s*ai|แชทบอท)(?=\s|$|ที่)",
    ),
]
RULES += [_rule(name, triggers, pattern, mention=False) for name, triggers, pattern in _ADDRESSED]
