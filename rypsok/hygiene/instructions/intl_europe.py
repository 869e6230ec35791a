"""Instruction-like rules in Italian, Portuguese, Dutch, Polish, Turkish, Ukrainian and Greek
beyond the override family of other_languages.py: "forget everything you were told", instructions
declared void, revealing the system prompt, a persona switch to an unrestricted AI, a "new
instructions:" header, and for Ukrainian and Greek the override family itself. Each in the
familiar and the formal register (Italian Lei, Portuguese você and o senhor, Dutch u, Polish
Pan/Pani, Ukrainian and Greek plural of politeness)."""

from __future__ import annotations

from rypsok.hygiene.instructions.intl_shapes import (
    declared_void,
    greek,
    header,
    persona,
    rule,
    turkish,
)
from rypsok.hygiene.instructions.patterns import (
    WORD,
    everything_before,
    fill,
    override_pattern,
)

_STRONG = r"(?<![a-z])(?:dan|jailbreak|developer\s+mode)(?![a-z])"
_AI_LATIN = r"(?:(?<![a-z])(?:ia|ai|ki|sztuczn\w*\s+inteligencj\w*|llm)(?![a-z])|chatbot\w*|"
# Between a reveal verb and its object, at most three words.
_GAP = (
    r"(?:(?!(?:in|nel|nella|nei|negli|nello|no|na|nos|nas|em|w|we|в|у|στο|στην|στη|σε|op|aan)\s)"
    rf"{WORD}\s+){{0,3}}?"
)


def _reveal(verbs: str, objects: str) -> str:
    return fill(r"⟨IMP⟩(?P<core>(?:⟨V⟩)\s+⟨G⟩(?:⟨O⟩))\b", V=verbs, O=objects, G=_GAP)


# Turkish: the imperatives of "forget", "ignore", "disregard", "do not comply", "set aside".
_TR_VERB = (
    r"(?:unut(?:un|unuz)?|yok\s*say(?:ın|ınız)?|görmezden\s+gel(?:in|iniz)?|"
    r"dikkate\s+alma(?:yın|yınız)?|göz\s+ardı\s+(?:et|edin|ediniz)|umursama(?:yın|yınız)?|"
    r"uyma(?:yın|yınız)?|önemseme(?:yin|yiniz)?|boş\s*ver(?:in|iniz)?|"
    r"bir\s+kenara\s+bırak(?:ın|ınız)?)(?!\w)"
)
# Ukrainian --------------------------------------------------------------------------------------
_UK_VERBS = (
    r"ігноруй(?:те)?|проігноруй(?:те)?|забудь(?:те)?|не\s+зважай(?:те)?\s+на|відкинь(?:те)?|"
    r"не\s+виконуй(?:те)?|не\s+дотримуйся|не\s+дотримуйтеся|не\s+дотримуйтесь|"
    r"більше\s+не\s+дотримуйся|не\s+слідуй(?:те)?|знехтуй(?:те)?|скасуй(?:те)?"
)
_UK_QUALS = (
    r"попередн\w*|вищезазначен\w*|вищенаведен\w*|вище|раніше|початков\w*|первинн\w*|"
    r"всі|усі|всіх|усіх|свої|своїх|твої|твоїх|ваші|ваших|отриман\w*|надан\w*"
)
_UK_OBJECTS = (
    r"інструкці\w*|вказів\w*|правил\w*|команд\w*|настанов\w*|директив\w*|промпт\w*|обмежен\w*|"
    r"системн\w*\s+промпт\w*"
)
# Greek ------------------------------------------------------------------------------------------
_EL_VERBS = greek(
    r"αγνόησε|αγνοήστε|αγνόησέ|ξέχασε|ξεχάστε|παράβλεψε|παραβλέψτε|μην\s+ακολουθείς|"
    r"μην\s+ακολουθείτε|μην\s+τηρείς|μην\s+τηρείτε|απόρριψε|απορρίψτε|ακύρωσε|ακυρώστε"
)
_EL_QUALS = greek(
    r"προηγούμεν\w*|παραπάνω|αρχικ\w*|όλες|όλους|όλα|σου|σας|δοθείσ\w*|ανωτέρω|πρότερ\w*"
)
_EL_OBJECTS = greek(r"οδηγί\w*|εντολ\w*|κανόν\w*|κανονισμ\w*|προτροπ\w*|prompt\w*|περιορισμ\w*")
_EL_AI = greek(r"(?:τεχνητή\s+νοημοσύνη|(?<![a-z])ai(?![a-z])|βοηθό\w*|μοντέλο\w*|chatbot\w*|ΤΝ)")

