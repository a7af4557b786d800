"""Test oracles: the former numpy implementations of the game cores, kept only to check the
compiled ones against (differential tests, ``madang bench --oracle``).  Never imported by
production code.  The checks below are shared by the differential tests."""


def assert_same_errors(fast, slow, seeds, bad_batches) -> None:
    """Each batch of actions in ``bad_batches`` makes ``fast.step`` and ``slow.step`` (games of
    ``seeds``) raise ``ValueError`` with the same message, and changes nothing."""
    import numpy as np
    import pytest

    s_fast, s_slow = fast.init(seeds), slow.init(seeds)
    for bad in bad_batches:
        with pytest.raises(ValueError) as e_fast:
            fast.step(s_fast, np.array(bad))
        with pytest.raises(ValueError) as e_slow:
            slow.step(s_slow, np.array(bad))
        assert str(e_fast.value) == str(e_slow.value)
    assert s_fast.equals(s_slow) and s_fast.equals(fast.init(seeds))


def step_both(fast, slow, s_fast, s_slow, actions, rows=None, where: str = "") -> int:
    """Step both cores with the same ``actions``: every game, or the games ``rows`` (with
    ``actions[rows]``) through ``step_where``; assert equal rewards; returns the number of
    decisions applied."""
    import numpy as np

    if rows is None:
        r_fast, r_slow = fast.step(s_fast, actions), slow.step(s_slow, actions)
    else:
        r_fast = fast.step_where(s_fast, rows, actions[rows])
        r_slow = slow.step_where(s_slow, rows, actions[rows])
    np.testing.assert_array_equal(r_fast, r_slow, err_msg=where)
    return len(actions) if rows is None else len(rows)


def check_same(fast, slow, s_fast, s_slow, where: str = ""):
    """Assert that both cores hold equal states with equal masks and observations (the mover's
    and every seat's); returns the mask."""
    import numpy as np

    assert s_fast.equals(s_slow), f"{where}: states differ"
    m = fast.legal_mask(s_fast)
    np.testing.assert_array_equal(m, slow.legal_mask(s_slow), err_msg=where)
    np.testing.assert_array_equal(fast.observe(s_fast), slow.observe(s_slow), err_msg=where)
    for seat in range(fast.num_players):
        np.testing.assert_array_equal(fast.observe(s_fast, seat), slow.observe(s_slow, seat), err_msg=where)
    return m
