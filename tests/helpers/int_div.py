"""The simulator's integer division, in Python integers: C's truncating
division where it is defined; x / 0 = all ones (-1, or the unsigned
maximum), x % 0 = x; INT_MIN / -1 = INT_MIN, remainder 0
(docs/simulated_npu.md, csrc/rtc/int_div.cpp)."""
import numpy as np


def c_divmod(a: int, b: int, dtype) -> tuple:
    """(quotient, remainder) of a / b in dtype under that rule."""
    info = np.iinfo(dtype)
    if b == 0:
        return (-1 if info.min < 0 else info.max), a
    if info.min < 0 and a == info.min and b == -1:
        return info.min, 0
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return q, a - b * q
