"""The corpus builder: Ding parsing and cleaning, split, dedup, local files, manifest."""
import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from transformer_core.data import build as data
from transformer_core.data.sources import DataError, Pair, ding, files
from transformer_core.model.tokenizer import Tokenizer

ANIMALS = [("Hund", "dog"), ("Katze", "cat"), ("Maus", "mouse"), ("Kuh", "cow"), ("Ziege", "goat"),
           ("Ente", "duck"), ("Gans", "goose"), ("Eule", "owl"), ("Biene", "bee"), ("Fliege", "fly")]
PLACES = [("im Garten", "in the garden"), ("am Fluss", "by the river"), ("im Wald", "in the forest"),
          ("auf dem Dach", "on the roof"), ("vor dem Haus", "in front of the house"), ("im Stall", "in the barn")]

# Lines in Ding's format, written for these tests: German :: English, ' | ' aligned sub-entries.
HAND_LINES = [
    "# Version :: test 2024-01-01",
    "# License :: GPL Version 2 or later; GNU General Public License",
    "Apfel {m} [bot.] | Äpfel {pl} | Ich habe gern Äpfel. :: apple | apples | I like apples.",
    "Bahnhof {m} /Bhf./ [transp.] <Banhof> | Wo ist der Bahnhof? :: "
    "railway station [Br.]; train station [Am.] /Sta./ | Where is the train station?",
    "Katze {f}; Mieze {f} [ugs.] | Katzen {pl} :: cat; kitty [coll.] | cats",
    "jdm. etw. geben {vt} | Gib mir das Buch! :: to give sb. sth. | Give me the book!",
    "Es war reiner/purer Zufall. / Es war Glück. :: It was sheer/pure coincidence.",
    "Wohin fahren Sie (denn)? :: Where (exactly) are you going?",
    "Der Name … wurde genannt. :: The name … was mentioned.",
    "Er fragte nach jdm. :: He asked for sb.",
    "Ja. :: Yes.",
    "Das war's. :: That’s it.",
    "kaputt {adj} | Die Uhr ist kaputt. | Die Uhr ist kaputt. :: broken | The clock is broken. | The clock is broken.",
    "Auf Wiedersehen! Bis morgen! Und grüß deine Eltern von mir! Schlaf gut! :: Bye!",
    "kaputt gehen {vi} :: to break",
]


def generated_lines() -> list[str]:
    lines = []
    for i, (tier, animal) in enumerate(ANIMALS):
        for j, (ort, place) in enumerate(PLACES):
            lines.append(f"Der {tier} schläft {ort}. :: The {animal} is sleeping {place}.")
            if (i + j) % 5 == 0:  # a second German version of the same English sentence
                lines.append(f"{ort.capitalize()} schläft der {tier}. :: The {animal} is sleeping {place}.")
    lines.append("der Hund schläft im Garten {n} :: the dog is sleeping in the garden.")  # a phrase, same English
    return lines


@pytest.fixture()
def ding_file(tmp_path):
    path = tmp_path / "de-en"
    path.write_text("\n".join(HAND_LINES + generated_lines()) + "\n", encoding="utf-8")
    return path


def build(args: list[str]) -> int:
    return data.main([*args, "--vocab-size", "120"])


def read_manifest(folder):
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def test_synonyms_strip_tags_and_split_on_semicolons():
    assert ding.synonyms("Bahnhof {m} /Bhf./ [transp.] <Banhof>") == ["Bahnhof"]
    assert ding.synonyms("railway station [Br.]; train station [Am.] /Sta./") == ["railway station", "train station"]
    assert ding.synonyms("mit {prp; +Dat.} (jdm./etw.) (zu (viel)) Mühe") == ["mit Mühe"]
    assert ding.synonyms("Wohin fahren Sie (denn) ?") == ["Wohin fahren Sie?"]
    assert ding.synonyms("{m} [coll.]") == []
    assert ding.synonyms("runde Klammer / ( /") == []  # an unbalanced bracket: dropped


