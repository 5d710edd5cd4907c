"""The validator of the Python testee: one engine that executes the
constraint declarations of Schemas/ (imcodec/constraints/v1/constraints.proto),
read at run time through the protobuf runtime's descriptors.

Nothing here names a limit, a value, a field that a rule governs or a finding
code, apart from the three named predicates of docs/spec/validation.md
("Named predicates"): every check comes from a declaration, as
docs/spec/validation.md, "Reading the declarations", describes. The severity
of each code is read from Schemas/imcodec/constraints/v1/finding_codes.json.
"""

import json
import math
import os

from google.protobuf import descriptor as pbd

from imcodec.constraints.v1 import constraints_pb2 as cp

HERE = os.path.dirname(os.path.abspath(__file__))
FINDING_CODES = os.path.join(HERE, os.pardir, os.pardir, "Schemas", "imcodec", "constraints", "v1",
                             "finding_codes.json")

# The names a profile answers to (docs/spec/validation.md, "Profiles"), and the
# ProfileValue field of a Limit that holds its value.
PROFILE_FIELDS = {"sdk-guide": "sdk_guide", "seed": "sdk_guide", "current": "current"}

REPEATED = pbd.FieldDescriptor.LABEL_REPEATED
MESSAGE = pbd.FieldDescriptor.TYPE_MESSAGE
ENUM = pbd.FieldDescriptor.TYPE_ENUM
STRING = pbd.FieldDescriptor.TYPE_STRING
BYTES = pbd.FieldDescriptor.TYPE_BYTES
DOUBLE_TYPES = (pbd.FieldDescriptor.TYPE_DOUBLE, pbd.FieldDescriptor.TYPE_FLOAT)


def load_severities():
    with open(FINDING_CODES, encoding="utf-8") as f:
        return {entry["code"]: entry["severity"] for entry in json.load(f)["codes"]}


SEVERITIES = load_severities()


class UnknownProfile(Exception):
    """A profile name no declaration knows."""


# ---------------------------------------------------------------------------
# Reading the declarations
# ---------------------------------------------------------------------------

class Applied:
    """One limit as it applies to one field: the limit, and the use's conditions, report, entry field and key."""

    def __init__(self, limit, when=(), report=cp.REPORT_FIELD, entry_field="", key="", count_when=()):
        self.limit, self.when, self.report, self.entry_field, self.key = limit, when, report, entry_field, key
        self.count_when = count_when

    @staticmethod
    def declared(limit):
        """A limit where it is declared, with the attributes of its declaration."""
        return Applied(limit, list(limit.when), limit.report, limit.entry_field, limit.key, list(limit.count_when))


class Declarations:
    """Every field's and message's constraints, by message full name, with the limits by name."""

    def __init__(self, roots):
        self.limits = {}
        self.fields = {}      # message full name -> [(field descriptor, FieldConstraints)]
        self.messages = {}    # message full name -> MessageConstraints
        self.applied = {}     # (message full name, field name) -> [Applied]
        seen = set()
        pending = list(roots)
        while pending:
            descriptor = pending.pop()
            if descriptor.full_name in seen:
                continue
            seen.add(descriptor.full_name)
            options = descriptor.GetOptions()
            if options.HasExtension(cp.message):
                constraints = options.Extensions[cp.message]
                self.messages[descriptor.full_name] = constraints
                for limit in constraints.limit:
                    self.limits[limit.name] = limit
            entries = []
            for field in descriptor.fields:
                if field.type == MESSAGE:
                    pending.append(field.message_type)
                field_options = field.GetOptions()
                if field_options.HasExtension(cp.field):
                    constraints = field_options.Extensions[cp.field]
                    entries.append((field, constraints))
                    for limit in constraints.limit:
                        self.limits[limit.name] = limit
            self.fields[descriptor.full_name] = entries
        for name, entries in self.fields.items():
            for field, constraints in entries:
                applied = [Applied.declared(l) for l in constraints.limit]
                applied += [Applied(self.limits[name]) for name in constraints.uses]
                applied += [Applied(self.limits[use.limit], list(use.when), use.report, use.entry_field, use.key,
                                    list(use.count_when)) for use in constraints.use]
                self.applied[(name, field.name)] = applied

    @staticmethod
    def value(limit, profile_field):
        """The limit's value in a profile, or None when the profile does not have the rule."""
        if not limit.HasField(profile_field):
            return None
        v = getattr(limit, profile_field)
        m = limit.measure
        if m == cp.MEASURE_FLAG:
            return v.flag or None
        if m == cp.MEASURE_STRING_SET:
            return list(v.strings)
        if m in (cp.MEASURE_NUMBER_SET, cp.MEASURE_NUMBER_RANGE):
            return list(v.numbers)
        if m in (cp.MEASURE_PREFIX, cp.MEASURE_FORBIDDEN_PREFIX):
            return v.text or None
        if m == cp.MEASURE_PER_KEY:
            return {e.key: e.number for e in v.entries}
        return v.number


