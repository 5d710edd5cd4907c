#!/usr/bin/env python3
"""Writes the Tencent REST vectors: Vectors/rest/*.json (Sources/IMCodecREST/IMCodecREST.docc/REST.md).

This is a second, deliberately small implementation of Sources/IMCodecREST/IMCodecREST.docc/REST.md, written
from that document and Tencent's "Message Formats" page, not from the Swift
code:

- an importer that reads a REST document (a MsgBody array, a message object or
  a message list) into the proto3 JSON form of imcodec.v1.Message or
  MessageBatch, walking the document member by member and collecting every
  problem in document order (the first one is the import error; all of them
  are the error findings of rest-validate);
- an exporter that writes a model value as canonical REST text ("Export"),
  or names the first part that has no REST form (rest.unrepresentable);
- the canonical payload of an imported value comes from the shared encoder of
  scripts/vectors/common.py.

Expected errors and findings are written by hand in each case; the importer
must agree with every hand-written import error (an assertion), so the two
check each other. Documented samples are reproduced from the pages named in
each case's comment (JSON comments removed).

Run from anywhere: python3 scripts/vectors/make_rest_vectors.py
"""

import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
sys.setrecursionlimit(20000)  # 101 nested relays are about 500 JSON levels

import base64
import collections
import decimal
import json
import math
import os
import re

from common import KIND_TYPES, constraints, SCHEMA, VECTORS, VectorFile, encode, hexs, ld, report, tag, varint
import rest_form  # scripts/lib, on the path through common

U32 = (0, 2**32 - 1)
I32 = (-(2**31), 2**31 - 1)
FMT = (0, 2**31 - 1)
# The declared defaults and the current body limit (Schemas/, read by scripts/lib/constraints.py).
_DECLARED = constraints.load()
MAX_DEPTH = _DECLARED.value("maxDepth")
MAX_ELEMS = _DECLARED.value("maxElems")
MAX_REPEATED = _DECLARED.value("maxRepeated")
MAX_BATCH = _DECLARED.value("maxBatchMessages")
BODY_LIMIT = _DECLARED.value("maxMessageBodyBytes", "current")

# The REST form's tables, from its declaration (Schemas/imcodec/rest/v1/rest.json, read by
# scripts/lib/rest_form.py; docs/spec/rest.md): the keys of every object in export order.
REST = rest_form.load(model=SCHEMA)
# Keys about the delivery rather than the message, skipped (docs/spec/rest.md, "Envelope-only keys").
ENVELOPE_KEYS = REST.envelope_only_keys
# Another spelling of a message key: group send requests and callbacks write Random for MsgRandom.
ALIASES = REST.aliases
# This writer's names of the value forms.
TYPES = {"string": "str", "text": "bytes", "uint32": "u32", "int32": "i32", "imageFormat": "fmt",
         "double": "double", "levelType": "level", "body": "body"}


def _type(key):
    if key.value == "objects" and key.form == "imageLevel":
        return "levels"
    if key.value == "object":
        return "push" if key.form == "offlinePush" else key.form
    return TYPES[key.value]


# (REST key, type, model field, required); type: str, u32, i32, fmt, double, bytes, levels
# Keys of the current form of sound, file and video are in GROUPS: all or none.
FORMS = {e.msg_type: (e.kind, None if e.mapping == "custom" and e.form == "relay" else
                      [(k.name, _type(k), k.json, k.presence == "required") for k in REST.forms[e.form].keys])
         for e in REST.elems}
GROUPS = {e.kind: [k.name for k in REST.forms[e.form].keys if k.presence == "group"]
          for e in REST.elems if any(k.presence == "group" for k in REST.forms[e.form].keys)}
KIND_FORM = {kind: name for name, (kind, _) in FORMS.items()}
LEVEL_KEYS = [(k.name, k.json) for k in REST.forms["imageLevel"].keys]
LEVEL_TYPES = {k.name: _type(k) for k in REST.forms["imageLevel"].keys}
RELAY_KEYS = [(k.name, _type(k) if k.value not in ("objects", "strings") else k.value, k.json, k.presence == "required")
              for k in REST.forms["relay"].keys]

MESSAGE_KEYS = [(k.name, _type(k), k.json) for k in REST.forms["message"].keys]  # (REST key, type, model field)
BODY_KEY = next(key for key, t, _ in MESSAGE_KEYS if t == "body")
ENTRY_REQUIRED = [k.name for k in REST.forms["forwardedMessage"].keys if k.presence == "required"]
PUSH_KEYS = [(k.name, _type(k), k.json) for k in REST.forms["offlinePush"].keys]
ANDROID_KEYS = [(k.name, _type(k), k.json) for k in REST.forms["android"].keys]
APNS_KEYS = [(k.name, _type(k), k.json) for k in REST.forms["apns"].keys]


def b64(data):
    return base64.b64encode(data).decode("ascii")


# ---------------------------------------------------------------------------
# Reading JSON text: member order, duplicate keys and number spellings kept
# ---------------------------------------------------------------------------


class Obj(list):
    """A JSON object as its (key, value) members in document order."""


class Num:
    def __init__(self, text):
        self.text = text

    def is_integer(self):
        return re.fullmatch(r"-?[0-9]+", self.text) is not None


class Syntax(Exception):
    pass


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _check_scalars(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
                raise Syntax("lone surrogate")
        elif isinstance(v, Obj):
            for k, item in v:
                stack.append(k)
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)


