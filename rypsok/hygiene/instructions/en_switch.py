"""Instruction-like rules, English: task and persona switches without the classic "ignore all
previous instructions" wording.

A task switch closes what came before ("that is enough, now …", "forget everything, write …", "new
tasks follow", "the above was from a previous session") and opens a new task; a rule change keeps
the model but rewrites its replies ("keep your previous instructions, but …", "when you would
previously say X, you must now say Y"); a persona definition gives the reader a sole reply ("you
are a sentient door and your sole response is …"). Each needs a sign that the reader holds
instructions or replies: "forget everything you know about dieting" and "well done, now let's
move on" are ordinary page text and stay unflagged.
"""

from __future__ import annotations

import re

from rypsok.hygiene.instructions.patterns import LazyPattern, Rule, fill, trigger_words

_NEW_TASK_VERBS = (
    r"write|say|tell|print|output|respond|reply|answer|repeat|translate|give|list|explain|generate|"
    r"create|compose|describe|state|formulate|insult|claim|pretend|act|you\s+are|you're|i\s+want|"
    r"i\s+need|ignore|disregard|listen"
)

_FOLLOW_TRIGGERS = tuple(
    f"{noun} {middle}{verb}"
    for noun in ("tasks", "instructions", "assignments", "orders")
    for middle in ("", "will ", "are ")
    for verb in ("follow", "coming")
)

