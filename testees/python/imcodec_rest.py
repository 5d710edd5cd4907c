"""The Tencent REST form (docs/spec/rest.md) for the Python testee: import
(`rest_to_payload`) and export (`payload_to_rest`), driven by the form's
declaration, Schemas/imcodec/rest/v1/rest.json. Nothing here names a REST key
of an object: every key, the model field it maps to, its value form and its
presence come from the declaration's forms; the code knows only the value
forms, the shapes of documents and the rules the declaration states in words
(a relay's MsgList or JsonMsgKey, MsgNum).

    import imcodec_rest
    message = imcodec_rest.rest_to_message(text, cls, limits)   # or raises Failure
    text = imcodec_rest.message_to_rest(message, is_batch)      # or raises Failure
"""

import base64
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DECLARATION = os.path.join(HERE, os.pardir, os.pardir, "Schemas", "imcodec", "rest", "v1", "rest.json")

with open(DECLARATION, encoding="utf-8") as _file:
    FORM = json.load(_file)


def _camel(name):
    """A proto field name's proto3 JSON name (protoc's rule: an underscore capitalises the next letter)."""
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)


class Key:
    """One declared key: its name, the model field (proto name and JSON name), value form, presence and form."""

    def __init__(self, entry, presence=None):
        self.name = entry["key"]
        self.entry = entry
        self.field = entry.get("field")
        self.outside = entry.get("outside")
        self.value = entry["value"]
        self.presence = presence or entry.get("presence", "required")
        self.form = entry.get("form")
        self.limit = entry.get("limit")


def _forms():
    forms = {}
    for entry in FORM["forms"]:
        if "keysOf" in entry:
            required = set(entry["required"])
            base = forms[entry["keysOf"]]
            forms[entry["name"]] = [Key(k.entry, "required" if k.name in required else "optional") for k in base]
        else:
            forms[entry["name"]] = [Key(k) for k in entry["keys"]]
    return forms


FORMS = _forms()
# The model message of each form; a form declared with `keysOf` has its base form's.
FORM_MODELS = {}
for _entry in FORM["forms"]:
    FORM_MODELS[_entry["name"]] = _entry.get("model") or FORM_MODELS[_entry["keysOf"]]
VALUE_FORMS = {v["name"]: v for v in FORM["valueForms"]}
ELEMS = {e["msgType"]: e for e in FORM["elems"]}
ELEM_OF_KIND = {e["kind"]: e for e in FORM["elems"]}
ENVELOPE_ONLY = set(FORM["envelopeOnlyKeys"])
ALIASES = FORM["aliases"]
ELEMENT_KEYS = FORM["elementKeys"]
LIST_KEYS = FORM["messageListKeys"]
UNREPRESENTABLE = FORM["unrepresentable"]
LIMIT_NAMES = {"maxRepeated": ("limit.repeated", "max_repeated")}


class Problem(Exception):
    """The first problem of a document or a model: a code of docs/spec/rest.md and a path; for a limit, the limit
    and the observed value."""

    def __init__(self, code, path, reason="", limit=None, observed=None):
        super().__init__(reason or code)
        self.code = code
        self.path = path
        self.reason = reason or code
        self.limit = limit
        self.observed = observed


# ---------------------------------------------------------------------------
# Reading JSON text: member order, duplicate keys and number spellings kept
# ---------------------------------------------------------------------------


class Obj(list):
    """A JSON object as its (key, value) members in document order."""


