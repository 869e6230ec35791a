"""Words for bench/synthetic_pages.py: sentences, names and page chrome in English and
German, drawn from a seeded random generator so that no two pages share their text (the
scorer counts 4-token shingles: repeated sentences would blur what was kept)."""

from __future__ import annotations

import random


def _words(text: str) -> list[str]:
    return [word.strip() for word in text.split(";")]


_EN = {
    "subject": _words(
        "The ferry across the estuary; Our small workshop; The parish council; A baker on the "
        "high street; The path along the river; Every allotment holder; The new reading room; "
        "A volunteer from the village; The old mill by the weir; Most visitors in the summer; "
        "The cooperative dairy; The school choir; A surveyor from the county; The night bus "
        "to the coast; Each apprentice; The walled garden; Our repair café; The lifeboat "
        "crew; A beekeeper up the lane; The market hall"
    ),
    "verb": _words(
        "opens again; will close for repairs; has changed its timetable; keeps a record of; "
        "asks for help with; moved its stalls to; publishes a list of; welcomes questions "
        "about; has started to collect; sets aside a morning for; will repaint; cleared the "
        "brambles from; counted the swallows above; rebuilt the wall behind; measured the "
        "water in"
    ),
    "object": _words(
        "the north meadow; the footbridge; the apple store; the old railway cutting; the tide "
        "tables; the seed library; the cider press; the bell tower; the bicycle racks; the "
        "hedge of hawthorn; the flood gates; the bread ovens; the parish archive; the pond by "
        "the green; the workshop benches"
    ),
    "tail": _words(
        "before the first frost; after the autumn fair; on Saturday mornings; while the road "
        "is closed; until the end of March; once the grant arrives; as it did in the spring; "
        "whenever the weather allows; with the help of neighbours; for the first time in ten "
        "years; at no cost to members; during the school holidays"
    ),
    "clause": _words(
        "which surprised nobody who lives nearby; so bring boots and a flask; although the "
        "forecast looks doubtful; and the notes are kept in the hall; because the last survey "
        "found damp; and children are welcome to join; though the gate sticks when it rains; "
        "so the queue tends to be short; and the results will be posted online; which means "
        "an early start"
    ),
}

_DE = {
    "subject": _words(
        "Die Fähre über den Fluss; Unsere kleine Werkstatt; Der Gemeinderat; Eine Bäckerei in "
        "der Hauptstraße; Der Weg am Ufer entlang; Jeder Kleingärtner; Der neue Lesesaal; "
        "Eine Helferin aus dem Dorf; Die alte Mühle am Wehr; Die meisten Gäste im Sommer; Die "
        "Molkereigenossenschaft; Der Schulchor; Ein Vermesser vom Landkreis; Der Nachtbus an "
        "die Küste; Jede Auszubildende; Der ummauerte Garten; Unser Reparaturcafé; Die "
        "Feuerwehr im Ort"
    ),
    "verb": _words(
        "öffnet wieder; schließt wegen Bauarbeiten; ändert den Fahrplan für; führt ein "
        "Verzeichnis über; bittet um Hilfe bei; verlegt die Stände an; veröffentlicht eine "
        "Liste für; beantwortet Fragen zu; sammelt Spenden für; streicht im Frühjahr; räumt "
        "das Gestrüpp von; zählt die Schwalben über"
    ),
    "object": _words(
        "die Nordwiese; den Steg; das Apfellager; den alten Bahndamm; die Gezeitentafeln; die "
        "Saatgutbibliothek; die Mostpresse; den Glockenturm; die Fahrradständer; die "
        "Weißdornhecke; die Fluttore; die Brotöfen; das Gemeindearchiv"
    ),
    "tail": _words(
        "vor dem ersten Frost; nach dem Herbstmarkt; an Samstagvormittagen; solange die "
        "Straße gesperrt ist; bis Ende März; sobald die Förderung kommt; wie schon im "
        "Frühling; wenn das Wetter es zulässt; mit Hilfe der Nachbarn; zum ersten Mal seit "
        "zehn Jahren; für Mitglieder kostenlos; in den Schulferien"
    ),
    "clause": _words(
        "was im Ort niemanden überrascht hat; also bitte Stiefel und eine Thermoskanne "
        "mitbringen; obwohl die Vorhersage unsicher ist; und die Unterlagen liegen im Saal "
        "aus; weil die letzte Prüfung Feuchtigkeit gefunden hat; und Kinder sind herzlich "
        "willkommen; auch wenn das Tor bei Regen klemmt; sodass die Schlange meist kurz ist"
    ),
}

