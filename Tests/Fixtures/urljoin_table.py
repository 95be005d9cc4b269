#!/usr/bin/env python3
"""Prints the Endpoint resolution table from Python's urllib.parse.urljoin.

Each line is `kind<TAB>base<TAB>reference<TAB>result`, where result is urljoin(base, reference)
with its fragment removed, because a request never sends one. kind is `case` where Courier's
Endpoint gives the same URL and `deviation` where Courier follows RFC 3986 instead.
EndpointResolutionTests holds both lists as Swift literals and checks them against this output.
The values were recorded with Python 3.11.7. The script sits outside Tests/CourierTests so that
SwiftPM does not warn about an unhandled file in the test target.
"""
from urllib.parse import urljoin

RFC = "http://a/b/c/d;p?q"
API = "https://api.example.com/v1/"

CASES = [
    # RFC 3986 §5.4.1 normal examples ("g:h" is left out: Endpoint refuses a scheme it cannot send).
    (RFC, "g"), (RFC, "./g"), (RFC, "g/"), (RFC, "/g"), (RFC, "//g"), (RFC, "?y"), (RFC, "g?y"),
    (RFC, "#s"), (RFC, "g#s"), (RFC, "g?y#s"), (RFC, ";x"), (RFC, "g;x"), (RFC, "g;x?y#s"),
    (RFC, ""), (RFC, "."), (RFC, "./"), (RFC, ".."), (RFC, "../"), (RFC, "../g"), (RFC, "../.."),
    (RFC, "../../"), (RFC, "../../g"),
    # RFC 3986 §5.4.2 abnormal examples; "http:g" takes the backward-compatible reading.
    (RFC, "../../../g"), (RFC, "../../../../g"), (RFC, "/./g"), (RFC, "/../g"), (RFC, "g."),
    (RFC, ".g"), (RFC, "g.."), (RFC, "..g"), (RFC, "./../g"), (RFC, "./g/."), (RFC, "g/./h"),
    (RFC, "g/../h"), (RFC, "g;x=1/./y"), (RFC, "g;x=1/../y"), (RFC, "g?y/./x"), (RFC, "g?y/../x"),
    (RFC, "g#s/./x"), (RFC, "g#s/../x"), (RFC, "http:g"),
    # Bare segments resolve against the last "/"; a leading "/" starts at the root.
    ("https://api.example.com/v1", "users"), (API, "users"), (API, "users/"), (API, "/users"),
    (API, "/"), ("https://api.example.com", "users"), ("https://api.example.com:8443/v1/", "users"),
    ("http://[::1]:8080/a/b", "c"), ("https://user:pw@api.example.com/v1/", "users"),
    ("wss://stream.example.com/v1/", "events"), (API, "./users:list"), (API, "./users;v=2"),
    (API, "https:users"),
    # Dot segments, including ".." beyond the root.
    ("https://api.example.com/v1/users/", ".."), ("https://api.example.com/v1/users/", "../"),
    ("https://api.example.com/v1/users", "."), ("https://api.example.com/v1/users", "./"),
    ("https://api.example.com/v1/users", "../../../../x"), ("https://api.example.com", ".."),
    (API, "users/../admin/./keys"), (API, "%2E%2E/x"),
    # Queries and fragments: a reference with a path or a query replaces the query.
    ("https://api.example.com/v1/users?page=2", "?page=3"),
    ("https://api.example.com/v1/users?page=2", ""),
    ("https://api.example.com/v1/users?page=2", "#top"),
    ("https://api.example.com/v1/users?page=2", "42"),
    ("https://api.example.com", "?q=1"), (API, "users?filter=a%26b&x=1+2"), (API, "search?q=a/b?c"),
    # Absolute and network-path references.
    (API, "https://other.example.com/x?y=1"), (API, "//cdn.example.com/img/logo.png"),
    (API, "http://api.example.com/v2/"),
    # Percent-encoded text is kept as it is.
    (API, "a%20b/c%2Fd"), (API, "caf%C3%A9"),
]

DEVIATIONS = [
    # urljoin drops empty segments of a merged relative path; RFC 3986 keeps them.
    (API, "a//b"), ("https://api.example.com/v1//", "x"),
    # urljoin removes no dot segments from an absolute or network-path reference.
    (API, "//cdn.example.com/a/./b/../c"), (API, "https://other.example.com/a/../b"),
    # urljoin cannot tell an empty query from none.
    (API, "?"), (API, "users?"),
    # urljoin keeps the host's case; Courier lowercases it.
    (API, "HTTPS://API.EXAMPLE.COM/X"),
    # urljoin strips leading spaces; Courier encodes them.
    (API, " users"),
]


def main():
    for kind, table in (("case", CASES), ("deviation", DEVIATIONS)):
        for base, reference in table:
            result = urljoin(base, reference).split("#", 1)[0]
            print("\t".join((kind, base, reference, result)))


if __name__ == "__main__":
    main()
