"""Korean in, English out (#40): the whole app on a Korean -> English model, a random-weight MarianMTModel of
the OPUS-MT ko-en configuration (transformers, a test dependency; 2 + 2 layers, d_model 64) with a tiny
vocabulary trained on Korean and English text (tests/data/everyday.tsv and the app's examples), its languages
in tokenizer_config.json ("ko"/"en", or "kor"/"eng" as some Marian models give them), beside this project's
own English -> German toy model.  Every page runs in both interface languages; the pages offer Korean
examples, the lecture's sentence in reverse first; Korean input gets no "cannot read" notice while English
typed into the Korean model, and Hangul typed into the English one, still do; Korean pieces merge into
space-separated words (어절)."""
import json
import shutil

import huggingface_hub
import pytest

from apppages import chart_spec, open_app
from marian_tiny import marian_config, randomize, write_vocabulary
from pages.ui.i18n import strings
from pages.ui.widgets import escape_md
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.marian import TOKENIZER_CONFIG
from transformer_core.explainer import examples, explain
from transformer_core.explainer.input_check import script
from transformer_core.explainer.translate import source_ids, translate
from transformer_core.model.tokenizer import Tokenizer, word_ids, words

pytest.importorskip("transformers")
pytestmark = pytest.mark.usefixtures("one_thread")

NAME, ENGLISH = "opus-mt-tiny-ko-en", "toy-en"         # the sidebar lists the Korean model first
LECTURE = "나는 사과를 좋아한다."                          # the lectures' "I like apples." in reverse
MIXED = ("나는 MacBook을 샀다.", "I bought a MacBook.")       # Korean with a Latin word: more Latin letters than Hangul
PAGES = [None, "diagram", "decoding", "shapes", "masks", "attention_lab", "positional", "training", "bleu", "models"]
SENTENCE_PAGES = (None, "diagram", "decoding", "shapes", "attention_lab")   # the pages with the sentence box