def test_first_alternative():
    assert ding.first_alternative("It was sheer/pure coincidence.") == "It was sheer coincidence."
    assert ding.first_alternative("Ich bin erkältet / verkühlt / verschnupft.") == "Ich bin erkältet."
    assert ding.first_alternative("Hör auf! / Lass das!") == "Hör auf!"
    assert ding.first_alternative("We drove at 50 km/h on 24/7 duty.") == "We drove at 50 km/h on 24/7 duty."


def test_sentence_classification():
    assert ding.is_sentence("Where is the train station?", "Wo ist der Bahnhof?")
    assert ding.is_sentence("'Stop!', he said.", "„Halt!“, sagte er.")
    assert not ding.is_sentence("Yes.", "Ja.")                                  # too short
    assert not ding.is_sentence("to give sb. sth.", "jdm. etw. geben")          # lower case, no end
    assert not ding.is_sentence("He asked for sb.", "Er fragte nach jdm.")      # a slot
    assert not ding.is_sentence("The name … was mentioned.", "Der Name … wurde genannt.")  # a gap
    assert not ding.is_sentence("the dog is sleeping.", "der Hund schläft.")   # lower case


def test_parse_line_pairs_sub_entries_and_synonyms():
    counts = Counter()
    pairs = ding.parse_line("Katze {f}; Mieze {f} [ugs.] | Katzen {pl} | Die Katze schläft. "
                            ":: cat; kitty [coll.] | cats | The cat is asleep.", counts)
    assert pairs == [Pair("cat", "Katze", "phrase"), Pair("kitty", "Mieze", "phrase"),
                     Pair("cats", "Katzen", "phrase"), Pair("The cat is asleep.", "Die Katze schläft.")]
    assert ding.parse_line("Haus | Häuser :: house", counts) == []  # unaligned sub-entries
    assert counts == {"entries": 1, "sub_entries": 3, "malformed_lines": 1}


def test_read_counts_and_train_only_sentences(ding_file):
    pairs, counts, header = ding.read(ding_file)
    assert header == ["Version :: test 2024-01-01", "License :: GPL Version 2 or later; GNU General Public License"]
    assert counts["raw_lines"] == len(HAND_LINES) + len(generated_lines())
    assert counts["comment_or_blank_lines"] == 2
    assert counts["sentences"] + counts["phrases"] == len(pairs)
    coincidence = next(p for p in pairs if "coincidence" in p.src)
    assert coincidence == Pair("It was sheer coincidence.", "Es war reiner Zufall.", "sentence", evaluable=False)
    assert counts["sentences_train_only"] == 1
    assert Pair("Where are you going?", "Wohin fahren Sie?") in pairs


def test_read_rejects_a_file_that_is_not_ding(tmp_path):
    (tmp_path / "x").write_text("hello\nworld\n", encoding="utf-8")
    with pytest.raises(DataError, match="Ding"):
        ding.read(tmp_path / "x")


def test_clean_drops_and_counts():
    pairs = [Pair("Hello  there.", "Hallo  da."), Pair("Hello there.", "Hallo da."), Pair(" ", "leer"),
             Pair("one two three", "eins"), Pair("a " * 61, "b"),
             Pair("Short.", "Dies ist ein sehr viel längerer deutscher Satz als der englische.")]
    counts = {}
    kept = data.clean(pairs, max_words=60, max_ratio=2.5, counts=counts)
    assert kept == [Pair("Hello there.", "Hallo da."), Pair("one two three", "eins")]
    assert counts == {"dropped_empty": 1, "dropped_too_long": 1, "dropped_length_ratio": 1,
                      "dropped_duplicate": 1, "pairs_kept": 2}


