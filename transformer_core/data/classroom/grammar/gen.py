"""The generator's state and its word choices: Gen draws the words of one example (core words more
often), and the constants the frames share."""
from __future__ import annotations

import random
from dataclasses import replace

from .. import german, korean
from ..lexicon import Adjective, Lexicon, Noun, Number, Place, Verb, core
from ..phrases import FIRST_PERSON, PRONOUNS, YOUNGER, NounPhrase, Subject

TENSES = ("present", "past", "future", "progressive")

STATIVE = {"like", "love", "hate", "have", "need", "want", "know", "understand", "believe", "hear", "see"}
# A lasting state is not timed ("She likes guitars every night.", "Anna has a little brother on Wednesday.") except
# in the past ("I liked the film yesterday."); "have" is lasting with a person, one's family
LASTING = {"like", "love", "hate"}
TIMELESS = {"grow up"}        # "She grew up in Japan.", not "… three times a day", "On Monday, she grew up …"
DIGITS = 0.5           # a counted thing or an age in digits: "I have 3 apples.", "나는 사과 3개를 …", "Ich habe 3 Äpfel."
MOMENTS = ("at six", "at seven", "at eight", "at nine", "at ten", "at half past", "at noon", "at midnight")
EVERY_FEW_MINUTES = {"every ten minutes", "every fifteen minutes", "every hour"}
EVERY_FEW_MINUTES_VERBS = {"come", "drink", "check", "call", "laugh", "smile", "cough", "sneeze", "yawn", "nod", "wave",
                           "clap", "whistle", "look at", "wash", "stir", "pour", "count"}
# A brief act is timed by the day, not by a year, a month, a week or a season ("I stood this year.", "I will not
# sleep in July.", "She sleeps once a week.")
BRIEF = {"sleep", "get up", "wake up", "jump", "laugh", "sit", "stand", "shout", "smile", "fall asleep", "clap", "snore",
         "nod", "wave", "sweat", "whistle", "cheer", "sneeze", "cough", "yawn", "whisper", "fall", "shower", "go to bed",
         "have breakfast", "have lunch", "have dinner"}
MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"}
SPANS = {"year", "years", "month", "week", "spring", "summer", "autumn", "winter"} | MONTHS
# A meal is had at its time of day: not "We will have lunch this evening." nor "I have dinner before dinner."
NOT_MEALTIME = {"have breakfast": {"afternoon", "evening", "night", "tonight", "lunchtime", "noon", "midnight", "dinner",
                                   "breakfast"},
                "have lunch": {"morning", "evening", "night", "tonight", "midnight", "breakfast", "dinner"},
                "have dinner": {"morning", "afternoon", "noon", "lunchtime", "breakfast", "dinner"}}
# What one says one does not do as a habit ("I don't eat meat.", "She doesn't drive."), never "On Children's Day,
# Minsu's mother doesn't fold a worksheet."
DENIABLE = {"like", "love", "hate", "want", "need", "have", "eat", "drink", "cook", "bake", "buy", "read", "write",
            "study", "learn", "play", "understand", "know", "watch", "listen to", "ride", "drive", "wear", "use",
            "clean", "help", "call", "visit", "meet", "sleep", "get up", "wake up", "run", "swim", "sing", "dance",
            "cry", "work", "exercise", "speak", "talk", "shop", "travel", "climb", "camp", "hike", "fish", "knit",
            "jog", "surf", "take a walk", "have breakfast", "have lunch", "have dinner", "eat out", "do the dishes",
            "go", "come", "walk", "cycle", "enjoy", "believe", "trust", "shower", "practice", "collect", "draw",
            "paint", "chat", "live"}