# ---------------------------------------------------------------------------
# Values, paths and conditions
# ---------------------------------------------------------------------------

def is_set(message, field):
    """Whether `field` of `message` holds something other than its proto3 default."""
    if field.label == REPEATED:
        return len(getattr(message, field.name)) > 0
    if field.type == MESSAGE or field.containing_oneof is not None:
        return message.HasField(field.name)
    value = getattr(message, field.name)
    return value not in (0, "", b"", False)


class Node:
    """A message being validated: the message, its JSON path, and the nodes that enclose it."""

    def __init__(self, message, path, parent=None):
        self.message, self.path, self.parent = message, path, parent

    def enclosing(self, type_name):
        node = self.parent
        while node is not None:
            if node.message.DESCRIPTOR.name == type_name:
                return node
            node = node.parent
        return None


def join(path, name):
    return name if not path else path + "." + name


def resolve(node, ref):
    """The message, field descriptor and JSON path a reference names: `field`, `a.b` through singular
    messages, `^Type.field` in the nearest enclosing message of type Type, or `^Type` itself. Returns
    (message or None, field descriptor or None, path, oneof name or None); a message of None means the
    reference crosses an absent message or finds no enclosing one (the field descriptor is still given
    when the reference names one)."""
    message, path = node.message, node.path
    if ref.startswith("^"):
        type_name, _, rest = ref[1:].partition(".")
        enclosing = node.enclosing(type_name)
        if enclosing is None:
            if not rest:
                return None, None, "", None
            # No enclosing message: the field reads its default.
            package = node.message.DESCRIPTOR.full_name.rpartition(".")[0]
            descriptor = node.message.DESCRIPTOR.file.pool.FindMessageTypeByName(package + "." + type_name)
            return None, descriptor.fields_by_name[rest.split(".")[0]], "", None
        if not rest:
            return enclosing.message, None, enclosing.path, None
        message, path, ref = enclosing.message, enclosing.path, rest
    parts = ref.split(".")
    descriptor = message.DESCRIPTOR
    for i, part in enumerate(parts):
        if part in descriptor.oneofs_by_name and i == len(parts) - 1:
            return message, None, path, part
        field = descriptor.fields_by_name[part]
        path = join(path, field.json_name)
        if i == len(parts) - 1:
            return message, field, path, None
        if message is not None and not message.HasField(part):
            message = None
        if message is not None:
            message = getattr(message, part)
        descriptor = field.message_type
    raise AssertionError("unreachable")


def ref_is_set(node, ref):
    message, field, _, oneof = resolve(node, ref)
    if message is None:
        return False
    if oneof is not None:
        return message.WhichOneof(oneof) is not None
    if field is None:
        return True
    return is_set(message, field)


def ref_value(node, ref):
    """The value a reference names, or the field's default where the reference crosses an absent message."""
    message, field, _, _ = resolve(node, ref)
    if field is None:
        return None
    if message is None:
        return field.default_value
    return getattr(message, field.name)