def test_split_keeps_english_sentences_out_of_train():
    pairs = [Pair(f"Sentence {i}.", f"Satz {i}.") for i in range(100)]
    pairs += [Pair(f"sentence {i}.", f"satz {i}", "phrase") for i in range(100)]        # same English
    pairs += [Pair(f"Sentence {i}.", f"Ein Satz {i}.") for i in range(100)]              # same English
    pairs += [Pair(f"Other sentence {i}.", f"Satz {i}.", evaluable=False) for i in range(100)]  # same German
    pairs += [Pair(f"Noisy {i}.", f"Laut {i}.", evaluable=False) for i in range(100)]
    splits = data.split(pairs, test_size=10, valid_size=5, seed=0, counts={})
    assert (len(splits["test"]), len(splits["valid"])) == (10, 5)
    held = splits["test"] + splits["valid"]
    assert all(p.kind == "sentence" and p.evaluable for p in held)
    held_en, held_de = {p.src.lower() for p in held}, {p.tgt.lower() for p in held}
    assert len(held_en) == len(held_de) == 15
    assert not any(p.src.lower() in held_en or p.tgt.lower() in held_de for p in splits["train"])
    assert len(splits["train"]) == 500 - 15 * 4          # each held sentence takes 3 others with it


def test_small_corpora_get_small_valid_and_test_sets():
    pairs = [Pair(f"Sentence number {i}.", f"Satz Nummer {i}.") for i in range(30)]
    splits = data.split(pairs, test_size=1000, valid_size=1000, seed=0, counts={})
    assert [len(splits[s]) for s in ("train", "valid", "test")] == [24, 3, 3]
    with pytest.raises(DataError, match="at least 3"):
        data.split(pairs[:2], test_size=1000, valid_size=1000, seed=0, counts={})


def test_ding_build_end_to_end(ding_file, tmp_path):
    out = tmp_path / "ende"
    assert build(["ding", "--dict", str(ding_file), "--out", str(out), "--test-size", "4", "--valid-size", "3"]) == 0
    m = read_manifest(out)
    assert (m["src_lang"], m["tgt_lang"], m["source"]["licence"]) == ("en", "de", "GPL-2+")
    assert m["command"].startswith("python -m transformer_core data ding --dict")
    assert m["splits"]["test"] == 4 and m["splits"]["valid"] == 3 and m["splits"]["train_phrases"] == 0
    split_pairs = {s: files.read_split(out, s, "en", "de") for s in ("train", "valid", "test")}
    assert {s: len(p) for s, p in split_pairs.items()} == {s: m["splits"][s] for s in split_pairs}
    c = m["counts"]
    assert c["pairs"] == c["sentences"] + c["phrases"]
    after_split = ("dropped_overlap_with_valid_test", "dropped_held_out_english")   # counted after the cleaning
    assert c["pairs_kept"] == c["pairs"] - sum(v for k, v in c.items() if k.startswith("dropped_") and k not in after_split)
    assert c["dropped_duplicate"] == 1                    # "The clock is broken." twice
    assert c["dropped_length_ratio"] == 1                 # "Bye!"
    assert c["pairs_kept"] == (m["splits"]["train_sentences"] + 7 + c["dropped_overlap_with_valid_test"]
                               + c["phrases_available"] + c["dropped_held_out_english"])
    train_en = {en.lower() for en, _ in split_pairs["train"]}
    assert not any(en.lower() in train_en for en, _ in split_pairs["test"] + split_pairs["valid"])
    assert ("I like apples.", "Ich habe gern Äpfel.") not in split_pairs["train"]   # the classroom set's: held out
    assert c["dropped_held_out_english"] >= 1
    assert Tokenizer.load(out / "spm.model").vocab_size == m["tokenizer"]["vocab_size"] <= 120


def test_build_is_deterministic_and_seeded(ding_file, tmp_path):
    runs = {}
    for name, seed in (("a", "0"), ("b", "0"), ("c", "1")):
        build(["ding", "--dict", str(ding_file), "--out", str(tmp_path / name), "--test-size", "4", "--seed", seed])
        runs[name] = {f: (tmp_path / name / f).read_bytes() for f in ("train.en", "test.en", "test.de", "spm.model")}
    assert runs["a"] == runs["b"]
    assert runs["a"]["test.en"] != runs["c"]["test.en"]


