"""Reads the constraint options of Schemas/ (imcodec/constraints/v1/constraints.proto).

The declarations are read from a FileDescriptorSet that protoc writes, with
the scripts' one reader of the schema (scripts/lib/schema.py), so the code
generator (scripts/codegen/generate_constraints.py) and the vector generators
(scripts/vectors/) read the same declarations without depending on
any generated code. Each vector generator still computes its expectations
itself: this module only answers "which limits and rules are declared, with
which value in which profile".

    import constraints
    decl = constraints.load()                  # runs protoc on Schemas/
    decl.value("maxGroupNameBytes", "sdk-guide")    # 30
    decl.limit("maxGroupNameBytes").code       # "limit.group.name-bytes"

`IMCODEC_SCHEMAS` names another schema folder (the move-together test points
it at a modified copy).
"""

from schema import ROOT, descriptor_set, fields  # noqa: F401 (ROOT and descriptor_set for the scripts)

PROFILES = ("sdk-guide", "current")
# The earlier names a profile still answers to, wherever a profile is named:
# the CLI's --profile, the testee protocol's validate requests,
# ValidationLimits.profile(named:) and the C reference's
# imcodec_ref_validation_profile all read the table generated from this
# (Sources/IMCodec/IMCodec.docc/Migration.md, "The seed profile is sdk-guide").
PROFILE_ALIASES = {"seed": "sdk-guide"}


def profile_names():
    """Every name a profile answers to, as (name, profile): each profile, then its earlier names."""
    return [(n, p) for p in PROFILES for n in [p] + [a for a, q in PROFILE_ALIASES.items() if q == p]]
OPTION_NUMBER = 51870  # (imcodec.constraints.v1.field) and (.message)
MEASURES = {
    0: "unspecified", 1: "utf8_bytes", 2: "utf16_units", 3: "entries", 4: "value", 5: "flag",
    6: "string_set", 7: "number_set", 8: "number_range", 9: "prefix", 10: "per_key", 11: "layers",
    12: "encoded_bytes", 13: "exact", 14: "forbidden_prefix",
}
REPORTS = {0: "field", 1: "entry", 2: "holder", 3: "first_excess"}
FORMS = {0: "unspecified", 1: "absent", 2: "present", 3: "at_least_one", 4: "at_most_one", 5: "equals_count",
         6: "unique", 7: "predicate", 8: "entries_present", 9: "not_above", 10: "entries_absent"}
UNITS = {0: "plain", 1: "mebibytes", 2: "kibibytes"}

# The scripts' one reader of descriptor sets (scripts/lib/schema.py).
_fields = fields


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _double(b):
    import struct
    return struct.unpack("<d", bytes(b))[0]


class ProfileValue:
    """A limit's value in one profile; `present` is False when the profile lacks the rule."""

    def __init__(self, data=None):
        self.present = data is not None
        self.number = None
        self.flag = None
        self.strings = []
        self.numbers = []
        self.text = None
        self.entries = []
        for n, w, v in _fields(data or b""):
            if n == 1: self.number = _signed(v)
            elif n == 2: self.flag = bool(v)
            elif n == 3: self.strings.append(v.decode())
            elif n == 4: self.numbers.append(_signed(v))
            elif n == 5: self.text = v.decode()
            elif n == 6:
                key, number = "", 0
                for n2, w2, v2 in _fields(v):
                    if n2 == 1: key = v2.decode()
                    elif n2 == 2: number = _signed(v2)
                self.entries.append((key, number))


class Condition:
    """A condition (constraints.proto `Condition`): `field` (a proto name, or `^Type.field`) holds one of
    `numbers` or `strings`, or is set (`present`), `negate` inverting it."""

    def __init__(self, data):
        self.field, self.numbers, self.strings, self.present, self.negate = "", [], [], None, False
        for n, w, v in _fields(data):
            if n == 1: self.field = v.decode()
            elif n == 2: self.numbers.append(_signed(v))
            elif n == 3: self.strings.append(v.decode())
            elif n == 4: self.present = bool(v)
            elif n == 5: self.negate = bool(v)

    def __str__(self):
        if self.present is not None:
            text = "%s %s" % (self.field, "is set" if self.present else "is unset")
        else:
            values = [str(n) for n in self.numbers] + list(self.strings)
            text = "%s is %s" % (self.field, " or ".join(values))
        return ("not (%s)" % text) if self.negate else text


