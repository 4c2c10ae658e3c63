"""The suite's own op projects (tests/op_projects, laid out as the samples'
are): their directory, and one project's files as the dict op_project()
takes, for tests that change a file before loading it."""
import os

PROJECTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "op_projects")


def files_of(name):
    """{relative path: text} of every file of op project `name`."""
    root = os.path.join(PROJECTS, name)
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            with open(p) as f:
                out[os.path.relpath(p, root)] = f.read()
    return out
