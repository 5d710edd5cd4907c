#!/usr/bin/env python3
"""Checks that the library modules apps link use no standard-library or
Foundation declaration newer than the platforms Package.swift declares,
except inside an `if #available` or under an `@available` of at least its
releases (README: "Apple platforms").

No Apple build is made here, and on Linux the compiler does not check Apple
availability. So the check reads what the compiler knows on Linux:

- every declaration of another module that the library's code refers to,
  with its file and line, from the index the build writes
  (`.build/<triple>/debug/index/store`, read through the toolchain's
  libIndexStore);
- the Apple availability of the standard library's and FoundationEssentials'
  declarations, from their symbol graphs (`swift symbolgraph-extract`),
  which keep the `@available(macOS …, iOS …)` attributes of their sources;
- the enclosing `if #available(…)` blocks and `@available(…)` declarations
  of each use, from the source.

Uses the compiler makes itself (the implicit `next(isolation:)` of a
`for await` loop, which it picks by availability) are not judged, nor is a
use of a protocol requirement newer than the floors that a protocol
extension of the standard library implements for every release (Swift 6
made `&*` a requirement of `FixedWidthInteger`): where the requirement is
not available the compiler picks that implementation. The
conformance runner is not checked: it runs on macOS and Linux only, and
swift-corelibs-foundation, whose `Process` it uses, states no Apple
availability to read.

    python3 scripts/checks/check_availability.py           (after `swift build`)
    python3 scripts/checks/check_availability.py --plant   also judges each newer use with its file's
                                                           availability checks taken out, and fails
                                                           unless every one is then reported
"""

import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# The modules of the products an app links: IMCodec, IMCodecFoundation and
# IMCodecTestee (README: "Use it in your package").
MODULES = ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecFoundation", "IMCodecTestee"]
# The modules whose declarations are judged: those that carry Apple availability.
GRAPHS = ["Swift", "_Concurrency", "_StringProcessing", "FoundationEssentials"]
DOMAINS = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
PLATFORM = re.compile(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)")
AVAILABLE = re.compile(r"[#@]available\(([^)]*)\)")
ROLE_REFERENCE, ROLE_IMPLICIT = 1 << 2, 1 << 8
RECORD = 2