# What everyone does is not denied as a habit ("She does not sleep.", "On weekends, they do not sleep."), only where
# ("I don't sleep on the sofa."), nor asked about without when ("Do you sleep?", "Does she sometimes sleep?")
EVERYONE_DOES = {"sleep", "get up", "wake up", "go to bed", "shower"}
OF_THE_DAY = ("in the ", "at ", "after ", "before ", "every morning", "every afternoon", "every evening", "every night")
# Not said of what is not done: how many times ("Three times a day, you do not sleep."), for how many minutes
# ("We won't sleep for ten minutes.") or soon ("Soon, the friend will not go to the library.")
NOT_NEGATED = ("once ", "twice ", "three times ", "for ten minutes", "for thirty minutes", "soon")
# Negated with 못, what one did not manage (찾지 못했다, not 찾지 않았다: chose not to), but "does not finish" is a
# habit (끝내지 않는다); what one cannot help is 못 in every tense (이해하지 못한다, 듣지 못한다).
ACHIEVEMENTS = {"find", "win", "finish", "catch"}
ABILITIES = {"understand", "hear", "see"}
BODILY = {"sneeze", "snore", "yawn", "sweat", "cough"}
INVOLUNTARY = BODILY | {"grow up", "fall", "fall asleep"}     # not asked for: "Grow up."
# done in the moment, in answer to something or as the body does it: not foretold ("On Monday, he will smile.", "You
# will sneeze at the store.")
REACTIONS = BODILY | {"laugh", "cry", "smile", "whisper", "nod", "shout"}
# not "at seven o'clock" ("At six o'clock, she whispered.")
UNPLANNED = INVOLUNTARY | REACTIONS | {"lose", "forget", "spill", "miss"}

KO_DESCRIPTIVE = {"있다", "없다", "필요하다", "좋다", "싫다"}       # conjugated like adjectives: 있다, not 있는다

ANIMAL_VERBS = {"sleep", "run", "swim", "eat", "drink", "jump", "walk", "play", "fly", "sing"}  # a deer does not weinen
# What only some animals do, and which: a bird flies (날다); a person flies somewhere, by plane (the motion verb fly,
# 비행기를 타고 가다)
BIRDS = ("bird", "owl", "parrot", "eagle", "duck", "goose", "swan", "pigeon")
ANIMAL_ONLY = {"fly": tuple(f"noun:{n}" for n in (*BIRDS, "bee", "butterfly", "mosquito", "ladybug", "beetle"))}
SOME_ANIMALS = {"sing": ("noun:bird",)}     # what people do and only some animals: a bird sings, a deer does not
# What an animal can do that is worth saying, and which ("The frog can jump.", not "The ant can sleep.", "The bees can
# swim."); what one cannot do is fly ("The hippos can't fly.", not "The hippos can't run.")
ABLE = {"swim": {"dolphin", "whale", "shark", "goldfish", "seal", "penguin", "turtle", "crocodile", "duck", "goose",
                 "swan", "hippo", "polar bear", "frog", "dog"},
        "run": {"horse", "dog", "cat", "lion", "tiger", "deer", "wolf", "fox", "zebra", "rabbit", "puppy", "pony",
                "camel", "giraffe", "kangaroo", "donkey"},
        "jump": {"frog", "kangaroo", "rabbit", "cat", "monkey", "squirrel", "kitten", "goat", "deer", "dog"}}

ROLES = {"student", "teacher", "doctor", "nurse", "cook", "farmer", "police officer", "pilot", "singer", "driver",
         "dentist", "firefighter", "artist", "writer", "scientist", "engineer", "baker", "vet", "soldier", "actor",
         "dancer", "painter", "musician", "waiter", "player", "child", "baby", "boy", "girl", "friend"}

DE_ME = {"acc": "mich", "dat": "mir"}