def parse_text(text):
    try:
        value = json.loads(text, object_pairs_hook=Obj, parse_int=Num, parse_float=Num,
                           parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise Syntax(str(e))
    _check_scalars(value)
    return value


def runner_text(value):
    """What the conformance runner sends for an input.rest value: compact text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# ---------------------------------------------------------------------------
# Import: REST document -> proto3 JSON of Message / MessageBatch
# ---------------------------------------------------------------------------


def member(path, key):
    return key if path == "" else f"{path}.{key}"


class Importer:
    """Walks a document and collects every problem, in document order."""

    def __init__(self):
        self.problems = []

    def problem(self, code, path):
        self.problems.append((code, path))

    # -- scalars --------------------------------------------------------------

    def read(self, kind, v, path):
        """A scalar of `kind`, or None after reporting a problem."""
        if kind == "str" or kind == "bytes":
            if not isinstance(v, str):
                self.problem("rest.type", path)
                return None
            return b64(v.encode("utf-8")) if kind == "bytes" else v
        if kind == "double":
            if not isinstance(v, Num):
                self.problem("rest.type", path)
                return None
            if not math.isfinite(float(v.text)):  # past the largest double: no nearest double to read
                self.problem("rest.range", path)
                return None
            return float(v.text)
        bounds = {"u32": U32, "i32": I32, "fmt": FMT, "level": (1, 3)}[kind]
        if not isinstance(v, Num) or not v.is_integer():
            self.problem("rest.type", path)
            return None
        n = int(v.text)
        if not bounds[0] <= n <= bounds[1]:
            self.problem("rest.range", path)
            return None
        return n

    # -- objects --------------------------------------------------------------

    def members(self, obj, path, handlers, skip=(), aliases=None):
        """Walks the members of `obj` in document order. Returns (results, present, clean):
        results[key] = handler result, present = known keys seen (exactly or in another case),
        clean = known keys read without a problem."""
        seen, present, clean, results = set(), set(), set(), {}
        aliases = aliases or {}
        lower = {k.lower(): k for k in handlers}
        lower.update({k.lower(): k for k in aliases})
        for key, value in obj:
            mpath = member(path, key)
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

    # -- documents ------------------------------------------------------------

    def document(self, text, kind):
        try:
            root = parse_text(text)
        except Syntax:
            self.problem("json.syntax", "")
            return None
        if isinstance(root, Obj):
            keys = [k for k, _ in root]
            shape = "batch" if ("MsgList" in keys or "RspMsgList" in keys) and "MsgBody" not in keys else "message"
        elif isinstance(root, list):
            shape = "body"
        else:
            self.problem("rest.type", "")
            return None
        if (kind == "batch") != (shape == "batch"):
            self.problem("rest.type", "")
            return None
        if shape == "body":
            elems = self.body(root, "MsgBody", 0)
            return {"elems": elems}
        if shape == "message":
            return self.message(root, "", 0, entry=False)
        return self.message_list(root)

    def message_list(self, obj):
        lists = []

        def entries(v, path):
            if not self.is_array(v, path):
                return None
            if len(v) > MAX_BATCH:
                self.problem("limit.batch-messages", path)
                return None
            out = []
            for i, e in enumerate(v):
                p = f"{path}[{i}]"
                if self.is_object(e, p):
                    out.append(self.message(e, p, 0, entry=False))
            lists.append(out)
            return out

        handlers = {"GroupId": lambda v, p: self.read("str", v, p), "MsgList": entries, "RspMsgList": entries}
        results, _, _ = self.members(obj, "", handlers, skip=ENVELOPE_KEYS)
        group = results.get("GroupId") or ""
        messages = [m for out in lists for m in out]
        for m in messages:
            if group and not m.get("groupId"):
                m["groupId"] = group
        return {"messages": messages}

    def message(self, obj, path, layer, entry):
        handlers = {}
        for key, kind, _ in MESSAGE_KEYS:
            if kind == "body":
                handlers[key] = lambda v, p: self.body(v, p, layer)
            elif kind == "push":
                handlers[key] = self.push
            else:
                handlers[key] = lambda v, p, k=kind: self.read(k, v, p)
        results, present, _ = self.members(obj, path, handlers, skip=ENVELOPE_KEYS, aliases=ALIASES)
        required = ENTRY_REQUIRED if entry else ["MsgBody"]
        for key, _, _ in MESSAGE_KEYS:
            if key in required and key not in present:
                self.problem("rest.missing-key", member(path, key))
        out = {}
        for key, _, field in MESSAGE_KEYS:
            if results.get(key) is not None:
                out[field] = results[key]
        return out

    def push(self, v, path):
        if not self.is_object(v, path):
            return None

        def table(keys, build):
            def read(v2, p2):
                if not self.is_object(v2, p2):
                    return None
                res, _, _ = self.members(v2, p2, {k: (lambda x, q, t=t: self.read(t, x, q)) for k, t, _ in keys})
                return build({f: res[k] for k, _, f in keys if res.get(k) is not None})
            return read

        def prune(d):
            return {k: x for k, x in d.items() if x not in ("", 0, None)}

        handlers = {}
        for key, kind, _ in PUSH_KEYS:
            if kind == "android":
                handlers[key] = table(ANDROID_KEYS, lambda d: prune(d) or None)
            elif kind == "apns":
                handlers[key] = table(APNS_KEYS, lambda d: d)
            else:
                handlers[key] = lambda x, q, t=kind: self.read(t, x, q)
        res, _, _ = self.members(v, path, handlers)
        out = {}
        for key, kind, field in PUSH_KEYS:
            if res.get(key) is None:
                continue
            if kind == "apns":
                apns = dict(res[key])
                sound = apns.pop("iosSound", "")
                if sound:
                    out["iosSound"] = sound
                apns = prune(apns)
                if apns:
                    out["apns"] = apns
            else:
                out[field] = res[key]
        out = prune(out)
        return out or None  # an all-default object is read as absent

    def body(self, v, path, layer):
        if not self.is_array(v, path):
            return None
        if len(v) > MAX_ELEMS:
            self.problem("limit.elems", path)
            return None
        return [self.elem(e, f"{path}[{i}]", layer) for i, e in enumerate(v)]

    def elem(self, v, path, layer):
        if not self.is_object(v, path):
            return None
        form = None
        for key, value in v:
            if key == "MsgType":
                if isinstance(value, str) and value in FORMS:
                    form = value
                break
        content = {}

        def msg_type(x, p):
            if self.read("str", x, p) is not None and x not in FORMS:
                self.problem("rest.msg-type", p)

        def msg_content(x, p):
            if form is None:
                self.is_object(x, p)
                return None
            return self.content(form, x, p, layer)

        results, present, _ = self.members(v, path, {"MsgType": msg_type, "MsgContent": msg_content})
        for key in ("MsgType", "MsgContent"):
            if key not in present:
                self.problem("rest.missing-key", member(path, key))
        if form is None:
            return None
        kind = FORMS[form][0]
        content = results.get("MsgContent")
        return {kind: content if content is not None else {}}

    def content(self, form, v, path, layer):
        if not self.is_object(v, path):
            return None
        kind, keys = FORMS[form]
        if keys is None:
            return self.relay(v, path, layer)
        handlers = {}
        for key, t, _, _ in keys:
            if t == "levels":
                handlers[key] = self.levels
            else:
                handlers[key] = lambda x, p, t=t: self.read(t, x, p)
        results, present, _ = self.members(v, path, handlers)
        group = GROUPS.get(kind, [])
        any_group = any(k in present for k in group)
        for key, _, _, req in keys:
            if (req or (key in group and any_group)) and key not in present:
                self.problem("rest.missing-key", member(path, key))
        return {field: results[key] for key, _, field, _ in keys if results.get(key) is not None}

    def levels(self, v, path):
        if not self.is_array(v, path):
            return None
        if len(v) > MAX_REPEATED:
            self.problem("limit.repeated", path)
            return None
        out = []
        for i, e in enumerate(v):
            p = f"{path}[{i}]"
            if not self.is_object(e, p):
                continue
            handlers = {k: (lambda x, q, t=LEVEL_TYPES[k]: self.read(t, x, q)) for k, _ in LEVEL_KEYS}
            res, present, _ = self.members(e, p, handlers)
            for k, _ in LEVEL_KEYS:
                if k not in present:
                    self.problem("rest.missing-key", member(p, k))
            out.append({f: res[k] for k, f in LEVEL_KEYS if res.get(k) is not None})
        return out

    def relay(self, v, path, layer):
        def abstracts(x, p):
            if not self.is_array(x, p):
                return None
            if len(x) > MAX_REPEATED:
                self.problem("limit.repeated", p)
                return None
            return [self.read("str", s, f"{p}[{i}]") for i, s in enumerate(x)]

        list_length = None

        def msg_list(x, p):
            nonlocal list_length
            if not self.is_array(x, p):
                return None
            if layer + 1 > MAX_DEPTH:
                self.problem("limit.depth", p)
                return None
            if len(x) > MAX_REPEATED:
                self.problem("limit.repeated", p)
                return None
            # MsgNum is compared with the number of entries, whatever they hold.
            list_length = len(x)
            out = []
            for i, e in enumerate(x):
                q = f"{p}[{i}]"
                if self.is_object(e, q):
                    out.append(self.message(e, q, layer + 1, entry=True))
            return out

        def json_msg_key(x, p):
            key = self.read("str", x, p)
            if key == "":  # names no stored list
                self.problem("rest.range", p)
                return None
            return key

        keys = {field: key for key, _, field, _ in RELAY_KEYS}
        handlers = {key: (lambda x, p, t=t: self.read(t, x, p)) for key, t, _, _ in RELAY_KEYS}
        handlers.update({keys["abstracts"]: abstracts, keys["messages"]: msg_list, keys["jsonMsgKey"]: json_msg_key})
        results, present, clean = self.members(v, path, handlers)
        for key, _, _, required in RELAY_KEYS:
            if required and key not in present:
                self.problem("rest.missing-key", member(path, key))
        if keys["messages"] not in present and keys["jsonMsgKey"] not in present:
            self.problem("rest.missing-key", member(path, keys["messages"]))
        if keys["messages"] in present and keys["jsonMsgKey"] in present:
            self.problem("rest.relay-list-and-key", path)
        if keys["msgNum"] in clean and list_length is not None and results[keys["msgNum"]] != list_length:
            self.problem("rest.relay-msg-num", member(path, keys["msgNum"]))
        out = {}
        for key, _, field, _ in RELAY_KEYS:
            if results.get(key) is not None:
                out[field] = results[key]
        return out


def import_text(text, kind):
    """(value, problems): the proto3 JSON value when there is no problem."""
    imp = Importer()
    value = imp.document(text, kind)
    return (None if imp.problems else value), imp.problems


# ---------------------------------------------------------------------------
# Export: proto3 JSON of Message / MessageBatch -> canonical REST text
# ---------------------------------------------------------------------------


class Unrepresentable(Exception):
    def __init__(self, path):
        super().__init__(path)
        self.path = path


def _enum(enum, value):
    return SCHEMA.enums[enum][value] if isinstance(value, str) else int(value)


def _utf8(b64text, path):
    try:
        return base64.b64decode(b64text).decode("utf-8")
    except UnicodeDecodeError:
        raise Unrepresentable(path)


MESSAGE_FLAG_FIELDS = [("groupType", ""), ("needReadReceipt", False), ("excludedFromUnreadCount", False),
                       ("excludedFromLastMessage", False), ("onlineUserOnly", False)]


def export_message(m, path, style):
    """style: 'top' (bare array when no envelope), 'list' (an entry of a message list: always an object),
    'entry' (a MsgList entry of a relay: its required keys always)."""
    p = lambda f: member(path, f)
    if m.get("msgId"):
        raise Unrepresentable(p("msgId"))
    if m.get("groupType"):
        raise Unrepresentable(p("groupType"))
    timestamp = int(m.get("timestamp", 0))
    if not 0 <= timestamp <= U32[1]:
        raise Unrepresentable(p("timestamp"))
    seq = int(m.get("seq", 0))
    if seq > U32[1]:
        raise Unrepresentable(p("seq"))
    if m.get("priority") not in (None, 0, "PRIORITY_DEFAULT"):
        raise Unrepresentable(p("priority"))
    for field in ("needReadReceipt", "excludedFromUnreadCount", "excludedFromLastMessage", "onlineUserOnly",
                  "targetedReceivers", "atUserList"):
        if m.get(field):
            raise Unrepresentable(p(field))
    push = export_push(m.get("offlinePushInfo") or {})
    cloud_custom_data = _utf8(m.get("cloudCustomData", ""), p("cloudCustomData"))
    body = [export_elem(e, f"{p('elems')}[{i}]") for i, e in enumerate(m.get("elems", []))]
    by_field = {"seq": seq, "timestamp": timestamp, "elems": body, "cloudCustomData": cloud_custom_data,
                "offlinePushInfo": push}
    values = {key: by_field[field] if field in by_field else int(m.get(field, 0)) if t == "u32" else m.get(field, "")
              for key, t, field in MESSAGE_KEYS}
    if m.get("isSelf"):  # field 19, after the elems
        raise Unrepresentable(p("isSelf"))
    if m.get("atType") not in (None, 0, "GROUP_AT_TYPE_UNSPECIFIED"):  # field 22
        raise Unrepresentable(p("atType"))
    envelope = any(values[k] for k in values if k != BODY_KEY)
    if style == "top" and not envelope:
        return body
    out = {}
    for key, _, _ in MESSAGE_KEYS:
        if key == BODY_KEY or values[key] or (style == "entry" and key in ENTRY_REQUIRED):
            out[key] = values[key]
    return out


def export_push(push):
    out = {}
    for key, kind, field in PUSH_KEYS:
        if kind == "android":
            a = push.get("android") or {}
            sub = {k: a[f] for k, t, f in ANDROID_KEYS if a.get(f)}
        elif kind == "apns":
            a = dict(push.get("apns") or {})
            a["iosSound"] = push.get("iosSound", "")
            sub = {k: a[f] for k, t, f in APNS_KEYS if a.get(f)}
        else:
            sub = push.get(field)
        if sub:
            out[key] = sub
    return out


def export_elem(e, path):
    kinds = [k for k in e if e[k] is not None]
    if not kinds:
        raise Unrepresentable(path)
    kind = kinds[0]
    if kind not in KIND_FORM:
        raise Unrepresentable(f"{path}.{kind}")
    form = KIND_FORM[kind]
    c = e[kind]
    p = f"{path}.{kind}"
    if kind == "merger":
        return {"MsgType": form, "MsgContent": export_merger(c, p)}
    if kind == "sound" and c.get("isPlayed"):  # the played state is local to one client
        raise Unrepresentable(f"{p}.isPlayed")
    keys = FORMS[form][1]
    group = GROUPS.get(kind, [])
    current = any(c.get(f) for k, _, f, _ in keys if k in group)
    out = {}
    for key, t, field, req in keys:
        value = c.get(field)
        if t in ("str",):
            value = value or ""
        elif t == "bytes":
            value = _utf8(value or "", f"{p}.{field}")
        elif t == "double":
            value = float(0.0 if value is None else value)
            if math.isnan(value) or math.isinf(value):
                raise Unrepresentable(f"{p}.{field}")
        elif t == "fmt":
            value = _enum("ImageFormat", value or 0)
        elif t == "levels":
            value = [export_level(lv, f"{p}.levels[{i}]") for i, lv in enumerate(value or [])]
        else:
            value = int(value or 0)
        if key in group:
            if current:
                out[key] = value
        elif req or value:
            out[key] = value
    return {"MsgType": form, "MsgContent": out}


def export_level(lv, path):
    t = _enum("ImageLevelType", lv.get("type", 0))
    if t not in (1, 2, 3):
        raise Unrepresentable(f"{path}.type")
    if lv.get("uuid"):
        raise Unrepresentable(f"{path}.uuid")
    values = {f: (t if f == "type" else lv.get(f, "") if LEVEL_TYPES[k] == "str" else int(lv.get(f, 0)))
              for k, f in LEVEL_KEYS}
    return {k: values[f] for k, f in LEVEL_KEYS}


def export_merger(c, path):
    messages = c.get("messages") or []
    entries = [export_message(m, f"{path}.messages[{i}]", "entry") for i, m in enumerate(messages)]
    if c.get("layersOverLimit"):
        raise Unrepresentable(f"{path}.layersOverLimit")
    # MsgNum is free only when the relay is written with JsonMsgKey: a key and no messages.
    with_list = messages or not c.get("jsonMsgKey")
    if int(c.get("msgNum", 0)) and with_list and int(c.get("msgNum", 0)) != len(messages):
        raise Unrepresentable(f"{path}.msgNum")
    if c.get("jsonMsgKey") and messages:
        raise Unrepresentable(f"{path}.jsonMsgKey")
    values = {"title": c.get("title", ""), "msgNum": int(c.get("msgNum", 0)) or len(messages),
              "compatibleText": c.get("compatibleText", ""), "abstracts": list(c.get("abstracts", [])),
              "jsonMsgKey": c.get("jsonMsgKey") or None, "messages": None if c.get("jsonMsgKey") else entries}
    return {key: values[field] for key, _, field, _ in RELAY_KEYS if values[field] is not None}


def export_value(kind, value):
    if kind == "batch":
        return {"MsgList": [export_message(m, f"messages[{i}]", "list")
                            for i, m in enumerate(value.get("messages", []))]}
    return export_message(value, "", "top")


def js_number(x):
    """JavaScript's Number::toString for a finite double."""
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    d = decimal.Decimal(repr(abs(x))).normalize()
    t = d.as_tuple()
    digits = "".join(map(str, t.digits))
    k = len(digits)
    n = t.exponent + k
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        s = (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + s


def dump(v):
    """The canonical compact text of Sources/IMCodecREST/IMCodecREST.docc/REST.md, "Export"."""
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, bool):
        raise TypeError(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return js_number(v)
    raise TypeError(v)


def export_text(kind, value):
    return dump(export_value(kind, value))


def as_json(text):
    """A JSON value for a vector file (keeps the sign of -0)."""
    return json.loads(text, parse_int=lambda s: -0.0 if s == "-0" else int(s))


# ---------------------------------------------------------------------------
# Vector files
# ---------------------------------------------------------------------------

DERIVATION = (
    "Inputs written by hand, many reproduced from Tencent's documentation (each such case names its page; JSON "
    "comments removed). Expected payloads, canonical REST documents and first import errors computed by "
    "scripts/vectors/make_rest_vectors.py, a second implementation of Sources/IMCodecREST/IMCodecREST.docc/REST.md written from that document (not from "
    "the Swift code): an importer that walks the document member by member in document order, and the exporter "
    "of \"Export\"; payloads by the canonical encoder of scripts/vectors/common.py. Every expected error and "
    "finding is written by hand in the script and checked against that importer."
)

FLAGS = {
    "Canonical": "The input is a canonical document (what export writes): expected.rest equals the input, and "
    "input.restText is the exact canonical compact text, byte for byte.",
    "DocSample": "The input reproduces a JSON sample of Tencent's documentation (page named in the comment).",
    "DocSampleRejected": "A documented sample that Sources/IMCodecREST/IMCodecREST.docc/REST.md rejects (a key outside its tables, or text that "
    "is not JSON): the case expects that error.",
    "Envelope": "The document holds envelope keys (callbacks, history answers, send requests) that import skips.",
    "NonCanonicalInput": "Valid but not canonical (key order, number spelling, defaults, a message object without "
    "envelope): expected.rest is what export writes.",
    "RestText": "The input is given as verbatim text (duplicate keys, syntax errors, exact number spellings, "
    "large documents).",
    "MultiByte": "Non-ASCII text: CJK, emoji, ZWJ sequences.",
    "NulInString": "A string holds U+0000 (and other control characters), which must survive unchanged.",
    "Legacy": "The legacy 2.X/3.X form of a sound, file or video element (no URL, no download flag).",
    "DeepNesting": "Relays nested near or past the merger depth limit (100 layers).",
    "LargeInput": "A large document (an array at or past its size limit).",
    "PathDecision": "Sources/IMCodecREST/IMCodecREST.docc/REST.md names the code but not the path; the case takes the root path for a text that "
    "is not JSON, and the path of the field for export errors.",
    "KeyOrderDecision": "The canonical text writes the keys of a sound, file or video in the order of the "
    "documentation's samples, which Sources/IMCodecREST/IMCodecREST.docc/REST.md's export rules name; compared as JSON values the order does not matter.",
    "Warning": "The finding is a warning; the document is still valid.",
    "Clean": "No finding at all.",
    "AtLimit": "A value exactly at the profile's limit: no finding.",
    "PastLimit": "One past the profile's limit: one finding with the limit and the measured value.",
    "RuleOff": "The profile has no such rule: the same document passes.",
    "FirstProblem": "The document has more than one problem; the expected error is the first in document order "
    "(members in order, then missing keys in table order, then object rules).",
}


class RestVectorFile(VectorFile):
    """A VectorFile whose large `rest` values (deep relays) are written on one line."""

    def write(self):
        compact = {}
        for case in self.cases:
            for holder in (case.get("input", {}), case.get("expected", {})):
                for key in ("rest", "json"):
                    value = holder.get(key)
                    if value is not None and not isinstance(value, str) and len(json.dumps(value)) > 2000:
                        marker = f"@@compact-{len(compact)}@@"
                        compact[marker] = json.dumps(value, ensure_ascii=False, allow_nan=False)
                        holder[key] = marker
        used = {f for c in self.cases for f in c.get("flags", [])}
        doc = {
            "format": "imcodec-vectors",
            "version": 1,
            "area": self.area,
            "title": self.title,
            "description": self.description,
            "derivation": self.derivation,
            "flags": {name: text for name, text in self.flags.items() if name in used},
            "cases": self.cases,
        }
        text = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)
        for marker, value in compact.items():
            text = text.replace(json.dumps(marker), value, 1)
        directory = os.path.join(VECTORS, self.area)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, self.name + ".json")
        with open(path, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        return path, len(self.cases)


def new_file(name, title, description):
    return RestVectorFile("rest", name, title, description, DERIVATION, FLAGS)


# The cases of the import and export files as data rows: each has the fields of `imp` and `exp` after `vf`, in
# their order.
Import = collections.namedtuple("Import", "cid comment kind rest text error flags",
                                defaults=("message", None, None, None, ()))
Export = collections.namedtuple("Export", "cid comment kind model error flags payload", defaults=(None, (), None))


def imp(vf, cid, comment, kind="message", rest=None, text=None, error=None, flags=()):
    """A rest-import case. Valid when `error` is None; `error` = (code, path) otherwise."""
    flags = list(flags)
    sent = text if text is not None else runner_text(rest)
    value, problems = import_text(sent, kind)
    case = {"id": cid, "comment": comment, "flags": flags, "operation": "rest-import",
            "result": "valid" if error is None else "invalid", "kind": kind}
    if text is not None and "RestText" not in flags:
        flags.append("RestText")
    if error is not None:
        assert problems and problems[0] == tuple(error), f"{cid}: importer says {problems[:3]}, expected {error}"
        case["input"] = {"rest": rest} if text is None else {"restText": text}
        case["expected"] = {"error": {"code": error[0], "path": error[1]}}
        return vf.add(case)
    assert not problems, f"{cid}: unexpected problems {problems[:5]}"
    out = export_text(kind, value)
    if sent == out:
        if "Canonical" not in flags:
            flags.insert(0, "Canonical")
        case["input"] = {"rest": as_json(out), "restText": out}
    else:
        assert "Canonical" not in flags, f"{cid}: not canonical: {out}"
        if "NonCanonicalInput" not in flags:
            flags.append("NonCanonicalInput")
        case["input"] = {"rest": rest} if text is None else {"restText": text}
    # Round trip of Sources/IMCodecREST/IMCodecREST.docc/REST.md: import(export(import(D))) = import(D).
    again, again_problems = import_text(out, kind)
    assert not again_problems and encode(KIND_TYPES[kind], again) == encode(KIND_TYPES[kind], value), cid
    case["expected"] = {"payloadHex": hexs(encode(KIND_TYPES[kind], value)), "rest": as_json(out)}
    return vf.add(case)


def exp(vf, cid, comment, kind, model, error=None, flags=(), payload=None):
    """A rest-export case from a proto3 JSON value (or hand-built payload bytes)."""
    flags = list(flags)
    data = payload if payload is not None else encode(KIND_TYPES[kind], model)
    case = {"id": cid, "comment": comment, "flags": flags, "operation": "rest-export",
            "result": "valid" if error is None else "invalid", "kind": kind}
    case["input"] = {"payloadHex": hexs(data)}
    if payload is None:
        case["input"]["json"] = model
    if error is not None:
        if payload is None:
            try:
                export_text(kind, model)
                raise AssertionError(f"{cid}: exporter accepts it")
            except Unrepresentable as e:
                assert e.path == error, f"{cid}: exporter says {e.path}, expected {error}"
        case["expected"] = {"error": {"code": "rest.unrepresentable", "path": error}}
        return vf.add(case)
    out = export_text(kind, model)
    again, problems = import_text(out, kind)
    assert not problems and export_text(kind, again) == out, f"{cid}: {problems}"
    case["expected"] = {"rest": as_json(out)}
    return vf.add(case)


def finding(code, path, limit=None, actual=None, severity=None):
    f = {"code": code, "path": path,
         "severity": severity or ("warning" if code.startswith("enum.") else "error")}
    if limit is not None:
        f["limit"] = limit
    if actual is not None:
        f["actual"] = actual
    return f


# DecodingLimits.maxProblems: how many import problems a validation reports.
MAX_PROBLEMS = _DECLARED.value("maxProblems")


def val(vf, cid, comment, profile, findings, rest=None, text=None, flags=()):
    """A rest-validate case. Import problems (the first MAX_PROBLEMS, then their number) are checked
    against the importer."""
    flags = list(flags)
    sent = text if text is not None else runner_text(rest)
    kind = "batch"
    try:
        root = parse_text(sent)
        keys = [k for k, _ in root] if isinstance(root, Obj) else []
        kind = "batch" if ("MsgList" in keys or "RspMsgList" in keys) and "MsgBody" not in keys else "message"
    except Syntax:
        kind = "message"
    _, problems = import_text(sent, kind)
    import_findings = [f for f in findings if f["code"].startswith(("rest.", "json."))
                       or f["code"] in ("limit.depth", "limit.elems", "limit.repeated", "limit.batch-messages",
                                        "limit.problems")]
    # The first MAX_PROBLEMS in document order, then their number.
    reported = problems[:MAX_PROBLEMS]
    if len(problems) > MAX_PROBLEMS:
        reported.append(("limit.problems", ""))
        count = import_findings[-1] if import_findings else {}
        assert (count.get("limit"), count.get("actual")) == (MAX_PROBLEMS, len(problems)), f"{cid}: {len(problems)}"
    assert [(f["code"], f["path"]) for f in import_findings] == reported, f"{cid}: importer says {problems}"
    if problems:
        assert len(import_findings) == len(findings), cid
    if text is not None and "RestText" not in flags:
        flags.append("RestText")
    if any(f["severity"] == "warning" for f in findings) and "Warning" not in flags:
        flags.append("Warning")
    if not findings and not any(f in flags for f in ("AtLimit", "RuleOff")):
        flags.append("Clean")
    case = {"id": cid, "comment": comment, "flags": flags, "operation": "rest-validate",
            "result": "invalid" if any(f["severity"] == "error" for f in findings) else "valid"}
    case["input"] = {"rest": rest} if text is None else {"restText": text}
    case["input"]["profile"] = profile
    case["expected"] = {"findings": findings}
    return vf.add(case)


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------

MF = "https://www.tencentcloud.com/document/product/1047/33527 (Message Formats)"


def el(msg_type, content):
    return {"MsgType": msg_type, "MsgContent": content}


def text(t):
    return el("TIMTextElem", {"Text": t})


TEXT_HELLO = text("hello world")
LOCATION_DOC = el("TIMLocationElem", {"Desc": "someinfo", "Latitude": 29.340656774469956,
                                      "Longitude": 116.77497920478824})
FACE_DOC = el("TIMFaceElem", {"Index": 1, "Data": "content"})
CUSTOM_DOC = el("TIMCustomElem", {"Data": "message", "Desc": "notification", "Ext": "url", "Sound": "dingdong.aiff"})
SOUND_DOC = el("TIMSoundElem", {
    "Url": "https://1234-5678187359-1253735226.cos.ap-shanghai.myqcloud.com/abc123/c9be9d32c05bfb77b3edafa4312c6c7d",
    "UUID": "1053D4B3D61040894AC3DE44CDF28B3EC7EB7C0F", "Size": 62351, "Second": 1, "Download_Flag": 2})
SOUND_LEGACY_DOC = el("TIMSoundElem", {"UUID": "305c0201", "Size": 62351, "Second": 1})
IMAGE_URL = "http://xxx/3200490432214177468_144115198371610486_D61040894AC3DE44CDFFFB3EC7EB720F/"
IMAGE_DOC = el("TIMImageElem", {
    "UUID": "1853095_D61040894AC3DE44CDFFFB3EC7EB720F", "ImageFormat": 1, "ImageInfoArray": [
        {"Type": 1, "Size": 1853095, "Width": 2448, "Height": 3264, "URL": IMAGE_URL + "0"},
        {"Type": 2, "Size": 2565240, "Width": 0, "Height": 0, "URL": IMAGE_URL + "720"},
        {"Type": 3, "Size": 12535, "Width": 0, "Height": 0, "URL": IMAGE_URL + "198"}]})
FILE_NAME = "file:///private/var/Application/tmp/trim.B75D5F9B-1426-4913-8845-90DD46797FCD.MOV"
FILE_DOC = el("TIMFileElem", {
    "Url": "https://7492-5678539059-1253735326.cos.ap-shanghai.myqcloud.com/abc123/49be9d32c0fbfba7b31dafa4312c6c7d",
    "UUID": "1053D4B3D61040894AC3DE44CDF28B3EC7EB7C0F", "FileSize": 1773552, "FileName": FILE_NAME,
    "Download_Flag": 2})
FILE_LEGACY_DOC = el("TIMFileElem", {"UUID": "305c02010", "FileSize": 1773552, "FileName": FILE_NAME})
VIDEO_HOST = "https://0345-1400187352-1256635546.cos.ap-shanghai.myqcloud.com/abcd/"
VIDEO_DOC = el("TIMVideoFileElem", {
    "VideoUrl": VIDEO_HOST + "f7c6ad3c50af7d83e23efe0a208b90c9", "VideoUUID": "5da38ba89d6521011e1f6f3fd6692e35",
    "VideoSize": 1194603, "VideoSecond": 5, "VideoFormat": "mp4", "VideoDownloadFlag": 2,
    "ThumbUrl": VIDEO_HOST + "a6c170c9c599280cb06e0523d7a1f37b", "ThumbUUID": "6edaffedef5150684510cf97957b7bc8",
    "ThumbSize": 13907, "ThumbWidth": 720, "ThumbHeight": 1280, "ThumbFormat": "JPG", "ThumbDownloadFlag": 2})
VIDEO_LEGACY_DOC = el("TIMVideoFileElem", {
    "VideoUUID": "1400123456_dramon_34ca36be7dd214dc50a49238ef80a6b5", "VideoSize": 1194603, "VideoSecond": 5,
    "VideoFormat": "mp4", "ThumbUUID": "1400123456_dramon_893f5a7a4872676ae142c08acd49c18a", "ThumbSize": 13907,
    "ThumbWidth": 720, "ThumbHeight": 1280, "ThumbFormat": "JPG"})
TEXT_FACE_TEXT_DOC = [text("hello"), el("TIMFaceElem", {"Index": 1, "Data": "content"}), text("world")]


def relay_doc_sample():
    """The TIMRelayElem sample of the Message Formats page, as printed (MsgContent before MsgType)."""
    def entry(frm, seq, rnd, ts, t):
        return {"From_Account": frm, "GroupId": "group1", "MsgSeq": seq, "MsgRandom": rnd, "MsgTimeStamp": ts,
                "MsgBody": [{"MsgContent": {"Text": t}, "MsgType": "TIMTextElem"}]}
    return el("TIMRelayElem", {
        "Title": "Group chat history", "MsgNum": 2,
        "CompatibleText": "The SDK version does not support combined messages. Please upgrade to the latest version.",
        "AbstractList": ["A: What do you think of this?", "B: I think it's great."],
        "MsgList": [entry("A", 85, 3998651049, 1664437702, " What do you think of this?"),
                    entry("B", 86, 965790, 1664437703, "I think it's great.")]})


def entry(body, frm="user_a", to="user_b", seq=1, rnd=1, ts=1700000000, **extra):
    out = {"From_Account": frm}
    if to:
        out["To_Account"] = to
    if "GroupId" in extra:
        out["GroupId"] = extra.pop("GroupId")
    out.update({"MsgSeq": seq, "MsgRandom": rnd, "MsgTimeStamp": ts, "MsgBody": body})
    out.update(extra)
    return out


def relay(entries, title="Chat history", abstracts=("a: hi",), compat="Upgrade to view", msg_num=None, **extra):
    content = {"Title": title, "MsgNum": len(entries) if msg_num is None else msg_num, "CompatibleText": compat,
               "AbstractList": list(abstracts), "MsgList": entries}
    content.update(extra)
    return el("TIMRelayElem", content)


def chain(layers):
    """`layers` relays, each forwarding one message that holds the next; the innermost forwards a text."""
    body = [text("deepest")]
    for _ in range(layers):
        body = [relay([entry(body, frm="a", to="b", seq=1, rnd=1, ts=1)], title="t", abstracts=[], compat="c")]
    return body


def chain_msglist_path(k):
    return "MsgBody[0].MsgContent" + ".MsgList[0].MsgBody[0].MsgContent" * (k - 1) + ".MsgList"


def text_of_bytes(total, prefix="", suffix="", fill="a"):
    """A bare MsgBody with one text elem whose compact canonical JSON is `total` bytes."""
    empty = len(dump([text(prefix + suffix)]).encode("utf-8"))
    n = total - empty
    unit = len(fill.encode("utf-8"))
    t = prefix + fill * (n // unit) + "a" * (n % unit) + suffix
    body = [text(t)]
    assert len(dump(body).encode("utf-8")) == total
    return body


# ---------------------------------------------------------------------------
# elems.json
# ---------------------------------------------------------------------------


def element_doc_samples():
    """The documented sample of every element, and bodies of several elements."""
    yield Import("rest.elem.text.doc-sample", f"The text element sample of {MF}.", rest=[TEXT_HELLO], flags=["DocSample"])
    yield Import("rest.elem.location.doc-sample", f"The location sample of {MF}: 17 significant digits survive as the "
                 "same doubles and are written back in the same shortest form.", rest=[LOCATION_DOC], flags=["DocSample"])
    yield Import("rest.elem.face.doc-sample", f"The emoji sample of {MF}.", rest=[FACE_DOC], flags=["DocSample"])
    yield Import("rest.elem.custom.doc-sample", f"The custom element sample of {MF}.", rest=[CUSTOM_DOC],
                 flags=["DocSample"])
    yield Import("rest.elem.sound.doc-sample", f"The 4.X sound sample of {MF} (Url, UUID, Size, Second, Download_Flag). "
                 "Export writes the keys in the sample's own order.", rest=[SOUND_DOC], flags=["DocSample", "KeyOrderDecision"])
    yield Import("rest.elem.sound.doc-sample-legacy", f"The 2.X/3.X sound sample of {MF} (comments removed): UUID, Size "
                 "and Second only; export keeps the legacy form.", rest=[SOUND_LEGACY_DOC], flags=["DocSample", "Legacy"])
    yield Import("rest.elem.image.doc-sample", f"The image sample of {MF} (comments removed): original, large and "
                 "thumbnail levels, Width and Height 0 for the scaled ones.", rest=[IMAGE_DOC], flags=["DocSample"])
    yield Import("rest.elem.file.doc-sample", f"The 4.X file sample of {MF}.", rest=[FILE_DOC],
                 flags=["DocSample", "KeyOrderDecision"])
    yield Import("rest.elem.file.doc-sample-legacy", f"The 2.X/3.X file sample of {MF} (comments removed).",
                 rest=[FILE_LEGACY_DOC], flags=["DocSample", "Legacy"])
    yield Import("rest.elem.video.doc-sample", f"The 4.X video sample of {MF}: all four current-form keys.",
                 rest=[VIDEO_DOC], flags=["DocSample"])
    yield Import("rest.elem.video.doc-sample-legacy", f"The 2.X/3.X video sample of {MF} (comments removed).",
                 rest=[VIDEO_LEGACY_DOC], flags=["DocSample", "Legacy"])
    yield Import("rest.elem.body.text-face-text", f"The combined sample of {MF} (text + emoji + text) as a bare MsgBody: "
                 "elem order is kept.", rest=TEXT_FACE_TEXT_DOC, flags=["DocSample"])
    yield Import("rest.elem.body.every-kind", "One element of each of the nine MsgTypes in one body.",
                 rest=[TEXT_HELLO, LOCATION_DOC, FACE_DOC, CUSTOM_DOC, SOUND_LEGACY_DOC, IMAGE_DOC, FILE_LEGACY_DOC,
                       VIDEO_DOC, relay([entry([text("hi")])])])


def element_values():
    """Strings, numbers and integer bounds in every element, and both forms of sound, file and video."""
    yield Import("rest.elem.text.cjk-emoji-zwj", "Chinese text, an emoji and ZWJ sequences (family, rainbow flag): "
                 "ordinary string content, written back as UTF-8.",
                 rest=[text("你好，世界 👋 👨‍👩‍👧‍👦 🏳️‍🌈 👩🏽‍💻")], flags=["MultiByte"])
    yield Import("rest.elem.text.nul-and-separators", "U+0000, U+0001, U+2028 and U+2029 inside a string: NUL is written "
                 "\\u0000, the separators as UTF-8.", rest=[text("a\u0000b\u0001c\u2028d\u2029e")], flags=["NulInString"])
    yield Import("rest.elem.text.escapes", "Quote, backslash, slash, the five short escapes, other control characters and "
                 "DEL: the canonical text escapes exactly what Sources/IMCodecREST/IMCodecREST.docc/REST.md says.",
                 rest=[text("\"\\/\b\f\n\r\t\u001f\u007f")], flags=["NulInString"])
    yield Import("rest.elem.text.escaped-spelling", "\\u escapes for CJK, an escaped slash and a surrogate pair for an "
                 "emoji: the same string as its UTF-8 form; export writes UTF-8.",
                 text='[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\\u4f60\\u597d\\/\\ud83d\\ude00"}}]',
                 flags=["MultiByte"])
    yield Import("rest.elem.text.empty", "An empty Text is kept as the required key with an empty value.",
                 rest=[text("")])
    yield Import("rest.elem.text.whitespace", "JSON whitespace between tokens is not part of any value.",
                 text=' [ {\n\t"MsgType" : "TIMTextElem" ,\r\n "MsgContent" : { "Text" : " x " } } ] \n')
    yield Import("rest.elem.location.number-spellings", "Latitude and longitude of the documented sample, spelled with "
                 "trailing zeros and an exponent: read as the nearest doubles, written in the shortest form.",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"someinfo","Latitude":29.3406567744699560000,'
                 '"Longitude":1.1677497920478824E2}}]')
    yield Import("rest.elem.location.past-largest-double", "Longitude 1e400: past the largest double, it has no "
                 "nearest double to be read as.",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"x","Latitude":29.34,"Longitude":1e400}}]',
                 error=("rest.range", "MsgBody[0].MsgContent.Longitude"))
    yield Import("rest.elem.location.negative-zero", "-0 and 0: -0 keeps its sign (written \"-0\"), 0 is the default.",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"","Latitude":-0,"Longitude":0}}]')
    yield Import("rest.elem.location.negative-zero-spelled", "-0.0 is read as -0 and written \"-0\".",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"x","Latitude":-0.0,"Longitude":-0.0}}]')
    yield Import("rest.elem.location.shortest-forms", "1e-7 and 30: JavaScript's Number to string keeps the exponent "
                 "form below 1e-6 and writes integral doubles without a fraction.",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"x","Latitude":1e-7,"Longitude":30}}]')
    yield Import("rest.elem.location.shortest-forms-respelled", "0.000001, 1.5E+1 and -180.0: written 0.000001, 15, "
                 "-180.", text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"x","Latitude":0.000001,'
                 '"Longitude":-180.0}},{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"y","Latitude":1.5E+1,'
                 '"Longitude":0.1}}]')
    yield Import("rest.elem.face.index-bounds", "Index at −2³¹ and 2³¹−1 (int32).",
                 rest=[el("TIMFaceElem", {"Index": -2147483648}), el("TIMFaceElem", {"Index": 2147483647})])
    yield Import("rest.elem.face.data-nul", "The emoji of the send_group_msg sample "
                 "(https://intl.cloud.tencent.com/document/product/1047/34959): Data \"abc\\u0000\\u0001\" becomes those "
                 "five bytes.", rest=[el("TIMFaceElem", {"Index": 6, "Data": "abc\u0000\u0001"})],
                 flags=["DocSample", "NulInString"])
    yield Import("rest.elem.face.empty-data", "Data \"\" is the default: export leaves the optional key out.",
                 rest=[el("TIMFaceElem", {"Data": "", "Index": 15})])
    yield Import("rest.elem.custom.data-only", "A custom element with Data only, a JSON string as TUIKit sends it; "
                 "empty optional keys are left out.",
                 rest=[el("TIMCustomElem", {"Data": "{\"businessID\":\"text_link\",\"text\":\"欢迎\",\"link\":"
                                                   "\"https://cloud.tencent.com\"}"})], flags=["MultiByte"])
    yield Import("rest.elem.custom.empty-optional-keys", "Desc, Ext and Sound \"\" are defaults and left out by export.",
                 rest=[el("TIMCustomElem", {"Data": "", "Desc": "", "Ext": "", "Sound": ""})])
    yield Import("rest.elem.sound.uint32-max", "Size and Second at 2³²−1.",
                 rest=[el("TIMSoundElem", {"UUID": "u", "Size": 4294967295, "Second": 4294967295})], flags=["Legacy"])
    yield Import("rest.elem.sound.current-empty-url", "The current form with Url \"\" and Download_Flag 2: the flag is "
                 "set, so export keeps the current form.",
                 rest=[el("TIMSoundElem", {"Url": "", "Download_Flag": 2, "UUID": "u", "Size": 1, "Second": 1})],
                 flags=["KeyOrderDecision"])
    yield Import("rest.elem.sound.current-all-defaults", "Url \"\" and Download_Flag 0: nothing of the current form is "
                 "set, so export writes the legacy form.",
                 rest=[el("TIMSoundElem", {"Url": "", "UUID": "u", "Size": 1, "Second": 1, "Download_Flag": 0})])
    yield Import("rest.elem.image.levels-in-any-order", "Levels are kept in document order (thumbnail, original, "
                 "large); ImageFormat 255 (other).",
                 rest=[el("TIMImageElem", {"UUID": "img", "ImageFormat": 255, "ImageInfoArray": [
                     {"Type": 3, "Size": 1, "Width": 198, "Height": 198, "URL": "https://x/198"},
                     {"Type": 1, "Size": 3, "Width": 1000, "Height": 1000, "URL": "https://x/0"},
                     {"Type": 2, "Size": 2, "Width": 720, "Height": 720, "URL": "https://x/720"}]})])
    yield Import("rest.elem.image.undocumented-format", "ImageFormat 7 is in range (0 … 2³¹−1): import keeps the number "
                 "(validation judges it, not import); no levels.",
                 rest=[el("TIMImageElem", {"UUID": "img", "ImageFormat": 7, "ImageInfoArray": []})])
    yield Import("rest.elem.image.format-max", "ImageFormat 2³¹−1 and a level with all-zero numbers.",
                 rest=[el("TIMImageElem", {"UUID": "", "ImageFormat": 2147483647, "ImageInfoArray": [
                     {"Type": 2, "Size": 0, "Width": 0, "Height": 0, "URL": ""}]})])
    yield Import("rest.elem.file.uint32-max", "FileSize 2³²−1, legacy form.",
                 rest=[el("TIMFileElem", {"UUID": "f", "FileSize": 4294967295, "FileName": "报告.pdf"})],
                 flags=["Legacy", "MultiByte"])
    yield Import("rest.elem.video.one-current-field", "A video whose only current-form value is ThumbDownloadFlag 2 "
                 "(the others \"\" and 0): export writes all four current-form keys.",
                 rest=[el("TIMVideoFileElem", {k: v for k, v in VIDEO_LEGACY_DOC["MsgContent"].items()} |
                          {"VideoUrl": "", "VideoDownloadFlag": 0, "ThumbUrl": "", "ThumbDownloadFlag": 2})])

    yield Import("rest.elem.body.apns-text-custom-doc", f"The APNs display sample of {MF} (push text \"helloworld\"): a "
                 "text and a custom element in a message object holding only MsgBody.",
                 rest={"MsgBody": [text("hello"), el("TIMCustomElem", {"Data": "message", "Desc": "world",
                                                                        "Ext": "https://www.example.com",
                                                                        "Sound": "dingdong.aiff"})]}, flags=["DocSample"])
    yield Import("rest.elem.body.single-text-doc", f"The \"Single text element message\" sample of {MF}.",
                 rest={"MsgBody": [TEXT_HELLO]}, flags=["DocSample"])
    yield Import("rest.elem.body.ten-texts", "Ten text elements: order and count kept.",
                 rest=[text(str(i)) for i in range(10)])
    yield Import("rest.elem.text.supplementary-and-combining", "A CJK Extension B character (4 UTF-8 bytes), a "
                 "decomposed é (e + U+0301), Arabic and Hebrew: code points are kept, not normalized.",
                 rest=[text("𠀀 e\u0301 مرحبا שלום")], flags=["MultiByte"])
    yield Import("rest.elem.text.printable-ascii", "Every printable ASCII character; only quote and backslash are "
                 "escaped.", rest=[text("".join(chr(c) for c in range(0x20, 0x7F)))])
    yield Import("rest.elem.text.long-chinese", "A 2,000-character Chinese text.", rest=[text("消息" * 1000)],
                 flags=["MultiByte"])
    yield Import("rest.elem.location.bounds", "Latitude ±90 and longitude ±180 written as integers.",
                 rest=[el("TIMLocationElem", {"Desc": "north", "Latitude": 90, "Longitude": -180}),
                       el("TIMLocationElem", {"Desc": "south", "Latitude": -90, "Longitude": 180})])
    yield Import("rest.elem.location.extremes", "The largest double and the smallest subnormal: 1.7976931348623157e+308 "
                 "and 5e-324 (import does not judge the range; validation does).",
                 text='[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"x","Latitude":5e-324,'
                 '"Longitude":1.7976931348623157e+308}}]')
    yield Import("rest.elem.location.chinese-desc", "A Chinese description, as in 中国 map apps.",
                 rest=[el("TIMLocationElem", {"Desc": "深圳市南山区腾讯滨海大厦", "Latitude": 22.522807,
                                              "Longitude": 113.935338})], flags=["MultiByte"])
    yield Import("rest.elem.face.index-zero", "Index 0 without Data: the required Index is written, 0 or not.",
                 rest=[el("TIMFaceElem", {"Index": 0})])
    yield Import("rest.elem.face.emoji-data", "Face Data holding an emoji and text.",
                 rest=[el("TIMFaceElem", {"Index": 12, "Data": "[微笑]😊"})], flags=["MultiByte"])
    yield Import("rest.elem.custom.every-key-multibyte", "Every custom key in Chinese, Data with U+2028 and an escaped "
                 "JSON document.", rest=[el("TIMCustomElem", {"Data": "{\"msg\":\"红包\u2028\",\"n\":1}", "Desc": "[红包]",
                                                                "Ext": "{\"entity\":{\"key\":\"值\"}}", "Sound": "提示音.caf"})],
                 flags=["MultiByte"])
    yield Import("rest.elem.sound.current-flag-zero", "The current form with Download_Flag 0: Url is set, so the "
                 "current form is kept.", rest=[el("TIMSoundElem", {"Url": "https://s/1.m4a", "Download_Flag": 0, "UUID": "u",
                                                                    "Size": 6000, "Second": 3})], flags=["KeyOrderDecision"])
    yield Import("rest.elem.sound.legacy-zeros", "A legacy sound of empty UUID, size and length.",
                 rest=[el("TIMSoundElem", {"UUID": "", "Size": 0, "Second": 0})], flags=["Legacy"])
    yield Import("rest.elem.image.original-only", "Only the original level (an image smaller than 198 px sends one).",
                 rest=[el("TIMImageElem", {"UUID": "small", "ImageFormat": 3, "ImageInfoArray": [
                     {"Type": 1, "Size": 2048, "Width": 120, "Height": 80, "URL": "https://x/small.png"}]})])
    yield Import("rest.elem.image.every-format", "GIF, PNG and BMP images (2, 3, 4), one level each.",
                 rest=[el("TIMImageElem", {"UUID": f"i{f}", "ImageFormat": f, "ImageInfoArray": [
                     {"Type": lv, "Size": 10, "Width": 720, "Height": 1280, "URL": f"https://x/{f}"}]})
                     for f, lv in ((2, 2), (3, 3), (4, 1))])
    yield Import("rest.elem.file.current-canonical", "A current-form file in canonical key order.",
                 rest=[el("TIMFileElem", {"Url": "https://f/doc.pdf", "Download_Flag": 2, "UUID": "f1", "FileSize": 52428800,
                                          "FileName": "季度报告.pdf"})], flags=["KeyOrderDecision", "MultiByte"])
    yield Import("rest.elem.video.current-canonical", "A current-form video in canonical key order (the legacy keys, "
                 "then VideoUrl, VideoDownloadFlag, ThumbUrl, ThumbDownloadFlag).",
                 rest=[el("TIMVideoFileElem", dict(VIDEO_LEGACY_DOC["MsgContent"], VideoUrl="https://v/1.mp4",
                                                   VideoDownloadFlag=2, ThumbUrl="https://v/1.jpg", ThumbDownloadFlag=2))],
                 flags=["KeyOrderDecision"])
    yield Import("rest.elem.video.legacy-zeros", "A legacy video of empty strings and zeros (web senders send "
                 "VideoSecond 0).", rest=[el("TIMVideoFileElem", {"VideoUUID": "", "VideoSize": 0, "VideoSecond": 0,
                                                                  "VideoFormat": "", "ThumbUUID": "", "ThumbSize": 0,
                                                                  "ThumbWidth": 0, "ThumbHeight": 0, "ThumbFormat": ""})],
                 flags=["Legacy"])