def test_phrases_option(ding_file, tmp_path):
    sizes = {}
    for n in ("0", "2", "all"):
        build(["ding", "--dict", str(ding_file), "--out", str(tmp_path / n), "--phrases", n])
        m = read_manifest(tmp_path / n)
        sizes[n] = m["splits"]["train_phrases"]
        assert m["splits"]["train"] == m["splits"]["train_sentences"] + sizes[n]
        test_en = {en for en, _ in files.read_split(tmp_path / n, "test", "en", "de")}
        assert all(ding.is_sentence(en, "X.") for en in test_en)
    assert sizes["0"] == 0 and sizes["2"] == 2 and sizes["all"] == m["counts"]["phrases_available"] > 2


def test_common_first_orders_phrases_by_their_rarest_word_in_the_sentences():
    sentences = [Pair("The cat is on the roof.", "-", "sentence"), Pair("The cat sleeps.", "-", "sentence"),
                 Pair("A dog barks!", "-", "sentence")]
    phrases = [Pair(src, "-", "phrase") for src in ("zebra", "dog", "the cat", "cat", "(the) dog")]
    # the: 3, cat: 2, dog: 1 ('barks!' and '(the)' lose their punctuation), zebra: 0; ties keep their order
    assert [p.src for p in data.common_first(phrases, sentences)] == ["the cat", "cat", "dog", "(the) dog", "zebra"]


def test_phrase_order_common_takes_the_everyday_words(ding_file, tmp_path):
    chosen = {}
    for order in ("random", "common"):
        out = tmp_path / order
        build(["ding", "--dict", str(ding_file), "--out", str(out), "--phrases", "2", "--phrase-order", order,
               "--test-size", "4", "--valid-size", "3"])
        assert read_manifest(out)["options"]["phrase_order"] == order
        train = files.read_split(out, "train", "en", "de")
        chosen[order] = {en for en, _ in train if not ding.is_sentence(en, "X.")}
    # words of many training sentences ("The cat is sleeping …"), not 'kitty', 'to break' or 'railway station'
    assert chosen["common"] == {"cat", "the dog is sleeping in the garden."}
    assert len(chosen["random"]) == 2 and chosen["random"] != chosen["common"]


def test_tokenizer_option_reuses_a_tokenizer_byte_for_byte(ding_file, tmp_path, capsys):
    common = ["ding", "--dict", str(ding_file), "--test-size", "4", "--valid-size", "3"]
    assert build([*common, "--out", str(tmp_path / "a")]) == 0
    spm = tmp_path / "a" / "spm.model"
    assert build([*common, "--out", str(tmp_path / "b"), "--phrases", "all", "--tokenizer", str(spm)]) == 0
    assert (tmp_path / "b" / "spm.model").read_bytes() == spm.read_bytes()
    tokenizer = read_manifest(tmp_path / "b")["tokenizer"]
    assert tokenizer["reused_from"] == str(spm)
    assert tokenizer["sha256"] == read_manifest(tmp_path / "a")["tokenizer"]["sha256"]
    for name in ("test.en", "valid.de"):                                   # the same held-out sentences
        assert (tmp_path / "b" / name).read_bytes() == (tmp_path / "a" / name).read_bytes()

    (tmp_path / "not.model").write_text("not a sentencepiece model")
    assert build([*common, "--out", str(tmp_path / "c"), "--tokenizer", str(tmp_path / "not.model")]) == 2
    assert "cannot use" in capsys.readouterr().err and not (tmp_path / "c" / "spm.model").exists()


def test_phrases_option_rejects_nonsense(capsys):
    with pytest.raises(SystemExit):
        data.main(["ding", "--out", "x", "--phrases", "many"])
    assert "a number or 'all'" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")
