"""The error classes themselves."""

import symrow


def test_parse_error_stays_one_line_with_single_backslashes():
    err = symrow.ParseError("cannot read", line=1, column=3, near="\\begin\n{x}\t")
    assert str(err) == "cannot read (line 1, column 3, at '\\begin\\n{x}\\t')"
    assert "\n" not in str(err) and "\\\\" not in str(err)