def holds(node, condition):
    if condition.HasField("present"):
        result = ref_is_set(node, condition.field) == condition.present
    else:
        message, field, _, _ = resolve(node, condition.field)
        value = field.default_value if message is None else getattr(message, field.name)
        result = value in condition.numbers
        if field.type == ENUM:
            named = field.enum_type.values_by_number.get(value)
            result = result or (named is not None and named.name in condition.strings)
        elif field.type == STRING:
            result = result or value in condition.strings
    return result != condition.negate


def all_hold(node, conditions):
    return all(holds(node, c) for c in conditions)


def utf8_length(value):
    return len(value) if isinstance(value, bytes) else len(value.encode("utf-8"))


def varint_size(n):
    size = 1
    while n >= 0x80:
        n >>= 7
        size += 1
    return size


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------

class Run:
    """One validation: walks the value and applies every declaration it meets."""

    def __init__(self, declarations, profile, skipped=()):
        if profile not in PROFILE_FIELDS:
            raise UnknownProfile(profile)
        self.d = declarations
        self.profile = PROFILE_FIELDS[profile]
        self.skipped = set(skipped)
        self.findings = []

    def report(self, code, path, limit=None, actual=None):
        self.findings.append((code, path, SEVERITIES[code], limit, actual))

    def value(self, limit):
        return Declarations.value(limit, self.profile)

    # Traversal ---------------------------------------------------------------

    def visit(self, node):
        name = node.message.DESCRIPTOR.full_name
        constraints = self.d.messages.get(name)
        if constraints is not None:
            for limit in constraints.limit:
                self.apply(node, None, Applied.declared(limit))
            for rule in constraints.rule:
                for check in rule.check:
                    if all_hold(node, check.when):
                        self.check(node, check)
        for field, field_constraints in self.d.fields.get(name, []):
            self.field_rules(node, field, field_constraints)
            for applied in self.d.applied[(name, field.name)]:
                self.apply(node, field, applied)
        self.descend(node)

    def descend(self, node):
        message = node.message
        for field, value in message.ListFields():
            if field.type != MESSAGE:
                continue
            path = join(node.path, field.json_name)
            if field.label == REPEATED:
                if self.too_deep(node, field, path, value):
                    continue
                for i, entry in enumerate(value):
                    self.visit(Node(entry, "%s[%d]" % (path, i), node))
            else:
                self.visit(Node(value, path, node))

    def too_deep(self, node, field, path, entries):
        """MEASURE_LAYERS: the messages of a list at a layer past the limit are reported once and not visited."""
        for applied in self.d.applied.get((node.message.DESCRIPTOR.full_name, field.name), []):
            limit = applied.limit
            if limit.measure != cp.MEASURE_LAYERS or not entries:
                continue
            bound = self.value(limit)
            if bound is None:
                continue
            layer, walker = 0, node
            while walker is not None:
                if walker.message.DESCRIPTOR.full_name == node.message.DESCRIPTOR.full_name:
                    layer += 1
                walker = walker.parent
            if layer > bound:
                self.report(limit.code, path, bound, layer)
                return True
        return False

    # Field rules ---------------------------------------------------------------

    def field_rules(self, node, field, constraints):
        message, path = node.message, join(node.path, field.json_name)
        value = getattr(message, field.name)
        if constraints.HasField("non_empty") and not is_set(message, field):
            self.report(constraints.non_empty.code, path)
        if constraints.HasField("range"):
            r = constraints.range
            if not (math.isfinite(value) and r.min <= value <= r.max):
                self.report(r.code, path, int(max(abs(r.min), abs(r.max))))
        if constraints.defined_enum and field.enum_type.values_by_number.get(value) is None:
            self.report("enum.unknown-value", path, None, value)
        if constraints.discriminator and value == 0 and all_hold(node, constraints.discriminator_when):
            self.report("enum.unspecified", path, None, 0)
        if constraints.HasField("named_values"):
            named = constraints.named_values
            enum = message.DESCRIPTOR.file.pool.FindEnumTypeByName(named.enum)
            if enum.values_by_number.get(value) is None:
                self.report(named.code, path, None, value)

    # Limits ----------------------------------------------------------------------

    def apply(self, node, field, applied):
        limit = applied.limit
        if limit.applies_to or limit.name in self.skipped:
            return
        bound = self.value(limit)
        if bound is None or not all_hold(node, applied.when):
            return
        message = node.message
        holder_path = node.path
        path = holder_path if field is None else join(holder_path, field.json_name)
        m = limit.measure
        if limit.predicate:
            PREDICATES[limit.predicate](self, node, field, path, limit, bound)
        elif m == cp.MEASURE_LAYERS:
            return  # applied when the traversal reaches the list (too_deep)
        elif m == cp.MEASURE_ENTRIES:
            self.entries(node, field, path, limit, bound, applied)
        elif m == cp.MEASURE_ENCODED_BYTES:
            self.encoded_bytes(message, field, path, limit, bound)
        elif m == cp.MEASURE_PER_KEY:
            key = ref_value(node, applied.key) if applied.key else None
            if key is None or key not in bound:
                return
            value = getattr(message, field.name)
            measured = len(value) if field.label == REPEATED else value
            if measured > bound[key]:
                self.report(limit.code, path, bound[key], measured)
        elif applied.entry_field:
            for i, entry in enumerate(getattr(message, field.name)):
                sub = entry.DESCRIPTOR.fields_by_name[applied.entry_field]
                if entry.DESCRIPTOR.oneofs and sub.containing_oneof is not None and not entry.HasField(sub.name):
                    continue
                self.measure_value(limit, bound, getattr(entry, sub.name),
                                   "%s[%d].%s" % (path, i, sub.json_name), entry)
        elif field.label == REPEATED:
            for i, value in enumerate(getattr(message, field.name)):
                self.measure_value(limit, bound, value, "%s[%d]" % (path, i), message)
        elif limit.sum_with:
            total = self.amount(limit, getattr(message, field.name), node)
            total += sum(self.amount(limit, getattr(message, other), node) for other in limit.sum_with)
            if total > bound:
                self.report(limit.code, holder_path if applied.report == cp.REPORT_HOLDER else path, bound, total)
        else:
            target = holder_path if applied.report == cp.REPORT_HOLDER else path
            self.measure_value(limit, bound, getattr(message, field.name), target, message, node)

    def amount(self, limit, value, node=None):
        """What a size or count measure counts in one value."""
        m = limit.measure
        if m == cp.MEASURE_UTF8_BYTES:
            if limit.after_prefix:
                prefix = self.value(self.d.limits[limit.after_prefix])
                if prefix is None or not value.startswith(prefix):
                    return None
                value = value[len(prefix):]
            return utf8_length(value)
        if m == cp.MEASURE_UTF16_UNITS:
            return len(value.encode("utf-16-le")) // 2
        if m == cp.MEASURE_VALUE:
            return value
        raise AssertionError("not a size: %s" % limit.name)

    def measure_value(self, limit, bound, value, path, holder, node=None):
        m = limit.measure
        if m in (cp.MEASURE_UTF8_BYTES, cp.MEASURE_UTF16_UNITS, cp.MEASURE_VALUE):
            measured = self.amount(limit, value)
            if measured is not None and measured > bound:
                self.report(limit.code, path, bound, measured)
        elif m == cp.MEASURE_FLAG:
            if limit.charset:
                data = value.encode("utf-8") if isinstance(value, str) else value
                ranges = [(ord(limit.charset[i]), ord(limit.charset[i + 1])) for i in range(0, len(limit.charset), 2)]
                for byte in data:
                    if not any(low <= byte <= high for low, high in ranges):
                        self.report(limit.code, path, None, byte)
                        break
            elif value in (0, "", b"", False):
                self.report(limit.code, path)
        elif m == cp.MEASURE_STRING_SET:
            if value and value not in bound:
                self.report(limit.code, path)
        elif m in (cp.MEASURE_NUMBER_SET, cp.MEASURE_NUMBER_RANGE):
            inside = bound[0] <= value <= bound[1] if m == cp.MEASURE_NUMBER_RANGE else value in bound
            if not inside:
                self.report(limit.code, path, None, value)
        elif m == cp.MEASURE_EXACT:
            if value != bound:
                self.report(limit.code, path, bound, value)
        elif m == cp.MEASURE_PREFIX:
            if not value.startswith(bound):
                self.report(limit.code, path)
        elif m == cp.MEASURE_FORBIDDEN_PREFIX:
            if value.startswith(bound):
                self.report(limit.code, path)
        else:
            raise AssertionError("measure %d of %s" % (m, limit.name))

    def entries(self, node, field, path, limit, bound, applied):
        entries = getattr(node.message, field.name)
        counted = [i for i, entry in enumerate(entries)
                   if all_hold(Node(entry, "%s[%d]" % (path, i), node), applied.count_when)]
        if len(counted) <= bound:
            return
        if applied.report == cp.REPORT_FIRST_EXCESS:
            self.report(limit.code, "%s[%d]" % (path, counted[bound]), bound, len(counted))
        else:
            self.report(limit.code, path, bound, len(counted))

    def encoded_bytes(self, message, field, path, limit, bound):
        """MEASURE_ENCODED_BYTES: the bytes of the field in its holder's canonical encoding (each entry's tag,
        length and body), with the `exclude`d fields cleared wherever they occur in an entry's direct
        children."""
        excluded = [e.split(".") for e in limit.exclude]
        tag = varint_size(field.number << 3)
        total = 0
        for entry in getattr(message, field.name):
            copy = type(entry)()
            copy.CopyFrom(entry)
            for sub in copy.DESCRIPTOR.fields:
                if sub.type == MESSAGE and sub.label != REPEATED and copy.HasField(sub.name):
                    child = getattr(copy, sub.name)
                    for type_name, name in excluded:
                        if child.DESCRIPTOR.name == type_name:
                            child.ClearField(name)
            size = copy.ByteSize()
            total += tag + varint_size(size) + size
        if total > bound:
            self.report(limit.code, path, bound, total)

    # Message checks ------------------------------------------------------------

    def check(self, node, check):
        form = check.form
        at = None if not check.at else (node.path if check.at == "." else self.path_of(node, check.at))
        if form == cp.FORM_ABSENT:
            for name in check.fields:
                if ref_is_set(node, name):
                    message, field, path, _ = resolve(node, name)
                    actual = None
                    if check.actual == cp.ACTUAL_COUNT:
                        actual = len(getattr(message, field.name))
                    elif check.actual == cp.ACTUAL_VALUE and field.type not in (STRING, BYTES):
                        actual = getattr(message, field.name)
                    self.report(check.code, at if at is not None else path, None, actual)
        elif form == cp.FORM_PRESENT:
            for name in check.fields:
                if not ref_is_set(node, name):
                    self.report(check.code, at if at is not None else self.path_of(node, name))
        elif form in (cp.FORM_AT_LEAST_ONE, cp.FORM_AT_MOST_ONE):
            count = sum(1 for name in check.fields if ref_is_set(node, name))
            if (form == cp.FORM_AT_LEAST_ONE and count == 0) or (form == cp.FORM_AT_MOST_ONE and count > 1):
                self.report(check.code, at if at is not None else node.path)
        elif form == cp.FORM_EQUALS_COUNT:
            number = ref_value(node, check.fields[0])
            count = len(ref_value(node, check.fields[1]))
            if number != count:
                self.report(check.code, at if at is not None else self.path_of(node, check.fields[0]), count, number)
        elif form == cp.FORM_NOT_ABOVE:
            value, ceiling = ref_value(node, check.fields[0]), ref_value(node, check.fields[1])
            if ceiling and value > ceiling:
                self.report(check.code, at if at is not None else self.path_of(node, check.fields[0]), ceiling, value)
        elif form == cp.FORM_UNIQUE:
            entries, path = ref_value(node, check.fields[0]), self.path_of(node, check.fields[0])
            seen = set()
            for i, entry in enumerate(entries):
                field = entry.DESCRIPTOR.fields_by_name[check.fields[1]]
                value = getattr(entry, field.name)
                if check.numbers and value not in check.numbers:
                    continue
                if value in seen:
                    self.report(check.code, "%s[%d].%s" % (path, i, field.json_name))
                seen.add(value)
        elif form == cp.FORM_ENTRIES_PRESENT:
            entries, path = ref_value(node, check.fields[0]), self.path_of(node, check.fields[0])
            if not entries:
                self.report(check.code, path)
            for i, entry in enumerate(entries):
                if not ref_is_set(Node(entry, "%s[%d]" % (path, i), node), check.fields[1]):
                    self.report(check.code, "%s[%d]" % (path, i))
        elif form == cp.FORM_ENTRIES_ABSENT:
            entries, path = ref_value(node, check.fields[0]), self.path_of(node, check.fields[0])
            for i, entry in enumerate(entries):
                entry_node = Node(entry, "%s[%d]" % (path, i), node)
                if all_hold(entry_node, check.entry_when):
                    self.report(check.code, self.path_of(entry_node, check.fields[1]))
        elif form == cp.FORM_PREDICATE:
            PREDICATES[check.predicate](self, node, None, at if at is not None else node.path, check, None)
        else:
            raise AssertionError("form %d" % form)

    @staticmethod
    def path_of(node, ref):
        return resolve(node, ref)[2]