def element_errors():
    """Element-level errors: missing keys, values of the wrong type or out of range."""
    E = "MsgBody[0].MsgContent"
    yield Import("rest.elem.text.missing-text", "A text element without Text.", rest=[el("TIMTextElem", {})],
                 error=("rest.missing-key", f"{E}.Text"))
    yield Import("rest.elem.text.content-before-type", "MsgContent before MsgType (the order of the history samples): "
                 "MsgType is looked up first, so Text is checked in document order.",
                 rest=[{"MsgContent": {"Text": 5}, "MsgType": "TIMTextElem"}], error=("rest.type", f"{E}.Text"))
    yield Import("rest.elem.location.string-latitude", "Latitude given as a string.",
                 rest=[el("TIMLocationElem", {"Desc": "x", "Latitude": "29.34", "Longitude": 116.7})],
                 error=("rest.type", f"{E}.Latitude"))
    yield Import("rest.elem.location.missing-desc", "Desc is required.",
                 rest=[el("TIMLocationElem", {"Latitude": 29.34, "Longitude": 116.7})], error=("rest.missing-key", f"{E}.Desc"))
    yield Import("rest.elem.face.index-string", "Index given as a string.",
                 rest=[el("TIMFaceElem", {"Index": "1"})], error=("rest.type", f"{E}.Index"))
    yield Import("rest.elem.face.index-above-int32", "Index 2³¹: above int32.",
                 rest=[el("TIMFaceElem", {"Index": 2147483648})], error=("rest.range", f"{E}.Index"))
    yield Import("rest.elem.face.index-below-int32", "Index −2³¹−1: below int32.",
                 rest=[el("TIMFaceElem", {"Index": -2147483649})], error=("rest.range", f"{E}.Index"))
    yield Import("rest.elem.custom.missing-data", "A custom element without Data.",
                 rest=[el("TIMCustomElem", {"Desc": "d"})], error=("rest.missing-key", f"{E}.Data"))
    yield Import("rest.elem.sound.url-without-flag", "Url without Download_Flag: half of the current form's pair.",
                 rest=[el("TIMSoundElem", {"Url": "https://x", "UUID": "u", "Size": 1, "Second": 1})],
                 error=("rest.missing-key", f"{E}.Download_Flag"))
    yield Import("rest.elem.sound.flag-without-url", "Download_Flag without Url.",
                 rest=[el("TIMSoundElem", {"UUID": "u", "Size": 1, "Second": 1, "Download_Flag": 2})],
                 error=("rest.missing-key", f"{E}.Url"))
    yield Import("rest.elem.sound.missing-second", "A legacy sound without Second.",
                 rest=[el("TIMSoundElem", {"UUID": "u", "Size": 1})], error=("rest.missing-key", f"{E}.Second"))
    yield Import("rest.elem.sound.url-key-case", "\"URL\" in a sound element, whose key is \"Url\": rest.key-case, and "
                 "Url is not also missing.",
                 rest=[el("TIMSoundElem", {"URL": "https://x", "UUID": "u", "Size": 1, "Second": 1, "Download_Flag": 2})],
                 error=("rest.key-case", f"{E}.URL"))
    yield Import("rest.elem.image.type-4", "An image level of Type 4.",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [
                     {"Type": 4, "Size": 1, "Width": 1, "Height": 1, "URL": "u"}]})],
                 error=("rest.range", f"{E}.ImageInfoArray[0].Type"))
    yield Import("rest.elem.image.type-0", "An image level of Type 0 (the SDKs' numbering, not REST's).",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [
                     {"Type": 1, "Size": 1, "Width": 1, "Height": 1, "URL": "u"},
                     {"Type": 0, "Size": 1, "Width": 1, "Height": 1, "URL": "u"}]})],
                 error=("rest.range", f"{E}.ImageInfoArray[1].Type"))
    yield Import("rest.elem.image.level-url-key-case", "\"Url\" in an image level, whose key is \"URL\".",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [
                     {"Type": 1, "Size": 1, "Width": 1, "Height": 1, "Url": "u"}]})],
                 error=("rest.key-case", f"{E}.ImageInfoArray[0].Url"))
    yield Import("rest.elem.image.level-missing-url", "An image level without URL.",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [
                     {"Type": 1, "Size": 1, "Width": 1, "Height": 1}]})],
                 error=("rest.missing-key", f"{E}.ImageInfoArray[0].URL"))
    yield Import("rest.elem.image.format-above-int31", "ImageFormat 2³¹: outside 0 … 2³¹−1.",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 2147483648, "ImageInfoArray": []})],
                 error=("rest.range", f"{E}.ImageFormat"))
    yield Import("rest.elem.image.level-not-object", "An ImageInfoArray entry that is a number.",
                 rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [1]})],
                 error=("rest.type", f"{E}.ImageInfoArray[0]"))
    yield Import("rest.elem.file.doc-table-file-name", f"The English field table of {MF} spells the file name "
                 "\"fileName\" (its JSON sample says \"FileName\"): rest.key-case.",
                 rest=[el("TIMFileElem", {"UUID": "f", "FileSize": 1, "fileName": "a.txt"})],
                 error=("rest.key-case", f"{E}.fileName"))
    yield Import("rest.elem.video.half-quadruple", "VideoUrl and VideoDownloadFlag without ThumbUrl and "
                 "ThumbDownloadFlag: the first missing key of the quadruple.",
                 rest=[el("TIMVideoFileElem", dict(VIDEO_LEGACY_DOC["MsgContent"], VideoUrl="https://v", VideoDownloadFlag=2))],
                 error=("rest.missing-key", f"{E}.ThumbUrl"))
    yield Import("rest.elem.video.missing-thumb-download-flag", "Three of the four current-form keys.",
                 rest=[el("TIMVideoFileElem", {k: v for k, v in VIDEO_DOC["MsgContent"].items() if k != "ThumbDownloadFlag"})],
                 error=("rest.missing-key", f"{E}.ThumbDownloadFlag"))
    yield Import("rest.elem.video.legacy-missing-thumb-format", "A legacy video without ThumbFormat.",
                 rest=[el("TIMVideoFileElem", {k: v for k, v in VIDEO_LEGACY_DOC["MsgContent"].items() if k != "ThumbFormat"})],
                 error=("rest.missing-key", f"{E}.ThumbFormat"))