def test_fetch_unpacks_a_local_deb_and_records_it(ding_file, tmp_path):
    root = tmp_path / "pkg"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text("Package: trans-de-en\nVersion: 9.9-1\nArchitecture: all\n"
                                             "Maintainer: Test <t@example.org>\nDescription: test\n")
    (root / "usr/share/trans").mkdir(parents=True)
    shutil.copy(ding_file, root / "usr/share/trans/de-en")
    deb = tmp_path / "trans-de-en_9.9-1_all.deb"
    subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(root), str(deb)], check=True, capture_output=True)
    path, meta = ding.fetch(tmp_path / "cache", deb)
    assert path.read_bytes() == ding_file.read_bytes()
    assert meta["version"] == "9.9-1" and meta["deb"] == deb.name and len(meta["deb_sha256"]) == 64


def write_files(folder, src_lines, tgt_lines):
    (folder / "my.en").write_text("".join(s + "\n" for s in src_lines), encoding="utf-8")
    (folder / "my.de").write_text("".join(s + "\n" for s in tgt_lines), encoding="utf-8")
    return ["files", "--src", str(folder / "my.en"), "--tgt", str(folder / "my.de"),
            "--src-lang", "en", "--tgt-lang", "de", "--out", str(folder / "mine")]


def test_files_mode_builds_a_corpus(tmp_path):
    en = [f"The {a} is sleeping {p}." for _, a in ANIMALS for _, p in PLACES]
    de = [f"Der {t} schläft {o}." for t, _ in ANIMALS for o, _ in PLACES]
    assert build(write_files(tmp_path, en + [""], de + ["Leer."])) == 0   # the empty pair is dropped
    m = read_manifest(tmp_path / "mine")
    assert m["counts"]["raw_lines"] == 61 and m["counts"]["dropped_empty"] == 1
    assert m["splits"] == {"train": 48, "train_sentences": 48, "train_phrases": 0, "valid": 6, "test": 6}
    assert m["source"]["src_file"].endswith("my.en") and len(m["source"]["tgt_sha256"]) == 64
    assert sorted(files.read_split(tmp_path / "mine", "test", "en", "de") +
                  files.read_split(tmp_path / "mine", "valid", "en", "de") +
                  files.read_split(tmp_path / "mine", "train", "en", "de")) == sorted(zip(en, de, strict=True))