# ---------------------------------------------------------------------------
# The named predicates (docs/spec/validation.md, "Named predicates")
# ---------------------------------------------------------------------------

def short_side(level):
    return min(level.width, level.height) if level.width > 0 and level.height > 0 else None


def image_scaled_short_side(run, node, field, path, limit, bound):
    side = short_side(node.message)
    if side is None:
        return
    image = node.enclosing("ImageElem")
    original_type = node.message.DESCRIPTOR.fields_by_name["type"].enum_type.values_by_name[
        "IMAGE_LEVEL_TYPE_ORIGINAL"].number
    original = next((l for l in image.message.levels if l.type == original_type), None) if image else None
    original_side = short_side(original) if original is not None else None
    if original_side is not None:
        expected = min(bound, original_side)
        if side != expected:
            run.report(limit.code, path, expected, side)
    elif side > bound:
        run.report(limit.code, path, bound, side)


def add_source(run, node, field, path, limit, prefix):
    value = getattr(node.message, field.name)
    if not value:
        return
    if not value.startswith(prefix):
        run.report(limit.code, path)
        return
    name = value[len(prefix):]
    if not name or not all("A" <= c <= "Z" or "a" <= c <= "z" for c in name):
        run.report(limit.code, path)


AT_ALL_USER_ID = "__kImSDK_MesssageAtALL__"