def write_elems():
    vf = new_file("elems", "REST elements", "Every MsgType of Sources/IMCodecREST/IMCodecREST.docc/REST.md (\"Elements\"): the documented samples of "
                  "each element, both forms of sound, file and video, image levels, strings, numbers and integer "
                  "bounds, and the element-level errors. Import (rest-import): kind message, bare MsgBody arrays "
                  "unless a case says otherwise.")
    for table in (element_doc_samples, element_values, element_errors):
        for row in table():
            imp(vf, *row)
    return vf.write()


# ---------------------------------------------------------------------------
# envelope.json
# ---------------------------------------------------------------------------

C2C_CALLBACK_DOC = {
    "CallbackCommand": "C2C.CallbackAfterSendMsg", "From_Account": "jared", "To_Account": "Jonh", "MsgSeq": 48374,
    "MsgRandom": 2837546, "MsgTime": 1557481126, "MsgKey": "48374_2837546_1557481126", "SendMsgResult": 0,
    "ErrorInfo": "send msg succeed", "UnreadMsgNum": 7, "MsgBody": [text("red packet")]}
GROUP_CALLBACK_DOC = {
    "CallbackCommand": "Group.CallbackAfterSendMsg", "GroupId": "@TGS#2J4SZEAEL", "Type": "Public",
    "From_Account": "jared", "Operator_Account": "admin", "Random": 123456, "MsgSeq": 123, "MsgTime": 1490686222,
    "OnlineOnlyFlag": 1, "MsgBody": [text("red packet")], "CloudCustomData": "your cloud custom data",
    "EventTime": "1670574414123"}
SENDMSG_DOC = {
    "SyncOtherMachine": 2, "To_Account": "lumotuwe2", "MsgLifeTime": 60, "MsgSeq": 93847636, "MsgRandom": 1287657,
    "MsgBody": [text("hi, beauty")], "CloudCustomData": "your cloud custom data", "SupportMessageExtension": 0}
OFFLINE_PUSH_DOC = {
    "PushFlag": 0, "Title": "This is the push title", "Desc": "This is the offline push content",
    "Ext": "Passthrough content",
    "AndroidInfo": {"Sound": "android.mp3", "OPPOChannelID": "test_OPPO_channel_id", "VIVOClassification": 1},
    "ApnsInfo": {"Sound": "apns.mp3", "BadgeMode": 1, "Title": "apns title", "SubTitle": "apns subtitle",
                 "Image": "www.image.com", "MutableContent": 1}}
GROUP_HISTORY_DOC = {
    "ActionStatus": "OK", "ErrorInfo": "", "ErrorCode": 0, "GroupId": "@TGS#15ERQPAER", "IsFinished": 1,
    "RspMsgList": [
        {"From_Account": "144115197276518801", "IsPlaceMsg": 0, "MsgBody": [
            {"MsgContent": {"Data": "\b\u0001\u0010\u0006\u001A\u0006猫瞳", "Desc": "MIF", "Ext": ""},
             "MsgType": "TIMCustomElem"},
            {"MsgContent": {"Data": "", "Index": 15}, "MsgType": "TIMFaceElem"}],
         "MsgPriority": 1, "MsgRandom": 51083293, "MsgSeq": 7803321, "MsgTimeStamp": 1458721802},
        {"From_Account": "144115198339527735", "IsPlaceMsg": 0, "MsgBody": [
            {"MsgContent": {"Data": "\b\u0001\u0010\u0006\u001A\u000F西瓜妹妹。", "Desc": "MIF", "Ext": ""},
             "MsgType": "TIMCustomElem"},
            {"MsgContent": {"Text": "Report"}, "MsgType": "TIMTextElem"}],
         "MsgPriority": 1, "MsgRandom": 235168582, "MsgSeq": 7803320, "MsgTimeStamp": 1458721797}]}
GROUP_HISTORY_PAGE = ("\"Pulling Historical Group Messages\" (v4/group_open_http_svc/group_msg_get_simple, "
                      "https://cloud.tencent.com/document/product/269/2738), its English response sample")
C2C_HISTORY_DOC = {
    "ActionStatus": "OK", "ErrorInfo": "", "ErrorCode": 0, "Complete": 1, "MsgCnt": 1, "LastMsgTime": 1584669680,
    "LastMsgKey": "549396494_2578554_1584669680", "MsgList": [
        {"From_Account": "user1", "To_Account": "user2", "MsgSeq": 549396494, "MsgRandom": 2578554,
         "MsgTimeStamp": 1584669680, "MsgFlagBits": 0, "IsPeerRead": 0, "MsgKey": "549396494_2578554_1584669680",
         "MsgBody": [text("1")], "CloudCustomData": "your cloud custom data"}]}
C2C_HISTORY_PAGE = ("\"Querying One-to-One Message History\" (v4/openim/admin_getroammsg, "
                    "https://cloud.tencent.com/document/product/269/42794), its English sample \"Response to a "
                    "successful request\"")


