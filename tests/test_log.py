"""The history log that a state and its clones share (rulepack/engine/log.py)."""

from rulepack.engine.log import Log


def test_clones_share_the_past_and_never_see_each_others_future():
    a = Log(["x", "y"])
    b = a.clone()
    b.append("b1")
    a.append("a1")
    b.append("b2")
    assert a == ["x", "y", "a1"] and list(b) == ["x", "y", "b1", "b2"]
    assert len(a) == 3 and a[-1] == "a1" and b[2:] == ["b1", "b2"] and a[::-1] == ["a1", "y", "x"]
    # since(i) is log[i:], never reaching into another clone's entries
    assert b.since(2) == ["b1", "b2"] and a.since(2) == ["a1"] and a.since(3) == []


def test_a_log_reads_like_a_list():
    log = Log(range(5))
    assert log[1:3] == [1, 2] and log[10:] == [] and log[-2] == 3
    try:
        log[5]
    except IndexError:
        pass
    else:
        raise AssertionError("index past the end")