def at_type(run, node, field, path, check, _):
    message = node.message
    names = message.DESCRIPTOR.fields_by_name["at_type"].enum_type.values_by_number
    named = names.get(message.at_type)
    mentions_all = AT_ALL_USER_ID in message.at_user_list
    mentions_user = any(u != AT_ALL_USER_ID for u in message.at_user_list)
    follows = {
        "GROUP_AT_TYPE_AT_ME": mentions_user and not mentions_all,
        "GROUP_AT_TYPE_AT_ALL": mentions_all,
        "GROUP_AT_TYPE_AT_ALL_AT_ME": mentions_all and mentions_user,
    }.get(named.name if named else None)
    if follows is False:
        run.report(check.code, path)


PREDICATES = {"image.scaled-short-side": image_scaled_short_side, "add-source": add_source, "at-type": at_type}


_DECLARATIONS = {}


def declarations(descriptor):
    """The declarations reachable from a message type, read once."""
    if descriptor.full_name not in _DECLARATIONS:
        _DECLARATIONS[descriptor.full_name] = Declarations([descriptor])
    return _DECLARATIONS[descriptor.full_name]


def validate(message, profile, skipped=()):
    """Every finding of `message` (a Message, MessageBatch or Event) under the named profile, as
    (code, path, severity, limit, actual) tuples; limit and actual are None when the finding has none.
    The limits named in `skipped` are not applied.

    Raises UnknownProfile for a profile name the declarations do not know."""
    run = Run(declarations(message.DESCRIPTOR), profile, skipped)
    run.visit(Node(message, ""))
    return run.findings