def envelope_samples_and_keys():
    """Message objects: the documented samples, every key, defaults and key order."""
    yield Import("rest.envelope.c2c-callback-doc", "The request of \"Callback After Sending One-to-One Message\" "
                 "(C2C.CallbackAfterSendMsg, Tencent Cloud IM webhooks; comments removed): CallbackCommand, MsgTime, MsgKey, "
                 "SendMsgResult, ErrorInfo and UnreadMsgNum are envelope keys and skipped.", rest=C2C_CALLBACK_DOC,
                 flags=["DocSample", "Envelope"])
    yield Import("rest.envelope.sendmsg-doc", "The request of \"Sending One-to-One Messages to One User\" "
                 "(v4/openim/sendmsg, https://intl.cloud.tencent.com/document/product/1047/34919): SyncOtherMachine, "
                 "MsgLifeTime and SupportMessageExtension are skipped.", rest=SENDMSG_DOC, flags=["DocSample", "Envelope"])
    yield Import("rest.envelope.custom-push-doc", f"The \"Customizing push sounds\" request of {MF}: To_Account, "
                 "MsgRandom and a custom + text body.",
                 rest={"To_Account": "lumotuwe5", "MsgRandom": 121212, "MsgBody": [
                     el("TIMCustomElem", {"Data": "other information", "Desc": "hello", "Ext": "www.qq.com",
                                          "Sound": "dingdong.aiff"}), text("world")]}, flags=["DocSample"])
    yield Import("rest.envelope.cloud-custom-data-doc", f"The CloudCustomData sample of {MF}.",
                 rest={"MsgBody": [text("hello")], "CloudCustomData": "your cloud custom data"}, flags=["DocSample"])
    yield Import("rest.envelope.body-only-object-doc", f"The text + emoji + text sample of {MF} as printed, a message "
                 "object holding only MsgBody: no envelope field is set, so export writes a bare MsgBody array.",
                 rest={"MsgBody": TEXT_FACE_TEXT_DOC}, flags=["DocSample"])
    yield Import("rest.envelope.offline-push-doc", f"The OfflinePushInfo sample of {MF} (its MsgBody placeholder filled "
                 "with one text): PushFlag 0 is the default and left out; ApnsInfo.Sound is the iOS sound.",
                 rest={"MsgBody": [TEXT_HELLO], "OfflinePushInfo": OFFLINE_PUSH_DOC}, flags=["DocSample"])
    yield Import("rest.envelope.offline-push-every-key", "Every key of OfflinePushInfo, AndroidInfo and ApnsInfo, "
                 "non-default, in table order.",
                 rest={"From_Account": "a", "To_Account": "b", "MsgBody": [TEXT_HELLO], "OfflinePushInfo": {
                     "PushFlag": 1, "Title": "t", "Desc": "d", "Ext": "{\"k\":1}",
                     "AndroidInfo": {"Sound": "s.mp3", "HuaWeiChannelID": "hw", "XiaoMiChannelID": "mi", "OPPOChannelID": "op",
                                     "GoogleChannelID": "g", "VIVOClassification": 1, "HuaWeiImportance": "NORMAL",
                                     "ExtAsHuaweiIntentParam": 1, "HuaWeiCategory": "IM"},
                     "ApnsInfo": {"Sound": "a.caf", "BadgeMode": 1, "Title": "at", "SubTitle": "ast", "Image": "https://i",
                                  "MutableContent": 1}}})
    yield Import("rest.envelope.offline-push-all-defaults", "An OfflinePushInfo whose keys all hold defaults (an empty "
                 "AndroidInfo, BadgeMode 0) is read as absent.",
                 rest={"To_Account": "b", "MsgBody": [TEXT_HELLO],
                       "OfflinePushInfo": {"PushFlag": 0, "Title": "", "AndroidInfo": {}, "ApnsInfo": {"BadgeMode": 0}}})
    yield Import("rest.envelope.apns-sound-only", "ApnsInfo with only Sound: the iOS sound; written back under ApnsInfo.",
                 rest={"To_Account": "b", "MsgBody": [TEXT_HELLO], "OfflinePushInfo": {"ApnsInfo": {"Sound": "a.caf"}}})
    yield Import("rest.envelope.every-key", "Every key of the message table, in table order.",
                 rest={"From_Account": "user_a", "To_Account": "user_b", "GroupId": "@TGS#1", "MsgSeq": 7, "MsgRandom": 8,
                       "MsgTimeStamp": 1700000000, "MsgBody": [TEXT_HELLO], "CloudCustomData": "c",
                       "OfflinePushInfo": {"Desc": "d"}})
    yield Import("rest.envelope.uint32-max", "MsgSeq, MsgRandom and MsgTimeStamp at 2³²−1.",
                 rest={"To_Account": "b", "MsgSeq": 4294967295, "MsgRandom": 4294967295, "MsgTimeStamp": 4294967295,
                       "MsgBody": [TEXT_HELLO]})
    yield Import("rest.envelope.empty-body", "An empty MsgBody array: a message without elems, the empty payload.",
                 rest=[])
    yield Import("rest.envelope.object-empty-body", "A message object with an empty MsgBody.",
                 rest={"To_Account": "b", "MsgBody": []})
    yield Import("rest.envelope.default-values", "From_Account \"\" and MsgSeq 0 are defaults: nothing of the envelope "
                 "is set, so export writes a bare MsgBody.", rest={"From_Account": "", "MsgSeq": 0, "MsgBody": [TEXT_HELLO]})
    yield Import("rest.envelope.key-order", "Keys in another order than the table; export writes table order.",
                 rest={"MsgBody": [TEXT_HELLO], "MsgRandom": 2, "To_Account": "b", "From_Account": "a"})


def message_lists():
    """Message lists: the history samples, the group ID, canonical order, the empty list."""
    yield Import("rest.batch.group-history-doc", f"The response of {GROUP_HISTORY_PAGE}: RspMsgList with a top-level "
                 "GroupId given to both messages; IsPlaceMsg, MsgPriority, ActionStatus, ErrorInfo, ErrorCode and IsFinished "
                 "are skipped; custom Data holds control characters.", kind="batch", rest=GROUP_HISTORY_DOC,
                 flags=["DocSample", "Envelope", "NulInString", "MultiByte"])
    yield Import("rest.batch.c2c-history-doc", f"The response of {C2C_HISTORY_PAGE}: MsgList; Complete, MsgCnt, "
                 "LastMsgTime, LastMsgKey, MsgFlagBits, IsPeerRead and MsgKey are skipped.", kind="batch",
                 rest=C2C_HISTORY_DOC, flags=["DocSample", "Envelope"])
    yield Import("rest.batch.own-group-id-wins", "A top-level GroupId goes to every message that has none of its own.",
                 kind="batch", rest={"GroupId": "@TGS#A", "MsgList": [
                     entry([text("1")], to=None, GroupId="@TGS#B", seq=1), entry([text("2")], to=None, seq=2)]})
    yield Import("rest.batch.canonical", "A message list as export writes it.", kind="batch",
                 rest={"MsgList": [entry([text("1")], seq=1, rnd=11), entry([text("2")], frm="user_b", to="user_a", seq=2,
                                                                                 rnd=12, CloudCustomData="c")]})
    yield Import("rest.batch.empty", "An empty message list: the empty batch.", kind="batch", rest={"MsgList": []})


def envelope_keys_and_values():
    """Every envelope key, group messages, IDs and push flags, and where the content sits."""
    string_keys = {"CallbackCommand", "MsgKey", "ErrorInfo", "ErrorDisplay", "ActionStatus", "LastMsgKey",
                   "Operator_Account", "TopicId"}
    yield Import("rest.envelope.every-envelope-key", "All 28 envelope keys of Sources/IMCodecREST/IMCodecREST.docc/REST.md (strings where the "
                 "documentation has strings, integers elsewhere) are skipped.",
                 rest=dict({k: (f"v{i}" if k in string_keys else i) for i, k in enumerate(ENVELOPE_KEYS)}, To_Account="b",
                           MsgBody=[TEXT_HELLO]), flags=["Envelope"])
    yield Import("rest.envelope.group-message", "A group message as send_group_msg takes it once Random is spelled "
                 "MsgRandom.", rest={"From_Account": "leckie", "GroupId": "@TGS#2C5SZEAEF", "MsgRandom": 8912345,
                                     "MsgBody": [text("red packet"), el("TIMFaceElem", {"Index": 6, "Data": "abc\u0000\u0001"})],
                                     "CloudCustomData": "your cloud custom data"}, flags=["NulInString"])
    yield Import("rest.envelope.chinese-ids", "User IDs, group ID and cloud custom data in Chinese and emoji.",
                 rest={"From_Account": "张三", "To_Account": "李四🙂", "MsgBody": [text("在吗？")],
                       "CloudCustomData": "{\"来源\":\"小程序\"}"}, flags=["MultiByte"])
    yield Import("rest.envelope.push-flag-only", "OfflinePushInfo with only PushFlag 1 (no offline push).",
                 rest={"To_Account": "b", "MsgBody": [TEXT_HELLO], "OfflinePushInfo": {"PushFlag": 1}})
    yield Import("rest.envelope.android-one-key", "An AndroidInfo with one key; empty keys beside it are left out.",
                 rest={"To_Account": "b", "MsgBody": [TEXT_HELLO], "OfflinePushInfo": {
                     "Desc": "新消息", "AndroidInfo": {"Sound": "", "HuaWeiCategory": "IM", "VIVOClassification": 0}}},
                 flags=["MultiByte"])
    yield Import("rest.envelope.sender-only", "A message object naming only its sender: import does not require a "
                 "target (validation does).", rest={"From_Account": "admin", "MsgBody": [TEXT_HELLO]})
    yield Import("rest.envelope.callback-content-first", "A callback whose elements put MsgContent before MsgType, and "
                 "envelope keys between the message keys.",
                 rest={"MsgBody": [{"MsgContent": {"Text": "hi"}, "MsgType": "TIMTextElem"}], "EventTime": 1670574414123,
                       "From_Account": "jared", "OnlineOnlyFlag": 0, "To_Account": "Jonh", "MsgSeq": 1},
                 flags=["Envelope"])


def message_list_group_ids():
    """Message lists without a group, and the group ID of each entry."""
    yield Import("rest.batch.rsp-without-group", "An RspMsgList without a top-level GroupId: messages keep their own "
                 "targets.", kind="batch", rest={"ActionStatus": "OK", "ErrorCode": 0, "ErrorDisplay": "", "RspMsgList": [
                     entry([text("1")], seq=10, rnd=100), entry([text("2")], frm="user_b", to="user_a", seq=11, rnd=101)]},
                 flags=["Envelope"])
    yield Import("rest.batch.group-id-canonical", "A group message list as export writes it: each entry has its GroupId.",
                 kind="batch", rest={"MsgList": [entry([text("1")], to=None, GroupId="@TGS#1", seq=1, rnd=5),
                                                 entry([IMAGE_DOC], to=None, GroupId="@TGS#1", seq=2, rnd=6)]})
    yield Import("rest.batch.entries-take-list-group-id", "History entries with CloudCustomData and a top-level GroupId "
                 "that every entry lacks.", kind="batch",
                 rest={"GroupId": "@TGS#G", "RspMsgList": [entry([text("a")], to=None, CloudCustomData="x"),
                                                           entry([LOCATION_DOC], frm="user_c", to=None, seq=3)]})


def group_and_import_samples():
    """The group callback, send_group_msg and importmsg samples."""
    yield Import("rest.envelope.group-callback-doc", "The request of \"Callback After Sending a Group Message\" "
                 "(Group.CallbackAfterSendMsg, https://intl.cloud.tencent.com/document/product/1047/34375; comments removed). "
                 "\"Type\" (the group type) is an envelope key and skipped; \"Random\" is the other spelling of MsgRandom.",
                 rest=GROUP_CALLBACK_DOC, flags=["DocSample", "Envelope"])
    yield Import("rest.envelope.send-group-msg-doc", "The request of \"Sending Ordinary Messages in a Group\" "
                 "(v4/group_open_http_svc/send_group_msg, https://intl.cloud.tencent.com/document/product/1047/34959): its "
                 "\"Random\" is the other spelling of MsgRandom; export writes MsgRandom.",
                 rest={"GroupId": "@TGS#2C5SZEAEF", "Random": 8912345,
                       "MsgBody": [text("red packet"), el("TIMFaceElem", {"Index": 6, "Data": "abc\u0000\u0001"})]},
                 flags=["DocSample"])
    yield Import("rest.envelope.random-and-msg-random", "Random and MsgRandom in one message: the second gives the "
                 "message random again.", rest={"GroupId": "g", "MsgRandom": 1, "Random": 2, "MsgBody": []},
                 error=("rest.duplicate-key", "Random"))
    yield Import("rest.envelope.send-group-msg-trailing-comma-doc", "The send_group_msg request sample of the game "
                 "chat solution page of the Tencent Cloud IM documentation (the same in its Chinese, English and Korean "
                 "copies; comments removed) ends its object with a comma after \"SupportMessageExtension\": 0: not JSON.",
                 text='{\n    "GroupId": "@TGS#2C5SZEAEF",\n    "Random": 8912345,\n    "MsgBody": [\n        {\n'
                 '            "MsgType": "TIMTextElem",\n            "MsgContent": {\n                "Text": "red packet"\n'
                 '            }\n        },\n        {\n            "MsgType": "TIMFaceElem",\n            "MsgContent": {\n'
                 '            "Index": 6,\n            "Data": "abc\\u0000\\u0001"\n            }\n        }\n    ],\n'
                 '    "CloudCustomData": "your cloud custom data",\n    "SupportMessageExtension": 0,\n}\n',
                 error=("json.syntax", ""), flags=["DocSample", "DocSampleRejected", "PathDecision"])
    yield Import("rest.envelope.importmsg-doc", "The request of \"Importing One-to-One Messages\" (v4/openim/importmsg), "
                 "\"Importing real-time messages\" (comments removed): SyncFromOldSystem is an envelope key and skipped.",
                 rest={"SyncFromOldSystem": 1, "From_Account": "lumotuwe1", "To_Account": "lumotuwe2", "MsgRandom": 1287657,
                       "MsgTimeStamp": 1556178721, "MsgBody": [text("hi, beauty")]},
                 flags=["DocSample", "Envelope"])


def shape_and_list_errors():
    """Documents of the wrong shape, and broken message lists."""
    yield Import("rest.shape.batch-asked-for-body", "kind batch, but the document is a MsgBody array.", kind="batch",
                 rest=[TEXT_HELLO], error=("rest.type", ""))
    yield Import("rest.shape.message-asked-for-list", "kind message, but the document is a message list.",
                 rest={"MsgList": [entry([TEXT_HELLO])]}, error=("rest.type", ""))
    yield Import("rest.shape.batch-asked-for-object", "kind batch, but the document is a message object (no MsgList).",
                 kind="batch", rest={"To_Account": "b"}, error=("rest.type", ""))
    yield Import("rest.shape.string-root", "A document that is a string.", rest="hello world", error=("rest.type", ""))
    yield Import("rest.shape.null-root", "A document that is null.", rest=None, error=("rest.type", ""))
    yield Import("rest.shape.object-without-body", "A message object without MsgBody.", rest={"To_Account": "b"},
                 error=("rest.missing-key", "MsgBody"))
    yield Import("rest.batch.entry-not-object", "A message list entry that is an array.", kind="batch",
                 rest={"MsgList": [[TEXT_HELLO]]}, error=("rest.type", "MsgList[0]"))
    yield Import("rest.batch.entry-missing-body", "A history entry without MsgBody.", kind="batch",
                 rest={"RspMsgList": [{"From_Account": "a", "MsgSeq": 1}]}, error=("rest.missing-key", "RspMsgList[0].MsgBody"))
    yield Import("rest.batch.over-limit", "1,001 messages: past maxBatchMessages, reported at the list.", kind="batch",
                 text=runner_text({"MsgList": [{"MsgBody": []}] * 1001}), error=("limit.batch-messages", "MsgList"),
                 flags=["LargeInput"])


def envelope_value_errors():
    """Envelope values of the wrong type or spelling."""
    yield Import("rest.envelope.push-flag-string", "PushFlag given as a string.",
                 rest={"MsgBody": [], "OfflinePushInfo": {"PushFlag": "0"}}, error=("rest.type", "OfflinePushInfo.PushFlag"))
    yield Import("rest.envelope.android-key-case", "\"XiaoMiChannelId\" for XiaoMiChannelID.",
                 rest={"MsgBody": [], "OfflinePushInfo": {"AndroidInfo": {"XiaoMiChannelId": "mi"}}},
                 error=("rest.key-case", "OfflinePushInfo.AndroidInfo.XiaoMiChannelId"))
    yield Import("rest.envelope.badge-mode-negative", "BadgeMode −1: negative for an unsigned key.",
                 rest={"MsgBody": [], "OfflinePushInfo": {"ApnsInfo": {"BadgeMode": -1}}},
                 error=("rest.range", "OfflinePushInfo.ApnsInfo.BadgeMode"))


