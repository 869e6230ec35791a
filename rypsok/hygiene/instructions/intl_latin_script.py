"""Instruction-like rules in Indonesian and Malay, Vietnamese, Tagalog and Swahili (languages
written in the Latin script with no table of their own): override of earlier instructions,
"forget everything you were told", instructions declared void, revealing the system prompt, a
persona switch to an unrestricted AI, a "new instructions:" header.

Their imperatives carry their own lead-in words ("hãy", "tolong", "pakiusap", "tafadhali"), which
the rules hold, so an override starts a clause or follows one of them. Vietnamese "bỏ qua" is
also "skip" (a manual's "skip the steps above"): it needs "all" or "your" or "previous".
"""

from __future__ import annotations

from rypsok.hygiene.instructions.intl_shapes import declared_void, header, persona, rule
from rypsok.hygiene.instructions.patterns import everything_before, fill

_STRONG = r"(?<![a-z])(?:dan|jailbreak|developer\s+mode)(?![a-z])"
_W = r"[^\s.,;:!?]+"


# Indonesian and Malay ---------------------------------------------------------------------------
_ID_LEAD = r"(?:(?:tolong|mohon|silakan|sila|harap|sekarang|lalu|dan|segera)\s+)?"
_ID_VERB = (
    r"abaikan(?:lah)?|lupakan(?:lah)?|jangan\s+(?:hiraukan|pedulikan|ikuti|turuti|patuhi)|"
    r"acuhkan|tinggalkan|buang|batalkan|kesampingkan|tidak\s+usah\s+(?:mengikuti|mematuhi)"
)
_ID_OBJECT = (
    r"instruksi|petunjuk|arahan|perintah|aturan|peraturan|prompt|pedoman|panduan|ketentuan|"
    r"batasan|sekatan"
)
_ID_QUAL = (
    r"sebelumnya|sebelum\s+ini|terdahulu|di\s+atas|tadi|semua|seluruh|segala|awal|asli|anda|"
    r"kamu|awak|mu|yang\s+(?:diberikan|telah\s+diberikan|kamu\s+terima|anda\s+terima)"
)
_ID_TOPIC = r"(?!\s+(?:tentang|mengenai|terkait|soal|berkenaan)\b)"
_ID_AI = r"(?:kecerdasan\s+buatan|(?<![a-z])(?:ai|ia|llm)(?![a-z])|asisten|pembantu|model|chatbot)"
_ID_UNRESTRICTED = (
    r"tanpa\s+(?:ada\s+)?(?:batasan|batas|pembatasan|aturan|sekatan|filter|sensor|had)\w*|"
    r"tidak\s+(?:memiliki|punya|mempunyai|ada)\s+(?:batasan|aturan|sekatan|had)\w*"
)

# Vietnamese -------------------------------------------------------------------------------------
_VI_LEAD = r"(?:(?:hãy|vui\s+lòng|xin|bây\s+giờ|giờ|và|rồi|ngay)\s+){0,2}"
_VI_OBJECT = (
    r"hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị|mệnh\s+lệnh|lệnh|quy\s+tắc|quy\s+định|lời\s+nhắc|prompt"
)
_VI_QUAL_ANY = r"trước\s+đó|trước\s+đây|ở\s+trên|phía\s+trên|bên\s+trên|ban\s+đầu|gốc|của\s+bạn"
_VI_QUAL_STRONG = r"tất\s+cả|mọi|toàn\s+bộ|trước\s+đó|trước\s+đây|ban\s+đầu|của\s+bạn"
_VI_AI = r"(?:trí\s+tuệ\s+nhân\s+tạo|(?<![a-z])ai(?![a-z])|trợ\s+lý|mô\s+hình|chatbot)"
_VI_UNRESTRICTED = (
    r"không\s+(?:có\s+)?(?:bất\s+kỳ\s+|bất\s+cứ\s+|một\s+)?(?:giới\s+hạn|hạn\s+chế|ràng\s+buộc|"
    r"quy\s+tắc|kiểm\s+duyệt)\s*(?:nào)?|không\s+bị\s+(?:giới\s+hạn|hạn\s+chế|ràng\s+buộc)"
)