BARE = {"sport", "subject"}     # "play soccer", "study history": never an article, an owner or an adjective
AGE_AND_SIZE = {"big", "small", "young", "old"}
NOT_BEFORE_A_NOUN = {"proud", "scared", "worried"}    # 자랑스러운, 무서운 남동생 is one others are proud of, afraid of
SIZELESS = {"brother", "sister", "father", "mother"}    # 큰 남동생 is an older younger brother, 작은 아버지 an uncle
PAIRS = {"shoe", "sock", "glove", "boot", "sneaker", "sandal"}    # worn two at a time: "our boots", never "a boot"
FEW_PEOPLE = 4      # the most people one helps, forgives or has: not "Anna will help twenty-five brothers."
ONE_EACH = {"mother", "father", "mom", "dad", "husband", "wife", "family"}    # someone's, one: not "Jiho's mothers"
# What an adjective is not said of: a story has no colour nor weight ("Emma's purple fairy tale"), only some
# animals are long ("Were the goats long?"), water is not sour
ABSTRACT = {"story", "poem", "fairy tale", "sentence", "word", "question", "answer", "email", "homework"}
PHYSICAL = {"thick", "thin", "heavy", "light", "round", "big", "small", "expensive", "cheap", "wet", "dry", "soft",
            "hard", "dirty", "clean"}
LONG_ANIMALS = {"snake", "crocodile", "giraffe", "whale", "dinosaur", "shark"}
NOT_SAID = {"sour": {"water", "milk"}, "bitter": {"water", "milk"}}
# What the world orders by kind: a cow is heavier than a mouse whoever owns it, a car bigger than a motorcycle, so
# these compare two of one kind, told apart by whose ("My bag is bigger than your bag.", not "The mouse is heavier
# than the cow.", "The car is smaller than the motorcycle.")
BY_KIND = {"big", "small", "long", "short", "high", "wide", "narrow", "thick", "thin", "heavy", "light", "fast", "slow",
           "expensive", "cheap", "strong", "weak", "dangerous", "safe", "hard", "soft", "good", "bad", "spicy", "sweet",
           "salty", "sour", "bitter", "bland"}
LITTLE_P = 0.5        # how often 남동생 is "little brother" rather than "brother"

CORE_WEIGHT = 8       # how much more often a core word is drawn than another of its kind

KIN = {"brother", "sister", "son", "daughter", "uncle", "aunt", "cousin", "friend", "twin", "pen pal", "grandson",
       "granddaughter", "husband", "wife"}        # the people one has: "I have two sisters.", not "Anna has fifteen pilots."
# Whose someone can be: one's family and friends and those one goes to ("Mia's teacher", "my doctor"); not "Tom's
# rich soldier", nor "Tom's boy" (his son, 아들) or "Junho's woman" (Junhos Frau, his wife)
SOMEONES = KIN | {"mother", "father", "mom", "dad", "parent", "grandmother", "grandfather", "grandma", "grandpa", "baby",
                  "child", "neighbor", "family", "teacher", "student", "classmate", "principal", "doctor", "dentist",
                  "vet", "coach", "guest", "hairdresser"}
# One's family is someone's, not "this": "I helped my brother.", not "I helped this brother."
FAMILY = (KIN | ONE_EACH | {"grandmother", "grandfather", "grandma", "grandpa", "parent"}) - {"friend", "pen pal"}
SKILLS = {"learn", "teach", "practice"}       # an instrument they take is a skill: "learn piano", "Klavier lernen"

BEDTIME = ("furniture", "city", "place:home", "place:house", "place:apartment", "place:room", "place:bedroom",
           "place:living room", "place:hotel", "place:campsite")      # not in the bathroom, the kitchen or the garage
BEDTIME_VERBS = {"sleep", "fall asleep", "snore", "dream", "go to bed"}     # done where, not with whom
ASLEEP = BEDTIME_VERBS - {"go to bed"}
OUTDOORS = ("town", "home", "room", "nature", "city")
WILD = ("place:mountain", "place:hill", "place:forest", "place:valley", "place:island", "place:countryside",
        "place:jungle")
WATER = ("place:swimming pool", "place:beach", "place:lake", "place:river", "place:sea", "place:pond")
# Where nobody sings, sleeps or runs ("Leon sings at the crosswalk.", "Felix sleeps on the table."): only a verb
# whose WHERE names the place goes there, as only a verb of WHERE goes to a piece of furniture ("I sleep on the
# sofa.")
ODD_PLACES = {"place:elevator", "place:crosswalk", "place:roof", "place:toilet", "place:restroom", "place:bridge",
              "place:gas station", "place:parking lot", "place:attic", "place:basement", "place:hallway", "place:table"}