class Use:
    """A use of a limit declared elsewhere (constraints.proto `Use`), with its conditions and report."""

    def __init__(self, data, message, field):
        self.limit, self.when, self.report, self.entry_field, self.key = "", [], "field", "", ""
        self.count_when = []
        self.message, self.field = message, field
        for n, w, v in _fields(data):
            if n == 1: self.limit = v.decode()
            elif n == 2: self.when.append(Condition(v))
            elif n == 3: self.report = REPORTS[v]
            elif n == 4: self.entry_field = v.decode()
            elif n == 5: self.key = v.decode()
            elif n == 6: self.count_when.append(Condition(v))


class Check:
    """One check of a message rule (constraints.proto `Check`)."""

    def __init__(self, data):
        self.code, self.form, self.fields, self.when, self.at = "", "unspecified", [], [], ""
        self.numbers, self.predicate, self.entry_when, self.actual = [], "", [], "none"
        for n, w, v in _fields(data):
            if n == 1: self.code = v.decode()
            elif n == 2: self.form = FORMS[v]
            elif n == 3: self.fields.append(v.decode())
            elif n == 4: self.when.append(Condition(v))
            elif n == 5: self.at = v.decode()
            elif n == 6: self.numbers.append(_signed(v))
            elif n == 7: self.predicate = v.decode()
            elif n == 8: self.entry_when.append(Condition(v))
            elif n == 9: self.actual = {0: "none", 1: "value", 2: "count"}[v]


class Limit:
    """One declared limit (constraints.proto `Limit`)."""

    def __init__(self, data, message, field):
        self.name = self.row = self.code = self.summary = self.source = ""
        self.measure, self.unit = "unspecified", "plain"
        self.values = {p: ProfileValue() for p in PROFILES}
        self.message, self.field = message, field
        self.fields = [(message, field)]
        self.uses = [Use(b"", message, field)]
        self.report, self.entry_field, self.when, self.count_when = "field", "", [], []
        self.sum_with, self.after_prefix, self.exclude, self.predicate, self.key = [], "", [], "", ""
        self.charset, self.applies_to = "", ""
        for n, w, v in _fields(data):
            if n == 1: self.name = v.decode()
            elif n == 2: self.row = v.decode()
            elif n == 3: self.code = v.decode()
            elif n == 4: self.measure = MEASURES[v]
            elif n == 5: self.unit = UNITS[v]
            elif n == 6: self.values["sdk-guide"] = ProfileValue(v)
            elif n == 7: self.values["current"] = ProfileValue(v)
            elif n == 8: self.summary = v.decode()
            elif n == 9: self.source = v.decode()
            elif n == 10: self.report = REPORTS[v]
            elif n == 11: self.entry_field = v.decode()
            elif n == 12: self.when.append(Condition(v))
            elif n == 13: self.count_when.append(Condition(v))
            elif n == 14: self.sum_with.append(v.decode())
            elif n == 15: self.after_prefix = v.decode()
            elif n == 16: self.exclude.append(v.decode())
            elif n == 17: self.predicate = v.decode()
            elif n == 18: self.key = v.decode()
            elif n == 19: self.charset = v.decode()
            elif n == 20: self.applies_to = v.decode()
        own = self.uses[0]
        own.limit, own.when, own.report, own.entry_field = self.name, self.when, self.report, self.entry_field
        own.key, own.count_when = self.key, self.count_when

    @property
    def decoding(self):
        """Whether this is a decoding limit (declared on the testee protocol's Limits)."""
        return self.message == "Limits"

    def value(self, profile):
        """The plain value in `profile`: a number, flag, list, text, dict, or None when off."""
        v = self.values[profile]
        if not v.present:
            return None
        if self.measure == "flag": return bool(v.flag)
        if self.measure == "string_set": return list(v.strings)
        if self.measure in ("number_set", "number_range"): return list(v.numbers)
        if self.measure in ("prefix", "forbidden_prefix"): return v.text
        if self.measure == "per_key": return dict(v.entries)
        return v.number


class Rule:
    """A declared non-empty, range or enum rule of one field."""

    def __init__(self, kind, message, field, row="", code="", summary="", source="", low=None, high=None):
        self.kind, self.message, self.field = kind, message, field
        self.row, self.code, self.summary, self.source = row, code, summary, source
        self.low, self.high = low, high