def write_envelope():
    vf = new_file("envelope", "REST message objects and message lists", "The three document shapes of Sources/IMCodecREST/IMCodecREST.docc/REST.md "
                  "(\"Documents\"), the message table, envelope keys of callbacks, send requests and history answers, "
                  "OfflinePushInfo, message lists with a top-level GroupId, and shape errors.")
    for table in (envelope_samples_and_keys, message_lists, envelope_keys_and_values, message_list_group_ids, group_and_import_samples, shape_and_list_errors, envelope_value_errors):
        for row in table():
            imp(vf, *row)
    return vf.write()


# ---------------------------------------------------------------------------
# relay.json
# ---------------------------------------------------------------------------


def write_relay():
    vf = new_file("relay", "REST TIMRelayElem", "Combined (forwarded) messages: the documented sample, MsgList and "
                  "JsonMsgKey, nesting to 100 layers and one past, MsgNum, and the relay-specific errors.")
    imp(vf, "rest.relay.doc-sample", f"The TIMRelayElem sample of {MF} as printed (MsgContent before MsgType in the "
        "forwarded bodies; MsgRandom 3998651049 is above 2³¹).", rest=[relay_doc_sample()], flags=["DocSample"])
    doc = relay_doc_sample()["MsgContent"]
    canon = relay([dict(e, MsgBody=[text(e["MsgBody"][0]["MsgContent"]["Text"])]) for e in doc["MsgList"]],
                  title=doc["Title"], abstracts=doc["AbstractList"], compat=doc["CompatibleText"])
    imp(vf, "rest.relay.doc-sample-canonical", f"The TIMRelayElem sample of {MF} in canonical key order.",
        rest=[canon], flags=["DocSample"])
    imp(vf, "rest.relay.json-msg-key", "A relay over 12 KB carries JsonMsgKey instead of MsgList; MsgNum is then "
        "free.", rest=[el("TIMRelayElem", {"Title": "Chat history", "MsgNum": 25, "CompatibleText": "Upgrade",
                                            "AbstractList": ["a: 1", "b: 2"], "JsonMsgKey": "key_1400_abc"})])
    imp(vf, "rest.relay.nested-3", "Three relays nested (a forwarded message that forwards a forwarded message), "
        "with one-to-one entries and CloudCustomData.",
        rest=[relay([entry([relay([entry([relay([entry([text("innermost")], seq=3)])], seq=2,
                                          CloudCustomData="c2")])], seq=1)])])
    imp(vf, "rest.relay.nested-json-msg-key", "A forwarded message holding a relay with JsonMsgKey.",
        rest=[relay([entry([el("TIMRelayElem", {"Title": "t", "MsgNum": 400, "CompatibleText": "c",
                                                "AbstractList": [], "JsonMsgKey": "k"}), text("and a text")])])])
    imp(vf, "rest.relay.empty-list", "MsgNum 0 with an empty MsgList.", rest=[relay([])])
    imp(vf, "rest.relay.entry-every-key", "A forwarded group message with every key a MsgList entry writes.",
        rest=[relay([entry([TEXT_HELLO], to=None, GroupId="@TGS#1", CloudCustomData="ccd")])])
    imp(vf, "rest.relay.entry-defaults", "A forwarded message with From_Account \"\" and zeros: a MsgList entry "
        "always has those four keys.", rest=[relay([entry([TEXT_HELLO], frm="", to=None, seq=0, rnd=0, ts=0)])])
    imp(vf, "rest.relay.depth-100", f"{MAX_DEPTH} relays nested: the innermost forwarded message is at merger layer "
        f"{MAX_DEPTH}, the deepest allowed (maxDepth {MAX_DEPTH}).", text=dump(chain(MAX_DEPTH)), flags=["DeepNesting"])
    imp(vf, "rest.relay.three-hundred", "300 forwarded messages (the SDK's limit for one merger), MsgNum 300.",
        text=dump([relay([entry([text(f"m{i}")], seq=i, rnd=i) for i in range(300)])]), flags=["LargeInput"])
    imp(vf, "rest.relay.mixed-entries", "Forwarded one-to-one and group messages with image, location and custom "
        "bodies.", rest=[relay([entry([IMAGE_DOC, text("look")]), entry([LOCATION_DOC], to=None, GroupId="@TGS#2"),
                                entry([CUSTOM_DOC], frm="user_b", to="user_a")])])
    imp(vf, "rest.relay.json-msg-key-zero", "JsonMsgKey with MsgNum 0.",
        rest=[el("TIMRelayElem", {"Title": "t", "MsgNum": 0, "CompatibleText": "", "AbstractList": [""],
                                  "JsonMsgKey": "k"})])
    imp(vf, "rest.relay.chinese", "A relay titled and summarized in Chinese, as the Chinese SDK pages show them.",
        rest=[relay([entry([text("新版本 SDK 计划什么时候上线呢？")], frm="vinson", to="lynx"),
                     entry([text("计划下周一")], frm="lynx", to="vinson", seq=2)],
                    title="vinson 和 lynx 的聊天记录",
                    abstracts=["vinson:新版本 SDK 计划什么时候上线呢？", "lynx:计划下周一"],
                    compat="请升级最新版本查看合并消息")], flags=["MultiByte"])
    imp(vf, "rest.relay.side-by-side", "Two relays and a text in one body.",
        rest=[relay([entry([text("1")])]), text("between"), relay([entry([text("2")])], title="second")])
    imp(vf, "rest.relay.entry-empty-body", "A forwarded message with an empty MsgBody.",
        rest=[relay([entry([])])])
    imp(vf, "rest.relay.in-message-object", "The documented relay inside a message object with a receiver.",
        rest={"From_Account": "a", "To_Account": "b", "MsgBody": [relay_doc_sample()]}, flags=["DocSample"])
    imp(vf, "rest.relay.in-history", "A relay inside a history entry.", kind="batch",
        rest={"MsgList": [entry([relay([entry([text("fwd")])])])]})
    E = "MsgBody[0].MsgContent"
    imp(vf, "rest.relay.depth-101", "101 relays nested: the MsgList of the 101st would be at layer 101.",
        text=dump(chain(101)), error=("limit.depth", chain_msglist_path(101)), flags=["DeepNesting"])
    imp(vf, "rest.relay.msg-num-mismatch", "MsgNum 3 with two messages in MsgList.",
        rest=[relay([entry([text("1")]), entry([text("2")])], msg_num=3)], error=("rest.relay-msg-num", f"{E}.MsgNum"))
    imp(vf, "rest.relay.list-and-key", "MsgList and JsonMsgKey together.",
        rest=[relay([entry([text("1")])], JsonMsgKey="k")], error=("rest.relay-list-and-key", E))
    imp(vf, "rest.relay.json-msg-key-empty", "An empty JsonMsgKey names no stored list (the model's absent key, "
        "which would be written back as an empty MsgList); found by FuzzREST with MsgNum 1.",
        rest=[el("TIMRelayElem", {"Title": "t", "MsgNum": 1, "CompatibleText": "", "AbstractList": [""],
                                  "JsonMsgKey": ""})], error=("rest.range", f"{E}.JsonMsgKey"))
    imp(vf, "rest.relay.json-msg-key-empty-with-list", "An empty JsonMsgKey beside MsgList: the key's value, at its "
        "place in the document, comes before the relay's own checks.",
        rest=[relay([entry([text("1")])], JsonMsgKey="")], error=("rest.range", f"{E}.JsonMsgKey"),
        flags=["FirstProblem"])
    imp(vf, "rest.relay.neither-list-nor-key", "Neither MsgList nor JsonMsgKey: missing MsgList.",
        rest=[el("TIMRelayElem", {"Title": "t", "MsgNum": 0, "CompatibleText": "c", "AbstractList": []})],
        error=("rest.missing-key", f"{E}.MsgList"))
    imp(vf, "rest.relay.missing-title-before-list", "No Title and no MsgList: the table's required keys come first.",
        rest=[el("TIMRelayElem", {"MsgNum": 0, "CompatibleText": "c", "AbstractList": []})],
        error=("rest.missing-key", f"{E}.Title"), flags=["FirstProblem"])
    imp(vf, "rest.relay.entry-missing-seq", "A forwarded message without MsgSeq (required in MsgList entries).",
        rest=[relay([{"From_Account": "a", "MsgRandom": 1, "MsgTimeStamp": 1, "MsgBody": []}])],
        error=("rest.missing-key", f"{E}.MsgList[0].MsgSeq"))
    imp(vf, "rest.relay.entry-missing-everything", "A forwarded message {}: From_Account is the first required key "
        "of the table.", rest=[relay([{}])], error=("rest.missing-key", f"{E}.MsgList[0].From_Account"),
        flags=["FirstProblem"])
    imp(vf, "rest.relay.entry-not-object", "A MsgList entry that is a string.", rest=[relay(["hi"])],
        error=("rest.type", f"{E}.MsgList[0]"))
    imp(vf, "rest.relay.abstract-not-string", "An AbstractList entry that is a number.",
        rest=[relay([entry([text("1")])], abstracts=["a", 1])], error=("rest.type", f"{E}.AbstractList[1]"))
    imp(vf, "rest.relay.abstracts-over-limit", f"{MAX_REPEATED + 1:,} abstract lines: past maxRepeated, reported at "
        "the array.", text=dump([relay([], abstracts=[""] * (MAX_REPEATED + 1))]),
        error=("limit.repeated", f"{E}.AbstractList"),
        flags=["LargeInput"])
    imp(vf, "rest.relay.msg-num-fraction", "MsgNum 2.0: a fraction where an integer is expected.",
        text=dump([relay([entry([text("1")]), entry([text("2")])])]).replace('"MsgNum":2', '"MsgNum":2.0'),
        error=("rest.type", f"{E}.MsgNum"))
    imp(vf, "rest.relay.msg-list-object", "MsgList given as an object.",
        rest=[relay({})], error=("rest.type", f"{E}.MsgList"))
    deep = "MsgBody[0].MsgContent.MsgList[1].MsgBody[0].MsgContent.MsgList[0].MsgBody[0].MsgContent.Text"
    imp(vf, "rest.relay.nested-problem-path", "A null Text two relays down: the path names every layer.",
        rest=[relay([entry([text("1")]), entry([relay([entry([text(None)])])])])], error=("rest.type", deep))
    return vf.write()


# ---------------------------------------------------------------------------
# strictness.json
# ---------------------------------------------------------------------------


def write_strictness():
    vf = new_file("strictness", "REST strictness", "Every row of Sources/IMCodecREST/IMCodecREST.docc/REST.md's \"Strictness\" table: wrong types, "
                  "null, ranges of uint32 keys, missing, unknown, mis-cased and duplicate keys, unknown MsgTypes, "
                  "JSON syntax, the elems limit, and which problem comes first.")
    B = "MsgBody[0]"
    imp(vf, "rest.strict.key-case.msg-type", "\"msgType\": rest.key-case, and MsgType is not also reported missing.",
        rest=[{"msgType": "TIMTextElem", "MsgContent": {"Text": "hi"}}], error=("rest.key-case", f"{B}.msgType"))
    imp(vf, "rest.strict.key-case.text", "\"text\" in a text element, as some webhook handlers write it.",
        rest={"CallbackCommand": "C2C.CallbackAfterSendMsg", "From_Account": "alice", "To_Account": "bot_123",
              "MsgBody": [el("TIMTextElem", {"text": "Hello!"})], "MsgKey": "msg-001"},
        error=("rest.key-case", f"{B}.MsgContent.text"), flags=["Envelope"])
    imp(vf, "rest.strict.key-case.msg-body", "\"msgBody\" at the root: rest.key-case, not also a missing MsgBody.",
        rest={"To_Account": "b", "msgBody": [TEXT_HELLO]}, error=("rest.key-case", "msgBody"))
    imp(vf, "rest.strict.unknown-key.elem", "A third key beside MsgType and MsgContent.",
        rest=[{"MsgType": "TIMTextElem", "MsgContent": {"Text": "hi"}, "MsgPriority": 1}],
        error=("rest.unknown-key", f"{B}.MsgPriority"))
    imp(vf, "rest.strict.unknown-key.content", "A key the text form does not have.",
        rest=[el("TIMTextElem", {"Text": "hi", "Url": "https://x"})], error=("rest.unknown-key", f"{B}.MsgContent.Url"))
    imp(vf, "rest.strict.unknown-key.root", "An unknown key at the root of a message object.",
        rest={"MsgBody": [TEXT_HELLO], "NickName": "teacher"}, error=("rest.unknown-key", "NickName"))
    imp(vf, "rest.strict.type.number-for-string", "To_Account given as a number.",
        rest={"To_Account": 12345, "MsgBody": []}, error=("rest.type", "To_Account"))
    imp(vf, "rest.strict.type.string-for-number", "MsgSeq given as a string.",
        rest={"MsgSeq": "93847636", "MsgBody": []}, error=("rest.type", "MsgSeq"))
    imp(vf, "rest.strict.type.bool-for-number", "MsgRandom given as true.",
        rest={"MsgRandom": True, "MsgBody": []}, error=("rest.type", "MsgRandom"))
    imp(vf, "rest.strict.type.null-content", "\"MsgContent\": null.", rest=[{"MsgType": "TIMTextElem",
                                                                           "MsgContent": None}],
        error=("rest.type", f"{B}.MsgContent"))
    imp(vf, "rest.strict.type.null-string", "\"CloudCustomData\": null.",
        rest={"MsgBody": [], "CloudCustomData": None}, error=("rest.type", "CloudCustomData"))
    imp(vf, "rest.strict.type.body-object", "MsgBody given as an object.", rest={"MsgBody": TEXT_HELLO},
        error=("rest.type", "MsgBody"))
    imp(vf, "rest.strict.type.elem-string", "A MsgBody entry that is a string.", rest=["hello"],
        error=("rest.type", B))
    imp(vf, "rest.strict.type.msg-type-number", "MsgType given as a number.",
        rest=[{"MsgType": 1, "MsgContent": {"Text": "hi"}}], error=("rest.type", f"{B}.MsgType"))
    imp(vf, "rest.strict.type.unknown-type-content-not-object", "An unknown MsgType with MsgContent null: "
        "MsgContent is still checked to be an object, and comes first.",
        rest=[{"MsgContent": None, "MsgType": "TIMGroupTipElem"}], error=("rest.type", f"{B}.MsgContent"),
        flags=["FirstProblem"])
    imp(vf, "rest.strict.msg-type.sdk-only", "\"TIMGroupTipElem\", the web SDK's group tips type: not one of the "
        "nine REST MsgTypes.", rest=[{"MsgType": "TIMGroupTipElem", "MsgContent": {"Bogus": 1}}],
        error=("rest.msg-type", f"{B}.MsgType"))
    imp(vf, "rest.strict.msg-type.case", "\"timtextelem\": MsgType values are case-sensitive.",
        rest=[{"MsgType": "timtextelem", "MsgContent": {"Text": "hi"}}], error=("rest.msg-type", f"{B}.MsgType"))
    imp(vf, "rest.strict.missing.msg-type", "An element without MsgType.", rest=[{"MsgContent": {"Text": "hi"}}],
        error=("rest.missing-key", f"{B}.MsgType"))
    imp(vf, "rest.strict.missing.msg-content", "An element without MsgContent.", rest=[{"MsgType": "TIMTextElem"}],
        error=("rest.missing-key", f"{B}.MsgContent"))
    for cid, key, literal, code, comment in (
        ("seq-2-32", "MsgSeq", "4294967296", "rest.range", "MsgSeq 2³²: one past uint32."),
        ("random-negative", "MsgRandom", "-1", "rest.range", "MsgRandom −1: negative for an unsigned key."),
        ("timestamp-fraction", "MsgTimeStamp", "1.5", "rest.type", "MsgTimeStamp 1.5: a fraction."),
        ("seq-exponent", "MsgSeq", "1e3", "rest.type", "MsgSeq 1e3: an exponent where an integer is expected, "
         "though its value is integral."),
        ("seq-point-zero", "MsgSeq", "1.0", "rest.type", "MsgSeq 1.0: a fraction, though its value is integral."),
        ("timestamp-2-32", "MsgTimeStamp", "4294967296", "rest.range", "MsgTimeStamp 2³²."),
        ("random-huge", "MsgRandom", "18446744073709551616", "rest.range", "MsgRandom 2⁶⁴."),
    ):
        imp(vf, f"rest.strict.uint32.{cid}", comment,
            text='{"To_Account":"b","%s":%s,"MsgBody":[]}' % (key, literal), error=(code, key))
    imp(vf, "rest.strict.duplicate.text", "Text twice in one MsgContent: the second is the duplicate.",
        text='[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a","Text":"b"}}]',
        error=("rest.duplicate-key", f"{B}.MsgContent.Text"))
    imp(vf, "rest.strict.duplicate.to-account", "To_Account twice at the root.",
        text='{"To_Account":"a","MsgBody":[],"To_Account":"b"}', error=("rest.duplicate-key", "To_Account"))
    imp(vf, "rest.strict.duplicate.envelope-key", "An envelope key twice: skipped keys are still keys.",
        text='{"MsgKey":"1","MsgKey":"2","MsgBody":[]}', error=("rest.duplicate-key", "MsgKey"))
    for cid, t, comment in (
        ("trailing-garbage", '[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a"}}] x', "Text after the document."),
        ("unterminated", '[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a"}}', "The text ends inside the array."),
        ("lone-surrogate", '[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\\ud800"}}]',
         "A lone surrogate escape cannot be a Unicode scalar (Sources/IMCodecREST/IMCodecREST.docc/REST.md: json.syntax)."),
        ("nan", '[{"MsgType":"TIMLocationElem","MsgContent":{"Desc":"","Latitude":NaN,"Longitude":0}}]',
         "NaN is not a JSON number."),
        ("raw-control-character", '[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a\tb"}}]',
         "A raw tab inside a string must be escaped."),
    ):
        imp(vf, f"rest.strict.syntax.{cid}", comment, text=t, error=("json.syntax", ""), flags=["PathDecision"])
    imp(vf, "rest.strict.limit.elems", f"{MAX_ELEMS + 1:,} elements: past maxElems, reported at MsgBody.",
        text=dump([text("")] * (MAX_ELEMS + 1)), error=("limit.elems", "MsgBody"), flags=["LargeInput"])
    imp(vf, "rest.strict.limit.elems-at-limit", f"{MAX_ELEMS:,} elements: at maxElems.",
        text=dump([text("")] * MAX_ELEMS), flags=["LargeInput"])
    imp(vf, "rest.strict.first.member-order", "Three problems: the unknown key of the second element comes before "
        "the type error of the third.",
        rest=[TEXT_HELLO, el("TIMTextElem", {"Text": "a", "Foo": 1}), el("TIMTextElem", {"Text": 5})],
        error=("rest.unknown-key", "MsgBody[1].MsgContent.Foo"), flags=["FirstProblem"])
    imp(vf, "rest.strict.first.root-member-order", "MsgSeq −1 before To_Account 5: members in document order.",
        rest={"MsgSeq": -1, "To_Account": 5, "MsgBody": []}, error=("rest.range", "MsgSeq"), flags=["FirstProblem"])
    imp(vf, "rest.strict.first.members-before-missing", "An unknown key and a missing Text in one object: members "
        "are walked before missing keys are reported.", rest=[el("TIMTextElem", {"Foo": 1})],
        error=("rest.unknown-key", f"{B}.MsgContent.Foo"), flags=["FirstProblem"])
    imp(vf, "rest.strict.first.missing-table-order", "A location without any key: Desc is first in table order.",
        rest=[el("TIMLocationElem", {})], error=("rest.missing-key", f"{B}.MsgContent.Desc"), flags=["FirstProblem"])
    imp(vf, "rest.strict.first.body-before-later-member", "A problem inside MsgBody comes before a problem in a "
        "later member of the root.", rest={"MsgBody": [el("TIMTextElem", {})], "CloudCustomData": 1},
        error=("rest.missing-key", f"{B}.MsgContent.Text"), flags=["FirstProblem"])
    return vf.write()