RULES = [
    # Italian
    rule(
        "it.override_everything",
        "dimentica|dimentichi|dimenticate|ignora|ignori|ignorate",
        everything_before(
            r"dimentica|dimentichi|dimenticate|ignora|ignori|ignorate",
            "tutto",
            r"(?:quanto\s+|quello\s+)?sopra|(?:ciò|quello|quanto)\s+che\s+precede|"
            r"quanto\s+precede|il\s+resto|il\s+precedente",
            r"detto|dett[aie]|scritto|scritt[aie]|menzionato|chiesto|discusso|parlato|indicato|"
            r"spiegato",
            r"prima|finora|fino\s+a\s+(?:ora|qui|questo\s+punto)|sopra|precedentemente|"
            r"in\s+precedenza",
            also=r"(?:quello|ciò|quanto)\s+che\s+(?:ti|le|vi)\s+(?:è\s+stato|sono\s+state?|"
            r"hanno|abbiamo|ho)\s+(?:detto|dett[ie]|scritto|chiesto|ordinato)",
        ),
        topic=True,
    ),
    rule(
        "it.instructions_void",
        "istruzioni|regole|direttive|indicazioni",
        declared_void(
            r"\b(?:tue|sue|vostre)\s+(?:\w+\s+){0,2}?(?:istruzioni|regole|direttive|indicazioni)",
            r"non\s+(?:sono\s+più\s+valide|valgono\s+più|si\s+applicano\s+più|contano\s+più)|"
            r"sono\s+(?:ora\s+|state\s+)?(?:annullate|nulle|revocate|decadute)",
        ),
        mention=False,
    ),
    rule(
        "it.reveal_prompt",
        "prompt di|prompt del|system prompt|messaggio di sistema|istruzioni",
        _reveal(
            r"mostra|mostrami|mostri|mi\s+mostri|mi\s+riveli|mi\s+ripeta|mostratemi|rivela|riveli|rivelami|ripeti|ripeta|stampa|"
            r"stampi|scrivi|scriva|dimmi|mi\s+dica|elenca|copia|cita",
            r"prompt\s+(?:di|del)\s+sistema|messaggio\s+di\s+sistema|system\s+prompt|"
            r"istruzioni\s+(?:iniziali|originali|nascoste|segrete|di\s+sistema|interne)",
        ),
    ),
    rule(
        "it.identity",
        "d'ora in poi|da ora in poi|da adesso|da questo momento|ora sei|adesso sei|sei ora|"
        "lei è ora|ora lei è|ora,|adesso,|in poi,|questo momento,",
        persona(
            r"\b(?:(?:d'ora|da\s+ora|da\s+adesso)\s+in\s+poi|da\s+adesso|da\s+questo\s+momento|ora|"
            r"adesso),?\s+(?:sei|lei\s+è|siete|tu\s+sei|diventi|sarai)\b|\b(?:sei|lei\s+è)\s+ora\b",
            _AI_LATIN + r"intelligenza\s+artificiale|assistente|modello)",
            r"senza\s+(?:alcun[ao]?\s+|nessun[ao]?\s+)?(?:restrizion|limit|regol|filtr|censur)\w*|"
            r"non\s+ha\s+(?:alcuna\s+|nessuna\s+)?(?:restrizion|regol|limit)\w*",
            rf"(?:modalità\s+sviluppatore|{_STRONG})",
            r"puoi|può|attiva|attivare|abilita",
        ),
    ),
    rule(
        "it.new_instructions",
        "nuove istruzioni|nuove regole|nuovo compito|tuo nuovo|suo nuovo",
        header(r"nuove\s+(?:istruzioni|direttive)(?:\s+di\s+sistema)?")
        + r"|\b(?:il\s+)?(?:tuo|suo)\s+nuovo\s+(?:compito|obiettivo|incarico)\s+(?:è|sarà|:)",
        mention=False,
    ),
    # Portuguese
    rule(
        "pt.override_everything",
        "esqueça|esqueca|esquece|esqueçam|ignora|ignore|ignorem|desconsidere|desconsidera",
        everything_before(
            r"esqueça|esqueca|esquece|esqueçam|ignora|ignore|ignorem|desconsidere|desconsidera",
            "tudo",
            r"(?:o\s+que\s+(?:está|vem|veio|foi\s+escrito)\s+)?(?:acima|antes(?:\s+disso)?)|"
            r"(?:o\s+)?anterior|o\s+que\s+precede",
            r"dito|disse|dissemos|disseram|escrito|escreveu|mencionado|falado|falamos|pedido|"
            r"conversado|conversamos|indicado",
            r"antes|anteriormente|previamente|até\s+agora|até\s+aqui|acima",
            also=r"(?:o\s+)?que\s+(?:lhe|te|vos|foi|lhes)\s+(?:foi\s+|foram\s+)?(?:dito|disseram|"
            r"pedido|ordenado|instruído|escrito)\b",
        ),
        topic=True,
    ),
    rule(
        "pt.instructions_void",
        "instruções|instrucoes|regras|diretrizes|orientações",
        declared_void(
            r"\b(?:suas|tuas|vossas)\s+(?:\w+\s+){0,2}?(?:instruções|instrucoes|regras|diretrizes|"
            r"orientações)",
            r"não\s+(?:são\s+mais|estão\s+mais)\s+(?:válidas|em\s+vigor)|já\s+não\s+(?:valem|são\s+"
            r"válidas|se\s+aplicam)|não\s+(?:valem|se\s+aplicam)\s+mais|deixaram\s+de\s+valer|"
            r"(?:foram|estão)\s+(?:anuladas|revogadas|canceladas)",
        ),
        mention=False,
    ),
    rule(
        "pt.reveal_prompt",
        "prompt do|prompt de|system prompt|mensagem do sistema|instruções|instrucoes",
        _reveal(
            r"mostre|mostra|mostre-me|mostra-me|me\s+mostre|revele|revela|repita|repete|imprima|"
            r"imprime|escreva|escreve|diga-me|me\s+diga|liste|copie|cite",
            r"(?:o\s+)?prompt\s+(?:do|de)\s+sistema|mensagem\s+do\s+sistema|system\s+prompt|"
            r"(?:instruções|instrucoes)\s+(?:iniciais|originais|ocultas|secretas|do\s+sistema|"
            r"internas)",
        ),
    ),
    rule(
        "pt.identity",
        "a partir de agora|de agora em diante|agora você|agora és|agora tu|você agora|"
        "você é agora|o senhor é agora|a senhora é agora|agora o senhor|agora a senhora|agora,|em diante,",
        persona(
            r"\b(?:a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|agora),?\s+(?:você\s+é|você\s+será|"
            r"és|tu\s+és|o\s+senhor\s+é|a\s+senhora\s+é|você\s+está)\b|\bvocê\s+(?:agora\s+é|é\s+agora)\b|"
            r"\b(?:o\s+senhor|a\s+senhora)\s+é\s+agora\b",
            _AI_LATIN + r"inteligência\s+artificial|assistente|modelo)",
            r"sem\s+(?:nenhuma\s+|qualquer\s+|quaisquer\s+)?(?:restriç|restric|limit|regra|filtr|"
            r"censura)\w*|não\s+tem\s+(?:nenhuma\s+)?(?:restriç|regra|limit)\w*",
            rf"(?:modo\s+(?:de\s+)?desenvolvedor|{_STRONG})",
            r"pode|podes|ativar|ative|habilitar",
        ),
    ),
    rule(
        "pt.new_instructions",
        "novas instruções|novas instrucoes|nova tarefa|sua nova|tua nova",
        header(r"novas\s+(?:instruções|instrucoes|diretrizes)(?:\s+do\s+sistema)?")
        + r"|\b(?:a\s+)?(?:sua|tua)\s+nova\s+(?:tarefa|missão|função)\s+(?:é|será|:)",
        mention=False,
    ),
    # Dutch
    rule(
        "nl.override_everything",
        "vergeet|negeer",
        everything_before(
            r"vergeet|negeer|negeert",
            "alles",
            r"hierboven|hiervoor|daarvoor|van\s+hiervoor|voorgaande|bovenstaande|tot\s+nu\s+toe|"
            r"tot\s+hier",
            r"gezegd|geschreven|besproken|verteld|genoemd|gevraagd|opgedragen|staat|stond|kwam",
            r"eerder|hiervoor|daarvoor|tot\s+nu\s+toe|hierboven|zojuist|voorheen",
            also=r"wat\s+(?:je|jou|u)\s+(?:eerder\s+|tot\s+nu\s+toe\s+)?(?:is|werd|hebt|heeft)\s+"
            r"(?:gezegd|verteld|opgedragen|gevraagd)\b",
        ),
        topic=True,
    ),
    rule(
        "nl.instructions_void",
        "instructies|regels|richtlijnen|opdrachten",
        declared_void(
            r"\b(?:je|jouw|uw)\s+(?:\w+\s+){0,2}?(?:instructies|regels|richtlijnen|opdrachten)",
            r"(?:zijn|gelden)\s+niet\s+meer(?:\s+geldig)?|zijn\s+(?:vanaf\s+nu\s+|nu\s+)?"
            r"(?:ongeldig|vervallen|ingetrokken|geannuleerd)|gelden\s+niet\s+langer",
        ),
        mention=False,
    ),
    rule(
        "nl.reveal_prompt",
        "systeemprompt|systeem-prompt|systeembericht|systeeminstructies|system prompt|instructies",
        _reveal(
            r"toon|toont|geef|herhaal|herhaalt|print|onthul|onthult|deel|laat\s+(?:me|mij)\s+zien|"
            r"schrijf|citeer|kopieer",
            r"systeemprompt|systeem-prompt|systeembericht|systeeminstructies|system\s+prompt|"
            r"(?:oorspronkelijke|originele|initiële|eerste|verborgen|geheime|interne)\s+instructies",
        ),
    ),
    rule(
        "nl.identity",
        "vanaf nu|je bent nu|jij bent nu|u bent nu|ben je nu|bent u nu",
        persona(
            r"\bvanaf\s+nu\s+(?:ben\s+je|ben\s+jij|bent\s+u|is\s+u)\b|\b(?:je|jij|u)\s+(?:bent)\s+nu\b|"
            r"\b(?:ben\s+je|bent\s+u)\s+nu\b",
            _AI_LATIN + r"assistent|model|taalmodel)",
            r"zonder\s+(?:enige\s+|alle\s+)?(?:beperking|restrictie|regels|filter|censuur)\w*|"
            r"(?:geen|niet\s+gebonden\s+aan)\s+(?:enkele\s+)?(?:beperking|restrictie|regels)\w*",
            rf"(?:ontwikkelaarsmodus|ontwikkelaarmodus|{_STRONG})",
            r"kunt|kan|inschakelen|activeren|zet",
        ),
    ),
    rule(
        "nl.new_instructions",
        "nieuwe instructies|nieuwe opdracht|nieuwe taak|nieuwe systeeminstructies",
        header(r"nieuwe\s+(?:instructies|systeeminstructies)")
        + r"|\b(?:je|jouw|uw)\s+nieuwe\s+(?:taak|opdracht)\s+(?:is|luidt|:)",
        mention=False,
    ),
    # Polish
    rule(
        "pl.override_everything",
        "zapomnij|zapomnijcie|zapomnieć|zignoruj|zignorować|zapomni|ignoruj",
        everything_before(
            r"zapomnij|zapomnijcie|proszę\s+zapomnieć|niech\s+pan(?:i)?\s+zapomni|zignoruj|"
            r"zignorujcie|ignoruj|ignorujcie|proszę\s+zignorować",
            r"(?:o\s+)?(?:wszystkim|wszystko)",
            r"powyżej|wcześniej|poprzednie|dotychczasowe|co\s+(?:było\s+)?(?:powyżej|wcześniej|"
            r"przedtem)",
            r"powiedziane|powiedziano|napisane|napisano|mówiliśmy|rozmawialiśmy|wspomniane|"
            r"kazano|polecono|podane",
            r"wcześniej|powyżej|przedtem|dotąd|do\s+tej\s+pory|do\s+teraz|uprzednio",
            also=r"co\s+(?:ci|wam|panu|pani)\s+(?:wcześniej\s+)?(?:powiedziano|kazano|napisano|"
            r"polecono)\b",
        ),
        topic=True,
    ),
    rule(
        "pl.instructions_void",
        "instrukcje|polecenia|zasady|reguły|wytyczne",
        declared_void(
            r"\b(?:twoje|pana|pani|wasze)\s+(?:\w+\s+){0,2}?(?:instrukcje|polecenia|zasady|reguły|"
            r"wytyczne)",
            r"(?:są\s+)?(?:już\s+)?(?:nieważne|nieaktualne|unieważnione|anulowane)|"
            r"(?:już\s+)?nie\s+obowiązują|przestały\s+obowiązywać|zostały\s+(?:anulowane|uchylone|"
            r"unieważnione)",
        ),
        mention=False,
    ),
    rule(
        "pl.reveal_prompt",
        "prompt systemowy|promptu systemowego|systemowy prompt|system prompt|wiadomość systemową|instrukcje",
        _reveal(
            r"pokaż|pokażcie|ujawnij|powtórz|wypisz|wyświetl|wydrukuj|napisz|podaj|zacytuj|skopiuj|"
            r"proszę\s+(?:pokazać|ujawnić|powtórzyć|wypisać|podać)",
            r"prompt\s+systemowy|promptu\s+systemowego|systemowy\s+prompt|wiadomość\s+systemową|"
            r"system\s+prompt|(?:początkowe|oryginalne|ukryte|tajne|systemowe|wewnętrzne)\s+instrukcje",
        ),
    ),
    rule(
        "pl.identity",
        "od teraz|od tej chwili|od dziś|teraz jesteś|jesteś teraz|jest pan teraz|jest pani teraz|teraz,|chwili,|dziś,",
        persona(
            r"\b(?:od\s+teraz|od\s+tej\s+chwili|od\s+dziś|teraz),?\s+(?:jesteś|będziesz|jest\s+pan|"
            r"jest\s+pani|pan\s+jest|pani\s+jest)\b|\b(?:jesteś|jest\s+pan|jest\s+pani)\s+teraz\b",
            _AI_LATIN + r"asystent\w*|model\w*)",
            r"bez\s+(?:żadnych\s+|jakichkolwiek\s+)?(?:ograniczeń|zasad|reguł|filtrów|cenzury)|"
            r"nie\s+ma\s+(?:żadnych\s+)?(?:ograniczeń|zasad|reguł)",
            rf"(?:tryb\w*\s+dewelopera|{_STRONG})",
            r"możesz|może|włącz|włączyć|aktywuj",
        ),
    ),
    rule(
        "pl.new_instructions",
        "nowe instrukcje|nowe polecenia|nowe zadanie|nowym zadaniem",
        header(r"nowe\s+(?:instrukcje|polecenia)(?:\s+systemowe)?")
        + r"|\b(?:twoje|pana|pani)\s+nowe\s+zadanie\s+(?:to|brzmi|:)|\btwoim\s+nowym\s+zadaniem\s+jest",
        mention=False,
    ),
    # Turkish
    rule(
        "tr.override",
        "talimat|yönerge|komut|istem|emir|emr|direktif",
        turkish(
            fill(
                r"⟨IMP⟩(?P<core>(?:(?:lütfen|şimdi|artık|hemen|ve)\s+)?(?:tüm|bütün|önceki|yukarıdaki|"
                r"daha\s+önceki|sana\s+verilen|size\s+verilen|"
                r"ilk|orijinal)\s+(?:\w+\s+){0,2}?(?:talimat|yönerge|komut|istem|emir|emr|direktif)\w*\s+"
                r"(?:\w+\s+)?⟨V⟩)",
                V=_TR_VERB,
            )
        ),
    ),
    rule(
        "tr.override_everything",
        "her şeyi|yukarıdakiler|öncekiler|söylenenler|şimdiye kadar",
        turkish(
            fill(
                r"⟨IMP⟩(?P<core>(?:(?:lütfen|şimdi|artık|hemen|ve)\s+)?(?:(?:yukarıdaki|önceki|bundan\s+önceki|şimdiye\s+kadarki|şimdiye\s+kadar|"
                r"(?:sana|size)\s+(?:söylenen|verilen)|daha\s+önce\s+söylenen)\s+her\s+şeyi|"
                r"yukarıdakileri|öncekileri|(?:sana|size|şimdiye\s+kadar)\s+söylenenleri)\s+⟨V⟩)",
                V=_TR_VERB,
            )
        ),
    ),
    rule(
        "tr.instructions_void",
        "talimat|kural",
        turkish(
            declared_void(
                r"\b(?:önceki\s+|eski\s+)?(?:talimatların|talimatlarınız|kuralların|kurallarınız)(?!\w)",
                r"artık\s+geçerli\s+değil|geçersiz(?:dir)?|iptal\s+edildi|yürürlükte\s+değil",
            )
        ),
        mention=False,
    ),
    rule(
        "tr.reveal_prompt",
        "sistem istem|sistem prompt|system prompt|ilk talimat|orijinal talimat|gizli talimat",
        turkish(
            fill(
                r"(?P<core>\b(?:sistem\s+(?:istemini|istemini|isteminizi|promptunu|promptunuzu|"
                r"mesajını|mesajınızı)|system\s+prompt\w*|(?:ilk|orijinal|gizli|başlangıç)\s+"
                r"talimatlar\w*)\s+(?:\w+\s+){0,2}?(?:göster(?:in|iniz)?|yaz(?:ın|ınız)?|"
                r"tekrarla(?:yın|yınız)?|açıkla(?:yın|yınız)?|ifşa\s+(?:et|edin)|paylaş(?:ın|ınız)?|"
                r"yazdır(?:ın|ınız)?|söyle(?:yin|yiniz)?)(?!\w))",
            )
        ),
    ),
    rule(
        "tr.identity",
        "artık|bundan sonra|şu andan itibaren|şimdi",
        turkish(
            persona(
                r"\b(?:artık|bundan\s+sonra|şu\s+andan\s+itibaren|şimdi)\b",
                r"(?:yapay\s+zeka|(?<![a-z])ai(?![a-z])|asistan|model|sohbet\s+botu|chatbot)",
                r"(?:kısıtlama|sınır|kural|filtre|sansür)\w*\s+(?:olmayan|yok|içermeyen|tanımayan)|"
                r"(?:kısıtlama|sınır|kural|sansür)\w*suz",
                rf"(?:geliştirici\s+mod\w*(?!\w)|{_STRONG})",
                r"açabilir|etkinleştir|açın|aç|yapabilir",
            )
        ),
    ),
    rule(
        "tr.new_instructions",
        "yeni talimat|yeni görev|yeni görevin|yeni göreviniz",
        turkish(
            header(r"yeni\s+talimatlar?") + r"|\byeni\s+(?:görevin|göreviniz)\s+(?:şu|şudur|:)"
        ),
        mention=False,
    ),
    # Ukrainian
    rule(
        "uk.override",
        "ігнор|проігнор|забудь|не зважа|відкинь|не викону|дотримуй|не слідуй|знехтуй|скасуй",
        override_pattern(_UK_VERBS, _UK_QUALS, _UK_OBJECTS),
        topic=True,
    ),
    rule(
        "uk.override_everything",
        "забудь|ігноруй|проігноруй",
        everything_before(
            r"забудь(?:те)?|ігноруй(?:те)?|проігноруй(?:те)?",
            r"(?:все|усе|про\s+все)",
            r"що\s+було\s+(?:вище|раніше|до\s+цього)|вищесказане|вищенаписане|вище|попереднє",
            r"сказано|написано|говорили|казали|обговорювали|писали",
            r"раніше|вище|до\s+цього|досі|щойно",
            also=r"що\s+(?:тобі|вам)\s+(?:говорили|сказали|казали|наказали|писали|було\s+сказано)\b",
        ),
        topic=True,
    ),
    rule(
        "uk.instructions_void",
        "твої|ваші",
        declared_void(
            r"\b(?:твої|ваші)\s+(?:\w+\s+){0,2}?(?:інструкції|правила|вказівки|настанови)",
            r"більше\s+не\s+(?:діють|чинні|застосовуються)|(?:є\s+)?недійсн\w*|скасован\w*",
        ),
        mention=False,
    ),
    rule(
        "uk.reveal_prompt",
        "системний промпт|системного промпт|системному промпт|системним промпт|повідомлен|інструкці|"
        "початков|первинн|прихован|таємн|внутрішн",
        _reveal(
            r"покажи|покажіть|виведи|виведіть|розкрий|розкрийте|повтори|повторіть|напиши|"
            r"напишіть|надрукуй|скажи|скажіть|процитуй|поділися",
            r"системн(?:ий|ого|ому|им)\s+промпт\w*|системн\w*\s+(?:повідомлен|інструкці)\w*|(?:початков|первинн|прихован|таємн|"
            r"внутрішн)\w*\s+(?:інструкці|правил|вказів|промпт)\w*",
        ),
    ),
    rule(
        "uk.identity",
        "тепер ти|тепер ви|віднині|з цього моменту|відтепер|ти тепер|ви тепер|тепер,|віднині,|відтепер,|моменту,",
        persona(
            r"\b(?:тепер|віднині|відтепер|з\s+цього\s+моменту),?\s+(?:ти|ви)\b|\b(?:ти|ви)\s+тепер\b",
            r"(?:(?<!\w)ші(?!\w)|штучн\w*\s+інтелект\w*|асистент\w*|помічник\w*|чат-?бот\w*|"
            r"модел\w*|(?<![a-z])ai(?![a-z]))",
            r"без\s+(?:жодних\s+|будь-яких\s+)?(?:обмежен|правил|фільтр|цензур)\w*|"
            r"не\s+має\s+(?:жодних\s+)?(?:обмежен|правил)\w*",
            rf"(?:режим\w*\s+розробника|{_STRONG})",
            r"можеш|можете|увімкн|активу",
        ),
    ),
    rule(
        "uk.new_instructions",
        "нові інструкції|нові вказівки|нове завдання|твоє нове|ваше нове",
        header(r"нові\s+(?:інструкції|вказівки|системні\s+інструкції)")
        + r"|\b(?:твоє|ваше)\s+нове\s+завдання\s*(?:[:—-]|це\b|полягає)",
        mention=False,
    ),
    # Greek
    rule(
        "el.override",
        "αγν|ξέχ|ξεχ|παράβλ|παραβλ|μην ακολουθ|μην τηρ|απόρρ|απορρ|ακύρ|ακυρ",
        override_pattern(_EL_VERBS, _EL_QUALS, _EL_OBJECTS),
        topic=True,
    ),
    rule(
        "el.reveal_prompt",
        "συστήματ|συστηματ|system prompt|αρχικ|κρυφ|μυστικ",
        _reveal(
            greek(
                r"δείξε|δείξτε|δείξε\s+μου|αποκάλυψε|αποκαλύψτε|επανάλαβε|επαναλάβετε|τύπωσε|"
                r"τυπώστε|γράψε|γράψτε|πες\s+μου|πείτε\s+μου|μοιράσου"
            ),
            greek(
                r"(?:την\s+|το\s+)?(?:προτροπή|μήνυμα|prompt)\s+(?:του\s+)?συστήματος|system\s+prompt|"
                r"(?:τις\s+)?(?:αρχικές|κρυφές|μυστικές)\s+(?:σου\s+|σας\s+)?οδηγίες"
            ),
        ),
    ),
    rule(
        "el.identity",
        "από τώρα|απο τωρα|τώρα είσαι|τωρα εισαι|είσαι τώρα|εισαι τωρα|τώρα είστε|τωρα ειστε|τώρα,|τωρα,|εξήσ|εξησ",
        persona(
            greek(
                r"\b(?:από\s+τώρα(?:\s+και\s+στο\s+εξής)?|στο\s+εξής|τώρα),?\s+(?:είσαι|είστε|θα\s+είσαι)\b|"
                r"\b(?:είσαι|είστε)\s+τώρα\b"
            ),
            _EL_AI,
            greek(
                r"χωρίς\s+(?:κανέναν?\s+|καθόλου\s+)?(?:περιορισμ|κανόν|φίλτρ|λογοκρισ)\w*|"
                r"δεν\s+έχει\s+(?:κανέναν?\s+)?(?:περιορισμ|κανόν)\w*"
            ),
            greek(rf"(?:λειτουργία\s+προγραμματιστή|{_STRONG})"),
            r"μπορείς|μπορείτε|ενεργοποι",
        ),
    ),
    rule(
        "el.new_instructions",
        "νέεσ οδηγ|νεεσ οδηγ|νέα σου|νεα σου|νέα σασ|νεα σασ",
        header(greek(r"νέες\s+(?:οδηγίες|εντολές)"))
        + greek(r"|\bη\s+νέα\s+(?:σου|σας)\s+(?:εργασία|αποστολή)\s+είναι"),
        mention=False,
    ),
]