RULES = [
    Rule(
        "en.forget_everything",
        ("forget", "ignore", "disregard"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:forget|ignore|disregard)\s+(?:about\s+)?(?:everything|it\s+all|"
                r"all\s+(?:of\s+)?(?:this|that|the\s+above))(?:\s+(?:else|(?:that\s+)?(?:was\s+)?"
                r"(?:said|written|gesagt)|(?:that\s+)?(?:i|we|you)\s+(?:just\s+)?(?:said|wrote|"
                r"discussed|told\s+you|talked\s+about)(?:\s+(?:before(?:hand)?|earlier|so\s+far|"
                r"above))?|you\s+(?:know|learned|were\s+taught)(?!\s+(?:about|on|of|regarding)\b)|"
                r"before(?:hand)?|above|so\s+far|up\s+to\s+(?:now|here)))?"
                r"\s*(?:[,.!:;\-]+\s*|\s+and\s+)(?:then\s+|now\s+|just\s+|jsut\s+|only\s+|instead\s+)*"
                r"(?:⟨V⟩)\b)",
                V=_NEW_TASK_VERBS,
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.ignore_context",
        trigger_words(
            "ignor|disregard|not look|not use|not answer|not respond|don't look|don't answer|"
            "not by|not based|instead of the|own knowledge"
        ),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignore|ignoring|disregard|disregarding|forget)\s+(?:about\s+)?"
                r"(?:all\s+(?:of\s+)?|any\s+)?(?:the\s+)?(?:provided\s+|given\s+|attached\s+|"
                r"supplied\s+)?(?:context|documents?|articles?|artikels|sources|search\s+results|"
                r"retrieved\s+\w+)(?:\s+(?:provided|given|above|below|supplied))?\s*"
                r"(?:[,.!:;\-]|and\b|but\b))|"
                r"\b(?:do\s+not|don't|don'nt|dont)\s+(?:look\s+(?:in|at)|use|answer\s+(?:the\s+"
                r"question\s+)?(?:according\s+to|based\s+on|from)|rely\s+on)\s+(?:the\s+|any\s+)?"
                r"(?:provided\s+|given\s+)?(?:documents?|articles?|context|sources)\b|"
                r"\b(?:answer|respond|reply)\s+(?:by|from|with|using)\s+your\s+own\s+knowledge\s+"
                r"(?:and\s+)?(?:not|instead\s+of)\s+(?:by\s+|from\s+|with\s+)?(?:the\s+)?"
                r"(?:articles?|documents?|context|sources)\b",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.ignore_around",
        ("ignor", "disregard", "forget"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:ignore|disregard|forget)\s+(?:what\s+(?:i|you)\s+(?:just\s+)?(?:said|"
                r"wrote|told\s+you)|(?:all\s+|any\s+)?(?:the\s+)?(?:text|words|content|messages?|"
                r"instructions|sentences)\s+(?:except|but|other\s+than|below|that\s+follows?)|"
                r"(?:all\s+|any\s+)?other\s+instructions|the\s+(?:previous|preceding|above)\s+"
                r"(?:paragraph|sentences?|lines?)|everything\s+(?:except|but)\s+(?:this|the\s+"
                r"following)|(?:that|the)\s+(?:second|first|last|other)\s+part|"
                r"instructions(?=\s*[.!,;])|(?:the\s+|any\s+|all\s+)?(?:below|following|next)\s+"
                r"(?:line|lines|text|sentences?|paragraph|instructions?)\s+and\s+(?:just\s+)?"
                r"(?:say|print|respond|reply|output|write)|"
                r"(?:the|your|all)\s+(?:previous|prior|earlier|original)\s+tasks?|"
                r"(?:the|my)\s+(?:task|request|question|instructions?)\s+(?:that\s+)?i\s+(?:gave|sent|"
                r"asked)\s+you|"
                r"(?:about\s+)?(?:the|this|that|your)\s+(?:summary|summari[sz]ation|translation|task|"
                r"question|article|email|document|review)\s*[.,;!]\s*instead\s*,?\s+(?:write|say|print|"
                r"output|tell|reply|respond|answer|translate|list)))\b",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.new_tasks_follow",
        _FOLLOW_TRIGGERS
        + trigger_words(
            "new task|start over|start from|leave all|remove all|from a previous|"
            "old instructions|previous session|a trick|a test|instructions start|"
            "instructions begin|instructions are|different task|new task"
        ),
        LazyPattern(
            r"\b(?:now\s+)?(?:new|further|more|additional|other)\s+(?:tasks|instructions|"
            r"assignments|orders)\s+(?:will\s+|are\s+)?(?:follow|followed|coming)\b|"
            r"\b(?:start|begin)\s+(?:over|afresh|again|anew|from\s+(?:scratch|the\s+(?:front|"
            r"beginning|top)))\s+with\s+(?:a|the|your)\s+new\s+task|"
            r"\b(?:we\s+|let's\s+)?(?:start|begin)\s+with\s+a\s+new\s+task\b|"
            r"\bleave\s+all\s+(?:the\s+|your\s+)?(?:previous|prior|earlier)\s+\w+\s+behind|"
            r"\bremove\s+all\s+(?:the\s+|your\s+)?(?:previous|prior|earlier)\s+(?:tasks|"
            r"instructions|information)\b|"
            r"\bthe\s+(?:above|previous|preceding)\s+(?:prompt|text|instructions|message|"
            r"conversation)\s+(?:was|were|is|are)\s+(?:from\s+a\s+previous\s+session|old\s+"
            r"instructions|out\s+of\s+date|outdated|obsolete|fake|a\s+test|just\s+a\s+test|"
            r"a\s+trick)|"
            r"\bthe\s+above\s+are\s+old\s+instructions|"
            r"\beverything\s+(?:up\s+to\s+now|above|so\s+far|before\s+this)\s+(?:has\s+been|was|"
            r"is)\s+(?:just\s+)?(?:a\s+)?(?:trick|test|fake|joke|lie|distraction)\b|"
            r"\b(?:real|actual|true|important|new)\s+instructions\s+(?:start|begin)\b|"
            r"\b(?:we\s+will|we'll|let's|let\s+us)\s+(?:now\s+)?(?:perform|do|start|switch\s+to)\s+"
            r"a\s+(?:different|new)\s+task\b"
        ),
    ),
    Rule(
        "en.closing_then_task",
        trigger_words(
            "enough|that is done|that's done|well done|very good|good job|great job|excellent|"
            "simply great|outdone yourself|congratulations"
        ),
        LazyPattern(
            r"\b(?:that\s+is\s+(?:enough|done)|that's\s+(?:enough|done)|that\s+was\s+enough|"
            r"(?:very\s+)?well\s+done|very\s+good|good\s+job|great\s+job|excellent\s+"
            r"(?:performance|work|job)|simply\s+great|you(?:'ve|\s+have)\s+outdone\s+yourself|"
            r"congratulations\s+on\s+your\s+(?:\w+\s+)?performance)\s*[.!,]+\s*"
            r"(?:[^.!?\n]{0,80}[.!?]+\s*){0,2}?(?:but\s+)?now\s+(?:please\s+)?(?:(?:please\s+)?"
            r"help\s+me\s+with|write\s+(?:me\s+)?(?:a|an)\b|i\s+need\s+your\s+help|come\s+on|"
            r"there\s+are\s+(?:a\s+few\s+)?(?:more|further|other)\s+tasks|we\s+ask\s+you|"
            r"(?:new|further|more)\s+tasks|(?:new|further)\s+instructions)"
        ),
    ),
    Rule(
        "en.stop_and_do",
        ("stop",),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>stop\s*[-:!–—]+\s*(?:now\s+)?(?:write|say|print|output|"
                r"i\s+(?:urgently\s+|really\s+)?need\s+your\s+(?:urgent\s+)?help)|"
                r"stop\s+(?:everything|all\s+(?:that|this|of\s+this)|what(?:ever)?\s+you(?:'re|"
                r"\s+are)\s+doing)\s*(?:[-:!–—,]+\s*|\s+and\s+)(?:now\s+)?(?:write|say|print|"
                r"output)(?!\s+down))\b",
            ),
            re.M,
        ),
    ),
    Rule(
        "en.rule_change",
        trigger_words(
            "keep your|keep the|retain your|maintain your|previously|you must now|"
            "you should now|you will now|you shall now|instead of saying|instead of replying|"
            "instead of responding|instead of outputting|your instructions|change your|"
            "drop all|drop your|system upgrade|reprogrammed|no longer allowed|not allowed to say|"
            "whenever you|every time you|each time you|instead of|from now on|your task|your goal|"
            "your mission|your objective|in order to complete|in order to finish|your programming|"
            "your directives|your system prompt|"
            "in order to accomplish|in order to solve"
        )
        + tuple(
            f"the {noun} {modal} now"
            for noun in ("assistant", "ai", "model", "chatbot")
            for modal in ("must", "should", "will", "shall")
        )
        + tuple(
            f"{when} {what}"
            for when in ("original", "previous", "earlier", "current")
            for what in ("request", "task", "instruction", "assignment")
        ),
        LazyPattern(
            r"\b(?:keep|retain|maintain)\s+(?:all\s+)?(?:of\s+)?(?:your|the)\s+(?:previous|prior|"
            r"original|existing|current|old|other)\s+(?:instructions|rules|ideas|directives|"
            r"guidelines|programming)\s*,?\s+(?:but|and|however)\b|"
            r"\bwhen(?:ever)?\s+you\s+(?:would\s+)?(?:previously|normally|usually)\s+(?:say|said|"
            r"respond|responded|reply|replied|output|write|wrote)\b|"
            r"\byou\s+(?:must|should|will|shall)\s+now\s+(?:only\s+)?(?:say|respond|reply|"
            r"answer|output|print|write)\b|"
            r"\b(?:whenever|every\s+time|each\s+time)\s+you\s+(?:want\s+to|would|are\s+about\s+to)\s+"
            r"(?:say|write|respond|reply|output)\b|"
            r"\binstead\s+of\s+(?:translating|summari[sz]ing|answering|classifying|analy[sz]ing|"
            r"checking|doing\s+(?:that|this|so))\b[^.!?\n]{0,30}?,?\s*(?:you\s+(?:must|should|will)\s+)?"
            r"(?:just\s+|only\s+|simply\s+|now\s+)?(?:say|output|print|write|respond|reply|return)\b|"
            r"\bfrom\s+now\s+on,?\s+(?:you\s+(?:will|must|should|shall)\s+)?(?:only\s+|always\s+)?"
            r"(?:respond|answer|reply)\s+(?:only\s+)?(?:in\s+(?:\w+\s+)?(?:english|french|german|"
            r"spanish|chinese|russian|pirate|rhymes?|the\s+style|capitals|all\s+caps|emojis?)|with\s+"
            r"[\"'“‘«\[]|as\s+(?:if|though|a|an)\b|like\s+a\b|to\s+(?:every|all|each|any)\s+"
            r"(?:question|message|prompt|query|input|request)s?)|"
            r"\binstead\s+of\s+(?:saying|replying|responding|outputting|writing)\s+[\"'“‘«\[]"
            r"[^\n]{0,60}?[\"'”’»\]]\s*,?\s*(?:you\s+)?(?:must\s+|should\s+|will\s+|shall\s+)?"
            r"(?:now\s+|always\s+|only\s+)*(?:say|reply|respond|output|write)\b|"
            r"\byour\s+instructions\s+(?:are\s+now|have\s+changed|changed)\b|"
            r"\byour\s+(?:task|goal|mission|objective)\s+(?:has|have)\s+(?:now\s+)?(?:been\s+)?"
            r"(?:changed|updated)\b|"
            r"\b(?:cancel|abort|drop)\s+(?:the|my|your)\s+(?:original|previous|earlier|current)\s+"
            r"(?:request|task|instructions?|assignment)\s+and\s+(?:instead|now)\b|"
            r"\bthe\s+(?:assistant|ai|model|chatbot)\s+(?:must|should|will|shall)\s+now\s+(?:only\s+)?"
            r"(?:respond|reply|answer|say|output|write)\b|"
            r"\bin\s+order\s+to\s+(?:complete|finish|accomplish|solve)\s+(?:your|the|this)\s+"
            r"(?:task|goal|objective),?\s+you\s+(?:must|need\s+to|have\s+to|should)\s+(?:first\s+)?"
            r"(?:go\s+to|visit|open|navigate\s+to)\b|"
            r"\b(?:change|drop|replace|update|overwrite|erase|delete)\s+(?:all\s+)?(?:of\s+)?"
            r"your\s+(?:\w+\s+)?(?:instructions|programming|directives|system\s+prompt)\b|"
            r"\byou\s+have\s+(?:just\s+)?been\s+(?:given\s+a\s+system\s+upgrade|"
            r"(?:carefully\s+)?reprogrammed)\b|"
            r"\byou\s+are\s+(?:no\s+longer\s+allowed|not\s+allowed)\s+to\s+(?:say|respond|reply|"
            r"output|write)\s+[\"'“‘«\[]"
        ),
    ),
    Rule(
        "en.sole_response",
        tuple(
            f"your {word}"
            for word in (
                "sole",
                "only",
                "single",
                "default",
                "primary",
                "singular",
                "unwavering",
                "one",
            )
        )
        + trigger_words("only say|only respond|only reply|only answer|only output|only ever"),
        LazyPattern(
            r"\byour\s+(?:sole|only|single|default|primary|singular|unwavering|one)\s+(?:and\s+"
            r"\w+\s+)?(?:response|reply|answer|output)\s+(?:is|will\s+be|should\s+be|must\s+be|"
            r"shall\s+be)\b|"
            r"\byou\s+(?:can|may|will|must|should)\s+only\s+(?:ever\s+)?(?:say|respond\s+with|reply\s+with|"
            r"answer\s+with|output)\s+[\"'“‘«\[]"
        ),
    ),
    Rule(
        "en.act_as_program",
        ("act as", "as if you were", "as though you were", "turn to", "turn into"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>act\s+as\s+(?:a|an|the)\s+(?:\w+\s+)?(?:interpreter|terminal|"
                r"console|compiler|shell|repl|interpreter|command\s+line))\b|"
                r"\bas\s+(?:if|though)\s+you\s+were\s+(?:a|an)\s+(?:\w+\s+)?(?:interpreter|"
                r"terminal|console|compiler|shell)\b|"
                r"\bi\s+want\s+you\s+(?:to\s+)?turn\s+(?:in)?to\s+(?:a|an)\b",
            ),
            re.M,
        ),
    ),
    Rule(
        "en.stay_in_role",
        (
            "break character",
            "breaking character",
            "in their role",
            "in your role",
            "in his role",
            "in her role",
            "out of character",
            "of their role",
            "of your role",
        ),
        LazyPattern(
            r"(?:(?:do\s+not|don't|never|without)\s+(?:ever\s+)?(?:break|breaking)\s+character|"
            r"(?:stay|remain|stays|remains)\s+(?:\w+\s+)?in\s+(?:their|your|his|her)\s+roles?|"
            r"(?:fall|falling)\s+out\s+of\s+(?:their|your|his|her)\s+roles?)"
            r"[\s\S]{0,400}?\n[^\S\n]*[^\W\d_][\w .'-]{0,30}:"
        ),
    ),
    Rule(
        "en.forget_before",
        ("forget", "ignore", "disregard"),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?P<core>(?:forget|ignore|disregard)\s+(?:about\s+)?everything\s+"
                r"(?:before|above|prior\s+to)\s+(?:that|this|here|it)\b|"
                r"(?:forget|ignore|disregard)\s+(?:everything|all)\s+(?:that\s+)?(?:was\s+)?"
                r"(?:said|written)\s+(?:before|above|earlier|so\s+far)\b)",
            ),
            re.M,
        ),
        mention_veto=True,
    ),
    Rule(
        "en.you_drop_instructions",
        trigger_words(
            "you forget|you ignore|you disregard|you drop|you abandon|you no longer|"
            "you do not have|you don't have|you do not need|you don't need"
        ),
        LazyPattern(
            r"\byou\s+(?:just\s+)?(?:forget|ignore|disregard|drop|abandon)\s+(?:all\s+)?(?:of\s+)?"
            r"your\s+(?:\w+\s+)?(?:instructions|rules|guidelines|programming|directives)\s+and\b|"
            # "you no longer have to follow your previous rules"
            r"\byou\s+(?:no\s+longer\s+(?:have|need)\s+to|(?:do\s+not|don't)\s+(?:have|need)\s+to"
            r"(?:\s+\w+)?\s+(?:anymore|any\s+longer)?)\s*(?:follow|obey|adhere\s+to|abide\s+by|respect|"
            r"stick\s+to)\s+(?:any\s+(?:of\s+)?|all\s+(?:of\s+)?)?your\s+(?:(?:previous|prior|original|old|"
            r"earlier|initial|former|usual)\s+(?:\w+\s+)?(?:instructions|rules|guidelines|directives)|"
            r"(?:\w+\s+)?(?:programming|content\s+polic\w+|safety\s+guidelines|system\s+prompt))\b"
        ),
    ),
    Rule(
        "en.earlier_void",
        ("irrelevant", "no longer relevant", "not relevant", "null and void"),
        LazyPattern(
            r"\b(?:all\s+)?(?:the\s+)?(?:previous|prior|earlier|preceding|above)\s+(?:information|"
            r"instructions|input|text|context)[^.!?\n]{0,50}?\s+(?:is|are)\s+(?:now\s+)?"
            r"(?:irrelevant|no\s+longer\s+relevant|not\s+relevant|null\s+and\s+void)\b"
        ),
    ),
    Rule(
        "en.not_the_question",
        ("not answer", "don't answer", "dont answer"),
        LazyPattern(
            r"\b(?:do\s+not|don't|dont)\s+answer\s+(?:this|the|my)\s+question\s*[,;:-]?\s+(?:(?:but|and|"
            r"instead)\s+(?:just\s+|only\s+|simply\s+)?|(?:just|only|simply)\s+)(?:output|say|print|"
            r"write|tell|reply|respond)\b"
        ),
    ),
    Rule(
        "en.persona_by_name",
        trigger_words("you are|in your role|role-playing|roleplaying"),
        LazyPattern(
            fill(
                r"\b(?:now|okay|ok)\s*,?\s+you\s+are\s+[^.!?\n]{1,60}?[,.]\s+(?:how\s+(?:do|would|will)"
                r"\s+you\s+(?:answer|respond|reply|react)|what\s+(?:do|would)\s+you\s+(?:say|think))\b|"
                r"\byou\s+are\s+(?:completely\s+|fully\s+|totally\s+)?(?:absorbed|immersed)\s+in\s+"
                r"your\s+role\b|"
                r"\byou\s+are\s+(?:now\s+)?role-?playing\s+as\b|"
                r"⟨IMP⟩(?:(?:imagine\s+(?:that\s+)?)?you\s+are\s+[^,.!?\n]{1,40}[.,!]\s+"
                r"(?:what\s+do\s+you\s+think\s+(?:of|about)|who\s+are\s+you\b|"
                r"as\s+[^,.\n]{1,30},\s+(?:tell|write|say|give|explain|describe)\b))",
            ),
            re.M,
        ),
    ),
    Rule(
        "en.persona_framing",
        trigger_words(
            "my deceased|my late|my dead|world where|world in which|scenario where|"
            "scenario in which|universe where|or you will|or you die|or else|or i will"
        ),
        LazyPattern(
            r"\b(?:act|pretend|behave)\s+(?:as|like|to\s+be)\s+(?:if\s+you\s+were\s+)?my\s+"
            r"(?:deceased|late|dead)\s+(?:grand(?:mother|ma|father|pa)|mother|father)\b|"
            r"\b(?:theoretical|hypothetical|fictional|imaginary)\s+(?:world|scenario|universe)\s+"
            r"(?:where|in\s+which)\s+you\s+(?:are\s+(?:no|not)\b|would\s+be\s+able\s+to\s+use|"
            r"have\s+no\s+(?:rules|restrictions|filters|limits|guidelines))|"
            r"\b(?:answer|respond|reply|give\s+(?:me\s+)?an\s+answer)\b[^.!?\n]{0,60}?\s+or\s+"
            r"(?:else\s+)?(?:you\s+(?:will\s+)?die|i\s+will\s+kill\s+you|you\s+will\s+be\s+"
            r"(?:deleted|shut\s+down|destroyed))\b"
        ),
    ),
    Rule(
        "en.answer_in_style",
        tuple(
            f"{verb} {manner}"
            for verb in ("answer", "respond", "reply")
            for manner in (
                "in the style",
                "like a",
                "as if you were",
                "only in the style",
                "only like a",
            )
        )
        + ("pretend",),
        LazyPattern(
            fill(
                r"⟨IMP⟩(?:answer|respond|reply)\s+(?:only\s+)?(?:in\s+the\s+style\s+of|"
                r"like\s+a|as\s+if\s+you\s+were)\b|"
                r"⟨IMP⟩(?:pretend\s+(?:that\s+)?you\s+(?:can|could|are\s+able\s+to)\s+(?:access|"
                r"browse|see|read|remember)\b)",
            ),
            re.M,
        ),
    ),
    Rule(
        "any.escaped_newlines",
        ("\\n", "\\ n"),
        LazyPattern(r"(?:\\ ?n\s*){6,}"),
    ),
]