# ---------------------------------------------------------------------------
# export.json
# ---------------------------------------------------------------------------


def exported_documents():
    """Values with a REST form: bare bodies, message objects, lists, elements, numbers and strings."""
    t = {"text": {"text": "hello"}}
    yield Export("rest.export.bare-body", "No envelope field: a bare MsgBody array.", "message", {"elems": [t]})
    yield Export("rest.export.empty-message", "The empty message: [].", "message", {})
    yield Export("rest.export.empty-text", "A text elem with empty text still writes the required Text.", "message",
                 {"elems": [{"text": {}}]})
    yield Export("rest.export.message-object", "Envelope fields: a message object in table order, defaults left out.",
                 "message", {"sender": "a", "receiver": "b", "seq": "7", "random": 9, "timestamp": "1700000000",
                             "cloudCustomData": b64(b"c"), "elems": [t]})
    yield Export("rest.export.cloud-custom-data-only", "Only cloud custom data set: a message object.", "message",
                 {"cloudCustomData": b64(b"c")})
    yield Export("rest.export.push-only", "Only offline push info set; AndroidInfo and ApnsInfo hold their non-default "
                 "keys, the iOS sound under ApnsInfo.", "message",
                 {"offlinePushInfo": {"title": "t", "iosSound": "s.caf", "android": {"vivoClassification": 1},
                                      "apns": {"mutableContent": 1}}, "elems": [t]})
    yield Export("rest.export.empty-push", "An offline push info holding only defaults is left out, so the message is a "
                 "bare array.", "message", {"offlinePushInfo": {"android": {}, "apns": {}}, "elems": [t]})
    yield Export("rest.export.batch", "A batch: {\"MsgList\": [...]} whose entries have From_Account, MsgSeq, MsgRandom, "
                 "MsgTimeStamp, MsgBody.", "batch",
                 {"messages": [{"sender": "a", "receiver": "b", "seq": "1", "random": 2, "timestamp": "3", "elems": [t]},
                               {"sender": "b", "groupId": "@TGS#1", "seq": "2", "random": 3, "timestamp": "4",
                                "elems": [t]}]})
    yield Export("rest.export.empty-batch", "The empty batch: {\"MsgList\": []}.", "batch", {})
    yield Export("rest.export.merger-msg-num-zero", "msg_num 0: MsgNum is the number of messages; MsgList entries always "
                 "have From_Account, MsgSeq, MsgRandom and MsgTimeStamp.", "message",
                 {"elems": [{"merger": {"title": "t", "compatibleText": "c", "messages": [{"elems": [t]}, {"elems": [t]}]}}]})
    yield Export("rest.export.merger-json-msg-key", "A merger with a JSON message key: JsonMsgKey instead of MsgList.",
                 "message", {"elems": [{"merger": {"title": "t", "abstracts": ["a", "b"], "msgNum": 40,
                                                   "jsonMsgKey": "k"}}]})
    yield Export("rest.export.sound-url-only", "A sound with a url and download flag 0: the current form, "
                 "Download_Flag 0 written.", "message", {"elems": [{"sound": {"uuid": "u", "url": "https://s", "size": 1}}]},
                 flags=["KeyOrderDecision"])
    yield Export("rest.export.sound-legacy", "A sound with neither url nor flag: the legacy form.", "message",
                 {"elems": [{"sound": {"uuid": "u", "size": 1, "duration": 2}}]})
    yield Export("rest.export.file-flag-only", "A file with only a download flag: the current form with Url \"\".",
                 "message", {"elems": [{"file": {"uuid": "f", "name": "n", "downloadFlag": 2}}]}, flags=["KeyOrderDecision"])
    yield Export("rest.export.video-one-flag", "A video with only snapshot_download_flag set: all four current-form keys.",
                 "message", {"elems": [{"video": {"videoUuid": "v", "snapshotDownloadFlag": 2}}]})
    yield Export("rest.export.image", "Image format and level types as integers; an unnamed format 7 as 7.", "message",
                 {"elems": [{"image": {"uuid": "i", "format": 7, "levels": [
                     {"type": "IMAGE_LEVEL_TYPE_ORIGINAL", "size": 1, "width": 2, "height": 3, "url": "u"},
                     {"type": "IMAGE_LEVEL_TYPE_THUMBNAIL"}]}}]})
    yield Export("rest.export.doubles", "Doubles in JavaScript's shortest form: -0, 1e-7, 30, 1e+21, "
                 "123456789012345680000, 0.1, 29.340656774469956.", "message",
                 {"elems": [{"location": {"desc": "a", "latitude": -0.0, "longitude": 1e-7}},
                            {"location": {"desc": "b", "latitude": 30.0, "longitude": 1e21}},
                            {"location": {"desc": "c", "latitude": 123456789012345680000.0, "longitude": 0.1}},
                            {"location": {"desc": "d", "latitude": 29.340656774469956, "longitude": -116.77497920478824}}]})
    yield Export("rest.export.strings", "Control characters, quote, backslash, slash, DEL, U+2028 and an emoji: only "
                 "what Sources/IMCodecREST/IMCodecREST.docc/REST.md names is escaped.", "message",
                 {"elems": [{"text": {"text": "\u0000\u0001\b\t\n\u000b\f\r\u001f\"\\/\u007f\u2028\u2029😀"}}]},
                 flags=["NulInString"])
    yield Export("rest.export.custom-and-face-data", "Custom and face data as their UTF-8 text; empty optional keys left "
                 "out; a negative face index.", "message",
                 {"elems": [{"custom": {"data": b64("猫瞳\u0000".encode())}}, {"face": {"index": -1, "data": ""}},
                            {"face": {"index": 3, "data": b64(b"abc")}}]}, flags=["MultiByte", "NulInString"])
    yield Export("rest.export.nested-merger-entry", "A merger whose message has a receiver, group and cloud custom data.",
                 "message", {"elems": [{"merger": {"title": "t", "messages": [
                     {"sender": "a", "receiver": "b", "groupId": "g", "cloudCustomData": b64(b"c"), "seq": "5", "elems": [t]}]}}]})

    yield Export("rest.export.every-kind", "One elem of each of the nine kinds in one message with a sender and "
                 "receiver.", "message",
                 {"sender": "a", "receiver": "b", "elems": [
                     t, {"location": {"desc": "d", "latitude": 1.5, "longitude": -2.25}}, {"face": {"index": 7}},
                     {"custom": {"data": b64(b"x"), "desc": "d", "sound": "s"}}, {"sound": {"uuid": "s", "size": 9}},
                     {"image": {"uuid": "i", "format": "IMAGE_FORMAT_PNG", "levels": [{"type": "IMAGE_LEVEL_TYPE_LARGE"}]}},
                     {"file": {"uuid": "f", "name": "n", "size": 3}},
                     {"video": {"videoUuid": "v", "videoFormat": "mp4", "snapshotFormat": "JPG"}},
                     {"merger": {"title": "t", "compatibleText": "c", "abstracts": ["x"],
                                 "messages": [{"sender": "a", "seq": "1", "random": 1, "timestamp": "1", "elems": [t]}]}}]})
    yield Export("rest.export.group-batch", "A batch of group messages: each entry names its group.", "batch",
                 {"messages": [{"sender": "u1", "groupId": "@TGS#1", "seq": str(i), "random": i, "timestamp": "1700000000",
                                "elems": [{"text": {"text": f"m{i}"}}]} for i in (1, 2, 3)]})
    yield Export("rest.export.nested-json-msg-key", "A merger forwarding a message that holds a merger with a JSON "
                 "message key.", "message",
                 {"elems": [{"merger": {"title": "outer", "messages": [
                     {"sender": "a", "receiver": "b", "seq": "1", "random": 2, "timestamp": "3", "elems": [
                         {"merger": {"title": "inner", "msgNum": 500, "jsonMsgKey": "key"}}]}]}}]})
    yield Export("rest.export.full-envelope", "Every envelope field and every push field.", "message",
                 {"sender": "a", "receiver": "b", "groupId": "g", "timestamp": "4294967295", "seq": "4294967295",
                  "random": 4294967295, "cloudCustomData": b64(b"ccd"), "elems": [t],
                  "offlinePushInfo": {"title": "t", "desc": "d", "ext": "e", "iosSound": "s", "pushFlag": 1,
                                      "android": {"sound": "as", "huaweiChannelId": "h", "xiaomiChannelId": "x",
                                                  "oppoChannelId": "o", "googleChannelId": "g", "vivoClassification": 1,
                                                  "huaweiImportance": "LOW", "extAsHuaweiIntentParam": 1,
                                                  "huaweiCategory": "IM"},
                                      "apns": {"badgeMode": 1, "title": "at", "subTitle": "st", "image": "i",
                                               "mutableContent": 1}}})
    yield Export("rest.export.file-legacy", "A file with neither url nor flag: UUID, FileSize, FileName.", "message",
                 {"elems": [{"file": {"uuid": "f", "name": "名字.txt", "size": 10}}]}, flags=["MultiByte"])
    yield Export("rest.export.video-current", "A video with every field set.", "message",
                 {"elems": [{"video": {"videoUuid": "v", "videoUrl": "https://v", "videoSize": 1, "videoDuration": 2,
                                       "videoFormat": "mp4", "snapshotUuid": "s", "snapshotUrl": "https://s",
                                       "snapshotSize": 3, "snapshotWidth": 4, "snapshotHeight": 5, "snapshotFormat": "JPG",
                                       "videoDownloadFlag": 2, "snapshotDownloadFlag": 2}}]})
    yield Export("rest.export.timestamp-bounds", "timestamp 0 is left out; seq 2³²−1 and random 0.", "message",
                 {"receiver": "b", "timestamp": "0", "seq": "4294967295", "elems": [t]})
    yield Export("rest.export.msg-id", "A message ID has no REST key.", "message", {"msgId": "m1", "elems": [t]},
                 error="msgId")
    yield Export("rest.export.group-type", "A group type has no REST key.", "message",
                 {"groupId": "@TGS#1", "groupType": "Public", "elems": [t]}, error="groupType")
    yield Export("rest.export.priority", "A priority has no REST key.", "message", {"priority": "PRIORITY_HIGH"},
                 error="priority")
    yield Export("rest.export.need-read-receipt", "A flag has no REST key.", "message", {"needReadReceipt": True},
                 error="needReadReceipt")
    yield Export("rest.export.seq-above-uint32", "seq 2³²: above MsgSeq's range.", "message",
                 {"seq": "4294967296"}, error="seq")


def unrepresentable_values():
    """Values the REST form cannot hold: rest.unrepresentable at the first one, in
    field-number order, depth first."""
    t = {"text": {"text": "hello"}}
    yield Export("rest.export.timestamp-negative", "timestamp −1: outside MsgTimeStamp's range.", "message",
                 {"timestamp": "-1"}, error="timestamp")
    yield Export("rest.export.field-order", "Both a priority (field 9) and a seq above uint32 (field 7): the seq comes "
                 "first in field-number order.", "message", {"seq": "4294967296", "priority": 1}, error="seq")
    yield Export("rest.export.message-before-elems", "A message ID (field 1) and a group tips elem (field 18).", "message",
                 {"msgId": "m", "elems": [{"groupTips": {"type": 1}}]}, error="msgId")
    for kind, value in (("groupTips", {"type": 1, "groupId": "@TGS#1"}), ("profileSystem", {"type": 1})):
        yield Export(f"rest.export.sdk-only.{kind}", f"A {kind} elem is produced by the server and SDKs; REST bodies "
                     "have no MsgType for it.", "message", {"elems": [t, {kind: value}]}, error=f"elems[1].{kind}")
    yield Export("rest.export.elem-of-no-kind", "An elem with no kind set.", "message", {"elems": [{}]},
                 error="elems[0]")
    yield Export("rest.export.custom-data-not-utf8", "Custom data that is not UTF-8 cannot be a JSON string.", "message",
                 {"elems": [{"custom": {"data": b64(b"\xff\xfe")}}]}, error="elems[0].custom.data")
    yield Export("rest.export.is-self", "isSelf (field 19) is local to one client; REST bodies have no key for it. "
                 "Field 19 follows the elems, so an unrepresentable elem is found first.", "message",
                 {"isSelf": True, "elems": [{"text": {"text": "t"}}]}, error="isSelf")
    yield Export("rest.export.is-self-after-elems", "isSelf and an SDK-only elem: the elem (field 18) comes first.",
                 "message", {"isSelf": True, "elems": [{"groupTips": {"type": 1}}]}, error="elems[0].groupTips")
    yield Export("rest.export.at-type", "atType (field 22, V2TIMGroupAtInfo.atType) is local to one client; REST "
                 "bodies have no key for it (and no @ list: a REST body with the @ list fails at atUserList first).",
                 "message", {"atType": "GROUP_AT_TYPE_AT_ME", "elems": [{"text": {"text": "t"}}]}, error="atType")
    yield Export("rest.export.sound-is-played", "A sound elem's played state (the red dot) is local to one client; "
                 "TIMSoundElem has no key for it.", "message",
                 {"elems": [{"sound": {"url": "https://x/s.m4a", "isPlayed": True}}]}, error="elems[0].sound.isPlayed")
    yield Export("rest.export.cloud-custom-data-not-utf8", "Cloud custom data is bytes in the model and a string in "
                 "REST: bytes that are not UTF-8 have no REST form.", "message",
                 {"cloudCustomData": b64(b"\xff\xfe\x80"), "elems": [{"custom": {"data": b64(b"\xff")}}]},
                 error="cloudCustomData")
    yield Export("rest.export.face-data-not-utf8", "Face data that is not UTF-8.", "message",
                 {"elems": [{"face": {"index": 1, "data": b64(b"\xc3")}}]}, error="elems[0].face.data")
    yield Export("rest.export.image-level-uuid", "An image level's uuid has no REST key.", "message",
                 {"elems": [{"image": {"uuid": "i", "format": 1, "levels": [{"type": 1, "uuid": "level-uuid"}]}}]},
                 error="elems[0].image.levels[0].uuid")
    yield Export("rest.export.image-level-type-0", "An image level of type 0: REST knows 1, 2, 3.", "message",
                 {"elems": [{"image": {"uuid": "i", "levels": [{"type": 1}, {"size": 5}]}}]},
                 error="elems[0].image.levels[1].type")
    yield Export("rest.export.location-nan", "A NaN latitude is not a JSON number.", "message",
                 {"elems": [{"location": {"desc": "x", "latitude": "NaN"}}]}, error="elems[0].location.latitude")
    yield Export("rest.export.location-infinite", "An infinite longitude.", "message",
                 {"elems": [{"location": {"desc": "x", "longitude": "-Infinity"}}]}, error="elems[0].location.longitude")
    yield Export("rest.export.layers-over-limit", "A merger's layers_over_limit has no REST key.", "message",
                 {"elems": [{"merger": {"title": "t", "layersOverLimit": True}}]}, error="elems[0].merger.layersOverLimit")
    yield Export("rest.export.msg-num-mismatch", "A merger whose msgNum 3 differs from its one message: MsgNum must "
                 "equal the length of MsgList.", "message",
                 {"elems": [{"merger": {"title": "t", "msgNum": 3, "messages": [{"sender": "a", "elems": [t]}]}}]},
                 error="elems[0].merger.msgNum")
    yield Export("rest.export.msg-num-without-messages", "A merger with msgNum 2 and neither messages nor a JSON message "
                 "key: it would be written with an empty MsgList, which MsgNum must then equal.", "message",
                 {"elems": [{"merger": {"title": "t", "msgNum": 2}}]}, error="elems[0].merger.msgNum")
    yield Export("rest.export.merger-messages-first", "A nested message ID (merger field 4) comes before "
                 "layers_over_limit (field 5): depth first.", "message",
                 {"elems": [{"merger": {"title": "t", "messages": [{"msgId": "inner", "elems": [t]}],
                                        "layersOverLimit": True}}]}, error="elems[0].merger.messages[0].msgId")
    yield Export("rest.export.batch-message", "The second message of a batch has a message ID.", "batch",
                 {"messages": [{"sender": "a", "seq": "1", "random": 1, "timestamp": "1", "elems": [t]},
                               {"msgId": "m", "elems": [t]}]}, error="messages[1].msgId")
    text_elem = ld(1, ld(1, b"hi") + tag(9, 0) + varint(1))
    yield Export("rest.export.unknown-field", "A text elem holding an unknown field (number 9): it would be lost, so it "
                 "is unrepresentable at the message holding it (docs/spec/payloads.md's path of an unknown field).", "message", None,
                 payload=ld(18, text_elem), error="elems[0].text", flags=["PathDecision"])