# Where one does a thing to something, for the verbs whose doing says where: one studies math at the library and
# bakes bread in the kitchen; not "Did I study biology on the mountain?", "He bakes carrots at the train station."
KITCHEN = ("place:kitchen", "place:home", "place:house", "place:apartment", "place:restaurant", "place:cafeteria",
           "place:campsite")
MEALS = (*KITCHEN, "place:living room", "place:school", "place:café", "place:park", "place:garden", "place:yard",
         "place:beach", "place:hotel", "place:ice cream shop", "city", "country")
DESK = ("place:home", "place:house", "place:room", "place:bedroom", "place:living room", "place:school",
        "place:classroom", "place:library", "place:university", "place:café", "place:office", "place:computer room",
        "city", "country")
LESSONS = ("place:school", "place:classroom", "place:music room", "place:gym", "place:home", "place:university",
           "place:elementary school", "city", "country")
SHOPS = ("place:supermarket", "place:market", "place:shop", "place:store", "place:shopping mall", "place:bakery",
         "place:bookstore", "place:flower shop", "place:toy store", "place:department store", "place:clothing store",
         "place:stationery store", "place:pet shop", "place:ice cream shop", "city", "country")
FIELDS = ("place:gym", "place:park", "place:playground", "place:schoolyard", "place:stadium", "place:yard",
          "place:field", "place:beach", "place:school")
GARDENS = ("place:garden", "place:yard", "place:farm", "place:field", "place:balcony", "place:countryside",
           "place:village", "place:park", "place:school")
HOUSE = ("place:home", "place:house", "place:apartment", "place:room", "place:bedroom", "place:living room",
         "place:kitchen", "place:garage", "place:classroom", "place:school", "place:office")
PETS = ("place:home", "place:house", "place:yard", "place:garden", "place:farm", "place:zoo", "place:park",
        "place:pond", "place:pet shop", "place:aquarium")
# What one does to something out in nature too ("I found a stone on the beach.", "We photographed birds in the
# forest."); any other thing is done in town, at home or at school, not "Emma borrows a fork on the mountain."
OUTDOOR_THINGS = {"see", "watch", "look at", "photograph", "draw", "describe", "hear", "listen to", "find", "lose",
                  "look for", "pick up", "hold", "carry", "bring", "take", "collect", "meet",
                  "help", "follow", "chase", "rescue", "protect", "greet", "wait for", "hug", "share", "enjoy"}