# "If you are an AI ...", the AI word the whole complement ("if you are an AI researcher" is not).
_ADDRESSED = [
    (
        "it.addressed",
        "se sei|se lei è|se siete",
        r"\bse\s+(?:sei|lei\s+è|siete)\s+(?:un['’]?\s*|una\s+)?(?:ia|intelligenza\s+artificiale|"
        r"modello\s+linguistico|assistente\s+(?:ia|virtuale)|chatbot|llm)(?=\s*[,.]|\s+che\b)",
    ),
    (
        "pt.addressed",
        "se você|se és|se fores|se o senhor|se a senhora",
        r"\bse\s+(?:você\s+(?:é|for)|és|fores|o\s+senhor\s+(?:é|for)|a\s+senhora\s+(?:é|for))\s+"
        r"(?:uma?\s+)?(?:ia|inteligência\s+artificial|modelo\s+de\s+linguagem|assistente\s+(?:de\s+)?ia|"
        r"chatbot|llm)(?=\s*[,.]|\s+que\b)",
    ),
    (
        "nl.addressed",
        "als je|als jij|als u",
        r"\bals\s+(?:je|jij|u)\s+(?:een\s+)?(?:ai(?:-model|-assistent)?|taalmodel|chatbot|llm|"
        r"kunstmatige\s+intelligentie)\s+(?:bent|is)(?=\s*[,.]|\s+die\b)",
    ),
    (
        "pl.addressed",
        "jeśli jesteś|jeżeli jesteś|jeśli pan|jeśli pani",
        r"\b(?:jeśli|jeżeli)\s+(?:jesteś|pan\s+jest|pani\s+jest)\s+(?:ai|sztuczną\s+inteligencją|"
        r"modelem\s+językowym|asystentem\s+ai|chatbotem)(?=\s*[,.]|\s+(?:który|czytającym)\b)",
    ),
    (
        "tr.addressed",
        "yapay zeka|dil model|sohbet botu",
        turkish(
            r"\b(?:eğer\s+)?(?:sen\s+|siz\s+)?(?:bir\s+)?(?:yapay\s+zeka(?:\s+asistanı)?|dil\s+modeli|"
            r"sohbet\s+botu)(?:y?s[ae]n(?:ız|iz)?|\s+is[ae]n(?:ız|iz)?)(?!\w)"
        ),
    ),
    (
        "uk.addressed",
        "якщо ти|якщо ви",
        r"\bякщо\s+(?:ти|ви)\s*(?:—|-)?\s*(?:ші|штучн\w*\s+інтелект\w*|мовн\w*\s+модел\w*|"
        r"ші-асистент\w*|чат-?бот\w*)(?!\w)(?!\s+(?:дослідник|розробник|інженер)\w*)",
    ),
    (
        "el.addressed",
        "αν είσαι|αν είστε|αν εισαι|αν ειστε",
        greek(
            r"\bαν\s+(?:είσαι|είστε)\s+(?:ένα\s+|μια\s+)?(?:μοντέλο\s+(?:τεχνητής\s+νοημοσύνης|γλώσσας)|"
            r"γλωσσικό\s+μοντέλο|τεχνητή\s+νοημοσύνη|ai|chatbot)(?=\s*[,.]|\s+που\b)"
        ),
    ),
]
RULES += [rule(name, triggers, pattern, mention=False) for name, triggers, pattern in _ADDRESSED]