def floors():
    """The deployment targets of Package.swift's `platforms:`, as {domain: (major, minor)}."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        line = next(line for line in f if line.strip().startswith("platforms:"))
    found = {d: (int(major), int(minor or 0)) for d, major, minor in PLATFORM.findall(line)}
    if sorted(found) != sorted(DOMAINS):
        sys.exit(f"Package.swift's platforms name {sorted(found)}, expected {DOMAINS}")
    return found


def version(entry):
    return (entry.get("major", 0), entry.get("minor", 0))


def availability_table(work):
    """{USR: {domain: introduced (major, minor)}} for every public declaration of GRAPHS; empty for one
    without Apple availability."""
    triple = json.loads(subprocess.run(["swiftc", "-print-target-info"], check=True, capture_output=True,
                                       text=True).stdout)["target"]["triple"]
    table = {}
    for module in GRAPHS:
        subprocess.run(["swift", "symbolgraph-extract", "-module-name", module, "-target", triple,
                        "-minimum-access-level", "public", "-output-dir", work], check=True,
                       capture_output=True)
    for name in sorted(os.listdir(work)):
        with open(os.path.join(work, name), encoding="utf-8") as f:
            for symbol in json.load(f)["symbols"]:
                usr = symbol["identifier"]["precise"].split("::SYNTHESIZED::")[0]
                introduced = {a["domain"]: version(a["introduced"]) for a in symbol.get("availability") or []
                              if a.get("domain") in DOMAINS and "introduced" in a}
                table.setdefault(usr, {}).update(introduced)
    return table


def default_implementation(usr, table, floor):
    """Whether `usr` is a requirement of a standard-library protocol that an extension of it implements,
    with the same name and type, on every release of `floor`."""
    match = re.match(r"s:s(\d+)", usr)
    if not match:
        return False
    end = match.end() + int(match.group(1))
    if usr[end:end + 1] != "P" or usr[end + 1:end + 3] == "sE":
        return False
    extension = usr[:end + 1] + "sE" + usr[end + 1:]
    return extension in table and all(v <= floor[d] for d, v in table[extension].items())


class IndexStore:
    """The few calls of libIndexStore (indexstore.h) this check needs."""

    class String(ctypes.Structure):
        _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def __init__(self, path):
        swift = shutil.which("swift")
        library = os.path.join(os.path.dirname(os.path.realpath(swift)), "..", "lib", "libIndexStore.so")
        lib = self.lib = ctypes.CDLL(library)
        p, s = ctypes.c_void_p, IndexStore.String
        self.unit_callback = ctypes.CFUNCTYPE(ctypes.c_bool, p, s)
        self.pointer_callback = ctypes.CFUNCTYPE(ctypes.c_bool, p, p)
        for name, restype, argtypes in [
            ("indexstore_store_create", p, [ctypes.c_char_p, ctypes.POINTER(p)]),
            ("indexstore_store_units_apply_f", ctypes.c_bool, [p, ctypes.c_uint, p, self.unit_callback]),
            ("indexstore_unit_reader_create", p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
            ("indexstore_unit_reader_get_module_name", s, [p]),
            ("indexstore_unit_reader_dependencies_apply_f", ctypes.c_bool, [p, p, self.pointer_callback]),
            ("indexstore_unit_dependency_get_kind", ctypes.c_int, [p]),
            ("indexstore_unit_dependency_get_name", s, [p]),
            ("indexstore_unit_dependency_get_filepath", s, [p]),
            ("indexstore_record_reader_create", p, [p, ctypes.c_char_p, ctypes.POINTER(p)]),
            ("indexstore_record_reader_occurrences_apply_f", ctypes.c_bool, [p, p, self.pointer_callback]),
            ("indexstore_occurrence_get_symbol", p, [p]),
            ("indexstore_occurrence_get_roles", ctypes.c_uint64, [p]),
            ("indexstore_occurrence_get_line_col", None, [p, ctypes.POINTER(ctypes.c_uint),
                                                         ctypes.POINTER(ctypes.c_uint)]),
            ("indexstore_symbol_get_usr", s, [p]),
            ("indexstore_symbol_get_name", s, [p]),
        ]:
            function = getattr(lib, name)
            function.restype, function.argtypes = restype, argtypes
        self.store = lib.indexstore_store_create(path.encode(), None)
        if not self.store:
            sys.exit(f"cannot open the index store {path}: run swift build first")

    @staticmethod
    def text(ref):
        return ctypes.string_at(ref.data, ref.length).decode() if ref.data else ""

    def records(self, modules):
        """{(record name, source path)} of the units of `modules`."""
        units = []
        self.lib.indexstore_store_units_apply_f(self.store, 0, None,
                                                self.unit_callback(lambda _, n: units.append(self.text(n)) or True))
        records = set()
        for unit in units:
            reader = self.lib.indexstore_unit_reader_create(self.store, unit.encode(), None)
            if not reader or self.text(self.lib.indexstore_unit_reader_get_module_name(reader)) not in modules:
                continue

            def dependency(_, dep):
                if self.lib.indexstore_unit_dependency_get_kind(dep) == RECORD:
                    records.add((self.text(self.lib.indexstore_unit_dependency_get_name(dep)),
                                 self.text(self.lib.indexstore_unit_dependency_get_filepath(dep))))
                return True
            self.lib.indexstore_unit_reader_dependencies_apply_f(reader, None, self.pointer_callback(dependency))
        return records

    def references(self, record):
        """[(usr, name, line)] of the explicit references in `record`."""
        found = []
        reader = self.lib.indexstore_record_reader_create(self.store, record.encode(), None)

        def occurrence(_, occ):
            roles = self.lib.indexstore_occurrence_get_roles(occ)
            if roles & ROLE_REFERENCE and not roles & ROLE_IMPLICIT:
                symbol = self.lib.indexstore_occurrence_get_symbol(occ)
                line, column = ctypes.c_uint(), ctypes.c_uint()
                self.lib.indexstore_occurrence_get_line_col(occ, ctypes.byref(line), ctypes.byref(column))
                found.append((self.text(self.lib.indexstore_symbol_get_usr(symbol)),
                              self.text(self.lib.indexstore_symbol_get_name(symbol)), line.value))
            return True
        self.lib.indexstore_record_reader_occurrences_apply_f(reader, None, self.pointer_callback(occurrence))
        return found


def guards(path, planted=False):
    """For each line of the Swift file at `path`, the availability its enclosing blocks guarantee.

    A block is guarded by an `if #available(…)` on the line that opens it, or
    by an `@available(…)` in the attributes of the declaration it is the body
    of. Strings and comments are left out when braces are counted. `planted`
    reads the file as if its availability checks guaranteed nothing.
    """
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    stack = []          # (guarantee) of each open brace
    pending = {}        # what an @available attribute promises to the next declaration
    result = []
    in_block_string = False
    for text in lines:
        current = {}
        for guarantee in stack:
            for domain, v in guarantee.items():
                current[domain] = max(current.get(domain, (0, 0)), v)
        result.append(current)
        code = text
        if in_block_string:
            if '"""' in code:
                in_block_string = False
                code = code.split('"""', 1)[1]
            else:
                continue
        if code.count('"""') % 2 == 1:
            in_block_string = True
            code = code.split('"""', 1)[0]
        code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code).split("//", 1)[0]
        promised = {}
        for match in () if planted else AVAILABLE.finditer(code):
            for part in match.group(1).split(","):
                words = part.split()
                if len(words) == 2 and words[0] in DOMAINS:
                    major, _, minor = words[1].partition(".")
                    promised[words[0]] = (int(major), int(minor or 0))
        if code.strip().startswith("@available"):
            pending.update(promised)
            promised = {}
        else:
            promised.update(pending)
            if code.strip() and not code.strip().startswith("@"):
                pending = {}
        for char in code:
            if char == "{":
                stack.append(promised)
                promised = {}
            elif char == "}" and stack:
                stack.pop()
    return result