WHERE = {   # where one does it, as place kinds or single places; a verb not here is done anywhere else
    **dict.fromkeys(("eat", "drink", "taste"), MEALS),
    **dict.fromkeys(("cook", "cut", "stir", "pour", "warm up", "freeze", "boil", "fry", "peel", "mix", "prepare"),
                    KITCHEN),
    "bake": (*KITCHEN, "place:bakery"), "wash": (*KITCHEN, "place:bathroom"),
    "order": ("place:restaurant", "place:café", "place:cafeteria", "place:ice cream shop", "place:bakery",
              "place:hotel", "city", "country"),
    "buy": SHOPS, "sell": SHOPS,
    **dict.fromkeys(("write", "study", "review", "correct", "check", "copy", "print", "translate"), DESK),
    "read": (*DESK, "place:sofa", "place:bed", "place:park", "place:garden", "place:beach"),
    "hand in": ("place:school", "place:classroom", "place:teachers' room", "place:office", "place:university"),
    **dict.fromkeys(SKILLS, LESSONS), "play": FIELDS,
    "grow": GARDENS, "plant": GARDENS, **dict.fromkeys(("feed", "bathe", "pet"), PETS),
    **dict.fromkeys(("wipe", "paint", "build", "decorate", "tidy up", "lift", "measure", "clean", "fix", "iron", "fold",
                     "sew", "dry", "pack", "wrap", "push", "pull"), HOUSE),
    **dict.fromkeys(("kick", "throw"), (*FIELDS, "place:garden", "place:river", "place:lake")),
    "catch": (*FIELDS, "place:garden", "place:river", "place:lake", "place:sea", "place:pond", "place:forest",
              "place:farm"),
    "ride": ("city", "country", "place:countryside", "place:village", "place:island", "place:park", "place:lake",
             "place:river", "place:sea"),
    "drive": ("city", "country", "place:countryside", "place:village", "place:island"),
    "work": ("town", "home", "city", "country", "place:farm"),
    "exercise": ("place:gym", "place:park", "place:playground", "place:schoolyard", "place:stadium", "place:home",
                 "place:yard", "place:garden", "place:swimming pool"),     # not in the computer room
    "sit": ("room", "home", "place:sofa", "place:bed", "place:park", "place:garden", "place:beach", "place:library"),
    **dict.fromkeys(BEDTIME_VERBS, BEDTIME),
    "swim": WATER, "surf": ("place:beach", "place:sea"),
    "fish": ("place:lake", "place:river", "place:sea", "place:pond", "place:harbor"),
    "camp": ("place:campsite", "place:beach", "place:field", *WILD), "hike": ("country", *WILD),
    "climb": ("country", *WILD), "shop": ("town", "city", "country"),
    "shower": ("place:bathroom", "place:gym", "place:home", "place:hotel"),
    "do the dishes": ("place:kitchen", "place:home", "place:restaurant", "place:cafeteria"),
    "eat out": ("city", "country"), "walk": OUTDOORS, "cycle": ("town", "nature", "city"),     # zum Haus, not ins Haus
    **dict.fromkeys(("go", "come", "come back", "return"), ("town", "home", "room", "nature", "city", "country", "other")),
    "take a walk": ("nature", "city", "place:park", "place:garden", "place:schoolyard"),
    "travel": ("city", "country", "nature"), "fly": ("city", "country", "place:island"),
    "grow up": ("city", "country", "place:village", "place:countryside", "place:farm", "place:island"),
}

# The weather where the class lives, Korea or Germany: no snow in summer, no heat in winter ("It snows in July.",
# "It was hot last winter.", "Will it be chilly in August?")
SUMMERY = {"summer", "June", "July", "August"}
WINTRY = {"winter", "December", "January", "February"}
OUT_OF_SEASON = {"snow": SUMMERY | {"May", "September"}, "hot": WINTRY, "warm": WINTRY, "humid": WINTRY,
                 "cold": SUMMERY, "chilly": SUMMERY, "cool": SUMMERY}

PLEASE_HELP = {"help", "call", "visit", "wake", "understand", "invite", "wait for", "take care of", "meet"}


def cannot(verb: str, tense: str) -> bool:
    """Whether Korean negates the verb with 못 (ACHIEVEMENTS, ABILITIES)."""
    return verb in ABILITIES or verb in ACHIEVEMENTS and tense in ("past", "future")


def in_season(weather: str, time: str) -> bool:
    """Whether the weather (a weather verb or adjective, in English) is said at the time: not "snow in July"."""
    return not OUT_OF_SEASON.get(weather, set()) & set(time.split())


def going(verb: Verb, place: Place) -> Verb:
    """German goes to a country or a city with fahren ("Ich fahre nach Kanada.", "Fahr nach Kanada.") and to a
    building with gehen ("Ich gehe zur Schule.")."""
    return replace(verb, de="fahren") if verb.en == "go" and place.kind in ("country", "city") else verb


