#!/usr/bin/env python3
"""Flags SQL statements that often cause outages or data loss.

Usage: python3 scripts/risky-sql.py FILE_OR_DIR [...]

Scans .sql files (directories recursively) and prints one line per finding:

    path:line: severity rule: message

"high" findings can lose data or lock a busy table; "check" findings are often
fine but deserve a look. Exit status: 0 without high findings, 1 with at least
one, 2 on a usage error. Standard library only; Python 3.8 or later.

It is a heuristic, not a parser: it removes comments, blanks string literals,
splits on ";" and matches patterns. It misses some problems and flags some safe
statements (an index on a table created in the same migration), so read every
finding before acting on it.
"""
import os
import re
import sys

# (rule, severity, pattern on the statement with whitespace collapsed, message)
RULES = [
    ("delete-without-where", "high", r"^DELETE\b(?!.*\bWHERE\b)",
     "DELETE without WHERE removes every row"),
    ("update-without-where", "high", r"^UPDATE\b(?!.*\bWHERE\b)",
     "UPDATE without WHERE changes every row"),
    ("truncate", "high", r"^TRUNCATE\b",
     "TRUNCATE removes every row"),
    ("drop", "high", r"^DROP\s+(?:TABLE|SCHEMA|DATABASE)\b|\bDROP\s+COLUMN\b",
     "dropping a table or column loses its data; ship code that stops using it first"),
    ("index-not-concurrent", "high", r"^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(?!CONCURRENTLY\b)",
     "PostgreSQL: CREATE INDEX blocks writes while it builds; use CONCURRENTLY on existing tables"),
    ("not-null-without-default", "high",
     r"\bADD\s+(?:COLUMN\s+)?(?!CONSTRAINT\b)(?![^,]*\bDEFAULT\b)[^,]*\bNOT\s+NULL\b",
     "adding a NOT NULL column without DEFAULT fails on a table that has rows"),
    ("column-type-change", "high", r"\bALTER\s+(?:COLUMN\s+)?\S+\s+(?:SET\s+DATA\s+)?TYPE\b",
     "PostgreSQL: changing a column type usually rewrites the table under an exclusive lock"),
    ("modify-column", "check", r"\bMODIFY\s+(?:COLUMN\s+)?\S+",
     "MySQL: MODIFY COLUMN may copy the table; check the ALGORITHM it can use"),
    ("set-not-null", "check", r"\bALTER\s+(?:COLUMN\s+)?\S+\s+SET\s+NOT\s+NULL\b",
     "PostgreSQL: SET NOT NULL scans the table under an exclusive lock; validate a CHECK constraint first"),
    ("constraint-not-valid", "check",
     r"\bADD\s+CONSTRAINT\s+\S+\s+(?:FOREIGN\s+KEY|CHECK)\b(?!.*\bNOT\s+VALID\b)",
     "PostgreSQL: add FOREIGN KEY and CHECK constraints NOT VALID, then VALIDATE CONSTRAINT"),
    ("rename", "check", r"^ALTER\b.*\bRENAME\b",
     "a rename breaks the old code still running during a deploy"),
    ("lock-table", "check", r"^LOCK\s+(?:TABLE\b|\w+\s+IN\b)",
     "explicit table lock; check its mode and how long it is held"),
    ("select-star", "check", r"\bSELECT\s+\*\s+FROM\b",
     "SELECT * breaks when columns change and reads more than needed"),
]
COMPILED = [(rule, severity, re.compile(pattern, re.IGNORECASE), message)
            for rule, severity, pattern, message in RULES]

# Comments, string literals, quoted identifiers, dollar-quoted bodies, and the
# statement separator. Group 1 is the dollar-quote tag.
TOKEN = re.compile(
    r"--[^\n]*|/\*.*?\*/|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\$(\w*)\$.*?\$\1\$|;",
    re.DOTALL,
)


def leading_newlines(segment):
    return segment[: len(segment) - len(segment.lstrip())].count("\n")


def split_statements(text):
    """Returns (first line, statement) pairs, comments removed and literals blanked."""
    found, parts, first, line, pos = [], [], None, 1, 0
    for match in TOKEN.finditer(text):
        segment = text[pos:match.start()]
        if first is None and segment.strip():
            first = line + leading_newlines(segment)
        parts.append(segment)
        line += segment.count("\n")
        token = match.group(0)
        if token == ";":
            if first is not None:
                found.append((first, "".join(parts)))
            parts, first = [], None
        elif token.startswith(("--", "/*")):
            parts.append(" ")
        else:
            if first is None:
                first = line
            # Keep the literal's place so the statement still reads right, drop its content.
            parts.append('"_"' if token.startswith('"') else "''")
        line += token.count("\n")
        pos = match.end()
    segment = text[pos:]
    if first is None and segment.strip():
        first = line + leading_newlines(segment)
    parts.append(segment)
    if first is not None:
        found.append((first, "".join(parts)))
    return found


def scan(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    findings = []
    for line, statement in split_statements(text):
        flat = " ".join(statement.split())
        for rule, severity, pattern, message in COMPILED:
            if pattern.search(flat):
                findings.append((line, severity, rule, message))
    return findings


def sql_files(arguments, missing):
    for argument in arguments:
        if os.path.isdir(argument):
            for root, dirs, names in os.walk(argument):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
                for name in sorted(names):
                    if name.lower().endswith(".sql"):
                        yield os.path.join(root, name)
        elif os.path.isfile(argument):
            yield argument
        else:
            print(f"risky-sql: no such file or directory: {argument}", file=sys.stderr)
            missing.append(argument)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    total = high = 0
    missing = []
    for path in sql_files(argv, missing):
        for line, severity, rule, message in scan(path):
            print(f"{path}:{line}: {severity} {rule}: {message}")
            total += 1
            high += severity == "high"
    print(f"risky-sql: {total} finding(s), {high} high", file=sys.stderr)
    if missing:
        return 2
    return 1 if high else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