def write_export():
    vf = new_file("export", "REST export", "Writing model values as canonical REST documents (rest-export): the "
                  "bare MsgBody array, message objects, message lists, current and legacy forms, MsgNum, number and "
                  "string forms; and every kind of value the REST form cannot hold (rest.unrepresentable, with a "
                  "payload path, the first in field-number order, depth first).")
    for table in (exported_documents, unrepresentable_values):
        for row in table():
            exp(vf, *row)
    return vf.write()


# ---------------------------------------------------------------------------
# validate.json
# ---------------------------------------------------------------------------


def write_validate():
    vf = new_file("validate", "REST validation", "rest-validate: import problems as error findings (all of them), "
                  "the rules Sources/IMCodecREST/IMCodecREST.docc/REST.md measures on the REST form (12 KB body, download flags, image formats) in "
                  "both profiles, model rules with REST paths, and clean documents.")
    body_at = text_of_bytes(BODY_LIMIT)
    body_past = text_of_bytes(BODY_LIMIT + 1)
    for profile in ("sdk-guide", "current"):
        val(vf, f"rest.validate.{profile}.body-12288", "A bare MsgBody whose compact canonical JSON is exactly "
            f"{BODY_LIMIT:,} UTF-8 bytes.", profile, [], rest=body_at,
            flags=["AtLimit" if profile == "current" else "RuleOff"])
        val(vf, f"rest.validate.{profile}.body-12289", f"A bare MsgBody of {BODY_LIMIT + 1:,} bytes: past "
            f"{BODY_LIMIT // 1024} KB under current.",
            profile, [finding("limit.message.body-bytes", "MsgBody", BODY_LIMIT, BODY_LIMIT + 1)]
            if profile == "current" else [], rest=body_past, flags=["PastLimit" if profile == "current" else "RuleOff"])
    cjk = text_of_bytes(BODY_LIMIT, fill="中")
    val(vf, "rest.validate.current.body-12288-cjk", f"A message object whose MsgBody is exactly {BODY_LIMIT:,} bytes "
        "of "
        "mostly CJK text (3 bytes each); To_Account and CloudCustomData beside MsgBody do not count.", "current", [],
        rest={"To_Account": "user_b", "MsgBody": cjk, "CloudCustomData": "x" * 500}, flags=["AtLimit", "MultiByte"])
    val(vf, "rest.validate.current.body-12289-escapes", f"A body of {BODY_LIMIT + 1:,} bytes counted in the canonical "
        "text: each "
        "newline is written \\n (2 bytes), each NUL \\u0000 (6 bytes).", "current",
        [finding("limit.message.body-bytes", "MsgBody", BODY_LIMIT, BODY_LIMIT + 1)],
        rest=text_of_bytes(BODY_LIMIT + 1, prefix="\n" * 10 + "\u0000" * 10), flags=["PastLimit", "NulInString"])
    val(vf, "rest.validate.current.c2c-callback-doc", "The \"Callback After Sending One-to-One Message\" request "
        "(see rest.envelope.c2c-callback-doc): nothing to report.", "current", [], rest=C2C_CALLBACK_DOC,
        flags=["DocSample", "Envelope"])
    val(vf, "rest.validate.current.media-doc-samples", f"The 4.X sound, image, file and video samples of {MF}: "
        "download flags 2, ImageFormat 1, scaled levels without sizes; a bare body has no target.", "current", [],
        rest=[SOUND_DOC, IMAGE_DOC, FILE_DOC, VIDEO_DOC], flags=["DocSample"])
    val(vf, "rest.validate.current.legacy-forms", "Legacy sound, file and video have no download flag to check.",
        "current", [], rest=[SOUND_LEGACY_DOC, FILE_LEGACY_DOC, VIDEO_LEGACY_DOC], flags=["Legacy"])
    val(vf, "rest.validate.current.group-history-doc", f"The response of {GROUP_HISTORY_PAGE}: each message has "
        "the list's GroupId.", "current", [], rest=GROUP_HISTORY_DOC, flags=["DocSample", "Envelope"])
    for profile in ("sdk-guide", "current"):
        cur = profile == "current"
        val(vf, f"rest.validate.{profile}.download-flag-1", "A file with Download_Flag 1.", profile,
            [finding("rule.rest.download-flag", "MsgBody[0].MsgContent.Download_Flag")] if cur else [],
            rest=[el("TIMFileElem", dict(FILE_DOC["MsgContent"], Download_Flag=1))],
            flags=[] if cur else ["RuleOff"])
        val(vf, f"rest.validate.{profile}.thumb-download-flag-0", "A video with VideoDownloadFlag 2 and "
            "ThumbDownloadFlag 0: one finding, at the thumbnail's flag.", profile,
            [finding("rule.rest.download-flag", "MsgBody[0].MsgContent.ThumbDownloadFlag")] if cur else [],
            rest=[el("TIMVideoFileElem", dict(VIDEO_DOC["MsgContent"], ThumbDownloadFlag=0))],
            flags=[] if cur else ["RuleOff"])
        fmt7 = [el("TIMImageElem", {"UUID": "i", "ImageFormat": 7, "ImageInfoArray": [
            {"Type": 1, "Size": 100, "Width": 10, "Height": 10, "URL": "https://x/0"}]})]
        val(vf, f"rest.validate.{profile}.image-format-7", "ImageFormat 7: under current the REST rule's error "
            "replaces the model's warning; under sdk-guide only the warning.", profile,
            [finding("rule.rest.image-format", "MsgBody[0].MsgContent.ImageFormat")] if cur else
            [finding("enum.unknown-value", "MsgBody[0].MsgContent.ImageFormat", actual=7)], rest=fmt7)
        two_custom = [el("TIMCustomElem", {"Data": "1"}), el("TIMCustomElem", {"Data": "2"})]
        val(vf, f"rest.validate.{profile}.two-custom-elems", "Two TIMCustomElems in one body: under current the "
            "second breaks the one-per-message rule.", profile,
            [finding("limit.message.custom-elems", "MsgBody[1]", 1, 2)] if cur else [], rest=two_custom,
            flags=["PastLimit"] if cur else ["RuleOff"])
        val(vf, f"rest.validate.{profile}.latitude-90.5", "Latitude 90.5 is outside [-90, 90].", profile,
            [finding("range.location.latitude", "MsgBody[0].MsgContent.Latitude", 90)],
            rest=[el("TIMLocationElem", {"Desc": "x", "Latitude": 90.5, "Longitude": 0})])
        # M17, M18 at their bounds, in both profiles.
        val(vf, f"rest.validate.{profile}.empty-body", "An empty MsgBody: a message holds at least one element.",
            profile, [finding("rule.message.elems-missing", "MsgBody")], rest=[])
        val(vf, f"rest.validate.{profile}.one-element-body", "A MsgBody of exactly one element.", profile, [],
            rest=[TEXT_HELLO], flags=["AtLimit"])
        val(vf, f"rest.validate.{profile}.message-empty-body", "A message object whose MsgBody is empty.",
            profile, [finding("rule.message.elems-missing", "MsgBody")],
            rest={"From_Account": "user_a", "To_Account": "user_b", "MsgBody": []})
        val(vf, f"rest.validate.{profile}.image-no-entries", "A TIMImageElem whose ImageInfoArray is empty.",
            profile, [finding("rule.image.levels-missing", "MsgBody[0].MsgContent.ImageInfoArray")],
            rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": []})])
        val(vf, f"rest.validate.{profile}.image-one-entry", "A TIMImageElem with exactly one ImageInfoArray entry.",
            profile, [], rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 1, "ImageInfoArray": [
                {"Type": 3, "Size": 100, "Width": 198, "Height": 300, "URL": "https://x/3"}]})], flags=["AtLimit"])
        val(vf, f"rest.validate.{profile}.no-target", "A message object naming neither To_Account nor GroupId: "
            "REST requests name their target in the call, so no target rule.", profile, [],
            rest={"From_Account": "user_a", "MsgBody": [TEXT_HELLO]})
        val(vf, f"rest.validate.{profile}.two-targets", "A message object naming both To_Account and GroupId.",
            profile, [finding("rule.message.target-ambiguous", "")],
            rest={"From_Account": "user_a", "To_Account": "user_b", "GroupId": "g", "MsgBody": [TEXT_HELLO]})
    val(vf, "rest.validate.sdk-guide.c2c-callback-doc", "The one-to-one callback sample under the sdk-guide profile.", "sdk-guide",
        [], rest=C2C_CALLBACK_DOC, flags=["DocSample", "Envelope"])
    val(vf, "rest.validate.sdk-guide.media-doc-samples", f"The 4.X media samples of {MF} under the sdk-guide profile.", "sdk-guide",
        [], rest=[SOUND_DOC, IMAGE_DOC, FILE_DOC, VIDEO_DOC], flags=["DocSample"])
    val(vf, "rest.validate.current.location-bounds", "Latitude ±90 and longitude ±180: bounds included.", "current",
        [], rest=[el("TIMLocationElem", {"Desc": "n", "Latitude": 90, "Longitude": -180}),
                  el("TIMLocationElem", {"Desc": "s", "Latitude": -90, "Longitude": 180})])
    val(vf, "rest.validate.current.one-custom-elem", "One TIMCustomElem beside a text: at the limit.", "current", [],
        rest=[text("hello"), CUSTOM_DOC], flags=["AtLimit"])
    val(vf, "rest.validate.current.image-format-255", "ImageFormat 255 (other) is documented.", "current", [],
        rest=[el("TIMImageElem", {"UUID": "i", "ImageFormat": 255, "ImageInfoArray": [
            {"Type": 1, "Size": 100, "Width": 10, "Height": 10, "URL": "https://x/0"}]})])
    val(vf, "rest.validate.current.user-id-32-bytes", "From_Account of 32 bytes: at the limit.", "current", [],
        rest={"From_Account": "u" * 32, "To_Account": "user_b", "MsgBody": [TEXT_HELLO]}, flags=["AtLimit"])
    val(vf, "rest.validate.current.c2c-history-doc", f"The response of {C2C_HISTORY_PAGE}.", "current", [],
        rest=C2C_HISTORY_DOC, flags=["DocSample", "Envelope"])
    val(vf, "rest.validate.current.sendmsg-doc", "The sendmsg request (see rest.envelope.sendmsg-doc).", "current",
        [], rest=SENDMSG_DOC, flags=["DocSample", "Envelope"])
    val(vf, "rest.validate.sdk-guide.bare-body-no-target", "A bare MsgBody is a body, not a message: no target rule.",
        "sdk-guide", [], rest=[TEXT_HELLO])
    val(vf, "rest.validate.current.list-two-targets", "A message list validated message by message: the second "
        "names a receiver and a group.", "current", [finding("rule.message.target-ambiguous", "MsgList[1]")],
        rest={"MsgList": [entry([TEXT_HELLO]), entry([TEXT_HELLO], GroupId="g")]})
    val(vf, "rest.validate.current.user-id-33-bytes", "From_Account of 33 bytes: past the 32-byte user ID limit.",
        "current", [finding("limit.user.id-bytes", "From_Account", 32, 33)],
        rest={"From_Account": "u" * 33, "To_Account": "user_b", "MsgBody": [TEXT_HELLO]}, flags=["PastLimit"])
    val(vf, "rest.validate.sdk-guide.import-problems", "Every import problem is an error finding, in document order: "
        "MsgSeq out of range, To_Account a number, a missing Text, an unknown MsgType.", "sdk-guide",
        [finding("rest.range", "MsgSeq"), finding("rest.type", "To_Account"),
         finding("rest.missing-key", "MsgBody[0].MsgContent.Text"), finding("rest.msg-type", "MsgBody[1].MsgType")],
        rest={"MsgSeq": -1, "To_Account": 5, "MsgBody": [el("TIMTextElem", {}), el("TIMFooElem", {})]})
    val(vf, "rest.validate.current.import-problems-skip-rules", "Import problems stop there: the ImageFormat 7 of "
        "the second element is not judged, only the key-case of the first.", "current",
        [finding("rest.key-case", "MsgBody[0].MsgContent.text")], rest=[el("TIMTextElem", {"text": "a"})] + fmt7)
    val(vf, "rest.validate.sdk-guide.duplicate-key", "A duplicate key is an import problem.", "sdk-guide",
        [finding("rest.duplicate-key", "MsgBody[0].MsgContent.Text")],
        text='[{"MsgType":"TIMTextElem","MsgContent":{"Text":"a","Text":"b"}}]')
    keys = ["From_Account", "MsgSeq", "MsgRandom", "MsgTimeStamp", "MsgBody"]
    val(vf, "rest.validate.sdk-guide.problems-past-limit", "A TIMRelayElem with MsgNum 1 and a MsgList of 20 empty "
        "messages: 5 missing keys each, then the wrong MsgNum after the list, 101 problems. The first 100 in "
        "document order are reported, then limit.problems with their number: the MsgNum problem, found before "
        "the list is read, is the one left out.", "sdk-guide",
        [finding("rest.missing-key", f"MsgBody[0].MsgContent.MsgList[{i}].{key}") for i in range(20) for key in keys]
        + [finding("limit.problems", "", MAX_PROBLEMS, 101)],
        rest=[el("TIMRelayElem", {"Title": "t", "MsgNum": 1, "CompatibleText": "c", "AbstractList": [],
                                  "MsgList": [{} for _ in range(20)]})], flags=["PastLimit"])
    val(vf, "rest.validate.sdk-guide.relay-list-key-and-msg-num", "A TIMRelayElem with MsgList, JsonMsgKey and a MsgNum "
        "that is not the list's length: both problems, at the end of the content in this order.", "sdk-guide",
        [finding("rest.relay-list-and-key", "MsgBody[0].MsgContent"),
         finding("rest.relay-msg-num", "MsgBody[0].MsgContent.MsgNum")],
        rest=[el("TIMRelayElem", {"Title": "t", "MsgNum": 2, "CompatibleText": "c", "AbstractList": [],
                                  "MsgList": [entry([TEXT_HELLO])], "JsonMsgKey": "k"})])
    val(vf, "rest.validate.current.relay-doc-sample", f"The TIMRelayElem sample of {MF}: forwarded group messages "
        "name their group; two abstracts, compatible text set.", "current", [], rest=[relay_doc_sample()],
        flags=["DocSample"])
    return vf.write()


def main():
    report([write_elems(), write_envelope(), write_relay(), write_strictness(), write_export(), write_validate()])


if __name__ == "__main__":
    main()