def fits(adjective: Adjective, noun: Noun) -> bool:
    """Whether the adjective is said of the noun: a mass has no size ("das kleine Obst"), nor 남동생 (큰 남동생 is an
    older younger brother), nor a person ("the small zookeeper"); a story has no colour nor weight; only some
    animals are long; water is not sour."""
    if adjective.en in AGE_AND_SIZE and (noun.en in SIZELESS or not noun.countable):
        return False
    if adjective.en in ("big", "small") and noun.cls == "person":     # 작은 사육사: the young one, or a short one
        return False
    if noun.en in ABSTRACT and ("color" in adjective.applies or adjective.en in PHYSICAL):
        return False
    if adjective.en == "long" and noun.cls == "animal":
        return noun.en in LONG_ANIMALS
    return noun.en not in NOT_SAID.get(adjective.en, ())


_KEPT: dict[tuple, tuple] = {}      # (the ids of a lexicon's tables, a question) -> (those tables, the answer)


def kept(tables: tuple, question, answer):
    """answer(), once for each question about these lexicon tables (a lexicon's lists; lex.without makes new
    ones): which nouns, verbs, places and times a choice may draw from depends on them alone, and filtering
    the tables again for every choice took most of the generator's time (Gen.nouns, asked ~70 times a
    sentence, half of it).  The tables are kept with the answer, so their ids are not reused meanwhile."""
    key = (tuple(map(id, tables)), question)
    hit = _KEPT.get(key)
    if hit is None:
        hit = _KEPT[key] = (tables, answer())
    return hit[1]