CHROME = {
    "en": {
        "nav": _words(
            "Home; About us; News; Events; Shop; Contact; Services; Blog; Careers; Press; "
            "Support; Sign in; Gallery; Donate; Visit"
        ),
        "footer": _words(
            "Privacy policy; Terms of use; Cookie settings; Accessibility; Sitemap; Imprint; "
            "Newsletter; Follow us; Jobs; Help centre"
        ),
        "copyright": "All rights reserved.",
        "related": "Related posts",
        "share": _words("Share on Facebook; Share on X; Email this; Print"),
        "comments": "Leave a comment",
        "cookie": "We use cookies to improve your experience. Accept all or choose settings.",
        "feedback": "Was this page helpful? Tell us what we can improve.",
        "filter": _words("Price; Colour; Size; Brand; Availability; Rating; Material"),
        "more": "Read more",
        "buy": "Add to cart",
    },
    "de": {
        "nav": _words(
            "Startseite; Über uns; Aktuelles; Termine; Laden; Kontakt; Leistungen; Blog; "
            "Karriere; Presse; Hilfe; Anmelden; Galerie; Spenden; Anfahrt"
        ),
        "footer": _words(
            "Datenschutz; Nutzungsbedingungen; Cookie-Einstellungen; Barrierefreiheit; "
            "Sitemap; Impressum; Newsletter; Folge uns; Stellenangebote; Hilfebereich"
        ),
        "copyright": "Alle Rechte vorbehalten.",
        "related": "Ähnliche Beiträge",
        "share": _words("Auf Facebook teilen; Auf X teilen; Per E-Mail senden; Drucken"),
        "comments": "Schreibe einen Kommentar",
        "cookie": "Wir verwenden Cookies. Alle akzeptieren oder Einstellungen wählen.",
        "feedback": "War diese Seite hilfreich? Sagen Sie uns, was wir verbessern können.",
        "filter": _words("Preis; Farbe; Größe; Marke; Verfügbarkeit; Bewertung; Material"),
        "more": "Weiterlesen",
        "buy": "In den Warenkorb",
    },
}

_NOUNS = {
    "en": _words(
        "Linen apron; Oak stool; Clay jug; Wool blanket; Copper kettle; Ash spoon; Tin "
        "lantern; Cotton tote; Walnut board; Glass carafe; Felt slippers; Enamel mug; Brass "
        "hook; Rush basket; Stone mortar; Beech tray"
    ),
    "de": _words(
        "Leinenschürze; Eichenhocker; Tonkrug; Wolldecke; Kupferkessel; Eschenlöffel; "
        "Blechlaterne; Baumwolltasche; Nussbrett; Glaskaraffe; Filzpantoffeln; Emaillebecher; "
        "Messinghaken; Binsenkorb; Steinmörser"
    ),
}
_ADJECTIVES = {
    "en": _words(
        "hand-stitched; oiled; glazed; undyed; hammered; turned; woven; waxed; small; large; "
        "green; grey; blue; folding; heavy; light"
    ),
    "de": _words(
        "handgenäht; geölt; glasiert; ungefärbt; gehämmert; gedrechselt; gewebt; gewachst; "
        "klein; groß; grün; grau; blau; faltbar; schwer"
    ),
}


class Words:
    """Seeded text of one language: sentences, paragraphs, titles, product names."""

    def __init__(self, rng: random.Random, lang: str) -> None:
        self.rng, self.lang = rng, lang
        self.bank = _EN if lang == "en" else _DE
        self.chrome = CHROME[lang]
        self._used: set[str] = set()

    def sentence(self) -> str:
        b, rng = self.bank, self.rng
        for _ in range(20):
            parts = [rng.choice(b["subject"]), rng.choice(b["verb"]), rng.choice(b["object"])]
            if rng.random() < 0.8:
                parts.append(rng.choice(b["tail"]))
            text = " ".join(parts)
            if rng.random() < 0.6:
                text += ", " + rng.choice(b["clause"])
            if text not in self._used:
                break
        self._used.add(text)
        return text + "."

    def paragraph(self, low: int = 2, high: int = 5) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(low, high)))

    def phrase(self, low: int = 2, high: int = 5) -> str:
        words = self.sentence().rstrip(".").split()
        start = self.rng.randrange(max(1, len(words) - high))
        return " ".join(words[start : start + self.rng.randint(low, high)]).capitalize()

    def title(self) -> str:
        return self.phrase(3, 7)

    def product(self) -> str:
        return f"{self.rng.choice(_NOUNS[self.lang])}, {self.rng.choice(_ADJECTIVES[self.lang])}"

    def price(self) -> str:
        euros = self.rng.randint(4, 240)
        cents = self.rng.choice(["00", "50", "90", "95", "99"])
        return f"£{euros}.{cents}" if self.lang == "en" else f"{euros},{cents} €"