@pytest.mark.parametrize("src, tgt, message", [
    (["a b c.", "d e f."], ["a b c."], "has 2 lines but .* has 1"),
    ([], ["a b c."], "is empty"),
    (["Same."] * 5, ["Gleich."] * 5, "only 1 distinct sentence pairs"),
])
def test_files_mode_errors_are_messages_not_tracebacks(tmp_path, capsys, src, tgt, message):
    assert build(write_files(tmp_path, src, tgt)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert re.search(message, err)


def test_files_mode_missing_file_and_same_language(tmp_path, capsys):
    args = write_files(tmp_path, ["One two three."] * 3, ["Eins zwei drei."] * 3)
    assert build([*args[:2], str(tmp_path / "nope.en"), *args[3:]]) == 2
    assert "nope.en: no such file" in capsys.readouterr().err
    assert build([*args[:6], "en", "--tgt-lang", "en", *args[9:]]) == 2
    assert "both 'en'" in capsys.readouterr().err


def test_auf_deutsch_source_reads_packs_and_keeps_dialogues_for_testing(tmp_path):
    """A wheel shaped like auf-deutsch's (made here, offline): pack phrases and examples train and validate,
    dialogue lines only test; a test sentence that also appears in a pack is taken out of training."""
    import zipfile

    from transformer_core.data import build as data

    wheel = tmp_path / "auf_deutsch-0.1.1-py3-none-any.whl"
    pack = {"phrases": [{"en": "good morning", "de": "guten Morgen", "variations": [{"en": "good evening", "de": "guten Abend"}],
                         "examples": [{"en": f"I like the {n} apples.", "de": f"Ich mag die {n} Äpfel."}
                                      for n in ("red", "green", "big", "small", "old", "new", "sweet", "sour", "cheap",
                                                "fresh", "two", "three")] + [{"en": "Where is the bakery?",
                                                                               "de": "Wo ist die Bäckerei?"}]}]}
    dialogue = {"lines": [{"en": "Where is the bakery?", "de": "Wo ist die Bäckerei?"},
                          {"en": "It is next to the bank.", "de": "Sie ist neben der Bank."},
                          {"en": "Thank you very much.", "de": "Vielen Dank."}]}
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("auf_deutsch/content/packs/food.json", json.dumps(pack))
        zf.writestr("auf_deutsch/content/dialogues/bakery_d1.json", json.dumps(dialogue))
        zf.writestr("auf_deutsch/app.py", "print('never imported')")
    out = tmp_path / "ad"
    assert data.main(["auf-deutsch", "--out", str(out), "--wheel", str(wheel), "--vocab-size", "120"]) == 0
    test = (out / "test.en").read_text(encoding="utf-8").splitlines()
    train = (out / "train.en").read_text(encoding="utf-8").splitlines()
    valid = (out / "valid.en").read_text(encoding="utf-8").splitlines()
    assert sorted(test) == sorted(line["en"] for line in dialogue["lines"])
    assert "Where is the bakery?" not in train + valid and "good evening" in train and "good morning" in train
    assert len(train) + len(valid) == 2 + 12
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"]["licence"].startswith("MIT") and manifest["counts"]["dialogue_lines"] == 3
    bad = tmp_path / "bad.whl"
    bad.write_bytes(b"not a zip")
    assert data.main(["auf-deutsch", "--out", str(tmp_path / "x"), "--wheel", str(bad)]) == 2


def test_tatoeba_build_keeps_attribution_and_holds_out_the_test_english(tmp_path):
    from transformer_core.data.sources import tatoeba

    out = tmp_path / "tatoeba"
    assert data.main(["tatoeba", "--pair", "en-ko", "--out", str(out), "--vocab-size", "1500"]) == 0  # Hangul: >1,000 characters
    m = read_manifest(out)
    assert m["source"]["name"] == "tatoeba" and m["source"]["licence"].startswith("CC-BY-2.0-FR")
    assert (m["counts"]["raw_pairs"], m["counts"]["laser_pairs"], m["counts"]["attributed_pairs"]) == (5749, 1000, 6749)
    splits = {s: files.read_split(out, s, "en", "ko") for s in ("train", "valid", "test")}
    assert (len(splits["test"]), len(splits["valid"])) == (500, 300)
    for name, pairs in splits.items():   # every pair keeps its attribution: kor.txt's numbers, LASER's contributors
        lines = (out / f"{name}.attribution").read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(pairs) and all(line.startswith("CC-BY 2.0 (France) Attribution: tatoeba.org")
                                                for line in lines)
        numbered = sum(line.startswith("CC-BY 2.0 (France) Attribution: tatoeba.org #") for line in lines)
        assert numbered == len(lines) if name != "train" else 0 < numbered < len(lines)   # LASER's pairs train only
    # LASER's pairs leave valid and test as kor.txt alone makes them, and add training pairs
    alone = tmp_path / "kor-only"
    assert data.main(["tatoeba", "--pair", "en-ko", "--out", str(alone), "--vocab-size", "1500",
                      "--file", str(tatoeba.FOLDER / "kor.txt")]) == 0
    assert "laser_pairs" not in read_manifest(alone)["counts"]
    for name in ("valid", "test"):
        assert files.read_split(alone, name, "en", "ko") == splits[name]
    assert len(splits["train"]) - len(files.read_split(alone, "train", "en", "ko")) > 700
    train = {en.lower() for en, _ in splits["train"]}
    assert not train & {en.lower() for en, _ in splits["test"] + splits["valid"]}
    held = data.held_out_english(list(data.HELD_OUT))
    assert not train & held and m["counts"]["dropped_held_out_english"] > 0
    # the lectures' register (the default): casual endings rewritten, counted; as-written keeps them
    assert m["source"]["register"].startswith("lecture") and 2000 < m["counts"]["register_changed"] < 4000
    korean = {en: ko for en, ko in splits["train"] + splits["valid"] + splits["test"]}
    assert korean["Tom disappeared."] == "톰이 사라졌다."
    written = tmp_path / "as-written"
    assert data.main(["tatoeba", "--pair", "en-ko", "--out", str(written), "--vocab-size", "1500",
                      "--register", "as-written"]) == 0
    assert "register_changed" not in read_manifest(written)["counts"]
    assert dict(sum((files.read_split(written, s, "en", "ko") for s in splits), []))["Tom disappeared."] == "톰이 사라졌어."


def test_laser_files_that_do_not_align_are_refused(tmp_path):
    from transformer_core.data.sources import tatoeba

    (tmp_path / "x.eng").write_text("I like apples.\nHello.\n", encoding="utf-8")
    (tmp_path / "x.kor").write_text("나는 사과를 좋아한다.\n", encoding="utf-8")
    with pytest.raises(DataError, match="x.eng has 2 lines and .*x.kor 1"):
        tatoeba.read_laser(tmp_path / "x")
    with pytest.raises(DataError, match="y.eng"):
        tatoeba.read_laser(tmp_path / "y")
    (tmp_path / "x.kor").write_text("나는 사과를 좋아한다.\n안녕.\n", encoding="utf-8")
    assert [(p.src, p.evaluable) for p in tatoeba.read_laser(tmp_path / "x")] == [("I like apples.", False),
                                                                                  ("Hello.", False)]


def test_the_everyday_set_is_in_no_training_source():
    """tests/data/everyday.tsv: 150+ sentences a class would type, with Korean and German, none of whose
    English is in a corpus this project trains on from its own files (Tatoeba, the classroom set, the
    app's examples); the corpus builder drops them from the registry sources (held_out_english)."""
    from transformer_core.data.sources import tatoeba
    from transformer_core.training.evaluate import read_tsv_pairs

    path = Path(__file__).parent / "data" / "everyday.tsv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == ["en", "ko", "de"] and len(rows) - 1 >= 150
    assert all(len(r) == 3 and all(cell.strip() for cell in r) for r in rows[1:])
    english = {data._key(data.normalize(r[0])) for r in rows[1:]}
    assert len(english) == len(rows) - 1
    sources = {data._key(data.normalize(p.src)) for lang in ("ko", "de")
               for p in tatoeba.read_pairs(tatoeba.FOLDER / tatoeba.FILES[lang])}
    sources |= {data._key(data.normalize(p.src)) for p in tatoeba.read_laser(tatoeba.FOLDER / tatoeba.LASER["ko"])}
    sources |= data.held_out_english([p for p in data.HELD_OUT if p.name != "everyday.tsv"])
    assert not english & sources
    assert english <= data.held_out_english(list(data.HELD_OUT))
    assert len(read_tsv_pairs(path, "en", "ko")) == len(read_tsv_pairs(path, "en", "de")) == len(rows) - 1


def test_a_reused_tokenizer_keeps_pairs_it_cannot_spell_out_of_training():
    tokenizer = Tokenizer.load(data.ROOT / "checkpoints" / "enko" / "spm.model")
    assert tokenizer.unk_id in tokenizer.encode("딸꾹질을 한다.")     # 꾹 is not among its pieces
    spelt, unspellable = Pair("I like apples.", "나는 사과를 좋아한다."), Pair("I have the hiccups.", "나는 딸꾹질을 한다.")
    counts = {}
    assert data.drop_unknown([spelt, unspellable, spelt], tokenizer, counts) == [spelt, spelt]
    assert counts["dropped_unknown_pieces"] == 1


def test_the_numbers_sentences_never_train():
    """tests/data/numbers.txt (the numbers check: a sentence a line, confidence --numbers) is held out like the
    test sets: the generator now writes numbers in digits and could say "I have 3 apples." itself."""
    path = Path(__file__).parent / "data" / "numbers.txt"
    english = {data._key(data.normalize(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert len(english) == 20 and english <= data.held_out_english(list(data.HELD_OUT))
    assert not english & data.held_out_english([p for p in data.HELD_OUT if p != path])     # the .txt holds them
