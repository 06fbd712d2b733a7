"""python -m transformer_core translate: --prefix (what-if decoding) and --sample, on the bundled en→ko model."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, text: str = "I like apples.\n") -> list[str]:
    done = subprocess.run([sys.executable, "-m", "transformer_core", "translate", "--checkpoint",
                           str(ROOT / "checkpoints" / "enko"), *args, "-"], input=text, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_prefix_makes_every_translation_begin_with_it():
    assert run("--prefix", "나는 배를", text="I like apples.\nI like pears.\n\n") == \
        ["나는 배를 좋아한다.", "나는 배를 좋아한다.", ""]                     # the lecture's what-if: 좋아한다 follows


def test_sampling_is_the_same_for_a_seed_and_greedy_at_temperature_zero():
    options = ("--sample", "--temperature", "1.5", "--top-k", "50", "--top-p", "0.95")
    text = "My brother is reading a book.\n" * 4
    first = run(*options, "--seed", "7", text=text)
    assert first == run(*options, "--seed", "7", text=text)
    assert run("--sample", "--temperature", "0", text=text) == run("--beam", "1", text=text)


def test_bad_sampling_options_are_refused_with_a_message():
    done = subprocess.run([sys.executable, "-m", "transformer_core", "translate", "--checkpoint",
                           str(ROOT / "checkpoints" / "enko"), "--sample", "--top-p", "0", "-"], input="x\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "--top-p" in done.stderr