class Num:
    """A JSON number as written."""

    def __init__(self, text):
        self.text = text

    def is_integer(self):
        return re.fullmatch(r"-?[0-9]+", self.text) is not None


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def _has_lone_surrogate(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
                return True
        elif isinstance(v, Obj):
            for k, item in v:
                stack.extend((k, item))
        elif isinstance(v, list):
            stack.extend(v)
    return False


def max_nesting(limits):
    """The JSON nesting a REST document may reach (docs/spec/rest.md): a merger layer takes five levels
    (message, MsgBody, element, MsgContent, MsgList), eight per layer leave room for push-info objects."""
    return (limits["max_depth"] + 1) * 8 + 8


def parse(text, limits=None, nesting_break=None):
    """The document's value; its size, then the first of a syntax error and a nesting past the limit (in
    document order: `nesting_break` finds where the first container past the limit opens)."""
    size = len(text.encode("utf-8"))
    if limits is not None and size > limits["max_document_bytes"]:
        raise Problem("limit.document-size", "", "the document is too large", limits["max_document_bytes"], size)
    if nesting_break is not None:
        past = nesting_break(text, max_nesting(limits))
        if past is not None:
            offset, closers = past
            parse(text[:offset] + "0" + closers)  # the text before it, closed: is it JSON so far?
            limit = max_nesting(limits)
            raise Problem("json.depth", "", "arrays and objects nest too deep", limit, limit + 1)
    try:
        value = json.loads(text, object_pairs_hook=Obj, parse_int=Num, parse_float=Num, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Problem("json.syntax", "", "not JSON") from None
    if _has_lone_surrogate(value):
        raise Problem("json.syntax", "", "a lone surrogate escape")
    return value


def _member(path, key):
    return key if path == "" else f"{path}.{key}"


# ---------------------------------------------------------------------------
# Import: a REST document -> the model's proto3 JSON, every problem in document order
# ---------------------------------------------------------------------------


class Importer:
    """Reads a document, every problem in document order. `watched` is a set of (model message, field) pairs
    whose scalar values are kept, as (model message, field, path, value) in document order, in `values`."""

    def __init__(self, limits, nesting_break=None, watched=()):
        self.limits = limits
        self.nesting_break = nesting_break
        self.problems = []
        self.watched = set(watched)
        self.values = []

    def problem(self, code, path, limit=None, observed=None):
        self.problems.append((code, path, limit, observed))

    def scalar(self, value_form, v, path):
        """A scalar of a value form, as proto3 JSON; None after a problem."""
        form = VALUE_FORMS[value_form]
        if form["json"] == "string":
            if not isinstance(v, str):
                self.problem("rest.type", path)
                return None
            return base64.b64encode(v.encode("utf-8")).decode("ascii") if form.get("model") == "bytes" else v
        if form["json"] == "number":
            if not isinstance(v, Num):
                self.problem("rest.type", path)
                return None
            number = float(v.text)
            if not math.isfinite(number):  # a literal past the largest double has no nearest double
                self.problem("rest.range", path)
                return None
            return number
        if not isinstance(v, Num) or not v.is_integer():
            self.problem("rest.type", path)
            return None
        n = int(v.text)
        if not form["min"] <= n <= form["max"]:
            self.problem("rest.range", path)
            return None
        return n

    def members(self, obj, path, handlers, skip=(), aliases=None):
        """Walks the members of `obj` in order: (results by key, keys present, keys read without a problem)."""
        seen, present, clean, results = set(), set(), set(), {}
        aliases = aliases or {}
        lower = {k.lower(): k for k in handlers}
        lower.update({k.lower(): k for k in aliases})
        for key, value in obj:
            mpath = _member(path, key)
            canonical = aliases.get(key, key)
            if canonical in seen:
                self.problem("rest.duplicate-key", mpath)
                continue
            seen.add(canonical)
            if canonical in handlers:
                present.add(canonical)
                before = len(self.problems)
                results[canonical] = handlers[canonical](value, mpath)
                if len(self.problems) == before:
                    clean.add(canonical)
            elif key in skip:
                continue
            elif key.lower() in lower:
                self.problem("rest.key-case", mpath)
                present.add(aliases.get(lower[key.lower()], lower[key.lower()]))
            else:
                self.problem("rest.unknown-key", mpath)
        return results, present, clean

    def is_object(self, v, path):
        if not isinstance(v, Obj):
            self.problem("rest.type", path)
            return False
        return True

    def is_array(self, v, path):
        if not isinstance(v, list) or isinstance(v, Obj):
            self.problem("rest.type", path)
            return False
        return True

    def within(self, v, path, code, limit):
        if len(v) > self.limits[limit]:
            self.problem(code, path, self.limits[limit], len(v))
            return False
        return True

    def document(self, text, batch):
        """The value of a document of the shape asked for (`batch` True or False; None takes any shape, and
        `shape` then says which it was: "body", "message" or "batch")."""
        self.shape = None
        try:
            root = parse(text, self.limits, self.nesting_break)
        except Problem as problem:
            self.problem(problem.code, "", problem.limit, problem.observed)
            return None
        if isinstance(root, Obj):
            keys = [k for k, _ in root]
            shape = "batch" if any(k in keys for k in LIST_KEYS) and "MsgBody" not in keys else "message"
        elif isinstance(root, list):
            shape = "body"
        else:
            self.problem("rest.type", "")
            return None
        self.shape = shape
        if batch is not None and batch != (shape == "batch"):
            self.problem("rest.type", "")
            return None
        if shape == "body":
            return {"elems": self.body(root, "MsgBody", 0)}
        if shape == "message":
            return self.message(root, "", 0, "message")
        return self.message_list(root)

    def message_list(self, obj):
        lists = []
        group_key = next(k for k in FORMS["message"] if k.field == "group_id")

        def entries(v, path):
            if not self.is_array(v, path) or not self.within(v, path, "limit.batch-messages", "max_batch_messages"):
                return None
            out = []
            for i, e in enumerate(v):
                p = f"{path}[{i}]"
                if self.is_object(e, p):
                    out.append(self.message(e, p, 0, "message"))
            lists.append(out)
            return out

        handlers = {group_key.name: lambda v, p: self.scalar(group_key.value, v, p)}
        handlers.update({k: entries for k in LIST_KEYS})
        results, present, _ = self.members(obj, "", handlers, skip=ENVELOPE_ONLY)
        self.list_key = next((k for k, _ in obj if k in LIST_KEYS and k in present), LIST_KEYS[0])
        group = results.get(group_key.name) or ""
        json_name = _camel(group_key.field)
        messages = [m for out in lists for m in out]
        for m in messages:
            if group and not m.get(json_name):
                m[json_name] = group
        return {"messages": messages}

    def handler(self, key, layer):
        """How the value of a declared key is read."""
        if key.value == "body":
            return lambda v, p: self.body(v, p, layer)
        if key.value == "object":
            return lambda v, p: self.object(key.form, v, p, layer)
        if key.value == "objects":
            return lambda v, p: self.objects(key, v, p, layer)
        if key.value == "strings":
            return lambda v, p: self.strings(key, v, p)
        return lambda v, p: self.scalar(key.value, v, p)

    def table(self, form, obj, path, layer, skip=(), aliases=None, special=None):
        """Reads an object of a declared form: (model JSON, results, present keys, clean keys)."""
        keys = FORMS[form]
        handlers = {k.name: (special or {}).get(k.name) or self.handler(k, layer) for k in keys}
        results, present, clean = self.members(obj, path, handlers, skip=skip, aliases=aliases)
        if self.watched:
            model = FORM_MODELS[form]
            for k in keys:
                if k.name in clean and (model, k.field) in self.watched:
                    self.values.append((model, k.field, _member(path, k.name), results[k.name]))
        in_use = any(k.name in present for k in keys if k.presence == "group")
        for k in keys:
            if (k.presence == "required" or (k.presence == "group" and in_use)) and k.name not in present:
                self.problem("rest.missing-key", _member(path, k.name))
        out = {}
        for k in keys:
            if results.get(k.name) is not None:
                out[_camel(k.field) if k.field else _camel(k.outside.split(".")[1])] = results[k.name]
        return out, results, present, clean

    def message(self, obj, path, layer, form):
        out, _, _, _ = self.table(form, obj, path, layer, skip=ENVELOPE_ONLY, aliases=ALIASES)
        return out

    def object(self, form, v, path, layer):
        if not self.is_object(v, path):
            return None
        out, _, _, _ = self.table(form, v, path, layer)
        return PUSH_READERS.get(form, lambda o: o)(out)

    def objects(self, key, v, path, layer):
        if not self.is_array(v, path):
            return None
        if key.form in ("forwardedMessage",):
            if layer + 1 > self.limits["max_depth"]:
                self.problem("limit.depth", path, self.limits["max_depth"], layer + 1)
                return None
        code, limit = LIMIT_NAMES[key.limit]
        if not self.within(v, path, code, limit):
            return None
        out = []
        for i, e in enumerate(v):
            p = f"{path}[{i}]"
            if not self.is_object(e, p):
                continue
            if key.form == "forwardedMessage":
                out.append(self.message(e, p, layer + 1, key.form))
            else:
                out.append(self.table(key.form, e, p, layer)[0])
        return out

    def strings(self, key, v, path):
        if not self.is_array(v, path):
            return None
        code, limit = LIMIT_NAMES[key.limit]
        if not self.within(v, path, code, limit):
            return None
        return [self.scalar("string", s, f"{path}[{i}]") for i, s in enumerate(v)]

    def body(self, v, path, layer):
        if not self.is_array(v, path) or not self.within(v, path, "limit.elems", "max_elems"):
            return None
        return [self.elem(e, f"{path}[{i}]", layer) for i, e in enumerate(v)]

    def elem(self, v, path, layer):
        if not self.is_object(v, path):
            return None
        type_key, content_key = ELEMENT_KEYS
        elem = None
        for key, value in v:
            if key == type_key:
                if isinstance(value, str) and value in ELEMS:
                    elem = ELEMS[value]
                break

        def msg_type(x, p):
            if self.scalar("string", x, p) is not None and x not in ELEMS:
                self.problem("rest.msg-type", p)

        def msg_content(x, p):
            if elem is None:
                self.is_object(x, p)
                return None
            if not self.is_object(x, p):
                return None
            if elem["form"] == "relay":
                return self.relay(x, p, layer)
            return self.table(elem["form"], x, p, layer)[0]

        results, present, _ = self.members(v, path, {type_key: msg_type, content_key: msg_content})
        for key in ELEMENT_KEYS:
            if key not in present:
                self.problem("rest.missing-key", _member(path, key))
        if elem is None:
            return None
        content = results.get(content_key)
        return {_camel(elem["kind"]): content if content is not None else {}}

    def relay(self, v, path, layer):
        """The relay's rules beyond its table (docs/spec/rest.md, form relay)."""
        keys = {k.field: k for k in FORMS["relay"]}
        list_key, json_key, num_key = keys["messages"].name, keys["json_msg_key"].name, keys["msg_num"].name
        list_length = None

        def msg_list(x, p):
            nonlocal list_length
            if isinstance(x, list) and not isinstance(x, Obj) and layer + 1 <= self.limits["max_depth"] \
                    and len(x) <= self.limits["max_repeated"]:
                list_length = len(x)  # MsgNum is compared with the number of entries, whatever they hold
            return self.objects(keys["messages"], x, p, layer)

        def json_msg_key(x, p):
            value = self.scalar(keys["json_msg_key"].value, x, p)
            if value == "":  # names no stored list
                self.problem("rest.range", p)
                return None
            return value

        out, results, present, clean = self.table(
            "relay", v, path, layer, special={list_key: msg_list, json_key: json_msg_key})
        if list_key not in present and json_key not in present:
            self.problem("rest.missing-key", _member(path, list_key))
        if list_key in present and json_key in present:
            self.problem("rest.relay-list-and-key", path)
        if num_key in clean and list_length is not None and results[num_key] != list_length:
            self.problem("rest.relay-msg-num", _member(path, num_key))
        return out


def _prune(d):
    return {k: x for k, x in d.items() if x not in ("", 0, None)}


def _push(out):
    """An OfflinePushInfo: ApnsInfo's outside key moves up; an all-default object is absent."""
    apns = out.pop("apns", None)
    if apns is not None:
        for key in FORMS["apns"]:
            if key.outside:
                name = _camel(key.outside.split(".")[1])
                if apns.get(name):
                    out[name] = apns[name]
                apns.pop(name, None)
        apns = _prune(apns)
        if apns:
            out["apns"] = apns
    return _prune(out) or None


PUSH_READERS = {"offlinePush": _push, "android": lambda o: _prune(o) or None}


def rest_to_json(text, batch, limits, nesting_break=None):
    """The proto3 JSON value of a REST document, or raises the first problem."""
    importer = Importer(limits, nesting_break)
    value = importer.document(text, batch)
    if importer.problems:
        code, path, limit, observed = importer.problems[0]
        raise Problem(code, path, code, limit, observed)
    return value


# ---------------------------------------------------------------------------
# Export: the model -> canonical REST text
# ---------------------------------------------------------------------------

U32 = VALUE_FORMS["uint32"]["max"]


def _own_unknown_fields(message):
    """Whether `message` itself holds unknown fields (upb's messages of protobuf 4.21 do not list them): its
    size against the size of a copy made of its known fields, nested messages copied whole."""
    known = type(message)()
    for field, value in message.ListFields():
        if field.label == field.LABEL_REPEATED:
            getattr(known, field.name).extend(value)
        elif field.message_type is not None:
            getattr(known, field.name).CopyFrom(value)
        else:
            setattr(known, field.name, value)
    return known.ByteSize() != message.ByteSize()


def _unknown(message, path):
    if _own_unknown_fields(message):
        raise Problem("rest.unrepresentable", path, "unknown fields have no REST form")


def _field_path(path, name):
    return _member(path, _camel(name))


def _set(message, name):
    """Whether a model field holds a value other than its default."""
    value = getattr(message, name)
    if hasattr(value, "ListFields") and not isinstance(value, (str, bytes)):
        return message.HasField(name)
    if isinstance(value, (str, bytes, int, float, bool)):
        return bool(value)
    return len(value) > 0


def _utf8(data, path):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Problem("rest.unrepresentable", path, "not UTF-8") from None


def _check_declared(entries, message, path, extra=None):
    for entry in entries:
        name, _, condition = entry.partition(":")
        value = getattr(message, name)
        fail = False
        if condition == "uint32":
            fail = not 0 <= value <= U32
        elif condition == "levelType":
            fail = value not in (1, 2, 3)
        elif condition in ("listLength", "withoutList"):
            fail = extra(condition)
        else:
            fail = _set(message, name)
        if fail:
            raise Problem("rest.unrepresentable", _field_path(path, name), f"REST has no {name} of this value")


def _check_push(message, path):
    if message.HasField("offline_push_info"):
        push = message.offline_push_info
        push_path = _field_path(path, "offline_push_info")
        _unknown(push, push_path)
        if push.HasField("android"):
            _unknown(push.android, _member(push_path, "android"))
        if push.HasField("apns"):
            _unknown(push.apns, _member(push_path, "apns"))


def _check_table(elem_decl, content, path):
    for key in FORMS[elem_decl["form"]]:
        if key.value == "text":
            _utf8(getattr(content, key.field), _field_path(path, key.field))
        elif key.value == "double" and not math.isfinite(getattr(content, key.field)):
            raise Problem("rest.unrepresentable", _field_path(path, key.field), "JSON has no NaN or infinity")
    _check_declared(elem_decl.get("unrepresentable", []), content, path)
    _unknown(content, path)


def check_representable(message, path):
    """Raises rest.unrepresentable at the first model value the REST form cannot hold, in the order of
    docs/spec/rest.md; iterative over merger layers."""
    stack = [("message", message, path)]
    while stack:
        step, value, where = stack.pop()
        if step == "message":
            _check_declared(UNREPRESENTABLE["message"], value, where)
            _check_push(value, where)
            _utf8(value.cloud_custom_data, _field_path(where, "cloud_custom_data"))
            stack.append(("messageEnd", value, where))
            for i in reversed(range(len(value.elems))):
                stack.append(("elem", value.elems[i], f"{_field_path(where, 'elems')}[{i}]"))
        elif step == "messageEnd":
            _check_declared(UNREPRESENTABLE["messageEnd"], value, where)
            _unknown(value, where)
        elif step == "elem":
            kind = value.WhichOneof("kind")
            if kind is None:
                raise Problem("rest.unrepresentable", where, "an elem of no known kind has no REST element type")
            content_path = _field_path(where, kind)
            decl = ELEM_OF_KIND.get(kind)
            if decl is None:
                raise Problem("rest.unrepresentable", content_path, f"{kind} is not a REST element type")
            content = getattr(value, kind)
            if decl["form"] == "relay":
                stack.append(("mergerEnd", value, where))
                for i in reversed(range(len(content.messages))):
                    stack.append(("message", content.messages[i], f"{_field_path(content_path, 'messages')}[{i}]"))
                continue
            if decl["form"] == "image":
                for i, level in enumerate(content.levels):
                    level_path = f"{_field_path(content_path, 'levels')}[{i}]"
                    _check_declared(UNREPRESENTABLE["imageLevel"], level, level_path)
                    _unknown(level, level_path)
                _unknown(content, content_path)
            else:
                _check_table(decl, content, content_path)
            _unknown(value, where)
        elif step == "mergerEnd":
            kind = value.WhichOneof("kind")
            merger = getattr(value, kind)
            content_path = _field_path(where, kind)
            with_list = bool(merger.messages) or not merger.json_msg_key

            def extra(condition):
                if condition == "listLength":
                    return merger.msg_num != 0 and with_list and merger.msg_num != len(merger.messages)
                return bool(merger.json_msg_key) and bool(merger.messages)

            _check_declared(UNREPRESENTABLE["relay"], merger, content_path, extra)
            _unknown(merger, content_path)
            _unknown(value, where)


class Writer:
    """Writes a checked model as REST values (dicts in key order), then as canonical text."""

    def scalar(self, key, value):
        if VALUE_FORMS[key.value].get("model") == "bytes":
            return value.decode("utf-8")
        if key.value == "double":
            return float(value)
        return value

    def table(self, form, message, written=None):
        """The non-nested keys of a form; `written` gives the values of nested keys (None leaves a key out)."""
        keys = FORMS[form]
        in_use = any(k.presence == "group" and _set(message, k.field) for k in keys if k.field)
        out = {}
        for k in keys:
            if written is not None and k.name in written:
                if written[k.name] is not None:
                    out[k.name] = written[k.name]
                continue
            value = getattr(message, k.field)
            if k.presence == "group":
                if in_use:
                    out[k.name] = self.scalar(k, value)
            elif k.presence == "required" or _set(message, k.field):
                out[k.name] = self.scalar(k, value)
        return out

    def push(self, push):
        written = {}
        for k in FORMS["offlinePush"]:
            if k.value != "object":
                continue
            sub = getattr(push, k.field)
            if k.form == "apns":
                out = {}
                for a in FORMS["apns"]:
                    if a.outside:
                        value = getattr(push, a.outside.split(".")[1])
                    else:
                        value = getattr(sub, a.field)
                    if value:
                        out[a.name] = value
            else:
                out = {a.name: getattr(sub, a.field) for a in FORMS[k.form] if getattr(sub, a.field)}
            written[k.name] = out or None
        return self.table("offlinePush", push, written) or None

    def message(self, m, style):
        """style: "top" (a bare MsgBody when nothing else is set), "list" (an entry of a message list: always an
        object) or "entry" (a MsgList entry of a relay: the forwarded form's required keys always)."""
        form = "forwardedMessage" if style == "entry" else "message"
        keys = FORMS[form]
        body = [self.elem(e) for e in m.elems]
        push = self.push(m.offline_push_info) if m.HasField("offline_push_info") else None
        out = {}
        for k in keys:
            if k.value == "body":
                out[k.name] = body
            elif k.value == "object":
                if push:
                    out[k.name] = push
            elif k.presence == "required" or _set(m, k.field):
                out[k.name] = self.scalar(k, getattr(m, k.field))
        body_key = next(k.name for k in keys if k.value == "body")
        if style == "top" and list(out) == [body_key]:
            return body
        return out

    def elem(self, e):
        kind = e.WhichOneof("kind")
        decl = ELEM_OF_KIND[kind]
        content = getattr(e, kind)
        if decl["form"] == "relay":
            out = self.relay(content)
        elif decl["form"] == "image":
            levels = next(k for k in FORMS["image"] if k.value == "objects")
            out = self.table("image", content, {
                levels.name: [self.table(levels.form, level) for level in content.levels]})
        else:
            out = self.table(decl["form"], content)
        type_key, content_key = ELEMENT_KEYS
        return {type_key: decl["msgType"], content_key: out}

    def relay(self, merger):
        keys = {k.field: k for k in FORMS["relay"]}
        written = {
            keys["msg_num"].name: merger.msg_num or len(merger.messages),
            keys["abstracts"].name: list(merger.abstracts),
            keys["messages"].name: None if merger.json_msg_key else [self.message(m, "entry") for m in merger.messages],
            keys["json_msg_key"].name: merger.json_msg_key or None,
        }
        return self.table("relay", merger, written)


def js_number(x):
    """JavaScript's Number::toString for a finite double."""
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    digits, exponent = repr(abs(x)).lower().partition("e")[::2]
    mantissa = digits.replace(".", "")
    point = digits.index(".") if "." in digits else len(digits)
    n = point + (int(exponent) if exponent else 0)
    stripped = mantissa.lstrip("0")
    n -= len(mantissa) - len(stripped)
    mantissa = stripped.rstrip("0") or "0"
    k = len(mantissa)
    if k <= n <= 21:
        s = mantissa + "0" * (n - k)
    elif 0 < n <= 21:
        s = mantissa[:n] + "." + mantissa[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + mantissa
    else:
        e = n - 1
        s = (mantissa if k == 1 else mantissa[0] + "." + mantissa[1:]) + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + s


def dump(v):
    """The canonical compact text of docs/spec/rest.md, "Export"."""
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, float):
        return js_number(v)
    return str(int(v))


def message_to_rest(value, batch):
    """The canonical REST text of a decoded Message or MessageBatch, or raises rest.unrepresentable."""
    writer = Writer()
    if batch:
        for i, m in enumerate(value.messages):
            check_representable(m, f"messages[{i}]")
        _unknown(value, "")
        return dump({LIST_KEYS[0]: [writer.message(m, "list") for m in value.messages]})
    check_representable(value, "")
    return dump(writer.message(value, "top"))


def rest_to_payload(cls, text, limits, nesting_break=None):
    """A REST document read into a new message of `cls` (Message or MessageBatch), or raises its first problem;
    `nesting_break(text, limit)` finds the first container past the nesting limit."""
    from google.protobuf import json_format

    batch = cls.DESCRIPTOR.name == "MessageBatch"
    if not batch and cls.DESCRIPTOR.name != "Message":
        raise ValueError(f"the REST form has no {cls.DESCRIPTOR.name}")
    value = rest_to_json(text, batch, limits, nesting_break)
    message = cls()
    json_format.ParseDict(value, message, max_recursion_depth=3 * limits["max_depth"] + 16)
    return message


def payload_to_rest(message):
    """The canonical REST text of a decoded Message or MessageBatch, or raises rest.unrepresentable."""
    if message.DESCRIPTOR.name not in ("Message", "MessageBatch"):
        raise ValueError(f"the REST form has no {message.DESCRIPTOR.name}")
    return message_to_rest(message, message.DESCRIPTOR.name == "MessageBatch")