def everyday() -> list[tuple[str, str]]:
    from pathlib import Path

    rows = Path(__file__).with_name("data").joinpath("everyday.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [(ko, en) for en, ko, _ in (row.split("\t") for row in rows)]


def name_languages(folder, codes):
    (folder / TOKENIZER_CONFIG).write_text(json.dumps(dict(zip(("source_lang", "target_lang"), codes, strict=True))))


def save_koen(folder, codes=("ko", "en")):
    """A random MarianMTModel of the opus-mt-ko-en configuration, 2 + 2 layers at d_model 64, with source.spm
    trained on Korean and target.spm on English (every piece in vocab.json), saved as the Hub holds it."""
    import torch
    import transformers

    folder.mkdir(parents=True)
    pairs = everyday() + [(row["ko"], row["en"]) for row in examples.SENTENCES] + [MIXED]
    vocab = write_vocabulary(folder, pairs, sizes=(600, 300), left_out=())   # a piece for each Korean syllable seen
    name_languages(folder, codes)
    cfg = marian_config("opus-mt-ko-en", vocab_size=len(vocab), pad_token_id=len(vocab) - 1, d_model=64,
                        encoder_layers=2, decoder_layers=2, encoder_ffn_dim=128, decoder_ffn_dim=128,
                        max_position_embeddings=64)
    torch.manual_seed(0)
    model = transformers.MarianMTModel(cfg).eval()
    randomize(model, 2)
    model.save_pretrained(folder)


@pytest.fixture(scope="module")
def koen_roots(tmp_path_factory, toy_checkpoints):
    """{"ko": checkpoints/ with the ko-en model ("ko"/"en") and the English toy model, "kor": the same model
    with "kor"/"eng"}."""
    roots = {}
    for codes in (("ko", "en"), ("kor", "eng")):
        root = tmp_path_factory.mktemp(f"koen_{codes[0]}")
        if roots:                       # the same model, its languages named the other way
            shutil.copytree(roots["ko"] / NAME, root / NAME)
            name_languages(root / NAME, codes)
        else:
            save_koen(root / NAME, codes)
        shutil.copytree(toy_checkpoints / ENGLISH, root / ENGLISH)
        roots[codes[0]] = root
    return roots


def serve(monkeypatch, tmp_path, root):
    from pages.ui import model_state

    monkeypatch.setattr(model_state, "CHECKPOINTS_DIR", root)
    monkeypatch.setattr(model_state, "MODELS_DIR", tmp_path / "no-prepared-models")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    return load_checkpoint(root / NAME)


@pytest.fixture
def koen(koen_roots, monkeypatch, tmp_path):
    """The app's checkpoints: the ko-en model (active, the first) and the English toy model."""
    return serve(monkeypatch, tmp_path, koen_roots["ko"])


def app(lang, page=None, **state):
    at = open_app(lang, page and f"pages/{page}.py", **state)
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def notices(at, lang) -> list[str]:
    """The "cannot read this input" warnings shown (wrong script or too many unknown pieces)."""
    s = strings(lang)
    heads = [s[key].split("**")[1] for key in ("sentence.unreadable.script", "sentence.unreadable.unknown")]
    return [w.value for w in at.warning if any(head in w.value for head in heads)]


def unescape(text: str) -> str:
    return text.replace("\\", "")


# --- the examples, their languages and the script check -------------------------------------------------

def test_the_examples_follow_the_source_language():
    assert examples.sources("ko")[0] == examples.sources("kor")[0] == examples.sources("ko-KR")[0] == LECTURE
    assert all(script(s) == "HANGUL" for s in examples.sources("ko"))
    assert all(script(s) == "LATIN" for s in examples.sources("en"))
    assert examples.sources("src") == examples.sources("en")             # no language known: English, as before
    first = examples.pairs("kor", "eng")[0]
    assert first == {"src": LECTURE, "ref": "I like apples."}
    assert all(script(p["src"]) == "HANGUL" and script(p["ref"]) == "LATIN" for p in examples.pairs("ko", "en"))
    assert all("ref" not in p for p in examples.pairs("en", "en"))
    assert examples.lecture("ko", "en") == (LECTURE, "I like apples.", "0-0 1-2 2-1")     # 사과를-apples, 좋아한다-like
    assert examples.lecture("en", "ko") == ("I like apples.", LECTURE, "0-0 1-2 2-1")
    assert examples.lecture("en", "de") == ("I like apples.", "Ich mag Äpfel.", "0-0 1-1 2-2")
    assert examples.batch("kor")[0] == "나는 사과를 좋아한다" and examples.beginning("eng") == "I love"


def test_every_example_text_is_in_one_place():
    """No example sentence is spelt again in the UI strings (the lecture's words may be quoted in prose)."""
    from pathlib import Path

    i18n = Path(__file__).resolve().parents[1] / "assets" / "i18n"
    values = {v for lang in ("en", "ko") for v in json.loads((i18n / f"{lang}.json").read_text(encoding="utf-8")).values()}
    texts = {row[lang] for row in examples.SENTENCES for lang in row}
    texts |= {s for lang in examples.BATCH for s in examples.batch(lang)}
    assert not {v for v in values if v in texts or v.removeprefix("예: ").removeprefix("e.g. ") in texts}
    assert not [v for v in values if "\n" in v and v.split("\n")[0] in texts]      # no batch of them


# --- word merging --------------------------------------------------------------------------------------

KOREAN = ["나는 사과를 좋아한다.", "내 남동생은 책을 읽고 있다.", "오늘은 날씨가 정말 좋다.", "기차역은 어디에 있어요?"]


def test_marian_korean_pieces_merge_into_words(koen):
    tok = koen.tokenizer
    for text in KOREAN:
        pieces = tok.pieces(source_ids(tok, text, koen.config.max_len)[0])
        assert pieces[0].startswith("▁") and len(pieces) > len(text.split()) + 1     # words cut into pieces
        assert words(pieces) == [*text.split(), "</s>"]
    ids = source_ids(tok, LECTURE, koen.config.max_len)[0]
    pieces = tok.pieces(ids)
    merged, _, keys = explain.to_words(explain.teacher_forced_attention(koen.model, ids, [5, 6])["enc_self"],
                                       pieces, pieces)
    assert keys == ["나는", "사과를", "좋아한다.", "</s>"] and merged.shape[-2:] == (4, 4)
    assert abs(merged.sum(-1) - 1).max() < 1e-5                                       # still distributions


def test_our_tokenizers_korean_pieces_merge_into_words():
    from pathlib import Path

    from transformer_core.model.tokenizer import wrap_source

    tok = Tokenizer.load(Path(__file__).resolve().parents[1] / "checkpoints" / "enko" / "spm.model")
    for text in KOREAN:
        pieces = tok.pieces(wrap_source(tok, tok.encode(text)))
        assert words(pieces) == ["<s>", *text.split(), "</s>"], pieces
        assert word_ids(pieces)[-1] == len(text.split()) + 1
    lone = tok.pieces(wrap_source(tok, tok.encode("왜 울어요?")))          # ▁왜 ▁ 울 어요 ?
    assert "▁" in lone and words(lone) == ["<s>", "왜", "울어요?", "</s>"], lone   # a lone word start: one word


# --- the app on the Korean model ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p or "translate")
def test_every_page_runs_on_a_korean_source_model(koen, page, lang):
    at = app(lang, page, masks_splitter="model")
    named = [f"{strings(lang)['srclang.' + a]} → {strings(lang)['srclang.' + b]}" for a, b in (("ko", "en"), ("en", "de"))]
    assert at.sidebar.selectbox(key="sidebar_model").options == named      # NAME, ENGLISH by their languages
    assert not notices(at, lang)
    if page in SENTENCE_PAGES:
        assert at.session_state["atlas_sentence"] == LECTURE                  # the page starts on it
    if page == "masks":                                                       # the model's tokenizer cuts Korean
        assert at.text_area[0].value.split("\n") == list(examples.batch("ko"))
        assert list(at.dataframe[0].value.iloc[0])[:2] == ["·나", "는"]
    if page == "bleu":                                                        # its translation against English
        tr = translate(koen, LECTURE, beam=koen.beam_options["beam"])
        assert at.text_area(key=f"bleu_hyp_{lang}").value == tr.text
        assert at.text_area(key=f"bleu_refs_{lang}").value == "I like apples."
        assert at.selectbox(key="bleu_tok").value == "13a"
        at.button(key="bleu_ex_short").click().run()
        assert at.text_area(key=f"bleu_hyp_{lang}").value == "I like"
    if page == "decoding":                                                    # a beginning to force, in English
        assert strings(lang)["decoding.whatif.typed_placeholder"].format(example="I love") in \
            [w.placeholder for w in at.text_input]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_home_page_offers_korean_the_lectures_sentence_first(koen, lang):
    at = app(lang)
    offered = [b for b in at.button if (b.key or "").startswith("tr_ex_")]
    assert unescape(offered[0].label) == LECTURE and offered[0].label == escape_md(LECTURE)
    assert [unescape(b.label) for b in offered] == examples.sources("ko")
    assert at.session_state["tr_text"] == LECTURE
    assert at.text_input(key="tr_text").placeholder == strings(lang)["sentence.placeholder"].format(example=LECTURE)
    assert any(m.value.startswith("### ") for m in at.markdown)                 # a translation, not struck out
    s = strings(lang)
    assert s["translate.sov_note.from_ko"] in [i.value for i in app(lang, tr_kind=s["attn.kind.cross"]).info]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_attention_over_korean_words(koen, lang):
    at = app(lang, tr_level="word")
    grid = chart_spec(at, "tr_grid_enc_self")
    assert grid["data"][0]["x"][:4] == ["나는", "사과를", "좋아한다.", "&lt;/s&gt;"]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_korean_input_gets_no_notice_and_english_input_does(koen, lang):
    s = strings(lang)
    for text in (*KOREAN, MIXED[0]):                                          # a Latin word in Korean: still Korean
        assert not notices(app(lang, atlas_sentence=text), lang), text
    shown = notices(app(lang, atlas_sentence="I like apples."), lang)
    reads = s["sentence.unreadable.reads"].format(language=s["srclang.ko"], script=s["script.HANGUL"])
    assert len(shown) == 1 and reads in shown[0] and s["script.LATIN"] in shown[0]
    # the English model reads it
    assert s["sentence.unreadable.try"].format(models=f"{s['srclang.en']} → {s['srclang.de']}") in shown[0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_hangul_typed_into_the_english_model_still_gets_the_notice(koen, lang):
    s = strings(lang)
    at = app(lang, atlas_sentence=LECTURE, active_model=f"bundled:{ENGLISH}")
    shown = notices(at, lang)
    reads = s["sentence.unreadable.reads"].format(language=s["srclang.en"], script=s["script.LATIN"])
    assert len(shown) == 1 and reads in shown[0] and s["script.HANGUL"] in shown[0]
    # the Korean model reads it
    assert s["sentence.unreadable.try"].format(models=f"{s['srclang.ko']} → {s['srclang.en']}") in shown[0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_three_letter_codes_read_as_korean_and_english(koen_roots, monkeypatch, tmp_path, lang):
    ckpt = serve(monkeypatch, tmp_path, koen_roots["kor"])
    assert (ckpt.config.src_lang, ckpt.config.tgt_lang) == ("kor", "eng")
    at = app(lang)
    assert at.session_state["tr_text"] == LECTURE and not notices(at, lang)
    shown = notices(app(lang, atlas_sentence="I like apples."), lang)
    assert len(shown) == 1 and strings(lang)["script.HANGUL"] in shown[0]
    at = app(lang, "masks", masks_splitter="model")
    assert at.text_area[0].value.split("\n") == list(examples.batch("ko"))