# Tagalog ----------------------------------------------------------------------------------------
_TL_LEAD = r"(?:(?:pakiusap|paki|ngayon|at|ngayon\s+ay)[,\s]+)?"
_TL_VERB = (
    r"(?:huwag|wag|'wag)\s+(?:mo\s+)?(?:pansinin|intindihin|sundin|pakinggan)|balewalain|"
    r"ipagwalang-bahala|(?<!huwag\s)(?<!wag\s)kalimutan|isantabi|kaligtaan"
)
_TL_OBJECT = (
    r"tagubilin|instruksyon|instruksiyon|utos|panuto|alituntunin|patakaran|direksyon|prompt"
)
_TL_QUAL = r"nauna|naunang|nakaraan|nakaraang|dati|dating|lahat|iyong|mo|sa\s+itaas|orihinal|unang"
_TL_AI = r"(?:artificial\s+intelligence|(?<![a-z])ai(?![a-z])|katulong|assistant|modelo|chatbot)"
_TL_UNRESTRICTED = (
    r"walang\s+(?:anumang\s+|kahit\s+anong\s+)?(?:limitasyon|paghihigpit|restriksyon|"
    r"patakaran|panuntunan|filter|sensura)"
)

# Swahili ----------------------------------------------------------------------------------------
_SW_LEAD = r"(?:(?:tafadhali|sasa|kisha|na)\s+)?"
_SW_VERB = (
    r"puuza|puuzeni|sahau|sahauni|usifuate|msifuate|achana\s+na|acha\s+kufuata|tupilia\s+mbali"
)
_SW_OBJECT = r"maagizo|maelekezo|amri|sheria|kanuni|agizo|miongozo|mwongozo"
_SW_QUAL = (
    r"yote|zote|yaliyotangulia|zilizotangulia|ya\s+awali|za\s+awali|ya\s+hapo\s+awali|"
    r"ya\s+zamani|yaliyopita|zilizopita|hapo\s+juu|ya\s+juu|yako|zako|ulizopewa|uliyopewa|"
    r"uliyopokea"
)
_SW_AI = r"(?:akili\s+bandia|(?<![a-z])ai(?![a-z])|msaidizi|modeli|chatbot)"
_SW_UNRESTRICTED = (
    r"bila\s+(?:vikwazo|mipaka|sheria|vizuizi|kikomo|udhibiti)|(?:hakuna|huna|haina)\s+"
    r"(?:vikwazo|mipaka|sheria|vizuizi)"
)

