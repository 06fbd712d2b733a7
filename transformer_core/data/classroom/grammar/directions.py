"""Directions, as a class practises them: turn left at the corner, go straight, cross the street, take bus
number 7.  Korean asks in 해요체 (-세요); German speaks to du, ihr or Sie, as every request does."""
from __future__ import annotations

from ..sentence import Example, chunk
from .gen import Gen
from .requests import addressee, de_request

# Where to turn or cross: (English, Korean, German dative after "an").
SPOTS = (("at the corner", "모퉁이에서", "an der Ecke"), ("at the second corner", "두 번째 모퉁이에서", "an der zweiten Ecke"),
         ("at the next corner", "다음 모퉁이에서", "an der nächsten Ecke"), ("at the traffic light", "신호등에서", "an der Ampel"),
         ("at the first traffic light", "첫 번째 신호등에서", "an der ersten Ampel"),
         ("at the intersection", "교차로에서", "an der Kreuzung"))
SIDES = (("left", "왼쪽으로", "links"), ("right", "오른쪽으로", "rechts"))
CROSSINGS = (("the street", "길을", "über die Straße"), ("the road", "도로를", "über die Straße"),
             ("the bridge", "다리를", "über die Brücke"))
HOW_FAR = (("for five minutes", "5분 동안", "fünf Minuten"), ("for about five minutes", "5분 정도", "etwa fünf Minuten"),
           ("for about ten minutes", "10분 정도", "etwa zehn Minuten"), ("for two blocks", "두 블록", "zwei Straßen"))
STOPS = (("at the next stop", "다음 정류장에서", "an der nächsten Haltestelle"),
         ("at the second stop", "두 번째 정류장에서", "an der zweiten Haltestelle"),
         ("at the third stop", "세 번째 정류장에서", "an der dritten Haltestelle"))


def _to_place(g: Gen):
    """'to the city hall' / '시청까지' / 'zum Rathaus', or nothing."""
    if not g.chance(0.5):
        return [], [], []
    place = g.pick([p for p in g.lex.places if p.kind == "town"])
    de = chunk(("zum " if place.de_gender in "mn" else "zur ") + place.de, "P")
    return [chunk(place.en_to, "P")], [chunk(place.ko + "까지", "P")], [de], place


def directions(kind: str):
    """kind: turn ('Turn left at the corner.' -> '모퉁이에서 왼쪽으로 도세요.' -> 'Bieg an der Ecke links ab.'),
    straight ('Go straight for about five minutes.' -> '5분 정도 쭉 가세요.' -> 'Geh etwa fünf Minuten geradeaus.'),
    cross ('Cross the street at the traffic light.' -> '신호등에서 길을 건너세요.' -> 'Geh an der Ampel über die
    Straße.'), bus ('Take bus number 7 to city hall.' -> '시청까지 7번 버스를 타세요.' -> 'Nimm den Bus Nummer 7 zum
    Rathaus.'), off ('Get off at the next stop.' -> '다음 정류장에서 내리세요.' -> 'Steig an der nächsten Haltestelle
    aus.')."""
    def build(g: Gen) -> Example:
        address = addressee(g)
        please = g.chance(0.2)
        en_please = [chunk("please", "PLEASE")] if please else []
        de_please = [chunk("bitte", "PLEASE")] if please else []
        lemmas = set()
        if kind == "turn":
            side_en, side_ko, side_de = g.pick(SIDES, used=False)
            spot = g.pick(SPOTS, used=False) if g.chance(0.8) else None
            en = [*en_please, chunk("turn", "V"), chunk(side_en, "D"), *([chunk(spot[0], "L")] if spot else [])]
            ko = [*([chunk(spot[1], "L")] if spot else []), chunk(side_ko, "D"), chunk("도세요", "V")]
            de = de_request("ab|biegen", address, [*de_please, *([chunk(spot[2], "L")] if spot else []),
                                                   chunk(side_de, "D")])
        elif kind == "straight":
            far = g.pick(HOW_FAR, used=False) if g.chance(0.6) else None
            en = [*en_please, chunk("go", "V"), chunk("straight", "D"), *([chunk(far[0], "T")] if far else [])]
            ko = [*([chunk(far[1], "T")] if far else []), chunk("쭉", "D"), chunk("가세요", "V")]
            de = de_request("gehen", address, [*de_please, *([chunk(far[2], "T")] if far else []),
                                               chunk("geradeaus", "D")])
        elif kind == "cross":
            what_en, what_ko, what_de = g.pick(CROSSINGS, used=False)
            spot = g.pick([s for s in SPOTS if "second" not in s[0] and "next" not in s[0]], used=False) \
                if g.chance(0.5) else None
            en = [*en_please, chunk("cross", "V"), chunk(what_en, "O"), *([chunk(spot[0], "L")] if spot else [])]
            ko = [*([chunk(spot[1], "L")] if spot else []), chunk(what_ko, "O"), chunk("건너세요", "V")]
            de = de_request("gehen", address, [*de_please, *([chunk(spot[2], "L")] if spot else []),
                                               chunk(what_de, "O", "V")])
        elif kind == "bus":
            number = str(g.rng.randint(1, 150))
            en_to, ko_to, de_to, *place = _to_place(g)
            lemmas = {place[0].id} if place else set()
            en = [*en_please, chunk("take", "V"), chunk("bus", "O"), chunk("number", "O"), chunk(number, "N"), *en_to]
            ko = [*ko_to, chunk(number + "번", "N"), chunk("버스를", "O"), chunk("타세요", "V")]
            de = de_request("nehmen", address, [*de_please, chunk("den", "O"), chunk("Bus", "O"), chunk("Nummer", "O"),
                                                chunk(number, "N"), *de_to])
        else:
            stop_en, stop_ko, stop_de = g.pick(STOPS, used=False)
            en = [*en_please, chunk("get", "V"), chunk("off", "V"), chunk(stop_en, "L")]
            ko = [chunk(stop_ko, "L"), chunk("내리세요", "V")]
            de = de_request("aus|steigen", address, [*de_please, chunk(stop_de, "L")])
        if please:
            ko = [*ko[:-1], chunk(FAVOURS.get(ko[-1][0], ko[-1][0]), "V", "PLEASE")]
        return Example("", en, ko, de, lemmas=lemmas)
    return build


# Turning and going on, with please, ask the driver a favour (-아/어 주세요: 왼쪽으로 돌아 주세요); the bus one takes, the
# street one crosses and the stop one gets off at are the listener's own: 61번 버스를 타세요, not 타 주세요
FAVOURS = {"도세요": "돌아 주세요", "가세요": "가 주세요"}
