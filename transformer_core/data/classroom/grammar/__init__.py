"""The frames: sentence patterns that build one Example in English, Korean and German at once.

A frame's name says what it varies: "tr.past.neg" is a transitive statement in the past, negated;
"q.motion.future" a yes/no question; "tf.intr.past.pos" a statement that starts with its time
("Yesterday, Minsu slept." -> "Gestern hat Minsu geschlafen.", V2).  FRAMES lists them all.

Tags (see sentence.py): S subject, V verb (auxiliaries included), NEG negation, MOD can/want to,
O object, P place, T time, A adjective, plus the noun-phrase parts O.det, O.adj, O.num, O.n.
A second clause's tags start with 2 ("2S", "2V").
"""
from .frames import FRAMES, build
from .gen import CORE_WEIGHT, Gen