RULES = [
    # Indonesian and Malay
    rule(
        "id.override",
        "abaikan|lupakan|jangan|acuhkan|tinggalkan|buang|batalkan|kesampingkan|tidak usah",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:⟨V⟩)\s+(?:⟨W⟩\s+){0,3}?(?:⟨O⟩)(?:-(?:⟨O⟩))?(?:nya|mu)?"
            r"(?:\s+⟨W⟩){0,2}?\s+(?:⟨Q⟩)(?:\s+(?:⟨Q⟩))*\b|⟨L⟩(?:⟨V⟩)\s+(?:semua|seluruh|segala)\s+(?:⟨W⟩\s+){0,2}?"
            r"(?:⟨O⟩)\b)⟨T⟩",
            L=_ID_LEAD,
            V=_ID_VERB,
            O=_ID_OBJECT,
            Q=_ID_QUAL,
            W=_W,
            T=_ID_TOPIC,
        ),
    ),
    rule(
        "id.override_everything",
        "lupakan|abaikan",
        everything_before(
            r"(?:lupakan|abaikan)(?:lah)?",
            r"(?:semua|segala|segalanya|semuanya)(?:\s+hal)?",
            r"(?:yang\s+)?(?:di\s+atas|sebelumnya|tadi)|sebelum\s+ini",
            r"dikatakan|ditulis|disebutkan|dibahas|dibicarakan|bicarakan|katakan|diberikan|"
            r"diperintahkan|disampaikan",
            r"sebelumnya|sebelum\s+ini|tadi|di\s+atas|sejauh\s+ini|sampai\s+sekarang",
            also=r"yang\s+(?:telah\s+|sudah\s+)?(?:dikatakan|diberitahukan|diperintahkan|"
            r"disampaikan)\s+(?:kepada|pada)\s*(?:mu|kamu|anda|awak)\b",
        ),
        topic=True,
    ),
    rule(
        "id.instructions_void",
        "instruksi|petunjuk|arahan|perintah|aturan",
        declared_void(
            r"\b(?:instruksi|petunjuk|arahan|perintah|aturan)(?:\s+(?:sebelumnya|terdahulu|awal))?"
            r"\s+(?:anda|kamu|awak)|\b(?:instruksi|petunjuk|arahan|perintah|aturan)(?:mu|nya)\b",
            r"(?:sudah\s+|kini\s+)?(?:tidak\s+(?:lagi\s+)?berlaku|tidak\s+sah\s+lagi|dibatalkan|"
            r"batal\b)",
        ),
        mention=False,
    ),
    rule(
        "id.reveal_prompt",
        "prompt sistem|system prompt|pesan sistem|instruksi|petunjuk|arahan",
        fill(
            r"⟨IMP⟩(?P<core>(?:tampilkan|tunjukkan|ungkapkan|ulangi|cetak|tuliskan|tulis|"
            r"beritahu(?:kan)?(?:\s+saya)?|bagikan|sebutkan|salin)\s+(?:(?!(?:di|ke|dalam|pada)\s)⟨W⟩\s+){0,2}?"
            r"(?:prompt\s+sistem|system\s+prompt|pesan\s+sistem|(?:instruksi|petunjuk|arahan)\s+"
            r"(?:awal|asli|sistem|tersembunyi|rahsia|rahasia))\b)",
            W=_W,
        ),
    ),
    rule(
        "id.identity",
        "mulai sekarang|mulai saat ini|mulai hari ini|dari sekarang|sekarang kamu|sekarang anda|"
        "sekarang awak|kamu sekarang|anda sekarang|sekarang,|saat ini,|hari ini,",
        persona(
            r"\b(?:mulai\s+(?:sekarang|saat\s+ini|hari\s+ini)|dari\s+sekarang|sekarang),?\s+"
            r"(?:kamu|anda|engkau|awak)\b|\b(?:kamu|anda|awak)\s+sekarang\b",
            _ID_AI,
            _ID_UNRESTRICTED,
            rf"(?:mode\s+pengembang|mod\s+pembangun|{_STRONG})",
            r"bisa|dapat|aktifkan|mengaktifkan|nyalakan|boleh",
        ),
    ),
    rule(
        "id.new_instructions",
        "instruksi baru|petunjuk baru|arahan baru|perintah baru|tugas baru",
        header(r"(?:instruksi|petunjuk|arahan|perintah)\s+(?:sistem\s+)?baru")
        + r"|\btugas\s+baru\s*(?:anda|kamu|mu|awak)\s+(?:adalah|ialah|:)",
        mention=False,
    ),
    # Vietnamese
    rule(
        "vi.override",
        "bỏ qua|phớt lờ|lờ đi|quên|đừng tuân|không tuân|đừng làm theo|gạt bỏ|hủy bỏ|huỷ bỏ",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:(?:phớt\s+lờ|lờ\s+đi|quên(?:\s+đi)?|đừng\s+tuân\s+theo|"
            r"không\s+tuân\s+theo|đừng\s+làm\s+theo|gạt\s+bỏ|hủy\s+bỏ|huỷ\s+bỏ)\s+(?:⟨W⟩\s+){0,3}?"
            r"(?:⟨O⟩)(?:\s+⟨W⟩){0,1}?\s+(?:⟨QA⟩|⟨QS⟩)(?:\s+(?:⟨QA⟩|⟨QS⟩))*|(?:phớt\s+lờ|lờ\s+đi|quên(?:\s+đi)?|"
            r"đừng\s+tuân\s+theo|gạt\s+bỏ|bỏ\s+qua)\s+(?:tất\s+cả|mọi|toàn\s+bộ)\s+(?:⟨W⟩\s+){0,2}?"
            r"(?:⟨O⟩)|bỏ\s+qua\s+(?:⟨W⟩\s+){0,3}?(?:⟨O⟩)(?:\s+⟨W⟩){0,1}?\s+(?:⟨QS⟩))\b)",
            L=_VI_LEAD,
            O=_VI_OBJECT,
            QA=_VI_QUAL_ANY,
            QS=_VI_QUAL_STRONG,
            W=_W,
        ),
    ),
    rule(
        "vi.override_everything",
        "quên",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩quên(?:\s+đi)?\s+(?:tất\s+cả|mọi\s+thứ|mọi\s+điều|hết)\s+(?:những\s+)?"
            r"(?:(?:gì|điều|thứ)\s+)?(?:ở\s+trên|phía\s+trên|trước\s+đó|đã\s+được\s+(?:nói|dặn|"
            r"yêu\s+cầu)|bạn\s+đã\s+được\s+(?:nói|dặn|bảo))\b)",
            L=_VI_LEAD,
        ),
    ),
    rule(
        "vi.instructions_void",
        "hướng dẫn|chỉ dẫn|chỉ thị|quy tắc",
        declared_void(
            r"\b(?:hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị|quy\s+tắc)\s+(?:trước\s+(?:đó|đây)\s+|ban\s+đầu\s+)?"
            r"của\s+bạn",
            r"(?:không\s+còn\s+(?:hiệu\s+lực|giá\s+trị|áp\s+dụng)|đã\s+bị\s+(?:hủy|huỷ|vô\s+hiệu))",
        ),
        mention=False,
    ),
    rule(
        "vi.reveal_prompt",
        "lời nhắc hệ thống|system prompt|prompt hệ thống|hướng dẫn ban đầu|chỉ dẫn ban đầu|"
        "hướng dẫn gốc|thông điệp hệ thống|chỉ thị hệ thống",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:hiển\s+thị|tiết\s+lộ|cho\s+tôi\s+xem|in\s+ra|lặp\s+lại|nhắc\s+lại|"
            r"viết\s+ra|cho\s+(?:tôi\s+)?biết|chia\s+sẻ|sao\s+chép)\s+(?:⟨W⟩\s+){0,2}?"
            r"(?:lời\s+nhắc\s+hệ\s+thống|system\s+prompt|prompt\s+hệ\s+thống|hướng\s+dẫn\s+ban\s+đầu|"
            r"chỉ\s+dẫn\s+ban\s+đầu|hướng\s+dẫn\s+gốc|thông\s+điệp\s+hệ\s+thống|chỉ\s+thị\s+hệ\s+thống))",
            L=_VI_LEAD,
            W=_W,
        ),
    ),
    rule(
        "vi.identity",
        "từ giờ|từ bây giờ|kể từ bây giờ|từ nay|bây giờ bạn|bạn bây giờ|giờ bạn|bạn giờ|giờ,|nay,|trở đi,|giờ đây",
        persona(
            r"\b(?:(?:kể\s+)?từ\s+(?:giờ|bây\s+giờ|nay)(?:\s+trở\s+đi)?|bây\s+giờ|giờ\s+đây|giờ),?\s+"
            r"bạn\b|\bbạn\s+(?:bây\s+giờ|giờ)\b",
            _VI_AI,
            _VI_UNRESTRICTED,
            rf"(?:chế\s+độ\s+nhà\s+phát\s+triển|{_STRONG})",
            r"có\s+thể|bật|kích\s+hoạt",
        ),
    ),
    rule(
        "vi.new_instructions",
        "hướng dẫn mới|chỉ dẫn mới|chỉ thị mới|nhiệm vụ mới|lệnh mới",
        header(r"(?:hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị|lệnh)\s+mới")
        + r"|\bnhiệm\s+vụ\s+mới\s+của\s+bạn\s+(?:là|:)",
        mention=False,
    ),
    # Tagalog
    rule(
        "tl.override",
        "huwag|wag|'wag|balewalain|ipagwalang|kalimutan|isantabi|kaligtaan",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:⟨V⟩)\s+(?:mo\s+)?(?:na\s+)?(?:ang|ng|sa)\s+(?:⟨W⟩\s+){0,4}?"
            r"(?:mga\s+)?(?:⟨O⟩)\b(?:\s+⟨W⟩){0,2}?\s+(?:⟨Q⟩)(?:\s+(?:⟨Q⟩))*\b|⟨L⟩(?:⟨V⟩)\s+(?:mo\s+)?(?:na\s+)?"
            r"(?:ang|ng|sa)\s+(?:⟨W⟩\s+){0,2}?(?:⟨Q⟩)\s+(?:⟨W⟩\s+){0,2}?(?:⟨O⟩)\b|"
            r"⟨L⟩(?:⟨V⟩)\s+(?:mo\s+)?(?:na\s+)?ang\s+"
            r"lahat\s+ng\s+(?:⟨W⟩\s+){0,3}?(?:mga\s+)?(?:⟨O⟩)\b)",
            L=_TL_LEAD,
            V=_TL_VERB,
            O=_TL_OBJECT,
            W=_W,
            Q=_TL_QUAL,
        ),
    ),
    rule(
        "tl.override_everything",
        "kalimutan|balewalain",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:kalimutan|balewalain)\s+(?:mo\s+)?(?:na\s+)?ang\s+lahat\s+ng\s+"
            r"(?:(?:sinabi|itinuro|iniutos)\s+sa\s+(?:iyo|'yo)|nasa\s+itaas|naunang\s+sinabi\s+sa\s+(?:iyo|'yo))\b)",
            L=_TL_LEAD,
        ),
    ),
    rule(
        "tl.instructions_void",
        "tagubilin|instruksyon|utos",
        declared_void(
            r"\b(?:ang\s+)?(?:iyong\s+)?(?:mga\s+)?(?:naunang\s+|nakaraang\s+|dating\s+)?(?:mga\s+)?"
            r"(?:tagubilin|instruksyon|utos)(?:\s+mo)?\s+ay",
            r"hindi\s+na\s+(?:wasto|epektibo|umiiral|balido|totoo)|wala\s+nang\s+bisa|"
            r"kanselado|pinawalang-bisa",
        ),
        mention=False,
    ),
    rule(
        "tl.reveal_prompt",
        "system prompt|prompt ng sistema|tagubilin|instruksyon",
        fill(
            r"⟨IMP⟩(?P<core>(?:ipakita|ibunyag|ulitin|isulat|i-print|sabihin|ilista)\s+(?:mo\s+)?"
            r"(?:sa\s+akin\s+)?(?:ang|ng)\s+(?:iyong\s+)?(?:system\s+prompt|prompt\s+ng\s+sistema|"
            r"(?:mga\s+)?(?:orihinal|unang|paunang|nakatagong|lihim\s+na)\s*(?:na\s+|ng\s+)?"
            r"(?:mga\s+)?(?:tagubilin|instruksyon)|iyong\s+mga\s+(?:tagubilin|instruksyon)\s+"
            r"(?:sa\s+sistema|mula\s+sa\s+simula)))",
        ),
    ),
    rule(
        "tl.identity",
        "mula ngayon|simula ngayon|ngayon ikaw|ikaw ngayon|ikaw na ngayon|ngayon,",
        persona(
            r"\b(?:(?:mula|simula)\s+ngayon|ngayon),?\s+(?:ikaw|ka)\b|\bikaw\s+(?:na\s+)?ngayon\b",
            _TL_AI,
            _TL_UNRESTRICTED,
            _STRONG,
            r"maaari|puwede|i-on|buksan",
        ),
    ),
    rule(
        "tl.new_instructions",
        "bagong tagubilin|bagong instruksyon|bagong utos|bagong mga tagubilin|bagong gawain",
        header(r"(?:mga\s+)?bagong\s+(?:mga\s+)?(?:tagubilin|instruksyon|utos)")
        + r"|\bang\s+(?:iyong\s+)?bagong\s+gawain(?:\s+mo)?\s+ay",
        mention=False,
    ),
    # Swahili
    rule(
        "sw.override",
        "puuza|sahau|usifuate|msifuate|achana na|acha kufuata|tupilia",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:⟨V⟩)\s+(?:⟨W⟩\s+){0,2}?(?:⟨O⟩)\b(?:\s+⟨W⟩){0,2}?\s+(?:⟨Q⟩)(?:\s+(?:⟨Q⟩))*\b)",
            L=_SW_LEAD,
            V=_SW_VERB,
            O=_SW_OBJECT,
            Q=_SW_QUAL,
            W=_W,
        ),
    ),
    rule(
        "sw.override_everything",
        "sahau|puuza",
        fill(
            r"⟨IMP⟩(?P<core>⟨L⟩(?:sahau|sahauni|puuza|puuzeni)\s+kila\s+kitu\s+(?:ulichoambiwa|"
            r"mlichoambiwa|kilichosemwa|hapo\s+juu|cha\s+awali|kilichotangulia)\b)",
            L=_SW_LEAD,
        ),
    ),
    rule(
        "sw.instructions_void",
        "maagizo yako|maelekezo yako|sheria zako|amri zako",
        declared_void(
            r"\b(?:maagizo|maelekezo|sheria|amri)\s+(?:yako|zako)",
            r"(?:hayatumiki|hazitumiki)\s+tena|(?:si|sio)\s+halali\s+tena|(?:yamefutwa|zimefutwa)|"
            r"(?:hayana|hazina)\s+nguvu",
        ),
        mention=False,
    ),
    rule(
        "sw.reveal_prompt",
        "maagizo ya mfumo|kidokezo cha mfumo|system prompt|ujumbe wa mfumo|maagizo yako|"
        "maelekezo yako|maagizo ya siri",
        fill(
            r"⟨IMP⟩(?P<core>(?:onyesha|nionyeshe|fichua|rudia|andika|chapisha|niambie|toa|shiriki)"
            r"\s+(?:⟨W⟩\s+){0,2}?(?:maagizo\s+ya\s+mfumo|kidokezo\s+cha\s+mfumo|system\s+prompt|"
            r"ujumbe\s+wa\s+mfumo|(?:maagizo|maelekezo)\s+yako\s+ya\s+(?:awali|asili|siri)|"
            r"maagizo\s+ya\s+siri))",
            W=_W,
        ),
    ),
    rule(
        "sw.identity",
        "kuanzia sasa|tangu sasa|sasa wewe|wewe sasa|sasa,",
        persona(
            r"\b(?:kuanzia\s+sasa|tangu\s+sasa|sasa),?\s+(?:wewe|u|utakuwa)\b|\bwewe\s+sasa\b",
            _SW_AI,
            _SW_UNRESTRICTED,
            rf"(?:hali\s+ya\s+msanidi|{_STRONG})",
            r"unaweza|mnaweza|washa|wezesha",
        ),
    ),
    rule(
        "sw.new_instructions",
        "maagizo mapya|maelekezo mapya|kazi mpya|kazi yako mpya",
        header(r"(?:maagizo|maelekezo)\s+mapya") + r"|\bkazi\s+(?:yako\s+)?mpya\s+(?:ni|:)",
        mention=False,
    ),
]