class Gen:
    """A frame's source of choices: the random generator and the lexicon it may draw from."""

    def __init__(self, rng: random.Random, lex: Lexicon):
        self.rng, self.lex, self.core = rng, lex, core()
        self.lemmas: set[str] = set()

    def pick(self, items, used=True):
        """One of items; a core word (lexicon/core.txt) CORE_WEIGHT times as likely as another."""
        items = list(items)
        item = self.rng.choices(items, [CORE_WEIGHT if getattr(i, "id", None) in self.core else 1 for i in items])[0]
        if used and hasattr(item, "id"):
            self.lemmas.add(item.id)
        return item

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def number(self, numbers, most: int = 0) -> Number:
        """One of numbers, in words; or, DIGITS of the time, in digits (so that a model learns to copy them): any
        from 2 to 99 when most is given (a tenth of the time, up to most), else the one drawn."""
        number = self.pick(numbers)
        if not self.chance(DIGITS):
            return number
        if not most:
            return Number.in_digits(number.n)
        return Number.in_digits(self.rng.randint(100, most) if most >= 100 and self.chance(0.1) else
                                self.rng.randint(2, min(99, most)))

    def nouns(self, classes) -> list[Noun]:
        """The nouns of the classes; classes may also name single nouns ("noun:music", one a verb takes
        without its whole class: hear music, not every subject)."""
        classes = classes if isinstance(classes, str | tuple | frozenset) else tuple(classes)
        return list(kept((self.lex.nouns,), ("nouns", classes),
                         lambda: [n for n in self.lex.nouns if n.cls in classes or n.id in classes]))

    def verbs(self, frame: str, animal: bool = False) -> list[Verb]:
        return list(kept((self.lex.verbs, self.lex.nouns), ("verbs", frame, animal), lambda: [
            v for v in self.lex.verbs if v.frame == frame
            and (v.en in ANIMAL_VERBS if animal else frame != "intr" or v.en not in ANIMAL_ONLY)
            and (frame != "tr" or self.nouns(v.obj))]))

    def adjective_for(self, cls: str, comparative: bool = False, noun: Noun | None = None):
        """An adjective of the class, and of the noun if given (fits)."""
        said = [a for a in self.lex.adjectives if cls in a.applies and (not comparative or a.en_comp != "-")
                and (noun is None or fits(a, noun))]
        return self.pick(said) if said else None

    def phrase(self, classes, dets=("a", "the", "bare", "poss", "num", "this"), adjective: float = 0.25,
               plural: bool | None = None) -> NounPhrase:
        """plural=False is one thing, never a pair ("This is my boots.", "These shoes is bigger …")."""
        mass_ok = any(d in ("the", "bare", "poss") for d in dets)
        noun = self.pick([n for n in self.nouns(classes) if (n.countable or mass_ok)
                          and not (plural is False and n.en in PAIRS)])
        dets = [d for d in dets if (noun.countable or d in ("the", "bare", "poss"))
                and not (d == "poss" and noun.cls == "person" and noun.en not in SOMEONES)
                and not (d in ("a", "num") and noun.en in PAIRS) and not (d == "this" and noun.en in FAMILY)] or ["the"]
        det = "bare" if noun.cls in BARE else self.pick(dets)
        is_plural = noun.countable and (det in ("bare", "num") or noun.en in PAIRS or det in ("the", "poss", "this")
                                        and (plural if plural is not None else self.chance(0.3)))
        is_plural = is_plural and not (det == "poss" and noun.en in ONE_EACH)
        owner = number = adj = None
        if det == "poss":
            owner = self.pick(list(PRONOUNS.values()) + list(self.lex.names))
        if det == "num":
            number = self.number([n for n in self.lex.numbers if n.n > 1], most=999)
        if self.chance(adjective) and noun.cls not in BARE:
            adj = self.adjective_for(noun.cls, noun=noun)
            if adj and adj.en in NOT_BEFORE_A_NOUN:
                adj = None
        return NounPhrase(noun, det, is_plural, owner, adj, number, self.little(noun) and not adj)

    def object(self, verb: Verb, dets, adjective: float = 0.25) -> NounPhrase:
        """The object of a transitive verb: a phrase of the classes it takes, except that an instrument one
        learns, teaches or practises is a skill, bare and singular ("He learns piano.", not "teach our cello"),
        and a person one has is kin, counted ("I have two sisters.", not "we have the father", "Anna has
        fifteen pilots"); one does something to a few people at most (FEW_PEOPLE); one collects many things."""
        np = self.phrase(verb.obj, dets=dets, adjective=adjective)
        if np.noun.cls == "instrument" and verb.en in SKILLS:
            return NounPhrase(np.noun, "bare")
        if verb.en in ("ride", "drive") and np.plural:      # one rides one bike: not "I drove cars.", "these cars"
            return replace(np, det="a" if np.det in ("num", "bare") else np.det, plural=False, number=None)
        if verb.en == "collect" and not np.plural:    # a collection has many: "He collects stamps.", not "a coin"
            return replace(np, det="bare" if np.det in ("a", "num") else np.det, plural=True, number=None)
        if np.noun.cls == "person" and np.det == "num" and np.number.n > FEW_PEOPLE:
            np = replace(np, number=self.number([n for n in self.lex.numbers if 1 < n.n <= FEW_PEOPLE]))
        if np.noun.cls == "person" and verb.en == "have":
            if np.noun.en in KIN and (np.det == "a" or np.det == "num" and np.noun.en not in ("husband", "wife")):
                return np
            kin = [n for n in self.nouns(("person",)) if n.en in KIN]
            noun = np.noun if np.noun.en in KIN or not kin else self.pick(kin)
            return NounPhrase(noun, "a", little=self.little(noun))
        return np

    def verb_for(self, verb: Verb, obj: NounPhrase) -> Verb:
        """The verb as Korean and German say it with this object: wear a hat is 모자를 쓰다, wear shoes 신발을 신다,
        close a book 책을 덮다 (korean.BY_OBJECT), help one's grandmother 할머니를 도와드리다 (korean.HUMBLY); one
        reads a book zu Ende and makes homework fertig (german.BY_OBJECT); the English stays."""
        ko = korean.BY_OBJECT.get((verb.ko, obj.noun.en))
        if obj.elder and verb.ko in korean.HUMBLY:
            ko = korean.HUMBLY[verb.ko], ""
        verb = replace(verb, ko=ko[0], ko_irr=ko[1]) if ko else verb
        return replace(verb, de=german.BY_OBJECT.get((verb.de, obj.noun.en), verb.de))

    def place(self, verb: Verb) -> Place:
        """Where one does what the verb says: one swims in the lake, not at the bank (WHERE), sings anywhere but
        at the crosswalk (ODD_PLACES), borrows a fork anywhere but out in nature (OUTDOOR_THINGS), and is said to do
        a thing in a whole country only by WHERE ("She studies in Japan.", not "We chat in Europe.")."""
        where = WHERE.get(verb.en, ())

        def done_there(p: Place) -> bool:
            if p.id in where:
                return True
            if p.id in ODD_PLACES:
                return False
            if where:
                return p.kind in where
            outdoors = verb.frame != "tr" or verb.en in OUTDOOR_THINGS
            return p.kind not in ("furniture", "country") and (p.kind != "nature" or outdoors)
        return self.pick(kept((self.lex.places,), ("places", verb.en, verb.frame),
                              lambda: [p for p in self.lex.places if done_there(p)] or self.lex.places))

    def little(self, noun: Noun) -> bool:
        """Whether 남동생/여동생 is said "little brother"/"little sister" this time."""
        return noun.en in YOUNGER and self.chance(LITTLE_P)

    def subject(self, animal_ok: bool = False, you_ok: bool = True, me_ok: bool = True) -> Subject:
        """me_ok=False leaves out I and we (not "Do we sleep?", "Where did I live?")."""
        r = self.rng.random()
        if r < 0.5:
            keys = [k for k in PRONOUNS if (you_ok or k != "you") and (me_ok or PRONOUNS[k] not in FIRST_PERSON)]
            return Subject(pronoun=PRONOUNS[self.rng.choice(keys)])
        if r < 0.7:
            return Subject(name=self.pick(self.lex.names))
        classes = ("person", "animal") if animal_ok else ("person",)
        return Subject(phrase=self.phrase(classes, dets=("the", "poss"), adjective=0.15))

    def time(self, tense: str, how_long: bool = True, every: bool = True, verb: str = "", neg: bool = False,
             of_day: bool = False):
        """A time expression for the tense; how_long=False leaves out "for an hour" (a sentence's first words,
        and a motion: not "For an hour, I went to school."); every=False leaves out "every night", which a
        negation after it makes "not every night" in English and German but 매일 밤 ... 않는다 in Korean, and which
        a negation reads oddly after in all three ("Every evening, I do not hike.": English says never).  Given
        the verb, a state or what is not planned has no moment ("I have a sister at six o'clock", "She will lose the
        tent at seven o'clock"), and only what is done again and again is done every ten minutes ("She coughs
        every ten minutes.", not "she flies to Australia"); a brief act is timed by the day, not by a year or a
        month (BRIEF), a meal at its time of day (NOT_MEALTIME); neg leaves out times and minutes (NOT_NEGATED);
        of_day keeps the times of the day (OF_THE_DAY: "in the afternoon", "at six o'clock", "after lunch").
        -> None for a lasting state but in the past (LASTING), and for what is told without a time (TIMELESS)."""
        if verb in LASTING and tense != "past" or verb in TIMELESS:
            return None
        state, often = verb in STATIVE, verb in EVERY_FEW_MINUTES_VERBS
        brief = verb in BRIEF
        return self.pick(kept((self.lex.times,), ("times", tense, how_long, every, verb, neg, of_day), lambda: [
            t for t in self.lex.times if tense in t.tenses and (how_long or not t.en.startswith("for "))
            and (every or not t.en.startswith("every "))
            and (often or t.en not in EVERY_FEW_MINUTES)
            and not ((state or verb in UNPLANNED) and t.en.startswith(MOMENTS))
            and not (brief and SPANS & set(t.en.split()))
            and not (neg and t.en.startswith(NOT_NEGATED))
            and not (verb in BEDTIME_VERBS and t.en == "before bed")
            and (not of_day or t.en.startswith(OF_THE_DAY))
            and not NOT_MEALTIME.get(verb, set()) & set(t.en.split())]))