class Declarations:
    """Every limit and rule declared in the schema, in declaration order."""

    def __init__(self):
        self.limits = []
        self.rules = []
        # (message, field) -> the conditions under which its discriminator rule applies.
        self.discriminator_when = {}

    def limit(self, name):
        for limit in self.limits:
            if limit.name == name:
                return limit
        raise KeyError(name)

    def value(self, name, profile="sdk-guide"):
        return self.limit(name).value(profile)

    def rule(self, code):
        for rule in self.rules:
            if rule.code == code:
                return rule
        raise KeyError(code)


def _read_field_constraints(decl, data, message, field, pending_uses):
    for n, w, v in _fields(data):
        if n == 1:
            decl.limits.append(Limit(v, message, field))
        elif n == 2:
            pending_uses.append((v.decode(), message, field, None))
        elif n in (3, 6):
            info = {}
            for n2, w2, v2 in _fields(v):
                if n2 == 1: info["row"] = v2.decode()
                elif n2 == 2: info["code"] = v2.decode()
                elif n == 3 and n2 == 3: info["summary"] = v2.decode()
                elif n == 3 and n2 == 4: info["source"] = v2.decode()
                elif n == 6 and n2 == 3: info["low"] = _double(v2)
                elif n == 6 and n2 == 4: info["high"] = _double(v2)
                elif n == 6 and n2 == 5: info["source"] = v2.decode()
            decl.rules.append(Rule("non_empty" if n == 3 else "range", message, field, **info))
        elif n == 4 and v:
            decl.rules.append(Rule("defined_enum", message, field))
        elif n == 5 and v:
            decl.rules.append(Rule("discriminator", message, field))
        elif n == 7:
            use = Use(v, message, field)
            pending_uses.append((use.limit, message, field, use))
        elif n == 8:
            decl.discriminator_when.setdefault((message, field), []).append(Condition(v))
        elif n == 9:
            info = {}
            for n2, w2, v2 in _fields(v):
                if n2 == 1: info["enum"] = v2.decode()
                elif n2 == 2: info["row"] = v2.decode()
                elif n2 == 3: info["code"] = v2.decode()
            rule = Rule("named_values", message, field, row=info.get("row", ""), code=info.get("code", ""))
            rule.enum = info.get("enum", "")
            decl.rules.append(rule)


def _read_message_constraints(decl, data, message):
    for n, w, v in _fields(data):
        if n == 1:
            info = {"codes": [], "checks": []}
            for n2, w2, v2 in _fields(v):
                if n2 == 1: info["row"] = v2.decode()
                elif n2 == 2: info["codes"].append(v2.decode())
                elif n2 == 3: info["summary"] = v2.decode()
                elif n2 == 4: info["source"] = v2.decode()
                elif n2 == 5: info["checks"].append(Check(v2))
            rule = Rule("message", message, "", row=info.get("row", ""), code=", ".join(info["codes"]),
                        summary=info.get("summary", ""), source=info.get("source", ""))
            rule.codes = info["codes"]
            rule.checks = info["checks"]
            decl.rules.append(rule)
        elif n == 2:
            decl.limits.append(Limit(v, message, ""))


def parse(descriptor_set):
    """Reads the declarations from the bytes of a FileDescriptorSet."""
    decl = Declarations()
    pending_uses = []
    for n, w, file_data in _fields(descriptor_set):
        if n != 1:
            continue
        for n2, w2, v2 in _fields(file_data):
            if n2 != 4:  # message_type
                continue
            message = ""
            for n3, w3, v3 in _fields(v2):
                if n3 == 1:
                    message = v3.decode()
                elif n3 == 7:  # MessageOptions
                    for n5, w5, v5 in _fields(v3):
                        if n5 == OPTION_NUMBER:
                            _read_message_constraints(decl, v5, message)
                elif n3 == 2:  # field
                    field, options = "", b""
                    for n4, w4, v4 in _fields(v3):
                        if n4 == 1: field = v4.decode()
                        elif n4 == 8: options = v4
                    for n5, w5, v5 in _fields(options):
                        if n5 == OPTION_NUMBER:
                            _read_field_constraints(decl, v5, message, field, pending_uses)
    for name, message, field, use in pending_uses:
        limit = decl.limit(name)
        limit.fields.append((message, field))
        if use is None:
            use = Use(b"", message, field)
            use.limit = name
        limit.uses.append(use)
    names = [limit.name for limit in decl.limits]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ValueError("limits declared twice: %s" % ", ".join(duplicates))
    return decl


def load(schemas=None):
    """The declarations of the schema folder (default: Schemas/ or $IMCODEC_SCHEMAS)."""
    return parse(descriptor_set(schemas))