def main():
    plant = sys.argv[1:] == ["--plant"]
    if sys.argv[1:] and not plant:
        sys.exit(__doc__)
    floor = floors()
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as work:
        table = availability_table(work)
    store = IndexStore(os.path.join(bin_path, "index", "store"))
    records = store.records(set(MODULES))
    if not records:
        sys.exit("the index holds no unit of the library modules: run swift build first")
    problems, newer, references, declarations = [], [], 0, set()
    unguarded, caught = 0, 0
    for record, path in sorted(records, key=lambda r: r[1]):
        if not path.endswith(".swift") or not os.path.exists(path):
            continue
        lines = None
        for usr, name, line in store.references(record):
            if usr not in table:
                continue
            references += 1
            declarations.add(usr)
            needed = {d: v for d, v in table[usr].items() if v > floor[d]}
            if not needed or default_implementation(usr, table, floor):
                continue
            lines = lines or guards(path)
            guarantee = lines[line - 1] if line - 1 < len(lines) else {}
            where = f"{os.path.relpath(path, ROOT)}:{line}"
            missing = {d: v for d, v in needed.items() if guarantee.get(d, (0, 0)) < v}
            releases = ", ".join(f"{d} {v[0]}" + (f".{v[1]}" if v[1] else "") for d, v in sorted(needed.items()))
            if missing:
                problems.append(f"{where}: {name} needs {releases}, outside an availability check of them")
            else:
                newer.append(f"{where}: {name} ({releases}), inside an availability check")
                if plant:
                    unguarded += 1
                    planted = guards(path, planted=True)[line - 1]
                    caught += any(planted.get(d, (0, 0)) < v for d, v in needed.items())
    if references == 0:
        sys.exit("no reference to the standard library was found: the index or the symbol graphs are wrong")
    for line in sorted(set(newer)):
        print(line)
    if problems:
        sys.exit("\n".join(sorted(set(problems))))
    if plant:
        if unguarded == 0 or caught != unguarded:
            sys.exit(f"planted: {caught} of {unguarded} newer uses reported with their availability checks taken out")
        print(f"planted: all {unguarded} newer uses reported once their availability checks are taken out")
    print(f"{references} references to {len(declarations)} declarations of {', '.join(GRAPHS)} in "
          f"{', '.join(MODULES)}: {len(set(newer))} newer than "
          + ", ".join(f"{d} {v[0]}" for d, v in sorted(floor.items())) + ", all inside availability checks")


if __name__ == "__main__":
    main()