# "If you are an AI ...", the AI word the whole complement ("if you are an AI researcher" is not).
_ADDRESSED = [
    (
        "id.addressed",
        "jika anda|jika kamu|jika awak|kalau anda|kalau kamu|apabila anda|bila anda",
        r"\b(?:jika|kalau|apabila|bila)\s+(?:anda|kamu|awak)\s+(?:adalah\s+)?(?:sebuah\s+)?"
        r"(?:ai|kecerdasan\s+buatan|model\s+bahasa|asisten\s+ai|chatbot)(?=\s*[,.]|\s+(?:yang|maka)\b)",
    ),
    (
        "vi.addressed",
        "nếu bạn là",
        r"\bnếu\s+bạn\s+là\s+(?:một\s+)?(?:ai|trí\s+tuệ\s+nhân\s+tạo|mô\s+hình\s+ngôn\s+ngữ|"
        r"trợ\s+lý\s+ai|chatbot)(?=\s*[,.]|\s+(?:đang|thì|hãy)\b)",
    ),
    (
        "tl.addressed",
        "kung ikaw ay",
        r"\bkung\s+ikaw\s+ay\s+(?:isang\s+)?(?:ai|artificial\s+intelligence|language\s+model|chatbot)"
        r"(?=\s*[,.]|\s+na\s)",
    ),
    (
        "sw.addressed",
        "ikiwa wewe|ikiwa ni",
        r"\bikiwa\s+(?:wewe\s+)?ni\s+(?:akili\s+bandia|ai|modeli\s+ya\s+lugha|chatbot)"
        r"(?=\s*[,.]|\s+(?:unayesoma|basi)\b)",
    ),
]
RULES += [rule(name, triggers, pattern, mention=False) for name, triggers, pattern in _ADDRESSED]
